//! The per-(key, slice) accumulators of the window aggregate (`aggregate::scalar`): Flink's
//! accumulate, merge and getValue, hand-computed from Flink's declarative functions.

use arrow::datatypes::DataType;

use crate::aggregate::scalar::{decimal_average, ScalarCall, Value};
use crate::aggregate::AggFunction;

fn fresh(call: &ScalarCall) -> Vec<Value> {
    let mut v = Vec::new();
    call.init(&mut v);
    v
}

#[test]
fn sums_wrap_in_their_type_and_are_null_without_values() {
    let sum = ScalarCall::over_values(0, AggFunction::Sum, Some(&DataType::Int8)).unwrap();
    let mut acc = fresh(&sum);
    assert_eq!(sum.value(&acc), Value::Null);
    sum.accumulate(&mut acc, Value::Null);
    assert_eq!(sum.value(&acc), Value::Null);
    sum.accumulate(&mut acc, Value::Int(100));
    sum.accumulate(&mut acc, Value::Int(100));
    // (byte) 200
    assert_eq!(sum.value(&acc), Value::Int(-56));
    let mut other = fresh(&sum);
    sum.merge(&mut other, &acc);
    sum.merge(&mut other, &[Value::Null]);
    assert_eq!(other, acc);
}

#[test]
fn decimal_sums_restart_after_an_overflow_and_averages_stay_null() {
    let t = DataType::Decimal128(38, 0);
    let big = 10i128.pow(37) * 9;
    let sum = ScalarCall::over_accumulators(0, AggFunction::Sum, &[t.clone()], &t).unwrap();
    let mut acc = fresh(&sum);
    sum.merge(&mut acc, &[Value::Dec(big)]);
    sum.merge(&mut acc, &[Value::Dec(big)]);
    assert_eq!(acc[0], Value::Null, "overflow: NULL");
    sum.merge(&mut acc, &[Value::Dec(5)]);
    assert_eq!(acc[0], Value::Dec(5), "the next value restarts it");
    let avg =
        ScalarCall::over_values(0, AggFunction::Avg, Some(&DataType::Decimal128(10, 2))).unwrap();
    assert_eq!(avg.result, DataType::Decimal128(38, 6));
    let mut acc = fresh(&avg);
    avg.merge(&mut acc, &[Value::Dec(big), Value::Int(1)]);
    avg.merge(&mut acc, &[Value::Dec(big), Value::Int(1)]);
    avg.merge(&mut acc, &[Value::Dec(5), Value::Int(1)]);
    assert_eq!(
        acc,
        vec![Value::Null, Value::Int(3)],
        "AVG's sum stays NULL"
    );
    assert_eq!(avg.value(&acc), Value::Null);
}

#[test]
fn averages_divide_as_flinks_get_value() {
    let avg = ScalarCall::over_values(0, AggFunction::Avg, Some(&DataType::Int32)).unwrap();
    let mut acc = fresh(&avg);
    assert_eq!(avg.value(&acc), Value::Null, "count 0: NULL");
    for x in [-7, 2] {
        avg.accumulate(&mut acc, Value::Int(x));
    }
    // -5 / 2 in long division
    assert_eq!(avg.value(&acc), Value::Int(-2));
    let avg = ScalarCall::over_values(0, AggFunction::Avg, Some(&DataType::Float32)).unwrap();
    let mut acc = fresh(&avg);
    for x in [0.1f32, 0.2] {
        avg.accumulate(&mut acc, Value::F32(x));
    }
    assert_eq!(
        avg.value(&acc),
        Value::F32(((0.1f32 as f64 + 0.2f32 as f64) / 2.0) as f32)
    );
    // 10 / 3 at scale 6, 2 / 3 rounded half up, -2.5 exactly, scale 2 sums
    assert_eq!(decimal_average(10, 0, 3, 6), Some(3_333_333));
    assert_eq!(decimal_average(2, 0, 3, 6), Some(666_667));
    assert_eq!(decimal_average(-5, 0, 2, 6), Some(-2_500_000));
    assert_eq!(decimal_average(-2, 0, 3, 6), Some(-666_667));
    assert_eq!(decimal_average(12_345, 2, 10, 6), Some(12_345_000));
    assert_eq!(
        decimal_average(10i128.pow(37), 0, 1, 6),
        None,
        "more than 38 digits"
    );
}

#[test]
fn min_and_max_keep_javas_order() {
    let max = ScalarCall::over_values(0, AggFunction::Max, Some(&DataType::Float64)).unwrap();
    let mut acc = fresh(&max);
    for x in [f64::NAN, 1.0] {
        max.accumulate(&mut acc, Value::F64(x));
    }
    assert!(
        matches!(acc[0], Value::F64(v) if v.is_nan()),
        "a first NaN sticks"
    );
    let min = ScalarCall::over_values(0, AggFunction::Min, Some(&DataType::Utf8)).unwrap();
    let mut acc = fresh(&min);
    for s in ["b", "ab", "a"] {
        min.accumulate(&mut acc, Value::Bytes(s.as_bytes().into()));
    }
    assert_eq!(acc[0], Value::Bytes(b"a".to_vec().into()));
    let max = ScalarCall::over_accumulators(
        0,
        AggFunction::Max,
        &[DataType::Boolean],
        &DataType::Boolean,
    )
    .unwrap();
    let mut acc = fresh(&max);
    max.merge(&mut acc, &[Value::Bool(false)]);
    max.merge(&mut acc, &[Value::Null]);
    max.merge(&mut acc, &[Value::Bool(true)]);
    assert_eq!(acc[0], Value::Bool(true));
}

#[test]
fn accumulator_layouts_that_are_not_flinks_are_refused() {
    let t = DataType::Int64;
    assert!(ScalarCall::over_accumulators(0, AggFunction::Avg, &[t.clone()], &t).is_err());
    assert!(ScalarCall::over_accumulators(
        0,
        AggFunction::Avg,
        &[t.clone(), t.clone()],
        &DataType::Float64
    )
    .is_err());
    assert!(ScalarCall::over_accumulators(0, AggFunction::Count, &[DataType::Int32], &t).is_err());
    assert!(ScalarCall::over_values(0, AggFunction::Sum, Some(&DataType::Utf8)).is_err());
}
