//! The encoder: row sizes first (offsets exact, one zeroed buffer), then column by
//! column the null bits, the slots and the variable parts, each row keeping a cursor
//! into its variable part, so the pieces land in field order as Flink writes them.

use arrow::array::{Array, ArrayData, ArrayRef, AsArray, BinaryArray};
use arrow::buffer::{MutableBuffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow::datatypes::{Decimal128Type, Int8Type};

use super::{fixed_size, null_bits_size, ColumnKind};

/// Strings and bytes up to this length live inline in their slot.
const INLINE_MAX: usize = 7;
/// Marks an inline value in the slot's last byte, next to its length.
const INLINE_MARK: u8 = 0x80;
/// Variable bytes reserved for a DECIMAL(p > 18), whatever its unscaled length.
const WIDE_DECIMAL_BYTES: usize = 16;

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
    let arity = columns.len();
    let fixed = fixed_size(arity);
    // Each row's size, then (reset to `fixed`) its variable-part cursor.
    let mut cursors = vec![fixed; rows];
    for (field, (column, kind)) in columns.iter().zip(kinds).enumerate() {
        add_variable_sizes(column, *kind, &mut cursors)
            .map_err(|e| format!("column {field}: {e}"))?;
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
    let mut values = MutableBuffer::from_len_zeroed(total);
    let mut out = Rows {
        out: values.as_slice_mut(),
        starts: &offsets[..rows],
    };
    if let Some(row_kinds) = row_kinds {
        let row_kinds = row_kinds
            .as_primitive_opt::<Int8Type>()
            .ok_or_else(|| format!("the row-kind column is {}, not Int8", row_kinds.data_type()))?;
        for (r, kind) in row_kinds.values().iter().enumerate() {
            out.put(r, 0, &[*kind as u8]);
        }
    }
    let null_bits = null_bits_size(arity);
    for (field, (column, kind)) in columns.iter().zip(kinds).enumerate() {
        let slot = null_bits + 8 * field;
        write_column(&mut out, field, slot, column, *kind, &mut cursors)
            .map_err(|e| format!("column {field}: {e}"))?;
    }
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    BinaryArray::try_new(offsets, values.into(), None).map_err(|e| e.to_string())
}

/// The output rows: one zeroed buffer and each row's first byte in it.
struct Rows<'a> {
    out: &'a mut [u8],
    starts: &'a [i32],
}

impl Rows<'_> {
    /// Writes `bytes` at byte `at` of row `r`.
    #[inline]
    fn put(&mut self, r: usize, at: usize, bytes: &[u8]) {
        let start = self.starts[r] as usize + at;
        self.out[start..start + bytes.len()].copy_from_slice(bytes);
    }

    #[inline]
    fn set_bits(&mut self, r: usize, at: usize, bits: u8) {
        self.out[self.starts[r] as usize + at] |= bits;
    }
}

/// Calls `f` for each non-NULL row of `rows`.
#[inline]
fn for_valid(nulls: Option<&NullBuffer>, rows: usize, f: impl FnMut(usize)) {
    match nulls {
        Some(n) if n.null_count() > 0 => n.valid_indices().for_each(f),
        _ => (0..rows).for_each(f),
    }
}

fn word_aligned(len: usize) -> usize {
    (len + 7) & !7
}

/// A slot pointing into the row's variable part.
#[inline]
fn offset_and_size(offset: usize, size: usize) -> [u8; 8] {
    (((offset as u64) << 32) | size as u64).to_le_bytes()
}

fn add_variable_sizes(
    column: &ArrayRef,
    kind: ColumnKind,
    sizes: &mut [usize],
) -> Result<(), String> {
    let rows = sizes.len();
    let nulls = column.nulls();
    match kind {
        ColumnKind::Bytes => {
            let (offsets, _) = bytes_of(column)?;
            for_valid(nulls, rows, |r| {
                let len = (offsets[r + 1] - offsets[r]) as usize;
                if len > INLINE_MAX {
                    sizes[r] += word_aligned(len);
                }
            });
        }
        ColumnKind::WideDecimal => for_valid(nulls, rows, |r| sizes[r] += WIDE_DECIMAL_BYTES),
        ColumnKind::WideTimestamp { .. } => for_valid(nulls, rows, |r| sizes[r] += 8),
        _ => {}
    }
    Ok(())
}

