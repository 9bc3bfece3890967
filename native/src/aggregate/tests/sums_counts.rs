//! COUNT, SUM and AVG: wrapping, float precision, decimal overflow, initial values and
//! filters, with the stock-Flink values of research/local-agg.md §2.2 where measured.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, Decimal128Array, Float32Array, Float64Array,
    Int32Array, Int64Array, Int8Array,
};
use arrow::datatypes::{DataType, Decimal128Type, Float32Type, Float64Type};

use super::random::TEN_POW_38;
use super::{batch, global, i64s, run};
use crate::aggregate::{AggCall, AggFunction};

#[test]
fn integer_sums_wrap_in_the_argument_width() {
    let mut agg = global(vec![
        AggCall::new(AggFunction::Sum, 0, DataType::Int8),
        AggCall::new(AggFunction::Avg, 0, DataType::Int8),
        AggCall::new(AggFunction::Sum, 1, DataType::Int32),
    ]);
    let out = run(
        &mut agg,
        &[
            batch(vec![
                Arc::new(Int8Array::from(vec![100, 100])),
                Arc::new(Int32Array::from(vec![i32::MAX, 1])),
            ]),
            batch(vec![
                Arc::new(Int8Array::from(vec![1])),
                Arc::new(Int32Array::from(vec![1])),
            ]),
        ],
    );
    assert_eq!(out.column(0).data_type(), &DataType::Int8);
    assert_eq!(
        out.column(0)
            .as_primitive::<arrow::datatypes::Int8Type>()
            .value(0),
        -55
    );
    // AVG(TINYINT) sums in BIGINT: (201, 3), no wrap.
    assert_eq!(i64s(out.column(1)), vec![Some(201)]);
    assert_eq!(i64s(out.column(2)), vec![Some(3)]);
    assert_eq!(
        out.column(3)
            .as_primitive::<arrow::datatypes::Int32Type>()
            .value(0),
        -2147483647
    );
}

#[test]
fn bigint_sum_and_counts_wrap_at_2_pow_63() {
    let mut agg = global(vec![
        AggCall::new(AggFunction::Sum, 0, DataType::Int64),
        AggCall::new(AggFunction::Avg, 0, DataType::Int64),
    ]);
    let out = run(
        &mut agg,
        &[batch(vec![Arc::new(Int64Array::from(vec![i64::MAX, 2]))])],
    );
    assert_eq!(i64s(out.column(0)), vec![Some(i64::MIN + 1)]);
    assert_eq!(i64s(out.column(1)), vec![Some(i64::MIN + 1)]);
    assert_eq!(i64s(out.column(2)), vec![Some(2)]);
}

fn decimal38(values: Vec<Option<i128>>) -> ArrayRef {
    Arc::new(
        Decimal128Array::from(values)
            .with_precision_and_scale(38, 0)
            .unwrap(),
    )
}

#[test]
fn decimal_sum_restarts_after_overflow_and_avg_stays_null() {
    let t = DataType::Decimal128(38, 0);
    let mut agg = global(vec![
        AggCall::new(AggFunction::Sum, 0, t.clone()),
        AggCall::new(AggFunction::Avg, 0, t.clone()),
    ]);
    // Stock Flink: SUM of 10^38-1, 1, 5 is 5; AVG's sum is NULL, its count 3.
    let out = run(
        &mut agg,
        &[
            batch(vec![decimal38(vec![Some(TEN_POW_38 - 1), Some(1)])]),
            batch(vec![decimal38(vec![None, Some(5)])]),
        ],
    );
    let sum = out.column(0).as_primitive::<Decimal128Type>();
    assert_eq!(sum.data_type(), &DataType::Decimal128(38, 0));
    assert_eq!(sum.iter().collect::<Vec<_>>(), vec![Some(5)]);
    assert_eq!(
        out.column(1)
            .as_primitive::<Decimal128Type>()
            .iter()
            .collect::<Vec<_>>(),
        vec![None]
    );
    assert_eq!(i64s(out.column(2)), vec![Some(3)]);
    // The sticky NULL lasts for the bundle only.
    let out = run(&mut agg, &[batch(vec![decimal38(vec![Some(7)])])]);
    assert_eq!(out.column(0).as_primitive::<Decimal128Type>().value(0), 7);
    assert_eq!(
        out.column(1)
            .as_primitive::<Decimal128Type>()
            .iter()
            .collect::<Vec<_>>(),
        vec![Some(7)]
    );
    // Negative overflow too; 38 nines is still in range.
    let out = run(
        &mut agg,
        &[batch(vec![decimal38(vec![
            Some(-(TEN_POW_38 - 1)),
            Some(1),
            Some(-2),
        ])])],
    );
    assert_eq!(
        out.column(0)
            .as_primitive::<Decimal128Type>()
            .iter()
            .collect::<Vec<_>>(),
        vec![None]
    );
    assert_eq!(
        out.column(1)
            .as_primitive::<Decimal128Type>()
            .iter()
            .collect::<Vec<_>>(),
        vec![None]
    );
}

