//! Arithmetic and comparisons with Flink (Java) semantics, through the C ABI.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, Decimal128Array, Float32Array, Float64Array,
    Int32Array, Int64Array, Int8Array, StringArray,
};
use arrow::datatypes::{DataType, Decimal128Type, Float64Type, Int32Type, Int64Type, Int8Type};
use datafusion::common::ScalarValue;
use datafusion::logical_expr::{binary_expr, Expr, Operator};
use gatun_native::ffi::abi::{GATUN_ERR_EXECUTION, GATUN_ERR_PLAN};

use crate::calc_util::*;

fn two(a: ArrayRef, b: ArrayRef) -> arrow::array::RecordBatch {
    batch(vec![("a", a), ("b", b)])
}

fn f(name: &str) -> Expr {
    call(name, vec![col("a"), col("b")])
}

fn i32s(v: &[Option<i32>]) -> ArrayRef {
    Arc::new(Int32Array::from(v.to_vec()))
}

#[test]
fn integer_division_truncates_wraps_and_raises_on_zero() {
    let input = two(
        i32s(&[Some(7), Some(-7), Some(i32::MIN), Some(5), None]),
        i32s(&[Some(2), Some(2), Some(-1), None, Some(0)]),
    );
    let out = eval(f("gatun_flink_divide"), &input).unwrap();
    assert_eq!(
        out.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(3), Some(-3), Some(i32::MIN), None, None]
    );
    let out = eval(f("gatun_flink_mod"), &input).unwrap();
    assert_eq!(
        out.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(1), Some(-1), Some(0), None, None]
    );
    let zero = two(i32s(&[Some(1), Some(2)]), i32s(&[Some(1), Some(0)]));
    for name in ["gatun_flink_divide", "gatun_flink_mod"] {
        assert_fails(
            eval(f(name), &zero),
            GATUN_ERR_EXECUTION,
            &[name, "java.lang.ArithmeticException: / by zero"],
        );
    }
    // TINYINT: (byte) (-128 / -1) = -128
    let bytes = two(
        Arc::new(Int8Array::from(vec![-128, 100])),
        Arc::new(Int8Array::from(vec![-1, 3])),
    );
    let out = eval(f("gatun_flink_divide"), &bytes).unwrap();
    assert_eq!(out.as_primitive::<Int8Type>().values(), &[-128, 33]);
}

#[test]
fn integer_add_subtract_multiply_wrap() {
    let input = two(
        Arc::new(Int64Array::from(vec![i64::MAX, i64::MIN, 3_037_000_500])),
        Arc::new(Int64Array::from(vec![1, 1, 3_037_000_500])),
    );
    let add = eval(f("gatun_flink_add"), &input).unwrap();
    assert_eq!(add.as_primitive::<Int64Type>().value(0), i64::MIN);
    let sub = eval(f("gatun_flink_subtract"), &input).unwrap();
    assert_eq!(sub.as_primitive::<Int64Type>().value(1), i64::MAX);
    let mul = eval(f("gatun_flink_multiply"), &input).unwrap();
    assert_eq!(
        mul.as_primitive::<Int64Type>().value(2),
        3_037_000_500i64.wrapping_mul(3_037_000_500)
    );
    // DataFusion's built-in operators wrap too (they are admitted for integers).
    let builtin = eval(binary_expr(col("a"), Operator::Plus, col("b")), &input).unwrap();
    assert_eq!(builtin.as_primitive::<Int64Type>().value(0), i64::MIN);
    let builtin = eval(binary_expr(col("a"), Operator::Multiply, col("b")), &input).unwrap();
    assert_eq!(
        builtin.as_primitive::<Int64Type>().value(2),
        3_037_000_500i64.wrapping_mul(3_037_000_500)
    );
    // Literal operands are folded once and broadcast.
    let out = eval_lit(call("gatun_flink_add", vec![lit(i32::MAX), lit(1)])).unwrap();
    assert_eq!(out.as_primitive::<Int32Type>().value(0), i32::MIN);
}

#[test]
fn negate_and_abs_wrap_like_java() {
    let input = batch(vec![(
        "a",
        i32s(&[Some(i32::MIN), Some(-5), Some(7), None]),
    )]);
    let neg = eval(call("gatun_flink_negate", vec![col("a")]), &input).unwrap();
    assert_eq!(
        neg.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(i32::MIN), Some(5), Some(-7), None]
    );
    let abs = eval(call("gatun_flink_abs", vec![col("a")]), &input).unwrap();
    assert_eq!(
        abs.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(i32::MIN), Some(5), Some(7), None]
    );
    let floats = batch(vec![(
        "a",
        Arc::new(Float64Array::from(vec![-0.0, -2.5, f64::NAN])) as ArrayRef,
    )]);
    let abs = eval(call("gatun_flink_abs", vec![col("a")]), &floats).unwrap();
    let abs = abs.as_primitive::<Float64Type>();
    assert!(abs.value(0) == 0.0 && abs.value(0).is_sign_positive());
    assert_eq!(abs.value(1), 2.5);
    assert!(abs.value(2).is_nan());
}

