//! One batch through a [`Calc`]: import (no copy), check, filter, project, export.

use std::sync::Arc;

use arrow::array::{new_empty_array, Array, ArrayRef, AsArray, StructArray};
use arrow::compute::{filter, FilterBuilder};
use arrow::ffi::FFI_ArrowArray;
use arrow::record_batch::{RecordBatch, RecordBatchOptions};
use datafusion::error::DataFusionError;

use super::create::Calc;
use super::plan::Compiled;
use crate::abi::GATUN_ERR_ARROW;
use crate::export::export_owned;
use crate::import::{import_array, ImportError};
use crate::ffi_guard::{GatunError, GatunResult};

impl Calc {
    /// Evaluates one input batch (consumed: dropped, hence released, on every path)
    /// into an exported output batch.
    pub fn evaluate(&self, input: FFI_ArrowArray) -> GatunResult<FFI_ArrowArray> {
        let (batch, row_kind) = self.import(input)?;
        let (batch, row_kind) = self.apply_filter(batch, row_kind)?;
        let rows = batch.num_rows();
        let mut columns = Vec::with_capacity(self.output_fields.len());
        for p in &self.plan.projections {
            columns.push(project(p, &batch)?);
        }
        columns.extend(row_kind);
        for (field, column) in self.output_fields.iter().zip(&columns) {
            if !field.is_nullable() && column.null_count() > 0 {
                return Err(GatunError::execution(format!(
                    "output column `{}` is NOT NULL but the result has {} NULLs",
                    field.name(),
                    column.null_count()
                )));
            }
        }
        let output =
            self.output
                .assemble(&self.output_fields, columns, self.row_kind.is_some(), rows)?;
        Ok(export_owned(output.into_data()))
    }

    /// Checks and imports the input batch; splits off the row-kind column.
    fn import(&self, input: FFI_ArrowArray) -> GatunResult<(RecordBatch, Option<ArrayRef>)> {
        let mismatch = |what: String| {
            GatunError::new(
                GATUN_ERR_ARROW,
                format!("the input batch does not match the input schema: {what}"),
            )
        };
        // SAFETY: `input` is a live array moved in by the caller, whose pointers are
        // valid for the counts it declares (gatun_calc_evaluate's contract).
        let data = unsafe { import_array(&self.input_shape, input, "input") }.map_err(|e| match e {
            ImportError::Shape(e) => mismatch(self.name_field(&e)),
            ImportError::Import(e) => GatunError::arrow("cannot import the input batch", e),
            ImportError::Invalid(e) => GatunError::arrow("invalid input batch", e),
        })?;
        if data.null_count() > 0 {
            return Err(mismatch(format!(
                "the struct array has {} top-level nulls (a batch has none)",
                data.null_count()
            )));
        }
        for (field, child) in self.input_schema.fields().iter().zip(data.child_data()) {
            child.validate_full().map_err(|e| {
                GatunError::arrow(&format!("invalid input column `{}`", field.name()), e)
            })?;
        }
        let rows = data.len();
        let mut columns = StructArray::from(data).into_parts().1;
        let row_kind = self.row_kind.map(|i| columns.remove(i));
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        let batch =
            RecordBatch::try_new_with_options(Arc::clone(&self.plan_schema), columns, &options)
                .map_err(|e| mismatch(e.to_string()))?;
        Ok((batch, row_kind))
    }

    /// `input.children[3]: ...` → `field `name`: ...`.
    fn name_field(&self, message: &str) -> String {
        let index = message
            .strip_prefix("input.children[")
            .and_then(|rest| rest.split_once(']'))
            .and_then(|(i, rest)| Some((i.parse::<usize>().ok()?, rest)));
        match index {
            Some((i, rest)) if i < self.input_schema.fields().len() => {
                format!("field `{}`{rest}", self.input_schema.field(i).name())
            }
            _ => message.to_string(),
        }
    }

    /// Keeps the rows whose filter is TRUE (NULL counts as FALSE).
    fn apply_filter(
        &self,
        batch: RecordBatch,
        row_kind: Option<ArrayRef>,
    ) -> GatunResult<(RecordBatch, Option<ArrayRef>)> {
        let Some(f) = &self.plan.filter else {
            return Ok((batch, row_kind));
        };
        let predicate = f
            .physical
            .evaluate(&batch)
            .and_then(|v| v.into_array(batch.num_rows()))
            .map_err(|e| runtime_error(f, e))?;
        let Some(predicate) = predicate.as_boolean_opt() else {
            return Err(GatunError::execution(format!(
                "{} is not BOOLEAN",
                f.describe()
            )));
        };
        if predicate.null_count() == 0 && predicate.true_count() == predicate.len() {
            return Ok((batch, row_kind));
        }
        let selection = FilterBuilder::new(predicate).optimize().build();
        let filtered = |a: &ArrayRef| selection.filter(a.as_ref());
        let columns = batch
            .columns()
            .iter()
            .map(filtered)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| GatunError::execution(format!("filtering: {e}")))?;
        let options = RecordBatchOptions::new().with_row_count(Some(selection.count()));
        let batch = RecordBatch::try_new_with_options(batch.schema(), columns, &options)
            .map_err(|e| GatunError::execution(format!("filtering: {e}")))?;
        let row_kind = row_kind
            .map(|rk| filter(rk.as_ref(), predicate))
            .transpose()
            .map_err(|e| GatunError::execution(format!("filtering the row kinds: {e}")))?;
        Ok((batch, row_kind))
    }
}

/// Evaluates one projection over `batch` (nothing is evaluated for 0 rows).
fn project(p: &Compiled, batch: &RecordBatch) -> GatunResult<ArrayRef> {
    let rows = batch.num_rows();
    if rows == 0 {
        return Ok(new_empty_array(&p.data_type));
    }
    let array = p
        .physical
        .evaluate(batch)
        .and_then(|v| v.into_array(rows))
        .map_err(|e| runtime_error(p, e))?;
    if array.len() != rows || array.data_type() != &p.data_type {
        return Err(GatunError::execution(format!(
            "{} returned {} rows of {}, expected {rows} of {}",
            p.describe(),
            array.len(),
            array.data_type(),
            p.data_type
        )));
    }
    Ok(array)
}

fn runtime_error(p: &Compiled, e: DataFusionError) -> GatunError {
    let message = match e {
        DataFusionError::Execution(m) => m,
        other => other.strip_backtrace(),
    };
    GatunError::execution(format!("{}: {message}", p.describe()))
}
