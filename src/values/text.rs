//! Canonical text: parsing and printing decimal values (docs/semantics.md#text).

use arrow_buffer::i256;
use num_bigint::{BigInt, Sign};
use num_traits::{Signed, Zero};

use crate::types::DecimalError;
use crate::types::DecimalType;

/// Digits beyond any decimal's reach: longer text is rejected before any
/// arithmetic is spent on it.
const MAX_SIGNIFICANT_DIGITS: usize = 160;

/// `10^k`.
pub(crate) fn pow10(k: u32) -> BigInt {
    BigInt::from(10u8).pow(k)
}

/// `10^p - 1`, the largest magnitude of precision `p`.
pub(crate) fn precision_limit(precision: u8) -> BigInt {
    pow10(precision.into()) - 1u8
}

/// The reason given for text outside the grammar of [`scan`] (both modes).
pub(crate) const GRAMMAR: &str =
    "only an optional sign, digits with one optional '.', an optional exponent and surrounding whitespace are allowed";

/// A decimal text taken apart by [`scan`]: its value is
/// `±(integer ++ fraction) · 10^(exponent − fraction.len())`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scanned<'t> {
    /// A leading `-`.
    pub(crate) negative: bool,
    /// The digits before the point (ASCII digits, possibly none).
    pub(crate) integer: &'t [u8],
    /// The digits after the point (ASCII digits, possibly none).
    pub(crate) fraction: &'t [u8],
    /// The exponent after `e` or `E`, saturated at `i64`'s bounds (any
    /// exponent that large moves every non-zero digit beyond every decimal).
    pub(crate) exponent: Option<i64>,
}

impl Scanned<'_> {
    /// Whether there is a digit before or after the point.
    pub(crate) fn has_digits(&self) -> bool {
        !self.integer.is_empty() || !self.fraction.is_empty()
    }
}

/// `text` taken apart as
/// `[whitespace] [+|-] [digits] [. [digits]] [(e|E) [+|-] digits] [whitespace]`,
/// whitespace being ASCII's (`u8::is_ascii_whitespace`). Mantissa digits are
/// not required here: [`Scanned::has_digits`] tells. One pass over the bytes.
///
/// # Errors
/// The reason, for any other character or an exponent without digits.
// Inlined into the cast's row loop: the parts stay in registers.
#[inline(always)]
pub(crate) fn scan(text: &str) -> Result<Scanned<'_>, &'static str> {
    let (negative, rest) = split_sign(text.as_bytes().trim_ascii());
    let (integer, rest) = split_digits(rest);
    let (fraction, rest) = match rest.split_first() {
        Some((b'.', after)) => split_digits(after),
        _ => (&[][..], rest),
    };
    let exponent = match rest.split_first() {
        None => None,
        Some((b'e' | b'E', after)) => Some(scan_exponent(after).ok_or(GRAMMAR)?),
        Some(_) => return Err(GRAMMAR),
    };
    Ok(Scanned { negative, integer, fraction, exponent })
}

/// An optional leading sign: whether it is `-`, and what follows it.
fn split_sign(bytes: &[u8]) -> (bool, &[u8]) {
    match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, bytes),
    }
}

/// The leading ASCII digits of `bytes`, and what follows them.
fn split_digits(bytes: &[u8]) -> (&[u8], &[u8]) {
    let digits = bytes.iter().position(|b| !b.is_ascii_digit()).unwrap_or(bytes.len());
    bytes.split_at(digits)
}

/// `[+|-] digits` (all of `bytes`), saturated at `i64`'s bounds.
fn scan_exponent(bytes: &[u8]) -> Option<i64> {
    let (negative, digits) = split_sign(bytes);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let magnitude =
        digits.iter().fold(0_i64, |e, &d| e.saturating_mul(10).saturating_add(i64::from(d - b'0')));
    Some(if negative { -magnitude } else { magnitude })
}

