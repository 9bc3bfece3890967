//! The local-aggregate kind of `gatun_operator_*` end to end: the Calc part, accumulation
//! across batches, flush and reset, NULL keys, FILTER, every function, both output
//! formats, create errors, bad input, held bytes.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, Decimal128Array, Float64Array, Int32Array, Int64Array,
    Int8Array, RecordBatch, StringArray,
};
use arrow::datatypes::{
    DataType, Decimal128Type, Field, Float64Type, Int32Type, Int64Type, Schema,
};
use datafusion::logical_expr::{binary_expr, Expr, Operator};
use datafusion_substrait::substrait::proto::aggregate_function::AggregationInvocation;
use datafusion_substrait::substrait::proto::plan_rel::RelType as PlanRelType;
use datafusion_substrait::substrait::proto::rel::RelType;
use datafusion_substrait::substrait::proto::AggregationPhase;
use gatun_native::ffi::abi::{
    GATUN_ERR_ARROW, GATUN_ERR_EXECUTION, GATUN_ERR_INVALID_ARGUMENT, GATUN_ERR_PANIC,
    GATUN_ERR_PLAN, GATUN_OPERATOR_LOCAL_AGGREGATE, GATUN_OUTPUT_FLINK_ROWS,
};
use prost::Message;

use crate::agg_util::*;
use crate::calc_util::*;

fn ints(v: Vec<Option<i32>>) -> ArrayRef {
    Arc::new(Int32Array::from(v))
}

fn longs(v: Vec<Option<i64>>) -> ArrayRef {
    Arc::new(Int64Array::from(v))
}

fn strings(v: Vec<Option<&str>>) -> ArrayRef {
    Arc::new(StringArray::from(v))
}

fn bin(l: Expr, op: Operator, r: Expr) -> Expr {
    binary_expr(l, op, r)
}

fn i64s(a: &ArrayRef) -> Vec<Option<i64>> {
    a.as_primitive::<Int64Type>().iter().collect()
}

fn strs(a: &ArrayRef) -> Vec<Option<String>> {
    a.as_string::<i32>()
        .iter()
        .map(|s| s.map(str::to_string))
        .collect()
}

/// Rows `(k, v)`.
fn kv(rows: &[(Option<&str>, Option<i64>)]) -> RecordBatch {
    batch(vec![
        ("k", strings(rows.iter().map(|r| r.0).collect())),
        ("v", longs(rows.iter().map(|r| r.1).collect())),
    ])
}

#[test]
fn groups_accumulate_across_batches_and_flush_resets() {
    let _guard = no_leaks();
    let first = kv(&[
        (Some("a"), Some(1)),
        (Some("b"), Some(10)),
        (Some("a"), Some(2)),
    ]);
    let schema = first.schema();
    let projections = [("k", col("k")), ("v", col("v"))];
    let measures = [count_star(), m("sum", 1), m("max", 1)];
    let handle = agg_handle(&schema, &projections, None, &[0], &measures);
    let names: Vec<_> = handle
        .output
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, ["k", "count1$0", "sum$1", "max$2"]);
    let second = kv(&[(Some("c"), None), (Some("b"), Some(5)), (Some("a"), None)]);
    let out = fold(&handle, &[first.clone(), first.slice(0, 0), second]).unwrap();
    // one row per group, in first-seen order
    assert_eq!(
        strs(out.column(0)),
        [Some("a".into()), Some("b".into()), Some("c".into())]
    );
    assert_eq!(i64s(out.column(1)), [Some(3), Some(2), Some(1)]);
    assert_eq!(i64s(out.column(2)), [Some(3), Some(15), None]);
    assert_eq!(i64s(out.column(3)), [Some(2), Some(10), None]);
    // flushed: nothing until new rows arrive, then only those
    assert!(handle.flush().unwrap().is_none());
    let out = fold(&handle, &[kv(&[(Some("b"), Some(7))])]).unwrap();
    assert_eq!(strs(out.column(0)), [Some("b".into())]);
    assert_eq!(i64s(out.column(1)), [Some(1)]);
    assert_eq!(i64s(out.column(2)), [Some(7)]);
}

#[test]
fn null_keys_form_one_group() {
    let _guard = no_leaks();
    let input = kv(&[
        (None, Some(1)),
        (Some("x"), Some(2)),
        (None, Some(3)),
        (Some(""), Some(4)),
    ]);
    let schema = input.schema();
    let projections = [("k", col("k")), ("v", col("v"))];
    let handle = agg_handle(&schema, &projections, None, &[0], &[m("sum", 1)]);
    let out = fold(&handle, &[input]).unwrap();
    assert_eq!(
        strs(out.column(0)),
        [None, Some("x".into()), Some("".into())]
    );
    assert_eq!(i64s(out.column(1)), [Some(4), Some(2), Some(4)]);
}