#[test]
fn float_sums_add_in_the_argument_precision() {
    let mut agg = global(vec![
        AggCall::new(AggFunction::Sum, 0, DataType::Float32),
        AggCall::new(AggFunction::Avg, 0, DataType::Float32),
        AggCall::new(AggFunction::Sum, 1, DataType::Float64),
    ]);
    // 2^24 + 1 is not a float: each f32 step rounds, the AVG's double sum does not.
    let big = 16_777_216.0f32;
    let out = run(
        &mut agg,
        &[batch(vec![
            Arc::new(Float32Array::from(vec![big, 1.0, 1.0])),
            Arc::new(Float64Array::from(vec![-0.0, -0.0, -0.0])),
        ])],
    );
    assert_eq!(out.column(0).as_primitive::<Float32Type>().value(0), big);
    assert_eq!(
        out.column(1).as_primitive::<Float64Type>().value(0),
        16_777_218.0
    );
    // SUM takes the first value as is: -0.0 stays -0.0.
    assert_eq!(
        out.column(3)
            .as_primitive::<Float64Type>()
            .value(0)
            .to_bits(),
        (-0.0f64).to_bits()
    );
}

#[test]
fn empty_and_all_filtered_groups_have_flink_initial_values() {
    let mut agg = global(vec![
        AggCall::count_star().with_filter(1),
        AggCall::new(AggFunction::Count, 0, DataType::Int64),
        AggCall::new(AggFunction::Sum, 0, DataType::Int64),
        AggCall::new(AggFunction::Avg, 0, DataType::Int64),
        AggCall::new(AggFunction::Avg, 0, DataType::Int64).with_filter(1),
        AggCall::new(AggFunction::Min, 0, DataType::Int64).with_filter(1),
        AggCall::new(AggFunction::Max, 0, DataType::Int64),
    ]);
    // Argument NULL in every row; the filter column is FALSE or NULL (NULL is not TRUE).
    let out = run(
        &mut agg,
        &[batch(vec![
            Arc::new(Int64Array::from(vec![None, None])),
            Arc::new(BooleanArray::from(vec![Some(false), None])),
        ])],
    );
    let row: Vec<Option<i64>> = out.columns().iter().map(|c| i64s(c)[0]).collect();
    assert_eq!(
        row,
        vec![
            Some(0),
            Some(0),
            None,
            Some(0),
            Some(0),
            Some(0),
            Some(0),
            None,
            None
        ]
    );
    // The AVG sums and counts are non-NULL values, not NULLs.
    assert_eq!(out.column(3).null_count(), 0);
}

#[test]
fn filter_selects_rows_per_call() {
    let mut agg = global(vec![
        AggCall::new(AggFunction::Sum, 0, DataType::Int64).with_filter(1),
        AggCall::new(AggFunction::Sum, 0, DataType::Int64).with_filter(2),
        AggCall::count_star().with_filter(2),
    ]);
    let out = run(
        &mut agg,
        &[batch(vec![
            Arc::new(Int64Array::from(vec![1, 10, 100])),
            Arc::new(BooleanArray::from(vec![true, false, true])),
            Arc::new(BooleanArray::from(vec![None, Some(true), Some(false)])),
        ])],
    );
    assert_eq!(i64s(out.column(0)), vec![Some(101)]);
    assert_eq!(i64s(out.column(1)), vec![Some(10)]);
    assert_eq!(i64s(out.column(2)), vec![Some(1)]);
}
