//! A timing harness for the string and decimal kernels, run by hand:
//! `cargo test --locked --profile dev --lib udf::timing -- --ignored --nocapture`.
//! Each line times the previous implementation (`reference`) and the current one on
//! the same 4096-row batch in the same run: median µs per batch and the ratio.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use arrow::array::{ArrayRef, StringArray};
use arrow::datatypes::DataType;

use super::decimal::{self, DecOp, DecType};
use super::reference;
use super::{like, regexp, split, string, Args};

const ROWS: usize = 4096;
const REPS: usize = 41;

/// Median µs of `REPS` runs of `f` (after one warm-up).
fn median_us(mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..REPS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[REPS / 2]
}

fn report(name: &str, before: f64, after: f64) {
    println!(
        "{name:<28} before {before:>9.1} µs  after {after:>9.1} µs  speed-up {:>5.1}x",
        before / after
    );
}

fn time_kernel(
    name: &str,
    arrays: &[ArrayRef],
    literal: &[bool],
    old: fn(&Args) -> datafusion::common::Result<ArrayRef>,
    new: fn(&Args) -> datafusion::common::Result<ArrayRef>,
) {
    let args = Args {
        arrays,
        literal,
        return_type: &DataType::Null,
        state: None,
    };
    let (expected, actual) = (old(&args).unwrap(), new(&args).unwrap());
    assert_eq!(&expected, &actual, "{name}");
    let before = median_us(|| {
        black_box(old(&args).unwrap());
    });
    let after = median_us(|| {
        black_box(new(&args).unwrap());
    });
    report(name, before, after);
}

/// Nexmark-like Bid columns: `channel` and `url`.
fn bid_strings() -> (ArrayRef, ArrayRef) {
    let channels = ["Google", "Facebook", "Baidu", "Apple"];
    let channel: StringArray = (0..ROWS)
        .map(|i| match i % 5 {
            4 => format!("channel-{}", i * 7919 % 10_000),
            k => channels[k].to_string(),
        })
        .map(Some)
        .collect();
    let url: StringArray = (0..ROWS)
        .map(|i| {
            Some(format!(
                "https://www.nexmark.com/item/{}/bid?sid={}",
                i * 31 % 997,
                i
            ))
        })
        .collect();
    (Arc::new(channel), Arc::new(url))
}

#[test]
#[ignore = "timing harness, run by hand"]
fn udf_timing() {
    let (channel, url) = bid_strings();
    let pattern: ArrayRef = Arc::new(StringArray::from(vec!["%o%"; ROWS]));
    let like_args = [channel.clone(), pattern];
    time_kernel(
        "LIKE '%o%'",
        &like_args,
        &[false, true],
        reference::like::like,
        like::like,
    );
    let one = std::slice::from_ref(&channel);
    time_kernel(
        "UPPER(channel)",
        one,
        &[false],
        reference::string::upper_kernel,
        string::upper,
    );
    let one = std::slice::from_ref(&url);
    let old_len = reference::string::char_length;
    time_kernel(
        "CHAR_LENGTH(url)",
        one,
        &[false],
        old_len,
        string::char_length,
    );

    // DECIMAL(10,2) prices: multiply and divide by a DECIMAL(10,2) rate.
    let price: Vec<i128> = (0..ROWS as i128)
        .map(|i| 100 + i * 7919 % 1_000_000)
        .collect();
    let rate: Vec<i128> = (0..ROWS as i128).map(|i| 1 + i * 104_729 % 9_973).collect();
    let d = DecType {
        precision: 10,
        scale: 2,
    };
    let od = reference::decimal::DecType {
        precision: 10,
        scale: 2,
    };
    for (name, op, old_op) in [
        (
            "DECIMAL(10,2) * DECIMAL(10,2)",
            DecOp::Multiply,
            reference::decimal::DecOp::Multiply,
        ),
        (
            "DECIMAL(10,2) / DECIMAL(10,2)",
            DecOp::Divide,
            reference::decimal::DecOp::Divide,
        ),
    ] {
        let out = decimal::result_type(op, d, d);
        let old_out = reference::decimal::result_type(old_op, od, od);
        let before = median_us(|| {
            for (a, b) in price.iter().zip(&rate) {
                black_box(reference::decimal::apply(old_op, (*a, 2), (*b, 2), old_out).unwrap());
            }
        });
        let after = median_us(|| {
            for (a, b) in price.iter().zip(&rate) {
                black_box(decimal::apply(op, (*a, 2), (*b, 2), out).unwrap());
            }
        });
        report(name, before, after);
    }
}

/// Nexmark-like URLs (q21/q22): three path segments, a query, a `channel_id` on four in five.
fn nexmark_urls() -> ArrayRef {
    let url: StringArray = (0..ROWS)
        .map(|i| {
            let base = format!(
                "https://www.nexmark.com/{}_{}/{}_{}/klm/item.htm?query=1",
                ["abc", "mno", "xyz"][i % 3],
                ["de", "fg"][i % 2],
                ["fgh", "pq"][i % 2],
                ["ij", "rs", "tu"][i % 3]
            );
            Some(if i % 5 == 0 {
                base
            } else {
                format!("{base}&channel_id={}", i * 7919 % 10_000_000)
            })
        })
        .collect();
    Arc::new(url)
}

/// REGEXP_EXTRACT and SPLIT_INDEX have no previous kernel: the median µs per 4096-row batch
/// and ns per row (compare with Flink's per-row cost, docs/native.md).
#[test]
#[ignore = "timing harness, run by hand"]
fn regexp_split_timing() {
    let url = nexmark_urls();
    let rows = ROWS as f64;
    let literal = |n| vec![false, true, true][..n].to_vec();
    let pattern: ArrayRef = Arc::new(StringArray::from(vec!["(&|^)channel_id=([^&]*)"; ROWS]));
    let state = regexp::bound("(&|^)channel_id=([^&]*)");
    let flags = literal(3);
    for index in [2, 0] {
        let idx: ArrayRef = Arc::new(arrow::array::Int32Array::from(vec![index; ROWS]));
        let arrays = [url.clone(), pattern.clone(), idx];
        let args = Args {
            arrays: &arrays,
            literal: &flags,
            return_type: &DataType::Utf8,
            state: Some(&*state),
        };
        let us = median_us(|| {
            black_box(regexp::regexp_extract(&args).unwrap());
        });
        println!(
            "{:<44} {us:>9.1} µs  {:>6.1} ns/row",
            format!("REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', {index})"),
            us * 1000.0 / rows
        );
    }
    for index in [3, 5] {
        let sep: ArrayRef = Arc::new(StringArray::from(vec!["/"; ROWS]));
        let idx: ArrayRef = Arc::new(arrow::array::Int32Array::from(vec![index; ROWS]));
        let arrays = [url.clone(), sep, idx];
        let args = Args {
            arrays: &arrays,
            literal: &flags,
            return_type: &DataType::Utf8,
            state: None,
        };
        let us = median_us(|| {
            black_box(split::split_index(&args).unwrap());
        });
        println!(
            "{:<44} {us:>9.1} µs  {:>6.1} ns/row",
            format!("SPLIT_INDEX(url, '/', {index})"),
            us * 1000.0 / rows
        );
    }
}
