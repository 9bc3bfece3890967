//! The window-aggregate kind: Flink's window aggregate over TUMBLE, HOP and CUMULATE windows
//! on event time (`SlicingWindowOperator` with `SliceUnsharedSyncStateWindowAggProcessor` /
//! `SliceSharedSyncStateWindowAggProcessor`), its state in native memory ([`state`]).
//!
//! - The GLOBAL phase of a two-phase window aggregate (`INTERMEDIATE_TO_RESULT`) merges the
//!   local phase's accumulators per (key, `$slice_end`), as Flink's `GlobalAggCombiner`.
//! - The ONE-PHASE window aggregate (`INITIAL_TO_RESULT`) slices each row by its rowtime and
//!   accumulates it, as Flink's `AggCombiner`.
//!
//! The AggregateRel may carry an `Emit` that selects result columns of the aggregate's own
//! output (keys, visible measures, window properties) by position ([`projection`]): Java fuses
//! a projection-only Calc above the window aggregate into its exit this way. The expected
//! output schema and every check describe the unprojected output, so the operator, its state
//! and its snapshots are the same with and without the projection.
//!
//! A row whose slice has fired is late: dropped when its last window has fired too, else
//! folded into the slice Flink merges it into, with a timer for its first unfired window.
//! [`advance`](NativeOperator::advance) fires the due timers in order ([`fire`]), and
//! [`snapshot`](NativeOperator::snapshot) / [`restore`](NativeOperator::restore) write and
//! read the state per key group ([`section`], [`key_group`]).

mod fire;
pub mod key_group;
mod projection;
mod section;
mod state;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, RecordBatch, StructArray};
use arrow::compute::prep_null_mask_filter;
use arrow::datatypes::{DataType, Field, Fields, Schema, TimeUnit, TimestampMillisecondType};
use arrow::row::{RowConverter, Rows, SortField};
use datafusion_substrait::substrait::proto::AggregationPhase;

use super::filter::{apply_filter, predicate};
use super::local_aggregate::plan::{self, phase_name};
use super::local_aggregate::window_plan::{WindowPlan, WindowProperty};
use super::output::{Output, OutputFormat};
use super::rowkind::InputSchema;
use super::watermark::Progress;
use super::NativeOperator;
use crate::aggregate::scalar::{value_at, ScalarCall, Value};
use crate::aggregate::window::{window_fired, FlushTrigger};
use crate::aggregate::AggFunction;
use crate::expr::{compile_expressions, Compiled};
use crate::flink_row::ColumnKind;
use crate::ops::calc::FILTER_NAME;
use crate::{GatunError, GatunResult};
use projection::Projection;
use state::{KeyId, State};

/// Flink's message for a NULL rowtime (`AbstractSliceAssigner.assignSliceEnd`).
const NULL_ROWTIME: &str =
    "RowTime field should not be null, please convert it to a non-null long value.";

/// The statistics of `gatun_operator_state_stats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateStats {
    pub keys: i64,
    pub slices: i64,
    pub bytes: i64,
    /// Rows dropped as late since the operator was created (Flink's `numLateRecordsDropped`).
    pub late_rows: i64,
    /// The watermark progress (`i64::MIN` before the first).
    pub progress: i64,
}

impl Default for StateStats {
    fn default() -> Self {
        Self {
            keys: 0,
            slices: 0,
            bytes: 0,
            late_rows: 0,
            progress: i64::MIN,
        }
    }
}

/// One measure: its call, its argument columns (global: accumulator columns) and FILTER.
#[derive(Debug)]
struct Measure {
    call: ScalarCall,
    arguments: Vec<usize>,
    filter: Option<usize>,
    /// First slot in an entry's accumulators.
    offset: usize,
    /// Calcite's `$SUM0` (Substrait `sum0`): kept as a SUM, its value 0 where the SUM's is NULL.
    zero_when_empty: bool,
}