#[test]
fn the_calc_part_filters_then_computes_keys_and_arguments() {
    let _guard = no_leaks();
    let input = batch(vec![("a", ints((1..=9).map(Some).chain([None]).collect()))]);
    let schema = input.schema();
    // GROUP BY a % 3, SUM(a * 10) over WHERE a > 2
    let projections = [
        ("g", call("gatun_flink_mod", vec![col("a"), lit(3)])),
        ("x", bin(col("a"), Operator::Multiply, lit(10))),
    ];
    let filter = bin(col("a"), Operator::Gt, lit(2));
    let handle = agg_handle(
        &schema,
        &projections,
        Some(filter),
        &[0],
        &[m("sum", 1), count_star()],
    );
    let out = fold(&handle, &[input]).unwrap();
    // rows 3..9: keys 0,1,2,0,1,2,0
    assert_eq!(
        out.column(0).as_primitive::<Int32Type>().values(),
        &[0, 1, 2]
    );
    assert_eq!(
        out.column(1).as_primitive::<Int32Type>().values(),
        &[180, 110, 130]
    );
    assert_eq!(i64s(out.column(2)), [Some(3), Some(2), Some(2)]);
}

#[test]
fn a_calc_filter_dropping_every_row_leaves_nothing_to_flush() {
    let _guard = no_leaks();
    let input = batch(vec![("a", ints(vec![Some(1), Some(2)]))]);
    let schema = input.schema();
    // the argument would raise on any row: it must not be evaluated
    let projections = [
        ("a", col("a")),
        ("q", call("gatun_flink_divide", vec![col("a"), lit(0)])),
    ];
    let filter = bin(col("a"), Operator::Gt, lit(5));
    let handle = agg_handle(
        &schema,
        &projections,
        Some(filter),
        &[],
        &[count_star(), m("sum", 1)],
    );
    assert!(fold(&handle, &[input]).is_none());
}

#[test]
fn measure_filters_see_only_true_rows() {
    let _guard = no_leaks();
    let input = batch(vec![
        ("k", ints(vec![Some(1), Some(1), Some(1), Some(2)])),
        ("v", longs(vec![Some(5), Some(6), None, Some(7)])),
        (
            "p",
            Arc::new(BooleanArray::from(vec![
                Some(true),
                Some(false),
                None,
                Some(false),
            ])) as ArrayRef,
        ),
    ]);
    let schema = input.schema();
    let projections = [("k", col("k")), ("v", col("v")), ("p", col("p"))];
    // COUNT(*) FILTER (WHERE p), SUM(v) FILTER (WHERE p), COUNT(v), MAX(v) FILTER (WHERE v > 5)
    let projections = [
        projections[0].clone(),
        projections[1].clone(),
        projections[2].clone(),
        ("big", bin(col("v"), Operator::Gt, lit(5i64))),
    ];
    let measures = [
        count_star().filtered(2),
        m("sum", 1).filtered(2),
        m("count", 1),
        m("max", 1).filtered(3),
    ];
    let handle = agg_handle(&schema, &projections, None, &[0], &measures);
    let out = fold(&handle, &[input]).unwrap();
    assert_eq!(out.column(0).as_primitive::<Int32Type>().values(), &[1, 2]);
    assert_eq!(i64s(out.column(1)), [Some(1), Some(0)]);
    // group 2 saw no passing row: SUM is NULL, and the group still exists
    assert_eq!(i64s(out.column(2)), [Some(5), None]);
    assert_eq!(i64s(out.column(3)), [Some(2), Some(1)]);
    assert_eq!(i64s(out.column(4)), [Some(6), Some(7)]);
}

