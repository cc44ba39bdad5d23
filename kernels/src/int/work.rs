//! The integer types the kernels compute in.
//!
//! A kernel call picks one work type for all its rows: the narrowest whose
//! range provably holds every intermediate of the operation, given bounds on the
//! operands (see `plan`). Within that type, arithmetic is wrapping: it never
//! wraps, by that choice, and wrapping operations vectorize and never trap.
//! [`I512`] is the exception and the last resort: it saturates, so it is exact
//! wherever an exact answer can fit a result of 76 digits and reports overflow
//! everywhere else.

use arrow_buffer::i256;
use ethnum::I256;

use crate::int::estimate_256::Divisor256;
use crate::int::i512::I512;
use crate::int::magic::{Magic64, Magic128};

/// An integer type that kernels compute in.
///
/// Callers guarantee that no operation leaves the range the kernel planned
/// for; `MAGNITUDE_BITS` states that range (`|v| < 2^MAGNITUDE_BITS`).
pub trait Work: Copy + PartialEq + PartialOrd + core::fmt::Debug + Send + Sync + 'static {
    /// Every magnitude below `2^MAGNITUDE_BITS` is representable, and so is its
    /// negation; `u32::MAX` for the saturating type.
    const MAGNITUDE_BITS: u32;
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// The largest value.
    const MAX: Self;

    /// `10^k`; only called for `k` whose power fits (saturating for [`I512`]).
    fn pow10(k: u32) -> Self;
    /// Sum.
    fn add(self, rhs: Self) -> Self;
    /// Difference.
    fn sub(self, rhs: Self) -> Self;
    /// Product.
    fn mul(self, rhs: Self) -> Self;
    /// Product, and whether it left the type (saturating types never do: a
    /// saturated product already exceeds every decimal bound).
    fn overflowing_mul(self, rhs: Self) -> (Self, bool);
    /// Sum, and whether it left the type (never, for saturating types).
    fn overflowing_add(self, rhs: Self) -> (Self, bool);
    /// Difference, and whether it left the type (never, for saturating types).
    fn overflowing_sub(self, rhs: Self) -> (Self, bool);
    /// Negation.
    fn neg(self) -> Self;
    /// Whether the value is below zero.
    fn is_negative(self) -> bool;
    /// Whether the value is zero.
    fn is_zero(self) -> bool;
    /// Whether the value is odd.
    fn is_odd(self) -> bool;
    /// Absolute value (in range by the caller's plan).
    fn abs(self) -> Self;
    /// Truncating quotient and remainder (remainder takes the dividend's sign);
    /// the caller never passes a zero divisor.
    fn div_rem(self, divisor: Self) -> (Self, Self);

    /// A positive divisor prepared once for many divisions (see `magic`).
    type Divisor: Copy + core::fmt::Debug + Send + Sync;
    /// Prepares a positive divisor.
    fn prepare_divisor(divisor: Self) -> Self::Divisor;
    /// [`div_rem`](Self::div_rem) by a prepared divisor.
    fn div_rem_by(self, divisor: &Self::Divisor) -> (Self, Self);

    /// The value of an `i64`, wrapped to the type if it does not fit.
    fn from_i64(v: i64) -> Self;
    /// The value of an `i128`, wrapped to the type if it does not fit.
    fn from_i128(v: i128) -> Self;
    /// The value of an `i256`, wrapped to the type if it does not fit.
    fn from_i256(v: i256) -> Self;
    /// The low 64 bits, two's complement.
    fn wrapping_to_i64(self) -> i64;
    /// The low 128 bits, two's complement.
    fn wrapping_to_i128(self) -> i128;
    /// The low 256 bits, two's complement.
    fn wrapping_to_i256(self) -> i256;

    /// `min(10^p - 1, MAX)`: the magnitude bound of a `p`-digit result as seen
    /// from this type (a bound the type cannot reach is never exceeded).
    fn precision_bound(p: u32) -> Self {
        if crate::int::pow10::pow10_bits(p) > Self::MAGNITUDE_BITS {
            Self::MAX
        } else {
            Self::pow10(p).sub(Self::ONE)
        }
    }

    /// `|self| > bound` for a non-negative `bound`, without forming `|self|`.
    #[inline(always)]
    fn exceeds(self, bound: Self) -> bool {
        self > bound || self < bound.neg()
    }
}

