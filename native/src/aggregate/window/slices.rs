//! Slice assignment of Flink's `SliceAssigners` for TUMBLE, HOP and CUMULATE windows.
//!
//! A window is cut into slices of `slice_size` ms (TUMBLE: the window size; HOP: the slide,
//! since Flink requires the size to be a multiple of it, so their gcd is the slide;
//! CUMULATE: the step); a row belongs to exactly one slice, named by its exclusive end.
//! Slices start at `offset + k * slice_size` (Flink's `getWindowStartWithOffset`, which
//! rounds towards negative infinity for timestamps before the offset too).

use datafusion::common::{plan_err, Result};

/// The window table function a slice assigner serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowKind {
    Tumble,
    Hop,
    Cumulate,
}

/// Assigns (shifted) timestamps to slice ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SliceAssigner {
    kind: WindowKind,
    size: i64,
    step: i64,
    offset: i64,
}

impl SliceAssigner {
    /// `size`: the window size (CUMULATE: the max size); `step`: HOP's slide, CUMULATE's
    /// step, ignored for TUMBLE; all in ms. Checks what Flink's constructors check.
    pub fn new(kind: WindowKind, size: i64, step: i64, offset: i64) -> Result<Self> {
        let step = match kind {
            WindowKind::Tumble => size,
            WindowKind::Hop | WindowKind::Cumulate => step,
        };
        if size <= 0 || step <= 0 {
            return plan_err!(
                "{kind:?} window: size ({size} ms) and step/slide ({step} ms) must be positive"
            );
        }
        if size % step != 0 {
            return plan_err!(
                "{kind:?} window: the size ({size} ms) must be an integral multiple of the \
                 step/slide ({step} ms)"
            );
        }
        if kind == WindowKind::Tumble && offset.checked_abs().is_none_or(|o| o >= size) {
            return plan_err!(
                "TUMBLE window: the offset ({offset} ms) must be smaller than the size ({size} ms) \
                 in absolute value"
            );
        }
        Ok(SliceAssigner {
            kind,
            size,
            step,
            offset,
        })
    }

    pub fn kind(&self) -> WindowKind {
        self.kind
    }

    /// The length of one slice, Flink's `getSliceEndInterval`.
    pub fn slice_size(&self) -> i64 {
        self.step
    }

    /// The end of the slice holding `timestamp` (already shifted into the window's zone).
    pub fn slice_end(&self, timestamp: i64) -> i64 {
        window_start(timestamp, self.offset, self.step).wrapping_add(self.step)
    }
}

/// Flink's `TimeWindow.getWindowStartWithOffset` in Java `long` arithmetic: the start of
/// the `size`-long window, aligned to `offset`, that holds `timestamp`.
pub fn window_start(timestamp: i64, offset: i64, size: i64) -> i64 {
    let remainder = timestamp.wrapping_sub(offset) % size;
    if remainder < 0 {
        timestamp.wrapping_sub(remainder.wrapping_add(size))
    } else {
        timestamp.wrapping_sub(remainder)
    }
}