#[test]
fn a_global_aggregate_has_one_group_once_a_row_arrived() {
    let _guard = no_leaks();
    let input = kv(&[
        (Some("a"), Some(i64::MAX)),
        (Some("b"), Some(1)),
        (Some("c"), Some(i64::MAX)),
    ]);
    let schema = input.schema();
    let projections = [("v", col("v"))];
    let handle = agg_handle(
        &schema,
        &projections,
        None,
        &[],
        &[m("sum", 0), m("avg", 0), m("min", 0)],
    );
    assert!(handle.flush().unwrap().is_none());
    let out = fold(&handle, &[input]).unwrap();
    assert_eq!(out.num_rows(), 1);
    // SUM and AVG's sum wrap as Java's long does
    let wrapped = i64::MAX.wrapping_add(1).wrapping_add(i64::MAX);
    assert_eq!(i64s(out.column(0)), [Some(wrapped)]);
    assert_eq!(i64s(out.column(1)), [Some(wrapped)]);
    assert_eq!(i64s(out.column(2)), [Some(3)]);
    assert_eq!(i64s(out.column(3)), [Some(1)]);
}

#[test]
fn every_function_over_several_types() {
    let _guard = no_leaks();
    let input = batch(vec![
        (
            "k",
            Arc::new(Int8Array::from(vec![Some(1), Some(1), None, Some(1)])) as ArrayRef,
        ),
        ("i", ints(vec![Some(3), None, Some(-4), Some(9)])),
        (
            "d",
            Arc::new(Float64Array::from(vec![
                Some(1.5),
                Some(-0.5),
                None,
                Some(2.0),
            ])) as ArrayRef,
        ),
        (
            "m",
            Arc::new(
                Decimal128Array::from(vec![Some(150), Some(-25), Some(1), None])
                    .with_precision_and_scale(10, 2)
                    .unwrap(),
            ) as ArrayRef,
        ),
        (
            "s",
            strings(vec![Some("pear"), Some("apple"), None, Some("zoo")]),
        ),
    ]);
    let schema = input.schema();
    let projections = [
        ("k", col("k")),
        ("i", col("i")),
        ("d", col("d")),
        ("m", col("m")),
        ("s", col("s")),
    ];
    let mut measures = vec![count_star()];
    for arg in 1..=3 {
        for f in ["count", "sum", "avg", "min", "max"] {
            measures.push(m(f, arg));
        }
    }
    measures.extend([m("count", 4), m("min", 4), m("max", 4)]);
    let handle = agg_handle(&schema, &projections, None, &[0], &measures);
    let out = fold(&handle, &[input.slice(0, 2), input.slice(2, 2)]).unwrap();
    assert_eq!(out.num_rows(), 2);
    let c = |i: usize| out.column(i);
    assert_eq!(
        c(0).as_primitive::<arrow::datatypes::Int8Type>()
            .iter()
            .collect::<Vec<_>>(),
        [Some(1), None]
    );
    assert_eq!(i64s(c(1)), [Some(3), Some(1)]);
    // INT i: count, sum (INT), avg (sum BIGINT, count), min, max
    assert_eq!(i64s(c(2)), [Some(2), Some(1)]);
    assert_eq!(
        c(3).as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(12), Some(-4)]
    );
    assert_eq!(i64s(c(4)), [Some(12), Some(-4)]);
    assert_eq!(i64s(c(5)), [Some(2), Some(1)]);
    assert_eq!(
        c(6).as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(3), Some(-4)]
    );
    assert_eq!(
        c(7).as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(9), Some(-4)]
    );
    // DOUBLE d: count, sum, avg (sum, count), min, max; the NULL group saw no value
    assert_eq!(i64s(c(8)), [Some(3), Some(0)]);
    let f64s = |a: &ArrayRef| a.as_primitive::<Float64Type>().iter().collect::<Vec<_>>();
    assert_eq!(f64s(c(9)), [Some(3.0), None]);
    assert_eq!(f64s(c(10)), [Some(3.0), Some(0.0)]);
    assert_eq!(i64s(c(11)), [Some(3), Some(0)]);
    assert_eq!(f64s(c(12)), [Some(-0.5), None]);
    assert_eq!(f64s(c(13)), [Some(2.0), None]);
    // DECIMAL(10, 2) m: sum DECIMAL(38, 2), avg (DECIMAL(38, 2), count), min/max DECIMAL(10, 2)
    let decs = |a: &ArrayRef| {
        a.as_primitive::<Decimal128Type>()
            .iter()
            .collect::<Vec<_>>()
    };
    assert_eq!(i64s(c(14)), [Some(2), Some(1)]);
    assert_eq!(c(15).data_type(), &DataType::Decimal128(38, 2));
    assert_eq!(decs(c(15)), [Some(125), Some(1)]);
    assert_eq!(decs(c(16)), [Some(125), Some(1)]);
    assert_eq!(i64s(c(17)), [Some(2), Some(1)]);
    assert_eq!(c(18).data_type(), &DataType::Decimal128(10, 2));
    assert_eq!(decs(c(18)), [Some(-25), Some(1)]);
    assert_eq!(decs(c(19)), [Some(150), Some(1)]);
    // STRING s: count, min, max
    assert_eq!(i64s(c(20)), [Some(3), Some(0)]);
    assert_eq!(strs(c(21)), [Some("apple".into()), None]);
    assert_eq!(strs(c(22)), [Some("zoo".into()), None]);
}

