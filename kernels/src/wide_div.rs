//! Division of a 256-bit integer by one below `2^128` when the quotient fits
//! 128 bits: the per-row divide of the `I256` work type.
//!
//! A quotient row in `I256` (Arrow's `decimal(60,10) / decimal(40,10)`: a
//! dividend of about 180 bits once scaled by `10^14`, a divisor of 127 bits)
//! rarely needs a general 256-bit long division: its divisor fits two 64-bit
//! words and its quotient one or two. The divisor differs per row, so it is
//! prepared per row, once for both quotient words.
//!
//! Method: N. Möller and T. Granlund, "Improved division by invariant
//! integers", IEEE Transactions on Computers 60(2), 2011: Algorithm 5 (a
//! three-word by two-word division by a normalized divisor `d = (d1, d0)`,
//! `d1 >= 2^63`, with the reciprocal `v = floor((2^192 - 1) / d) - 2^64`)
//! and Algorithm 6 (that reciprocal from `v1 = floor((2^128 - 1) / d1) -
//! 2^64`, which one hardware divide gives). The schoolbook frame around it
//! is Algorithm D of D. E. Knuth, *The Art of Computer Programming*, vol. 2,
//! section 4.3.1, with base `2^64`.
//!
//! For `n < 2^256` and `0 < d < 2^128` with `n < d * 2^128` (so the quotient
//! is below `2^128`): shift both left by `s`, the leading zeros of `d` as a
//! 128-bit word, so that `d' = d * 2^s` has its top bit set; `n' = n * 2^s`
//! still fits 256 bits (it is below `d' * 2^128`). Writing `n'` as four words
//! `(u3, u2, u1, u0)`, `(u3, u2) < d'`, and two steps of Algorithm 5 give the
//! quotient's words: `(u3, u2, u1)` by `d'` gives `q1` and a remainder
//! `(r1, r0) < d'`, `(r1, r0, u0)` by `d'` gives `q0` and the remainder of
//! `n'`, which is `2^s` times that of `n`. A divisor below `2^64` takes the
//! same path with `d0 = 0`. A quotient below `2^64` (`n' < d' * 2^64`) has
//! `q1 = 0` and skips the first step.
//!
//! Cost: one 128-by-64-bit hardware divide and about eight 64-bit multiplies
//! per row, against two general 256-bit divisions (a quotient and a
//! remainder) before.

use ethnum::{I256, U256};

/// `floor((2^128 - 1) / d) - 2^64` for `d >= 2^63` (Möller–Granlund's
/// `reciprocal_word`): `(2^128 - 1) - d * 2^64 = !d * 2^64 + (2^64 - 1)`,
/// and `!d < d`, so the quotient is below `2^64`.
#[inline(always)]
fn reciprocal_word(d: u64) -> u64 {
    // The top bit is already set; setting it again shows the compiler the
    // divisor is not zero.
    let d = u128::from(d | 1 << 63);
    (((u128::from(!(d as u64))) << 64 | u128::from(u64::MAX)) / d) as u64
}

/// `floor((2^192 - 1) / (d1, d0)) - 2^64` for `d1 >= 2^63` (Algorithm 6).
#[inline(always)]
fn reciprocal_3by2(d1: u64, d0: u64) -> u64 {
    let mut v = reciprocal_word(d1);
    let (mut p, carry) = d1.wrapping_mul(v).overflowing_add(d0);
    if carry {
        v = v.wrapping_sub(1);
        if p >= d1 {
            v = v.wrapping_sub(1);
            p = p.wrapping_sub(d1);
        }
        p = p.wrapping_sub(d1);
    }
    let t = u128::from(v) * u128::from(d0);
    let (t1, t0) = ((t >> 64) as u64, t as u64);
    let (p, carry) = p.overflowing_add(t1);
    if carry {
        v = v.wrapping_sub(1);
        if (p, t0) >= (d1, d0) {
            v = v.wrapping_sub(1);
        }
    }
    v
}

