//! [`LocalAggregate`]: folds batches into per-group accumulators and emits one row per group
//! in the stock local phase's row type.

use std::mem::size_of;

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, RecordBatch};
use arrow::compute::prep_null_mask_filter;
use arrow::datatypes::{DataType, Field, SchemaRef};
use datafusion::common::{exec_err, internal_err, DataFusionError, Result};

use super::accumulator::{create_accumulator, CallAccumulator};
use super::grouping::Grouping;
use super::spec::{AggregateSpec, SLICE_END_NAME};

/// The grouped-accumulation kernel of a local (pre-shuffle) aggregate. Rows are folded in
/// arrival order; [`emit`](Self::emit) hands out one row per group and starts over.
pub struct LocalAggregate {
    spec: AggregateSpec,
    schema: SchemaRef,
    grouping: Grouping,
    accumulators: Vec<Box<dyn CallAccumulator>>,
    /// Each row's group id for the current batch (kept to reuse the allocation).
    groups: Vec<usize>,
}

impl std::fmt::Debug for LocalAggregate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalAggregate")
            .field("spec", &self.spec)
            .field("groups", &self.grouping.len())
            .finish_non_exhaustive()
    }
}

impl LocalAggregate {
    /// Checks the spec (admitted function/type pairs) and derives the output schema.
    pub fn new(spec: AggregateSpec) -> Result<Self> {
        let schema = spec.output_schema()?;
        let mut columns: Vec<usize> = spec.keys.iter().map(|k| k.column).collect();
        let mut fields: Vec<Field> = spec.keys.iter().map(|k| k.field.as_ref().clone()).collect();
        if let Some(c) = spec.slice_end {
            columns.push(c);
            fields.push(Field::new(SLICE_END_NAME, DataType::Int64, true));
        }
        let grouping = Grouping::new(columns, fields)?;
        let accumulators = (spec.calls.iter().enumerate())
            .map(|(i, call)| create_accumulator(i, call))
            .collect::<Result<_>>()?;
        Ok(LocalAggregate {
            spec,
            schema,
            grouping,
            accumulators,
            groups: Vec::new(),
        })
    }

    /// The row type [`emit`](Self::emit) produces.
    pub fn output_schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// Groups held since the last emit.
    pub fn num_groups(&self) -> usize {
        self.grouping.len()
    }

    /// Folds every row of `batch`, in order, into its group's accumulators. The batch is
    /// checked against the spec first; a batch that fails the check changes nothing.
    pub fn update(&mut self, batch: &RecordBatch) -> Result<()> {
        self.check(batch)?;
        let filters = self.filters(batch);
        let total = self.grouping.intern(batch, &mut self.groups)?;
        for ((call, acc), filter) in self
            .spec
            .calls
            .iter()
            .zip(&mut self.accumulators)
            .zip(&filters)
        {
            let argument = call.argument.as_ref().map(|a| batch.column(a.column));
            acc.update(argument, filter.as_ref(), &self.groups, total)?;
        }
        Ok(())
    }

    /// One row per group (keys, accumulators, slice end), then starts empty; `None` when
    /// there is no group.
    pub fn emit(&mut self) -> Result<Option<RecordBatch>> {
        let n = self.grouping.len();
        if n == 0 {
            return Ok(None);
        }
        // Reset everything even when a part fails, then report the first failure.
        let keys = self.grouping.emit();
        let mut accumulated = Vec::with_capacity(self.schema.fields().len());
        let mut failure = Ok(());
        for acc in &mut self.accumulators {
            let emitted = acc.emit(&mut accumulated);
            if failure.is_ok() {
                failure = emitted;
            }
        }
        let mut columns = keys?;
        failure?;
        let slice_end = match self.spec.slice_end {
            Some(_) => columns.pop(),
            None => None,
        };
        columns.extend(accumulated);
        columns.extend(slice_end);
        for (column, field) in columns.iter().zip(self.schema.fields()) {
            if column.len() != n {
                return internal_err!(
                    "local aggregate: `{}` has {} rows for {n} groups",
                    field.name(),
                    column.len()
                );
            }
        }
        RecordBatch::try_new(self.schema.clone(), columns)
            .map(Some)
            .map_err(|e| {
                DataFusionError::ArrowError(Box::new(e), Some("local aggregate emit".into()))
            })
    }

    /// Bytes held by the groups and accumulators (for the native memory budget).
    pub fn memory_size(&self) -> usize {
        self.grouping.size()
            + self.groups.capacity() * size_of::<usize>()
            + self.accumulators.iter().map(|a| a.size()).sum::<usize>()
    }

    /// The filter columns as BooleanArrays whose NULLs (not TRUE) are cleared to false:
    /// `accumulate_indices` reads only a filter's value bits.
    fn filters(&self, batch: &RecordBatch) -> Vec<Option<BooleanArray>> {
        let filter = |c: usize| {
            let f = batch.column(c).as_boolean();
            if f.null_count() > 0 {
                prep_null_mask_filter(f)
            } else {
                f.clone()
            }
        };
        self.spec
            .calls
            .iter()
            .map(|call| call.filter.map(filter))
            .collect()
    }

    fn check(&self, batch: &RecordBatch) -> Result<()> {
        let width = batch.num_columns();
        let column = |c: usize, what: &dyn Fn() -> String| match batch.columns().get(c) {
            Some(a) => Ok(a),
            None => exec_err!(
                "local aggregate: {} is column {c}, but the batch has {width} columns",
                what()
            ),
        };
        let expect_type = |a: &ArrayRef, t: &DataType, what: &dyn Fn() -> String| {
            if a.data_type() == t {
                Ok(())
            } else {
                exec_err!(
                    "local aggregate: {} has type {}, the spec says {t}",
                    what(),
                    a.data_type()
                )
            }
        };
        for k in &self.spec.keys {
            let what = || format!("group key `{}` (column {})", k.field.name(), k.column);
            let a = column(k.column, &what)?;
            expect_type(a, k.field.data_type(), &what)?;
            if !k.field.is_nullable() && a.null_count() > 0 {
                return exec_err!(
                    "local aggregate: {} is NOT NULL but has {} NULLs",
                    what(),
                    a.null_count()
                );
            }
        }
        if let Some(c) = self.spec.slice_end {
            let what = || format!("the slice end (column {c})");
            let a = column(c, &what)?;
            expect_type(a, &DataType::Int64, &what)?;
            if a.null_count() > 0 {
                return exec_err!("local aggregate: {} has {} NULLs", what(), a.null_count());
            }
        }
        for (i, call) in self.spec.calls.iter().enumerate() {
            if let Some(arg) = &call.argument {
                let what = || {
                    format!(
                        "the argument of call {i} ({}, column {})",
                        call.function, arg.column
                    )
                };
                expect_type(column(arg.column, &what)?, &arg.data_type, &what)?;
            }
            if let Some(c) = call.filter {
                let what = || format!("the FILTER of call {i} ({}, column {c})", call.function);
                expect_type(column(c, &what)?, &DataType::Boolean, &what)?;
            }
        }
        Ok(())
    }
}
