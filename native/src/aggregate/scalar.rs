//! Accumulators one (key, slice) at a time, for the window aggregate's state: Flink's
//! declarative aggregate functions (`SumAggFunction`, `AvgAggFunction`, `MinAggFunction` ...)
//! with their accumulate, merge and getValue expressions. The local kernel's accumulators
//! ([`super::accumulator`]) fold a whole bundle column by column and forget it on emit; state
//! kept per slice and merged across slices needs one value per slot instead.
//!
//! Slots follow Flink's buffer layout (the local phase's accumulator columns): COUNT one
//! BIGINT, SUM one value of the sum type (NULL until a value arrives), AVG the sum (starting
//! at 0) and a BIGINT count, MIN/MAX one value (NULL until a value arrives). Arithmetic is the
//! Java arithmetic of Flink's generated code, as in the local kernel (research/local-agg.md §2).

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BinaryArray, BooleanArray, Decimal128Array, Float32Array,
    Float64Array, PrimitiveArray, StringArray,
};
use arrow::datatypes::{
    ArrowPrimitiveType, DataType, Date32Type, Decimal128Type, Float32Type, Float64Type, Int16Type,
    Int32Type, Int64Type, Int8Type, Time32MillisecondType, Time32SecondType, Time64MicrosecondType,
    Time64NanosecondType, TimeUnit, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType,
};
use datafusion::common::{exec_err, plan_err, Result};

use super::decimal::add_38;
use super::spec::{is_float, is_min_max_type, is_sum_integer, AggFunction};

/// One slot's value. Integers of every width, dates, times and timestamps are `Int`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    F32(f32),
    F64(f64),
    Dec(i128),
    Bool(bool),
    Bytes(Box<[u8]>),
}

impl Value {
    /// Heap bytes beyond the value itself.
    pub fn heap_size(&self) -> usize {
        match self {
            Value::Bytes(b) => b.len(),
            _ => 0,
        }
    }
}

/// How a slot's values are stored and read: the Arrow type of its column.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotType(pub DataType);

/// The arithmetic of a SUM (or AVG's sum) slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Add {
    /// Java integer `+` wrapping at this many bits.
    Int(u32),
    F32,
    F64,
    /// `AGG_DECIMAL_PLUS`: NULL when the sum needs more than 38 digits.
    Dec,
}

impl Add {
    fn of(t: &DataType) -> Option<Add> {
        Some(match t {
            DataType::Int8 => Add::Int(8),
            DataType::Int16 => Add::Int(16),
            DataType::Int32 => Add::Int(32),
            DataType::Int64 => Add::Int(64),
            DataType::Float32 => Add::F32,
            DataType::Float64 => Add::F64,
            DataType::Decimal128(_, _) => Add::Dec,
            _ => return None,
        })
    }

    /// `a + b` of two non-NULL values (NULL: a DECIMAL overflow).
    fn add(self, a: &Value, b: &Value) -> Value {
        match (self, a, b) {
            (Add::Int(bits), Value::Int(a), Value::Int(b)) => {
                let shift = 64 - bits;
                Value::Int((a.wrapping_add(*b) << shift) >> shift)
            }
            (Add::F32, Value::F32(a), Value::F32(b)) => Value::F32(a + b),
            (Add::F64, Value::F64(a), Value::F64(b)) => Value::F64(a + b),
            (Add::Dec, Value::Dec(a), Value::Dec(b)) => {
                add_38(*a, *b).map_or(Value::Null, Value::Dec)
            }
            _ => Value::Null,
        }
    }

    fn zero(self) -> Value {
        match self {
            Add::Int(_) => Value::Int(0),
            Add::F32 => Value::F32(0.0),
            Add::F64 => Value::F64(0.0),
            Add::Dec => Value::Dec(0),
        }
    }
}

/// The order of a MIN/MAX slot (Java's `<` on the slot's type).
fn less(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(a), Value::Int(b)) => a < b,
        (Value::F32(a), Value::F32(b)) => a < b,
        (Value::F64(a), Value::F64(b)) => a < b,
        (Value::Dec(a), Value::Dec(b)) => a < b,
        (Value::Bool(a), Value::Bool(b)) => !a & b,
        (Value::Bytes(a), Value::Bytes(b)) => a < b,
        _ => false,
    }
}

