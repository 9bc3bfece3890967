//! The window aggregate's state, as Flink keeps it: per key, the accumulators of each slice
//! (Flink's `window-aggs` value state, namespace = slice end) and the pending window timers
//! (Flink's `window-timers`, namespace = window end), with the bytes it holds.
//!
//! Keys are Arrow row-format bytes (`arrow::row`), held once in their entry and found through
//! a hash map from the bytes' hash (DataFusion's default hasher: fast, not DoS-resistant) to
//! the key; keys whose bytes hash alike are chained through their entries. A key holds its few
//! slices and timers in small sorted vectors and its accumulators in one vector, so that a key
//! costs a few allocations. The combine buffer is one vector of entries reused from flush to
//! flush, each entry linked to its key's previous one. Timers also sit in one queue ordered by
//! (timer instant, key, window end), the order they fire in (Flink's timer queue orders by
//! instant; ties among keys have no order Flink promises).

use std::cell::Cell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::BuildHasher;
use std::mem::size_of;

use datafusion::common::hash_map::Entry;
use datafusion::common::HashMap;

use crate::aggregate::scalar::Value;

/// A key's index in the state (stable while the key holds state).
pub type KeyId = usize;

/// No key, no buffer entry.
const NONE: usize = usize::MAX;

/// A queued timer: (timer instant, key, window end), the smallest first.
type Timer = Reverse<(i64, KeyId, i64)>;

/// Bytes counted per key, slice, buffer entry and timer beyond their values and row bytes:
/// the key's entry, its hash map slot (with the table's spare room) and its allocations'
/// headers and spare room; a slice's end; a buffer entry; a timer in its key and the queue.
const KEY_OVERHEAD: usize = size_of::<Option<KeyEntry>>() + 2 * size_of::<(u64, KeyId)>() + 64;
const SLICE_OVERHEAD: usize = size_of::<i64>();
const BUFFERED_OVERHEAD: usize = size_of::<Buffered>();
const TIMER_OVERHEAD: usize = size_of::<i64>() + size_of::<Timer>();

#[derive(Debug)]
struct KeyEntry {
    row: Box<[u8]>,
    hash: u64,
    /// The next key whose row has the same hash, or `NONE`.
    next: KeyId,
    /// The slices' ends (`ends[..slices]`) then the window ends with a pending timer
    /// (`ends[slices..]`), each part ascending: one allocation for both.
    ends: Vec<i64>,
    slices: usize,
    /// The slices' accumulators, `width` per slice in the order of their ends.
    values: Vec<Value>,
    /// The key's latest entry in the combine buffer, or `NONE`.
    buffered: usize,
}

impl KeyEntry {
    fn slice_ends(&self) -> &[i64] {
        &self.ends[..self.slices]
    }

    fn timers(&self) -> &[i64] {
        &self.ends[self.slices..]
    }

    /// Inserts slice `end` at position `i`, its accumulators appended by `init`.
    fn insert_slice(
        &mut self,
        i: usize,
        end: i64,
        width: usize,
        init: impl FnOnce(&mut Vec<Value>),
    ) {
        self.ends.insert(i, end);
        self.slices += 1;
        if self.values.capacity() == 0 {
            // most keys hold one slice: the first gets no spare room
            self.values.reserve_exact(width);
        }
        init(&mut self.values);
        debug_assert_eq!(self.values.len(), self.slices * width);
        self.values[i * width..].rotate_right(width);
    }
}

/// An entry of the combine buffer; its accumulators are `width` values of
/// [`State::buffer_values`], at its index.
#[derive(Debug)]
struct Buffered {
    key: KeyId,
    end: i64,
    /// The key's previous entry, or `NONE`.
    previous: usize,
}

#[derive(Debug)]
pub struct State {
    /// Accumulator slots per slice.
    width: usize,
    /// Row hash -> the latest key interned with that hash.
    ids: HashMap<u64, KeyId>,
    entries: Vec<Option<KeyEntry>>,
    free: Vec<KeyId>,
    queue: BinaryHeap<Timer>,
    /// The combine buffer of the global phase (Flink's `RecordsWindowBuffer`): per (key, slice)
    /// the local accumulators merged since the last flush, merged into the state at the flush.
    buffer: Vec<Buffered>,
    buffer_values: Vec<Value>,
    bytes: usize,
    slices: usize,
    keys: usize,
    /// The row hash bits kept, for tests that force collisions.
    #[cfg(test)]
    hash_mask: u64,
}

