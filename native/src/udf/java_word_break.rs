//! Word boundaries as the JDK's `BreakIterator.getWordInstance()` finds them (its legacy
//! rule-based iterator, same rules for every locale but Thai), which `String.toLowerCase`
//! consults to pick the final sigma.
//!
//! The JDK compiles its word rules into a state machine; from each boundary it takes the
//! longest run of text that one of the rules matches (at least one character). The rules,
//! over character classes (general categories at Unicode 16.0):
//! - any single character;
//! - `{word} (number word)* {number {post-num}}` and `pre-num (number word)* {number {post-num}}`,
//!   where a word is letters with single inner `mid-word` punctuation and an optional final
//!   danda, a number is digits with single inner `mid-num` punctuation, and every letter or
//!   digit may carry trailing non-spacing/enclosing marks;
//! - whitespace runs with an optional CR and line separator; runs of Katakana, Hiragana
//!   (each with CJK diacritics) or of Kanji;
//! - a base character followed by marks.
//!
//! Format characters (Cf, but the soft hyphen, which is `mid-word`) of the BMP are transparent:
//! they never change the machine's state and stick to the run before them. The JDK's table of
//! supplementary characters has no such class: a supplementary format character (U+E0001) is
//! matched by "any single character" only.

use super::unicode_data::{general_category, Gc};

const LET: u32 = 1;
const ENC: u32 = 1 << 1;
const DGT: u32 = 1 << 2;
const MID_WORD: u32 = 1 << 3;
const MID_NUM: u32 = 1 << 4;
const PRE_NUM: u32 = 1 << 5;
const POST_NUM: u32 = 1 << 6;
const DANDA: u32 = 1 << 7;
const KANJI: u32 = 1 << 8;
const KATA: u32 = 1 << 9;
const HIRA: u32 = 1 << 10;
const CJK_DIACRITIC: u32 = 1 << 11;
const WS: u32 = 1 << 12;
const CR: u32 = 1 << 13;
const LS: u32 = 1 << 14;
const BASE: u32 = 1 << 15;
const IGNORE: u32 = 1 << 16;

/// The rule classes `c` belongs to (a bit set).
fn classes(c: char) -> u32 {
    let gc = general_category(c);
    let cp = c as u32;
    if gc == Gc::Cf && cp != 0xAD && (cp <= 0xFFFF || next_is_format(cp)) {
        return IGNORE;
    }
    let kanji = cp == 0x3005 || (0x4E00..=0x9FA5).contains(&cp) || (0xF900..=0xFA2D).contains(&cp);
    let kata = (0x30A1..=0x30FA).contains(&cp) || cp == 0x30FD || cp == 0x30FE;
    let hira = (0x3041..=0x3094).contains(&cp) || cp == 0x309D || cp == 0x309E;
    let cjk_diacritic = (0x3099..=0x309C).contains(&cp) || cp == 0x30FB || cp == 0x30FC;
    let mark = matches!(gc, Gc::Mn | Gc::Me);
    let mut f = 0;
    let mut set = |on: bool, bit: u32| {
        if on {
            f |= bit;
        }
    };
    set(kanji, KANJI);
    set(kata, KATA);
    set(hira, HIRA);
    set(cjk_diacritic, CJK_DIACRITIC);
    set(
        (gc.is_letter() || gc == Gc::Mc || in_jdk_letter_gap(cp))
            && !(kanji || kata || hira || cjk_diacritic),
        LET,
    );
    set(mark, ENC);
    set(gc.is_number(), DGT);
    set(
        matches!(gc, Gc::Pd | Gc::Pc) || matches!(c, '\u{AD}' | '\u{2027}' | '"' | '\'' | '.'),
        MID_WORD,
    );
    set(matches!(c, '"' | '\'' | ',' | '\u{66B}' | '.'), MID_NUM);
    set(
        (gc == Gc::Sc || c == '#' || c == '.') && c != '\u{A2}',
        PRE_NUM,
    );
    set(
        matches!(
            c,
            '%' | '&' | '\u{A2}' | '\u{66A}' | '\u{2030}' | '\u{2031}'
        ),
        POST_NUM,
    );
    set(matches!(c, '\u{964}' | '\u{965}'), DANDA);
    set(gc == Gc::Zs || c == '\t', WS);
    set(c == '\r', CR);
    set(matches!(c, '\n' | '\u{C}' | '\u{2028}' | '\u{2029}'), LS);
    set(
        !mark && !matches!(gc, Gc::Cc | Gc::Cf | Gc::Zl | Gc::Zp),
        BASE,
    );
    f
}

