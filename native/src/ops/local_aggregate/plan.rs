//! The Substrait plan of a local aggregate: a `Plan` with one root relation
//!
//! ```text
//! RelRoot(names) ── AggregateRel(groupings, measures)  optional emit: a window aggregate's
//!                     │                                 output projection
//!                     └─ ProjectRel(expressions)      optional: the Calc's projections
//!                         └─ FilterRel(condition)     optional: the Calc's filter
//!                             └─ ReadRel(base_schema) the input batches
//! ```
//!
//! The AggregateRel may carry an `Emit` (`RelCommon.emit.output_mapping`) that projects its
//! output ([`AggregatePlan::emit`]): only a window aggregate admits one, so that a
//! projection-only Flink Calc above it (reordering, duplicating or dropping columns; Flink
//! reads the result by position, so a rename needs nothing) is fused into its exit. Every
//! other relation emits its fields as they are (the ProjectRel may remap its own).
//!
//! The aggregate's `advanced_extension` may carry two optimizations, each a
//! `google.protobuf.UInt64Value` told apart by its type URL:
//! - [`BUNDLE_ROWS_TYPE_URL`]: the bundle size of Flink's streaming local phase
//!   (`table.exec.mini-batch.size`), after which many rows reaching the aggregate (past the
//!   filter) its groups are emitted;
//! - [`GROUP_LIMIT_TYPE_URL`]: the groups a batch local phase may hold; once a folded input
//!   batch leaves at least that many, they are emitted (Flink's batch local hash aggregate
//!   emits its groups when its memory is full).
//!
//! Both change when groups leave, never what the global phase ends with, so they are
//! optimizations in Substrait's sense; other optimizations are ignored.
//!
//! Every measure (`count`, `sum`, `sum0`, `avg`, `min`, `max`) is an `AggregateFunction` in phase `INITIAL_TO_INTERMEDIATE` (Flink's local
//! phase), invocation ALL, no sorts, arguments and FILTER given as field references into the
//! aggregate's input. Group keys are field references too. The Calc part becomes an
//! `ExtendedExpression` over the same base schema and extensions, so it compiles exactly as a
//! Calc plan does (`expr::compile_expressions`).

use datafusion_substrait::extensions::Extensions;
use datafusion_substrait::substrait::proto::aggregate_function::AggregationInvocation;
use datafusion_substrait::substrait::proto::aggregate_rel::Measure;
use datafusion_substrait::substrait::proto::expression::field_reference::{
    ReferenceType, RootType,
};
use datafusion_substrait::substrait::proto::expression::reference_segment::{self, StructField};
use datafusion_substrait::substrait::proto::expression::{
    FieldReference, ReferenceSegment, RexType,
};
use datafusion_substrait::substrait::proto::expression_reference::ExprType;
use datafusion_substrait::substrait::proto::function_argument::ArgType;
use datafusion_substrait::substrait::proto::plan_rel::RelType as PlanRelType;
use datafusion_substrait::substrait::proto::rel::RelType;
use datafusion_substrait::substrait::proto::rel_common::EmitKind;
use datafusion_substrait::substrait::proto::{
    AggregateRel, AggregationPhase, Expression, ExpressionReference, ExtendedExpression,
    NamedStruct, Plan, Rel, RelCommon,
};
use prost::Message;

use super::window_plan::{self, WindowPlan, WINDOW_TYPE_URL};
use crate::aggregate::AggFunction;
use crate::ops::calc::FILTER_NAME;
use crate::ops::watermark::WATERMARK_NAME;
use crate::{GatunError, GatunResult};

/// One measure: the function, its argument column and FILTER column (indices into the
/// aggregate's input, i.e. the project's output).
#[derive(Debug, Clone, PartialEq)]
pub struct MeasureRef {
    pub function: AggFunction,
    /// Substrait's `sum0` (Calcite's `$SUM0`): a SUM that is 0, never NULL, over no values.
    pub zero_when_empty: bool,
    /// The first argument (none: COUNT(*) in the initial phases).
    pub argument: Option<usize>,
    /// Every argument, in order (a global AVG has two: its sum and count accumulators).
    pub arguments: Vec<usize>,
    pub filter: Option<usize>,
    /// The Substrait `AggregationPhase` value.
    pub phase: i32,
    /// The function's name as the plan declares it, for messages.
    pub declared: String,
}

