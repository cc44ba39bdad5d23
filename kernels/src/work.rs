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

use core::mem::MaybeUninit;

use crate::arity::{Copies, RowKernel};
use crate::column::{Column, Slots, narrower_than_storage};
use crate::estimate_wide::WideDivisor;
use crate::magic::{Magic64, Magic128};
use crate::storage::Stored;
use crate::storage::{cast_slice, cast_slice_mut};
use crate::wide::I512;

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

    /// The column's values when it is stored as this very type (`i64`,
    /// `i128`): blocks are then read in place.
    #[inline(always)]
    fn from_column<'a>(column: &Column<'a>) -> Option<&'a [Self]> {
        let _ = column;
        None
    }

    /// Output slots as slots of this type when the output is stored with
    /// its memory layout: results are then written in place.
    #[inline(always)]
    fn output_slots(slots: Slots<'_>) -> Option<&mut [MaybeUninit<Self>]> {
        let _ = slots;
        None
    }

    /// Kernel `K`'s block over the words of values stored as `S`, in this
    /// type: `None` unless the type is narrower than the storage and a
    /// narrow one (`i64`, `i128`), where reading words pays.
    #[inline(always)]
    fn block_of_words<S: Stored, K: RowKernel<Self>, C: Copies>(
        a: &[S::Words],
        b: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        constants: &K::Constants,
    ) -> Option<u8> {
        // Compiled only where it pays and the storage is wider.
        if const { Self::WORDS_PAY && narrower_than_storage::<S, Self>() } {
            Some(C::words_block::<S, Self, K>(a, b, out, constants))
        } else {
            None
        }
    }

    /// Whether reading wider storage as words pays in this type (`i64`,
    /// `i128`: the low words hold the whole value; wider types convert).
    const WORDS_PAY: bool = false;

    /// `min(10^p - 1, MAX)`: the magnitude bound of a `p`-digit result as seen
    /// from this type (a bound the type cannot reach is never exceeded).
    fn precision_bound(p: u32) -> Self {
        if crate::pow10::pow10_bits(p) > Self::MAGNITUDE_BITS {
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

    const WORDS_PAY: bool = true;

    #[inline(always)]
    fn from_column<'a>(column: &Column<'a>) -> Option<&'a [Self]> {
        match *column {
            Column::I64(values) => Some(values),
            _ => None,
        }
    }
    #[inline(always)]
    fn output_slots(slots: Slots<'_>) -> Option<&mut [MaybeUninit<Self>]> {
        match slots {
            Slots::I64(slots) => Some(slots),
            _ => None,
        }
    }

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
    wrapping_div_rem!();

    const WORDS_PAY: bool = true;

    #[inline(always)]
    fn from_column<'a>(column: &Column<'a>) -> Option<&'a [Self]> {
        match *column {
            Column::I128(values) => Some(values),
            _ => None,
        }
    }
    #[inline(always)]
    fn output_slots(slots: Slots<'_>) -> Option<&mut [MaybeUninit<Self>]> {
        match slots {
            Slots::I128(slots) => Some(slots),
            _ => None,
        }
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
    /// quotient of 38 digits) divide word by word (see `wide_div`); anything
    /// else takes one general division, the remainder multiplied back from
    /// the quotient.
    #[inline(always)]
    fn div_rem(self, divisor: Self) -> (Self, Self) {
        if let Some(qr) = crate::wide_div::div_rem(self, divisor) {
            return qr;
        }
        // Wrapping forms, as for `i64`: `MIN / -1` gives `(MIN, 0)`.
        let q = self.wrapping_div(divisor);
        (q, self.wrapping_sub(q.wrapping_mul(divisor)))
    }

    #[inline(always)]
    fn from_column<'a>(column: &Column<'a>) -> Option<&'a [Self]> {
        match *column {
            Column::I256(values) if cfg!(target_endian = "little") => {
                // SAFETY: on little-endian targets arrow's `i256` (`repr(C)`,
                // low `u128` then high `i128`) and ethnum's `I256` (two
                // `i128` words, least significant first) are the same 32
                // bytes, and every bit pattern is valid for both.
                Some(unsafe { cast_slice(values) })
            }
            _ => None,
        }
    }
    #[inline(always)]
    fn output_slots(slots: Slots<'_>) -> Option<&mut [MaybeUninit<Self>]> {
        match slots {
            Slots::I256(slots) if cfg!(target_endian = "little") => {
                // SAFETY: as in `from_column`: the same memory image, so a
                // slot written as `I256` holds the `i256` of the same value.
                Some(unsafe { cast_slice_mut(slots) })
            }
            _ => None,
        }
    }

    // A multiply-high constant for every 256-bit numerator would need
    // 512-bit products: a 128-bit one serves quotients below 2^128, and `f64`
    // estimates, corrected exactly, the rest (see `estimate_wide`).
    type Divisor = WideDivisor;
    fn prepare_divisor(divisor: Self) -> WideDivisor {
        WideDivisor::new(divisor)
    }
    #[inline(always)]
    fn div_rem_by(self, divisor: &WideDivisor) -> (Self, Self) {
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

    #[test]
    fn wide_columns_read_in_place_equal_converted_ones() {
        let values = [i256::MIN, i256::MAX, i256::ZERO, i256::MINUS_ONE, i256::from_i128(-7)];
        let column = Column::I256(&values);
        let little_endian = cfg!(target_endian = "little");
        assert_eq!(I256::from_column(&column).is_some(), little_endian, "read in place");
        if let Some(in_place) = I256::from_column(&column) {
            let converted: Vec<I256> = values.iter().map(|&v| i256_to_ethnum(v)).collect();
            assert_eq!(in_place, &converted[..]);
        }
        let mut out = Vec::<i256>::with_capacity(values.len());
        let slots = I256::output_slots(Slots::I256(out.spare_capacity_mut()));
        assert_eq!(slots.is_some(), little_endian, "written in place");
        if let Some(slots) = slots {
            for (slot, &v) in slots.iter_mut().zip(&values) {
                slot.write(i256_to_ethnum(v));
            }
            // SAFETY: every slot was written just above.
            unsafe { out.set_len(values.len()) };
            assert_eq!(out, values);
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