pub(crate) fn i256_to_ethnum(v: i256) -> I256 {
    let (lo, hi) = v.to_parts();
    I256::from_words(hi, lo as i128)
}

pub(crate) fn ethnum_to_i256(v: I256) -> i256 {
    let (hi, lo) = v.into_words();
    i256::from_parts(lo as u128, hi)
}

/// Implements the parts of [`Work`] that are spelled the same for every
/// primitive integer (`i64`, `i128`, ethnum's `I256`).
macro_rules! wrapping_work_arith {
    () => {
        #[inline(always)]
        fn add(self, rhs: Self) -> Self {
            self.wrapping_add(rhs)
        }
        #[inline(always)]
        fn sub(self, rhs: Self) -> Self {
            self.wrapping_sub(rhs)
        }
        #[inline(always)]
        fn mul(self, rhs: Self) -> Self {
            self.wrapping_mul(rhs)
        }
        #[inline(always)]
        fn overflowing_mul(self, rhs: Self) -> (Self, bool) {
            Self::overflowing_mul(self, rhs)
        }
        #[inline(always)]
        fn overflowing_add(self, rhs: Self) -> (Self, bool) {
            Self::overflowing_add(self, rhs)
        }
        #[inline(always)]
        fn overflowing_sub(self, rhs: Self) -> (Self, bool) {
            Self::overflowing_sub(self, rhs)
        }
        #[inline(always)]
        fn neg(self) -> Self {
            self.wrapping_neg()
        }
        #[inline(always)]
        fn is_negative(self) -> bool {
            self < Self::ZERO
        }
        #[inline(always)]
        fn is_zero(self) -> bool {
            self == Self::ZERO
        }
        #[inline(always)]
        fn is_odd(self) -> bool {
            (self & Self::ONE) != Self::ZERO
        }
        #[inline(always)]
        fn abs(self) -> Self {
            self.wrapping_abs()
        }
    };
}

/// Implements [`Work::div_rem`] with the type's own division (`i64`, `i128`).
macro_rules! wrapping_div_rem {
    () => {
        #[inline(always)]
        fn div_rem(self, divisor: Self) -> (Self, Self) {
            // Wrapping forms: `MIN / -1` cannot occur within a planned range,
            // and must not trap if a caller ever got the plan wrong.
            (self.wrapping_div(divisor), self.wrapping_rem(divisor))
        }
    };
}

impl Work for i64 {
    const MAGNITUDE_BITS: u32 = 63;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const MAX: Self = i64::MAX;

    fn pow10(k: u32) -> Self {
        10i64.wrapping_pow(k)
    }
    wrapping_work_arith!();
    wrapping_div_rem!();

    type Divisor = Magic64;
    fn prepare_divisor(divisor: Self) -> Magic64 {
        Magic64::new(divisor.unsigned_abs())
    }
    #[inline(always)]
    fn div_rem_by(self, divisor: &Magic64) -> (Self, Self) {
        divisor.div_rem(self)
    }

    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v
    }
    #[inline(always)]
    fn from_i128(v: i128) -> Self {
        v as i64
    }
    #[inline(always)]
    fn from_i256(v: i256) -> Self {
        v.as_i128() as i64
    }
    #[inline(always)]
    fn wrapping_to_i64(self) -> i64 {
        self
    }
    #[inline(always)]
    fn wrapping_to_i128(self) -> i128 {
        i128::from(self)
    }
    #[inline(always)]
    fn wrapping_to_i256(self) -> i256 {
        i256::from_i128(i128::from(self))
    }
}

impl Work for i128 {
    const MAGNITUDE_BITS: u32 = 127;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const MAX: Self = i128::MAX;