/// A compiled window aggregate.
#[derive(Debug)]
pub struct WindowAggregateOperator {
    columns: Vec<Compiled>,
    filter: Option<Compiled>,
    /// The merge phase: the input holds the local phase's accumulators and slice ends.
    global: bool,
    key_columns: Vec<usize>,
    key_fields: Fields,
    keys: RowConverter,
    measures: Vec<Measure>,
    /// Slots per entry.
    width: usize,
    window: WindowPlan,
    /// Measures emitted (all but a COUNT(*) Flink inserted).
    emitted: Vec<usize>,
    property_types: Vec<(WindowProperty, DataType)>,
    /// The highest watermark seen (Flink's `currentProgress`).
    progress: i64,
    /// Whether a section or a progress was restored (a later section's progress then only
    /// lowers it).
    restored: bool,
    state: State,
    /// The global phase's combine buffer flush rule (Flink's `RecordsWindowBuffer` in the
    /// window processor): local accumulators of one (key, slice) are merged with each other
    /// first, and into the state when the buffer flushes, which rounds floating-point sums as
    /// Flink does.
    buffer: Option<FlushTrigger>,
    limit: i64,
    late_rows: u64,
    /// The plan's output projection (the AggregateRel's emit).
    projection: Projection,
    output: Output,
}

fn bad(what: impl std::fmt::Display) -> GatunError {
    GatunError::plan(format!("window aggregate plan: {what}"))
}

