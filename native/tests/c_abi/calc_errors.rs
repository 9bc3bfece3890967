//! Every failure of the Calc kind: status, message naming the culprit, input
//! released, output untouched, no leaked handles.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, Int32Array, StringArray, StructArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, Fields, Schema};
use arrow::ffi::FFI_ArrowArray;
use datafusion::logical_expr::{binary_expr, Cast, Expr, Operator};
use datafusion_substrait::substrait::proto::expression::field_reference::ReferenceType;
use datafusion_substrait::substrait::proto::expression::reference_segment;
use datafusion_substrait::substrait::proto::expression::RexType;
use datafusion_substrait::substrait::proto::expression_reference::ExprType;
use datafusion_substrait::substrait::proto::ExtendedExpression;
use gatun_native::ffi::abi::*;
use gatun_native::ffi::export::export_array;
use prost::Message;

use crate::calc_util::*;

fn schema_a() -> Schema {
    Schema::new(vec![Field::new("a", DataType::Int32, true)])
}

fn ints(v: Vec<i32>) -> ArrayRef {
    Arc::new(Int32Array::from(v))
}

fn projection_a() -> [(&'static str, Expr); 1] {
    [("a", col("a"))]
}

#[test]
fn malformed_plan_bytes() {
    let _guard = no_leaks();
    let schema = schema_a();
    for bytes in [&b"\xff\xff\xff"[..], b"not a plan at all", b""] {
        assert_fails(
            create(bytes, &schema, &schema).map(|_| ()),
            GATUN_ERR_PLAN,
            &["gatun_operator_create: malformed plan"],
        );
    }
}

#[test]
fn plan_written_for_other_columns() {
    let _guard = no_leaks();
    let other = Schema::new(vec![Field::new("x", DataType::Int32, true)]);
    let bytes = plan(&other, &[("x", col("x"))], None);
    let expected = Schema::new(vec![Field::new("x", DataType::Int32, true)]);
    assert_fails(
        create(&bytes, &schema_a(), &expected).map(|_| ()),
        GATUN_ERR_PLAN,
        &[
            "base_schema column 0 is `x` Int32",
            "input column is `a` Int32",
        ],
    );
    let typed = Schema::new(vec![Field::new("a", DataType::Int64, true)]);
    assert_fails(
        create(
            &plan(&schema_a(), &projection_a(), None),
            &typed,
            &schema_a(),
        )
        .map(|_| ()),
        GATUN_ERR_PLAN,
        &["base_schema column 0 is `a` Int32", "`a` Int64"],
    );
}

#[test]
fn a_reference_to_a_missing_column() {
    let _guard = no_leaks();
    let schema = schema_a();
    let bytes = plan(&schema, &projection_a(), None);
    let mut ee = ExtendedExpression::decode(bytes.as_slice()).unwrap();
    let Some(ExprType::Expression(e)) = &mut ee.referred_expr[0].expr_type else {
        panic!("no expression")
    };
    let Some(RexType::Selection(sel)) = &mut e.rex_type else {
        panic!("not a field reference: {e:?}")
    };
    let Some(ReferenceType::DirectReference(seg)) = &mut sel.reference_type else {
        panic!("not direct")
    };
    let Some(reference_segment::ReferenceType::StructField(field)) = &mut seg.reference_type else {
        panic!("not a struct field")
    };
    field.field = 7;
    assert_fails(
        create(&ee.encode_to_vec(), &schema, &schema).map(|_| ()),
        GATUN_ERR_PLAN,
        &["expression 0 `a`"],
    );
}

#[test]
fn unadmitted_constructs_name_the_column() {
    let _guard = no_leaks();
    let schema = Schema::new(vec![
        Field::new("a", DataType::Int32, true),
        Field::new("f", DataType::Float64, true),
        Field::new("l", DataType::Int64, true),
    ]);
    let cases = [
        (
            binary_expr(col("a"), Operator::Divide, lit(2)),
            "gatun_flink_divide",
        ),
        (
            binary_expr(col("f"), Operator::Lt, lit(1.0)),
            "gatun_flink_* comparisons",
        ),
        (
            binary_expr(col("a"), Operator::Plus, col("l")),
            "use gatun_flink_*",
        ),
        (
            Expr::Cast(Cast::new(Box::new(col("a")), DataType::Utf8)),
            "gatun_flink_cast",
        ),
        (col("a").like(lit("x")), "gatun_flink_like"),
    ];
    for (expr, hint) in cases {
        let rendering = expr.to_string();
        let bytes = plan(&schema, &[("bad", expr.clone())], None);
        let expected = Schema::new(vec![Field::new("bad", type_of(&expr, &schema), true)]);
        assert_fails(
            create(&bytes, &schema, &expected).map(|_| ()),
            GATUN_ERR_PLAN,
            &["projection `bad`", hint],
        );
        let _ = rendering;
    }
    // A non-BOOLEAN filter.
    let bytes = plan(&schema, &[], Some(col("a")));
    assert_fails(
        create(&bytes, &schema, &Schema::empty()).map(|_| ()),
        GATUN_ERR_PLAN,
        &["filter", "expected BOOLEAN"],
    );
}

#[test]
fn a_batch_that_does_not_match_the_input_schema() {
    let _guard = no_leaks();
    let schema = schema_a();
    let handle = create(&plan(&schema, &projection_a(), None), &schema, &schema).unwrap();
    // A Utf8 column where Int32 is declared: wrong buffer count.
    let wrong = batch(vec![(
        "a",
        Arc::new(StringArray::from(vec!["x"])) as ArrayRef,
    )]);
    assert_fails(
        handle.evaluate(&wrong),
        GATUN_ERR_ARROW,
        &["field `a`", "buffers for type Int32"],
    );
    // An extra column.
    let extra = batch(vec![("a", ints(vec![1])), ("b", ints(vec![2]))]);
    assert_fails(
        handle.evaluate(&extra),
        GATUN_ERR_ARROW,
        &["2 children", "expected 1"],
    );
    // A struct array with top-level nulls is not a batch.
    let fields = Fields::from(vec![Field::new("a", DataType::Int32, true)]);
    let with_nulls = StructArray::new(
        fields,
        vec![ints(vec![1, 2])],
        Some(NullBuffer::from(vec![true, false])),
    );
    assert_fails(
        handle.evaluate_raw(export_array(&with_nulls.into_data())),
        GATUN_ERR_ARROW,
        &["1 top-level nulls"],
    );
    // A NOT NULL input column holding NULLs.
    drop(handle);
    let strict = Schema::new(vec![Field::new("a", DataType::Int32, false)]);
    let handle = create(&plan(&strict, &projection_a(), None), &strict, &schema).unwrap();
    let nulls = batch(vec![(
        "a",
        Arc::new(Int32Array::from(vec![Some(1), None])) as ArrayRef,
    )]);
    assert_fails(handle.evaluate(&nulls), GATUN_ERR_ARROW, &["a"]);
    // A released input struct.
    assert_fails(
        handle.evaluate_raw(FFI_ArrowArray::empty()),
        GATUN_ERR_INVALID_ARGUMENT,
        &["`input`", "released"],
    );
}

#[test]
fn a_runtime_error_names_the_column_and_expression() {
    let _guard = no_leaks();
    let schema = schema_a();
    let projections = [
        ("ok", col("a")),
        ("ratio", call("gatun_flink_divide", vec![lit(10), col("a")])),
    ];
    let handle = create(
        &plan(&schema, &projections, None),
        &schema,
        &expected(&schema, &projections),
    )
    .unwrap();
    let input = batch(vec![("a", ints(vec![5, 0]))]);
    assert_fails(
        handle.evaluate(&input),
        GATUN_ERR_EXECUTION,
        &[
            "gatun_operator_process: projection `ratio`",
            "gatun_flink_divide",
            "/ by zero",
        ],
    );
    // The handle stays usable.
    let ok = handle.evaluate(&batch(vec![("a", ints(vec![5]))])).unwrap();
    assert_eq!(ok.num_rows(), 1);
    // A raising filter is named as such.
    drop(handle);
    let filter = binary_expr(
        call("gatun_flink_divide", vec![lit(1), col("a")]),
        Operator::Gt,
        lit(0),
    );
    let handle = create(&plan(&schema, &[], Some(filter)), &schema, &Schema::empty()).unwrap();
    assert_fails(
        handle.evaluate(&input),
        GATUN_ERR_EXECUTION,
        &["filter (", "/ by zero"],
    );
}

#[test]
fn bad_schemas_at_create() {
    let _guard = no_leaks();
    let schema = schema_a();
    let bytes = plan(&schema, &projection_a(), None);
    // A row-kind column of the wrong type.
    let bad_kind = Schema::new(vec![
        Field::new("a", DataType::Int32, true),
        Field::new(ROW_KIND, DataType::Int32, false),
    ]);
    assert_fails(
        create(&bytes, &bad_kind, &schema).map(|_| ()),
        GATUN_ERR_INVALID_ARGUMENT,
        &[ROW_KIND, "expected Int8"],
    );
    // The expected schema must not contain the row kind.
    let kinds = Schema::new(vec![
        Field::new("a", DataType::Int32, true),
        Field::new(ROW_KIND, DataType::Int8, false),
    ]);
    assert_fails(
        create(&bytes, &schema, &kinds).map(|_| ()),
        GATUN_ERR_INVALID_ARGUMENT,
        &["expected_output_schema"],
    );
}

/// A Utf8 column `s` whose second value is not UTF-8 (built without validation).
fn not_utf8() -> ArrayRef {
    let valid = StringArray::from(vec!["ok", "xx"]).into_data();
    let values = arrow::buffer::Buffer::from(vec![b'o', b'k', 0xff, b'x']);
    let offsets = valid.buffers()[0].clone();
    // SAFETY: the layout of `valid`, only the value bytes are not UTF-8 (deliberately).
    let data = unsafe {
        valid
            .into_builder()
            .buffers(vec![offsets, values])
            .build_unchecked()
    };
    arrow::array::make_array(data)
}

#[test]
fn utf8_is_checked_only_where_an_expression_reads_text() {
    let _guard = no_leaks();
    let schema = Schema::new(vec![
        Field::new("s", DataType::Utf8, true),
        Field::new("a", DataType::Int32, true),
    ]);
    let input = batch(vec![("s", not_utf8()), ("a", ints(vec![1, 2]))]);
    // Copied through (filtered on another column): the bytes come back unchanged, as
    // stock Flink copies them.
    let copied = [("s", col("s"))];
    let keep = binary_expr(col("a"), Operator::Gt, lit(0));
    // (Flink rows: the harness's Arrow import would refuse the invalid Utf8 it gets back.)
    let handle = create_with(
        &plan(&schema, &copied, Some(keep)),
        &schema,
        &expected(&schema, &copied),
        GATUN_OUTPUT_FLINK_ROWS,
    )
    .unwrap();
    let out = handle.evaluate(&input).unwrap();
    let rows = out.column(0).as_binary::<i32>();
    assert_eq!(rows.len(), 2);
    assert!(rows.value(0).windows(2).any(|w| w == b"ok"));
    assert!(rows.value(1).windows(2).any(|w| w == [0xff, b'x']));
    drop(handle);
    // Read as text by a function or by the filter: the batch is refused, naming the column.
    let upper = [("u", call("gatun_flink_upper", vec![col("s")]))];
    let in_filter = binary_expr(
        call("gatun_flink_char_length", vec![col("s")]),
        Operator::Gt,
        lit(0),
    );
    for (projections, filter) in [(&upper[..], None), (&copied[..], Some(in_filter))] {
        let handle = create(
            &plan(&schema, projections, filter),
            &schema,
            &expected(&schema, projections),
        )
        .unwrap();
        assert_fails(
            handle.evaluate(&input),
            GATUN_ERR_ARROW,
            &["invalid input column `s`", "UTF"],
        );
    }
}
