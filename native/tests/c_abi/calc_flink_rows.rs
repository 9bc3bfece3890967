//! The Calc kind with `GATUN_OUTPUT_FLINK_ROWS`: the output schema, rows equal to the
//! encoding of the Arrow output of the same plan, row kinds in the header, the filter,
//! empty batches, and the create-time refusals.

use std::sync::Arc;

use arrow::array::*;
use arrow::datatypes::{DataType, Field, Schema, TimeUnit};
use datafusion::logical_expr::{binary_expr, Operator};
use gatun_native::ffi::abi::*;
use gatun_native::flink_row::FLINK_ROW_COLUMN;

use crate::calc_util::*;
use crate::flink_row_ref::{flink_row, s, V};
use crate::flink_rows::encoded;

fn input() -> RecordBatch {
    batch(vec![
        (
            "i",
            Arc::new(Int32Array::from(vec![Some(1), None, Some(3), Some(4)])) as ArrayRef,
        ),
        (
            "s",
            Arc::new(StringArray::from(vec![
                Some("short"),
                Some("long enough"),
                None,
                Some(""),
            ])),
        ),
        (
            "d",
            Arc::new(
                Decimal128Array::from(vec![Some(-1), Some(0), None, Some(10i128.pow(30))])
                    .with_precision_and_scale(38, 2)
                    .unwrap(),
            ),
        ),
        (
            "t",
            Arc::new(TimestampMicrosecondArray::from(vec![
                Some(-1),
                None,
                Some(1_500),
                Some(0),
            ])),
        ),
        (
            "b",
            Arc::new(BooleanArray::from(vec![
                Some(true),
                Some(false),
                None,
                Some(true),
            ])),
        ),
    ])
}

fn identity(schema: &Schema) -> Vec<(&str, datafusion::logical_expr::Expr)> {
    schema
        .fields()
        .iter()
        .map(|f| (f.name().as_str(), col(f.name())))
        .collect()
}

fn rows_of(out: &RecordBatch) -> Vec<Vec<u8>> {
    assert_eq!(out.num_columns(), 1);
    let rows = out.column(0).as_binary::<i32>();
    assert_eq!(rows.null_count(), 0);
    (0..rows.len()).map(|r| rows.value(r).to_vec()).collect()
}

#[test]
fn the_output_is_one_binary_column_of_the_encoded_arrow_output() {
    let _guard = no_leaks();
    let input = input();
    let schema = input.schema();
    let projections = identity(&schema);
    let bytes = plan(&schema, &projections, None);
    let expected = expected(&schema, &projections);
    let rows = create_with(&bytes, &schema, &expected, GATUN_OUTPUT_FLINK_ROWS).unwrap();
    assert_eq!(
        rows.output
            .fields()
            .iter()
            .map(|f| (f.name().as_str(), f.data_type().clone(), f.is_nullable()))
            .collect::<Vec<_>>(),
        [(FLINK_ROW_COLUMN, DataType::Binary, false)]
    );
    let arrow = create(&bytes, &schema, &expected).unwrap();
    let columns = arrow.evaluate(&input).unwrap().columns().to_vec();
    let out = rows.evaluate(&input).unwrap();
    assert_eq!(rows_of(&out), encoded(&columns, None, 4));
    assert_eq!(
        rows_of(&out)[0],
        flink_row(
            0,
            &[
                V::I32(1),
                s("short"),
                V::Dec(-1, 38),
                V::Ts(-1, 999_000, false),
                V::Bool(true)
            ]
        )
    );
    assert_eq!(
        rows_of(&out)[2],
        flink_row(
            0,
            &[
                V::I32(3),
                V::Null,
                V::Null,
                V::Ts(1, 500_000, false),
                V::Null
            ]
        )
    );
    // The handle takes further batches, empty ones too.
    let out = rows.evaluate(&input.slice(0, 0)).unwrap();
    assert_eq!((out.num_rows(), out.num_columns()), (0, 1));
    let out = rows.evaluate(&input.slice(1, 2)).unwrap();
    assert_eq!(rows_of(&out), encoded(&columns, None, 4)[1..3]);
}

