//! Flink-semantics scalar functions (`gatun_flink_*`), registered with DataFusion and
//! referenced by name from Substrait plans.
//!
//! Every function is a [`FlinkUdf`]: a name, a strict return-type rule (argument types
//! must already be what Flink computes with: Java emits the casts, Rust never coerces)
//! and a kernel over arrays. The wrapper gives all of them the same calling rules:
//! - a batch of 0 rows evaluates nothing (a raising expression over literals inside an
//!   untaken CASE branch must not raise);
//! - all-literal arguments are evaluated once, on one row, and give a scalar;
//! - NULL handling is each kernel's own (most are NULL in, NULL out; CONCAT too).
//!
//! A function may also bind literal arguments once per plan ([`bind`], called when a plan is
//! compiled): REGEXP_EXTRACT compiles its pattern there, and its kernel gets the result as
//! [`Args::state`].
//!
//! `native/admission/functions.json` lists every function with its argument types and
//! return-type rule; `tests/c_abi/udf_*.rs` test each one through the C ABI.

mod arith;
mod cast;
mod compare;
mod decimal;
mod java_case;
mod java_fmt;
mod java_regex;
mod java_word_break;
mod like;
mod parse;
#[cfg(test)]
mod reference;
mod regexp;
mod split;
mod string;
mod temporal;
mod timestamp_plus;
#[cfg(test)]
mod timing;
mod unicode_data;

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use arrow::array::{new_empty_array, ArrayRef};
use arrow::datatypes::DataType;
use arrow::error::ArrowError;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::common::{
    exec_datafusion_err, internal_err, plan_err, DataFusionError, Result, ScalarValue,
};
use datafusion::logical_expr::expr::ScalarFunction;
use datafusion::logical_expr::{
    ColumnarValue, Expr, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature, Volatility,
};

pub use java_fmt::{java_double_to_string, java_float_to_string};

/// The arguments of one kernel call: arrays of equal length (one row when every
/// argument was a literal) and which of them were literals.
pub struct Args<'a> {
    pub arrays: &'a [ArrayRef],
    pub literal: &'a [bool],
    pub return_type: &'a DataType,
    /// What the function's binder made of the plan's literal arguments, if it has one.
    pub state: Option<&'a (dyn Any + Send + Sync)>,
}

impl Args<'_> {
    /// Number of rows of the arrays.
    pub fn rows(&self) -> usize {
        self.arrays.first().map_or(0, |a| a.len())
    }
}

/// Return-type rule: the argument types (already exact) → the result type, or why not.
pub type ReturnTypeFn = fn(&[DataType]) -> std::result::Result<DataType, String>;
/// Kernel: evaluates the function over arrays of equal length.
pub type KernelFn = fn(&Args) -> Result<ArrayRef>;
/// Binder: the plan's argument expressions → a key naming the bound state (equal keys, equal
/// states) and the state the kernel receives, or why the call is not admitted.
pub type BindFn = fn(&[Expr]) -> std::result::Result<(String, BoundState), String>;
/// State a binder made once per plan.
pub type BoundState = Arc<dyn Any + Send + Sync>;

/// A Flink-semantics scalar function.
#[derive(Clone)]
pub struct FlinkUdf {
    name: &'static str,
    signature: Signature,
    return_type: ReturnTypeFn,
    kernel: KernelFn,
    fallible: bool,
    binder: Option<BindFn>,
    bound: Option<(String, BoundState)>,
}

impl FlinkUdf {
    /// A function that can raise an error at run time (`fallible`) or not.
    pub fn new(
        name: &'static str,
        return_type: ReturnTypeFn,
        kernel: KernelFn,
        fallible: bool,
    ) -> Self {
        Self {
            name,
            signature: Signature::variadic_any(Volatility::Immutable),
            return_type,
            kernel,
            fallible,
            binder: None,
            bound: None,
        }
    }

    /// The same function with a binder: every call in a plan must be bound ([`bind`]).
    pub fn with_binder(mut self, binder: BindFn) -> Self {
        self.binder = Some(binder);
        self
    }
}

impl fmt::Debug for FlinkUdf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FlinkUdf({})", self.name)
    }
}

// A function is identified by its name (names are unique in the registry) and, once bound,
// by its binding's key.
impl PartialEq for FlinkUdf {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.bound.as_ref().map(|b| &b.0) == other.bound.as_ref().map(|b| &b.0)
    }
}

impl Eq for FlinkUdf {}

impl Hash for FlinkUdf {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
        self.bound.as_ref().map(|b| &b.0).hash(state);
    }
}

