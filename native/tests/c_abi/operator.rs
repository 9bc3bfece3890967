//! The arguments of `gatun_operator_*`: every NULL, released, freed or unknown one is
//! `GATUN_ERR_INVALID_ARGUMENT` naming it, the input is consumed on every path, outputs
//! are untouched on failure, and no handle leaks.

use std::ffi::c_char;
use std::ptr;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, Int32Array, StructArray, TimestampMillisecondArray};
use arrow::datatypes::{DataType, Field, Schema, TimeUnit};
use arrow::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use gatun_native::ffi::abi::*;
use gatun_native::ffi::export::export_array;
use gatun_native::ops::watermark::{ROWTIME_NAME, WATERMARK_NAME};
use gatun_native::{
    gatun_operator_create, gatun_operator_flush, gatun_operator_free, gatun_operator_process,
    GatunOperator, GatunWatermarkProgress,
};

use crate::calc_util::*;
use crate::common::{message, stats};

fn schema_a() -> Schema {
    Schema::new(vec![Field::new("a", DataType::Int32, true)])
}

fn live_input() -> FFI_ArrowArray {
    let ints: ArrayRef = Arc::new(Int32Array::from(vec![1]));
    export_array(&StructArray::from(batch(vec![("a", ints)])).into_data())
}

fn progress() -> GatunWatermarkProgress {
    GatunWatermarkProgress {
        current: 0,
        last: 0,
        interval: 0,
        after: 42,
        mini_batch_next: 0,
    }
}

#[test]
fn create_rejects_null_and_released_arguments_and_unknown_kinds() {
    let _guard = no_leaks();
    let schema = schema_a();
    let bytes = plan(&schema, &[("a", col("a"))], None);
    let input = struct_schema(&schema);
    let mut out_schema = FFI_ArrowSchema::empty();
    let mut out_operator: *mut GatunOperator = ptr::null_mut();
    let mut err = [0 as c_char; 512];
    let released = FFI_ArrowSchema::empty();
    type Args<'a> = (
        u32,
        *const u8,
        *const FFI_ArrowSchema,
        *const FFI_ArrowSchema,
        *mut FFI_ArrowSchema,
        *mut *mut GatunOperator,
        &'a str,
    );
    let (os, oo): (*mut FFI_ArrowSchema, *mut *mut GatunOperator) =
        (&mut out_schema, &mut out_operator);
    let calc = GATUN_OPERATOR_CALC;
    let cases: [Args; 9] = [
        (calc, ptr::null(), &input, &input, os, oo, "`plan` is NULL"),
        (
            calc,
            bytes.as_ptr(),
            ptr::null(),
            &input,
            os,
            oo,
            "`input_schema` is NULL",
        ),
        (
            calc,
            bytes.as_ptr(),
            &released,
            &input,
            os,
            oo,
            "`input_schema` is released",
        ),
        (
            calc,
            bytes.as_ptr(),
            &input,
            ptr::null(),
            os,
            oo,
            "`expected_output_schema` is NULL",
        ),
        (
            calc,
            bytes.as_ptr(),
            &input,
            &released,
            os,
            oo,
            "`expected_output_schema` is released",
        ),
        (
            calc,
            bytes.as_ptr(),
            &input,
            &input,
            ptr::null_mut(),
            oo,
            "`out_schema` is NULL",
        ),
        (
            calc,
            bytes.as_ptr(),
            &input,
            &input,
            os,
            ptr::null_mut(),
            "`out_operator` is NULL",
        ),
        (
            0,
            bytes.as_ptr(),
            &input,
            &input,
            os,
            oo,
            "argument `kind` is 0",
        ),
        (
            4,
            bytes.as_ptr(),
            &input,
            &input,
            os,
            oo,
            "argument `kind` is 4",
        ),
    ];
    for (kind, plan_ptr, inp, exp, os, oo, needle) in cases {
        // SAFETY: every pointer is NULL or valid.
        let status = unsafe {
            gatun_operator_create(
                kind,
                plan_ptr,
                bytes.len(),
                inp,
                exp,
                GATUN_OUTPUT_ARROW,
                os,
                oo,
                err.as_mut_ptr(),
                err.len(),
            )
        };
        assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT, "{needle}");
        let m = message(&err);
        assert!(
            m.starts_with("gatun_operator_create: ") && m.contains(needle),
            "{m} lacks {needle}"
        );
        assert!(out_operator.is_null() && out_schema.release.is_none());
    }
    assert_fails(
        create_kind(u32::MAX, &bytes, &schema, &schema, GATUN_OUTPUT_ARROW).map(|_| ()),
        GATUN_ERR_INVALID_ARGUMENT,
        &[
            "`kind` is 4294967295",
            "GATUN_OPERATOR_CALC (1)",
            "GATUN_OPERATOR_LOCAL_AGGREGATE (2)",
        ],
    );
}

