//! Quotients, remainders and rescales of `i64` rows computed wholly in
//! double precision, for calls whose scaled dividends, divisors and results
//! stay below `2^51` (see `int::exact_double`): the operands' scale factors,
//! the division, the rounding and the precision check are all double
//! operations, which vectorize at every x86-64 level, and only the result
//! goes back to `i64`. The 64-bit multiplies and compares of the generic
//! kernels have no AVX2 or SSE2 instruction and would be emulated around
//! the division.
//!
//! Formulas, with `n = a * 10^ka` and `d = b * 10^kb` (both exact):
//! - quotient: `q = round(n / d)`, rounded from the floor quotient of the
//!   magnitudes and its remainder by the call's mode, then given the sign of
//!   `n / d`; overflow when `|q| > 10^p - 1`;
//! - remainder: `r = (n rem d) * 10^m`, the sign of `n`; overflow when
//!   `|r| > 10^p - 1`;
//! - one divisor for every row: its magnitude and reciprocal are prepared
//!   once, and its sign goes into the dividend's factor.
//!
//! A zero divisor is replaced by one and flagged. Rows outside the bounds
//! (garbage under a null) give wrong values, never a trap.
//!
//! The portable copy, whose two-double SSE2 lanes are bound by the count
//! of vector operations a row, takes these kernels for none of its calls
//! but remainders by a divisor per row, in a leaner form with one
//! correction ([`LeanRemainderInDouble`], its proof there).

use core::marker::PhantomData;

use crate::driver::kernel::{BinaryKernel, DIVIDE_BY_ZERO, OVERFLOW, UnaryKernel};
use crate::int::exact_double::{
    floor_div_rem_by_division, floor_div_rem_by_inverse, nearest, sign_bits, to_f64, to_i64,
    with_sign,
};
use crate::int::pow10::pow10_f64;
use crate::int::rounding::Rounding;

/// What the kernels here compute once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InDoubleConstants {
    /// `10^ka`, negated for a negative scalar divisor.
    dividend_factor: f64,
    /// `10^kb`, for a divisor per row.
    divisor_factor: f64,
    /// `10^m`: digits a remainder gets back (one for quotients).
    result_factor: f64,
    /// `10^p - 1`, or any larger double when that is beyond `2^51`.
    bound: f64,
    /// The magnitude of one scaled divisor for every row, and its
    /// reciprocal (unused for a divisor per row).
    divisor: f64,
    inverse: f64,
}

impl InDoubleConstants {
    /// For a divisor per row: `a * 10^ka` by `b * 10^kb`, results times
    /// `10^m`, checked against `precision` digits.
    pub(crate) fn per_row(ka: u32, kb: u32, m: u32, precision: u8) -> Self {
        Self {
            dividend_factor: pow10_f64(ka),
            divisor_factor: pow10_f64(kb),
            result_factor: pow10_f64(m),
            bound: bound(precision),
            divisor: 1.0,
            inverse: 1.0,
        }
    }

    /// For one non-zero scaled divisor `d` on every row.
    pub(crate) fn scalar(ka: u32, d: i64, m: u32, precision: u8) -> Self {
        let factor = pow10_f64(ka);
        let divisor = to_f64(d).abs();
        Self {
            dividend_factor: if d < 0 { -factor } else { factor },
            divisor,
            inverse: 1.0 / divisor,
            ..Self::per_row(0, 0, m, precision)
        }
    }
}

/// `10^precision - 1` as a double: exact below `2^53`, and beyond `2^51`
/// larger than every result here, so the comparison is the same.
fn bound(precision: u8) -> f64 {
    pow10_f64(precision.into()) - 1.0
}

/// The flags of a row.
#[inline(always)]
fn flags(by_zero: bool, exceeds: bool) -> u8 {
    (DIVIDE_BY_ZERO * u8::from(by_zero)) | (OVERFLOW * u8::from(exceeds & !by_zero))
}

/// The rounded quotient of `n` by `d`, `d`'s magnitude `magnitude`
/// (positive), from the floor quotient and remainder of the magnitudes.
#[inline(always)]
fn rounded<R: Rounding>(n: f64, d: f64, magnitude: f64, (q, r): (f64, f64)) -> f64 {
    let negative = sign_bits(n) ^ sign_bits(d);
    let q = if R::away_in_double(q, r, magnitude, negative != 0) { q + 1.0 } else { q };
    with_sign(q, negative)
}

