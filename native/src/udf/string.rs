//! String functions with Flink semantics (`BinaryStringDataUtil`, `SqlFunctionUtils`).
//! Positions and lengths count Unicode code points, as Flink's `numChars` does.
//! Every function is NULL when an argument is NULL (CONCAT included: Flink's CONCAT is
//! NULL if any argument is NULL, unlike DataFusion's).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, Int32Array, StringArray, StringBuilder};
use arrow::datatypes::DataType;
use datafusion::common::{exec_err, Result};

use super::{arity, is_string, Args, FlinkUdf};

pub fn functions() -> Vec<FlinkUdf> {
    vec![
        FlinkUdf::new("gatun_flink_substring", substring_type, substring, false),
        FlinkUdf::new(
            "gatun_flink_trim_both",
            strings_type::<2>,
            |a| trim(a, true, true),
            false,
        ),
        FlinkUdf::new(
            "gatun_flink_trim_leading",
            strings_type::<2>,
            |a| trim(a, true, false),
            false,
        ),
        FlinkUdf::new(
            "gatun_flink_trim_trailing",
            strings_type::<2>,
            |a| trim(a, false, true),
            false,
        ),
        FlinkUdf::new("gatun_flink_position", int_of_strings::<2>, position, false),
        FlinkUdf::new(
            "gatun_flink_char_length",
            int_of_strings::<1>,
            char_length,
            false,
        ),
        FlinkUdf::new(
            "gatun_flink_upper",
            strings_type::<1>,
            |a| map1(a, upper),
            false,
        ),
        FlinkUdf::new(
            "gatun_flink_lower",
            strings_type::<1>,
            |a| map1(a, lower),
            false,
        ),
        FlinkUdf::new("gatun_flink_concat", concat_type, concat, false),
        FlinkUdf::new("gatun_flink_replace", strings_type::<3>, replace, false),
    ]
}

fn all_strings(types: &[DataType]) -> std::result::Result<(), String> {
    if types.iter().all(is_string) {
        Ok(())
    } else {
        Err("expects STRING (Utf8) arguments".into())
    }
}

/// `N` strings → STRING.
fn strings_type<const N: usize>(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, N)?;
    all_strings(types)?;
    Ok(DataType::Utf8)
}

/// `N` strings → INT.
fn int_of_strings<const N: usize>(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, N)?;
    all_strings(types)?;
    Ok(DataType::Int32)
}

fn concat_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    if types.is_empty() {
        return Err("expects at least one argument".into());
    }
    all_strings(types)?;
    Ok(DataType::Utf8)
}

fn substring_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    let ok = matches!(types.len(), 2 | 3)
        && is_string(&types[0])
        && types[1..].iter().all(|t| t == &DataType::Int32);
    if ok {
        Ok(DataType::Utf8)
    } else {
        Err("expects (STRING, INT) or (STRING, INT, INT)".into())
    }
}

fn strings<'a>(args: &'a Args) -> Vec<&'a StringArray> {
    args.arrays.iter().map(|a| a.as_string::<i32>()).collect()
}

/// Row `i` is NULL in some argument.
fn any_null(arrays: &[&dyn Array], i: usize) -> bool {
    arrays.iter().any(|a| a.is_null(i))
}

/// A string result built row by row: `f(i)` is `None` for NULL.
fn build_strings<'s>(
    rows: usize,
    mut f: impl FnMut(usize) -> Option<std::borrow::Cow<'s, str>>,
) -> ArrayRef {
    let mut out = StringBuilder::with_capacity(rows, 0);
    for i in 0..rows {
        match f(i) {
            Some(s) => out.append_value(s),
            None => out.append_null(),
        }
    }
    Arc::new(out.finish())
}

/// `BinaryStringDataUtil.substringSQL(str, pos[, length])`.
pub fn substring_sql(s: &str, pos: i32, length: i32) -> Option<&str> {
    if length < 0 {
        return None;
    }
    if s.is_empty() {
        return Some("");
    }
    let num_chars = s.chars().count() as i64;
    let (pos, length) = (i64::from(pos), i64::from(length));
    let start = if pos > 0 {
        let start = pos - 1;
        if start >= num_chars {
            return Some("");
        }
        start
    } else if pos < 0 {
        let start = num_chars + pos;
        if start < 0 {
            return Some("");
        }
        start
    } else {
        0
    };
    let end = if num_chars - start < length {
        num_chars
    } else {
        start + length
    };
    Some(char_slice(s, start as usize, end as usize))
}

/// The code points `[start, end)` of `s`.
fn char_slice(s: &str, start: usize, end: usize) -> &str {
    let byte = |n: usize| s.char_indices().nth(n).map_or(s.len(), |(b, _)| b);
    let from = byte(start);
    let to = from
        + s[from..]
            .char_indices()
            .nth(end - start)
            .map_or(s.len() - from, |(b, _)| b);
    &s[from..to]
}

fn substring(args: &Args) -> Result<ArrayRef> {
    let s = args.arrays[0].as_string::<i32>();
    let pos = args.arrays[1].as_primitive::<arrow::datatypes::Int32Type>();
    let len = args
        .arrays
        .get(2)
        .map(|a| a.as_primitive::<arrow::datatypes::Int32Type>());
    let mut all: Vec<&dyn Array> = vec![s, pos];
    if let Some(len) = len {
        all.push(len);
    }
    Ok(build_strings(s.len(), |i| {
        if any_null(&all, i) {
            return None;
        }
        let length = len.map_or(i32::MAX, |l| l.value(i));
        substring_sql(s.value(i), pos.value(i), length).map(Into::into)
    }))
}

