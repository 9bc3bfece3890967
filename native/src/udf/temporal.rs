//! EXTRACT and FLOOR/CEIL on DATE, TIME(ms) and TIMESTAMP(ms|µs) without time zone,
//! ported from Flink's `ExtractCallGen`, `FloorCeilCallGen` and `DateTimeUtils`.
//!
//! - `gatun_flink_extract(unit, x)` → BIGINT; `unit` is a STRING literal: `YEAR`,
//!   `QUARTER`, `MONTH`, `WEEK`, `DAY`, `DOY`, `DOW` (Sunday = 1), `ISODOW`, `ISOYEAR`,
//!   `DECADE`, `CENTURY`, `MILLENNIUM`, `EPOCH`, `HOUR`, `MINUTE`, `SECOND`,
//!   `MILLISECOND`, `MICROSECOND`, `NANOSECOND`.
//! - `gatun_flink_floor(x, unit)`, `gatun_flink_ceil(x, unit)` → the type of `x`.
//!
//! Flink's arithmetic is kept as is, quirks included: a TIMESTAMP's day is
//! `millis / 86400000` truncated toward zero, and its time fields come from Java's `%`,
//! so a timestamp before 1970 that is not at midnight extracts the date of the next day
//! and negative hours/minutes/seconds (e.g. `1969-12-31 23:00` → YEAR 1970, HOUR -1);
//! FLOOR/CEIL to YEAR..WEEK use the Julian calendar before 1582-10-15; CEIL of a DATE
//! to DAY is the next day.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, Int64Array, PrimitiveArray};
use arrow::datatypes::{
    DataType, Date32Type, Time32MillisecondType, TimeUnit, TimestampMicrosecondType,
    TimestampMillisecondType,
};
use datafusion::common::{exec_datafusion_err, exec_err, Result};

use super::{arity, is_string, Args, FlinkUdf};

pub fn functions() -> Vec<FlinkUdf> {
    vec![
        FlinkUdf::new("gatun_flink_extract", extract_type, extract, true),
        FlinkUdf::new(
            "gatun_flink_floor",
            floor_type,
            |a| floor_ceil(a, true),
            true,
        ),
        FlinkUdf::new(
            "gatun_flink_ceil",
            floor_type,
            |a| floor_ceil(a, false),
            true,
        ),
    ]
}

const MILLIS_PER_DAY: i64 = 86_400_000;
const EPOCH_JULIAN: i32 = 2_440_588;

fn temporal(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Date32
            | DataType::Time32(TimeUnit::Millisecond)
            | DataType::Timestamp(TimeUnit::Millisecond | TimeUnit::Microsecond, None)
    )
}

fn extract_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 2)?;
    if is_string(&types[0]) && temporal(&types[1]) {
        Ok(DataType::Int64)
    } else {
        Err("expects (STRING unit, DATE | TIME(3) | TIMESTAMP(3|6))".into())
    }
}

fn floor_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 2)?;
    if temporal(&types[0]) && is_string(&types[1]) {
        Ok(types[0].clone())
    } else {
        Err("expects (DATE | TIME(3) | TIMESTAMP(3|6), STRING unit)".into())
    }
}

/// A value in Flink's representation.
#[derive(Clone, Copy)]
enum Temporal {
    Date(i32),
    Time(i32),
    /// `TimestampData`: epoch millis (floor) and nanos of the milli.
    Ts(i64, i64),
}

fn read(array: &ArrayRef, i: usize) -> Option<Temporal> {
    if array.is_null(i) {
        return None;
    }
    Some(match array.data_type() {
        DataType::Date32 => Temporal::Date(array.as_primitive::<Date32Type>().value(i)),
        DataType::Time32(_) => {
            Temporal::Time(array.as_primitive::<Time32MillisecondType>().value(i))
        }
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            Temporal::Ts(array.as_primitive::<TimestampMillisecondType>().value(i), 0)
        }
        _ => {
            let us = array.as_primitive::<TimestampMicrosecondType>().value(i);
            Temporal::Ts(us.div_euclid(1000), us.rem_euclid(1000) * 1000)
        }
    })
}

fn extract(args: &Args) -> Result<ArrayRef> {
    let (units, x) = (args.arrays[0].as_string::<i32>(), &args.arrays[1]);
    let out = (0..x.len())
        .map(|i| match (units.is_null(i), read(x, i)) {
            (false, Some(v)) => extract_one(units.value(i), v).map(Some),
            _ => Ok(None),
        })
        .collect::<Result<Int64Array>>()?;
    Ok(Arc::new(out))
}

