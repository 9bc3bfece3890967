//! The window state format (docs/native.md "Window state format"): one section per key
//! group, little-endian:
//!
//! ```text
//! magic            8 bytes  "GATUNWS\0"
//! version          u32      FORMAT_VERSION
//! fingerprint      u64      FNV-1a 64 of the layout description
//! description      u32 length + UTF-8: the state layout (keys, window, slots)
//! progress         i64      the operator's watermark progress
//! checksum         u64      FNV-1a 64 of the stream's bytes
//! stream           u64 length + an Arrow IPC stream
//! ```
//!
//! The stream's rows are the key's columns, `$kind` Int8 (0: a slice's accumulators, 1: a
//! pending window timer), `$end` Int64 (the slice or window end), then one column per
//! accumulator slot (NULL in timer rows).

use std::io::Cursor;
use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BinaryBuilder, Int32Array, Int64Array, Int8Array, RecordBatch,
    StructArray,
};
use arrow::datatypes::{DataType, Field, Int64Type, Int8Type, Schema, SchemaRef};
use arrow::ipc::reader::StreamReader;
use arrow::ipc::writer::StreamWriter;

use super::key_group::key_group;
use super::state::KeyId;
use super::{key_bytes, key_schema_fields, WindowAggregateOperator};
use crate::aggregate::scalar::{build_column, value_at, Value};
use crate::flink_row::{self, ColumnKind};
use crate::{GatunError, GatunResult};

pub const MAGIC: &[u8; 8] = b"GATUNWS\0";
pub const FORMAT_VERSION: u32 = 1;
/// The value of a timer row's slots.
static NULL: Value = Value::Null;
const KIND_SLICE: i8 = 0;
const KIND_TIMER: i8 = 1;
/// Flink's upper bound of `maxParallelism` (`KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM`).
const MAX_PARALLELISM: i32 = 32768;

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The readable description of the operator's state layout; sections restore only into an
/// operator with the same one.
pub(super) fn description(op: &WindowAggregateOperator) -> String {
    let keys: Vec<String> = op
        .key_fields
        .iter()
        .map(|f| format!("{} {}", f.name(), f.data_type()))
        .collect();
    let calls: Vec<String> = op
        .measures
        .iter()
        .map(|m| {
            let slots: Vec<String> = m.call.slots.iter().map(|s| s.0.to_string()).collect();
            format!("{}({})", m.call.function, slots.join(", "))
        })
        .collect();
    let a = op.window.assigner;
    format!(
        "window aggregate state; keys [{}]; window {:?} size {} ms step {} ms offset {} ms zone {}; \
         accumulators [{}]",
        keys.join(", "),
        a.kind(),
        a.size(),
        a.slice_size(),
        a.offset(),
        op.window.zone.name(),
        calls.join(", ")
    )
}

fn stream_schema(op: &WindowAggregateOperator) -> SchemaRef {
    let mut fields = key_schema_fields(op);
    fields.push(Arc::new(Field::new("$kind", DataType::Int8, false)));
    fields.push(Arc::new(Field::new("$end", DataType::Int64, false)));
    for (i, m) in op.measures.iter().enumerate() {
        for (j, slot) in m.call.slots.iter().enumerate() {
            fields.push(Arc::new(Field::new(
                format!("acc{i}_{j}"),
                slot.0.clone(),
                true,
            )));
        }
    }
    Arc::new(Schema::new(fields))
}

/// `gatun_operator_snapshot`: one row (key group, section) per key group holding state.
pub(super) fn snapshot(
    op: &mut WindowAggregateOperator,
    max_parallelism: i32,
) -> GatunResult<StructArray> {
    if !(1..=MAX_PARALLELISM).contains(&max_parallelism) {
        return Err(GatunError::invalid_argument(format!(
            "argument `max_parallelism` is {max_parallelism}; expected 1..={MAX_PARALLELISM}"
        )));
    }
    // Flink's window operator flushes its combine buffer before the barrier (prepareCheckpoint)
    op.flush_buffer();
    let ids: Vec<KeyId> = op.state.key_ids().collect();
    let groups = key_groups(op, &ids, max_parallelism)?;
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_by_key(|&i| (groups[i], ids[i]));
    let description = description(op);
    let schema = stream_schema(op);
    let mut key_groups = Vec::new();
    let mut sections = BinaryBuilder::new();
    let mut start = 0;
    while start < order.len() {
        let group = groups[order[start]];
        let end = start
            + order[start..]
                .iter()
                .take_while(|&&i| groups[i] == group)
                .count();
        let members: Vec<KeyId> = order[start..end].iter().map(|&i| ids[i]).collect();
        let batch = rows(op, &members, &schema)?;
        let section = write_section(&description, op.progress, &schema, &batch)?;
        key_groups.push(group);
        sections.append_value(section);
        start = end;
    }
    let key_group: ArrayRef = Arc::new(Int32Array::from(key_groups));
    let state: ArrayRef = Arc::new(sections.finish());
    Ok(StructArray::from(vec![
        (
            Arc::new(Field::new("key_group", DataType::Int32, false)),
            key_group,
        ),
        (
            Arc::new(Field::new("state", DataType::Binary, false)),
            state,
        ),
    ]))
}

