//! The Calc kind: a Flink Calc (projections + optional filter), optionally preceded by
//! Flink's watermark assigner.
//!
//! Plan convention: the `ExtendedExpression` lists the projections in output order; the
//! filter, if any, is one more BOOLEAN expression named [`FILTER_NAME`]; a plan that
//! assigns watermarks also names [`ROWTIME_NAME`] and [`WATERMARK_NAME`] (see
//! [`super::watermark`]). None of the three is an output column.

use std::sync::Arc;

use arrow::array::{ArrayRef, BooleanArray, RecordBatch, StructArray};
use arrow::datatypes::{DataType, Field, Fields, Schema};
use datafusion::physical_expr::expressions::Column;
use datafusion::physical_expr::utils::collect_columns;

use super::filter::{apply_filter, predicate};
use super::output::{Output, OutputFormat};
use super::rowkind::{InputSchema, ROW_KIND_COLUMN};
use super::watermark::{
    Progress, WatermarkAssigner, ROWTIME_NAME, WATERMARK_COLUMN, WATERMARK_NAME,
};
use super::NativeOperator;
use crate::expr::{compile, Compiled, ROLE_PREFIX};
use crate::{GatunError, GatunResult};

/// The output name that marks the filter expression.
pub const FILTER_NAME: &str = "gatun.filter";

/// A compiled Calc.
#[derive(Debug)]
pub struct Calc {
    projections: Vec<Compiled>,
    filter: Option<Compiled>,
    watermarks: Option<WatermarkAssigner>,
    output: Output,
}

impl Calc {
    /// Compiles `plan` over `input` and checks the projections' types against
    /// `expected` (and, for Flink rows, that each has an encoding).
    pub fn create(
        plan: &[u8],
        input: &InputSchema,
        expected: &Schema,
        format: OutputFormat,
    ) -> GatunResult<Self> {
        for reserved in [ROW_KIND_COLUMN, WATERMARK_COLUMN] {
            if expected.fields().iter().any(|f| f.name() == reserved) {
                return Err(GatunError::invalid_argument(format!(
                    "argument `expected_output_schema` must not contain `{reserved}` \
                     (it is appended to the output)"
                )));
            }
        }
        let (projections, filter, watermarks) = split(compile(plan, &input.columns)?)?;
        let columns = output_fields(&projections, expected)?;
        let watermark_field = watermarks
            .as_ref()
            .map(|_| Arc::new(WatermarkAssigner::field()));
        let output = Output::new(format, columns, input.row_kind_field(), watermark_field)?;
        Ok(Calc {
            projections,
            filter,
            watermarks,
            output,
        })
    }

    /// The filter's result over `batch` (NULL keeps no row), if the plan has a filter.
    fn predicate(&self, batch: &RecordBatch) -> GatunResult<Option<BooleanArray>> {
        self.filter
            .as_ref()
            .map(|f| predicate(f, batch))
            .transpose()
    }
}

impl NativeOperator for Calc {
    fn output_fields(&self) -> &Fields {
        self.output.fields()
    }

    fn assigns_watermarks(&self) -> bool {
        self.watermarks.is_some()
    }

    fn process(
        &mut self,
        batch: RecordBatch,
        row_kind: Option<ArrayRef>,
        progress: Option<&mut Progress>,
    ) -> GatunResult<Option<StructArray>> {
        let predicate = self.predicate(&batch)?;
        let watermarks = match (&self.watermarks, progress) {
            (Some(assigner), Some(progress)) => {
                Some(assigner.assign(&batch, predicate.as_ref(), progress)?)
            }
            (None, None) => None,
            (assigner, _) => {
                return Err(GatunError::invalid_argument(format!(
                    "argument `progress` must be {} for this plan",
                    if assigner.is_some() {
                        "non-NULL"
                    } else {
                        "NULL"
                    }
                )))
            }
        };
        let (batch, row_kind) = match predicate {
            Some(p) => apply_filter(batch, row_kind, &p)?,
            None => (batch, row_kind),
        };
        let columns = self
            .projections
            .iter()
            .map(|p| p.evaluate(&batch))
            .collect::<GatunResult<Vec<_>>>()?;
        self.output
            .assemble(columns, row_kind, watermarks, batch.num_rows())
            .map(Some)
    }

