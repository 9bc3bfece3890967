//! Java regular expressions (`java.util.regex.Pattern.compile(regex)`, no flags) translated
//! to the `regex` crate, for the subset where both engines give the same first match and the
//! same groups. Anything outside it is refused with the construct it uses; the caller keeps
//! such a pattern on Flink.
//!
//! The parser follows the structure of Java's own recursive descent (`expr` → `sequence` →
//! `closure`, the escape and character class rules, what is a literal and what an error), so a
//! pattern it accepts means in Java what it means here. Patterns Java rejects are reported as
//! invalid; the planner never sends one (it checks `Pattern.compile` itself and sends a NULL
//! pattern, since Flink's REGEXP_EXTRACT gives NULL for them), so an invalid pattern is a plan
//! error here, never a guess.
//!
//! Admitted: literals and escapes (`\t \n \r \f \a \e \0oo \xhh \x{h..} \uhhhh \cX`, `\` before
//! any other non-letter), `.`, character classes with ranges and negation (not nested, no `&&`),
//! `\d \w \s \D \W \S` (ASCII, as Java's defaults: explicit ASCII sets here), `^ \A \z`, `$` and
//! `\Z` where nothing of the pattern follows them, capturing and non-capturing groups,
//! alternation, greedy and lazy `* + ? {n} {n,} {n,m}`.
//!
//! Where the engines differ and how the translation closes the gap:
//! - Java's `$` (no MULTILINE) also matches before a line terminator that ends the input
//!   (`\n`, `\r\n`, `\r`, U+0085, U+2028, U+2029; not between `\r` and `\n`). The `regex` crate
//!   has no lookahead, so a `$` is admitted only where the match ends with it: it becomes
//!   `(?:\z|(T)\z)` with `T` the possible final terminator, compiled twice (`T` one terminator
//!   for inputs not ending in `\r\n`, `T` = `\r\n` for those that do), and the extra group's
//!   start is where Java's match (and every group ending with it) ends.
//! - Java's `.` excludes `\n \r` U+0085 U+2028 U+2029: an explicit class here.
//! - Java works on UTF-16 and may start a match between the halves of a surrogate pair; a match
//!   that starts there needs a class that matches a lone low surrogate, so a class containing any
//!   surrogate must contain every supplementary character (then the match at the pair's start
//!   is found first); surrogate escapes are refused. Every other boundary Java can produce is a
//!   code point boundary, so the groups are the same strings in UTF-8.
//! - Repeating a sub-pattern that can match the empty string (`(a*)*`, `(a|)+`) differs
//!   between backtracking and the `regex` crate's rules for empty iterations: refused.
//! - Java does not restore a capturing group nested inside a repeated group when it backs off
//!   an iteration (`(?:([ab])x)*bx` on `axbx` gives group 1 = `b`, not `a`): refused, except
//!   under `?`/`{0,1}`, which Java compiles as an alternation.

use std::fmt::Write;

/// The largest code point.
const MAX_CP: u32 = 0x10_FFFF;
/// Groups nest at most this deep (the parser recurses per group).
const MAX_DEPTH: usize = 200;

/// Why a pattern is not translated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Java's `Pattern.compile` throws for it (Java's message and index).
    Invalid(String),
    /// A construct outside the admitted subset.
    Unsupported(String),
}

impl Refusal {
    /// The message the planner and the plan errors show.
    pub fn message(&self) -> String {
        match self {
            Refusal::Invalid(why) => {
                format!("REGEXP_EXTRACT pattern is not a valid Java regular expression ({why})")
            }
            Refusal::Unsupported(what) => {
                format!("REGEXP_EXTRACT pattern uses {what}, which Gatun does not run natively")
            }
        }
    }
}

/// A translated pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translated {
    /// The `regex` crate pattern (for every input when there is no `$`, else for inputs that
    /// do not end with `\r\n`).
    pub general: String,
    /// With a `$`: the pattern for inputs ending with `\r\n`.
    pub crlf: Option<String>,
    /// The number of Java's capturing groups.
    pub groups: usize,
    /// Java group `g` (0 = the whole match) is `regex` group `group_map[g]`.
    pub group_map: Vec<usize>,
    /// The `regex` groups that capture the final line terminator of a `$`.
    pub terminators: Vec<usize>,
}

