//! Flink `DecimalData` arithmetic on unscaled `i128` values, computed exactly in `i256`.
//!
//! Flink (`DecimalDataUtils`) computes with `BigDecimal` and converts the exact result
//! with `DecimalData.fromBigDecimal(bd, p, s)`: `setScale(s, HALF_UP)`, then NULL when
//! the value needs more than `p` digits. Division first rounds the quotient to 38
//! significant digits (`MathContext(38, HALF_UP)`), then to the result scale; a zero
//! divisor raises (`ArithmeticException`). Result types follow `LogicalTypeMerging`.

use arrow::datatypes::i256;

/// `DecimalType.MAX_PRECISION`.
pub const MAX_PRECISION: u8 = 38;
/// `LogicalTypeMerging.MINIMUM_ADJUSTED_SCALE`.
const MINIMUM_ADJUSTED_SCALE: i32 = 6;

/// `10^k` for `0 <= k <= 76` (the largest power of ten in `i256`).
const POW10: [i256; 77] = {
    let mut table = [i256::ONE; 77];
    let mut k = 1;
    while k < table.len() {
        // `i256::wrapping_mul` is not `const` in arrow 58: multiply the parts by ten.
        let (low, high) = table[k - 1].to_parts();
        let carry = ((low >> 64) * 10 + ((low & u64::MAX as u128) * 10 >> 64)) >> 64;
        table[k] = i256::from_parts(low.wrapping_mul(10), high * 10 + carry as i128);
        k += 1;
    }
    table
};

/// `10^k` for `0 <= k <= 38` (the largest power of ten in `i128`).
const POW10_I128: [i128; 39] = {
    let mut table = [1i128; 39];
    let mut k = 1;
    while k < table.len() {
        table[k] = table[k - 1] * 10;
        k += 1;
    }
    table
};