#[test]
fn float_division_follows_ieee() {
    let input = two(
        Arc::new(Float64Array::from(vec![1.0, -1.0, 0.0, 5.5, -5.5])),
        Arc::new(Float64Array::from(vec![0.0, 0.0, 0.0, 2.0, 2.0])),
    );
    let out = eval(f("gatun_flink_divide"), &input).unwrap();
    let out = out.as_primitive::<Float64Type>();
    assert_eq!(out.value(0), f64::INFINITY);
    assert_eq!(out.value(1), f64::NEG_INFINITY);
    assert!(out.value(2).is_nan());
    let rem = eval(f("gatun_flink_mod"), &input).unwrap();
    let rem = rem.as_primitive::<Float64Type>();
    assert_eq!((rem.value(3), rem.value(4)), (1.5, -1.5));
    assert!(rem.value(0).is_nan());
    let floats = two(
        Arc::new(Float32Array::from(vec![1.0f32])),
        Arc::new(Float32Array::from(vec![3.0f32])),
    );
    let out = eval(f("gatun_flink_divide"), &floats).unwrap();
    assert_eq!(out.data_type(), &DataType::Float32);
}

fn decimals(values: &[Option<i128>], p: u8, s: i8) -> ArrayRef {
    Arc::new(
        Decimal128Array::from(values.to_vec())
            .with_precision_and_scale(p, s)
            .unwrap(),
    )
}

#[test]
fn decimal_arithmetic_types_rounding_and_overflow() {
    let input = two(
        decimals(&[Some(1000), Some(-125), Some(1)], 10, 2), // 10.00, -1.25, 0.01
        decimals(&[Some(30), Some(10), Some(30)], 5, 1),     // 3.0, 1.0, 3.0
    );
    let div = eval(f("gatun_flink_divide"), &input).unwrap();
    assert_eq!(div.data_type(), &DataType::Decimal128(17, 8));
    let div = div.as_primitive::<Decimal128Type>();
    assert_eq!(div.value(0), 333_333_333); // 3.33333333
    assert_eq!(div.value(1), -125_000_000);
    assert_eq!(div.value(2), 333_333); // 0.00333333
    let mul = eval(f("gatun_flink_multiply"), &input).unwrap();
    assert_eq!(mul.data_type(), &DataType::Decimal128(16, 3));
    assert_eq!(mul.as_primitive::<Decimal128Type>().value(1), -1250);
    let add = eval(f("gatun_flink_add"), &input).unwrap();
    assert_eq!(add.data_type(), &DataType::Decimal128(11, 2));
    assert_eq!(add.as_primitive::<Decimal128Type>().value(0), 1300);
    let rem = eval(f("gatun_flink_mod"), &input).unwrap();
    assert_eq!(rem.data_type(), &DataType::Decimal128(6, 2));
    assert_eq!(rem.as_primitive::<Decimal128Type>().value(0), 100); // 10.00 % 3.0 = 1.00
                                                                    // Overflow of DECIMAL(38, 0) is NULL, not an error.
    let max = 10i128.pow(38) - 1;
    let big = two(
        decimals(&[Some(max), Some(1)], 38, 0),
        decimals(&[Some(1), Some(1)], 38, 0),
    );
    let add = eval(f("gatun_flink_add"), &big).unwrap();
    assert_eq!(
        add.as_primitive::<Decimal128Type>()
            .iter()
            .collect::<Vec<_>>(),
        [None, Some(2)]
    );
    // A zero divisor raises (BigDecimal's ArithmeticException); NULL / 0 is NULL.
    let zero = two(decimals(&[Some(1)], 10, 2), decimals(&[Some(0)], 5, 1));
    assert_fails(
        eval(f("gatun_flink_divide"), &zero),
        GATUN_ERR_EXECUTION,
        &["Division by zero"],
    );
    assert_fails(
        eval(f("gatun_flink_mod"), &zero),
        GATUN_ERR_EXECUTION,
        &["Division by zero"],
    );
    let null = two(decimals(&[None], 10, 2), decimals(&[Some(0)], 5, 1));
    assert!(eval(f("gatun_flink_divide"), &null).unwrap().is_null(0));
}

