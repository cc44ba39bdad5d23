//! Division by estimate and exact correction.
//!
//! A hardware divide costs tens of cycles for 64 bits and a library call for
//! 128; a floating-point reciprocal costs a few. The quotient is estimated with
//! `f64` (53 bits of it right), the remainder is formed exactly with an integer
//! multiply-subtract, and the estimate is refined from the remainder until it
//! is off by at most one, which a last branch-free step corrects:
//!
//! ```text
//! q = trunc(n * (1/d)),  r = n - q*d        // exact: |r| is far below |n|
//! repeat: e = trunc(r * (1/d)), q += e, r -= e*d
//! fix:    make r take n's sign and |r| < |d| by one step of q
//! ```
//!
//! Each refinement multiplies the error by about `2^-50`, so a 62-bit quotient
//! needs one, a 126-bit one two, and a 254-bit one five; the 256-bit type stops
//! as soon as a step changes nothing. Operands must stay one bit inside their
//! type (`|n|, |d| < 2^(BITS-2)`), so that a remainder of up to two divisors
//! never wraps; the division plan leaves that bit.

use crate::work::Work;

/// What the estimate needs of a work type beyond arithmetic.
pub trait Estimate: Work {
    /// Refinement steps after the first estimate that bring any quotient of
    /// the type within one.
    const STEPS: u32;
    /// Whether to stop refining as soon as a step changes nothing (for types
    /// too wide to vectorize anyway).
    const STOP_EARLY: bool;
    /// The value, rounded to `f64`.
    fn to_f64(self) -> f64;
    /// `v` truncated toward zero (saturating, never trapping).
    fn from_f64(v: f64) -> Self;
}

/// Truncating quotient and remainder of `n / d` (`d != 0`, both within the
/// planned range).
#[inline(always)]
pub fn div_rem<W: Estimate>(n: W, d: W) -> (W, W) {
    let inverse = 1.0 / d.to_f64();
    let mut q = W::from_f64(n.to_f64() * inverse);
    let mut r = n.sub(q.mul(d));
    for _ in 0..W::STEPS {
        let e = W::from_f64(r.to_f64() * inverse);
        if W::STOP_EARLY && e.is_zero() {
            break;
        }
        q = q.add(e);
        r = r.sub(e.mul(d));
    }
    // Now `|r| < 2|d|` with either sign (the last estimate of `r / d` may
    // round to just under one in magnitude): at most two unit steps remain.
    let (q, r) = unit_step(n, d, q, r);
    unit_step(n, d, q, r)
}

/// One step toward a remainder with `n`'s sign and below `|d|`.
#[inline(always)]
fn unit_step<W: Work>(n: W, d: W, q: W, r: W) -> (W, W) {
    let step = if n.is_negative() == d.is_negative() { W::ONE } else { W::ONE.neg() };
    let (toward, magnitude) = (n.is_negative(), d.abs());
    let wrong_sign = !r.is_zero() && r.is_negative() != toward;
    let too_large = if toward { r.add(magnitude) <= W::ZERO } else { r.sub(magnitude) >= W::ZERO };
    if wrong_sign {
        (q.sub(step), if toward { r.sub(magnitude) } else { r.add(magnitude) })
    } else if too_large {
        (q.add(step), if toward { r.add(magnitude) } else { r.sub(magnitude) })
    } else {
        (q, r)
    }
}

impl Estimate for i64 {
    const STEPS: u32 = 1;
    const STOP_EARLY: bool = false;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v as i64
    }
}

impl Estimate for i128 {
    const STEPS: u32 = 2;
    const STOP_EARLY: bool = false;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        // The magnitude's two halves (no cancellation) instead of a library
        // conversion.
        let m = self.unsigned_abs();
        let f = ((m >> 64) as u64 as f64).mul_add(18_446_744_073_709_551_616.0, m as u64 as f64);
        if self < 0 { -f } else { f }
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        if v.abs() < 9.2e18 { i128::from(v as i64) } else { v as i128 }
    }
}

