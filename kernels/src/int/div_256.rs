//! Division of a 256-bit integer by one below `2^128` when the quotient fits
//! 128 bits: the per-row divide of the `I256` work type.
//!
//! A quotient row in `I256` (Arrow's `decimal(60,10) / decimal(40,10)`: a
//! dividend of about 180 bits once scaled by `10^14`, a divisor of 127 bits,
//! a quotient of about 54) rarely needs a general 256-bit long division: its
//! divisor fits two 64-bit words and its quotient one or two.
//!
//! Sources: D. E. Knuth, *The Art of Computer Programming*, vol. 2, section
//! 4.3.1, Algorithm D (schoolbook division in base `2^64`, a normalized
//! divisor, a quotient word estimated from the leading words and corrected);
//! N. Möller and T. Granlund, "Improved division by invariant integers",
//! IEEE Transactions on Computers 60(2), 2011: Algorithm 5 (a three-word by
//! two-word division by a normalized `d = (d1, d0)`, `d1 >= 2^63`, through
//! the reciprocal `v = floor((2^192 - 1) / d) - 2^64`) and Algorithm 6 (that
//! reciprocal from `floor((2^128 - 1) / d1) - 2^64`, one hardware divide).
//!
//! For `n < 2^256` and `0 < d < 2^128` with `n < d * 2^128` (so the quotient
//! is below `2^128`), both are shifted left by `s`, the leading zeros of `d`,
//! so that `d' = d * 2^s` has its top bit set; `n' = n * 2^s` stays below
//! `d' * 2^128`. The remainder of `n'` is `2^s` times that of `n`.
//!
//! - A divisor of two words and a quotient of one (`n < d * 2^64`, the
//!   common case: every quotient of up to 19 digits): `s < 64`, `n'` has three
//!   words `(u2, u1, u0)` with `(u2, u1) < d'`, and one step of Algorithm D
//!   divides: `q^ = min(floor((u2, u1) / d1'), 2^64 - 1)` by one hardware
//!   divide, which exceeds the quotient by at most two (Knuth's Theorem B),
//!   and `n' - q^ d'`, formed in three words, is negative exactly when `q^`
//!   is too large; each of at most two corrections adds `d'` back. The
//!   estimate errs by about `q d0' / (d1' 2^64)`, far below one for the
//!   quotients of the Arrow case (about `2^54`): there it is almost always
//!   exact, and the corrections' branches are predicted.
//! - Otherwise (a quotient of two words, or a divisor of one: `d0' = 0`),
//!   `n'` has four words `(u3, u2, u1, u0)` with `(u3, u2) < d'`, and two
//!   steps of Algorithm 5 give the quotient's words: `(u3, u2, u1)` by `d'`
//!   gives `q1` and a remainder `(r1, r0) < d'`, `(r1, r0, u0)` by `d'` gives
//!   `q0` and the remainder; the reciprocal serves both. A divisor below
//!   `2^64` with a quotient below `2^64` has `q1 = 0` and skips the first
//!   step.
//!
//! Measured on a shared 2-core AMD EPYC (Zen 4) on 2026-12-04, 8,192 rows
//! of that Arrow case. A loop doing only the scaling by `10^14` and the
//! division: 60 ns a row as two general 256-bit divisions (ethnum's quotient
//! and remainder), 21 with two steps of Algorithm 5 for every row, 14 with
//! the one step of Algorithm D. The whole kernel (`benches/kernels.rs`,
//! `d256_60_10_by_40_10/div`): 73 ns a row before, 21 after, against 81 for
//! arrow-arith's `numeric::div`.

use ethnum::{I256, U256};

/// `floor((2^128 - 1) / d) - 2^64` for `d >= 2^63` (Möller–Granlund's
/// `reciprocal_word`): `(2^128 - 1) - d * 2^64 = !d * 2^64 + (2^64 - 1)`,
/// and `!d < d`, so the quotient is below `2^64`: one hardware divide.
#[inline(always)]
fn reciprocal_word(d: u64) -> u64 {
    // The top bit is already set; setting it again shows the compiler the
    // divisor is not zero.
    let d = d | 1 << 63;
    ((u128::from(!d) << 64 | u128::from(u64::MAX)) / u128::from(d)) as u64
}

