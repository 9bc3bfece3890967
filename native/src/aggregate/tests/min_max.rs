//! MIN/MAX comparison semantics (research/local-agg.md §2.3): Java `<`/`>` for floats,
//! unsigned byte order for strings and binary, AND/OR for booleans, zones kept.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BinaryArray, BooleanArray, Float64Array, Int64Array, RecordBatch,
    StringArray, TimestampMicrosecondArray,
};
use arrow::datatypes::{DataType, Float64Type, Int64Type, TimeUnit};

use super::{batch, global, i64s, key, run};
use crate::aggregate::{AggCall, AggFunction, AggregateSpec, LocalAggregate};

fn min_max_f64(values: &[f64]) -> (f64, f64) {
    let mut agg = global(vec![
        AggCall::new(AggFunction::Min, 0, DataType::Float64),
        AggCall::new(AggFunction::Max, 0, DataType::Float64),
    ]);
    // One row per batch: the order across batches matters too.
    let batches: Vec<RecordBatch> = (values.iter())
        .map(|v| batch(vec![Arc::new(Float64Array::from(vec![*v]))]))
        .collect();
    let out = run(&mut agg, &batches);
    (
        out.column(0).as_primitive::<Float64Type>().value(0),
        out.column(1).as_primitive::<Float64Type>().value(0),
    )
}

#[test]
fn float_min_max_follow_java_comparisons() {
    // Stock Flink: (NaN, 1.0, 2.0) → NaN/NaN; (1.0, NaN, 0.5) → 0.5/1.0; (0.0, -0.0) → 0.0/0.0.
    let (min, max) = min_max_f64(&[f64::NAN, 1.0, 2.0]);
    assert!(min.is_nan() && max.is_nan());
    assert_eq!(min_max_f64(&[1.0, f64::NAN, 0.5]), (0.5, 1.0));
    let (min, max) = min_max_f64(&[0.0, -0.0]);
    assert_eq!(
        (min.to_bits(), max.to_bits()),
        (0.0f64.to_bits(), 0.0f64.to_bits())
    );
    let (min, max) = min_max_f64(&[-0.0, 0.0]);
    assert_eq!(
        (min.to_bits(), max.to_bits()),
        ((-0.0f64).to_bits(), (-0.0f64).to_bits())
    );
    // DataFusion would start at f64::MAX / f64::MIN (finite).
    assert_eq!(
        min_max_f64(&[f64::INFINITY]),
        (f64::INFINITY, f64::INFINITY)
    );
    assert_eq!(
        min_max_f64(&[f64::NEG_INFINITY]),
        (f64::NEG_INFINITY, f64::NEG_INFINITY)
    );
    // A NaN's payload is kept as is.
    let payload = f64::from_bits(0x7ff8_0000_0000_0abc);
    let (min, _) = min_max_f64(&[payload, 3.0]);
    assert_eq!(min.to_bits(), payload.to_bits());
}

fn utf8_unchecked(values: &[&[u8]]) -> ArrayRef {
    let b = BinaryArray::from_iter_values(values.iter());
    let (offsets, bytes, nulls) = b.into_parts();
    // SAFETY (test data): valid offsets; the bytes are deliberately not all UTF-8.
    Arc::new(unsafe { StringArray::new_unchecked(offsets, bytes, nulls) })
}

#[test]
fn string_and_binary_min_max_use_unsigned_byte_order() {
    let values: &[&[u8]] = &[
        b"b",
        b"\xff",
        b"a\x00",
        b"ab",
        b"\xc3\xa9",
        b"a",
        b"\x80abc",
    ];
    for t in [DataType::Utf8, DataType::Binary] {
        let mut agg = global(vec![
            AggCall::new(AggFunction::Min, 0, t.clone()),
            AggCall::new(AggFunction::Max, 0, t.clone()),
            AggCall::new(AggFunction::Min, 0, t.clone()).with_filter(1),
        ]);
        let column: ArrayRef = match t {
            DataType::Utf8 => utf8_unchecked(values),
            _ => Arc::new(BinaryArray::from_iter_values(values.iter())),
        };
        let filter = BooleanArray::from(vec![true, true, false, true, true, false, true]);
        let out = run(&mut agg, &[batch(vec![column, Arc::new(filter)])]);
        let bytes = |c: usize| out.column(c).to_data().buffers()[1].as_slice().to_vec();
        assert_eq!(out.column(0).data_type(), &t);
        assert_eq!(bytes(0), b"a", "{t} MIN");
        assert_eq!(bytes(1), b"\xff", "{t} MAX");
        assert_eq!(
            bytes(2),
            b"ab",
            "{t} MIN with filter (shorter prefix first)"
        );
    }
}

