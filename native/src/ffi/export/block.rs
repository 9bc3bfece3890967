//! Export of a whole `ArrayData` tree with one allocation per tree (three, exactly).
//!
//! arrow-rs's `FFI_ArrowArray::new` allocates five or six times per node (its private
//! data, the buffer and child pointer arrays, a box per child struct, the buffer list,
//! a layout); a 10-column batch cost about 60 allocations to export and as many frees
//! to release. Here one [`Block`] owns the `ArrayData` (hence every buffer), the structs
//! of every node but the root (the root is the caller's) and one array of every node's
//! buffer and child pointers, and counts the nodes not yet released. Every node's
//! `private_data` points to the block; its `release` releases its children still in
//! place, marks itself released and drops one count; the last one frees the block. So
//! a child moved out by the consumer (its slot's `release` set to NULL, as the C Data
//! Interface requires) outlives its parent, as the interface requires too.

use std::ffi::c_void;
use std::mem::ManuallyDrop;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use arrow::array::ArrayData;
use arrow::datatypes::DataType;
use arrow::ffi::FFI_ArrowArray;

use crate::ffi::stats::LIVE_EXPORTED_ARRAYS;

/// How many non-root nodes and pointer slots a tree needs.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Size {
    nodes: usize,
    pointers: usize,
}

struct Block {
    /// Owns every buffer the structs point to.
    data: ArrayData,
    /// The structs of every node but the root, a node's children contiguous. Never
    /// dropped as `FFI_ArrowArray`s: each is released through its own `release`.
    nodes: Vec<ManuallyDrop<FFI_ArrowArray>>,
    /// Per node: its C buffer pointers, then its child struct pointers.
    pointers: Vec<*mut c_void>,
    /// Nodes (the root included) whose `release` has not run yet.
    live: AtomicUsize,
}

/// The size of `data`'s tree, or `None` when a node needs arrow-rs's exporter: types
/// without a validity buffer in C or with variadic buffers or a dictionary, and
/// validity bitmaps whose bit offset differs from the array's (arrow-rs copies those).
pub(super) fn measure(data: &ArrayData) -> Option<Size> {
    let mut size = Size::default();
    add(data, &mut size)?;
    size.nodes -= 1; // the root's struct is the caller's
    Some(size)
}

fn add(data: &ArrayData, size: &mut Size) -> Option<()> {
    if matches!(
        data.data_type(),
        DataType::Null
            | DataType::Utf8View
            | DataType::BinaryView
            | DataType::Union(_, _)
            | DataType::RunEndEncoded(_, _)
            | DataType::Dictionary(_, _)
    ) {
        return None;
    }
    if data.nulls().is_some_and(|n| n.offset() != data.offset()) {
        return None;
    }
    size.nodes += 1;
    size.pointers += 1 + data.buffers().len() + data.child_data().len();
    for child in data.child_data() {
        add(child, size)?;
    }
    Some(())
}

/// Exports `data`, whose tree `size` measured, as a counted base struct.
pub(super) fn export(data: ArrayData, size: Size) -> FFI_ArrowArray {
    let block = Box::into_raw(Box::new(Block {
        data,
        nodes: (0..size.nodes)
            .map(|_| ManuallyDrop::new(FFI_ArrowArray::empty()))
            .collect(),
        pointers: vec![ptr::null_mut(); size.pointers],
        live: AtomicUsize::new(size.nodes + 1),
    }));
    // SAFETY: just allocated; nothing else refers to it until the root is returned.
    let b = unsafe { &mut *block };
    let mut root = FFI_ArrowArray::empty();
    let mut cursor = Cursor::default();
    fill(
        &b.data,
        &mut root,
        b.nodes.as_mut_ptr().cast::<FFI_ArrowArray>(),
        b.pointers.as_mut_ptr(),
        &mut cursor,
        block,
    );
    debug_assert_eq!((cursor.nodes, cursor.pointers), (size.nodes, size.pointers));
    root.release = Some(release_root);
    LIVE_EXPORTED_ARRAYS.fetch_add(1, Ordering::Relaxed);
    root
}

