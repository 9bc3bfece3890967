//! The Calc kind of `gatun_operator_*` end to end: projections and filter, zero-column
//! output, empty results, row kinds, the create-time schema check.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, Int32Array, Int8Array, StringArray};
use arrow::datatypes::{DataType, Field, Int32Type, Schema};
use datafusion::logical_expr::Operator;
use gatun_native::ffi::abi::GATUN_ERR_PLAN;

use crate::calc_util::*;

fn ints(v: Vec<Option<i32>>) -> ArrayRef {
    Arc::new(Int32Array::from(v))
}

fn strings(v: Vec<Option<&str>>) -> ArrayRef {
    Arc::new(StringArray::from(v))
}

fn binary(
    l: datafusion::logical_expr::Expr,
    op: Operator,
    r: datafusion::logical_expr::Expr,
) -> datafusion::logical_expr::Expr {
    datafusion::logical_expr::binary_expr(l, op, r)
}

#[test]
fn projections_and_filter() {
    let _guard = no_leaks();
    let input = batch(vec![
        ("a", ints(vec![Some(1), Some(2), None, Some(4)])),
        ("b", strings(vec![Some("x"), Some("y"), Some("z"), None])),
    ]);
    let schema = input.schema();
    let projections = [
        ("b", col("b")),
        ("twice", binary(col("a"), Operator::Plus, col("a"))),
    ];
    let filter = binary(col("a"), Operator::Gt, lit(1));
    let bytes = plan(&schema, &projections, Some(filter));
    let handle = create(&bytes, &schema, &expected(&schema, &projections)).unwrap();
    assert_eq!(
        handle
            .output
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect::<Vec<_>>(),
        ["b", "twice"]
    );
    let out = handle.evaluate(&input).unwrap();
    assert_eq!(out.num_rows(), 2);
    assert_eq!(
        out.column(0).as_ref(),
        &StringArray::from(vec![Some("y"), None]) as &dyn Array
    );
    assert_eq!(out.column(1).as_primitive::<Int32Type>().values(), &[4, 8]);
    // The same handle takes further batches, also empty ones.
    let out = handle.evaluate(&input.slice(0, 0)).unwrap();
    assert_eq!((out.num_rows(), out.num_columns()), (0, 2));
    let out = handle.evaluate(&input.slice(1, 1)).unwrap();
    assert_eq!(out.column(1).as_primitive::<Int32Type>().values(), &[4]);
}

#[test]
fn null_filter_values_drop_the_row() {
    let _guard = no_leaks();
    let input = batch(vec![(
        "p",
        Arc::new(BooleanArray::from(vec![Some(true), None, Some(false)])) as ArrayRef,
    )]);
    let schema = input.schema();
    let projections = [("p", col("p"))];
    let bytes = plan(&schema, &projections, Some(col("p")));
    let handle = create(&bytes, &schema, &expected(&schema, &projections)).unwrap();
    let out = handle.evaluate(&input).unwrap();
    assert_eq!(out.column(0).as_boolean(), &BooleanArray::from(vec![true]));
}

#[test]
fn zero_column_output_keeps_the_row_count() {
    let _guard = no_leaks();
    let input = batch(vec![("a", ints(vec![Some(1), Some(2), Some(3)]))]);
    let schema = input.schema();
    let handle = create(&plan(&schema, &[], None), &schema, &Schema::empty()).unwrap();
    let out = handle.evaluate(&input).unwrap();
    assert_eq!((out.num_rows(), out.num_columns()), (3, 0));
    drop(handle);
    let filter = binary(col("a"), Operator::NotEq, lit(2));
    let handle = create(&plan(&schema, &[], Some(filter)), &schema, &Schema::empty()).unwrap();
    let out = handle.evaluate(&input).unwrap();
    assert_eq!((out.num_rows(), out.num_columns()), (2, 0));
}

#[test]
fn a_filter_dropping_every_row_gives_an_empty_batch() {
    let _guard = no_leaks();
    let input = batch(vec![("a", ints(vec![Some(1), Some(2)]))]);
    let schema = input.schema();
    // The projection would raise on any row: it must not be evaluated at all.
    let projections = [("q", call("gatun_flink_divide", vec![lit(1), lit(0)]))];
    let filter = binary(col("a"), Operator::Gt, lit(5));
    let bytes = plan(&schema, &projections, Some(filter));
    let handle = create(&bytes, &schema, &expected(&schema, &projections)).unwrap();
    let out = handle.evaluate(&input).unwrap();
    assert_eq!((out.num_rows(), out.num_columns()), (0, 1));
    assert_eq!(out.column(0).data_type(), &DataType::Int32);
}

