//! The Flink-rows encoder (`gatun_native::flink_row`) against the row-at-a-time
//! reference writer (`flink_row_ref`) and hand-computed bytes. End to end through a Calc
//! handle: `calc_flink_rows.rs`; against Flink's own writer: the Java tests.

use std::sync::Arc;

use arrow::array::*;
use arrow::datatypes::{DataType, IntervalUnit, TimeUnit};
use gatun_native::flink_row::{encode, fixed_size, null_bits_size, ColumnKind};

use crate::flink_row_ref::{flink_row, s, V};

/// Encodes `columns` (kinds from their types) and returns each row's bytes.
pub fn encoded(columns: &[ArrayRef], row_kinds: Option<&ArrayRef>, rows: usize) -> Vec<Vec<u8>> {
    let kinds: Vec<_> = columns
        .iter()
        .map(|c| ColumnKind::of(c.data_type()).expect("an encodable type"))
        .collect();
    let out = encode(columns, &kinds, row_kinds, rows).unwrap();
    out.to_data().validate_full().unwrap();
    assert_eq!(out.len(), rows);
    assert_eq!(out.null_count(), 0);
    (0..rows)
        .map(|r| {
            assert_eq!(out.value_offsets()[r] % 8, 0, "row {r} starts word-aligned");
            out.value(r).to_vec()
        })
        .collect()
}

/// Asserts that the rows of `columns` are the reference rows of `expected` (row-major).
fn assert_rows(columns: &[ArrayRef], kinds: &[u8], expected: &[Vec<V>]) {
    let kind_column: ArrayRef = Arc::new(Int8Array::from(
        kinds.iter().map(|k| *k as i8).collect::<Vec<_>>(),
    ));
    let actual = encoded(columns, Some(&kind_column), expected.len());
    for (r, values) in expected.iter().enumerate() {
        assert_eq!(
            actual[r],
            flink_row(kinds[r], values),
            "row {r}: {values:?}"
        );
    }
}

fn ts(v: i64, unit: TimeUnit, zone: Option<&str>) -> ArrayRef {
    let data = ArrayData::builder(DataType::Timestamp(unit, zone.map(Into::into)))
        .len(1)
        .add_buffer(arrow::buffer::Buffer::from_slice_ref([v]))
        .build()
        .unwrap();
    make_array(data)
}

fn dec(values: &[Option<i128>], p: u8, s: i8) -> ArrayRef {
    Arc::new(
        Decimal128Array::from(values.to_vec())
            .with_precision_and_scale(p, s)
            .unwrap(),
    )
}

fn pow10(n: u32) -> i128 {
    10i128.pow(n)
}

