//! Division of 256-bit integers by a divisor fixed for a call, through
//! double-precision estimates corrected exactly: the divisor of the `I256`
//! work type (`10^k` when a product or a sum is rescaled, a scalar divisor).
//!
//! A general 256-bit long division costs tens of nanoseconds per row, where a
//! product rescaled down (Spark's `decimal(38,18) * decimal(38,18)`, a 160-
//! to 250-bit product divided by `10^30`) has a quotient of at most 127 bits
//! that a few multiplications find. For a magnitude `n < 2^255`, a divisor
//! `0 < d < 2^255` and `inv = (1 / f64(d)) * (1 - 2^-48)`:
//!
//! ```text
//! q = 0, r = n
//! loop:
//!     e = trunc(f64(r) * inv)             // e <= r / d: never overshoots
//!     q += e, r -= e * d                  // r shrinks by 2^-47, or to below 1.25 d
//!     if e < 2^45: break
//! if r >= d: q += 1, r -= d               // the last step
//! ```
//!
//! Every estimate carries at most five roundings of relative size `2^-53`
//! (of `r` to `f64`, of `d`, of `1 / d`, of the scaling, of the product),
//! which the factor `1 - 2^-48` outweighs: `e * d <= r`, so `r` stays
//! non-negative and no product leaves 256 bits. An estimate `e` is at least
//! `(r / d)(1 - 2^-47) - 1`, so the step leaves `r - e*d <= r 2^-47 + d`:
//! after an estimate below `2^45` (`r < (2^45 + 1.01) d`) that is below
//! `1.25 d`, and one conditional step ends the division. A quotient of `b`
//! bits takes about `(b - 45) / 47 + 1` estimates: one for quotients below
//! `2^45`, two for the 64-bit quotients of rescaled money products. The
//! multiplies stay within 128-bit halves where both factors do. Signs are
//! handled outside: the quotient truncates toward zero and the remainder
//! takes the dividend's sign, as `div_rem` does.
//!
//! Most calls need neither loop nor `f64`: a divisor below `2^128 / 3` that
//! is not a power of two (every `10^k` with `1 <= k <= 38`) also gets a
//! [`Magic256`], which divides a dividend whose quotient is below `2^127`
//! (every quotient that can fit 38 digits) with three 128-bit multiplies.

use ethnum::{I256, U256};

use crate::int::magic::{Magic256, widening_mul};

/// `d > 0` prepared for dividends below `2^255` in magnitude.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Divisor256 {
    divisor: U256,
    /// `(1 / f64(d)) * (1 - 2^-48)`: estimates from it never exceed `r / d`.
    inverse: f64,
    /// For quotients below `2^127`, when `d < 2^128 / 3` is not a power of two.
    reciprocal: Option<Magic256>,
}

/// `1 - 2^-48`: shrinks each estimate beyond the sum of its roundings.
const SHRINK: f64 = 1.0 - 1.0 / (1u64 << 48) as f64;

/// Estimates below this leave a remainder below `1.25 d`.
const LAST_ESTIMATE: u128 = 1 << 45;

impl Divisor256 {
    /// Prepares `divisor` (which must be positive; anything else is treated
    /// as one).
    #[must_use]
    pub fn new(divisor: I256) -> Self {
        let divisor = if divisor > I256::ZERO { divisor.as_u256() } else { U256::ONE };
        let reciprocal = if *divisor.high() == 0 { Magic256::new(*divisor.low()) } else { None };
        Self { divisor, inverse: (1.0 / to_f64(divisor)) * SHRINK, reciprocal }
    }

    /// Truncating quotient and remainder (the remainder with the dividend's
    /// sign) of `n / d` for `|n| < 2^255`.
    #[inline(always)]
    #[must_use]
    pub fn div_rem(&self, n: I256) -> (I256, I256) {
        let negative = n < I256::ZERO;
        let sign = |(q, r): (I256, I256)| {
            if negative { (q.wrapping_neg(), r.wrapping_neg()) } else { (q, r) }
        };
        let mut r = n.unsigned_abs();
        let words = (*r.high(), *r.low());
        if let Some((q, r)) = self.reciprocal.and_then(|reciprocal| reciprocal.div_rem(words)) {
            return sign((U256::from(q).as_i256(), U256::from(r).as_i256()));
        }
        let mut q = U256::ZERO;
        loop {
            let e = to_u256(to_f64(r) * self.inverse);
            q = q.wrapping_add(e);
            r = r.wrapping_sub(mul(e, self.divisor));
            if *e.high() == 0 && *e.low() < LAST_ESTIMATE {
                break;
            }
        }
        let step = U256::from(r >= self.divisor);
        let (q, r) = (q.wrapping_add(step), r.wrapping_sub(step.wrapping_mul(self.divisor)));
        sign((q.as_i256(), r.as_i256()))
    }
}

