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

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, BooleanBufferBuilder};
use arrow::buffer::{BooleanBuffer, NullBuffer};
use arrow::datatypes::DataType;
use datafusion::common::{exec_datafusion_err, Result};
use memchr::memmem;

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

/// One step of a general pattern: consecutive literal code points are merged.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Lit(String),
    One,
    Any,
}

/// A compiled pattern. Patterns without `_` are literal segments between `%`s and
/// match with substring search; the rest walk the string's bytes code point by code
/// point. Nothing allocates per row.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Matcher {
    /// Only `%`s (at least one): every string matches.
    Everything,
    Exact(String),
    Prefix(String),
    Suffix(String),
    Contains(Needle),
    /// `first%m1%m2%…%last` (`first`/`last` may be empty, no `m` is).
    Segments {
        first: String,
        middle: Vec<Needle>,
        last: String,
    },
    General(Vec<Piece>),
}

impl Matcher {
    fn new(tokens: &[Token]) -> Self {
        if tokens.contains(&Token::One) {
            let mut pieces: Vec<Piece> = Vec::new();
            for t in tokens {
                match (t, pieces.last_mut()) {
                    (Token::Char(c), Some(Piece::Lit(l))) => l.push(*c),
                    (Token::Char(c), _) => pieces.push(Piece::Lit(c.to_string())),
                    (Token::Any, Some(Piece::Any)) => {}
                    (Token::Any, _) => pieces.push(Piece::Any),
                    (Token::One, _) => pieces.push(Piece::One),
                }
            }
            return Matcher::General(pieces);
        }
        let mut segments = vec![String::new()];
        for t in tokens {
            match t {
                Token::Char(c) => segments.last_mut().expect("non-empty").push(*c),
                _ => segments.push(String::new()),
            }
        }
        if segments.len() == 1 {
            return Matcher::Exact(segments.pop().expect("one segment"));
        }
        let last = segments.pop().expect("two segments");
        let first = segments.remove(0);
        let mut middle: Vec<Needle> = segments
            .into_iter()
            .filter(|m| !m.is_empty())
            .map(Needle::from)
            .collect();
        match (first.is_empty(), middle.len(), last.is_empty()) {
            (true, 0, true) => Matcher::Everything,
            (false, 0, true) => Matcher::Prefix(first),
            (true, 0, false) => Matcher::Suffix(last),
            (true, 1, true) => Matcher::Contains(middle.pop().expect("one segment")),
            _ => Matcher::Segments {
                first,
                middle,
                last,
            },
        }
    }

    fn matches(&self, s: &str) -> bool {
        match self {
            Matcher::Everything => true,
            Matcher::Exact(l) => s == l,
            Matcher::Prefix(l) => s.starts_with(l.as_str()),
            Matcher::Suffix(l) => s.ends_with(l.as_str()),
            Matcher::Contains(l) => contains(s, l),
            Matcher::Segments {
                first,
                middle,
                last,
            } => match_segments(s, first, middle, last),
            Matcher::General(pieces) => match_general(pieces, s),
        }
    }
}

/// `s` contains `l`.
fn contains(s: &str, l: &Needle) -> bool {
    l.find(s).is_some()
}

/// A literal searched for in every row: its searcher is built once per pattern (a
/// `str::contains` builds one per call).
#[derive(Debug, Clone)]
struct Needle {
    text: String,
    finder: memmem::Finder<'static>,
}

impl Needle {
    /// The byte offset of the first occurrence in `s` (a char boundary: `text` is a whole
    /// UTF-8 sequence).
    fn find(&self, s: &str) -> Option<usize> {
        self.finder.find(s.as_bytes())
    }

    fn len(&self) -> usize {
        self.text.len()
    }
}

impl From<String> for Needle {
    fn from(text: String) -> Self {
        let finder = memmem::Finder::new(text.as_bytes()).into_owned();
        Needle { text, finder }
    }
}

impl From<&str> for Needle {
    fn from(text: &str) -> Self {
        Needle::from(text.to_string())
    }
}