impl MeasureRef {
    /// Fails naming measure `i` unless it runs in `phase` (`who` says which kind requires it).
    pub fn require_phase(&self, i: usize, phase: AggregationPhase, who: &str) -> GatunResult {
        if self.phase == phase as i32 {
            return Ok(());
        }
        Err(GatunError::plan(format!(
            "measure {i} ({}): phase {} is not admitted; {who} runs {}",
            self.declared,
            phase_name(self.phase),
            phase.as_str_name()
        )))
    }
}

/// The name of a Substrait `AggregationPhase` value.
pub fn phase_name(phase: i32) -> String {
    AggregationPhase::try_from(phase)
        .map(|p| p.as_str_name().to_string())
        .unwrap_or_else(|_| phase.to_string())
}

/// A decoded local-aggregate plan.
#[derive(Debug)]
pub struct AggregatePlan {
    /// The aggregate's input columns (named `$0`, `$1` ...), then the filter if any
    /// (named `gatun.filter`), then an absorbed WatermarkAssigner's watermark if any (named
    /// `gatun.watermark`), as one `ExtendedExpression` over the base schema.
    pub calc: ExtendedExpression,
    /// How many of `calc`'s expressions are input columns of the aggregate.
    pub columns: usize,
    pub keys: Vec<usize>,
    pub measures: Vec<MeasureRef>,
    /// The root's output names (may be empty).
    pub names: Vec<String>,
    /// Emit the groups after this many rows reached the aggregate, if given.
    pub bundle_rows: Option<u64>,
    /// For a local window aggregate, how rows are sliced ([`super::window_plan`]).
    pub window: Option<WindowPlan>,
    /// Emit the groups once at least this many are held after a batch, if given.
    pub group_limit: Option<u64>,
    /// The AggregateRel's output mapping (`RelCommon.emit.output_mapping`), if it remaps its
    /// output: output column j is the aggregate's column `emit[j]`. Only a window aggregate
    /// admits one (a projection-only Calc above it fused into its exit).
    pub emit: Option<Vec<usize>>,
}

/// The type URL of the bundle-size optimization.
pub const BUNDLE_ROWS_TYPE_URL: &str = "type.googleapis.com/google.protobuf.UInt64Value";

/// The type URL of the group-limit optimization (a `google.protobuf.UInt64Value` message under
/// Gatun's own name, so that it is not mistaken for the bundle size).
pub const GROUP_LIMIT_TYPE_URL: &str = "type.gatun.dev/gatun.aggregate.GroupLimit";

fn bad(what: impl std::fmt::Display) -> GatunError {
    GatunError::plan(format!("malformed local aggregate plan: {what}"))
}

/// The name of the aggregate's input column `i` in the compiled Calc part.
pub fn column_name(i: usize) -> String {
    format!("${i}")
}

/// Decodes and checks the plan shape (not the types: those are known once compiled).
pub fn decode(bytes: &[u8]) -> GatunResult<AggregatePlan> {
    let plan = Plan::decode(bytes).map_err(|e| bad(format!("not a Substrait Plan ({e})")))?;
    let [relation] = plan.relations.as_slice() else {
        return Err(bad(format!(
            "{} relations; expected one root relation",
            plan.relations.len()
        )));
    };
    let Some(PlanRelType::Root(root)) = &relation.rel_type else {
        return Err(bad("the relation is not a RelRoot"));
    };
    let aggregate = match rel_type(root.input.as_ref(), "the root's input")? {
        RelType::Aggregate(a) => a.as_ref(),
        other => {
            return Err(bad(format!(
                "the root's input is a {}; expected an AggregateRel",
                rel_name(other)
            )))
        }
    };
    let emit = output_mapping(aggregate.common.as_ref())?;
    let (base_schema, projections, filter) = calc_part(aggregate.input.as_deref())?;
    let columns = projections.len();
    let keys = keys(aggregate, columns)?;
    let extensions = Extensions::try_from(&plan.extensions)
        .map_err(|e| bad(format!("extensions: {}", e.strip_backtrace())))?;
    let measures = aggregate
        .measures
        .iter()
        .enumerate()
        .map(|(i, m)| measure(i, m, &extensions, columns))
        .collect::<GatunResult<Vec<_>>>()?;
    if keys.is_empty() && measures.is_empty() {
        return Err(bad("the AggregateRel has neither group keys nor measures"));
    }
    let mut referred: Vec<ExpressionReference> = projections
        .into_iter()
        .enumerate()
        .map(|(i, e)| reference(e, column_name(i)))
        .collect();
    referred.extend(filter.map(|f| reference(f, FILTER_NAME.to_string())));
    let window = window(aggregate, columns)?;
    if let Some(assigner) = window.as_ref().and_then(|w| w.mini_batch.as_ref()) {
        referred.push(reference(
            assigner.watermark.clone(),
            WATERMARK_NAME.to_string(),
        ));
    }
    #[allow(deprecated)]
    let calc = ExtendedExpression {
        version: plan.version.clone(),
        extension_uris: plan.extension_uris.clone(),
        extension_urns: plan.extension_urns.clone(),
        extensions: plan.extensions.clone(),
        referred_expr: referred,
        base_schema: Some(base_schema),
        advanced_extensions: None,
        expected_type_urls: Vec::new(),
    };
    Ok(AggregatePlan {
        calc,
        columns,
        keys,
        measures,
        names: root.names.clone(),
        bundle_rows: optimization(aggregate, BUNDLE_ROWS_TYPE_URL, "the bundle size")?,
        group_limit: optimization(aggregate, GROUP_LIMIT_TYPE_URL, "the group limit")?,
        window,
        emit,
    })
}

