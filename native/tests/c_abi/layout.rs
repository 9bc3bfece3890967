//! Layout of the structs that cross the boundary, against the C layout on LP64
//! (x86_64 / aarch64 Linux and macOS). The Java side checks the same numbers against
//! a compiled C probe.

#![cfg(target_pointer_width = "64")]

use std::mem::{align_of, offset_of, size_of};

use arrow::array::{Array, Int32Array};
use arrow::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use gatun_native::ffi::export::export_array;
use gatun_native::{GatunNativeStats, GatunWatermarkProgress};

#[test]
fn arrow_schema_matches_c() {
    assert_eq!(
        (size_of::<FFI_ArrowSchema>(), align_of::<FFI_ArrowSchema>()),
        (72, 8)
    );
    let offsets = [
        offset_of!(FFI_ArrowSchema, format),
        offset_of!(FFI_ArrowSchema, name),
        offset_of!(FFI_ArrowSchema, metadata),
        offset_of!(FFI_ArrowSchema, flags),
        offset_of!(FFI_ArrowSchema, n_children),
        offset_of!(FFI_ArrowSchema, children),
        offset_of!(FFI_ArrowSchema, dictionary),
        offset_of!(FFI_ArrowSchema, release),
        offset_of!(FFI_ArrowSchema, private_data),
    ];
    assert_eq!(offsets, [0, 8, 16, 24, 32, 40, 48, 56, 64]);
}

#[test]
fn arrow_array_matches_c() {
    assert_eq!(
        (size_of::<FFI_ArrowArray>(), align_of::<FFI_ArrowArray>()),
        (80, 8)
    );
    let offsets = [
        offset_of!(FFI_ArrowArray, length),
        offset_of!(FFI_ArrowArray, null_count),
        offset_of!(FFI_ArrowArray, offset),
        offset_of!(FFI_ArrowArray, n_buffers),
        offset_of!(FFI_ArrowArray, n_children),
        offset_of!(FFI_ArrowArray, buffers),
        offset_of!(FFI_ArrowArray, children),
        offset_of!(FFI_ArrowArray, dictionary),
        offset_of!(FFI_ArrowArray, release),
        offset_of!(FFI_ArrowArray, private_data),
    ];
    assert_eq!(offsets, [0, 8, 16, 24, 32, 40, 48, 56, 64, 72]);
}

#[test]
fn exported_array_bytes_sit_at_the_c_offsets() {
    // Reads a filled struct as raw memory, the way a C or Java consumer does.
    let array = Int32Array::from(vec![
        Some(1),
        None,
        Some(3),
        None,
        None,
        Some(6),
        Some(7),
        Some(8),
    ]);
    let ffi = export_array(&array.slice(1, 7).to_data());
    let base = (&ffi as *const FFI_ArrowArray).cast::<u8>();
    // SAFETY: all offsets are within the 80-byte struct and 8-byte aligned.
    let word = |offset: usize| unsafe { base.add(offset).cast::<u64>().read() };
    assert_eq!(word(0), 7, "length");
    assert_eq!(word(8), 3, "null_count");
    assert_eq!(word(16), 0, "offset (arrow-rs slices the buffers instead)");
    assert_eq!(word(24), 2, "n_buffers: validity + values");
    assert_eq!(word(32), 0, "n_children");
    assert_eq!(word(40), ffi.buffers as u64, "buffers");
    assert_ne!(word(40), 0, "buffers");
    assert_eq!(word(48), ffi.children as u64, "children");
    assert_eq!(word(56), 0, "dictionary");
    assert_eq!(
        word(64),
        ffi.release.map_or(0, |f| f as usize as u64),
        "release"
    );
    assert_ne!(word(64), 0, "release");
    assert_eq!(word(72), ffi.private_data as u64, "private_data");
}

#[test]
fn native_stats_matches_c() {
    assert_eq!(
        (
            size_of::<GatunNativeStats>(),
            align_of::<GatunNativeStats>()
        ),
        (40, 8)
    );
    let offsets = [
        offset_of!(GatunNativeStats, live_handles),
        offset_of!(GatunNativeStats, live_exported_arrays),
        offset_of!(GatunNativeStats, live_exported_schemas),
        offset_of!(GatunNativeStats, allocated_bytes),
        offset_of!(GatunNativeStats, peak_allocated_bytes),
    ];
    assert_eq!(offsets, [0, 8, 16, 24, 32]);
}

#[test]
fn watermark_progress_matches_c() {
    assert_eq!(
        (
            size_of::<GatunWatermarkProgress>(),
            align_of::<GatunWatermarkProgress>()
        ),
        (40, 8)
    );
    let offsets = [
        offset_of!(GatunWatermarkProgress, current),
        offset_of!(GatunWatermarkProgress, last),
        offset_of!(GatunWatermarkProgress, interval),
        offset_of!(GatunWatermarkProgress, after),
        offset_of!(GatunWatermarkProgress, mini_batch_next),
    ];
    assert_eq!(offsets, [0, 8, 16, 24, 32]);
}