/// Translates Java pattern `pattern`.
pub fn translate(pattern: &str) -> Result<Translated, Refusal> {
    if has_quoting(pattern) {
        return Err(Refusal::Unsupported("quoting (\\Q...\\E)".into()));
    }
    let mut parser = Parser {
        p: pattern.chars().collect(),
        at: 0,
        groups: 0,
        depth: 0,
    };
    let node = parser.expr()?;
    if parser.at < parser.p.len() {
        // only a ')' stops the top-level expression early
        return Err(parser.invalid("Unmatched closing ')'"));
    }
    check(&node)?;
    let emit = |crlf: bool| -> Result<Emitter, Refusal> {
        let mut e = Emitter {
            out: String::new(),
            groups: 0,
            group_map: vec![0; parser.groups + 1],
            terminators: Vec::new(),
            crlf,
        };
        e.emit(&node, true)?;
        Ok(e)
    };
    let general = emit(false)?;
    let crlf = if general.terminators.is_empty() {
        None
    } else {
        Some(emit(true)?.out)
    };
    Ok(Translated {
        general: general.out,
        crlf,
        groups: parser.groups,
        group_map: general.group_map,
        terminators: general.terminators,
    })
}

/// Whether Java's `RemoveQEQuoting` would rewrite the pattern: a `\Q` outside an escape.
fn has_quoting(pattern: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    while i + 1 < p.len() {
        if p[i] != '\\' {
            i += 1;
        } else if p[i + 1] != 'Q' {
            i += 2;
        } else {
            return true;
        }
    }
    false
}

// ---------------------------------------------------------------------------------------
// Syntax tree

#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Empty,
    Lit(char),
    /// A set of Java code points (surrogates included).
    Set(Set),
    /// `^`, `\A`: at the start of the input.
    Begin,
    /// `\z`: at the end of the input.
    End,
    /// `$`, `\Z` without MULTILINE.
    Dollar,
    /// A capturing group (Java's number) or a non-capturing one.
    Group(Option<usize>, Box<Node>),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
}

impl Node {
    /// Whether the node can match the empty string.
    fn nullable(&self) -> bool {
        match self {
            Node::Empty | Node::Begin | Node::End | Node::Dollar => true,
            Node::Lit(_) | Node::Set(_) => false,
            Node::Group(_, inner) => inner.nullable(),
            Node::Concat(items) => items.iter().all(Node::nullable),
            Node::Alt(items) => items.iter().any(Node::nullable),
            Node::Repeat { node, min, .. } => *min == 0 || node.nullable(),
        }
    }

    fn has_capture(&self) -> bool {
        match self {
            Node::Group(Some(_), _) => true,
            Node::Group(None, inner) => inner.has_capture(),
            Node::Concat(items) | Node::Alt(items) => items.iter().any(Node::has_capture),
            Node::Repeat { node, .. } => node.has_capture(),
            _ => false,
        }
    }
}