const DATE_UNITS: &[&str] = &[
    "YEAR",
    "MONTH",
    "DAY",
    "QUARTER",
    "DOY",
    "ISOYEAR",
    "DOW",
    "ISODOW",
    "WEEK",
    "DECADE",
    "CENTURY",
    "MILLENNIUM",
];

fn extract_one(unit: &str, v: Temporal) -> Result<i64> {
    let unsupported = || exec_datafusion_err!("EXTRACT({unit}) is not supported for this type");
    if DATE_UNITS.contains(&unit) {
        let day = match v {
            Temporal::Date(d) => d,
            Temporal::Ts(millis, _) => (millis / MILLIS_PER_DAY) as i32,
            Temporal::Time(_) => return Err(unsupported()),
        };
        return Ok(i64::from(julian_extract(
            unit,
            day.wrapping_add(EPOCH_JULIAN),
        )));
    }
    let (millis, nanos) = match v {
        Temporal::Date(d) if unit == "EPOCH" => return Ok(i64::from(d) * 86_400),
        Temporal::Date(_) => return Err(unsupported()),
        Temporal::Time(t) => (i64::from(t), None),
        Temporal::Ts(m, n) => (m, Some(n)),
    };
    Ok(match (unit, nanos) {
        ("EPOCH", Some(_)) => millis / 1000,
        ("HOUR", _) => (millis % MILLIS_PER_DAY) / 3_600_000,
        ("MINUTE", _) => (millis % 3_600_000) / 60_000,
        ("SECOND", _) => (millis % 60_000) / 1000,
        ("MILLISECOND", _) => millis % 1000,
        ("MICROSECOND", Some(n)) => (millis % 1000) * 1000 + n / 1000,
        ("NANOSECOND", Some(n)) => (millis % 1000) * 1_000_000 + n,
        _ => return Err(unsupported()),
    })
}

/// `DateTimeUtils.julianExtract` (proleptic Gregorian).
fn julian_extract(unit: &str, julian: i32) -> i32 {
    let j = julian + 32044;
    let g = j / 146_097;
    let dg = j % 146_097;
    let c = (dg / 36524 + 1) * 3 / 4;
    let dc = dg - c * 36524;
    let b = dc / 1461;
    let db = dc % 1461;
    let a = (db / 365 + 1) * 3 / 4;
    let da = db - a * 365;
    let y = g * 400 + c * 100 + b * 4 + a;
    let m = (da * 5 + 308) / 153 - 2;
    let d = da - (m + 4) * 153 / 5 + 122;
    let year = y - 4800 + (m + 2) / 12;
    let month = (m + 2) % 12 + 1;
    let day = d + 1;
    match unit {
        "YEAR" => year,
        "MONTH" => month,
        "DAY" => day,
        "ISOYEAR" => {
            let week = iso_week(julian, year, month, day);
            if week == 1 && month == 12 {
                year + 1
            } else if month == 1 && week > 50 {
                year - 1
            } else {
                year
            }
        }
        "QUARTER" => (month + 2) / 3,
        "DOW" => (i64::from(julian) + 1).rem_euclid(7) as i32 + 1,
        "ISODOW" => i64::from(julian).rem_euclid(7) as i32 + 1,
        "WEEK" => iso_week(julian, year, month, day),
        "DOY" => julian - ymd_to_julian(year, 1, 1) + 1,
        "DECADE" => year / 10,
        "CENTURY" => {
            if year > 0 {
                (year + 99) / 100
            } else {
                (year - 99) / 100
            }
        }
        _ => {
            if year > 0 {
                (year + 999) / 1000
            } else {
                (year - 999) / 1000
            }
        }
    }
}

fn ymd_to_julian(year: i32, month: i32, day: i32) -> i32 {
    let a = (14 - month) / 12;
    let y = year + 4800 - a;
    let m = month + 12 * a - 3;
    day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045
}

fn ymd_to_unix_date(year: i32, month: i32, day: i32) -> i32 {
    ymd_to_julian(year, month, day) - EPOCH_JULIAN
}

fn first_monday_of_first_week(year: i32) -> i64 {
    let jan_first = i64::from(ymd_to_julian(year, 1, 1));
    let dow = (jan_first + 1).rem_euclid(7);
    jan_first + (11 - dow) % 7 - 3
}

