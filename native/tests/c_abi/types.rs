//! How each Arrow type of DESIGN.md §6 is encoded in Substrait for datafusion-substrait
//! 53.1 (the table Java's plan writer follows), and that a Calc passes a column of
//! every such type through unchanged.

use std::sync::Arc;

use arrow::array::{new_null_array, Array, ArrayRef};
use arrow::datatypes::{DataType, Field, Fields, IntervalUnit, Schema, TimeUnit};
use datafusion_substrait::substrait::proto::r#type::Kind;
use datafusion_substrait::substrait::proto::{ExtendedExpression, Type};
use prost::Message;

use crate::calc_util::*;

/// A short rendering of a Substrait type: kind, type variation, parameters.
fn describe(t: &Type, ee: &ExtendedExpression) -> String {
    let Some(kind) = &t.kind else {
        return "none".into();
    };
    match kind {
        Kind::Bool(v) => format!("bool v{}", v.type_variation_reference),
        Kind::I8(v) => format!("i8 v{}", v.type_variation_reference),
        Kind::I16(v) => format!("i16 v{}", v.type_variation_reference),
        Kind::I32(v) => format!("i32 v{}", v.type_variation_reference),
        Kind::I64(v) => format!("i64 v{}", v.type_variation_reference),
        Kind::Fp32(v) => format!("fp32 v{}", v.type_variation_reference),
        Kind::Fp64(v) => format!("fp64 v{}", v.type_variation_reference),
        Kind::String(v) => format!("string v{}", v.type_variation_reference),
        Kind::Binary(v) => format!("binary v{}", v.type_variation_reference),
        Kind::FixedBinary(v) => {
            format!("fixed_binary({}) v{}", v.length, v.type_variation_reference)
        }
        Kind::Decimal(v) => format!(
            "decimal({},{}) v{}",
            v.precision, v.scale, v.type_variation_reference
        ),
        Kind::Date(v) => format!("date v{}", v.type_variation_reference),
        Kind::PrecisionTime(v) => format!(
            "precision_time({}) v{}",
            v.precision, v.type_variation_reference
        ),
        Kind::PrecisionTimestamp(v) => format!(
            "precision_timestamp({}) v{}",
            v.precision, v.type_variation_reference
        ),
        Kind::PrecisionTimestampTz(v) => format!(
            "precision_timestamp_tz({}) v{}",
            v.precision, v.type_variation_reference
        ),
        Kind::IntervalYear(v) => format!("interval_year v{}", v.type_variation_reference),
        Kind::IntervalDay(v) => format!(
            "interval_day({:?}) v{}",
            v.precision, v.type_variation_reference
        ),
        Kind::List(v) => format!(
            "list<{}> v{}",
            describe(v.r#type.as_deref().unwrap(), ee),
            v.type_variation_reference
        ),
        Kind::Map(v) => format!(
            "map<{}, {}> v{}",
            describe(v.key.as_deref().unwrap(), ee),
            describe(v.value.as_deref().unwrap(), ee),
            v.type_variation_reference
        ),
        Kind::Struct(v) => format!(
            "struct<{}> v{}",
            v.types
                .iter()
                .map(|t| describe(t, ee))
                .collect::<Vec<_>>()
                .join(", "),
            v.type_variation_reference
        ),
        Kind::UserDefined(u) => {
            use datafusion_substrait::substrait::proto::extensions::simple_extension_declaration::MappingType;
            let name = ee.extensions.iter().find_map(|e| match &e.mapping_type {
                Some(MappingType::ExtensionType(t)) if t.type_anchor == u.type_reference => {
                    Some(t.name.clone())
                }
                _ => None,
            });
            format!(
                "user_defined({}) v{}",
                name.unwrap_or_default(),
                u.type_variation_reference
            )
        }
        other => format!("{other:?}"),
    }
}

fn struct_of(fields: Vec<Field>) -> DataType {
    DataType::Struct(Fields::from(fields))
}

/// (Flink type, Arrow type, Substrait encoding).
fn table() -> Vec<(&'static str, DataType, &'static str)> {
    let list = DataType::List(Arc::new(Field::new_list_field(DataType::Int32, true)));
    let map = DataType::Map(
        Arc::new(Field::new(
            "entries",
            struct_of(vec![
                Field::new("key", DataType::Utf8, false),
                Field::new("value", DataType::Int64, true),
            ]),
            false,
        )),
        false,
    );
    let kv_list = DataType::List(Arc::new(Field::new_list_field(
        struct_of(vec![
            Field::new("key", DataType::Utf8, true),
            Field::new("value", DataType::Int64, true),
        ]),
        true,
    )));
    vec![
        ("TINYINT", DataType::Int8, "i8 v0"),
        ("SMALLINT", DataType::Int16, "i16 v0"),
        ("INT", DataType::Int32, "i32 v0"),
        ("BIGINT", DataType::Int64, "i64 v0"),
        ("BOOLEAN", DataType::Boolean, "bool v0"),
        ("FLOAT", DataType::Float32, "fp32 v0"),
        ("DOUBLE", DataType::Float64, "fp64 v0"),
        (
            "DECIMAL(10,2)",
            DataType::Decimal128(10, 2),
            "decimal(10,2) v0",
        ),
        (
            "DECIMAL(38,18)",
            DataType::Decimal128(38, 18),
            "decimal(38,18) v0",
        ),
        ("CHAR/VARCHAR/STRING", DataType::Utf8, "string v0"),
        ("(LargeUtf8)", DataType::LargeUtf8, "string v1"),
        ("(Utf8View)", DataType::Utf8View, "string v2"),
        ("BINARY(n)/VARBINARY", DataType::Binary, "binary v0"),
        ("(LargeBinary)", DataType::LargeBinary, "binary v1"),
        (
            "(FixedSizeBinary(16))",
            DataType::FixedSizeBinary(16),
            "fixed_binary(16) v0",
        ),
        ("DATE", DataType::Date32, "date v0"),
        (
            "TIME(p)",
            DataType::Time32(TimeUnit::Millisecond),
            "precision_time(3) v0",
        ),
        (
            "TIMESTAMP(3)",
            DataType::Timestamp(TimeUnit::Millisecond, None),
            "precision_timestamp(3) v0",
        ),
        (
            "TIMESTAMP(6)",
            DataType::Timestamp(TimeUnit::Microsecond, None),
            "precision_timestamp(6) v0",
        ),
        (
            "TIMESTAMP(9)",
            DataType::Timestamp(TimeUnit::Nanosecond, None),
            "precision_timestamp(9) v0",
        ),
        (
            "TIMESTAMP_LTZ(3)",
            DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
            "precision_timestamp_tz(3) v0",
        ),
        (
            "TIMESTAMP_LTZ(6)",
            DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
            "precision_timestamp_tz(6) v0",
        ),
        (
            "INTERVAL YEAR TO MONTH",
            DataType::Interval(IntervalUnit::YearMonth),
            "interval_year v0",
        ),
        (
            "INTERVAL DAY TO SECOND",
            DataType::Duration(TimeUnit::Millisecond),
            "interval_day(Some(3)) v1",
        ),
        ("ARRAY<INT>", list, "list<i32 v0> v0"),
        (
            "MAP<STRING NOT NULL, BIGINT>",
            map,
            "map<string v0, i64 v0> v0",
        ),
        (
            "MAP<STRING, BIGINT> (nullable keys)",
            kv_list,
            "list<struct<string v0, i64 v0> v0> v0",
        ),
        (
            "ROW<a INT, b STRING>",
            struct_of(vec![
                Field::new("a", DataType::Int32, true),
                Field::new("b", DataType::Utf8, true),
            ]),
            "struct<i32 v0, string v0> v0",
        ),
        ("NULL", DataType::Null, "user_defined(null) v0"),
    ]
}

#[test]
fn substrait_encoding_of_every_flink_type() {
    let mut report = String::new();
    for (flink, arrow, want) in table() {
        let schema = Schema::new(vec![Field::new("x", arrow.clone(), true)]);
        let bytes = plan(&schema, &[("x", col("x"))], None);
        let ee = ExtendedExpression::decode(bytes.as_slice()).unwrap();
        let base = ee.base_schema.as_ref().unwrap();
        let got = describe(&base.r#struct.as_ref().unwrap().types[0], &ee);
        report.push_str(&format!(
            "| {flink} | {arrow} | {got} | names {:?} |\n",
            base.names
        ));
        assert_eq!(got, want, "{flink} ({arrow})");
    }
    println!("{report}");
}

#[test]
fn a_calc_passes_every_flink_type_through() {
    for (flink, arrow, _) in table() {
        let _guard = no_leaks();
        let schema = Schema::new(vec![Field::new("x", arrow.clone(), true)]);
        let projections = [("x", col("x"))];
        let handle = create(&plan(&schema, &projections, None), &schema, &schema)
            .unwrap_or_else(|e| panic!("{flink} ({arrow}): {e:?}"));
        assert_eq!(handle.output.field(0).data_type(), &arrow, "{flink}");
        let input: ArrayRef = new_null_array(&arrow, 3);
        let out = handle
            .evaluate(&batch(vec![("x", input)]))
            .unwrap_or_else(|e| panic!("{flink} ({arrow}): {e:?}"));
        assert_eq!(out.column(0).len(), 3, "{flink}");
        assert_eq!(out.column(0).data_type(), &arrow, "{flink}");
    }
}