/// One aggregate call kept per (key, slice).
#[derive(Debug, Clone, PartialEq)]
pub struct ScalarCall {
    pub function: AggFunction,
    /// The slots' types (Flink's buffer layout).
    pub slots: Vec<SlotType>,
    /// The final value's type.
    pub result: DataType,
    add: Option<Add>,
}

impl ScalarCall {
    /// A call over raw values of type `argument` (`None`: COUNT(*)), as the one-phase window
    /// aggregate accumulates them.
    pub fn over_values(
        i: usize,
        function: AggFunction,
        argument: Option<&DataType>,
    ) -> Result<Self> {
        let bad = |t: &DataType| {
            plan_err!("window aggregate: call {i} ({function}) does not support argument type {t}")
        };
        let Some(arg) = argument else {
            return match function {
                AggFunction::CountStar => Ok(Self::counting(function)),
                _ => plan_err!("window aggregate: call {i} ({function}) needs an argument"),
            };
        };
        match function {
            AggFunction::CountStar | AggFunction::Count => Ok(Self::counting(function)),
            AggFunction::Sum => {
                let sum = match arg {
                    t if is_sum_integer(t) || is_float(t) => t.clone(),
                    DataType::Decimal128(_, s) => DataType::Decimal128(38, *s),
                    t => return bad(t),
                };
                Ok(Self::sum(sum))
            }
            AggFunction::Avg => {
                let (sum, result) = match arg {
                    t if is_sum_integer(t) => (DataType::Int64, t.clone()),
                    t if is_float(t) => (DataType::Float64, t.clone()),
                    DataType::Decimal128(_, s) => (
                        DataType::Decimal128(38, *s),
                        DataType::Decimal128(38, (*s).max(6)),
                    ),
                    t => return bad(t),
                };
                Ok(Self::avg(sum, result))
            }
            AggFunction::Min | AggFunction::Max => {
                if !is_min_max_type(arg) {
                    return bad(arg);
                }
                Ok(Self::min_max(function, arg.clone()))
            }
        }
    }

    /// A call merging the local phase's accumulator columns of types `accumulators`; AVG's
    /// result type is the expected output type `result` (the local layout does not carry it).
    pub fn over_accumulators(
        i: usize,
        function: AggFunction,
        accumulators: &[DataType],
        result: &DataType,
    ) -> Result<Self> {
        let what = || {
            format!("window aggregate: call {i} ({function}) over accumulators {accumulators:?}")
        };
        let call = match (function, accumulators) {
            (AggFunction::CountStar | AggFunction::Count, [DataType::Int64]) => {
                Self::counting(function)
            }
            (AggFunction::Sum, [t]) if Add::of(t).is_some() => {
                if matches!(t, DataType::Decimal128(p, _) if *p != 38) {
                    return plan_err!("{}: a DECIMAL sum accumulator is DECIMAL(38, s)", what());
                }
                Self::sum(t.clone())
            }
            (AggFunction::Avg, [sum, DataType::Int64]) => {
                let fits = match (sum, result) {
                    (DataType::Int64, r) => is_sum_integer(r),
                    (DataType::Float64, r) => is_float(r),
                    (DataType::Decimal128(38, s), DataType::Decimal128(38, r)) => *r == (*s).max(6),
                    _ => false,
                };
                if !fits {
                    return plan_err!(
                        "{}: AVG's result type {result} does not fit its sum {sum}",
                        what()
                    );
                }
                Self::avg(sum.clone(), result.clone())
            }
            (AggFunction::Min | AggFunction::Max, [t]) if is_min_max_type(t) => {
                Self::min_max(function, t.clone())
            }
            _ => return plan_err!("{}: not Flink's local accumulator layout", what()),
        };
        Ok(call)
    }

    fn counting(function: AggFunction) -> Self {
        ScalarCall {
            function,
            slots: vec![SlotType(DataType::Int64)],
            result: DataType::Int64,
            add: None,
        }
    }

