//! `gatun_flink_split_index(str, separator, index)`: Flink's SPLIT_INDEX
//! (`SqlFunctionUtils.splitIndex`), the `index`-th token (from 0) of `str`, NULL when there is
//! none, when `index` is negative or when an argument is NULL.
//!
//! Tokens are those of commons-lang3 3.18.0 (the version Flink 2.2.1 uses):
//! - a STRING separator: `StringUtils.splitByWholeSeparatorPreserveAllTokens(str, sep)`. A
//!   non-empty separator splits at every occurrence found left to right (non-overlapping);
//!   leading, trailing and adjacent separators give empty tokens. An empty separator splits at
//!   every whitespace character (`Character.isWhitespace`), each one ending a token, so
//!   adjacent whitespace gives empty tokens too.
//! - an integer separator: its character code must be 1..=255 (else NULL); the string is split
//!   at every occurrence of that character (`StringUtils.splitPreserveAllTokens(str, char)`).
//! - the empty string has no token at all (NULL for every index); any other string has one more
//!   token than it has separators.
//!
//! Every token is a slice of the input: nothing is allocated per row.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, StringArray, StringBuilder};
use arrow::datatypes::DataType;
use datafusion::common::{exec_err, Result};

use super::{arity, is_string, Args, FlinkUdf, IntColumn};

pub fn functions() -> Vec<FlinkUdf> {
    vec![FlinkUdf::new(
        "gatun_flink_split_index",
        split_index_type,
        split_index,
        false,
    )]
}

/// TINYINT, SMALLINT or INT: what Flink's generated code passes as a Java `int` (a BIGINT has
/// no `splitIndex` overload and fails there).
fn is_int(t: &DataType) -> bool {
    matches!(t, DataType::Int8 | DataType::Int16 | DataType::Int32)
}

fn split_index_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    arity(types, 3)?;
    if is_string(&types[0]) && (is_string(&types[1]) || is_int(&types[1])) && is_int(&types[2]) {
        Ok(DataType::Utf8)
    } else {
        Err("expects (STRING, STRING or TINYINT..INT, TINYINT..INT)".into())
    }
}

/// Java's `Character.isWhitespace(char)` (Unicode 16.0, JDK 25): the space, line and
/// paragraph separators except the no-break spaces U+00A0, U+2007, U+202F, plus
/// U+0009..U+000D and U+001C..U+001F.
pub fn is_java_whitespace(c: char) -> bool {
    matches!(c,
        '\u{9}'..='\u{D}' | '\u{1C}'..='\u{20}' | '\u{1680}' | '\u{2000}'..='\u{2006}'
        | '\u{2008}'..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{205F}' | '\u{3000}')
}

/// Token `index` of `s` split by the whole separator `sep` (empty: whitespace).
pub fn split_by_separator<'s>(s: &'s str, sep: &str, index: i32) -> Option<&'s str> {
    let index = usize::try_from(index).ok()?;
    if s.is_empty() {
        return None;
    }
    match sep.as_bytes() {
        [] => s.split(is_java_whitespace).nth(index),
        [b] if b.is_ascii() => s.split(char::from(*b)).nth(index),
        _ => s.split(sep).nth(index),
    }
}

/// Token `index` of `s` split by the character with code `code` (1..=255).
pub fn split_by_char(s: &str, code: i64, index: i32) -> Option<&str> {
    let index = usize::try_from(index).ok()?;
    let code = u8::try_from(code).ok().filter(|&c| c >= 1)?;
    if s.is_empty() {
        return None;
    }
    s.split(char::from(code)).nth(index)
}

