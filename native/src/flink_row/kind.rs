//! How each Arrow output type is written into a Flink row.

use arrow::datatypes::{DataType, IntervalUnit, TimeUnit};

/// The encoding of one output column (chosen once per handle).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// The NULL type: every value NULL.
    Null,
    /// One byte, 0 or 1.
    Boolean,
    /// The raw little-endian value of `N` bytes at the start of the slot.
    Fixed1,
    Fixed2,
    Fixed4,
    Fixed8,
    /// DECIMAL(p ≤ 18): the unscaled value as a long.
    CompactDecimal,
    /// DECIMAL(p > 18): 16 variable bytes.
    WideDecimal,
    /// CHAR/VARCHAR (Utf8) and BINARY/VARBINARY (Binary).
    Bytes,
    /// TIMESTAMP(p > 3) in µs or ns: millis in the variable part, nanoOfMillisecond in
    /// the slot.
    WideTimestamp {
        units_per_milli: i64,
    },
}

impl ColumnKind {
    /// The encoding of an Arrow type of Gatun's type mapping (DESIGN.md §6); `None` for
    /// nested types and anything the mapping does not produce.
    pub fn of(data_type: &DataType) -> Option<Self> {
        use DataType::*;
        Some(match data_type {
            Null => Self::Null,
            Boolean => Self::Boolean,
            Int8 => Self::Fixed1,
            Int16 => Self::Fixed2,
            Int32
            | Float32
            | Date32
            | Time32(TimeUnit::Millisecond)
            | Interval(IntervalUnit::YearMonth) => Self::Fixed4,
            Int64
            | Float64
            | Duration(TimeUnit::Millisecond)
            | Timestamp(TimeUnit::Millisecond, _) => Self::Fixed8,
            Decimal128(p, _) if *p <= 18 => Self::CompactDecimal,
            Decimal128(..) => Self::WideDecimal,
            Utf8 | Binary => Self::Bytes,
            Timestamp(TimeUnit::Microsecond, _) => Self::WideTimestamp {
                units_per_milli: 1_000,
            },
            Timestamp(TimeUnit::Nanosecond, _) => Self::WideTimestamp {
                units_per_milli: 1_000_000,
            },
            _ => return None,
        })
    }
}
