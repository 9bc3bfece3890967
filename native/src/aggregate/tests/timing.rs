//! Timing harness (test-only): Nexmark-like 4096-row batches, a BIGINT key with ~1,000
//! distinct values, COUNT(*), SUM(BIGINT), MAX(BIGINT), AVG(BIGINT). Prints ns/row:
//! `cargo test --profile dev --lib aggregate::tests::timing -- --nocapture` (alone: other
//! tests running in parallel inflate the figure).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use arrow::array::{AsArray, Int64Array, RecordBatch};
use arrow::datatypes::{DataType, Int64Type};

use super::random::Rng;
use super::{batch, key};
use crate::aggregate::{AggCall, AggFunction, AggregateSpec, LocalAggregate};

const ROWS: usize = 4096;
const BATCHES: usize = 16;
/// Batches folded per emit (a bundle of 16,384 rows).
const PER_EMIT: usize = 4;
const REPS: usize = 15;

fn bids(rng: &mut Rng) -> RecordBatch {
    let auctions: Vec<i64> = (0..ROWS).map(|_| 1000 + rng.below(1000) as i64).collect();
    let prices: Vec<i64> = (0..ROWS)
        .map(|_| 100 + rng.below(10_000_000) as i64)
        .collect();
    batch(vec![
        Arc::new(Int64Array::from(auctions)),
        Arc::new(Int64Array::from(prices)),
    ])
}

/// Median ns per row of folding every batch (and emitting every `PER_EMIT` batches).
fn ns_per_row(agg: &mut LocalAggregate, batches: &[RecordBatch], with_emit: bool) -> f64 {
    let mut times: Vec<f64> = (0..REPS)
        .map(|_| {
            let start = Instant::now();
            for chunk in batches.chunks(PER_EMIT) {
                for b in chunk {
                    agg.update(b).unwrap();
                }
                if with_emit {
                    black_box(agg.emit().unwrap());
                }
            }
            let elapsed = start.elapsed();
            if !with_emit {
                agg.emit().unwrap();
            }
            elapsed.as_nanos() as f64 / (batches.len() * ROWS) as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[REPS / 2]
}

#[test]
fn timing_nexmark_like_local_aggregate() {
    let mut rng = Rng::new(42);
    let batches: Vec<RecordBatch> = (0..BATCHES).map(|_| bids(&mut rng)).collect();
    let mut agg = LocalAggregate::new(AggregateSpec {
        keys: vec![key(0, DataType::Int64)],
        calls: vec![
            AggCall::count_star(),
            AggCall::new(AggFunction::Sum, 1, DataType::Int64),
            AggCall::new(AggFunction::Max, 1, DataType::Int64),
            AggCall::new(AggFunction::Avg, 1, DataType::Int64),
        ],
        slice_end: None,
    })
    .unwrap();
    // The harness must time real work: one bundle's counts add up to its rows.
    for b in &batches[..PER_EMIT] {
        agg.update(b).unwrap();
    }
    let out = agg.emit().unwrap().unwrap();
    let rows: i64 = out
        .column(1)
        .as_primitive::<Int64Type>()
        .values()
        .iter()
        .sum();
    assert_eq!(rows as usize, PER_EMIT * ROWS);
    assert!(
        out.num_rows() > 990 && out.num_rows() <= 1000,
        "{} groups",
        out.num_rows()
    );

    let update = ns_per_row(&mut agg, &batches, false);
    let with_emit = ns_per_row(&mut agg, &batches, true);
    // Grouping with the cheapest accumulator, to see what the accumulators cost.
    let mut count_only = LocalAggregate::new(AggregateSpec {
        keys: vec![key(0, DataType::Int64)],
        calls: vec![AggCall::count_star()],
        slice_end: None,
    })
    .unwrap();
    let grouping = ns_per_row(&mut count_only, &batches, true);
    println!(
        "local aggregate, {ROWS}-row batches, ~1,000 BIGINT keys, COUNT(*)+SUM+MAX+AVG(BIGINT): \
         update {update:.1} ns/row, update + emit every {PER_EMIT} batches {with_emit:.1} ns/row \
         (COUNT(*) alone, with emits: {grouping:.1} ns/row)"
    );
}
