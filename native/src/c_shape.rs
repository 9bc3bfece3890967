//! Shape check of an incoming C `ArrowArray` against its data type, run before
//! arrow-rs imports it.
//!
//! arrow-rs's importer asserts (panics) on a wrong number of children and reads the
//! offsets buffers (and the variadic lengths buffer of view types) through typed
//! pointers. This check turns such malformed input into a `GATUN_ERR_ARROW` message
//! instead: counts of buffers and children, non-NULL pointer arrays and children,
//! dictionary presence, non-negative lengths, and alignment of the buffers that are
//! read directly. Buffer sizes cannot be checked: the C Data Interface does not carry
//! them (a producer lying about `length` is undefined behaviour for any consumer).

use std::ffi::c_void;

use arrow::array::layout;
use arrow::datatypes::DataType;
use arrow::ffi::FFI_ArrowArray;

/// Checks `array` (and, recursively, its children and dictionary) against `data_type`.
///
/// # Safety
///
/// `array` must be a live `ArrowArray` whose non-NULL `buffers`, `children` and
/// `dictionary` pointers are valid for the counts it declares.
pub unsafe fn check_array_shape(
    array: &FFI_ArrowArray,
    data_type: &DataType,
    path: &str,
) -> Result<(), String> {
    let fail = |what: String| Err(format!("{path}: {what}"));
    if array.release.is_none() {
        return fail("already released (release is NULL)".into());
    }
    if array.length < 0 || array.offset < 0 || array.null_count < -1 {
        return fail(format!(
            "negative length ({}), offset ({}) or null_count ({})",
            array.length, array.offset, array.null_count
        ));
    }
    if array.length.checked_add(array.offset).is_none() {
        return fail("length + offset overflows".into());
    }

    // SAFETY: `buffers` holds `n_buffers` pointers (this function's contract).
    let buffers = unsafe { read_pointers(array.buffers.cast::<*const c_void>(), array.n_buffers) }
        .map_err(|e| format!("{path}: buffers {e}"))?;
    let type_layout = layout(data_type);
    let expected = type_layout.buffers.len() + usize::from(type_layout.can_contain_null_mask);
    let buffers_ok = if type_layout.variadic {
        buffers.len() > expected // + the variadic buffer lengths
    } else {
        buffers.len() == expected
    };
    if !buffers_ok {
        return fail(format!(
            "{} buffers for type {data_type}, expected {}{expected}",
            buffers.len(),
            if type_layout.variadic {
                "more than "
            } else {
                ""
            },
        ));
    }
    let directly_read = match data_type {
        DataType::Utf8 | DataType::Binary | DataType::List(_) | DataType::Map(_, _) => Some((1, 4)),
        DataType::LargeUtf8 | DataType::LargeBinary | DataType::LargeList(_) => Some((1, 8)),
        DataType::Utf8View | DataType::BinaryView => Some((buffers.len() - 1, 8)),
        _ => None,
    };
    if let Some((index, align)) = directly_read {
        let ptr = buffers[index] as usize;
        if !ptr.is_multiple_of(align) {
            return fail(format!(
                "buffer {index} ({ptr:#x}) is not aligned to {align} bytes"
            ));
        }
    }

    let child_types = child_types(data_type);
    // SAFETY: `children` holds `n_children` pointers (this function's contract).
    let children = unsafe {
        read_pointers(
            array.children.cast::<*const FFI_ArrowArray>(),
            array.n_children,
        )
    }
    .map_err(|e| format!("{path}: children {e}"))?;
    if children.len() != child_types.len() {
        return fail(format!(
            "{} children for type {data_type}, expected {}",
            children.len(),
            child_types.len()
        ));
    }
    for (i, (child, child_type)) in children.iter().zip(child_types).enumerate() {
        if child.is_null() {
            return fail(format!("child {i} is NULL"));
        }
        // SAFETY: non-NULL child pointer of a live array (this function's contract).
        unsafe { check_array_shape(&**child, child_type, &format!("{path}.children[{i}]"))? };
    }

    match (array.dictionary.is_null(), data_type) {
        (false, DataType::Dictionary(_, value_type)) => {
            // SAFETY: non-NULL dictionary pointer of a live array (this function's contract).
            unsafe {
                check_array_shape(
                    &*array.dictionary,
                    value_type,
                    &format!("{path}.dictionary"),
                )
            }
        }
        (true, DataType::Dictionary(_, _)) => {
            fail("dictionary is NULL for a dictionary type".into())
        }
        (false, _) => fail(format!(
            "has a dictionary but type {data_type} is not a dictionary"
        )),
        (true, _) => Ok(()),
    }
}

/// Reads `count` pointers from a C pointer array (which need not be aligned).
///
/// # Safety
///
/// `array` must be valid for reads of `count` elements when `count > 0` and it is non-NULL.
unsafe fn read_pointers<P: Copy>(array: *const P, count: i64) -> Result<Vec<P>, String> {
    let count = usize::try_from(count).map_err(|_| format!("count {count} is negative"))?;
    if count > 0 && array.is_null() {
        return Err(format!("pointer is NULL but the count is {count}"));
    }
    // SAFETY: `array` is non-NULL here when `count > 0`, and valid for `count`
    // elements by this function's contract.
    Ok((0..count)
        .map(|i| unsafe { array.add(i).read_unaligned() })
        .collect())
}

/// The types of the C Data children of an array or schema of type `data_type`
/// (a dictionary's values are not a child: they are its `dictionary`).
pub fn child_types(data_type: &DataType) -> Vec<&DataType> {
    match data_type {
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::ListView(f)
        | DataType::LargeListView(f)
        | DataType::FixedSizeList(f, _)
        | DataType::Map(f, _) => vec![f.data_type()],
        DataType::Struct(fields) => fields.iter().map(|f| f.data_type()).collect(),
        DataType::Union(fields, _) => fields.iter().map(|(_, f)| f.data_type()).collect(),
        DataType::RunEndEncoded(run_ends, values) => vec![run_ends.data_type(), values.data_type()],
        _ => vec![],
    }
}