    fn sum(t: DataType) -> Self {
        ScalarCall {
            function: AggFunction::Sum,
            slots: vec![SlotType(t.clone())],
            add: Add::of(&t),
            result: t,
        }
    }

    fn avg(sum: DataType, result: DataType) -> Self {
        ScalarCall {
            function: AggFunction::Avg,
            add: Add::of(&sum),
            slots: vec![SlotType(sum), SlotType(DataType::Int64)],
            result,
        }
    }

    fn min_max(function: AggFunction, t: DataType) -> Self {
        ScalarCall {
            function,
            slots: vec![SlotType(t.clone())],
            result: t,
            add: None,
        }
    }

    /// Flink's `initialValuesExpressions`.
    pub fn init(&self, out: &mut Vec<Value>) {
        match self.function {
            AggFunction::CountStar | AggFunction::Count => out.push(Value::Int(0)),
            AggFunction::Sum | AggFunction::Min | AggFunction::Max => out.push(Value::Null),
            AggFunction::Avg => {
                out.push(self.add.map_or(Value::Null, Add::zero));
                out.push(Value::Int(0));
            }
        }
    }

    /// Flink's `accumulateExpressions` for one raw value (`Value::Null` for COUNT(*)).
    pub fn accumulate(&self, slots: &mut [Value], x: Value) {
        match self.function {
            AggFunction::CountStar => increment(&mut slots[0], 1),
            AggFunction::Count => {
                if x != Value::Null {
                    increment(&mut slots[0], 1)
                }
            }
            AggFunction::Sum => self.merge_sum(&mut slots[0], x),
            AggFunction::Avg => {
                let x = match x {
                    Value::Null => return,
                    // AVG(FLOAT) sums in DOUBLE
                    Value::F32(f) => Value::F64(f64::from(f)),
                    x => x,
                };
                self.add_sticky(&mut slots[0], &x);
                increment(&mut slots[1], 1);
            }
            AggFunction::Min | AggFunction::Max => self.merge_extreme(&mut slots[0], x),
        }
    }

    /// Flink's `mergeExpressions`: `other` is another accumulator of this call.
    pub fn merge(&self, slots: &mut [Value], other: &[Value]) {
        match self.function {
            AggFunction::CountStar | AggFunction::Count => {
                if let Value::Int(n) = other[0] {
                    increment(&mut slots[0], n)
                }
            }
            AggFunction::Sum => self.merge_sum(&mut slots[0], other[0].clone()),
            AggFunction::Avg => {
                self.add_sticky(&mut slots[0], &other[0]);
                if let Value::Int(n) = other[1] {
                    increment(&mut slots[1], n)
                }
            }
            AggFunction::Min | AggFunction::Max => {
                self.merge_extreme(&mut slots[0], other[0].clone())
            }
        }
    }

    /// `if(isNull(x), sum, if(isNull(sum), x, sum + x))`.
    fn merge_sum(&self, sum: &mut Value, x: Value) {
        if x == Value::Null {
            return;
        }
        *sum = match (&*sum, self.add) {
            (Value::Null, _) => x,
            (s, Some(add)) => add.add(s, &x),
            (_, None) => Value::Null,
        };
    }

    /// AVG's `sum + x`: a NULL on either side (a DECIMAL overflow) stays NULL.
    fn add_sticky(&self, sum: &mut Value, x: &Value) {
        *sum = match (&*sum, x, self.add) {
            (Value::Null, _, _) | (_, Value::Null, _) | (_, _, None) => Value::Null,
            (s, x, Some(add)) => add.add(s, x),
        };
    }

    fn merge_extreme(&self, current: &mut Value, x: Value) {
        if x == Value::Null {
            return;
        }
        let replace = match &*current {
            Value::Null => true,
            c if self.function == AggFunction::Min => less(&x, c),
            c => less(c, &x),
        };
        if replace {
            *current = x;
        }
    }

