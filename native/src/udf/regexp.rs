//! `gatun_flink_regexp_extract(str, regex[, index])`: Flink's REGEXP_EXTRACT
//! (`SqlFunctionUtils.regexpExtract`): `Pattern.compile(regex).matcher(str)`, the first
//! `find()`, then `group(index)`.
//!
//! - NULL when an argument is NULL, when nothing matches, when the group did not take part in
//!   the match, and when Flink swallows an exception: an index below 0 or above the group
//!   count. Without an index, group 0 (the whole match). A BIGINT index is cast to `int` as
//!   Flink's `regexpExtract(String, String, long)` does (wrapping).
//! - The pattern must be a literal: it is translated (`java_regex`) and compiled once per plan,
//!   when the plan is bound; a pattern outside the admitted subset, or one Java rejects, is a
//!   plan error (the planner sends a NULL pattern for those Java rejects, since Flink gives
//!   NULL for them). A NULL pattern gives NULL for every row.
//! - Per row nothing is allocated: the match is found with reused capture slots and the group
//!   is copied straight into the output buffer.

use std::any::Any;
use std::sync::Arc;

use arrow::array::{new_null_array, Array, ArrayRef, AsArray, StringBuilder};
use arrow::datatypes::DataType;
use datafusion::common::{exec_err, Result, ScalarValue};
use datafusion::logical_expr::Expr;
use regex::{CaptureLocations, Regex, RegexBuilder};

use super::java_regex::{self, Refusal};
use super::{is_integer, is_string, Args, BoundState, FlinkUdf, IntColumn};

pub fn functions() -> Vec<FlinkUdf> {
    vec![FlinkUdf::new(
        "gatun_flink_regexp_extract",
        regexp_extract_type,
        regexp_extract,
        false,
    )
    .with_binder(bind)]
}

fn regexp_extract_type(types: &[DataType]) -> std::result::Result<DataType, String> {
    let ok = matches!(types.len(), 2 | 3)
        && is_string(&types[0])
        && is_string(&types[1])
        && types.get(2).is_none_or(is_integer);
    if ok {
        Ok(DataType::Utf8)
    } else {
        Err("expects (STRING, STRING) or (STRING, STRING, TINYINT..BIGINT)".into())
    }
}

/// A pattern compiled once per plan.
#[derive(Debug)]
pub struct Compiled {
    general: Regex,
    crlf: Option<Regex>,
    groups: usize,
    group_map: Vec<usize>,
    terminators: Vec<usize>,
}

/// Reusable capture slots for both regexes of a [`Compiled`].
pub struct Slots {
    general: CaptureLocations,
    crlf: Option<CaptureLocations>,
}

impl Compiled {
    /// Translates and compiles Java pattern `pattern`; `Err` is the message the plan error shows.
    pub fn new(pattern: &str) -> std::result::Result<Compiled, String> {
        let t = java_regex::translate(pattern).map_err(|r| r.message())?;
        let build = |p: &str| {
            RegexBuilder::new(p).nest_limit(1000).build().map_err(|e| {
                Refusal::Unsupported(format!(
                    "more than the native regex engine compiles ({})",
                    e.to_string().lines().last().unwrap_or_default().trim()
                ))
                .message()
            })
        };
        Ok(Compiled {
            general: build(&t.general)?,
            crlf: t.crlf.as_deref().map(build).transpose()?,
            groups: t.groups,
            group_map: t.group_map,
            terminators: t.terminators,
        })
    }

    pub fn slots(&self) -> Slots {
        Slots {
            general: self.general.capture_locations(),
            crlf: self.crlf.as_ref().map(Regex::capture_locations),
        }
    }

    /// Java's `group(index)` of the first match of the pattern in `hay`, or `None` (no match,
    /// a group that did not take part, an index out of range).
    pub fn extract<'h>(&self, hay: &'h str, index: i32, slots: &mut Slots) -> Option<&'h str> {
        let index = usize::try_from(index).ok().filter(|&i| i <= self.groups)?;
        let (re, locs) = match (&self.crlf, &mut slots.crlf) {
            (Some(re), Some(locs)) if hay.ends_with("\r\n") => (re, locs),
            _ => (&self.general, &mut slots.general),
        };
        if index == 0 && self.terminators.is_empty() {
            return re.find(hay).map(|m| m.as_str());
        }
        re.captures_read(locs, hay)?;
        let (start, mut end) = locs.get(self.group_map[index])?;
        // A `$` that matched before a final line terminator: Java's match (and every group
        // ending with it) ends where the terminator starts.
        if end == hay.len() {
            if let Some((cut, _)) = self.terminators.iter().find_map(|&g| locs.get(g)) {
                if start <= cut {
                    end = cut;
                }
            }
        }
        Some(&hay[start..end])
    }
}

/// The bound pattern: `None` for a NULL pattern.
struct Bound(Option<Compiled>);

fn bind(args: &[Expr]) -> std::result::Result<(String, BoundState), String> {
    let pattern = match args.get(1) {
        Some(Expr::Literal(value, _)) => match value {
            ScalarValue::Utf8(p) | ScalarValue::LargeUtf8(p) | ScalarValue::Utf8View(p) => {
                p.clone()
            }
            ScalarValue::Null => None,
            other => {
                return Err(format!(
                    "the pattern is {}, expected STRING",
                    other.data_type()
                ))
            }
        },
        _ => {
            return Err(
                "the pattern must be a literal (it is compiled once per plan; \
                        REGEXP_EXTRACT with a computed pattern is not admitted natively)"
                    .into(),
            )
        }
    };
    let key = match &pattern {
        Some(p) => format!("pattern {p}"),
        None => "NULL pattern".into(),
    };
    let compiled = pattern.as_deref().map(Compiled::new).transpose()?;
    let state: Arc<dyn Any + Send + Sync> = Arc::new(Bound(compiled));
    Ok((key, state))
}

