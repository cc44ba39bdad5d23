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
    /// `l`: the quotient is `n * m` shifted right by `63 + l`, taken as a
    /// shift by the constant 63 (`n * m < 2^127`, so the result is one word)
    /// and then one by `l` in 64 bits: a shift of the 128-bit product by a
    /// variable count compiled to a double shift, a test and a selection
    /// per row.
    shift: u32,
}

impl Magic64 {
    /// Prepares `divisor` (which must be non-zero; zero is treated as one).
    #[must_use]
    pub fn new(divisor: u64) -> Self {
        let divisor = divisor.max(1);
        let l = u64::BITS - (divisor - 1).leading_zeros();
        if l == u64::BITS {
            // `d > 2^63 > n`: every quotient is zero, and `l` would not be a
            // valid shift of a word.
            return Self { divisor, multiplier: 0, shift: 0 };
        }
        // m = ceil(2^(63+l) / d) < 2^64; 63 + l <= 126 fits u128.
        let multiplier = (1u128 << (63 + l)).div_ceil(u128::from(divisor)) as u64;
        Self { divisor, multiplier, shift: l }
    }

    /// `floor(n / d)` for `n < 2^63`.
    #[inline(always)]
    #[must_use]
    pub fn quotient(&self, n: u64) -> u64 {
        (((u128::from(n) * u128::from(self.multiplier)) >> 63) as u64) >> self.shift
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
pub(crate) fn widening_mul(a: u128, b: u128) -> (u128, u128) {
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

/// `d` prepared for numerators of up to 256 bits whose quotient is below
/// `2^127` (and some up to `2^128`), for `3 <= d < 2^128 / 3` not a power of
/// two (every `10^k` with `1 <= k <= 38`).
///
/// The multiplier applies to the numerator's leading 128 bits: with
/// `2^s < d < 2^(s+1)`, `m = floor(2^(128+s) / d) < 2^128` and
/// `t = floor(n / 2^s) < 2^128`, `q = floor(t * m / 2^128)` falls short of
/// `n / d` by less than `u / d < 1` (the bits `u` of `n` below `2^s`) plus
/// `t / 2^128 < 1` (the rounding of `m`): `q <= n / d < q + 3`. So
/// `r = (n - q * d) mod 2^128` is exact (`0 <= r < 3d < 2^128`), and two
/// conditional steps finish the division.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Magic256 {
    divisor: u128,
    multiplier: u128,
    shift: u32,
}

impl Magic256 {
    /// Prepares `divisor`, if it is at least 3, below `2^128 / 3` and not a
    /// power of two.
    pub(crate) fn new(divisor: u128) -> Option<Self> {
        if !(3..=u128::MAX / 3).contains(&divisor) || divisor.is_power_of_two() {
            return None;
        }
        // Not a power of two, so d > 2^shift and the multiplier is below 2^128.
        let shift = 127 - divisor.leading_zeros();
        let multiplier = ((U256::ONE << (128 + shift)) / U256::from(divisor)).as_u128();
        Some(Self { divisor, multiplier, shift })
    }

    /// `(n / d, n % d)` for `n = high * 2^128 + low` when `n < 2^(128+s)`;
    /// `None` otherwise, which only a quotient above `2^127` reaches
    /// (`n / d > 2^(128+s) / 2^(s+1)`).
    #[inline(always)]
    pub(crate) fn div_rem(&self, (high, low): (u128, u128)) -> Option<(u128, u128)> {
        // shift is 1..=125 (3 <= d < 2^128 / 3).
        if high >> self.shift != 0 {
            return None;
        }
        let leading = (high << (128 - self.shift)) | (low >> self.shift);
        let mut q = widening_mul(leading, self.multiplier).0;
        let mut r = low.wrapping_sub(q.wrapping_mul(self.divisor));
        for _ in 0..2 {
            let step = r >= self.divisor;
            q += u128::from(step);
            r -= u128::from(step) * self.divisor;
        }
        Some((q, r))
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

    #[test]
    fn magic256_serves_powers_of_ten_up_to_38() {
        assert!((1..=38).all(|k| Magic256::new(10u128.pow(k)).is_some()));
        assert_eq!(Magic256::new(1), None);
        assert_eq!(Magic256::new(1 << 70), None);
        assert_eq!(Magic256::new(u128::MAX / 3 + 1), None);
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
        fn magic256_matches_division(high in any::<u128>(), low in any::<u128>(), k in 1u32..=38, d in 3u128..(u128::MAX / 3)) {
            for d in [10u128.pow(k), d] {
                let Some(m) = Magic256::new(d) else { continue };
                let n = U256::from_words(high, low);
                let (q, r) = (n / U256::from(d), n % U256::from(d));
                match m.div_rem((high, low)) {
                    Some(got) => prop_assert_eq!(got, (q.as_u128(), r.as_u128())),
                    None => prop_assert!(q > U256::from(u128::MAX >> 1), "{n} / {d} declined"),
                }
                // Every quotient below 2^127 is served.
                let small = n >> (129 + (127 - d.leading_zeros()));
                let (q, r) = (small / U256::from(d), small % U256::from(d));
                prop_assert_eq!(m.div_rem((*small.high(), *small.low())), Some((q.as_u128(), r.as_u128())));
            }
        }

        #[test]
        fn magic256_near_the_largest_quotient_it_serves(k in 1u32..=38, below in 0u128..4) {
            let d = 10u128.pow(k);
            let m = Magic256::new(d).expect("a power of ten above 1");
            let shift = 127 - d.leading_zeros();
            // The largest numerator served, 2^(128+s) - 1, and those just below it.
            let n = (U256::ONE << (128 + shift)) - U256::ONE - U256::from(below);
            let want = (n / U256::from(d), n % U256::from(d));
            prop_assert_eq!(m.div_rem((*n.high(), *n.low())), Some((want.0.as_u128(), want.1.as_u128())));
            let over = n + U256::from(below) + U256::ONE;
            prop_assert_eq!(m.div_rem((*over.high(), *over.low())), None);
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
