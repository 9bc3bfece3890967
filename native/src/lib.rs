//! Gatun native library: Flink SQL operators in Rust behind the small C ABI of
//! `jextract-config/include/gatun.h`, with Arrow data crossing through the Arrow C
//! Data Interface. Java calls it through the FFM API only.
//!
//! - [`ffi`]: the `extern "C"` functions, the boundary guard (every status-returning
//!   function runs its body in [`ffi::guard::guard`]: panics are caught and every error
//!   becomes a `GATUN_ERR_*` status plus a message in the caller's buffer), the import and
//!   export of C Data structs, the live-handle registry;
//! - [`expr`]: Substrait expressions consumed, admitted and compiled;
//! - [`ops`]: the kinds of the one native operator handle ([`ops::NativeOperator`]);
//! - [`aggregate`]: the grouped accumulation of the local aggregate (Flink local-phase accumulators);
//! - [`flink_row`]: Flink's `BinaryRowData` encoding; [`udf`]: Flink-semantics functions.

pub mod aggregate;
pub mod expr;
pub mod ffi;
pub mod flink_row;
pub mod ops;
pub mod udf;

#[cfg(test)]
mod test_rng;

pub use ffi::abi::{
    gatun_abi_version, GatunNativeStats, GatunStateStats, GatunWatermarkProgress,
    GATUN_ABI_VERSION as ABI_VERSION,
};
pub use ffi::guard::{GatunError, GatunResult};
pub use ffi::operator::{
    gatun_operator_advance, gatun_operator_create, gatun_operator_flush, gatun_operator_free,
    gatun_operator_held_bytes, gatun_operator_limit_state, gatun_operator_process,
    gatun_operator_restore, gatun_operator_restore_progress, gatun_operator_snapshot,
    gatun_operator_state_stats, GatunOperator,
};
pub use ffi::passthrough::{
    gatun_passthrough, gatun_passthrough_create, gatun_passthrough_free, GatunPassthrough,
};
pub use ffi::roundtrip::gatun_roundtrip;
pub use ffi::stats::gatun_native_stats;