impl WindowAggregateOperator {
    /// Compiles `bytes` (a local-aggregate-shaped plan with the window enhancement) over
    /// `input` and checks the output row type against `expected`: the aggregate's own output,
    /// also when the AggregateRel's emit projects it (then the output fields are the fields of
    /// `expected` the emit selects).
    pub fn create(
        bytes: &[u8],
        input: &InputSchema,
        expected: &Schema,
        format: OutputFormat,
    ) -> GatunResult<Self> {
        if let Some(field) = input.row_kind_field() {
            return Err(GatunError::plan(format!(
                "the input has the row-kind column `{}`: a window aggregate takes insert-only \
                 input (a changelog input stays on Flink)",
                field.name()
            )));
        }
        let plan = plan::decode(bytes)?;
        if plan.bundle_rows.is_some() || plan.group_limit.is_some() {
            return Err(bad(
                "a window aggregate takes no bundle size and no group limit",
            ));
        }
        let window = plan
            .window
            .clone()
            .ok_or_else(|| bad("the AggregateRel has no WindowSlicing enhancement"))?;
        if window.mini_batch.is_some() {
            return Err(bad(
                "a window aggregate absorbs no mini-batch assigner (a local window aggregate does)",
            ));
        }
        let phase = plan
            .measures
            .first()
            .map_or(AggregationPhase::IntermediateToResult as i32, |m| m.phase);
        let global = if phase == AggregationPhase::IntermediateToResult as i32 {
            true
        } else if phase == AggregationPhase::InitialToResult as i32 {
            false
        } else {
            return Err(bad(format!(
                "measure 0 ({}): phase {} is not admitted; a window aggregate runs \
                 AGGREGATION_PHASE_INTERMEDIATE_TO_RESULT (global) or \
                 AGGREGATION_PHASE_INITIAL_TO_RESULT (one phase)",
                plan.measures[0].declared,
                phase_name(phase)
            )));
        };
        for (i, m) in plan.measures.iter().enumerate() {
            let p = if global {
                AggregationPhase::IntermediateToResult
            } else {
                AggregationPhase::InitialToResult
            };
            m.require_phase(
                i,
                p,
                "this window aggregate (all measures run in one phase)",
            )?;
            if global && m.filter.is_some() {
                return Err(bad(format!(
                    "measure {i} ({}) has a FILTER; the global phase merges accumulators the \
                     local phase filtered",
                    m.declared
                )));
            }
        }
        let mut compiled = compile_expressions(&plan.calc, &input.columns)?;
        let has_filter =
            compiled.len() > plan.columns && compiled.last().is_some_and(|c| c.name == FILTER_NAME);
        let filter = if has_filter { compiled.pop() } else { None };
        if let Some(f) = &filter {
            if f.data_type != DataType::Boolean {
                return Err(bad(format!(
                    "{} is {}, expected BOOLEAN",
                    f.describe(),
                    f.data_type
                )));
            }
        }
        let time_type = &compiled[window.time_column].data_type;
        let time_ok = if global {
            *time_type == DataType::Int64
        } else {
            matches!(time_type, DataType::Timestamp(TimeUnit::Millisecond, _))
        };
        if !time_ok {
            return Err(bad(format!(
                "the time column {} is {time_type}; expected {}",
                window.time_column,
                if global {
                    "the BIGINT $slice_end"
                } else {
                    "a millisecond rowtime (TIMESTAMP(3) or TIMESTAMP_LTZ(3))"
                }
            )));
        }
        let expected_fields = expected.fields();
        let visible = plan.measures.len() - usize::from(window.count_star_inserted);
        let width_expected = plan.keys.len() + visible + window.properties.len();
        if expected_fields.len() != width_expected {
            return Err(bad(format!(
                "the plan emits {} keys, {visible} measures and {} window properties, the \
                 expected output schema has {} columns",
                plan.keys.len(),
                window.properties.len(),
                expected_fields.len()
            )));
        }
        // the emit selects result columns of this (unprojected) output
        let projection = Projection::new(plan.emit.as_deref(), width_expected)?;
        if let Some(c) = window.count_star {
            let ok = plan
                .measures
                .get(c)
                .is_some_and(|m| matches!(m.function, AggFunction::CountStar | AggFunction::Count));
            if !ok {
                return Err(bad(format!("the COUNT(*) measure {c} is not a COUNT")));
            }
            if window.count_star_inserted && c + 1 != plan.measures.len() {
                return Err(bad("an inserted COUNT(*) is the last measure"));
            }
        } else if window.count_star_inserted {
            return Err(bad("count_star_inserted without a COUNT(*) measure"));
        }
        // keys
        let mut fields: Vec<Field> = Vec::new();
        for (i, &k) in plan.keys.iter().enumerate() {
            let e = &expected_fields[i];
            let column = &compiled[k];
            if !column.data_type.equals_datatype(e.data_type()) {
                return Err(bad(format!(
                    "group key {i} `{}` ({}): derived type {} differs from the expected type {}",
                    e.name(),
                    column.rendering,
                    column.data_type,
                    e.data_type()
                )));
            }
            fields.push(
                Field::new(e.name(), column.data_type.clone(), e.is_nullable())
                    .with_metadata(e.metadata().clone()),
            );
        }
        if let Some(f) = fields
            .iter()
            .find(|f| ColumnKind::of(f.data_type()).is_none())
        {
            return Err(bad(format!(
                "group key `{}` is {}: a key of a window aggregate is written as Flink's \
                 BinaryRowData for its key group, which has no encoding for nested types",
                f.name(),
                f.data_type()
            )));
        }
        let key_fields: Fields = fields.clone().into();
        let keys = RowConverter::new(
            key_fields
                .iter()
                .map(|f| SortField::new(f.data_type().clone()))
                .collect(),
        )
        .map_err(|e| bad(format!("the group keys: {e}")))?;
        // measures
        let mut measures = Vec::new();
        let mut offset = 0;
        let mut emitted = Vec::new();
        for (i, m) in plan.measures.iter().enumerate() {
            let out = plan.keys.len() + emitted.len();
            let visible = !(window.count_star_inserted && window.count_star == Some(i));
            let call = if global {
                let types: Vec<DataType> = m
                    .arguments
                    .iter()
                    .map(|&a| compiled[a].data_type.clone())
                    .collect();
                let result = if visible {
                    expected_fields[out].data_type().clone()
                } else {
                    DataType::Int64
                };
                ScalarCall::over_accumulators(i, m.function, &types, &result)
            } else {
                let argument = m.argument.map(|a| compiled[a].data_type.clone());
                ScalarCall::over_values(i, m.function, argument.as_ref())
            }
            .map_err(|e| GatunError::plan(e.strip_backtrace()))?;
            if global && m.function == AggFunction::Avg && m.arguments.len() != 2 {
                return Err(bad(format!(
                    "measure {i} ({}): the global AVG takes its sum and count accumulators",
                    m.declared
                )));
            }
            if m.zero_when_empty && !global {
                check_sum0_argument(i, &compiled[m.arguments[0]])?;
            }
            if let Some(f) = m.filter {
                if compiled[f].data_type != DataType::Boolean {
                    return Err(bad(format!(
                        "the FILTER of measure {i} is {} ({}), expected BOOLEAN",
                        compiled[f].data_type, compiled[f].rendering
                    )));
                }
            }
            if visible {
                let e = &expected_fields[out];
                if !call.result.equals_datatype(e.data_type()) {
                    return Err(bad(format!(
                        "output column {out} `{}`: measure {i} ({}) gives {}, the expected type \
                         is {}",
                        e.name(),
                        m.declared,
                        call.result,
                        e.data_type()
                    )));
                }
                fields.push(
                    Field::new(e.name(), call.result.clone(), e.is_nullable())
                        .with_metadata(e.metadata().clone()),
                );
                emitted.push(i);
            }
            let slots = call.slots.len();
            measures.push(Measure {
                call,
                arguments: m.arguments.clone(),
                filter: m.filter,
                offset,
                zero_when_empty: m.zero_when_empty,
            });
            offset += slots;
        }
        // window properties
        let mut property_types = Vec::new();
        for (j, p) in window.properties.iter().enumerate() {
            let e = &expected_fields[plan.keys.len() + emitted.len() + j];
            let ok = match (p, e.data_type()) {
                (WindowProperty::Time, DataType::Timestamp(TimeUnit::Millisecond, _)) => true,
                (_, DataType::Timestamp(TimeUnit::Millisecond, None)) => true,
                _ => false,
            };
            if !ok {
                return Err(bad(format!(
                    "output column `{}` ({}) is {}; expected a TIMESTAMP(3){}",
                    e.name(),
                    p.name(),
                    e.data_type(),
                    if *p == WindowProperty::Time {
                        " or TIMESTAMP_LTZ(3)"
                    } else {
                        ""
                    }
                )));
            }
            property_types.push((*p, e.data_type().clone()));
            fields.push(e.as_ref().clone());
        }
        if !plan.names.is_empty()
            && plan
                .names
                .iter()
                .map(String::as_str)
                .ne(expected_fields.iter().map(|f| f.name().as_str()))
        {
            return Err(bad(format!(
                "the plan's root names [{}] differ from the expected output schema's",
                plan.names.join(", ")
            )));
        }
        let output = Output::new(format, projection.fields(fields.into()), None, None)?;
        let buffer = global.then(|| {
            FlushTrigger::starting_at(window.zone.clone(), window.assigner.slice_size(), i64::MIN)
        });
        Ok(Self {
            columns: compiled,
            filter,
            global,
            key_columns: plan.keys.clone(),
            key_fields,
            keys,
            measures,
            width: offset,
            window,
            emitted,
            property_types,
            progress: i64::MIN,
            restored: false,
            state: State::new(offset),
            buffer,
            limit: i64::MAX,
            late_rows: 0,
            projection,
            output,
        })
    }

