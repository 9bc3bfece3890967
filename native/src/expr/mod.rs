//! Substrait expressions, from plan bytes to guarded physical expressions: [`compile`]
//! decodes and consumes an `ExtendedExpression`, `validate` admits what behaves like
//! Flink, `guard` keeps Flink's row-wise short-circuiting, `switch` evaluates the CASE
//! that picks a column by an integer code without per-branch filtering. Operator kinds
//! give the named expressions their meaning.

mod compiled;
mod guard;
mod plan;
mod switch;
mod validate;

pub use compiled::{Compiled, ROLE_PREFIX};
pub use plan::{compile, compile_expressions};