/// `((u2, u1, u0) / d, (u2, u1, u0) % d)` for `(u2, u1) < d = (d1, d0)`,
/// `d1 >= 2^63`, and `v` from [`reciprocal_3by2`] (Algorithm 5). The two
/// adjustments are masks, not branches: the first is taken often, on no
/// pattern.
#[inline(always)]
fn div_3by2(u2: u64, u1: u64, u0: u64, d: u128, v: u64) -> (u64, u128) {
    let (d1, d0) = ((d >> 64) as u64, d as u64);
    let q = (u128::from(v) * u128::from(u2)).wrapping_add(u128::from(u2) << 64 | u128::from(u1));
    let (q1, q0) = ((q >> 64) as u64, q as u64);
    let r1 = u1.wrapping_sub(q1.wrapping_mul(d1));
    let t = u128::from(d0) * u128::from(q1);
    let r = (u128::from(r1) << 64 | u128::from(u0)).wrapping_sub(t).wrapping_sub(d);
    let q1 = q1.wrapping_add(1);
    // Estimate one too high: step back.
    let back = u64::from((r >> 64) as u64 >= q0);
    let (q1, r) = (q1.wrapping_sub(back), r.wrapping_add(d & u128::from(back).wrapping_neg()));
    // Estimate one too low (rare): step on.
    let on = u64::from(r >= d);
    (q1.wrapping_add(on), r.wrapping_sub(d & u128::from(on).wrapping_neg()))
}

/// `(n / d, n % d)` for `0 < d < 2^128` and `n = (high, low) < d * 2^128`;
/// `None` for any other `d` or `n`.
#[inline(always)]
pub(crate) fn div_rem_unsigned(high: u128, low: u128, d: u128) -> Option<(u128, u128)> {
    // Also refuses d == 0 (high < 0 never holds).
    if high >= d {
        return None;
    }
    let s = d.leading_zeros();
    let d = d << s;
    // n * 2^s, below d * 2^128: `low >> 1 >> (127 - s)` is `low >> (128 - s)`
    // without a shift by 128 when s == 0.
    let high = high << s | (low >> 1) >> (127 - s);
    let low = low << s;
    let v = reciprocal_3by2((d >> 64) as u64, d as u64);
    let (u3, u2, u1, u0) = ((high >> 64) as u64, high as u64, (low >> 64) as u64, low as u64);
    // (u3, u2, u1) < d: the quotient's high word is zero.
    let (q1, r) = if u3 == 0 && (u128::from(u2) << 64 | u128::from(u1)) < d {
        (0, u128::from(u2) << 64 | u128::from(u1))
    } else {
        div_3by2(u3, u2, u1, d, v)
    };
    let (q0, r) = div_3by2((r >> 64) as u64, r as u64, u0, d, v);
    Some((u128::from(q1) << 64 | u128::from(q0), r >> s))
}

