//! Tests of the C ABI, called the way Java calls it: through the `extern "C"`
//! functions with C Data structs exported by arrow-rs. One test binary; tests that
//! read the global counters hold `common::serial()`.

mod admission;
mod agg_util;
mod calc;
mod calc_errors;
mod calc_flink_rows;
mod calc_util;
mod common;
mod errors;
mod flink_row_ref;
mod flink_rows;
mod fuzz;
mod golden;
mod guard;
mod header;
mod layout;
mod local_aggregate;
mod local_window_aggregate;
mod operator;
mod passthrough;
mod roundtrip;
mod spec_pin;
mod stats;
mod types;
mod udf_arith;
mod udf_cast;
mod udf_string;
mod udf_temporal;
mod watermarks;
mod window_aggregate;
