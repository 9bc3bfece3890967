//! What a local aggregate computes: grouping keys, aggregate calls in order, and the
//! optional window slice end. Plain data, checked once by [`AggregateSpec::output_schema`].

use std::fmt;
use std::sync::Arc;

use arrow::datatypes::{DataType, Field, FieldRef, Schema, SchemaRef, TimeUnit};
use datafusion::common::{plan_err, Result};

/// The admitted aggregate functions (Flink's insert-only, non-DISTINCT built-ins).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggFunction {
    CountStar,
    Count,
    Sum,
    Avg,
    Min,
    Max,
}

impl fmt::Display for AggFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AggFunction::CountStar => "COUNT(*)",
            AggFunction::Count => "COUNT",
            AggFunction::Sum => "SUM",
            AggFunction::Avg => "AVG",
            AggFunction::Min => "MIN",
            AggFunction::Max => "MAX",
        })
    }
}

/// The argument of a call: a column of the batches the kernel receives and its Arrow type.
#[derive(Debug, Clone, PartialEq)]
pub struct AggArgument {
    pub column: usize,
    pub data_type: DataType,
}

/// One aggregate call.
#[derive(Debug, Clone, PartialEq)]
pub struct AggCall {
    pub function: AggFunction,
    /// `None` exactly for COUNT(*).
    pub argument: Option<AggArgument>,
    /// A Boolean column (Flink's `(<cond>) IS TRUE`): the call sees a row only when it is TRUE.
    /// A NULL in it counts as not TRUE.
    pub filter: Option<usize>,
}

impl AggCall {
    pub fn count_star() -> Self {
        AggCall {
            function: AggFunction::CountStar,
            argument: None,
            filter: None,
        }
    }

    pub fn new(function: AggFunction, column: usize, data_type: DataType) -> Self {
        AggCall {
            function,
            argument: Some(AggArgument { column, data_type }),
            filter: None,
        }
    }

    pub fn with_filter(mut self, column: usize) -> Self {
        self.filter = Some(column);
        self
    }
}

/// A grouping key: its column in the input batches and its output field (name, type and
/// nullability are emitted unchanged, as Flink's local row type keeps them).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupKey {
    pub column: usize,
    pub field: FieldRef,
}

impl GroupKey {
    pub fn new(column: usize, field: Field) -> Self {
        GroupKey {
            column,
            field: Arc::new(field),
        }
    }
}

/// A local aggregate: `keys` (possibly none), then `calls` in output order, then for a
/// window local aggregate the `slice_end` column (Int64, grouped on like a last key and
/// emitted last as `$slice_end`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AggregateSpec {
    pub keys: Vec<GroupKey>,
    pub calls: Vec<AggCall>,
    pub slice_end: Option<usize>,
}

pub(super) const SLICE_END_NAME: &str = "$slice_end";

impl AggregateSpec {
    /// The emitted row type: keys, each call's accumulator fields in Flink's local layout
    /// (all nullable, named like Flink's `<buffer>$<i>`), then `$slice_end BIGINT`.
    /// Fails, naming the call, on a function/argument combination that is not admitted.
    pub fn output_schema(&self) -> Result<SchemaRef> {
        if self.keys.is_empty() && self.calls.is_empty() && self.slice_end.is_none() {
            return plan_err!("local aggregate: the spec has no keys, no calls and no slice end");
        }
        let mut fields: Vec<FieldRef> = self.keys.iter().map(|k| k.field.clone()).collect();
        let mut buffer_index = 0;
        for (i, call) in self.calls.iter().enumerate() {
            for (buffer, data_type) in accumulator_fields(i, call)? {
                fields.push(Arc::new(Field::new(
                    format!("{buffer}${buffer_index}"),
                    data_type,
                    true,
                )));
                buffer_index += 1;
            }
        }
        if self.slice_end.is_some() {
            fields.push(Arc::new(Field::new(SLICE_END_NAME, DataType::Int64, true)));
        }
        Ok(Arc::new(Schema::new(fields)))
    }
}

/// The accumulator fields of call `i` (Flink's buffer name and the local Arrow type).
pub(super) fn accumulator_fields(
    i: usize,
    call: &AggCall,
) -> Result<Vec<(&'static str, DataType)>> {
    let f = call.function;
    let arg = match (&call.argument, f) {
        (None, AggFunction::CountStar) => return Ok(vec![("count1", DataType::Int64)]),
        (Some(_), AggFunction::CountStar) => {
            return plan_err!("local aggregate: call {i} (COUNT(*)) must have no argument")
        }
        (None, _) => return plan_err!("local aggregate: call {i} ({f}) needs an argument column"),
        (Some(a), _) => &a.data_type,
    };
    let unsupported =
        || plan_err!("local aggregate: call {i} ({f}) does not support argument type {arg}");
    Ok(match f {
        AggFunction::CountStar => unreachable!("handled above"),
        AggFunction::Count => vec![("count", DataType::Int64)],
        AggFunction::Sum => match arg {
            t if is_sum_integer(t) || is_float(t) => vec![("sum", t.clone())],
            DataType::Decimal128(p, s) => vec![("sum", decimal_sum_type(i, f, *p, *s)?)],
            _ => return unsupported(),
        },
        AggFunction::Avg => match arg {
            t if is_sum_integer(t) => vec![("sum", DataType::Int64), ("count", DataType::Int64)],
            t if is_float(t) => vec![("sum", DataType::Float64), ("count", DataType::Int64)],
            DataType::Decimal128(p, s) => {
                vec![
                    ("sum", decimal_sum_type(i, f, *p, *s)?),
                    ("count", DataType::Int64),
                ]
            }
            _ => return unsupported(),
        },
        AggFunction::Min | AggFunction::Max => {
            let buffer = if f == AggFunction::Min { "min" } else { "max" };
            if let DataType::Decimal128(p, s) = arg {
                decimal_sum_type(i, f, *p, *s)?; // same range check; MIN/MAX keep (p, s)
            }
            if !is_min_max_type(arg) {
                return unsupported();
            }
            vec![(buffer, arg.clone())]
        }
    })
}

fn decimal_sum_type(i: usize, f: AggFunction, p: u8, s: i8) -> Result<DataType> {
    if !(1..=38).contains(&p) || s < 0 || s as u8 > p {
        return plan_err!(
            "local aggregate: call {i} ({f}): Decimal128({p}, {s}) is not a Flink DECIMAL \
             (needs 1 <= precision <= 38 and 0 <= scale <= precision)"
        );
    }
    Ok(DataType::Decimal128(38, s))
}

pub(super) fn is_sum_integer(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64
    )
}

pub(super) fn is_float(t: &DataType) -> bool {
    matches!(t, DataType::Float32 | DataType::Float64)
}

pub(super) fn is_min_max_type(t: &DataType) -> bool {
    is_sum_integer(t)
        || is_float(t)
        || matches!(
            t,
            DataType::Boolean
                | DataType::Decimal128(_, _)
                | DataType::Utf8
                | DataType::Binary
                | DataType::Date32
                | DataType::Time32(TimeUnit::Second | TimeUnit::Millisecond)
                | DataType::Time64(TimeUnit::Microsecond | TimeUnit::Nanosecond)
                | DataType::Timestamp(_, _)
        )
}
