//! Tests of the C ABI, called the way Java calls it: through the `extern "C"`
//! functions with C Data structs exported by arrow-rs. One test binary; tests that
//! read the global counters hold `common::serial()`.

mod common;
mod errors;
mod header;
mod layout;
mod roundtrip;
mod stats;