/// Truncating quotient and remainder (the remainder with the dividend's
/// sign) of `n / d` when `0 < |d| < 2^128` and `|n| < |d| * 2^128`; `None`
/// otherwise (a zero divisor included).
#[inline(always)]
pub(crate) fn div_rem(n: I256, d: I256) -> Option<(I256, I256)> {
    let (n_abs, d_abs) = (n.unsigned_abs(), d.unsigned_abs());
    if *d_abs.high() != 0 {
        return None;
    }
    let (q, r) = div_rem_unsigned(*n_abs.high(), *n_abs.low(), *d_abs.low())?;
    let (q, r) = (U256::from(q).as_i256(), U256::from(r).as_i256());
    let q = if (n < I256::ZERO) != (d < I256::ZERO) { q.wrapping_neg() } else { q };
    let r = if n < I256::ZERO { r.wrapping_neg() } else { r };
    Some((q, r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rstest::rstest;

    const TWO_64: u128 = 1 << 64;

    fn pow10(k: u32) -> U256 {
        U256::new(10).pow(k)
    }

    /// `floor((2^192 - 1) / d) - 2^64`, by long division.
    fn reference_reciprocal(d: u128) -> u64 {
        let v = (U256::MAX >> 64u32) / U256::from(d) - U256::from(TWO_64);
        v.as_u64()
    }

    /// Asserts the unsigned division of `n` by `d` (which must qualify), and
    /// the signed one for every sign of either.
    #[track_caller]
    fn assert_exact(n: U256, d: u128) {
        let (high, low) = (*n.high(), *n.low());
        let expected = (n / U256::from(d), n % U256::from(d));
        let (q, r) = div_rem_unsigned(high, low, d).expect("qualifies");
        assert_eq!((U256::from(q), U256::from(r)), expected, "{n} / {d}");
        if n <= I256::MAX.as_u256() && d <= i128::MAX as u128 {
            let (n, d) = (n.as_i256(), U256::from(d).as_i256());
            for (n, d) in [(n, d), (-n, d), (n, -d), (-n, -d)] {
                assert_eq!(div_rem(n, d), Some((n / d, n % d)), "{n} / {d}");
            }
        }
    }

    /// The largest dividend whose quotient by `d` fits 128 bits.
    fn largest_dividend(d: u128) -> U256 {
        U256::from(d) * U256::from(u128::MAX) + U256::from(d - 1)
    }

    #[rstest]
    #[case::quotient_largest(largest_dividend((1 << 127) + 12_345), (1 << 127) + 12_345)]
    #[case::quotient_2_to_128_less_one_by_one(U256::from(u128::MAX), 1)]
    #[case::quotient_just_below_2_to_64(U256::from(TWO_64 - 1) * U256::from(10u128.pow(38)) + 5, 10u128.pow(38))]
    #[case::quotient_exactly_2_to_64(U256::from(TWO_64) * U256::from(10u128.pow(38)), 10u128.pow(38))]
    #[case::quotient_just_above_2_to_64(U256::from(TWO_64 + 1) * U256::from(10u128.pow(38)) - 1, 10u128.pow(38))]
    #[case::quotient_2_to_127(U256::ONE << 254u32, 1 << 127)]
    #[case::zero_dividend(U256::ZERO, 7)]
    #[case::divisor_one(U256::from(123_456_789u128), 1)]
    #[case::divisor_just_above_2_to_64(U256::MAX >> 64u32, TWO_64 + 1)]
    #[case::divisor_2_to_64(U256::MAX >> 64u32, TWO_64)]
    #[case::divisor_just_below_2_to_64(U256::MAX >> 65u32, TWO_64 - 1)]
    #[case::divisor_just_below_2_to_127(U256::MAX >> 2u32, (1 << 127) - 1)]
    #[case::divisor_largest(largest_dividend(u128::MAX), u128::MAX)]
    #[case::divisor_all_high_ones(U256::MAX >> 3u32, u128::MAX << 64)]
    #[case::divisor_alternating_bits(U256::MAX >> 7u32, 0xaaaa_aaaa_aaaa_aaaa_5555_5555_5555_5555)]
    #[case::divisor_top_bit_and_low_word_ones(U256::MAX >> 130u32, (1 << 127) | u128::from(u64::MAX))]
    #[case::max_76_digit_dividend(pow10(76) - U256::ONE, 10u128.pow(38) - 1)]
    #[case::max_76_digit_dividend_by_2_to_127_less_one(pow10(76) - U256::ONE, (1 << 127) - 1)]
    #[case::arrow_profile_row(
        U256::from(9_999_999_999_999_999_999_999_999_999_999_999_999_9u128) * pow10(14),
        12_345_678_901_234_567_890_123_456_789_012_345_678
    )]
    #[case::exact_multiple(pow10(52) * U256::from(987_654_321u128), 10u128.pow(37) + 3)]
    #[case::one_below_a_multiple(pow10(52) * U256::from(987_654_321u128) - U256::ONE, 10u128.pow(37) + 3)]
    fn divides_exactly(#[case] n: U256, #[case] d: u128) {
        assert_exact(n, d);
    }

    #[rstest]
    #[case::quotient_exactly_2_to_128(U256::from(7u128) << 128u32, 7)]
    #[case::dividend_high_word_at_divisor(U256::from_words(u128::MAX, 0), u128::MAX)]
    #[case::largest_dividend_by_one(U256::MAX, 1)]
    #[case::zero_divisor(U256::ONE, 0)]
    fn refuses_quotients_of_129_bits_and_zero_divisors(#[case] n: U256, #[case] d: u128) {
        assert_eq!(div_rem_unsigned(*n.high(), *n.low(), d), None);
    }

    #[rstest]
    #[case::divisor_above_2_to_128(I256::ONE << 200u32, (I256::ONE << 128u32) + I256::ONE)]
    #[case::divisor_most_negative(I256::ONE, I256::MIN)]
    #[case::dividend_most_negative_by_minus_one(I256::MIN, I256::MINUS_ONE)]
    #[case::zero_divisor(I256::ONE, I256::ZERO)]
    #[case::negative_quotient_of_2_to_128(-(I256::ONE << 130u32), I256::new(4))]
    fn signed_refuses_what_the_general_division_takes(#[case] n: I256, #[case] d: I256) {
        assert_eq!(div_rem(n, d), None);
    }

    #[rstest]
    #[case::smallest(1 << 127)]
    #[case::largest(u128::MAX)]
    #[case::low_word_zero(u128::MAX << 64)]
    #[case::low_word_one((1 << 127) | 1)]
    #[case::first_carry_and_low_word_max(((1 << 63) << 64) | u128::from(u64::MAX))]
    #[case::ten_to_the_38_normalized(10u128.pow(38) << 1)]
    fn reciprocal_is_exact(#[case] d: u128) {
        assert_eq!(reciprocal_3by2((d >> 64) as u64, d as u64), reference_reciprocal(d), "{d}");
    }

    #[test]
    fn every_small_pair() {
        for n in 0..=300u128 {
            for d in 1..=40 {
                assert_exact(U256::from(n), d);
            }
        }
    }

    /// A `U256` of `bits` bits from two random words.
    fn wide(hi: u128, lo: u128, bits: u32) -> U256 {
        U256::from_words(hi, lo) >> (256 - bits.clamp(1, 256))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn matches_long_division(
            (n_hi, n_lo, n_bits) in (any::<u128>(), any::<u128>(), 1u32..=256),
            (d, d_bits) in (any::<u128>(), 1u32..=128),
            negative_n in any::<bool>(),
            negative_d in any::<bool>(),
        ) {
            let n = wide(n_hi, n_lo, n_bits);
            let d = (d >> (128 - d_bits)).max(1);
            let expected = (n < U256::from(d) << 128u32).then(|| {
                let (q, r) = (n / U256::from(d), n % U256::from(d));
                (q.as_u128(), r.as_u128())
            });
            prop_assert_eq!(div_rem_unsigned(*n.high(), *n.low(), d), expected);
            // The signed form against I256's own division.
            let n = (n >> 1u32).as_i256();
            let d = U256::from(d >> 1).as_i256().max(I256::ONE);
            let n = if negative_n { -n } else { n };
            let d = if negative_d { -d } else { d };
            if let Some(qr) = div_rem(n, d) {
                prop_assert_eq!(qr, (n / d, n % d));
            } else {
                prop_assert!(n.unsigned_abs() >= d.unsigned_abs() << 128);
            }
        }

        #[test]
        fn reciprocals_match_long_division(d in (1u128 << 127)..=u128::MAX) {
            prop_assert_eq!(reciprocal_3by2((d >> 64) as u64, d as u64), reference_reciprocal(d));
        }

        #[test]
        fn near_multiples(q in any::<u128>(), d in 1u128..=u128::MAX, r in 0usize..4, shift in 0u32..128) {
            // Quotients of every size, remainders at 0, 1, d - 1 and d / 2.
            let d = (d >> shift).max(1);
            let q = q >> (shift / 2);
            let r = [0, 1, d - 1, d / 2][r] % d;
            let n = U256::from(q) * U256::from(d) + U256::from(r);
            prop_assert_eq!(div_rem_unsigned(*n.high(), *n.low(), d), Some((q, r)));
        }
    }
}
