//! `gatun_flink_cast(x, target)` and `gatun_flink_try_cast(x, target)`: Flink 2.x CAST
//! and TRY_CAST (legacy cast behaviour disabled). `target` is a typed NULL literal
//! whose type is the target type.
//!
//! Rules (Flink's `*CastRule` classes):
//! - integers ↔ integers/floats: Java primitive casts (narrowing wraps; float → int
//!   saturates, NaN → 0; float → TINYINT/SMALLINT goes through INT);
//! - → DECIMAL: exact value (a float through `Double.toString`), HALF_UP, NULL on
//!   overflow; NaN/±Infinity → DECIMAL raises even in TRY_CAST (that rule cannot fail);
//! - DECIMAL → integer: truncation, low 64 bits, then Java narrowing; → DOUBLE: Flink's
//!   `doubleValue` (unscaled / 10^s for precision <= 18); → FLOAT through DOUBLE;
//! - numeric → BOOLEAN: `<> 0`; BOOLEAN → numeric: 1/0;
//! - → STRING: Java `toString` (`Double.toString`, `BigDecimal.toPlainString`,
//!   `TRUE`/`FALSE`); the target is STRING (no length enforcement);
//! - STRING → integer: spaces (0x20) trimmed, `BinaryStringDataUtil.toInt`/`toLong`
//!   (a fractional part is allowed and truncated); → FLOAT/DOUBLE: `parseFloat`/
//!   `parseDouble` grammar (hexadecimal literals are not supported natively and
//!   raise); → DECIMAL: `BinaryStringDataUtil.toDecimal` (with its quirks);
//!   → BOOLEAN: `t true y yes 1` / `f false n no 0`, case-insensitive, no trimming;
//! - DATE → TIMESTAMP: midnight; TIMESTAMP → DATE: `(int) (millis / 86400000)`
//!   (truncating, as Flink does); TIMESTAMP(µs) → TIMESTAMP(ms): truncation.
//!
//! Failures of the STRING → number/BOOLEAN rules raise in CAST and give NULL in
//! TRY_CAST; a NULL input is NULL.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BooleanBuilder, Date32Builder, Decimal128Array, Decimal128Builder,
    Float32Builder,
    Float64Builder, Int16Builder, Int32Builder, Int64Builder, Int8Builder, StringBuilder,
    TimestampMicrosecondBuilder, TimestampMillisecondBuilder,
};
use arrow::datatypes::{
    i256, ArrowPrimitiveType, DataType, Date32Type, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type,
    Int64Type, Int8Type, TimeUnit, TimestampMicrosecondType, TimestampMillisecondType,
};
use datafusion::common::{exec_datafusion_err, exec_err, Result};

use super::decimal::to_decimal;
use super::parse::{
    parse_failure, parse_java_double, parse_java_float, parse_plain_decimal, string_to_boolean,
    string_to_decimal, string_to_int, string_to_long, Failure,
};
use super::{arity, java_double_to_string, java_float_to_string, Args, FlinkUdf};

pub fn functions() -> Vec<FlinkUdf> {
    vec![
        FlinkUdf::new("gatun_flink_cast", cast_type, |a| cast(a, false), true),
        FlinkUdf::new("gatun_flink_try_cast", cast_type, |a| cast(a, true), true),
    ]
}

const MILLIS_PER_DAY: i64 = 86_400_000;

/// The Flink type family of an Arrow type, as far as casts go.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Int,
    Float,
    Dec,
    Bool,
    Str,
    Date,
    Ts,
}

fn kind(t: &DataType) -> Option<Kind> {
    use DataType::*;
    Some(match t {
        Int8 | Int16 | Int32 | Int64 => Kind::Int,
        Float32 | Float64 => Kind::Float,
        Decimal128(..) => Kind::Dec,
        Boolean => Kind::Bool,
        Utf8 => Kind::Str,
        Date32 => Kind::Date,
        Timestamp(TimeUnit::Millisecond | TimeUnit::Microsecond, None) => Kind::Ts,
        _ => return None,
    })
}

fn supported(from: Kind, to: Kind) -> bool {
    use Kind::*;
    match from {
        Int | Float | Dec => matches!(to, Int | Float | Dec | Bool | Str),
        Bool => matches!(to, Int | Float | Dec | Bool | Str),
        Str => matches!(to, Int | Float | Dec | Bool | Str),
        Date => matches!(to, Date | Ts),
        Ts => matches!(to, Date | Ts),
    }
}

