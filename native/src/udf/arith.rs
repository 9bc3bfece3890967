//! Arithmetic with Flink (Java) semantics.
//!
//! - TINYINT..BIGINT: `+ - *` and unary `-` wrap (Java two's complement; DataFusion's
//!   built-in `add`/`subtract`/`multiply` wrap too); `/` and `%` truncate like Java and
//!   raise "/ by zero" on a zero divisor (`MIN / -1` wraps to `MIN`, `MIN % -1` is 0);
//!   `ABS(MIN)` is `MIN` (`Math.abs`).
//! - FLOAT/DOUBLE: IEEE 754 (`x / 0.0` is ±Infinity or NaN, `%` is `fmod`).
//! - DECIMAL: see [`super::decimal`] (result type of `LogicalTypeMerging`, HALF_UP,
//!   NULL on overflow, a zero divisor raises).
//!
//! A NULL operand gives NULL without evaluating (NULL / 0 is NULL, not an error).

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, ArrowPrimitiveType, AsArray, BooleanBufferBuilder, Decimal128Array,
    PrimitiveArray,
};
use arrow::buffer::NullBuffer;
use arrow::compute::kernels::arity::{binary, try_binary, unary};
use arrow::datatypes::{
    DataType, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
};
use arrow::error::ArrowError;
use datafusion::common::{exec_err, Result};
use num_like::{Float, Integer};

use super::decimal::{self, DecOp, DecType};
use super::{arity, is_float, is_integer, Args, FlinkUdf};

pub fn functions() -> Vec<FlinkUdf> {
    vec![
        FlinkUdf::new("gatun_flink_add", binary_type::<0>, add, false),
        FlinkUdf::new("gatun_flink_subtract", binary_type::<1>, subtract, false),
        FlinkUdf::new("gatun_flink_multiply", binary_type::<2>, multiply, false),
        FlinkUdf::new("gatun_flink_divide", binary_type::<3>, divide, true),
        FlinkUdf::new("gatun_flink_mod", binary_type::<4>, modulo, true),
        FlinkUdf::new("gatun_flink_negate", unary_type, negate, false),
        FlinkUdf::new("gatun_flink_abs", unary_type, abs, false),
    ]
}

const OPS: [DecOp; 5] = [
    DecOp::Add,
    DecOp::Subtract,
    DecOp::Multiply,
    DecOp::Divide,
    DecOp::Mod,
];

fn dec_type(t: &DataType) -> Option<DecType> {
    match t {
        DataType::Decimal128(p, s) => Some(DecType {
            precision: *p,
            scale: *s,
        }),
        _ => None,
    }
}

/// Two equal integer or float types → that type; two DECIMALs → Flink's result type.
fn binary_type<const OP: usize>(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 2)?;
    let (a, b) = (&types[0], &types[1]);
    if let (Some(da), Some(db)) = (dec_type(a), dec_type(b)) {
        let r = decimal::result_type(OPS[OP], da, db);
        return Ok(DataType::Decimal128(r.precision, r.scale));
    }
    if a == b && (is_integer(a) || is_float(a)) {
        return Ok(a.clone());
    }
    Err("expects two equal TINYINT..BIGINT/FLOAT/DOUBLE types or two DECIMALs".into())
}

fn unary_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 1)?;
    let t = &types[0];
    if is_integer(t) || is_float(t) || dec_type(t).is_some() {
        Ok(t.clone())
    } else {
        Err("expects TINYINT..BIGINT, FLOAT, DOUBLE or DECIMAL".into())
    }
}

/// Dispatches a binary kernel over the integer types.
macro_rules! on_integers {
    ($t:expr, $f:ident, $($arg:expr),*) => {
        match $t {
            DataType::Int8 => $f::<Int8Type>($($arg),*),
            DataType::Int16 => $f::<Int16Type>($($arg),*),
            DataType::Int32 => $f::<Int32Type>($($arg),*),
            DataType::Int64 => $f::<Int64Type>($($arg),*),
            other => exec_err!("unsupported type {other}"),
        }
    };
}

