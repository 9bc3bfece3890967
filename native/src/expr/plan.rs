//! From Substrait `ExtendedExpression` bytes to compiled physical expressions.
//!
//! Each of `referred_expr` is named by the first of its `output_names`; what the names
//! mean (output columns, `gatun.filter` ...) is the operator kind's convention
//! (`ops::calc`). `base_schema` must describe the input
//! (without the row-kind column) column by column: same names, and types equal up to
//! what Substrait cannot carry (nested field names and nullability). Expressions are
//! resolved against the real Arrow input schema, so the Arrow types (`Time32(ms)`,
//! `Duration(ms)` ...) are the caller's, not Substrait's approximation.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use arrow::datatypes::{DataType, SchemaRef};
use datafusion::common::DFSchema;
use datafusion::execution::session_state::{SessionState, SessionStateBuilder};
use datafusion::logical_expr::execution_props::ExecutionProps;
use datafusion::logical_expr::{Expr, ExprSchemable};
use datafusion::physical_expr::create_physical_expr;
use datafusion_substrait::extensions::Extensions;
use datafusion_substrait::logical_plan::consumer::{
    from_substrait_named_struct, DefaultSubstraitConsumer, SubstraitConsumer,
};
use datafusion_substrait::substrait::proto::expression_reference::ExprType;
use datafusion_substrait::substrait::proto::ExtendedExpression;
use prost::Message;

use super::compiled::{describe, Compiled};
use super::guard::guard;
use super::switch;
use super::validate::validate;
use crate::udf;
use crate::{GatunError, GatunResult};

/// Decodes, consumes, admits and compiles `bytes` against `schema` (the input
/// without the row-kind column): every referred expression, in the plan's order.
pub fn compile(bytes: &[u8], schema: &SchemaRef) -> GatunResult<Vec<Compiled>> {
    let plan = ExtendedExpression::decode(bytes).map_err(|e| {
        GatunError::plan(format!(
            "malformed plan: not a Substrait ExtendedExpression ({e})"
        ))
    })?;
    compile_expressions(&plan, schema)
}

/// [`compile`] of an already decoded `ExtendedExpression` (operator kinds whose plans are
/// relations build one from their expressions).
pub fn compile_expressions(
    plan: &ExtendedExpression,
    schema: &SchemaRef,
) -> GatunResult<Vec<Compiled>> {
    let df_schema = DFSchema::try_from(Arc::clone(schema))
        .map_err(|e| GatunError::plan(format!("input schema: {}", e.strip_backtrace())))?;
    let state = session();
    consume(plan, &df_schema, &state)?
        .into_iter()
        .map(|(name, expr)| {
            let what = format!("`{name}`");
            no_panic(&what, || admit(name, &expr, &df_schema))?
        })
        .collect()
}

/// The session the consumer resolves function names in: Gatun functions only.
fn session() -> SessionState {
    SessionStateBuilder::new()
        .with_scalar_functions(udf::all())
        .build()
}

/// Consumes every referred expression into a named logical `Expr`.
fn consume(
    plan: &ExtendedExpression,
    df_schema: &DFSchema,
    state: &SessionState,
) -> GatunResult<Vec<(String, Expr)>> {
    let bad = |what: String| GatunError::plan(format!("malformed plan: {what}"));
    let extensions = Extensions::try_from(&plan.extensions)
        .map_err(|e| bad(format!("extensions: {}", e.strip_backtrace())))?;
    if !extensions.type_variations.is_empty() {
        return Err(bad("type variation extensions are not supported".into()));
    }
    let consumer = DefaultSubstraitConsumer::new(&extensions, state);
    let base = plan
        .base_schema
        .as_ref()
        .ok_or_else(|| bad("base_schema is missing".into()))?;
    let base = no_panic("base_schema", || {
        from_substrait_named_struct(&consumer, base)
    })?
    .map_err(|e| bad(format!("base_schema: {}", e.strip_backtrace())))?;
    check_base_schema(&base, df_schema)?;

    let mut out = Vec::with_capacity(plan.referred_expr.len());
    for (i, reference) in plan.referred_expr.iter().enumerate() {
        let name = reference
            .output_names
            .first()
            .cloned()
            .ok_or_else(|| bad(format!("expression {i} has no output name")))?;
        let expression = match &reference.expr_type {
            Some(ExprType::Expression(e)) => e,
            Some(ExprType::Measure(_)) => {
                return Err(bad(format!("expression {i} `{name}` is a measure")))
            }
            None => return Err(bad(format!("expression {i} `{name}` is empty"))),
        };
        let consumed = no_panic(&format!("expression {i} `{name}`"), || {
            futures::executor::block_on(consumer.consume_expression(expression, df_schema))
        })?
        .map_err(|e| {
            GatunError::plan(format!("expression {i} `{name}`: {}", e.strip_backtrace()))
        })?;
        out.push((name, consumed));
    }
    Ok(out)
}

