//! Comparisons with Java semantics: `gatun_flink_equal`, `_not_equal`, `_lt`, `_lte`,
//! `_gt`, `_gte`, and `gatun_flink_double_compare` (`Double.compare`, for Flink's FLOAT/DOUBLE
//! vs DECIMAL comparisons).
//!
//! Arrow (and DataFusion's built-in comparisons) order floats totally: `NaN = NaN` is
//! true and `-0.0 < 0.0`. Flink compares Java primitives: every comparison with NaN is
//! false except `<>`, and `-0.0 = 0.0`. For the other types (same type on both sides)
//! these functions use Arrow's kernels, whose order is Flink's: integers, DECIMALs of
//! equal scale, BOOLEAN (false < true), strings by UTF-8 bytes (= code points), dates,
//! times and timestamps by value.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, BooleanArray, Int32Array};
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
        FlinkUdf::new(
            "gatun_flink_double_compare",
            double_compare_type,
            double_compare,
            false,
        ),
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

fn double_compare_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 2)?;
    if types.iter().all(|t| *t == DataType::Float64) {
        Ok(DataType::Int32)
    } else {
        Err("expects two DOUBLE (Float64) arguments".into())
    }
}

/// Java's `Double.compare`: a total order where every NaN equals every other and lies above
/// +Infinity, and -0.0 lies below 0.0. Flink compares a DECIMAL with a FLOAT/DOUBLE as
/// `Double.compare(DecimalDataUtils.doubleValue(d), x)` against 0.
pub fn java_double_compare(x: f64, y: f64) -> i32 {
    if x < y {
        -1
    } else if x > y {
        1
    } else {
        // Double.doubleToLongBits: one canonical NaN
        let bits = |v: f64| {
            if v.is_nan() {
                0x7ff8_0000_0000_0000_i64
            } else {
                v.to_bits() as i64
            }
        };
        bits(x).cmp(&bits(y)) as i32
    }
}

fn double_compare(args: &Args) -> Result<ArrayRef> {
    let a = args.arrays[0].as_primitive::<Float64Type>();
    let b = args.arrays[1].as_primitive::<Float64Type>();
    let values: arrow::buffer::ScalarBuffer<i32> = a
        .values()
        .iter()
        .zip(b.values().iter())
        .map(|(&x, &y)| java_double_compare(x, y))
        .collect();
    let nulls = arrow::buffer::NullBuffer::union(a.nulls(), b.nulls());
    Ok(Arc::new(Int32Array::new(values, nulls)))
}

#[cfg(test)]
mod tests {
    use super::java_double_compare as cmp;

    #[test]
    fn double_compare_is_javas_total_order() {
        assert_eq!(cmp(1.0, 2.0), -1);
        assert_eq!(cmp(2.0, 1.0), 1);
        assert_eq!(cmp(1.5, 1.5), 0);
        assert_eq!(cmp(-0.0, 0.0), -1);
        assert_eq!(cmp(0.0, -0.0), 1);
        assert_eq!(cmp(f64::NAN, f64::INFINITY), 1);
        assert_eq!(cmp(f64::NEG_INFINITY, f64::NAN), -1);
        assert_eq!(cmp(f64::NAN, f64::NAN), 0);
        assert_eq!(cmp(-f64::NAN, f64::NAN), 0);
        assert_eq!(cmp(f64::from_bits(0x7ff0_0000_0000_0001), 1.0), 1);
    }
}