macro_rules! on_floats {
    ($t:expr, $f:ident, $($arg:expr),*) => {
        match $t {
            DataType::Float32 => $f::<Float32Type>($($arg),*),
            DataType::Float64 => $f::<Float64Type>($($arg),*),
            other => exec_err!("unsupported type {other}"),
        }
    };
}

fn arith(args: &Args, op: DecOp) -> Result<ArrayRef> {
    let (a, b) = (&args.arrays[0], &args.arrays[1]);
    match a.data_type() {
        DataType::Decimal128(..) => decimal_op(a, b, op, args.return_type),
        t if is_float(t) => on_floats!(t, float_op, a, b, op),
        t => on_integers!(t, int_op, a, b, op),
    }
}

fn add(args: &Args) -> Result<ArrayRef> {
    arith(args, DecOp::Add)
}
fn subtract(args: &Args) -> Result<ArrayRef> {
    arith(args, DecOp::Subtract)
}
fn multiply(args: &Args) -> Result<ArrayRef> {
    arith(args, DecOp::Multiply)
}
fn divide(args: &Args) -> Result<ArrayRef> {
    arith(args, DecOp::Divide)
}
fn modulo(args: &Args) -> Result<ArrayRef> {
    arith(args, DecOp::Mod)
}

fn by_zero() -> ArrowError {
    ArrowError::ComputeError("java.lang.ArithmeticException: / by zero".into())
}

fn int_op<T>(a: &ArrayRef, b: &ArrayRef, op: DecOp) -> Result<ArrayRef>
where
    T: ArrowPrimitiveType,
    T::Native: Integer,
{
    let (a, b) = (a.as_primitive::<T>(), b.as_primitive::<T>());
    let out: PrimitiveArray<T> = match op {
        DecOp::Add => binary(a, b, |x, y| x.wrapping_add_(y))?,
        DecOp::Subtract => binary(a, b, |x, y| x.wrapping_sub_(y))?,
        DecOp::Multiply => binary(a, b, |x, y| x.wrapping_mul_(y))?,
        DecOp::Divide => try_binary(a, b, |x, y| {
            if y.is_zero_() {
                Err(by_zero())
            } else {
                Ok(x.wrapping_div_(y))
            }
        })?,
        DecOp::Mod => try_binary(a, b, |x, y| {
            if y.is_zero_() {
                Err(by_zero())
            } else {
                Ok(x.wrapping_rem_(y))
            }
        })?,
    };
    Ok(Arc::new(out))
}

fn float_op<T>(a: &ArrayRef, b: &ArrayRef, op: DecOp) -> Result<ArrayRef>
where
    T: ArrowPrimitiveType,
    T::Native: Float,
{
    let (a, b) = (a.as_primitive::<T>(), b.as_primitive::<T>());
    let out: PrimitiveArray<T> = match op {
        DecOp::Add => binary(a, b, |x, y| x + y)?,
        DecOp::Subtract => binary(a, b, |x, y| x - y)?,
        DecOp::Multiply => binary(a, b, |x, y| x * y)?,
        DecOp::Divide => binary(a, b, |x, y| x / y)?,
        DecOp::Mod => binary(a, b, |x, y| x % y)?,
    };
    Ok(Arc::new(out))
}

fn decimal_op(a: &ArrayRef, b: &ArrayRef, op: DecOp, out_type: &DataType) -> Result<ArrayRef> {
    let (Some(ta), Some(tb), Some(out)) = (
        dec_type(a.data_type()),
        dec_type(b.data_type()),
        dec_type(out_type),
    ) else {
        return exec_err!("expected decimals");
    };
    let (a, b) = (
        a.as_primitive::<Decimal128Type>(),
        b.as_primitive::<Decimal128Type>(),
    );
    let nulls = NullBuffer::union(a.nulls(), b.nulls());
    let fast = decimal::ExactI128::new(op, ta.scale, tb.scale, out);
    let mut values = Vec::with_capacity(a.len());
    let mut valid = BooleanBufferBuilder::new(a.len());
    for (i, (&x, &y)) in a.values().iter().zip(b.values().iter()).enumerate() {
        let r = match &nulls {
            Some(n) if n.is_null(i) => None,
            _ => match fast.and_then(|f| f.apply(x, y)) {
                Some(r) => r,
                None => decimal::apply(op, (x, ta.scale), (y, tb.scale), out).map_err(|e| {
                    ArrowError::ComputeError(format!("java.lang.ArithmeticException: {}", e.0))
                })?,
            },
        };
        values.push(r.unwrap_or(0));
        valid.append(r.is_some());
    }
    let array = Decimal128Array::new(values.into(), Some(NullBuffer::new(valid.finish())))
        .with_precision_and_scale(out.precision, out.scale)?;
    Ok(Arc::new(array))
}

