//! EXTRACT and FLOOR/CEIL on DATE, TIME and TIMESTAMP, through the C ABI.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, Date32Array, Time32MillisecondArray, TimestampMicrosecondArray,
    TimestampMillisecondArray, TimestampNanosecondArray,
};
use arrow::datatypes::{
    DataType, Date32Type, Int64Type, Time32MillisecondType, TimeUnit, TimestampMicrosecondType,
    TimestampMillisecondType,
};
use datafusion::common::ScalarValue;
use gatun_native::ffi::abi::GATUN_ERR_EXECUTION;

use crate::calc_util::*;

fn unit(u: &str) -> datafusion::logical_expr::Expr {
    lit(ScalarValue::Utf8(Some(u.to_string())))
}

fn extract(u: &str, x: ArrayRef) -> Vec<Option<i64>> {
    let out = eval(
        call("gatun_flink_extract", vec![unit(u), col("x")]),
        &batch(vec![("x", x)]),
    )
    .unwrap();
    out.as_primitive::<Int64Type>().iter().collect()
}

/// 2024-02-29 13:45:56.789 (a Thursday), and 1969-12-31 23:00:00.
const TS: i64 = 1_709_214_356_789;
const BEFORE_EPOCH: i64 = -3_600_000;

#[test]
fn extract_from_timestamps() {
    let ts: ArrayRef = Arc::new(TimestampMillisecondArray::from(vec![
        Some(TS),
        Some(BEFORE_EPOCH),
        None,
    ]));
    let cases: [(&str, [Option<i64>; 3]); 12] = [
        ("YEAR", [Some(2024), Some(1970), None]),
        ("QUARTER", [Some(1), Some(1), None]),
        ("MONTH", [Some(2), Some(1), None]),
        ("DAY", [Some(29), Some(1), None]),
        ("DOW", [Some(5), Some(5), None]),
        ("DOY", [Some(60), Some(1), None]),
        ("WEEK", [Some(9), Some(1), None]),
        ("HOUR", [Some(13), Some(-1), None]),
        ("MINUTE", [Some(45), Some(0), None]),
        ("SECOND", [Some(56), Some(0), None]),
        ("MILLISECOND", [Some(789), Some(0), None]),
        ("EPOCH", [Some(TS / 1000), Some(-3600), None]),
    ];
    for (u, want) in cases {
        assert_eq!(extract(u, Arc::clone(&ts)), want, "{u}");
    }
    let micros: ArrayRef = Arc::new(TimestampMicrosecondArray::from(vec![TS * 1000 + 123, -1]));
    assert_eq!(
        extract("MICROSECOND", Arc::clone(&micros)),
        [Some(789_123), Some(-1_000 + 999)]
    );
    assert_eq!(
        extract("NANOSECOND", micros),
        [Some(789_123_000), Some(-1_000_000 + 999_000)]
    );
}

#[test]
fn extract_from_dates_and_times() {
    let dates: ArrayRef = Arc::new(Date32Array::from(vec![19782, -1, 18628]));
    assert_eq!(
        extract("YEAR", Arc::clone(&dates)),
        [Some(2024), Some(1969), Some(2021)]
    );
    assert_eq!(
        extract("DAY", Arc::clone(&dates)),
        [Some(29), Some(31), Some(1)]
    );
    assert_eq!(
        extract("WEEK", Arc::clone(&dates)),
        [Some(9), Some(1), Some(53)]
    );
    assert_eq!(
        extract("ISOYEAR", Arc::clone(&dates)),
        [Some(2024), Some(1970), Some(2020)]
    );
    assert_eq!(
        extract("EPOCH", Arc::clone(&dates)),
        [Some(19782 * 86400), Some(-86400), Some(18628 * 86400)]
    );
    assert_eq!(extract("CENTURY", dates), [Some(21), Some(20), Some(21)]);
    let times: ArrayRef = Arc::new(Time32MillisecondArray::from(vec![49_556_789]));
    assert_eq!(extract("HOUR", Arc::clone(&times)), [Some(13)]);
    assert_eq!(extract("SECOND", Arc::clone(&times)), [Some(56)]);
    assert_fails(
        eval(
            call("gatun_flink_extract", vec![unit("YEAR"), col("x")]),
            &batch(vec![("x", times)]),
        ),
        GATUN_ERR_EXECUTION,
        &["EXTRACT(YEAR)"],
    );
}

fn floor_ceil(name: &str, u: &str, x: ArrayRef) -> ArrayRef {
    eval(call(name, vec![col("x"), unit(u)]), &batch(vec![("x", x)])).unwrap()
}