/// Runs `f`, turning a panic of the Substrait consumer (it unwraps some required
/// fields) into a plan error.
fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> GatunResult<T> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        GatunError::plan(format!("malformed plan at {what}: {text}"))
    })
}

/// `base_schema` must name the input's columns in order, with the same types up to
/// nested field names and nullability (which Substrait cannot always carry).
fn check_base_schema(base: &DFSchema, input: &DFSchema) -> GatunResult {
    let (base, input) = (base.fields(), input.fields());
    if base.len() != input.len() {
        return Err(GatunError::plan(format!(
            "base_schema has {} columns, the input schema (without the row kind) has {}",
            base.len(),
            input.len()
        )));
    }
    for (i, (b, a)) in base.iter().zip(input.iter()).enumerate() {
        if b.name() != a.name() || !same_shape(b.data_type(), a.data_type()) {
            return Err(GatunError::plan(format!(
                "base_schema column {i} is `{}` {}, the input column is `{}` {}",
                b.name(),
                b.data_type(),
                a.name(),
                a.data_type()
            )));
        }
    }
    Ok(())
}

/// Equal types, ignoring nested field names and nullability.
fn same_shape(a: &DataType, b: &DataType) -> bool {
    use DataType::*;
    match (a, b) {
        (List(x), List(y)) | (LargeList(x), LargeList(y)) => {
            same_shape(x.data_type(), y.data_type())
        }
        // Map entries: (key, value), whatever the entry field names.
        (Map(x, _), Map(y, _)) => match (x.data_type(), y.data_type()) {
            (Struct(x), Struct(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|(f, g)| same_shape(f.data_type(), g.data_type()))
            }
            _ => false,
        },
        (FixedSizeList(x, n), FixedSizeList(y, m)) => {
            n == m && same_shape(x.data_type(), y.data_type())
        }
        (Struct(x), Struct(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(f, g)| f.name() == g.name() && same_shape(f.data_type(), g.data_type()))
        }
        _ => a == b,
    }
}

/// Admits one expression and compiles it to a guarded physical expression.
fn admit(name: String, expr: &Expr, schema: &DFSchema) -> GatunResult<Compiled> {
    let rendering = expr.to_string();
    let describe = |name: &str| describe(name, &rendering);
    validate(expr, schema)
        .map_err(|why| GatunError::plan(format!("{}: {why}", describe(&name))))?;
    // literal arguments some functions take once per plan (REGEXP_EXTRACT's pattern)
    let expr = &udf::bind(expr.clone())
        .map_err(|why| GatunError::plan(format!("{}: {why}", describe(&name))))?;
    let data_type = expr
        .get_type(schema)
        .map_err(|e| GatunError::plan(format!("{}: {}", describe(&name), e.strip_backtrace())))?;
    let physical = create_physical_expr(expr, schema, &ExecutionProps::new())
        .and_then(guard)
        .and_then(|e| switch::specialize(e, schema.as_arrow()))
        .map_err(|e| GatunError::plan(format!("{}: {}", describe(&name), e.strip_backtrace())))?;
    let physical_type = physical
        .data_type(schema.as_arrow())
        .map_err(|e| GatunError::plan(format!("{}: {}", describe(&name), e.strip_backtrace())))?;
    if physical_type != data_type {
        return Err(GatunError::plan(format!(
            "{}: planned as {physical_type} but typed as {data_type}",
            describe(&name)
        )));
    }
    Ok(Compiled {
        name,
        rendering,
        data_type,
        physical,
    })
}
