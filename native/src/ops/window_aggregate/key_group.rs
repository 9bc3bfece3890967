//! Flink's key-group assignment of a window aggregate's keys: the key as the `BinaryRowData`
//! Flink's `BinaryRowDataKeySelector` produces ([`crate::flink_row::encode`]), its
//! `hashCode()` (`MurmurHashUtil.hashByWords`: Murmur3 over the row's little-endian 4-byte
//! words, seed 42), then `KeyGroupRangeAssignment.computeKeyGroupForKeyHash`
//! (`MathUtils.murmurHash(hash) % maxParallelism`). All arithmetic is Java `int` arithmetic.

const C1: u32 = 0xcc9e_2d51;
const C2: u32 = 0x1b87_3593;
const SEED: u32 = 42;

fn mix_k1(k1: u32) -> u32 {
    k1.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2)
}

fn mix_h1(h1: u32, k1: u32) -> u32 {
    (h1 ^ k1)
        .rotate_left(13)
        .wrapping_mul(5)
        .wrapping_add(0xe654_6b64)
}

fn fmix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

/// `BinaryRowData.hashCode()` of a row's bytes (their length is a multiple of 8).
pub fn binary_row_hash(row: &[u8]) -> i32 {
    let mut h1 = SEED;
    for word in row.chunks_exact(4) {
        let half_word = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        h1 = mix_h1(h1, mix_k1(half_word));
    }
    fmix(h1 ^ row.len() as u32) as i32
}

/// `MathUtils.murmurHash(code)`: a non-negative int.
pub fn murmur_hash(code: i32) -> i32 {
    let mut h = mix_k1(code as u32);
    h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    h ^= 4;
    let h = fmix(h) as i32;
    if h >= 0 {
        h
    } else if h != i32::MIN {
        -h
    } else {
        0
    }
}

/// The key group of a key whose `BinaryRowData` bytes are `row`.
pub fn key_group(row: &[u8], max_parallelism: i32) -> i32 {
    murmur_hash(binary_row_hash(row)) % max_parallelism
}