#[test]
fn row_kinds_pass_through_the_filter_and_come_last() {
    let _guard = no_leaks();
    let kinds: ArrayRef = Arc::new(Int8Array::from(vec![0, 1, 2, 3]));
    let a = ints(vec![Some(10), Some(20), Some(30), Some(40)]);
    // The row-kind column may sit anywhere in the input; the plan never sees it.
    let input = batch(vec![("a", Arc::clone(&a)), (ROW_KIND, kinds)]);
    let plan_schema = Schema::new(vec![Field::new("a", DataType::Int32, true)]);
    let projections = [("a", col("a"))];
    let filter = binary(col("a"), Operator::NotEq, lit(20));
    let bytes = plan(&plan_schema, &projections, Some(filter));
    let handle = create(
        &bytes,
        &input.schema(),
        &expected(&plan_schema, &projections),
    )
    .unwrap();
    let names: Vec<_> = handle
        .output
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, ["a", ROW_KIND]);
    assert_eq!(handle.output.field(1).data_type(), &DataType::Int8);
    let out = handle.evaluate(&input).unwrap();
    assert_eq!(
        out.column(0).as_primitive::<Int32Type>().values(),
        &[10, 30, 40]
    );
    assert_eq!(
        out.column(1)
            .as_primitive::<arrow::datatypes::Int8Type>()
            .values(),
        &[0, 2, 3]
    );
    // Zero projections: the row kinds alone, still filtered.
    drop(handle);
    let bytes = plan(
        &plan_schema,
        &[],
        Some(binary(col("a"), Operator::Gt, lit(25))),
    );
    let handle = create(&bytes, &input.schema(), &Schema::empty()).unwrap();
    let out = handle.evaluate(&input).unwrap();
    assert_eq!(out.num_columns(), 1);
    assert_eq!(
        out.column(0)
            .as_primitive::<arrow::datatypes::Int8Type>()
            .values(),
        &[2, 3]
    );
}

#[test]
fn the_output_schema_takes_names_and_nullability_from_the_expected_one() {
    let _guard = no_leaks();
    let input = batch(vec![("a", ints(vec![Some(1)]))]);
    let schema = input.schema();
    let projections = [("x", binary(col("a"), Operator::Multiply, lit(3)))];
    let expected = Schema::new(vec![Field::new("x", DataType::Int32, false)
        .with_metadata([("k".to_string(), "v".to_string())].into())]);
    let handle = create(&plan(&schema, &projections, None), &schema, &expected).unwrap();
    assert_eq!(handle.output.as_ref(), &expected);
    let out = handle.evaluate(&input).unwrap();
    assert_eq!(out.column(0).as_primitive::<Int32Type>().values(), &[3]);
}

#[test]
fn create_fails_when_a_derived_type_differs_from_the_expected_one() {
    let _guard = no_leaks();
    let schema = Schema::new(vec![Field::new("a", DataType::Int32, true)]);
    let projections = [("x", binary(col("a"), Operator::Plus, lit(1)))];
    let bytes = plan(&schema, &projections, None);
    let wrong = Schema::new(vec![Field::new("x", DataType::Int64, true)]);
    assert_fails(
        create(&bytes, &schema, &wrong).map(|_| ()),
        GATUN_ERR_PLAN,
        &[
            "projection `x`",
            "derived type Int32",
            "expected type Int64",
        ],
    );
    let renamed = Schema::new(vec![Field::new("y", DataType::Int32, true)]);
    assert_fails(
        create(&bytes, &schema, &renamed).map(|_| ()),
        GATUN_ERR_PLAN,
        &["`x`", "`y`"],
    );
    let more = Schema::new(vec![
        Field::new("x", DataType::Int32, true),
        Field::new("z", DataType::Int32, true),
    ]);
    assert_fails(
        create(&bytes, &schema, &more).map(|_| ()),
        GATUN_ERR_PLAN,
        &["1 projections", "2 columns"],
    );
}

#[test]
fn column_references_pass_values_through_without_copies() {
    let _guard = no_leaks();
    let input = batch(vec![("s", strings(vec![Some("héllo"), None, Some("")]))]);
    let schema = input.schema();
    let projections = [("s", col("s"))];
    let handle = create(
        &plan(&schema, &projections, None),
        &schema,
        &expected(&schema, &projections),
    )
    .unwrap();
    let out = handle.evaluate(&input).unwrap();
    assert_eq!(
        out.column(0).as_string::<i32>(),
        input.column(0).as_string::<i32>()
    );
    let values = |a: &ArrayRef| a.to_data().buffers()[1].as_ptr();
    assert_eq!(
        values(out.column(0)),
        values(input.column(0)),
        "values were copied"
    );
}