impl Estimate for ethnum::I256 {
    const STEPS: u32 = 5;
    const STOP_EARLY: bool = true;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        let (high, low) = self.unsigned_abs().into_words();
        let f = (high as f64).mul_add(3.402_823_669_209_385e38, low as f64);
        if self < ethnum::I256::ZERO { -f } else { f }
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        const TWO_126: f64 = 8.507_059_173_023_462e37;
        if v.abs() < TWO_126 {
            return ethnum::I256::new(v as i128);
        }
        // |v| >= 2^126: keep 100 significant bits (an estimate needs no more),
        // saturating at the type's range.
        let exponent = v.abs().log2().floor() as u32;
        let shift = exponent.saturating_sub(100).min(154);
        let scaled = ethnum::I256::new((v / 2f64.powi(shift as i32)) as i128);
        scaled.checked_shl(shift).unwrap_or(if v < 0.0 {
            ethnum::I256::MIN
        } else {
            ethnum::I256::MAX
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ethnum::I256;
    use proptest::prelude::*;
    use rstest::rstest;

    #[test]
    fn i256_estimate_landing_beyond_the_divisor() {
        let n = I256::new(10).pow(64) - 1;
        let d = I256::new(5) * I256::new(10).pow(37);
        assert_eq!(div_rem(n, d), (n / d, n % d));
        assert_eq!(div_rem(-n, d), (-n / d, -n % d));
    }

    #[rstest]
    #[case::exact(100, 10)]
    #[case::negative_dividend(-7, 2)]
    #[case::negative_divisor(7, -2)]
    #[case::both_negative(-7, -2)]
    #[case::unit_divisor((1 << 61) + 12345, 1)]
    #[case::minus_one((1 << 61) + 12345, -1)]
    #[case::large_divisor((1 << 61) + 1, (1 << 61) - 1)]
    #[case::dividend_below_divisor(3, 1 << 60)]
    #[case::zero_dividend(0, 17)]
    #[case::estimate_just_under_one_divisor_short((1 << 61) - 1, 5 << 40)]
    fn i64_cases(#[case] n: i64, #[case] d: i64) {
        assert_eq!(div_rem(n, d), (n / d, n % d), "{n} / {d}");
        let (n, d) = (i128::from(n) << 60, i128::from(d));
        assert_eq!(div_rem(n, d), (n / d, n % d), "{n} / {d}");
    }

    fn i256(v: i128, shift: u32) -> I256 {
        I256::new(v) << shift
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn i64_matches_division(n in -(1i64 << 61)..(1 << 61), d in -(1i64 << 61)..(1 << 61), shift in 0u32..61) {
            let d = (d >> shift) | 1;
            prop_assert_eq!(div_rem(n, d), (n / d, n % d));
        }

        #[test]
        fn i128_matches_division(n in -(1i128 << 125)..(1 << 125), d in -(1i128 << 125)..(1 << 125), shift in 0u32..125, nshift in 0u32..125) {
            let (n, d) = (n >> nshift, (d >> shift) | 1);
            prop_assert_eq!(div_rem(n, d), (n / d, n % d));
        }

        #[test]
        fn i256_near_multiples(k in 1u32..36, m in 1u32..38, digit in 1i128..10, delta in -3i128..=3) {
            // n = q*d + delta around exact multiples, where estimates land on
            // the boundary (10^64 - 1 by 5 * 10^37 once did).
            let d = I256::new(digit) * I256::new(10).pow(m);
            let n = I256::new(10).pow(k + m) * I256::new(2) + I256::new(delta);
            prop_assert_eq!(div_rem(n, d), (n / d, n % d));
            prop_assert_eq!(div_rem(-n, d), (-n / d, -n % d));
        }

        #[test]
        fn i256_matches_division(n in any::<i128>(), n_shift in 0u32..126, d in any::<i128>(), d_shift in 0u32..126) {
            let n = i256(n >> 1, n_shift);
            let d = i256(d >> 1, d_shift) | I256::ONE;
            prop_assert_eq!(div_rem(n, d), (n / d, n % d));
        }
    }
}
