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

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, Int64Builder};
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
    let watermark = watermark
        .as_primitive_opt::<TimestampMillisecondType>()
        .ok_or_else(|| {
            GatunError::execution(format!(
                "the watermark is {}, expected Timestamp(ms)",
                watermark.data_type()
            ))
        })?;
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
    };
    Ok(Arc::new(out.finish()))
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
        };
        let out = run(vec![Some(i64::MAX)], None, &mut p);
        assert_eq!(out, [None]);
        assert_eq!((p.current, p.last, p.after), (i64::MAX, i64::MIN + 1, None));
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
