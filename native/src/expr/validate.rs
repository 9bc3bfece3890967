//! Admission of consumed expressions: only constructs whose DataFusion semantics are
//! Flink's (or Gatun functions) pass, and types must already match exactly (Java emits
//! the casts; Rust never coerces). Everything else is a plan error naming the node.

use arrow::datatypes::{DataType, IntervalUnit, TimeUnit};
use datafusion::common::DFSchema;
use datafusion::logical_expr::{Case, Cast, Expr, ExprSchemable, Operator};

use crate::udf;

/// Checks `expr` (recursively) against the admission rules.
pub fn validate(expr: &Expr, schema: &DFSchema) -> Result<(), String> {
    let ty = |e: &Expr| {
        e.get_type(schema)
            .map_err(|err| format!("cannot type `{e}`: {}", err.strip_backtrace()))
    };
    match expr {
        Expr::Column(_) => {
            ty(expr)?;
        }
        Expr::Literal(..) => {}
        Expr::Alias(a) => validate(&a.expr, schema)?,
        Expr::BinaryExpr(b) => {
            validate(&b.left, schema)?;
            validate(&b.right, schema)?;
            let (l, r) = (ty(&b.left)?, ty(&b.right)?);
            binary(&b.op, &l, &r).map_err(|why| format!("`{expr}`: {why}"))?;
        }
        Expr::Not(e)
        | Expr::IsTrue(e)
        | Expr::IsFalse(e)
        | Expr::IsUnknown(e)
        | Expr::IsNotTrue(e)
        | Expr::IsNotFalse(e)
        | Expr::IsNotUnknown(e) => {
            validate(e, schema)?;
            let t = ty(e)?;
            if !matches!(t, DataType::Boolean | DataType::Null) {
                return Err(format!("`{expr}`: operand is {t}, expected BOOLEAN"));
            }
        }
        Expr::IsNull(e) | Expr::IsNotNull(e) => validate(e, schema)?,
        Expr::Case(case) => self::case(expr, case, schema)?,
        Expr::Cast(cast) => self::cast(expr, cast, schema)?,
        Expr::ScalarFunction(f) => {
            if !udf::names().contains(&f.name()) {
                return Err(format!("`{expr}`: function {} is not admitted", f.name()));
            }
            for arg in &f.args {
                validate(arg, schema)?;
            }
        }
        Expr::TryCast(_) => {
            return Err(format!(
                "`{expr}`: TRY_CAST is not admitted as a Substrait cast; use gatun_flink_try_cast"
            ))
        }
        Expr::Like(_) | Expr::SimilarTo(_) => {
            return Err(format!(
                "`{expr}`: LIKE is not admitted; use gatun_flink_like"
            ))
        }
        Expr::Negative(_) => {
            return Err(format!(
                "`{expr}`: negation is not admitted; use gatun_flink_negate"
            ))
        }
        other => {
            return Err(format!(
                "`{other}`: {} expressions are not admitted",
                other.variant_name()
            ))
        }
    }
    Ok(())
}

fn binary(op: &Operator, l: &DataType, r: &DataType) -> Result<(), String> {
    use Operator::*;
    match op {
        And | Or => {
            let boolean = |t: &DataType| matches!(t, DataType::Boolean | DataType::Null);
            if boolean(l) && boolean(r) {
                Ok(())
            } else {
                Err(format!("{op} of {l} and {r}, expected BOOLEAN operands"))
            }
        }
        Eq | NotEq | Lt | LtEq | Gt | GtEq | IsDistinctFrom | IsNotDistinctFrom => {
            if l != r {
                Err(format!(
                    "{op} of different types {l} and {r} (Java must cast)"
                ))
            } else if matches!(l, DataType::Float32 | DataType::Float64) {
                Err(format!(
                    "{op} of {l}: Arrow orders floats totally (NaN = NaN, -0.0 < 0.0); \
                     use the gatun_flink_* comparisons"
                ))
            } else if !orderable(l) {
                Err(format!("{op} of {l} is not admitted"))
            } else {
                Ok(())
            }
        }
        Plus | Minus | Multiply => {
            let ok = l == r
                && matches!(
                    l,
                    DataType::Int8
                        | DataType::Int16
                        | DataType::Int32
                        | DataType::Int64
                        | DataType::Float32
                        | DataType::Float64
                );
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "{op} of {l} and {r}: built-in arithmetic is admitted for two equal \
                     TINYINT..BIGINT/FLOAT/DOUBLE operands only; use gatun_flink_*"
                ))
            }
        }
        Divide | Modulo => Err(format!(
            "{op}: built-in division raises and rounds unlike Flink; use gatun_flink_divide/mod"
        )),
        other => Err(format!("operator {other} is not admitted")),
    }
}