/// The JDK's table of supplementary characters leaves out the last code point of each run of
/// format characters: that one is not transparent (U+E0001, U+E007F, U+1343F).
fn next_is_format(cp: u32) -> bool {
    char::from_u32(cp + 1).is_some_and(|n| general_category(n) == Gc::Cf)
}

/// Unassigned code points the JDK's supplementary table classes as letters: each gap after a
/// CJK ideograph block up to the next block (measured on JDK 25.0.3 over every unassigned code
/// point; the gaps after Extensions H and I are not among them).
fn in_jdk_letter_gap(cp: u32) -> bool {
    const GAPS: [(u32, u32); 7] = [
        (0x2A6E0, 0x2A6FF),
        (0x2B73A, 0x2B73F),
        (0x2B81E, 0x2B81F),
        (0x2CEA2, 0x2CEAF),
        (0x2EBE1, 0x2EBEF),
        (0x2FA1E, 0x2FFFF),
        (0x3134B, 0x3134F),
    ];
    cp >= 0x2A6E0 && GAPS.iter().any(|&(a, b)| (a..=b).contains(&cp))
}

/// U+FFFF is `CharacterIterator.DONE`: the JDK iterator stops there as at the end of the text,
/// so a boundary lies before and after it.
const DONE: char = '\u{FFFF}';

/// Rule matching over the classes of the non-ignored characters from a boundary on.
struct Tokens<'a>(&'a [u32]);

impl Tokens<'_> {
    fn is(&self, i: usize, class: u32) -> bool {
        self.0.get(i).is_some_and(|&f| f & class != 0)
    }

    /// End of `class` at `i` followed by its marks.
    fn with_marks(&self, i: usize, class: u32) -> Option<usize> {
        if !self.is(i, class) {
            return None;
        }
        let mut j = i + 1;
        while self.is(j, ENC) {
            j += 1;
        }
        Some(j)
    }

    /// End of `unit (mid unit+)*` at `i` (unit+ greedy, a `mid` only between units).
    fn joined(&self, i: usize, unit: u32, mid: u32) -> Option<usize> {
        let mut j = self.with_marks(i, unit)?;
        loop {
            while let Some(k) = self.with_marks(j, unit) {
                j = k;
            }
            match self.with_marks(j + 1, unit) {
                Some(k) if self.is(j, mid) => j = k,
                _ => return Some(j),
            }
        }
    }

    fn word(&self, i: usize) -> Option<usize> {
        let j = self.joined(i, LET, MID_WORD)?;
        Some(if self.is(j, DANDA) { j + 1 } else { j })
    }

    fn number(&self, i: usize) -> Option<usize> {
        self.joined(i, DGT, MID_NUM)
    }

    /// End of `(number word)* {number {post-num}}` at `i`.
    fn numbers_and_words(&self, mut i: usize) -> usize {
        while let Some(n) = self.number(i) {
            match self.word(n) {
                Some(w) => i = w,
                None => return if self.is(n, POST_NUM) { n + 1 } else { n },
            }
        }
        i
    }

    fn run(&self, mut i: usize, class: u32) -> usize {
        while self.is(i, class) {
            i += 1;
        }
        i
    }

    /// Length (in tokens, at least 1) of the longest rule match at the start.
    fn longest_match(&self) -> usize {
        let words = self.numbers_and_words(self.word(0).unwrap_or(0));
        let pre_num = if self.is(0, PRE_NUM) {
            self.numbers_and_words(1)
        } else {
            0
        };
        let mut ws = 0;
        while let Some(j) = self.with_marks(ws, WS) {
            ws = j;
        }
        if self.is(ws, CR) {
            ws += 1;
        }
        if self.is(ws, LS) {
            ws += 1;
        }
        let kata = self.run(0, KATA | CJK_DIACRITIC);
        let hira = self.run(0, HIRA | CJK_DIACRITIC);
        let kanji = self.run(0, KANJI);
        let marked = match self.with_marks(0, BASE) {
            Some(j) if j > 1 => j,
            _ => 0,
        };
        [1, words, pre_num, ws, kata, hira, kanji, marked]
            .into_iter()
            .max()
            .unwrap_or(1)
    }
}

