//! `gatun_operator_*`: the one native operator handle. A handle owns one operator kind
//! (`ops`), the import of its input batches and its output schema (see `gatun.h`).

use std::ffi::c_char;
use std::sync::{Arc, Mutex, MutexGuard};

use arrow::array::Array;
use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use arrow::ffi::{FFI_ArrowArray, FFI_ArrowSchema};

use super::abi::{GatunStateStats, GatunWatermarkProgress};
use super::export::{export_field, export_owned};
use super::guard::{check_arg, guard};
use super::input::BatchImport;
use super::live_handles::LiveHandles;
use super::roundtrip::take_array;
use super::stats::handle_created;
use crate::ops::output::OutputFormat;
use crate::ops::rowkind::InputSchema;
use crate::ops::watermark::Progress;
use crate::ops::{self, Kind, NativeOperator};
use crate::{GatunError, GatunResult};

/// Opaque `GatunOperator` handle.
pub struct GatunOperator {
    kind: Kind,
    input: BatchImport,
    assigns_watermarks: bool,
    /// Calls on one handle take turns (a kind may keep state between batches).
    operator: Mutex<Box<dyn NativeOperator>>,
}

static LIVE: LiveHandles = LiveHandles::new("op", "GatunOperator");

impl GatunOperator {
    /// The operator, unless an earlier call panicked while holding it.
    fn lock(&self) -> GatunResult<MutexGuard<'_, Box<dyn NativeOperator>>> {
        self.operator.lock().map_err(|_| {
            GatunError::execution(
                "the operator panicked in an earlier call and its state is unknown; free it",
            )
        })
    }
}

/// See `gatun.h`. On success `*out_schema` holds the output schema (counted export)
/// and `*out_operator` the new handle; on failure neither is written.
///
/// # Safety
///
/// `plan` must be valid for reads of `plan_len` bytes; the schema pointers must be
/// NULL or point to aligned `ArrowSchema`s (the input ones live, borrowed for the
/// call); `out_schema` and `out_operator` must be NULL or valid for writes; `err_buf`
/// must be NULL or valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_create(
    kind: u32,
    plan: *const u8,
    plan_len: usize,
    input_schema: *const FFI_ArrowSchema,
    expected_output_schema: *const FFI_ArrowSchema,
    output_format: i32,
    out_schema: *mut FFI_ArrowSchema,
    out_operator: *mut *mut GatunOperator,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        let kind = Kind::from_abi(kind)?;
        check_arg(plan, "plan")?;
        check_arg(out_schema.cast_const(), "out_schema")?;
        check_arg(out_operator.cast_const(), "out_operator")?;
        let format = OutputFormat::from_abi(output_format)?;
        // SAFETY: pointer validity is this function's contract.
        let input = unsafe { live_schema(input_schema, "input_schema")? };
        // SAFETY: as above.
        let expected = unsafe { live_schema(expected_output_schema, "expected_output_schema")? };
        // SAFETY: `plan` is non-NULL and valid for `plan_len` bytes (contract).
        let bytes = unsafe { std::slice::from_raw_parts(plan, plan_len) };
        let input = InputSchema::new(import_schema(input, "input_schema")?, "input_schema")?;
        let expected = import_schema(expected, "expected_output_schema")?;
        let operator = ops::create(kind, bytes, &input, &expected, format)?;
        let read_as_text = operator.reads_as_text(input.columns.fields().len());
        let output = Field::new(
            "",
            DataType::Struct(operator.output_fields().clone()),
            false,
        );
        let schema = export_field(&output)
            .map_err(|e| GatunError::arrow("cannot export the output schema", e))?;
        let handle = Box::into_raw(Box::new(GatunOperator {
            kind,
            input: BatchImport::new(input, &read_as_text),
            assigns_watermarks: operator.assigns_watermarks(),
            operator: Mutex::new(operator),
        }));
        LIVE.insert(handle);
        handle_created();
        // SAFETY: both are non-NULL, aligned (checked) and valid for writes (contract);
        // the previous contents are not read or dropped.
        unsafe {
            out_schema.write(schema);
            out_operator.write(handle);
        }
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_create", err_buf, err_cap, body) }
}

/// A live, borrowed `ArrowSchema`.
///
/// # Safety
///
/// `ptr` must be NULL or point to an `ArrowSchema` valid for the call.
unsafe fn live_schema<'a>(
    ptr: *const FFI_ArrowSchema,
    name: &str,
) -> GatunResult<&'a FFI_ArrowSchema> {
    check_arg(ptr, name)?;
    // SAFETY: non-NULL and aligned (checked), valid for the call (contract).
    let schema = unsafe { &*ptr };
    if schema.release.is_none() {
        return Err(GatunError::invalid_argument(format!(
            "argument `{name}` is released (release is NULL)"
        )));
    }
    Ok(schema)
}

