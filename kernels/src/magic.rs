//! Division by a constant with a multiplication.
//!
//! A divisor fixed for a whole call (`10^k` when a product is rescaled, a
//! scalar divisor) is prepared once into a multiplier `m` and a shift, so that
//! each row costs one widening multiply instead of a hardware divide.
//!
//! Method: Granlund and Montgomery, "Division by Invariant Integers using
//! Multiplication" (PLDI 1994), Theorem 4.2: for `N`-bit numerators and a
//! divisor `d` with `2^(l-1) < d <= 2^l`, the multiplier
//! `m = ceil(2^(N+l) / d)` satisfies `floor(n / d) = floor(n * m / 2^(N+l))`
//! for every `0 <= n < 2^N`, and `m < 2^(N+1)`. Taking `N` one bit short of the
//! word (63, 127) keeps `m` within one unsigned word. Work values satisfy
//! `|n| < 2^N` by the kernels' plan, so the magnitude of a signed numerator
//! always qualifies.

use ethnum::U256;

/// `d > 0` prepared for numerators below `2^63`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Magic64 {
    divisor: u64,
    multiplier: u64,
    shift: u32,
}

impl Magic64 {
    /// Prepares `divisor` (which must be non-zero; zero is treated as one).
    #[must_use]
    pub fn new(divisor: u64) -> Self {
        let divisor = divisor.max(1);
        let l = u64::BITS - (divisor - 1).leading_zeros();
        let shift = 63 + l;
        // m = ceil(2^(63+l) / d) < 2^64; 63 + l <= 127 fits u128.
        let multiplier = (1u128 << shift).div_ceil(u128::from(divisor)) as u64;
        Self { divisor, multiplier, shift }
    }

    /// `floor(n / d)` for `n < 2^63`.
    #[inline(always)]
    #[must_use]
    pub fn quotient(&self, n: u64) -> u64 {
        ((u128::from(n) * u128::from(self.multiplier)) >> self.shift) as u64
    }

    /// Truncating quotient and remainder of a signed `n` with `|n| < 2^63`.
    #[inline(always)]
    #[must_use]
    pub fn div_rem(&self, n: i64) -> (i64, i64) {
        // The sign restored with a mask, not a branch: signs of data are
        // unpredictable (`sign` is 0 or -1, `(q ^ sign) - sign` is `q` or `-q`).
        let sign = n >> 63;
        let q = ((self.quotient(n.unsigned_abs()) as i64) ^ sign).wrapping_sub(sign);
        (q, n.wrapping_sub(q.wrapping_mul(self.divisor as i64)))
    }
}

/// `d > 0` prepared for numerators below `2^127`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Magic128 {
    divisor: u128,
    multiplier: u128,
    /// `l`: the quotient is the high word of `n * m` shifted right by `l - 1`.
    l: u32,
}

/// The 256-bit product of two `u128`, as (high, low).
#[inline(always)]
fn widening_mul(a: u128, b: u128) -> (u128, u128) {
    let (a1, a0) = (a >> 64, a & u128::from(u64::MAX));
    let (b1, b0) = (b >> 64, b & u128::from(u64::MAX));
    let low = a0 * b0;
    let cross1 = a0 * b1;
    let cross2 = a1 * b0;
    let middle = (low >> 64) + (cross1 & u128::from(u64::MAX)) + (cross2 & u128::from(u64::MAX));
    let lo = (middle << 64) | (low & u128::from(u64::MAX));
    let hi = a1 * b1 + (cross1 >> 64) + (cross2 >> 64) + (middle >> 64);
    (hi, lo)
}

impl Magic128 {
    /// Prepares `divisor` (which must be non-zero; zero is treated as one).
    #[must_use]
    pub fn new(divisor: u128) -> Self {
        let divisor = divisor.max(1);
        let l = u128::BITS - (divisor - 1).leading_zeros();
        // m = ceil(2^(127+l) / d) < 2^128, computed in 256 bits.
        let numerator = U256::ONE << (127 + l);
        let d = U256::from(divisor);
        let multiplier = ((numerator + d - U256::ONE) / d).as_u128();
        Self { divisor, multiplier, l }
    }