/// Every encodable type, NULLs in every column, edge values, all four row kinds.
#[test]
fn every_type_matches_the_reference_writer() {
    let nan = f32::from_bits(0x7fc0_0001); // a NaN payload survives as raw bits
    let ns_min_millis = i64::MIN.div_euclid(1_000_000);
    let columns: Vec<ArrayRef> = vec![
        Arc::new(NullArray::new(5)),
        Arc::new(BooleanArray::from(vec![
            Some(true),
            Some(false),
            None,
            Some(true),
            Some(false),
        ])),
        Arc::new(Int8Array::from(vec![
            Some(i8::MIN),
            Some(-1),
            None,
            Some(0),
            Some(i8::MAX),
        ])),
        Arc::new(Int16Array::from(vec![
            Some(i16::MIN),
            Some(-1),
            None,
            Some(0),
            Some(i16::MAX),
        ])),
        Arc::new(Int32Array::from(vec![
            Some(i32::MIN),
            Some(-1),
            None,
            Some(0),
            Some(i32::MAX),
        ])),
        Arc::new(Int64Array::from(vec![
            Some(i64::MIN),
            Some(-1),
            None,
            Some(0),
            Some(i64::MAX),
        ])),
        Arc::new(Float32Array::from(vec![
            Some(nan),
            Some(-0.0),
            None,
            Some(f32::INFINITY),
            Some(1.5),
        ])),
        Arc::new(Float64Array::from(vec![
            Some(f64::NAN),
            Some(-0.0),
            None,
            Some(f64::MIN_POSITIVE),
            Some(-2.25),
        ])),
        dec(
            &[
                Some(pow10(18) - 1),
                Some(1 - pow10(18)),
                None,
                Some(0),
                Some(-1),
            ],
            18,
            2,
        ),
        dec(
            &[
                Some(pow10(19) - 1),
                Some(1 - pow10(19)),
                None,
                Some(0),
                Some(1),
            ],
            19,
            0,
        ),
        dec(
            &[
                Some(pow10(38) - 1),
                Some(1 - pow10(38)),
                None,
                Some(0),
                Some(i64::MIN as i128 - 1),
            ],
            38,
            10,
        ),
        Arc::new(StringArray::from(vec![
            Some(""),
            Some("1234567"),
            None,
            Some("12345678"),
            Some("é中😀"),
        ])),
        Arc::new(BinaryArray::from(vec![
            Some(&[][..]),
            Some(&[0u8; 7][..]),
            None,
            Some(&[0xffu8; 8][..]),
            Some(&[7u8; 17][..]),
        ])),
        Arc::new(Date32Array::from(vec![
            Some(-719_528),
            Some(0),
            None,
            Some(2_932_896),
            Some(-1),
        ])),
        Arc::new(Time32MillisecondArray::from(vec![
            Some(0),
            Some(86_399_999),
            None,
            Some(1),
            Some(12_345),
        ])),
        Arc::new(TimestampMillisecondArray::from(vec![
            Some(-1),
            Some(0),
            None,
            Some(253_402_300_799_999),
            Some(-62_167_219_200_000),
        ])),
        Arc::new(TimestampMicrosecondArray::from(vec![
            Some(-1),
            Some(-1_000),
            None,
            Some(-1_001),
            Some(1_234_567),
        ])),
        Arc::new(
            TimestampNanosecondArray::from(vec![
                Some(-1),
                Some(i64::MIN),
                None,
                Some(1_000_001),
                Some(i64::MAX),
            ])
            .with_timezone("UTC"),
        ),
        Arc::new(IntervalYearMonthArray::from(vec![
            Some(-5),
            Some(0),
            None,
            Some(i32::MAX),
            Some(13),
        ])),
        Arc::new(DurationMillisecondArray::from(vec![
            Some(-1),
            Some(0),
            None,
            Some(i64::MIN),
            Some(86_400_000),
        ])),
        Arc::new(
            TimestampMicrosecondArray::from(vec![
                Some(-999),
                Some(0),
                None,
                Some(999),
                Some(-62_167_219_200_000_000),
            ])
            .with_timezone("UTC"),
        ),
    ];
    use V::*;
    let expected = vec![
        vec![
            Null,
            Bool(true),
            I8(i8::MIN),
            I16(i16::MIN),
            I32(i32::MIN),
            I64(i64::MIN),
            F32(nan),
            F64(f64::NAN),
            Dec(pow10(18) - 1, 18),
            Dec(pow10(19) - 1, 19),
            Dec(pow10(38) - 1, 38),
            s(""),
            Bytes(vec![]),
            I32(-719_528),
            I32(0),
            Ts(-1, 0, true),
            Ts(-1, 999_000, false),
            Ts(-1, 999_999, false),
            I32(-5),
            I64(-1),
            Ts(-1, 1_000, false),
        ],
        vec![
            Null,
            Bool(false),
            I8(-1),
            I16(-1),
            I32(-1),
            I64(-1),
            F32(-0.0),
            F64(-0.0),
            Dec(1 - pow10(18), 18),
            Dec(1 - pow10(19), 19),
            Dec(1 - pow10(38), 38),
            s("1234567"),
            Bytes(vec![0; 7]),
            I32(0),
            I32(86_399_999),
            Ts(0, 0, true),
            Ts(-1, 0, false),
            Ts(ns_min_millis, 224_192, false),
            I32(0),
            I64(0),
            Ts(0, 0, false),
        ],
        vec![Null; 21],
        vec![
            Null,
            Bool(true),
            I8(0),
            I16(0),
            I32(0),
            I64(0),
            F32(f32::INFINITY),
            F64(f64::MIN_POSITIVE),
            Dec(0, 18),
            Dec(0, 19),
            Dec(0, 38),
            s("12345678"),
            Bytes(vec![0xff; 8]),
            I32(2_932_896),
            I32(1),
            Ts(253_402_300_799_999, 0, true),
            Ts(-2, 999_000, false),
            Ts(1, 1, false),
            I32(i32::MAX),
            I64(i64::MIN),
            Ts(0, 999_000, false),
        ],
        vec![
            Null,
            Bool(false),
            I8(i8::MAX),
            I16(i16::MAX),
            I32(i32::MAX),
            I64(i64::MAX),
            F32(1.5),
            F64(-2.25),
            Dec(-1, 18),
            Dec(1, 19),
            Dec(i64::MIN as i128 - 1, 38),
            s("é中😀"),
            Bytes(vec![7; 17]),
            I32(-1),
            I32(12_345),
            Ts(-62_167_219_200_000, 0, true),
            Ts(1_234, 567_000, false),
            Ts(9_223_372_036_854, 775_807, false),
            I32(13),
            I64(86_400_000),
            Ts(-62_167_219_200_000, 0, false),
        ],
    ];
    assert_rows(&columns, &[0, 1, 2, 3, 0], &expected);

    // The same columns sliced (non-zero array offsets), without the row-kind column.
    let sliced: Vec<ArrayRef> = columns.iter().map(|c| c.slice(1, 3)).collect();
    let actual = encoded(&sliced, None, 3);
    for (r, values) in expected[1..4].iter().enumerate() {
        assert_eq!(actual[r], flink_row(0, values), "sliced row {r}");
    }
}

