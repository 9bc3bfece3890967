//! `GATUN_OUTPUT_FLINK_ROWS`: a Calc's result rows written in Flink's `BinaryRowData`
//! format, so that Java emits them with one bulk copy per batch.
//!
//! Value i of the single Binary column [`FLINK_ROW_COLUMN`] is output row i, byte for
//! byte what Flink's `BinaryRowWriter` writes for the same values into fresh (zeroed)
//! memory, as `RowDataSerializer.toBinaryRow` does (little-endian, as Flink's
//! `MemorySegment` on x86/aarch64):
//!
//! - byte 0: the row kind (`RowKind.toByteValue()`, INSERT without a sidecar column);
//! - the null bits: [`null_bits_size`] bytes, bit `i + 8` (LSB first within a byte) set
//!   when field i is NULL; the first 8 bits are the header;
//! - one 8-byte slot per field; a NULL field's slot is zero;
//! - the variable part, in field order, each piece word-aligned with zero padding;
//!   offsets in slots are relative to the row's first byte.
//!
//! The slot of a non-NULL value holds: BOOLEAN one byte 0/1; TINYINT..BIGINT, FLOAT,
//! DOUBLE, DATE, TIME, INTERVALs the little-endian value in its first bytes (raw float
//! bits); strings and bytes of at most 7 bytes inline (the bytes, then byte 7 =
//! `0x80 | len`), longer ones `offset << 32 | len` with the bytes in the variable part;
//! DECIMAL(p ≤ 18) the unscaled long, wider ones `offset << 32 | n` over 16 reserved
//! bytes holding the n-byte minimal big-endian two's complement (`BigInteger
//! .toByteArray()`); TIMESTAMP/TIMESTAMP_LTZ in milliseconds the millis, in µs/ns
//! `offset << 32 | nanoOfMillisecond` with the 8-byte millis (floor) in the variable part.
//!
//! Nested types are not encoded: [`ColumnKind::of`] refuses them at create.

mod encode;
mod kind;

pub use encode::encode;
pub use kind::ColumnKind;

/// Name of the one Binary column of a batch in the Flink-rows format.
pub const FLINK_ROW_COLUMN: &str = "__gatun_flink_row";

/// Bytes of the header and null bits of a row of `arity` fields (Flink's
/// `BinaryRowData.calculateBitSetWidthInBytes`).
pub const fn null_bits_size(arity: usize) -> usize {
    (arity + 63 + 8) / 64 * 8
}

/// Bytes of the fixed part (header, null bits and slots) of a row of `arity` fields.
pub const fn fixed_size(arity: usize) -> usize {
    null_bits_size(arity) + 8 * arity
}