fn cast_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 2)?;
    let (from, to) = (&types[0], &types[1]);
    match (kind(from), kind(to)) {
        (Some(f), Some(t)) if supported(f, t) => Ok(to.clone()),
        _ => Err(format!(
            "cast from {from} to {to} is not supported natively"
        )),
    }
}

/// A source value, read once per row.
#[derive(Debug, Clone, Copy)]
enum Val<'a> {
    Int(i64),
    F32(f32),
    F64(f64),
    /// Unscaled value and its type.
    Dec(i128, u8, i8),
    Bool(bool),
    Str(&'a str),
    Days(i32),
    /// Epoch milliseconds or microseconds, per the source unit.
    Ts(i64, TimeUnit),
}

/// A converted value, before it is written with the target's width.
#[derive(Debug, Clone)]
enum Out {
    Int(i64),
    F32(f32),
    F64(f64),
    Dec(i128),
    Bool(bool),
    Str(String),
    Days(i32),
    Ts(i64),
}

fn read(array: &ArrayRef, i: usize) -> Option<Val<'_>> {
    if array.is_null(i) {
        return None;
    }
    Some(match array.data_type() {
        DataType::Int8 => Val::Int(i64::from(array.as_primitive::<Int8Type>().value(i))),
        DataType::Int16 => Val::Int(i64::from(array.as_primitive::<Int16Type>().value(i))),
        DataType::Int32 => Val::Int(i64::from(array.as_primitive::<Int32Type>().value(i))),
        DataType::Int64 => Val::Int(array.as_primitive::<Int64Type>().value(i)),
        DataType::Float32 => Val::F32(array.as_primitive::<Float32Type>().value(i)),
        DataType::Float64 => Val::F64(array.as_primitive::<Float64Type>().value(i)),
        DataType::Decimal128(p, s) => {
            Val::Dec(array.as_primitive::<Decimal128Type>().value(i), *p, *s)
        }
        DataType::Boolean => Val::Bool(array.as_boolean().value(i)),
        DataType::Utf8 => Val::Str(array.as_string::<i32>().value(i)),
        DataType::Date32 => Val::Days(array.as_primitive::<Date32Type>().value(i)),
        DataType::Timestamp(TimeUnit::Millisecond, _) => Val::Ts(
            array.as_primitive::<TimestampMillisecondType>().value(i),
            TimeUnit::Millisecond,
        ),
        DataType::Timestamp(TimeUnit::Microsecond, _) => Val::Ts(
            array.as_primitive::<TimestampMicrosecondType>().value(i),
            TimeUnit::Microsecond,
        ),
        _ => return None, // excluded by cast_type
    })
}

fn cast(args: &Args, try_cast: bool) -> Result<ArrayRef> {
    let input = &args.arrays[0];
    let to = args.return_type;
    if let DataType::Decimal128(p, s) = to {
        if let Some(out) = integers_to_decimal(input, *p, *s)? {
            return Ok(out);
        }
    }
    let mut out = Vec::with_capacity(input.len());
    for i in 0..input.len() {
        let converted = match read(input, i) {
            None => None,
            Some(v) => match convert(v, to) {
                Ok(o) => o,
                Err(f) if try_cast && f.can_fail => None,
                Err(f) => return exec_err!("{}", f.message),
            },
        };
        out.push(converted);
    }
    write(out, to)
}

/// Integers to DECIMAL(p, s) a column at a time (the common `BIGINT * 0.908` shape):
/// the rule of [`decimal_from`], `x × 10^s` and NULL when it needs more than `p` digits,
/// which no integer input makes fail. `None` for other inputs.
fn integers_to_decimal(input: &ArrayRef, p: u8, s: i8) -> Result<Option<ArrayRef>> {
    fn scaled<T>(input: &ArrayRef, factor: i128, limit: u128) -> Decimal128Array
    where
        T: ArrowPrimitiveType,
        T::Native: Into<i64>,
    {
        input.as_primitive::<T>().unary_opt(|x| {
            let v = i128::from(x.into()).checked_mul(factor)?;
            (v.unsigned_abs() < limit).then_some(v)
        })
    }
    let (Ok(scale), Some(limit)) = (u32::try_from(s), 10u128.checked_pow(u32::from(p))) else {
        return Ok(None);
    };
    let Some(factor) = 10i128.checked_pow(scale) else {
        return Ok(None);
    };
    let out = match input.data_type() {
        DataType::Int8 => scaled::<Int8Type>(input, factor, limit),
        DataType::Int16 => scaled::<Int16Type>(input, factor, limit),
        DataType::Int32 => scaled::<Int32Type>(input, factor, limit),
        DataType::Int64 => scaled::<Int64Type>(input, factor, limit),
        _ => return Ok(None),
    };
    Ok(Some(Arc::new(out.with_precision_and_scale(p, s)?)))
}

