//! The kinds of the one native operator handle (`GatunOperator`).
//!
//! Every kind implements [`NativeOperator`]: the handle imports each input batch once
//! (the same import for every kind, row-kind column split off), hands it to the kind and
//! exports what the kind returns. A kind that buffers (aggregates) returns rows when it
//! has some and on [`NativeOperator::flush`].
//!
//! - [`calc`]: projections + filter, with [`watermark`] assignment when the plan says so;
//! - [`local_aggregate`]: Flink's local (pre-shuffle) group or window aggregate with the Calc
//!   below it;
//! - [`window_aggregate`]: Flink's window aggregate (TUMBLE, HOP, CUMULATE) with its state in
//!   native memory, snapshot and restored per key group;
//! - [`filter`]: the filter of a Calc part, shared by the kinds;
//! - [`rowkind`]: the row-kind sidecar and the input schema split;
//! - [`output`]: the Arrow and Flink-rows output formats.

pub mod calc;
pub mod filter;
pub mod local_aggregate;
pub mod output;
pub mod rowkind;
pub mod watermark;
pub mod window_aggregate;

use arrow::array::{ArrayRef, RecordBatch, StructArray};
use arrow::datatypes::{Fields, Schema};

use crate::ffi::abi::{
    GATUN_OPERATOR_CALC, GATUN_OPERATOR_LOCAL_AGGREGATE, GATUN_OPERATOR_WINDOW_AGGREGATE,
};
use crate::{GatunError, GatunResult};
use output::OutputFormat;
use rowkind::InputSchema;
use watermark::Progress;
use window_aggregate::StateStats;

/// One kind of native operator, as a handle owns it.
pub trait NativeOperator: Send + std::fmt::Debug {
    /// The fields of every result batch (the `+s` output schema exported at create).
    fn output_fields(&self) -> &Fields;

    /// Whether [`process`](Self::process) assigns watermarks (then it takes a progress).
    fn assigns_watermarks(&self) -> bool;

    /// Processes one input batch (the row-kind column split off into `row_kind`).
    /// `progress` is given exactly when the operator assigns watermarks; the caller keeps
    /// its previous value when this fails. `None` when no rows are emitted for this input.
    fn process(
        &mut self,
        batch: RecordBatch,
        row_kind: Option<ArrayRef>,
        progress: Option<&mut Progress>,
    ) -> GatunResult<Option<StructArray>>;

    /// Emits what the operator buffers and resets it; `None` when there is nothing.
    fn flush(&mut self) -> GatunResult<Option<StructArray>>;

    /// A watermark reached the operator (after every row before it was processed): emits
    /// what must leave before the watermark passes on, per the kind's rule. By default all
    /// of it, as Flink's local group aggregate finishes its bundle.
    fn advance(&mut self, watermark: i64) -> GatunResult<Option<StructArray>> {
        let _ = watermark;
        self.flush()
    }

    /// For each input column (row-kind column excluded), whether the operator reads it
    /// as text, so that its strings must be valid UTF-8. A column it only copies through
    /// is checked for everything else (see `ffi::text_check`).
    fn reads_as_text(&self, columns: usize) -> Vec<bool> {
        vec![true; columns]
    }

    /// Bytes the operator holds between calls (a buffering kind's groups and accumulators),
    /// for the native memory budget.
    fn held_bytes(&self) -> usize {
        0
    }

    /// The state per key group of `max_parallelism` (kinds with state only).
    fn snapshot(&mut self, max_parallelism: i32) -> GatunResult<StructArray> {
        let _ = max_parallelism;
        Err(no_state("gatun_operator_snapshot"))
    }

    /// Adds one section of [`snapshot`](Self::snapshot) (kinds with state only).
    fn restore(&mut self, section: &[u8]) -> GatunResult {
        let _ = section;
        Err(no_state("gatun_operator_restore"))
    }

    /// Sets the progress a restored operator continues from (kinds with state only).
    fn restore_progress(&mut self, progress: i64) -> GatunResult {
        let _ = progress;
        Err(no_state("gatun_operator_restore_progress"))
    }

    /// Bounds the state's bytes (kinds with state only).
    fn limit_state(&mut self, max_bytes: i64) -> GatunResult {
        let _ = max_bytes;
        Err(no_state("gatun_operator_limit_state"))
    }

    /// The state's keys, slices, bytes, late rows and progress (the defaults without state).
    fn state_stats(&self) -> StateStats {
        StateStats::default()
    }
}

fn no_state(call: &str) -> GatunError {
    GatunError::invalid_argument(format!(
        "{call} takes a GATUN_OPERATOR_WINDOW_AGGREGATE operator (a kind with state)"
    ))
}

/// The `GATUN_OPERATOR_*` kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Calc,
    LocalAggregate,
    WindowAggregate,
}

impl Kind {
    /// The kind of a `GATUN_OPERATOR_*` value, or `GATUN_ERR_INVALID_ARGUMENT`.
    pub fn from_abi(value: u32) -> GatunResult<Self> {
        match value {
            GATUN_OPERATOR_CALC => Ok(Self::Calc),
            GATUN_OPERATOR_LOCAL_AGGREGATE => Ok(Self::LocalAggregate),
            GATUN_OPERATOR_WINDOW_AGGREGATE => Ok(Self::WindowAggregate),
            other => Err(GatunError::invalid_argument(format!(
                "argument `kind` is {other}; expected GATUN_OPERATOR_CALC ({GATUN_OPERATOR_CALC}), \
                 GATUN_OPERATOR_LOCAL_AGGREGATE ({GATUN_OPERATOR_LOCAL_AGGREGATE}) or \
                 GATUN_OPERATOR_WINDOW_AGGREGATE ({GATUN_OPERATOR_WINDOW_AGGREGATE})"
            ))),
        }
    }

    /// The `GATUN_OPERATOR_*` name.
    pub fn abi_name(self) -> &'static str {
        match self {
            Kind::Calc => "GATUN_OPERATOR_CALC",
            Kind::LocalAggregate => "GATUN_OPERATOR_LOCAL_AGGREGATE",
            Kind::WindowAggregate => "GATUN_OPERATOR_WINDOW_AGGREGATE",
        }
    }
}

/// Compiles an operator of `kind` from `plan` for batches of `input`.
pub fn create(
    kind: Kind,
    plan: &[u8],
    input: &InputSchema,
    expected_output: &Schema,
    format: OutputFormat,
) -> GatunResult<Box<dyn NativeOperator>> {
    match kind {
        Kind::Calc => Ok(Box::new(calc::Calc::create(
            plan,
            input,
            expected_output,
            format,
        )?)),
        Kind::LocalAggregate => Ok(Box::new(local_aggregate::LocalAggregateOperator::create(
            plan,
            input,
            expected_output,
            format,
        )?)),
        Kind::WindowAggregate => Ok(Box::new(window_aggregate::WindowAggregateOperator::create(
            plan,
            input,
            expected_output,
            format,
        )?)),
    }
}
