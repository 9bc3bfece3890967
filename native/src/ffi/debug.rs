//! Test only (the module is `#[cfg(test)]`): a function that panics inside the boundary
//! guard, proving that a Rust panic becomes `GATUN_ERR_PANIC` with its message and never
//! unwinds into the caller. The shipped library has no entry point that panics.

use std::ffi::{c_char, CStr};

use crate::ffi::guard::{check_arg, guard};

/// Panics inside the guard with `message` (decoded as lossy UTF-8); returns
/// `GATUN_ERR_PANIC` with `"panic in gatun_debug_panic: <message> (at ...)"`.
///
/// # Safety
///
/// `message` must be NULL or a NUL-terminated string; `err_buf` must be NULL or valid
/// for writes of `err_cap` bytes.
unsafe fn gatun_debug_panic(message: *const c_char, err_buf: *mut c_char, err_cap: usize) -> i32 {
    let body = || {
        check_arg(message, "message")?;
        // SAFETY: non-NULL and NUL-terminated (contract).
        let text = unsafe { CStr::from_ptr(message) }.to_string_lossy();
        panic!("{text}");
    };
    // SAFETY: `err_buf`/`err_cap` are forwarded from this function's contract.
    unsafe { guard("gatun_debug_panic", err_buf, err_cap, body) }
}

mod tests {
    use std::ffi::CString;
    use std::ptr;

    use super::gatun_debug_panic;
    use crate::ffi::abi::{GATUN_ERR_INVALID_ARGUMENT, GATUN_ERR_PANIC};

    /// Calls `gatun_debug_panic(text)` with an error buffer of `cap` bytes (plus sentinels).
    fn debug_panic(text: &[u8], cap: usize) -> (i32, Vec<u8>) {
        let text = CString::new(text).unwrap();
        let mut buf = vec![0x55_u8; cap + 8];
        // SAFETY: `text` is NUL-terminated; `buf` holds at least `cap` bytes.
        let status = unsafe { gatun_debug_panic(text.as_ptr(), buf.as_mut_ptr().cast(), cap) };
        (status, buf)
    }

    fn c_str(buf: &[u8]) -> &str {
        std::ffi::CStr::from_bytes_until_nul(buf)
            .unwrap()
            .to_str()
            .unwrap()
    }

    #[test]
    fn panic_is_caught_and_reported() {
        let (status, buf) = debug_panic("boom 💥 from Java".as_bytes(), 256);
        assert_eq!(status, GATUN_ERR_PANIC);
        let message = c_str(&buf);
        assert!(
            message.starts_with("panic in gatun_debug_panic: boom 💥 from Java (at "),
            "{message}"
        );
        assert!(message.contains("src/ffi/debug.rs:"), "{message}");
        // Invalid UTF-8 is decoded lossily.
        let (status, buf) = debug_panic(b"bad \xff byte", 256);
        assert_eq!(status, GATUN_ERR_PANIC);
        assert!(c_str(&buf).contains("bad \u{FFFD} byte"), "{}", c_str(&buf));
        // The library keeps working after a panic.
        let (status, _) = debug_panic(b"again", 256);
        assert_eq!(status, GATUN_ERR_PANIC);
    }

    #[test]
    fn message_truncation_respects_capacity_and_utf8() {
        let prefix = "panic in gatun_debug_panic: ";
        let text = "😀😀".as_bytes();
        for cap in [
            1,
            2,
            5,
            prefix.len(),
            prefix.len() + 1,
            prefix.len() + 3,
            prefix.len() + 5,
            prefix.len() + 6,
        ] {
            let (status, buf) = debug_panic(text, cap);
            assert_eq!(status, GATUN_ERR_PANIC);
            let message = c_str(&buf);
            assert!(message.len() < cap, "cap {cap}: {message:?}");
            assert!(
                buf[cap..].iter().all(|&b| b == 0x55),
                "cap {cap}: wrote past err_cap"
            );
            let expected = if cap > prefix.len() {
                let emojis = (cap - 1 - prefix.len()) / 4; // only whole 4-byte chars fit
                format!("{prefix}{}", "😀".repeat(emojis))
            } else {
                prefix[..cap - 1].to_string()
            };
            assert_eq!(message, expected, "cap {cap}");
        }
        assert_eq!(c_str(&debug_panic(text, 5).1), "pani");
        let (status, buf) = debug_panic(text, 0);
        assert_eq!(status, GATUN_ERR_PANIC);
        assert!(buf.iter().all(|&b| b == 0x55), "cap 0 writes nothing");
    }

    #[test]
    fn a_null_message_is_an_invalid_argument() {
        let mut buf = vec![0_u8; 256];
        // SAFETY: `message` may be NULL; `buf` holds 256 bytes.
        let status = unsafe { gatun_debug_panic(ptr::null(), buf.as_mut_ptr().cast(), 256) };
        assert_eq!(status, GATUN_ERR_INVALID_ARGUMENT);
        assert_eq!(c_str(&buf), "gatun_debug_panic: argument `message` is NULL");
    }
}