/// The next free node and pointer slot while filling.
#[derive(Default)]
struct Cursor {
    nodes: usize,
    pointers: usize,
}

/// Fills `slot` for `data`, and its children's structs from the cursor on.
fn fill(
    data: &ArrayData,
    slot: &mut FFI_ArrowArray,
    nodes: *mut FFI_ArrowArray,
    pointers: *mut *mut c_void,
    cursor: &mut Cursor,
    block: *mut Block,
) {
    let n_buffers = 1 + data.buffers().len();
    let n_children = data.child_data().len();
    // SAFETY: `measure` counted these slots for this node, so they are in bounds.
    let own = unsafe { pointers.add(cursor.pointers) };
    cursor.pointers += n_buffers + n_children;
    let first_child = cursor.nodes;
    cursor.nodes += n_children;
    let validity = data
        .nulls()
        .map_or(ptr::null(), |n| n.buffer().as_ptr())
        .cast_mut();
    // SAFETY: `own` has `n_buffers + n_children` slots (counted by `measure`), and
    // `first_child + n_children` nodes exist (likewise); nothing else writes them.
    unsafe {
        own.write(validity.cast());
        for (i, buffer) in data.buffers().iter().enumerate() {
            own.add(1 + i).write(buffer.as_ptr().cast_mut().cast());
        }
        for (i, child) in data.child_data().iter().enumerate() {
            let child_slot = nodes.add(first_child + i);
            own.add(n_buffers + i).write(child_slot.cast());
            fill(child, &mut *child_slot, nodes, pointers, cursor, block);
            (*child_slot).release = Some(release_child);
        }
    }
    slot.length = data.len() as i64;
    slot.null_count = data.null_count() as i64;
    slot.offset = data.offset() as i64;
    slot.n_buffers = n_buffers as i64;
    slot.n_children = n_children as i64;
    slot.buffers = own.cast();
    // SAFETY: within the node's slots (see above).
    slot.children = unsafe { own.add(n_buffers) }.cast();
    slot.dictionary = ptr::null_mut();
    slot.private_data = block.cast();
}

/// `release` of the root: also counts the export as gone.
unsafe extern "C" fn release_root(array: *mut FFI_ArrowArray) {
    // SAFETY: forwarded; the consumer calls it on a struct this module filled.
    if unsafe { release(array) } {
        LIVE_EXPORTED_ARRAYS.fetch_sub(1, Ordering::Relaxed);
    }
}

/// `release` of every other node.
unsafe extern "C" fn release_child(array: *mut FFI_ArrowArray) {
    // SAFETY: as for the root.
    unsafe { release(array) };
}

