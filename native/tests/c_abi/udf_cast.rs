//! CAST / TRY_CAST with Flink 2.x semantics (`gatun_flink_cast`, `gatun_flink_try_cast`).

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, Date32Array, Decimal128Array, Float32Array,
    Float64Array, Int32Array, Int64Array, StringArray, TimestampMicrosecondArray,
    TimestampMillisecondArray,
};
use arrow::datatypes::{
    DataType, Date32Type, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type,
    Int64Type, Int8Type, TimeUnit, TimestampMicrosecondType, TimestampMillisecondType,
};
use datafusion::common::ScalarValue;
use gatun_native::ffi::abi::{GATUN_ERR_EXECUTION, GATUN_ERR_PLAN};

use crate::calc_util::*;

fn cast(input: ArrayRef, to: &DataType) -> Result<ArrayRef, Failure> {
    run("gatun_flink_cast", input, to)
}

fn try_cast(input: ArrayRef, to: &DataType) -> Result<ArrayRef, Failure> {
    run("gatun_flink_try_cast", input, to)
}

fn run(name: &str, input: ArrayRef, to: &DataType) -> Result<ArrayRef, Failure> {
    let target = lit(ScalarValue::try_from(to).unwrap());
    eval(
        call(name, vec![col("x"), target]),
        &batch(vec![("x", input)]),
    )
}

fn strings(a: &ArrayRef) -> Vec<Option<String>> {
    a.as_string::<i32>()
        .iter()
        .map(|v| v.map(str::to_string))
        .collect()
}

fn str_array(v: &[&str]) -> ArrayRef {
    Arc::new(StringArray::from(v.to_vec()))
}

#[test]
fn integers_narrow_by_wrapping_and_floats_saturate() {
    let out = cast(
        Arc::new(Int32Array::from(vec![Some(300), Some(-129), None])),
        &DataType::Int8,
    )
    .unwrap();
    assert_eq!(
        out.as_primitive::<Int8Type>().iter().collect::<Vec<_>>(),
        [Some(44), Some(127), None]
    );
    let floats: ArrayRef = Arc::new(Float64Array::from(vec![
        1e20,
        -1e20,
        f64::NAN,
        -2.9,
        70000.7,
    ]));
    let out = cast(Arc::clone(&floats), &DataType::Int32).unwrap();
    assert_eq!(
        out.as_primitive::<Int32Type>().values(),
        &[i32::MAX, i32::MIN, 0, -2, 70000]
    );
    let out = cast(Arc::clone(&floats), &DataType::Int64).unwrap();
    assert_eq!(
        out.as_primitive::<Int64Type>().values(),
        &[i64::MAX, i64::MIN, 0, -2, 70000]
    );
    // (short) d goes through int: (short) 70000 = 4464
    let out = cast(floats, &DataType::Int16).unwrap();
    assert_eq!(out.as_primitive::<Int16Type>().value(4), 4464);
    let out = cast(
        Arc::new(Int64Array::from(vec![i64::MAX])),
        &DataType::Float32,
    )
    .unwrap();
    assert_eq!(out.as_primitive::<Float32Type>().value(0), 9.223372e18);
}