/// The scaled dividend `a * 10^ka` and divisor `b * 10^kb` of a row, the
/// divisor's magnitude (one in place of a zero, which is flagged) and
/// whether it is zero.
#[inline(always)]
fn scaled_per_row(a: i64, b: i64, c: &InDoubleConstants) -> (f64, f64, f64, bool) {
    let n = to_f64(a) * c.dividend_factor;
    let d = to_f64(b) * c.divisor_factor;
    let by_zero = d == 0.0;
    (n, d, if by_zero { 1.0 } else { d.abs() }, by_zero)
}

/// `round(a * 10^ka / (b * 10^kb))`, by a divisor per row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuotientInDouble<R>(PhantomData<R>);

impl<R: Rounding> BinaryKernel<i64> for QuotientInDouble<R> {
    type Constants = InDoubleConstants;

    #[inline(always)]
    fn apply(a: i64, b: i64, c: &InDoubleConstants) -> (i64, u8) {
        let (n, d, magnitude, by_zero) = scaled_per_row(a, b, c);
        let q = rounded::<R>(n, d, magnitude, floor_div_rem_by_division(n.abs(), magnitude));
        (to_i64(q), flags(by_zero, q.abs() > c.bound))
    }
}

/// `round(a * 10^ka / d)` for one non-zero `d` on every row: a division's
/// scalar divisor, a rescale's `10^k`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScalarQuotientInDouble<R>(PhantomData<R>);

impl<R: Rounding> UnaryKernel<i64> for ScalarQuotientInDouble<R> {
    type Constants = InDoubleConstants;

    #[inline(always)]
    fn apply(a: i64, c: &InDoubleConstants) -> (i64, u8) {
        // `n` carries the divisor's sign (see the constants).
        let n = to_f64(a) * c.dividend_factor;
        let parts = floor_div_rem_by_inverse(n.abs(), c.divisor, c.inverse);
        let q = rounded::<R>(n, 1.0, c.divisor, parts);
        (to_i64(q), flags(false, q.abs() > c.bound))
    }
}

impl<R: Rounding> BinaryKernel<i64> for ScalarQuotientInDouble<R> {
    type Constants = InDoubleConstants;

    /// The divisor is the constants' one: `b` is not read.
    #[inline(always)]
    fn apply(a: i64, _b: i64, c: &InDoubleConstants) -> (i64, u8) {
        <Self as UnaryKernel<i64>>::apply(a, c)
    }
}

/// `(a * 10^ka rem b * 10^kb) * 10^m`, by a divisor per row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RemainderInDouble;

impl BinaryKernel<i64> for RemainderInDouble {
    type Constants = InDoubleConstants;

    #[inline(always)]
    fn apply(a: i64, b: i64, c: &InDoubleConstants) -> (i64, u8) {
        let (n, _, magnitude, by_zero) = scaled_per_row(a, b, c);
        let (_, r) = floor_div_rem_by_division(n.abs(), magnitude);
        let r = r * c.result_factor;
        (to_i64(with_sign(r, sign_bits(n))), flags(by_zero, r > c.bound))
    }
}

/// [`RemainderInDouble`] in fewer SSE2 operations, for the portable copy,
/// whose two-double lanes are bound by the count of vector operations a
/// row (the form above measured slower there than the hardware divide).
///
/// A correctly rounded `N / D` (`N, D < 2^51`) is never below
/// `floor(N / D)`, a double at most `N / D`, and never reaches
/// `floor(N / D) + 1` when `N / D` is not an integer: that integer is at
/// least `1 / D` above `N / D`, and the rounding moves it at most
/// `(N / D) * 2^-53 < 1 / (4D)`. So its nearest integer `Q` is the floor or
/// one above it, and one correction (`R < 0`: `R += D`) gives the
/// remainder, where [`RemainderInDouble`] has two. A zero divisor is not
/// replaced: its row's infinities and NaNs do not trap, and it is flagged
/// (`to_f64(b) == 0.0` only for `b = 0`; a row both flags name fails as a
/// division by zero). The loop ORs the flags in 64-bit lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeanRemainderInDouble;

