//! Event-time window slicing as Flink's slicing window operators do it: which slice a row
//! belongs to ([`slices`]), the time zone shift of `TIMESTAMP_LTZ` windows ([`zone`]) and
//! when a buffer of slices must be emitted as the watermark advances ([`trigger`]).
//!
//! Shared by the local window aggregate (`ops::local_aggregate`) and the window aggregate
//! (`ops::window_aggregate`).
//! Arithmetic is Java `long` arithmetic (wrapping) where Flink's is; conversions that throw
//! in Java (`Math.addExact` inside `java.time`) are errors here.

pub mod slices;
pub mod trigger;
pub mod zone;

#[cfg(test)]
mod tests;

pub use slices::{SliceAssigner, WindowKind};
pub use trigger::{window_fired, FlushTrigger};
pub use zone::ShiftZone;
