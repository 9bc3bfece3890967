//! The output format of an operator handle (`gatun_operator_create`'s `output_format`)
//! and the assembly of its result batches.
//!
//! A result batch holds the output columns, then the row-kind column when the input has
//! one, then the watermark column when the plan assigns watermarks. In the Flink-rows
//! format the output columns and the row kind are encoded together into one Binary
//! column of Flink `BinaryRowData` rows; the watermark column stays a column.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, StructArray};
use arrow::datatypes::{DataType, Field, FieldRef, Fields};

use crate::ffi::abi::{GATUN_OUTPUT_ARROW, GATUN_OUTPUT_FLINK_ROWS};
use crate::flink_row::{self, ColumnKind, FLINK_ROW_COLUMN};
use crate::{GatunError, GatunResult};

/// The requested format, before the output types are known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    Arrow,
    FlinkRows,
}

impl OutputFormat {
    /// The `GATUN_OUTPUT_*` value, or `GATUN_ERR_INVALID_ARGUMENT`.
    pub fn from_abi(value: i32) -> GatunResult<Self> {
        match value {
            GATUN_OUTPUT_ARROW => Ok(Self::Arrow),
            GATUN_OUTPUT_FLINK_ROWS => Ok(Self::FlinkRows),
            other => Err(GatunError::invalid_argument(format!(
                "argument `output_format` is {other}; expected GATUN_OUTPUT_ARROW \
                 ({GATUN_OUTPUT_ARROW}) or GATUN_OUTPUT_FLINK_ROWS ({GATUN_OUTPUT_FLINK_ROWS})"
            ))),
        }
    }
}

/// How the output columns cross back.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Encoding {
    /// One Arrow column per output column.
    Arrow,
    /// One Binary column of Flink `BinaryRowData` rows; one encoding per output column.
    FlinkRows(Vec<ColumnKind>),
}

/// The shape of an operator's result batches.
#[derive(Debug, Clone)]
pub struct Output {
    encoding: Encoding,
    /// The output columns (names, nullability, metadata, types).
    columns: Fields,
    row_kind: Option<FieldRef>,
    watermarks: Option<FieldRef>,
    /// The fields of a result batch.
    fields: Fields,
}

impl Output {
    /// The output of `format` for `columns`, followed by `row_kind` and `watermarks`
    /// when given. Flink rows only when every column's type has an encoding (nested
    /// types have none).
    pub fn new(
        format: OutputFormat,
        columns: Fields,
        row_kind: Option<FieldRef>,
        watermarks: Option<FieldRef>,
    ) -> GatunResult<Self> {
        let encoding = match format {
            OutputFormat::Arrow => Encoding::Arrow,
            OutputFormat::FlinkRows => Encoding::FlinkRows(
                columns
                    .iter()
                    .map(|f| {
                        ColumnKind::of(f.data_type()).ok_or_else(|| {
                            GatunError::plan(format!(
                                "output column `{}` is {}: GATUN_OUTPUT_FLINK_ROWS writes flat \
                                 types only (ARRAY, MAP, MULTISET and ROW are not encoded); use \
                                 GATUN_OUTPUT_ARROW",
                                f.name(),
                                f.data_type()
                            ))
                        })
                    })
                    .collect::<GatunResult<_>>()?,
            ),
        };
        let mut fields: Vec<FieldRef> = match encoding {
            Encoding::Arrow => columns.iter().cloned().chain(row_kind.clone()).collect(),
            Encoding::FlinkRows(_) => {
                vec![Arc::new(Field::new(
                    FLINK_ROW_COLUMN,
                    DataType::Binary,
                    false,
                ))]
            }
        };
        fields.extend(watermarks.clone());
        Ok(Self {
            encoding,
            columns,
            row_kind,
            watermarks,
            fields: fields.into(),
        })
    }

    /// The fields of a result batch (the `+s` output schema).
    pub fn fields(&self) -> &Fields {
        &self.fields
    }

    /// The result batch of `rows` rows: `columns` (one per output column), `row_kind` and
    /// `watermarks` exactly when the output has them. A NULL in a NOT NULL column fails.
    pub fn assemble(
        &self,
        columns: Vec<ArrayRef>,
        row_kind: Option<ArrayRef>,
        watermarks: Option<ArrayRef>,
        rows: usize,
    ) -> GatunResult<StructArray> {
        if columns.len() != self.columns.len()
            || row_kind.is_some() != self.row_kind.is_some()
            || watermarks.is_some() != self.watermarks.is_some()
        {
            return Err(GatunError::execution(format!(
                "cannot assemble the output: {} columns, row kinds {}, watermarks {} for {} \
                 columns, row kinds {}, watermarks {}",
                columns.len(),
                row_kind.is_some(),
                watermarks.is_some(),
                self.columns.len(),
                self.row_kind.is_some(),
                self.watermarks.is_some()
            )));
        }
        let named = self.columns.iter().zip(&columns);
        for (field, column) in named.chain(self.row_kind.iter().zip(&row_kind)) {
            if !field.is_nullable() && column.null_count() > 0 {
                return Err(GatunError::execution(format!(
                    "output column `{}` is NOT NULL but the result has {} NULLs",
                    field.name(),
                    column.null_count()
                )));
            }
        }
        let mut arrays = match &self.encoding {
            Encoding::Arrow => columns.into_iter().chain(row_kind).collect(),
            Encoding::FlinkRows(kinds) => {
                let encoded = flink_row::encode(&columns, kinds, row_kind.as_ref(), rows)
                    .map_err(|e| GatunError::execution(format!("writing Flink rows: {e}")))?;
                vec![Arc::new(encoded) as ArrayRef]
            }
        };
        arrays.extend(watermarks);
        StructArray::try_new_with_length(self.fields.clone(), arrays, None, rows)
            .map_err(|e| GatunError::execution(format!("cannot assemble the output: {e}")))
    }
}