impl BinaryKernel<i64> for LeanRemainderInDouble {
    type Constants = InDoubleConstants;
    const WIDE_FLAGS: bool = true;

    #[inline(always)]
    fn apply(a: i64, b: i64, c: &InDoubleConstants) -> (i64, u8) {
        let n = to_f64(a) * c.dividend_factor;
        let d = to_f64(b) * c.divisor_factor;
        let (dividend, divisor) = (n.abs(), d.abs());
        let r = dividend - nearest(dividend / divisor) * divisor;
        // `r + D` when `r < 0`: the compare's mask ANDed into `D` and one
        // add, where a select takes five SSE2 operations.
        let low = u64::from(r < 0.0).wrapping_neg();
        let r = r + f64::from_bits(divisor.to_bits() & low);
        let r = r * c.result_factor;
        // `r > bound` as the sign bit of `bound - r` (integers below `2^53`:
        // exact, and `+0.0` when equal), so that the flags are 64-bit lanes
        // from the start: from two compares the compiler narrows each to
        // bytes, three packs apiece.
        let exceeds = (c.bound - r).to_bits() >> 63;
        let flags =
            (exceeds * u64::from(OVERFLOW)) | (u64::from(d == 0.0) * u64::from(DIVIDE_BY_ZERO));
        (to_i64(with_sign(r, sign_bits(n))), flags as u8)
    }
}

/// `(a * 10^ka rem d) * 10^m` for one non-zero `d` on every row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScalarRemainderInDouble;

impl BinaryKernel<i64> for ScalarRemainderInDouble {
    type Constants = InDoubleConstants;

    #[inline(always)]
    fn apply(a: i64, _b: i64, c: &InDoubleConstants) -> (i64, u8) {
        // The dividend's factor carries the divisor's sign, which a
        // remainder ignores: the magnitude is the same.
        let n = to_f64(a) * c.dividend_factor.abs();
        let (_, r) = floor_div_rem_by_inverse(n.abs(), c.divisor, c.inverse);
        let r = r * c.result_factor;
        (to_i64(with_sign(r, sign_bits(n))), flags(false, r > c.bound))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::operand::Operand;
    use crate::driver::isa::Runnable;
    use crate::driver::rows::{OverflowPolicy, Policies, Rows};
    use crate::int::rounding::{RoundingMode, with_rounding};
    use crate::testing::{assert_same_outcome, call, call_in, values};
    use arrow_buffer::NullBuffer;

    /// Kernel `K` in every copy of the loop against the portable one (whose
    /// values the operators' tests check against the exact division).
    #[track_caller]
    fn assert_every_copy<K: BinaryKernel<i64, Constants = InDoubleConstants>>(
        (l, r): (Operand<'_>, Operand<'_>),
        constants: InDoubleConstants,
        rows: &Rows<'_>,
        name: &str,
    ) {
        let portable = call::<i64, i64, K>(l, r, constants, rows);
        for copy in Runnable::all() {
            let chosen = call_in::<i64, i64, K>(copy, l, r, constants, rows);
            assert_same_outcome(
                portable.clone(),
                chosen,
                &format!("{name}, {:?} copy", copy.isa()),
            );
        }
    }

    #[test]
    fn every_copy_matches_the_portable_loop() {
        // Dividends of up to 40 bits times 10^3, divisors of up to 20 bits
        // (zeros among them), results beyond 12 digits on some rows; every
        // seventh row null.
        let mut a = values(1000, 40, 3);
        let mut b = values(1000, 20, 5);
        a.extend([(1 << 40) - 1, 1 - (1 << 40), 0, 5, -5, 15]);
        b.extend([1, -1, 0, 2, -2, 10]);
        let nulls = NullBuffer::from((0..a.len()).map(|i| i % 7 != 3).collect::<Vec<_>>());
        let operands = (Operand::array(&a[..]), Operand::array(&b[..]));
        for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
            let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
            let rows = Rows::new(a.len()).with_nulls(Some(&nulls)).with_policies(policies);
            for mode in RoundingMode::ALL {
                let (per_row, scalar) = (
                    InDoubleConstants::per_row(3, 0, 0, 12),
                    InDoubleConstants::scalar(3, -70, 0, 12),
                );
                let name = format!("{mode:?}, {policy:?}");
                with_rounding!(mode, R => {
                    assert_every_copy::<QuotientInDouble<R>>(operands, per_row, &rows, &name);
                    assert_every_copy::<ScalarQuotientInDouble<R>>(operands, scalar, &rows, &name);
                });
            }
            let per_row = InDoubleConstants::per_row(1, 0, 2, 9);
            assert_every_copy::<RemainderInDouble>(operands, per_row, &rows, "remainder");
            assert_every_copy::<LeanRemainderInDouble>(operands, per_row, &rows, "lean remainder");
            let scalar = InDoubleConstants::scalar(1, -999, 2, 9);
            assert_every_copy::<ScalarRemainderInDouble>(operands, scalar, &rows, "remainder");
        }
    }
    /// The largest operand.
    const MOST: i64 = (1 << 51) - 1;

