//! The row-kind sidecar column of changelog inputs.
//!
//! An input whose schema has a top-level field `__gatun_row_kind` (Int8, Flink's
//! `RowKind.toByteValue()`) carries each row's kind. The plan never references it: it
//! is removed before the expressions see the batch, goes through the filter with its
//! rows and is appended after the output columns (also in the output schema; the
//! caller's expected output schema excludes it).

use std::sync::Arc;

use arrow::datatypes::{DataType, FieldRef, Schema, SchemaRef};

use crate::{GatunError, GatunResult};

/// Name of the row-kind column.
pub const ROW_KIND_COLUMN: &str = "__gatun_row_kind";

/// An operator's input schema, split into the row-kind column and the columns the plan
/// reads.
#[derive(Debug, Clone)]
pub struct InputSchema {
    /// The full input schema (row-kind column included).
    pub full: SchemaRef,
    /// The index of the row-kind column in `full`, if any.
    pub row_kind: Option<usize>,
    /// `full` without the row-kind column: what the plan's expressions see.
    pub columns: SchemaRef,
}

impl InputSchema {
    /// Splits `full`; `argument` names it in messages.
    pub fn new(full: SchemaRef, argument: &str) -> GatunResult<Self> {
        let row_kind = find(&full, argument)?;
        let columns = without(&full, row_kind);
        Ok(Self {
            full,
            row_kind,
            columns,
        })
    }

    /// The row-kind field, if the input has one.
    pub fn row_kind_field(&self) -> Option<FieldRef> {
        self.row_kind.map(|i| Arc::clone(&self.full.fields()[i]))
    }
}

/// Index of the row-kind column of `schema`, if any; it must be unique and Int8.
pub fn find(schema: &Schema, argument: &str) -> GatunResult<Option<usize>> {
    let mut found = schema
        .fields()
        .iter()
        .enumerate()
        .filter(|(_, f)| f.name() == ROW_KIND_COLUMN);
    let Some((index, field)) = found.next() else {
        return Ok(None);
    };
    if found.next().is_some() {
        return Err(GatunError::invalid_argument(format!(
            "argument `{argument}` has more than one `{ROW_KIND_COLUMN}` column"
        )));
    }
    if field.data_type() != &DataType::Int8 {
        return Err(GatunError::invalid_argument(format!(
            "argument `{argument}`: column `{ROW_KIND_COLUMN}` is {}, expected Int8",
            field.data_type()
        )));
    }
    Ok(Some(index))
}

/// `schema` without the column at `row_kind` (the schema the plan is written against).
pub fn without(schema: &SchemaRef, row_kind: Option<usize>) -> SchemaRef {
    match row_kind {
        None => Arc::clone(schema),
        Some(index) => {
            let fields: Vec<_> = schema
                .fields()
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != index)
                .map(|(_, f)| Arc::clone(f))
                .collect();
            Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()))
        }
    }
}
