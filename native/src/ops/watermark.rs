//! Flink's `WatermarkAssignerOperator`, batch by batch, ahead of a Calc.
//!
//! A plan that names two more expressions, `gatun.rowtime` and `gatun.watermark` (both
//! `Timestamp(ms)`, with or without zone "UTC"), assigns watermarks. Over ALL input rows
//! in order, before the filter (the assigner sees every row; the filter comes after it
//! in Flink's plan), row i runs `WatermarkAssignerOperator.processElement`:
//! - a NULL rowtime fails with Flink's message;
//! - a non-NULL watermark value raises `current` to it (`Math.max`);
//! - the row is emitted (if the filter selects it);
//! - when `current - last > interval` (Java `long` arithmetic) and `current > last`,
//!   `last = current` and the watermark `current` is emitted after that row.
//!
//! The emissions cross as one more output column, [`WATERMARK_COLUMN`] (nullable Int64):
//! value j is the watermark to emit before output row j, NULL for none. Several
//! watermarks with no output row between them collapse into the last (watermarks only
//! rise, and a downstream operator reacts to the last one as to the sequence); one emitted
//! after the batch's last output row is [`Progress::after`].

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, Int64Builder, PrimitiveArray};
use arrow::datatypes::{DataType, Field, TimeUnit, TimestampMillisecondType};
use arrow::record_batch::RecordBatch;

use crate::expr::Compiled;
use crate::{GatunError, GatunResult};

/// The name of the rowtime expression (the field Flink checks for NULL).
pub const ROWTIME_NAME: &str = "gatun.rowtime";
/// The name of the watermark expression (the value of Flink's `WatermarkGenerator`).
pub const WATERMARK_NAME: &str = "gatun.watermark";
/// The output column of the watermarks to emit before each output row.
pub const WATERMARK_COLUMN: &str = "__gatun_watermark";
/// `WatermarkAssignerOperator.processElement`'s message for a NULL rowtime.
pub const NULL_ROWTIME: &str =
    "RowTime field should not be null, please convert it to a non-null long value.";

/// The assigner's state across batches (`GatunWatermarkProgress`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The highest watermark seen so far (`currentWatermark`; starts at 0).
    pub current: i64,
    /// The last watermark emitted (`lastWatermark`; starts at 0).
    pub last: i64,
    /// `pipeline.auto-watermark-interval` in milliseconds.
    pub interval: i64,
    /// The watermark to emit after the batch's last output row.
    pub after: Option<i64>,
    /// An absorbed row-time mini-batch assigner's `nextWatermark` (unused otherwise).
    pub mini_batch_next: i64,
}

/// The two expressions of a plan that assigns watermarks.
#[derive(Debug)]
pub struct WatermarkAssigner {
    rowtime: Compiled,
    watermark: Compiled,
}

impl WatermarkAssigner {
    /// The rowtime and watermark expressions.
    pub fn expressions(&self) -> [&Compiled; 2] {
        [&self.rowtime, &self.watermark]
    }

    /// Both expressions must be `Timestamp(ms)` (no zone or "UTC").
    pub fn new(rowtime: Compiled, watermark: Compiled) -> GatunResult<Self> {
        for e in [&rowtime, &watermark] {
            if !is_millis_timestamp(&e.data_type) {
                return Err(GatunError::plan(format!(
                    "{} is {}, expected Timestamp(ms) (TIMESTAMP(3) or TIMESTAMP_LTZ(3))",
                    e.describe(),
                    e.data_type
                )));
            }
        }
        Ok(Self { rowtime, watermark })
    }

    /// The watermark column of the output.
    pub fn field() -> Field {
        Field::new(WATERMARK_COLUMN, DataType::Int64, true)
    }

    /// Runs the assigner over every row of `batch`; `selected` is the filter's result
    /// (TRUE keeps a row; `None` keeps all). Returns the watermark column of the
    /// selected rows and updates `progress`.
    pub fn assign(
        &self,
        batch: &RecordBatch,
        selected: Option<&BooleanArray>,
        progress: &mut Progress,
    ) -> GatunResult<ArrayRef> {
        let rowtime = self.rowtime.evaluate(batch)?;
        let watermark = self.watermark.evaluate(batch)?;
        advance(rowtime.as_ref(), watermark.as_ref(), selected, progress)
    }
}