pub(super) fn split_index(args: &Args) -> Result<ArrayRef> {
    let s = args.arrays[0].as_string::<i32>();
    let Some(index) = IntColumn::of(&args.arrays[2]) else {
        return exec_err!(
            "the index is {}, expected TINYINT..INT",
            args.arrays[2].data_type()
        );
    };
    enum Sep<'a> {
        Text(&'a StringArray),
        Code(IntColumn<'a>),
    }
    let sep = if is_string(args.arrays[1].data_type()) {
        Sep::Text(args.arrays[1].as_string::<i32>())
    } else {
        match IntColumn::of(&args.arrays[1]) {
            Some(c) => Sep::Code(c),
            None => {
                return exec_err!(
                    "the separator is {}, expected STRING or TINYINT..INT",
                    args.arrays[1].data_type()
                )
            }
        }
    };
    let rows = s.len();
    let mut out = StringBuilder::with_capacity(rows, rows * 8);
    for i in 0..rows {
        let token = match (s.is_valid(i), index.get(i)) {
            (true, Some(n)) => {
                let n = n as i32;
                match &sep {
                    Sep::Text(t) if t.is_valid(i) => split_by_separator(s.value(i), t.value(i), n),
                    Sep::Code(c) => c.get(i).and_then(|code| split_by_char(s.value(i), code, n)),
                    Sep::Text(_) => None,
                }
            }
            _ => None,
        };
        match token {
            Some(t) => out.append_value(t),
            None => out.append_null(),
        }
    }
    Ok(Arc::new(out.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens<'s>(s: &'s str, sep: &str) -> Vec<Option<&'s str>> {
        (-1..6).map(|i| split_by_separator(s, sep, i)).collect()
    }

    #[test]
    fn whole_separator_preserves_every_token() {
        let url = "https://www.nexmark.com/abc_de/fgh_ij/klm/item.htm?query=1";
        assert_eq!(split_by_separator(url, "/", 3), Some("abc_de"));
        assert_eq!(split_by_separator(url, "/", 4), Some("fgh_ij"));
        assert_eq!(split_by_separator(url, "/", 5), Some("klm"));
        assert_eq!(split_by_separator(url, "/", 6), Some("item.htm?query=1"));
        assert_eq!(split_by_separator(url, "/", 7), None);
        assert_eq!(split_by_separator(url, "/", 1), Some(""));
        assert_eq!(
            tokens("/a//b/", "/"),
            vec![
                None,
                Some(""),
                Some("a"),
                Some(""),
                Some("b"),
                Some(""),
                None
            ]
        );
        assert_eq!(
            tokens("aaa", "aa"),
            vec![None, Some(""), Some("a"), None, None, None, None]
        );
        assert_eq!(
            tokens("ab-!-cd-!-ef", "-!-"),
            vec![None, Some("ab"), Some("cd"), Some("ef"), None, None, None]
        );
        assert_eq!(tokens("", "/"), vec![None; 7]);
        assert_eq!(tokens("", ""), vec![None; 7]);
        assert_eq!(
            tokens("x", "/"),
            vec![None, Some("x"), None, None, None, None, None]
        );
        assert_eq!(
            tokens("é😀é", "😀"),
            vec![None, Some("é"), Some("é"), None, None, None, None]
        );
    }

    #[test]
    fn empty_separator_splits_at_each_java_whitespace() {
        assert_eq!(
            tokens("ab   de\u{3000}fg ", ""),
            vec![
                None,
                Some("ab"),
                Some(""),
                Some(""),
                Some("de"),
                Some("fg"),
                Some("")
            ]
        );
        assert_eq!(split_by_separator("a\u{A0}b", "", 1), None);
        assert_eq!(split_by_separator("a\u{1F}b", "", 1), Some("b"));
        assert_eq!(split_by_separator("a\u{85}b", "", 1), None);
        for c in [
            '\u{A0}', '\u{2007}', '\u{202F}', '\u{180E}', '\u{85}', '\u{200B}', 'x',
        ] {
            assert!(!is_java_whitespace(c), "{c:?}");
        }
        for c in [
            '\t', '\n', '\u{B}', '\u{C}', '\r', '\u{1C}', ' ', '\u{1680}', '\u{2000}', '\u{2006}',
            '\u{2008}', '\u{200A}', '\u{2028}', '\u{2029}', '\u{205F}', '\u{3000}',
        ] {
            assert!(is_java_whitespace(c), "{c:?}");
        }
    }

    #[test]
    fn character_separator_is_a_latin1_code() {
        assert_eq!(split_by_char("a,b", 44, 1), Some("b"));
        assert_eq!(split_by_char("a,b", 44, 2), None);
        assert_eq!(split_by_char("aébéc", 0xE9, 2), Some("c"));
        assert_eq!(split_by_char("a,b", 0, 0), None);
        assert_eq!(split_by_char("a,b", 256, 0), None);
        assert_eq!(split_by_char("a,b", -1, 0), None);
        assert_eq!(split_by_char("", 44, 0), None);
        assert_eq!(split_by_char(",", 44, 1), Some(""));
        assert_eq!(split_by_char("a,b", 44, -1), None);
    }
}
