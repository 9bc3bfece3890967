//! Counted export of Arrow C Data structs to the caller (`live_exported_*` stats).
//!
//! arrow-rs fills an `FFI_ArrowArray`/`FFI_ArrowSchema` with its own `release` and
//! `private_data`. To see when the consumer releases what we exported, we wrap only
//! the BASE struct: its `release`/`private_data` are swapped for `release_counted` and
//! a box remembering the originals. By the C Data spec the consumer calls `release`
//! exactly once, on the base struct only; children and dictionary are released by the
//! parent's (arrow's original) release, so they stay untouched. `release_counted`
//! restores the original `private_data`, calls the original `release` (which frees
//! everything and sets `release` to NULL), sets `release` to NULL itself as well and
//! decrements the counter. Nothing depends on the base struct's address, so the
//! consumer may move it (bitwise copy) before releasing it.
//!
//! [`export_owned`] avoids arrow-rs's per-node allocations (five or six per node) for
//! the common types: see [`block`].

use std::ffi::c_void;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicI64, Ordering};

use arrow::array::ArrayData;
use arrow::datatypes::{DataType, Field};
use arrow::error::ArrowError;
use arrow::ffi::{FFI_ArrowArray, FFI_ArrowSchema};

mod block;

use crate::ffi::c_shape::child_types;
use crate::ffi::stats::{LIVE_EXPORTED_ARRAYS, LIVE_EXPORTED_SCHEMAS};

/// Exports `data` (no copy of values) as a counted base `ArrowArray`.
pub fn export_array(data: &ArrayData) -> FFI_ArrowArray {
    export_owned(data.clone())
}

/// Exports `data` (no copy of values) as a counted base `ArrowArray`: with one
/// [`Block`] for the whole tree when every node allows it, else through arrow-rs.
pub fn export_owned(data: ArrayData) -> FFI_ArrowArray {
    match block::measure(&data) {
        Some(size) => block::export(data, size),
        None => count_array(FFI_ArrowArray::new(&data)),
    }
}

/// Exports `field` (name, type, nullability, metadata, flags) as a counted base
/// `ArrowSchema`.
pub fn export_field(field: &Field) -> Result<FFI_ArrowSchema, ArrowError> {
    Ok(count_schema(ffi_schema(field)?))
}

/// `FFI_ArrowSchema::try_from(field)` (not counted), with the flags arrow-rs loses put
/// back: it drops `ARROW_FLAG_MAP_KEYS_SORTED` of every map that has a field (the
/// field's flags replace the type's), which would turn `Map(_, true)` into
/// `Map(_, false)` on import.
pub fn ffi_schema(field: &Field) -> Result<FFI_ArrowSchema, ArrowError> {
    let mut schema = FFI_ArrowSchema::try_from(field)?;
    // SAFETY: `schema` was just built by arrow-rs from this very type.
    unsafe { restore_map_keys_sorted(&mut schema, field.data_type()) };
    Ok(schema)
}

/// `ARROW_FLAG_MAP_KEYS_SORTED` of the C Data Interface.
const ARROW_FLAG_MAP_KEYS_SORTED: i64 = 4;

/// # Safety
///
/// `schema` must be a live schema built by arrow-rs from `data_type`.
unsafe fn restore_map_keys_sorted(schema: &mut FFI_ArrowSchema, data_type: &DataType) {
    if let DataType::Map(_, true) = data_type {
        schema.flags |= ARROW_FLAG_MAP_KEYS_SORTED;
    }
    for (i, child_type) in child_types(data_type).into_iter().enumerate() {
        if (i as i64) < schema.n_children {
            // SAFETY: `i < n_children`; arrow-rs's children pointers are valid and aligned.
            unsafe { restore_map_keys_sorted(&mut **schema.children.add(i), child_type) };
        }
    }
    if let (DataType::Dictionary(_, value_type), false) = (data_type, schema.dictionary.is_null()) {
        // SAFETY: non-NULL dictionary built by arrow-rs from `value_type`.
        unsafe { restore_map_keys_sorted(&mut *schema.dictionary, value_type) };
    }
}

/// Wraps the release of a live base array produced by arrow-rs so it is counted.
pub fn count_array(array: FFI_ArrowArray) -> FFI_ArrowArray {
    wrap(array)
}

/// Wraps the release of a live base schema produced by arrow-rs so it is counted.
pub fn count_schema(schema: FFI_ArrowSchema) -> FFI_ArrowSchema {
    wrap(schema)
}

/// The `release` field of a C Data struct `T`.
type Release<T> = Option<unsafe extern "C" fn(*mut T)>;

/// A C Data base struct: `FFI_ArrowArray` or `FFI_ArrowSchema`.
trait CDataBase: Sized {
    /// Pointers to the `release` and `private_data` fields of `*this`.
    fn slots(this: *mut Self) -> (*mut Release<Self>, *mut *mut c_void);
    fn live_counter() -> &'static AtomicI64;
}

impl CDataBase for FFI_ArrowArray {
    fn slots(this: *mut Self) -> (*mut Release<Self>, *mut *mut c_void) {
        // SAFETY: only field addresses are computed (no read, no reference).
        unsafe { (&raw mut (*this).release, &raw mut (*this).private_data) }
    }
    fn live_counter() -> &'static AtomicI64 {
        &LIVE_EXPORTED_ARRAYS
    }
}

impl CDataBase for FFI_ArrowSchema {
    fn slots(this: *mut Self) -> (*mut Release<Self>, *mut *mut c_void) {
        // SAFETY: only field addresses are computed (no read, no reference).
        unsafe { (&raw mut (*this).release, &raw mut (*this).private_data) }
    }
    fn live_counter() -> &'static AtomicI64 {
        &LIVE_EXPORTED_SCHEMAS
    }
}

/// What `release_counted` needs to undo the wrapping.
struct Original<T> {
    release: Release<T>,
    private_data: *mut c_void,
}

fn wrap<T: CDataBase>(mut base: T) -> T {
    let (release, private_data) = T::slots(&mut base);
    // SAFETY: both pointers point into `base`, which we own and is initialized.
    unsafe {
        if (*release).is_none() {
            return base; // released or empty: nothing will be released, nothing to count
        }
        let original = Box::new(Original {
            release: (*release).take(),
            private_data: *private_data,
        });
        *private_data = Box::into_raw(original).cast();
        *release = Some(release_counted::<T>);
    }
    T::live_counter().fetch_add(1, Ordering::Relaxed);
    base
}

/// Release callback of a counted base struct (see the module comment).
///
/// # Safety
///
/// `base` is NULL or a base struct produced by `wrap` (possibly moved), released once.
unsafe extern "C" fn release_counted<T: CDataBase>(base: *mut T) {
    if base.is_null() {
        return;
    }
    let (release, private_data) = T::slots(base);
    // SAFETY: `base` is a live struct produced by `wrap`, so `private_data` is the
    // `Original<T>` box it leaked; the original release is called on the restored struct
    // exactly as arrow-rs expects. A panic must not unwind out of an `extern "C"` fn.
    unsafe {
        if (*release).is_none() {
            return; // already released: a second call is a consumer bug, ignore it
        }
        let original = Box::from_raw((*private_data).cast::<Original<T>>());
        *private_data = original.private_data;
        *release = original.release;
        if let Some(original_release) = original.release {
            let _ = panic::catch_unwind(AssertUnwindSafe(|| original_release(base)));
        }
        *release = None;
    }
    T::live_counter().fetch_sub(1, Ordering::Relaxed);
}