    /// Flink's `getValueExpression`, in [`ScalarCall::result`]'s type.
    pub fn value(&self, slots: &[Value]) -> Value {
        match self.function {
            AggFunction::Avg => {
                let count = match slots[1] {
                    Value::Int(n) => n,
                    _ => 0,
                };
                if count == 0 {
                    return Value::Null;
                }
                average(&slots[0], count, &self.slots[0].0, &self.result)
            }
            _ => slots[0].clone(),
        }
    }

    /// The COUNT(*) of an accumulator, for empty-window checks.
    pub fn count(&self, slots: &[Value]) -> i64 {
        match slots.first() {
            Some(Value::Int(n)) => *n,
            _ => 0,
        }
    }
}

fn increment(slot: &mut Value, n: i64) {
    if let Value::Int(c) = slot {
        *c = c.wrapping_add(n);
    }
}

/// `cast(sum / count AS result)`: Java `long` division then a narrowing cast for integers,
/// `double` division for floats; DECIMAL: see [`decimal_average`].
fn average(sum: &Value, count: i64, sum_type: &DataType, result: &DataType) -> Value {
    match (sum, sum_type, result) {
        (Value::Int(s), _, r) => {
            let q = s.wrapping_div(count);
            let bits = match r {
                DataType::Int8 => 8,
                DataType::Int16 => 16,
                DataType::Int32 => 32,
                _ => 64,
            };
            let shift = 64 - bits;
            Value::Int((q << shift) >> shift)
        }
        (Value::F64(s), _, DataType::Float32) => Value::F32((s / count as f64) as f32),
        (Value::F64(s), _, _) => Value::F64(s / count as f64),
        (Value::Dec(s), DataType::Decimal128(_, from), DataType::Decimal128(_, to)) => {
            decimal_average(*s, *from, count, *to).map_or(Value::Null, Value::Dec)
        }
        _ => Value::Null,
    }
}

/// Flink's DECIMAL AVG value: the sum (unscaled at `from`) divided by the count, at scale `to`
/// (`max(6, from)`), rounded half up; `None` when it needs more than 38 digits. Exact long
/// division (Flink divides in 34 significant digits first, which only differs for quotients
/// of more than 34 digits).
pub fn decimal_average(sum: i128, from: i8, count: i64, to: i8) -> Option<i128> {
    if count == 0 || to < from {
        return None;
    }
    let negative = (sum < 0) != (count < 0);
    let (n, d) = (sum.unsigned_abs(), u128::from(count.unsigned_abs()));
    let mut q = n / d;
    let mut rem = n % d;
    for _ in 0..(to - from) {
        rem *= 10;
        q = q.checked_mul(10)?.checked_add(rem / d)?;
        rem %= d;
    }
    if rem * 2 >= d {
        q += 1;
    }
    if q >= 100_000_000_000_000_000_000_000_000_000_000_000_000u128 {
        return None;
    }
    let q = q as i128;
    Some(if negative { -q } else { q })
}

/// Reads row `row` of `array` (of a slot's or an argument's type) as a [`Value`].
pub fn value_at(array: &dyn Array, row: usize) -> Value {
    if array.is_null(row) {
        return Value::Null;
    }
    fn int<T: ArrowPrimitiveType>(a: &dyn Array, row: usize) -> Value
    where
        T::Native: Into<i64>,
    {
        Value::Int(a.as_primitive::<T>().value(row).into())
    }
    match array.data_type() {
        DataType::Int8 => int::<Int8Type>(array, row),
        DataType::Int16 => int::<Int16Type>(array, row),
        DataType::Int32 => int::<Int32Type>(array, row),
        DataType::Int64 => int::<Int64Type>(array, row),
        DataType::Date32 => int::<Date32Type>(array, row),
        DataType::Time32(TimeUnit::Second) => int::<Time32SecondType>(array, row),
        DataType::Time32(TimeUnit::Millisecond) => int::<Time32MillisecondType>(array, row),
        DataType::Time64(TimeUnit::Microsecond) => int::<Time64MicrosecondType>(array, row),
        DataType::Time64(TimeUnit::Nanosecond) => int::<Time64NanosecondType>(array, row),
        DataType::Timestamp(TimeUnit::Second, _) => int::<TimestampSecondType>(array, row),
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            int::<TimestampMillisecondType>(array, row)
        }
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            int::<TimestampMicrosecondType>(array, row)
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => int::<TimestampNanosecondType>(array, row),
        DataType::Float32 => Value::F32(array.as_primitive::<Float32Type>().value(row)),
        DataType::Float64 => Value::F64(array.as_primitive::<Float64Type>().value(row)),
        DataType::Decimal128(_, _) => Value::Dec(array.as_primitive::<Decimal128Type>().value(row)),
        DataType::Boolean => Value::Bool(array.as_boolean().value(row)),
        DataType::Utf8 => Value::Bytes(array.as_string::<i32>().value(row).as_bytes().into()),
        DataType::Binary => Value::Bytes(array.as_binary::<i32>().value(row).into()),
        _ => Value::Null,
    }
}

