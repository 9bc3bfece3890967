//! The local-aggregate kind: Flink's local (pre-shuffle) phase of a two-phase group
//! aggregate, with the Calc below it. Each input batch goes through the Calc part (filter,
//! then the aggregate's input columns) and is folded into [`LocalAggregate`];
//! [`flush`](NativeOperator::flush) emits one row per group (keys, then accumulators in
//! Flink's local layout) and starts over. Plan: [`plan`].
//!
//! A plan with a window ([`window_plan`]) is Flink's local *window* aggregate: each row's
//! slice end is computed from its rowtime ([`slicing`]), grouped on after the keys and
//! emitted last; [`advance`](NativeOperator::advance) emits the groups where Flink's window
//! buffer would, instead of at every watermark.
//!
//! A local window aggregate may also have absorbed the row-time mini-batch assigner and the
//! WatermarkAssigner below it ([`window_plan::MiniBatchAssigner`]): each batch then runs the
//! assigner over all its rows ([`mini_batch_forwards`]) and is folded in segments, the
//! watermarks the mini-batch assigner forwards falling between them. Each such watermark
//! reaches the buffer as a watermark from below would, and is emitted after the groups it
//! makes leave, in the output's watermark column as a Calc that assigns watermarks emits it.

pub mod plan;
mod slicing;
pub mod window_plan;

use std::sync::Arc;

use arrow::array::{
    new_null_array, Array, ArrayRef, AsArray, Int64Array, PrimitiveArray, RecordBatch, StructArray,
};
use arrow::compute::concat_batches;
use arrow::datatypes::{
    ArrowPrimitiveType, DataType, Decimal128Type, Field, Fields, Float32Type, Float64Type,
    Int16Type, Int32Type, Int64Type, Int8Type, Schema, TimeUnit,
};
use arrow::record_batch::RecordBatchOptions;

use super::filter::{apply_filter, predicate};
use super::output::{Output, OutputFormat};
use super::rowkind::InputSchema;
use super::watermark::{mini_batch_forwards, Progress, WatermarkAssigner, WATERMARK_NAME};
use super::NativeOperator;
use datafusion_substrait::substrait::proto::AggregationPhase;

use crate::aggregate::{AggCall, AggFunction, AggregateSpec, GroupKey, LocalAggregate};
use crate::expr::{compile_expressions, Compiled};
use crate::ops::calc::FILTER_NAME;
use crate::{GatunError, GatunResult};
use plan::AggregatePlan;
use slicing::Slicing;

/// A compiled local aggregate.
#[derive(Debug)]
pub struct LocalAggregateOperator {
    /// The aggregate's input columns, computed from each input batch.
    columns: Vec<Compiled>,
    columns_schema: Arc<Schema>,
    filter: Option<Compiled>,
    kernel: LocalAggregate,
    /// Output columns of `sum0` measures: NULL (no value) is emitted as 0, -0.0 as 0.0.
    sum0_columns: Vec<usize>,
    /// Emit the groups after this many rows reached the aggregate (Flink's bundle), if given.
    bundle_rows: Option<usize>,
    /// Rows folded since the last emission.
    bundle_filled: usize,
    /// For a window aggregate: the slice-end column and the flush rule.
    slicing: Option<Slicing>,
    /// Emit the groups once a batch leaves at least this many (a batch local phase), if given.
    group_limit: Option<usize>,
    /// The absorbed assigners' watermark expression and mini-batch interval, if any.
    assigner: Option<(Compiled, i64)>,
    output: Output,
}