/// `10^k` for `0 <= k <= 76`.
pub fn pow10(k: u32) -> i256 {
    POW10[k as usize]
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

/// [`div_pow10_half_up`] in `i128`.
fn div_pow10_half_up_i128(v: i128, k: u32) -> i128 {
    if k == 0 {
        return v;
    }
    if k > 38 {
        return 0; // |v| < 2^127 < 10^39 / 2
    }
    let d = POW10_I128[k as usize];
    let (q, r) = (v / d, v % d);
    // 2|r| < 2 × 10^38 fits in u128
    if r.unsigned_abs() * 2 >= d as u128 {
        if v < 0 {
            q - 1
        } else {
            q + 1
        }
    } else {
        q
    }
}

/// [`to_decimal`] in `i128` for `precision <= 38`. Exact: when scaling up overflows
/// `i128` the value exceeds `10^38` and does not fit, as in `i256`.
fn to_decimal_i128(v: i128, from_scale: i32, precision: u8, to_scale: i32) -> Option<i128> {
    debug_assert!(precision <= MAX_PRECISION);
    let shift = to_scale - from_scale;
    let scaled = if shift >= 0 {
        if v == 0 {
            v
        } else if shift > 38 {
            return None;
        } else {
            v.checked_mul(POW10_I128[shift as usize])?
        }
    } else {
        div_pow10_half_up_i128(v, shift.unsigned_abs())
    };
    (scaled.unsigned_abs() < POW10_I128[usize::from(precision)] as u128).then_some(scaled)
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

/// An add, subtract or multiply in `i128` over fixed operand scales and a result type of at
/// most 38 digits: the exact result at the operands' common scale (add, subtract) or summed
/// scale (multiply), rounded to the result scale where that differs. [`apply`] builds one per
/// call; a column's rows share one (`arith`'s DECIMAL operators), its multipliers worked out once.
#[derive(Debug, Clone, Copy)]
pub struct ExactI128 {
    op: DecOp,
    /// `10^(common scale - operand scale)` aligning each operand of an add or subtract.
    align: (i128, i128),
    /// The scale of the exact result.
    scale: i32,
    out: DecType,
    /// `10^precision` of the result.
    bound: u128,
}

impl ExactI128 {
    /// The `i128` path of `a op b` for operands of scales `sa` and `sb` into `out`, if any.
    pub fn new(op: DecOp, sa: i8, sb: i8, out: DecType) -> Option<Self> {
        if out.precision > MAX_PRECISION || sa < 0 || sb < 0 {
            return None;
        }
        let (sa, sb) = (
            usize::from(sa.unsigned_abs()),
            usize::from(sb.unsigned_abs()),
        );
        let common = sa.max(sb);
        let (align, scale) = match op {
            DecOp::Add | DecOp::Subtract => (
                (*POW10_I128.get(common - sa)?, *POW10_I128.get(common - sb)?),
                common,
            ),
            DecOp::Multiply => ((1, 1), sa + sb),
            DecOp::Divide | DecOp::Mod => return None,
        };
        Some(Self {
            op,
            align,
            scale: i32::try_from(scale).ok()?,
            out,
            bound: POW10_I128[usize::from(out.precision)] as u128,
        })
    }

    /// [`apply`] of `a op b`, or `None` when an `i128` step overflows (only the exact `i256`
    /// arithmetic then decides).
    #[inline]
    pub fn apply(&self, a: i128, b: i128) -> Option<Option<i128>> {
        let exact = match self.op {
            DecOp::Add => a
                .checked_mul(self.align.0)?
                .checked_add(b.checked_mul(self.align.1)?)?,
            DecOp::Subtract => a
                .checked_mul(self.align.0)?
                .checked_sub(b.checked_mul(self.align.1)?)?,
            _ => a.checked_mul(b)?,
        };
        let to_scale = i32::from(self.out.scale);
        if self.scale == to_scale {
            return Some((exact.unsigned_abs() < self.bound).then_some(exact));
        }
        Some(to_decimal_i128(
            exact,
            self.scale,
            self.out.precision,
            to_scale,
        ))
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
    if let Some(r) = ExactI128::new(op, sa, sb, out).and_then(|e| e.apply(a, b)) {
        return Ok(r);
    }
    apply_i256(op, (a, sa), (b, sb), out)
}

/// [`apply`] in exact `i256` arithmetic.
fn apply_i256(
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
            // value = m × 10^(e + sb - sa); |m| <= 10^38 fits in i128
            match m.to_i128() {
                Some(m) if p <= MAX_PRECISION => to_decimal_i128(m, -(e + sb - sa), p, s),
                _ => to_decimal(m, -(e + sb - sa), p, s),
            }
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

fn zero_divisor(dividend: i256) -> DecError {
    if dividend == i256::ZERO {
        DecError("Division undefined")
    } else {
        DecError("Division by zero")
    }
}

/// `a / b` (integers, `b != 0`) rounded HALF_UP to 38 significant digits, as `(m, e)`
/// with value `m × 10^e`: one division of `a × 10^k` by `b`, where `k` is the smallest
/// exponent giving a 39-digit quotient (the 39th digit decides HALF_UP).
fn divide_38_digits(a: i256, b: i256) -> (i256, i32) {
    let negative = a.is_negative() != b.is_negative();
    let (ua, ub) = (a.wrapping_abs(), b.wrapping_abs());
    if ua == i256::ZERO {
        return (i256::ZERO, 0);
    }
    let (da, db) = (digit_count(ua), digit_count(ub));
    let limit = ub.checked_mul(POW10[usize::from(MAX_PRECISION)]);
    let Some(k) = (u32::from(MAX_PRECISION) + db).checked_sub(da) else {
        return divide_38_digits_by_steps(a, b);
    };
    // a·10^k has as many digits as b·10^38, so the quotient has 38 or 39 digits.
    let scaled = |k: u32| POW10.get(k as usize).and_then(|p| ua.checked_mul(*p));
    let (Some(limit), Some(at_k)) = (limit, scaled(k)) else {
        return divide_38_digits_by_steps(a, b);
    };
    let (k, dividend) = if at_k >= limit {
        (k, at_k)
    } else {
        match scaled(k + 1) {
            Some(v) => (k + 1, v),
            None => return divide_38_digits_by_steps(a, b),
        }
    };
    let q = dividend.wrapping_div(ub);
    let ten = i256::from_i128(10);
    let mut m = q.wrapping_div(ten);
    let last = q.wrapping_sub(m.wrapping_mul(ten));
    if last >= i256::from_i128(5) {
        m = m.wrapping_add(i256::ONE);
    }
    let exp = 1 - k as i32;
    (if negative { m.wrapping_neg() } else { m }, exp)
}

/// [`divide_38_digits`] one digit at a time (for operands beyond `10^38`).
fn divide_38_digits_by_steps(a: i256, b: i256) -> (i256, i32) {
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
fn digit_count(v: i256) -> u32 {
    POW10.partition_point(|p| *p <= v) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(p: u8, s: i8) -> DecType {
        DecType {
            precision: p,
            scale: s,
        }
    }

    #[test]
    fn the_i128_path_equals_the_i256_path() {
        let types = [
            t(19, 0),
            t(4, 3),
            t(23, 3),
            t(10, 2),
            t(5, 3),
            t(38, 0),
            t(38, 10),
            t(2, 2),
        ];
        let values = [
            0i128,
            1,
            -1,
            908,
            999_999,
            -12_345_678,
            10i128.pow(37) + 7,
            -(10i128.pow(38) - 1),
            i128::MAX / 3,
        ];
        let (mut fast_paths, mut compared, mut rescaled) = (0, 0, 0);
        for op in [
            DecOp::Add,
            DecOp::Subtract,
            DecOp::Multiply,
            DecOp::Divide,
            DecOp::Mod,
        ] {
            for ta in types {
                for tb in types {
                    let out = result_type(op, ta, tb);
                    let Some(fast) = ExactI128::new(op, ta.scale, tb.scale, out) else {
                        continue;
                    };
                    fast_paths += 1;
                    for a in values
                        .iter()
                        .filter(|v| v.unsigned_abs() < 10u128.pow(ta.precision.into()))
                    {
                        for b in values
                            .iter()
                            .filter(|v| v.unsigned_abs() < 10u128.pow(tb.precision.into()))
                        {
                            let exact =
                                apply_i256(op, (*a, ta.scale), (*b, tb.scale), out).unwrap();
                            if let Some(r) = fast.apply(*a, *b) {
                                assert_eq!(r, exact, "{op:?} {a} {ta:?} {b} {tb:?} -> {out:?}");
                                compared += 1;
                                rescaled += usize::from(fast.scale != i32::from(out.scale));
                            }
                        }
                    }
                }
            }
        }
        assert!(fast_paths > 50, "{fast_paths} fast paths");
        assert!(
            compared > 1000,
            "{compared} results of the fast path compared"
        );
        assert!(
            rescaled > 100,
            "{rescaled} results of the fast path were rounded to the result scale"
        );
        assert!(ExactI128::new(DecOp::Divide, 2, 3, t(19, 8)).is_none());
        assert!(ExactI128::new(DecOp::Add, 2, 3, t(39, 3)).is_none());
    }

    #[test]
    fn result_types_follow_logical_type_merging() {
        assert_eq!(result_type(DecOp::Add, t(10, 2), t(5, 3)), t(12, 3));
        assert_eq!(result_type(DecOp::Multiply, t(10, 2), t(5, 3)), t(16, 5));
        assert_eq!(result_type(DecOp::Divide, t(10, 2), t(5, 3)), t(19, 8));
        assert_eq!(result_type(DecOp::Mod, t(10, 2), t(5, 3)), t(5, 3));
        assert_eq!(result_type(DecOp::Multiply, t(38, 10), t(38, 10)), t(38, 6));
        assert_eq!(result_type(DecOp::Divide, t(38, 18), t(38, 18)), t(38, 6));
        assert_eq!(result_type(DecOp::Add, t(38, 0), t(38, 0)), t(38, 0));
    }

    #[test]
    fn division_rounds_twice_like_big_decimal() {
        // 1/3 at scale 6: 0.333333
        let r = apply(DecOp::Divide, (1, 0), (3, 0), t(10, 6)).unwrap();
        assert_eq!(r, Some(333_333));
        // 2/3 → 0.666667 (HALF_UP)
        let r = apply(DecOp::Divide, (2, 0), (3, 0), t(10, 6)).unwrap();
        assert_eq!(r, Some(666_667));
        // -2/3 → -0.666667
        let r = apply(DecOp::Divide, (-2, 0), (3, 0), t(10, 6)).unwrap();
        assert_eq!(r, Some(-666_667));
        // 1.00 / 0.5 (scale 1) = 2 at scale 6
        let r = apply(DecOp::Divide, (100, 2), (5, 1), t(10, 6)).unwrap();
        assert_eq!(r, Some(2_000_000));
        assert_eq!(
            apply(DecOp::Divide, (1, 0), (0, 0), t(10, 6)),
            Err(DecError("Division by zero"))
        );
        assert_eq!(
            apply(DecOp::Divide, (0, 0), (0, 0), t(10, 6)),
            Err(DecError("Division undefined"))
        );
    }

    #[test]
    fn overflow_is_null_and_rounding_is_half_up() {
        // 99.99 + 0.01 in DECIMAL(4,2) does not fit
        assert_eq!(apply(DecOp::Add, (9999, 2), (1, 2), t(4, 2)), Ok(None));
        // 1.25 * 1 rounded to scale 1 → 1.3; -1.25 → -1.3
        assert_eq!(
            apply(DecOp::Multiply, (125, 2), (1, 0), t(5, 1)),
            Ok(Some(13))
        );
        assert_eq!(
            apply(DecOp::Multiply, (-125, 2), (1, 0), t(5, 1)),
            Ok(Some(-13))
        );
        // remainder follows the dividend's sign
        assert_eq!(apply(DecOp::Mod, (-75, 1), (20, 1), t(3, 1)), Ok(Some(-15)));
        assert_eq!(
            apply(DecOp::Mod, (1, 0), (0, 0), t(3, 1)),
            Err(DecError("Division by zero"))
        );
    }

    #[test]
    fn thirty_eight_digit_quotients_round_first_to_38_digits() {
        // 10^37 / 3 = 3333...3.33 → 38 significant digits 3...3.3
        let a = 10i128.pow(37);
        let r = apply(DecOp::Divide, (a, 0), (3, 0), t(38, 0)).unwrap();
        assert_eq!(r, Some(a / 3));
        // max / 1 stays exact
        let max = 10i128.pow(38) - 1;
        assert_eq!(
            apply(DecOp::Divide, (max, 0), (1, 0), t(38, 0)),
            Ok(Some(max))
        );
    }

    /// The i128 fast paths and the one-division quotient agree with the previous
    /// all-`i256` implementation, at the edges of `i128` rescaling and 38 digits.
    #[test]
    fn agrees_with_reference_implementation() {
        use crate::udf::reference::decimal as old;
        let max = 10i128.pow(38) - 1;
        let mut values = vec![
            0,
            1,
            -1,
            5,
            -5,
            15,
            125,
            -125,
            999,
            10i128.pow(18) + 7,
            max,
            -max,
        ];
        for k in [9u32, 19, 20, 36, 37] {
            let p = 10i128.pow(k);
            values.extend([p, -p, p - 1, p / 2, 5 * p - 1, p / 3, -(p / 7)]);
        }
        let types = [
            t(38, 0),
            t(38, 10),
            t(38, 37),
            t(38, 38),
            t(10, 2),
            t(19, 4),
            t(5, 5),
        ];
        let ops = [
            DecOp::Add,
            DecOp::Subtract,
            DecOp::Multiply,
            DecOp::Divide,
            DecOp::Mod,
        ];
        let mut checked = 0;
        for &a in &values {
            for &b in &values {
                for &ta in &types {
                    for &tb in &types {
                        let fits = |v: i128, ty: DecType| {
                            v.unsigned_abs() < 10u128.pow(u32::from(ty.precision))
                        };
                        if !fits(a, ta) || !fits(b, tb) {
                            continue;
                        }
                        for op in ops {
                            let out = result_type(op, ta, tb);
                            let old_out = old::DecType {
                                precision: out.precision,
                                scale: out.scale,
                            };
                            let old_op = match op {
                                DecOp::Add => old::DecOp::Add,
                                DecOp::Subtract => old::DecOp::Subtract,
                                DecOp::Multiply => old::DecOp::Multiply,
                                DecOp::Divide => old::DecOp::Divide,
                                DecOp::Mod => old::DecOp::Mod,
                            };
                            let new = apply(op, (a, ta.scale), (b, tb.scale), out);
                            let reference =
                                old::apply(old_op, (a, ta.scale), (b, tb.scale), old_out);
                            assert_eq!(
                                new.map_err(|e| e.0),
                                reference.map_err(|e| e.0),
                                "{a} ({ta:?}) {op:?} {b} ({tb:?}) as {out:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 50_000, "only {checked} cases");
    }

    #[test]
    fn i128_rescaling_edges() {
        // 10^37 × 10 at scale 0 → exactly 10^38: overflows DECIMAL(38,0), fits nowhere.
        assert_eq!(to_decimal_i128(10i128.pow(37) * 10, 0, 38, 0), None);
        assert_eq!(
            to_decimal_i128(10i128.pow(38) - 1, 0, 38, 0),
            Some(10i128.pow(38) - 1)
        );
        // scaling up past i128 is NULL, scaling down rounds HALF_UP away from zero
        assert_eq!(to_decimal_i128(2, 0, 38, 38), None);
        assert_eq!(to_decimal_i128(i128::MAX, 40, 38, 0), Some(0));
        assert_eq!(to_decimal_i128(-15, 1, 5, 0), Some(-2));
        assert_eq!(to_decimal_i128(-14, 1, 5, 0), Some(-1));
        assert_eq!(div_pow10_half_up_i128(5 * 10i128.pow(37), 38), 1);
        assert_eq!(div_pow10_half_up_i128(5 * 10i128.pow(37) - 1, 38), 0);
        // i128::MAX × 1 at scale 0 → 39 digits → NULL through the i256 fallback.
        assert_eq!(
            apply(DecOp::Multiply, (i128::MAX, 0), (1, 0), t(38, 0)),
            Ok(None)
        );
        // an i128-overflowing product that rounds back into range takes the i256 path
        let big = 10i128.pow(37);
        assert_eq!(
            apply(DecOp::Multiply, (big, 37), (big, 37), t(38, 6)),
            Ok(Some(1_000_000))
        );
    }
}
