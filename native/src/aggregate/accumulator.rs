//! The per-call accumulator interface and the choice of implementation per
//! (function, argument type), following research/local-agg.md §5.1.

use arrow::array::{ArrayRef, BooleanArray, BooleanBufferBuilder};
use arrow::buffer::NullBuffer;
use arrow::datatypes::ArrowNativeTypeOp;
use arrow::datatypes::{
    ArrowPrimitiveType, DataType, Date32Type, Decimal128Type, Float32Type, Float64Type, Int16Type,
    Int32Type, Int64Type, Int8Type, Time32MillisecondType, Time32SecondType, Time64MicrosecondType,
    Time64NanosecondType, TimeUnit, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType,
};
use datafusion::common::{internal_err, Result};
use datafusion_functions_aggregate_common::aggregate::groups_accumulator::bool_op::BooleanGroupsAccumulator;
use datafusion_functions_aggregate_common::aggregate::groups_accumulator::prim_op::PrimitiveGroupsAccumulator;

use super::avg::PrimitiveAvg;
use super::bytes_min_max::BytesMinMax;
use super::count::Count;
use super::datafusion_adapter::DataFusionAccumulator;
use super::decimal::{DecimalAvg, DecimalSum};
use super::float_min_max::FloatMinMax;
use super::spec::{AggCall, AggFunction};

/// The state of one aggregate call for every group of the current bundle.
pub(super) trait CallAccumulator: Send {
    /// Folds one batch in row order. `groups[row]` is the row's group; `total_groups` counts
    /// every group of the bundle so far (new groups start from the initial value).
    /// `argument` is `None` only for COUNT(*); `filter` has no NULLs.
    fn update(
        &mut self,
        argument: Option<&ArrayRef>,
        filter: Option<&BooleanArray>,
        groups: &[usize],
        total_groups: usize,
    ) -> Result<()>;

    /// Appends this call's output columns (every group, in group order) and starts empty.
    fn emit(&mut self, out: &mut Vec<ArrayRef>) -> Result<()>;

    /// Bytes held.
    fn size(&self) -> usize;
}

/// A validity bitmap taken as an output null buffer (None when nothing is NULL); the
/// builder is left empty.
pub(super) fn take_nulls(valid: &mut BooleanBufferBuilder) -> Option<NullBuffer> {
    let nulls = NullBuffer::new(valid.finish());
    (nulls.null_count() > 0).then_some(nulls)
}

/// The accumulator of call `i`; its argument type has been admitted by `accumulator_fields`.
pub(super) fn create_accumulator(i: usize, call: &AggCall) -> Result<Box<dyn CallAccumulator>> {
    let f = call.function;
    let Some(arg) = call.argument.as_ref().map(|a| a.data_type.clone()) else {
        return Ok(Box::new(Count::new(true)));
    };
    let made: Option<Box<dyn CallAccumulator>> = match f {
        AggFunction::CountStar => None,
        AggFunction::Count => Some(Box::new(Count::new(false))),
        AggFunction::Sum => sum(&arg),
        AggFunction::Avg => avg(&arg),
        AggFunction::Min => min_max::<true>(&arg),
        AggFunction::Max => min_max::<false>(&arg),
    };
    match made {
        Some(acc) => Ok(acc),
        None => internal_err!("local aggregate: call {i} ({f}) has no accumulator for {arg}"),
    }
}

fn sum(arg: &DataType) -> Option<Box<dyn CallAccumulator>> {
    fn wrapping<T: ArrowPrimitiveType + Send>(t: &DataType) -> Option<Box<dyn CallAccumulator>>
    where
        T::Native: ArrowNativeTypeOp,
    {
        // Java's `(type) (a + b)`: wraps in the argument's own width (floats: IEEE add in
        // the argument's precision, which `add_wrapping` is for floats). Flink takes the
        // first value as is; starting from -0.0 (0 for integers) makes `start + x == x` for
        // every x, -0.0 included (only a signalling NaN would come out quieted).
        let acc = PrimitiveGroupsAccumulator::<T, _>::new(t, |a: &mut T::Native, b| {
            *a = a.add_wrapping(b)
        })
        .with_starting_value(T::Native::ZERO.neg_wrapping());
        Some(Box::new(DataFusionAccumulator::new(acc)))
    }
    match arg {
        DataType::Int8 => wrapping::<Int8Type>(arg),
        DataType::Int16 => wrapping::<Int16Type>(arg),
        DataType::Int32 => wrapping::<Int32Type>(arg),
        DataType::Int64 => wrapping::<Int64Type>(arg),
        DataType::Float32 => wrapping::<Float32Type>(arg),
        DataType::Float64 => wrapping::<Float64Type>(arg),
        DataType::Decimal128(_, s) => Some(Box::new(DecimalSum::new(*s))),
        _ => None,
    }
}

