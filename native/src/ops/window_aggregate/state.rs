//! The window aggregate's state, as Flink keeps it: per key, the accumulators of each slice
//! (Flink's `window-aggs` value state, namespace = slice end) and the pending window timers
//! (Flink's `window-timers`, namespace = window end), with the bytes it holds.
//!
//! Keys are Arrow row-format bytes (`arrow::row`), interned once in a hash map with DataFusion's
//! default (fast, not DoS-resistant) hasher; timers also sit in one
//! queue ordered by (timer instant, key, window end), the order they fire in (Flink's timer
//! queue orders by instant; ties among keys have no order Flink promises).

use std::collections::{BTreeMap, BTreeSet};

use datafusion::common::HashMap;
use std::mem::size_of;

use crate::aggregate::scalar::Value;

/// Bytes counted per key, slice and timer beyond their values (map and tree nodes).
const KEY_OVERHEAD: usize = size_of::<KeyEntry>() + 64;
const SLICE_OVERHEAD: usize = 64;
const TIMER_OVERHEAD: usize = 2 * 48;

#[derive(Debug)]
struct KeyEntry {
    row: Box<[u8]>,
    slices: BTreeMap<i64, Box<[Value]>>,
    /// Window ends with a pending timer.
    timers: BTreeSet<i64>,
    /// Entries of the key in the combine buffer.
    buffered: usize,
}

/// A key's index in the state (stable while the key holds state).
pub type KeyId = usize;

#[derive(Debug, Default)]
pub struct State {
    ids: HashMap<Box<[u8]>, KeyId>,
    entries: Vec<Option<KeyEntry>>,
    free: Vec<KeyId>,
    /// (timer instant, key, window end).
    queue: BTreeSet<(i64, KeyId, i64)>,
    /// The combine buffer of the global phase (Flink's `RecordsWindowBuffer`): per (key, slice)
    /// the local accumulators merged since the last flush, merged into the state at the flush.
    buffer: HashMap<(KeyId, i64), Box<[Value]>>,
    bytes: usize,
    slices: usize,
    keys: usize,
}

fn values_size(values: &[Value]) -> usize {
    std::mem::size_of_val(values) + values.iter().map(Value::heap_size).sum::<usize>()
}

impl State {
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn keys(&self) -> usize {
        self.keys
    }

    /// (key, slice) entries of the state and of the combine buffer.
    pub fn slices(&self) -> usize {
        self.slices + self.buffer.len()
    }

