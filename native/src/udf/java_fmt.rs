//! Java's `Double.toString` / `Float.toString` (JDK 19+: the shortest decimal that
//! rounds back, at least two significant digits), which Flink uses to cast FLOAT and
//! DOUBLE to STRING (and, through `BigDecimal.valueOf`, to DECIMAL).
//!
//! Format: `NaN`, `Infinity`, `-0.0`; plain (`123.45`, `0.001`) for
//! `10^-3 <= |x| < 10^7`; otherwise computerized scientific notation (`1.0E10`,
//! `1.2345E-5`).

/// `Double.toString(x)`.
pub fn java_double_to_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let shortest = format!("{:e}", x.abs());
    let two = || format!("{:.1e}", x.abs());
    format_java(
        x.is_sign_negative(),
        x == 0.0,
        &shortest,
        two,
        x.abs() >= 1e-3 && x.abs() < 1e7,
    )
}

/// `Float.toString(x)`.
pub fn java_float_to_string(x: f32) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let shortest = format!("{:e}", x.abs());
    let two = || format!("{:.1e}", x.abs());
    format_java(
        x.is_sign_negative(),
        x == 0.0,
        &shortest,
        two,
        x.abs() >= 1e-3 && x.abs() < 1e7,
    )
}

/// `sci`: Rust's `{:e}` of |x| (shortest round-trip digits); `two`: `{:.1e}` (the
/// closest two-digit decimal), used when the shortest has a single digit.
fn format_java(
    negative: bool,
    zero: bool,
    sci: &str,
    two: impl Fn() -> String,
    plain: bool,
) -> String {
    let sign = if negative { "-" } else { "" };
    if zero {
        return format!("{sign}0.0");
    }
    let (mut digits, mut exp) = split(sci);
    if digits.len() == 1 {
        (digits, exp) = split(&two());
    }
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    if !plain {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() { "0" } else { rest };
        return format!("{sign}{first}.{rest}E{exp}");
    }
    if exp >= 0 {
        let int_len = exp as usize + 1;
        if digits.len() <= int_len {
            let zeros = "0".repeat(int_len - digits.len());
            format!("{sign}{digits}{zeros}.0")
        } else {
            let (int, frac) = digits.split_at(int_len);
            format!("{sign}{int}.{frac}")
        }
    } else {
        let zeros = "0".repeat((-exp - 1) as usize);
        format!("{sign}0.{zeros}{digits}")
    }
}

/// `"1.2345e-5"` → (`"12345"`, -5).
fn split(sci: &str) -> (String, i32) {
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    (mantissa.replace('.', ""), exp.parse().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_print_like_java() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (-1.5, "-1.5"),
            (100.0, "100.0"),
            (1234567.0, "1234567.0"),
            (1.0e7, "1.0E7"),
            (1.0e10, "1.0E10"),
            (12345678.9, "1.23456789E7"),
            (0.001, "0.001"),
            (0.0001, "1.0E-4"),
            (1.2345e-5, "1.2345E-5"),
            (0.1, "0.1"),
            (0.1 + 0.2, "0.30000000000000004"),
            (f64::MAX, "1.7976931348623157E308"),
            (f64::MIN_POSITIVE, "2.2250738585072014E-308"),
            (5e-324, "4.9E-324"),
            (1e23, "1.0E23"),
            (2e-3, "0.002"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (x, want) in cases {
            assert_eq!(java_double_to_string(*x), *want, "{x:e}");
        }
    }

    #[test]
    fn floats_print_like_java() {
        let cases: &[(f32, &str)] = &[
            (1.0, "1.0"),
            (0.1, "0.1"),
            (1.0e10, "1.0E10"),
            (f32::MAX, "3.4028235E38"),
            (1.4e-45, "1.4E-45"),
            (3.3333333, "3.3333333"),
            (-0.0, "-0.0"),
        ];
        for (x, want) in cases {
            assert_eq!(java_float_to_string(*x), *want, "{x:e}");
        }
    }
}
