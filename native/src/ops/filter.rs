//! The filter of a Calc part: evaluating it and keeping the rows it selects (NULL keeps
//! no row), with the row-kind column when there is one.

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, RecordBatch};
use arrow::compute::{filter, FilterBuilder};
use arrow::record_batch::RecordBatchOptions;

use crate::expr::Compiled;
use crate::{GatunError, GatunResult};

/// The value of the filter expression `f` over `batch`.
pub fn predicate(f: &Compiled, batch: &RecordBatch) -> GatunResult<BooleanArray> {
    let value = f.evaluate(batch)?;
    match value.as_boolean_opt() {
        Some(predicate) => Ok(predicate.clone()),
        None => Err(GatunError::execution(format!(
            "{} is not BOOLEAN",
            f.describe()
        ))),
    }
}

/// Keeps the rows whose `predicate` is TRUE (NULL counts as FALSE).
pub fn apply_filter(
    batch: RecordBatch,
    row_kind: Option<ArrayRef>,
    predicate: &BooleanArray,
) -> GatunResult<(RecordBatch, Option<ArrayRef>)> {
    if predicate.null_count() == 0 && predicate.true_count() == predicate.len() {
        return Ok((batch, row_kind));
    }
    let selection = FilterBuilder::new(predicate).optimize().build();
    let columns = batch
        .columns()
        .iter()
        .map(|a| selection.filter(a.as_ref()))
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