/// Each key's key group (Flink's, over the key as a `BinaryRowData`).
fn key_groups(
    op: &WindowAggregateOperator,
    ids: &[KeyId],
    max_parallelism: i32,
) -> GatunResult<Vec<i32>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let arrays = op.decode_keys(ids.iter().map(|&k| op.state.row(k)))?;
    let kinds = op
        .key_fields
        .iter()
        .map(|f| {
            ColumnKind::of(f.data_type()).ok_or_else(|| {
                GatunError::execution(format!(
                    "group key `{}` is {}, which has no BinaryRowData encoding for its key group",
                    f.name(),
                    f.data_type()
                ))
            })
        })
        .collect::<GatunResult<Vec<_>>>()?;
    let encoded = flink_row::encode(&arrays, &kinds, None, ids.len())
        .map_err(|e| GatunError::execution(format!("window aggregate keys as Flink rows: {e}")))?;
    Ok((0..ids.len())
        .map(|i| key_group(encoded.value(i), max_parallelism))
        .collect())
}

/// The stream rows of `keys`: each slice, then each timer.
fn rows(
    op: &WindowAggregateOperator,
    keys: &[KeyId],
    schema: &SchemaRef,
) -> GatunResult<RecordBatch> {
    let mut row_keys = Vec::new();
    let mut kinds = Vec::new();
    let mut ends = Vec::new();
    let mut slots: Vec<Vec<&Value>> = vec![Vec::new(); op.width];
    for &k in keys {
        let (slices, timers) = op.state.contents(k);
        for (end, values) in slices {
            row_keys.push(k);
            kinds.push(KIND_SLICE);
            ends.push(end);
            for (s, v) in slots.iter_mut().zip(values) {
                s.push(v);
            }
        }
        for &end in timers {
            row_keys.push(k);
            kinds.push(KIND_TIMER);
            ends.push(end);
            for s in slots.iter_mut() {
                s.push(&NULL);
            }
        }
    }
    let mut columns = op.decode_keys(row_keys.iter().map(|&k| op.state.row(k)))?;
    columns.push(Arc::new(Int8Array::from(kinds)));
    columns.push(Arc::new(Int64Array::from(ends)));
    let slot_types = op.measures.iter().flat_map(|m| m.call.slots.iter());
    for (values, t) in slots.iter().zip(slot_types) {
        columns.push(
            build_column(&t.0, values).map_err(|e| GatunError::execution(e.strip_backtrace()))?,
        );
    }
    RecordBatch::try_new(Arc::clone(schema), columns)
        .map_err(|e| GatunError::execution(format!("window state rows: {e}")))
}

fn write_section(
    description: &str,
    progress: i64,
    schema: &SchemaRef,
    batch: &RecordBatch,
) -> GatunResult<Vec<u8>> {
    let mut stream = Vec::new();
    {
        let mut writer = StreamWriter::try_new(&mut stream, schema)
            .map_err(|e| GatunError::execution(format!("window state stream: {e}")))?;
        writer
            .write(batch)
            .and_then(|_| writer.finish())
            .map_err(|e| GatunError::execution(format!("window state stream: {e}")))?;
    }
    let mut out = Vec::with_capacity(stream.len() + description.len() + 48);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&fnv1a(description.as_bytes()).to_le_bytes());
    out.extend_from_slice(&(description.len() as u32).to_le_bytes());
    out.extend_from_slice(description.as_bytes());
    out.extend_from_slice(&progress.to_le_bytes());
    out.extend_from_slice(&fnv1a(&stream).to_le_bytes());
    out.extend_from_slice(&(stream.len() as u64).to_le_bytes());
    out.extend_from_slice(&stream);
    Ok(out)
}

/// The schema message a stream of `schema` opens with.
fn schema_message(schema: &SchemaRef) -> GatunResult<Vec<u8>> {
    let mut empty = Vec::new();
    StreamWriter::try_new(&mut empty, schema)
        .and_then(|mut w| w.finish())
        .map_err(|e| GatunError::execution(format!("window state stream: {e}")))?;
    // an empty stream is the schema message and the 8-byte end-of-stream marker
    empty.truncate(empty.len().saturating_sub(8));
    Ok(empty)
}

/// The record batches of an IPC stream.
fn read_stream(stream: &[u8]) -> GatunResult<Vec<RecordBatch>> {
    let reader = StreamReader::try_new(Cursor::new(stream), None)
        .map_err(|e| invalid(format!("the Arrow IPC stream: {e}")))?;
    reader
        .map(|b| b.map_err(|e| invalid(format!("the Arrow IPC stream: {e}"))))
        .collect()
}

/// A reader of a section's bytes whose failures name what is missing.
struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize, what: &str) -> GatunResult<&'a [u8]> {
        if self.0.len() < n {
            return Err(invalid(format!(
                "the section is truncated: {what} needs {n} bytes, {} are left",
                self.0.len()
            )));
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }

    fn array<const N: usize>(&mut self, what: &str) -> GatunResult<[u8; N]> {
        Ok(self.take(N, what)?.try_into().expect("N bytes"))
    }
}

