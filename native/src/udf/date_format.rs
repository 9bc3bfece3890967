//! `gatun_flink_date_format(ts, pattern)`: Flink's DATE_FORMAT of a TIMESTAMP
//! (`DateTimeUtils.formatTimestamp(ts, pattern)`: the timestamp as a `LocalDateTime` in UTC,
//! formatted with `DateTimeFormatter.ofPattern(pattern)`); NULL in, NULL out.
//!
//! The pattern must be a literal; it is compiled once per plan, and only the locale-free letters
//! below are admitted (any other letter, an optional section `[...]` or a reserved character is a
//! plan error, and the Calc stays on Flink with that reason):
//! - `y` year-of-era: `y` unpadded, `yy` the last two digits, `yyy` padded to 3, `yyyy` (and
//!   more) padded to the count with a `+` once the year has more digits than that;
//! - `M` month, `d` day of month, `H` hour (0-23), `m` minute, `s` second: one letter unpadded,
//!   two padded to 2 digits (more is an error in Java too);
//! - `S`..`SSSSSSSSS` the first 1..9 digits of the fraction of the second;
//! - `'text'` a literal (`''` a quote), any other non-letter character itself.

use std::any::Any;
use std::fmt::Write;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, StringBuilder};
use arrow::datatypes::{
    DataType, TimeUnit, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType,
};
use datafusion::common::{exec_err, Result, ScalarValue};
use datafusion::logical_expr::Expr;

use super::{arity, is_string, Args, BoundState, FlinkUdf};

pub fn functions() -> Vec<FlinkUdf> {
    vec![FlinkUdf::new("gatun_flink_date_format", return_type, kernel, false).with_binder(bind)]
}

fn return_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 2)?;
    if matches!(types[0], DataType::Timestamp(_, None)) && is_string(&types[1]) {
        Ok(DataType::Utf8)
    } else {
        Err("expects (TIMESTAMP, STRING pattern literal)".into())
    }
}

/// One element of a compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    /// Year-of-era with the letter count.
    Year(usize),
    Month(usize),
    Day(usize),
    Hour(usize),
    Minute(usize),
    Second(usize),
    /// Digits of the fraction of the second.
    Fraction(usize),
}

/// A compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern(Vec<Part>);

impl Pattern {
    /// Compiles a `DateTimeFormatter` pattern; `Err` says what is not admitted.
    pub fn new(pattern: &str) -> std::result::Result<Pattern, String> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '\'' {
                // a quoted literal; '' is a quote, inside or outside quotes
                let mut j = i + 1;
                if chars.get(j) == Some(&'\'') {
                    literal.push('\'');
                    i = j + 1;
                    continue;
                }
                loop {
                    match chars.get(j) {
                        None => return Err(format!("pattern ends inside a quoted literal: {pattern}")),
                        Some('\'') if chars.get(j + 1) == Some(&'\'') => {
                            literal.push('\'');
                            j += 2;
                        }
                        Some('\'') => break,
                        Some(&other) => {
                            literal.push(other);
                            j += 1;
                        }
                    }
                }
                i = j + 1;
                continue;
            }
            if !c.is_ascii_alphabetic() {
                if matches!(c, '[' | ']' | '{' | '}' | '#') {
                    return Err(format!(
                        "the pattern character '{c}' (optional sections, reserved characters) is \
                         not admitted natively"
                    ));
                }
                literal.push(c);
                i += 1;
                continue;
            }
            let mut count = 1;
            while chars.get(i + count) == Some(&c) {
                count += 1;
            }
            let part = match (c, count) {
                ('y', _) => Part::Year(count),
                ('M', 1 | 2) => Part::Month(count),
                ('d', 1 | 2) => Part::Day(count),
                ('H', 1 | 2) => Part::Hour(count),
                ('m', 1 | 2) => Part::Minute(count),
                ('s', 1 | 2) => Part::Second(count),
                ('S', 1..=9) => Part::Fraction(count),
                _ => {
                    return Err(format!(
                        "the pattern letters '{}' are not admitted natively (y, M, d, H, m, s, S are)",
                        c.to_string().repeat(count)
                    ))
                }
            };
            if !literal.is_empty() {
                parts.push(Part::Literal(std::mem::take(&mut literal)));
            }
            parts.push(part);
            i += count;
        }
        if !literal.is_empty() {
            parts.push(Part::Literal(literal));
        }
        Ok(Pattern(parts))
    }

    /// Appends the timestamp `seconds` + `nanos` (0..1e9) since the epoch, in UTC, to `out`.
    fn format(&self, seconds: i64, nanos: u32, out: &mut String) {
        let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
        let second_of_day = seconds.rem_euclid(86_400);
        let (hour, minute, second) = (
            second_of_day / 3600,
            second_of_day / 60 % 60,
            second_of_day % 60,
        );
        for part in &self.0 {
            match *part {
                Part::Literal(ref s) => out.push_str(s),
                Part::Year(count) => {
                    let year_of_era = if year >= 1 { year } else { 1 - year };
                    match count {
                        2 => write!(out, "{:02}", year_of_era % 100),
                        1 | 3 => write!(out, "{year_of_era:0count$}"),
                        _ if year_of_era >= 10_i64.pow(count.min(18) as u32) => {
                            write!(out, "+{year_of_era}")
                        }
                        _ => write!(out, "{year_of_era:0count$}"),
                    }
                    .expect("writing to a String");
                }
                Part::Month(n) => pad(out, month, n),
                Part::Day(n) => pad(out, day, n),
                Part::Hour(n) => pad(out, hour, n),
                Part::Minute(n) => pad(out, minute, n),
                Part::Second(n) => pad(out, second, n),
                Part::Fraction(n) => {
                    let digits = format!("{nanos:09}");
                    out.push_str(&digits[..n]);
                }
            }
        }
    }
}

