//! Java's `String.toLowerCase()` / `toUpperCase()` as Flink's LOWER and UPPER call them
//! (`BinaryStringData.toLowerCase`: `toString().toLowerCase()`, default locale; any
//! locale but Turkish, Azeri, Lithuanian and Thai behaves the same).
//!
//! Both map each code point by the full case mapping Rust's `char` has too (`İ` →
//! `i̇`, `ß` → `SS`), restricted to the code points of Unicode 16.0 (JDK 24/25): a
//! mapping from or to a later code point is not applied. LOWER has one conditional mapping: a capital sigma
//! becomes final `ς` when, within the word containing it (JDK word boundaries,
//! [`super::java_word_break`]), a cased letter precedes it and none follows
//! (`ConditionalSpecialCasing.isFinalCased`); else `σ`. Unicode's Final_Sigma rule looks
//! at neighbouring letters instead, so Rust's `str::to_lowercase` differs:
//! `'ΑΣ007Α'` is `ασ007α` in Java (`ΑΣ007Α` is one word), `ας007α` in Rust.

use std::fmt::Write;

use super::java_word_break::JavaWordIterator;
use super::unicode_data::{general_category, is_assigned, Gc};

const CAPITAL_SIGMA: char = 'Σ';

/// Appends Java's `s.toLowerCase()` to `out`.
pub fn lower(s: &str, out: &mut impl Write) {
    if !s.contains(CAPITAL_SIGMA) {
        for c in s.chars() {
            push_mapped(c, c.to_lowercase(), out);
        }
        return;
    }
    let chars: Vec<char> = s.chars().collect();
    let mut words = JavaWordIterator::new(&chars);
    let mut at = 0; // UTF-16 offset of chars[i]
    for (i, &c) in chars.iter().enumerate() {
        if c == CAPITAL_SIGMA {
            words.reset();
            let sigma = if is_final_cased(&chars, i, at, &mut words) {
                'ς'
            } else {
                'σ'
            };
            out.write_char(sigma).expect("writers here do not fail");
        } else {
            push_mapped(c, c.to_lowercase(), out);
        }
        at += c.len_utf16();
    }
}

/// Appends Java's `s.toUpperCase()` to `out`.
pub fn upper(s: &str, out: &mut impl Write) {
    for c in s.chars() {
        push_mapped(c, c.to_uppercase(), out);
    }
}

/// Writes `c`'s case mapping `mapped` unless the mapping involves a code point Unicode 16.0
/// does not have (Unicode 17.0 gave `ꟓ`, known since 14.0, the new capital `꟒`).
fn push_mapped(c: char, mapped: impl Iterator<Item = char> + Clone, out: &mut impl Write) {
    let unchanged = mapped.clone().eq(std::iter::once(c));
    if unchanged || !is_assigned(c) || !mapped.clone().all(is_assigned) {
        out.write_char(c).expect("writers here do not fail");
    } else {
        for m in mapped {
            out.write_char(m).expect("writers here do not fail");
        }
    }
}

/// `ConditionalSpecialCasing.isFinalCased` for the sigma `chars[i]` at UTF-16 offset `at`:
/// scanning back while no word boundary is met, a cased character is found, and then
/// scanning forward from the sigma while no boundary is met, none is.
fn is_final_cased(chars: &[char], i: usize, at: usize, words: &mut JavaWordIterator) -> bool {
    let mut k = i;
    let mut p = at;
    while !words.is_boundary(p) {
        k -= 1;
        p -= chars[k].len_utf16();
        if is_cased(chars[k]) {
            let mut p = at + 1;
            for &c in &chars[i + 1..] {
                if p >= words.len_utf16() || words.is_boundary(p) {
                    break;
                }
                if is_cased(c) {
                    return false;
                }
                p += c.len_utf16();
            }
            return true;
        }
    }
    false
}

