//! Leak-check counters behind `gatun_native_stats`, and the counting allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::c_char;
use std::sync::atomic::{AtomicI64, Ordering};

use crate::ffi::abi::GatunNativeStats;
use crate::ffi::guard::{check_arg, guard};

static LIVE_HANDLES: AtomicI64 = AtomicI64::new(0);
pub(crate) static LIVE_EXPORTED_ARRAYS: AtomicI64 = AtomicI64::new(0);
pub(crate) static LIVE_EXPORTED_SCHEMAS: AtomicI64 = AtomicI64::new(0);
static ALLOCATED_BYTES: AtomicI64 = AtomicI64::new(0);
static PEAK_ALLOCATED_BYTES: AtomicI64 = AtomicI64::new(0);

/// Call when a native handle is handed to the caller.
pub fn handle_created() {
    LIVE_HANDLES.fetch_add(1, Ordering::Relaxed);
}

/// Call when a native handle is freed by the caller.
pub fn handle_freed() {
    LIVE_HANDLES.fetch_sub(1, Ordering::Relaxed);
}

/// The current counters.
pub fn snapshot() -> GatunNativeStats {
    GatunNativeStats {
        live_handles: LIVE_HANDLES.load(Ordering::Relaxed),
        live_exported_arrays: LIVE_EXPORTED_ARRAYS.load(Ordering::Relaxed),
        live_exported_schemas: LIVE_EXPORTED_SCHEMAS.load(Ordering::Relaxed),
        allocated_bytes: ALLOCATED_BYTES.load(Ordering::Relaxed),
        peak_allocated_bytes: PEAK_ALLOCATED_BYTES.load(Ordering::Relaxed),
    }
}

/// Fills `*out` with the current counters.
///
/// # Safety
///
/// `out` must be NULL or valid for writes of one `GatunNativeStats`; `err_buf` must be
/// NULL or valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_native_stats(
    out: *mut GatunNativeStats,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        check_arg(out.cast_const(), "out")?;
        // SAFETY: `out` is non-NULL and aligned (checked above) and valid for
        // writes by this function's contract.
        unsafe { out.write(snapshot()) };
        Ok(())
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_native_stats", err_buf, err_cap, body) }
}

/// `System` plus two counters: bytes currently allocated and their high-water mark.
pub struct CountingAllocator;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

fn record(delta: i64) {
    let now = ALLOCATED_BYTES.fetch_add(delta, Ordering::Relaxed) + delta;
    // A plain load first: the peak rarely moves, and `fetch_max` is a compare-and-swap loop
    // (one per allocation was a measurable part of the crossing's ~40 allocations).
    if delta > 0 && now > PEAK_ALLOCATED_BYTES.load(Ordering::Relaxed) {
        PEAK_ALLOCATED_BYTES.fetch_max(now, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged and
// only updates counters, so `System`'s guarantees carry over.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded from the `GlobalAlloc::alloc` contract.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            record(layout.size() as i64);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded from the `GlobalAlloc::alloc_zeroed` contract.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            record(layout.size() as i64);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded from the `GlobalAlloc::dealloc` contract.
        unsafe { System.dealloc(ptr, layout) };
        record(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded from the `GlobalAlloc::realloc` contract.
        let new_ptr = unsafe { System.realloc(ptr, layout, new_size) };
        if !new_ptr.is_null() {
            record(new_size as i64 - layout.size() as i64);
        }
        new_ptr
    }
}
