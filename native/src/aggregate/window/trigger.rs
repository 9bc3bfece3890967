//! When Flink's local window aggregate emits its buffer as watermarks arrive
//! (`LocalSlicingWindowAggOperator.processWatermark` with `RecordsWindowBuffer.advanceProgress`),
//! and when the window aggregate's processor flushes its combine buffer into the state
//! (`AbstractSliceSyncStateWindowAggProcessor.advanceProgress`, the same rule from `Long.MIN_VALUE`).
//!
//! The operator looks at a watermark only when it is above every earlier one (starting
//! from 0, so watermarks <= 0 never emit) and at or past the next trigger point, the last
//! millisecond of the slice interval holding the previous such watermark (in the zone's
//! wall-clock time for zones with daylight saving time). The buffer is then emitted when
//! the earliest slice it holds has fired, i.e. the watermark reached the instant of that
//! slice's last millisecond. Emitting the buffer (any reason) forgets the earliest slice.

use datafusion::common::Result;

use super::slices::window_start;
use super::zone::ShiftZone;

#[derive(Debug, Clone)]
pub struct FlushTrigger {
    zone: ShiftZone,
    /// The slice interval (`getSliceEndInterval`).
    interval: i64,
    current_watermark: i64,
    next_trigger: i64,
    /// The earliest slice end buffered since the last emission, `i64::MAX` for none.
    min_slice_end: i64,
}

impl FlushTrigger {
    pub fn new(zone: ShiftZone, interval: i64) -> Self {
        Self::starting_at(zone, interval, 0)
    }

    /// A trigger whose first watermark and trigger point are `start` (the window aggregate's
    /// processor starts at `Long.MIN_VALUE`, the local window aggregate at 0).
    pub fn starting_at(zone: ShiftZone, interval: i64, start: i64) -> Self {
        FlushTrigger {
            zone,
            interval,
            current_watermark: start,
            next_trigger: start,
            min_slice_end: i64::MAX,
        }
    }

    /// Rows of slice `end` entered the buffer.
    pub fn buffered(&mut self, end: i64) {
        self.min_slice_end = self.min_slice_end.min(end);
    }

    /// The buffer was emitted.
    pub fn emitted(&mut self) {
        self.min_slice_end = i64::MAX;
    }

    /// A watermark arrived: whether the buffer must be emitted before it passes on.
    pub fn on_watermark(&mut self, watermark: i64) -> Result<bool> {
        if watermark <= self.current_watermark {
            return Ok(false);
        }
        self.current_watermark = watermark;
        if watermark < self.next_trigger {
            return Ok(false);
        }
        let fired = self.fired(self.min_slice_end, watermark)?;
        self.next_trigger = self.next_trigger_after(watermark)?;
        Ok(fired)
    }

    fn fired(&self, slice_end: i64, progress: i64) -> Result<bool> {
        window_fired(&self.zone, slice_end, progress)
    }

    /// Flink's `getNextTriggerWatermark`.
    fn next_trigger_after(&self, watermark: i64) -> Result<i64> {
        if watermark == i64::MAX {
            return Ok(watermark);
        }
        let interval = self.interval;
        let trigger = if self.zone.daylight() && !self.zone.is_utc() {
            let start = window_start(self.zone.to_utc(watermark)?, 0, interval);
            self.zone
                .to_epoch_for_timer(start.wrapping_add(interval).wrapping_sub(1))?
        } else {
            window_start(watermark, 0, interval)
                .wrapping_add(interval)
                .wrapping_sub(1)
        };
        Ok(if trigger > watermark {
            trigger
        } else {
            trigger.wrapping_add(interval)
        })
    }
}

/// Flink's `TimeWindowUtil.isWindowFired`: whether the window (or slice) ending at `end` has
/// fired once the watermark reached `progress` (`i64::MAX` marks no window: never).
pub fn window_fired(zone: &ShiftZone, end: i64, progress: i64) -> Result<bool> {
    if end == i64::MAX {
        return Ok(false);
    }
    Ok(progress >= zone.to_epoch_for_timer(end.wrapping_sub(1))?)
}
