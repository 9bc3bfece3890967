//! Helpers shared by the C ABI tests.

use std::ffi::{c_char, CStr};
use std::sync::{Mutex, MutexGuard};

use arrow::array::{make_array, ArrayData, ArrayRef};
use arrow::datatypes::Field;
use arrow::ffi::{from_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use gatun_native::ffi::abi::GATUN_OK;
use gatun_native::{ffi::export, gatun_native_stats, gatun_roundtrip, GatunNativeStats};

static SERIAL: Mutex<()> = Mutex::new(());

/// Serializes the tests that read global counters (cargo runs tests in parallel).
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The counters, read through the C ABI.
pub fn stats() -> GatunNativeStats {
    let mut out = GatunNativeStats::default();
    let mut err = [0 as c_char; 256];
    // SAFETY: valid pointers and capacity.
    let status = unsafe { gatun_native_stats(&mut out, err.as_mut_ptr(), err.len()) };
    assert_eq!(status, GATUN_OK, "{}", message(&err));
    out
}

/// (live exported arrays, live exported schemas).
pub fn live_exports() -> (i64, i64) {
    let s = stats();
    (s.live_exported_arrays, s.live_exported_schemas)
}

/// The NUL-terminated message in `buf`.
pub fn message(buf: &[c_char]) -> String {
    let bytes: Vec<u8> = buf.iter().map(|&c| c as u8).collect();
    CStr::from_bytes_until_nul(&bytes)
        .expect("message is NUL-terminated within the buffer")
        .to_str()
        .expect("message is valid UTF-8")
        .to_owned()
}

/// The outcome of one `gatun_roundtrip` call.
pub struct Call {
    pub status: i32,
    pub message: String,
    /// The caller's input struct after the call (must be released/moved-from).
    pub in_array: FFI_ArrowArray,
    pub out_schema: FFI_ArrowSchema,
    pub out_array: FFI_ArrowArray,
}

/// Calls `gatun_roundtrip` with valid pointers everywhere.
pub fn call_roundtrip(in_schema: &FFI_ArrowSchema, mut in_array: FFI_ArrowArray) -> Call {
    let mut out_schema = FFI_ArrowSchema::empty();
    let mut out_array = FFI_ArrowArray::empty();
    let mut err = [0 as c_char; 1024];
    // SAFETY: all pointers are valid, aligned structs; `in_array` is live or empty.
    let status = unsafe {
        gatun_roundtrip(
            in_schema,
            &mut in_array,
            &mut out_schema,
            &mut out_array,
            err.as_mut_ptr(),
            err.len(),
        )
    };
    let message = if status == GATUN_OK {
        String::new()
    } else {
        message(&err)
    };
    Call {
        status,
        message,
        in_array,
        out_schema,
        out_array,
    }
}

/// Pointer of the first non-empty buffer, depth first (for zero-copy checks).
pub fn first_buffer_ptr(data: &ArrayData) -> Option<*const u8> {
    data.buffers()
        .iter()
        .find(|b| !b.is_empty())
        .map(|b| b.as_ptr())
        .or_else(|| data.child_data().iter().find_map(first_buffer_ptr))
}

/// Round-trips `array` (described by `field`) through `gatun_roundtrip` and checks:
/// status OK, input moved and kept alive by the output, same field (name, type,
/// nullability, metadata) and flags, equal values, no copy of values, and all
/// counted exports released at the end.
pub fn assert_roundtrip(field: Field, array: ArrayRef) {
    let _serial = serial();
    assert_eq!(live_exports(), (0, 0), "a previous test leaked");
    let in_schema = export::ffi_schema(&field).unwrap();
    let in_array = export::export_array(&array.to_data());
    assert_eq!(live_exports(), (1, 0));

    let call = call_roundtrip(&in_schema, in_array);
    assert_eq!(call.status, GATUN_OK, "{field}: {}", call.message);
    assert!(call.in_array.is_released(), "the input must be moved in");
    // The output keeps the input alive, unless no buffer holds data (arrow-rs then
    // imports empty buffers and releases the input at once).
    let holds_input = first_buffer_ptr(&array.to_data()).is_some();
    assert_eq!(live_exports(), (1 + i64::from(holds_input), 1), "{field}");

    let out_field = Field::try_from(&call.out_schema).unwrap();
    assert_eq!(out_field, field);
    assert_eq!(call.out_schema.flags, in_schema.flags);
    // SAFETY: `out_array`/`out_schema` were just exported by gatun_roundtrip.
    let data = unsafe { from_ffi(call.out_array, &call.out_schema) }.unwrap();
    data.validate_full().unwrap();
    assert_eq!(data.data_type(), field.data_type());
    assert_eq!(&make_array(data.clone()), &array);
    assert_eq!(
        first_buffer_ptr(&data),
        first_buffer_ptr(&array.to_data()),
        "values were copied"
    );

    drop(data); // releases the output array, which releases the input array
    assert_eq!(live_exports(), (0, 1));
    drop(call.out_schema);
    assert_eq!(live_exports(), (0, 0));
}

/// The crate directory of the checkout running the tests. Read at run time, not with `env!`:
/// the cargo target directory is shared between clones, and a test binary built in one clone
/// must not read another clone's files.
pub fn crate_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for tests"),
    )
}
