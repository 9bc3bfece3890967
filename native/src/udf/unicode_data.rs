//! The Unicode properties Java's case mapping depends on, at the Unicode version of the
//! JDK Gatun runs on (JDK 24/25: Unicode 16.0): general categories and which code points
//! are assigned.
//!
//! Rust's own `char` case tables follow the toolchain's Unicode version (17.0 from Rust
//! 1.9x), so code points assigned after 16.0 must keep their case as Java sees them
//! (unassigned: unchanged). The tables come from `regex-syntax` (Unicode 16.0, already in
//! DataFusion's dependency graph), read once.

use std::sync::OnceLock;

use regex_syntax::hir::{Class, HirKind};

/// The general categories Java's word breaking and `isCased` distinguish; every other
/// category is `Other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gc {
    Lu,
    Ll,
    Lt,
    Lm,
    Lo,
    Mn,
    Mc,
    Me,
    Nd,
    Nl,
    No,
    Pc,
    Pd,
    Sc,
    Zs,
    Zl,
    Zp,
    Cc,
    Cf,
    Other,
}

impl Gc {
    pub fn is_letter(self) -> bool {
        matches!(self, Gc::Lu | Gc::Ll | Gc::Lt | Gc::Lm | Gc::Lo)
    }

    pub fn is_number(self) -> bool {
        matches!(self, Gc::Nd | Gc::Nl | Gc::No)
    }
}

/// The Unicode version these tables describe (the one `regex-syntax` was generated from).
pub const UNICODE_VERSION: &str = "16.0";

struct Tables {
    /// Disjoint `(first, last, category)` ranges sorted by `first`; gaps are `Gc::Other`.
    categories: Vec<(u32, u32, Gc)>,
    /// Ranges of code points assigned in Unicode 16.0, sorted.
    assigned: Vec<(u32, u32)>,
}

fn ranges(property: &str) -> Vec<(u32, u32)> {
    let hir = regex_syntax::Parser::new()
        .parse(&format!(r"\p{{{property}}}"))
        .expect("a Unicode property regex-syntax knows");
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|r| (r.start() as u32, r.end() as u32))
            .collect(),
        // a one-character class comes back as its literal (Zl is U+2028 alone)
        HirKind::Literal(literal) => std::str::from_utf8(&literal.0)
            .expect("a literal of a Unicode class is UTF-8")
            .chars()
            .map(|c| (c as u32, c as u32))
            .collect(),
        other => panic!("\\p{{{property}}} is not a Unicode class: {other:?}"),
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let named = [
            ("Lu", Gc::Lu),
            ("Ll", Gc::Ll),
            ("Lt", Gc::Lt),
            ("Lm", Gc::Lm),
            ("Lo", Gc::Lo),
            ("Mn", Gc::Mn),
            ("Mc", Gc::Mc),
            ("Me", Gc::Me),
            ("Nd", Gc::Nd),
            ("Nl", Gc::Nl),
            ("No", Gc::No),
            ("Pc", Gc::Pc),
            ("Pd", Gc::Pd),
            ("Sc", Gc::Sc),
            ("Zs", Gc::Zs),
            ("Zl", Gc::Zl),
            ("Zp", Gc::Zp),
            ("Cc", Gc::Cc),
            ("Cf", Gc::Cf),
        ];
        let mut categories: Vec<(u32, u32, Gc)> = named
            .iter()
            .flat_map(|&(name, gc)| ranges(name).into_iter().map(move |(a, b)| (a, b, gc)))
            .collect();
        categories.sort_unstable_by_key(|r| r.0);
        Tables {
            categories,
            // `Age=V` holds every code point assigned in version V or before
            assigned: ranges(&format!("Age={UNICODE_VERSION}")),
        }
    })
}

/// The general category of `c` (Unicode 16.0).
pub fn general_category(c: char) -> Gc {
    let cp = c as u32;
    let t = &tables().categories;
    let i = t.partition_point(|r| r.0 <= cp);
    match i.checked_sub(1).map(|i| t[i]) {
        Some((_, last, gc)) if cp <= last => gc,
        _ => Gc::Other,
    }
}

/// Whether `c` is assigned in Unicode 16.0 (what JDK 25's `Character` knows).
pub fn is_assigned(c: char) -> bool {
    let cp = c as u32;
    let t = &tables().assigned;
    let i = t.partition_point(|r| r.0 <= cp);
    i.checked_sub(1).is_some_and(|i| cp <= t[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_and_assignment_are_unicode_16() {
        assert_eq!(general_category('A'), Gc::Lu);
        assert_eq!(general_category('ς'), Gc::Ll);
        assert_eq!(general_category('ǅ'), Gc::Lt);
        assert_eq!(general_category('\u{301}'), Gc::Mn);
        assert_eq!(general_category('\u{AD}'), Gc::Cf);
        assert_eq!(general_category('7'), Gc::Nd);
        assert_eq!(general_category('$'), Gc::Sc);
        assert_eq!(general_category('!'), Gc::Other);
        assert_eq!(general_category('\u{10FFFF}'), Gc::Other);
        // U+1C89 CYRILLIC CAPITAL LETTER TJE is new in 16.0, U+A7CE in 17.0
        assert!(is_assigned('\u{1C89}'));
        assert_eq!(general_category('\u{1C89}'), Gc::Lu);
        assert!(!is_assigned('\u{A7CE}'));
        assert!(is_assigned('a') && is_assigned('\u{10FFFD}') && !is_assigned('\u{378}'));
    }
}
