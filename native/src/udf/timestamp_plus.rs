//! `gatun_flink_timestamp_plus_millis(ts, millis)`: a TIMESTAMP or TIMESTAMP_LTZ plus a number of
//! milliseconds, as Flink adds an INTERVAL DAY TO SECOND (`ts - INTERVAL '4' SECOND` of a
//! watermark): `TimestampData.fromEpochMillis(ts.getMillisecond() + millis,
//! ts.getNanoOfMillisecond())`, the millisecond part wrapping like a Java long and the
//! sub-millisecond part kept. The result has the type of `ts`; NULL in, NULL out.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, Int64Array, PrimitiveArray};
use arrow::datatypes::{
    ArrowTimestampType, DataType, Int64Type, TimeUnit, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType,
};
use arrow::error::ArrowError;
use datafusion::common::{exec_datafusion_err, Result};

use super::{arity, Args, FlinkUdf};

pub fn functions() -> Vec<FlinkUdf> {
    vec![FlinkUdf::new(
        "gatun_flink_timestamp_plus_millis",
        return_type,
        kernel,
        true,
    )]
}

fn return_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 2)?;
    match (&types[0], &types[1]) {
        (DataType::Timestamp(_, _), DataType::Int64) => Ok(types[0].clone()),
        _ => Err("expects (TIMESTAMP | TIMESTAMP_LTZ, BIGINT milliseconds)".into()),
    }
}

fn kernel(args: &Args) -> Result<ArrayRef> {
    let millis: &Int64Array = args.arrays[1].as_primitive::<Int64Type>();
    match args.arrays[0].data_type() {
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            plus::<TimestampMillisecondType>(&args.arrays[0], millis, 1)
        }
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            plus::<TimestampMicrosecondType>(&args.arrays[0], millis, 1_000)
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            plus::<TimestampNanosecondType>(&args.arrays[0], millis, 1_000_000)
        }
        other => Err(exec_datafusion_err!(
            "gatun_flink_timestamp_plus_millis of {other}"
        )),
    }
}

/// Adds in the millisecond domain (wrapping), keeping the `per_milli` sub-millisecond units.
fn plus<T: ArrowTimestampType>(
    ts: &ArrayRef,
    millis: &Int64Array,
    per_milli: i64,
) -> Result<ArrayRef> {
    let ts: &PrimitiveArray<T> = ts.as_primitive::<T>();
    let zone = match ts.data_type() {
        DataType::Timestamp(_, zone) => zone.clone(),
        _ => None,
    };
    let out: PrimitiveArray<T> = arrow::compute::try_binary(ts, millis, |v: i64, m: i64| {
        let milli = v.div_euclid(per_milli);
        let sub = v.rem_euclid(per_milli);
        milli
            .wrapping_add(m)
            .checked_mul(per_milli)
            .and_then(|x| x.checked_add(sub))
            .ok_or_else(|| {
                ArrowError::ComputeError(format!(
                    "timestamp {milli} ms + {m} ms is outside the range of this timestamp type"
                ))
            })
    })
    .map_err(|e| exec_datafusion_err!("{e}"))?;
    Ok(Arc::new(out.with_timezone_opt(zone)))
}