/// `a * b`, wrapping; four 64-bit multiplies when both fit 128 bits (an
/// estimate and `10^k` for `k <= 38`, the common case), the general product
/// otherwise.
#[inline(always)]
fn mul(a: U256, b: U256) -> U256 {
    if *a.high() != 0 || *b.high() != 0 {
        return a.wrapping_mul(b);
    }
    let (high, low) = widening_mul(*a.low(), *b.low());
    U256::from_words(high, low)
}

/// `v` as an `f64` from its leading 64 bits (the rest truncated, which only
/// lowers the value), rounded once: at most `v (1 + 2^-53)`.
#[inline(always)]
fn to_f64(v: U256) -> f64 {
    let (hi, lo) = (*v.high(), *v.low());
    if hi == 0 {
        return u128_to_f64(lo);
    }
    let zeros = hi.leading_zeros();
    let top = if zeros == 0 { hi } else { (hi << zeros) | (lo >> (128 - zeros)) };
    // v is about top * 2^(128 - zeros).
    scale((top >> 64) as u64 as f64, 192 - zeros)
}

/// As [`to_f64`] for 128 bits.
#[inline(always)]
fn u128_to_f64(v: u128) -> f64 {
    let hi = (v >> 64) as u64;
    if hi == 0 {
        return v as u64 as f64;
    }
    let zeros = hi.leading_zeros();
    scale(((v << zeros) >> 64) as u64 as f64, 64 - zeros)
}

/// `x * 2^shift`, exactly, for `shift <= 192`.
#[inline(always)]
fn scale(x: f64, shift: u32) -> f64 {
    x * f64::from_bits((1023 + u64::from(shift)) << 52)
}