#[test]
fn process_rejects_bad_arguments_and_consumes_its_input() {
    let _guard = no_leaks();
    let schema = schema_a();
    let handle = create(&plan(&schema, &[("a", col("a"))], None), &schema, &schema).unwrap();
    let mut err = [0 as c_char; 512];
    let mut out = FFI_ArrowArray::empty();
    let mut p = progress();
    let misaligned = (&mut p as *mut GatunWatermarkProgress)
        .cast::<u8>()
        .wrapping_add(1);
    let cases: [(
        *mut GatunOperator,
        *mut GatunWatermarkProgress,
        *mut FFI_ArrowArray,
        &str,
    ); 5] = [
        (ptr::null_mut(), ptr::null_mut(), &mut out, "`op` is NULL"),
        (
            handle.raw(),
            ptr::null_mut(),
            ptr::null_mut(),
            "`output` is NULL",
        ),
        (
            ptr::dangling_mut::<GatunOperator>(),
            ptr::null_mut(),
            &mut out,
            "not a live GatunOperator",
        ),
        (
            handle.raw(),
            &mut p,
            &mut out,
            "`progress` must be NULL: the operator's plan assigns no watermarks",
        ),
        (
            handle.raw(),
            misaligned.cast(),
            &mut out,
            "`progress` must be NULL",
        ),
    ];
    for (op, progress_ptr, out_ptr, needle) in cases {
        let mut input = live_input();
        // SAFETY: pointers are NULL, valid, or (the fake handle, the misaligned progress)
        // never dereferenced.
        let status = unsafe {
            gatun_operator_process(
                op,
                &mut input,
                progress_ptr,
                out_ptr,
                err.as_mut_ptr(),
                err.len(),
            )
        };
        assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT, "{needle}");
        let m = message(&err);
        assert!(
            m.starts_with("gatun_operator_process: ") && m.contains(needle),
            "{m} lacks {needle}"
        );
        assert!(input.is_released(), "input not consumed");
        assert!(out.is_released(), "output written");
        assert_eq!(p, progress(), "progress written");
    }
    for (mut input, needle) in [
        (FFI_ArrowArray::empty(), "`input` is already released"),
        (live_input(), "`input` is NULL"),
    ] {
        let input_ptr = if needle.contains("NULL") {
            ptr::null_mut()
        } else {
            &mut input as *mut _
        };
        // SAFETY: a NULL or released input is reported, not touched.
        let status = unsafe {
            gatun_operator_process(
                handle.raw(),
                input_ptr,
                ptr::null_mut(),
                &mut out,
                err.as_mut_ptr(),
                err.len(),
            )
        };
        assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
        assert!(message(&err).contains(needle), "{}", message(&err));
        assert!(out.is_released());
    }
    drop(handle);
}