fn convert(v: Val, to: &DataType) -> std::result::Result<Option<Out>, Failure> {
    use DataType as T;
    Ok(Some(match (v, to) {
        // ---- to integers
        (Val::Int(x), T::Int8 | T::Int16 | T::Int32 | T::Int64) => Out::Int(x),
        (Val::F32(x), t) if is_int(t) => Out::Int(float_to_int(f64::from(x), t)),
        (Val::F64(x), t) if is_int(t) => Out::Int(float_to_int(x, t)),
        (Val::Dec(x, _, s), t) if is_int(t) => {
            let truncated = x / 10i128.pow(u32::from(s.unsigned_abs()));
            Out::Int(truncated as i64)
        }
        (Val::Bool(b), t) if is_int(t) => Out::Int(i64::from(b)),
        (Val::Str(s), T::Int64) => Out::Int(string_to_long(s.trim_matches(' '))?),
        (Val::Str(s), t) if is_int(t) => Out::Int(string_to_int(s.trim_matches(' '), t)?),
        // ---- to floats
        (Val::Int(x), T::Float32) => Out::F32(x as f32),
        (Val::Int(x), T::Float64) => Out::F64(x as f64),
        (Val::F32(x), T::Float32) => Out::F32(x),
        (Val::F32(x), T::Float64) => Out::F64(f64::from(x)),
        (Val::F64(x), T::Float32) => Out::F32(x as f32),
        (Val::F64(x), T::Float64) => Out::F64(x),
        (Val::Dec(x, p, s), T::Float32) => Out::F32(decimal_to_double(x, p, s) as f32),
        (Val::Dec(x, p, s), T::Float64) => Out::F64(decimal_to_double(x, p, s)),
        (Val::Bool(b), T::Float32) => Out::F32(if b { 1.0 } else { 0.0 }),
        (Val::Bool(b), T::Float64) => Out::F64(if b { 1.0 } else { 0.0 }),
        (Val::Str(s), T::Float32) => Out::F32(parse_java_float(s.trim_matches(' '))?),
        (Val::Str(s), T::Float64) => Out::F64(parse_java_double(s.trim_matches(' '))?),
        // ---- to DECIMAL
        (v, T::Decimal128(p, s)) => return decimal_from(v, *p, *s),
        // ---- to BOOLEAN
        (Val::Int(x), T::Boolean) => Out::Bool(x != 0),
        (Val::F32(x), T::Boolean) => Out::Bool(x != 0.0),
        (Val::F64(x), T::Boolean) => Out::Bool(x != 0.0),
        (Val::Dec(x, _, _), T::Boolean) => Out::Bool(x != 0),
        (Val::Bool(b), T::Boolean) => Out::Bool(b),
        (Val::Str(s), T::Boolean) => Out::Bool(string_to_boolean(s)?),
        // ---- to STRING
        (Val::Int(x), T::Utf8) => Out::Str(x.to_string()),
        (Val::F32(x), T::Utf8) => Out::Str(java_float_to_string(x)),
        (Val::F64(x), T::Utf8) => Out::Str(java_double_to_string(x)),
        (Val::Dec(x, _, s), T::Utf8) => Out::Str(plain_string(x, s)),
        (Val::Bool(b), T::Utf8) => Out::Str(if b { "TRUE" } else { "FALSE" }.into()),
        (Val::Str(s), T::Utf8) => Out::Str(s.into()),
        // ---- temporal
        (Val::Days(d), T::Date32) => Out::Days(d),
        (Val::Days(d), T::Timestamp(unit, _)) => {
            Out::Ts(i64::from(d) * MILLIS_PER_DAY * per_milli(*unit))
        }
        (Val::Ts(t, unit), T::Date32) => {
            let millis = t.div_euclid(per_milli(unit));
            Out::Days((millis / MILLIS_PER_DAY) as i32)
        }
        (Val::Ts(t, from), T::Timestamp(to, _)) => {
            let millis_floor = t.div_euclid(per_milli(from));
            Out::Ts(match (from, to) {
                (TimeUnit::Microsecond, TimeUnit::Millisecond) => millis_floor,
                (TimeUnit::Millisecond, TimeUnit::Microsecond) => t.wrapping_mul(1000),
                _ => t,
            })
        }
        (v, t) => {
            return Err(Failure {
                message: format!("cast of {v:?} to {t} is not supported natively"),
                can_fail: false,
            })
        }
    }))
}