#[test]
fn string_min_max_replace_values_of_every_length_across_batches() {
    // Growing and shrinking replacements exercise in-place reuse, appends and compaction.
    let mut agg = LocalAggregate::new(AggregateSpec {
        keys: vec![key(0, DataType::Int64)],
        calls: vec![
            AggCall::new(AggFunction::Min, 1, DataType::Utf8),
            AggCall::new(AggFunction::Max, 1, DataType::Utf8),
            // Always replaced by a longer value (appends, compactions), and by a shorter one
            // (in place).
            AggCall::new(AggFunction::Max, 2, DataType::Utf8),
            AggCall::new(AggFunction::Min, 3, DataType::Utf8),
        ],
        slice_end: None,
    })
    .unwrap();
    let growing = |g: usize, round: usize| format!("{g:02}{}", "x".repeat(round));
    let shrinking = |g: usize, round: usize| format!("{g:02}{}", "x".repeat(300 - round));
    let mut expected_min = vec![String::new(); 50];
    let mut expected_max = vec![String::new(); 50];
    for round in 0..200usize {
        let strings: Vec<String> = (0..50)
            .map(|g| {
                let len = (round * 7 + g * 13) % 300;
                let c = (b'a' + ((round * 31 + g) % 26) as u8) as char;
                c.to_string().repeat(len)
            })
            .collect();
        for g in 0..50 {
            let s = &strings[g];
            if round == 0 || s < &expected_min[g] {
                expected_min[g] = s.clone();
            }
            if round == 0 || s > &expected_max[g] {
                expected_max[g] = s.clone();
            }
        }
        agg.update(&batch(vec![
            Arc::new(Int64Array::from_iter_values(0..50)),
            Arc::new(StringArray::from(strings)),
            Arc::new(StringArray::from_iter_values(
                (0..50).map(|g| growing(g, round)),
            )),
            Arc::new(StringArray::from_iter_values(
                (0..50).map(|g| shrinking(g, round)),
            )),
        ]))
        .unwrap();
    }
    let out = agg.emit().unwrap().unwrap();
    let keys = out.column(0).as_primitive::<Int64Type>();
    for row in 0..50 {
        let g = keys.value(row) as usize;
        assert_eq!(
            out.column(1).as_string::<i32>().value(row),
            expected_min[g],
            "MIN of {g}"
        );
        assert_eq!(
            out.column(2).as_string::<i32>().value(row),
            expected_max[g],
            "MAX of {g}"
        );
        assert_eq!(
            out.column(3).as_string::<i32>().value(row),
            growing(g, 199),
            "growing {g}"
        );
        assert_eq!(
            out.column(4).as_string::<i32>().value(row),
            shrinking(g, 199),
            "shrinking {g}"
        );
    }
}

#[test]
fn boolean_min_is_and_max_is_or() {
    let mut agg = LocalAggregate::new(AggregateSpec {
        keys: vec![key(0, DataType::Int64)],
        calls: vec![
            AggCall::new(AggFunction::Min, 1, DataType::Boolean),
            AggCall::new(AggFunction::Max, 1, DataType::Boolean),
        ],
        slice_end: None,
    })
    .unwrap();
    let out = run(
        &mut agg,
        &[batch(vec![
            Arc::new(Int64Array::from(vec![1, 1, 2, 2, 3, 3])),
            Arc::new(BooleanArray::from(vec![
                Some(true),
                Some(false),
                Some(true),
                None,
                None,
                None,
            ])),
        ])],
    );
    let col = |c: usize| out.column(c).as_boolean().iter().collect::<Vec<_>>();
    assert_eq!(i64s(out.column(0)), vec![Some(1), Some(2), Some(3)]);
    assert_eq!(col(1), vec![Some(false), Some(true), None]);
    assert_eq!(col(2), vec![Some(true), Some(true), None]);
}

#[test]
fn timestamps_keep_unit_and_zone() {
    let t = DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()));
    let mut agg = LocalAggregate::new(AggregateSpec {
        keys: vec![key(0, t.clone())],
        calls: vec![
            AggCall::new(AggFunction::Min, 0, t.clone()),
            AggCall::new(AggFunction::Max, 1, t.clone()),
        ],
        slice_end: None,
    })
    .unwrap();
    let ts = |v: Vec<i64>| -> ArrayRef {
        Arc::new(TimestampMicrosecondArray::from(v).with_timezone("UTC"))
    };
    let out = run(
        &mut agg,
        &[batch(vec![
            ts(vec![-5, -5]),
            ts(vec![i64::MIN, -62_135_596_800_000_000]),
        ])],
    );
    assert_eq!(out.column(0).data_type(), &t);
    assert_eq!(out.column(2).data_type(), &t);
    assert_eq!(
        out.column(2)
            .as_primitive::<arrow::datatypes::TimestampMicrosecondType>()
            .value(0),
        -62_135_596_800_000_000
    );
}