#[test]
fn a_plan_with_watermarks_requires_an_aligned_progress() {
    let _guard = no_leaks();
    let ts = DataType::Timestamp(TimeUnit::Millisecond, None);
    let schema = Schema::new(vec![Field::new("ts", ts, true)]);
    let named = [(ROWTIME_NAME, col("ts")), (WATERMARK_NAME, col("ts"))];
    let handle = create(&plan(&schema, &named, None), &schema, &Schema::empty()).unwrap();
    let input = batch(vec![(
        "ts",
        Arc::new(TimestampMillisecondArray::from(vec![5])) as ArrayRef,
    )]);
    assert_fails(
        handle.process(&input, None),
        GATUN_ERR_INVALID_ARGUMENT,
        &["argument `progress` is NULL (the operator's plan assigns watermarks)"],
    );
    let mut storage = [0_i64; 5];
    let misaligned = storage.as_mut_ptr().cast::<u8>().wrapping_add(4);
    let mut out = FFI_ArrowArray::empty();
    let mut err = [0 as c_char; 512];
    let array = StructArray::from(input.clone());
    let mut exported = export_array(&array.to_data());
    // SAFETY: the misaligned pointer is checked, never dereferenced.
    let status = unsafe {
        gatun_operator_process(
            handle.raw(),
            &mut exported,
            misaligned.cast(),
            &mut out,
            err.as_mut_ptr(),
            err.len(),
        )
    };
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
    assert!(message(&err).contains("`progress`") && message(&err).contains("not aligned"));
    assert!(exported.is_released() && out.is_released());
    assert_eq!(storage, [0; 5]);
    // With a progress it runs.
    let mut p = progress();
    let out = handle.process(&input, Some(&mut p)).unwrap().unwrap();
    assert_eq!(out.num_columns(), 1);
    assert_eq!((p.current, p.last, p.after), (5, 5, 5));
}

#[test]
fn flush_writes_nothing_for_a_calc_and_checks_its_arguments() {
    let _guard = no_leaks();
    let schema = schema_a();
    let handle = create(&plan(&schema, &[("a", col("a"))], None), &schema, &schema).unwrap();
    assert!(handle.flush().unwrap().is_none());
    handle
        .evaluate(&batch(vec![(
            "a",
            Arc::new(Int32Array::from(vec![1, 2])) as ArrayRef,
        )]))
        .unwrap();
    assert!(handle.flush().unwrap().is_none(), "a Calc buffers nothing");
    let mut err = [0 as c_char; 512];
    let mut out = FFI_ArrowArray::empty();
    for (op, out_ptr, needle) in [
        (ptr::null_mut(), &mut out as *mut _, "`op` is NULL"),
        (handle.raw(), ptr::null_mut(), "`output` is NULL"),
        (
            ptr::dangling_mut::<GatunOperator>(),
            &mut out as *mut _,
            "not a live GatunOperator",
        ),
    ] {
        // SAFETY: pointers are NULL, valid, or (the fake handle) never dereferenced.
        let status = unsafe { gatun_operator_flush(op, out_ptr, err.as_mut_ptr(), err.len()) };
        assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
        let m = message(&err);
        assert!(
            m.starts_with("gatun_operator_flush: ") && m.contains(needle),
            "{m}"
        );
        assert!(out.is_released());
    }
}

#[test]
fn free_rejects_null_and_double_frees_and_a_freed_handle_is_refused() {
    let _guard = no_leaks();
    let schema = schema_a();
    let mut err = [0 as c_char; 256];
    // SAFETY: NULL is reported, not touched.
    let status = unsafe { gatun_operator_free(ptr::null_mut(), err.as_mut_ptr(), err.len()) };
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
    assert!(message(&err).contains("`op` is NULL"));

    let handle = create(&plan(&schema, &[("a", col("a"))], None), &schema, &schema).unwrap();
    assert_eq!(stats().live_handles, 1);
    let raw = handle.raw();
    drop(handle); // frees once
    assert_eq!(stats().live_handles, 0);
    // SAFETY: a freed pointer is looked up in the registry, never dereferenced.
    let status = unsafe { gatun_operator_free(raw, err.as_mut_ptr(), err.len()) };
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
    assert!(
        message(&err).contains("not a live GatunOperator (already freed"),
        "{}",
        message(&err)
    );
    let mut input = live_input();
    let mut out = FFI_ArrowArray::empty();
    // SAFETY: as above.
    let status = unsafe {
        gatun_operator_process(
            raw,
            &mut input,
            ptr::null_mut(),
            &mut out,
            err.as_mut_ptr(),
            err.len(),
        )
    };
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
    assert!(
        message(&err).contains("not a live GatunOperator (freed"),
        "{}",
        message(&err)
    );
    assert!(input.is_released() && out.is_released());
    // SAFETY: as above.
    let status = unsafe { gatun_operator_flush(raw, &mut out, err.as_mut_ptr(), err.len()) };
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
    assert_eq!(stats().live_handles, 0);
}
