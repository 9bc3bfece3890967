//! Runs one of DataFusion's `GroupsAccumulator`s (primitive SUM and MIN/MAX, boolean
//! MIN/MAX) as a [`CallAccumulator`].

use arrow::array::{ArrayRef, BooleanArray};
use datafusion::common::{internal_err, Result};
use datafusion::logical_expr::{EmitTo, GroupsAccumulator};

use super::accumulator::CallAccumulator;

pub(super) struct DataFusionAccumulator<A: GroupsAccumulator> {
    inner: A,
}

impl<A: GroupsAccumulator> DataFusionAccumulator<A> {
    pub(super) fn new(inner: A) -> Self {
        DataFusionAccumulator { inner }
    }
}

impl<A: GroupsAccumulator> CallAccumulator for DataFusionAccumulator<A> {
    fn update(
        &mut self,
        argument: Option<&ArrayRef>,
        filter: Option<&BooleanArray>,
        groups: &[usize],
        total_groups: usize,
    ) -> Result<()> {
        let Some(argument) = argument else {
            return internal_err!("local aggregate: a value accumulator got no argument");
        };
        self.inner
            .update_batch(std::slice::from_ref(argument), groups, filter, total_groups)
    }

    fn emit(&mut self, out: &mut Vec<ArrayRef>) -> Result<()> {
        out.push(self.inner.evaluate(EmitTo::All)?);
        Ok(())
    }

    fn size(&self) -> usize {
        self.inner.size()
    }
}
