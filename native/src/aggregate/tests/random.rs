//! Deterministic random batches (`crate::test_rng`), biased towards the values
//! that matter here: extremes (wrapping, decimal overflow), NaN payloads, ±0.0, ±inf,
//! non-UTF-8 bytes, NULLs.

use std::sync::Arc;

use arrow::array::{
    ArrayRef, BinaryArray, BooleanArray, Decimal128Array, Float32Array, Float64Array,
    PrimitiveArray, StringArray,
};
use arrow::buffer::{Buffer, NullBuffer, OffsetBuffer};
use arrow::datatypes::{
    ArrowPrimitiveType, DataType, Date32Type, Int16Type, Int32Type, Int64Type, Int8Type,
    Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType, TimeUnit,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType,
};

pub(super) use crate::test_rng::Rng;

pub(super) const TEN_POW_38: i128 = 100_000_000_000_000_000_000_000_000_000_000_000_000;

/// `len` random values of type `t` (one of the admitted argument types), `null_pct`% NULL.
pub(super) fn random_array(rng: &mut Rng, t: &DataType, len: usize, null_pct: u64) -> ArrayRef {
    let nulls: Option<NullBuffer> = (null_pct > 0).then(|| {
        (0..len)
            .map(|_| !rng.percent(null_pct))
            .collect::<NullBuffer>()
    });
    match t {
        DataType::Int8 => ints::<Int8Type>(rng, len, nulls, t, |r| r.next() as i8),
        DataType::Int16 => ints::<Int16Type>(rng, len, nulls, t, |r| r.next() as i16),
        DataType::Int32 => ints::<Int32Type>(rng, len, nulls, t, |r| r.next() as i32),
        DataType::Int64 => ints::<Int64Type>(rng, len, nulls, t, |r| r.next() as i64),
        DataType::Date32 => ints::<Date32Type>(rng, len, nulls, t, |r| r.next() as i32 >> 8),
        DataType::Time32(TimeUnit::Second) => {
            ints::<Time32SecondType>(rng, len, nulls, t, |r| r.below(86_400) as i32)
        }
        DataType::Time32(TimeUnit::Millisecond) => {
            ints::<Time32MillisecondType>(rng, len, nulls, t, |r| r.below(86_400_000) as i32)
        }
        DataType::Time64(TimeUnit::Microsecond) => {
            ints::<Time64MicrosecondType>(rng, len, nulls, t, |r| r.below(86_400_000_000) as i64)
        }
        DataType::Time64(TimeUnit::Nanosecond) => {
            ints::<Time64NanosecondType>(rng, len, nulls, t, |r| r.below(86_400_000_000_000) as i64)
        }
        DataType::Timestamp(unit, _) => {
            let ts = |r: &mut Rng| r.next() as i64 >> 4;
            match unit {
                TimeUnit::Second => ints::<TimestampSecondType>(rng, len, nulls, t, ts),
                TimeUnit::Millisecond => ints::<TimestampMillisecondType>(rng, len, nulls, t, ts),
                TimeUnit::Microsecond => ints::<TimestampMicrosecondType>(rng, len, nulls, t, ts),
                TimeUnit::Nanosecond => ints::<TimestampNanosecondType>(rng, len, nulls, t, ts),
            }
        }
        DataType::Float32 => {
            let v: Vec<f32> = (0..len).map(|_| float32(rng)).collect();
            Arc::new(Float32Array::new(v.into(), nulls))
        }
        DataType::Float64 => {
            let v: Vec<f64> = (0..len).map(|_| float64(rng)).collect();
            Arc::new(Float64Array::new(v.into(), nulls))
        }
        DataType::Decimal128(p, _) => {
            let max = 10i128.pow(*p as u32) - 1;
            let v: Vec<i128> = (0..len)
                .map(|_| match rng.below(4) {
                    0 => rng.pick(&[max, -max, max / 2 + 1, -(max / 2) - 1]),
                    1 => rng.below(1000) as i128 - 500,
                    _ => (rng.next() as i128).wrapping_mul(rng.next() as i128) % (max + 1),
                })
                .collect();
            Arc::new(Decimal128Array::new(v.into(), nulls).with_data_type(t.clone()))
        }
        DataType::Boolean => {
            let v: Vec<bool> = (0..len).map(|_| rng.percent(50)).collect();
            Arc::new(BooleanArray::new(v.into(), nulls))
        }
        DataType::Utf8 | DataType::Binary => {
            let (offsets, bytes) = random_bytes(rng, len);
            if *t == DataType::Binary {
                Arc::new(BinaryArray::new(offsets, bytes, nulls))
            } else {
                // SAFETY (test data): offsets are valid by construction; the bytes are
                // deliberately not always UTF-8, as Flink strings may not be.
                Arc::new(unsafe { StringArray::new_unchecked(offsets, bytes, nulls) })
            }
        }
        other => panic!("no generator for {other}"),
    }
}

fn ints<T: ArrowPrimitiveType>(
    rng: &mut Rng,
    len: usize,
    nulls: Option<NullBuffer>,
    t: &DataType,
    random: impl Fn(&mut Rng) -> T::Native,
) -> ArrayRef
where
    T::Native: TryFrom<i64>,
{
    let v: Vec<T::Native> = (0..len)
        .map(|_| match rng.below(3) {
            // Small values collide (ties for MIN/MAX), random ones wrap sums.
            0 => T::Native::try_from(rng.below(7) as i64 - 3)
                .ok()
                .unwrap_or_else(|| random(rng)),
            _ => random(rng),
        })
        .collect();
    Arc::new(PrimitiveArray::<T>::new(v.into(), nulls).with_data_type(t.clone()))
}

pub(super) fn float32(rng: &mut Rng) -> f32 {
    match rng.below(4) {
        0 => rng.pick(&[
            f32::NAN,
            f32::from_bits(0x7fc0_0001),
            f32::from_bits(0xffc0_0000),
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN_POSITIVE,
        ]),
        _ => (rng.next() as i32 >> 12) as f32 * 0.37,
    }
}

pub(super) fn float64(rng: &mut Rng) -> f64 {
    match rng.below(4) {
        0 => rng.pick(&[
            f64::NAN,
            f64::from_bits(0x7ff8_0000_0000_0001),
            f64::from_bits(0xfff8_0000_0000_0000),
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN_POSITIVE,
        ]),
        _ => (rng.next() as i64 >> 20) as f64 * 0.37,
    }
}

fn random_bytes(rng: &mut Rng, len: usize) -> (OffsetBuffer<i32>, Buffer) {
    const ALPHABET: &[u8] = &[b'a', b'b', b'z', 0x00, 0x7f, 0x80, 0xc3, 0xa9, 0xff];
    let mut bytes = Vec::new();
    let mut offsets = vec![0i32];
    for _ in 0..len {
        for _ in 0..rng.below(5) {
            bytes.push(rng.pick(ALPHABET));
        }
        offsets.push(bytes.len() as i32);
    }
    (OffsetBuffer::new(offsets.into()), Buffer::from_vec(bytes))
}