fn values_size(values: &[Value]) -> usize {
    std::mem::size_of_val(values) + values.iter().map(Value::heap_size).sum::<usize>()
}

impl State {
    /// An empty state whose slices hold `width` accumulator slots.
    pub fn new(width: usize) -> Self {
        Self {
            width,
            ids: HashMap::default(),
            entries: Vec::new(),
            free: Vec::new(),
            queue: BinaryHeap::new(),
            buffer: Vec::new(),
            buffer_values: Vec::new(),
            bytes: 0,
            slices: 0,
            keys: 0,
            #[cfg(test)]
            hash_mask: u64::MAX,
        }
    }

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

    fn hash(&self, row: &[u8]) -> u64 {
        self.masked(self.ids.hasher().hash_one(row))
    }

    #[cfg(test)]
    fn masked(&self, hash: u64) -> u64 {
        hash & self.hash_mask
    }

    #[cfg(not(test))]
    fn masked(&self, hash: u64) -> u64 {
        hash
    }

    /// The id of the key with row bytes `row`, interned if new.
    pub fn key(&mut self, row: &[u8]) -> KeyId {
        let hash = self.hash(row);
        let head = self.ids.entry(hash).or_insert(NONE);
        let mut id = *head;
        while id != NONE {
            let entry = self.entries[id].as_ref().expect("a live key");
            if *entry.row == *row {
                return id;
            }
            id = entry.next;
        }
        let entry = KeyEntry {
            row: row.into(),
            hash,
            next: *head,
            ends: Vec::new(),
            slices: 0,
            values: Vec::new(),
            buffered: NONE,
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
        *head = id;
        self.bytes += KEY_OVERHEAD + row.len();
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
        let entry = self.entry(key);
        let i = entry.slice_ends().binary_search(&end).ok()?;
        Some(&entry.values[i * self.width..(i + 1) * self.width])
    }

    /// Updates the accumulators of (key, slice `end`) with `update`, starting from the ones
    /// `init` appends to its vector when the slice holds none.
    pub fn update(
        &mut self,
        key: KeyId,
        end: i64,
        init: impl FnOnce(&mut Vec<Value>),
        update: impl FnOnce(&mut [Value]),
    ) {
        let width = self.width;
        let entry = self.entries[key].as_mut().expect("a live key");
        let (i, before) = match entry.slice_ends().binary_search(&end) {
            Ok(i) => (
                i,
                Some(values_size(&entry.values[i * width..(i + 1) * width])),
            ),
            Err(i) => {
                entry.insert_slice(i, end, width, init);
                (i, None)
            }
        };
        let values = &mut entry.values[i * width..(i + 1) * width];
        update(values);
        let after = values_size(values);
        match before {
            Some(before) => self.bytes = self.bytes + after - before,
            None => {
                self.slices += 1;
                self.bytes += SLICE_OVERHEAD + after;
            }
        }
    }

    /// Updates the buffered accumulators of (key, slice `end`) with `update`, starting from
    /// the ones `init` appends to its vector when none are buffered.
    pub fn update_buffered(
        &mut self,
        key: KeyId,
        end: i64,
        init: impl FnOnce(&mut Vec<Value>),
        update: impl FnOnce(&mut [Value]),
    ) {
        let width = self.width;
        let entry = self.entries[key].as_mut().expect("a live key");
        let mut i = entry.buffered;
        while i != NONE && self.buffer[i].end != end {
            i = self.buffer[i].previous;
        }
        let before = if i == NONE {
            i = self.buffer.len();
            self.buffer.push(Buffered {
                key,
                end,
                previous: entry.buffered,
            });
            entry.buffered = i;
            init(&mut self.buffer_values);
            debug_assert_eq!(self.buffer_values.len(), self.buffer.len() * width);
            None
        } else {
            Some(values_size(&self.buffer_values[i * width..(i + 1) * width]))
        };
        let values = &mut self.buffer_values[i * width..(i + 1) * width];
        update(values);
        let after = values_size(values);
        match before {
            Some(before) => self.bytes = self.bytes + after - before,
            None => self.bytes += BUFFERED_OVERHEAD + after,
        }
    }

    /// Empties the combine buffer into the state: `merge` merges each buffered entry's
    /// accumulators into its slice's, which `init` appends when the slice holds none.
    pub fn flush_buffer(
        &mut self,
        init: impl Fn(&mut Vec<Value>),
        merge: impl Fn(&mut [Value], &[Value]),
    ) {
        let width = self.width;
        let mut buffer = std::mem::take(&mut self.buffer);
        let mut values = std::mem::take(&mut self.buffer_values);
        for (i, b) in buffer.iter().enumerate() {
            let acc = &values[i * width..(i + 1) * width];
            self.bytes -= BUFFERED_OVERHEAD + values_size(acc);
            self.entry_mut(b.key).buffered = NONE;
            self.update(b.key, b.end, &init, |slots| merge(slots, acc));
        }
        // the vectors are kept for the next flush
        buffer.clear();
        values.clear();
        self.buffer = buffer;
        self.buffer_values = values;
    }

    /// Replaces the accumulators of (key, slice `end`) with `values`.
    pub fn put(&mut self, key: KeyId, end: i64, values: &[Value]) {
        debug_assert_eq!(values.len(), self.width);
        let inserted = Cell::new(false);
        self.update(
            key,
            end,
            |out| {
                out.extend_from_slice(values);
                inserted.set(true);
            },
            |slots| {
                if !inserted.get() {
                    slots.clone_from_slice(values);
                }
            },
        );
    }

    pub fn remove_slice(&mut self, key: KeyId, end: i64) {
        let width = self.width;
        let entry = self.entries[key].as_mut().expect("a live key");
        if let Ok(i) = entry.slice_ends().binary_search(&end) {
            entry.ends.remove(i);
            entry.slices -= 1;
            let old = values_size(&entry.values[i * width..(i + 1) * width]);
            entry.values.drain(i * width..(i + 1) * width);
            self.bytes -= SLICE_OVERHEAD + old;
            self.slices -= 1;
        }
    }

    /// Registers the timer of window `end` of `key` at instant `at` (once per window).
    pub fn add_timer(&mut self, key: KeyId, end: i64, at: i64) {
        let entry = self.entries[key].as_mut().expect("a live key");
        if let Err(i) = entry.timers().binary_search(&end) {
            entry.ends.insert(entry.slices + i, end);
            // a key's timers are unique, so the queue holds no equal entries and pops in the
            // order of (instant, key, window end)
            self.queue.push(Reverse((at, key, end)));
            self.bytes += TIMER_OVERHEAD;
        }
    }

    /// Removes and returns the earliest timer at or before `watermark`.
    pub fn pop_timer(&mut self, watermark: i64) -> Option<(i64, KeyId, i64)> {
        let &Reverse(first) = self.queue.peek()?;
        if first.0 > watermark {
            return None;
        }
        self.queue.pop();
        let entry = self.entry_mut(first.1);
        let i = entry
            .timers()
            .binary_search(&first.2)
            .expect("a queued timer");
        entry.ends.remove(entry.slices + i);
        self.bytes -= TIMER_OVERHEAD;
        Some(first)
    }

    /// Forgets `key` if it holds no slice, no timer and no buffered entry.
    pub fn release_if_empty(&mut self, key: KeyId) {
        let entry = self.entry(key);
        if !entry.ends.is_empty() || entry.buffered != NONE {
            return;
        }
        let entry = self.entries[key].take().expect("a live key");
        let Entry::Occupied(mut head) = self.ids.entry(entry.hash) else {
            unreachable!("a live key's hash is in the map");
        };
        if *head.get() != key {
            let mut id = *head.get();
            loop {
                let before = self.entries[id].as_mut().expect("a live key");
                if before.next == key {
                    before.next = entry.next;
                    break;
                }
                id = before.next;
            }
        } else if entry.next != NONE {
            head.insert(entry.next);
        } else {
            head.remove();
        }
        self.bytes -= KEY_OVERHEAD + entry.row.len();
        self.keys -= 1;
        self.free.push(key);
    }

    /// Every live key, in id order.
    pub fn key_ids(&self) -> impl Iterator<Item = KeyId> + '_ {
        (0..self.entries.len()).filter(|&k| self.entries[k].is_some())
    }

    /// A key's slices (end, accumulators) and timers (window ends), ascending.
    pub fn contents(&self, key: KeyId) -> (impl Iterator<Item = (i64, &[Value])>, &[i64]) {
        let entry = self.entry(key);
        let width = self.width;
        let slices = entry
            .slice_ends()
            .iter()
            .enumerate()
            .map(move |(i, &end)| (end, &entry.values[i * width..(i + 1) * width]));
        (slices, entry.timers())
    }
}

#[cfg(test)]
impl State {
    /// A state whose row hashes keep only the bits of `mask`.
    pub fn with_hash_mask(width: usize, mask: u64) -> Self {
        Self {
            hash_mask: mask,
            ..Self::new(width)
        }
    }
}
