//! Golden plans built in Java (`GoldenPlansTest` in planner-hooks: Flink SQL → planner →
//! CalcTranslator) and read here: every `tests/golden/*.json` is compiled with
//! `gatun_operator_create`, its input evaluated with `gatun_operator_process`, and the result
//! compared with the output stock Flink computed. The encoding of values is documented
//! in `GoldenValues.java`.

use std::collections::HashMap;
use std::sync::Arc;

use arrow::array::*;
use arrow::buffer::{NullBuffer, OffsetBuffer};
use arrow::datatypes::*;
use arrow::ffi::FFI_ArrowSchema;
use base64::Engine;
use serde_json::Value;

use crate::calc_util::{create, no_leaks};

const ARROW_FLAG_NULLABLE: i64 = 2;
const ARROW_FLAG_MAP_KEYS_SORTED: i64 = 4;

fn golden_dir() -> std::path::PathBuf {
    crate::common::crate_dir().join("tests/golden")
}

/// An Arrow field from its golden description (built through the C Data format, as Java
/// exports it).
fn field(v: &Value) -> Field {
    Field::try_from(&ffi_field(v)).unwrap_or_else(|e| panic!("field {v}: {e}"))
}

fn ffi_field(v: &Value) -> FFI_ArrowSchema {
    let children = v["children"]
        .as_array()
        .map(|c| c.iter().map(ffi_field).collect())
        .unwrap_or_default();
    let mut schema = FFI_ArrowSchema::try_new(v["format"].as_str().unwrap(), children, None)
        .and_then(|s| s.with_name(v["name"].as_str().unwrap()))
        .unwrap();
    if let Some(md) = v["metadata"].as_object() {
        let pairs: HashMap<String, String> = md
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        schema = schema.with_metadata(pairs).unwrap();
    }
    if v["nullable"].as_bool().unwrap() {
        schema.flags |= ARROW_FLAG_NULLABLE;
    }
    if v["keys_sorted"].as_bool() == Some(true) {
        schema.flags |= ARROW_FLAG_MAP_KEYS_SORTED;
    }
    schema
}

fn schema(v: &Value) -> Schema {
    Schema::new(v.as_array().unwrap().iter().map(field).collect::<Vec<_>>())
}