/// The window enhancement, if the aggregate has one.
fn window(aggregate: &AggregateRel, columns: usize) -> GatunResult<Option<WindowPlan>> {
    let Some(any) = aggregate
        .advanced_extension
        .as_ref()
        .and_then(|e| e.enhancement.as_ref())
    else {
        return Ok(None);
    };
    if any.type_url != WINDOW_TYPE_URL {
        return Err(bad(format!(
            "the AggregateRel has an enhancement of type {} (it would change the semantics), \
             which Gatun does not know; the one it knows is {WINDOW_TYPE_URL}",
            any.type_url
        )));
    }
    let window = window_plan::decode(&any.value)?;
    if window.time_column >= columns {
        return Err(bad(format!(
            "the window's time column is {}, but the aggregate's input has {columns}",
            window.time_column
        )));
    }
    Ok(Some(window))
}

/// The positive `UInt64Value` of the aggregate's optimization `type_url`, if one is given.
fn optimization(aggregate: &AggregateRel, type_url: &str, what: &str) -> GatunResult<Option<u64>> {
    let Some(extension) = &aggregate.advanced_extension else {
        return Ok(None);
    };
    let mut found = None;
    for any in extension
        .optimization
        .iter()
        .filter(|a| a.type_url == type_url)
    {
        // UInt64Value { uint64 value = 1; }; a missing field is 0
        let mut buf: &[u8] = &any.value;
        let mut value = 0;
        while !buf.is_empty() {
            let key = prost::encoding::decode_varint(&mut buf)
                .map_err(|e| bad(format!("{what}: {e}")))?;
            if key != 0x08 {
                return Err(bad(format!("{what} has an unknown field (key {key})")));
            }
            value = prost::encoding::decode_varint(&mut buf)
                .map_err(|e| bad(format!("{what}: {e}")))?;
        }
        if value == 0 {
            return Err(bad(format!("{what} is 0; it must be positive")));
        }
        found = Some(value);
    }
    Ok(found)
}

fn reference(expression: Expression, name: String) -> ExpressionReference {
    ExpressionReference {
        output_names: vec![name],
        expr_type: Some(ExprType::Expression(expression)),
    }
}

fn rel_type<'a>(rel: Option<&'a Rel>, what: &str) -> GatunResult<&'a RelType> {
    rel.and_then(|r| r.rel_type.as_ref())
        .ok_or_else(|| bad(format!("{what} is missing")))
}

fn rel_name(rel: &RelType) -> &'static str {
    match rel {
        RelType::Read(_) => "ReadRel",
        RelType::Filter(_) => "FilterRel",
        RelType::Project(_) => "ProjectRel",
        RelType::Aggregate(_) => "AggregateRel",
        _ => "relation Gatun does not run in a local aggregate",
    }
}

/// A relation must emit its fields as they are (no `Emit` remapping), except the project and
/// the aggregate ([`output_mapping`]).
fn direct(common: Option<&RelCommon>, what: &str) -> GatunResult {
    match common.and_then(|c| c.emit_kind.as_ref()) {
        None | Some(EmitKind::Direct(_)) => Ok(()),
        Some(EmitKind::Emit(_)) => Err(bad(format!("the {what} remaps its output (emit)"))),
    }
}