/// Offsets (this array's `len + 1`) and the whole values buffer of a Utf8 or Binary array.
fn bytes_of(column: &ArrayRef) -> Result<(&[i32], &[u8]), String> {
    if let Some(a) = column.as_string_opt::<i32>() {
        return Ok((a.value_offsets(), a.values().as_slice()));
    }
    if let Some(a) = column.as_binary_opt::<i32>() {
        return Ok((a.value_offsets(), a.values().as_slice()));
    }
    Err(format!("{} is neither Utf8 nor Binary", column.data_type()))
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

fn write_column(
    out: &mut Rows,
    field: usize,
    slot: usize,
    column: &ArrayRef,
    kind: ColumnKind,
    cursors: &mut [usize],
) -> Result<(), String> {
    let rows = cursors.len();
    let (bit_byte, bit) = ((field + 8) / 8, 1u8 << ((field + 8) % 8));
    if kind == ColumnKind::Null {
        (0..rows).for_each(|r| out.set_bits(r, bit_byte, bit));
        return Ok(());
    }
    let nulls = column.nulls();
    if let Some(n) = nulls.filter(|n| n.null_count() > 0) {
        for r in 0..rows {
            if n.is_null(r) {
                out.set_bits(r, bit_byte, bit);
            }
        }
    }
    match kind {
        ColumnKind::Null => {}
        ColumnKind::Boolean => {
            let values = column
                .as_boolean_opt()
                .ok_or_else(|| format!("{} is not Boolean", column.data_type()))?;
            for_valid(nulls, rows, |r| out.put(r, slot, &[values.value(r) as u8]));
        }
        ColumnKind::Fixed1 => fixed::<1>(out, slot, column, nulls)?,
        ColumnKind::Fixed2 => fixed::<2>(out, slot, column, nulls)?,
        ColumnKind::Fixed4 => fixed::<4>(out, slot, column, nulls)?,
        ColumnKind::Fixed8 => fixed::<8>(out, slot, column, nulls)?,
        ColumnKind::CompactDecimal => {
            let values = decimals(column)?;
            for_valid(nulls, rows, |r| {
                out.put(r, slot, &(values[r] as i64).to_le_bytes())
            });
        }
        ColumnKind::WideDecimal => {
            let values = decimals(column)?;
            for_valid(nulls, rows, |r| {
                let (bytes, len) = unscaled_bytes(values[r]);
                let at = cursors[r];
                out.put(r, at, &bytes[16 - len..]);
                out.put(r, slot, &offset_and_size(at, len));
                cursors[r] += WIDE_DECIMAL_BYTES;
            });
        }
        ColumnKind::Bytes => {
            let (offsets, values) = bytes_of(column)?;
            for_valid(nulls, rows, |r| {
                let (start, end) = (offsets[r] as usize, offsets[r + 1] as usize);
                let (bytes, len) = (&values[start..end], end - start);
                if len <= INLINE_MAX {
                    let mut inline = [0u8; 8];
                    inline[..len].copy_from_slice(bytes);
                    inline[7] = INLINE_MARK | len as u8;
                    out.put(r, slot, &inline);
                } else {
                    let at = cursors[r];
                    out.put(r, at, bytes);
                    out.put(r, slot, &offset_and_size(at, len));
                    cursors[r] += word_aligned(len);
                }
            });
        }
        ColumnKind::WideTimestamp { units_per_milli } => {
            let data = column.to_data();
            let values = fixed_values(&data, 8)?;
            let nanos_per_unit = 1_000_000 / units_per_milli;
            for_valid(nulls, rows, |r| {
                let v = i64::from_le_bytes(values[r * 8..r * 8 + 8].try_into().unwrap());
                let millis = v.div_euclid(units_per_milli);
                let nano_of_milli = v.rem_euclid(units_per_milli) * nanos_per_unit;
                let at = cursors[r];
                out.put(r, at, &millis.to_le_bytes());
                out.put(r, slot, &offset_and_size(at, nano_of_milli as usize));
                cursors[r] += 8;
            });
        }
    }
    Ok(())
}

/// Copies each non-NULL `N`-byte little-endian value to the start of its slot.
fn fixed<const N: usize>(
    out: &mut Rows,
    slot: usize,
    column: &ArrayRef,
    nulls: Option<&NullBuffer>,
) -> Result<(), String> {
    let data = column.to_data();
    let values = fixed_values(&data, N)?;
    for_valid(nulls, data.len(), |r| {
        out.put(r, slot, &values[r * N..r * N + N])
    });
    Ok(())
}

fn decimals(column: &ArrayRef) -> Result<&[i128], String> {
    column
        .as_primitive_opt::<Decimal128Type>()
        .map(|a| a.values().as_ref())
        .ok_or_else(|| format!("{} is not Decimal128", column.data_type()))
}

/// The big-endian bytes of `v` and how many of the last ones Java's
/// `BigInteger.toByteArray()` keeps: the fewest holding the value and its sign bit.
fn unscaled_bytes(v: i128) -> ([u8; 16], usize) {
    let magnitude = if v < 0 { !v } else { v };
    let bits = 128 - magnitude.leading_zeros() as usize;
    (v.to_be_bytes(), bits / 8 + 1)
}

#[cfg(test)]
mod tests {
    use super::unscaled_bytes;

    fn java(v: i128) -> Vec<u8> {
        let (bytes, len) = unscaled_bytes(v);
        bytes[16 - len..].to_vec()
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
