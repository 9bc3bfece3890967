//! `gatun_passthrough_*`: the bare crossing hands the same buffers back, consumes its
//! input on every path, and keeps the handle and export counters exact.

use std::ffi::c_char;
use std::ptr;
use std::sync::Arc;

use arrow::array::*;
use arrow::datatypes::*;
use arrow::ffi::{from_ffi_and_data_type, FFI_ArrowArray};
use gatun_native::ffi::abi::{GATUN_ERR_ARROW, GATUN_ERR_INVALID_ARGUMENT, GATUN_OK};
use gatun_native::{
    ffi::export, gatun_passthrough, gatun_passthrough_create, gatun_passthrough_free, GatunPassthrough,
};

use crate::common::{first_buffer_ptr, live_exports, message, serial, stats};

fn batch() -> StructArray {
    let fields = Fields::from(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("name", DataType::Utf8, true),
        Field::new("score", DataType::Float64, true),
    ]);
    StructArray::new(
        fields,
        vec![
            Arc::new(Int64Array::from(vec![1, 2, 3])),
            Arc::new(StringArray::from(vec![Some("a"), None, Some("日本語")])),
            Arc::new(Float64Array::from(vec![Some(1.5), None, Some(f64::NAN)])),
        ],
        None,
    )
}

fn create(array: &StructArray) -> *mut GatunPassthrough {
    let schema = export::ffi_schema(&Field::new("", array.data_type().clone(), false)).unwrap();
    let mut handle = ptr::null_mut();
    let mut err = [0 as c_char; 512];
    // SAFETY: valid pointers; the schema is live and borrowed for the call.
    let status =
        unsafe { gatun_passthrough_create(&schema, &mut handle, err.as_mut_ptr(), err.len()) };
    assert_eq!(status, GATUN_OK, "{}", message(&err));
    handle
}

/// (status, message, the caller's input struct after the call, the output).
fn call(
    handle: *mut GatunPassthrough,
    mut input: FFI_ArrowArray,
) -> (i32, String, FFI_ArrowArray, FFI_ArrowArray) {
    let mut output = FFI_ArrowArray::empty();
    let mut err = [0 as c_char; 512];
    // SAFETY: valid, aligned structs; `handle` may be stale (the function checks it).
    let status = unsafe {
        gatun_passthrough(handle, &mut input, &mut output, err.as_mut_ptr(), err.len())
    };
    let text = if status == GATUN_OK { String::new() } else { message(&err) };
    (status, text, input, output)
}

fn free(handle: *mut GatunPassthrough) -> (i32, String) {
    let mut err = [0 as c_char; 512];
    // SAFETY: `handle` may be stale (the function checks it).
    let status = unsafe { gatun_passthrough_free(handle, err.as_mut_ptr(), err.len()) };
    (status, if status == GATUN_OK { String::new() } else { message(&err) })
}

#[test]
fn hands_back_the_same_buffers() {
    let _serial = serial();
    let handles = stats().live_handles;
    let array = batch();
    let handle = create(&array);
    assert_eq!(stats().live_handles, handles + 1);
    for _ in 0..3 {
        let (status, text, input, output) = call(handle, export::export_array(&array.to_data()));
        assert_eq!(status, GATUN_OK, "{text}");
        assert!(input.is_released(), "the input must be moved in");
        assert_eq!(live_exports(), (2, 0), "output + the input it keeps alive");
        // SAFETY: `output` was just exported by gatun_passthrough with this type.
        let data = unsafe { from_ffi_and_data_type(output, array.data_type().clone()) }.unwrap();
        assert_eq!(first_buffer_ptr(&data), first_buffer_ptr(&array.to_data()), "copied");
        assert_eq!(&make_array(data.clone()), &(Arc::new(array.clone()) as ArrayRef));
        drop(data);
        assert_eq!(live_exports(), (0, 0));
    }
    assert_eq!(free(handle).0, GATUN_OK);
    assert_eq!(stats().live_handles, handles);
}

#[test]
fn a_batch_of_another_shape_is_rejected_and_released() {
    let _serial = serial();
    let array = batch();
    let handle = create(&array);
    let other = StructArray::new(
        Fields::from(vec![Field::new("id", DataType::Int64, false)]),
        vec![Arc::new(Int64Array::from(vec![7]))],
        None,
    );
    let (status, text, input, _) = call(handle, export::export_array(&other.to_data()));
    assert_eq!(status, GATUN_ERR_ARROW, "{text}");
    assert!(text.contains("does not match the schema"), "{text}");
    assert!(input.is_released());
    assert_eq!(live_exports(), (0, 0), "the rejected input was released");
    assert_eq!(free(handle).0, GATUN_OK);
}

#[test]
fn freed_or_unknown_handles_are_invalid_arguments() {
    let _serial = serial();
    let array = batch();
    let handle = create(&array);
    assert_eq!(free(handle).0, GATUN_OK);
    let (status, text) = free(handle);
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT, "{text}");
    assert!(text.contains("not a live GatunPassthrough"), "{text}");
    let (status, text, input, _) = call(handle, export::export_array(&array.to_data()));
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT, "{text}");
    assert!(input.is_released(), "consumed even when the handle is stale");
    let (status, _, _, _) = call(ptr::null_mut(), export::export_array(&array.to_data()));
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
    assert_eq!(live_exports(), (0, 0));
}

/// Timing by hand (`cargo test --locked --profile dev --test c_abi passthrough::timing --
/// --ignored --nocapture`): the Rust part of the crossing of issue 5's batch (4 BIGINT,
/// 2 DOUBLE, 1 INT, 3 STRING of 40 bytes, 4096 rows or 0), median ns of the call and of the
/// release of its output (which releases the input, here arrow-rs's own export).
#[test]
#[ignore = "timing harness, run by hand"]
fn timing() {
    let _serial = serial();
    for rows in [0_usize, 4096] {
        let long = || Arc::new(Int64Array::from_iter_values(0..rows as i64)) as ArrayRef;
        let double = || Arc::new(Float64Array::from_iter_values((0..rows).map(|i| i as f64))) as ArrayRef;
        let text = || {
            Arc::new(StringArray::from_iter_values((0..rows).map(|i| format!("{i:040}")))) as ArrayRef
        };
        let columns: Vec<(&str, ArrayRef)> = vec![
            ("a", long()),
            ("b", long()),
            ("c", long()),
            ("d", long()),
            ("e", double()),
            ("f", double()),
            ("g", Arc::new(Int32Array::from_iter_values(0..rows as i32))),
            ("h", text()),
            ("i", text()),
            ("j", text()),
        ];
        let array = StructArray::try_from(columns).unwrap();
        let handle = create(&array);
        let data = array.to_data();
        let (mut call_ns, mut release_ns) = (Vec::new(), Vec::new());
        for _ in 0..20_000 {
            let input = arrow::ffi::FFI_ArrowArray::new(&data);
            let t0 = std::time::Instant::now();
            let (status, text, _, output) = call(handle, input);
            let t1 = std::time::Instant::now();
            drop(output);
            let t2 = std::time::Instant::now();
            assert_eq!(status, GATUN_OK, "{text}");
            call_ns.push((t1 - t0).as_nanos());
            release_ns.push((t2 - t1).as_nanos());
        }
        call_ns.sort();
        release_ns.sort();
        println!(
            "{rows} rows: gatun_passthrough {} ns, release of the output {} ns (medians)",
            call_ns[call_ns.len() / 2],
            release_ns[release_ns.len() / 2]
        );
        assert_eq!(free(handle).0, GATUN_OK);
    }
}
