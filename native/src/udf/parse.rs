//! Parsing strings the way Flink's casts do (`BinaryStringDataUtil.toInt`/`toLong`/
//! `toDecimal`/`toBoolean`, Java's `Double.parseDouble` grammar) and decimal literals.

use arrow::datatypes::{i256, DataType};

use super::decimal::to_decimal;

/// Why a cast failed; `can_fail` failures are NULL in TRY_CAST, the others raise.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub can_fail: bool,
}

pub fn parse_failure(message: String) -> Failure {
    Failure {
        message,
        can_fail: true,
    }
}

/// Parses `[-]digits[.digits][E[-]digits]` (what `Double.toString` and `BigDecimal`
/// accept, without surrounding spaces) into an unscaled value and its scale.
pub fn parse_plain_decimal(text: &str) -> Option<(i256, i32)> {
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (negative, mantissa) = match mantissa.as_bytes().first()? {
        b'-' => (true, &mantissa[1..]),
        b'+' => (false, &mantissa[1..]),
        _ => (false, mantissa),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let digits = format!("{int}{frac}");
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    if digits.len() > 76 {
        return None;
    }
    let mut value = i256::ZERO;
    for b in digits.bytes() {
        value = value
            .wrapping_mul(i256::from_i128(10))
            .wrapping_add(i256::from_i128(i128::from(b - b'0')));
    }
    let scale = i32::try_from(frac.len()).ok()?.checked_sub(exp)?;
    Some((
        if negative {
            value.wrapping_neg()
        } else {
            value
        },
        scale,
    ))
}

pub fn number_format(input: &str, reason: &str) -> Failure {
    parse_failure(format!(
        "java.lang.NumberFormatException: For input string: '{input}'. {reason}"
    ))
}

/// `BinaryStringDataUtil.toLong`.
pub fn string_to_long(s: &str) -> std::result::Result<i64, Failure> {
    parse_integral(s, i64::MIN)
}

/// `BinaryStringDataUtil.toInt` (+ the overflow checks of `toShort`/`toByte`).
pub fn string_to_int(s: &str, t: &DataType) -> std::result::Result<i64, Failure> {
    let v = parse_integral(s, i64::from(i32::MIN))?;
    let fits = match t {
        DataType::Int8 => i8::try_from(v).is_ok(),
        DataType::Int16 => i16::try_from(v).is_ok(),
        _ => true,
    };
    if fits {
        Ok(v)
    } else {
        Err(number_format(s, "Overflow."))
    }
}

/// Hive's `LazyLong.parseLong` as ported by Flink: accumulates negatively, allows a
/// fractional part of digits (truncated).
fn parse_integral(s: &str, min: i64) -> std::result::Result<i64, Failure> {
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return Err(number_format(s, "Input is empty."));
    }
    let negative = bytes[0] == b'-';
    let mut i = 0;
    if negative || bytes[0] == b'+' {
        i = 1;
        if bytes.len() == 1 {
            return Err(number_format(
                s,
                "Input has only positive or negative symbol.",
            ));
        }
    }
    // Exact arithmetic in i128: below `min` is exactly where Java's checks fire.
    let min = i128::from(min);
    let mut result: i128 = 0;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        if b == b'.' {
            break;
        }
        if !b.is_ascii_digit() {
            return Err(number_format(s, "Invalid character found."));
        }
        result = result * 10 - i128::from(b - b'0');
        if result < min {
            return Err(number_format(s, "Overflow."));
        }
    }
    if bytes[i..].iter().any(|b| !b.is_ascii_digit()) {
        return Err(number_format(s, "Invalid character found."));
    }
    if !negative {
        result = -result;
        if result > -min - 1 {
            return Err(number_format(s, "Overflow."));
        }
    }
    Ok(result as i64)
}