fn avg(arg: &DataType) -> Option<Box<dyn CallAccumulator>> {
    fn integer<T: ArrowPrimitiveType + Send>() -> Option<Box<dyn CallAccumulator>>
    where
        T::Native: Into<i64>,
    {
        Some(Box::new(PrimitiveAvg::<T, Int64Type, _>::new(
            |s: &mut i64, x: T::Native| *s = s.wrapping_add(x.into()),
        )))
    }
    fn float<T: ArrowPrimitiveType + Send>() -> Option<Box<dyn CallAccumulator>>
    where
        T::Native: Into<f64>,
    {
        Some(Box::new(PrimitiveAvg::<T, Float64Type, _>::new(
            |s: &mut f64, x: T::Native| *s += x.into(),
        )))
    }
    match arg {
        DataType::Int8 => integer::<Int8Type>(),
        DataType::Int16 => integer::<Int16Type>(),
        DataType::Int32 => integer::<Int32Type>(),
        DataType::Int64 => integer::<Int64Type>(),
        DataType::Float32 => float::<Float32Type>(),
        DataType::Float64 => float::<Float64Type>(),
        DataType::Decimal128(_, s) => Some(Box::new(DecimalAvg::new(*s))),
        _ => None,
    }
}

fn min_max<const MIN: bool>(arg: &DataType) -> Option<Box<dyn CallAccumulator>> {
    // Integers, dates, times, timestamps and decimals are totally ordered, so Java's strict
    // `<`/`>` against a MAX/MIN starting value gives the first-seen extreme.
    fn ordered<T: ArrowPrimitiveType + Send, const MIN: bool>(
        t: &DataType,
    ) -> Option<Box<dyn CallAccumulator>>
    where
        T::Native: ArrowNativeTypeOp,
    {
        let start = if MIN {
            T::Native::MAX_TOTAL_ORDER
        } else {
            T::Native::MIN_TOTAL_ORDER
        };
        let acc = PrimitiveGroupsAccumulator::<T, _>::new(t, |a: &mut T::Native, b| {
            if (MIN && b < *a) || (!MIN && b > *a) {
                *a = b
            }
        })
        .with_starting_value(start);
        Some(Box::new(DataFusionAccumulator::new(acc)))
    }
    match arg {
        DataType::Int8 => ordered::<Int8Type, MIN>(arg),
        DataType::Int16 => ordered::<Int16Type, MIN>(arg),
        DataType::Int32 => ordered::<Int32Type, MIN>(arg),
        DataType::Int64 => ordered::<Int64Type, MIN>(arg),
        DataType::Decimal128(_, _) => ordered::<Decimal128Type, MIN>(arg),
        DataType::Date32 => ordered::<Date32Type, MIN>(arg),
        DataType::Time32(TimeUnit::Second) => ordered::<Time32SecondType, MIN>(arg),
        DataType::Time32(TimeUnit::Millisecond) => ordered::<Time32MillisecondType, MIN>(arg),
        DataType::Time64(TimeUnit::Microsecond) => ordered::<Time64MicrosecondType, MIN>(arg),
        DataType::Time64(TimeUnit::Nanosecond) => ordered::<Time64NanosecondType, MIN>(arg),
        DataType::Timestamp(TimeUnit::Second, _) => ordered::<TimestampSecondType, MIN>(arg),
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            ordered::<TimestampMillisecondType, MIN>(arg)
        }
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            ordered::<TimestampMicrosecondType, MIN>(arg)
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            ordered::<TimestampNanosecondType, MIN>(arg)
        }
        DataType::Float32 => Some(Box::new(FloatMinMax::<Float32Type, MIN>::new())),
        DataType::Float64 => Some(Box::new(FloatMinMax::<Float64Type, MIN>::new())),
        // Boolean.compare (false < true): MIN is AND, MAX is OR over the non-NULL values.
        DataType::Boolean if MIN => Some(Box::new(DataFusionAccumulator::new(
            BooleanGroupsAccumulator::new(|a, b| a && b, true),
        ))),
        DataType::Boolean => Some(Box::new(DataFusionAccumulator::new(
            BooleanGroupsAccumulator::new(|a, b| a || b, false),
        ))),
        DataType::Utf8 => Some(Box::new(BytesMinMax::<MIN>::new(true))),
        DataType::Binary => Some(Box::new(BytesMinMax::<MIN>::new(false))),
        _ => None,
    }
}
