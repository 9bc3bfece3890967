//! DECIMAL SUM and AVG with Flink's `AGG_DECIMAL_PLUS`: the sum is DECIMAL(38, s) and a
//! result needing more than 38 digits is NULL (research/local-agg.md §2.2).
//! - SUM: NULL after an overflow, and the next value restarts it (`sum NULL ? x : sum + x`).
//! - AVG: the sum starts at 0 and, once NULL, stays NULL until the emit, while the count
//!   keeps counting (AVG has no `isNull(sum)` branch: NULL + x = NULL).

use std::mem::size_of;
use std::sync::Arc;

use arrow::array::{
    ArrayRef, AsArray, BooleanArray, BooleanBufferBuilder, Decimal128Array, Int64Array,
};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Decimal128Type};
use datafusion::common::{internal_err, Result};
use datafusion_functions_aggregate_common::aggregate::groups_accumulator::accumulate::accumulate;

use super::accumulator::{take_nulls, CallAccumulator};

const TEN_POW_38: u128 = 100_000_000_000_000_000_000_000_000_000_000_000_000;

/// `a + b` when it fits in 38 digits (Flink's `DecimalData.fromBigDecimal(_, 38, s)`).
pub(super) fn add_38(a: i128, b: i128) -> Option<i128> {
    a.checked_add(b).filter(|r| r.unsigned_abs() < TEN_POW_38)
}

fn sum_array(values: Vec<i128>, nulls: Option<NullBuffer>, scale: i8) -> ArrayRef {
    Arc::new(
        Decimal128Array::new(values.into(), nulls).with_data_type(DataType::Decimal128(38, scale)),
    )
}

fn decimal_argument(argument: Option<&ArrayRef>) -> Result<&Decimal128Array> {
    match argument {
        Some(a) => Ok(a.as_primitive::<Decimal128Type>()),
        None => internal_err!("local aggregate: a DECIMAL accumulator got no argument"),
    }
}

pub(super) struct DecimalSum {
    sums: Vec<i128>,
    /// Holds a sum (false: nothing seen yet, or the last addition overflowed).
    valid: BooleanBufferBuilder,
    scale: i8,
}

impl DecimalSum {
    pub(super) fn new(scale: i8) -> Self {
        DecimalSum {
            sums: Vec::new(),
            valid: BooleanBufferBuilder::new(0),
            scale,
        }
    }
}

impl CallAccumulator for DecimalSum {
    fn update(
        &mut self,
        argument: Option<&ArrayRef>,
        filter: Option<&BooleanArray>,
        groups: &[usize],
        total_groups: usize,
    ) -> Result<()> {
        let argument = decimal_argument(argument)?;
        self.sums.resize(total_groups, 0);
        self.valid.append_n(total_groups - self.valid.len(), false);
        let (sums, valid) = (&mut self.sums, &mut self.valid);
        accumulate(groups, argument, filter, |g, x| {
            if !valid.get_bit(g) {
                sums[g] = x;
                valid.set_bit(g, true);
            } else if let Some(r) = add_38(sums[g], x) {
                sums[g] = r;
            } else {
                valid.set_bit(g, false);
            }
        });
        Ok(())
    }

    fn emit(&mut self, out: &mut Vec<ArrayRef>) -> Result<()> {
        let nulls = take_nulls(&mut self.valid);
        out.push(sum_array(std::mem::take(&mut self.sums), nulls, self.scale));
        Ok(())
    }

    fn size(&self) -> usize {
        self.sums.capacity() * size_of::<i128>() + self.valid.capacity() / 8
    }
}

pub(super) struct DecimalAvg {
    sums: Vec<i128>,
    /// The sum has not overflowed in this bundle.
    valid: BooleanBufferBuilder,
    counts: Vec<i64>,
    scale: i8,
}

impl DecimalAvg {
    pub(super) fn new(scale: i8) -> Self {
        DecimalAvg {
            sums: Vec::new(),
            valid: BooleanBufferBuilder::new(0),
            counts: Vec::new(),
            scale,
        }
    }
}

impl CallAccumulator for DecimalAvg {
    fn update(
        &mut self,
        argument: Option<&ArrayRef>,
        filter: Option<&BooleanArray>,
        groups: &[usize],
        total_groups: usize,
    ) -> Result<()> {
        let argument = decimal_argument(argument)?;
        self.sums.resize(total_groups, 0);
        self.counts.resize(total_groups, 0);
        self.valid.append_n(total_groups - self.valid.len(), true);
        let (sums, valid, counts) = (&mut self.sums, &mut self.valid, &mut self.counts);
        accumulate(groups, argument, filter, |g, x| {
            counts[g] = counts[g].wrapping_add(1);
            if valid.get_bit(g) {
                match add_38(sums[g], x) {
                    Some(r) => sums[g] = r,
                    None => valid.set_bit(g, false),
                }
            }
        });
        Ok(())
    }

    fn emit(&mut self, out: &mut Vec<ArrayRef>) -> Result<()> {
        let nulls = take_nulls(&mut self.valid);
        out.push(sum_array(std::mem::take(&mut self.sums), nulls, self.scale));
        out.push(Arc::new(Int64Array::new(
            std::mem::take(&mut self.counts).into(),
            None,
        )));
        Ok(())
    }

    fn size(&self) -> usize {
        (self.sums.capacity() * size_of::<i128>())
            + self.counts.capacity() * size_of::<i64>()
            + self.valid.capacity() / 8
    }
}