    fn fired(&self, end: i64) -> GatunResult<bool> {
        window_fired(&self.window.zone, end, self.progress)
            .map_err(|e| GatunError::execution(e.strip_backtrace()))
    }

    fn timer_instant(&self, window_end: i64) -> GatunResult<i64> {
        self.window
            .zone
            .to_epoch_for_timer(window_end.wrapping_sub(1))
            .map_err(|e| GatunError::execution(e.strip_backtrace()))
    }

    /// Each row's slice end.
    fn slice_ends(&self, columns: &[ArrayRef]) -> GatunResult<Vec<i64>> {
        let time = &columns[self.window.time_column];
        if time.null_count() > 0 {
            return Err(if self.global {
                GatunError::execution("the window aggregate's $slice_end column has NULLs")
            } else {
                GatunError::execution(NULL_ROWTIME)
            });
        }
        if self.global {
            return Ok(time
                .as_primitive::<arrow::datatypes::Int64Type>()
                .values()
                .to_vec());
        }
        time.as_primitive::<TimestampMillisecondType>()
            .values()
            .iter()
            .map(|&t| {
                let shifted = self
                    .window
                    .zone
                    .to_utc(t)
                    .map_err(|e| GatunError::execution(e.strip_backtrace()))?;
                Ok(self.window.assigner.slice_end(shifted))
            })
            .collect()
    }

