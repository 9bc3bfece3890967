//! The output projection of a window aggregate: the AggregateRel's `emit.output_mapping`
//! ([`plan::AggregatePlan::emit`](crate::ops::local_aggregate::plan::AggregatePlan::emit)).
//! Java fuses a projection-only Flink Calc above the window aggregate (one that reorders,
//! duplicates or drops columns) into the aggregate's exit this way.
//!
//! The emit only selects result columns. The aggregate's own ("unprojected") output is its
//! keys, visible measures and window properties, W columns; the expected output schema and the
//! root names describe that output, exactly as without an emit, and every check of
//! [`create`](super::WindowAggregateOperator::create) runs against it. Output field j is the
//! aggregate's field `mapping[j]`, name included (Flink reads result rows by position), and the
//! result batches are projected by cloning column references ([`Projection::columns`]). So the
//! operator, its state and its snapshots (which name the key fields) are the same with and
//! without the projection: a savepoint of the fused operator restores into the unfused one and
//! back.

use arrow::array::ArrayRef;
use arrow::datatypes::Fields;

use super::bad;
use crate::GatunResult;

/// Which of the aggregate's own output columns leave, in which order.
#[derive(Debug)]
pub(super) struct Projection {
    /// Output column j is the aggregate's column `mapping[j]`; `None`: all, as they are.
    mapping: Option<Vec<usize>>,
}

impl Projection {
    /// Checks `emit` against the aggregate's output `width` (W): every index is in `[0, W)`
    /// (repeats allowed, any column may be dropped) and it selects at least one column.
    pub(super) fn new(emit: Option<&[usize]>, width: usize) -> GatunResult<Self> {
        let Some(mapping) = emit else {
            return Ok(Self { mapping: None });
        };
        if mapping.is_empty() {
            return Err(bad(
                "the AggregateRel's emit selects no column (an empty output mapping)",
            ));
        }
        if let Some((j, p)) = mapping.iter().enumerate().find(|(_, &p)| p >= width) {
            return Err(bad(format!(
                "the AggregateRel's emit maps output column {j} to column {p}, but the aggregate \
                 outputs {width} columns (keys, visible measures, window properties)"
            )));
        }
        Ok(Self {
            mapping: Some(mapping.to_vec()),
        })
    }

    /// The output fields: field j is `unprojected[mapping[j]]`, as it is.
    pub(super) fn fields(&self, unprojected: Fields) -> Fields {
        match &self.mapping {
            None => unprojected,
            Some(mapping) => mapping.iter().map(|&p| unprojected[p].clone()).collect(),
        }
    }

    /// The output columns of the aggregate's own `columns` (references, no copy).
    pub(super) fn columns(&self, columns: Vec<ArrayRef>) -> Vec<ArrayRef> {
        match &self.mapping {
            None => columns,
            Some(mapping) => mapping.iter().map(|&p| columns[p].clone()).collect(),
        }
    }
}