/// `ConditionalSpecialCasing.isCased`: Lu, Ll, Lt, or one of its listed Other_Lowercase /
/// Other_Uppercase ranges.
fn is_cased(c: char) -> bool {
    matches!(general_category(c), Gc::Lu | Gc::Ll | Gc::Lt)
        || matches!(c as u32,
            0x2B0..=0x2B8 | 0x2C0..=0x2C1 | 0x2E0..=0x2E4 | 0x345 | 0x37A | 0x1D2C..=0x1D61
            | 0x2160..=0x217F | 0x24B6..=0x24E9)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(s: &str) -> String {
        let mut out = String::new();
        lower(s, &mut out);
        out
    }

    fn uppered(s: &str) -> String {
        let mut out = String::new();
        upper(s, &mut out);
        out
    }

    /// Expected values: `s.toLowerCase()` on JDK 25.0.3 (default locale `en`).
    #[test]
    fn final_sigma_follows_java_word_boundaries() {
        let cases = [
            ("ΌΣΟΣ007", "όσος007"),
            // letters, digits, letters are one word: a cased letter follows the sigma
            ("ΌΣΟΣ007Α", "όσοσ007α"),
            ("Σ", "σ"),
            ("AΣ B", "aς b"),
            ("ΑΣ.", "ας."),
            ("ΑΣ-Β", "ασ-β"),
            ("ΑΣ\u{AD}α", "ασ\u{AD}α"),
            ("ΑΣ\u{301}", "ας\u{301}"),
            ("Α\u{301}Σ", "α\u{301}ς"),
            ("Α\u{200B}Σ", "α\u{200B}ς"),
            // Unicode's Final_Sigma would not look past the digit: 'é9σ'
            ("é9Σ", "é9ς"),
            ("1Σ", "1σ"),
            ("ΣΑΣ ΣΑΣ", "σας σας"),
            ("ΑΣ'Σ'", "ασ'ς'"),
            ("ªΣ", "ªσ"),
            ("ʰΣ", "ʰς"),
            ("ⅠΣ", "ⅰς"),
        ];
        for (s, expected) in cases {
            assert_eq!(lowered(s), expected, "LOWER({s:?})");
        }
    }

    /// The JDK iterator's surrogate-pair quirk: a supplementary character with text before
    /// it ends a word for `isBoundary`.
    #[test]
    fn supplementary_characters_before_a_sigma() {
        let cases = [
            ("\u{10400}Σ", "\u{10428}ς"),
            ("a\u{1D400}Σ", "a\u{1D400}σ"),
            ("\u{1D400}Σ", "\u{1D400}ς"),
            ("'\u{1D400}Σ", "'\u{1D400}σ"),
            ("ΑΣ😀", "ας😀"),
            ("😀ΑΣ", "😀ας"),
        ];
        for (s, expected) in cases {
            assert_eq!(lowered(s), expected, "LOWER({s:?})");
        }
    }

    /// Quirks of the JDK's tables: format characters are transparent but for the last of a
    /// supplementary run (U+E0041 is, U+E0001 is not), U+FFFF stops the iterator.
    #[test]
    fn format_characters_and_u_ffff_as_the_jdk_sees_them() {
        let cases = [
            ("a\u{E0041}\u{345}Σ😀", "a\u{E0041}\u{345}ς😀"),
            (
                "\u{1D7CE}\u{AB70}\u{E0001}\u{345}Σ\t",
                "\u{1D7CE}\u{AB70}\u{E0001}\u{345}σ\t",
            ),
            ("Α\u{FFFF}\u{1D400}Σ", "α\u{FFFF}\u{1D400}ς"),
            ("ΑΣ\u{FFFF}α", "ας\u{FFFF}α"),
            ("ΑΣ\u{E0041}α", "ας\u{E0041}α"),
        ];
        for (s, expected) in cases {
            assert_eq!(lowered(s), expected, "LOWER({s:?})");
        }
    }

    #[test]
    fn other_mappings_are_javas_at_unicode_16() {
        assert_eq!(lowered("\u{130}"), "i\u{307}");
        assert_eq!(lowered("I\u{307}"), "i\u{307}");
        assert_eq!(uppered("\u{130}"), "\u{130}");
        // Cherokee: capitals lower to the small letters at U+AB70.., which upper back
        assert_eq!(lowered("\u{13A0}\u{13F5}"), "\u{AB70}\u{13FD}");
        assert_eq!(uppered("\u{AB70}"), "\u{13A0}");
        assert_eq!(uppered("straße"), "STRASSE");
        assert_eq!(lowered("straße"), "straße");
        // new in Unicode 17.0 (capital ꟎, capital ꟒ of the older small ꟓ): unchanged in Java 25
        for s in ["\u{A7CE}\u{A7D3}", "\u{16EA0}"] {
            assert_eq!(lowered(s), s);
            assert_eq!(uppered(s), s);
        }
    }
}