fn is_millis_timestamp(t: &DataType) -> bool {
    match t {
        DataType::Timestamp(TimeUnit::Millisecond, zone) => {
            zone.as_deref().is_none_or(|z| z == "UTC")
        }
        _ => false,
    }
}

/// The per-row logic of `WatermarkAssignerOperator.processElement` over one batch:
/// `rowtime` is only checked for NULLs, `watermark` holds `Timestamp(ms)` values.
pub fn advance(
    rowtime: &dyn Array,
    watermark: &dyn Array,
    selected: Option<&BooleanArray>,
    progress: &mut Progress,
) -> GatunResult<ArrayRef> {
    let watermark = millis(watermark)?;
    if rowtime.logical_null_count() > 0 {
        return Err(GatunError::execution(NULL_ROWTIME));
    }
    let rows = watermark.len();
    let keeps = |i: usize| selected.is_none_or(|s| s.is_valid(i) && s.value(i));
    let mut out = Int64Builder::with_capacity(selected.map_or(rows, |s| s.true_count()));
    let Progress {
        mut current,
        mut last,
        interval,
        mini_batch_next,
        ..
    } = *progress;
    let mut pending = None;
    for i in 0..rows {
        if watermark.is_valid(i) {
            current = current.max(watermark.value(i));
        }
        if keeps(i) {
            out.append_option(pending.take());
        }
        if current.wrapping_sub(last) > interval && current > last {
            last = current;
            pending = Some(current);
        }
    }
    *progress = Progress {
        current,
        last,
        interval,
        after: pending,
        mini_batch_next,
    };
    Ok(Arc::new(out.finish()))
}

/// `watermark` as millisecond timestamps, or the error naming its type.
fn millis(watermark: &dyn Array) -> GatunResult<&PrimitiveArray<TimestampMillisecondType>> {
    watermark
        .as_primitive_opt::<TimestampMillisecondType>()
        .ok_or_else(|| {
            GatunError::execution(format!(
                "the watermark is {}, expected Timestamp(ms)",
                watermark.data_type()
            ))
        })
}

/// The watermarks Flink's `WatermarkAssignerOperator` emits over one batch (as [`advance`],
/// over every row) that its `RowTimeMiniBatchAssginerOperator` then forwards: each is
/// `(i, w)`, forwarded after row `i`. The mini-batch assigner forwards a watermark once it
/// reached `mini_batch_next`, which then moves to the end of the next interval (Java `long`
/// arithmetic, as `getMiniBatchStart`), and `Long.MAX_VALUE` always; `progress.after` is
/// left unset.
pub fn mini_batch_forwards(
    watermark: &dyn Array,
    interval: i64,
    progress: &mut Progress,
) -> GatunResult<Vec<(usize, i64)>> {
    let watermark = millis(watermark)?;
    if interval <= 0 {
        return Err(GatunError::execution(format!(
            "the mini-batch interval is {interval}; it must be positive"
        )));
    }
    let mut forwards = Vec::new();
    let (mut current, mut last, mut next) =
        (progress.current, progress.last, progress.mini_batch_next);
    for i in 0..watermark.len() {
        if watermark.is_valid(i) {
            current = current.max(watermark.value(i));
        }
        if current.wrapping_sub(last) > progress.interval && current > last {
            last = current;
            if current == i64::MAX {
                forwards.push((i, current));
            } else if current >= next {
                forwards.push((i, current));
                let start =
                    current.wrapping_sub(current.wrapping_add(interval).wrapping_rem(interval));
                let end = start.wrapping_add(interval).wrapping_sub(1);
                next = if end > current {
                    end
                } else {
                    end.wrapping_add(interval)
                };
            }
        }
    }
    progress.current = current;
    progress.last = last;
    progress.mini_batch_next = next;
    Ok(forwards)
}

#[cfg(test)]
mod tests {
    use arrow::array::{Int64Array, NullArray, TimestampMillisecondArray};

    use super::*;

    fn run(
        wm: Vec<Option<i64>>,
        selected: Option<Vec<bool>>,
        progress: &mut Progress,
    ) -> Vec<Option<i64>> {
        let rows = wm.len();
        let rowtime = TimestampMillisecondArray::from(vec![0; rows]);
        let wm = TimestampMillisecondArray::from(wm);
        let selected = selected.map(BooleanArray::from);
        let out = advance(&rowtime, &wm, selected.as_ref(), progress).unwrap();
        out.as_any()
            .downcast_ref::<Int64Array>()
            .unwrap()
            .iter()
            .collect()
    }

