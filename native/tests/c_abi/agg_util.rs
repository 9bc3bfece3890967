//! Helpers for the local-aggregate tests: Substrait `Plan`s of the shape
//! `AggregateRel(ProjectRel(FilterRel(ReadRel)))`, built from DataFusion expressions the
//! way `calc_util` builds Calc plans, and the kind's `gatun_operator_*` calls.

use std::ffi::c_char;

use arrow::array::RecordBatch;
use arrow::datatypes::{DataType, Field, Schema};
use datafusion::logical_expr::Expr;
use datafusion_substrait::substrait::proto::aggregate_function::AggregationInvocation;
use datafusion_substrait::substrait::proto::aggregate_rel::{Grouping, Measure};
use datafusion_substrait::substrait::proto::expression::field_reference::{
    ReferenceType, RootType,
};
use datafusion_substrait::substrait::proto::expression::reference_segment::{self, StructField};
use datafusion_substrait::substrait::proto::expression::{
    FieldReference, ReferenceSegment, RexType,
};
use datafusion_substrait::substrait::proto::expression_reference::ExprType;
use datafusion_substrait::substrait::proto::extensions::simple_extension_declaration::{
    ExtensionFunction, MappingType,
};
use datafusion_substrait::substrait::proto::extensions::SimpleExtensionDeclaration;
use datafusion_substrait::substrait::proto::function_argument::ArgType;
use datafusion_substrait::substrait::proto::plan_rel::RelType as PlanRelType;
use datafusion_substrait::substrait::proto::read_rel::{NamedTable, ReadType};
use datafusion_substrait::substrait::proto::rel::RelType;
use datafusion_substrait::substrait::proto::rel_common::{Emit, EmitKind};
use datafusion_substrait::substrait::proto::{
    AggregateFunction, AggregateRel, AggregationPhase, Expression, ExtendedExpression, FilterRel,
    FunctionArgument, Plan, PlanRel, ProjectRel, ReadRel, Rel, RelCommon, RelRoot,
};
use gatun_native::ffi::abi::{GATUN_OK, GATUN_OPERATOR_LOCAL_AGGREGATE, GATUN_OUTPUT_ARROW};
use gatun_native::gatun_operator_held_bytes;
use prost::Message;

use crate::calc_util::{self, create_kind, type_of, Failure, Handle};
use crate::common::message;

/// One measure: `function` (count, sum, avg, min, max) of input column `argument` (none:
/// COUNT(*)), optionally with a FILTER column, both indices into the projections.
#[derive(Debug, Clone)]
pub struct M {
    pub function: &'static str,
    pub argument: Option<usize>,
    pub filter: Option<usize>,
    pub phase: AggregationPhase,
    pub invocation: AggregationInvocation,
}

pub fn m(function: &'static str, argument: usize) -> M {
    M {
        function,
        argument: Some(argument),
        filter: None,
        phase: AggregationPhase::InitialToIntermediate,
        invocation: AggregationInvocation::All,
    }
}

pub fn count_star() -> M {
    M {
        argument: None,
        ..m("count", 0)
    }
}

impl M {
    pub fn filtered(mut self, column: usize) -> Self {
        self.filter = Some(column);
        self
    }
}

/// A reference to field `i` of the root record.
pub fn field_ref(i: i32) -> Expression {
    Expression {
        rex_type: Some(RexType::Selection(Box::new(FieldReference {
            reference_type: Some(ReferenceType::DirectReference(ReferenceSegment {
                reference_type: Some(reference_segment::ReferenceType::StructField(Box::new(
                    StructField {
                        field: i,
                        child: None,
                    },
                ))),
            })),
            root_type: Some(RootType::RootReference(Default::default())),
        }))),
    }
}

fn rel(r: RelType) -> Option<Box<Rel>> {
    Some(Box::new(Rel { rel_type: Some(r) }))
}

