//! UTF-8 checks only where Rust reads text.
//!
//! A string column that the plan only copies through (a bare column projected to the
//! output, filtered or not) is never read as text by Rust: the Arrow export and the
//! Flink-rows encoder copy its bytes. Stock Flink copies such bytes through unchanged too,
//! even when they are not valid UTF-8, so these columns get every check but the UTF-8 one
//! (offsets, lengths, nulls), by validating them as Binary. A column any expression reads
//! is validated in full.

use arrow::array::ArrayData;
use arrow::datatypes::{DataType, Field, Fields};
use arrow::error::ArrowError;
use std::sync::Arc;

/// Validates `data` fully, except the UTF-8 of its strings when `read_as_text` is false.
pub fn validate(data: &ArrayData, read_as_text: bool) -> Result<(), ArrowError> {
    if read_as_text || !has_text(data.data_type()) {
        return data.validate_full();
    }
    as_bytes(data).validate_full()
}

fn has_text(t: &DataType) -> bool {
    match t {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => true,
        DataType::Struct(fields) => fields.iter().any(|f| has_text(f.data_type())),
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            has_text(f.data_type())
        }
        DataType::Map(entries, _) => has_text(entries.data_type()),
        _ => false,
    }
}

/// The same buffers with every string type replaced by its bytes type (same layout).
fn as_bytes(data: &ArrayData) -> ArrayData {
    let children = data.child_data().iter().map(as_bytes).collect();
    let builder = data
        .clone()
        .into_builder()
        .data_type(bytes_type(data.data_type()))
        .child_data(children);
    // SAFETY: string and bytes types share one layout, so the retyped tree is laid out
    // exactly as `data`; the caller validates it in full before anything reads it.
    unsafe { builder.build_unchecked() }
}

fn bytes_type(t: &DataType) -> DataType {
    match t {
        DataType::Utf8 => DataType::Binary,
        DataType::LargeUtf8 => DataType::LargeBinary,
        DataType::Utf8View => DataType::BinaryView,
        DataType::Struct(fields) => DataType::Struct(bytes_fields(fields)),
        DataType::List(f) => DataType::List(bytes_field(f)),
        DataType::LargeList(f) => DataType::LargeList(bytes_field(f)),
        DataType::FixedSizeList(f, n) => DataType::FixedSizeList(bytes_field(f), *n),
        DataType::Map(entries, sorted) => DataType::Map(bytes_field(entries), *sorted),
        other => other.clone(),
    }
}

fn bytes_fields(fields: &Fields) -> Fields {
    fields.iter().map(|f| bytes_field(f)).collect()
}

fn bytes_field(f: &Arc<Field>) -> Arc<Field> {
    Arc::new(f.as_ref().clone().with_data_type(bytes_type(f.data_type())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow::array::{Array, StringArray, StructArray};
    use arrow::buffer::Buffer;

    fn invalid_utf8() -> ArrayData {
        let valid = StringArray::from(vec!["ab", "cd"]).into_data();
        let bytes = Buffer::from(vec![b'a', 0xff, b'c', b'd']);
        // SAFETY: same layout as `valid`, only the value bytes differ (not UTF-8).
        unsafe {
            valid
                .into_builder()
                .buffers(vec![valid_offsets(), bytes])
                .build_unchecked()
        }
    }

    fn valid_offsets() -> Buffer {
        Buffer::from_slice_ref([0i32, 2, 4])
    }

    #[test]
    fn copied_columns_skip_only_the_utf8_check() {
        let data = invalid_utf8();
        assert!(validate(&data, true).is_err());
        validate(&data, false).unwrap();
    }

    #[test]
    fn copied_columns_still_check_offsets() {
        let valid = StringArray::from(vec!["ab", "cd"]).into_data();
        // SAFETY: a deliberately broken array, only ever validated.
        let broken = unsafe {
            valid
                .into_builder()
                .buffers(vec![
                    Buffer::from_slice_ref([0i32, 3, 2]),
                    Buffer::from(b"abcd".to_vec()),
                ])
                .build_unchecked()
        };
        let err = validate(&broken, false).unwrap_err().to_string();
        assert!(err.contains("offset"), "{err}");
    }

    #[test]
    fn structs_are_checked_through_their_children() {
        let strings = arrow::array::make_array(invalid_utf8());
        let s = StructArray::from(vec![(
            Arc::new(Field::new("s", DataType::Utf8, false)),
            strings,
        )])
        .into_data();
        assert!(validate(&s, true).is_err());
        validate(&s, false).unwrap();
        assert_eq!(
            s.data_type(),
            &DataType::Struct(vec![Field::new("s", DataType::Utf8, false)].into())
        );
    }
}