fn import_schema(schema: &FFI_ArrowSchema, argument: &str) -> GatunResult<SchemaRef> {
    Schema::try_from(schema).map(Arc::new).map_err(|e| {
        GatunError::arrow(
            &format!("invalid `{argument}` (must be a struct \"+s\" schema)"),
            e,
        )
    })
}

/// See `gatun.h`. `input` is consumed on every path where it is a live array; on
/// success `*output` holds the result batch (counted export) when the operator emits
/// one and `*progress` the new state; on failure neither is written.
///
/// # Safety
///
/// `op` must be NULL or a pointer (live handles are checked against the registry);
/// `input` and `output` must be NULL or valid, aligned `ArrowArray`s, `input` being a
/// struct array of the handle's input schema following the C Data Interface;
/// `progress` must be NULL or valid for reads and writes; `err_buf` must be NULL or
/// valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_process(
    op: *mut GatunOperator,
    input: *mut FFI_ArrowArray,
    progress: *mut GatunWatermarkProgress,
    output: *mut FFI_ArrowArray,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        // Consume the input first, so that it is released on every later path.
        // SAFETY: pointer validity is this function's contract.
        let batch = unsafe { take_array(input, "input")? };
        LIVE.check(op)?;
        check_arg(output.cast_const(), "output")?;
        // SAFETY: `op` is a live handle (checked); the caller does not free it during
        // the call (contract).
        let handle = unsafe { &*op };
        // SAFETY: NULL or valid for reads (contract).
        let mut state = unsafe { read_progress(progress, handle.assigns_watermarks)? };
        let (batch, row_kind) = handle.input.import(batch)?;
        let result = handle.lock()?.process(batch, row_kind, state.as_mut())?;
        if let Some(state) = state {
            // SAFETY: non-NULL and aligned whenever there is a state (read_progress),
            // valid for writes (contract).
            unsafe { progress.write(to_abi(state)) };
        }
        if let Some(result) = result {
            // SAFETY: non-NULL, aligned (checked) and valid for writes (contract).
            unsafe { output.write(export_owned(result.into_data())) };
        }
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_process", err_buf, err_cap, body) }
}

/// The progress the call starts from: `Some` exactly when the plan assigns watermarks,
/// and then `progress` must be non-NULL; otherwise it must be NULL.
///
/// # Safety
///
/// `progress` must be NULL or valid for reads of a `GatunWatermarkProgress`.
unsafe fn read_progress(
    progress: *const GatunWatermarkProgress,
    assigns_watermarks: bool,
) -> GatunResult<Option<Progress>> {
    if !assigns_watermarks {
        if !progress.is_null() {
            return Err(GatunError::invalid_argument(
                "argument `progress` must be NULL: the operator's plan assigns no watermarks",
            ));
        }
        return Ok(None);
    }
    check_arg(progress, "progress").map_err(|e| {
        GatunError::invalid_argument(format!(
            "{} (the operator's plan assigns watermarks)",
            e.message()
        ))
    })?;
    // SAFETY: non-NULL and aligned (checked), valid for reads (contract).
    let p = unsafe { progress.read() };
    Ok(Some(Progress {
        current: p.current,
        last: p.last,
        interval: p.interval,
        after: None,
        mini_batch_next: p.mini_batch_next,
    }))
}

fn to_abi(p: Progress) -> GatunWatermarkProgress {
    GatunWatermarkProgress {
        current: p.current,
        last: p.last,
        interval: p.interval,
        after: p.after.unwrap_or(i64::MIN),
        mini_batch_next: p.mini_batch_next,
    }
}

/// See `gatun.h`. On success `*output` holds what the operator emits (counted export),
/// if anything; on failure it is not written.
///
/// # Safety
///
/// `op` must be NULL or a pointer (checked against the live handles); `output` must be
/// NULL or a valid, aligned `ArrowArray`; `err_buf` must be NULL or valid for writes of
/// `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_flush(
    op: *mut GatunOperator,
    output: *mut FFI_ArrowArray,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        LIVE.check(op)?;
        check_arg(output.cast_const(), "output")?;
        // SAFETY: a live handle (checked), not freed during the call (contract).
        let handle = unsafe { &*op };
        if let Some(result) = handle.lock()?.flush()? {
            // SAFETY: non-NULL, aligned (checked) and valid for writes (contract).
            unsafe { output.write(export_owned(result.into_data())) };
        }
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_flush", err_buf, err_cap, body) }
}