/// Hand-computed bytes, so the reference itself is checked.
#[test]
fn a_small_row_byte_by_byte() {
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int32Array::from(vec![Some(1), None])),
        Arc::new(StringArray::from(vec![Some("abc"), Some("abc")])),
        Arc::new(StringArray::from(vec![Some("12345678"), None])),
    ];
    let kinds: ArrayRef = Arc::new(Int8Array::from(vec![2, 3]));
    let rows = encoded(&columns, Some(&kinds), 2);
    #[rustfmt::skip]
    let first: Vec<u8> = vec![
        2, 0, 0, 0, 0, 0, 0, 0,                  // UPDATE_AFTER, no NULLs
        1, 0, 0, 0, 0, 0, 0, 0,                  // 1
        b'a', b'b', b'c', 0, 0, 0, 0, 0x83,      // "abc" inline
        8, 0, 0, 0, 32, 0, 0, 0,                 // offset 32, length 8
        b'1', b'2', b'3', b'4', b'5', b'6', b'7', b'8',
    ];
    #[rustfmt::skip]
    let second: Vec<u8> = vec![
        3, 0b0000_0101, 0, 0, 0, 0, 0, 0,        // DELETE; bits 8 and 10 = fields 0 and 2
        0, 0, 0, 0, 0, 0, 0, 0,
        b'a', b'b', b'c', 0, 0, 0, 0, 0x83,
        0, 0, 0, 0, 0, 0, 0, 0,
    ];
    assert_eq!(rows[0], first);
    assert_eq!(rows[1], second);
    assert_eq!(rows[0], flink_row(2, &[V::I32(1), s("abc"), s("12345678")]));
}

