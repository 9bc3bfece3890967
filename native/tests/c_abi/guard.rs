//! Flink's row-wise short-circuit: an error Flink never raises must not be raised
//! natively, and an error Flink raises must be raised.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, Int32Array};
use arrow::datatypes::Int32Type;
use datafusion::logical_expr::{binary_expr, when, Expr, Operator};
use gatun_native::ffi::abi::GATUN_ERR_EXECUTION;

use crate::calc_util::*;

fn x_batch(x: Vec<Option<i32>>) -> arrow::array::RecordBatch {
    let y: Vec<Option<i32>> = x.iter().map(|v| v.map(|_| 1)).collect();
    batch(vec![
        ("x", Arc::new(Int32Array::from(x)) as ArrayRef),
        ("y", Arc::new(Int32Array::from(y)) as ArrayRef),
    ])
}

fn ten_div(e: Expr) -> Expr {
    call("gatun_flink_divide", vec![lit(10), e])
}

fn bools(a: &ArrayRef) -> Vec<Option<bool>> {
    a.as_boolean().iter().collect()
}

/// Batches where the left side is TRUE on most rows (DataFusion would then evaluate
/// the right side on the whole batch) and on few rows (its pre-selection path).
fn compositions() -> Vec<Vec<Option<i32>>> {
    vec![
        vec![Some(1), Some(2), Some(3), Some(4), Some(0)],
        vec![Some(0), Some(0), Some(0), Some(0), Some(5)],
        vec![Some(0)],
        vec![Some(5), None, Some(0), Some(-5), Some(0), Some(20)],
    ]
}

#[test]
fn and_skips_the_right_side_where_the_left_is_false() {
    // x <> 0 AND 10 / x > 1
    let expr = binary_expr(col("x"), Operator::NotEq, lit(0)).and(binary_expr(
        ten_div(col("x")),
        Operator::Gt,
        lit(1),
    ));
    for x in compositions() {
        let want: Vec<Option<bool>> = x.iter().map(|v| v.map(|v| v != 0 && 10 / v > 1)).collect();
        let out = eval(expr.clone(), &x_batch(x.clone())).unwrap();
        assert_eq!(bools(&out), want, "{x:?}");
    }
}

#[test]
fn or_skips_the_right_side_where_the_left_is_true() {
    // x = 0 OR 10 / x > 1
    let expr = binary_expr(col("x"), Operator::Eq, lit(0)).or(binary_expr(
        ten_div(col("x")),
        Operator::Gt,
        lit(1),
    ));
    for x in compositions() {
        let want: Vec<Option<bool>> = x.iter().map(|v| v.map(|v| v == 0 || 10 / v > 1)).collect();
        let out = eval(expr.clone(), &x_batch(x.clone())).unwrap();
        assert_eq!(bools(&out), want, "{x:?}");
    }
}

#[test]
fn a_null_left_side_evaluates_the_right_side_as_flink_does() {
    // (x > 0) is NULL for x NULL: Flink evaluates 10 / y then, y NULL → NULL, no error.
    let expr = binary_expr(col("x"), Operator::Gt, lit(0)).and(binary_expr(
        ten_div(col("y")),
        Operator::Gt,
        lit(1),
    ));
    let out = eval(expr, &x_batch(vec![None, Some(5)])).unwrap();
    assert_eq!(bools(&out), vec![None, Some(true)]);
    // But a NULL left side with a raising right side raises, like Flink.
    let input = batch(vec![
        (
            "p",
            Arc::new(BooleanArray::from(vec![None, Some(false)])) as ArrayRef,
        ),
        ("z", Arc::new(Int32Array::from(vec![0, 0])) as ArrayRef),
    ]);
    let expr = col("p").and(binary_expr(ten_div(col("z")), Operator::Gt, lit(1)));
    assert_fails(eval(expr, &input), GATUN_ERR_EXECUTION, &["/ by zero"]);
}

