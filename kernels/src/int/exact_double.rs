//! Truncating quotients and remainders of integers below `2^51` in
//! magnitude, computed exactly in double precision: the form of a quotient
//! row that vectorizes on every x86-64 level (SSE2 lanes hold two doubles,
//! AVX2 four, AVX-512 eight), where a hardware `idiv` per row takes about
//! ten cycles and never vectorizes.
//!
//! For `|n|, |d| < 2^51`, `d != 0`, with `N = |n|`, `D = |d|` (exact as
//! doubles):
//!
//! ```text
//! Q = nearest(N / D)       // or nearest(N * (1 / D)): within 1/2 of N/D,
//!                          // so Q is floor(N/D) - 1, floor(N/D) or + 1
//! R = N - Q*D              // exact: Q*D <= N + D < 2^52, an integer
//! if R < 0:  Q -= 1, R += D
//! if R >= D: Q += 1, R -= D
//! q = ±Q (n's sign times d's), r = ±R (n's sign)
//! ```
//!
//! A correctly rounded `N / D` is within half an ulp of the quotient, and
//! `N * (1 / D)` within two roundings of `2^-53`: below `2^51` either is
//! within `1/2` of `N / D`. `nearest` and the conversions between `i64` and
//! `f64` add and subtract `1.5 · 2^52`, whose neighbourhood holds integers
//! below `2^51` in the low bits of the mantissa; they are integer and
//! floating-point adds, which every vector level has (the classic "magic
//! number" conversions). Inputs outside the bounds give wrong values, never
//! undefined behaviour or a trap: float division by zero and NaN do not
//! trap.

/// Dividends and divisors must stay below `2^OPERAND_BITS` in magnitude.
pub(crate) const OPERAND_BITS: u32 = 51;

/// `1.5 · 2^52`: doubles within `2^51` of it are integers, held in the low
/// bits of the mantissa.
const BIAS: f64 = 6_755_399_441_055_744.0;

/// `n` as a double, exact for `|n| < 2^51`.
#[inline(always)]
#[must_use]
pub(crate) fn to_f64(n: i64) -> f64 {
    f64::from_bits(n.wrapping_add(BIAS.to_bits().cast_signed()).cast_unsigned()) - BIAS
}

/// The integer `v` (integer-valued, `|v| < 2^51`) as `i64`.
#[inline(always)]
#[must_use]
pub(crate) fn to_i64(v: f64) -> i64 {
    (v + BIAS).to_bits().wrapping_sub(BIAS.to_bits()).cast_signed()
}

/// The nearest integer to `|v| < 2^51`, as a double (ties to even).
#[inline(always)]
#[must_use]
pub(crate) fn nearest(v: f64) -> f64 {
    (v + BIAS) - BIAS
}

/// The bits of `1.5 · 2^52`: the bits of `BIAS + n` are `BIAS_BITS + n` for
/// every integer `|n| < 2^51`.
pub(crate) const BIAS_BITS: u64 = BIAS.to_bits();

/// The nearest integer `n` to `|v| < 2^51`, as a double and as the bits of
/// `BIAS + n`, that is `BIAS_BITS + n` (wrapping): for a caller that folds
/// the bias of several such integers into one constant.
#[inline(always)]
#[must_use]
pub(crate) fn nearest_biased(v: f64) -> (f64, u64) {
    let biased = v + BIAS;
    (biased - BIAS, biased.to_bits())
}

/// The nearest integer to `|v| < 2^51`, as a double and as `i64`: one add
/// fewer than [`nearest`] and [`to_i64`] in turn.
#[inline(always)]
#[must_use]
pub(crate) fn nearest_both(v: f64) -> (f64, i64) {
    let biased = v + BIAS;
    (biased - BIAS, biased.to_bits().wrapping_sub(BIAS.to_bits()).cast_signed())
}

/// `v` with sign bit `sign` (`0` or `1 << 63`) flipped in.
#[inline(always)]
#[must_use]
pub(crate) fn with_sign(v: f64, sign: u64) -> f64 {
    f64::from_bits(v.to_bits() ^ sign)
}

/// The sign bit of `v`, alone.
#[inline(always)]
#[must_use]
pub(crate) fn sign_bits(v: f64) -> u64 {
    v.to_bits() & (1 << 63)
}

/// `(floor(n / d), n mod d)` for integers `0 <= n < 2^51` and
/// `0 < d < 2^51`, from `q`, the nearest integer to an estimate of `n / d`
/// within `1/2` of it (see the header).
#[inline(always)]
#[must_use]
pub(crate) fn floor_div_rem(n: f64, d: f64, q: f64) -> (f64, f64) {
    let r = n - q * d;
    // Selects rather than branches: which way an estimate errs depends on
    // the data.
    let low = r < 0.0;
    let (q, r) = (if low { q - 1.0 } else { q }, if low { r + d } else { r });
    let high = r >= d;
    (if high { q + 1.0 } else { q }, if high { r - d } else { r })
}

/// [`floor_div_rem`] of `n` by `d`, by a correctly rounded division.
#[inline(always)]
#[must_use]
pub(crate) fn floor_div_rem_by_division(n: f64, d: f64) -> (f64, f64) {
    floor_div_rem(n, d, nearest(n / d))
}