/// See `gatun.h`. On success `*output` holds what the operator emits before the watermark
/// `watermark` passes on (counted export), if anything; on failure it is not written.
///
/// # Safety
///
/// As [`gatun_operator_flush`].
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_advance(
    op: *mut GatunOperator,
    watermark: i64,
    output: *mut FFI_ArrowArray,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        LIVE.check(op)?;
        check_arg(output.cast_const(), "output")?;
        // SAFETY: a live handle (checked), not freed during the call (contract).
        let handle = unsafe { &*op };
        if let Some(result) = handle.lock()?.advance(watermark)? {
            // SAFETY: non-NULL, aligned (checked) and valid for writes (contract).
            unsafe { output.write(export_owned(result.into_data())) };
        }
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_advance", err_buf, err_cap, body) }
}

/// See `gatun.h`. On success `*out_bytes` holds the bytes the operator keeps between calls.
///
/// # Safety
///
/// `op` must be NULL or a pointer (checked against the live handles); `out_bytes` must be
/// NULL or valid for writes; `err_buf` must be NULL or valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_held_bytes(
    op: *mut GatunOperator,
    out_bytes: *mut i64,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        LIVE.check(op)?;
        check_arg(out_bytes.cast_const(), "out_bytes")?;
        // SAFETY: a live handle (checked), not freed during the call (contract).
        let handle = unsafe { &*op };
        let bytes = handle.lock()?.held_bytes();
        // SAFETY: non-NULL, aligned (checked) and valid for writes (contract).
        unsafe { out_bytes.write(i64::try_from(bytes).unwrap_or(i64::MAX)) };
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_held_bytes", err_buf, err_cap, body) }
}

impl GatunOperator {
    /// Fails naming the handle's kind unless it keeps state.
    fn require_state(&self, call: &str) -> GatunResult {
        if self.kind == Kind::WindowAggregate {
            return Ok(());
        }
        Err(GatunError::invalid_argument(format!(
            "{call} takes a GATUN_OPERATOR_WINDOW_AGGREGATE operator; `op` is a {}",
            self.kind.abi_name()
        )))
    }
}

/// See `gatun.h`. On success `*output` holds the state per key group (counted export).
///
/// # Safety
///
/// As [`gatun_operator_flush`].
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_snapshot(
    op: *mut GatunOperator,
    max_parallelism: i32,
    output: *mut FFI_ArrowArray,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        LIVE.check(op)?;
        check_arg(output.cast_const(), "output")?;
        // SAFETY: a live handle (checked), not freed during the call (contract).
        let handle = unsafe { &*op };
        handle.require_state("gatun_operator_snapshot")?;
        let result = handle.lock()?.snapshot(max_parallelism)?;
        // SAFETY: non-NULL, aligned (checked) and valid for writes (contract).
        unsafe { output.write(export_owned(result.into_data())) };
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_snapshot", err_buf, err_cap, body) }
}

/// See `gatun.h`. Adds one section of a snapshot to the operator's state.
///
/// # Safety
///
/// `op` must be NULL or a pointer (checked against the live handles); `section` must be
/// NULL or valid for reads of `section_len` bytes; `err_buf` must be NULL or valid for
/// writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_restore(
    op: *mut GatunOperator,
    section: *const u8,
    section_len: usize,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        LIVE.check(op)?;
        check_arg(section, "section")?;
        // SAFETY: a live handle (checked), not freed during the call (contract).
        let handle = unsafe { &*op };
        handle.require_state("gatun_operator_restore")?;
        // SAFETY: non-NULL and valid for `section_len` bytes (contract).
        let bytes = unsafe { std::slice::from_raw_parts(section, section_len) };
        handle.lock()?.restore(bytes)
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_restore", err_buf, err_cap, body) }
}

/// See `gatun.h`. Sets the progress a restored operator continues from.
///
/// # Safety
///
/// `op` must be NULL or a pointer (checked against the live handles); `err_buf` must be
/// NULL or valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_restore_progress(
    op: *mut GatunOperator,
    progress: i64,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        LIVE.check(op)?;
        // SAFETY: a live handle (checked), not freed during the call (contract).
        let handle = unsafe { &*op };
        handle.require_state("gatun_operator_restore_progress")?;
        handle.lock()?.restore_progress(progress)
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_restore_progress", err_buf, err_cap, body) }
}

/// See `gatun.h`. Bounds the operator's native state.
///
/// # Safety
///
/// `op` must be NULL or a pointer (checked against the live handles); `err_buf` must be
/// NULL or valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_limit_state(
    op: *mut GatunOperator,
    max_bytes: i64,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        LIVE.check(op)?;
        // SAFETY: a live handle (checked), not freed during the call (contract).
        let handle = unsafe { &*op };
        handle.require_state("gatun_operator_limit_state")?;
        handle.lock()?.limit_state(max_bytes)
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_limit_state", err_buf, err_cap, body) }
}

