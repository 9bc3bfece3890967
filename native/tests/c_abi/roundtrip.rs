//! Successful round trips through `gatun_roundtrip`, for the types Gatun uses and
//! for every type arrow-rs can carry through the C Data Interface.

use std::collections::HashMap;
use std::sync::Arc;

use arrow::array::*;
use arrow::buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow::datatypes::*;
use arrow::record_batch::RecordBatch;

use crate::common::{assert_roundtrip, call_roundtrip, live_exports, serial};

fn arc(array: impl Array + 'static) -> ArrayRef {
    Arc::new(array)
}

fn roundtrip(name: &str, array: ArrayRef) {
    let field = Field::new(name, array.data_type().clone(), true);
    assert_roundtrip(field, array);
}

fn metadata(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn record_batch() -> RecordBatch {
    let schema = Schema::new(vec![
        Field::new("id", DataType::Int64, false).with_metadata(metadata(&[("pk", "true")])),
        Field::new("name", DataType::Utf8, true),
        Field::new("ok", DataType::Boolean, true),
        Field::new("score", DataType::Float64, true),
        Field::new("day", DataType::Date32, true),
        Field::new("at", DataType::Timestamp(TimeUnit::Microsecond, None), true),
    ])
    .with_metadata(metadata(&[("source", "flink")]));
    RecordBatch::try_new(
        Arc::new(schema),
        vec![
            arc(Int64Array::from(vec![1, 2, 3, 4])),
            arc(StringArray::from(vec![
                Some("a"),
                None,
                Some("ü"),
                Some("😀"),
            ])),
            arc(BooleanArray::from(vec![
                Some(true),
                Some(false),
                None,
                Some(true),
            ])),
            arc(Float64Array::from(vec![
                Some(1.5),
                None,
                Some(f64::NAN),
                Some(-0.0),
            ])),
            arc(Date32Array::from(vec![
                Some(0),
                Some(19_000),
                None,
                Some(-1),
            ])),
            arc(TimestampMicrosecondArray::from(vec![
                Some(1),
                None,
                Some(-1),
                Some(i64::MAX),
            ])),
        ],
    )
    .unwrap()
}

/// A record batch as the C Data Interface carries it: a non-nullable "+s" array whose
/// field holds the schema metadata.
fn batch_field(batch: &RecordBatch) -> Field {
    Field::new("", DataType::Struct(batch.schema().fields().clone()), false)
        .with_metadata(batch.schema().metadata().clone())
}

fn list_of_struct() -> ListArray {
    let fields = Fields::from(vec![
        Field::new("k", DataType::Int32, false),
        Field::new("v", DataType::Utf8, true),
    ]);
    let values = StructArray::new(
        fields.clone(),
        vec![
            arc(Int32Array::from(vec![1, 2, 3, 4, 5])),
            arc(StringArray::from(vec![
                Some("x"),
                None,
                Some("z"),
                Some("ÿ"),
                Some(""),
            ])),
        ],
        Some(NullBuffer::from(vec![true, true, false, true, true])),
    );
    ListArray::new(
        Arc::new(Field::new("item", DataType::Struct(fields), true)),
        OffsetBuffer::new(ScalarBuffer::from(vec![0, 2, 2, 5, 5])),
        arc(values),
        Some(NullBuffer::from(vec![true, true, true, false])),
    )
}

fn map(sorted: bool) -> MapArray {
    let entries = StructArray::new(
        Fields::from(vec![
            Field::new("keys", DataType::Utf8, false),
            Field::new("values", DataType::Int32, true),
        ]),
        vec![
            arc(StringArray::from(vec!["a", "b", "c", "a"])),
            arc(Int32Array::from(vec![Some(1), None, Some(3), Some(4)])),
        ],
        None,
    );
    let entries_field = Arc::new(Field::new("entries", entries.data_type().clone(), false));
    MapArray::try_new(
        entries_field,
        OffsetBuffer::new(ScalarBuffer::from(vec![0, 3, 3, 4])),
        entries,
        Some(NullBuffer::from(vec![true, false, true])),
        sorted,
    )
    .unwrap()
}

#[test]
fn int32_with_nulls() {
    roundtrip(
        "i",
        arc(Int32Array::from(vec![
            Some(1),
            None,
            Some(-3),
            None,
            Some(i32::MAX),
        ])),
    );
}

#[test]
fn utf8_with_four_byte_chars() {
    let strings = vec![
        Some("a"),
        Some("😀𝄞"),
        None,
        Some(""),
        Some("日本語"),
        Some("\u{10FFFF}"),
    ];
    roundtrip("s", arc(StringArray::from(strings)));
}

#[test]
fn record_batch_struct_with_metadata() {
    let batch = record_batch();
    assert_roundtrip(batch_field(&batch), arc(StructArray::from(batch)));
}

#[test]
fn named_non_nullable_field_with_metadata() {
    let field = Field::new("amount", DataType::Int64, false).with_metadata(metadata(&[
        ("flink.type", "BIGINT NOT NULL"),
        ("ünï", "cödé"),
    ]));
    assert_roundtrip(field, arc(Int64Array::from(vec![7, 8, 9])));
}

#[test]
fn list_of_struct_with_nulls() {
    roundtrip("l", arc(list_of_struct()));
}

#[test]
fn map_unsorted_and_sorted() {
    roundtrip("m", arc(map(false)));
    roundtrip("m", arc(map(true)));
}

#[test]
fn sorted_map_flag_survives_inside_struct() {
    let sorted = arc(map(true));
    let fields = Fields::from(vec![Field::new("m", sorted.data_type().clone(), true)]);
    let batch = StructArray::new(fields.clone(), vec![sorted], None);
    assert_roundtrip(Field::new("", DataType::Struct(fields), false), arc(batch));
}

#[test]
fn decimal128_38_10() {
    let values = vec![
        Some(12_345_678_901_234_567_890_i128),
        None,
        Some(-1),
        Some(10_i128.pow(37)),
    ];
    let array = Decimal128Array::from(values)
        .with_precision_and_scale(38, 10)
        .unwrap();
    roundtrip("d", arc(array));
}

#[test]
fn timestamp_ns_utc() {
    let array =
        TimestampNanosecondArray::from(vec![Some(0), None, Some(1_700_000_000_123_456_789)])
            .with_timezone("UTC");
    roundtrip("ts", arc(array));
}

#[test]
fn zero_length_arrays() {
    roundtrip("i", arc(Int32Array::from(Vec::<i32>::new())));
    roundtrip("s", arc(StringArray::from(Vec::<&str>::new())));
    roundtrip("l", arc(list_of_struct().slice(0, 0)));
    roundtrip("m", new_empty_array(map(false).data_type()));
    let empty = RecordBatch::new_empty(record_batch().schema());
    assert_roundtrip(batch_field(&empty), arc(StructArray::from(empty)));
}

#[test]
fn sliced_arrays_keep_their_offset() {
    let ints = Int32Array::from(vec![Some(1), None, Some(3), Some(4), None, Some(6)]);
    roundtrip("i", arc(ints.slice(1, 4)));
    let strings = StringArray::from(vec![Some("a"), None, Some("😀"), Some("d"), Some("e")]);
    roundtrip("s", arc(strings.slice(2, 2)));
    roundtrip("l", arc(list_of_struct().slice(1, 3)));
    let batch = record_batch();
    assert_roundtrip(
        batch_field(&batch),
        arc(StructArray::from(batch).slice(1, 2)),
    );
}

/// Builds an array of a fixed-width type from raw little-endian values.
fn fixed_width(data_type: DataType, len: usize, values: Buffer) -> ArrayRef {
    make_array(
        ArrayData::builder(data_type)
            .len(len)
            .add_buffer(values)
            .build()
            .unwrap(),
    )
}

#[test]
fn every_type_arrow_exports() {
    let long = "a string longer than twelve bytes, so it lives in a data buffer";
    let item = Arc::new(Field::new("item", DataType::Int32, true));
    let ints = arc(Int32Array::from(vec![Some(1), None, Some(3), Some(4)]));
    let union_fields = UnionFields::try_new(
        vec![0, 5],
        vec![
            Field::new("i", DataType::Int32, true),
            Field::new("s", DataType::Utf8, true),
        ],
    )
    .unwrap();

    let arrays: Vec<ArrayRef> = vec![
        arc(NullArray::new(3)),
        arc(BooleanArray::from(vec![Some(true), None, Some(false)])),
        arc(Int8Array::from(vec![i8::MIN, 0, i8::MAX])),
        arc(Int16Array::from(vec![i16::MIN, 0, i16::MAX])),
        arc(Int64Array::from(vec![Some(i64::MIN), None, Some(i64::MAX)])),
        arc(UInt8Array::from(vec![0, u8::MAX])),
        arc(UInt16Array::from(vec![0, u16::MAX])),
        arc(UInt32Array::from(vec![0, u32::MAX])),
        arc(UInt64Array::from(vec![0, u64::MAX])),
        fixed_width(
            DataType::Float16,
            3,
            Buffer::from_slice_ref([0x3c00_u16, 0x7c00, 0x8000]),
        ),
        arc(Float32Array::from(vec![
            Some(1.5),
            None,
            Some(f32::INFINITY),
        ])),
        arc(Float64Array::from(vec![f64::MIN, f64::MAX])),
        arc(BinaryArray::from(vec![
            Some(&b"\x00\xff"[..]),
            None,
            Some(b""),
        ])),
        arc(LargeBinaryArray::from(vec![Some(&b"ab"[..]), None])),
        arc(LargeStringArray::from(vec![Some("😀"), None, Some("x")])),
        arc(FixedSizeBinaryArray::try_from_iter(vec![[1_u8, 2], [3, 4]].into_iter()).unwrap()),
        arc(StringViewArray::from(vec![
            Some("short"),
            None,
            Some(long),
            Some(long),
        ])),
        arc(BinaryViewArray::from(vec![
            Some(long.as_bytes()),
            None,
            Some(b"tiny".as_slice()),
        ])),
        arc(Date64Array::from(vec![Some(86_400_000), None])),
        arc(Time32SecondArray::from(vec![0, 86_399])),
        arc(Time32MillisecondArray::from(vec![0, 86_399_999])),
        arc(Time64MicrosecondArray::from(vec![0, 86_399_999_999])),
        arc(Time64NanosecondArray::from(vec![Some(1), None])),
        arc(TimestampSecondArray::from(vec![Some(1), None]).with_timezone("+02:00")),
        arc(TimestampMillisecondArray::from(vec![1, 2]).with_timezone("Europe/Berlin")),
        arc(DurationSecondArray::from(vec![1, -1])),
        arc(DurationMillisecondArray::from(vec![1, -1])),
        arc(DurationMicrosecondArray::from(vec![1, -1])),
        arc(DurationNanosecondArray::from(vec![Some(1), None])),
        arc(IntervalYearMonthArray::from(vec![Some(13), None])),
        arc(IntervalDayTimeArray::from(vec![IntervalDayTime::new(1, 2)])),
        arc(IntervalMonthDayNanoArray::from(vec![
            IntervalMonthDayNano::new(1, 2, 3),
        ])),
        arc(Decimal32Array::from(vec![Some(12_345), None])
            .with_precision_and_scale(9, 2)
            .unwrap()),
        arc(Decimal64Array::from(vec![Some(-12_345), None])
            .with_precision_and_scale(18, 4)
            .unwrap()),
        arc(Decimal256Array::from(vec![Some(i256::from_i128(-5)), None])
            .with_precision_and_scale(76, 20)
            .unwrap()),
        arc(LargeListArray::new(
            item.clone(),
            OffsetBuffer::new(ScalarBuffer::from(vec![0_i64, 1, 4])),
            ints.clone(),
            None,
        )),
        arc(FixedSizeListArray::new(
            item.clone(),
            2,
            ints.clone(),
            Some(NullBuffer::from(vec![true, false])),
        )),
        arc(ListViewArray::new(
            item.clone(),
            ScalarBuffer::from(vec![2, 0]),
            ScalarBuffer::from(vec![2, 1]),
            ints.clone(),
            None,
        )),
        arc(DictionaryArray::<Int32Type>::from_iter([
            Some("x"),
            None,
            Some("y"),
            Some("x"),
        ])),
        arc(DictionaryArray::<Int8Type>::from_iter([
            Some("a"),
            Some("a"),
        ])),
        arc(UnionArray::try_new(
            union_fields.clone(),
            ScalarBuffer::from(vec![0_i8, 5, 0]),
            None,
            vec![
                arc(Int32Array::from(vec![Some(1), None, Some(3)])),
                arc(StringArray::from(vec![Some("no"), Some("yes"), None])),
            ],
        )
        .unwrap()),
        arc(UnionArray::try_new(
            union_fields,
            ScalarBuffer::from(vec![5_i8, 0, 5]),
            Some(ScalarBuffer::from(vec![0, 0, 1])),
            vec![
                arc(Int32Array::from(vec![7])),
                arc(StringArray::from(vec!["a", "b"])),
            ],
        )
        .unwrap()),
        arc(RunArray::<Int32Type>::try_new(
            &Int32Array::from(vec![2, 3, 6]),
            &StringArray::from(vec![Some("a"), None, Some("c")]),
        )
        .unwrap()),
    ];
    for array in arrays {
        roundtrip("col", array);
    }
}

#[test]
fn input_is_released_only_when_the_output_is() {
    // The consumer may release the output long after the call; the input lives until then.
    let _serial = serial();
    let data = Int32Array::from(vec![1, 2, 3]).into_data();
    let in_schema = arrow::ffi::FFI_ArrowSchema::try_from(data.data_type()).unwrap();
    let call = call_roundtrip(&in_schema, gatun_native::ffi::export::export_array(&data));
    assert_eq!(call.status, 0, "{}", call.message);
    drop(call.out_schema);
    assert_eq!(live_exports(), (2, 0));
    drop(call.out_array);
    assert_eq!(live_exports(), (0, 0));
}
