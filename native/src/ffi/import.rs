//! Import of a C `ArrowArray` moved in by the caller: shape check, arrow-rs import
//! (no copy of values), alignment fixed only when needed, `ArrayData::validate` only
//! for what the shape check does not prove (see `c_shape`). The one import of
//! `gatun_operator_process` (through `input`) and `gatun_passthrough`.

use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::{Arc, LazyLock};

use arrow::array::{ArrayData, ArrayDataBuilder};
use arrow::buffer::{BooleanBuffer, Buffer, MutableBuffer, NullBuffer};
use arrow::error::ArrowError;
use arrow::ffi::{from_ffi_and_data_type, FFI_ArrowArray};

use crate::ffi::c_shape::{Length, Node, ShapePlan};

/// Why an import failed. The input has been released in every case.
#[derive(Debug)]
pub enum ImportError {
    /// The struct tree does not have the shape of the type (message names the node).
    Shape(String),
    /// arrow-rs's import refused it.
    Import(ArrowError),
    /// `ArrayData::validate` refused the imported data.
    Invalid(ArrowError),
}

/// Checks and imports `array` as `plan`'s type; `path` names the root in messages.
///
/// # Safety
///
/// `array` must be a live `ArrowArray` whose non-NULL pointers are valid for the
/// counts and lengths it declares (the C Data Interface's contract).
pub unsafe fn import_array(
    plan: &ShapePlan,
    array: FFI_ArrowArray,
    path: &str,
) -> Result<ArrayData, ImportError> {
    // SAFETY: forwarded from this function's contract.
    let checked = unsafe { plan.check(&array, path) }.map_err(ImportError::Shape)?;
    let mut data = if plan.simple {
        let owner = Arc::new(array);
        // SAFETY: live, of the shape of the plan's type (checked just above), owned by `owner`.
        unsafe { build(&plan.root, &owner, &owner) }.map_err(ImportError::Import)?
    } else {
        // SAFETY: live, and of the shape of the plan's type (checked just above).
        unsafe { from_ffi_and_data_type(array, plan.data_type().clone()) }
            .map_err(ImportError::Import)?
    };
    if !checked.aligned {
        data.align_buffers();
    }
    if !checked.validated {
        data.validate().map_err(ImportError::Invalid)?;
    }
    Ok(data)
}

/// A shared empty buffer: what arrow-rs's importer makes of NULL or empty C buffers
/// (`MutableBuffer::new(0)`: its dangling pointer is aligned for every type, which typed
/// views of an empty buffer still check).
static EMPTY: LazyLock<Buffer> = LazyLock::new(|| MutableBuffer::new(0).into());