    fn pow10(k: u32) -> Self {
        10i128.wrapping_pow(k)
    }
    wrapping_work_arith!();

    #[inline(always)]
    fn div_rem(self, divisor: Self) -> (Self, Self) {
        crate::int::div_128::div_rem(self, divisor)
    }

    type Divisor = Magic128;
    fn prepare_divisor(divisor: Self) -> Magic128 {
        Magic128::new(divisor.unsigned_abs())
    }
    #[inline(always)]
    fn div_rem_by(self, divisor: &Magic128) -> (Self, Self) {
        divisor.div_rem(self)
    }

    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        i128::from(v)
    }
    #[inline(always)]
    fn from_i128(v: i128) -> Self {
        v
    }
    #[inline(always)]
    fn from_i256(v: i256) -> Self {
        v.as_i128()
    }
    #[inline(always)]
    fn wrapping_to_i64(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn wrapping_to_i128(self) -> i128 {
        self
    }
    #[inline(always)]
    fn wrapping_to_i256(self) -> i256 {
        i256::from_i128(self)
    }
}

impl Work for I256 {
    const MAGNITUDE_BITS: u32 = 255;
    const ZERO: Self = I256::ZERO;
    const ONE: Self = I256::ONE;
    const MAX: Self = I256::MAX;

    fn pow10(k: u32) -> Self {
        I256::new(10).wrapping_pow(k)
    }
    wrapping_work_arith!();

    /// A divisor below `2^128` and a quotient that fits 128 bits (every
    /// quotient of 38 digits) divide word by word (see `div_256`); anything
    /// else takes one general division, the remainder multiplied back from
    /// the quotient.
    #[inline(always)]
    fn div_rem(self, divisor: Self) -> (Self, Self) {
        if let Some(qr) = crate::int::div_256::div_rem(self, divisor) {
            return qr;
        }
        // Wrapping forms, as for `i64`: `MIN / -1` gives `(MIN, 0)`.
        let q = self.wrapping_div(divisor);
        (q, self.wrapping_sub(q.wrapping_mul(divisor)))
    }

    // A multiply-high constant for every 256-bit numerator would need
    // 512-bit products: a 128-bit one serves quotients below 2^128, and `f64`
    // estimates, corrected exactly, the rest (see `estimate_256`).
    type Divisor = Divisor256;
    fn prepare_divisor(divisor: Self) -> Divisor256 {
        Divisor256::new(divisor)
    }
    #[inline(always)]
    fn div_rem_by(self, divisor: &Divisor256) -> (Self, Self) {
        divisor.div_rem(self)
    }

    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        I256::new(i128::from(v))
    }
    #[inline(always)]
    fn from_i128(v: i128) -> Self {
        I256::new(v)
    }
    #[inline(always)]
    fn from_i256(v: i256) -> Self {
        i256_to_ethnum(v)
    }
    #[inline(always)]
    fn wrapping_to_i64(self) -> i64 {
        self.as_i64()
    }
    #[inline(always)]
    fn wrapping_to_i128(self) -> i128 {
        self.as_i128()
    }
    #[inline(always)]
    fn wrapping_to_i256(self) -> i256 {
        ethnum_to_i256(self)
    }
}

impl Work for I512 {
    const MAGNITUDE_BITS: u32 = u32::MAX;
    const ZERO: Self = I512::ZERO;
    const ONE: Self = I512::ONE;
    const MAX: Self = I512::MAX;