/// Types whose Arrow order is Flink's (floats excluded: see `binary`).
fn orderable(t: &DataType) -> bool {
    use DataType::*;
    matches!(
        t,
        Boolean
            | Int8
            | Int16
            | Int32
            | Int64
            | Decimal128(..)
            | Utf8
            | Date32
            | Time32(_)
            | Timestamp(..)
            | Interval(IntervalUnit::YearMonth)
            | Duration(_)
    )
}

fn case(expr: &Expr, case: &Case, schema: &DFSchema) -> Result<(), String> {
    if case.expr.is_some() {
        return Err(format!(
            "`{expr}`: simple CASE (CASE x WHEN ...) is not admitted; emit a searched CASE"
        ));
    }
    let mut result_type: Option<DataType> = None;
    let mut check_result = |e: &Expr| -> Result<(), String> {
        validate(e, schema)?;
        let t = e
            .get_type(schema)
            .map_err(|err| format!("cannot type `{e}`: {}", err.strip_backtrace()))?;
        match (&result_type, &t) {
            (_, DataType::Null) => {}
            (None, _) => result_type = Some(t),
            (Some(r), t) if r == t => {}
            (Some(r), t) => {
                return Err(format!(
                    "`{expr}`: branches of types {r} and {t} (Java must cast)"
                ))
            }
        }
        Ok(())
    };
    for (when, then) in &case.when_then_expr {
        validate(when, schema)?;
        let t = when
            .get_type(schema)
            .map_err(|err| format!("cannot type `{when}`: {}", err.strip_backtrace()))?;
        if !matches!(t, DataType::Boolean | DataType::Null) {
            return Err(format!("`{expr}`: WHEN `{when}` is {t}, expected BOOLEAN"));
        }
        check_result(then)?;
    }
    if let Some(e) = &case.else_expr {
        check_result(e)?;
    }
    Ok(())
}

fn cast(expr: &Expr, cast: &Cast, schema: &DFSchema) -> Result<(), String> {
    validate(&cast.expr, schema)?;
    let from = cast
        .expr
        .get_type(schema)
        .map_err(|err| format!("cannot type `{}`: {}", cast.expr, err.strip_backtrace()))?;
    let to = &cast.data_type;
    if lossless_cast(&from, to) {
        Ok(())
    } else {
        Err(format!(
            "`{expr}`: a Substrait cast from {from} to {to} is not admitted (only lossless \
             ones are); use gatun_flink_cast"
        ))
    }
}

/// Casts whose Arrow result equals Flink's for every value.
pub fn lossless_cast(from: &DataType, to: &DataType) -> bool {
    use DataType::*;
    let int_rank = |t: &DataType| match t {
        Int8 => Some(1),
        Int16 => Some(2),
        Int32 => Some(3),
        Int64 => Some(4),
        _ => None,
    };
    if from == to || from == &Null {
        return true;
    }
    match (from, to) {
        (Float32, Float64) => true,
        (Int8 | Int16 | Int32, Float64) | (Int8 | Int16, Float32) => true,
        (Timestamp(TimeUnit::Millisecond, None), Timestamp(TimeUnit::Microsecond, None)) => true,
        _ => matches!((int_rank(from), int_rank(to)), (Some(a), Some(b)) if a < b),
    }
}