fn pad(out: &mut String, value: i64, width: usize) {
    write!(out, "{value:0width$}").expect("writing to a String");
}

/// The proleptic Gregorian (year, month, day) of `days` since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

struct Bound(Pattern);

fn bind(args: &[Expr]) -> std::result::Result<(String, BoundState), String> {
    let pattern = match args.get(1) {
        Some(Expr::Literal(ScalarValue::Utf8(Some(p)) | ScalarValue::Utf8View(Some(p)), _)) => {
            p.clone()
        }
        _ => {
            return Err("the pattern must be a non-NULL STRING literal (it is compiled once per \
                        plan; DATE_FORMAT with a computed pattern is not admitted natively)"
                .into())
        }
    };
    let compiled = Pattern::new(&pattern)?;
    let state: Arc<dyn Any + Send + Sync> = Arc::new(Bound(compiled));
    Ok((format!("pattern {pattern}"), state))
}

fn kernel(args: &Args) -> Result<ArrayRef> {
    let Some(Bound(pattern)) = args.state.and_then(|s| s.downcast_ref::<Bound>()) else {
        return exec_err!("the pattern was not compiled when the plan was (internal error)");
    };
    let ts = &args.arrays[0];
    // (seconds, nanos) of value i, whatever the unit
    let split = |v: i64, per_second: i64| {
        (
            v.div_euclid(per_second),
            (v.rem_euclid(per_second) * (1_000_000_000 / per_second)) as u32,
        )
    };
    let values: Box<dyn Fn(usize) -> (i64, u32)> = match ts.data_type() {
        DataType::Timestamp(TimeUnit::Millisecond, None) => {
            let a = ts.as_primitive::<TimestampMillisecondType>().clone();
            Box::new(move |i| split(a.value(i), 1_000))
        }
        DataType::Timestamp(TimeUnit::Microsecond, None) => {
            let a = ts.as_primitive::<TimestampMicrosecondType>().clone();
            Box::new(move |i| split(a.value(i), 1_000_000))
        }
        DataType::Timestamp(TimeUnit::Nanosecond, None) => {
            let a = ts.as_primitive::<TimestampNanosecondType>().clone();
            Box::new(move |i| split(a.value(i), 1_000_000_000))
        }
        other => return exec_err!("DATE_FORMAT of {other}"),
    };
    let rows = ts.len();
    let mut out = StringBuilder::with_capacity(rows, rows * 10);
    let mut text = String::with_capacity(32);
    for i in 0..rows {
        if ts.is_null(i) {
            out.append_null();
            continue;
        }
        let (seconds, nanos) = values(i);
        text.clear();
        pattern.format(seconds, nanos, &mut text);
        out.append_value(&text);
    }
    Ok(Arc::new(out.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(pattern: &str, millis: i64) -> String {
        let mut out = String::new();
        Pattern::new(pattern).unwrap().format(
            millis.div_euclid(1000),
            (millis.rem_euclid(1000) * 1_000_000) as u32,
            &mut out,
        );
        out
    }

    #[test]
    fn formats_like_java_date_time_formatter() {
        // 2024-02-29T13:45:56.789Z
        let t = 1_709_214_356_789;
        assert_eq!(fmt("yyyy-MM-dd", t), "2024-02-29");
        assert_eq!(fmt("yyyy-MM-dd HH:mm:ss.SSS", t), "2024-02-29 13:45:56.789");
        assert_eq!(fmt("yy/M/d H:m:s S", t), "24/2/29 13:45:56 7");
        assert_eq!(fmt("SSSSSS", t), "789000");
        assert_eq!(fmt("'day' dd 'o''clock' HH''", t), "day 29 o'clock 13'");
        assert_eq!(fmt("yyyyMMddHH", 0), "1970010100");
        // before 1970 the fields still floor: 1969-12-31T23:59:59.999
        assert_eq!(fmt("yyyy-MM-dd HH:mm:ss.SSS", -1), "1969-12-31 23:59:59.999");
        // year-of-era: year 0 is 1 BC, year -1 is 2 BC; a year beyond the width gets '+'
        let year0 = -62_167_219_200_000; // 0000-01-01T00:00:00Z
        assert_eq!(fmt("yyyy-MM-dd", year0), "0001-01-01");
        assert_eq!(fmt("y", year0 - 86_400_000 * 365), "2"); // -0001-01-01
        let year10000 = 253_402_300_800_000; // 10000-01-01T00:00:00Z
        assert_eq!(fmt("yyyy", year10000), "+10000");
        assert_eq!(fmt("yyy", 0), "1970");
        assert_eq!(fmt("y", 0), "1970");
    }

    #[test]
    fn refuses_what_needs_a_locale_or_is_reserved() {
        for p in ["MMM", "EEE", "a", "dd[HH]", "ddd", "{", "'open", "z", "hh"] {
            assert!(Pattern::new(p).is_err(), "{p}");
        }
    }

    #[test]
    fn civil_dates_round_trip() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-719_528), (0, 1, 1));
    }
}