#[test]
fn decimals_round_half_up_and_overflow_to_null() {
    let dec: ArrayRef = Arc::new(
        Decimal128Array::from(vec![Some(12345), Some(-12355), Some(99999), None])
            .with_precision_and_scale(5, 2)
            .unwrap(),
    ); // 123.45, -123.55, 999.99
    let out = cast(Arc::clone(&dec), &DataType::Decimal128(4, 1)).unwrap();
    assert_eq!(
        out.as_primitive::<Decimal128Type>()
            .iter()
            .collect::<Vec<_>>(),
        [Some(1235), Some(-1236), None, None]
    );
    let out = cast(Arc::clone(&dec), &DataType::Int32).unwrap();
    assert_eq!(
        out.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(123), Some(-123), Some(999), None]
    );
    let out = cast(Arc::clone(&dec), &DataType::Float64).unwrap();
    assert_eq!(out.as_primitive::<Float64Type>().value(0), 123.45);
    let out = cast(Arc::clone(&dec), &DataType::Utf8).unwrap();
    assert_eq!(
        strings(&out)[..3],
        [
            Some("123.45".into()),
            Some("-123.55".into()),
            Some("999.99".into())
        ]
    );
    let out = cast(
        Arc::new(Int32Array::from(vec![99, 100])),
        &DataType::Decimal128(2, 0),
    )
    .unwrap();
    assert_eq!(
        out.as_primitive::<Decimal128Type>()
            .iter()
            .collect::<Vec<_>>(),
        [Some(99), None]
    );
    // DOUBLE → DECIMAL goes through Double.toString: 0.1 is exactly 0.1.
    let out = cast(
        Arc::new(Float64Array::from(vec![0.1, 2.675, 1e-30])),
        &DataType::Decimal128(10, 2),
    )
    .unwrap();
    assert_eq!(out.as_primitive::<Decimal128Type>().values(), &[10, 268, 0]);
    // NaN → DECIMAL raises, even in TRY_CAST (Flink's rule cannot fail, it throws).
    for f in [cast, try_cast] {
        assert_fails(
            f(
                Arc::new(Float64Array::from(vec![f64::NAN])),
                &DataType::Decimal128(10, 2),
            ),
            GATUN_ERR_EXECUTION,
            &["NaN"],
        );
    }
}

#[test]
fn numbers_print_like_java() {
    let out = cast(
        Arc::new(Float64Array::from(vec![1.0e10, 0.1, -0.0, 1.0e-5, 123.0])),
        &DataType::Utf8,
    )
    .unwrap();
    assert_eq!(
        strings(&out),
        ["1.0E10", "0.1", "-0.0", "1.0E-5", "123.0"].map(|s| Some(s.to_string()))
    );
    let out = cast(
        Arc::new(Float32Array::from(vec![0.1f32, 1.0e10])),
        &DataType::Utf8,
    )
    .unwrap();
    assert_eq!(
        strings(&out),
        ["0.1", "1.0E10"].map(|s| Some(s.to_string()))
    );
    let out = cast(
        Arc::new(BooleanArray::from(vec![true, false])),
        &DataType::Utf8,
    )
    .unwrap();
    assert_eq!(
        strings(&out),
        ["TRUE", "FALSE"].map(|s| Some(s.to_string()))
    );
    let out = cast(Arc::new(Int64Array::from(vec![i64::MIN])), &DataType::Utf8).unwrap();
    assert_eq!(strings(&out), [Some(i64::MIN.to_string())]);
}

