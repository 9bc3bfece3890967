//! A reference for the Flink-rows output: rows written one at a time the way Flink's
//! `BinaryRowWriter` writes them (row-major, a growing buffer, a cursor), independent
//! of the column-major encoder in `src/flink_row`.

/// One field value, already in Flink's internal form.
#[derive(Clone, Debug, PartialEq)]
pub enum V {
    Null,
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    /// Unscaled value and precision.
    Dec(i128, u8),
    Bytes(Vec<u8>),
    /// Millis, nanoOfMillisecond and whether the precision is ≤ 3.
    Ts(i64, i32, bool),
}

pub fn s(text: &str) -> V {
    V::Bytes(text.as_bytes().to_vec())
}

/// `BigInteger.toByteArray()`: strip leading bytes that only repeat the sign.
fn java_unscaled_bytes(v: i128) -> Vec<u8> {
    let mut bytes = v.to_be_bytes().to_vec();
    while bytes.len() > 1
        && ((bytes[0] == 0x00 && bytes[1] & 0x80 == 0)
            || (bytes[0] == 0xff && bytes[1] & 0x80 != 0))
    {
        bytes.remove(0);
    }
    bytes
}

/// The bytes of one row as `RowDataSerializer.toBinaryRow` writes it into a fresh writer.
pub fn flink_row(kind: u8, values: &[V]) -> Vec<u8> {
    let arity = values.len();
    let null_bits = (arity + 63 + 8) / 64 * 8;
    let mut row = vec![0u8; null_bits + 8 * arity];
    row[0] = kind;
    for (i, v) in values.iter().enumerate() {
        let slot = null_bits + 8 * i;
        let put_slot =
            |row: &mut Vec<u8>, word: u64| row[slot..slot + 8].copy_from_slice(&word.to_le_bytes());
        let append = |row: &mut Vec<u8>, bytes: &[u8], reserve: usize| -> usize {
            let cursor = row.len();
            let rounded = reserve.div_ceil(8) * 8;
            row.resize(cursor + rounded, 0);
            row[cursor..cursor + bytes.len()].copy_from_slice(bytes);
            cursor
        };
        match v {
            V::Null => {
                row[(i + 8) / 8] |= 1 << ((i + 8) % 8);
                put_slot(&mut row, 0);
            }
            V::Bool(b) => row[slot] = *b as u8,
            V::I8(x) => row[slot] = *x as u8,
            V::I16(x) => row[slot..slot + 2].copy_from_slice(&x.to_le_bytes()),
            V::I32(x) => row[slot..slot + 4].copy_from_slice(&x.to_le_bytes()),
            V::F32(x) => row[slot..slot + 4].copy_from_slice(&x.to_bits().to_le_bytes()),
            V::I64(x) => put_slot(&mut row, *x as u64),
            V::F64(x) => put_slot(&mut row, x.to_bits()),
            V::Dec(u, p) if *p <= 18 => put_slot(&mut row, i64::try_from(*u).unwrap() as u64),
            V::Dec(u, _) => {
                let bytes = java_unscaled_bytes(*u);
                let at = append(&mut row, &bytes, 16);
                put_slot(&mut row, ((at as u64) << 32) | bytes.len() as u64);
            }
            V::Bytes(b) if b.len() <= 7 => {
                let mut word = (0x80 | b.len() as u64) << 56;
                for (k, byte) in b.iter().enumerate() {
                    word |= (*byte as u64) << (8 * k);
                }
                put_slot(&mut row, word);
            }
            V::Bytes(b) => {
                let at = append(&mut row, b, b.len());
                put_slot(&mut row, ((at as u64) << 32) | b.len() as u64);
            }
            V::Ts(millis, _, true) => put_slot(&mut row, *millis as u64),
            V::Ts(millis, nanos, false) => {
                let at = append(&mut row, &millis.to_le_bytes(), 8);
                put_slot(&mut row, ((at as u64) << 32) | *nanos as u64);
            }
        }
    }
    row
}