#[test]
fn row_kinds_go_into_the_header_and_the_filter_applies() {
    let _guard = no_leaks();
    let a: ArrayRef = Arc::new(Int32Array::from(vec![10, 20, 30, 40]));
    let kinds: ArrayRef = Arc::new(Int8Array::from(vec![0, 1, 2, 3]));
    let input = batch(vec![(ROW_KIND, kinds), ("a", a)]);
    let plan_schema = Schema::new(vec![Field::new("a", DataType::Int32, true)]);
    let projections = [("a", col("a"))];
    let filter = binary_expr(col("a"), Operator::NotEq, lit(20));
    let bytes = plan(&plan_schema, &projections, Some(filter));
    let handle = create_with(
        &bytes,
        &input.schema(),
        &expected(&plan_schema, &projections),
        GATUN_OUTPUT_FLINK_ROWS,
    )
    .unwrap();
    assert_eq!(
        handle.output.fields().len(),
        1,
        "no separate row-kind column"
    );
    let out = handle.evaluate(&input).unwrap();
    assert_eq!(
        rows_of(&out),
        [
            flink_row(0, &[V::I32(10)]),
            flink_row(2, &[V::I32(30)]),
            flink_row(3, &[V::I32(40)])
        ]
    );
    // A filter dropping every row: an empty batch; no projections: header-only rows.
    drop(handle);
    let none = binary_expr(col("a"), Operator::Gt, lit(100));
    let handle = create_with(
        &plan(&plan_schema, &projections, Some(none)),
        &input.schema(),
        &expected(&plan_schema, &projections),
        GATUN_OUTPUT_FLINK_ROWS,
    )
    .unwrap();
    assert_eq!(handle.evaluate(&input).unwrap().num_rows(), 0);
    drop(handle);
    let some = binary_expr(col("a"), Operator::Gt, lit(25));
    let handle = create_with(
        &plan(&plan_schema, &[], Some(some)),
        &input.schema(),
        &Schema::empty(),
        GATUN_OUTPUT_FLINK_ROWS,
    )
    .unwrap();
    assert_eq!(
        rows_of(&handle.evaluate(&input).unwrap()),
        [flink_row(2, &[]), flink_row(3, &[])]
    );
}

#[test]
fn a_nested_output_column_is_refused_at_create() {
    let _guard = no_leaks();
    let list = DataType::List(Arc::new(Field::new("item", DataType::Int32, true)));
    let schema = Schema::new(vec![
        Field::new("i", DataType::Int32, true),
        Field::new("l", list.clone(), true),
    ]);
    let projections = identity(&schema);
    let bytes = plan(&schema, &projections, None);
    let expected = expected(&schema, &projections);
    let (status, message) = create_with(&bytes, &schema, &expected, GATUN_OUTPUT_FLINK_ROWS)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(status, GATUN_ERR_PLAN, "{message}");
    assert!(
        message.contains("output column `l`") && message.contains("GATUN_OUTPUT_ARROW"),
        "{message}"
    );
    // The Arrow format takes it; an unused nested input column does not matter.
    drop(create(&bytes, &schema, &expected).unwrap());
    let only_i = [("i", col("i"))];
    let bytes = plan(&schema, &only_i, None);
    let expected = self::expected(&schema, &only_i);
    drop(create_with(&bytes, &schema, &expected, GATUN_OUTPUT_FLINK_ROWS).unwrap());
}

#[test]
fn an_unknown_output_format_is_an_invalid_argument() {
    let _guard = no_leaks();
    let schema = Schema::new(vec![Field::new(
        "t",
        DataType::Timestamp(TimeUnit::Millisecond, None),
        true,
    )]);
    let projections = identity(&schema);
    let bytes = plan(&schema, &projections, None);
    for format in [-1, 2, 7, i32::MAX] {
        let (status, message) =
            create_with(&bytes, &schema, &expected(&schema, &projections), format)
                .map(|_| ())
                .unwrap_err();
        assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT, "{message}");
        assert!(
            message.contains("`output_format` is") && message.contains("GATUN_OUTPUT_FLINK_ROWS"),
            "{message}"
        );
    }
}