#[test]
fn nested_and_or_keep_their_guards() {
    // x <> 0 AND (x < 0 OR 10 / x > 1)
    let inner = binary_expr(col("x"), Operator::Lt, lit(0)).or(binary_expr(
        ten_div(col("x")),
        Operator::Gt,
        lit(1),
    ));
    let expr = binary_expr(col("x"), Operator::NotEq, lit(0)).and(inner);
    for x in compositions() {
        let want: Vec<Option<bool>> = x
            .iter()
            .map(|v| v.map(|v| v != 0 && (v < 0 || 10 / v > 1)))
            .collect();
        let out = eval(expr.clone(), &x_batch(x.clone())).unwrap();
        assert_eq!(bools(&out), want, "{x:?}");
    }
}

#[test]
fn case_evaluates_a_branch_only_on_its_rows() {
    // CASE WHEN x = 0 THEN 0 ELSE 10 / x END
    let expr = when(binary_expr(col("x"), Operator::Eq, lit(0)), lit(0))
        .otherwise(ten_div(col("x")))
        .unwrap();
    for x in compositions() {
        let want: Vec<Option<i32>> = x
            .iter()
            .map(|v| v.map(|v| if v == 0 { 0 } else { 10 / v }))
            .collect();
        let out = eval(expr.clone(), &x_batch(x.clone())).unwrap();
        assert_eq!(
            out.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
            want,
            "{x:?}"
        );
    }
    // Several branches: later WHENs only see the rows earlier ones left.
    let expr = when(binary_expr(col("x"), Operator::Eq, lit(0)), lit(-1))
        .when(binary_expr(ten_div(col("x")), Operator::Gt, lit(3)), lit(1))
        .otherwise(ten_div(col("x")))
        .unwrap();
    let out = eval(expr, &x_batch(vec![Some(0), Some(1), Some(5), Some(0)])).unwrap();
    assert_eq!(
        out.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        vec![Some(-1), Some(1), Some(2), Some(-1)]
    );
}

#[test]
fn an_untaken_branch_over_literals_does_not_raise() {
    // CASE WHEN x > 100 THEN 1 / 0 ELSE x END
    let expr = when(
        binary_expr(col("x"), Operator::Gt, lit(100)),
        call("gatun_flink_divide", vec![lit(1), lit(0)]),
    )
    .otherwise(col("x"))
    .unwrap();
    let out = eval(expr.clone(), &x_batch(vec![Some(1), Some(2)])).unwrap();
    assert_eq!(out.as_primitive::<Int32Type>().values(), &[1, 2]);
    // Taken by one row: Flink raises, so do we.
    assert_fails(
        eval(expr, &x_batch(vec![Some(1), Some(200)])),
        GATUN_ERR_EXECUTION,
        &["/ by zero"],
    );
}

#[test]
fn a_case_without_else_and_with_a_raising_then() {
    // CASE WHEN x <> 0 THEN 10 / x END (NULL elsewhere)
    let expr = when(
        binary_expr(col("x"), Operator::NotEq, lit(0)),
        ten_div(col("x")),
    )
    .end()
    .unwrap();
    let out = eval(expr, &x_batch(vec![Some(0), Some(2), None])).unwrap();
    assert_eq!(
        out.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        vec![None, Some(5), None]
    );
}

#[test]
fn the_filter_runs_before_the_projections() {
    let _guard = no_leaks();
    let input = x_batch(vec![Some(0), Some(5), Some(0), Some(2)]);
    let schema = input.schema();
    let projections = [("q", ten_div(col("x")))];
    let filter = binary_expr(col("x"), Operator::NotEq, lit(0));
    let handle = create(
        &plan(&schema, &projections, Some(filter)),
        &schema,
        &expected(&schema, &projections),
    )
    .unwrap();
    let out = handle.evaluate(&input).unwrap();
    assert_eq!(out.column(0).as_primitive::<Int32Type>().values(), &[2, 5]);
    assert_eq!(out.column(0).len(), 2);
}
