//! The slice-end column of a local window aggregate, computed from the rowtime column as
//! Flink's `LocalSlicingWindowAggOperator` assigns each row (after the Calc's filter), and
//! the buffer's flush rule fed with every slice that entered it.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, Int64Array};
use arrow::datatypes::{DataType, TimeUnit, TimestampMillisecondType};

use super::window_plan::WindowPlan;
use crate::aggregate::window::{FlushTrigger, ShiftZone, SliceAssigner};
use crate::{GatunError, GatunResult};

/// Flink's message for a NULL rowtime (`AbstractSliceAssigner.assignSliceEnd`).
const NULL_ROWTIME: &str =
    "RowTime field should not be null, please convert it to a non-null long value.";

#[derive(Debug)]
pub struct Slicing {
    time_column: usize,
    assigner: SliceAssigner,
    zone: ShiftZone,
    trigger: FlushTrigger,
}

impl Slicing {
    /// `time_type` is the rowtime column's type: TIMESTAMP(3) or TIMESTAMP_LTZ(3).
    pub fn new(plan: WindowPlan, time_type: &DataType) -> GatunResult<Self> {
        if !matches!(time_type, DataType::Timestamp(TimeUnit::Millisecond, _)) {
            return Err(GatunError::plan(format!(
                "the window's time column {} is {time_type}; a rowtime is a millisecond \
                 timestamp (TIMESTAMP(3) or TIMESTAMP_LTZ(3))",
                plan.time_column
            )));
        }
        let trigger = FlushTrigger::new(plan.zone.clone(), plan.assigner.slice_size());
        Ok(Slicing {
            time_column: plan.time_column,
            assigner: plan.assigner,
            zone: plan.zone,
            trigger,
        })
    }

    pub fn time_column(&self) -> usize {
        self.time_column
    }

    /// Each row's slice end; every slice is remembered for the flush rule.
    pub fn slice_ends(&mut self, rowtime: &ArrayRef) -> GatunResult<ArrayRef> {
        if rowtime.null_count() > 0 {
            return Err(GatunError::execution(NULL_ROWTIME));
        }
        let times = rowtime.as_primitive::<TimestampMillisecondType>();
        let mut ends = Vec::with_capacity(times.len());
        let mut min = i64::MAX;
        // the zone is fixed: decided once, not per row
        let utc = self.zone.is_utc();
        for &t in times.values() {
            let shifted = if utc {
                t
            } else {
                self.zone
                    .to_utc(t)
                    .map_err(|e| GatunError::execution(e.strip_backtrace()))?
            };
            let end = self.assigner.slice_end(shifted);
            min = min.min(end);
            ends.push(end);
        }
        if !ends.is_empty() {
            self.trigger.buffered(min);
        }
        Ok(Arc::new(Int64Array::from(ends)))
    }

    /// Whether the buffer must be emitted before `watermark` passes on.
    pub fn on_watermark(&mut self, watermark: i64) -> GatunResult<bool> {
        self.trigger
            .on_watermark(watermark)
            .map_err(|e| GatunError::execution(e.strip_backtrace()))
    }

    /// The buffer was emitted.
    pub fn emitted(&mut self) {
        self.trigger.emitted();
    }
}