/// `DateTimeUtils.getIso8601WeekNumber`.
fn iso_week(julian: i32, year: i32, month: i32, day: i32) -> i32 {
    let j = i64::from(julian);
    let iso_dow = (j.rem_euclid(7) + 1) as i32;
    if month == 12 && day > 28 {
        if 31 - day + 4 > 7 - iso_dow && 31 - day + iso_dow >= 4 {
            ((j - first_monday_of_first_week(year)) / 7 + 1) as i32
        } else {
            1
        }
    } else if month == 1 && day < 5 {
        if 4 - day <= 7 - iso_dow && day - iso_dow >= -3 {
            1
        } else {
            ((j - first_monday_of_first_week(year - 1)) / 7 + 1) as i32
        }
    } else {
        ((j - first_monday_of_first_week(year)) / 7 + 1) as i32
    }
}

/// `DateTimeUtils.julianDateFloor` (Meeus; Julian calendar before 1582-10-15).
fn julian_date_floor(unit: &str, julian: i32, floor: bool) -> Option<i32> {
    let (b, c) = if julian > 2_299_160 {
        let a = julian + 32044;
        let b = (4 * a + 3) / 146_097;
        (b, a - b * 146_097 / 4)
    } else {
        (0, julian + 32082)
    };
    let d = (4 * c + 3) / 1461;
    let e = c - (1461 * d) / 4;
    let m = (5 * e + 2) / 153;
    let day = e - (153 * m + 2) / 5 + 1;
    let mut month = m + 3 - 12 * (m / 10);
    let mut quarter = (month + 2) / 3;
    let mut year = b * 100 + d - 4800 + (m / 10);
    Some(match unit {
        "MILLENNIUM" => {
            let base = 1000 * ((year + 999) / 1000);
            ymd_to_unix_date(if floor { base - 999 } else { base + 1 }, 1, 1)
        }
        "CENTURY" => {
            let base = 100 * ((year + 99) / 100);
            ymd_to_unix_date(if floor { base - 99 } else { base + 1 }, 1, 1)
        }
        "DECADE" => ymd_to_unix_date(10 * (year / 10 + i32::from(!floor)), 1, 1),
        "YEAR" => {
            if !floor && (month > 1 || day > 1) {
                year += 1;
            }
            ymd_to_unix_date(year, 1, 1)
        }
        "MONTH" => {
            if !floor && day > 1 {
                month += 1;
            }
            ymd_to_unix_date(year, month, 1)
        }
        "QUARTER" => {
            if !floor && (month > 1 || day > 1) {
                quarter += 1;
            }
            ymd_to_unix_date(year, quarter * 3 - 2, 1)
        }
        "WEEK" => {
            let mut offset = (i64::from(julian) + 1).rem_euclid(7) as i32;
            if !floor && offset > 0 {
                offset -= 7;
            }
            ymd_to_unix_date(year, month, day) - offset
        }
        "DAY" => ymd_to_unix_date(year, month, day) + i32::from(!floor),
        _ => return None,
    })
}

/// `SqlFunctionUtils.floor(long, long)` / `ceil(long, long)`.
fn floor_to(x: i64, step: i64, floor: bool) -> i64 {
    let x = if floor { x } else { x.wrapping_add(step - 1) };
    x - x.rem_euclid(step)
}

fn unit_millis(unit: &str) -> Option<i64> {
    Some(match unit {
        "HOUR" => 3_600_000,
        "MINUTE" => 60_000,
        "SECOND" => 1000,
        _ => return None,
    })
}

fn floor_ceil(args: &Args, floor: bool) -> Result<ArrayRef> {
    let (x, units) = (&args.arrays[0], args.arrays[1].as_string::<i32>());
    let mut out: Vec<Option<i64>> = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        let (Some(v), false) = (read(x, i), units.is_null(i)) else {
            out.push(None);
            continue;
        };
        let unit = units.value(i);
        let bad = || exec_datafusion_err!("FLOOR/CEIL to {unit} is not supported for this type");
        out.push(Some(match v {
            Temporal::Date(d) => match julian_date_floor(unit, d.wrapping_add(EPOCH_JULIAN), floor)
            {
                Some(r) => i64::from(r),
                None if unit_millis(unit).is_some() || unit == "MILLISECOND" => i64::from(d),
                None => return Err(bad()),
            },
            Temporal::Time(t) => match (unit, unit_millis(unit)) {
                ("MILLISECOND", _) => i64::from(t),
                (_, Some(step)) => floor_to(i64::from(t), step, floor),
                _ => return Err(bad()),
            },
            Temporal::Ts(millis, nanos) => {
                let r = match (unit, unit_millis(unit)) {
                    ("MILLISECOND", _) => millis + i64::from(!floor && nanos > 0),
                    ("DAY", _) => floor_to(millis, MILLIS_PER_DAY, floor),
                    (_, Some(step)) => floor_to(millis, step, floor),
                    _ => {
                        let day = (millis / MILLIS_PER_DAY) as i32;
                        match julian_date_floor(unit, day.wrapping_add(EPOCH_JULIAN), floor) {
                            Some(d) => i64::from(d) * MILLIS_PER_DAY,
                            None => return Err(bad()),
                        }
                    }
                };
                match x.data_type() {
                    DataType::Timestamp(TimeUnit::Microsecond, _) => r * 1000,
                    _ => r,
                }
            }
        }));
    }
    write_like(x.data_type(), out)
}