/// The canonical form of a Java floating-point literal (`Double.parseDouble`
/// grammar, whitespace `<= ' '` trimmed), or why it is not one.
fn java_float_literal(s: &str) -> std::result::Result<String, Failure> {
    let bad = || {
        parse_failure(format!(
            "java.lang.NumberFormatException: For input string: \"{s}\""
        ))
    };
    let t = s.trim_matches(|c: char| c <= ' ');
    let (sign, body) = match t.as_bytes().first() {
        Some(b'-') => ("-", &t[1..]),
        Some(b'+') => ("", &t[1..]),
        _ => ("", t),
    };
    match body {
        "NaN" => return Ok("NaN".into()),
        "Infinity" => return Ok(format!("{sign}inf")),
        _ => {}
    }
    if body.starts_with("0x") || body.starts_with("0X") {
        return Err(parse_failure(format!(
            "hexadecimal floating-point literal '{s}' is not supported natively"
        )));
    }
    let body = body.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(body);
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits_ok = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !digits_ok(int) || !digits_ok(frac) {
        return Err(bad());
    }
    let exp = match exp {
        None => String::new(),
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits_ok(digits) {
                return Err(bad());
            }
            format!("e{e}")
        }
    };
    let int = if int.is_empty() { "0" } else { int };
    let frac = if frac.is_empty() { "0" } else { frac };
    Ok(format!("{sign}{int}.{frac}{exp}"))
}

pub fn parse_java_double(s: &str) -> std::result::Result<f64, Failure> {
    let canonical = java_float_literal(s)?;
    canonical
        .parse()
        .map_err(|_| number_format(s, "Invalid number."))
}

pub fn parse_java_float(s: &str) -> std::result::Result<f32, Failure> {
    let canonical = java_float_literal(s)?;
    canonical
        .parse()
        .map_err(|_| number_format(s, "Invalid number."))
}

/// `BinaryStringDataUtil.toBoolean`.
pub fn string_to_boolean(s: &str) -> std::result::Result<bool, Failure> {
    let lower = s.to_lowercase();
    match lower.as_str() {
        "t" | "true" | "y" | "yes" | "1" => Ok(true),
        "f" | "false" | "n" | "no" | "0" => Ok(false),
        _ => Err(parse_failure(format!(
            "org.apache.flink.table.api.TableException: Cannot parse '{s}' as BOOLEAN."
        ))),
    }
}

/// `BinaryStringDataUtil.toDecimal(str, p, s)`: `Ok(None)` is its NULL (reported by
/// the caller as "Overflow.", like Flink).
pub fn string_to_decimal(s: &str, p: u8, scale: i8) -> std::result::Result<Option<i128>, Failure> {
    if p > 18 || s.len() > 18 {
        return big_string_to_decimal(s, p, scale);
    }
    small_string_to_decimal(s, i32::from(p), i32::from(scale))
}

/// `toDecimalFromBytes` (precision <= 18 and at most 18 bytes), byte for byte,
/// including its leniency (a trailing unknown character after the digits is skipped).
fn small_string_to_decimal(
    text: &str,
    precision: i32,
    scale: i32,
) -> std::result::Result<Option<i128>, Failure> {
    let bytes = text.as_bytes();
    let size = bytes.len();
    let ws = |b: u8| b == b' ' || b == b'\n' || b == b'\t';
    let mut i = 0;
    let mut b = 0u8;
    while i < size {
        b = bytes[i];
        if !ws(b) {
            break;
        }
        i += 1;
    }
    if i == size {
        return Ok(None);
    }
    let negative = b == b'-';
    if negative || b == b'+' {
        i += 1;
        if i == size {
            return Ok(None);
        }
    }
    let (mut significand, mut exp, mut len, mut point): (i64, i32, i32, i32) = (0, 0, 0, -1);
    while i < size {
        b = bytes[i];
        i += 1;
        if b.is_ascii_digit() {
            significand = significand * 10 + i64::from(b - b'0');
            len += 1;
        } else if b == b'.' {
            if point >= 0 {
                return Ok(None);
            }
            point = len;
        } else {
            break;
        }
    }
    if point < 0 {
        point = len;
    }
    if negative {
        significand = -significand;
    }
    if (b == b'e' || b == b'E') && i < size {
        b = bytes[i];
        let exp_negative = b == b'-';
        if exp_negative || b == b'+' {
            i += 1;
            if i == size {
                return Ok(None);
            }
        }
        let mut digits = 0i32;
        while i < size {
            b = bytes[i];
            i += 1;
            if b.is_ascii_digit() {
                if digits < 40 {
                    digits = digits * 10 + i32::from(b - b'0');
                }
            } else {
                break;
            }
        }
        exp += if exp_negative { -digits } else { digits };
    }
    exp -= len - point;
    while i < size {
        b = bytes[i];
        i += 1;
        if !ws(b) {
            return Ok(None);
        }
    }
    let change = exp + scale;
    if len + change > precision {
        return Ok(None);
    }
    let pow = |k: i32| 10i64.pow(k as u32);
    let unscaled = if change >= 0 {
        significand * pow(change)
    } else {
        let k = if negative { -5 } else { 5 };
        let down = -change;
        if down > 18 {
            // Flink indexes POW10[19..]: ArrayIndexOutOfBoundsException.
            return Err(number_format(
                text,
                "java.lang.ArrayIndexOutOfBoundsException",
            ));
        }
        (significand + k * pow(down - 1)) / pow(down)
    };
    Ok(Some(i128::from(unscaled)))
}