impl LocalAggregateOperator {
    /// Compiles `plan` (see [`plan`]) over `input` and checks the output row type against
    /// `expected` (names and types; Rust never coerces).
    pub fn create(
        bytes: &[u8],
        input: &InputSchema,
        expected: &Schema,
        format: OutputFormat,
    ) -> GatunResult<Self> {
        if let Some(field) = input.row_kind_field() {
            return Err(GatunError::plan(format!(
                "the input has the row-kind column `{}`: a local aggregate takes insert-only \
                 input (a changelog input stays on Flink)",
                field.name()
            )));
        }
        let plan = plan::decode(bytes)?;
        if plan.emit.is_some() {
            return Err(GatunError::plan(
                "malformed local aggregate plan: the AggregateRel remaps its output (emit); only \
                 a window aggregate projects its output",
            ));
        }
        for (i, m) in plan.measures.iter().enumerate() {
            m.require_phase(
                i,
                AggregationPhase::InitialToIntermediate,
                "a local aggregate",
            )?;
        }
        if plan.bundle_rows.is_some() && plan.group_limit.is_some() {
            return Err(GatunError::plan(
                "the plan has both a bundle size (streaming) and a group limit (batch); a local \
                 aggregate takes at most one",
            ));
        }
        let mut compiled = compile_expressions(&plan.calc, &input.columns)?;
        let assigner = match plan.window.as_ref().and_then(|w| w.mini_batch.as_ref()) {
            None => None,
            Some(a) => {
                let watermark = compiled
                    .pop()
                    .filter(|c| c.name == WATERMARK_NAME)
                    .ok_or_else(|| {
                        GatunError::plan("the plan's watermark expression is missing")
                    })?;
                if !matches!(
                    watermark.data_type,
                    DataType::Timestamp(TimeUnit::Millisecond, _)
                ) {
                    return Err(GatunError::plan(format!(
                        "{} is {}, expected Timestamp(ms) (TIMESTAMP(3) or TIMESTAMP_LTZ(3))",
                        watermark.describe(),
                        watermark.data_type
                    )));
                }
                Some((watermark, a.interval))
            }
        };
        let has_filter =
            compiled.len() > plan.columns && compiled.last().is_some_and(|c| c.name == FILTER_NAME);
        let filter = if has_filter { compiled.pop() } else { None };
        if let Some(f) = &filter {
            if f.data_type != DataType::Boolean {
                return Err(GatunError::plan(format!(
                    "{} is {}, expected BOOLEAN",
                    f.describe(),
                    f.data_type
                )));
            }
        }
        let mut column_fields: Vec<Field> = compiled
            .iter()
            .map(|c| Field::new(c.name.clone(), c.data_type.clone(), true))
            .collect();
        let mut spec = spec(&plan, &compiled, expected)?;
        let slicing = match plan.window.clone() {
            None => None,
            Some(w) => {
                if plan.bundle_rows.is_some() || plan.group_limit.is_some() {
                    return Err(GatunError::plan(
                        "a local window aggregate has no bundle size and no group limit (its \
                         buffer leaves on watermarks, barriers and at the end of input)",
                    ));
                }
                let time_type = compiled[w.time_column].data_type.clone();
                let slicing = Slicing::new(w, &time_type)?;
                // the slice end is one more column of the aggregate's input, grouped on last
                spec.slice_end = Some(column_fields.len());
                column_fields.push(Field::new("$slice_end", DataType::Int64, false));
                Some(slicing)
            }
        };
        let columns_schema = Arc::new(Schema::new(column_fields));
        let sum0_columns = sum0_columns(&plan, &compiled)?;
        let kernel =
            LocalAggregate::new(spec).map_err(|e| GatunError::plan(e.strip_backtrace()))?;
        let fields = output_fields(&plan, kernel.output_schema(), expected)?;
        let watermark_field = assigner
            .as_ref()
            .map(|_| Arc::new(WatermarkAssigner::field()));
        let output = Output::new(format, fields, None, watermark_field)?;
        Ok(Self {
            columns: compiled,
            columns_schema,
            filter,
            kernel,
            sum0_columns,
            bundle_rows: plan
                .bundle_rows
                .map(|r| usize::try_from(r).unwrap_or(usize::MAX)),
            bundle_filled: 0,
            slicing,
            group_limit: plan
                .group_limit
                .map(|g| usize::try_from(g).unwrap_or(usize::MAX)),
            assigner,
            output,
        })
    }
}

