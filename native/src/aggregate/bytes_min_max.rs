//! MIN/MAX of strings (Utf8) and binary by unsigned byte order, shorter prefix first
//! (Flink's `BinaryStringData.compareTo`, research/local-agg.md §2.3). Bytes are compared
//! and copied as they are: Flink strings need not be valid UTF-8.
//!
//! Every group's current value lives in one growable buffer per accumulator (no allocation
//! per group or row): a replacement that fits overwrites the old value in place, a longer
//! one is appended, and the buffer is compacted when more than half of it is dead.

use std::mem::size_of;
use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BinaryArray, BooleanArray, BooleanBufferBuilder, StringArray,
};
use arrow::buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use datafusion::common::{exec_err, internal_err, Result};

use super::accumulator::{take_nulls, CallAccumulator};

/// A group's value: `data[start..start + len]`.
#[derive(Clone, Copy, Default)]
struct Slot {
    start: usize,
    len: usize,
}

/// Dead bytes tolerated before a compaction, beyond the live ones.
const COMPACT_SLACK: usize = 64 * 1024;

pub(super) struct BytesMinMax<const MIN: bool> {
    data: Vec<u8>,
    slots: Vec<Slot>,
    seen: BooleanBufferBuilder,
    /// Sum of the slots' lengths.
    live: usize,
    utf8: bool,
}

impl<const MIN: bool> BytesMinMax<MIN> {
    pub(super) fn new(utf8: bool) -> Self {
        BytesMinMax {
            data: Vec::new(),
            slots: Vec::new(),
            seen: BooleanBufferBuilder::new(0),
            live: 0,
            utf8,
        }
    }

    fn name(&self) -> &'static str {
        match (MIN, self.utf8) {
            (true, true) => "MIN(Utf8)",
            (true, false) => "MIN(Binary)",
            (false, true) => "MAX(Utf8)",
            (false, false) => "MAX(Binary)",
        }
    }

    fn store(&mut self, g: usize, value: &[u8]) {
        let slot = &mut self.slots[g];
        if value.len() <= slot.len {
            self.data[slot.start..slot.start + value.len()].copy_from_slice(value);
        } else {
            slot.start = self.data.len();
            self.data.extend_from_slice(value);
        }
        self.live = self.live - slot.len + value.len();
        slot.len = value.len();
    }

    fn compact_if_sparse(&mut self) {
        if self.data.len() <= 2 * self.live + COMPACT_SLACK {
            return;
        }
        let mut data = Vec::with_capacity(self.live);
        for slot in &mut self.slots {
            let start = data.len();
            data.extend_from_slice(&self.data[slot.start..slot.start + slot.len]);
            slot.start = start;
        }
        self.data = data;
    }
}

impl<const MIN: bool> CallAccumulator for BytesMinMax<MIN> {
    fn update(
        &mut self,
        argument: Option<&ArrayRef>,
        filter: Option<&BooleanArray>,
        groups: &[usize],
        total_groups: usize,
    ) -> Result<()> {
        let Some(argument) = argument else {
            return internal_err!("local aggregate: {} got no argument", self.name());
        };
        // Raw offsets and bytes (no `&str` is made: the bytes may not be UTF-8).
        let (offsets, bytes, nulls) = if self.utf8 {
            let a = argument.as_string::<i32>();
            (a.value_offsets(), a.values().as_slice(), a.nulls())
        } else {
            let a = argument.as_binary::<i32>();
            (a.value_offsets(), a.values().as_slice(), a.nulls())
        };
        self.slots.resize(total_groups, Slot::default());
        self.seen.append_n(total_groups - self.seen.len(), false);
        for (row, &g) in groups.iter().enumerate() {
            if filter.is_some_and(|f| !f.value(row)) || nulls.is_some_and(|n| n.is_null(row)) {
                continue;
            }
            let value = &bytes[offsets[row] as usize..offsets[row + 1] as usize];
            if self.seen.get_bit(g) {
                let Slot { start, len } = self.slots[g];
                let current = &self.data[start..start + len];
                // Slice order is lexicographic over unsigned bytes, shorter prefix first.
                let replace = if MIN {
                    value < current
                } else {
                    value > current
                };
                if replace {
                    self.store(g, value);
                }
            } else {
                self.seen.set_bit(g, true);
                self.store(g, value);
            }
        }
        self.compact_if_sparse();
        Ok(())
    }

    fn emit(&mut self, out: &mut Vec<ArrayRef>) -> Result<()> {
        let name = self.name();
        let (data, slots, live) = (
            std::mem::take(&mut self.data),
            std::mem::take(&mut self.slots),
            self.live,
        );
        self.live = 0;
        let nulls = take_nulls(&mut self.seen);
        if i32::try_from(live).is_err() {
            return exec_err!(
                "local aggregate: {name}: {live} bytes of values exceed the 2 GiB of one \
                 Arrow {} column; flush earlier",
                if self.utf8 { "Utf8" } else { "Binary" }
            );
        }
        let mut values = Vec::with_capacity(live);
        let mut offsets = Vec::with_capacity(slots.len() + 1);
        offsets.push(0i32);
        for slot in &slots {
            values.extend_from_slice(&data[slot.start..slot.start + slot.len]);
            // Never truncates: the total is at most `live`, checked above.
            offsets.push(values.len() as i32);
        }
        // Non-decreasing and starting at 0 by construction.
        let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
        let values = Buffer::from_vec(values);
        let array: ArrayRef = if self.utf8 {
            // SAFETY: the offsets are non-decreasing, start at 0 and end at `values.len()`.
            // Each value is an exact copy of one value of a Utf8 input array, so it is valid
            // UTF-8 exactly when the input was; the kernel passes Flink's bytes through
            // unchanged rather than reject or alter them (research/local-agg.md §2.3).
            Arc::new(unsafe { StringArray::new_unchecked(offsets, values, nulls) })
        } else {
            Arc::new(BinaryArray::try_new(offsets, values, nulls)?)
        };
        out.push(array);
        Ok(())
    }

    fn size(&self) -> usize {
        self.data.capacity() + self.slots.capacity() * size_of::<Slot>() + self.seen.capacity() / 8
    }
}