/// The stored integer of `text` in `dtype`, read exactly: the grammar of
/// [`scan`] (the one `cast::parse` reads, docs/semantics.md#text), and a value
/// that would need rounding to the scale, or more digits than the precision,
/// is refused rather than rounded.
pub(crate) fn parse(text: &str, dtype: DecimalType) -> Result<BigInt, DecimalError> {
    let fail = |reason| DecimalError::Parse { row: 0, text: text.to_owned(), dtype, reason };
    let scanned = scan(text).map_err(fail)?;
    if !scanned.has_digits() {
        return Err(fail("no digits"));
    }
    let Scanned { negative, integer, fraction, exponent, .. } = scanned;
    // The significant digits (without leading or trailing zeros, which carry
    // no value) and the power of ten of the last one, so that neither a long
    // run of zeros nor a large exponent costs any arithmetic.
    let integer = strip_leading_zeros(integer);
    let fraction = strip_trailing_zeros(fraction);
    let (high, low, last_power) = if !fraction.is_empty() {
        let low = if integer.is_empty() { strip_leading_zeros(fraction) } else { fraction };
        (integer, low, -(fraction.len() as i128))
    } else {
        let kept = strip_trailing_zeros(integer);
        (kept, &[][..], (integer.len() - kept.len()) as i128)
    };
    let digits = high.len() + low.len();
    if digits == 0 {
        return Ok(BigInt::zero());
    }
    if digits > MAX_SIGNIFICANT_DIGITS {
        return Err(fail("more digits than any decimal holds"));
    }
    // The stored integer is the digits times 10^shift: exact only when the
    // shift is not negative.
    let shift = last_power + i128::from(exponent.unwrap_or(0)) + i128::from(dtype.scale());
    if shift < 0 {
        return Err(fail(if dtype.scale() >= 0 {
            "more fraction digits than the scale"
        } else {
            "not a multiple of the type's power of ten"
        }));
    }
    if digits as i128 + shift > i128::from(dtype.precision()) {
        return Err(fail("more digits than the precision"));
    }
    // At most 76 digits in all, so the shift is small.
    let stored = digits_value(high.iter().chain(low)) * pow10(shift as u32);
    Ok(if negative { -stored } else { stored })
}

/// The integer the ASCII `digits` spell, exactly.
pub(crate) fn digits_value<'d>(digits: impl Iterator<Item = &'d u8>) -> BigInt {
    // Nineteen digits at a time fit a u64: one big multiplication per chunk.
    let mut value = BigInt::zero();
    let (mut chunk, mut chunk_len) = (0_u64, 0_u32);
    for &d in digits {
        chunk = chunk * 10 + u64::from(d - b'0');
        chunk_len += 1;
        if chunk_len == 19 {
            value = value * pow10(chunk_len) + chunk;
            (chunk, chunk_len) = (0, 0);
        }
    }
    value * pow10(chunk_len) + chunk
}

/// `digits` without its leading `0`s.
pub(crate) fn strip_leading_zeros(digits: &[u8]) -> &[u8] {
    let start = digits.iter().position(|&b| b != b'0').unwrap_or(digits.len());
    &digits[start..]
}

/// `digits` without its trailing `0`s.
pub(crate) fn strip_trailing_zeros(digits: &[u8]) -> &[u8] {
    let end = digits.iter().rposition(|&b| b != b'0').map_or(0, |i| i + 1);
    &digits[..end]
}

/// The canonical text of stored integer `value` at `scale`: optional `-`,
/// integer digits, and for a positive scale exactly `scale` fraction digits.
pub(crate) fn format(value: &BigInt, scale: i8) -> String {
    let sign = if value.is_negative() { "-" } else { "" };
    let magnitude = value.abs();
    if scale <= 0 {
        let shifted = magnitude * pow10(u32::from(scale.unsigned_abs()));
        return format!("{sign}{shifted}");
    }
    let scale = usize::from(scale.unsigned_abs());
    let digits = format!("{magnitude:0>width$}", width = scale + 1);
    let (integer, fraction) = digits.split_at(digits.len() - scale);
    format!("{sign}{integer}.{fraction}")
}

/// An `i256` as a big integer.
pub(crate) fn i256_to_bigint(v: i256) -> BigInt {
    BigInt::from_signed_bytes_le(&v.to_le_bytes())
}