#[test]
fn floor_and_ceil_timestamps() {
    let ts: ArrayRef = Arc::new(TimestampMillisecondArray::from(vec![TS]));
    let day = TS - TS % 86_400_000;
    let cases = [
        ("gatun_flink_floor", "DAY", day),
        ("gatun_flink_ceil", "DAY", day + 86_400_000),
        ("gatun_flink_floor", "HOUR", day + 13 * 3_600_000),
        (
            "gatun_flink_ceil",
            "MINUTE",
            day + 13 * 3_600_000 + 46 * 60_000,
        ),
        ("gatun_flink_floor", "SECOND", TS - 789),
        ("gatun_flink_floor", "MONTH", 1_706_745_600_000), // 2024-02-01
        ("gatun_flink_ceil", "MONTH", 1_709_251_200_000),  // 2024-03-01
        ("gatun_flink_floor", "YEAR", 1_704_067_200_000),  // 2024-01-01
        ("gatun_flink_floor", "WEEK", 1_708_819_200_000),  // Sunday 2024-02-25
    ];
    for (name, u, want) in cases {
        let out = floor_ceil(name, u, Arc::clone(&ts));
        assert_eq!(
            out.as_primitive::<TimestampMillisecondType>().value(0),
            want,
            "{name} {u}"
        );
    }
    let micros: ArrayRef = Arc::new(TimestampMicrosecondArray::from(vec![1_500, -1]));
    let out = floor_ceil("gatun_flink_ceil", "MILLISECOND", Arc::clone(&micros));
    assert_eq!(
        out.as_primitive::<TimestampMicrosecondType>().values(),
        &[2_000, 0]
    );
    let out = floor_ceil("gatun_flink_floor", "MILLISECOND", micros);
    assert_eq!(
        out.as_primitive::<TimestampMicrosecondType>().values(),
        &[1_000, -1_000]
    );
}

#[test]
fn floor_and_ceil_dates_and_times() {
    let dates: ArrayRef = Arc::new(Date32Array::from(vec![19782])); // 2024-02-29
    let out = floor_ceil("gatun_flink_floor", "QUARTER", Arc::clone(&dates));
    assert_eq!(out.as_primitive::<Date32Type>().values(), &[19723]); // 2024-01-01
    let out = floor_ceil("gatun_flink_ceil", "YEAR", Arc::clone(&dates));
    assert_eq!(out.as_primitive::<Date32Type>().values(), &[20089]); // 2025-01-01
                                                                     // Flink's CEIL(date TO DAY) is the next day.
    let out = floor_ceil("gatun_flink_ceil", "DAY", dates);
    assert_eq!(out.as_primitive::<Date32Type>().values(), &[19783]);
    let times: ArrayRef = Arc::new(Time32MillisecondArray::from(vec![49_556_789]));
    let out = floor_ceil("gatun_flink_floor", "HOUR", Arc::clone(&times));
    assert_eq!(
        out.as_primitive::<Time32MillisecondType>().values(),
        &[46_800_000]
    );
    let out = floor_ceil("gatun_flink_ceil", "SECOND", times);
    assert_eq!(
        out.as_primitive::<Time32MillisecondType>().values(),
        &[49_557_000]
    );
}

#[test]
fn timestamp_plus_millis() {
    // Flink: fromEpochMillis(ts.getMillisecond() + millis, ts.getNanoOfMillisecond())
    let plus = |x: ArrayRef, millis: i64| {
        eval(
            call(
                "gatun_flink_timestamp_plus_millis",
                vec![col("x"), lit(ScalarValue::Int64(Some(millis)))],
            ),
            &batch(vec![("x", x)]),
        )
        .unwrap()
    };
    let ms: ArrayRef = Arc::new(TimestampMillisecondArray::from(vec![Some(TS), None, Some(-1)]));
    let out = plus(ms, -4_000);
    let out = out.as_primitive::<TimestampMillisecondType>();
    assert_eq!(out.value(0), TS - 4_000);
    assert!(out.is_null(1));
    assert_eq!(out.value(2), -4_001);
    // sub-millisecond parts are kept, also before 1970 (floor split)
    let micros: ArrayRef = Arc::new(TimestampMicrosecondArray::from(vec![1_500, -1]));
    let out = plus(micros, 1);
    assert_eq!(
        out.as_primitive::<TimestampMicrosecondType>().values(),
        &[2_500, 999]
    );
    // the zone of a TIMESTAMP_LTZ stays
    let ltz: ArrayRef = Arc::new(TimestampMillisecondArray::from(vec![TS]).with_timezone("UTC"));
    assert_eq!(
        plus(ltz, 10).data_type(),
        &DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()))
    );
    // beyond the unit's range: an error, never a wrapped value
    let nanos: ArrayRef = Arc::new(TimestampNanosecondArray::from(vec![0]));
    assert_fails(
        eval(
            call(
                "gatun_flink_timestamp_plus_millis",
                vec![col("x"), lit(ScalarValue::Int64(Some(i64::MAX / 2)))],
            ),
            &batch(vec![("x", nanos)]),
        ),
        GATUN_ERR_EXECUTION,
        &["outside the range"],
    );
}