/// The AggregateRel's output mapping, if it has an `Emit` (`None` for none or `Direct`).
fn output_mapping(common: Option<&RelCommon>) -> GatunResult<Option<Vec<usize>>> {
    match common.and_then(|c| c.emit_kind.as_ref()) {
        None | Some(EmitKind::Direct(_)) => Ok(None),
        Some(EmitKind::Emit(emit)) => emit
            .output_mapping
            .iter()
            .enumerate()
            .map(|(j, &i)| {
                usize::try_from(i).map_err(|_| {
                    bad(format!(
                        "the AggregateRel's emit maps output column {j} to field {i}; a field \
                         index is >= 0"
                    ))
                })
            })
            .collect::<GatunResult<Vec<_>>>()
            .map(Some),
    }
}

/// The base schema, the aggregate's input columns as expressions over it, and the filter.
fn calc_part(
    input: Option<&Rel>,
) -> GatunResult<(NamedStruct, Vec<Expression>, Option<Expression>)> {
    let mut rel = rel_type(input, "the AggregateRel's input")?;
    let mut project = None;
    if let RelType::Project(p) = rel {
        project = Some(p.as_ref());
        rel = rel_type(p.input.as_deref(), "the ProjectRel's input")?;
    }
    let mut filter = None;
    if let RelType::Filter(f) = rel {
        direct(f.common.as_ref(), "FilterRel")?;
        filter = Some(
            f.condition
                .as_deref()
                .cloned()
                .ok_or_else(|| bad("the FilterRel has no condition"))?,
        );
        rel = rel_type(f.input.as_deref(), "the FilterRel's input")?;
    }
    let RelType::Read(read) = rel else {
        return Err(bad(format!(
            "found a {} where the ReadRel of the input batches belongs (the plan is \
             AggregateRel over an optional ProjectRel over an optional FilterRel over a ReadRel)",
            rel_name(rel)
        )));
    };
    direct(read.common.as_ref(), "ReadRel")?;
    if read.filter.is_some() || read.best_effort_filter.is_some() || read.projection.is_some() {
        return Err(bad(
            "the ReadRel filters or projects (use a FilterRel / ProjectRel)",
        ));
    }
    let base = read
        .base_schema
        .clone()
        .ok_or_else(|| bad("the ReadRel has no base_schema"))?;
    // top-level columns (`names` also lists nested field names, depth first)
    let width = base.r#struct.as_ref().map_or(0, |s| s.types.len());
    let inputs: Vec<Expression> = (0..width).map(field).collect();
    let columns = match project {
        None => inputs,
        Some(p) => {
            // a ProjectRel emits its input's fields, then its expressions, unless remapped
            let all: Vec<Expression> = inputs
                .into_iter()
                .chain(p.expressions.iter().cloned())
                .collect();
            match p.common.as_ref().and_then(|c| c.emit_kind.as_ref()) {
                None | Some(EmitKind::Direct(_)) => all,
                Some(EmitKind::Emit(emit)) => emit
                    .output_mapping
                    .iter()
                    .map(|&i| {
                        usize::try_from(i)
                            .ok()
                            .and_then(|i| all.get(i).cloned())
                            .ok_or_else(|| {
                                bad(format!(
                                    "the ProjectRel's emit maps field {i}, but it has {} fields",
                                    all.len()
                                ))
                            })
                    })
                    .collect::<GatunResult<_>>()?,
            }
        }
    };
    Ok((base, columns, filter))
}

/// A reference to field `i` of the root record.
fn field(i: usize) -> Expression {
    Expression {
        rex_type: Some(RexType::Selection(Box::new(FieldReference {
            reference_type: Some(ReferenceType::DirectReference(ReferenceSegment {
                reference_type: Some(reference_segment::ReferenceType::StructField(Box::new(
                    StructField {
                        field: i as i32,
                        child: None,
                    },
                ))),
            })),
            root_type: Some(RootType::RootReference(Default::default())),
        }))),
    }
}

/// The column a plain field reference of the aggregate's input points to.
fn column_of(e: &Expression, columns: usize, what: &dyn Fn() -> String) -> GatunResult<usize> {
    let not_a_column = || {
        bad(format!(
            "{} is not a field reference to the aggregate's input (compute it in the ProjectRel)",
            what()
        ))
    };
    let Some(RexType::Selection(r)) = &e.rex_type else {
        return Err(not_a_column());
    };
    let (Some(ReferenceType::DirectReference(segment)), Some(RootType::RootReference(_))) =
        (&r.reference_type, &r.root_type)
    else {
        return Err(not_a_column());
    };
    let Some(reference_segment::ReferenceType::StructField(s)) = &segment.reference_type else {
        return Err(not_a_column());
    };
    if s.child.is_some() {
        return Err(not_a_column());
    }
    match usize::try_from(s.field) {
        Ok(i) if i < columns => Ok(i),
        _ => Err(bad(format!(
            "{} refers to field {}, but the aggregate's input has {columns}",
            what(),
            s.field
        ))),
    }
}