    /// `floor(n / d)` for `n < 2^127`.
    #[inline(always)]
    #[must_use]
    pub fn quotient(&self, n: u128) -> u128 {
        let (hi, lo) = widening_mul(n, self.multiplier);
        // The product shifted right by 127 + l.
        match self.l {
            0 => (hi << 1) | (lo >> 127),
            l => hi >> (l - 1),
        }
    }

    /// Truncating quotient and remainder of a signed `n` with `|n| < 2^127`.
    #[inline(always)]
    #[must_use]
    pub fn div_rem(&self, n: i128) -> (i128, i128) {
        // As in `Magic64::div_rem`: the sign restored with a mask.
        let sign = n >> 127;
        let q = ((self.quotient(n.unsigned_abs()) as i128) ^ sign).wrapping_sub(sign);
        (q, n.wrapping_sub(q.wrapping_mul(self.divisor as i128)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rstest::rstest;

    fn divisors_64() -> Vec<u64> {
        let mut d: Vec<u64> = (0..=18).map(|k| 10u64.pow(k)).collect();
        d.extend([1, 2, 3, 7, 641, u64::from(u32::MAX), (1 << 62) + 1, (1 << 63) - 1, 1 << 63]);
        d
    }

    fn divisors_128() -> Vec<u128> {
        let mut d: Vec<u128> = (0..=38).map(|k| 10u128.pow(k)).collect();
        d.extend([
            1,
            3,
            7,
            u128::from(u64::MAX),
            u128::from(u64::MAX) + 2,
            (1 << 126) + 1,
            (1 << 127) - 1,
            1 << 127,
        ]);
        d
    }

    #[rstest]
    #[case::zero(0)]
    #[case::one(1)]
    #[case::largest(i64::MAX)]
    #[case::most_negative_allowed(-i64::MAX)]
    #[case::just_below_power(999_999_999_999_999_999)]
    #[case::negative_tie(-15)]
    fn magic64_edges(#[case] n: i64) {
        for d in divisors_64() {
            let m = Magic64::new(d);
            let d = d as i128;
            let want = (i128::from(n) / d, i128::from(n) % d);
            let (q, r) = m.div_rem(n);
            assert_eq!((i128::from(q), i128::from(r)), want, "{n} / {d}");
        }
    }

    #[rstest]
    #[case::zero(0)]
    #[case::largest(i128::MAX)]
    #[case::most_negative_allowed(-i128::MAX)]
    #[case::ten_to_38_minus_one(10i128.pow(38) - 1)]
    #[case::two_to_64(1 << 64)]
    fn magic128_edges(#[case] n: i128) {
        for d in divisors_128() {
            let m = Magic128::new(d);
            let (q, r) = m.div_rem(n);
            let d = d as i128;
            // i128 division is exact here except for d = 2^127 (negative as i128).
            if d > 0 {
                assert_eq!((q, r), (n / d, n % d), "{n} / {d}");
            } else {
                assert_eq!(q, 0, "{n} / 2^127");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn magic64_matches_division(n in 0u64..(1 << 63), d in 1u64..=u64::MAX, k in 0u32..=18) {
            prop_assert_eq!(Magic64::new(d).quotient(n), n / d);
            let p = 10u64.pow(k);
            prop_assert_eq!(Magic64::new(p).quotient(n), n / p);
        }

        #[test]
        fn magic128_matches_division(n in 0u128..(1 << 127), d in 1u128..=u128::MAX, k in 0u32..=38, bits in 0u32..127) {
            prop_assert_eq!(Magic128::new(d).quotient(n), n / d);
            let p = 10u128.pow(k);
            prop_assert_eq!(Magic128::new(p).quotient(n), n / p);
            let small = n >> bits;
            prop_assert_eq!(Magic128::new(p).quotient(small), small / p);
        }
    }
}
