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

/// The stored integer of `text` in `dtype`, exactly.
pub(crate) fn parse(text: &str, dtype: DecimalType) -> Result<BigInt, DecimalError> {
    let fail = |reason| DecimalError::Parse { row: 0, text: text.to_owned(), dtype, reason };
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (integer, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    if integer.is_empty() && fraction.is_empty() {
        return Err(fail("no digits"));
    }
    if !integer.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit()) {
        return Err(fail("only digits, one optional sign and one optional '.' are allowed"));
    }
    // Leading integer zeros and trailing fraction zeros carry no value.
    let integer = integer.trim_start_matches('0');
    let fraction = fraction.trim_end_matches('0');
    if integer.len() + fraction.len() > MAX_SIGNIFICANT_DIGITS {
        return Err(fail("more digits than any decimal holds"));
    }
    let digits = format!("{integer}{fraction}");
    let magnitude = if digits.is_empty() {
        BigInt::zero()
    } else {
        digits.parse::<BigInt>().map_err(|_| fail("not a number"))?
    };
    // The text means magnitude * 10^-fraction_len; stored = that * 10^scale.
    let exponent = i64::from(dtype.scale()) - fraction.len() as i64;
    let stored = if exponent >= 0 {
        magnitude * pow10(exponent.unsigned_abs() as u32)
    } else {
        let divisor = pow10(exponent.unsigned_abs() as u32);
        if !(&magnitude % &divisor).is_zero() {
            return Err(fail(if dtype.scale() >= 0 {
                "more fraction digits than the scale"
            } else {
                "not a multiple of the type's power of ten"
            }));
        }
        magnitude / divisor
    };
    if stored > precision_limit(dtype.precision()) {
        return Err(fail("more digits than the precision"));
    }
    Ok(if negative { -stored } else { stored })
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
    fn parses(#[case] text: &str, #[case] dtype: DecimalType, #[case] stored: i64) {
        assert_eq!(parse(text, dtype).unwrap(), BigInt::from(stored));
    }

    #[rstest]
    #[case::empty("", t(5, 2))]
    #[case::sign_only("-", t(5, 2))]
    #[case::point_only(".", t(5, 2))]
    #[case::letters("1a", t(5, 2))]
    #[case::exponent("1e5", t(5, 2))]
    #[case::two_points("1.2.3", t(5, 2))]
    #[case::space(" 1", t(5, 2))]
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