    fn start(interval: i64) -> Progress {
        Progress {
            current: 0,
            last: 0,
            interval,
            after: None,
            mini_batch_next: 0,
        }
    }

    #[test]
    fn emits_after_the_row_that_raises_the_watermark_past_the_interval() {
        let mut p = start(0);
        let out = run(vec![Some(5), Some(5), Some(7), Some(3)], None, &mut p);
        assert_eq!(out, [None, Some(5), None, Some(7)]);
        assert_eq!((p.current, p.last, p.after), (7, 7, None));
        let out = run(vec![Some(9)], None, &mut p);
        assert_eq!(out, [None]);
        assert_eq!(p.after, Some(9));
    }

    #[test]
    fn filtered_rows_advance_and_emissions_collapse() {
        let mut p = start(1);
        // 3 > 0 + 1 after row 0 (dropped), 6 after row 1 (dropped): collapse to 6 before row 2
        let out = run(
            vec![Some(3), Some(6), Some(6), None, Some(8)],
            Some(vec![false, false, true, true, false]),
            &mut p,
        );
        assert_eq!(out, [Some(6), None]);
        assert_eq!((p.current, p.last, p.after), (8, 8, Some(8)));
    }

    #[test]
    fn negative_watermarks_are_never_emitted() {
        let mut p = start(0);
        let out = run(vec![Some(-5), Some(-1), None], None, &mut p);
        assert_eq!(out, [None, None, None]);
        assert_eq!((p.current, p.last, p.after), (0, 0, None));
    }

    #[test]
    fn java_long_arithmetic_for_the_interval() {
        // current - last overflows to a negative number: no emission (as in Java)
        let mut p = Progress {
            current: 0,
            last: i64::MIN + 1,
            interval: 0,
            after: None,
            mini_batch_next: 0,
        };
        let out = run(vec![Some(i64::MAX)], None, &mut p);
        assert_eq!(out, [None]);
        assert_eq!((p.current, p.last, p.after), (i64::MAX, i64::MIN + 1, None));
    }

    fn forwards(wm: Vec<Option<i64>>, interval: i64, p: &mut Progress) -> Vec<(usize, i64)> {
        mini_batch_forwards(&TimestampMillisecondArray::from(wm), interval, p).unwrap()
    }

    #[test]
    fn the_mini_batch_assigner_forwards_at_interval_ends() {
        // open(): nextWatermark = 0 - (0 + 10) % 10 + 10 - 1 = 9
        let mut p = Progress {
            mini_batch_next: 9,
            ..start(0)
        };
        let out = forwards(
            vec![Some(3), Some(9), Some(12), Some(19), Some(20), Some(35)],
            10,
            &mut p,
        );
        // 3 < 9 dropped; 9 forwarded (next 19); 12 dropped; 19 forwarded (next 29); 20
        // dropped; 35 forwarded (next 39)
        assert_eq!(out, [(1, 9), (3, 19), (5, 35)]);
        assert_eq!((p.current, p.last, p.mini_batch_next), (35, 35, 39));
        // the assigner's own interval still applies before the mini-batch one
        let mut p = Progress {
            mini_batch_next: 9,
            ..start(5)
        };
        let out = forwards(
            vec![Some(4), Some(9), Some(10), Some(16), Some(25)],
            10,
            &mut p,
        );
        // 4 is not 5 past 0; 9 is, and forwarded; 10 not 5 past 9; 16 is, but before 19
        assert_eq!(out, [(1, 9), (4, 25)]);
        assert_eq!((p.last, p.mini_batch_next), (25, 29));
    }

    #[test]
    fn the_end_of_time_is_always_forwarded() {
        let mut p = Progress {
            mini_batch_next: 9,
            ..start(0)
        };
        let out = forwards(vec![Some(i64::MAX)], 10, &mut p);
        assert_eq!(out, [(0, i64::MAX)]);
        assert_eq!(p.mini_batch_next, 9);
    }

    #[test]
    fn a_null_rowtime_fails_with_flinks_message() {
        let mut p = start(0);
        let rowtime = NullArray::new(1);
        let wm = TimestampMillisecondArray::from(vec![Some(1)]);
        let e = advance(&rowtime, &wm, None, &mut p).unwrap_err();
        assert_eq!(e.message(), NULL_ROWTIME);
        assert_eq!(p, start(0));
    }
}