/// The state [`bind`] makes of a literal pattern (for the timing harness).
#[cfg(test)]
pub(super) fn bound(pattern: &str) -> BoundState {
    Arc::new(Bound(Some(
        Compiled::new(pattern).expect("an admitted pattern"),
    )))
}

pub(super) fn regexp_extract(args: &Args) -> Result<ArrayRef> {
    let Some(Bound(compiled)) = args.state.and_then(|s| s.downcast_ref::<Bound>()) else {
        return exec_err!("the pattern was not compiled when the plan was (internal error)");
    };
    let s = args.arrays[0].as_string::<i32>();
    let rows = s.len();
    let Some(compiled) = compiled else {
        return Ok(new_null_array(&DataType::Utf8, rows));
    };
    let index = match args.arrays.get(2) {
        Some(a) => match IntColumn::of(a) {
            Some(c) => Some(c),
            None => return exec_err!("the index is {}, expected TINYINT..BIGINT", a.data_type()),
        },
        None => None,
    };
    let mut slots = compiled.slots();
    let mut out = StringBuilder::with_capacity(rows, rows * 8);
    for i in 0..rows {
        let index = match &index {
            // Java's (int) cast of a long index
            Some(c) => c.get(i).map(|v| v as i32),
            None => Some(0),
        };
        let value = match index {
            Some(index) if s.is_valid(i) => compiled.extract(s.value(i), index, &mut slots),
            _ => None,
        };
        match value {
            Some(v) => out.append_value(v),
            None => out.append_null(),
        }
    }
    Ok(Arc::new(out.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extract(pattern: &str, hay: &str, index: i32) -> Option<String> {
        let c = Compiled::new(pattern).unwrap();
        let mut slots = c.slots();
        c.extract(hay, index, &mut slots).map(str::to_string)
    }

    #[test]
    fn groups_indexes_and_no_match() {
        let p = "(&|^)channel_id=([^&]*)";
        let url = "https://www.nexmark.com/abc_de/fgh_ij/klm/item.htm?query=1&channel_id=1234567";
        assert_eq!(extract(p, url, 2).as_deref(), Some("1234567"));
        assert_eq!(extract(p, url, 1).as_deref(), Some("&"));
        assert_eq!(extract(p, url, 0).as_deref(), Some("&channel_id=1234567"));
        assert_eq!(extract(p, "channel_id=9&x", 1).as_deref(), Some(""));
        assert_eq!(extract(p, "channel_id=9&x", 2).as_deref(), Some("9"));
        assert_eq!(extract(p, url, 3), None);
        assert_eq!(extract(p, url, -1), None);
        assert_eq!(extract(p, "https://x/y?channel=apple", 2), None);
        assert_eq!(extract("(a)|b", "b", 1), None);
        assert_eq!(extract("(a)|b", "b", 0).as_deref(), Some("b"));
        assert_eq!(extract("x*", "", 0).as_deref(), Some(""));
    }

    #[test]
    fn dollar_matches_before_a_final_line_terminator() {
        assert_eq!(extract("(a)$", "a\n", 0).as_deref(), Some("a"));
        assert_eq!(extract("(a)$", "a\n", 1).as_deref(), Some("a"));
        assert_eq!(extract("(a$)", "a\u{2028}", 1).as_deref(), Some("a"));
        assert_eq!(extract("a$", "a\r\n", 0).as_deref(), Some("a"));
        assert_eq!(extract("a\r$", "a\r\n", 0), None);
        assert_eq!(extract("a$", "a\n\n", 0), None);
        assert_eq!(extract("(.*)$", "ab\r", 1).as_deref(), Some("ab"));
        assert_eq!(extract("($)", "ab\r\n", 1).as_deref(), Some(""));
        assert_eq!(extract(".$", "ab\r\n", 0).as_deref(), Some("b"));
        assert_eq!(extract("$", "ab", 0).as_deref(), Some(""));
        assert_eq!(extract("b$|a", "ab\n", 0).as_deref(), Some("a"));
    }

    #[test]
    fn supplementary_characters_are_one_character() {
        assert_eq!(extract("a(.)c", "a😀c", 1).as_deref(), Some("😀"));
        assert_eq!(extract("[^a]+", "a😀é", 0).as_deref(), Some("😀é"));
        assert_eq!(extract("😀{2}", "😀😀😀", 0).as_deref(), Some("😀😀"));
    }

    #[test]
    fn refusals_name_the_construct() {
        let e = Compiled::new(r"(a)\1").unwrap_err();
        assert_eq!(
            e,
            "REGEXP_EXTRACT pattern uses a backreference, which Gatun does not run natively"
        );
        let e = Compiled::new("(").unwrap_err();
        assert!(
            e.contains("not a valid Java regular expression (Unclosed group"),
            "{e}"
        );
        let e = Compiled::new("a{1000}{1000}").unwrap_err();
        assert!(e.contains("empty string"), "{e}");
        let e = Compiled::new("(?:a{1000}){1000}").unwrap_err();
        assert!(e.contains("native regex engine"), "{e}");
    }
}