#[test]
fn mismatched_argument_types_fail_at_create() {
    let written = two(i32s(&[Some(1)]), i32s(&[Some(1)])).schema();
    let input = two(i32s(&[Some(1)]), Arc::new(Int64Array::from(vec![1])));
    assert_fails(
        eval_retyped(f("gatun_flink_divide"), &written, &input),
        GATUN_ERR_PLAN,
        &["projection `out`", "gatun_flink_divide(Int32, Int64)"],
    );
    let input = two(i32s(&[Some(1)]), Arc::new(StringArray::from(vec!["x"])));
    assert_fails(
        eval_retyped(f("gatun_flink_add"), &written, &input),
        GATUN_ERR_PLAN,
        &["gatun_flink_add(Int32, Utf8)"],
    );
}

#[test]
fn float_comparisons_follow_java() {
    let nan = f64::NAN;
    let input = two(
        Arc::new(Float64Array::from(vec![
            Some(nan),
            Some(-0.0),
            Some(nan),
            Some(1.0),
            None,
        ])),
        Arc::new(Float64Array::from(vec![
            Some(nan),
            Some(0.0),
            Some(1.0),
            Some(2.0),
            Some(1.0),
        ])),
    );
    let cases: [(&str, [Option<bool>; 5]); 6] = [
        (
            "gatun_flink_equal",
            [Some(false), Some(true), Some(false), Some(false), None],
        ),
        (
            "gatun_flink_not_equal",
            [Some(true), Some(false), Some(true), Some(true), None],
        ),
        (
            "gatun_flink_lt",
            [Some(false), Some(false), Some(false), Some(true), None],
        ),
        (
            "gatun_flink_lte",
            [Some(false), Some(true), Some(false), Some(true), None],
        ),
        (
            "gatun_flink_gt",
            [Some(false), Some(false), Some(false), Some(false), None],
        ),
        (
            "gatun_flink_gte",
            [Some(false), Some(true), Some(false), Some(false), None],
        ),
    ];
    for (name, want) in cases {
        let out = eval(f(name), &input).unwrap();
        assert_eq!(out.as_boolean().iter().collect::<Vec<_>>(), want, "{name}");
    }
}

/// Flink compares a DECIMAL with a FLOAT/DOUBLE as `Double.compare(doubleValue(d), x)`:
/// NaN equals NaN and lies above +Infinity, -0.0 lies below 0.0 (unlike the primitive
/// comparisons above). The planner sends the decimal through `gatun_flink_cast`.
#[test]
fn double_compare_is_javas_total_order() {
    let nan = f64::NAN;
    let input = two(
        Arc::new(Float64Array::from(vec![
            Some(nan),
            Some(-0.0),
            Some(nan),
            Some(1.0),
            Some(f64::INFINITY),
            None,
        ])),
        Arc::new(Float64Array::from(vec![
            Some(nan),
            Some(0.0),
            Some(f64::INFINITY),
            Some(2.0),
            Some(1.0),
            Some(1.0),
        ])),
    );
    let out = eval(f("gatun_flink_double_compare"), &input).unwrap();
    assert_eq!(
        out.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        vec![Some(0), Some(-1), Some(1), Some(-1), Some(1), None]
    );
    // DECIMAL(10, 2) 0.00 against -0.0: Double.compare(0.0, -0.0) = 1
    let input = two(
        decimals(&[Some(0), Some(150), None], 10, 2),
        Arc::new(Float64Array::from(vec![Some(-0.0), Some(1.5), Some(1.0)])),
    );
    let as_double = call(
        "gatun_flink_cast",
        vec![col("a"), lit(ScalarValue::Float64(None))],
    );
    let out = eval(
        call("gatun_flink_double_compare", vec![as_double, col("b")]),
        &input,
    )
    .unwrap();
    assert_eq!(
        out.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        vec![Some(1), Some(0), None]
    );
}

#[test]
fn other_comparisons_use_arrow_order() {
    let input = two(
        Arc::new(StringArray::from(vec![
            Some("a"),
            Some("é"),
            Some("Z"),
            None,
        ])),
        Arc::new(StringArray::from(vec![
            Some("b"),
            Some("z"),
            Some("a"),
            Some("a"),
        ])),
    );
    let out = eval(f("gatun_flink_lt"), &input).unwrap();
    assert_eq!(
        out.as_boolean(),
        &BooleanArray::from(vec![Some(true), Some(false), Some(true), None])
    );
    let ints = two(i32s(&[Some(1), Some(2)]), i32s(&[Some(1), Some(3)]));
    let out = eval(f("gatun_flink_equal"), &ints).unwrap();
    assert_eq!(out.as_boolean(), &BooleanArray::from(vec![true, false]));
    let lit_null = eval_lit(call(
        "gatun_flink_equal",
        vec![lit(ScalarValue::Int32(None)), lit(1)],
    ))
    .unwrap();
    assert!(lit_null.is_null(0));
}
