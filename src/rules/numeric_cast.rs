//! The exact reference of casts between decimals and integers or floats,
//! with big integers and exact fractions (no float arithmetic).
//!
//! - decimal to integer: `round(a / 10^s)` with a mode, then `T`'s range;
//! - integer to decimal: `round(n * 10^s')`, then the precision;
//! - decimal to float: the float nearest `a / 10^s` (ties to the even
//!   significand), found from the exact fraction by integer division
//!   ([`nearest_float`]), with IEEE 754's subnormals and overflow to
//!   infinity;
//! - float to decimal: the float's exact binary value `m * 2^e` (or its
//!   shortest round-trip text, for Spark and Presto) times `10^s'`, rounded
//!   once.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::rules::reference::round;
use crate::types::RoundingMode;
use crate::values::text::pow10;

/// The binary format of a float type: what [`nearest_float`] rounds to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FloatFormat {
    /// Significand bits, the implicit one included (53, 24).
    pub(crate) significand_bits: u32,
    /// The exponent of the smallest subnormal's unit (-1074, -149).
    pub(crate) min_exponent: i32,
    /// The largest biased exponent of a finite value (2046, 254).
    pub(crate) max_biased: i64,
}

/// `f64`'s format.
pub(crate) const F64: FloatFormat =
    FloatFormat { significand_bits: 53, min_exponent: -1074, max_biased: 2046 };
/// `f32`'s format.
pub(crate) const F32: FloatFormat =
    FloatFormat { significand_bits: 24, min_exponent: -149, max_biased: 254 };

/// `n * 2^shift` for a shift of either sign, as a fraction `(num, den)`.
fn times_power_of_two(n: &BigInt, shift: i64) -> (BigInt, BigInt) {
    let bits = usize::try_from(shift.unsigned_abs()).unwrap_or(usize::MAX);
    if shift >= 0 { (n << bits, BigInt::one()) } else { (n.clone(), BigInt::one() << bits) }
}

/// The bits of the float of `format` nearest `n / d` (`n >= 0`, `d > 0`),
/// ties to the even significand; positive, an infinity when beyond the
/// largest finite value. The sign is the caller's.
pub(crate) fn nearest_float(n: &BigInt, d: &BigInt, format: FloatFormat) -> u64 {
    let p = i64::from(format.significand_bits);
    let fraction_bits = p - 1;
    let infinity = u64::try_from(format.max_biased + 1).unwrap_or(0) << fraction_bits;
    if n.is_zero() {
        return 0;
    }
    // e with 2^(p-1) <= n / d / 2^e < 2^p, then corrected by one either way.
    let log2 = i64::try_from(n.bits()).unwrap_or(i64::MAX) - i64::try_from(d.bits()).unwrap_or(0);
    let mut e = (log2 - p).max(i64::from(format.min_exponent));
    let quotient = |e: i64| {
        let (num, den) = times_power_of_two(n, -e);
        let den = den * d;
        let (q, r) = num.div_rem(&den);
        (q, r, den)
    };
    let (mut q, mut r, mut den) = quotient(e);
    let top = BigInt::one() << fraction_bits;
    while q >= (&top << 1u8) {
        e += 1;
        (q, r, den) = quotient(e);
    }
    while q < top && e > i64::from(format.min_exponent) {
        e -= 1;
        (q, r, den) = quotient(e);
    }
    let twice = &r * 2u8;
    if twice > den || (twice == den && q.is_odd()) {
        q += 1u8;
        if q == (&top << 1u8) {
            q = top.clone();
            e += 1;
        }
    }
    let significand = q.to_u64().unwrap_or(0);
    let biased = if significand >= (1u64 << fraction_bits) {
        e - i64::from(format.min_exponent) + 1
    } else {
        0
    };
    if biased > format.max_biased {
        return infinity;
    }
    (u64::try_from(biased).unwrap_or(0) << fraction_bits)
        | (significand & ((1u64 << fraction_bits) - 1))
}

/// The float nearest the decimal `a * 10^-scale` (ties to even), as an `f64`
/// of `format` widened exactly (for `F32`, an `f32` value).
pub(crate) fn decimal_to_float(a: &BigInt, scale: i8, format: FloatFormat) -> f64 {
    let power = pow10(u32::from(scale.unsigned_abs()));
    let (n, d) = if scale >= 0 { (a.abs(), power) } else { (a.abs() * power, BigInt::one()) };
    let bits = nearest_float(&n, &d, format);
    let magnitude = if format.significand_bits == F32.significand_bits {
        f64::from(f32::from_bits(u32::try_from(bits).unwrap_or(0)))
    } else {
        f64::from_bits(bits)
    };
    if a.is_negative() { -magnitude } else { magnitude }
}