#[test]
fn flink_rows_output_encodes_the_groups() {
    let _guard = no_leaks();
    let input = kv(&[(Some("a"), Some(1)), (None, Some(2)), (Some("a"), Some(3))]);
    let schema = input.schema();
    let projections = [("k", col("k")), ("v", col("v"))];
    let measures = [count_star(), m("avg", 1)];
    let bytes = agg_plan(&schema, &projections, None, &[0], &measures);
    let expected = agg_expected(&schema, &projections, &[0], &measures);
    let handle = create_kind(
        GATUN_OPERATOR_LOCAL_AGGREGATE,
        &bytes,
        &schema,
        &expected,
        GATUN_OUTPUT_FLINK_ROWS,
    )
    .unwrap();
    let out = fold(&handle, &[input]).unwrap();
    assert_eq!(out.num_columns(), 1);
    let rows = out.column(0).as_binary::<i32>();
    assert_eq!(rows.len(), 2);
    // header + null bits (8 bytes), 4 slots; "a" inline; the NULL key's bit 8 set
    let first = rows.value(0);
    assert_eq!(first.len(), 8 + 4 * 8);
    assert_eq!(&first[8..9], b"a");
    assert_eq!(first[15], 0x81);
    assert_eq!(i64::from_le_bytes(first[16..24].try_into().unwrap()), 2);
    assert_eq!(i64::from_le_bytes(first[24..32].try_into().unwrap()), 4);
    assert_eq!(rows.value(1)[1] & 1, 1);
}

#[test]
fn held_bytes_grow_with_the_groups_and_a_calc_holds_none() {
    let _guard = no_leaks();
    let input = batch(vec![("a", ints((0..5000).map(Some).collect()))]);
    let schema = input.schema();
    let handle = agg_handle(&schema, &[("a", col("a"))], None, &[0], &[count_star()]);
    let empty = held_bytes(&handle).unwrap();
    handle.process(&input, None).unwrap();
    let full = held_bytes(&handle).unwrap();
    assert!(full > empty + 5000 * 4, "{empty} -> {full}");
    assert_eq!(handle.flush().unwrap().unwrap().num_rows(), 5000);
    let calc = create(&plan(&schema, &[("a", col("a"))], None), &schema, &schema).unwrap();
    calc.evaluate(&input).unwrap();
    assert_eq!(held_bytes(&calc).unwrap(), 0);
    let mut bytes = 0;
    // SAFETY: a NULL handle is rejected before anything is read.
    let status = unsafe {
        gatun_native::gatun_operator_held_bytes(
            std::ptr::null_mut(),
            &mut bytes,
            std::ptr::null_mut(),
            0,
        )
    };
    assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
}

/// Plan pieces shared by the error tests.
fn two_columns() -> (Schema, [(&'static str, Expr); 2]) {
    let schema = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("v", DataType::Int64, true),
    ]);
    (schema, [("k", col("k")), ("v", col("v"))])
}

fn create_fails(bytes: &[u8], schema: &Schema, expected: &Schema, needles: &[&str]) {
    assert_fails(
        create_agg(bytes, schema, expected).map(|_| ()),
        GATUN_ERR_PLAN,
        needles,
    );
}