    /// Folds row `row` into (key, slice) as Flink's combiners do.
    fn fold_row(
        &mut self,
        key: KeyId,
        slice: i64,
        columns: &[ArrayRef],
        filters: &[Option<BooleanArray>],
        row: usize,
    ) {
        let measures = &self.measures;
        let global = self.global;
        let init = |out: &mut Vec<Value>| init_into(measures, out);
        let fold = |slots: &mut [Value]| {
            for (m, filter) in measures.iter().zip(filters) {
                let slots = &mut slots[m.offset..m.offset + m.call.slots.len()];
                if global {
                    // one or two accumulator columns (AVG's sum and count)
                    let mut other = [Value::Null, Value::Null];
                    for (o, &a) in other.iter_mut().zip(&m.arguments) {
                        *o = value_at(columns[a].as_ref(), row);
                    }
                    m.call.merge(slots, &other[..m.arguments.len().min(2)]);
                } else {
                    if filter.as_ref().is_some_and(|f| !f.value(row)) {
                        continue;
                    }
                    let x = match m.arguments.first() {
                        Some(&a) => value_at(columns[a].as_ref(), row),
                        None => Value::Null,
                    };
                    m.call.accumulate(slots, x);
                }
            }
        };
        match &mut self.buffer {
            Some(trigger) => {
                trigger.buffered(slice);
                self.state.update_buffered(key, slice, init, fold);
            }
            None => self.state.update(key, slice, init, fold),
        }
    }

    /// Merges the combine buffer into the state (`GlobalAggCombiner`).
    fn flush_buffer(&mut self) {
        let Some(trigger) = &mut self.buffer else {
            return;
        };
        trigger.emitted();
        let measures = &self.measures;
        self.state.flush_buffer(
            |out| init_into(measures, out),
            |slots, acc| {
                for m in measures {
                    let n = m.call.slots.len();
                    m.call.merge(
                        &mut slots[m.offset..m.offset + n],
                        &acc[m.offset..m.offset + n],
                    );
                }
            },
        );
    }

    /// The keys of `n` rows in row format (`None` without group keys: every key is empty).
    fn encode_keys(&self, arrays: &[ArrayRef]) -> GatunResult<Option<Rows>> {
        if arrays.is_empty() {
            return Ok(None);
        }
        self.keys
            .convert_columns(arrays)
            .map(Some)
            .map_err(|e| GatunError::execution(format!("window aggregate keys: {e}")))
    }

