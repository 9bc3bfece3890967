//! The output format of a Calc handle (`gatun_calc_create`'s `output_format`).

use std::sync::Arc;

use arrow::array::{ArrayRef, StructArray};
use arrow::datatypes::{DataType, Field, Fields};

use crate::abi::{GATUN_OUTPUT_ARROW, GATUN_OUTPUT_FLINK_ROWS};
use crate::ffi_guard::{GatunError, GatunResult};
use crate::flink_row::{self, ColumnKind, FLINK_ROW_COLUMN};

/// How result batches cross back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// One Arrow column per projection (row-kind column last).
    Arrow,
    /// One Binary column of Flink `BinaryRowData` rows; one encoding per projection.
    FlinkRows(Vec<ColumnKind>),
}

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

impl Output {
    /// The output of `format` for the projections `fields` (row-kind column excluded):
    /// Flink rows only when every type has an encoding (nested types have none).
    pub fn new(format: OutputFormat, fields: &[Arc<Field>]) -> GatunResult<Self> {
        if format == OutputFormat::Arrow {
            return Ok(Self::Arrow);
        }
        let kinds = fields
            .iter()
            .map(|f| {
                ColumnKind::of(f.data_type()).ok_or_else(|| {
                    GatunError::plan(format!(
                        "output column `{}` is {}: GATUN_OUTPUT_FLINK_ROWS writes flat types only \
                         (ARRAY, MAP, MULTISET and ROW are not encoded); use GATUN_OUTPUT_ARROW",
                        f.name(),
                        f.data_type()
                    ))
                })
            })
            .collect::<GatunResult<_>>()?;
        Ok(Self::FlinkRows(kinds))
    }

    /// The fields of a result batch: `columns` (row-kind column included) for Arrow.
    pub fn fields(&self, columns: &Fields) -> Fields {
        match self {
            Self::Arrow => columns.clone(),
            Self::FlinkRows(_) => {
                Fields::from(vec![Field::new(FLINK_ROW_COLUMN, DataType::Binary, false)])
            }
        }
    }

    /// The result batch of `columns` (of `fields`, the row-kind column last when
    /// `with_row_kind`): the columns themselves, or their Flink rows.
    pub fn assemble(
        &self,
        fields: &Fields,
        mut columns: Vec<ArrayRef>,
        with_row_kind: bool,
        rows: usize,
    ) -> GatunResult<StructArray> {
        let columns = match self {
            Self::Arrow => columns,
            Self::FlinkRows(kinds) => {
                let row_kind = if with_row_kind { columns.pop() } else { None };
                let encoded = flink_row::encode(&columns, kinds, row_kind.as_ref(), rows)
                    .map_err(|e| GatunError::execution(format!("writing Flink rows: {e}")))?;
                vec![Arc::new(encoded) as ArrayRef]
            }
        };
        StructArray::try_new_with_length(self.fields(fields), columns, None, rows)
            .map_err(|e| GatunError::execution(format!("cannot assemble the output: {e}")))
    }
}