fn is_int(t: &DataType) -> bool {
    super::is_integer(t)
}

fn per_milli(unit: TimeUnit) -> i64 {
    match unit {
        TimeUnit::Microsecond => 1000,
        _ => 1,
    }
}

/// Java `(byte|short|int) d` goes through `int`; `(long) d` directly (saturating,
/// NaN → 0; Rust's `as` does the same).
fn float_to_int(x: f64, t: &DataType) -> i64 {
    match t {
        DataType::Int64 => x as i64,
        _ => i64::from(x as i32),
    }
}

/// `DecimalDataUtils.doubleValue`.
fn decimal_to_double(x: i128, p: u8, s: i8) -> f64 {
    if p <= 18 {
        (x as i64 as f64) / (10i64.pow(u32::from(s.unsigned_abs())) as f64)
    } else {
        format!("{x}e-{s}").parse().unwrap_or(f64::NAN)
    }
}

/// `BigDecimal.toPlainString()` of `x × 10^-s`.
fn plain_string(x: i128, s: i8) -> String {
    let digits = x.unsigned_abs().to_string();
    let sign = if x < 0 { "-" } else { "" };
    let s = s.max(0) as usize;
    if s == 0 {
        return format!("{sign}{digits}");
    }
    let digits = format!("{digits:0>width$}", width = s + 1);
    let (int, frac) = digits.split_at(digits.len() - s);
    format!("{sign}{int}.{frac}")
}

fn decimal_from(v: Val, p: u8, s: i8) -> std::result::Result<Option<Out>, Failure> {
    let s32 = i32::from(s);
    let exact = |unscaled: i256, scale: i32| to_decimal(unscaled, scale, p, s32).map(Out::Dec);
    Ok(match v {
        Val::Int(x) => exact(i256::from_i128(i128::from(x)), 0),
        Val::Bool(b) => exact(i256::from_i128(i128::from(b)), 0),
        Val::Dec(x, _, from) => exact(i256::from_i128(x), i32::from(from)),
        Val::F32(x) => return double_to_decimal(f64::from(x), p, s),
        Val::F64(x) => return double_to_decimal(x, p, s),
        Val::Str(text) => match string_to_decimal(text, p, s)? {
            Some(x) => Some(Out::Dec(x)),
            None => {
                return Err(parse_failure(format!(
                    "java.lang.NumberFormatException: For input string: '{text}'. Overflow."
                )))
            }
        },
        other => {
            return Err(Failure {
                message: format!("cast of {other:?} to DECIMAL is not supported natively"),
                can_fail: false,
            })
        }
    })
}

/// `DecimalDataUtils.castFrom(double, p, s)`: `BigDecimal.valueOf(d)` (through
/// `Double.toString`); NaN and infinities raise.
fn double_to_decimal(x: f64, p: u8, s: i8) -> std::result::Result<Option<Out>, Failure> {
    if !x.is_finite() {
        return Err(Failure {
            message: format!(
                "java.lang.NumberFormatException: cannot cast {} to DECIMAL",
                java_double_to_string(x)
            ),
            can_fail: false,
        });
    }
    let text = java_double_to_string(x);
    let (unscaled, scale) = parse_plain_decimal(&text).ok_or_else(|| Failure {
        message: format!("cannot read {text} as a decimal"),
        can_fail: false,
    })?;
    Ok(to_decimal(unscaled, scale, p, i32::from(s)).map(Out::Dec))
}