/// `floor((2^192 - 1) / (d1, d0)) - 2^64` for `d1 >= 2^63` (Algorithm 6).
#[inline(always)]
fn reciprocal_3by2(d1: u64, d0: u64) -> u64 {
    let mut v = reciprocal_word(d1);
    let (mut p, carry) = d1.wrapping_mul(v).overflowing_add(d0);
    if carry {
        trace::bump(&trace::FIRST_CARRY);
        v = v.wrapping_sub(1);
        if p >= d1 {
            trace::bump(&trace::FIRST_CARRY_TWICE);
            v = v.wrapping_sub(1);
            p = p.wrapping_sub(d1);
        }
        p = p.wrapping_sub(d1);
    }
    let t = u128::from(v) * u128::from(d0);
    let (t1, t0) = ((t >> 64) as u64, t as u64);
    let (p, carry) = p.overflowing_add(t1);
    if carry {
        trace::bump(&trace::SECOND_CARRY);
        v = v.wrapping_sub(1);
        if (p, t0) >= (d1, d0) {
            trace::bump(&trace::SECOND_CARRY_TWICE);
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
    trace::bump_if(back == 1, &trace::STEP_BACK);
    let (q1, r) = (q1.wrapping_sub(back), r.wrapping_add(d & u128::from(back).wrapping_neg()));
    // Estimate one too low (rare): step on.
    let on = u64::from(r >= d);
    trace::bump_if(on == 1, &trace::STEP_ON);
    (q1.wrapping_add(on), r.wrapping_sub(d & u128::from(on).wrapping_neg()))
}

/// `(n / d, n % d)` for `2^64 <= d < 2^128` and `n = (w2, w1, w0) < d * 2^64`
/// (one step of Algorithm D; see the module's header).
#[inline(always)]
fn div_one_word_quotient(w2: u64, w1: u64, w0: u64, d: u128) -> (u64, u128) {
    // The divisor's top word is not zero: s < 64 (the mask shows it).
    let s = ((d >> 64) as u64).leading_zeros() & 63;
    let d = d << s;
    let (d1, d0) = ((d >> 64) as u64, d as u64);
    // `x >> 1 >> (63 - s)` is `x >> (64 - s)` without a shift by 64 at s = 0.
    let u2 = w2 << s | (w1 >> 1) >> (63 - s);
    let u1 = w1 << s | (w0 >> 1) >> (63 - s);
    let u0 = w0 << s;
    // (u2, u1) < d', so u2 <= d1'; u2 == d1' caps the estimate.
    let mut q = if u2 >= d1 {
        trace::bump(&trace::ESTIMATE_CAPPED);
        u64::MAX
    } else {
        // u2 < d1: the quotient fits 64 bits, one hardware divide (the top
        // bit set again shows the compiler the divisor is not zero).
        ((u128::from(u2) << 64 | u128::from(u1)) / u128::from(d1 | 1 << 63)) as u64
    };
    // n' - q d' in three words (r2, r). As q d1' <= (u2, u1) (the capped
    // estimate too), q d1' 2^64 <= n' and n' - q d' >= -q d0' > -2^128: r2
    // is zero, or all ones for a negative value, which adding d' makes
    // non-negative exactly when the low words carry.
    let low = u128::from(q) * u128::from(d0);
    let high = (u128::from(q) * u128::from(d1)).wrapping_add(low >> 64);
    let product = high << 64 | (low & u128::from(u64::MAX));
    let (mut r, borrow) = (u128::from(u1) << 64 | u128::from(u0)).overflowing_sub(product);
    let r2 = u2.wrapping_sub((high >> 64) as u64).wrapping_sub(u64::from(borrow));
    if r2 != 0 {
        trace::bump(&trace::ADD_BACK);
        q = q.wrapping_sub(1);
        let (sum, carry) = r.overflowing_add(d);
        r = sum;
        if !carry {
            // Still negative: the estimate was two too large.
            trace::bump(&trace::ADD_BACK_TWICE);
            q = q.wrapping_sub(1);
            r = r.wrapping_add(d);
        }
    }
    (q, r >> s)
}

/// `(n / d, n % d)` for `0 < d < 2^128` and `n = (high, low) < d * 2^128`;
/// `None` for any other `d` or `n`.
#[inline(always)]
pub(crate) fn div_rem_unsigned(high: u128, low: u128, d: u128) -> Option<(u128, u128)> {
    // Also refuses d == 0 (high < 0 never holds).
    if high >= d {
        return None;
    }
    // n < d * 2^64: n / 2^64 < d (high < 2^64 for it to fit 128 bits).
    if d >> 64 != 0 && high >> 64 == 0 && (high << 64 | low >> 64) < d {
        let (q, r) = div_one_word_quotient(high as u64, (low >> 64) as u64, low as u64, d);
        return Some((u128::from(q), r));
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
        trace::bump(&trace::ONE_STEP);
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

/// Which branches ran, counted in tests only (`cfg!(test)` is false in any
/// other build, and the counting is compiled out), so that tests show they
/// reach each, as `wide` counts its corrections.
mod trace {
    use std::cell::Cell;
    use std::thread::LocalKey;

    thread_local! {
        /// Algorithm 6: `d1 v + d0` carried.
        pub(super) static FIRST_CARRY: Cell<u64> = const { Cell::new(0) };
        /// And `v` took a second step down there.
        pub(super) static FIRST_CARRY_TWICE: Cell<u64> = const { Cell::new(0) };
        /// Algorithm 6: adding the high word of `v d0` carried.
        pub(super) static SECOND_CARRY: Cell<u64> = const { Cell::new(0) };
        /// And `v` took a second step down there.
        pub(super) static SECOND_CARRY_TWICE: Cell<u64> = const { Cell::new(0) };
        /// Algorithm 5: the estimate was one too high.
        pub(super) static STEP_BACK: Cell<u64> = const { Cell::new(0) };
        /// Algorithm 5: the estimate was one too low.
        pub(super) static STEP_ON: Cell<u64> = const { Cell::new(0) };
        /// Algorithm D: the estimate capped at `2^64 - 1`.
        pub(super) static ESTIMATE_CAPPED: Cell<u64> = const { Cell::new(0) };
        /// Algorithm D: the estimate was too high, the divisor added back.
        pub(super) static ADD_BACK: Cell<u64> = const { Cell::new(0) };
        /// Algorithm D: two too high, the divisor added back twice.
        pub(super) static ADD_BACK_TWICE: Cell<u64> = const { Cell::new(0) };
        /// Algorithm 5 taken once: the quotient's high word is zero.
        pub(super) static ONE_STEP: Cell<u64> = const { Cell::new(0) };
    }

    /// Counts one pass through a branch.
    #[inline(always)]
    pub(super) fn bump(counter: &'static LocalKey<Cell<u64>>) {
        bump_if(true, counter);
    }

    /// Counts one pass when `hit` holds.
    #[inline(always)]
    pub(super) fn bump_if(hit: bool, counter: &'static LocalKey<Cell<u64>>) {
        if cfg!(test) && hit {
            counter.with(|count| count.set(count.get() + 1));
        }
    }
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
        U256::from(10u128.pow(38) - 1) * pow10(16),
        12_345_678_901_234_567_890_123_456_789_012_345_678
    )]
    #[case::exact_multiple(pow10(52) * U256::from(987_654_321u128), 10u128.pow(37) + 3)]
    #[case::one_below_a_multiple(pow10(52) * U256::from(987_654_321u128) - U256::ONE, 10u128.pow(37) + 3)]
    #[case::one_word_quotient_largest(U256::from((1u128 << 127) + 5) * U256::from(TWO_64) - U256::ONE, (1 << 127) + 5)]
    #[case::one_word_quotient_by_2_to_64(U256::from(u128::MAX), TWO_64)]
    #[case::one_word_quotient_by_2_to_64_plus_one(U256::from(u128::MAX), TWO_64 + 1)]
    #[case::one_word_quotient_capped_one_too_high(U256::ONE << 191u32, (1 << 127) | u128::from(u64::MAX))]
    #[case::one_word_quotient_unnormalized_divisor(U256::from(TWO_64 * 3 - 1) * U256::from(TWO_64 - 1), TWO_64 * 3 - 1)]
    #[case::half_point_remainder(U256::from(12_345u128) * U256::from(10u128.pow(37) * 2) + U256::from(10u128.pow(37)), 10u128.pow(37) * 2)]
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

    /// Counters of every branch, in the order of `trace`.
    fn branch_counts() -> [u64; 10] {
        [
            &trace::FIRST_CARRY,
            &trace::FIRST_CARRY_TWICE,
            &trace::SECOND_CARRY,
            &trace::SECOND_CARRY_TWICE,
            &trace::STEP_BACK,
            &trace::STEP_ON,
            &trace::ESTIMATE_CAPPED,
            &trace::ADD_BACK,
            &trace::ADD_BACK_TWICE,
            &trace::ONE_STEP,
        ]
        .map(|counter| counter.with(std::cell::Cell::get))
    }

    #[test]
    fn every_branch_is_reached() {
        let before = branch_counts();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let word =
                |next: &mut dyn FnMut() -> u64| u128::from(next()) << 64 | u128::from(next());
            // Divisors of every length, biased to top words near 2^63 and
            // low words near 2^64 (where estimates err most).
            let d = match next() % 4 {
                0 => word(&mut next) >> (next() % 128),
                1 => (1 << 127) | u128::from(u64::MAX - (next() >> (next() % 64))),
                2 => ((1 << 127) | word(&mut next)) >> (next() % 64),
                _ => u128::from(next() | 1),
            }
            .max(1);
            // Quotients of every length, some just below 2^64 and 2^128.
            let q = match next() % 3 {
                0 => word(&mut next) >> (next() % 128),
                1 => u128::from(u64::MAX - (next() >> (next() % 64))),
                _ => u128::MAX - (word(&mut next) >> (next() % 128)),
            };
            let r = match next() % 3 {
                0 => d - 1,
                1 => 0,
                _ => word(&mut next) % d,
            };
            assert_exact(U256::from(q) * U256::from(d) + U256::from(r), d);
        }
        let after = branch_counts();
        for (i, (after, before)) in after.iter().zip(before).enumerate() {
            assert!(after > &before, "branch {i} of `trace` never ran");
        }
    }

    #[rstest]
    #[case::capped_estimate_one_too_high(U256::ONE << 191u32, (1 << 127) | u128::from(u64::MAX), [&trace::ESTIMATE_CAPPED, &trace::ADD_BACK])]
    #[case::capped_estimate_exact(U256::from((1u128 << 127) + 5) * U256::from(TWO_64) - U256::ONE, (1 << 127) + 5, [&trace::ESTIMATE_CAPPED, &trace::ESTIMATE_CAPPED])]
    #[case::one_word_divisor_one_word_quotient(U256::from(1_000u128), 7, [&trace::ONE_STEP, &trace::ONE_STEP])]
    fn takes_its_branch(
        #[case] n: U256,
        #[case] d: u128,
        #[case] branches: [&'static std::thread::LocalKey<std::cell::Cell<u64>>; 2],
    ) {
        let before = branches.map(|counter| counter.with(std::cell::Cell::get));
        let (q, r) = div_rem_unsigned(*n.high(), *n.low(), d).expect("qualifies");
        assert_eq!((U256::from(q), U256::from(r)), (n / U256::from(d), n % U256::from(d)));
        for (counter, before) in branches.iter().zip(before) {
            assert!(counter.with(std::cell::Cell::get) > before, "{n} / {d}");
        }
    }

    /// Rows of Arrow's `decimal(60,10) / decimal(40,10)` (`a * 10^14 / b`)
    /// through the division kernel, against the exact rational rounded by
    /// `mode`: remainders at exactly half of `|b|` and one either side of
    /// it, both signs of both operands, the largest 76-digit dividend; at 76
    /// result digits and at 17, where some quotients overflow, under both
    /// policies.
    #[rstest]
    #[case::toward_zero(crate::RoundingMode::TowardZero)]
    #[case::half_up(crate::RoundingMode::HalfUp)]
    #[case::half_even(crate::RoundingMode::HalfEven)]
    #[case::floor(crate::RoundingMode::Floor)]
    #[case::ceiling(crate::RoundingMode::Ceiling)]
    fn kernel_quotients_round_from_the_exact_remainder(#[case] mode: crate::RoundingMode) {
        use crate::testing::{big, round_big, to_i256};
        use crate::{DivSpec, Operand, Output, OverflowPolicy, Policies, Rows, div};
        use arrow_buffer::i256;
        use num_bigint::BigInt;

        let parse = |v: &str| i256::from_string(v).expect("a number");
        // b = 2 * 10^14 * m and a = m * (2q + 1): a * 10^14 = q * b + b / 2.
        let m = BigInt::from(10).pow(23) + 12_345;
        let mut rows = Vec::new();
        for q in [0u64, 1, 2, 49_999_999_999_999_999, 50_000_000_000_000_000] {
            let b: BigInt = BigInt::from(2) * BigInt::from(10).pow(14) * &m;
            let a: BigInt = &m * (BigInt::from(q) * 2 + 1);
            for (a, b) in [(a.clone(), b.clone()), (&a + 1, b.clone()), (&a - 1, b)] {
                let (a, b) = (to_i256(&a).expect("40 digits"), to_i256(&b).expect("38 digits"));
                rows.extend([(a, b), (a.wrapping_neg(), b), (a, b.wrapping_neg())]);
                rows.push((a.wrapping_neg(), b.wrapping_neg()));
            }
        }
        // The largest 76-digit value over 10^14: a * 10^14 still fits.
        let largest = parse(&"9".repeat(62));
        rows.extend([
            (largest, parse(&"9".repeat(38))),
            (largest.wrapping_neg(), parse("170141183460469231731687303715884105727")),
            (parse(&"9".repeat(40)), parse("18446744073709551617")),
            (parse(&"9".repeat(40)), parse("3")),
        ]);
        let (a, b): (Vec<i256>, Vec<i256>) = rows.into_iter().unzip();
        for precision in [76u8, 17] {
            let limit = BigInt::from(10).pow(precision.into());
            let exact: Vec<Option<BigInt>> = a
                .iter()
                .zip(&b)
                .map(|(&a, &b)| {
                    let (n, d) = (big(a) * BigInt::from(10).pow(14), big(b));
                    let (n, d) = if d < BigInt::from(0) { (-n, -d) } else { (n, d) };
                    let q = round_big(&n, &d, mode);
                    (q < limit && q > -&limit).then_some(q)
                })
                .collect();
            for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
                let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
                let rows = Rows::new(a.len()).with_policies(policies);
                let spec = DivSpec::new(14, mode, precision);
                let out: Result<Output<i256>, _> =
                    div(Operand::array(&a[..]), Operand::array(&b[..]), &spec, &rows);
                let context = format!("{mode:?}, {precision} digits, {policy:?}");
                match out {
                    Ok(out) => {
                        for (i, exact) in exact.iter().enumerate() {
                            let valid = out.nulls.as_ref().is_none_or(|n| n.is_valid(i));
                            let got = valid.then(|| big(out.values[i]));
                            assert_eq!(&got, exact, "{context}: row {i}");
                        }
                    }
                    Err(error) => {
                        assert_eq!(policy, OverflowPolicy::Error, "{context}: {error:?}");
                        assert!(exact.iter().any(Option::is_none), "{context}: {error:?}");
                    }
                }
            }
            // At 17 digits some quotients overflow, at 76 none.
            assert_eq!(exact.iter().any(Option::is_none), precision == 17);
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
