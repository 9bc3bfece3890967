//! Tests of the local aggregate kernel against a per-row reference fold with Java
//! semantics (`reference.rs`), plus hand-computed cases from research/local-agg.md.

mod errors;
mod every_type;
mod groups_and_output;
mod min_max;
mod random;
mod reference;
mod scalar;
mod sums_counts;
mod timing;

use arrow::array::{ArrayRef, AsArray, RecordBatch};
use arrow::datatypes::{DataType, Field, Int64Type};

use super::{AggCall, AggregateSpec, GroupKey, LocalAggregate};

/// A batch with columns named `c0`, `c1`, …
fn batch(columns: Vec<ArrayRef>) -> RecordBatch {
    RecordBatch::try_from_iter(
        columns
            .into_iter()
            .enumerate()
            .map(|(i, c)| (format!("c{i}"), c)),
    )
    .unwrap()
}

fn key(column: usize, data_type: DataType) -> GroupKey {
    GroupKey::new(column, Field::new(format!("k{column}"), data_type, true))
}

fn global(calls: Vec<AggCall>) -> LocalAggregate {
    LocalAggregate::new(AggregateSpec {
        calls,
        ..Default::default()
    })
    .unwrap()
}

/// Folds `batches` and emits; the one emitted batch.
fn run(agg: &mut LocalAggregate, batches: &[RecordBatch]) -> RecordBatch {
    for b in batches {
        agg.update(b).unwrap();
    }
    agg.emit().unwrap().expect("one group at least")
}

fn i64s(a: &ArrayRef) -> Vec<Option<i64>> {
    a.as_primitive::<Int64Type>().iter().collect()
}

#[test]
fn local_aggregate_can_move_between_threads() {
    fn send<T: Send>() {}
    send::<super::LocalAggregate>();
}
