//! `gatun_roundtrip`: the native oracle for the Java Arrow layer.
//!
//! Moves the input array in, imports it with arrow-rs against the caller's schema,
//! validates it fully and exports the same `ArrayData` (no copy of values) and the
//! same field back into the caller-allocated output structs.

use std::ffi::c_char;

use arrow::datatypes::Field;
use arrow::ffi::{from_ffi_and_data_type, FFI_ArrowArray, FFI_ArrowSchema};

use crate::ffi::abi::GATUN_ERR_ARROW;
use crate::ffi::c_shape::check_array_shape;
use crate::ffi::export::{export_field, export_owned};
use crate::ffi::guard::{check_arg, guard, GatunError, GatunResult};

/// See `gatun.h`. On every path where `in_array` is a live array it is consumed: on
/// return the caller's `in_array->release` is NULL, and its release runs when the
/// output is released (success) or before returning (failure).
///
/// # Safety
///
/// Each pointer must be NULL or valid and aligned for its struct; `in_schema` must
/// describe `in_array`, both following the Arrow C Data Interface; the output structs
/// are overwritten without being read; `err_buf` must be NULL or valid for writes of
/// `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_roundtrip(
    in_schema: *const FFI_ArrowSchema,
    in_array: *mut FFI_ArrowArray,
    out_schema: *mut FFI_ArrowSchema,
    out_array: *mut FFI_ArrowArray,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        // Consume the input first, so that it is released on every later path.
        // SAFETY: pointer validity is this function's contract.
        let input = unsafe { take_array(in_array, "in_array")? };
        check_arg(in_schema, "in_schema")?;
        check_arg(out_schema.cast_const(), "out_schema")?;
        check_arg(out_array.cast_const(), "out_array")?;
        // SAFETY: non-NULL and aligned (checked), valid by this function's contract.
        let schema = unsafe { &*in_schema };
        if schema.release.is_none() {
            return Err(GatunError::invalid_argument(
                "argument `in_schema` is released (release is NULL)",
            ));
        }
        // SAFETY: `input` is a live array described by `schema` (contract).
        let (array, field) = unsafe { roundtrip(input, schema)? };
        // SAFETY: non-NULL and aligned (checked), valid for writes (contract); the
        // previous contents are not read or dropped, as the C Data spec requires.
        unsafe {
            out_schema.write(field);
            out_array.write(array);
        }
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_roundtrip", err_buf, err_cap, body) }
}

/// Moves the live `ArrowArray` at `ptr` out (the caller's struct gets `release = NULL`).
///
/// # Safety
///
/// `ptr` must be NULL or valid for reads and writes of an `ArrowArray`.
pub(crate) unsafe fn take_array(
    ptr: *mut FFI_ArrowArray,
    name: &str,
) -> GatunResult<FFI_ArrowArray> {
    check_arg(ptr.cast_const(), name)?;
    // SAFETY: non-NULL and aligned (checked), valid (contract).
    if unsafe { (*ptr).release.is_none() } {
        return Err(GatunError::invalid_argument(format!(
            "argument `{name}` is already released (release is NULL)"
        )));
    }
    // SAFETY: as above; `from_raw` leaves an empty (released) struct behind.
    Ok(unsafe { FFI_ArrowArray::from_raw(ptr) })
}

/// Import, full validation and zero-copy export. `input` is dropped (released) on error.
///
/// # Safety
///
/// `input` must be a live array described by the live schema `schema`.
unsafe fn roundtrip(
    input: FFI_ArrowArray,
    schema: &FFI_ArrowSchema,
) -> GatunResult<(FFI_ArrowArray, FFI_ArrowSchema)> {
    let field = Field::try_from(schema).map_err(|e| GatunError::arrow("invalid in_schema", e))?;
    // SAFETY: `input` is live and its pointers are valid (contract).
    unsafe { check_array_shape(&input, field.data_type(), "in_array") }
        .map_err(|e| GatunError::new(GATUN_ERR_ARROW, format!("malformed {e}")))?;
    // SAFETY: `input` is a live array of type `field.data_type()` (contract, shape checked).
    let data = unsafe { from_ffi_and_data_type(input, field.data_type().clone()) }
        .map_err(|e| GatunError::arrow("cannot import in_array", e))?;
    data.validate_full()
        .map_err(|e| GatunError::arrow("in_array failed full validation", e))?;

    let out_schema =
        export_field(&field).map_err(|e| GatunError::arrow("cannot export the schema", e))?;
    Ok((export_owned(data), out_schema))
}