/// What `from_ffi_and_data_type` builds for a tree of `validated` types (see `c_shape`),
/// the same `ArrayData` (or the same error for a NULL buffer that must hold bytes) with
/// fewer allocations: no layout, no growing vectors, no buffer for a NULL or empty one.
/// Buffer lengths follow arrow-rs's importer exactly.
///
/// # Safety
///
/// `array` is a node of the live array `owner`, checked against `node` (so its counts,
/// pointer arrays, children and first/last offsets are as `node` expects).
unsafe fn build(
    node: &Node,
    array: &FFI_ArrowArray,
    owner: &Arc<FFI_ArrowArray>,
) -> Result<ArrayData, ArrowError> {
    let (length, offset) = (array.length as usize, array.offset as usize);
    let end = length + offset;
    // SAFETY: `buffers` holds `n_buffers` pointers (checked), `i` is below it.
    let pointer = |i: usize| unsafe { array.buffers.cast::<*const c_void>().add(i).read_unaligned() };
    let buffer = |i: usize, bytes: usize| match NonNull::new(pointer(i).cast_mut().cast::<u8>()) {
        // SAFETY: the producer vouches for `bytes` bytes at the pointer (C Data contract)
        // for as long as `owner` is not released.
        Some(ptr) if bytes > 0 => Ok(unsafe {
            Buffer::from_custom_allocation(ptr, bytes, Arc::clone(owner) as _)
        }),
        None if bytes > 0 => Err(ArrowError::CDataInterface(format!(
            "The external buffer at position {i} is null."
        ))),
        _ => Ok(EMPTY.clone()),
    };
    let first = usize::from(node.validity);
    let mut buffers = Vec::with_capacity(node.lengths.len());
    for (i, length_of) in node.lengths.iter().enumerate() {
        let bytes = match *length_of {
            Length::Bits => end.div_ceil(8),
            Length::Bytes(width) => end * width,
            Length::Offsets(width) => (end + 1) * width,
            Length::Values if length == 0 => 0,
            Length::Values => {
                // The offsets are C buffer `first` (checked aligned and non-NULL, and the
                // last one >= the first >= 0).
                let offsets = pointer(first);
                // SAFETY: aligned, holds `end + 1` offsets (checked, contract).
                unsafe {
                    match node.lengths[0] {
                        Length::Offsets(8) => *offsets.cast::<i64>().add(end) as usize,
                        _ => *offsets.cast::<i32>().add(end) as usize,
                    }
                }
            }
        };
        buffers.push(buffer(first + i, bytes)?);
    }
    let nulls = if node.validity && !pointer(0).is_null() {
        let bits = BooleanBuffer::new(buffer(0, end.div_ceil(8))?, offset, length);
        let nulls = match usize::try_from(array.null_count) {
            // SAFETY: the producer's count (C Data contract), as arrow-rs's importer trusts it.
            Ok(count) => unsafe { NullBuffer::new_unchecked(bits, count) },
            Err(_) => NullBuffer::new(bits),
        };
        Some(nulls).filter(|n| n.null_count() != 0)
    } else {
        None
    };
    let mut children = Vec::with_capacity(node.children.len());
    for (i, child) in node.children.iter().enumerate() {
        // SAFETY: a non-NULL child pointer of a checked node.
        let child_array = unsafe { &**array.children.add(i) };
        // SAFETY: as for this node.
        children.push(unsafe { build(child, child_array, owner) }?);
    }
    let builder = ArrayDataBuilder::new(node.data_type.clone())
        .len(length)
        .offset(offset)
        .buffers(buffers)
        .child_data(children)
        .nulls(nulls);
    // SAFETY: the same data arrow-rs's importer builds unchecked from the same struct.
    Ok(unsafe { builder.build_unchecked() })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow::array::*;
    use arrow::buffer::Buffer;
    use arrow::datatypes::*;
    use arrow::ffi::from_ffi_and_data_type;

    use super::*;
    use crate::ffi::c_shape::Checked;

    /// The import before the plan: arrow-rs import, `align_buffers`, `validate`.
    fn old_import(data: &ArrayData) -> Result<ArrayData, ArrowError> {
        // SAFETY: exported by arrow-rs just now, with this type.
        let mut d = unsafe {
            from_ffi_and_data_type(FFI_ArrowArray::new(data), data.data_type().clone())
        }?;
        d.align_buffers();
        d.validate()?;
        Ok(d)
    }

    fn new_import(data: &ArrayData) -> Result<ArrayData, ImportError> {
        let plan = ShapePlan::new(data.data_type());
        // SAFETY: exported by arrow-rs just now; every case keeps its pointers in bounds.
        unsafe { import_array(&plan, FFI_ArrowArray::new(data), "input") }
    }

    fn checked(data: &ArrayData) -> Checked {
        let plan = ShapePlan::new(data.data_type());
        let ffi = FFI_ArrowArray::new(data);
        // SAFETY: as above.
        unsafe { plan.check(&ffi, "input") }.unwrap()
    }

    /// An unchecked array: the malformed cases arrow-rs would refuse to build.
    fn raw(
        data_type: DataType,
        len: usize,
        offset: usize,
        buffers: Vec<Buffer>,
        children: Vec<ArrayData>,
    ) -> ArrayData {
        // SAFETY: only exported and imported (with its checks), never read directly.
        unsafe {
            ArrayData::new_unchecked(data_type, len, None, None, offset, buffers, children)
        }
    }

    fn offsets(values: &[i32]) -> Buffer {
        Buffer::from_slice_ref(values)
    }

    fn wide_batch() -> ArrayData {
        let list = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![
            Some(vec![Some(1), None]),
            None,
            Some(vec![]),
        ]);
        let map = {
            let mut b = MapBuilder::new(None, StringBuilder::new(), Int64Builder::new());
            b.keys().append_value("k");
            b.values().append_value(7);
            b.append(true).unwrap();
            b.append(false).unwrap();
            b.append(true).unwrap();
            b.finish()
        };
        let decimal = Decimal128Array::from(vec![Some(1), None, Some(-3)])
            .with_precision_and_scale(10, 2)
            .unwrap();
        let columns: Vec<(&str, ArrayRef)> = vec![
            ("i", Arc::new(Int64Array::from(vec![Some(1), None, Some(3)]))),
            ("s", Arc::new(StringArray::from(vec![Some("a"), None, Some("日本")]))),
            ("b", Arc::new(BooleanArray::from(vec![Some(true), None, Some(false)]))),
            ("d", Arc::new(decimal)),
            ("f", Arc::new(FixedSizeBinaryArray::from(vec![&b"ab"[..], b"cd", b"ef"]))),
            ("l", Arc::new(list)),
            ("m", Arc::new(map)),
            ("t", Arc::new(TimestampMillisecondArray::from(vec![1, 2, 3]))),
        ];
        StructArray::try_from(columns).unwrap().into_data()
    }

    #[test]
    fn the_common_types_import_without_validate_and_unchanged() {
        let data = wide_batch();
        let c = checked(&data);
        assert!(c.aligned && c.validated, "{c:?}");
        let imported = new_import(&data).unwrap();
        assert_eq!(&make_array(imported), &make_array(data));
    }

    /// Same type, lengths, offsets, null counts, validity bits, buffer addresses and
    /// lengths, recursively.
    fn assert_same(a: &ArrayData, b: &ArrayData, name: &str) {
        assert_eq!(a.data_type(), b.data_type(), "{name}");
        let header = |d: &ArrayData| (d.len(), d.offset(), d.null_count());
        assert_eq!(header(a), header(b), "{name}");
        let buffers = |d: &ArrayData| {
            d.buffers().iter().map(|x| (x.as_ptr(), x.len())).collect::<Vec<_>>()
        };
        // Bits, not addresses: arrow-rs's exporter copies a bitmap whose offset moved.
        let nulls = |d: &ArrayData| d.nulls().cloned();
        if a.len() + a.offset() > 0 {
            assert_eq!(buffers(a), buffers(b), "{name}");
        }
        assert_eq!(nulls(a), nulls(b), "{name}");
        assert_eq!(a.child_data().len(), b.child_data().len(), "{name}");
        for (x, y) in a.child_data().iter().zip(b.child_data()) {
            assert_same(x, y, name);
        }
    }

    #[test]
    fn the_plan_builds_what_arrow_rs_imports() {
        let batch = wide_batch();
        let no_columns = StructArray::new_empty_fields(3, None).into_data();
        let cases = [
            ("batch", batch.clone(), false),
            ("sliced", StructArray::from(batch.clone()).slice(1, 2).into_data(), false),
            ("null_count -1", batch.clone(), true),
            ("0 rows", batch.slice(0, 0), false),
            ("no columns", no_columns, false),
        ];
        for (name, data, unknown_nulls) in cases {
            let plan = ShapePlan::new(data.data_type());
            assert!(plan.simple, "{name}");
            let export = || {
                let ffi = FFI_ArrowArray::new(&data);
                if unknown_nulls {
                    // SAFETY: a child of a live export; -1 means "not computed" in C Data.
                    unsafe { (**ffi.children.add(1)).null_count = -1 };
                }
                ffi
            };
            // SAFETY: live exports of `data`'s type.
            let old = unsafe { from_ffi_and_data_type(export(), data.data_type().clone()) }.unwrap();
            // SAFETY: as above.
            let new = unsafe { import_array(&plan, export(), "input") }.unwrap();
            assert_same(&old, &new, name);
            assert_eq!(&make_array(old), &make_array(new), "{name}");
        }
    }

    #[test]
    fn other_types_still_run_validate() {
        let views = StringViewArray::from(vec!["a", "a string longer than twelve bytes"]);
        let dict: DictionaryArray<Int32Type> = vec!["x", "y", "x"].into_iter().collect();
        for data in [views.into_data(), dict.into_data()] {
            assert!(!checked(&data).validated, "{}", data.data_type());
            assert_eq!(&make_array(new_import(&data).unwrap()), &make_array(data));
        }
    }

    #[test]
    fn a_misaligned_fixed_width_buffer_is_copied_aligned() {
        let bytes = Buffer::from_slice_ref([0_u8; 17]).slice(1);
        let data = raw(DataType::Int64, 2, 0, vec![bytes], vec![]);
        assert!(!checked(&data).aligned);
        let imported = new_import(&data).unwrap();
        assert!((imported.buffers()[0].as_ptr() as usize).is_multiple_of(8));
        assert_eq!(imported.buffers()[0].as_slice(), &[0_u8; 16]);
    }

    /// Malformed arrays the plan must reject (by shape or by `validate`) whenever the old
    /// import rejected them, and a few the plan rejects although `validate` did not.
    #[test]
    fn malformed_arrays_are_rejected_at_least_as_often_as_before() {
        let int = |len| Int32Array::from(vec![1; len]).into_data();
        let utf8 = |len, offset, o: &[i32]| {
            raw(DataType::Utf8, len, offset, vec![offsets(o), Buffer::from(&b"abcdef"[..])], vec![])
        };
        let list = |len, o: &[i32], child| {
            let item = Arc::new(Field::new("item", DataType::Int32, true));
            raw(DataType::List(item), len, 0, vec![offsets(o)], vec![child])
        };
        let fields = Fields::from(vec![Field::new("a", DataType::Int32, true)]);
        let strukt = |len, offset, child| {
            raw(DataType::Struct(fields.clone()), len, offset, vec![], vec![child])
        };
        let cases: Vec<(&str, ArrayData, bool)> = vec![
            ("valid utf8", utf8(2, 0, &[0, 2, 6]), true),
            ("valid sliced utf8", utf8(1, 1, &[0, 2, 6]), true),
            ("decreasing inside (validate_full's job)", utf8(2, 0, &[0, 5, 3]), true),
            ("last before first", utf8(2, 0, &[4, 5, 3]), false),
            ("negative first", utf8(2, 0, &[-1, 2, 3]), false),
            ("empty, first offset not 0", utf8(0, 1, &[0, 3]), false),
            ("empty, first offset 0", utf8(0, 0, &[0]), true),
            ("list within its child", list(2, &[0, 1, 3], int(3)), true),
            ("list beyond its child", list(2, &[0, 1, 4], int(3)), false),
            ("list decreasing", list(2, &[2, 3, 1], int(3)), false),
            ("struct child long enough", strukt(2, 1, int(3)), true),
            ("struct child too short", strukt(3, 0, int(2)), false),
            // validate() checks only len <= child len; StructArray::from would panic.
            ("struct child too short for offset + length", strukt(2, 1, int(2)), false),
        ];
        for (name, data, valid) in cases {
            let new = new_import(&data);
            let old = old_import(&data);
            assert_eq!(new.is_ok(), valid, "{name}: {new:?}");
            if old.is_err() {
                assert!(new.is_err(), "{name}: the old import refused it: {old:?}");
            }
            if let Ok(imported) = new {
                imported.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
    }

    #[test]
    fn a_null_buffer_that_must_hold_values_is_an_import_error() {
        let data = Int64Array::from(vec![1, 2]).into_data();
        let plan = ShapePlan::new(data.data_type());
        let ffi = FFI_ArrowArray::new(&data);
        // SAFETY: the buffer pointer array of a live export (validity, values).
        unsafe { *ffi.buffers.add(1) = std::ptr::null() };
        // SAFETY: as above; the import reads no buffer through the NULL pointer.
        let e = unsafe { import_array(&plan, ffi, "input") }.unwrap_err();
        assert!(matches!(&e, ImportError::Import(m) if m.to_string().contains("position 1 is null")), "{e:?}");
    }

    #[test]
    fn null_count_above_length_is_a_shape_error() {
        let data = Int32Array::from(vec![Some(1), None]).into_data();
        let plan = ShapePlan::new(data.data_type());
        let mut ffi = FFI_ArrowArray::new(&data);
        ffi.null_count = 3;
        // SAFETY: exported by arrow-rs; only null_count was changed.
        let e = unsafe { import_array(&plan, ffi, "input") }.unwrap_err();
        assert!(matches!(&e, ImportError::Shape(m) if m.contains("null_count (3) exceeds length (2)")), "{e:?}");
    }

    #[test]
    fn a_shape_error_names_the_node() {
        let data = wide_batch();
        let plan = ShapePlan::new(data.data_type());
        let ffi = FFI_ArrowArray::new(&data);
        // SAFETY: children of a live export; the offset stays within the buffers' rows.
        unsafe {
            let list = &mut **ffi.children.add(5);
            list.offset = 1; // with length 3: 4 rows, one more than exported
            list.length = 2;
            let item = &mut **list.children;
            item.length = 1; // the list's offsets reach 2
        }
        // SAFETY: as above.
        let e = unsafe { import_array(&plan, ffi, "input") }.unwrap_err();
        let ImportError::Shape(message) = e else { panic!("{e:?}") };
        assert!(message.starts_with("input.children[5]: offsets 1 and 3 are 2 and 2"), "{message}");
    }
}