#[test]
fn strings_and_bytes_at_the_inline_boundary() {
    let texts = [
        "",
        "a",
        "1234567",
        "12345678",
        "123456789",
        "中文",
        "é中",
        "é中😀",
        "\u{0}",
        "\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}",
        "😀😀",
        "0123456789abcdef",
        "0123456789abcdefg",
    ];
    let strings: ArrayRef = Arc::new(StringArray::from(texts.to_vec()));
    let bytes: ArrayRef = Arc::new(BinaryArray::from(
        texts.iter().map(|t| t.as_bytes()).collect::<Vec<_>>(),
    ));
    let expected: Vec<Vec<V>> = texts.iter().map(|t| vec![s(t), s(t)]).collect();
    assert_rows(&[strings, bytes], &vec![0; texts.len()], &expected);
    // 7 bytes stay inline, 8 go to the variable part.
    let rows = encoded(
        &[Arc::new(StringArray::from(vec!["1234567", "12345678"])) as ArrayRef],
        None,
        2,
    );
    assert_eq!(rows[0].len(), 16);
    assert_eq!(rows[0][15], 0x87);
    assert_eq!(rows[1].len(), 24);
}

#[test]
fn decimals_at_precision_18_19_and_38() {
    let values = |p: u32| -> Vec<i128> {
        let max = pow10(p) - 1;
        let mut v = vec![0, 1, -1, max, -max, 127, 128, -128, -129, 255, 256];
        if p > 18 {
            v.extend([
                i64::MAX as i128,
                i64::MIN as i128,
                i64::MAX as i128 + 1,
                i64::MIN as i128 - 1,
            ]);
        }
        v
    };
    for (p, s) in [
        (18u8, 0i8),
        (18, 18),
        (19, 0),
        (19, 4),
        (38, 0),
        (38, 38),
        (20, 2),
    ] {
        let v = values(p as u32);
        let column = dec(&v.iter().copied().map(Some).collect::<Vec<_>>(), p, s);
        let expected: Vec<Vec<V>> = v.iter().map(|u| vec![V::Dec(*u, p)]).collect();
        assert_rows(&[column], &vec![0; v.len()], &expected);
    }
    // A wide decimal reserves 16 bytes whatever its length; a NULL one reserves nothing.
    let column = dec(&[Some(0), None, Some(pow10(38) - 1)], 38, 0);
    let rows = encoded(&[column], None, 3);
    assert_eq!(rows.iter().map(Vec::len).collect::<Vec<_>>(), [32, 16, 32]);
    assert_eq!(&rows[0][16..32], &[0; 16]);
    assert_eq!(&rows[2][16..18], &[0x4b, 0x3b]);
}

#[test]
fn timestamps_before_the_epoch_keep_floor_millis_and_positive_nanos() {
    // (value, unit, millis, nanoOfMillisecond)
    let cases: &[(i64, TimeUnit, i64, i32)] = &[
        (-1, TimeUnit::Microsecond, -1, 999_000),
        (-999, TimeUnit::Microsecond, -1, 1_000),
        (-1_000, TimeUnit::Microsecond, -1, 0),
        (-1_001, TimeUnit::Microsecond, -2, 999_000),
        (
            i64::MIN,
            TimeUnit::Microsecond,
            i64::MIN.div_euclid(1_000),
            192_000,
        ),
        (-1, TimeUnit::Nanosecond, -1, 999_999),
        (-1_000_000, TimeUnit::Nanosecond, -1, 0),
        (-1_000_001, TimeUnit::Nanosecond, -2, 999_999),
        (1_999_999, TimeUnit::Nanosecond, 1, 999_999),
        (
            -62_135_596_800_000_000,
            TimeUnit::Microsecond,
            -62_135_596_800_000,
            0,
        ),
    ];
    for zone in [None, Some("UTC")] {
        for (value, unit, millis, nanos) in cases {
            let rows = encoded(&[ts(*value, *unit, zone)], None, 1);
            assert_eq!(
                rows[0],
                flink_row(0, &[V::Ts(*millis, *nanos, false)]),
                "{value} {unit:?} {zone:?}"
            );
        }
    }
    let rows = encoded(&[ts(-1, TimeUnit::Millisecond, None)], None, 1);
    assert_eq!(rows[0], flink_row(0, &[V::Ts(-1, 0, true)]));
}