#[test]
fn strings_parse_like_binary_string_data_util() {
    let out = cast(str_array(&[" 42 ", "-7", "+3", "12.9"]), &DataType::Int32).unwrap();
    assert_eq!(out.as_primitive::<Int32Type>().values(), &[42, -7, 3, 12]);
    let out = cast(str_array(&["-128"]), &DataType::Int8).unwrap();
    assert_eq!(out.as_primitive::<Int8Type>().values(), &[-128]);
    for (bad, reason) in [
        ("abc", "Invalid character found."),
        ("128", "Overflow."),
        ("", "Input is empty."),
        ("\t1", "Invalid character"),
    ] {
        let to = if bad == "128" {
            DataType::Int8
        } else {
            DataType::Int32
        };
        assert_fails(
            cast(str_array(&[bad]), &to),
            GATUN_ERR_EXECUTION,
            &[
                &format!("For input string: '{}'", bad.trim_matches(' ')),
                reason,
            ],
        );
        // TRY_CAST: NULL instead.
        assert!(try_cast(str_array(&[bad]), &to).unwrap().is_null(0));
    }
    let out = cast(
        str_array(&["1e3", " -0.5 ", "Infinity", "1.5f"]),
        &DataType::Float64,
    )
    .unwrap();
    assert_eq!(
        out.as_primitive::<Float64Type>().values(),
        &[1000.0, -0.5, f64::INFINITY, 1.5]
    );
    assert_fails(
        cast(str_array(&["1,5"]), &DataType::Float64),
        GATUN_ERR_EXECUTION,
        &["NumberFormatException"],
    );
    // Flink's short-string fast path (precision <= 18) reads no digits from "x": 0.
    let out = cast(str_array(&["1.25", "x"]), &DataType::Decimal128(5, 1)).unwrap();
    assert_eq!(out.as_primitive::<Decimal128Type>().values(), &[13, 0]);
    let out = cast(str_array(&["1.2.3"]), &DataType::Decimal128(5, 1));
    assert_fails(
        out,
        GATUN_ERR_EXECUTION,
        &["For input string: '1.2.3'. Overflow."],
    );
    let out = cast(str_array(&["abc"]), &DataType::Decimal128(20, 1));
    assert_fails(out, GATUN_ERR_EXECUTION, &["For input string: 'abc'"]);
    let out = try_cast(
        str_array(&["1.25", "1.2.3", "123456"]),
        &DataType::Decimal128(5, 1),
    )
    .unwrap();
    assert_eq!(
        out.as_primitive::<Decimal128Type>()
            .iter()
            .collect::<Vec<_>>(),
        [Some(13), None, None]
    );
    let out = cast(str_array(&["TRUE", "no", "Y", "1"]), &DataType::Boolean).unwrap();
    assert_eq!(
        out.as_boolean(),
        &BooleanArray::from(vec![true, false, true, true])
    );
    assert_fails(
        cast(str_array(&[" true"]), &DataType::Boolean),
        GATUN_ERR_EXECUTION,
        &["Cannot parse ' true' as BOOLEAN."],
    );
}

#[test]
fn temporal_casts() {
    let ts: ArrayRef = Arc::new(TimestampMillisecondArray::from(vec![
        86_400_000 + 5,
        -43_200_000,
    ]));
    let out = cast(Arc::clone(&ts), &DataType::Date32).unwrap();
    // Flink truncates toward zero: 1969-12-31 12:00 becomes 1970-01-01.
    assert_eq!(out.as_primitive::<Date32Type>().values(), &[1, 0]);
    let out = cast(
        Arc::clone(&ts),
        &DataType::Timestamp(TimeUnit::Microsecond, None),
    )
    .unwrap();
    assert_eq!(
        out.as_primitive::<TimestampMicrosecondType>().value(0),
        86_400_005_000
    );
    let micros: ArrayRef = Arc::new(TimestampMicrosecondArray::from(vec![-1, 1_999]));
    let out = cast(micros, &DataType::Timestamp(TimeUnit::Millisecond, None)).unwrap();
    assert_eq!(
        out.as_primitive::<TimestampMillisecondType>().values(),
        &[-1, 1]
    );
    let out = cast(
        Arc::new(Date32Array::from(vec![-1])),
        &DataType::Timestamp(TimeUnit::Millisecond, None),
    )
    .unwrap();
    assert_eq!(
        out.as_primitive::<TimestampMillisecondType>().values(),
        &[-86_400_000]
    );
}

#[test]
fn unsupported_pairs_fail_at_create() {
    let written = batch(vec![("x", Arc::new(Int32Array::from(vec![1])) as ArrayRef)]).schema();
    let input = batch(vec![(
        "x",
        Arc::new(Date32Array::from(vec![1])) as ArrayRef,
    )]);
    let target = lit(ScalarValue::Utf8(None));
    assert_fails(
        eval_retyped(
            call("gatun_flink_cast", vec![col("x"), target]),
            &written,
            &input,
        ),
        GATUN_ERR_PLAN,
        &["cast from Date32 to Utf8 is not supported natively"],
    );
}
