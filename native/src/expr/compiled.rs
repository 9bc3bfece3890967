//! One compiled, named expression and its evaluation over a batch.

use std::sync::Arc;

use arrow::array::{new_empty_array, Array, ArrayRef};
use arrow::datatypes::DataType;
use arrow::record_batch::RecordBatch;
use datafusion::error::DataFusionError;
use datafusion::physical_expr::PhysicalExpr;

use crate::{GatunError, GatunResult};

/// The namespace of names that give an expression a role instead of making it an output
/// column (`gatun.filter`, `gatun.rowtime`, ...).
pub const ROLE_PREFIX: &str = "gatun.";

/// One compiled expression.
#[derive(Debug)]
pub struct Compiled {
    /// Output column name, or a role (`gatun.filter` ...).
    pub name: String,
    /// The logical expression as text, for error messages.
    pub rendering: String,
    pub data_type: DataType,
    pub physical: Arc<dyn PhysicalExpr>,
}

impl Compiled {
    /// `projection `a` (a + b)` / `filter (a > 1)`, for messages.
    pub fn describe(&self) -> String {
        describe(&self.name, &self.rendering)
    }

    /// Evaluates the expression over `batch` into one value per row (nothing is evaluated
    /// for 0 rows). A runtime error names the expression.
    pub fn evaluate(&self, batch: &RecordBatch) -> GatunResult<ArrayRef> {
        let rows = batch.num_rows();
        if rows == 0 {
            return Ok(new_empty_array(&self.data_type));
        }
        let array = self
            .physical
            .evaluate(batch)
            .and_then(|v| v.into_array(rows))
            .map_err(|e| self.runtime_error(e))?;
        if array.len() != rows || array.data_type() != &self.data_type {
            return Err(GatunError::execution(format!(
                "{} returned {} rows of {}, expected {rows} of {}",
                self.describe(),
                array.len(),
                array.data_type(),
                self.data_type
            )));
        }
        Ok(array)
    }

    fn runtime_error(&self, e: DataFusionError) -> GatunError {
        let message = match e {
            DataFusionError::Execution(m) => m,
            other => other.strip_backtrace(),
        };
        GatunError::execution(format!("{}: {message}", self.describe()))
    }
}

/// `projection `name` (rendering)`, or `<role> (rendering)` for a name in the
/// [`ROLE_PREFIX`] namespace.
pub fn describe(name: &str, rendering: &str) -> String {
    match name.strip_prefix(ROLE_PREFIX) {
        Some(role) => format!("{role} ({rendering})"),
        None => format!("projection `{name}` ({rendering})"),
    }
}