fn write_like(t: &DataType, values: Vec<Option<i64>>) -> Result<ArrayRef> {
    Ok(match t {
        DataType::Date32 => Arc::new(
            values
                .into_iter()
                .map(|v| v.map(|v| v as i32))
                .collect::<PrimitiveArray<Date32Type>>(),
        ),
        DataType::Time32(_) => Arc::new(
            values
                .into_iter()
                .map(|v| v.map(|v| v as i32))
                .collect::<PrimitiveArray<Time32MillisecondType>>(),
        ),
        DataType::Timestamp(TimeUnit::Millisecond, _) => Arc::new(
            values
                .into_iter()
                .collect::<PrimitiveArray<TimestampMillisecondType>>(),
        ),
        DataType::Timestamp(TimeUnit::Microsecond, _) => Arc::new(
            values
                .into_iter()
                .collect::<PrimitiveArray<TimestampMicrosecondType>>(),
        ),
        other => return exec_err!("unsupported type {other}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn julian_fields() {
        // 2024-02-29 is day 19782
        let j = 19782 + EPOCH_JULIAN;
        assert_eq!(julian_extract("YEAR", j), 2024);
        assert_eq!(julian_extract("MONTH", j), 2);
        assert_eq!(julian_extract("DAY", j), 29);
        assert_eq!(julian_extract("DOY", j), 60);
        assert_eq!(julian_extract("QUARTER", j), 1);
        assert_eq!(julian_extract("DOW", j), 5); // Thursday, Sunday = 1
        assert_eq!(julian_extract("ISODOW", j), 4);
        assert_eq!(julian_extract("WEEK", j), 9);
        assert_eq!(julian_extract("CENTURY", j), 21);
        // 2021-01-01 is in ISO week 53 of 2020
        let j = ymd_to_julian(2021, 1, 1);
        assert_eq!(julian_extract("WEEK", j), 53);
        assert_eq!(julian_extract("ISOYEAR", j), 2020);
    }

    #[test]
    fn time_fields_and_quirks() {
        let ts = |m| Temporal::Ts(m, 0);
        assert_eq!(extract_one("HOUR", ts(3_600_000 * 5 + 61_000)).unwrap(), 5);
        assert_eq!(extract_one("SECOND", ts(61_000)).unwrap(), 1);
        // 1969-12-31 23:00:00 → Flink: YEAR 1970, HOUR -1
        assert_eq!(extract_one("YEAR", ts(-3_600_000)).unwrap(), 1970);
        assert_eq!(extract_one("HOUR", ts(-3_600_000)).unwrap(), -1);
        assert_eq!(
            extract_one("MICROSECOND", Temporal::Ts(1, 5000)).unwrap(),
            1005
        );
        assert!(extract_one("HOUR", Temporal::Date(0)).is_err());
        assert_eq!(extract_one("EPOCH", Temporal::Date(1)).unwrap(), 86_400);
    }

    #[test]
    fn floors() {
        let day = ymd_to_unix_date(2024, 5, 17);
        assert_eq!(
            julian_date_floor("YEAR", day + EPOCH_JULIAN, true),
            Some(ymd_to_unix_date(2024, 1, 1))
        );
        assert_eq!(
            julian_date_floor("YEAR", day + EPOCH_JULIAN, false),
            Some(ymd_to_unix_date(2025, 1, 1))
        );
        assert_eq!(
            julian_date_floor("QUARTER", day + EPOCH_JULIAN, true),
            Some(ymd_to_unix_date(2024, 4, 1))
        );
        assert_eq!(
            julian_date_floor("MONTH", day + EPOCH_JULIAN, false),
            Some(ymd_to_unix_date(2024, 6, 1))
        );
        assert_eq!(
            julian_date_floor("DAY", day + EPOCH_JULIAN, false),
            Some(day + 1)
        );
        assert_eq!(floor_to(-1, 1000, true), -1000);
        assert_eq!(floor_to(-1, 1000, false), 0);
        assert_eq!(floor_to(1001, 1000, false), 2000);
    }
}