/// `BinaryStringDataUtil.trim(str, leading, trailing, trimStr)`: strips the code
/// points contained in `chars` from the chosen ends.
pub fn trim_chars<'a>(s: &'a str, chars: &str, leading: bool, trailing: bool) -> &'a str {
    let strip = |c: char| chars.contains(c);
    let s = if leading {
        s.trim_start_matches(strip)
    } else {
        s
    };
    if trailing {
        s.trim_end_matches(strip)
    } else {
        s
    }
}

fn trim(args: &Args, leading: bool, trailing: bool) -> Result<ArrayRef> {
    let a = strings(args);
    let (s, chars) = (a[0], a[1]);
    Ok(build_strings(s.len(), |i| {
        if s.is_null(i) || chars.is_null(i) {
            return None;
        }
        Some(trim_chars(s.value(i), chars.value(i), leading, trailing).into())
    }))
}

/// `SqlFunctionUtils.position(seek, s)`: 1-based code point index, 0 when absent,
/// 1 for an empty `seek`.
pub fn position_of(seek: &str, s: &str) -> i32 {
    match s.find(seek) {
        Some(byte) => s[..byte].chars().count() as i32 + 1,
        None => 0,
    }
}

fn position(args: &Args) -> Result<ArrayRef> {
    let a = strings(args);
    let (seek, s) = (a[0], a[1]);
    let out: Int32Array = (0..s.len())
        .map(|i| {
            (!seek.is_null(i) && !s.is_null(i)).then(|| position_of(seek.value(i), s.value(i)))
        })
        .collect();
    Ok(Arc::new(out))
}

fn char_length(args: &Args) -> Result<ArrayRef> {
    let s = args.arrays[0].as_string::<i32>();
    let out: Int32Array = s
        .iter()
        .map(|v| v.map(|v| v.chars().count() as i32))
        .collect();
    Ok(Arc::new(out))
}

fn map1(args: &Args, f: fn(&str) -> std::borrow::Cow<'_, str>) -> Result<ArrayRef> {
    let s = args.arrays[0].as_string::<i32>();
    Ok(build_strings(s.len(), |i| {
        (!s.is_null(i)).then(|| f(s.value(i)))
    }))
}

/// Java's `String.toUpperCase()` (full case mapping, e.g. `ß` → `SS`).
fn upper(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() {
        s.to_ascii_uppercase().into()
    } else {
        s.to_uppercase().into()
    }
}

/// Java's `String.toLowerCase()` (final sigma included).
fn lower(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() {
        s.to_ascii_lowercase().into()
    } else {
        s.to_lowercase().into()
    }
}

fn concat(args: &Args) -> Result<ArrayRef> {
    let a = strings(args);
    let rows = args.rows();
    Ok(build_strings(rows, |i| {
        if a.iter().any(|s| s.is_null(i)) {
            return None;
        }
        Some(a.iter().map(|s| s.value(i)).collect::<String>().into())
    }))
}

/// Java's `String.replace(target, replacement)`. An empty target inserts the
/// replacement between UTF-16 units; Flink then encodes the split surrogate halves of
/// a supplementary character as `?` each.
pub fn java_replace(s: &str, target: &str, replacement: &str) -> String {
    if !target.is_empty() {
        return s.replace(target, replacement);
    }
    let mut out = String::with_capacity(s.len() + (s.len() + 1) * replacement.len());
    out.push_str(replacement);
    for c in s.chars() {
        if c.len_utf16() == 2 {
            out.push('?');
            out.push_str(replacement);
            out.push('?');
        } else {
            out.push(c);
        }
        out.push_str(replacement);
    }
    out
}

fn replace(args: &Args) -> Result<ArrayRef> {
    let a = strings(args);
    if a.len() != 3 {
        return exec_err!("expects 3 arguments");
    }
    Ok(build_strings(a[0].len(), |i| {
        if a.iter().any(|s| s.is_null(i)) {
            return None;
        }
        Some(java_replace(a[0].value(i), a[1].value(i), a[2].value(i)).into())
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substring_follows_substring_sql() {
        assert_eq!(substring_sql("hello", 2, 3), Some("ell"));
        assert_eq!(substring_sql("hello", 0, 2), Some("he"));
        assert_eq!(substring_sql("hello", -3, 2), Some("ll"));
        assert_eq!(substring_sql("hello", -9, 2), Some(""));
        assert_eq!(substring_sql("hello", 9, 2), Some(""));
        assert_eq!(substring_sql("hello", 2, -1), None);
        assert_eq!(substring_sql("hello", 2, i32::MAX), Some("ello"));
        assert_eq!(substring_sql("", 5, 1), Some(""));
        assert_eq!(substring_sql("h😀llo", 2, 2), Some("😀l"));
        assert_eq!(substring_sql("héllo", i32::MIN, 1), Some(""));
    }

    #[test]
    fn trim_position_replace() {
        assert_eq!(trim_chars("xxhixx", "x", true, true), "hi");
        assert_eq!(trim_chars("xyhiyx", "xy", true, false), "hiyx");
        assert_eq!(trim_chars("  hi  ", " ", false, true), "  hi");
        assert_eq!(trim_chars("😀a😀", "😀", true, true), "a");
        assert_eq!(position_of("", "abc"), 1);
        assert_eq!(position_of("c", "abc"), 3);
        assert_eq!(position_of("l", "😀ll"), 2);
        assert_eq!(position_of("z", ""), 0);
        assert_eq!(java_replace("aXbX", "X", "yy"), "ayybyy");
        assert_eq!(java_replace("ab", "", "-"), "-a-b-");
        assert_eq!(java_replace("😀", "", "-"), "-?-?-");
    }
}
