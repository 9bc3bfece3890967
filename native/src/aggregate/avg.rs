//! AVG of integers and floats in Flink's local layout: `(sum, count)`, starting at (0, 0),
//! never NULL. Integer sums are BIGINT wrapping at 2^63; float sums add `(double) x`.

use std::mem::size_of;
use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, BooleanArray, Int64Array, PrimitiveArray};
use arrow::datatypes::ArrowPrimitiveType;
use datafusion::common::{internal_err, Result};
use datafusion_functions_aggregate_common::aggregate::groups_accumulator::accumulate::accumulate;

use super::accumulator::CallAccumulator;

/// AVG over argument type `T` with a sum of type `S`; `add` folds one argument into a sum.
pub(super) struct PrimitiveAvg<T: ArrowPrimitiveType, S: ArrowPrimitiveType, F> {
    sums: Vec<S::Native>,
    counts: Vec<i64>,
    add: F,
    _argument: std::marker::PhantomData<fn(T)>,
}

impl<T, S, F> PrimitiveAvg<T, S, F>
where
    T: ArrowPrimitiveType + Send,
    S: ArrowPrimitiveType,
    F: Fn(&mut S::Native, T::Native) + Send + Sync,
{
    pub(super) fn new(add: F) -> Self {
        PrimitiveAvg {
            sums: Vec::new(),
            counts: Vec::new(),
            add,
            _argument: Default::default(),
        }
    }
}

impl<T, S, F> CallAccumulator for PrimitiveAvg<T, S, F>
where
    T: ArrowPrimitiveType + Send,
    S: ArrowPrimitiveType,
    F: Fn(&mut S::Native, T::Native) + Send + Sync,
{
    fn update(
        &mut self,
        argument: Option<&ArrayRef>,
        filter: Option<&BooleanArray>,
        groups: &[usize],
        total_groups: usize,
    ) -> Result<()> {
        let Some(argument) = argument else {
            return internal_err!("local aggregate: AVG got no argument");
        };
        self.sums.resize(total_groups, S::Native::default());
        self.counts.resize(total_groups, 0);
        let (sums, counts, add) = (&mut self.sums, &mut self.counts, &self.add);
        accumulate(groups, argument.as_primitive::<T>(), filter, |g, x| {
            add(&mut sums[g], x);
            counts[g] = counts[g].wrapping_add(1);
        });
        Ok(())
    }

    fn emit(&mut self, out: &mut Vec<ArrayRef>) -> Result<()> {
        let sums = std::mem::take(&mut self.sums);
        let counts = std::mem::take(&mut self.counts);
        out.push(Arc::new(PrimitiveArray::<S>::new(sums.into(), None)));
        out.push(Arc::new(Int64Array::new(counts.into(), None)));
        Ok(())
    }

    fn size(&self) -> usize {
        self.sums.capacity() * size_of::<S::Native>() + self.counts.capacity() * size_of::<i64>()
    }
}