    /// [`LeanRemainderInDouble`] in the portable loop and every copy this
    /// CPU runs, against `i64`'s `%`, for every sign of `(a, b)` (and `a`
    /// by zero, flagged).
    #[track_caller]
    fn assert_lean_remainders(a: i64, b: i64) {
        let rows = [(a, b), (-a, b), (a, -b), (-a, -b), (a, 0)];
        let (a, b): (Vec<i64>, Vec<i64>) = rows.into_iter().unzip();
        let policies = Policies { on_overflow: OverflowPolicy::Null, on_divide_by_zero: OverflowPolicy::Null };
        let rows = Rows::new(a.len()).with_policies(policies);
        let (l, r) = (Operand::array(&a[..]), Operand::array(&b[..]));
        let c = InDoubleConstants::per_row(0, 0, 0, 18);
        let want: Vec<Option<i64>> = a.iter().zip(&b).map(|(&x, &y)| x.checked_rem(y)).collect();
        let mut outcomes = vec![("portable loop".to_string(), call::<i64, i64, LeanRemainderInDouble>(l, r, c, &rows))];
        for copy in Runnable::all() {
            let out = call_in::<i64, i64, LeanRemainderInDouble>(copy, l, r, c, &rows);
            outcomes.push((format!("{:?} copy", copy.isa()), out));
        }
        for (name, out) in outcomes {
            let got = crate::testing::valid_values(&out.expect("null policies"));
            for i in 0..a.len() {
                assert_eq!(got[i], want[i], "{name}: {} rem {}", a[i], b[i]);
            }
        }
    }

    #[rstest::rstest]
    #[case::largest_by_one(MOST, 1)]
    #[case::largest_by_two(MOST, 2)]
    #[case::largest_by_three(MOST, 3)]
    #[case::largest_by_the_largest(MOST, MOST)]
    #[case::largest_by_one_below_the_largest(MOST, MOST - 1)]
    #[case::one_below_the_largest_by_the_largest(MOST - 1, MOST)]
    #[case::largest_by_half_the_largest(MOST, (MOST + 1) / 2)]
    #[case::one_below_a_multiple(3 * 749_999_999_999_999 - 1, 749_999_999_999_999)]
    #[case::a_multiple(3 * 749_999_999_999_999, 749_999_999_999_999)]
    #[case::one_above_a_multiple(3 * 749_999_999_999_999 + 1, 749_999_999_999_999)]
    #[case::large_quotient_one_below_a_multiple(MOST / 7 * 7 - 1, 7)]
    #[case::large_quotient_a_multiple(MOST / 7 * 7, 7)]
    #[case::zero_dividend(0, 5)]
    #[case::money_by_a_factor(999_999_999_999, 999_983)]
    fn lean_remainders_at_the_bounds(#[case] a: i64, #[case] b: i64) {
        assert_lean_remainders(a, b);
    }

    #[test]
    fn lean_random_log_uniform_remainders_are_exact() {
        let a = values(3000, 51, 0x1ea0);
        let b = values(3000, 51, 0x1ea1);
        for (&a, &b) in a.iter().zip(&b) {
            if b != 0 {
                assert_lean_remainders(a, b);
            }
        }
    }
}