/// The column of `field`'s type holding `values` (golden JSON, one per row).
fn column(values: &[&Value], data_type: &DataType) -> ArrayRef {
    fn int<T: std::str::FromStr>(v: &Value) -> Option<T> {
        (!v.is_null()).then(|| v.to_string().parse().ok().expect("an integer"))
    }
    fn text<T: std::str::FromStr>(v: &Value) -> Option<T> {
        v.as_str()
            .map(|s| s.parse().unwrap_or_else(|_| panic!("cannot parse {s:?}")))
    }
    let nulls = || NullBuffer::from(values.iter().map(|v| !v.is_null()).collect::<Vec<_>>());
    match data_type {
        DataType::Null => Arc::new(NullArray::new(values.len())),
        DataType::Boolean => Arc::new(values.iter().map(|v| v.as_bool()).collect::<BooleanArray>()),
        DataType::Int8 => Arc::new(values.iter().map(|v| int::<i8>(v)).collect::<Int8Array>()),
        DataType::Int16 => Arc::new(values.iter().map(|v| int::<i16>(v)).collect::<Int16Array>()),
        DataType::Int32 => Arc::new(values.iter().map(|v| int::<i32>(v)).collect::<Int32Array>()),
        DataType::Int64 => Arc::new(values.iter().map(|v| int::<i64>(v)).collect::<Int64Array>()),
        DataType::Float32 => Arc::new(values.iter().map(|v| text::<f32>(v)).collect::<Float32Array>()),
        DataType::Float64 => Arc::new(values.iter().map(|v| text::<f64>(v)).collect::<Float64Array>()),
        DataType::Decimal128(_, scale) => Arc::new(
            values
                .iter()
                .map(|v| v.as_str().map(|s| unscaled(s, *scale)))
                .collect::<Decimal128Array>()
                .with_data_type(data_type.clone()),
        ),
        DataType::Utf8 => Arc::new(values.iter().map(|v| v.as_str()).collect::<StringArray>()),
        DataType::Binary => {
            let decoded: Vec<Option<Vec<u8>>> = values
                .iter()
                .map(|v| {
                    v.as_str().map(|s| {
                        base64::engine::general_purpose::STANDARD
                            .decode(s)
                            .unwrap()
                    })
                })
                .collect();
            Arc::new(decoded.iter().map(|b| b.as_deref()).collect::<BinaryArray>())
        }
        DataType::Date32 => {
            Arc::new(values.iter().map(|v| int::<i32>(v)).collect::<Date32Array>())
        }
        DataType::Time32(TimeUnit::Millisecond) => Arc::new(
            values
                .iter()
                .map(|v| int::<i32>(v))
                .collect::<Time32MillisecondArray>(),
        ),
        DataType::Timestamp(_, _) => Arc::new(
            values
                .iter()
                .map(|v| int::<i64>(v))
                .collect::<Int64Array>()
                .reinterpret_timestamp(data_type),
        ),
        DataType::Interval(IntervalUnit::YearMonth) => Arc::new(
            values
                .iter()
                .map(|v| int::<i32>(v))
                .collect::<IntervalYearMonthArray>(),
        ),
        DataType::Duration(TimeUnit::Millisecond) => Arc::new(
            values
                .iter()
                .map(|v| int::<i64>(v))
                .collect::<DurationMillisecondArray>(),
        ),
        DataType::List(element) => {
            let items: Vec<&Value> = values
                .iter()
                .flat_map(|v| v.as_array().into_iter().flatten())
                .collect();
            let lengths = values.iter().map(|v| v.as_array().map_or(0, Vec::len));
            Arc::new(ListArray::new(
                Arc::clone(element),
                OffsetBuffer::from_lengths(lengths),
                column(&items, element.data_type()),
                Some(nulls()),
            ))
        }
        DataType::Struct(fields) => {
            let null = Value::Null;
            let children = fields
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let child: Vec<&Value> = values
                        .iter()
                        .map(|v| v.as_array().map_or(&null, |a| &a[i]))
                        .collect();
                    column(&child, f.data_type())
                })
                .collect();
            Arc::new(StructArray::new(fields.clone(), children, Some(nulls())))
        }
        DataType::Map(entries, sorted) => {
            let pairs: Vec<&Value> = values
                .iter()
                .flat_map(|v| v.as_array().into_iter().flatten())
                .collect();
            let lengths = values.iter().map(|v| v.as_array().map_or(0, Vec::len));
            let DataType::Struct(kv) = entries.data_type() else {
                panic!("map entries {entries}")
            };
            let entries_array = column(&pairs, entries.data_type());
            let entries_array = entries_array.as_struct().clone();
            // entries carry no nulls of their own
            let (_, kv_columns, _) = entries_array.into_parts();
            let entries_array = StructArray::new(kv.clone(), kv_columns, None);
            Arc::new(MapArray::new(
                Arc::clone(entries),
                OffsetBuffer::from_lengths(lengths),
                entries_array,
                Some(nulls()),
                *sorted,
            ))
        }
        other => panic!("no golden decoding for {other}"),
    }
}

/// `"-12.5"` at scale 2 → -1250.
fn unscaled(s: &str, scale: i8) -> i128 {
    let (negative, digits) = s.strip_prefix('-').map_or((false, s), |d| (true, d));
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let scale = scale as usize;
    assert!(frac.len() <= scale, "{s} has more than {scale} decimals");
    let text = format!("{int}{frac}{}", "0".repeat(scale - frac.len()));
    let v: i128 = text.parse().unwrap();
    if negative {
        -v
    } else {
        v
    }
}

trait ReinterpretTimestamp {
    fn reinterpret_timestamp(self, data_type: &DataType) -> ArrayRef;
}

impl ReinterpretTimestamp for Int64Array {
    fn reinterpret_timestamp(self, data_type: &DataType) -> ArrayRef {
        arrow::compute::cast(&self, data_type).unwrap()
    }
}