/// The plan as a `Plan` (tests mutate it before encoding).
#[allow(deprecated)]
pub fn agg_plan_proto(
    schema: &Schema,
    projections: &[(&str, Expr)],
    filter: Option<Expr>,
    keys: &[usize],
    measures: &[M],
    names: &[&str],
) -> Plan {
    let ee = ExtendedExpression::decode(calc_util::plan(schema, projections, filter).as_slice())
        .unwrap();
    let mut expressions: Vec<Expression> = ee
        .referred_expr
        .iter()
        .map(|r| match &r.expr_type {
            Some(ExprType::Expression(e)) => e.clone(),
            _ => unreachable!(),
        })
        .collect();
    let condition = (expressions.len() > projections.len()).then(|| expressions.pop().unwrap());
    let mut extensions = ee.extensions.clone();
    let mut next_anchor = extensions
        .iter()
        .filter_map(|d| match &d.mapping_type {
            Some(MappingType::ExtensionFunction(f)) => Some(f.function_anchor + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let mut anchor = |name: String| {
        next_anchor += 1;
        extensions.push(SimpleExtensionDeclaration {
            mapping_type: Some(MappingType::ExtensionFunction(ExtensionFunction {
                extension_uri_reference: 0,
                extension_urn_reference: 0,
                function_anchor: next_anchor,
                name,
            })),
        });
        next_anchor
    };
    let measures = measures
        .iter()
        .map(|x| {
            let signature = if x.argument.is_some() { "any" } else { "" };
            Measure {
                measure: Some(AggregateFunction {
                    function_reference: anchor(format!("{}:{signature}", x.function)),
                    arguments: x
                        .argument
                        .iter()
                        .map(|&a| FunctionArgument {
                            arg_type: Some(ArgType::Value(field_ref(a as i32))),
                        })
                        .collect(),
                    phase: x.phase as i32,
                    invocation: x.invocation as i32,
                    ..Default::default()
                }),
                filter: x.filter.map(|f| field_ref(f as i32)),
            }
        })
        .collect();
    let width = schema.fields().len() as i32;
    let mut input = rel(RelType::Read(Box::new(ReadRel {
        base_schema: ee.base_schema.clone(),
        read_type: Some(ReadType::NamedTable(NamedTable {
            names: vec!["input".into()],
            advanced_extension: None,
        })),
        ..Default::default()
    })));
    if let Some(condition) = condition {
        input = rel(RelType::Filter(Box::new(FilterRel {
            input,
            condition: Some(Box::new(condition)),
            ..Default::default()
        })));
    }
    let emitted = expressions.len() as i32;
    input = rel(RelType::Project(Box::new(ProjectRel {
        common: Some(RelCommon {
            emit_kind: Some(EmitKind::Emit(Emit {
                output_mapping: (width..width + emitted).collect(),
            })),
            ..Default::default()
        }),
        input,
        expressions,
        advanced_extension: None,
    })));
    let aggregate = AggregateRel {
        input,
        groupings: if keys.is_empty() {
            Vec::new()
        } else {
            vec![Grouping {
                expression_references: (0..keys.len() as u32).collect(),
                ..Default::default()
            }]
        },
        grouping_expressions: keys.iter().map(|&k| field_ref(k as i32)).collect(),
        measures,
        ..Default::default()
    };
    Plan {
        version: ee.version.clone(),
        extension_uris: ee.extension_uris.clone(),
        extension_urns: ee.extension_urns.clone(),
        extensions,
        relations: vec![PlanRel {
            rel_type: Some(PlanRelType::Root(RelRoot {
                input: rel(RelType::Aggregate(Box::new(aggregate))).map(|r| *r),
                names: names.iter().map(|n| n.to_string()).collect(),
            })),
        }],
        ..Default::default()
    }
}

/// `plan` with the bundle-size optimization of `rows` (as a `UInt64Value`) on its aggregate.
pub fn with_bundle(plan: Plan, rows: u64) -> Plan {
    with_optimization(
        plan,
        gatun_native::ops::local_aggregate::plan::BUNDLE_ROWS_TYPE_URL,
        rows,
    )
}

/// `plan` with the group-limit optimization of `groups` on its aggregate.
pub fn with_group_limit(plan: Plan, groups: u64) -> Plan {
    with_optimization(
        plan,
        gatun_native::ops::local_aggregate::plan::GROUP_LIMIT_TYPE_URL,
        groups,
    )
}

/// `plan` with one more `UInt64Value` optimization of type URL `url` on its aggregate.
fn with_optimization(mut plan: Plan, url: &str, value_of: u64) -> Plan {
    use datafusion_substrait::substrait::proto::extensions::AdvancedExtension;
    let Some(PlanRelType::Root(root)) = &mut plan.relations[0].rel_type else {
        unreachable!()
    };
    let Some(RelType::Aggregate(aggregate)) = &mut root.input.as_mut().unwrap().rel_type else {
        unreachable!()
    };
    let mut value = vec![0x08];
    prost::encoding::encode_varint(value_of, &mut value);
    let mut any = AdvancedExtension::default().enhancement.unwrap_or_default();
    any.type_url = url.to_string();
    any.value = value.into();
    let extension = aggregate
        .advanced_extension
        .get_or_insert_with(AdvancedExtension::default);
    extension.optimization.push(any);
    plan
}

/// The serialized plan.
pub fn agg_plan(
    schema: &Schema,
    projections: &[(&str, Expr)],
    filter: Option<Expr>,
    keys: &[usize],
    measures: &[M],
) -> Vec<u8> {
    agg_plan_proto(schema, projections, filter, keys, measures, &[]).encode_to_vec()
}

/// Flink's local-phase accumulator fields of `function` over `argument` (docs/native.md,
/// "Aggregation kernel"), written out independently of the kernel.
pub fn accumulators(function: &str, argument: Option<&DataType>) -> Vec<(&'static str, DataType)> {
    use DataType::*;
    match (function, argument) {
        ("count", None) => vec![("count1", Int64)],
        ("count", Some(_)) => vec![("count", Int64)],
        ("sum", Some(Decimal128(_, s))) => vec![("sum", Decimal128(38, *s))],
        ("sum", Some(t)) => vec![("sum", t.clone())],
        ("avg", Some(Decimal128(_, s))) => vec![("sum", Decimal128(38, *s)), ("count", Int64)],
        ("avg", Some(Float32 | Float64)) => vec![("sum", Float64), ("count", Int64)],
        ("avg", Some(_)) => vec![("sum", Int64), ("count", Int64)],
        ("min", Some(t)) => vec![("min", t.clone())],
        ("max", Some(t)) => vec![("max", t.clone())],
        other => panic!("no layout for {other:?}"),
    }
}

/// The expected output schema: the keys (named like their projection), then the
/// accumulators named `<buffer>$<i>` as Flink's local row type names them.
pub fn agg_expected(
    schema: &Schema,
    projections: &[(&str, Expr)],
    keys: &[usize],
    measures: &[M],
) -> Schema {
    let types: Vec<DataType> = projections
        .iter()
        .map(|(_, e)| type_of(e, schema))
        .collect();
    let mut fields: Vec<Field> = keys
        .iter()
        .map(|&k| Field::new(projections[k].0, types[k].clone(), true))
        .collect();
    let mut i = 0;
    for x in measures {
        for (buffer, t) in accumulators(x.function, x.argument.map(|a| &types[a])) {
            fields.push(Field::new(format!("{buffer}${i}"), t, true));
            i += 1;
        }
    }
    Schema::new(fields)
}

/// `gatun_operator_create` of the local-aggregate kind.
pub fn create_agg(plan: &[u8], input: &Schema, expected: &Schema) -> Result<Handle, Failure> {
    create_kind(
        GATUN_OPERATOR_LOCAL_AGGREGATE,
        plan,
        input,
        expected,
        GATUN_OUTPUT_ARROW,
    )
}

/// A handle of the plan built from these parts, with the expected schema of the layout.
pub fn agg_handle(
    input: &Schema,
    projections: &[(&str, Expr)],
    filter: Option<Expr>,
    keys: &[usize],
    measures: &[M],
) -> Handle {
    let bytes = agg_plan(input, projections, filter, keys, measures);
    create_agg(
        &bytes,
        input,
        &agg_expected(input, projections, keys, measures),
    )
    .unwrap()
}

/// Processes each batch (the kind writes nothing), then flushes.
pub fn fold(handle: &Handle, batches: &[RecordBatch]) -> Option<RecordBatch> {
    for b in batches {
        assert!(
            handle.process(b, None).unwrap().is_none(),
            "process wrote an output"
        );
    }
    handle.flush().unwrap()
}

/// `gatun_operator_held_bytes`.
pub fn held_bytes(handle: &Handle) -> Result<i64, Failure> {
    let mut bytes = -1;
    let mut err = [0 as c_char; 1024];
    // SAFETY: valid pointers; the handle is live.
    let status =
        unsafe { gatun_operator_held_bytes(handle.raw(), &mut bytes, err.as_mut_ptr(), err.len()) };
    if status != GATUN_OK {
        return Err((status, message(&err)));
    }
    Ok(bytes)
}