/// The kernel's spec: keys named and typed as `expected` says (types checked against the
/// compiled columns), calls over the compiled columns.
fn spec(
    plan: &AggregatePlan,
    columns: &[Compiled],
    expected: &Schema,
) -> GatunResult<AggregateSpec> {
    let expected_fields = expected.fields();
    if expected_fields.len() < plan.keys.len() {
        return Err(GatunError::plan(format!(
            "the plan has {} group keys, the expected output schema only {} columns",
            plan.keys.len(),
            expected_fields.len()
        )));
    }
    let keys = plan
        .keys
        .iter()
        .zip(expected_fields.iter())
        .enumerate()
        .map(|(i, (&c, e))| {
            let column = &columns[c];
            if !column.data_type.equals_datatype(e.data_type()) {
                return Err(GatunError::plan(format!(
                    "group key {i} `{}` ({}): derived type {} differs from the expected type {} \
                     (Java must cast)",
                    e.name(),
                    column.rendering,
                    column.data_type,
                    e.data_type()
                )));
            }
            Ok(GroupKey::new(
                c,
                Field::new(e.name(), column.data_type.clone(), e.is_nullable())
                    .with_metadata(e.metadata().clone()),
            ))
        })
        .collect::<GatunResult<Vec<_>>>()?;
    let calls = plan
        .measures
        .iter()
        .map(|m| {
            let call = match m.argument {
                None => AggCall::count_star(),
                Some(a) => AggCall::new(m.function, a, columns[a].data_type.clone()),
            };
            match m.filter {
                Some(f) if columns[f].data_type != DataType::Boolean => {
                    Err(GatunError::plan(format!(
                        "the FILTER of call {} is {} ({}), expected BOOLEAN",
                        m.function, columns[f].data_type, columns[f].rendering
                    )))
                }
                Some(f) => Ok(call.with_filter(f)),
                None => Ok(call),
            }
        })
        .collect::<GatunResult<Vec<_>>>()?;
    Ok(AggregateSpec {
        keys,
        calls,
        slice_end: None,
    })
}

/// The output columns of the `sum0` measures, whose argument types must be ones where `sum0` is
/// exactly SUM with 0 for no value: integers and floats (starting at 0.0 only changes a -0.0
/// total), and DECIMALs of precision <= 18 (a DECIMAL(38) sum of them cannot overflow, where
/// Flink's `$SUM0` would stay NULL and SUM restart).
fn sum0_columns(plan: &AggregatePlan, columns: &[Compiled]) -> GatunResult<Vec<usize>> {
    let mut out = Vec::new();
    let mut column = plan.keys.len();
    for (i, m) in plan.measures.iter().enumerate() {
        if m.zero_when_empty {
            let argument = &columns[m.argument.expect("sum0 has one argument")];
            let admitted = match &argument.data_type {
                DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64 => true,
                DataType::Float32 | DataType::Float64 => true,
                DataType::Decimal128(p, _) => *p <= 18,
                _ => false,
            };
            if !admitted {
                return Err(GatunError::plan(format!(
                    "measure {i} (sum0) of {} ({}) is not admitted: sum0 takes integers, floats and \
                     DECIMALs of precision <= 18",
                    argument.data_type, argument.rendering
                )));
            }
            out.push(column);
        }
        column += match m.function {
            AggFunction::Avg => 2,
            _ => 1,
        };
    }
    Ok(out)
}

/// `column` with NULL as 0 and -0.0 as 0.0 (a `sum0` accumulator).
fn zero_filled(column: &ArrayRef) -> GatunResult<ArrayRef> {
    fn fill<T: ArrowPrimitiveType>(
        a: &ArrayRef,
        zero: T::Native,
        f: impl Fn(T::Native) -> T::Native,
    ) -> ArrayRef {
        let a = a.as_primitive::<T>();
        let filled =
            PrimitiveArray::<T>::from_iter_values(a.iter().map(|v| v.map(&f).unwrap_or(zero)))
                .with_data_type(a.data_type().clone());
        Arc::new(filled)
    }
    Ok(match column.data_type() {
        DataType::Int8 => fill::<Int8Type>(column, 0, |v| v),
        DataType::Int16 => fill::<Int16Type>(column, 0, |v| v),
        DataType::Int32 => fill::<Int32Type>(column, 0, |v| v),
        DataType::Int64 => fill::<Int64Type>(column, 0, |v| v),
        DataType::Float32 => fill::<Float32Type>(column, 0.0, |v| if v == 0.0 { 0.0 } else { v }),
        DataType::Float64 => fill::<Float64Type>(column, 0.0, |v| if v == 0.0 { 0.0 } else { v }),
        DataType::Decimal128(_, _) => fill::<Decimal128Type>(column, 0, |v| v),
        other => {
            return Err(GatunError::execution(format!(
                "a sum0 accumulator of type {other}"
            )))
        }
    })
}