/// Equal values, floating point NaNs equal whatever their bits (-0.0 stays distinct).
fn same(actual: &ArrayRef, expected: &ArrayRef) -> bool {
    fn floats<T: ArrowPrimitiveType>(a: &ArrayRef, e: &ArrayRef, bits: fn(T::Native) -> u64) -> bool
    where
        T::Native: PartialEq,
    {
        let (a, e) = (a.as_primitive::<T>(), e.as_primitive::<T>());
        a.len() == e.len()
            && a.iter().zip(e.iter()).all(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => x != x && y != y || bits(x) == bits(y),
                (None, None) => true,
                _ => false,
            })
    }
    match expected.data_type() {
        DataType::Float32 => floats::<Float32Type>(actual, expected, |v| v.to_bits() as u64),
        DataType::Float64 => floats::<Float64Type>(actual, expected, |v| v.to_bits()),
        _ => actual.as_ref() == expected.as_ref(),
    }
}

fn run(path: &std::path::Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let golden: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let plan = base64::engine::general_purpose::STANDARD
        .decode(golden["plan"].as_str().unwrap())
        .unwrap();
    let input_schema = schema(&golden["input_schema"]);
    let expected_schema = schema(&golden["output_schema"]);
    let handle = create(&plan, &input_schema, &expected_schema)
        .map_err(|(status, m)| format!("gatun_operator_create: status {status}: {m}"))?;
    let rows = |key: &str| -> Vec<Vec<Value>> {
        golden[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_array().unwrap().clone())
            .collect()
    };
    let columns = |rows: &[Vec<Value>], schema: &Schema| -> Vec<ArrayRef> {
        schema
            .fields()
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let values: Vec<&Value> = rows.iter().map(|r| &r[i]).collect();
                column(&values, f.data_type())
            })
            .collect()
    };
    let input_rows = rows("input");
    let options = RecordBatchOptions::new().with_row_count(Some(input_rows.len()));
    let input = RecordBatch::try_new_with_options(
        Arc::new(input_schema.clone()),
        columns(&input_rows, &input_schema),
        &options,
    )
    .map_err(|e| format!("input: {e}"))?;
    let output = handle
        .evaluate(&input)
        .map_err(|(status, m)| format!("gatun_operator_process: status {status}: {m}"))?;
    // Decoded with the actual output types, so nested field names do not matter.
    let expected_rows = rows("expected");
    let expected = columns(&expected_rows, &handle.output);
    if output.num_rows() != expected_rows.len() {
        return Err(format!(
            "{} rows, stock Flink gave {}",
            output.num_rows(),
            expected_rows.len()
        ));
    }
    for (i, (f, e)) in handle.output.fields().iter().zip(&expected).enumerate() {
        let a = output.column(i);
        if !same(a, e) {
            return Err(format!(
                "column `{}`:\n  native {a:?}\n  stock  {e:?}",
                f.name()
            ));
        }
    }
    Ok(())
}

#[test]
fn every_golden_plan_built_in_java_evaluates_like_stock_flink() {
    let _guard = no_leaks();
    let mut files: Vec<_> = std::fs::read_dir(golden_dir())
        .unwrap_or_else(|e| panic!("{}: {e}", golden_dir().display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 30, "expected the goldens of every type and function, found {}", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|p| {
            run(p)
                .err()
                .map(|e| format!("{}: {e}", p.file_name().unwrap().to_string_lossy()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} goldens failed (regenerate them with planner-hooks' GoldenPlansTest and \
         -Dgatun.golden.update=true when Java changed on purpose):\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn goldens_speak_the_pinned_substrait_spec() {
    let pinned = std::fs::read_to_string(crate::common::crate_dir().join("admission/substrait-spec-version"))
        .unwrap();
    for entry in std::fs::read_dir(golden_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "json") {
            let golden: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(
                golden["substrait_spec"].as_str(),
                Some(pinned.trim()),
                "{}: built with another Substrait spec; regenerate the goldens",
                path.display()
            );
        }
    }
}