#[test]
fn null_bits_widen_after_56_fields() {
    assert_eq!(
        (null_bits_size(0), null_bits_size(56), null_bits_size(57)),
        (8, 8, 16)
    );
    assert_eq!(fixed_size(57), 16 + 57 * 8);
    for arity in [1usize, 55, 56, 57, 64, 120, 121] {
        // NULL in the last field and in every 7th, values elsewhere.
        let columns: Vec<ArrayRef> = (0..arity)
            .map(|f| {
                let v = if f == arity - 1 || f % 7 == 3 {
                    None
                } else {
                    Some(f as i64)
                };
                Arc::new(Int64Array::from(vec![v])) as ArrayRef
            })
            .collect();
        let expected: Vec<V> = (0..arity)
            .map(|f| {
                if f == arity - 1 || f % 7 == 3 {
                    V::Null
                } else {
                    V::I64(f as i64)
                }
            })
            .collect();
        let rows = encoded(&columns, None, 1);
        assert_eq!(rows[0], flink_row(0, &expected), "arity {arity}");
        let last = arity - 1 + 8;
        assert_ne!(rows[0][last / 8] & (1 << (last % 8)), 0, "arity {arity}");
    }
}

#[test]
fn zero_rows_and_zero_fields() {
    let columns: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from(Vec::<&str>::new())),
        Arc::new(Int32Array::from(Vec::<i32>::new())),
    ];
    let kinds: Vec<_> = columns
        .iter()
        .map(|c| ColumnKind::of(c.data_type()).unwrap())
        .collect();
    let out = encode(&columns, &kinds, None, 0).unwrap();
    assert_eq!(
        (out.len(), out.value_offsets(), out.values().len()),
        (0, &[0][..], 0)
    );
    // No fields: each row is the 8-byte header, with its row kind.
    let kinds_column: ArrayRef = Arc::new(Int8Array::from(vec![0, 3]));
    let rows = encoded(&[], Some(&kinds_column), 2);
    assert_eq!(rows, [vec![0u8; 8], vec![3, 0, 0, 0, 0, 0, 0, 0]]);
}

#[test]
fn nested_and_unmapped_types_have_no_encoding() {
    use arrow::datatypes::Field;
    let item = Arc::new(Field::new("item", DataType::Int32, true));
    for t in [
        DataType::List(Arc::clone(&item)),
        DataType::Struct(vec![Field::new("a", DataType::Int32, true)].into()),
        DataType::Map(
            Arc::new(Field::new(
                "entries",
                DataType::Struct(
                    vec![
                        Field::new("key", DataType::Utf8, false),
                        Field::new("value", DataType::Int32, true),
                    ]
                    .into(),
                ),
                false,
            )),
            false,
        ),
        DataType::LargeUtf8,
        DataType::Utf8View,
        DataType::Time32(TimeUnit::Second),
        DataType::Duration(TimeUnit::Microsecond),
        DataType::Interval(IntervalUnit::DayTime),
        DataType::Timestamp(TimeUnit::Second, None),
        DataType::UInt32,
    ] {
        assert_eq!(ColumnKind::of(&t), None, "{t}");
    }
}

#[test]
fn a_column_of_another_type_than_its_kind_is_an_error() {
    let columns: Vec<ArrayRef> = vec![Arc::new(Int32Array::from(vec![1]))];
    let err = encode(&columns, &[ColumnKind::Bytes], None, 1).unwrap_err();
    assert!(err.contains("column 0") && err.contains("Utf8"), "{err}");
    let err = encode(&columns, &[ColumnKind::Fixed4], None, 2).unwrap_err();
    assert!(err.contains("1 rows in a batch of 2"), "{err}");
}