/// A column of `data_type` holding `values` (each of the type's [`Value`] variant or NULL).
pub fn build_column(data_type: &DataType, values: &[&Value]) -> Result<ArrayRef> {
    fn ints<T: ArrowPrimitiveType>(t: &DataType, values: &[&Value]) -> ArrayRef
    where
        T::Native: TryFrom<i64>,
    {
        let array: PrimitiveArray<T> = values
            .iter()
            .map(|v| match v {
                Value::Int(i) => T::Native::try_from(*i).ok(),
                _ => None,
            })
            .collect();
        Arc::new(array.with_data_type(t.clone()))
    }
    let bytes = |v: &&Value| match v {
        Value::Bytes(b) => Some(b.to_vec()),
        _ => None,
    };
    Ok(match data_type {
        DataType::Int8 => ints::<Int8Type>(data_type, values),
        DataType::Int16 => ints::<Int16Type>(data_type, values),
        DataType::Int32 => ints::<Int32Type>(data_type, values),
        DataType::Int64 => ints::<Int64Type>(data_type, values),
        DataType::Date32 => ints::<Date32Type>(data_type, values),
        DataType::Time32(TimeUnit::Second) => ints::<Time32SecondType>(data_type, values),
        DataType::Time32(TimeUnit::Millisecond) => ints::<Time32MillisecondType>(data_type, values),
        DataType::Time64(TimeUnit::Microsecond) => ints::<Time64MicrosecondType>(data_type, values),
        DataType::Time64(TimeUnit::Nanosecond) => ints::<Time64NanosecondType>(data_type, values),
        DataType::Timestamp(TimeUnit::Second, _) => ints::<TimestampSecondType>(data_type, values),
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            ints::<TimestampMillisecondType>(data_type, values)
        }
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            ints::<TimestampMicrosecondType>(data_type, values)
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            ints::<TimestampNanosecondType>(data_type, values)
        }
        DataType::Float32 => Arc::new(Float32Array::from_iter(values.iter().map(|v| match v {
            Value::F32(f) => Some(*f),
            _ => None,
        }))),
        DataType::Float64 => Arc::new(Float64Array::from_iter(values.iter().map(|v| match v {
            Value::F64(f) => Some(*f),
            _ => None,
        }))),
        DataType::Decimal128(_, _) => Arc::new(
            Decimal128Array::from_iter(values.iter().map(|v| match v {
                Value::Dec(d) => Some(*d),
                _ => None,
            }))
            .with_data_type(data_type.clone()),
        ),
        DataType::Boolean => Arc::new(BooleanArray::from_iter(values.iter().map(|v| match v {
            Value::Bool(b) => Some(*b),
            _ => None,
        }))),
        DataType::Binary => Arc::new(BinaryArray::from_iter(values.iter().map(bytes))),
        DataType::Utf8 => {
            let binary = BinaryArray::from_iter(values.iter().map(bytes));
            // Flink strings need not be valid UTF-8; they are copied as they came in
            let (offsets, data, nulls) = binary.into_parts();
            // SAFETY: the bytes came from Utf8 arrays of this operator's input or state.
            Arc::new(unsafe { StringArray::new_unchecked(offsets, data, nulls) })
        }
        other => return exec_err!("window aggregate: no column of type {other}"),
    })
}
