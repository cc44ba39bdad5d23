//! Truncating division of 128-bit integers by divisors below `2^64`, the
//! common case of decimal quotients in `i128` (a dividend scaled past 64
//! bits, a divisor of a few digits).
//!
//! Rust's `i128` division calls the compiler's runtime library for every
//! row, which checks the operands' sizes and signs before it divides. On
//! x86-64 the `div` instruction divides a 128-bit value `high:low` by a
//! 64-bit one whenever the quotient fits 64 bits (`high < d`); schoolbook
//! division in base `2^64` then takes two of them for any dividend below
//! `2^128`:
//!
//! ```text
//! q1 = high / d, r1 = high % d          // 64 by 64 bits
//! q0, r = (r1:low) / d                  // r1 < d: the quotient fits
//! quotient = q1:q0, remainder = r
//! ```
//!
//! on the magnitudes, the signs applied after (the quotient negative when the
//! operands' signs differ, the remainder with the dividend's). Wider divisors
//! and other architectures use the library division.

/// `(n / d, n % d)`, wrapping (`i128::MIN / -1` is `i128::MIN`, remainder
/// zero), for `d != 0`.
#[inline(always)]
#[must_use]
pub(crate) fn div_rem(n: i128, d: i128) -> (i128, i128) {
    #[cfg(target_arch = "x86_64")]
    if let Ok(divisor) = u64::try_from(d.unsigned_abs()) {
        let (q, r) = div_rem_by_u64(n.unsigned_abs(), divisor);
        // Two's complement casts: a magnitude of 2^127 is i128::MIN, which
        // is the wrapping result.
        let q = q.cast_signed();
        let q = if (n ^ d) < 0 { q.wrapping_neg() } else { q };
        let r = i128::from(r);
        return (q, if n < 0 { -r } else { r });
    }
    let q = n.wrapping_div(d);
    (q, n.wrapping_sub(q.wrapping_mul(d)))
}

/// `(n / d, n % d)` for a 128-bit magnitude by a non-zero 64-bit divisor.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn div_rem_by_u64(n: u128, d: u64) -> (u128, u64) {
    let (high, low) = ((n >> 64) as u64, n as u64);
    let (q1, r1) = (high / d, high % d);
    let (q0, r) = divide_narrow(r1, low, d);
    ((u128::from(q1) << 64) | u128::from(q0), r)
}

/// `(r1:low) / d` and its remainder, for `r1 < d` (so the quotient fits 64
/// bits): the `div` instruction.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline(always)]
fn divide_narrow(r1: u64, low: u64, d: u64) -> (u64, u64) {
    let (q0, r): (u64, u64);
    // SAFETY: `div` divides rdx:rax by its operand and faults only for a
    // zero divisor or a quotient beyond 64 bits. `d` is non-zero (the
    // division above would have panicked first), and rdx = r1 < d, so
    // (r1:low) / d < 2^64. The instruction touches no memory or stack and
    // only the named registers and flags.
    unsafe {
        core::arch::asm!(
            "div {d}",
            d = in(reg) d,
            inout("rax") low => q0,
            inout("rdx") r1 => r,
            options(pure, nomem, nostack),
        );
    }
    (q0, r)
}

/// [`divide_narrow`] in `u128` arithmetic, where Miri runs the tests (it
/// does not interpret inline assembly): the same quotient and remainder.
#[cfg(all(target_arch = "x86_64", miri))]
#[inline(always)]
fn divide_narrow(r1: u64, low: u64, d: u64) -> (u64, u64) {
    let n = (u128::from(r1) << 64) | u128::from(low);
    let (q, r) = (n / u128::from(d), n % u128::from(d));
    // `r1 < d`: the quotient fits 64 bits, and the remainder is below `d`.
    #[expect(clippy::cast_possible_truncation, reason = "both fit 64 bits, as above")]
    (q as u64, r as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rstest::rstest;

    #[track_caller]
    fn assert_exact(n: i128, d: i128) {
        let want = (n.wrapping_div(d), n.wrapping_rem(d));
        assert_eq!(div_rem(n, d), want, "{n} / {d}");
    }

    #[rstest]
    #[case::small(100, 7)]
    #[case::negative_dividend(-100, 7)]
    #[case::negative_divisor(100, -7)]
    #[case::both_negative(-100, -7)]
    #[case::money_scaled_past_64_bits(999_999_999_999 * 10i128.pow(14), 999_999)]
    #[case::high_word_below_the_divisor(u64::MAX as i128 * 3, u64::MAX as i128)]
    #[case::largest_divisor_below_two_to_64(i128::MAX, u64::MAX as i128)]
    #[case::divisor_of_two_to_64(i128::MAX, 1 << 64)]
    #[case::divisor_beyond_64_bits(i128::MAX, (1 << 100) + 12345)]
    #[case::largest_over_one(i128::MAX, 1)]
    #[case::smallest_over_one(i128::MIN, 1)]
    #[case::smallest_over_minus_one_wraps(i128::MIN, -1)]
    #[case::smallest_over_two(i128::MIN, 2)]
    #[case::smallest_over_smallest_64_bit(i128::MIN, i128::from(i64::MIN))]
    #[case::zero_dividend(0, -3)]
    #[case::divisor_larger(5, -(1 << 70))]
    fn cases(#[case] n: i128, #[case] d: i128) {
        assert_exact(n, d);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn matches_the_library_division(n in any::<i128>(), d in any::<i128>(), shift in 0u32..127) {
            let d = d >> shift;
            prop_assume!(d != 0);
            prop_assert_eq!(div_rem(n, d), (n.wrapping_div(d), n.wrapping_rem(d)));
        }
    }
}
