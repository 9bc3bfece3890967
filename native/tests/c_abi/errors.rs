//! Failures at the boundary: malformed Arrow input, bad pointers, panics, and the
//! error-message buffer.

use std::ffi::c_char;
use std::ptr;
use std::sync::Arc;

use arrow::array::{Array, ArrayData, Int32Array, StructArray};
use arrow::buffer::Buffer;
use arrow::datatypes::{DataType, Field, Fields};
use arrow::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use gatun_native::ffi::abi::*;
use gatun_native::ffi::export::export_array;
use gatun_native::{gatun_native_stats, gatun_roundtrip};

use crate::common::{call_roundtrip, live_exports, message, serial};

/// Builds a Utf8 array without validation.
fn unchecked_utf8(len: usize, offsets: Buffer, values: &[u8]) -> ArrayData {
    // SAFETY: deliberately invalid; only ever exported, never read in Rust.
    unsafe {
        ArrayData::new_unchecked(
            DataType::Utf8,
            len,
            Some(0),
            None,
            0,
            vec![offsets, Buffer::from_slice_ref(values)],
            vec![],
        )
    }
}

/// Round-trips invalid input; expects `GATUN_ERR_ARROW` mentioning `needle`, and the
/// input moved in and released.
fn assert_rejected(field: &Field, data: &ArrayData, needle: &str) -> String {
    let _serial = serial();
    let in_schema = FFI_ArrowSchema::try_from(field).unwrap();
    let call = call_roundtrip(&in_schema, export_array(data));
    assert_eq!(call.status, GATUN_ERR_ARROW, "{}", call.message);
    assert!(
        call.message.starts_with("gatun_roundtrip: "),
        "{}",
        call.message
    );
    assert!(
        call.message.contains(needle),
        "{:?} lacks {needle:?}",
        call.message
    );
    assert!(call.in_array.is_released(), "the input must be moved in");
    assert!(
        call.out_array.is_released() && call.out_schema.release.is_none(),
        "no output"
    );
    assert_eq!(
        live_exports(),
        (0, 0),
        "the input's release must have been called"
    );
    call.message
}

#[test]
fn decreasing_utf8_offsets() {
    let data = unchecked_utf8(2, Buffer::from_slice_ref([0_i32, 3, 1]), b"abc");
    assert_rejected(
        &Field::new("s", DataType::Utf8, true),
        &data,
        "full validation",
    );
}

#[test]
fn invalid_utf8() {
    let data = unchecked_utf8(2, Buffer::from_slice_ref([0_i32, 1, 3]), b"a\xf0\x28");
    let message = assert_rejected(
        &Field::new("s", DataType::Utf8, true),
        &data,
        "full validation",
    );
    assert!(message.to_lowercase().contains("utf"), "{message}");
}

#[test]
fn wrong_null_count() {
    let valid = Int32Array::from(vec![Some(1), None]).into_data();
    // SAFETY: deliberately invalid; only exported.
    let data = unsafe {
        ArrayData::new_unchecked(
            DataType::Int32,
            2,
            Some(2),
            valid.nulls().map(|n| n.buffer().clone()),
            0,
            valid.buffers().to_vec(),
            vec![],
        )
    };
    assert_rejected(&Field::new("i", DataType::Int32, true), &data, "null");
}

#[test]
fn misaligned_offsets_buffer_is_an_error_not_a_crash() {
    let offsets = Buffer::from_slice_ref([0_u8, 0, 0, 0, 0, 1, 0, 0, 0]).slice(1);
    let data = unchecked_utf8(1, offsets, b"x");
    assert_rejected(
        &Field::new("s", DataType::Utf8, true),
        &data,
        "not aligned to 4 bytes",
    );
}

#[test]
fn schema_and_array_disagree() {
    let one = StructArray::new(
        Fields::from(vec![Field::new("a", DataType::Int32, false)]),
        vec![Arc::new(Int32Array::from(vec![1]))],
        None,
    );
    let two = DataType::Struct(Fields::from(vec![
        Field::new("a", DataType::Int32, false),
        Field::new("b", DataType::Int32, false),
    ]));
    let message = assert_rejected(&Field::new("", two, false), &one.into_data(), "children");
    assert!(
        message.contains("malformed in_array: 1 children"),
        "{message}"
    );
}

