//! `gatun_native_stats`: handle, export and allocation counters.

use std::ptr;

use arrow::array::{Array, Int32Array, StringArray, StructArray};
use arrow::datatypes::{DataType, Field, Fields};
use arrow::ffi::{from_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use gatun_native::ffi::export::{export_array, export_field};
use gatun_native::ffi::stats::{handle_created, handle_freed};
use std::sync::Arc;

use crate::common::{live_exports, serial, stats};

#[test]
fn handles_and_allocations() {
    let _serial = serial();
    let before = stats();
    assert_eq!(before.live_handles, 0);
    assert!(before.allocated_bytes > 0 && before.peak_allocated_bytes >= before.allocated_bytes);
    handle_created();
    handle_created();
    assert_eq!(stats().live_handles, 2);
    handle_freed();
    handle_freed();
    assert_eq!(stats().live_handles, 0);

    const BIG: i64 = 64 << 20;
    let big = vec![1_u8; BIG as usize];
    let during = stats();
    // Other test threads allocate too: allow 8 MiB of noise.
    assert!(
        during.allocated_bytes >= before.allocated_bytes + BIG - (8 << 20),
        "{during:?}"
    );
    assert!(during.peak_allocated_bytes >= during.allocated_bytes);
    drop(big);
    let after = stats();
    assert!(
        after.allocated_bytes <= during.allocated_bytes - BIG + (8 << 20),
        "{after:?}"
    );
    assert!(after.peak_allocated_bytes >= before.allocated_bytes + BIG - (8 << 20));
}

#[test]
fn exports_count_until_the_consumer_releases() {
    let _serial = serial();
    assert_eq!(live_exports(), (0, 0));
    let data = Int32Array::from(vec![Some(1), None, Some(3)]).into_data();
    let field = Field::new("x", DataType::Int32, true);
    let mut array = export_array(&data);
    let mut schema = export_field(&field).unwrap();
    assert_eq!(live_exports(), (1, 1));

    // A C consumer may move the base struct (bitwise copy) before releasing it.
    let mut moved = FFI_ArrowArray::empty();
    // SAFETY: `moved` takes over `array`; the source is marked released.
    unsafe { ptr::copy_nonoverlapping(&array, &mut moved, 1) };
    array.release = None;
    // SAFETY: calling the release callback once, as a C consumer would.
    unsafe { (moved.release.unwrap())(&mut moved) };
    assert!(moved.release.is_none(), "release sets release to NULL");
    assert_eq!(live_exports(), (0, 1));
    // SAFETY: as above.
    unsafe { (schema.release.unwrap())(&mut schema) };
    assert!(schema.release.is_none());
    assert_eq!(live_exports(), (0, 0));
    drop((array, moved, schema)); // all released: dropping does nothing
    assert_eq!(live_exports(), (0, 0));

    // Import by a consumer (arrow-rs here) releases exactly once too.
    let array = export_array(&data);
    let schema = export_field(&field).unwrap();
    // SAFETY: a live exported pair.
    let imported = unsafe { from_ffi(array, &schema) }.unwrap();
    assert_eq!(live_exports(), (1, 1));
    drop(imported);
    drop(schema);
    assert_eq!(live_exports(), (0, 0));
}

#[test]
fn only_the_base_struct_is_wrapped_and_children_can_be_moved_out() {
    let _serial = serial();
    let fields = Fields::from(vec![
        Field::new("a", DataType::Int32, false),
        Field::new("b", DataType::Utf8, true),
    ]);
    let batch = StructArray::new(
        fields,
        vec![
            Arc::new(Int32Array::from(vec![1, 2])),
            Arc::new(StringArray::from(vec![Some("x"), None])),
        ],
        None,
    );
    let mut base = export_array(&batch.to_data());
    assert_eq!(live_exports(), (1, 0));
    // SAFETY: `base` has two live children created by arrow-rs.
    unsafe {
        let child0 = &mut **base.children;
        let (child_release, base_release) = (child0.release.unwrap(), base.release.unwrap());
        assert!(
            !ptr::fn_addr_eq(child_release, base_release),
            "children keep arrow's own release"
        );
        // The spec lets a consumer move a child out and release it on its own.
        let mut moved_child = ptr::read(child0);
        child0.release = None;
        let mut base_struct = ptr::read(&base);
        base.release = None;
        (base_struct.release.unwrap())(&mut base_struct); // skips the moved child
        assert_eq!(live_exports(), (0, 0));
        let imported = from_ffi(
            ptr::read(&moved_child),
            &FFI_ArrowSchema::try_from(DataType::Int32).unwrap(),
        );
        moved_child.release = None;
        assert_eq!(
            imported.unwrap().len(),
            2,
            "the moved child outlives its parent"
        );
    }
}
