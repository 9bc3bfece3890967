//! The one import of an operator's input batches, for every kind: a `+s` struct array
//! moved in by the caller, shape-checked and imported without copying, its columns
//! validated (UTF-8 only where the operator reads text, see [`super::text_check`]), the
//! row-kind column split off.

use std::sync::Arc;

use arrow::array::{ArrayRef, RecordBatch, StructArray};
use arrow::datatypes::DataType;
use arrow::ffi::FFI_ArrowArray;
use arrow::record_batch::RecordBatchOptions;

use super::abi::GATUN_ERR_ARROW;
use super::c_shape::ShapePlan;
use super::import::{import_array, ImportError};
use super::text_check;
use crate::ops::rowkind::InputSchema;
use crate::{GatunError, GatunResult};

/// The input side of a handle: its schema and the shape every batch must have.
#[derive(Debug)]
pub struct BatchImport {
    schema: InputSchema,
    shape: ShapePlan,
    /// Per field of the full schema: whether its strings must be valid UTF-8.
    read_as_text: Vec<bool>,
}

impl BatchImport {
    /// `read_as_text` has one flag per column of `schema.columns` (the row-kind column,
    /// Int8, has no text).
    pub fn new(schema: InputSchema, read_as_text: &[bool]) -> Self {
        let shape = ShapePlan::new(&DataType::Struct(schema.full.fields().clone()));
        let mut flags = read_as_text.to_vec();
        flags.resize(schema.columns.fields().len(), true);
        if let Some(i) = schema.row_kind {
            flags.insert(i, false);
        }
        Self {
            schema,
            shape,
            read_as_text: flags,
        }
    }

    /// Checks and imports one batch (consumed: dropped, hence released, on every path);
    /// returns the columns the plan reads and the row-kind column, if any.
    pub fn import(&self, input: FFI_ArrowArray) -> GatunResult<(RecordBatch, Option<ArrayRef>)> {
        let mismatch = |what: String| {
            GatunError::new(
                GATUN_ERR_ARROW,
                format!("the input batch does not match the input schema: {what}"),
            )
        };
        // SAFETY: `input` is a live array moved in by the caller, whose pointers are
        // valid for the counts it declares (gatun_operator_process's contract).
        let data = unsafe { import_array(&self.shape, input, "input") }.map_err(|e| match e {
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
        let fields = self.schema.full.fields().iter().zip(&self.read_as_text);
        for ((field, text), child) in fields.zip(data.child_data()) {
            text_check::validate(child, *text).map_err(|e| {
                GatunError::arrow(&format!("invalid input column `{}`", field.name()), e)
            })?;
        }
        let rows = data.len();
        let mut columns = StructArray::from(data).into_parts().1;
        let row_kind = self.schema.row_kind.map(|i| columns.remove(i));
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        let batch =
            RecordBatch::try_new_with_options(Arc::clone(&self.schema.columns), columns, &options)
                .map_err(|e| mismatch(e.to_string()))?;
        Ok((batch, row_kind))
    }

    /// `input.children[3]: ...` → `field `name`: ...`.
    fn name_field(&self, message: &str) -> String {
        let fields = self.schema.full.fields();
        let index = message
            .strip_prefix("input.children[")
            .and_then(|rest| rest.split_once(']'))
            .and_then(|(i, rest)| Some((i.parse::<usize>().ok()?, rest)));
        match index {
            Some((i, rest)) if i < fields.len() => format!("field `{}`{rest}", fields[i].name()),
            _ => message.to_string(),
        }
    }
}