/// `toBigPrecisionDecimal`: `new BigDecimal(trimmed)` then `fromBigDecimal`;
/// an unparsable string raises `NumberFormatException`.
fn big_string_to_decimal(s: &str, p: u8, scale: i8) -> std::result::Result<Option<i128>, Failure> {
    let t = s.trim_matches([' ', '\n', '\t']);
    let (unscaled, from_scale) = parse_plain_decimal(t)
        .filter(|_| !t.is_empty() && !t.ends_with(['e', 'E']))
        .ok_or_else(|| number_format(s, "Invalid decimal."))?;
    Ok(to_decimal(unscaled, from_scale, p, i32::from(scale)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_to_integers_follow_binary_string_data_util() {
        assert_eq!(string_to_long("123").ok(), Some(123));
        assert_eq!(string_to_long("-9223372036854775808").ok(), Some(i64::MIN));
        assert!(string_to_long("9223372036854775808").is_err());
        assert_eq!(string_to_long("12.99").ok(), Some(12));
        assert_eq!(string_to_long("-12.").ok(), Some(-12));
        assert!(string_to_long("12.x").is_err());
        assert!(string_to_long("").is_err());
        assert!(string_to_long("-").is_err());
        assert!(string_to_long("1 2").is_err());
        assert_eq!(
            string_to_int("-2147483648", &DataType::Int32).ok(),
            Some(-2147483648)
        );
        assert!(string_to_int("2147483648", &DataType::Int32).is_err());
        assert!(string_to_int("128", &DataType::Int8).is_err());
        assert_eq!(string_to_int("-128", &DataType::Int8).ok(), Some(-128));
    }

    #[test]
    fn string_to_decimal_keeps_flink_quirks() {
        let d = |s: &str, p, sc| string_to_decimal(s, p, sc).ok().flatten();
        assert_eq!(d("1.25", 5, 1), Some(13));
        assert_eq!(d("-1.25", 5, 1), Some(-13));
        assert_eq!(d(" 12 ", 5, 0), Some(12));
        assert_eq!(d("1e2", 5, 0), Some(100));
        assert_eq!(d("12x", 5, 0), Some(12)); // the fast path skips one unknown byte
        assert_eq!(d("1.2.3", 5, 0), None);
        assert_eq!(d("0001", 3, 0), None); // leading zeros count as digits
        assert_eq!(d("123456", 5, 0), None);
        assert_eq!(
            d("12345678901234567890.5", 38, 0),
            Some(12345678901234567891)
        );
        assert!(string_to_decimal("abcdefghijklmnopqrstu", 38, 0).is_err());
    }

    #[test]
    fn java_float_literals() {
        assert_eq!(parse_java_double("1.5").ok(), Some(1.5));
        assert_eq!(parse_java_double(" 1e3 ").ok(), Some(1000.0));
        assert_eq!(parse_java_double("-.5").ok(), Some(-0.5));
        assert_eq!(parse_java_double("5.").ok(), Some(5.0));
        assert_eq!(parse_java_double("2d").ok(), Some(2.0));
        assert_eq!(parse_java_double("-Infinity").ok(), Some(f64::NEG_INFINITY));
        assert!(parse_java_double("NaN").unwrap().is_nan());
        assert!(parse_java_double("inf").is_err());
        assert!(parse_java_double("1e").is_err());
        assert!(parse_java_double(".").is_err());
        assert!(parse_java_double("").is_err());
        assert_eq!(parse_java_float("0.1").ok(), Some(0.1f32));
    }
}