#[test]
fn create_refuses_what_is_not_a_local_aggregate() {
    let _guard = no_leaks();
    let (schema, p) = two_columns();
    let expected = agg_expected(&schema, &p, &[0], &[m("sum", 1)]);
    let with = |measure: M| agg_plan(&schema, &p, None, &[0], &[measure]);
    let distinct = M {
        invocation: AggregationInvocation::Distinct,
        ..m("sum", 1)
    };
    create_fails(
        &with(distinct),
        &schema,
        &expected,
        &["measure 0 (sum:any)", "DISTINCT"],
    );
    let global = M {
        phase: AggregationPhase::InitialToResult,
        ..m("sum", 1)
    };
    create_fails(
        &with(global),
        &schema,
        &expected,
        &["INITIAL_TO_RESULT", "INITIAL_TO_INTERMEDIATE"],
    );
    create_fails(
        &with(m("stddev", 1)),
        &schema,
        &expected,
        &["`stddev` is not admitted"],
    );
    // SUM of a string: the kernel names the call and the type
    let expected_k = agg_expected(&schema, &p, &[1], &[m("count", 0)]);
    create_fails(
        &agg_plan(&schema, &p, None, &[1], &[m("sum", 0)]),
        &schema,
        &expected_k,
        &["call 0 (SUM) does not support argument type Utf8"],
    );
    // a measure FILTER that is not BOOLEAN
    create_fails(
        &agg_plan(&schema, &p, None, &[0], &[m("sum", 1).filtered(1)]),
        &schema,
        &expected,
        &["FILTER", "expected BOOLEAN"],
    );
    // a key that is not a field reference, and one past the input
    let mut proto = agg_plan_proto(&schema, &p, None, &[0], &[m("sum", 1)], &[]);
    aggregate_of(&mut proto).grouping_expressions[0] = field_ref(7);
    create_fails(
        &proto.encode_to_vec(),
        &schema,
        &expected,
        &["group key 0 refers to field 7", "has 2"],
    );
    let mut proto = agg_plan_proto(&schema, &p, None, &[0], &[m("sum", 1)], &[]);
    let literal = ee_expression(&schema, lit(1));
    aggregate_of(&mut proto).grouping_expressions[0] = literal;
    create_fails(
        &proto.encode_to_vec(),
        &schema,
        &expected,
        &["group key 0 is not a field reference"],
    );
    // neither keys nor measures
    create_fails(
        &agg_plan(&schema, &p, None, &[], &[]),
        &schema,
        &Schema::empty(),
        &["neither group keys nor measures"],
    );
    // not a Plan, and a Calc's ExtendedExpression
    create_fails(
        b"\xff\xff\xff",
        &schema,
        &expected,
        &["not a Substrait Plan"],
    );
    create_fails(
        &plan(&schema, &p, None),
        &schema,
        &expected,
        &["malformed local aggregate plan"],
    );
}

#[test]
fn create_checks_the_expected_output_schema() {
    let _guard = no_leaks();
    let (schema, p) = two_columns();
    let measures = [m("avg", 1)];
    let bytes = agg_plan(&schema, &p, None, &[0], &measures);
    // AVG is two fields: a schema of one accumulator has the wrong width
    let narrow = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("avg$0", DataType::Float64, true),
    ]);
    create_fails(
        &bytes,
        &schema,
        &narrow,
        &["emits 3 columns (k, sum$0, count$1)", "has 2 (k, avg$0)"],
    );
    let wrong = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("sum$0", DataType::Float64, true),
        Field::new("count$1", DataType::Int64, true),
    ]);
    create_fails(
        &bytes,
        &schema,
        &wrong,
        &[
            "output column 1 `sum$0`",
            "emits Int64",
            "expected type is Float64",
        ],
    );
    let key = Schema::new(vec![
        Field::new("k", DataType::Int32, true),
        Field::new("sum$0", DataType::Int64, true),
        Field::new("count$1", DataType::Int64, true),
    ]);
    create_fails(
        &bytes,
        &schema,
        &key,
        &[
            "group key 0 `k`",
            "derived type Utf8",
            "expected type Int32",
        ],
    );
    let expected = agg_expected(&schema, &p, &[0], &measures);
    let named =
        agg_plan_proto(&schema, &p, None, &[0], &measures, &["k", "s", "c"]).encode_to_vec();
    create_fails(
        &named,
        &schema,
        &expected,
        &["root names [k, s, c]", "(k, sum$0, count$1)"],
    );
    let named = agg_plan_proto(
        &schema,
        &p,
        None,
        &[0],
        &measures,
        &["k", "sum$0", "count$1"],
    )
    .encode_to_vec();
    create_agg(&named, &schema, &expected).unwrap();
    // a changelog input (row-kind column) stays on Flink
    let with_kind = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("v", DataType::Int64, true),
        Field::new(ROW_KIND, DataType::Int8, false),
    ]);
    create_fails(
        &bytes,
        &with_kind,
        &expected,
        &["row-kind column", "insert-only"],
    );
}