/// See `gatun.h`. On success `*out` holds the operator's state statistics.
///
/// # Safety
///
/// `op` must be NULL or a pointer (checked against the live handles); `out` must be NULL or
/// valid for writes; `err_buf` must be NULL or valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_state_stats(
    op: *mut GatunOperator,
    out: *mut GatunStateStats,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        LIVE.check(op)?;
        check_arg(out.cast_const(), "out")?;
        // SAFETY: a live handle (checked), not freed during the call (contract).
        let handle = unsafe { &*op };
        let stats = handle.lock()?.state_stats();
        // SAFETY: non-NULL, aligned (checked) and valid for writes (contract).
        unsafe { out.write(stats.into()) };
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_state_stats", err_buf, err_cap, body) }
}

/// See `gatun.h`. Frees a live handle exactly once.
///
/// # Safety
///
/// `op` must not be in use by another call; `err_buf` must be NULL or valid for writes
/// of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_operator_free(
    op: *mut GatunOperator,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    // SAFETY: LIVE holds only handles made by `Box::into_raw` in gatun_operator_create.
    let body = || unsafe { LIVE.free(op) };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_operator_free", err_buf, err_cap, body) }
}

#[cfg(test)]
mod tests {
    use std::ffi::CStr;
    use std::ptr;

    use arrow::array::{ArrayRef, Int32Array, RecordBatch, StructArray};
    use arrow::datatypes::{DataType, Field, Fields, Schema};

    use super::*;
    use crate::ffi::abi::{GATUN_ERR_EXECUTION, GATUN_ERR_PANIC, GATUN_OK};
    use crate::ffi::export::export_array;

    /// A kind whose every call panics (no shipped kind should).
    #[derive(Debug)]
    struct Panics(Fields);

    impl NativeOperator for Panics {
        fn output_fields(&self) -> &Fields {
            &self.0
        }

        fn assigns_watermarks(&self) -> bool {
            false
        }

        fn process(
            &mut self,
            _: RecordBatch,
            _: Option<ArrayRef>,
            _: Option<&mut Progress>,
        ) -> GatunResult<Option<arrow::array::StructArray>> {
            panic!("a kind's bug");
        }

        fn flush(&mut self) -> GatunResult<Option<arrow::array::StructArray>> {
            Ok(None)
        }
    }

    fn message(buf: &[c_char]) -> String {
        // SAFETY: the guard NUL-terminates within the buffer.
        unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn a_panic_inside_a_kind_leaves_a_handle_that_refuses_work_and_can_be_freed() {
        let schema = Arc::new(Schema::new(vec![Field::new("a", DataType::Int32, true)]));
        let input = InputSchema::new(Arc::clone(&schema), "input_schema").unwrap();
        let handle = Box::into_raw(Box::new(GatunOperator {
            kind: Kind::Calc,
            input: BatchImport::new(input, &[true]),
            assigns_watermarks: false,
            operator: Mutex::new(Box::new(Panics(Fields::empty()))),
        }));
        LIVE.insert(handle);
        handle_created();
        let batch = || {
            let a: ArrayRef = Arc::new(Int32Array::from(vec![1]));
            let batch = RecordBatch::try_new(Arc::clone(&schema), vec![a]).unwrap();
            export_array(&arrow::array::Array::to_data(&StructArray::from(batch)))
        };
        let mut err = [0 as c_char; 256];
        let mut out = FFI_ArrowArray::empty();
        let mut process = |expected: i32| {
            let mut input = batch();
            // SAFETY: valid pointers; `handle` is live.
            let status = unsafe {
                gatun_operator_process(
                    handle,
                    &mut input,
                    ptr::null_mut(),
                    &mut out,
                    err.as_mut_ptr(),
                    err.len(),
                )
            };
            assert_eq!(status, expected, "{}", message(&err));
            assert!(input.is_released() && out.is_released());
            message(&err)
        };
        assert!(process(GATUN_ERR_PANIC).contains("a kind's bug"));
        let m = process(GATUN_ERR_EXECUTION);
        assert!(m.contains("panicked in an earlier call"), "{m}");
        // SAFETY: as above.
        let status = unsafe { gatun_operator_flush(handle, &mut out, err.as_mut_ptr(), err.len()) };
        assert_eq!(status, GATUN_ERR_EXECUTION);
        // SAFETY: `handle` is live and freed once here.
        let status = unsafe { gatun_operator_free(handle, err.as_mut_ptr(), err.len()) };
        assert_eq!(status, GATUN_OK, "{}", message(&err));
    }
}