/// Checks the rules that are not about syntax (see the module comment).
fn check(node: &Node) -> Result<(), Refusal> {
    match node {
        Node::Group(_, inner) => check(inner),
        Node::Concat(items) | Node::Alt(items) => items.iter().try_for_each(check),
        Node::Repeat {
            node: inner,
            min,
            max,
            ..
        } => {
            if inner.nullable() {
                return Err(Refusal::Unsupported(
                    "a quantifier on a sub-pattern that can match the empty string".into(),
                ));
            }
            let optional = *min == 0 && *max == Some(1);
            if !optional && matches!(**inner, Node::Group(..)) {
                let nested = match &**inner {
                    Node::Group(_, body) => body.has_capture(),
                    _ => false,
                };
                if nested {
                    return Err(Refusal::Unsupported(
                        "a capturing group inside a repeated group".into(),
                    ));
                }
            }
            check(inner)
        }
        Node::Set(set) => set.check_surrogates(),
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------
// Sets of code points

/// Sorted, disjoint, non-adjacent inclusive ranges of Java code points.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Set(Vec<(u32, u32)>);

impl Set {
    fn of(ranges: &[(u32, u32)]) -> Set {
        let mut s = Set::default();
        for &(a, b) in ranges {
            s.add(a, b);
        }
        s
    }

    fn add(&mut self, a: u32, b: u32) {
        self.0.push((a, b));
        self.0.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(self.0.len());
        for &(a, b) in &self.0 {
            match merged.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        self.0 = merged;
    }

    fn union(&mut self, other: &Set) {
        for &(a, b) in &other.0 {
            self.add(a, b);
        }
    }

    fn complement(&self) -> Set {
        let mut out = Vec::new();
        let mut next = 0u32;
        for &(a, b) in &self.0 {
            if a > next {
                out.push((next, a - 1));
            }
            next = b + 1;
        }
        if next <= MAX_CP {
            out.push((next, MAX_CP));
        }
        Set(out)
    }

    fn contains_any(&self, a: u32, b: u32) -> bool {
        self.0.iter().any(|&(x, y)| x <= b && a <= y)
    }

    fn contains_all(&self, a: u32, b: u32) -> bool {
        self.0.iter().any(|&(x, y)| x <= a && b <= y)
    }

    /// A class that can match a lone surrogate must match every supplementary character (see
    /// the module comment).
    fn check_surrogates(&self) -> Result<(), Refusal> {
        if self.contains_any(0xD800, 0xDFFF)
            && !(self.contains_all(0xD800, 0xDFFF) && self.contains_all(0x1_0000, MAX_CP))
        {
            return Err(Refusal::Unsupported(
                "a character class that matches surrogates but not every supplementary character"
                    .into(),
            ));
        }
        Ok(())
    }
}

/// `.` without DOTALL: everything but Java's line terminators.
fn dot() -> Set {
    Set::of(&[(0x0A, 0x0A), (0x0D, 0x0D), (0x85, 0x85), (0x2028, 0x2029)]).complement()
}

/// `\d`, `\w`, `\s` (ASCII, Java's default) and their complements.
fn predefined(c: char) -> Option<Set> {
    let set = match c.to_ascii_lowercase() {
        'd' => Set::of(&[(0x30, 0x39)]),
        'w' => Set::of(&[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]),
        's' => Set::of(&[(0x09, 0x0D), (0x20, 0x20)]),
        _ => return None,
    };
    Some(if c.is_ascii_uppercase() {
        set.complement()
    } else {
        set
    })
}

// ---------------------------------------------------------------------------------------
// Parser (Java's Pattern.expr/sequence/closure/escape/clazz, without flags)

struct Parser {
    p: Vec<char>,
    at: usize,
    groups: usize,
    depth: usize,
}

/// What an escape stands for.
enum Escaped {
    Char(u32),
    Set(Set),
    Node(Node),
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.p.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.p.get(self.at + ahead).copied()
    }

    fn read(&mut self) -> Option<char> {
        let c = self.peek();
        self.at += 1;
        c
    }

    fn invalid(&self, why: &str) -> Refusal {
        Refusal::Invalid(format!("{why} near index {}", self.at.saturating_sub(1)))
    }

    fn unsupported(what: &str) -> Refusal {
        Refusal::Unsupported(what.to_string())
    }

    /// Alternatives separated by `|`.
    fn expr(&mut self) -> Result<Node, Refusal> {
        let mut alternatives = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.at += 1;
            alternatives.push(self.sequence()?);
        }
        Ok(if alternatives.len() == 1 {
            alternatives.pop().expect("one alternative")
        } else {
            Node::Alt(alternatives)
        })
    }

    /// Atoms, each with its quantifier, up to `|`, `)` or the end.
    fn sequence(&mut self) -> Result<Node, Refusal> {
        let mut items = Vec::new();
        loop {
            let node = match self.peek() {
                None | Some('|') | Some(')') => break,
                Some('(') => self.group()?,
                Some('[') => Node::Set(self.class()?),
                Some('\\') => self.escape_atom()?,
                Some('^') => {
                    self.at += 1;
                    Node::Begin
                }
                Some('$') => {
                    self.at += 1;
                    Node::Dollar
                }
                Some('.') => {
                    self.at += 1;
                    Node::Set(dot())
                }
                Some(c @ ('?' | '*' | '+')) => {
                    self.at += 1;
                    return Err(self.invalid(&format!("Dangling meta character '{c}'")));
                }
                // Java reads an empty literal here, which a `{n}` may follow (`a{2}{3}`)
                Some('{') => Node::Empty,
                Some(c) => {
                    self.at += 1;
                    Node::Lit(c)
                }
            };
            items.push(self.closure(node)?);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().expect("one item"),
            _ => Node::Concat(items),
        })
    }

    fn group(&mut self) -> Result<Node, Refusal> {
        self.at += 1; // '('
        let capture = if self.peek() == Some('?') {
            self.at += 1;
            match self.read() {
                Some(':') => None,
                Some('=' | '!') => return Err(Self::unsupported("lookahead")),
                Some('>') => return Err(Self::unsupported("an independent group (?>...)")),
                Some('<') => {
                    return Err(Self::unsupported(match self.peek() {
                        Some('=' | '!') => "lookbehind",
                        _ => "a named group",
                    }))
                }
                Some('$' | '@') => return Err(self.invalid("Unknown group type")),
                _ => return Err(Self::unsupported("inline flags")),
            }
        } else {
            self.groups += 1;
            Some(self.groups)
        };
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Self::unsupported(&format!(
                "groups nested more than {MAX_DEPTH} deep"
            )));
        }
        let inner = self.expr()?;
        self.depth -= 1;
        if self.read() != Some(')') {
            return Err(self.invalid("Unclosed group"));
        }
        self.closure(Node::Group(capture, Box::new(inner)))
    }

    /// The quantifier after an atom, if any.
    fn closure(&mut self, node: Node) -> Result<Node, Refusal> {
        let (min, max) = match self.peek() {
            Some('?') => (0, Some(1)),
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('{') => {
                self.at += 1;
                if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                    return Err(self.invalid("Illegal repetition"));
                }
                let min = self.number()?;
                let max = if self.peek() == Some(',') {
                    self.at += 1;
                    if self.peek() == Some('}') {
                        None
                    } else {
                        // Java reads no digits as 0 here; the '}' check below reports it
                        Some(if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                            self.number()?
                        } else {
                            0
                        })
                    }
                } else {
                    Some(min)
                };
                if self.peek() != Some('}') {
                    self.at += 1;
                    return Err(self.invalid("Unclosed counted closure"));
                }
                if max.is_some_and(|m| m < min) {
                    self.at += 1;
                    return Err(self.invalid("Illegal repetition range"));
                }
                (min, max)
            }
            _ => return Ok(node),
        };
        self.at += 1; // the quantifier's last character
        let greedy = match self.peek() {
            Some('?') => {
                self.at += 1;
                false
            }
            Some('+') => return Err(Self::unsupported("a possessive quantifier")),
            _ => true,
        };
        Ok(Node::Repeat {
            node: Box::new(node),
            min,
            max,
            greedy,
        })
    }

    /// Decimal digits as a Java `int` (overflow is Java's "Illegal repetition range").
    fn number(&mut self) -> Result<u32, Refusal> {
        let mut n: i32 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            self.at += 1;
            n = n
                .checked_mul(10)
                .and_then(|n| n.checked_add(d as i32))
                .ok_or_else(|| self.invalid("Illegal repetition range"))?;
        }
        Ok(n as u32)
    }

    /// An escape outside a class.
    fn escape_atom(&mut self) -> Result<Node, Refusal> {
        Ok(match self.escape(false)? {
            Escaped::Char(c) => Node::Lit(code_point(c)?),
            Escaped::Set(s) => Node::Set(s),
            Escaped::Node(n) => n,
        })
    }

    /// Java's `escape(inclass, ...)`, the cursor on the backslash.
    fn escape(&mut self, in_class: bool) -> Result<Escaped, Refusal> {
        self.at += 1; // '\'
        let Some(c) = self.read() else {
            return Err(self.invalid("Unescaped trailing backslash"));
        };
        let outside = |n: Node| {
            if in_class {
                None
            } else {
                Some(Escaped::Node(n))
            }
        };
        let node = match c {
            '0' => return Ok(Escaped::Char(self.octal()?)),
            '1'..='9' if !in_class => return Err(Self::unsupported("a backreference")),
            'A' => outside(Node::Begin),
            'z' => outside(Node::End),
            'Z' => outside(Node::Dollar),
            'b' | 'B' if !in_class => return Err(Self::unsupported("a word boundary (\\b, \\B)")),
            'G' if !in_class => return Err(Self::unsupported("\\G")),
            'R' if !in_class => return Err(Self::unsupported("\\R")),
            'X' if !in_class => return Err(Self::unsupported("\\X")),
            'k' if !in_class => return Err(Self::unsupported("a named backreference")),
            'N' => return Err(Self::unsupported("\\N{...}")),
            'h' | 'H' | 'v' | 'V' => {
                return Err(Self::unsupported(&format!(
                    "\\{c} (horizontal/vertical whitespace)"
                )))
            }
            'p' | 'P' => return Err(Self::unsupported("a Unicode property (\\p, \\P)")),
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => {
                return Ok(Escaped::Set(predefined(c).expect("a predefined class")))
            }
            'a' => return Ok(Escaped::Char(0x07)),
            'e' => return Ok(Escaped::Char(0x1B)),
            'f' => return Ok(Escaped::Char(0x0C)),
            'n' => return Ok(Escaped::Char(0x0A)),
            'r' => return Ok(Escaped::Char(0x0D)),
            't' => return Ok(Escaped::Char(0x09)),
            'c' => {
                return match self.read() {
                    Some(x) => Ok(Escaped::Char(x as u32 ^ 64)),
                    None => Err(self.invalid("Illegal control escape sequence")),
                }
            }
            'u' => return Ok(Escaped::Char(self.unicode()?)),
            'x' => return Ok(Escaped::Char(self.hex()?)),
            c if c.is_ascii_alphanumeric() => None,
            c => return Ok(Escaped::Char(c as u32)),
        };
        node.ok_or_else(|| self.invalid("Illegal/unsupported escape sequence"))
    }

    /// `\0n`, `\0nn`, `\0mnn` (m ≤ 3).
    fn octal(&mut self) -> Result<u32, Refusal> {
        let digit = |c: Option<char>| c.filter(|c| ('0'..='7').contains(c)).map(|c| c as u32 - 48);
        let Some(n) = digit(self.read()) else {
            return Err(self.invalid("Illegal octal escape sequence"));
        };
        let Some(m) = digit(self.peek()) else {
            return Ok(n);
        };
        self.at += 1;
        match digit(self.peek()) {
            Some(o) if n <= 3 => {
                self.at += 1;
                Ok(n * 64 + m * 8 + o)
            }
            _ => Ok(n * 8 + m),
        }
    }

    fn hex4(&mut self) -> Result<u32, Refusal> {
        let mut n = 0;
        for _ in 0..4 {
            match self
                .read()
                .and_then(|c| c.to_digit(16).filter(|_| c.is_ascii()))
            {
                Some(d) => n = n * 16 + d,
                None => return Err(self.invalid("Illegal Unicode escape sequence")),
            }
        }
        Ok(n)
    }

    /// `\uhhhh`, a high surrogate followed by `\uhhhh` of a low one combining into one.
    fn unicode(&mut self) -> Result<u32, Refusal> {
        let n = self.hex4()?;
        if (0xD800..=0xDBFF).contains(&n) {
            let save = self.at;
            if self.read() == Some('\\') && self.read() == Some('u') {
                let low = self.hex4()?;
                if (0xDC00..=0xDFFF).contains(&low) {
                    return Ok(0x1_0000 + ((n - 0xD800) << 10) + (low - 0xDC00));
                }
            }
            self.at = save;
        }
        Ok(n)
    }

    /// `\xhh`, `\x{h...}`.
    fn hex(&mut self) -> Result<u32, Refusal> {
        let hexdigit = |c: Option<char>| {
            c.filter(char::is_ascii_hexdigit)
                .and_then(|c| c.to_digit(16))
        };
        let n = self.read();
        if let Some(a) = hexdigit(n) {
            if let Some(b) = hexdigit(self.read()) {
                return Ok(a * 16 + b);
            }
        } else if n == Some('{') && hexdigit(self.peek()).is_some() {
            let mut v: u32 = 0;
            loop {
                let c = self.read();
                let Some(d) = hexdigit(c) else {
                    if c != Some('}') {
                        return Err(self.invalid("Unclosed hexadecimal escape sequence"));
                    }
                    return Ok(v);
                };
                v = (v << 4) + d;
                if v > MAX_CP {
                    return Err(self.invalid("Hexadecimal codepoint is too big"));
                }
            }
        }
        Err(self.invalid("Illegal hexadecimal escape sequence"))
    }

    /// A character class, the cursor on `[`.
    fn class(&mut self) -> Result<Set, Refusal> {
        self.at += 1;
        let negate = self.peek() == Some('^');
        if negate {
            self.at += 1;
        }
        let mut set = Set::default();
        let mut items = 0;
        loop {
            match self.peek() {
                None => {
                    self.at += 1;
                    return Err(self.invalid("Unclosed character class"));
                }
                Some('[') => return Err(Self::unsupported("a nested character class")),
                Some('&') if self.peek_at(1) == Some('&') => {
                    return Err(Self::unsupported("a character class intersection (&&)"))
                }
                // a ']' first in the class is a literal
                Some(']') if items > 0 => {
                    self.at += 1;
                    break;
                }
                _ => {}
            }
            self.class_item(&mut set)?;
            items += 1;
        }
        Ok(if negate { set.complement() } else { set })
    }

    /// Java's `range()`: one character, range or predefined class.
    fn class_item(&mut self, set: &mut Set) -> Result<(), Refusal> {
        let first = if self.peek() == Some('\\') {
            match self.escape(true)? {
                Escaped::Char(c) => c,
                Escaped::Set(s) => {
                    set.union(&s);
                    return Ok(());
                }
                Escaped::Node(_) => unreachable!("no assertion escapes inside a class"),
            }
        } else {
            self.read().expect("checked by the caller") as u32
        };
        if self.peek() == Some('-') && !matches!(self.peek_at(1), Some('[' | ']')) {
            self.at += 1; // '-'
            let last = match self.peek() {
                Some('\\') => match self.escape(true)? {
                    Escaped::Char(c) => Some(c),
                    _ => None,
                },
                Some(c) => {
                    self.at += 1;
                    Some(c as u32)
                }
                None => None,
            };
            match last {
                Some(last) if last >= first => {
                    check_not_surrogate(first)?;
                    check_not_surrogate(last)?;
                    set.add(first, last);
                }
                _ => return Err(self.invalid("Illegal character range")),
            }
        } else {
            set.add(first, first);
            code_point(first)?;
        }
        Ok(())
    }
}