#[test]
fn unsupported_schema_format() {
    let _serial = serial();
    let in_schema = FFI_ArrowSchema::try_new("not-a-format", vec![], None).unwrap();
    let call = call_roundtrip(
        &in_schema,
        export_array(&Int32Array::from(vec![1]).into_data()),
    );
    assert_eq!(call.status, GATUN_ERR_ARROW, "{}", call.message);
    assert!(
        call.message.contains("invalid in_schema"),
        "{}",
        call.message
    );
    assert_eq!(live_exports(), (0, 0));
}

/// `gatun_roundtrip` on raw pointers, with `err` as the error buffer.
fn raw_roundtrip(
    in_schema: *const FFI_ArrowSchema,
    in_array: *mut FFI_ArrowArray,
    out_schema: *mut FFI_ArrowSchema,
    out_array: *mut FFI_ArrowArray,
    err: &mut [c_char],
) -> i32 {
    // SAFETY: the tests pass NULL, live aligned structs, or a misaligned pointer that
    // gatun_roundtrip rejects without dereferencing it; `err` is a valid buffer.
    unsafe {
        gatun_roundtrip(
            in_schema,
            in_array,
            out_schema,
            out_array,
            err.as_mut_ptr(),
            err.len(),
        )
    }
}

#[test]
fn null_and_released_arguments() {
    let _serial = serial();
    let data = Int32Array::from(vec![1, 2]).into_data();
    let schema = FFI_ArrowSchema::try_from(data.data_type()).unwrap();
    let mut err = [0 as c_char; 256];
    let mut out_schema = FFI_ArrowSchema::empty();
    let mut out_array = FFI_ArrowArray::empty();
    let (os, oa): (*mut FFI_ArrowSchema, *mut FFI_ArrowArray) = (&mut out_schema, &mut out_array);

    // in_array NULL / released: nothing to consume.
    let status = raw_roundtrip(&schema, ptr::null_mut(), os, oa, &mut err);
    assert_eq!(
        (status, message(&err)),
        (
            GATUN_ERR_INVALID_ARGUMENT,
            "gatun_roundtrip: argument `in_array` is NULL".into()
        )
    );
    let mut released = FFI_ArrowArray::empty();
    let status = raw_roundtrip(&schema, &mut released, os, oa, &mut err);
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
    assert!(
        message(&err).contains("`in_array` is already released"),
        "{}",
        message(&err)
    );

    // Any other NULL argument: the input is still consumed (released), as gatun.h says.
    for (name, in_schema, os, oa) in [
        ("in_schema", ptr::null(), os, oa),
        ("out_schema", &schema as *const _, ptr::null_mut(), oa),
        ("out_array", &schema as *const _, os, ptr::null_mut()),
    ] {
        let mut input = export_array(&data);
        let status = raw_roundtrip(in_schema, &mut input, os, oa, &mut err);
        assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
        assert_eq!(
            message(&err),
            format!("gatun_roundtrip: argument `{name}` is NULL")
        );
        assert!(input.is_released());
        assert_eq!(live_exports(), (0, 0));
    }
    let released_schema = FFI_ArrowSchema::empty();
    let mut input = export_array(&data);
    let status = raw_roundtrip(&released_schema, &mut input, os, oa, &mut err);
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
    assert!(
        message(&err).contains("`in_schema` is released"),
        "{}",
        message(&err)
    );
    assert_eq!(live_exports(), (0, 0));

    // Misaligned struct pointer.
    let mut bytes = [0_u64; 16];
    let misaligned = bytes
        .as_mut_ptr()
        .cast::<u8>()
        .wrapping_add(1)
        .cast::<FFI_ArrowArray>();
    let status = raw_roundtrip(&schema, misaligned, os, oa, &mut err);
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
    assert!(message(&err).contains("`in_array`") && message(&err).contains("not aligned to 8"));

    // Other functions; a NULL error buffer is fine.
    // SAFETY: `out` may be NULL; `err` is a valid buffer.
    let status = unsafe { gatun_native_stats(ptr::null_mut(), err.as_mut_ptr(), err.len()) };
    assert_eq!(
        (status, message(&err)),
        (
            GATUN_ERR_INVALID_ARGUMENT,
            "gatun_native_stats: argument `out` is NULL".into()
        )
    );
    // SAFETY: NULL `out` and NULL `err_buf` are both allowed.
    let status = unsafe { gatun_native_stats(ptr::null_mut(), ptr::null_mut(), 64) };
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
    assert!(
        out_schema.release.is_none() && out_array.is_released(),
        "outputs untouched"
    );
}