impl ScalarUDFImpl for FlinkUdf {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn name(&self) -> &str {
        self.name
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        match (self.return_type)(arg_types) {
            Ok(t) => Ok(t),
            Err(why) => plan_err!("{}({}): {why}", self.name, type_list(arg_types)),
        }
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let return_type = args.return_field.data_type().clone();
        if args.number_rows == 0 {
            return Ok(ColumnarValue::Array(new_empty_array(&return_type)));
        }
        let literal: Vec<bool> = args
            .args
            .iter()
            .map(|a| matches!(a, ColumnarValue::Scalar(_)))
            .collect();
        let all_literal = literal.iter().all(|&l| l);
        let rows = if all_literal { 1 } else { args.number_rows };
        let arrays = args
            .args
            .iter()
            .map(|a| a.to_array(rows))
            .collect::<Result<Vec<_>>>()?;
        let out = (self.kernel)(&Args {
            arrays: &arrays,
            literal: &literal,
            return_type: &return_type,
            state: self.bound.as_ref().map(|b| &*b.1 as &(dyn Any + Send + Sync)),
        })
        .map_err(|e| exec_datafusion_err!("{}: {}", self.name, kernel_message(e)))?;
        if out.len() != rows || out.data_type() != &return_type {
            return internal_err!(
                "{} returned {} rows of {}, expected {rows} of {return_type}",
                self.name,
                out.len(),
                out.data_type()
            );
        }
        if all_literal {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }
}

/// The message of a kernel error without DataFusion's/Arrow's category prefixes.
fn kernel_message(e: DataFusionError) -> String {
    match e {
        DataFusionError::ArrowError(arrow, _) => match *arrow {
            ArrowError::ComputeError(m) | ArrowError::InvalidArgumentError(m) => m,
            other => other.to_string(),
        },
        DataFusionError::Execution(m) => m,
        other => other.strip_backtrace(),
    }
}

fn type_list(types: &[DataType]) -> String {
    types
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every Gatun function, once per process.
fn registry() -> &'static [(Arc<ScalarUDF>, bool)] {
    static REGISTRY: OnceLock<Vec<(Arc<ScalarUDF>, bool)>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut all = Vec::new();
        all.extend(arith::functions());
        all.extend(compare::functions());
        all.extend(string::functions());
        all.extend(regexp::functions());
        all.extend(split::functions());
        all.extend(like::functions());
        all.extend(cast::functions());
        all.extend(temporal::functions());
        all.extend(timestamp_plus::functions());
        all.into_iter()
            .map(|f| {
                let fallible = f.fallible;
                (Arc::new(ScalarUDF::new_from_impl(f)), fallible)
            })
            .collect()
    })
}

/// All Gatun functions, for the session that consumes plans.
pub fn all() -> Vec<Arc<ScalarUDF>> {
    registry().iter().map(|(f, _)| Arc::clone(f)).collect()
}

/// The names of all Gatun functions.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|(f, _)| f.name()).collect()
}

/// Binds every call of a function with a binder in `expr` to its arguments (once per plan):
/// the call's function is replaced by a copy holding the bound state. Fails with the binder's
/// reason, naming the function.
pub fn bind(expr: Expr) -> std::result::Result<Expr, String> {
    expr.transform_up(|e| {
        let Expr::ScalarFunction(call) = &e else {
            return Ok(Transformed::no(e));
        };
        let Some(f) = call.func.inner().as_any().downcast_ref::<FlinkUdf>() else {
            return Ok(Transformed::no(e));
        };
        let (Some(binder), None) = (f.binder, &f.bound) else {
            return Ok(Transformed::no(e));
        };
        let bound = binder(&call.args)
            .map_err(|why| DataFusionError::Plan(format!("{}: {why}", f.name)))?;
        let mut g = f.clone();
        g.bound = Some(bound);
        let func = Arc::new(ScalarUDF::new_from_impl(g));
        Ok(Transformed::yes(Expr::ScalarFunction(ScalarFunction::new_udf(
            func,
            call.args.clone(),
        ))))
    })
    .map(|t| t.data)
    .map_err(|e| match e {
        DataFusionError::Plan(m) => m,
        other => other.strip_backtrace(),
    })
}

/// Whether the named Gatun function can never raise an error (unknown names: false).
pub fn is_infallible(name: &str) -> bool {
    registry()
        .iter()
        .any(|(f, fallible)| f.name() == name && !fallible)
}

// ---------------------------------------------------------------------------------
// Shared argument checks for return-type rules.

/// Fails unless there are exactly `n` arguments.
pub(crate) fn arity(types: &[DataType], n: usize) -> std::result::Result<(), String> {
    if types.len() == n {
        Ok(())
    } else {
        Err(format!("expects {n} arguments, got {}", types.len()))
    }
}

/// Whether `t` is a Flink string (CHAR/VARCHAR/STRING → Utf8).
pub(crate) fn is_string(t: &DataType) -> bool {
    matches!(t, DataType::Utf8)
}

/// Whether `t` is TINYINT..BIGINT.
pub(crate) fn is_integer(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64
    )
}

/// Whether `t` is FLOAT or DOUBLE.
pub(crate) fn is_float(t: &DataType) -> bool {
    matches!(t, DataType::Float32 | DataType::Float64)
}

/// Row access to a TINYINT..BIGINT column as `i64`, typed once per batch.
pub(crate) enum IntColumn<'a> {
    I8(&'a arrow::array::Int8Array),
    I16(&'a arrow::array::Int16Array),
    I32(&'a arrow::array::Int32Array),
    I64(&'a arrow::array::Int64Array),
}

impl<'a> IntColumn<'a> {
    /// `None` unless `a` is TINYINT..BIGINT.
    pub(crate) fn of(a: &'a ArrayRef) -> Option<Self> {
        use arrow::array::AsArray;
        use arrow::datatypes::{Int16Type, Int32Type, Int64Type, Int8Type};
        Some(match a.data_type() {
            DataType::Int8 => IntColumn::I8(a.as_primitive::<Int8Type>()),
            DataType::Int16 => IntColumn::I16(a.as_primitive::<Int16Type>()),
            DataType::Int32 => IntColumn::I32(a.as_primitive::<Int32Type>()),
            DataType::Int64 => IntColumn::I64(a.as_primitive::<Int64Type>()),
            _ => return None,
        })
    }

    /// Row `i`, `None` when NULL.
    pub(crate) fn get(&self, i: usize) -> Option<i64> {
        use arrow::array::Array;
        match self {
            IntColumn::I8(a) => a.is_valid(i).then(|| i64::from(a.value(i))),
            IntColumn::I16(a) => a.is_valid(i).then(|| i64::from(a.value(i))),
            IntColumn::I32(a) => a.is_valid(i).then(|| i64::from(a.value(i))),
            IntColumn::I64(a) => a.is_valid(i).then(|| a.value(i)),
        }
    }
}