#[test]
fn bad_input_fails_and_changes_nothing() {
    let _guard = no_leaks();
    let input = batch(vec![("a", ints(vec![Some(1), Some(0), Some(2)]))]);
    let schema = input.schema();
    let projections = [
        ("a", col("a")),
        ("q", call("gatun_flink_divide", vec![lit(10), col("a")])),
    ];
    let handle = agg_handle(&schema, &projections, None, &[], &[m("sum", 1)]);
    handle.process(&input.slice(0, 1), None).unwrap();
    // a runtime error of the Calc part: Flink's message, and the groups stay as they were
    assert_fails(
        handle.process(&input, None),
        GATUN_ERR_EXECUTION,
        &["/ by zero"],
    );
    // batches of another shape (C Data arrays carry no types: the handle's schema reads them)
    let strings_batch = batch(vec![("a", strings(vec![Some("x")]))]);
    assert_fails(handle.process(&strings_batch, None), GATUN_ERR_ARROW, &[]);
    let wider = batch(vec![("a", ints(vec![Some(1)])), ("b", ints(vec![Some(2)]))]);
    assert_fails(handle.process(&wider, None), GATUN_ERR_ARROW, &[]);
    // a progress for a plan that assigns no watermarks
    let mut progress = gatun_native::GatunWatermarkProgress {
        current: 0,
        last: 0,
        interval: 0,
        after: 0,
        mini_batch_next: 0,
    };
    assert_fails(
        handle.process(&input.slice(2, 1), Some(&mut progress)),
        GATUN_ERR_INVALID_ARGUMENT,
        &["progress"],
    );
    let out = handle.flush().unwrap().unwrap();
    assert_eq!(out.column(0).as_primitive::<Int32Type>().values(), &[10]);
}

#[test]
fn not_null_keys_reject_nulls_at_import() {
    let _guard = no_leaks();
    let schema = Schema::new(vec![Field::new("k", DataType::Int32, false)]);
    let projections = [("k", col("k"))];
    let bytes = agg_plan(&schema, &projections, None, &[0], &[count_star()]);
    let expected = Schema::new(vec![
        Field::new("k", DataType::Int32, false),
        Field::new("count1$0", DataType::Int64, true),
    ]);
    let handle = create_agg(&bytes, &schema, &expected).unwrap();
    let good = RecordBatch::try_new(Arc::new(schema.clone()), vec![ints(vec![Some(1)])]).unwrap();
    let out = fold(&handle, &[good]).unwrap();
    assert!(!out.schema().field(0).is_nullable());
    let nullable = batch(vec![("k", ints(vec![None]))]);
    assert!(handle.process(&nullable, None).is_err());
}

#[test]
fn mutated_plans_fail_with_a_status_never_a_panic() {
    let _guard = no_leaks();
    let (schema, p) = two_columns();
    let measures = [count_star(), m("sum", 1).filtered(1), m("min", 0)];
    let bytes = agg_plan(
        &schema,
        &p,
        Some(bin(col("v"), Operator::Gt, lit(0i64))),
        &[0],
        &measures,
    );
    let expected = agg_expected(&schema, &p, &[0], &measures);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..600 {
        let mut mutated = bytes.clone();
        for _ in 0..=(next() % 3) {
            let at = (next() % mutated.len() as u64) as usize;
            mutated[at] ^= 1 << (next() % 8);
        }
        if next() % 5 == 0 {
            mutated.truncate((next() % mutated.len() as u64) as usize);
        }
        match create_agg(&mutated, &schema, &expected) {
            Ok(_) => {}
            Err((status, message)) => {
                assert_ne!(status, GATUN_ERR_PANIC, "{message}");
                assert!(!message.is_empty());
            }
        }
    }
}

fn aggregate_of(
    plan: &mut datafusion_substrait::substrait::proto::Plan,
) -> &mut datafusion_substrait::substrait::proto::AggregateRel {
    let Some(PlanRelType::Root(root)) = &mut plan.relations[0].rel_type else {
        unreachable!()
    };
    let Some(RelType::Aggregate(a)) = &mut root.input.as_mut().unwrap().rel_type else {
        unreachable!()
    };
    a
}

/// `e` as a Substrait expression (through a Calc plan).
fn ee_expression(schema: &Schema, e: Expr) -> datafusion_substrait::substrait::proto::Expression {
    use datafusion_substrait::substrait::proto::expression_reference::ExprType;
    let ee = datafusion_substrait::substrait::proto::ExtendedExpression::decode(
        plan(schema, &[("e", e)], None).as_slice(),
    )
    .unwrap();
    match ee.referred_expr[0].expr_type.clone() {
        Some(ExprType::Expression(e)) => e,
        _ => unreachable!(),
    }
}

