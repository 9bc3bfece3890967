//! `gatun_calc_*`: a Flink Calc (projection + filter) compiled once from a Substrait
//! `ExtendedExpression` and evaluated batch by batch (see `gatun.h`).
//!
//! - [`plan`]: Substrait → admitted logical expressions → guarded physical ones;
//! - [`validate`]: the admission rules; [`guard`]: Flink's row-wise short-circuit;
//! - [`create`] / [`evaluate`]: the handle's two phases; [`rowkind`]: the sidecar;
//! - [`output`]: Arrow columns or Flink rows (`crate::flink_row`).

mod create;
mod evaluate;
mod guard;
mod output;
mod plan;
mod rowkind;
mod validate;

use std::ffi::c_char;

use arrow::ffi::{FFI_ArrowArray, FFI_ArrowSchema};

pub use create::Calc;
pub use output::{Output, OutputFormat};
pub use plan::FILTER_NAME;
pub use rowkind::ROW_KIND_COLUMN;

use crate::export::export_field;
use crate::ffi_guard::{check_arg, guard, GatunError, GatunResult};
use crate::live_handles::LiveHandles;
use crate::roundtrip::take_array;
use crate::stats::{handle_created, handle_freed};

/// Opaque `GatunCalc` handle: a boxed [`Calc`].
pub struct GatunCalc(Calc);

static LIVE: LiveHandles = LiveHandles::new("calc", "GatunCalc");

/// See `gatun.h`. On success `*out_schema` holds the output schema (counted export)
/// and `*out_calc` the new handle; on failure neither is written.
///
/// # Safety
///
/// `plan` must be valid for reads of `plan_len` bytes; the schema pointers must be
/// NULL or point to aligned `ArrowSchema`s (the input ones live, borrowed for the
/// call); `out_schema` and `out_calc` must be NULL or valid for writes; `err_buf` must
/// be NULL or valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_calc_create(
    plan: *const u8,
    plan_len: usize,
    input_schema: *const FFI_ArrowSchema,
    expected_output_schema: *const FFI_ArrowSchema,
    output_format: i32,
    out_schema: *mut FFI_ArrowSchema,
    out_calc: *mut *mut GatunCalc,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        check_arg(plan, "plan")?;
        check_arg(out_schema.cast_const(), "out_schema")?;
        check_arg(out_calc.cast_const(), "out_calc")?;
        let format = OutputFormat::from_abi(output_format)?;
        // SAFETY: pointer validity is this function's contract.
        let input = unsafe { live_schema(input_schema, "input_schema")? };
        // SAFETY: as above.
        let expected = unsafe { live_schema(expected_output_schema, "expected_output_schema")? };
        // SAFETY: `plan` is non-NULL and valid for `plan_len` bytes (contract).
        let bytes = unsafe { std::slice::from_raw_parts(plan, plan_len) };
        let calc = Calc::create(bytes, input, expected, format)?;
        let schema = export_field(&calc.output_field())
            .map_err(|e| GatunError::arrow("cannot export the output schema", e))?;
        let handle = Box::into_raw(Box::new(GatunCalc(calc)));
        LIVE.insert(handle);
        handle_created();
        // SAFETY: both are non-NULL, aligned (checked) and valid for writes (contract);
        // the previous contents are not read or dropped.
        unsafe {
            out_schema.write(schema);
            out_calc.write(handle);
        }
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_calc_create", err_buf, err_cap, body) }
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

/// See `gatun.h`. `input` is consumed on every path where it is a live array; on
/// success `*output` holds the result batch (counted export), on failure it is not
/// written.
///
/// # Safety
///
/// `calc` must be NULL or a pointer (live handles are checked against the registry);
/// `input` and `output` must be NULL or valid, aligned `ArrowArray`s, `input` being a
/// struct array of the handle's input schema following the C Data Interface;
/// `err_buf` must be NULL or valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_calc_evaluate(
    calc: *mut GatunCalc,
    input: *mut FFI_ArrowArray,
    output: *mut FFI_ArrowArray,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        // Consume the input first, so that it is released on every later path.
        // SAFETY: pointer validity is this function's contract.
        let batch = unsafe { take_array(input, "input")? };
        LIVE.check(calc)?;
        check_arg(output.cast_const(), "output")?;
        // SAFETY: `calc` is a live handle (checked); the caller does not free it
        // during the call (contract), and evaluation only reads it.
        let calc = unsafe { &(*calc).0 };
        let result = calc.evaluate(batch)?;
        // SAFETY: non-NULL, aligned (checked) and valid for writes (contract).
        unsafe { output.write(result) };
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_calc_evaluate", err_buf, err_cap, body) }
}

/// See `gatun.h`. Frees a live handle exactly once.
///
/// # Safety
///
/// `calc` must not be in use by another call; `err_buf` must be NULL or valid for
/// writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_calc_free(
    calc: *mut GatunCalc,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        LIVE.remove(calc)?;
        // SAFETY: `calc` was created by `Box::into_raw` in gatun_calc_create and was
        // still registered, so this is the only free.
        drop(unsafe { Box::from_raw(calc) });
        handle_freed();
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_calc_free", err_buf, err_cap, body) }
}
