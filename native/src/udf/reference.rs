//! The kernels as they were before the allocation-free rewrite, kept verbatim for tests:
//! an oracle for differential tests of the fast paths and the "before" side of the
//! timing harness. Test-only; never registered.
#![allow(dead_code)]

pub mod like {

    use std::sync::Arc;

    use arrow::array::{Array, ArrayRef, AsArray, BooleanArray};
    use arrow::datatypes::DataType;
    use datafusion::common::{exec_datafusion_err, Result};

    use super::super::{is_string, Args, FlinkUdf};

    pub fn functions() -> Vec<FlinkUdf> {
        vec![FlinkUdf::new("gatun_flink_like", like_type, like, true)]
    }

    pub(crate) fn like_type(types: &[DataType]) -> std::result::Result<DataType, String> {
        if matches!(types.len(), 2 | 3) && types.iter().all(is_string) {
            Ok(DataType::Boolean)
        } else {
            Err("expects (STRING, STRING) or (STRING, STRING, STRING)".into())
        }
    }

    #[derive(Debug, Clone, PartialEq, Eq)]
    pub(crate) enum Token {
        Char(char),
        One,
        Any,
    }

    /// Compiles a LIKE pattern; `Err` carries Flink's message.
    pub(crate) fn compile(
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
    pub(crate) fn utf16_index(chars: &[char], i: usize) -> usize {
        chars[..i].iter().map(|c| c.len_utf16()).sum()
    }

    pub(crate) fn is_line_terminator(c: char) -> bool {
        matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
    }

    /// Whole-string match with backtracking to the last `%` (linear in practice,
    /// O(len × pattern) at worst).
    pub(crate) fn matches(tokens: &[Token], s: &str) -> bool {
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

    pub(crate) fn like(args: &Args) -> Result<ArrayRef> {
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
}

pub mod string {

    use std::sync::Arc;

    use arrow::array::{Array, ArrayRef, AsArray, Int32Array, StringArray, StringBuilder};
    use arrow::datatypes::DataType;
    use datafusion::common::{exec_err, Result};

    use super::super::{arity, is_string, Args, FlinkUdf};

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

    pub(crate) fn all_strings(types: &[DataType]) -> std::result::Result<(), String> {
        if types.iter().all(is_string) {
            Ok(())
        } else {
            Err("expects STRING (Utf8) arguments".into())
        }
    }

    /// `N` strings → STRING.
    pub(crate) fn strings_type<const N: usize>(
        types: &[DataType],
    ) -> std::result::Result<DataType, String> {
        arity(types, N)?;
        all_strings(types)?;
        Ok(DataType::Utf8)
    }

    /// `N` strings → INT.
    pub(crate) fn int_of_strings<const N: usize>(
        types: &[DataType],
    ) -> std::result::Result<DataType, String> {
        arity(types, N)?;
        all_strings(types)?;
        Ok(DataType::Int32)
    }

    pub(crate) fn concat_type(types: &[DataType]) -> std::result::Result<DataType, String> {
        if types.is_empty() {
            return Err("expects at least one argument".into());
        }
        all_strings(types)?;
        Ok(DataType::Utf8)
    }

    pub(crate) fn substring_type(types: &[DataType]) -> std::result::Result<DataType, String> {
        let ok = matches!(types.len(), 2 | 3)
            && is_string(&types[0])
            && types[1..].iter().all(|t| t == &DataType::Int32);
        if ok {
            Ok(DataType::Utf8)
        } else {
            Err("expects (STRING, INT) or (STRING, INT, INT)".into())
        }
    }

    pub(crate) fn strings<'a>(args: &'a Args) -> Vec<&'a StringArray> {
        args.arrays.iter().map(|a| a.as_string::<i32>()).collect()
    }

    /// Row `i` is NULL in some argument.
    pub(crate) fn any_null(arrays: &[&dyn Array], i: usize) -> bool {
        arrays.iter().any(|a| a.is_null(i))
    }

    /// A string result built row by row: `f(i)` is `None` for NULL.
    pub(crate) fn build_strings<'s>(
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
    pub(crate) fn char_slice(s: &str, start: usize, end: usize) -> &str {
        let byte = |n: usize| s.char_indices().nth(n).map_or(s.len(), |(b, _)| b);
        let from = byte(start);
        let to = from
            + s[from..]
                .char_indices()
                .nth(end - start)
                .map_or(s.len() - from, |(b, _)| b);
        &s[from..to]
    }

    pub(crate) fn substring(args: &Args) -> Result<ArrayRef> {
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

    pub(crate) fn trim(args: &Args, leading: bool, trailing: bool) -> Result<ArrayRef> {
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

    pub(crate) fn position(args: &Args) -> Result<ArrayRef> {
        let a = strings(args);
        let (seek, s) = (a[0], a[1]);
        let out: Int32Array = (0..s.len())
            .map(|i| {
                (!seek.is_null(i) && !s.is_null(i)).then(|| position_of(seek.value(i), s.value(i)))
            })
            .collect();
        Ok(Arc::new(out))
    }

    pub(crate) fn char_length(args: &Args) -> Result<ArrayRef> {
        let s = args.arrays[0].as_string::<i32>();
        let out: Int32Array = s
            .iter()
            .map(|v| v.map(|v| v.chars().count() as i32))
            .collect();
        Ok(Arc::new(out))
    }

    pub(crate) fn upper_kernel(args: &Args) -> Result<ArrayRef> {
        map1(args, upper)
    }

    pub(crate) fn lower_kernel(args: &Args) -> Result<ArrayRef> {
        map1(args, lower)
    }

    pub(crate) fn map1(args: &Args, f: fn(&str) -> std::borrow::Cow<'_, str>) -> Result<ArrayRef> {
        let s = args.arrays[0].as_string::<i32>();
        Ok(build_strings(s.len(), |i| {
            (!s.is_null(i)).then(|| f(s.value(i)))
        }))
    }

    /// Java's `String.toUpperCase()` (full case mapping, e.g. `ß` → `SS`).
    pub(crate) fn upper(s: &str) -> std::borrow::Cow<'_, str> {
        if s.is_ascii() {
            s.to_ascii_uppercase().into()
        } else {
            s.to_uppercase().into()
        }
    }

    /// Java's `String.toLowerCase()` (final sigma included).
    pub(crate) fn lower(s: &str) -> std::borrow::Cow<'_, str> {
        if s.is_ascii() {
            s.to_ascii_lowercase().into()
        } else {
            s.to_lowercase().into()
        }
    }

    pub(crate) fn concat(args: &Args) -> Result<ArrayRef> {
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

    pub(crate) fn replace(args: &Args) -> Result<ArrayRef> {
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
}

pub mod decimal {

    use arrow::datatypes::i256;

    /// `DecimalType.MAX_PRECISION`.
    pub const MAX_PRECISION: u8 = 38;
    /// `LogicalTypeMerging.MINIMUM_ADJUSTED_SCALE`.
    const MINIMUM_ADJUSTED_SCALE: i32 = 6;

    /// `10^k` for `0 <= k <= 76`.
    pub fn pow10(k: u32) -> i256 {
        debug_assert!(k <= 76);
        i256::from_i128(10).wrapping_pow(k)
    }

    /// Whether `v` fits in `precision` digits (`|v| < 10^precision`).
    pub fn fits(v: i256, precision: u8) -> bool {
        let limit = pow10(u32::from(precision));
        v < limit && v > limit.wrapping_neg()
    }

    /// `v / 10^k`, rounded HALF_UP (ties away from zero). `k` may exceed 76 (gives 0).
    pub fn div_pow10_half_up(v: i256, k: u32) -> i256 {
        if k == 0 {
            return v;
        }
        if k > 76 {
            return i256::ZERO; // |v| < 10^77 / 2
        }
        let d = pow10(k);
        let q = v.wrapping_div(d);
        let r = v.wrapping_rem(d);
        let twice = r.wrapping_abs().wrapping_mul(i256::from_i128(2));
        if twice >= d {
            if v.is_negative() {
                q.wrapping_sub(i256::ONE)
            } else {
                q.wrapping_add(i256::ONE)
            }
        } else {
            q
        }
    }

    /// Converts the exact value `v × 10^-from_scale` to scale `to_scale` (HALF_UP) and
    /// precision `precision`: `None` when it does not fit (Flink's NULL).
    pub fn to_decimal(v: i256, from_scale: i32, precision: u8, to_scale: i32) -> Option<i128> {
        let shift = to_scale - from_scale;
        let scaled = if shift >= 0 {
            if v == i256::ZERO {
                v
            } else if shift > 76 {
                return None;
            } else {
                v.checked_mul(pow10(shift as u32))?
            }
        } else {
            div_pow10_half_up(v, shift.unsigned_abs())
        };
        fits(scaled, precision).then(|| scaled.as_i128())
    }

    /// A `DecimalType(precision, scale)`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct DecType {
        pub precision: u8,
        pub scale: i8,
    }

    impl DecType {
        fn new(precision: i32, scale: i32) -> Self {
            Self::adjusted(precision, scale)
        }

        /// `LogicalTypeMerging.adjustPrecisionScale`.
        fn adjusted(precision: i32, scale: i32) -> Self {
            let (p, s) = if precision <= i32::from(MAX_PRECISION) {
                (precision, scale)
            } else {
                let digits = precision - scale;
                let min_scale = scale.min(MINIMUM_ADJUSTED_SCALE);
                let s = (i32::from(MAX_PRECISION) - digits).max(min_scale);
                (i32::from(MAX_PRECISION), s)
            };
            Self {
                precision: p as u8,
                scale: s as i8,
            }
        }
    }

    /// The binary decimal operators of Flink.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum DecOp {
        Add,
        Subtract,
        Multiply,
        Divide,
        Mod,
    }

    /// Flink's result type of `a op b` (`LogicalTypeMerging.find*DecimalType`).
    pub fn result_type(op: DecOp, a: DecType, b: DecType) -> DecType {
        let (p1, s1, p2, s2) = (
            i32::from(a.precision),
            i32::from(a.scale),
            i32::from(b.precision),
            i32::from(b.scale),
        );
        match op {
            DecOp::Add | DecOp::Subtract => {
                let s = s1.max(s2);
                DecType::new((p1 - s1).max(p2 - s2) + s + 1, s)
            }
            DecOp::Multiply => DecType::new(p1 + p2 + 1, s1 + s2),
            DecOp::Divide => {
                let s = 6.max(s1 + p2 + 1);
                DecType::new(p1 - s1 + s2 + s, s)
            }
            DecOp::Mod => {
                let s = s1.max(s2);
                DecType::new((p1 - s1).min(p2 - s2) + s, s)
            }
        }
    }

    /// Why a decimal operation raised (Flink: `ArithmeticException`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DecError(pub &'static str);

    /// `a op b` with Flink semantics: `Ok(None)` is NULL (overflow of the result type).
    pub fn apply(
        op: DecOp,
        (a, sa): (i128, i8),
        (b, sb): (i128, i8),
        out: DecType,
    ) -> Result<Option<i128>, DecError> {
        let (a, b) = (i256::from_i128(a), i256::from_i128(b));
        let (sa, sb) = (i32::from(sa), i32::from(sb));
        let (p, s) = (out.precision, i32::from(out.scale));
        let common = sa.max(sb);
        let align = |v: i256, from: i32| v.wrapping_mul(pow10((common - from) as u32));
        Ok(match op {
            DecOp::Add => to_decimal(align(a, sa).wrapping_add(align(b, sb)), common, p, s),
            DecOp::Subtract => to_decimal(align(a, sa).wrapping_sub(align(b, sb)), common, p, s),
            DecOp::Multiply => to_decimal(a.wrapping_mul(b), sa + sb, p, s),
            DecOp::Divide => {
                if b == i256::ZERO {
                    return Err(zero_divisor(a));
                }
                let (m, e) = divide_38_digits(a, b);
                // value = m × 10^(e + sb - sa)
                to_decimal(m, -(e + sb - sa), p, s)
            }
            DecOp::Mod => {
                if b == i256::ZERO {
                    return Err(zero_divisor(a));
                }
                let (a, b) = (align(a, sa), align(b, sb));
                // BigDecimal.remainder(divisor, MathContext(38)): the integral quotient
                // must fit in 38 digits.
                if !fits(a.wrapping_div(b), MAX_PRECISION) {
                    return Err(DecError("Division impossible"));
                }
                to_decimal(a.wrapping_rem(b), common, p, s)
            }
        })
    }

    pub(crate) fn zero_divisor(dividend: i256) -> DecError {
        if dividend == i256::ZERO {
            DecError("Division undefined")
        } else {
            DecError("Division by zero")
        }
    }

    /// `a / b` (integers, `b != 0`) rounded HALF_UP to 38 significant digits, as `(m, e)`
    /// with value `m × 10^e`.
    pub(crate) fn divide_38_digits(a: i256, b: i256) -> (i256, i32) {
        let negative = a.is_negative() != b.is_negative();
        let (a, b) = (a.wrapping_abs(), b.wrapping_abs());
        let ten = i256::from_i128(10);
        let mut m = a.wrapping_div(b);
        let mut r = a.wrapping_rem(b);
        let mut exp = 0i32;
        let mut digits = digit_count(m);
        // One digit beyond 38 decides HALF_UP; stop early when the division is exact.
        while digits < u32::from(MAX_PRECISION) + 1 && r != i256::ZERO {
            r = r.wrapping_mul(ten);
            m = m.wrapping_mul(ten).wrapping_add(r.wrapping_div(b));
            r = r.wrapping_rem(b);
            exp -= 1;
            if m != i256::ZERO {
                digits += 1;
            }
        }
        if digits > u32::from(MAX_PRECISION) {
            let last = m.wrapping_rem(ten);
            m = m.wrapping_div(ten);
            exp += 1;
            if last >= i256::from_i128(5) {
                m = m.wrapping_add(i256::ONE);
            }
        }
        (if negative { m.wrapping_neg() } else { m }, exp)
    }

    /// Number of decimal digits of `v >= 0` (0 for 0).
    pub(crate) fn digit_count(v: i256) -> u32 {
        let mut n = 0;
        let mut p = i256::ONE;
        while n < 77 && v >= p {
            n += 1;
            p = p.wrapping_mul(i256::from_i128(10));
        }
        n
    }
}