/// [`floor_div_rem`] of `n` by `d`, from `inverse = 1 / d`.
#[inline(always)]
#[must_use]
pub(crate) fn floor_div_rem_by_inverse(n: f64, d: f64, inverse: f64) -> (f64, f64) {
    floor_div_rem(n, d, nearest(n * inverse))
}

/// Whether `q`, an integer below `2^51`, is odd.
#[inline(always)]
#[must_use]
pub(crate) fn is_odd(q: f64) -> bool {
    let half = q * 0.5;
    half != nearest(half)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rstest::rstest;

    /// The largest operand.
    const MOST: i64 = (1 << OPERAND_BITS) - 1;

    /// Truncating `(n / d, n % d)` from the building blocks, as the kernels
    /// compose them.
    fn div_rem(n: i64, d: i64) -> (i64, i64) {
        let (n, d) = (to_f64(n), to_f64(d));
        let (q, r) = floor_div_rem_by_division(n.abs(), d.abs());
        let q = with_sign(q, sign_bits(n) ^ sign_bits(d));
        (to_i64(q), to_i64(with_sign(r, sign_bits(n))))
    }

    /// [`div_rem`] by a positive divisor's reciprocal.
    fn div_rem_by(n: i64, d: i64) -> (i64, i64) {
        let (n, d) = (to_f64(n), to_f64(d));
        let (q, r) = floor_div_rem_by_inverse(n.abs(), d, 1.0 / d);
        (to_i64(with_sign(q, sign_bits(n))), to_i64(with_sign(r, sign_bits(n))))
    }

    #[track_caller]
    fn assert_exact(n: i64, d: i64) {
        for (n, d) in [(n, d), (-n, d), (n, -d), (-n, -d)] {
            let want = (n / d, n % d);
            assert_eq!(div_rem(n, d), want, "{n} / {d}");
            let positive = if d < 0 { (-n, -d) } else { (n, d) };
            let by = div_rem_by(positive.0, positive.1);
            assert_eq!(by, (positive.0 / positive.1, positive.0 % positive.1), "{n} / {d} by");
        }
    }

    #[rstest]
    #[case::exact(100, 10)]
    #[case::one_below_a_multiple(99, 10)]
    #[case::zero_dividend(0, 5)]
    #[case::divisor_larger(3, 7)]
    #[case::largest_over_one(MOST, 1)]
    #[case::largest_over_three(MOST, 3)]
    #[case::largest_over_itself(MOST, MOST)]
    #[case::largest_over_one_less(MOST, MOST - 1)]
    #[case::one_less_over_largest(MOST - 1, MOST)]
    #[case::near_integer_quotient(999_999_999_999_999, 999_999_999)]
    #[case::money_over_a_rate(99_999_999_999_999, 1_000_003)]
    #[case::quotient_just_below_two(MOST - 1, MOST / 2 + 1)]
    fn cases(#[case] n: i64, #[case] d: i64) {
        assert_exact(n, d);
    }

    #[rstest]
    #[case::zero(0.0, false)]
    #[case::one(1.0, true)]
    #[case::two(2.0, false)]
    #[case::largest(((1u64 << OPERAND_BITS) - 1) as f64, true)]
    #[case::largest_even(((1u64 << OPERAND_BITS) - 2) as f64, false)]
    fn parity(#[case] q: f64, #[case] odd: bool) {
        assert_eq!(is_odd(q), odd);
    }

    #[test]
    fn every_small_pair() {
        for n in -300..=300 {
            for d in (-40i64..=40).filter(|&d| d != 0) {
                assert_eq!(div_rem(n, d), (n / d, n % d), "{n} / {d}");
                if d > 0 {
                    assert_eq!(div_rem_by(n, d), (n / d, n % d), "{n} / {d}");
                }
            }
        }
    }

    #[rstest]
    #[case::zero_divisor(12345, 0)]
    #[case::beyond_the_bound(i64::MAX, 3)]
    #[case::smallest(i64::MIN, -1)]
    #[case::both_beyond(i64::MIN, i64::MAX)]
    fn inputs_outside_the_bounds_return(#[case] n: i64, #[case] d: i64) {
        // Any value: no trap, no undefined behaviour.
        let _ = div_rem(n, d);
        let _ = div_rem_by(n, d);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn matches_hardware_division(n in -MOST..=MOST, d in 1i64..=MOST, shift in 0u32..51, negative in any::<bool>()) {
            let d = (d >> shift).max(1);
            prop_assert_eq!(div_rem_by(n, d), (n / d, n % d));
            let d = if negative { -d } else { d };
            prop_assert_eq!(div_rem(n, d), (n / d, n % d));
        }

        #[test]
        fn quotients_near_integers(q in -(1i64 << 30)..(1 << 30), d in 1i64..(1 << 20), r in -1i64..=1) {
            let n = q * d + r;
            prop_assert_eq!(div_rem(n, d), (n / d, n % d));
            prop_assert_eq!(div_rem_by(n, d), (n / d, n % d));
        }
    }
}