    fn flush(&mut self) -> GatunResult<Option<StructArray>> {
        Ok(None)
    }

    /// Every column an expression reads, except through a bare column projection.
    fn reads_as_text(&self, columns: usize) -> Vec<bool> {
        let mut read = vec![false; columns];
        let copies = |c: &Compiled| c.physical.as_any().downcast_ref::<Column>().is_some();
        let projections = self.projections.iter().filter(|p| !copies(p));
        let filter = self.filter.iter();
        let watermarks = self.watermarks.iter().flat_map(|w| w.expressions());
        for c in projections.chain(filter).chain(watermarks) {
            for column in collect_columns(&c.physical) {
                if let Some(r) = read.get_mut(column.index()) {
                    *r = true;
                }
            }
        }
        read
    }
}

/// The projections, the filter and the watermark assigner of a Calc plan's expressions.
fn split(
    expressions: Vec<Compiled>,
) -> GatunResult<(Vec<Compiled>, Option<Compiled>, Option<WatermarkAssigner>)> {
    let mut projections = Vec::new();
    let (mut filter, mut rowtime, mut watermark) = (None, None, None);
    for compiled in expressions {
        let slot = match compiled.name.as_str() {
            FILTER_NAME => {
                if compiled.data_type != DataType::Boolean {
                    return Err(GatunError::plan(format!(
                        "{} is {}, expected BOOLEAN",
                        compiled.describe(),
                        compiled.data_type
                    )));
                }
                &mut filter
            }
            ROWTIME_NAME => &mut rowtime,
            WATERMARK_NAME => &mut watermark,
            name if name.starts_with(ROLE_PREFIX) => {
                return Err(GatunError::plan(format!(
                    "unknown expression `{name}`: a Calc plan names `{FILTER_NAME}`, \
                     `{ROWTIME_NAME}` and `{WATERMARK_NAME}` in the `{ROLE_PREFIX}` namespace"
                )))
            }
            _ => {
                projections.push(compiled);
                continue;
            }
        };
        if let Some(previous) = slot.replace(compiled) {
            return Err(GatunError::plan(format!(
                "more than one expression is named `{}`",
                previous.name
            )));
        }
    }
    let watermarks = match (rowtime, watermark) {
        (None, None) => None,
        (Some(r), Some(w)) => Some(WatermarkAssigner::new(r, w)?),
        (r, _) => {
            let (has, lacks) = if r.is_some() {
                (ROWTIME_NAME, WATERMARK_NAME)
            } else {
                (WATERMARK_NAME, ROWTIME_NAME)
            };
            return Err(GatunError::plan(format!(
                "the plan names `{has}` but not `{lacks}`: a plan that assigns watermarks \
                 names both"
            )));
        }
    };
    Ok((projections, filter, watermarks))
}

/// Expected names, nullability and metadata with the derived types, which must equal
/// the expected ones (nested field names aside): Rust never coerces.
fn output_fields(projections: &[Compiled], expected: &Schema) -> GatunResult<Fields> {
    let expected = expected.fields();
    if projections.len() != expected.len() {
        return Err(GatunError::plan(format!(
            "the plan has {} projections, the expected output schema has {} columns",
            projections.len(),
            expected.len()
        )));
    }
    projections
        .iter()
        .zip(expected.iter())
        .enumerate()
        .map(|(i, (p, e))| {
            if p.name != *e.name() {
                return Err(GatunError::plan(format!(
                    "output column {i}: the plan names it `{}`, the expected output schema `{}`",
                    p.name,
                    e.name()
                )));
            }
            if !p.data_type.equals_datatype(e.data_type()) {
                return Err(GatunError::plan(format!(
                    "{}: derived type {} differs from the expected type {} (Java must cast)",
                    p.describe(),
                    p.data_type,
                    e.data_type()
                )));
            }
            Ok(Arc::new(
                Field::new(e.name(), p.data_type.clone(), e.is_nullable())
                    .with_metadata(e.metadata().clone()),
            ))
        })
        .collect()
}
