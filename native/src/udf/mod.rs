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
//! `native/admission/functions.json` lists every function with its argument types and
//! return-type rule; `tests/c_abi/udf_*.rs` test each one through the C ABI.

mod arith;
mod cast;
mod compare;
mod decimal;
mod java_case;
mod java_fmt;
mod java_word_break;
mod like;
mod parse;
#[cfg(test)]
mod reference;
mod string;
mod temporal;
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
use datafusion::common::{
    exec_datafusion_err, internal_err, plan_err, DataFusionError, Result, ScalarValue,
};
use datafusion::logical_expr::{
    ColumnarValue, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature, Volatility,
};

pub use java_fmt::{java_double_to_string, java_float_to_string};

/// The arguments of one kernel call: arrays of equal length (one row when every
/// argument was a literal) and which of them were literals.
pub struct Args<'a> {
    pub arrays: &'a [ArrayRef],
    pub literal: &'a [bool],
    pub return_type: &'a DataType,
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

/// A Flink-semantics scalar function.
pub struct FlinkUdf {
    name: &'static str,
    signature: Signature,
    return_type: ReturnTypeFn,
    kernel: KernelFn,
    fallible: bool,
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
        }
    }
}

impl fmt::Debug for FlinkUdf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FlinkUdf({})", self.name)
    }
}

// A function is identified by its name (names are unique in the registry).
impl PartialEq for FlinkUdf {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for FlinkUdf {}

impl Hash for FlinkUdf {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
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
        all.extend(like::functions());
        all.extend(cast::functions());
        all.extend(temporal::functions());
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