/// `BreakIterator.getWordInstance()` over one string, as `isFinalCased` uses it: positions
/// are UTF-16 offsets, and `is_boundary` keeps the JDK iterator's state and quirks.
///
/// `isBoundary(p)` is `following(p - 1) == p`. `following(q)` resumes from the last boundary it
/// returned when that lies before `q`, else from a safe boundary found by scanning backwards
/// (`handlePrevious`), then steps forward (`handleNext`: the longest rule match) past `q`. The
/// JDK's backward scan reads a code unit at `q`: when `q` falls inside a surrogate pair (the
/// character before `p` is supplementary) it reads two lone surrogates, stops, and its
/// code-point step forward lands at `p` itself, so `p` counts as a boundary, unless the pair
/// starts the text or follows U+FFFF (the scan then stops before it, as at the start).
pub struct JavaWordIterator<'a> {
    chars: &'a [char],
    /// UTF-16 offset of each character, and of the end.
    offsets: Vec<usize>,
    classes: Vec<u32>,
    /// Character index of each non-ignored character.
    positions: Vec<usize>,
    /// Where the text ends for the iterator from each character index: the next U+FFFF.
    stop: Vec<usize>,
    tokens: Vec<u32>,
    /// `handleNext` from each character index (memo), as a character index.
    next: Vec<Option<usize>>,
    /// Boundaries found iterating from the start (character indices), sorted.
    forward: Vec<usize>,
    /// `cachedLastKnownBreak` (UTF-16), reset per `isFinalCased` call.
    cached: Option<usize>,
}

impl<'a> JavaWordIterator<'a> {
    pub fn new(chars: &'a [char]) -> Self {
        let mut offsets = Vec::with_capacity(chars.len() + 1);
        let mut at = 0;
        for c in chars {
            offsets.push(at);
            at += c.len_utf16();
        }
        offsets.push(at);
        let classes: Vec<u32> = chars.iter().map(|&c| classes(c)).collect();
        let positions: Vec<usize> = (0..chars.len())
            .filter(|&i| classes[i] & IGNORE == 0)
            .collect();
        let tokens = positions.iter().map(|&i| classes[i]).collect();
        let mut stop = vec![chars.len(); chars.len()];
        for i in (0..chars.len()).rev() {
            if chars[i] == DONE {
                stop[i] = i;
            } else if i + 1 < chars.len() {
                stop[i] = stop[i + 1];
            }
        }
        let mut it = Self {
            chars,
            offsets,
            classes,
            positions,
            stop,
            tokens,
            next: vec![None; chars.len()],
            forward: vec![0],
            cached: None,
        };
        let mut at = 0;
        while at < chars.len() {
            at = it.handle_next(at);
            it.forward.push(at);
        }
        it
    }

    /// Length of the text in UTF-16 units.
    pub fn len_utf16(&self) -> usize {
        self.offsets[self.chars.len()]
    }

    /// Starts a new `BreakIterator` over the same text (no cached boundary).
    pub fn reset(&mut self) {
        self.cached = None;
    }