/// The exact value of the finite `x` as a fraction `(num, den)`, `den` a
/// power of two; `None` for NaN and infinities.
pub(crate) fn float_fraction(x: f64) -> Option<(BigInt, BigInt)> {
    if !x.is_finite() {
        return None;
    }
    let bits = x.to_bits();
    let biased = i64::try_from((bits >> 52) & 0x7ff).unwrap_or(0);
    let fraction = bits & ((1u64 << 52) - 1);
    let (significand, exponent) =
        if biased == 0 { (fraction, -1074) } else { (fraction | (1u64 << 52), biased - 1075) };
    let n = BigInt::from(significand);
    let n = if x.is_sign_negative() { -n } else { n };
    Some(times_power_of_two(&n, exponent))
}

/// `num / den * 10^scale` rounded once with `mode` (the stored integer of
/// a fraction at `scale`).
pub(crate) fn fraction_at_scale(
    num: &BigInt,
    den: &BigInt,
    scale: i8,
    mode: RoundingMode,
) -> BigInt {
    let power = pow10(u32::from(scale.unsigned_abs()));
    if scale >= 0 { round(&(num * power), den, mode) } else { round(num, &(den * power), mode) }
}

/// The shortest round-trip decimal text of `x` (Rust's `Display`, the same
/// digits as Java's `Double.toString` but for the cases in
/// `docs/semantics.md#numeric-casts`) as a fraction `(num, den)`, `den` a power of
/// ten; `None` for NaN and infinities.
pub(crate) fn shortest_text_fraction(x: f64) -> Option<(BigInt, BigInt)> {
    if !x.is_finite() {
        return None;
    }
    let text = format!("{x}");
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let (integer, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits: BigInt = format!("{integer}{fraction}").parse().ok()?;
    let den = pow10(u32::try_from(fraction.len()).ok()?);
    Some((if negative { -digits } else { digits }, den))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::one(1, 0, 1.0)]
    #[case::tenth(1, 1, 0.1)]
    #[case::two_pow_53_plus_one(9_007_199_254_740_993, 0, 9_007_199_254_740_992.0)]
    #[case::two_pow_53_plus_three(9_007_199_254_740_995, 0, 9_007_199_254_740_996.0)]
    #[case::smallest_normal_region(22_250_738_585_072_014, 324, 2.225_073_858_507_201_4e-308)]
    #[case::smallest_subnormal(5, 324, 5e-324)]
    #[case::below_half_the_smallest_subnormal(2, 324, 0.0)]
    #[case::beyond_max(18, -308, f64::INFINITY)]
    fn nearest_f64(#[case] a: u64, #[case] scale: i32, #[case] want: f64) {
        // `a * 10^-scale`; scales beyond a decimal's reach the subnormals.
        let power = pow10(scale.unsigned_abs());
        let (n, d) = if scale >= 0 { (BigInt::from(a), power) } else { (a * power, BigInt::one()) };
        let got = f64::from_bits(nearest_float(&n, &d, F64));
        assert_eq!(got.to_bits(), want.to_bits(), "{a}e{}: {got:e} != {want:e}", -scale);
    }

    #[test]
    fn a_negative_decimal_is_the_negated_nearest_float() {
        assert_eq!(decimal_to_float(&BigInt::from(-7), -3, F64), -7000.0);
    }

    #[rstest]
    #[case::tenth(1, 1, 0.1)]
    #[case::two_pow_24_plus_one(16_777_217, 0, 16_777_216.0)]
    #[case::beyond_max(4, -38, f32::INFINITY)]
    fn nearest_f32(#[case] a: i64, #[case] scale: i8, #[case] want: f32) {
        let got = decimal_to_float(&BigInt::from(a), scale, F32);
        assert_eq!(got, f64::from(want));
    }

    #[test]
    fn a_float_is_its_exact_binary_value() {
        let (n, d) = float_fraction(0.1).expect("finite");
        // 0.1 is 3602879701896397 / 2^55.
        assert_eq!(n << 55u8, BigInt::from(3_602_879_701_896_397_u64) * d);
        assert!(float_fraction(f64::NAN).is_none());
    }
}
