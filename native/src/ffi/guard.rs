//! The boundary guard every status-returning `extern "C"` function runs its body in.
//!
//! It catches panics (a panic never unwinds into the JVM), maps the body's
//! `Result<(), GatunError>` to a `GATUN_*` status and copies the message into the
//! caller's `(err_buf, err_cap)`: NUL-terminated, truncated at a UTF-8 boundary. A NUL inside
//! the message (a quoted value holding one) is written as U+2400 `␀`, so the C string carries
//! the whole message.

use std::any::Any;
use std::cell::Cell;
use std::ffi::c_char;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use arrow::error::ArrowError;

use crate::ffi::abi::{
    GATUN_ERR_ARROW, GATUN_ERR_EXECUTION, GATUN_ERR_INVALID_ARGUMENT, GATUN_ERR_PANIC,
    GATUN_ERR_PLAN, GATUN_OK,
};

/// An error reported across the C ABI: a `GATUN_ERR_*` status and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatunError {
    status: i32,
    message: String,
}

/// Result of a guarded body.
pub type GatunResult<T = ()> = Result<T, GatunError>;

impl GatunError {
    /// An error with an explicit `GATUN_ERR_*` status.
    pub fn new(status: i32, message: impl Into<String>) -> Self {
        debug_assert!(status != GATUN_OK, "an error needs a GATUN_ERR_* status");
        Self {
            status,
            message: message.into(),
        }
    }

    /// `GATUN_ERR_INVALID_ARGUMENT`.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(GATUN_ERR_INVALID_ARGUMENT, message)
    }

    /// `GATUN_ERR_ARROW`, message `"<context>: <arrow error>"`.
    pub fn arrow(context: &str, error: ArrowError) -> Self {
        Self::new(GATUN_ERR_ARROW, format!("{context}: {error}"))
    }

    /// `GATUN_ERR_PLAN`.
    pub fn plan(message: impl Into<String>) -> Self {
        Self::new(GATUN_ERR_PLAN, message)
    }

    /// `GATUN_ERR_EXECUTION`.
    pub fn execution(message: impl Into<String>) -> Self {
        Self::new(GATUN_ERR_EXECUTION, message)
    }

    /// The `GATUN_ERR_*` status.
    pub fn status(&self) -> i32 {
        self.status
    }

    /// The message (without the function-name prefix the guard adds).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for GatunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (status {})", self.message, self.status)
    }
}

impl std::error::Error for GatunError {}

/// Fails with `GATUN_ERR_INVALID_ARGUMENT`, naming `name`, when `ptr` is NULL or not
/// aligned for `T`. Never dereferences `ptr`.
pub fn check_arg<T>(ptr: *const T, name: &str) -> GatunResult {
    if ptr.is_null() {
        return Err(GatunError::invalid_argument(format!(
            "argument `{name}` is NULL"
        )));
    }
    let align = std::mem::align_of::<T>();
    if !(ptr as usize).is_multiple_of(align) {
        return Err(GatunError::invalid_argument(format!(
            "argument `{name}` ({ptr:p}) is not aligned to {align} bytes"
        )));
    }
    Ok(())
}

thread_local! {
    /// How many guards are active on this thread (panics inside one are reported, not printed).
    static GUARD_DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Location of the last panic caught inside a guard on this thread.
    static PANIC_LOCATION: Cell<Option<String>> = const { Cell::new(None) };
}

static QUIET_HOOK: Once = Once::new();

/// Installs, once per process, a panic hook that stays quiet for panics inside a
/// guard (it only records the location, which goes into the error message) and
/// delegates every other panic to the previous hook.
fn install_quiet_panic_hook() {
    QUIET_HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let guarded = GUARD_DEPTH
                .try_with(|depth| depth.get() > 0)
                .unwrap_or(false);
            if guarded {
                let location = info.location().map(|l| l.to_string());
                let _ = PANIC_LOCATION.try_with(|slot| slot.set(location));
            } else {
                previous(info);
            }
        }));
    });
}

/// Marks this thread as inside a guard for its lifetime.
struct GuardDepth;

impl GuardDepth {
    fn enter() -> Self {
        GUARD_DEPTH.with(|depth| depth.set(depth.get() + 1));
        GuardDepth
    }
}

impl Drop for GuardDepth {
    fn drop(&mut self) {
        let _ = GUARD_DEPTH.try_with(|depth| depth.set(depth.get().saturating_sub(1)));
    }
}

