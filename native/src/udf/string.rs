//! String functions with Flink semantics (`BinaryStringDataUtil`, `SqlFunctionUtils`).
//! Positions and lengths count Unicode code points, as Flink's `numChars` does.
//! Every function is NULL when an argument is NULL (CONCAT included: Flink's CONCAT is
//! NULL if any argument is NULL, unlike DataFusion's).

use std::sync::Arc;

use std::fmt::Write;

use arrow::array::{Array, ArrayRef, AsArray, Int32Array, StringArray, StringBuilder};
use arrow::buffer::{Buffer, ScalarBuffer};
use arrow::datatypes::DataType;
use datafusion::common::{exec_err, Result};

use super::{arity, is_string, java_case, Args, FlinkUdf};

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
        FlinkUdf::new("gatun_flink_upper", strings_type::<1>, upper, false),
        FlinkUdf::new("gatun_flink_lower", strings_type::<1>, lower, false),
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
    bytes: usize,
    mut f: impl FnMut(usize) -> Option<std::borrow::Cow<'s, str>>,
) -> ArrayRef {
    let mut out = StringBuilder::with_capacity(rows, bytes);
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
    let num_chars = if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    } as i64;
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
    if s.is_ascii() {
        return &s[start..end];
    }
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
    Ok(build_strings(s.len(), value_bytes(s).len(), |i| {
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
    Ok(build_strings(s.len(), value_bytes(s).len(), |i| {
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

/// The bytes of every value of `s` (NULL slots included), in one slice.
fn value_bytes(s: &StringArray) -> &[u8] {
    let offsets = s.value_offsets();
    let (from, to) = (offsets[0] as usize, offsets[offsets.len() - 1] as usize);
    &s.value_data()[from..to]
}

pub(super) fn char_length(args: &Args) -> Result<ArrayRef> {
    let s = args.arrays[0].as_string::<i32>();
    // All-ASCII batch: the length of each value is its byte length.
    if value_bytes(s).is_ascii() {
        let lengths: ScalarBuffer<i32> =
            s.value_offsets().windows(2).map(|w| w[1] - w[0]).collect();
        return Ok(Arc::new(Int32Array::new(lengths, s.nulls().cloned())));
    }
    let lengths: ScalarBuffer<i32> = (0..s.len())
        .map(|i| {
            let v = if s.is_null(i) { "" } else { s.value(i) };
            if v.is_ascii() {
                v.len() as i32
            } else {
                v.chars().count() as i32
            }
        })
        .collect();
    Ok(Arc::new(Int32Array::new(lengths, s.nulls().cloned())))
}

/// Java's `String.toUpperCase()` (full case mapping, e.g. `ß` → `SS`; see `java_case`).
pub(super) fn upper(args: &Args) -> Result<ArrayRef> {
    map_case(args, true, |v, out| java_case::upper(v, out))
}

/// Java's `String.toLowerCase()`, its final-sigma rule included (see `java_case`).
pub(super) fn lower(args: &Args) -> Result<ArrayRef> {
    map_case(args, false, |v, out| java_case::lower(v, out))
}

/// A case mapping: over the whole value buffer at once when it is ASCII (offsets and
/// NULLs are kept), else row by row straight into the builder: ASCII rows by byte,
/// the others with `other`.
fn map_case(args: &Args, to_upper: bool, other: fn(&str, &mut StringBuilder)) -> Result<ArrayRef> {
    let s = args.arrays[0].as_string::<i32>();
    if s.value_data().is_ascii() {
        let mut values = s.value_data().to_vec();
        if to_upper {
            values.make_ascii_uppercase();
        } else {
            values.make_ascii_lowercase();
        }
        let values = Buffer::from_vec(values);
        // SAFETY: the offsets and NULLs are those of a valid array and the values are
        // ASCII (mapped byte by byte from ASCII), so every value is valid UTF-8.
        let out =
            unsafe { StringArray::new_unchecked(s.offsets().clone(), values, s.nulls().cloned()) };
        return Ok(Arc::new(out));
    }
    let mut out = StringBuilder::with_capacity(s.len(), value_bytes(s).len());
    let mut chunk = [0u8; 64];
    for i in 0..s.len() {
        if s.is_null(i) {
            out.append_null();
            continue;
        }
        let v = s.value(i);
        if v.is_ascii() {
            for part in v.as_bytes().chunks(chunk.len()) {
                for (d, b) in chunk.iter_mut().zip(part) {
                    *d = if to_upper {
                        b.to_ascii_uppercase()
                    } else {
                        b.to_ascii_lowercase()
                    };
                }
                // SAFETY: ASCII bytes mapped to ASCII bytes are valid UTF-8.
                let mapped = unsafe { std::str::from_utf8_unchecked(&chunk[..part.len()]) };
                out.write_str(mapped).expect("builders do not fail");
            }
        } else {
            other(v, &mut out);
        }
        out.append_value("");
    }
    Ok(Arc::new(out.finish()))
}

fn concat(args: &Args) -> Result<ArrayRef> {
    let a = strings(args);
    let rows = args.rows();
    let bytes = a.iter().map(|s| value_bytes(s).len()).sum();
    let mut out = StringBuilder::with_capacity(rows, bytes);
    for i in 0..rows {
        if a.iter().any(|s| s.is_null(i)) {
            out.append_null();
            continue;
        }
        for s in &a {
            out.write_str(s.value(i)).expect("builders do not fail");
        }
        out.append_value("");
    }
    Ok(Arc::new(out.finish()))
}

/// Java's `String.replace(target, replacement)`.
#[cfg(test)]
pub fn java_replace(s: &str, target: &str, replacement: &str) -> String {
    let mut out = String::new();
    write_java_replace(&mut out, s, target, replacement).expect("strings do not fail");
    out
}

/// Writes Java's `String.replace(target, replacement)` to `out`. An empty target
/// inserts the replacement between UTF-16 units; Flink then encodes the split
/// surrogate halves of a supplementary character as `?` each.
fn write_java_replace(
    out: &mut impl Write,
    s: &str,
    target: &str,
    replacement: &str,
) -> std::fmt::Result {
    if !target.is_empty() {
        let mut last = 0;
        for (at, _) in s.match_indices(target) {
            out.write_str(&s[last..at])?;
            out.write_str(replacement)?;
            last = at + target.len();
        }
        return out.write_str(&s[last..]);
    }
    out.write_str(replacement)?;
    for c in s.chars() {
        if c.len_utf16() == 2 {
            out.write_char('?')?;
            out.write_str(replacement)?;
            out.write_char('?')?;
        } else {
            out.write_char(c)?;
        }
        out.write_str(replacement)?;
    }
    Ok(())
}

fn replace(args: &Args) -> Result<ArrayRef> {
    let a = strings(args);
    if a.len() != 3 {
        return exec_err!("expects 3 arguments");
    }
    let (s, target, replacement) = (a[0], a[1], a[2]);
    let mut out = StringBuilder::with_capacity(s.len(), value_bytes(s).len());
    for i in 0..s.len() {
        if a.iter().any(|s| s.is_null(i)) {
            out.append_null();
            continue;
        }
        write_java_replace(&mut out, s.value(i), target.value(i), replacement.value(i))
            .expect("builders do not fail");
        out.append_value("");
    }
    Ok(Arc::new(out.finish()))
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

    fn array(v: &[Option<&str>]) -> ArrayRef {
        Arc::new(StringArray::from(v.to_vec()))
    }

    fn call(f: fn(&Args) -> Result<ArrayRef>, arrays: &[ArrayRef]) -> ArrayRef {
        let literal = vec![false; arrays.len()];
        let t = f(&Args {
            arrays,
            literal: &literal,
            return_type: &DataType::Utf8,
            state: None,
        });
        t.unwrap()
    }

    /// Every kernel agrees with the previous per-row implementation, on ASCII-only,
    /// mixed and sliced batches with NULLs.
    #[test]
    fn kernels_agree_with_reference() {
        use crate::udf::reference::string as old;
        let ascii = [Some("Hello"), None, Some(""), Some("mIxEd 123"), Some("x")];
        let mixed = [Some("straße"), Some("ΌΣΟΣ"), None, Some("abc"), Some("😀é")];
        let both: Vec<Option<&str>> = ascii.iter().chain(&mixed).copied().collect();
        let batches = [
            array(&ascii),
            array(&mixed),
            array(&both),
            array(&both).slice(3, 5),
        ];
        for b in &batches {
            let one = std::slice::from_ref(b);
            assert_eq!(&call(upper, one), &call(old::upper_kernel, one), "{b:?}");
            assert_eq!(&call(lower, one), &call(old::lower_kernel, one), "{b:?}");
            assert_eq!(
                &call(char_length, one),
                &call(old::char_length, one),
                "{b:?}"
            );
            let three = [b.clone(), b.clone(), b.clone()];
            assert_eq!(&call(concat, &three), &call(old::concat, &three), "{b:?}");
            let n = b.len();
            let targets = [
                array(&vec![Some("l"); n]),
                array(&vec![Some(""); n]),
                b.clone(),
            ];
            for t in targets {
                let args = [b.clone(), t, array(&vec![Some("<é>"); n])];
                assert_eq!(&call(replace, &args), &call(old::replace, &args), "{b:?}");
            }
        }
    }

    #[test]
    fn case_mapping_keeps_java_full_mapping() {
        let out = call(upper, &[array(&[Some("straße"), Some("abc"), None])]);
        let expected = array(&[Some("STRASSE"), Some("ABC"), None]);
        assert_eq!(&out, &expected);
        let out = call(lower, &[array(&[Some("ΌΣΟΣ"), Some("ABC")])]);
        assert_eq!(&out, &array(&[Some("όσος"), Some("abc")]));
        let out = call(char_length, &[array(&[Some("😀é"), None, Some("ab")])]);
        let expected: ArrayRef = Arc::new(Int32Array::from(vec![Some(2), None, Some(2)]));
        assert_eq!(&out, &expected);
    }
}
