//! `gatun_flink_check_rowtime(rowtime)`: TRUE for every row, and the error of Flink's
//! `WatermarkAssignerOperator` when a rowtime is NULL.
//!
//! An island that absorbs a WatermarkAssigner whose watermarks nothing downstream sees (a
//! processing-time mini-batch assigner above it drops them) still owes the assigner's NULL
//! check on every row. The planner puts this call first in the island's filter, which runs
//! over every input row before anything else.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, BooleanArray};
use arrow::datatypes::DataType;
use datafusion::common::{exec_err, Result};

use super::{arity, Args, FlinkUdf};
use crate::ops::watermark::NULL_ROWTIME;

pub fn functions() -> Vec<FlinkUdf> {
    vec![FlinkUdf::new(
        "gatun_flink_check_rowtime",
        return_type,
        kernel,
        true,
    )]
}

fn return_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 1)?;
    match &types[0] {
        DataType::Timestamp(_, _) => Ok(DataType::Boolean),
        _ => Err("expects (TIMESTAMP | TIMESTAMP_LTZ)".into()),
    }
}

fn kernel(args: &Args) -> Result<ArrayRef> {
    let rowtime = &args.arrays[0];
    if rowtime.null_count() > 0 {
        return exec_err!("{NULL_ROWTIME}");
    }
    Ok(Arc::new(BooleanArray::from(vec![true; rowtime.len()])))
}