/// The kernel's row type under the expected names and nullability; the types must be equal.
fn output_fields(plan: &AggregatePlan, actual: &Schema, expected: &Schema) -> GatunResult<Fields> {
    let (actual, expected) = (actual.fields(), expected.fields());
    if actual.len() != expected.len() {
        return Err(GatunError::plan(format!(
            "the local aggregate emits {} columns ({}), the expected output schema has {} ({})",
            actual.len(),
            names(actual),
            expected.len(),
            names(expected)
        )));
    }
    if !plan.names.is_empty()
        && plan
            .names
            .iter()
            .map(String::as_str)
            .ne(expected.iter().map(|f| f.name().as_str()))
    {
        return Err(GatunError::plan(format!(
            "the plan's root names [{}] differ from the expected output schema's ({})",
            plan.names.join(", "),
            names(expected)
        )));
    }
    actual
        .iter()
        .zip(expected.iter())
        .enumerate()
        .map(|(i, (a, e))| {
            if !a.data_type().equals_datatype(e.data_type()) {
                return Err(GatunError::plan(format!(
                    "output column {i} `{}`: the local aggregate emits {} (as `{}`), the expected \
                     type is {}",
                    e.name(),
                    a.data_type(),
                    a.name(),
                    e.data_type()
                )));
            }
            Ok(Arc::new(
                Field::new(e.name(), a.data_type().clone(), e.is_nullable())
                    .with_metadata(e.metadata().clone()),
            ))
        })
        .collect()
}

