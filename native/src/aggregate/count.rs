//! COUNT(*) (`count1`) and COUNT(x) (`count`): a BIGINT per group, starting at 0 and never
//! NULL, wrapping at 2^63 like Java's `long`.

use std::mem::size_of;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, BooleanArray, Int64Array};
use datafusion::common::Result;
use datafusion_functions_aggregate_common::aggregate::groups_accumulator::accumulate::accumulate_indices;

use super::accumulator::CallAccumulator;

pub(super) struct Count {
    counts: Vec<i64>,
    star: bool,
}

impl Count {
    pub(super) fn new(star: bool) -> Self {
        Count {
            counts: Vec::new(),
            star,
        }
    }
}

impl CallAccumulator for Count {
    fn update(
        &mut self,
        argument: Option<&ArrayRef>,
        filter: Option<&BooleanArray>,
        groups: &[usize],
        total_groups: usize,
    ) -> Result<()> {
        self.counts.resize(total_groups, 0);
        // Logical nulls: a Null-typed or dictionary argument has no physical null buffer.
        let nulls = match argument {
            Some(a) if !self.star => a.logical_nulls(),
            _ => None,
        };
        let counts = &mut self.counts;
        accumulate_indices(groups, nulls.as_ref(), filter, |g| {
            counts[g] = counts[g].wrapping_add(1)
        });
        Ok(())
    }

    fn emit(&mut self, out: &mut Vec<ArrayRef>) -> Result<()> {
        let counts = std::mem::take(&mut self.counts);
        out.push(Arc::new(Int64Array::new(counts.into(), None)));
        Ok(())
    }

    fn size(&self) -> usize {
        self.counts.capacity() * size_of::<i64>()
    }
}
