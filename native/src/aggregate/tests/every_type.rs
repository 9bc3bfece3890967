//! Every function × every admitted argument type, and every admitted type as a key,
//! against the reference fold on random batches (NULLs, filters with NULLs, sliced
//! batches, several batches per emit, several emits).

use arrow::array::RecordBatch;
use arrow::datatypes::{DataType, TimeUnit};

use super::random::{random_array, Rng};
use super::reference::{actual, assert_same, reference};
use super::{batch, key};
use crate::aggregate::{AggCall, AggFunction, AggregateSpec, LocalAggregate};

fn admitted_types() -> Vec<DataType> {
    use DataType::*;
    vec![
        Int8,
        Int16,
        Int32,
        Int64,
        Float32,
        Float64,
        Decimal128(10, 2),
        Decimal128(38, 0),
        Decimal128(38, 4),
        Boolean,
        Utf8,
        Binary,
        Date32,
        Time32(TimeUnit::Second),
        Time32(TimeUnit::Millisecond),
        Time64(TimeUnit::Microsecond),
        Time64(TimeUnit::Nanosecond),
        Timestamp(TimeUnit::Second, None),
        Timestamp(TimeUnit::Millisecond, None),
        Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
        Timestamp(TimeUnit::Microsecond, None),
        Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
        Timestamp(TimeUnit::Nanosecond, Some("+05:30".into())),
    ]
}

fn functions_for(t: &DataType) -> Vec<AggFunction> {
    let numeric = matches!(
        t,
        DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::Float32
            | DataType::Float64
            | DataType::Decimal128(..)
    );
    let mut f = vec![AggFunction::Count, AggFunction::Min, AggFunction::Max];
    if numeric {
        f.extend([AggFunction::Sum, AggFunction::Avg]);
    }
    f
}

/// Folds `rounds` bundles of 0–3 random batches each and compares every emit with the
/// reference. `columns(rng, rows)` makes one batch's columns.
fn check_bundles(
    spec: &AggregateSpec,
    seed: u64,
    rounds: usize,
    columns: impl Fn(&mut Rng, usize) -> RecordBatch,
    context: &str,
) {
    let mut agg = LocalAggregate::new(spec.clone()).unwrap();
    let mut rng = Rng::new(seed);
    for round in 0..rounds {
        let mut batches = Vec::new();
        for _ in 0..rng.below(4) {
            let rows = rng.below(400) as usize;
            let mut b = columns(&mut rng, rows + 8);
            // Sliced input: arrays with a non-zero offset.
            b = b.slice(rng.below(8) as usize, rows);
            agg.update(&b).unwrap();
            batches.push(b);
        }
        let expected = reference(spec, &batches);
        let context = format!("{context}, round {round}");
        match agg.emit().unwrap() {
            None => assert!(expected.is_empty(), "{context}: no rows emitted"),
            Some(out) => {
                assert_eq!(out.schema(), *agg.output_schema(), "{context}");
                assert_same(&expected, &actual(spec, &out), &context);
            }
        }
        assert_eq!(agg.num_groups(), 0, "{context}: groups left after emit");
    }
}

#[test]
fn every_function_and_argument_type_matches_the_reference() {
    for (n, t) in admitted_types().into_iter().enumerate() {
        let mut calls = vec![AggCall::count_star(), AggCall::count_star().with_filter(2)];
        for f in functions_for(&t) {
            calls.push(AggCall::new(f, 1, t.clone()));
            calls.push(AggCall::new(f, 1, t.clone()).with_filter(2));
        }
        let spec = AggregateSpec {
            keys: vec![key(0, DataType::Int64)],
            calls,
            slice_end: None,
        };
        let make = |rng: &mut Rng, rows: usize| {
            // Few keys (0..6 and NULL) so that groups fold many rows.
            let keys = random_array(rng, &DataType::Int8, rows, 10);
            let keys = arrow::compute::cast(&keys, &DataType::Int64).unwrap();
            let keys = arrow::compute::kernels::numeric::rem(
                &keys,
                &arrow::array::Int64Array::new_scalar(7),
            )
            .unwrap();
            batch(vec![
                keys,
                random_array(rng, &t, rows, 15),
                random_array(rng, &DataType::Boolean, rows, 20),
            ])
        };
        check_bundles(&spec, 1000 + n as u64, 6, make, &format!("argument {t}"));
    }
}

#[test]
fn every_admitted_type_as_key_matches_the_reference() {
    for (n, t) in admitted_types().into_iter().enumerate() {
        // Single column, two columns (GroupValuesColumn), and with a slice end.
        let shapes = [
            AggregateSpec {
                keys: vec![key(0, t.clone())],
                ..Default::default()
            },
            AggregateSpec {
                keys: vec![key(0, t.clone()), key(1, DataType::Int8)],
                ..Default::default()
            },
            AggregateSpec {
                keys: vec![key(0, t.clone())],
                slice_end: Some(3),
                ..Default::default()
            },
        ];
        for (s, mut spec) in shapes.into_iter().enumerate() {
            spec.calls = vec![
                AggCall::count_star(),
                AggCall::new(AggFunction::Sum, 2, DataType::Int64),
                AggCall::new(AggFunction::Max, 0, t.clone()),
            ];
            let key_type = t.clone();
            let make = |rng: &mut Rng, rows: usize| {
                let slice_ends: Vec<i64> =
                    (0..rows).map(|_| rng.below(3) as i64 * 10_000).collect();
                batch(vec![
                    random_array(rng, &key_type, rows, 10),
                    random_array(rng, &DataType::Int8, rows, 10),
                    random_array(rng, &DataType::Int64, rows, 10),
                    std::sync::Arc::new(arrow::array::Int64Array::from(slice_ends)),
                ])
            };
            check_bundles(
                &spec,
                5000 + 10 * n as u64 + s as u64,
                4,
                make,
                &format!("key {t}, shape {s}"),
            );
        }
    }
}
