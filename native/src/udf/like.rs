//! `gatun_flink_like(s, pattern[, escape])`: Flink's LIKE (`SqlLikeUtils.sqlToRegexLike`).
//!
//! - `%` matches any sequence (line terminators included), `_` any one code point
//!   except a Java line terminator (`\n`, `\r`, U+0085, U+2028, U+2029: the regex `.`
//!   without DOTALL); everything else matches itself.
//! - Without an escape argument there is no escape character (`\` is literal).
//! - With one: it must be exactly one character (else "Invalid escape character");
//!   `esc%`, `esc_` and `esc esc` are literals, any other use raises "Invalid escape
//!   sequence". Flink's literal-pattern fast path accepts an empty escape when the
//!   pattern has no `_` (treated as no escape); an empty escape raises otherwise, and
//!   always for a non-literal pattern or escape.
//! - NULL in, NULL out.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray};
use arrow::datatypes::DataType;
use datafusion::common::{exec_datafusion_err, Result};

use super::{is_string, Args, FlinkUdf};

pub fn functions() -> Vec<FlinkUdf> {
    vec![FlinkUdf::new("gatun_flink_like", like_type, like, true)]
}

fn like_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    if matches!(types.len(), 2 | 3) && types.iter().all(is_string) {
        Ok(DataType::Boolean)
    } else {
        Err("expects (STRING, STRING) or (STRING, STRING, STRING)".into())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Char(char),
    One,
    Any,
}

/// Compiles a LIKE pattern; `Err` carries Flink's message.
fn compile(
    pattern: &str,
    escape: Option<&str>,
    literal: bool,
) -> std::result::Result<Vec<Token>, String> {
    let escape = match escape {
        None => None,
        Some("") if literal && !pattern.contains('_') => None,
        Some(e) => {
            let mut chars = e.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c != '\0' && c.len_utf16() == 1 => Some(c),
                _ => return Err(format!("Invalid escape character '{e}'")),
            }
        }
    };
    let chars: Vec<char> = pattern.chars().collect();
    let mut tokens = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if Some(c) == escape {
            match chars.get(i + 1) {
                Some(&n) if n == '_' || n == '%' || Some(n) == escape => {
                    tokens.push(Token::Char(n));
                    i += 2;
                    continue;
                }
                _ => {
                    return Err(format!(
                        "Invalid escape sequence '{pattern}', {}",
                        utf16_index(&chars, i)
                    ))
                }
            }
        }
        tokens.push(match c {
            '_' => Token::One,
            '%' => Token::Any,
            c => Token::Char(c),
        });
        i += 1;
    }
    Ok(tokens)
}

/// The UTF-16 index of code point `i` (Java reports string indices in UTF-16 units).
fn utf16_index(chars: &[char], i: usize) -> usize {
    chars[..i].iter().map(|c| c.len_utf16()).sum()
}

fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Whole-string match with backtracking to the last `%` (linear in practice,
/// O(len × pattern) at worst).
fn matches(tokens: &[Token], s: &str) -> bool {
    let s: Vec<char> = s.chars().collect();
    let (mut si, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None; // (token after %, string position)
    while si < s.len() {
        match tokens.get(ti) {
            Some(Token::Any) => {
                star = Some((ti + 1, si));
                ti += 1;
                continue;
            }
            Some(Token::One) if !is_line_terminator(s[si]) => {
                si += 1;
                ti += 1;
                continue;
            }
            Some(Token::Char(c)) if *c == s[si] => {
                si += 1;
                ti += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((t, p)) => {
                ti = t;
                si = p + 1;
                star = Some((t, p + 1));
            }
            None => return false,
        }
    }
    tokens[ti..].iter().all(|t| *t == Token::Any)
}

fn like(args: &Args) -> Result<ArrayRef> {
    let s = args.arrays[0].as_string::<i32>();
    let pattern = args.arrays[1].as_string::<i32>();
    let escape = args.arrays.get(2).map(|a| a.as_string::<i32>());
    let literal = args.literal[1] && args.literal.get(2).copied().unwrap_or(true);
    // A literal pattern (and escape) compiles once.
    let mut cached: Option<(String, Option<String>, Vec<Token>)> = None;
    let mut out = Vec::with_capacity(s.len());
    for i in 0..s.len() {
        let esc_null = escape.is_some_and(|e| e.is_null(i));
        if s.is_null(i) || pattern.is_null(i) || esc_null {
            out.push(None);
            continue;
        }
        let (p, e) = (pattern.value(i), escape.map(|e| e.value(i)));
        let hit = matches!(&cached, Some((cp, ce, _)) if cp == p && ce.as_deref() == e);
        if !hit {
            let tokens = compile(p, e, literal).map_err(|m| exec_datafusion_err!("{m}"))?;
            cached = Some((p.to_string(), e.map(str::to_string), tokens));
        }
        if let Some((_, _, tokens)) = &cached {
            out.push(Some(matches(tokens, s.value(i))));
        }
    }
    Ok(Arc::new(BooleanArray::from(out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn like(s: &str, p: &str, e: Option<&str>) -> std::result::Result<bool, String> {
        Ok(matches(&compile(p, e, false)?, s))
    }

    #[test]
    fn wildcards() {
        assert_eq!(like("abc", "a%", None), Ok(true));
        assert_eq!(like("abc", "%c", None), Ok(true));
        assert_eq!(like("abc", "%b%", None), Ok(true));
        assert_eq!(like("abc", "a_c", None), Ok(true));
        assert_eq!(like("abc", "a_", None), Ok(false));
        assert_eq!(like("", "%", None), Ok(true));
        assert_eq!(like("", "_", None), Ok(false));
        assert_eq!(like("a\nc", "a_c", None), Ok(false));
        assert_eq!(like("a\nc", "a%c", None), Ok(true));
        assert_eq!(like("😀x", "_x", None), Ok(true));
        assert_eq!(like("aXbXc", "%X%X%", None), Ok(true));
        assert_eq!(like("mississippi", "%iss%ppi", None), Ok(true));
        assert_eq!(like("a\\b", "a\\b", None), Ok(true));
    }

    #[test]
    fn escapes() {
        assert_eq!(like("10%", "10!%", Some("!")), Ok(true));
        assert_eq!(like("100", "10!%", Some("!")), Ok(false));
        assert_eq!(like("a_b", "a!_b", Some("!")), Ok(true));
        assert_eq!(like("a!b", "a!!b", Some("!")), Ok(true));
        assert!(like("ab", "a!b", Some("!"))
            .unwrap_err()
            .contains("Invalid escape sequence"));
        assert!(like("ab", "ab!", Some("!"))
            .unwrap_err()
            .contains("Invalid escape sequence"));
        assert!(like("ab", "ab", Some("!!"))
            .unwrap_err()
            .contains("Invalid escape character"));
        assert!(like("ab", "ab", Some(""))
            .unwrap_err()
            .contains("Invalid escape character"));
        assert!(matches(&compile("a%", Some(""), true).unwrap(), "ab"));
        assert!(compile("a_", Some(""), true).is_err());
    }
}