#[test]
fn built_in_predicates_and_arithmetic() {
    let input = batch(vec![
        ("a", ints(vec![Some(1), Some(2), None, Some(i32::MIN)])),
        ("b", ints(vec![Some(2), Some(2), Some(1), Some(1)])),
        ("s", strings(vec![Some("x"), Some("y"), None, Some("x")])),
    ]);
    let bools = |e| -> Vec<Option<bool>> { eval(e, &input).unwrap().as_boolean().iter().collect() };
    assert_eq!(
        bools(col("a").is_null()),
        [Some(false), Some(false), Some(true), Some(false)]
    );
    assert_eq!(
        bools(col("a").is_not_null()),
        [Some(true), Some(true), Some(false), Some(true)]
    );
    assert_eq!(
        bools(binary(col("a"), Operator::LtEq, col("b"))),
        [Some(true), Some(true), None, Some(true)]
    );
    assert_eq!(
        bools(binary(col("a"), Operator::GtEq, col("b"))),
        [Some(false), Some(true), None, Some(false)]
    );
    assert_eq!(
        bools(binary(col("a"), Operator::Lt, col("b"))),
        [Some(true), Some(false), None, Some(true)]
    );
    assert_eq!(
        bools(binary(col("a"), Operator::Eq, col("b"))),
        [Some(false), Some(true), None, Some(false)]
    );
    assert_eq!(
        bools(binary(col("s"), Operator::Eq, lit("x"))),
        [Some(true), Some(false), None, Some(true)]
    );
    assert_eq!(
        bools(!binary(col("s"), Operator::Eq, lit("x"))),
        [Some(false), Some(true), None, Some(false)]
    );
    assert_eq!(
        bools(binary(col("a"), Operator::IsDistinctFrom, col("b"))),
        [Some(true), Some(false), Some(true), Some(true)]
    );
    assert_eq!(
        bools(binary(col("a"), Operator::IsNotDistinctFrom, col("b"))),
        [Some(false), Some(true), Some(false), Some(false)]
    );
    let p = binary(col("a"), Operator::Lt, col("b")); // TRUE, FALSE, NULL, TRUE
    assert_eq!(
        bools(p.clone().is_true()),
        [Some(true), Some(false), Some(false), Some(true)]
    );
    assert_eq!(
        bools(p.clone().is_false()),
        [Some(false), Some(true), Some(false), Some(false)]
    );
    assert_eq!(
        bools(p.clone().is_not_true()),
        [Some(false), Some(true), Some(true), Some(false)]
    );
    assert_eq!(
        bools(p.clone().is_not_false()),
        [Some(true), Some(false), Some(true), Some(true)]
    );
    assert_eq!(
        bools(p.clone().is_unknown()),
        [Some(false), Some(false), Some(true), Some(false)]
    );
    assert_eq!(
        bools(p.is_not_unknown()),
        [Some(true), Some(true), Some(false), Some(true)]
    );
    let sub = eval(binary(col("a"), Operator::Minus, col("b")), &input).unwrap();
    assert_eq!(
        sub.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(-1), Some(0), None, Some(i32::MAX)]
    );
}

#[test]
fn a_case_switching_columns_on_an_integer_code() {
    use arrow::array::TimestampMillisecondArray;
    use arrow::datatypes::TimestampMillisecondType;
    use datafusion::logical_expr::when;
    let kinds = [Some(2), Some(0), None, Some(1), Some(2), Some(7), Some(0)];
    let time = |kind: i32| -> ArrayRef {
        let t = kinds.iter().enumerate();
        let t = t.map(|(i, k)| (*k == Some(kind)).then_some(1000 * kind as i64 + i as i64));
        Arc::new(t.collect::<TimestampMillisecondArray>())
    };
    let names = kinds.iter().map(|k| k.map(|k| format!("n{k}")));
    let input = batch(vec![
        ("event_type", ints(kinds.to_vec())),
        ("person", time(0)),
        ("auction", time(1)),
        ("bid", time(2)),
        ("name", Arc::new(names.collect::<StringArray>()) as ArrayRef),
    ]);
    // Sliced, as Java may hand over part of a batch.
    let input = input.slice(1, kinds.len() - 1);
    let is = |code: i32| binary(col("event_type"), Operator::Eq, lit(code));
    let event_time = when(is(0), col("person"))
        .when(is(1), col("auction"))
        .otherwise(col("bid"))
        .unwrap();
    let out = eval(event_time, &input).unwrap();
    assert_eq!(
        out.as_primitive::<TimestampMillisecondType>()
            .iter()
            .collect::<Vec<_>>(),
        [Some(1), None, Some(1003), Some(2004), None, Some(6)]
    );
    // Text goes through the generic gather; no ELSE gives NULL.
    let label = when(is(0), col("name"))
        .when(is(1), lit("auction"))
        .end()
        .unwrap();
    let out = eval(label, &input).unwrap();
    assert_eq!(
        out.as_string::<i32>().iter().collect::<Vec<_>>(),
        [Some("n0"), None, Some("auction"), None, None, Some("n0")]
    );
}