#[test]
fn sum0_is_zero_over_no_values_and_never_minus_zero() {
    let _guard = no_leaks();
    let input = batch(vec![
        ("k", ints(vec![Some(1), Some(1), Some(2)])),
        ("v", longs(vec![None, None, Some(4)])),
        (
            "d",
            Arc::new(Float64Array::from(vec![Some(-0.0), Some(-0.0), None])) as ArrayRef,
        ),
        (
            "m",
            Arc::new(
                Decimal128Array::from(vec![Some(5), None, None])
                    .with_precision_and_scale(18, 2)
                    .unwrap(),
            ) as ArrayRef,
        ),
    ]);
    let schema = input.schema();
    let projections = [
        ("k", col("k")),
        ("v", col("v")),
        ("d", col("d")),
        ("m", col("m")),
    ];
    let sum0 = |arg: usize| M {
        function: "sum0",
        ..m("sum", arg)
    };
    let measures = [sum0(1), m("sum", 1), sum0(2), m("sum", 2), sum0(3)];
    let bytes = agg_plan(&schema, &projections, None, &[0], &measures);
    let as_sums = [
        m("sum", 1),
        m("sum", 1),
        m("sum", 2),
        m("sum", 2),
        m("sum", 3),
    ];
    let expected = agg_expected(&schema, &projections, &[0], &as_sums);
    let handle = create_agg(&bytes, &schema, &expected).unwrap();
    let out = fold(&handle, &[input]).unwrap();
    assert_eq!(
        i64s(out.column(1)),
        [Some(0), Some(4)],
        "sum0 of only NULLs is 0"
    );
    assert_eq!(
        i64s(out.column(2)),
        [None, Some(4)],
        "sum of only NULLs is NULL"
    );
    let bits = |a: &ArrayRef| {
        a.as_primitive::<Float64Type>()
            .iter()
            .map(|v| v.map(f64::to_bits))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        bits(out.column(3)),
        [Some(0), Some(0)],
        "sum0 starts at +0.0"
    );
    assert_eq!(bits(out.column(4)), [Some((-0.0f64).to_bits()), None]);
    assert_eq!(
        out.column(5)
            .as_primitive::<Decimal128Type>()
            .iter()
            .collect::<Vec<_>>(),
        [Some(5), Some(0)]
    );
    // a DECIMAL(38) sum0 could overflow, where Flink's $SUM0 stays NULL and SUM restarts
    let wide = batch(vec![(
        "w",
        Arc::new(
            Decimal128Array::from(vec![Some(1)])
                .with_precision_and_scale(38, 10)
                .unwrap(),
        ) as ArrayRef,
    )]);
    let wide_schema = wide.schema();
    let p = [("w", col("w"))];
    create_fails(
        &agg_plan(&wide_schema, &p, None, &[], &[sum0(0)]),
        &wide_schema,
        &agg_expected(&wide_schema, &p, &[], &[m("sum", 0)]),
        &["measure 0 (sum0) of Decimal128(38, 10)", "precision <= 18"],
    );
}

#[test]
fn nested_input_columns_are_counted_by_their_top_level_fields() {
    let _guard = no_leaks();
    let x = Arc::new(Int32Array::from(vec![Some(1), None, Some(3)])) as ArrayRef;
    let r = arrow::array::StructArray::from(vec![(
        Arc::new(Field::new("x", DataType::Int32, true)),
        x,
    )]);
    let input = batch(vec![
        ("r", Arc::new(r) as ArrayRef),
        ("k", ints(vec![Some(1), Some(1), Some(2)])),
    ]);
    let schema = input.schema();
    let projections = [("k", col("k")), ("r", col("r"))];
    let handle = agg_handle(&schema, &projections, None, &[0], &[m("count", 1)]);
    let out = fold(&handle, &[input]).unwrap();
    assert_eq!(i64s(out.column(1)), [Some(2), Some(1)]);
}

