//! Comparisons with Java semantics: `gatun_flink_equal`, `_not_equal`, `_lt`, `_lte`,
//! `_gt`, `_gte`.
//!
//! Arrow (and DataFusion's built-in comparisons) order floats totally: `NaN = NaN` is
//! true and `-0.0 < 0.0`. Flink compares Java primitives: every comparison with NaN is
//! false except `<>`, and `-0.0 = 0.0`. For the other types (same type on both sides)
//! these functions use Arrow's kernels, whose order is Flink's: integers, DECIMALs of
//! equal scale, BOOLEAN (false < true), strings by UTF-8 bytes (= code points), dates,
//! times and timestamps by value.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, BooleanArray};
use arrow::compute::kernels::cmp;
use arrow::datatypes::{DataType, Float32Type, Float64Type};
use datafusion::common::Result;

use super::{arity, is_float, Args, FlinkUdf};

#[derive(Clone, Copy)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

pub fn functions() -> Vec<FlinkUdf> {
    vec![
        FlinkUdf::new(
            "gatun_flink_equal",
            bool_type,
            |a| compare(a, Cmp::Eq),
            false,
        ),
        FlinkUdf::new(
            "gatun_flink_not_equal",
            bool_type,
            |a| compare(a, Cmp::Ne),
            false,
        ),
        FlinkUdf::new("gatun_flink_lt", bool_type, |a| compare(a, Cmp::Lt), false),
        FlinkUdf::new("gatun_flink_lte", bool_type, |a| compare(a, Cmp::Le), false),
        FlinkUdf::new("gatun_flink_gt", bool_type, |a| compare(a, Cmp::Gt), false),
        FlinkUdf::new("gatun_flink_gte", bool_type, |a| compare(a, Cmp::Ge), false),
    ]
}

/// Whether values of type `t` compare with Flink's order in Arrow's kernels.
fn comparable(t: &DataType) -> bool {
    use DataType::*;
    matches!(
        t,
        Boolean
            | Int8
            | Int16
            | Int32
            | Int64
            | Float32
            | Float64
            | Decimal128(..)
            | Utf8
            | Date32
            | Time32(_)
            | Timestamp(_, _)
            | Interval(arrow::datatypes::IntervalUnit::YearMonth)
            | Duration(_)
    )
}

fn bool_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 2)?;
    if types[0] == types[1] && comparable(&types[0]) {
        Ok(DataType::Boolean)
    } else {
        Err("expects two equal comparable types".into())
    }
}

fn compare(args: &Args, op: Cmp) -> Result<ArrayRef> {
    let (a, b) = (&args.arrays[0], &args.arrays[1]);
    let out = match a.data_type() {
        DataType::Float32 => java_floats::<Float32Type>(a, b, op)?,
        DataType::Float64 => java_floats::<Float64Type>(a, b, op)?,
        t => {
            debug_assert!(!is_float(t));
            match op {
                Cmp::Eq => cmp::eq(a, b)?,
                Cmp::Ne => cmp::neq(a, b)?,
                Cmp::Lt => cmp::lt(a, b)?,
                Cmp::Le => cmp::lt_eq(a, b)?,
                Cmp::Gt => cmp::gt(a, b)?,
                Cmp::Ge => cmp::gt_eq(a, b)?,
            }
        }
    };
    Ok(Arc::new(out))
}

fn java_floats<T>(a: &ArrayRef, b: &ArrayRef, op: Cmp) -> Result<BooleanArray>
where
    T: ArrowPrimitiveType,
    T::Native: PartialOrd,
{
    let (a, b) = (a.as_primitive::<T>(), b.as_primitive::<T>());
    // IEEE comparisons (PartialOrd) are exactly Java's primitive ones.
    let f: fn(T::Native, T::Native) -> bool = match op {
        Cmp::Eq => |x, y| x == y,
        Cmp::Ne => |x, y| x != y,
        Cmp::Lt => |x, y| x < y,
        Cmp::Le => |x, y| x <= y,
        Cmp::Gt => |x, y| x > y,
        Cmp::Ge => |x, y| x >= y,
    };
    let values = arrow::buffer::BooleanBuffer::collect_bool(a.len(), |i| f(a.value(i), b.value(i)));
    let nulls = arrow::buffer::NullBuffer::union(a.nulls(), b.nulls());
    Ok(BooleanArray::new(values, nulls))
}
