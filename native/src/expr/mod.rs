//! Substrait expressions, from plan bytes to guarded physical expressions: [`compile`]
//! decodes and consumes an `ExtendedExpression`, `validate` admits what behaves like
//! Flink, `guard` keeps Flink's row-wise short-circuiting. Operator kinds give the
//! named expressions their meaning.

mod compiled;
mod guard;
mod plan;
mod validate;

pub use compiled::{Compiled, ROLE_PREFIX};
pub use plan::{compile, compile_expressions};
