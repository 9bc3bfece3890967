//! MIN/MAX of FLOAT and DOUBLE with Java's primitive `<`/`>` (research/local-agg.md §2.3):
//! the first non-NULL value is taken unconditionally, a later one replaces it only when
//! strictly smaller (larger). So a NaN that comes first sticks, a later NaN never replaces,
//! and between 0.0 and -0.0 the first one wins. DataFusion's MIN/MAX differ (§5.1).

use std::mem::size_of;
use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, BooleanArray, BooleanBufferBuilder, PrimitiveArray};
use arrow::datatypes::ArrowPrimitiveType;
use datafusion::common::{internal_err, Result};
use datafusion_functions_aggregate_common::aggregate::groups_accumulator::accumulate::accumulate;

use super::accumulator::{take_nulls, CallAccumulator};

pub(super) struct FloatMinMax<T: ArrowPrimitiveType + Send, const MIN: bool> {
    values: Vec<T::Native>,
    seen: BooleanBufferBuilder,
}

impl<T: ArrowPrimitiveType + Send, const MIN: bool> FloatMinMax<T, MIN> {
    pub(super) fn new() -> Self {
        FloatMinMax {
            values: Vec::new(),
            seen: BooleanBufferBuilder::new(0),
        }
    }
}

impl<T: ArrowPrimitiveType + Send, const MIN: bool> CallAccumulator for FloatMinMax<T, MIN> {
    fn update(
        &mut self,
        argument: Option<&ArrayRef>,
        filter: Option<&BooleanArray>,
        groups: &[usize],
        total_groups: usize,
    ) -> Result<()> {
        let Some(argument) = argument else {
            return internal_err!("local aggregate: float MIN/MAX got no argument");
        };
        self.values.resize(total_groups, T::Native::default());
        self.seen.append_n(total_groups - self.seen.len(), false);
        let (values, seen) = (&mut self.values, &mut self.seen);
        accumulate(groups, argument.as_primitive::<T>(), filter, |g, x| {
            // PartialOrd on f32/f64 is IEEE: every comparison with NaN is false.
            if !seen.get_bit(g) {
                values[g] = x;
                seen.set_bit(g, true);
            } else if (MIN && x < values[g]) || (!MIN && x > values[g]) {
                values[g] = x;
            }
        });
        Ok(())
    }

    fn emit(&mut self, out: &mut Vec<ArrayRef>) -> Result<()> {
        let nulls = take_nulls(&mut self.seen);
        let values = std::mem::take(&mut self.values);
        out.push(Arc::new(PrimitiveArray::<T>::new(values.into(), nulls)));
        Ok(())
    }

    fn size(&self) -> usize {
        self.values.capacity() * size_of::<T::Native>() + self.seen.capacity() / 8
    }
}
