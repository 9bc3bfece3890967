//! Building a [`Calc`] from the plan bytes and the two schemas of `gatun_calc_create`.

use std::sync::Arc;

use arrow::datatypes::{DataType, Field, Fields, Schema, SchemaRef};
use arrow::ffi::FFI_ArrowSchema;

use super::output::{Output, OutputFormat};
use super::plan::{compile, Plan};
use super::rowkind::{self, ROW_KIND_COLUMN};
use crate::c_shape::ShapePlan;
use crate::ffi_guard::{GatunError, GatunResult};

/// A compiled Calc: what a `GatunCalc` handle owns.
#[derive(Debug)]
pub struct Calc {
    /// The full input schema (row-kind column included).
    pub input_schema: SchemaRef,
    /// The shape of `Struct(input fields)`: the type every input batch must have.
    pub input_shape: ShapePlan,
    /// Index of the row-kind column in the input, if any.
    pub row_kind: Option<usize>,
    /// The input without the row-kind column: what the expressions see.
    pub plan_schema: SchemaRef,
    pub plan: Plan,
    /// The output columns (row-kind column last, if any).
    pub output_fields: Fields,
    /// How result batches cross back.
    pub output: Output,
}

impl Calc {
    /// Imports the (borrowed) schemas, compiles the plan and checks the projections'
    /// types against the expected output schema (and, for Flink rows, that each has an
    /// encoding).
    pub fn create(
        plan: &[u8],
        input_schema: &FFI_ArrowSchema,
        expected_output_schema: &FFI_ArrowSchema,
        format: OutputFormat,
    ) -> GatunResult<Self> {
        let input = import_schema(input_schema, "input_schema")?;
        let expected = import_schema(expected_output_schema, "expected_output_schema")?;
        let row_kind = rowkind::find(&input, "input_schema")?;
        if expected
            .fields()
            .iter()
            .any(|f| f.name() == ROW_KIND_COLUMN)
        {
            return Err(GatunError::invalid_argument(format!(
                "argument `expected_output_schema` must not contain `{ROW_KIND_COLUMN}` \
                 (it is appended to the output)"
            )));
        }
        let plan_schema = rowkind::without(&input, row_kind);
        let plan = compile(plan, &plan_schema)?;
        let mut output_fields = output_fields(&plan, &expected)?;
        let output = Output::new(format, &output_fields)?;
        if let Some(index) = row_kind {
            output_fields.push(Arc::clone(&input.fields()[index]));
        }
        Ok(Calc {
            input_shape: ShapePlan::new(&DataType::Struct(input.fields().clone())),
            input_schema: input,
            row_kind,
            plan_schema,
            plan,
            output_fields: output_fields.into(),
            output,
        })
    }

    /// The output schema, as exported at create (`+s`: the output columns, row-kind
    /// column last, or the one Flink-row column).
    pub fn output_field(&self) -> Field {
        Field::new("", DataType::Struct(self.output.fields(&self.output_fields)), false)
    }
}

fn import_schema(schema: &FFI_ArrowSchema, argument: &str) -> GatunResult<SchemaRef> {
    Schema::try_from(schema).map(Arc::new).map_err(|e| {
        GatunError::arrow(
            &format!("invalid `{argument}` (must be a struct \"+s\" schema)"),
            e,
        )
    })
}

/// Expected names, nullability and metadata with the derived types, which must equal
/// the expected ones (nested field names aside): Rust never coerces.
fn output_fields(plan: &Plan, expected: &Schema) -> GatunResult<Vec<Arc<Field>>> {
    let expected = expected.fields();
    if plan.projections.len() != expected.len() {
        return Err(GatunError::plan(format!(
            "the plan has {} projections, the expected output schema has {} columns",
            plan.projections.len(),
            expected.len()
        )));
    }
    plan.projections
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