fn invalid(what: impl std::fmt::Display) -> GatunError {
    GatunError::invalid_argument(format!("window state section: {what}"))
}

/// `gatun_operator_restore`: adds the state of one section.
pub(super) fn restore(op: &mut WindowAggregateOperator, section: &[u8]) -> GatunResult {
    let mut bytes = Bytes(section);
    let magic = bytes.take(MAGIC.len(), "the magic")?;
    if magic != MAGIC {
        return Err(invalid(format!(
            "the magic is {magic:02x?}, not Gatun's window state {MAGIC:02x?} (the state was not \
             written by Gatun's native window aggregate)"
        )));
    }
    let version = u32::from_le_bytes(bytes.array("the version")?);
    if version != FORMAT_VERSION {
        return Err(invalid(format!(
            "format version {version}; this library reads version {FORMAT_VERSION}"
        )));
    }
    let fingerprint = u64::from_le_bytes(bytes.array("the fingerprint")?);
    let length = u32::from_le_bytes(bytes.array("the description length")?) as usize;
    let theirs = bytes.take(length, "the description")?;
    let theirs = String::from_utf8_lossy(theirs);
    let ours = description(op);
    if theirs != ours || fingerprint != fnv1a(theirs.as_bytes()) {
        return Err(invalid(format!(
            "the state layout differs: the section holds \"{theirs}\" (fingerprint {fingerprint:016x}), \
             this operator keeps \"{ours}\" (fingerprint {:016x})",
            fnv1a(ours.as_bytes())
        )));
    }
    let progress = i64::from_le_bytes(bytes.array("the progress")?);
    let checksum = u64::from_le_bytes(bytes.array("the checksum")?);
    let length = u64::from_le_bytes(bytes.array("the stream length")?);
    let length = usize::try_from(length).map_err(|_| invalid("the stream length overflows"))?;
    let stream = bytes.take(length, "the Arrow IPC stream")?;
    if !bytes.0.is_empty() {
        return Err(invalid(format!(
            "{} bytes follow the stream",
            bytes.0.len()
        )));
    }
    // Corrupt bytes are caught here, before a reader trusts any length in them.
    if fnv1a(stream) != checksum {
        return Err(invalid(format!(
            "the Arrow IPC stream's checksum is {:016x}, the header says {checksum:016x} (the \
             section is corrupt)",
            fnv1a(stream)
        )));
    }
    let schema = stream_schema(op);
    // The stream opens with the schema message this layout writes, byte for byte: checked
    // before a reader parses anything (arrow-ipc panics on some malformed schemas).
    let opening = schema_message(&schema)?;
    if !stream.starts_with(&opening) {
        return Err(invalid(
            "the Arrow IPC stream does not open with this layout's schema message",
        ));
    }
    let batches = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_stream(stream)))
        .unwrap_or_else(|payload| {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(invalid(format!("the Arrow IPC stream is corrupt ({what})")))
        })?;
    for batch in &batches {
        if batch.schema().fields() != schema.fields() {
            return Err(invalid(format!(
                "the stream's schema {} differs from the layout's {}",
                batch.schema(),
                schema
            )));
        }
    }
    for batch in &batches {
        let keys = op.key_fields.len();
        let kinds = batch.column(keys).as_primitive::<Int8Type>();
        if let Some(k) = kinds
            .iter()
            .find(|k| !matches!(k, Some(KIND_SLICE | KIND_TIMER)))
        {
            return Err(invalid(format!(
                "a row has the $kind {k:?}; expected 0 or 1"
            )));
        }
        if batch.column(keys + 1).null_count() > 0 {
            return Err(invalid("NULL $end values"));
        }
    }
    // all checks passed: nothing below fails on the section's bytes
    for batch in &batches {
        add_rows(op, batch)?;
    }
    op.progress = if op.restored {
        op.progress.min(progress)
    } else {
        progress
    };
    op.restored = true;
    Ok(())
}

fn add_rows(op: &mut WindowAggregateOperator, batch: &RecordBatch) -> GatunResult {
    let keys = op.key_fields.len();
    let kinds = batch.column(keys).as_primitive::<Int8Type>().clone();
    let ends = batch.column(keys + 1).as_primitive::<Int64Type>().clone();
    let rows = op.encode_keys(&batch.columns()[..keys])?;
    let slot_columns = &batch.columns()[keys + 2..];
    let mut values = Vec::with_capacity(slot_columns.len());
    for row in 0..batch.num_rows() {
        let end = ends.value(row);
        let key = op.state.key(key_bytes(&rows, row));
        match kinds.value(row) {
            KIND_SLICE => {
                values.clear();
                values.extend(slot_columns.iter().map(|c| value_at(c.as_ref(), row)));
                op.state.put(key, end, &values);
            }
            _ => {
                let at = op.timer_instant(end)?;
                op.state.add_timer(key, end, at);
            }
        }
    }
    Ok(())
}
