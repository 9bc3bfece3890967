//! The encoder: row sizes first (offsets exact, one buffer), then column by
//! column the null bits, the slots and the variable parts, each row keeping a cursor
//! into its variable part, so the pieces land in field order as Flink writes them.
//!
//! Columns are written block by block of rows (about [`BLOCK_BYTES`] of output each,
//! zeroed right before), so a block's output stays in cache across its columns.

use arrow::array::{Array, ArrayData, ArrayRef, AsArray, BinaryArray, BooleanArray};
use arrow::buffer::{MutableBuffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow::datatypes::{Decimal128Type, Int8Type};
use arrow::util::bit_iterator::BitIndexIterator;

use super::{fixed_size, null_bits_size, ColumnKind};

/// Strings and bytes up to this length live inline in their slot.
const INLINE_MAX: usize = 7;
/// Marks an inline value in the slot's last byte, next to its length.
const INLINE_MARK: u8 = 0x80;
/// Variable bytes reserved for a DECIMAL(p > 18), whatever its unscaled length.
const WIDE_DECIMAL_BYTES: usize = 16;
/// Output bytes per block of rows written column by column (within the L1 data cache).
const BLOCK_BYTES: usize = 16 * 1024;

/// Encodes `rows` rows of `columns` (with the encodings `kinds`) and the optional Int8
/// row-kind column into one Binary array, value i being row i in Flink's
/// `BinaryRowData` format (see the module docs). Fails when a column does not have
/// the type its kind was chosen for, or when the rows exceed 2 GiB (i32 offsets).
pub fn encode(
    columns: &[ArrayRef],
    kinds: &[ColumnKind],
    row_kinds: Option<&ArrayRef>,
    rows: usize,
) -> Result<BinaryArray, String> {
    if columns.len() != kinds.len() {
        return Err(format!(
            "{} columns for {} kinds",
            columns.len(),
            kinds.len()
        ));
    }
    if let Some(c) = columns.iter().chain(row_kinds).find(|c| c.len() != rows) {
        return Err(format!("a column of {} rows in a batch of {rows}", c.len()));
    }
    let row_kinds = row_kinds
        .map(|k| {
            k.as_primitive_opt::<Int8Type>()
                .map(|k| k.values().as_ref())
                .ok_or_else(|| format!("the row-kind column is {}, not Int8", k.data_type()))
        })
        .transpose()?;
    let data: Vec<ArrayData> = columns.iter().map(|c| c.to_data()).collect();
    let sources = columns
        .iter()
        .zip(&data)
        .zip(kinds)
        .enumerate()
        .map(|(field, ((column, data), kind))| {
            Source::new(column, data, *kind).map_err(|e| format!("column {field}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let arity = columns.len();
    let fixed = fixed_size(arity);
    // Each row's size, then (reset to `fixed`) its variable-part cursor.
    let mut cursors = vec![fixed; rows];
    for source in &sources {
        source.add_variable_sizes(&mut cursors);
    }
    let mut offsets = Vec::with_capacity(rows + 1);
    offsets.push(0i32);
    let mut total = 0usize;
    for cursor in &mut cursors {
        total += *cursor;
        let end = i32::try_from(total).map_err(|_| {
            format!("the {rows} rows take more than 2 GiB as Flink rows; use smaller batches")
        })?;
        offsets.push(end);
        *cursor = fixed;
    }
    // Zeroed block by block, right before the block is written (still in cache).
    let mut values = MutableBuffer::with_capacity(total);
    let null_bits = null_bits_size(arity);
    let mut lo = 0;
    while lo < rows {
        let base = offsets[lo] as usize;
        let hi = (lo + 1..rows)
            .find(|&r| offsets[r] as usize >= base + BLOCK_BYTES)
            .unwrap_or(rows);
        values.extend_zeros(offsets[hi] as usize - base);
        let mut out = Rows {
            out: &mut values.as_slice_mut()[base..],
            base,
            starts: &offsets[..rows],
        };
        if let Some(kinds) = row_kinds {
            (lo..hi).for_each(|r| out.put(r, 0, [kinds[r] as u8]));
        }
        for (field, source) in sources.iter().enumerate() {
            let slot = null_bits + 8 * field;
            source.write(&mut out, field, slot, lo..hi, &mut cursors);
        }
        lo = hi;
    }
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    BinaryArray::try_new(offsets, values.into(), None).map_err(|e| e.to_string())
}

/// The zeroed output of one block of rows (from byte `base` of the values) and each
/// row's first byte in the values.
///
/// The hot loops use wrapping arithmetic (the library is built with overflow checks):
/// every write still goes through one slice bounds check, which catches any bad index.
struct Rows<'a> {
    out: &'a mut [u8],
    base: usize,
    starts: &'a [i32],
}

impl Rows<'_> {
    /// Index in `out` of byte `at` of row `r`.
    #[inline]
    fn index(&self, r: usize, at: usize) -> usize {
        (self.starts[r] as usize)
            .wrapping_sub(self.base)
            .wrapping_add(at)
    }

    /// Writes `bytes` at byte `at` of row `r`.
    #[inline]
    fn put<const N: usize>(&mut self, r: usize, at: usize, bytes: [u8; N]) {
        let start = self.index(r, at);
        // An array store, not `copy_from_slice`: no per-call debug precondition checks.
        *self.out[start..]
            .first_chunk_mut::<N>()
            .expect("a write past the block") = bytes;
    }

    /// Writes `bytes` (of any length) at byte `at` of row `r`.
    #[inline]
    fn put_slice(&mut self, r: usize, at: usize, bytes: &[u8]) {
        let start = self.index(r, at);
        self.out[start..start.wrapping_add(bytes.len())].copy_from_slice(bytes);
    }

    #[inline]
    fn set_bits(&mut self, r: usize, at: usize, bits: u8) {
        let i = self.index(r, at);
        self.out[i] |= bits;
    }
}

type Range = std::ops::Range<usize>;

/// Calls `f` for each non-NULL row of `rows`.
#[inline]
fn for_valid(nulls: Option<&NullBuffer>, rows: Range, f: impl FnMut(usize)) {
    match nulls {
        Some(n) => {
            let lo = rows.start;
            BitIndexIterator::new(n.validity(), n.offset() + lo, rows.len())
                .map(|i| lo + i)
                .for_each(f)
        }
        None => rows.for_each(f),
    }
}

/// Runs `$body` for each non-NULL row `$r` of `$rows` and sets the null bit
/// `$null_bit = (byte, mask)` of the others (their slot stays zero). A macro, not a
/// closure-taking function: at opt-level 2 the per-row closure call was not inlined.
macro_rules! each_row {
    ($out:ident, $nulls:expr, $rows:expr, $null_bit:expr, |$r:ident| $body:expr) => {{
        let (byte, mask) = $null_bit;
        match $nulls {
            None => {
                for $r in $rows {
                    $body;
                }
            }
            Some(n) => {
                for $r in $rows {
                    if n.is_valid($r) {
                        $body;
                    } else {
                        $out.set_bits($r, byte, mask);
                    }
                }
            }
        }
    }};
}

fn word_aligned(len: usize) -> usize {
    len.wrapping_add(7) & !7
}

/// A slot pointing into the row's variable part.
#[inline]
fn offset_and_size(offset: usize, size: usize) -> [u8; 8] {
    (((offset as u64) << 32) | size as u64).to_le_bytes()
}

/// One column's values, looked up once per batch.
struct Source<'a> {
    /// `None` when the column has no NULLs.
    nulls: Option<&'a NullBuffer>,
    values: Values<'a>,
}

enum Values<'a> {
    Null,
    Boolean(&'a BooleanArray),
    /// Little-endian values of `width` bytes, from the column's first row.
    Fixed {
        bytes: &'a [u8],
        width: usize,
    },
    CompactDecimal(&'a [i128]),
    WideDecimal(&'a [i128]),
    /// This array's `len + 1` offsets and the whole values buffer.
    Bytes {
        offsets: &'a [i32],
        bytes: &'a [u8],
    },
    WideTimestamp {
        values: &'a [i64],
        units_per_milli: i64,
    },
}

impl<'a> Source<'a> {
    fn new(column: &'a ArrayRef, data: &'a ArrayData, kind: ColumnKind) -> Result<Self, String> {
        let wrong = |what: &str| format!("{} is not {what}", column.data_type());
        let values = match kind {
            ColumnKind::Null => Values::Null,
            ColumnKind::Boolean => {
                Values::Boolean(column.as_boolean_opt().ok_or_else(|| wrong("Boolean"))?)
            }
            ColumnKind::Fixed1 => Values::Fixed {
                bytes: fixed_values(data, 1)?,
                width: 1,
            },
            ColumnKind::Fixed2 => Values::Fixed {
                bytes: fixed_values(data, 2)?,
                width: 2,
            },
            ColumnKind::Fixed4 => Values::Fixed {
                bytes: fixed_values(data, 4)?,
                width: 4,
            },
            ColumnKind::Fixed8 => Values::Fixed {
                bytes: fixed_values(data, 8)?,
                width: 8,
            },
            ColumnKind::CompactDecimal => {
                Values::CompactDecimal(decimals(column).ok_or_else(|| wrong("Decimal128"))?)
            }
            ColumnKind::WideDecimal => {
                Values::WideDecimal(decimals(column).ok_or_else(|| wrong("Decimal128"))?)
            }
            ColumnKind::Bytes => {
                let (offsets, bytes) = if let Some(a) = column.as_string_opt::<i32>() {
                    (a.value_offsets(), a.values().as_slice())
                } else if let Some(a) = column.as_binary_opt::<i32>() {
                    (a.value_offsets(), a.values().as_slice())
                } else {
                    return Err(format!("{} is neither Utf8 nor Binary", column.data_type()));
                };
                Values::Bytes { offsets, bytes }
            }
            ColumnKind::WideTimestamp { units_per_milli } => {
                if data.buffers().len() != 1 || data.data_type().primitive_width() != Some(8) {
                    return Err(wrong("a 64-bit timestamp"));
                }
                Values::WideTimestamp {
                    values: &data.buffer::<i64>(0)[..data.len()],
                    units_per_milli,
                }
            }
        };
        let nulls = column.nulls().filter(|n| n.null_count() > 0);
        Ok(Self { nulls, values })
    }

    fn add_variable_sizes(&self, sizes: &mut [usize]) {
        let rows = 0..sizes.len();
        match self.values {
            Values::Bytes { offsets, .. } => for_valid(self.nulls, rows, |r| {
                let len = (offsets[r + 1] - offsets[r]) as usize;
                if len > INLINE_MAX {
                    sizes[r] += word_aligned(len);
                }
            }),
            Values::WideDecimal(_) => {
                for_valid(self.nulls, rows, |r| sizes[r] += WIDE_DECIMAL_BYTES)
            }
            Values::WideTimestamp { .. } => for_valid(self.nulls, rows, |r| sizes[r] += 8),
            _ => {}
        }
    }

    /// Writes field `field` (its slot at byte `slot`) of the rows `rows`.
    fn write(&self, out: &mut Rows, field: usize, slot: usize, rows: Range, cursors: &mut [usize]) {
        let null_bit = ((field + 8) / 8, 1u8 << ((field + 8) % 8));
        let nulls = self.nulls;
        match self.values {
            Values::Null => rows.for_each(|r| out.set_bits(r, null_bit.0, null_bit.1)),
            Values::Boolean(values) => {
                let values = values.values();
                each_row!(out, nulls, rows, null_bit, |r| out.put(
                    r,
                    slot,
                    [values.value(r) as u8]
                ))
            }
            Values::Fixed { bytes, width: 1 } => {
                fixed::<1>(out, slot, bytes, nulls, rows, null_bit)
            }
            Values::Fixed { bytes, width: 2 } => {
                fixed::<2>(out, slot, bytes, nulls, rows, null_bit)
            }
            Values::Fixed { bytes, width: 4 } => {
                fixed::<4>(out, slot, bytes, nulls, rows, null_bit)
            }
            Values::Fixed { bytes, .. } => fixed::<8>(out, slot, bytes, nulls, rows, null_bit),
            Values::CompactDecimal(values) => each_row!(out, nulls, rows, null_bit, |r| {
                out.put(r, slot, (values[r] as i64).to_le_bytes())
            }),
            Values::WideDecimal(values) => each_row!(out, nulls, rows, null_bit, |r| {
                let (bytes, len) = unscaled_bytes(values[r]);
                let at = cursors[r];
                out.put(r, at, bytes);
                out.put(r, slot, offset_and_size(at, len));
                cursors[r] = at.wrapping_add(WIDE_DECIMAL_BYTES);
            }),
            Values::Bytes { offsets, bytes } => each_row!(out, nulls, rows, null_bit, |r| {
                let (start, end) = (offsets[r] as usize, offsets[r.wrapping_add(1)] as usize);
                let value = &bytes[start..end];
                let len = value.len();
                if len <= INLINE_MAX {
                    out.put(r, slot, inline(bytes, start, len).to_le_bytes());
                } else {
                    let at = cursors[r];
                    out.put_slice(r, at, value);
                    out.put(r, slot, offset_and_size(at, len));
                    cursors[r] = at.wrapping_add(word_aligned(len));
                }
            }),
            Values::WideTimestamp {
                values,
                units_per_milli,
            } => {
                let nanos_per_unit = 1_000_000 / units_per_milli;
                each_row!(out, nulls, rows, null_bit, |r| {
                    let v = values[r];
                    let millis = v.div_euclid(units_per_milli);
                    let nano_of_milli = v.rem_euclid(units_per_milli) * nanos_per_unit;
                    let at = cursors[r];
                    out.put(r, at, millis.to_le_bytes());
                    out.put(r, slot, offset_and_size(at, nano_of_milli as usize));
                    cursors[r] = at.wrapping_add(8);
                })
            }
        }
    }
}

/// Copies each non-NULL `N`-byte little-endian value to the start of its slot.
fn fixed<const N: usize>(
    out: &mut Rows,
    slot: usize,
    values: &[u8],
    nulls: Option<&NullBuffer>,
    rows: Range,
    null_bit: (usize, u8),
) {
    let (values, _) = values.as_chunks::<N>();
    each_row!(out, nulls, rows, null_bit, |r| out.put(r, slot, values[r]));
}

/// The values buffer of a fixed-width column, from its first row, `width` bytes a value.
fn fixed_values(data: &ArrayData, width: usize) -> Result<&[u8], String> {
    let start = data.offset() * width;
    data.buffers()
        .first()
        .and_then(|b| b.as_slice().get(start..start + data.len() * width))
        .ok_or_else(|| {
            format!(
                "{} has no values buffer of {width}-byte values",
                data.data_type()
            )
        })
}

fn decimals(column: &ArrayRef) -> Option<&[i128]> {
    column
        .as_primitive_opt::<Decimal128Type>()
        .map(|a| a.values().as_ref())
}

/// The 16 variable bytes of a wide decimal and how many of them are the value: Java's
/// `BigInteger.toByteArray()` (the fewest big-endian two's complement bytes holding the
/// value and its sign bit), then zeros.
fn unscaled_bytes(v: i128) -> ([u8; 16], usize) {
    let magnitude = if v < 0 { !v } else { v };
    let bits = 128 - magnitude.leading_zeros() as usize;
    let len = bits / 8 + 1;
    ((v << (8 * (16 - len))).to_be_bytes(), len)
}

/// The slot of a string or bytes value of `len` ≤ 7 bytes at `bytes[start..]`: the
/// bytes in little-endian order, then `0x80 | len` in the top byte.
#[inline]
fn inline(bytes: &[u8], start: usize, len: usize) -> u64 {
    // One 8-byte load where the buffer has 8 bytes left, masked to the value.
    let word = match bytes.get(start..start.wrapping_add(8)) {
        Some(word) => u64::from_le_bytes(word.try_into().unwrap_or_default()),
        None => {
            let mut word = [0u8; 8];
            word[..len].copy_from_slice(&bytes[start..start + len]);
            u64::from_le_bytes(word)
        }
    };
    let value = if len == 0 {
        0
    } else {
        word & (u64::MAX >> (64 - 8 * len))
    };
    value | (u64::from(INLINE_MARK) | len as u64) << 56
}

#[cfg(test)]
mod tests {
    use super::unscaled_bytes;

    fn java(v: i128) -> Vec<u8> {
        let (bytes, len) = unscaled_bytes(v);
        assert!(
            bytes[len..].iter().all(|b| *b == 0),
            "zeros after the value"
        );
        bytes[..len].to_vec()
    }

    #[test]
    fn unscaled_bytes_are_big_integer_to_byte_array() {
        assert_eq!(java(0), [0]);
        assert_eq!(java(1), [1]);
        assert_eq!(java(-1), [0xff]);
        assert_eq!(java(127), [0x7f]);
        assert_eq!(java(128), [0, 0x80]);
        assert_eq!(java(-128), [0x80]);
        assert_eq!(java(-129), [0xff, 0x7f]);
        assert_eq!(java(255), [0, 0xff]);
        assert_eq!(java(256), [1, 0]);
        let max38 = 10i128.pow(38) - 1;
        assert_eq!(java(max38).len(), 16);
        assert_eq!(java(-max38).len(), 16);
        assert_eq!(java(-max38)[0], 0xb4);
        assert_eq!(java(i128::MAX).len(), 16);
        assert_eq!(java(i128::MIN), {
            let mut v = vec![0u8; 16];
            v[0] = 0x80;
            v
        });
    }
}