    fn pow10(k: u32) -> Self {
        I512::pow10(k)
    }
    fn add(self, rhs: Self) -> Self {
        self.saturating_add(rhs)
    }
    fn sub(self, rhs: Self) -> Self {
        self.saturating_sub(rhs)
    }
    fn mul(self, rhs: Self) -> Self {
        self.saturating_mul(rhs)
    }
    fn overflowing_mul(self, rhs: Self) -> (Self, bool) {
        (self.saturating_mul(rhs), false)
    }
    fn overflowing_add(self, rhs: Self) -> (Self, bool) {
        (self.saturating_add(rhs), false)
    }
    fn overflowing_sub(self, rhs: Self) -> (Self, bool) {
        (self.saturating_sub(rhs), false)
    }
    fn neg(self) -> Self {
        I512::neg(self)
    }
    fn is_negative(self) -> bool {
        I512::is_negative(self)
    }
    fn is_zero(self) -> bool {
        I512::is_zero(self)
    }
    fn is_odd(self) -> bool {
        I512::is_odd(self)
    }
    fn abs(self) -> Self {
        I512::abs(self)
    }
    fn div_rem(self, divisor: Self) -> (Self, Self) {
        I512::div_rem(self, divisor)
    }
    type Divisor = Self;
    fn prepare_divisor(divisor: Self) -> Self {
        divisor
    }
    fn div_rem_by(self, divisor: &Self) -> (Self, Self) {
        I512::div_rem(self, *divisor)
    }
    fn from_i64(v: i64) -> Self {
        I512::from_i64(v)
    }
    fn from_i128(v: i128) -> Self {
        I512::from_i128(v)
    }
    fn from_i256(v: i256) -> Self {
        I512::from_i256(i256_to_ethnum(v))
    }
    fn wrapping_to_i64(self) -> i64 {
        I512::wrapping_to_i64(self)
    }
    fn wrapping_to_i128(self) -> i128 {
        I512::wrapping_to_i128(self)
    }
    fn wrapping_to_i256(self) -> i256 {
        ethnum_to_i256(I512::wrapping_to_i256(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn i256_conversions_round_trip() {
        for v in [i256::MIN, i256::MAX, i256::ZERO, i256::MINUS_ONE, i256::from_i128(i128::MIN)] {
            assert_eq!(ethnum_to_i256(i256_to_ethnum(v)), v);
            assert_eq!(I512::from_i256(i256_to_ethnum(v)).wrapping_to_i256(), i256_to_ethnum(v));
        }
    }

    fn i256(v: &str) -> I256 {
        I256::from_str_radix(v, 10).expect("a number")
    }

    /// Both paths of `I256`'s division against ethnum's quotient and
    /// remainder, with every sign.
    #[rstest::rstest]
    #[case::word_steps(
        i256("99999999999999999999999999999999999999990000000000000"),
        i256("12345678901234567890123456789012345678")
    )]
    #[case::quotient_of_128_bits(I256::ONE << 200u32, (I256::ONE << 72u32) + I256::ONE)]
    #[case::quotient_of_129_bits(I256::ONE << 200u32, (I256::ONE << 71u32) + I256::ONE)]
    #[case::divisor_of_2_to_128(I256::MAX, I256::ONE << 128u32)]
    #[case::divisor_above_2_to_128(I256::MAX, (I256::ONE << 128u32) + I256::new(3))]
    #[case::largest_by_itself(I256::MAX, I256::MAX)]
    #[case::smallest_by_one(I256::MIN + I256::ONE, I256::ONE)]
    fn i256_div_rem_matches_the_general_division(#[case] n: I256, #[case] d: I256) {
        for (n, d) in [(n, d), (-n, d), (n, -d), (-n, -d)] {
            assert_eq!(Work::div_rem(n, d), (n / d, n % d), "{n} / {d}");
        }
    }

    #[test]
    fn i256_most_negative_by_minus_one_wraps() {
        assert_eq!(Work::div_rem(I256::MIN, I256::MINUS_ONE), (I256::MIN, I256::ZERO));
    }

    #[test]
    fn precision_bound_caps_at_the_type() {
        assert_eq!(<i64 as Work>::precision_bound(18), 999_999_999_999_999_999);
        assert_eq!(<i64 as Work>::precision_bound(19), i64::MAX);
        assert_eq!(<i128 as Work>::precision_bound(38), 10i128.pow(38) - 1);
        assert_eq!(<i128 as Work>::precision_bound(39), i128::MAX);
    }
}