#[allow(deprecated)]
fn keys(aggregate: &AggregateRel, columns: usize) -> GatunResult<Vec<usize>> {
    let grouping = match aggregate.groupings.as_slice() {
        [] => return Ok(Vec::new()),
        [g] => g,
        more => {
            return Err(bad(format!(
                "{} grouping sets; a local aggregate has one",
                more.len()
            )))
        }
    };
    let expressions: Vec<&Expression> = if grouping.expression_references.is_empty() {
        grouping.grouping_expressions.iter().collect()
    } else {
        if !grouping.grouping_expressions.is_empty() {
            return Err(bad(
                "the grouping has both expression_references and grouping_expressions",
            ));
        }
        grouping
            .expression_references
            .iter()
            .map(|&r| {
                aggregate
                    .grouping_expressions
                    .get(r as usize)
                    .ok_or_else(|| {
                        bad(format!(
                            "the grouping refers to grouping expression {r}, but there are {}",
                            aggregate.grouping_expressions.len()
                        ))
                    })
            })
            .collect::<GatunResult<_>>()?
    };
    expressions
        .into_iter()
        .enumerate()
        .map(|(i, e)| column_of(e, columns, &|| format!("group key {i}")))
        .collect()
}

fn measure(
    i: usize,
    m: &Measure,
    extensions: &Extensions,
    columns: usize,
) -> GatunResult<MeasureRef> {
    let f = m
        .measure
        .as_ref()
        .ok_or_else(|| bad(format!("measure {i} has no aggregate function")))?;
    let full_name = extensions
        .functions
        .get(&f.function_reference)
        .ok_or_else(|| {
            bad(format!(
                "measure {i} refers to function anchor {}, which the plan does not declare",
                f.function_reference
            ))
        })?;
    let name = full_name.split(':').next().unwrap_or_default();
    let what = |detail: String| GatunError::plan(format!("measure {i} ({full_name}): {detail}"));
    match AggregationInvocation::try_from(f.invocation) {
        Ok(AggregationInvocation::Unspecified | AggregationInvocation::All) => {}
        Ok(AggregationInvocation::Distinct) => {
            return Err(what("DISTINCT aggregates are not admitted".into()))
        }
        Err(_) => return Err(what(format!("unknown invocation {}", f.invocation))),
    }
    if !f.sorts.is_empty() {
        return Err(what("ordered aggregates (sorts) are not admitted".into()));
    }
    let arguments = f
        .arguments
        .iter()
        .enumerate()
        .map(|(a, arg)| match &arg.arg_type {
            Some(ArgType::Value(e)) => column_of(e, columns, &|| {
                format!("measure {i} ({full_name}) argument {a}")
            }),
            _ => Err(what(format!("argument {a} is not a value"))),
        })
        .collect::<GatunResult<Vec<_>>>()?;
    let function = match (name, arguments.len()) {
        ("count", 0) => AggFunction::CountStar,
        ("count", 1) => AggFunction::Count,
        ("sum" | "sum0", 1) => AggFunction::Sum,
        ("avg", 1) => AggFunction::Avg,
        // the global phase merges AVG's two accumulators
        ("avg", 2) if f.phase == AggregationPhase::IntermediateToResult as i32 => AggFunction::Avg,
        ("min", 1) => AggFunction::Min,
        ("max", 1) => AggFunction::Max,
        (n @ ("count" | "sum" | "sum0" | "avg" | "min" | "max"), k) => {
            return Err(what(format!("{n} with {k} arguments is not admitted")))
        }
        _ => {
            return Err(what(format!(
                "aggregate function `{name}` is not admitted (count, sum, sum0, avg, min, max)"
            )))
        }
    };
    let filter = m
        .filter
        .as_ref()
        .map(|e| {
            column_of(e, columns, &|| {
                format!("the FILTER of measure {i} ({full_name})")
            })
        })
        .transpose()?;
    Ok(MeasureRef {
        function,
        zero_when_empty: name == "sum0",
        argument: arguments.first().copied(),
        arguments,
        filter,
        phase: f.phase,
        declared: full_name.clone(),
    })
}