    /// The character index at UTF-16 offset `p`, or `Err(i)` when `p` is inside the
    /// surrogate pair of character `i`.
    fn char_at(&self, p: usize) -> Result<usize, usize> {
        match self.offsets.binary_search(&p) {
            Ok(i) => Ok(i),
            Err(i) => Err(i - 1),
        }
    }

    /// `handleNext` from character index `at` (< len): the end of the longest rule match,
    /// with the format characters right after it.
    fn handle_next(&mut self, at: usize) -> usize {
        if let Some(end) = self.next[at] {
            return end;
        }
        let t = self.positions.partition_point(|&p| p < at);
        let n = self.stop[at];
        let t_end = self.positions.partition_point(|&p| p < n);
        let end = if n == at {
            at + 1
        } else if t == t_end {
            n // only format characters left: they stick together
        } else {
            let m = Tokens(&self.tokens[t..t_end]).longest_match();
            let mut end = self.positions[t + m - 1] + 1;
            while end < n && self.classes[end] & IGNORE != 0 {
                end += 1;
            }
            end
        };
        self.next[at] = Some(end);
        end
    }

    /// `handlePrevious` from UTF-16 offset `q`, as a UTF-16 offset.
    fn handle_previous(&self, q: usize) -> usize {
        match self.char_at(q) {
            Ok(i) => {
                let k = self.forward.partition_point(|&b| b <= i);
                self.offsets[self.forward[k - 1]]
            }
            Err(0) => 0,
            // the scan reads U+FFFF as the start of the text and stops before it
            Err(pair) if self.chars[pair - 1] == DONE => self.offsets[pair - 1],
            Err(pair) => self.offsets[pair + 1],
        }
    }

    /// `following(q)`; `None` is `BreakIterator.DONE`.
    fn following(&mut self, q: usize) -> Option<usize> {
        let mut result = match self.cached {
            _ if q == 0 => 0,
            Some(c) if c < q => c,
            _ => self.handle_previous(q),
        };
        let mut first = q == 0;
        while first || result <= q {
            first = false;
            let at = self.char_at(result).expect("boundaries are on characters");
            if at == self.chars.len() {
                self.cached = None;
                return None;
            }
            let next = self.handle_next(at);
            result = self.offsets[next];
        }
        self.cached = Some(result);
        Some(result)
    }

    /// Boundaries iterating from the start (`next()`), as UTF-16 offsets, the end included.
    #[cfg(test)]
    pub fn forward_boundaries(&self) -> Vec<usize> {
        self.forward[1..].iter().map(|&i| self.offsets[i]).collect()
    }

    /// `isBoundary(p)` for a UTF-16 offset `p` on a character.
    pub fn is_boundary(&mut self, p: usize) -> bool {
        p == 0 || self.following(p - 1) == Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::JavaWordIterator;

    fn next_boundaries(s: &str) -> Vec<usize> {
        let chars: Vec<char> = s.chars().collect();
        JavaWordIterator::new(&chars).forward_boundaries()
    }

    /// Expected values: `BreakIterator.getWordInstance()` `next()` on JDK 25.0.3.
    #[test]
    fn forward_boundaries_follow_the_jdk_rules() {
        let cases: [(&str, &[usize]); 12] = [
            ("a..b", &[1, 2, 3, 4]),
            ("a.b", &[3]),
            ("a.1", &[1, 3]),
            ("$1a2%", &[5]),
            ("a'b'", &[3, 4]),
            ("x\u{301}\u{301}", &[3]),
            ("a \u{301}b", &[1, 3, 4]),
            ("  \r\n", &[4]),
            ("क।क", &[2, 3]),
            ("a\u{AD}", &[1, 2]),
            ("\u{200B}\u{200B}x", &[3]),
            ("a\u{E0041}\u{345}", &[4]),
        ];
        for (s, expected) in cases {
            assert_eq!(next_boundaries(s), expected, "{s:?}");
        }
    }
}