    /// The id of the key with row bytes `row`, interned if new.
    pub fn key(&mut self, row: &[u8]) -> KeyId {
        if let Some(&id) = self.ids.get(row) {
            return id;
        }
        let entry = KeyEntry {
            row: row.into(),
            slices: BTreeMap::new(),
            timers: BTreeSet::new(),
            buffered: 0,
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.entries[id] = Some(entry);
                id
            }
            None => {
                self.entries.push(Some(entry));
                self.entries.len() - 1
            }
        };
        self.ids.insert(row.into(), id);
        self.bytes += KEY_OVERHEAD + 2 * row.len();
        self.keys += 1;
        id
    }

    fn entry(&self, key: KeyId) -> &KeyEntry {
        self.entries[key].as_ref().expect("a live key")
    }

    fn entry_mut(&mut self, key: KeyId) -> &mut KeyEntry {
        self.entries[key].as_mut().expect("a live key")
    }

    pub fn row(&self, key: KeyId) -> &[u8] {
        &self.entry(key).row
    }

    pub fn slice(&self, key: KeyId, end: i64) -> Option<&[Value]> {
        self.entry(key).slices.get(&end).map(|v| &**v)
    }

    /// Updates the accumulators of (key, slice `end`) with `update`, starting from `init`
    /// when the slice holds none.
    pub fn update(
        &mut self,
        key: KeyId,
        end: i64,
        init: impl FnOnce() -> Vec<Value>,
        update: impl FnOnce(&mut [Value]),
    ) {
        use std::collections::btree_map::Entry;
        let (is_new, before, after) = {
            let entry = self.entries[key].as_mut().expect("a live key");
            let (is_new, values) = match entry.slices.entry(end) {
                Entry::Occupied(o) => (false, o.into_mut()),
                Entry::Vacant(v) => (true, v.insert(init().into_boxed_slice())),
            };
            let before = if is_new { 0 } else { values_size(values) };
            update(values);
            (is_new, before, values_size(values))
        };
        if is_new {
            self.slices += 1;
            self.bytes += SLICE_OVERHEAD;
        }
        self.bytes = self.bytes + after - before;
    }

    /// Updates the buffered accumulators of (key, slice `end`) with `update`, starting from
    /// `init` when none are buffered.
    pub fn update_buffered(
        &mut self,
        key: KeyId,
        end: i64,
        init: impl FnOnce() -> Vec<Value>,
        update: impl FnOnce(&mut [Value]),
    ) {
        use datafusion::common::hash_map::Entry;
        let (is_new, before, after) = match self.buffer.entry((key, end)) {
            Entry::Occupied(o) => {
                let values = o.into_mut();
                let before = values_size(values);
                update(values);
                (false, before, values_size(values))
            }
            Entry::Vacant(v) => {
                let values = v.insert(init().into_boxed_slice());
                update(values);
                (true, 0, values_size(values))
            }
        };
        if is_new {
            self.entry_mut(key).buffered += 1;
            self.bytes += SLICE_OVERHEAD;
        }
        self.bytes = self.bytes + after - before;
    }

    /// Empties the combine buffer: its (key, slice, accumulators), the keys still live.
    pub fn take_buffered(&mut self) -> Vec<(KeyId, i64, Box<[Value]>)> {
        let buffered: Vec<_> = self.buffer.drain().map(|((k, e), v)| (k, e, v)).collect();
        for (key, _, values) in &buffered {
            self.bytes -= SLICE_OVERHEAD + values_size(values);
            self.entry_mut(*key).buffered -= 1;
        }
        buffered
    }

    /// Replaces the accumulators of (key, slice `end`).
    pub fn put(&mut self, key: KeyId, end: i64, values: Vec<Value>) {
        let values = values.into_boxed_slice();
        let size = values_size(&values);
        let entry = self.entry_mut(key);
        match entry.slices.insert(end, values) {
            Some(old) => {
                let old = values_size(&old);
                self.bytes = self.bytes + size - old;
            }
            None => {
                self.bytes += SLICE_OVERHEAD + size;
                self.slices += 1;
            }
        }
    }

    pub fn remove_slice(&mut self, key: KeyId, end: i64) {
        if let Some(old) = self.entry_mut(key).slices.remove(&end) {
            self.bytes -= SLICE_OVERHEAD + values_size(&old);
            self.slices -= 1;
        }
    }

    /// Registers the timer of window `end` of `key` at instant `at` (once per window).
    pub fn add_timer(&mut self, key: KeyId, end: i64, at: i64) {
        if self.entry_mut(key).timers.insert(end) {
            self.queue.insert((at, key, end));
            self.bytes += TIMER_OVERHEAD;
        }
    }

    /// Removes and returns the earliest timer at or before `watermark`.
    pub fn pop_timer(&mut self, watermark: i64) -> Option<(i64, KeyId, i64)> {
        let &first = self.queue.first()?;
        if first.0 > watermark {
            return None;
        }
        self.queue.pop_first();
        self.entry_mut(first.1).timers.remove(&first.2);
        self.bytes -= TIMER_OVERHEAD;
        Some(first)
    }

    /// Forgets `key` if it holds no slice and no timer.
    pub fn release_if_empty(&mut self, key: KeyId) {
        let entry = self.entry(key);
        if !entry.slices.is_empty() || !entry.timers.is_empty() || entry.buffered > 0 {
            return;
        }
        let entry = self.entries[key].take().expect("a live key");
        self.ids.remove(&entry.row);
        self.bytes -= KEY_OVERHEAD + 2 * entry.row.len();
        self.keys -= 1;
        self.free.push(key);
    }

    /// Every live key, in id order.
    pub fn key_ids(&self) -> impl Iterator<Item = KeyId> + '_ {
        (0..self.entries.len()).filter(|&k| self.entries[k].is_some())
    }

    /// A key's slices (end, accumulators) and timers (window ends), ascending.
    pub fn contents(&self, key: KeyId) -> (Vec<(i64, &[Value])>, Vec<i64>) {
        let entry = self.entry(key);
        (
            entry.slices.iter().map(|(e, v)| (*e, &**v)).collect(),
            entry.timers.iter().copied().collect(),
        )
    }
}