/// A big integer as an `i256`, if it fits.
pub(crate) fn bigint_to_i256(v: &BigInt) -> Option<i256> {
    let bytes = v.to_signed_bytes_le();
    if bytes.len() > 32 {
        return None;
    }
    let fill = if v.sign() == Sign::Minus { 0xff } else { 0 };
    let mut le = [fill; 32];
    le[..bytes.len()].copy_from_slice(&bytes);
    Some(i256::from_le_bytes(le))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn t(p: u8, s: i8) -> DecimalType {
        DecimalType::try_new(p, s).unwrap()
    }

    #[rstest]
    #[case::plain("1.50", t(10, 2), 150)]
    #[case::negative("-2.25", t(10, 2), -225)]
    #[case::plus_sign("+2.25", t(10, 2), 225)]
    #[case::short_fraction("1.5", t(10, 2), 150)]
    #[case::insignificant_zeros("001.500", t(10, 2), 150)]
    #[case::no_fraction("7", t(10, 2), 700)]
    #[case::negative_zero("-0.00", t(3, 2), 0)]
    #[case::negative_scale("500", t(5, -2), 5)]
    #[case::largest("999.99", t(5, 2), 99_999)]
    #[case::leading_point(".5", t(3, 1), 5)]
    #[case::padded(" 7 ", t(10, 2), 700)]
    #[case::exponent("1e3", t(10, 2), 100_000)]
    #[case::negative_exponent("-12.5E-1", t(10, 2), -125)]
    #[case::exponent_and_zeros("1000e-3", t(3, 0), 1)]
    #[case::zero_with_any_exponent("0.000e99999999999999999999", t(3, 2), 0)]
    fn parses(#[case] text: &str, #[case] dtype: DecimalType, #[case] stored: i64) {
        assert_eq!(parse(text, dtype).unwrap(), BigInt::from(stored));
    }

    #[rstest]
    #[case::empty("", t(5, 2))]
    #[case::sign_only("-", t(5, 2))]
    #[case::point_only(".", t(5, 2))]
    #[case::letters("1a", t(5, 2))]
    #[case::exponent_beyond_precision("1e5", t(5, 2))]
    #[case::exponent_needs_rounding("1.5e-3", t(5, 2))]
    #[case::huge_exponent("1e99999999999999999999", t(76, 0))]
    #[case::exponent_without_digits("1e", t(5, 2))]
    #[case::space_inside("1 000", t(5, 2))]
    #[case::two_points("1.2.3", t(5, 2))]
    #[case::too_many_fraction_digits("1.234", t(5, 2))]
    #[case::too_many_integer_digits("1000.00", t(5, 2))]
    #[case::not_a_multiple("550", t(5, -2))]
    #[case::huge(
        "9999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999",
        t(76, 0)
    )]
    fn rejects(#[case] text: &str, #[case] dtype: DecimalType) {
        assert!(matches!(parse(text, dtype), Err(DecimalError::Parse { .. })), "{text:?}");
    }

    #[rstest]
    #[case::fraction(150, 2, "1.50")]
    #[case::small_fraction(5, 2, "0.05")]
    #[case::negative_small(-5, 3, "-0.005")]
    #[case::zero(0, 2, "0.00")]
    #[case::integer(42, 0, "42")]
    #[case::negative_scale(5, -2, "500")]
    #[case::negative_zero_scale(0, -2, "0")]
    fn formats(#[case] stored: i64, #[case] scale: i8, #[case] text: &str) {
        assert_eq!(format(&BigInt::from(stored), scale), text);
    }

    #[test]
    fn i256_round_trips() {
        for v in [i256::MIN, i256::MAX, i256::ZERO, i256::MINUS_ONE, i256::from_i128(i128::MIN)] {
            assert_eq!(bigint_to_i256(&i256_to_bigint(v)), Some(v));
        }
        assert_eq!(bigint_to_i256(&(i256_to_bigint(i256::MAX) + 1u8)), None);
    }
}
