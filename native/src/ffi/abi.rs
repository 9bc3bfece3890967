//! Constants and `#[repr(C)]` types of `jextract-config/include/gatun.h`.
//!
//! Names and values match the header exactly; `tests/c_abi/header.rs` parses the
//! header and fails when the two drift apart.

use crate::ops::window_aggregate::StateStats;

/// `GATUN_ABI_VERSION`: bumped on every incompatible change of the header.
pub const GATUN_ABI_VERSION: u32 = 10;

/// Success.
pub const GATUN_OK: i32 = 0;
/// A NULL, misaligned or already-released argument.
pub const GATUN_ERR_INVALID_ARGUMENT: i32 = 1;
/// Arrow import, validation or export failed (malformed input included).
pub const GATUN_ERR_ARROW: i32 = 2;
/// A plan could not be built.
pub const GATUN_ERR_PLAN: i32 = 3;
/// A plan failed while running.
pub const GATUN_ERR_EXECUTION: i32 = 4;
/// A Rust panic was caught at the boundary.
pub const GATUN_ERR_PANIC: i32 = 5;

/// `gatun_operator_create` kind: a Flink Calc (projections, filter, optional watermarks).
pub const GATUN_OPERATOR_CALC: u32 = 1;
/// `gatun_operator_create` kind: Flink's local (pre-shuffle) group aggregate with its Calc.
pub const GATUN_OPERATOR_LOCAL_AGGREGATE: u32 = 2;
/// `gatun_operator_create` kind: Flink's window aggregate with its state in native memory.
pub const GATUN_OPERATOR_WINDOW_AGGREGATE: u32 = 3;

/// `gatun_operator_create` output format: one Arrow column per output column.
pub const GATUN_OUTPUT_ARROW: i32 = 0;
/// `gatun_operator_create` output format: one Binary column of Flink `BinaryRowData` rows.
pub const GATUN_OUTPUT_FLINK_ROWS: i32 = 1;

/// `struct GatunNativeStats`: live native resources, for leak checks.
/// Field order and types are the header's (five `int64_t`, 40 bytes).
#[repr(C)]
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct GatunNativeStats {
    /// Native handles created and not yet freed.
    pub live_handles: i64,
    /// ArrowArrays exported by Rust and not yet released by the consumer.
    pub live_exported_arrays: i64,
    /// ArrowSchemas exported by Rust and not yet released by the consumer.
    pub live_exported_schemas: i64,
    /// Bytes currently allocated by the Rust heap of this library.
    pub allocated_bytes: i64,
    /// High-water mark of `allocated_bytes` since the library was loaded.
    pub peak_allocated_bytes: i64,
}

/// `struct GatunWatermarkProgress`: the state of Flink's `WatermarkAssignerOperator`
/// across the batches of one operator (five `int64_t`, 40 bytes).
#[repr(C)]
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct GatunWatermarkProgress {
    /// In/out: the highest watermark seen so far (`currentWatermark`; starts at 0).
    pub current: i64,
    /// In/out: the last watermark emitted (`lastWatermark`; starts at 0).
    pub last: i64,
    /// In: `pipeline.auto-watermark-interval` in milliseconds.
    pub interval: i64,
    /// Out: the watermark to emit after the batch's last output row, or `i64::MIN`.
    pub after: i64,
    /// In/out: an absorbed row-time mini-batch assigner's `nextWatermark` (ignored otherwise).
    pub mini_batch_next: i64,
}

/// `struct GatunStateStats`: an operator's native state (five `int64_t`, 40 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GatunStateStats {
    /// Distinct group keys holding state.
    pub keys: i64,
    /// (key, slice) entries holding accumulators.
    pub slices: i64,
    /// Bytes of native state.
    pub bytes: i64,
    /// Rows dropped as late since the handle was created.
    pub late_rows: i64,
    /// The watermark progress, `i64::MIN` before the first.
    pub progress: i64,
}

impl From<StateStats> for GatunStateStats {
    fn from(s: StateStats) -> Self {
        Self {
            keys: s.keys,
            slices: s.slices,
            bytes: s.bytes,
            late_rows: s.late_rows,
            progress: s.progress,
        }
    }
}

/// What an operator without state reports.
impl Default for GatunStateStats {
    fn default() -> Self {
        StateStats::default().into()
    }
}

/// The `GATUN_ABI_VERSION` this library was built from. Java compares it with the
/// header's constant when it loads the library.
#[no_mangle]
pub extern "C" fn gatun_abi_version() -> u32 {
    GATUN_ABI_VERSION
}
