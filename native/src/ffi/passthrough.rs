//! `gatun_passthrough_*`: the bare crossing, for benchmarks and crossing tests.
//!
//! A handle keeps the schema (crossed once, at create). Per batch the input
//! `ArrowArray` is moved in, shape-checked and imported exactly as
//! `gatun_operator_process` does (`import::import_array`: no copy, alignment fixed only
//! when needed, `validate` only for what the shape check does not prove), then the
//! same buffers are exported back out (`export::export_owned`). Unlike
//! `gatun_roundtrip` there is no `validate_full`: values are never read, so the cost
//! is the crossing itself.

use std::ffi::c_char;

use arrow::datatypes::Field;
use arrow::ffi::{FFI_ArrowArray, FFI_ArrowSchema};

use crate::ffi::abi::GATUN_ERR_ARROW;
use crate::ffi::c_shape::ShapePlan;
use crate::ffi::export::export_owned;
use crate::ffi::guard::{check_arg, guard, GatunError};
use crate::ffi::import::{import_array, ImportError};
use crate::ffi::live_handles::LiveHandles;
use crate::ffi::roundtrip::take_array;
use crate::ffi::stats::handle_created;

/// Opaque `GatunPassthrough` handle: the shape every array must have (a struct for a batch).
pub struct GatunPassthrough {
    batch: ShapePlan,
}

static LIVE: LiveHandles = LiveHandles::new("passthrough", "GatunPassthrough");

/// See `gatun.h`. On success `*out` holds the new handle; on failure it is not written.
///
/// # Safety
///
/// `schema` must be NULL or point to an aligned, live `ArrowSchema` (borrowed for the
/// call); `out` must be NULL or valid for writes; `err_buf` must be NULL or valid for
/// writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_passthrough_create(
    schema: *const FFI_ArrowSchema,
    out: *mut *mut GatunPassthrough,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        check_arg(schema, "schema")?;
        check_arg(out.cast_const(), "out")?;
        // SAFETY: non-NULL and aligned (checked), valid for the call (contract).
        let schema = unsafe { &*schema };
        if schema.release.is_none() {
            return Err(GatunError::invalid_argument(
                "argument `schema` is released (release is NULL)",
            ));
        }
        let field =
            Field::try_from(schema).map_err(|e| GatunError::arrow("invalid `schema`", e))?;
        let handle = Box::into_raw(Box::new(GatunPassthrough {
            batch: ShapePlan::new(field.data_type()),
        }));
        LIVE.insert(handle);
        handle_created();
        // SAFETY: non-NULL, aligned (checked) and valid for writes (contract).
        unsafe { out.write(handle) };
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_passthrough_create", err_buf, err_cap, body) }
}

/// See `gatun.h`. `input` is consumed on every path where it is a live array; on
/// success `*output` holds the same buffers (counted export), on failure it is not
/// written.
///
/// # Safety
///
/// `passthrough` must be NULL or a pointer (checked against the live handles); `input`
/// and `output` must be NULL or valid, aligned `ArrowArray`s, `input` following the C
/// Data Interface; `err_buf` must be NULL or valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_passthrough(
    passthrough: *mut GatunPassthrough,
    input: *mut FFI_ArrowArray,
    output: *mut FFI_ArrowArray,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        // Consume the input first, so that it is released on every later path.
        // SAFETY: pointer validity is this function's contract.
        let batch = unsafe { take_array(input, "input")? };
        LIVE.check(passthrough)?;
        check_arg(output.cast_const(), "output")?;
        // SAFETY: a live handle (checked), not freed during the call (contract).
        let plan = unsafe { &(*passthrough).batch };
        // SAFETY: `batch` is live; its pointers are valid for its counts (contract).
        let data = unsafe { import_array(plan, batch, "input") }.map_err(|e| match e {
            ImportError::Shape(e) => GatunError::new(
                GATUN_ERR_ARROW,
                format!("the input batch does not match the schema: {e}"),
            ),
            ImportError::Import(e) => GatunError::arrow("cannot import the input batch", e),
            ImportError::Invalid(e) => GatunError::arrow("invalid input batch", e),
        })?;
        // SAFETY: non-NULL, aligned (checked) and valid for writes (contract).
        unsafe { output.write(export_owned(data)) };
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_passthrough", err_buf, err_cap, body) }
}

/// See `gatun.h`. Frees a live handle exactly once.
///
/// # Safety
///
/// `passthrough` must not be in use by another call; `err_buf` must be NULL or valid
/// for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_passthrough_free(
    passthrough: *mut GatunPassthrough,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    // SAFETY: LIVE holds only handles made by `Box::into_raw` in gatun_passthrough_create.
    let body = || unsafe { LIVE.free(passthrough) };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_passthrough_free", err_buf, err_cap, body) }
}
