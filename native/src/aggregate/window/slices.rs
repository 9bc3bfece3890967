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

    /// The window size (CUMULATE: the max size), ms.
    pub fn size(&self) -> i64 {
        self.size
    }

    /// The offset, ms.
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// Flink's `getWindowStart(windowEnd)`.
    pub fn window_start(&self, window_end: i64) -> i64 {
        match self.kind {
            WindowKind::Tumble | WindowKind::Hop => window_end.wrapping_sub(self.size),
            WindowKind::Cumulate => {
                window_start(window_end.wrapping_sub(1), self.offset, self.size)
            }
        }
    }

    /// Flink's `getLastWindowEnd(sliceEnd)`: the end of the last window holding the slice.
    pub fn last_window_end(&self, slice_end: i64) -> i64 {
        match self.kind {
            WindowKind::Tumble => slice_end,
            WindowKind::Hop => slice_end.wrapping_sub(self.step).wrapping_add(self.size),
            WindowKind::Cumulate => self.window_start(slice_end).wrapping_add(self.size),
        }
    }

    /// The slices Flink's `mergeSlices(windowEnd)` merges for the window ending at
    /// `window_end`, in Flink's order, and the slice whose state holds the merged result
    /// (CUMULATE's first slice; `None`: a fresh accumulator, not kept). TUMBLE: the window's
    /// own slice, kept.
    pub fn merge_slices(&self, window_end: i64) -> (Option<i64>, Slices) {
        match self.kind {
            WindowKind::Tumble => (Some(window_end), Slices::NONE),
            WindowKind::Hop => (
                None,
                Slices {
                    next: window_end,
                    step: self.step,
                    left: self.size / self.step,
                },
            ),
            WindowKind::Cumulate => {
                let first = self.window_start(window_end).wrapping_add(self.step);
                let slices = if window_end == first {
                    Slices::NONE
                } else {
                    Slices::one(window_end)
                };
                (Some(first), slices)
            }
        }
    }

    /// Flink's `sliceStateMergeTarget`: the slice whose state a late (but not dropped) row of
    /// slice `slice_end` goes into.
    pub fn merge_target(&self, slice_end: i64) -> i64 {
        match self.kind {
            WindowKind::Cumulate => self.window_start(slice_end).wrapping_add(self.step),
            WindowKind::Tumble | WindowKind::Hop => slice_end,
        }
    }

    /// Flink's `expiredSlices(windowEnd)`: the slices to free once the window fired.
    pub fn expired_slices(&self, window_end: i64) -> Slices {
        match self.kind {
            WindowKind::Tumble => Slices::one(window_end),
            WindowKind::Hop => Slices::one(self.window_start(window_end).wrapping_add(self.step)),
            WindowKind::Cumulate => {
                let start = self.window_start(window_end);
                let first = start.wrapping_add(self.step);
                let last = start.wrapping_add(self.size);
                if window_end == first {
                    Slices::NONE
                } else if window_end == last {
                    // the window's end, then its first slice
                    Slices {
                        next: window_end,
                        step: window_end.wrapping_sub(first),
                        left: 2,
                    }
                } else {
                    Slices::one(window_end)
                }
            }
        }
    }

    /// Flink's `nextTriggerWindow` after the window ending at `window_end` fired (`empty`:
    /// its merged accumulator counts no row); TUMBLE has none.
    pub fn next_trigger_window(&self, window_end: i64, empty: bool) -> Option<i64> {
        match self.kind {
            WindowKind::Tumble => None,
            WindowKind::Hop => (!empty).then(|| window_end.wrapping_add(self.step)),
            WindowKind::Cumulate => {
                let next = window_end.wrapping_add(self.step);
                let max = self.window_start(window_end).wrapping_add(self.size);
                (next <= max).then_some(next)
            }
        }
    }
}

/// Slice ends `next`, `next - step`, ... (`left` of them): what a window merges or frees,
/// without a vector per fired window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slices {
    next: i64,
    step: i64,
    left: i64,
}

impl Slices {
    const NONE: Slices = Slices {
        next: 0,
        step: 0,
        left: 0,
    };

    fn one(end: i64) -> Self {
        Slices {
            next: end,
            step: 0,
            left: 1,
        }
    }
}

impl Iterator for Slices {
    type Item = i64;

    fn next(&mut self) -> Option<i64> {
        if self.left <= 0 {
            return None;
        }
        let end = self.next;
        self.next = self.next.wrapping_sub(self.step);
        self.left -= 1;
        Some(end)
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
