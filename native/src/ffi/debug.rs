//! `gatun_debug_panic`: a test hook proving that a Rust panic does not cross the boundary.

use std::ffi::{c_char, CStr};

use crate::ffi::guard::{check_arg, guard};

/// Panics inside the guard with `message` (decoded as lossy UTF-8); returns
/// `GATUN_ERR_PANIC` with `"panic in gatun_debug_panic: <message> (at ...)"`.
///
/// # Safety
///
/// `message` must be NULL or a NUL-terminated string; `err_buf` must be NULL or valid
/// for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn gatun_debug_panic(
    message: *const c_char,
    err_buf: *mut c_char,
    err_cap: usize,
) -> i32 {
    let body = || {
        check_arg(message, "message")?;
        // SAFETY: non-NULL and NUL-terminated (contract).
        let text = unsafe { CStr::from_ptr(message) }.to_string_lossy();
        panic!("{text}");
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_debug_panic", err_buf, err_cap, body) }
}