fn names(fields: &Fields) -> String {
    fields
        .iter()
        .map(|f| f.name().as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

impl NativeOperator for LocalAggregateOperator {
    fn output_fields(&self) -> &Fields {
        self.output.fields()
    }

    fn assigns_watermarks(&self) -> bool {
        self.assigner.is_some()
    }

    fn process(
        &mut self,
        batch: RecordBatch,
        row_kind: Option<ArrayRef>,
        progress: Option<&mut Progress>,
    ) -> GatunResult<Option<StructArray>> {
        if row_kind.is_some() {
            return Err(GatunError::invalid_argument(
                "a local aggregate takes no row kinds",
            ));
        }
        match progress {
            Some(progress) if self.assigner.is_some() => self.process_assigning(batch, progress),
            None if self.assigner.is_none() => self.process_rows(batch),
            _ => Err(GatunError::invalid_argument(
                "a local aggregate takes a watermark progress exactly when it absorbed a \
                 WatermarkAssigner",
            )),
        }
    }

    fn advance(&mut self, watermark: i64) -> GatunResult<Option<StructArray>> {
        let due = match &mut self.slicing {
            // Flink's local group aggregate ends its bundle before every watermark
            None => true,
            Some(slicing) => slicing.on_watermark(watermark)?,
        };
        if due {
            self.flush()
        } else {
            Ok(None)
        }
    }

    fn flush(&mut self) -> GatunResult<Option<StructArray>> {
        match self.take_groups()? {
            Some(groups) => self.assemble(groups, None).map(Some),
            None => Ok(None),
        }
    }

    fn held_bytes(&self) -> usize {
        self.kernel.memory_size()
    }
}

impl LocalAggregateOperator {
    /// The aggregate's input columns of `batch`: the filter, then the columns and slice ends.
    fn input_columns(&mut self, batch: RecordBatch) -> GatunResult<RecordBatch> {
        let batch = match &self.filter {
            Some(f) => {
                let selected = predicate(f, &batch)?;
                apply_filter(batch, None, &selected)?.0
            }
            None => batch,
        };
        let mut columns = self
            .columns
            .iter()
            .map(|c| c.evaluate(&batch))
            .collect::<GatunResult<Vec<_>>>()?;
        if let Some(slicing) = &mut self.slicing {
            let ends = slicing.slice_ends(&columns[slicing.time_column()])?;
            columns.push(ends);
        }
        let options = RecordBatchOptions::new().with_row_count(Some(batch.num_rows()));
        RecordBatch::try_new_with_options(Arc::clone(&self.columns_schema), columns, &options)
            .map_err(|e| GatunError::execution(format!("local aggregate input columns: {e}")))
    }

    /// A batch through the absorbed assigners: folded in segments, each forwarded watermark
    /// after the groups it makes leave (see the module comment).
    fn process_assigning(
        &mut self,
        batch: RecordBatch,
        progress: &mut Progress,
    ) -> GatunResult<Option<StructArray>> {
        let (watermark, interval) = self.assigner.as_ref().expect("checked by process");
        let forwards =
            mini_batch_forwards(watermark.evaluate(&batch)?.as_ref(), *interval, progress)?;
        let mut emitted = Vec::new();
        let mut marks = Vec::with_capacity(forwards.len());
        let (mut start, mut rows) = (0, 0);
        for (row, mark) in forwards {
            let columns = self.input_columns(batch.slice(start, row + 1 - start))?;
            self.fold(&columns)?;
            start = row + 1;
            let due = match &mut self.slicing {
                Some(slicing) => slicing.on_watermark(mark)?,
                None => true,
            };
            if due {
                if let Some(groups) = self.take_groups()? {
                    rows += groups.num_rows();
                    emitted.push(groups);
                }
            }
            marks.push((rows, mark));
        }
        if start < batch.num_rows() {
            let columns = self.input_columns(batch.slice(start, batch.num_rows() - start))?;
            self.fold(&columns)?;
        }
        // marks with no row between them collapse into the last; those after every row follow it
        let mut before = vec![None; rows];
        progress.after = None;
        for (at, mark) in marks {
            match before.get_mut(at) {
                Some(slot) => *slot = Some(mark),
                None => progress.after = Some(mark),
            }
        }
        if emitted.is_empty() {
            return Ok(None);
        }
        let groups = concat_batches(self.kernel.output_schema(), &emitted)
            .map_err(|e| GatunError::execution(format!("local aggregate groups: {e}")))?;
        self.assemble(groups, Some(Arc::new(Int64Array::from(before))))
            .map(Some)
    }

    fn process_rows(&mut self, batch: RecordBatch) -> GatunResult<Option<StructArray>> {
        let columns = self.input_columns(batch)?;
        let Some(bundle) = self.bundle_rows else {
            self.fold(&columns)?;
            if self
                .group_limit
                .is_some_and(|limit| self.kernel.num_groups() >= limit)
            {
                return match self.emit_groups()? {
                    Some(groups) => self.assemble(groups, None).map(Some),
                    None => Ok(None),
                };
            }
            return Ok(None);
        };
        // the groups leave exactly where Flink's bundle of `bundle` rows ends, maybe several times
        let mut emitted = Vec::new();
        let mut offset = 0;
        while offset < columns.num_rows() {
            let take = (bundle - self.bundle_filled).min(columns.num_rows() - offset);
            self.fold(&columns.slice(offset, take))?;
            offset += take;
            self.bundle_filled += take;
            if self.bundle_filled == bundle {
                self.bundle_filled = 0;
                emitted.extend(self.emit_groups()?);
            }
        }
        if emitted.is_empty() {
            return Ok(None);
        }
        let groups = concat_batches(self.kernel.output_schema(), &emitted)
            .map_err(|e| GatunError::execution(format!("local aggregate bundles: {e}")))?;
        self.assemble(groups, None).map(Some)
    }

    /// Empties the buffer: its groups, if any.
    fn take_groups(&mut self) -> GatunResult<Option<RecordBatch>> {
        self.bundle_filled = 0;
        if let Some(slicing) = &mut self.slicing {
            slicing.emitted();
        }
        self.emit_groups()
    }

    fn fold(&mut self, columns: &RecordBatch) -> GatunResult {
        self.kernel
            .update(columns)
            .map_err(|e| GatunError::execution(e.strip_backtrace()))
    }

    fn emit_groups(&mut self) -> GatunResult<Option<RecordBatch>> {
        self.kernel
            .emit()
            .map_err(|e| GatunError::execution(e.strip_backtrace()))
    }

    /// The result batch of `groups` (the kernel's rows) in the output format, with the
    /// watermarks to emit before its rows when the operator assigns them (none if not given).
    fn assemble(&self, groups: RecordBatch, marks: Option<ArrayRef>) -> GatunResult<StructArray> {
        let rows = groups.num_rows();
        let mut columns = groups.columns().to_vec();
        for &c in &self.sum0_columns {
            columns[c] = zero_filled(&columns[c])?;
        }
        let marks = match self.assigner {
            Some(_) => Some(marks.unwrap_or_else(|| new_null_array(&DataType::Int64, rows))),
            None => None,
        };
        self.output.assemble(columns, None, marks, rows)
    }
}