fn write(values: Vec<Option<Out>>, to: &DataType) -> Result<ArrayRef> {
    macro_rules! ints {
        ($builder:ty, $t:ty) => {{
            let mut b = <$builder>::with_capacity(values.len());
            for v in values {
                match v {
                    Some(Out::Int(x)) => b.append_value(x as $t),
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish()) as ArrayRef
        }};
    }
    Ok(match to {
        DataType::Int8 => ints!(Int8Builder, i8),
        DataType::Int16 => ints!(Int16Builder, i16),
        DataType::Int32 => ints!(Int32Builder, i32),
        DataType::Int64 => ints!(Int64Builder, i64),
        DataType::Float32 => {
            let mut b = Float32Builder::with_capacity(values.len());
            for v in values {
                b.append_option(match v {
                    Some(Out::F32(x)) => Some(x),
                    _ => None,
                });
            }
            Arc::new(b.finish())
        }
        DataType::Float64 => {
            let mut b = Float64Builder::with_capacity(values.len());
            for v in values {
                b.append_option(match v {
                    Some(Out::F64(x)) => Some(x),
                    _ => None,
                });
            }
            Arc::new(b.finish())
        }
        DataType::Decimal128(p, s) => {
            let mut b = Decimal128Builder::with_capacity(values.len());
            for v in values {
                b.append_option(match v {
                    Some(Out::Dec(x)) => Some(x),
                    _ => None,
                });
            }
            Arc::new(b.finish().with_precision_and_scale(*p, *s)?)
        }
        DataType::Boolean => {
            let mut b = BooleanBuilder::with_capacity(values.len());
            for v in values {
                b.append_option(match v {
                    Some(Out::Bool(x)) => Some(x),
                    _ => None,
                });
            }
            Arc::new(b.finish())
        }
        DataType::Utf8 => {
            let mut b = StringBuilder::with_capacity(values.len(), 0);
            for v in values {
                match v {
                    Some(Out::Str(x)) => b.append_value(x),
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        DataType::Date32 => {
            let mut b = Date32Builder::with_capacity(values.len());
            for v in values {
                b.append_option(match v {
                    Some(Out::Days(x)) => Some(x),
                    _ => None,
                });
            }
            Arc::new(b.finish())
        }
        DataType::Timestamp(TimeUnit::Millisecond, None) => {
            let mut b = TimestampMillisecondBuilder::with_capacity(values.len());
            for v in values {
                b.append_option(match v {
                    Some(Out::Ts(x)) => Some(x),
                    _ => None,
                });
            }
            Arc::new(b.finish())
        }
        DataType::Timestamp(TimeUnit::Microsecond, None) => {
            let mut b = TimestampMicrosecondBuilder::with_capacity(values.len());
            for v in values {
                b.append_option(match v {
                    Some(Out::Ts(x)) => Some(x),
                    _ => None,
                });
            }
            Arc::new(b.finish())
        }
        other => return Err(exec_datafusion_err!("cannot write {other}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_rendering_and_double_conversion() {
        assert_eq!(plain_string(-5, 3), "-0.005");
        assert_eq!(plain_string(12345, 2), "123.45");
        assert_eq!(plain_string(7, 0), "7");
        assert_eq!(decimal_to_double(12345, 10, 2), 123.45);
        assert_eq!(decimal_to_double(1, 38, 1), 0.1);
    }

    #[test]
    fn integer_columns_to_decimal_match_the_value_rule() {
        let values = [Some(0), Some(7), Some(-42), None, Some(i64::MAX), Some(i64::MIN), Some(99_999)];
        let input: ArrayRef = Arc::new(arrow::array::Int64Array::from(values.to_vec()));
        for (p, s) in [(19, 0), (22, 3), (5, 0), (7, 2), (38, 18), (38, 20), (38, 38)] {
            let out = integers_to_decimal(&input, p, s).unwrap().unwrap();
            let out = out.as_primitive::<Decimal128Type>();
            assert_eq!(out.data_type(), &DataType::Decimal128(p, s));
            for (i, v) in values.iter().enumerate() {
                let expected = v.and_then(|x| match decimal_from(Val::Int(x), p, s).unwrap() {
                    Some(Out::Dec(d)) => Some(d),
                    _ => None,
                });
                assert_eq!(out.is_valid(i).then(|| out.value(i)), expected, "{v:?} as DECIMAL({p}, {s})");
            }
        }
        let small: ArrayRef = Arc::new(arrow::array::Int8Array::from(vec![Some(-128), None]));
        let out = integers_to_decimal(&small, 4, 1).unwrap().unwrap();
        assert_eq!(out.as_primitive::<Decimal128Type>().value(0), -1280);
        assert!(out.is_null(1));
        let text: ArrayRef = Arc::new(arrow::array::StringArray::from(vec!["1"]));
        assert!(integers_to_decimal(&text, 5, 0).unwrap().is_none());
    }
}
