//! Gatun native library: Flink SQL operators in Rust behind the small C ABI of
//! `jextract-config/include/gatun.h`, with Arrow data crossing through the Arrow C
//! Data Interface. Java calls it through the FFM API only.
//!
//! Every status-returning `extern "C"` function runs its body in
//! [`ffi_guard::guard`]: panics are caught and every error becomes a `GATUN_ERR_*`
//! status plus a message in the caller's buffer.

pub mod abi;
pub mod aggregate;
mod c_shape;
pub mod calc;
mod debug;
pub mod export;
pub mod ffi_guard;
pub mod flink_row;
mod import;
mod live_handles;
mod passthrough;
mod roundtrip;
pub mod stats;
pub mod udf;

pub use abi::{gatun_abi_version, GatunNativeStats, GATUN_ABI_VERSION as ABI_VERSION};
pub use calc::{gatun_calc_create, gatun_calc_evaluate, gatun_calc_free, GatunCalc};
pub use debug::gatun_debug_panic;
pub use ffi_guard::{GatunError, GatunResult};
pub use passthrough::{
    gatun_passthrough, gatun_passthrough_create, gatun_passthrough_free, GatunPassthrough,
};
pub use roundtrip::gatun_roundtrip;
pub use stats::gatun_native_stats;