fn check_not_surrogate(c: u32) -> Result<(), Refusal> {
    code_point(c).map(|_| ())
}

/// A code point of a literal: surrogates (only reachable through escapes) are refused.
fn code_point(c: u32) -> Result<char, Refusal> {
    char::from_u32(c).ok_or_else(|| Refusal::Unsupported("an unpaired surrogate".into()))
}

// ---------------------------------------------------------------------------------------
// Emitter (`regex` crate syntax)

struct Emitter {
    out: String,
    groups: usize,
    group_map: Vec<usize>,
    terminators: Vec<usize>,
    crlf: bool,
}

impl Emitter {
    /// Writes `node`; `last` says that nothing of the pattern can follow it.
    fn emit(&mut self, node: &Node, last: bool) -> Result<(), Refusal> {
        match node {
            Node::Empty => {}
            Node::Lit(c) => push_char(&mut self.out, *c as u32),
            Node::Set(set) => push_set(&mut self.out, set),
            Node::Begin => self.out.push_str(r"\A"),
            Node::End => self.out.push_str(r"\z"),
            Node::Dollar => {
                if !last {
                    return Err(Refusal::Unsupported(
                        "`$` or `\\Z` followed by more of the pattern".into(),
                    ));
                }
                self.groups += 1;
                self.terminators.push(self.groups);
                let terminator = if self.crlf {
                    r"\r\n"
                } else {
                    r"[\n\r\x{85}\x{2028}\x{2029}]"
                };
                write!(self.out, r"(?:\z|({terminator})\z)").expect("strings do not fail");
            }
            Node::Group(capture, inner) => {
                if let Some(g) = capture {
                    self.groups += 1;
                    self.group_map[*g] = self.groups;
                    self.out.push('(');
                } else {
                    self.out.push_str("(?:");
                }
                self.emit(inner, last)?;
                self.out.push(')');
            }
            Node::Concat(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.emit(item, last && i + 1 == items.len())?;
                }
            }
            Node::Alt(items) => {
                self.out.push_str("(?:");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push('|');
                    }
                    self.emit(item, last)?;
                }
                self.out.push(')');
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => {
                self.emit(node, false)?;
                match max {
                    Some(max) => write!(self.out, "{{{min},{max}}}"),
                    None => write!(self.out, "{{{min},}}"),
                }
                .expect("strings do not fail");
                if !greedy {
                    self.out.push('?');
                }
            }
        }
        Ok(())
    }
}