#[test]
fn a_bundle_emits_exactly_after_its_rows_passed_the_filter() {
    let _guard = no_leaks();
    let schema = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("v", DataType::Int64, true),
    ]);
    let projections = [("k", col("k")), ("v", col("v"))];
    let filter = bin(col("v"), Operator::Gt, lit(0i64));
    let measures = [count_star(), m("sum", 1)];
    let proto = agg_plan_proto(&schema, &projections, Some(filter), &[0], &measures, &[]);
    let bytes = with_bundle(proto, 3).encode_to_vec();
    let handle = create_agg(
        &bytes,
        &schema,
        &agg_expected(&schema, &projections, &[0], &measures),
    )
    .unwrap();
    let rows = |out: &RecordBatch| {
        (0..out.num_rows())
            .map(|r| {
                format!(
                    "{}:{}:{}",
                    out.column(0).as_string::<i32>().value(r),
                    i64s(out.column(1))[r].unwrap(),
                    i64s(out.column(2))[r].unwrap()
                )
            })
            .collect::<Vec<_>>()
    };
    // two rows pass, one is filtered out: the bundle of 3 is not full
    let first = kv(&[
        (Some("a"), Some(1)),
        (Some("b"), Some(-1)),
        (Some("a"), Some(2)),
    ]);
    assert!(handle.process(&first, None).unwrap().is_none());
    // the third passing row ends the bundle; seven more rows end two more bundles, one is left
    let second = kv(&[
        (Some("b"), Some(10)),
        (Some("a"), Some(3)),
        (Some("c"), Some(4)),
        (Some("c"), None),
        (Some("a"), Some(5)),
        (Some("b"), Some(6)),
        (Some("b"), Some(7)),
        (Some("b"), Some(8)),
        (Some("c"), Some(9)),
    ]);
    let out = handle.process(&second, None).unwrap().unwrap();
    // passing: b10 | a3 c4 a5 | b6 b7 b8 | c9
    assert_eq!(rows(&out), ["a:2:3", "b:1:10", "a:2:8", "c:1:4", "b:3:21"]);
    let rest = handle.flush().unwrap().unwrap();
    assert_eq!(rows(&rest), ["c:1:9"]);
    assert!(handle.flush().unwrap().is_none());
    // a bundle of 0 rows is not a bundle
    let zero = agg_plan_proto(&schema, &projections, None, &[0], &measures, &[]);
    create_fails(
        &with_bundle(zero, 0).encode_to_vec(),
        &schema,
        &agg_expected(&schema, &projections, &[0], &measures),
        &["the bundle size is 0"],
    );
}

#[test]
fn a_group_limit_emits_once_a_batch_leaves_that_many_groups() {
    let _guard = no_leaks();
    let schema = Schema::new(vec![
        Field::new("k", DataType::Utf8, true),
        Field::new("v", DataType::Int64, true),
    ]);
    let projections = [("k", col("k")), ("v", col("v"))];
    let measures = [count_star(), m("sum", 1)];
    let expected = agg_expected(&schema, &projections, &[0], &measures);
    let proto = agg_plan_proto(&schema, &projections, None, &[0], &measures, &[]);
    let bytes = with_group_limit(proto, 3).encode_to_vec();
    let handle = create_agg(&bytes, &schema, &expected).unwrap();
    let keys = |out: &RecordBatch| {
        (0..out.num_rows())
            .map(|r| out.column(0).as_string::<i32>().value(r).to_string())
            .collect::<Vec<_>>()
    };
    // two groups are held: below the limit, nothing leaves
    let first = kv(&[
        (Some("a"), Some(1)),
        (Some("b"), Some(2)),
        (Some("a"), Some(3)),
    ]);
    assert!(handle.process(&first, None).unwrap().is_none());
    // the batch leaves four groups: all of them leave, the holder starts over
    let second = kv(&[
        (Some("c"), Some(4)),
        (Some("d"), Some(5)),
        (Some("a"), Some(6)),
    ]);
    let out = handle.process(&second, None).unwrap().unwrap();
    assert_eq!(keys(&out), ["a", "b", "c", "d"]);
    assert_eq!(i64s(out.column(2)), [Some(10), Some(2), Some(4), Some(5)]);
    let third = kv(&[(Some("a"), Some(7))]);
    assert!(handle.process(&third, None).unwrap().is_none());
    let rest = handle.flush().unwrap().unwrap();
    assert_eq!(keys(&rest), ["a"]);
    assert!(handle.flush().unwrap().is_none());
    // a limit of 0 is refused, and a plan is streaming (bundle) or batch (group limit), not both
    let zero = agg_plan_proto(&schema, &projections, None, &[0], &measures, &[]);
    create_fails(
        &with_group_limit(zero, 0).encode_to_vec(),
        &schema,
        &expected,
        &["the group limit is 0"],
    );
    let both = agg_plan_proto(&schema, &projections, None, &[0], &measures, &[]);
    create_fails(
        &with_group_limit(with_bundle(both, 5), 5).encode_to_vec(),
        &schema,
        &expected,
        &["both a bundle size", "group limit"],
    );
}