/// Runs `body` at the C boundary of `function` and returns its status.
///
/// `Ok(())` gives `GATUN_OK` and leaves `err_buf` untouched. An error gives its
/// status and the message `"<function>: <message>"`; a panic gives
/// `GATUN_ERR_PANIC` and `"panic in <function>: <payload> (at <file:line:col>)"`.
///
/// # Safety
///
/// `err_buf` must be NULL or valid for writes of `err_cap` bytes.
pub unsafe fn guard<F>(function: &str, err_buf: *mut c_char, err_cap: usize, body: F) -> i32
where
    F: FnOnce() -> GatunResult,
{
    install_quiet_panic_hook();
    let outcome = {
        let _depth = GuardDepth::enter();
        panic::catch_unwind(AssertUnwindSafe(body))
    };
    let (status, message) = match outcome {
        Ok(Ok(())) => return GATUN_OK,
        Ok(Err(error)) => (error.status, format!("{function}: {}", error.message)),
        Err(payload) => {
            let location = PANIC_LOCATION.try_with(|slot| slot.take()).ok().flatten();
            (
                GATUN_ERR_PANIC,
                panic_message(function, payload.as_ref(), location),
            )
        }
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { write_message(err_buf, err_cap, &message) };
    status
}

fn panic_message(function: &str, payload: &(dyn Any + Send), location: Option<String>) -> String {
    let text = if let Some(text) = payload.downcast_ref::<&str>() {
        text
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.as_str()
    } else {
        "<non-string panic payload>"
    };
    match location {
        Some(location) => format!("panic in {function}: {text} (at {location})"),
        None => format!("panic in {function}: {text}"),
    }
}

/// Length of the longest prefix of `message` that has at most `max` bytes and ends
/// on a UTF-8 char boundary.
fn truncated_len(message: &str, max: usize) -> usize {
    if message.len() <= max {
        return message.len();
    }
    let mut len = max;
    while !message.is_char_boundary(len) {
        len -= 1;
    }
    len
}

/// What a NUL inside a message becomes: U+2400 SYMBOL FOR NULL (the reader stops at a NUL).
pub const NUL_IN_MESSAGE: char = '\u{2400}';

/// Copies `message` into `err_buf`, NUL-terminated, truncated at a UTF-8 boundary to
/// at most `err_cap - 1` bytes, with every interior NUL written as [`NUL_IN_MESSAGE`].
/// Writes nothing when `err_buf` is NULL or `err_cap` is 0.
///
/// # Safety
///
/// `err_buf` must be NULL or valid for writes of `err_cap` bytes.
pub unsafe fn write_message(err_buf: *mut c_char, err_cap: usize, message: &str) {
    if err_buf.is_null() || err_cap == 0 {
        return;
    }
    let escaped;
    let message = if message.contains('\0') {
        escaped = message.replace('\0', NUL_IN_MESSAGE.encode_utf8(&mut [0; 3]));
        escaped.as_str()
    } else {
        message
    };
    let len = truncated_len(message, err_cap - 1);
    // SAFETY: `len + 1 <= err_cap` bytes are written; the caller guarantees `err_buf`
    // is valid for `err_cap` bytes, and a Rust `&str` cannot overlap a C buffer we write.
    unsafe {
        std::ptr::copy_nonoverlapping(message.as_ptr(), err_buf.cast::<u8>(), len);
        *err_buf.add(len) = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(cap: usize, message: &str) -> Vec<u8> {
        let mut buf = vec![0x7f_u8; cap + 4];
        // SAFETY: `buf` holds `cap + 4 >= cap` bytes.
        unsafe { write_message(buf.as_mut_ptr().cast(), cap, message) };
        buf
    }

    #[test]
    fn truncates_at_char_boundaries() {
        assert_eq!(truncated_len("abc", 10), 3);
        assert_eq!(truncated_len("héllo", 2), 1); // 'é' is 2 bytes at 1..3
        assert_eq!(truncated_len("😀x", 3), 0);
        assert_eq!(truncated_len("a😀", 4), 1);
        assert_eq!(truncated_len("a😀", 5), 5);
    }

    #[test]
    fn writes_nul_terminated_within_capacity() {
        let buf = written(5, "ab😀cd");
        assert_eq!(&buf[..3], b"ab\0");
        assert!(
            buf[3..].iter().all(|&b| b == 0x7f),
            "wrote past the message"
        );
        let buf = written(1, "abc");
        assert_eq!(buf[0], 0);
        assert_eq!(buf[1], 0x7f);
        let buf = written(0, "abc");
        assert!(buf.iter().all(|&b| b == 0x7f));
        // SAFETY: a NULL buffer is allowed and never written.
        unsafe { write_message(std::ptr::null_mut(), 16, "abc") };
    }

    #[test]
    fn an_interior_nul_is_escaped_not_a_terminator() {
        let buf = written(64, "For input string: \"a\0b\0\" (EXPR$1)");
        let end = buf.iter().position(|&b| b == 0).expect("terminated");
        assert_eq!(
            std::str::from_utf8(&buf[..end]).unwrap(),
            "For input string: \"a\u{2400}b\u{2400}\" (EXPR$1)"
        );
        // truncation happens on the escaped text, at a char boundary: "a␀" is 4 bytes
        let buf = written(4, "a\0b");
        assert_eq!(&buf[..2], b"a\0");
        let buf = written(5, "a\0b");
        assert_eq!(&buf[..5], "a\u{2400}\0".as_bytes());
    }

    #[test]
    fn maps_errors_and_panics() {
        let mut buf = [0 as c_char; 128];
        let read = |buf: &[c_char]| {
            // SAFETY: the guard always NUL-terminates within the buffer.
            unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }
                .to_string_lossy()
                .into_owned()
        };
        // SAFETY: `buf` is valid for its length.
        let status = unsafe { guard("f", buf.as_mut_ptr(), buf.len(), || Ok(())) };
        assert_eq!(status, GATUN_OK);
        // SAFETY: as above.
        let status = unsafe {
            guard("f", buf.as_mut_ptr(), buf.len(), || {
                Err(GatunError::plan("no plan"))
            })
        };
        assert_eq!(
            (status, read(&buf).as_str()),
            (GATUN_ERR_PLAN, "f: no plan")
        );
        // SAFETY: as above.
        let status = unsafe { guard("f", buf.as_mut_ptr(), buf.len(), || panic!("boom {}", 42)) };
        assert_eq!(status, GATUN_ERR_PANIC);
        let message = read(&buf);
        assert!(
            message.starts_with("panic in f: boom 42 (at src/ffi/guard.rs:"),
            "{message}"
        );
    }
}