impl PartialEq for Needle {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for Needle {}

/// `first%m1%…%last`: leftmost match of each middle segment is optimal.
fn match_segments(s: &str, first: &str, middle: &[Needle], last: &str) -> bool {
    let Some(rest) = s.strip_prefix(first) else {
        return false;
    };
    if rest.len() < last.len() || !rest.ends_with(last) {
        return false;
    }
    let mut hay = &rest[..rest.len() - last.len()];
    for m in middle {
        match m.find(hay) {
            Some(at) => hay = &hay[at + m.len()..],
            None => return false,
        }
    }
    true
}

/// Whole-string match with backtracking to the last `%` (linear in practice,
/// O(len × pattern) at worst). Positions are byte offsets on code point boundaries.
fn match_general(pieces: &[Piece], s: &str) -> bool {
    let (mut si, mut pi) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None; // (piece after %, string position)
    loop {
        match pieces.get(pi) {
            Some(Piece::Any) => {
                star = Some((pi + 1, si));
                pi += 1;
                continue;
            }
            Some(Piece::One) => match s[si..].chars().next() {
                Some(c) if !is_line_terminator(c) => {
                    si += c.len_utf8();
                    pi += 1;
                    continue;
                }
                _ => {}
            },
            Some(Piece::Lit(l)) if s[si..].starts_with(l.as_str()) => {
                si += l.len();
                pi += 1;
                continue;
            }
            None if si == s.len() => return true,
            _ => {}
        }
        // Mismatch: let the last `%` swallow one more code point.
        let Some((p, from)) = star else {
            return false;
        };
        let Some(c) = s[from..].chars().next() else {
            return false;
        };
        let next = from + c.len_utf8();
        pi = p;
        si = next;
        star = Some((p, next));
    }
}

fn compile_matcher(
    pattern: &str,
    escape: Option<&str>,
    literal: bool,
) -> std::result::Result<Matcher, String> {
    Ok(Matcher::new(&compile(pattern, escape, literal)?))
}

pub(super) fn like(args: &Args) -> Result<ArrayRef> {
    let s = args.arrays[0].as_string::<i32>();
    let pattern = args.arrays[1].as_string::<i32>();
    let escape = args.arrays.get(2).map(|a| a.as_string::<i32>());
    let rows = s.len();
    let nulls = NullBuffer::union(
        NullBuffer::union(s.nulls(), pattern.nulls()).as_ref(),
        escape.and_then(|e| e.nulls()),
    );
    let valid = |i: usize| nulls.as_ref().is_none_or(|n| n.is_valid(i));
    let literal = args.literal[1] && args.literal.get(2).copied().unwrap_or(true);
    if literal {
        // One pattern for the batch: compiled once, raising only if some row uses it.
        if !(0..rows).any(valid) {
            return Ok(Arc::new(BooleanArray::new_null(rows)));
        }
        let m = compile_matcher(pattern.value(0), escape.map(|e| e.value(0)), true)
            .map_err(|m| exec_datafusion_err!("{m}"))?;
        let values = BooleanBuffer::collect_bool(rows, |i| valid(i) && m.matches(s.value(i)));
        return Ok(Arc::new(BooleanArray::new(values, nulls)));
    }
    // Per-row patterns: recompiled only when the pattern or escape changes.
    let mut cached: Option<(&str, Option<&str>, Matcher)> = None;
    let mut values = BooleanBufferBuilder::new(rows);
    for i in 0..rows {
        if !valid(i) {
            values.append(false);
            continue;
        }
        let (p, e) = (pattern.value(i), escape.map(|e| e.value(i)));
        let hit = matches!(&cached, Some((cp, ce, _)) if *cp == p && *ce == e);
        if !hit {
            let m = compile_matcher(p, e, false).map_err(|m| exec_datafusion_err!("{m}"))?;
            cached = Some((p, e, m));
        }
        let (_, _, m) = cached.as_ref().expect("compiled above");
        values.append(m.matches(s.value(i)));
    }
    Ok(Arc::new(BooleanArray::new(values.finish(), nulls)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn like(s: &str, p: &str, e: Option<&str>) -> std::result::Result<bool, String> {
        Ok(compile_matcher(p, e, false)?.matches(s))
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
        assert!(compile_matcher("a%", Some(""), true).unwrap().matches("ab"));
        assert!(compile("a_", Some(""), true).is_err());
    }

    #[test]
    fn fast_paths_are_chosen() {
        let m = |p: &str| compile_matcher(p, None, true).unwrap();
        assert_eq!(m("%%"), Matcher::Everything);
        assert_eq!(m("ab"), Matcher::Exact("ab".into()));
        assert_eq!(m("ab%%"), Matcher::Prefix("ab".into()));
        assert_eq!(m("%ab"), Matcher::Suffix("ab".into()));
        assert_eq!(m("%o%"), Matcher::Contains("o".into()));
        assert_eq!(m(""), Matcher::Exact(String::new()));
        assert!(matches!(m("a%b"), Matcher::Segments { .. }));
        assert!(matches!(m("%a_"), Matcher::General(_)));
        // An escaped wildcard is a literal, so the pattern stays a substring search.
        assert_eq!(
            compile_matcher("%!%%", Some("!"), true).unwrap(),
            Matcher::Contains("%".into())
        );
    }

    #[test]
    fn fast_paths_on_edges() {
        assert_eq!(like("", "", None), Ok(true));
        assert_eq!(like("a", "", None), Ok(false));
        assert_eq!(like("", "%%", None), Ok(true));
        assert_eq!(like("ab", "ab%", None), Ok(true));
        assert_eq!(like("a", "ab%", None), Ok(false));
        // prefix and suffix must not overlap
        assert_eq!(like("aba", "ab%ba", None), Ok(false));
        assert_eq!(like("abba", "ab%ba", None), Ok(true));
        assert_eq!(like("xaybz", "%a%b%", None), Ok(true));
        assert_eq!(like("xbyaz", "%a%b%", None), Ok(false));
        assert_eq!(like("héllo wörld", "%ö%", None), Ok(true));
        assert_eq!(like("héllo", "h_llo", None), Ok(true));
        assert_eq!(like("h😀llo", "h_llo", None), Ok(true));
        assert_eq!(like("h😀llo", "h__llo", None), Ok(false));
        assert_eq!(like("😀😀", "%_😀", None), Ok(true));
        assert_eq!(like("a\u{2028}b", "a_b", None), Ok(false));
        assert_eq!(like("a\u{2028}b", "a%b", None), Ok(true));
        assert_eq!(like("50%_off", "%!%!_%", Some("!")), Ok(true));
        assert_eq!(like("50% off", "%!%!_%", Some("!")), Ok(false));
        assert_eq!(like("a_c", "a\\_c", Some("\\")), Ok(true));
        assert_eq!(like("abc", "a\\_c", Some("\\")), Ok(false));
    }

    /// The rewrite agrees with the previous `Vec<char>` matcher on every pattern and
    /// string built from a small alphabet (multi-byte, line terminators, escapes).
    #[test]
    fn agrees_with_reference_matcher() {
        use crate::udf::reference::like as old;
        let alphabet = ["a", "b", "é", "😀", "\n", "%", "_", "!"];
        let mut words = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for w in &words {
                for a in alphabet {
                    next.push(format!("{w}{a}"));
                }
            }
            words.extend(next.into_iter().filter(|w| w.chars().count() <= 4));
            words.sort();
            words.dedup();
        }
        let strings: Vec<&String> = words.iter().step_by(7).collect();
        let mut checked = 0;
        for p in words.iter().step_by(3) {
            for e in [None, Some("!")] {
                let new = compile_matcher(p, e, false);
                let reference = old::compile(p, e, false);
                assert_eq!(new.is_ok(), reference.is_ok(), "pattern {p:?} escape {e:?}");
                let (Ok(new), Ok(reference)) = (new, reference) else {
                    continue;
                };
                for s in &strings {
                    assert_eq!(
                        new.matches(s),
                        old::matches(&reference, s),
                        "{s:?} LIKE {p:?} ESCAPE {e:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "only {checked} cases");
    }

    fn strings(v: &[Option<&str>]) -> ArrayRef {
        Arc::new(arrow::array::StringArray::from(v.to_vec()))
    }

    fn run(s: &[Option<&str>], p: &[Option<&str>], literal: bool) -> Result<ArrayRef> {
        let arrays = [strings(s), strings(p)];
        super::like(&Args {
            arrays: &arrays,
            literal: &[false, literal],
            return_type: &DataType::Boolean,
            state: None,
        })
    }

    #[test]
    fn kernel_nulls_and_per_row_patterns() {
        let s = [Some("foo"), None, Some("bar"), Some("")];
        let out = run(&s, &[Some("%o%"); 4], true).unwrap();
        let expected = BooleanArray::from(vec![Some(true), None, Some(false), Some(false)]);
        assert_eq!(out.as_boolean(), &expected);
        let p = [Some("f%"), Some("x"), None, Some("")];
        let out = run(&s, &p, false).unwrap();
        let expected = BooleanArray::from(vec![Some(true), None, None, Some(true)]);
        assert_eq!(out.as_boolean(), &expected);
        // A NULL literal pattern gives NULL everywhere.
        let out = run(&s, &[None; 4], true).unwrap();
        assert_eq!(out.null_count(), 4);
    }

    #[test]
    fn kernel_raises_only_when_a_row_uses_the_bad_pattern() {
        let bad = "a!b";
        let arrays = [
            strings(&[None, None]),
            strings(&[Some(bad), Some(bad)]),
            strings(&[Some("!"), Some("!")]),
        ];
        fn args(arrays: &[ArrayRef]) -> Args<'_> {
            Args {
                arrays,
                literal: &[false, true, true],
                return_type: &DataType::Boolean,
                state: None,
            }
        }
        assert_eq!(super::like(&args(&arrays)).unwrap().null_count(), 2);
        let arrays = [
            strings(&[None, Some("ab")]),
            arrays[1].clone(),
            arrays[2].clone(),
        ];
        let err = super::like(&args(&arrays)).unwrap_err().to_string();
        assert!(err.contains("Invalid escape sequence"), "{err}");
    }
}