/// `trunc(x)` for a finite `0 <= x < 2^255` (anything else gives zero).
#[inline(always)]
fn to_u256(x: f64) -> U256 {
    if x < 18_446_744_073_709_551_616.0 {
        // Below 2^64 (and for NaN or negatives, which `as` saturates to 0).
        return U256::from(x as u64);
    }
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as u32;
    let mantissa = u128::from((bits & ((1 << 52) - 1)) | (1 << 52));
    // x = mantissa * 2^(exponent - 1075), an integer here (exponent >= 1087).
    let shift = exponent.saturating_sub(1075);
    if shift < 128 - 53 {
        return U256::from(mantissa << shift);
    }
    if shift >= 256 - 53 {
        return U256::ZERO;
    }
    U256::from(mantissa) << shift
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rstest::rstest;

    fn pow10(k: u32) -> I256 {
        I256::new(10).wrapping_pow(k)
    }

    /// The divisor prepared as it is, and with its estimates only.
    fn both_paths(d: I256) -> [Divisor256; 2] {
        let prepared = Divisor256::new(d);
        [prepared, Divisor256 { reciprocal: None, ..prepared }]
    }

    #[track_caller]
    fn assert_exact(n: I256, d: I256) {
        for prepared in both_paths(d) {
            for n in [n, n.wrapping_neg()] {
                assert_eq!(prepared.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
        }
    }

    #[rstest]
    #[case::largest_over_one(I256::MAX, I256::ONE)]
    #[case::largest_over_ten(I256::MAX, I256::new(10))]
    #[case::largest_over_ten_to_the_30(I256::MAX, pow10(30))]
    #[case::largest_over_ten_to_the_76(I256::MAX, pow10(76))]
    #[case::largest_over_itself(I256::MAX, I256::MAX)]
    #[case::largest_over_one_less(I256::MAX, I256::MAX - 1)]
    #[case::one_below_the_divisor(pow10(30) - 1, pow10(30))]
    #[case::exact_multiple(pow10(30) * I256::new(123_456_789), pow10(30))]
    #[case::one_below_a_multiple(pow10(30) * I256::new(123_456_789) - 1, pow10(30))]
    #[case::spark_product(
        I256::from_str_radix("138698367904130467515623456789123456789", 10).unwrap() * pow10(11),
        pow10(30)
    )]
    #[case::zero(I256::ZERO, pow10(7))]
    #[case::power_of_two_divisor(I256::MAX, I256::ONE << 200)]
    #[case::divisor_above_2_to_128(I256::MAX >> 3, (I256::ONE << 130) + I256::ONE)]
    fn cases(#[case] n: I256, #[case] d: I256) {
        assert_exact(n, d);
    }

    #[test]
    fn every_small_pair() {
        for n in -300..=300 {
            for d in 1..=40 {
                assert_exact(I256::new(n), I256::new(d));
            }
        }
    }

    #[test]
    fn powers_of_ten_up_to_38_take_the_reciprocal_on_either_side_of_its_range() {
        for k in 1..=38 {
            let prepared = Divisor256::new(pow10(k));
            assert!(prepared.reciprocal.is_some(), "10^{k}");
            // The largest quotient it serves, and the first it leaves to the estimates.
            let d = pow10(k).as_u256();
            let largest = d * U256::from(u128::MAX) + (d - U256::ONE);
            assert_exact(largest.as_i256(), pow10(k));
            assert_exact((largest + U256::ONE).as_i256(), pow10(k));
        }
        assert!(Divisor256::new(pow10(39)).reciprocal.is_none());
        assert!(Divisor256::new(I256::ONE << 70).reciprocal.is_none());
        assert!(Divisor256::new(I256::ONE).reciprocal.is_none());
    }

    #[test]
    fn narrow_products_match_the_general_one() {
        let samples = [
            0,
            1,
            u64::MAX as u128,
            u128::MAX,
            1 << 127,
            10u128.pow(38),
            12_345_678_901_234_567_890_123,
        ];
        for a in samples {
            for b in samples {
                let (a, b) = (U256::from(a), U256::from(b));
                assert_eq!(mul(a, b), a.wrapping_mul(b), "{a} * {b}");
            }
        }
    }

    #[test]
    fn conversions_bracket_the_value() {
        for shift in [0, 1, 52, 53, 63, 64, 65, 127, 128, 200, 254] {
            let v = (U256::ONE << shift) | U256::ONE;
            let back = to_u256(to_f64(v));
            assert!(back <= v + (v >> 52) && back >= v - (v >> 52), "2^{shift} + 1");
            assert_eq!(to_u256(to_f64(U256::ONE << shift)), U256::ONE << shift);
        }
        assert_eq!(to_u256(f64::NAN), U256::ZERO);
        assert_eq!(to_u256(-1.0), U256::ZERO);
        assert_eq!(to_u256(f64::INFINITY), U256::ZERO);
        for shift in [1, 63, 64, 65, 100, 127, 128] {
            let v = (u128::MAX >> (128 - shift)) | 1;
            let f = u128_to_f64(v);
            assert!(f >= v as f64 * (1.0 - 1e-15) && f <= v as f64 * (1.0 + 1e-15), "{v}");
        }
    }

    /// A value of `bits` magnitude bits from two random words.
    fn wide(hi: u128, lo: u128, bits: u32) -> I256 {
        let v = U256::from_words(hi, lo) >> (256 - bits.clamp(1, 255));
        v.as_i256()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn matches_long_division(
            (n_hi, n_lo, n_bits) in (any::<u128>(), any::<u128>(), 1u32..=255),
            (d_hi, d_lo, d_bits) in (any::<u128>(), any::<u128>(), 1u32..=255),
            negative in any::<bool>(),
        ) {
            let n = wide(n_hi, n_lo, n_bits);
            let d = wide(d_hi, d_lo, d_bits).max(I256::ONE);
            let n = if negative { n.wrapping_neg() } else { n };
            for prepared in both_paths(d) {
                prop_assert_eq!(prepared.div_rem(n), (n / d, n % d));
            }
        }

        #[test]
        fn narrow_products(a in any::<u128>(), b in any::<u128>()) {
            let (a, b) = (U256::from(a), U256::from(b));
            prop_assert_eq!(mul(a, b), a.wrapping_mul(b));
        }

        #[test]
        fn powers_of_ten_near_multiples(k in 1u32..=76, q_hi in any::<u128>(), q_lo in any::<u128>(), r in -2i32..=2) {
            let d = pow10(k);
            // A quotient that keeps q * d within 255 bits.
            let q = (U256::from_words(q_hi, q_lo) >> (1 + (256 - d.leading_zeros()))).as_i256();
            let n = q.wrapping_mul(d).wrapping_add(I256::new(r.into()));
            if n >= I256::ZERO {
                for prepared in both_paths(d) {
                    prop_assert_eq!(prepared.div_rem(n), (n / d, n % d));
                }
            }
        }
    }
}