/// Releases the node at `array` (possibly a moved copy) and its children still in
/// place; frees the block with its last node. Returns false for a NULL or already
/// released struct (a second call is a consumer bug, ignored).
///
/// # Safety
///
/// `array` is NULL or a struct filled by [`fill`] (possibly moved).
unsafe fn release(array: *mut FFI_ArrowArray) -> bool {
    if array.is_null() {
        return false;
    }
    // SAFETY: a struct filled by `fill` (contract); its block is alive while any of
    // its nodes is (counted in `live`), and this one is.
    unsafe {
        let a = &mut *array;
        if a.release.is_none() {
            return false;
        }
        for i in 0..a.n_children as usize {
            let child = *a.children.add(i);
            if let Some(release_child) = (*child).release {
                release_child(child);
            }
        }
        a.release = None;
        let block = a.private_data.cast::<Block>();
        if (*block).live.fetch_sub(1, Ordering::AcqRel) == 1 {
            // Dropping the data may run the input's release (an upcall into Java);
            // a panic must not unwind out of an `extern "C"` fn.
            let _ = panic::catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(block))));
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use std::ptr::NonNull;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use arrow::array::*;
    use arrow::buffer::Buffer;
    use arrow::datatypes::*;
    use arrow::ffi::from_ffi_and_data_type;

    use super::*;
    use crate::ffi::export::export_owned;

    /// Sets its flag when the last buffer over it is dropped.
    struct Watched(Arc<AtomicBool>);

    impl Drop for Watched {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    static BYTES: [i32; 3] = [10, 20, 30];

    fn watched_ints(freed: &Arc<AtomicBool>) -> ArrayData {
        let owner = Arc::new(Watched(Arc::clone(freed)));
        // SAFETY: a static array of 12 bytes; the owner only watches the drop.
        let buffer = unsafe {
            Buffer::from_custom_allocation(NonNull::from(&BYTES).cast(), 12, owner)
        };
        ArrayData::builder(DataType::Int32)
            .len(3)
            .add_buffer(buffer)
            .build()
            .unwrap()
    }

    fn nested(ints: ArrayData) -> ArrayData {
        let list = ListArray::from_iter_primitive::<Int64Type, _, _>(vec![
            Some(vec![Some(1), None]),
            None,
            Some(vec![]),
        ]);
        let inner = StructArray::try_from(vec![
            ("s", Arc::new(StringArray::from(vec![Some("a"), None, Some("c")])) as ArrayRef),
            ("l", Arc::new(list) as ArrayRef),
        ])
        .unwrap();
        StructArray::try_from(vec![
            ("i", make_array(ints)),
            ("inner", Arc::new(inner) as ArrayRef),
            ("f", Arc::new(Float64Array::from(vec![Some(1.5), None, None])) as ArrayRef),
        ])
        .unwrap()
        .into_data()
    }

    #[test]
    fn a_nested_tree_is_one_block_and_round_trips() {
        let freed = Arc::new(AtomicBool::new(false));
        let data = nested(watched_ints(&freed));
        let size = measure(&data).expect("every node fits a block");
        // root + i, inner (+ s, l (+ item)), f: 6 nodes, 5 of them children.
        assert_eq!(size.nodes, 6);
        let exported = export_owned(data.clone());
        // SAFETY: just exported with this type.
        let back = unsafe { from_ffi_and_data_type(exported, data.data_type().clone()) }.unwrap();
        back.validate_full().unwrap();
        assert_eq!(&make_array(back.clone()), &make_array(data.clone()));
        drop(data);
        assert!(!freed.load(Ordering::SeqCst), "the import still holds the block");
        drop(back);
        assert!(freed.load(Ordering::SeqCst), "released with the import");
    }

    #[test]
    fn a_child_moved_out_outlives_its_parent() {
        let freed = Arc::new(AtomicBool::new(false));
        let data = nested(watched_ints(&freed));
        let mut root = export_owned(data);
        // SAFETY: child 0 of a live export: moved out as the C Data Interface allows
        // (the slot is left released).
        let child = unsafe { FFI_ArrowArray::from_raw(*root.children) };
        // SAFETY: the root is live; its release skips the moved-out child.
        unsafe { (root.release.unwrap())(&mut root) };
        assert!(root.release.is_none());
        assert!(!freed.load(Ordering::SeqCst), "the moved child keeps the block");
        // SAFETY: a live child export of type Int32.
        let ints = unsafe { from_ffi_and_data_type(child, DataType::Int32) }.unwrap();
        assert_eq!(ints.buffers()[0].typed_data::<i32>(), &[10, 20, 30]);
        drop(ints);
        assert!(freed.load(Ordering::SeqCst));
    }

    #[test]
    fn types_a_block_cannot_carry_go_through_arrow_rs() {
        let dict: DictionaryArray<Int32Type> = vec!["x", "y"].into_iter().collect();
        let views = StringViewArray::from(vec!["a"]);
        for data in [dict.into_data(), views.into_data(), NullArray::new(2).into_data()] {
            assert!(measure(&data).is_none(), "{}", data.data_type());
            let exported = export_owned(data.clone());
            // SAFETY: just exported with this type.
            let back = unsafe { from_ffi_and_data_type(exported, data.data_type().clone()) };
            assert_eq!(&make_array(back.unwrap()), &make_array(data));
        }
    }
}
