//! The native aggregation kernels. [`LocalAggregate`], the grouped accumulation of Flink's
//! local (pre-shuffle) aggregate: the
//! part of `LocalGroupAggregate` / `LocalWindowAggregate` after the Calc has computed keys,
//! arguments, FILTER columns and the slice end. Pure Rust, no FFI.
//!
//! It emits exactly the stock local phase's row type (keys, accumulators in Flink's local
//! layout, `$slice_end`), with Flink's accumulate semantics; see `research/local-agg.md`
//! §2 (layout, arithmetic, MIN/MAX order) and §5 (what is reused from DataFusion) and
//! `docs/native.md` ("Aggregation kernel"). [`scalar`]: accumulators one (key, slice) at a
//! time, for the window aggregate's state.

mod accumulator;
mod avg;
mod bytes_min_max;
mod count;
mod datafusion_adapter;
mod decimal;
mod float_min_max;
mod grouping;
mod local;
pub mod scalar;
mod spec;
pub mod window;

#[cfg(test)]
mod tests;

pub use local::LocalAggregate;
pub use spec::{AggArgument, AggCall, AggFunction, AggregateSpec, GroupKey};
