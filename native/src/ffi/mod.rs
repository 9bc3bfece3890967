//! The C ABI of `gatun.h`: the `extern "C"` functions and everything that touches C
//! structs. Every status-returning function runs its body in [`guard::guard`]; handles
//! are checked against [`live_handles`]; input batches come in through [`input`] (one
//! import for every operator kind) and results go out through [`export`].

pub mod abi;
pub(crate) mod c_shape;
#[cfg(test)]
mod debug;
pub mod export;
pub mod guard;
pub(crate) mod import;
mod input;
mod live_handles;
pub mod operator;
pub mod passthrough;
pub mod roundtrip;
pub mod stats;
mod text_check;