/// A literal code point: ASCII letters and digits as they are, everything else as `\x{..}`.
fn push_char(out: &mut String, c: u32) {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_alphanumeric() => out.push(ch),
        _ => write!(out, r"\x{{{c:X}}}").expect("strings do not fail"),
    }
}

/// A class of the set's scalar values (surrogates dropped: no UTF-8 text holds one).
fn push_set(out: &mut String, set: &Set) {
    let mut scalar = Set::of(&set.0);
    scalar = scalar.complement();
    scalar.add(0xD800, 0xDFFF);
    let scalar = scalar.complement();
    if scalar.0.is_empty() {
        // matches nothing
        out.push_str(r"[^\x{0}-\x{10FFFF}]");
        return;
    }
    out.push('[');
    for &(a, b) in &scalar.0 {
        write!(out, r"\x{{{a:X}}}").expect("strings do not fail");
        if b > a {
            write!(out, r"-\x{{{b:X}}}").expect("strings do not fail");
        }
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(p: &str) -> Translated {
        translate(p).unwrap_or_else(|e| panic!("{p:?}: {e:?}"))
    }

    fn unsupported(p: &str, what: &str) {
        match translate(p) {
            Err(Refusal::Unsupported(w)) => assert!(w.contains(what), "{p:?}: {w}"),
            other => panic!("{p:?}: {other:?}"),
        }
    }

    fn invalid(p: &str, why: &str) {
        match translate(p) {
            Err(Refusal::Invalid(w)) => assert!(w.contains(why), "{p:?}: {w}"),
            other => panic!("{p:?}: {other:?}"),
        }
    }

    #[test]
    fn nexmark_pattern() {
        let t = ok("(&|^)channel_id=([^&]*)");
        assert_eq!(t.groups, 2);
        assert_eq!(t.group_map, vec![0, 1, 2]);
        assert!(t.crlf.is_none());
        assert_eq!(
            t.general,
            r"((?:\x{26}|\A))channel\x{5F}id\x{3D}([\x{0}-\x{25}\x{27}-\x{D7FF}\x{E000}-\x{10FFFF}]{0,})"
        );
    }

    #[test]
    fn escapes_and_literals() {
        assert_eq!(
            ok(r"\t\n\r\f\a\e").general,
            r"\x{9}\x{A}\x{D}\x{C}\x{7}\x{1B}"
        );
        assert_eq!(
            ok(r"\0101\x41\x{1F600}\u00e9\cA").general,
            r"AA\x{1F600}\x{E9}\x{1}"
        );
        assert_eq!(ok(r"\uD83D\uDE00").general, r"\x{1F600}");
        assert_eq!(ok(r"\0777").general, r"\x{3F}7");
        assert_eq!(ok(r"\.\-\é]}").general, r"\x{2E}\x{2D}\x{E9}\x{5D}\x{7D}");
        unsupported(r"\uD83D", "unpaired surrogate");
        unsupported(r"\x{DC00}", "unpaired surrogate");
        invalid(r"\y", "Illegal/unsupported escape");
        invalid(r"\E", "Illegal/unsupported escape");
        invalid("a\\", "trailing backslash");
        invalid(r"\x{110000}", "too big");
        invalid(r"\xG1", "Illegal hexadecimal");
        invalid(r"\u12", "Illegal Unicode");
        invalid(r"\09", "Illegal octal");
    }

    #[test]
    fn classes() {
        assert_eq!(ok("[a-c]").general, r"[\x{61}-\x{63}]");
        assert_eq!(ok("[]a]").general, r"[\x{5D}\x{61}]");
        assert_eq!(ok("[a-]").general, r"[\x{2D}\x{61}]");
        assert_eq!(ok("[a-z-9]").general, r"[\x{2D}\x{39}\x{61}-\x{7A}]");
        assert_eq!(ok(r"[\d-z]").general, r"[\x{2D}\x{30}-\x{39}\x{7A}]");
        assert_eq!(ok("[a^&]").general, r"[\x{26}\x{5E}\x{61}]");
        assert_eq!(ok(r"\d").general, r"[\x{30}-\x{39}]");
        assert_eq!(ok(r"\s").general, r"[\x{9}-\x{D}\x{20}]");
        assert_eq!(
            ok("[^a]").general,
            r"[\x{0}-\x{60}\x{62}-\x{D7FF}\x{E000}-\x{10FFFF}]"
        );
        assert_eq!(
            ok(".").general,
            r"[\x{0}-\x{9}\x{B}-\x{C}\x{E}-\x{84}\x{86}-\x{2027}\x{202A}-\x{D7FF}\x{E000}-\x{10FFFF}]"
        );
        unsupported("[a[b]]", "nested");
        unsupported("[a&&b]", "intersection");
        unsupported("[^😀]", "surrogates");
        unsupported(r"[\x{D000}-\x{E000}]", "surrogates");
        unsupported(r"\p{L}", "Unicode property");
        invalid("[b-a]", "Illegal character range");
        invalid(r"[a-\d]", "Illegal character range");
        invalid("[a", "Unclosed character class");
        invalid("[]", "Unclosed character class");
        invalid(r"[\1]", "Illegal/unsupported escape");
    }

    #[test]
    fn quantifiers_groups_and_alternation() {
        assert_eq!(
            ok("a*b+?c{2}d{2,}e{2,3}?").general,
            "a{0,}b{1,}?c{2,2}d{2,}e{2,3}?"
        );
        let t = ok("(a)(?:b(c))|d");
        assert_eq!(t.groups, 2);
        assert_eq!(t.general, "(?:(a)(?:b(c))|d)");
        assert_eq!(ok("(a)?").general, "(a){0,1}");
        assert_eq!(ok("(?:(a)b)?").general, "(?:(a)b){0,1}");
        assert_eq!(ok("(ab)*").general, "(ab){0,}");
        unsupported("(a*)*", "empty string");
        unsupported("(a|)+", "empty string");
        unsupported("a{2}{3}", "empty string");
        unsupported("(?:(a)b)*", "capturing group inside a repeated group");
        unsupported("a*+", "possessive");
        unsupported("(?=a)", "lookahead");
        unsupported("(?<=a)", "lookbehind");
        unsupported("(?<n>a)", "named group");
        unsupported("(?i)a", "inline flags");
        unsupported("(?>a)", "independent group");
        unsupported(r"(a)\1", "backreference");
        unsupported(r"\bx", "word boundary");
        unsupported(r"\Qa\E", "quoting");
        assert!(!has_quoting(r"\\Q"));
        invalid("*a", "Dangling");
        invalid("a{", "Illegal repetition");
        invalid("a{2", "Unclosed counted closure");
        invalid("a{3,2}", "Illegal repetition range");
        invalid("a{99999999999}", "Illegal repetition range");
        invalid("(a", "Unclosed group");
        invalid("a)", "Unmatched closing");
        invalid("(?@a)", "Unknown group type");
    }

    #[test]
    fn anchors() {
        let t = ok("^a$");
        assert_eq!(t.general, r"\Aa(?:\z|([\n\r\x{85}\x{2028}\x{2029}])\z)");
        assert_eq!(t.crlf.as_deref(), Some(r"\Aa(?:\z|(\r\n)\z)"));
        assert_eq!(t.terminators, vec![1]);
        let t = ok(r"(a$)|(b\Z)");
        assert_eq!(t.group_map, vec![0, 1, 3]);
        assert_eq!(t.terminators, vec![2, 4]);
        assert_eq!(ok(r"\Aa\z").general, r"\Aa\z");
        unsupported("a$b", "followed by more");
        unsupported("(a$)b", "followed by more");
        unsupported("(a$)*", "followed by more");
        unsupported("(a$)?", "followed by more");
        unsupported("$$", "followed by more");
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowing() {
        let p = "(".repeat(10_000) + &")".repeat(10_000);
        unsupported(&p, "nested more than");
    }
}
