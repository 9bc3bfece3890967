//! Group ids for the rows of a batch: DataFusion's `GroupValues` over the key columns (and
//! the slice end), or the single global group when there are none.
//!
//! `GroupValues` matches Flink's key equality (research/local-agg.md §5.2): NULL keys are one
//! group, floats compare by bits (-0.0 and 0.0, NaNs with different payloads are different
//! groups), strings and binary by bytes. Ids are dense in first-seen order.

use std::mem::size_of;
use std::sync::Arc;

use arrow::array::{ArrayRef, RecordBatch};
use arrow::datatypes::{Field, Schema};
use datafusion::common::Result;
use datafusion::logical_expr::EmitTo;
use datafusion::physical_plan::aggregates::group_values::{new_group_values, GroupValues};
use datafusion::physical_plan::aggregates::order::GroupOrdering;

pub(super) enum Grouping {
    /// No keys: every row belongs to group 0, which exists once a row has arrived.
    Global { has_group: bool },
    Keyed {
        values: Box<dyn GroupValues>,
        /// The key columns, then the slice end column if any.
        columns: Vec<usize>,
        /// The current batch's key arrays (kept to reuse the allocation).
        scratch: Vec<ArrayRef>,
    },
}

impl Grouping {
    /// `fields` are the grouping columns' fields in `columns` order.
    pub(super) fn new(columns: Vec<usize>, fields: Vec<Field>) -> Result<Self> {
        if columns.is_empty() {
            return Ok(Grouping::Global { has_group: false });
        }
        // All nullable: GroupValuesColumn reads a NOT NULL field's null slots as values.
        let fields: Vec<Field> = fields.into_iter().map(|f| f.with_nullable(true)).collect();
        let schema = Arc::new(Schema::new(fields));
        Ok(Grouping::Keyed {
            values: new_group_values(schema, &GroupOrdering::None)?,
            scratch: Vec::with_capacity(columns.len()),
            columns,
        })
    }

    /// Fills `groups` with each row's group id; returns the number of groups.
    pub(super) fn intern(&mut self, batch: &RecordBatch, groups: &mut Vec<usize>) -> Result<usize> {
        match self {
            Grouping::Global { has_group } => {
                groups.clear();
                groups.resize(batch.num_rows(), 0);
                *has_group |= batch.num_rows() > 0;
                Ok(*has_group as usize)
            }
            Grouping::Keyed {
                values,
                columns,
                scratch,
            } => {
                scratch.extend(columns.iter().map(|&c| batch.column(c).clone()));
                let interned = values.intern(scratch, groups);
                scratch.clear();
                interned?;
                Ok(values.len())
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Grouping::Global { has_group } => *has_group as usize,
            Grouping::Keyed { values, .. } => values.len(),
        }
    }

    /// Every group's key columns in group order; leaves no groups.
    pub(super) fn emit(&mut self) -> Result<Vec<ArrayRef>> {
        match self {
            Grouping::Global { has_group } => {
                *has_group = false;
                Ok(Vec::new())
            }
            Grouping::Keyed { values, .. } => {
                let groups = values.len();
                let keys = values.emit(EmitTo::All);
                // The multi-column variant keeps its hash map on emit(All) (§5.2), so clear
                // every variant. The table keeps room for as many groups as this bundle had:
                // the next bundle is likely alike, and regrowing it each time costs ~20% of
                // the fold; a large bundle's table is given back at the next emit.
                values.clear_shrink(groups);
                keys
            }
        }
    }

    pub(super) fn size(&self) -> usize {
        match self {
            Grouping::Global { .. } => 0,
            Grouping::Keyed {
                values, scratch, ..
            } => values.size() + scratch.capacity() * size_of::<ArrayRef>(),
        }
    }
}