fn negate(args: &Args) -> Result<ArrayRef> {
    unary_op(&args.arrays[0], false)
}

fn abs(args: &Args) -> Result<ArrayRef> {
    unary_op(&args.arrays[0], true)
}

fn unary_op(a: &ArrayRef, abs: bool) -> Result<ArrayRef> {
    fn ints<T>(a: &ArrayRef, abs: bool) -> Result<ArrayRef>
    where
        T: ArrowPrimitiveType,
        T::Native: Integer,
    {
        let a = a.as_primitive::<T>();
        let out: PrimitiveArray<T> = if abs {
            unary(a, |x| x.wrapping_abs_())
        } else {
            unary(a, |x| x.wrapping_neg_())
        };
        Ok(Arc::new(out))
    }
    fn floats<T>(a: &ArrayRef, abs: bool) -> Result<ArrayRef>
    where
        T: ArrowPrimitiveType,
        T::Native: Float,
    {
        let a = a.as_primitive::<T>();
        let out: PrimitiveArray<T> = if abs {
            unary(a, |x| x.abs_())
        } else {
            unary(a, |x| -x)
        };
        Ok(Arc::new(out))
    }
    match a.data_type() {
        DataType::Decimal128(p, s) => {
            let a = a.as_primitive::<Decimal128Type>();
            let out: Decimal128Array = if abs {
                unary(a, i128::wrapping_abs)
            } else {
                unary(a, i128::wrapping_neg)
            };
            Ok(Arc::new(out.with_precision_and_scale(*p, *s)?))
        }
        t if is_float(t) => on_floats!(t, floats, a, abs),
        t => on_integers!(t, ints, a, abs),
    }
}

/// Minimal numeric traits over the Arrow native types used here.
mod num_like {
    use std::ops::{Add, Div, Mul, Neg, Rem, Sub};

    pub trait Integer: Copy {
        fn wrapping_add_(self, o: Self) -> Self;
        fn wrapping_sub_(self, o: Self) -> Self;
        fn wrapping_mul_(self, o: Self) -> Self;
        fn wrapping_div_(self, o: Self) -> Self;
        fn wrapping_rem_(self, o: Self) -> Self;
        fn wrapping_neg_(self) -> Self;
        fn wrapping_abs_(self) -> Self;
        fn is_zero_(self) -> bool;
    }

    macro_rules! integer {
        ($($t:ty),*) => {$(
            impl Integer for $t {
                fn wrapping_add_(self, o: Self) -> Self { self.wrapping_add(o) }
                fn wrapping_sub_(self, o: Self) -> Self { self.wrapping_sub(o) }
                fn wrapping_mul_(self, o: Self) -> Self { self.wrapping_mul(o) }
                fn wrapping_div_(self, o: Self) -> Self { self.wrapping_div(o) }
                fn wrapping_rem_(self, o: Self) -> Self { self.wrapping_rem(o) }
                fn wrapping_neg_(self) -> Self { self.wrapping_neg() }
                fn wrapping_abs_(self) -> Self { self.wrapping_abs() }
                fn is_zero_(self) -> bool { self == 0 }
            }
        )*};
    }
    integer!(i8, i16, i32, i64);

    pub trait Float:
        Copy
        + Add<Output = Self>
        + Sub<Output = Self>
        + Mul<Output = Self>
        + Div<Output = Self>
        + Rem<Output = Self>
        + Neg<Output = Self>
    {
        fn abs_(self) -> Self;
    }

    impl Float for f32 {
        fn abs_(self) -> Self {
            self.abs()
        }
    }

    impl Float for f64 {
        fn abs_(self) -> Self {
            self.abs()
        }
    }
}