    /// The key columns of keys in row format.
    fn decode_keys<'a>(&self, keys: impl Iterator<Item = &'a [u8]>) -> GatunResult<Vec<ArrayRef>> {
        if self.key_fields.is_empty() {
            return Ok(Vec::new());
        }
        let parser = self.keys.parser();
        self.keys
            .convert_rows(keys.map(|k| parser.parse(k)))
            .map_err(|e| GatunError::execution(format!("window aggregate keys: {e}")))
    }

    /// The key's values as text, for messages.
    fn key_text(&self, key: KeyId) -> String {
        match self.decode_keys(std::iter::once(self.state.row(key))) {
            Ok(arrays) => {
                let values: Vec<String> = arrays
                    .iter()
                    .zip(self.key_fields.iter())
                    .map(|(a, f)| {
                        let v = arrow::util::display::array_value_to_string(a, 0)
                            .unwrap_or_else(|_| "?".into());
                        let v = if a.is_null(0) { "NULL".to_string() } else { v };
                        format!("{}={v}", f.name())
                    })
                    .collect();
                format!("({})", values.join(", "))
            }
            Err(_) => "(unprintable)".into(),
        }
    }

    fn check_limit(&self, key: KeyId) -> GatunResult {
        let bytes = self.state.bytes();
        if i64::try_from(bytes).unwrap_or(i64::MAX) > self.limit {
            return Err(GatunError::execution(format!(
                "the window aggregate's native state exceeds its bound of {} bytes ({bytes} bytes \
                 held) at the row of key {}",
                self.limit,
                self.key_text(key)
            )));
        }
        Ok(())
    }
}

impl NativeOperator for WindowAggregateOperator {
    fn output_fields(&self) -> &Fields {
        self.output.fields()
    }

    fn assigns_watermarks(&self) -> bool {
        false
    }

    fn process(
        &mut self,
        batch: RecordBatch,
        row_kind: Option<ArrayRef>,
        progress: Option<&mut Progress>,
    ) -> GatunResult<Option<StructArray>> {
        if row_kind.is_some() || progress.is_some() {
            return Err(GatunError::invalid_argument(
                "a window aggregate takes no row kinds and no watermark progress",
            ));
        }
        let batch = match &self.filter {
            Some(f) => {
                let selected = predicate(f, &batch)?;
                apply_filter(batch, None, &selected)?.0
            }
            None => batch,
        };
        let columns = self
            .columns
            .iter()
            .map(|c| c.evaluate(&batch))
            .collect::<GatunResult<Vec<_>>>()?;
        let ends = self.slice_ends(&columns)?;
        let key_arrays: Vec<ArrayRef> = self
            .key_columns
            .iter()
            .map(|&k| columns[k].clone())
            .collect();
        let rows = self.encode_keys(&key_arrays)?;
        let filters: Vec<Option<BooleanArray>> = self
            .measures
            .iter()
            .map(|m| {
                m.filter.map(|f| {
                    let f = columns[f].as_boolean();
                    if f.null_count() > 0 {
                        prep_null_mask_filter(f)
                    } else {
                        f.clone()
                    }
                })
            })
            .collect();
        let interval = self.window.assigner.slice_size();
        for (row, &slice) in ends.iter().enumerate() {
            let key = self.state.key(key_bytes(&rows, row));
            if self.fired(slice)? {
                let last = self.window.assigner.last_window_end(slice);
                if self.fired(last)? {
                    self.late_rows += 1;
                    self.state.release_if_empty(key);
                    continue;
                }
                let target = self.window.assigner.merge_target(slice);
                self.fold_row(key, target, &columns, &filters, row);
                let mut first_unfired = slice;
                while self.fired(first_unfired)? {
                    first_unfired = first_unfired.wrapping_add(interval);
                }
                let at = self.timer_instant(first_unfired)?;
                self.state.add_timer(key, first_unfired, at);
            } else {
                self.fold_row(key, slice, &columns, &filters, row);
                let at = self.timer_instant(slice)?;
                self.state.add_timer(key, slice, at);
            }
            self.check_limit(key)?;
        }
        Ok(None)
    }

    fn advance(&mut self, watermark: i64) -> GatunResult<Option<StructArray>> {
        if watermark <= self.progress {
            return Ok(None);
        }
        self.progress = watermark;
        if let Some(trigger) = &mut self.buffer {
            let due = trigger
                .on_watermark(watermark)
                .map_err(|e| GatunError::execution(e.strip_backtrace()))?;
            if due {
                self.flush_buffer();
            }
        }
        let fired = fire::fire_due(self, watermark)?;
        match fired {
            Some(columns) => {
                let rows = columns.first().map_or(0, |c| c.len());
                let columns = self.projection.columns(columns);
                self.output.assemble(columns, None, None, rows).map(Some)
            }
            None => Ok(None),
        }
    }

    fn flush(&mut self) -> GatunResult<Option<StructArray>> {
        Ok(None)
    }

    fn held_bytes(&self) -> usize {
        self.state.bytes()
    }

    fn snapshot(&mut self, max_parallelism: i32) -> GatunResult<StructArray> {
        section::snapshot(self, max_parallelism)
    }

    fn restore(&mut self, bytes: &[u8]) -> GatunResult {
        section::restore(self, bytes)
    }

    fn restore_progress(&mut self, progress: i64) -> GatunResult {
        self.progress = progress;
        self.restored = true;
        Ok(())
    }

    fn limit_state(&mut self, max_bytes: i64) -> GatunResult {
        if max_bytes < 0 {
            return Err(GatunError::invalid_argument(format!(
                "argument `max_bytes` is {max_bytes}; a state bound is >= 0 (INT64_MAX: none)"
            )));
        }
        self.limit = max_bytes;
        Ok(())
    }

    fn state_stats(&self) -> StateStats {
        let n = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
        StateStats {
            keys: n(self.state.keys()),
            slices: n(self.state.slices()),
            bytes: n(self.state.bytes()),
            late_rows: i64::try_from(self.late_rows).unwrap_or(i64::MAX),
            progress: self.progress,
        }
    }
}

/// A one-phase `sum0` takes the argument types where a SUM with NULL read as 0 is exactly
/// Flink's `$SUM0` (which starts at 0): integers, floats (a sum starting at 0.0 differs only in
/// the sign of an all -0.0 sum) and DECIMALs of precision <= 18 (their DECIMAL(38) sum cannot
/// overflow, where Flink's `$SUM0` would stay NULL and a SUM restart).
fn check_sum0_argument(i: usize, argument: &Compiled) -> GatunResult {
    let admitted = match &argument.data_type {
        DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64 => true,
        DataType::Float32 | DataType::Float64 => true,
        DataType::Decimal128(p, _) => *p <= 18,
        _ => false,
    };
    if admitted {
        return Ok(());
    }
    Err(bad(format!(
        "measure {i} (sum0) of {} ({}) is not admitted: sum0 takes integers, floats and DECIMALs \
         of precision <= 18",
        argument.data_type, argument.rendering
    )))
}

/// A `sum0` measure's value of type `result`: 0 for a NULL SUM, 0.0 for -0.0 (Flink's `$SUM0`
/// starts at 0).
fn sum0_value(value: Value, result: &DataType) -> Value {
    match (value, result) {
        (Value::Null, DataType::Float32) => Value::F32(0.0),
        (Value::Null, DataType::Float64) => Value::F64(0.0),
        (Value::Null, DataType::Decimal128(_, _)) => Value::Dec(0),
        (Value::Null, _) => Value::Int(0),
        (Value::F32(f), _) => Value::F32(if f == 0.0 { 0.0 } else { f }),
        (Value::F64(f), _) => Value::F64(if f == 0.0 { 0.0 } else { f }),
        (v, _) => v,
    }
}

/// Appends the initial accumulators of an entry to `out` (Flink's `createAccumulators`).
fn init_into(measures: &[Measure], out: &mut Vec<Value>) {
    for m in measures {
        m.call.init(out);
    }
}

/// Key `i` of `rows` (empty without group keys).
fn key_bytes(rows: &Option<Rows>, i: usize) -> &[u8] {
    rows.as_ref().map_or(&[], |r| r.row(i).data())
}

/// Arc'ed key fields, for sections.
fn key_schema_fields(op: &WindowAggregateOperator) -> Vec<Arc<Field>> {
    op.key_fields.iter().cloned().collect()
}
