//! Quotients `round(a * 10^k / b)` of `i64` rows whose scaled dividend is
//! too large for double precision (`2^51` and beyond) but whose unscaled
//! dividend and divisor are not: the division is done in two exact steps
//! of double precision, and only the quotient is assembled in `i64`. A
//! hardware `idiv` per row takes about ten cycles and never vectorizes;
//! these steps are multiplies, adds and compares, which vectorize. The
//! AVX2 and AVX-512 copies take them as below ([`QuotientInTwoSteps`]);
//! the portable copy, whose two-double SSE2 lanes are bound by the count
//! of vector operations a row (in this form they measured no faster than
//! the divide), takes the floored form of the last section
//! ([`FlooredQuotientInTwoSteps`]), within tighter divisor bounds (see
//! `division::i64_division`).
//!
//! Formula, with `A = |a|`, `B = |b|` (a zero divisor is flagged, and its
//! row, null or failing the call, takes whatever value the infinities give),
//! `u = 2^-53` and every product and sum a rounded double operation:
//!
//! ```text
//! I  = 1 / B                      // one reciprocal per row
//! k1 = nearest(A * I)             // the whole-number part, about A / B
//! r1 = A - k1*B                   // exact
//! X  = r1 * 10^k                  // exact
//! q2 = nearest(r1 * (I * 10^k))   // about X / B
//! r2 = X - q2*B                   // exact; if r2 < 0: q2 -= 1, r2 += B
//! Q  = k1 * 10^k + q2             // in i64: floor(A * 10^k / B), r2 its
//!                                 // remainder
//! ```
//!
//! `A - k1*B` and `X - q2*B` are fused multiply-adds in the AVX2 and
//! AVX-512 copies (x86-64-v3 has FMA), a product and a difference in the
//! portable one: exact either way.
//!
//! `A * 10^k = (k1*10^k + q2) * B + r2`, so `Q` and `r2` are the floor
//! quotient and remainder of the magnitudes. The call's mode rounds `Q`
//! from `r2` and `B` (`Rounding::away_in_double`; `Q`'s parity is `q2`'s
//! when `k >= 1`, `k1 + q2`'s when `k = 0`), the sign of `a / b` is applied
//! in `i64`, and overflow is `|q| > 10^p - 1`.
//!
//! # Bounds, and why every step is exact
//!
//! The kernel requires `A < 2^51`, `1 <= B < 2^b` and `k <= 9`, with
//! `2^(b-1) * (10^k + 2) <= 2^53` ([`most_divisor_bits`]: 51 bits for
//! `k = 0`, 50 for `k = 1`, 34 for `k = 6`, that is divisors below about
//! `1.7 * 10^10`, and 24 for `k = 9`). Only `k <= 9` keeps `10^k` below
//! `2^32` for the assembly in `i64` (step 7); the steps in double precision
//! would hold up to `k = 15`.
//!
//! 1. `A`, `B`, `k1`, `q2` are integers below `2^51` in magnitude, so the
//!    `1.5 * 2^52` conversions and `nearest` of `exact_double` hold.
//! 2. `|A*I - A/B| <= (A/B) * (2u + u^2)`: two roundings. With
//!    `A < 2^51`, `A * (2u + u^2) < 1/2`, so `|k1 - A/B| < 1/2 + 1/(2B)`
//!    and the integer `|r1| = B * |A/B - k1|` is at most `(B + 1) / 2`.
//! 3. `k1*B <= A + B < 2^52` is an integer, hence exact, and so is the
//!    difference `r1`, an integer smaller than both operands.
//! 4. `|X| <= (B + 1) / 2 * 10^k <= 2^(b-1) * 10^k < 2^53`: exact.
//! 5. `|X / B| <= 10^k`, and `r1 * (I * 10^k)` is three roundings from
//!    it: `|r1*(I*10^k) - X/B| <= 10^k * 3.01u < 1/2` for `k <= 15` (and
//!    the estimate is below `2^51`). So `q2` is within one of `X / B`:
//!    `floor(X / B)` or one above it (`X / B` itself when an integer), and
//!    the remainder is in `(-B, B)`: one compare-and-select corrects it,
//!    provided the remainder is exact:
//! 6. `|q2*B| <= |X| + B <= 2^(b-1) * 10^k + 2^b = 2^(b-1) * (10^k + 2)
//!    <= 2^53`, an integer, exact (or not rounded at all when fused);
//!    `r2 = X - q2*B` is an integer in `(-B, B)`, exact, and so is
//!    `r2 + B`.
//! 7. `Q <= A * 10^k / B`, below `2^63` when the call's scaled dividends
//!    are (the plan's `i64` work type); `Q + 1` only when `r2 > 0`, so no
//!    valid row wraps. `k1 * 10^k` is formed from the two 32-bit halves of
//!    `k1` by `10^k < 2^32`, wrapping only where the exact product does
//!    not fit `i64` (not a valid row).
//!
//! Only the plan's bounds make a call take this kernel (see
//! `division::i64_division`): every valid row is within them. Rows outside
//! them (garbage under a null) give wrong values, never a trap: the `i64`
//! steps wrap and the double ones do not trap.
//!
//! # The floor by a fixed bias
//!
//! [`FlooredQuotientInTwoSteps`] rounds the second quotient straight to its
//! floor, so that it needs no correction, and truncation (arrow's mode)
//! needs no remainder at all:
//!
//! ```text
//! q2 = nearest(r1 * (I * 10^k) + (ε - 1/2))   // floor(X / B), exactly
//! r2 = X - q2*B                               // in [0, B); only for the
//!                                             // modes that round from it
//! ```
//!
//! With `t = X / B`: `|t| <= 10^k` (step 5), the product is within
//! `10^k * 3.01u` of `t` and adding the bias rounds once more, within
//! `(10^k + 1) * u`; so the sum is within `E = (10^k + 1) * (4 + 1/32) * u`
//! of `t - 1/2 + ε`. `t` is a multiple of `1/B`, so its fraction is in
//! `[0, 1 - 1/B]`. With `ε > E` the sum is above `floor(t) - 1/2`; with
//! `ε + E < 1/B` it is below `floor(t) + 1/2`; its nearest integer is then
//! `floor(t)`, never a tie. `ε` is the smallest power of two above `E`
//! (exact, and so is `ε - 1/2`), and divisors must stay below `2^b` with
//! `(2^b - 1) * (ε + E) < 1` ([`floored_divisor_bits`]: 48 bits for
//! `k = 0`, 30 for `k = 6`, divisors below about `1.07 * 10^9`, 20 for
//! `k = 9`), within the bounds above. `Q = k1 * 10^k + q2` is then the
//! floor of `A * 10^k / B` and `r2` its remainder, exact as in step 6
//! (`|q2*B| <= |X| + B`).
//!
//! The form also takes fewer SSE2 operations elsewhere: `k1` and `q2` are
//! assembled from the bits of `BIAS + k1` and `BIAS + q2` with the two
//! biases taken out by one constant, a zero divisor is `to_f64(b) == 0.0`
//! (zero only for `b = 0`), the sign is `n * d < 0.0` (a mask in one
//! compare), and the loop ORs the flags in 64-bit lanes
//! (`BinaryKernel::WIDE_FLAGS`): 23 instructions a row in the portable
//! copy against 29.

use core::marker::PhantomData;

use crate::driver::kernel::{BinaryKernel, DIVIDE_BY_ZERO, OVERFLOW};
use crate::int::exact_double::{
    BIAS_BITS, OPERAND_BITS, nearest_biased, nearest_both, sign_bits, to_f64,
};
use crate::int::pow10::pow10_f64;
use crate::int::rounding::Rounding;
use crate::int::work::Work;

/// The largest scale `k` of the dividend: `10^k` below `2^32`, so that the
/// quotient is assembled with 32-bit multiplies (step 5 of the header
/// would hold up to `k = 15`; divisors there are below `2^20`).
pub(crate) const MAX_SHIFT: u32 = 9;

/// The bits `b` of the largest divisor magnitudes (`B < 2^b`) exact in the
/// two steps for a dividend scaled by `10^k`: the largest `b` with
/// `2^(b-1) * (10^k + 2) <= 2^53`, at most [`OPERAND_BITS`]; `None` for
/// `k` beyond [`MAX_SHIFT`].
#[must_use]
pub(crate) fn most_divisor_bits(k: u32) -> Option<u32> {
    MOST_DIVISOR_BITS.get(usize::try_from(k).ok()?).copied()
}

/// [`most_divisor_bits`] of each `k` up to [`MAX_SHIFT`], worked out when
/// compiling: the search is a loop of 128-bit products, which every call
/// planned would otherwise repeat (it showed in calls of 16 rows).
const MOST_DIVISOR_BITS: [u32; MAX_SHIFT as usize + 1] = by_scale(false);

/// The largest `b <= OPERAND_BITS` with `2^(b-1) * (10^k + 2) <= 2^53`.
const fn largest_exact_divisor_bits(k: u32) -> u32 {
    let factor = 10u128.pow(k) + 2;
    let mut b = OPERAND_BITS;
    // `factor < 2^50`, so `b = 1` holds; in u128 no shift here wraps.
    while b > 1 && factor << (b - 1) > 1 << 53 {
        b -= 1;
    }
    b
}

/// [`largest_exact_divisor_bits`] (or, `floored`,
/// [`largest_floored_divisor_bits`]) for each `k` up to [`MAX_SHIFT`].
const fn by_scale(floored: bool) -> [u32; MAX_SHIFT as usize + 1] {
    let mut table = [0; MAX_SHIFT as usize + 1];
    let mut k = 0;
    while k <= MAX_SHIFT {
        table[k as usize] =
            if floored { largest_floored_divisor_bits(k) } else { largest_exact_divisor_bits(k) };
        k += 1;
    }
    table
}

/// Whether a call of dividends below `2^dividend_bits` before the scale
/// `10^k` and divisors below `2^divisor_bits` (unscaled) stays within the
/// bounds of the header.
#[must_use]
pub(crate) fn applies(dividend_bits: u32, divisor_bits: u32, k: u32) -> bool {
    dividend_bits <= OPERAND_BITS && most_divisor_bits(k).is_some_and(|most| divisor_bits <= most)
}

/// The bound `(10^k + 1) * (4 + 1/32) * 2^-53`, in units of `2^-58`, on
/// how far the floored kernel's biased second estimate is from
/// `X / B - 1/2 + ε` (see "The floor by a fixed bias" in the header).
const fn floor_error(k: u32) -> u64 {
    (10u64.pow(k) + 1) * 129
}

/// The floored kernel's `ε`, in units of `2^-58`: the smallest power of two
/// above [`floor_error`] (below `2^38` for `k <= 9`).
const fn floor_margin(k: u32) -> u64 {
    (floor_error(k) + 1).next_power_of_two()
}

/// `2^-58`, the unit of [`floor_error`] and [`floor_margin`].
const MARGIN_UNIT: f64 = 1.0 / (1u64 << 58) as f64;

/// The bits `b` of the largest divisor magnitudes (`B < 2^b`) for which
/// [`FlooredQuotientInTwoSteps`] is exact for a dividend scaled by `10^k`:
/// the largest `b` within [`most_divisor_bits`] with
/// `(2^b - 1) * (ε + E) < 1` (`E` the error bound, see the header); 48 bits
/// for `k = 0`, 30 for `k = 6` (divisors below about `1.07 * 10^9`), 20 for
/// `k = 9`. `None` for `k` beyond [`MAX_SHIFT`].
#[must_use]
pub(crate) fn floored_divisor_bits(k: u32) -> Option<u32> {
    FLOORED_DIVISOR_BITS.get(usize::try_from(k).ok()?).copied()
}

/// [`floored_divisor_bits`] of each `k` up to [`MAX_SHIFT`], worked out
/// when compiling.
const FLOORED_DIVISOR_BITS: [u32; MAX_SHIFT as usize + 1] = by_scale(true);

/// The largest `b <= largest_exact_divisor_bits(k)` with
/// `(2^b - 1) * (ε + E) < 1`, in units of `2^-58`.
const fn largest_floored_divisor_bits(k: u32) -> u32 {
    let step = (floor_margin(k) + floor_error(k)) as u128;
    let mut b = largest_exact_divisor_bits(k);
    // `step < 2^39`, so `b = 1` holds; in u128 no product here wraps.
    while b > 1 && ((1u128 << b) - 1) * step >= 1 << 58 {
        b -= 1;
    }
    b
}

/// Whether [`applies`] and the divisors are within
/// [`floored_divisor_bits`]: the bounds of the floored kernel.
#[must_use]
pub(crate) fn applies_floored(dividend_bits: u32, divisor_bits: u32, k: u32) -> bool {
    dividend_bits <= OPERAND_BITS && floored_divisor_bits(k).is_some_and(|most| divisor_bits <= most)
}

/// What the kernel computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TwoStepConstants {
    /// `10^k` as a double (exact: `k <= 9`).
    factor: f64,
    /// `10^k` as an integer (below `2^32`: `k <= 9`).
    factor_u32: u32,
    /// One when `10^k` is odd (`k = 0`), so that `k1` counts in `Q`'s
    /// parity; zero otherwise.
    parity_of_k1: f64,
    /// `min(10^p - 1, i64::MAX)`.
    bound: i64,
    /// `ε - 1/2`, added to the floored kernel's second estimate so that its
    /// nearest integer is the floor (exact: `ε` is a power of two).
    floor_bias: f64,
    /// `-BIAS_BITS * (10^k + 1)`, wrapping: the floored kernel assembles
    /// `k1 * 10^k + q2` from the bits of `BIAS + k1` and `BIAS + q2` and
    /// takes their biases out with this one add.
    biased_offset: i64,
}

impl TwoStepConstants {
    /// For `round(a * 10^k / b)` checked against `precision` digits;
    /// `k <= MAX_SHIFT`.
    pub(crate) fn new(k: u32, precision: u8) -> Self {
        let k = k.min(MAX_SHIFT);
        Self {
            factor: pow10_f64(k),
            factor_u32: 10u32.pow(k),
            parity_of_k1: if k == 0 { 1.0 } else { 0.0 },
            bound: i64::precision_bound(precision.into()),
            // `ε = margin * 2^-58` with `2^9 <= margin < 2^38` for `k <= 9`:
            // the conversion, the product and the difference are exact.
            floor_bias: floor_margin(k) as f64 * MARGIN_UNIT - 0.5,
            biased_offset: BIAS_BITS.wrapping_mul(10u64.pow(k) + 1).wrapping_neg().cast_signed(),
        }
    }
}

/// How `c - a * b` is formed: fused in the copies whose CPUs have the
/// instruction (one rounding, a shorter chain of dependent operations),
/// as a product and a difference in the portable copy (where a fused
/// multiply-add would be a library call). Either is exact here (see the
/// header: the product and the difference are exact integers).
pub(crate) trait MulSub: Copy + Send + Sync + 'static {
    /// `c - a * b`.
    fn mul_sub(a: f64, b: f64, c: f64) -> f64;
}

/// [`MulSub`] by a fused multiply-add: for the AVX2 and AVX-512 copies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fused;

impl MulSub for Fused {
    #[inline(always)]
    fn mul_sub(a: f64, b: f64, c: f64) -> f64 {
        (-a).mul_add(b, c)
    }
}

/// [`MulSub`] by a product and a difference: for the portable copy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Separate;

impl MulSub for Separate {
    #[inline(always)]
    fn mul_sub(a: f64, b: f64, c: f64) -> f64 {
        c - a * b
    }
}

/// `round(a * 10^k / b)` by a divisor per row, in two exact steps of double
/// precision (see the header), `c - a * b` formed by `F`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuotientInTwoSteps<R, F>(PhantomData<(R, F)>);

impl<R: Rounding, F: MulSub> BinaryKernel<i64> for QuotientInTwoSteps<R, F> {
    type Constants = TwoStepConstants;

    #[inline(always)]
    fn apply(a: i64, b: i64, c: &TwoStepConstants) -> (i64, u8) {
        let (n, d) = (to_f64(a), to_f64(b));
        // A zero divisor gives infinities and NaNs, which do not trap: its
        // row is flagged, so null or failing the call, whatever its value.
        let divisor = d.abs();
        let dividend = n.abs();
        let inverse = 1.0 / divisor;
        let (k1, k1_i64) = nearest_both(dividend * inverse);
        let r1 = F::mul_sub(k1, divisor, dividend);
        // `inverse * 10^k` is formed beside the first step, off the chain
        // of dependent operations that bounds this loop.
        let (q2, q2_i64) = nearest_both(r1 * (inverse * c.factor));
        let r2 = F::mul_sub(q2, divisor, r1 * c.factor);
        // `q2` is the floor or one above it: a single correction.
        let low = r2 < 0.0;
        let r2 = if low { r2 + divisor } else { r2 };
        let negative = (sign_bits(n) ^ sign_bits(d)) != 0;
        // Only `HalfEven` reads the parity; the other modes' loops drop it.
        let floor_q2 = if low { q2 - 1.0 } else { q2 };
        let away = R::away_in_double(k1 * c.parity_of_k1 + floor_q2, r2, divisor, negative);
        let q = times_u32(k1_i64, c.factor_u32)
            .wrapping_add(q2_i64)
            .wrapping_add(i64::from(away) - i64::from(low));
        // `q > bound` as the sign bit of `bound - q` (both in `[0, 2^63)`
        // for a valid row), so that both flags are one 64-bit lane and are
        // narrowed to a byte once.
        let exceeds = c.bound.wrapping_sub(q).cast_unsigned() >> 63;
        // `b == 0` as the sign bit of `(b - 1) & !b`, an integer too.
        let zero = (b.wrapping_sub(1) & !b).cast_unsigned() >> 63;
        let flags = (zero * u64::from(DIVIDE_BY_ZERO)) | ((exceeds & !zero) * u64::from(OVERFLOW));
        // `sign` is 0 or -1: `(q ^ sign) - sign` is `q` or `-q`.
        let sign = -i64::from(negative);
        ((q ^ sign).wrapping_sub(sign), flags as u8)
    }
}

/// `round(a * 10^k / b)` by a divisor per row in two exact steps of double
/// precision whose second quotient is rounded straight to its floor by a
/// fixed bias (see "The floor by a fixed bias" in the header), `c - a * b`
/// formed by `F`: no correction of the second quotient, and no remainder at
/// all when the mode does not read it (truncation). Within
/// [`floored_divisor_bits`]; the portable copy's form, whose two-double SSE2
/// lanes are bound by the count of vector operations a row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FlooredQuotientInTwoSteps<R, F>(PhantomData<(R, F)>);

impl<R: Rounding, F: MulSub> BinaryKernel<i64> for FlooredQuotientInTwoSteps<R, F> {
    type Constants = TwoStepConstants;
    const WIDE_FLAGS: bool = true;

    #[inline(always)]
    fn apply(a: i64, b: i64, c: &TwoStepConstants) -> (i64, u8) {
        let (n, d) = (to_f64(a), to_f64(b));
        // A zero divisor gives infinities and NaNs, which do not trap: its
        // row is flagged, so null or failing the call, whatever its value.
        let divisor = d.abs();
        let dividend = n.abs();
        let inverse = 1.0 / divisor;
        let (k1, k1_bits) = nearest_biased(dividend * inverse);
        let r1 = F::mul_sub(k1, divisor, dividend);
        // `nearest(X / B - 1/2 + ε)` is `floor(X / B)`.
        let (q2, q2_bits) = nearest_biased(r1 * (inverse * c.factor) + c.floor_bias);
        // The exact remainder, in `[0, B)`: only the modes that round from it
        // keep it (and `q2`); truncation's loop drops both.
        let r2 = F::mul_sub(q2, divisor, r1 * c.factor);
        // The product of two integers below `2^51` is negative exactly
        // when one is: one multiply and a compare that gives the lane's mask
        // (the sign bits' XOR takes three SSE2 operations to spread). A zero
        // dividend counts as positive, its quotient zero either way.
        let negative = n * d < 0.0;
        let away = R::away_in_double(k1 * c.parity_of_k1 + q2, r2, divisor, negative);
        // `(BIAS + k1) * 10^k + (BIAS + q2) - BIAS * (10^k + 1)`, wrapping.
        let q = times_u32(k1_bits.cast_signed(), c.factor_u32)
            .wrapping_add(q2_bits.cast_signed())
            .wrapping_add(c.biased_offset)
            .wrapping_add(i64::from(away));
        // `q > bound` as the sign bit of `bound - q` (both in `[0, 2^63)`
        // for a valid row).
        let exceeds = c.bound.wrapping_sub(q).cast_unsigned() >> 63;
        // `to_f64(b)` is zero only for `b == 0`: one double compare, where
        // the `i64` test takes four SSE2 operations. A zero divisor's row
        // may carry the overflow flag too; the division by zero wins.
        let zero = u64::from(d == 0.0);
        let flags = (exceeds * u64::from(OVERFLOW)) | (zero * u64::from(DIVIDE_BY_ZERO));
        // `sign` is 0 or -1: `(q ^ sign) - sign` is `q` or `-q`.
        let sign = -i64::from(negative);
        ((q ^ sign).wrapping_sub(sign), flags as u8)
    }
}

/// `v * f` (wrapping) for `0 <= f < 2^32`, from two 32-bit by 32-bit
/// products: vector lanes have that multiply (`pmuludq`) and no 64-bit
/// one, which takes three.
#[inline(always)]
fn times_u32(v: i64, f: u32) -> i64 {
    let (v, f) = (v.cast_unsigned(), u64::from(f));
    let low = (v & 0xffff_ffff) * f;
    let high = ((v >> 32) * f) << 32;
    low.wrapping_add(high).cast_signed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::operand::Operand;
    use crate::driver::isa::Runnable;
    use crate::driver::output::Output;
    use crate::driver::rows::{OverflowPolicy, Policies, Rows};
    use crate::int::rounding::{RoundingMode, with_rounding};
    use crate::testing::{call, call_in, round_big, valid_values, values};
    use arrow_buffer::NullBuffer;
    use num_bigint::BigInt;
    use rstest::rstest;

    /// The largest unscaled dividend.
    const MOST: i64 = (1 << OPERAND_BITS) - 1;
    /// The largest dividend for `k = 6`: its scaled value stays in `i64`,
    /// as the plan's work type guarantees (about `2^43`).
    const MOST_A6: i64 = i64::MAX / 1_000_000;
    /// The largest divisor for `k = 6`.
    const MOST_6: i64 = (1 << 34) - 1;

    /// `round(a * 10^k / b)` in `mode`, exactly (in `i128` and big
    /// integers); `None` for a zero divisor or beyond `precision` digits.
    fn reference(a: i64, b: i64, k: u32, mode: RoundingMode, precision: u8) -> Option<i64> {
        if b == 0 {
            return None;
        }
        let n = i128::from(a) * 10i128.pow(k) * i128::from(b.signum());
        let q = round_big(&BigInt::from(n), &BigInt::from(b.unsigned_abs()), mode);
        let q = i64::try_from(q).ok()?;
        (q.unsigned_abs() < 10u64.pow(precision.into())).then_some(q)
    }

    /// The largest divisor of the floored kernel for `k = 6`.
    const MOST_FLOORED_6: i64 = (1 << 30) - 1;

    /// Which form of the two steps a test runs.
    #[derive(Clone, Copy, Debug)]
    enum Form {
        /// [`QuotientInTwoSteps`]: the second quotient corrected by a compare.
        Corrected,
        /// [`FlooredQuotientInTwoSteps`]: the second quotient floored by a
        /// fixed bias.
        Floored,
    }

    impl Form {
        /// The bits of the largest divisors the form is exact for at scale
        /// `10^k`.
        fn divisor_bits(self, k: u32) -> Option<u32> {
            match self {
                Self::Corrected => most_divisor_bits(k),
                Self::Floored => floored_divisor_bits(k),
            }
        }

        /// The form's kernel (half up, products and differences apart)
        /// under the error policies.
        fn call_strict(
            self,
            a: &[i64],
            b: &[i64],
            rows: &Rows<'_>,
        ) -> Result<Output<i64>, crate::driver::error::KernelError> {
            use crate::int::rounding::HalfUp;
            let (l, r, c) = (Operand::array(a), Operand::array(b), TwoStepConstants::new(6, 18));
            match self {
                Self::Corrected => call::<i64, i64, QuotientInTwoSteps<HalfUp, Separate>>(l, r, c, rows),
                Self::Floored => call::<i64, i64, FlooredQuotientInTwoSteps<HalfUp, Separate>>(l, r, c, rows),
            }
        }
    }

    /// Kernel `K` in the portable loop and in every copy this CPU runs.
    fn every_copy<K: BinaryKernel<i64, Constants = TwoStepConstants>>(
        l: Operand<'_>,
        r: Operand<'_>,
        c: TwoStepConstants,
        rows: &Rows<'_>,
        name: &str,
    ) -> Vec<(String, Output<i64>)> {
        let mut outcomes = vec![(format!("{name}, portable loop"), call::<i64, i64, K>(l, r, c, rows))];
        for copy in Runnable::all() {
            let out = call_in::<i64, i64, K>(copy, l, r, c, rows);
            outcomes.push((format!("{name}, {:?} copy", copy.isa()), out));
        }
        outcomes.into_iter().map(|(name, out)| (name, out.expect("null policies"))).collect()
    }

    /// The rows of the kernel of `form` (with either `MulSub`) in every mode
    /// and copy against the reference; rows `nulls` marks false are null
    /// (their values any garbage).
    #[track_caller]
    fn assert_rows_in(
        form: Form,
        a: &[i64],
        b: &[i64],
        nulls: Option<&NullBuffer>,
        k: u32,
        precision: u8,
    ) {
        let policies = Policies { on_overflow: OverflowPolicy::Null, on_divide_by_zero: OverflowPolicy::Null };
        let rows = Rows::new(a.len()).with_nulls(nulls).with_policies(policies);
        let (l, r) = (Operand::array(a), Operand::array(b));
        let c = TwoStepConstants::new(k, precision);
        for mode in RoundingMode::ALL {
            let want: Vec<Option<i64>> = (0..a.len())
                .map(|i| {
                    let valid = nulls.is_none_or(|n| n.is_valid(i));
                    valid.then(|| reference(a[i], b[i], k, mode, precision)).flatten()
                })
                .collect();
            let mut outcomes: Vec<(String, Output<i64>)> = Vec::new();
            with_rounding!(mode, R => match form {
                Form::Corrected => {
                    outcomes.extend(every_copy::<QuotientInTwoSteps<R, Separate>>(l, r, c, &rows, "separate"));
                    outcomes.extend(every_copy::<QuotientInTwoSteps<R, Fused>>(l, r, c, &rows, "fused"));
                }
                Form::Floored => {
                    outcomes.extend(every_copy::<FlooredQuotientInTwoSteps<R, Separate>>(
                        l, r, c, &rows, "floored, separate",
                    ));
                    outcomes.extend(every_copy::<FlooredQuotientInTwoSteps<R, Fused>>(
                        l, r, c, &rows, "floored, fused",
                    ));
                }
            });
            for (name, out) in outcomes {
                let got = valid_values(&out);
                for i in 0..a.len() {
                    assert_eq!(
                        got[i], want[i],
                        "{mode:?}, {name}: {} * 10^{k} / {} (p {precision})",
                        a[i], b[i]
                    );
                }
            }
        }
    }

    /// [`assert_rows_in`] of the corrected form, of every sign combination of `(a, b)`.
    #[track_caller]
    fn assert_signed(a: i64, b: i64, k: u32, precision: u8) {
        assert_signed_in(Form::Corrected, a, b, k, precision);
    }

    /// [`assert_rows_in`] of every sign combination of `(a, b)`.
    #[track_caller]
    fn assert_signed_in(form: Form, a: i64, b: i64, k: u32, precision: u8) {
        let rows = [(a, b), (-a, b), (a, -b), (-a, -b)];
        let (a, b): (Vec<i64>, Vec<i64>) = rows.into_iter().unzip();
        assert_rows_in(form, &a, &b, None, k, precision);
    }

    #[rstest]
    #[case::no_scale(0, Some(51))]
    #[case::one_digit(1, Some(50))]
    #[case::money_by_a_factor(6, Some(34))]
    #[case::largest_scale(9, Some(24))]
    #[case::beyond_the_largest_scale(10, None)]
    fn divisor_bounds(#[case] k: u32, #[case] want: Option<u32>) {
        assert_eq!(most_divisor_bits(k), want);
    }

    #[test]
    fn every_divisor_bound_is_the_largest_that_holds() {
        for k in 0..=MAX_SHIFT {
            let b = most_divisor_bits(k).expect("within the largest scale");
            let factor = u128::from(10u64.pow(k) + 2);
            assert!(factor << (b - 1) <= 1 << 53, "k {k}");
            assert!(b == OPERAND_BITS || factor << b > 1 << 53, "k {k}");
        }
    }

    #[rstest]
    #[case::within(51, 34, 6, true)]
    #[case::divisor_one_bit_beyond(51, 35, 6, false)]
    #[case::dividend_one_bit_beyond(52, 34, 6, false)]
    #[case::scale_beyond(20, 3, 10, false)]
    #[case::no_scale(51, 51, 0, true)]
    fn which_calls_apply(#[case] dividend: u32, #[case] divisor: u32, #[case] k: u32, #[case] want: bool) {
        assert_eq!(applies(dividend, divisor, k), want);
    }

    #[rstest]
    #[case::largest_over_the_largest_divisor(MOST_A6, MOST_6)]
    #[case::largest_over_one_below_the_largest_divisor(MOST_A6, MOST_6 - 1)]
    #[case::largest_over_half_the_largest_divisor(MOST_A6, (MOST_6 + 1) / 2)]
    #[case::one_below_the_largest_over_the_largest_divisor(MOST_A6 - 1, MOST_6)]
    #[case::largest_over_one(MOST_A6, 1)]
    #[case::largest_over_two(MOST_A6, 2)]
    #[case::largest_over_three(MOST_A6, 3)]
    #[case::power_of_two_dividend(1 << 42, 3)]
    #[case::zero_dividend(0, 7)]
    #[case::money_over_a_factor(999_999_999_999, 999_999)]
    #[case::money_over_a_prime(987_654_321_987, 1_000_003)]
    #[case::small_over_the_largest_divisor(1, MOST_6)]
    fn extremes_of_money_by_a_factor(#[case] a: i64, #[case] b: i64) {
        assert_signed(a, b, 6, 18);
    }

    /// `x` with `x * v = 1 (mod m)`, for `v` and `m` without a common
    /// factor (extended Euclid).
    fn inverse_modulo(v: i128, m: i128) -> i128 {
        let (mut r0, mut r1, mut s0, mut s1) = (m, v, 0i128, 1i128);
        while r1 != 0 {
            let q = r0 / r1;
            (r0, r1) = (r1, r0 - q * r1);
            (s0, s1) = (s1, s0 - q * s1);
        }
        s0.rem_euclid(m)
    }

    #[rstest]
    // `a * 10^6 = q * b - 1`, `q * b` and `q * b + 1`, for a large `q`.
    #[case::one_below_an_integer(-1)]
    #[case::an_integer(0)]
    #[case::one_above_an_integer(1)]
    fn quotients_beside_an_integer(#[case] offset: i64) {
        // b = 2^34 - 1 = 3 * 43691 * 131071 shares no factor with 10^6, so
        // every residue is some a * 10^6; the a below is the one with
        // a * 10^6 = offset (mod b), near the largest dividend.
        let b = MOST_6;
        let inverse = inverse_modulo(1_000_000, i128::from(b));
        assert_eq!(1_000_000 * inverse % i128::from(b), 1);
        let residue = (i128::from(offset).rem_euclid(i128::from(b)) * inverse) % i128::from(b);
        let most = i128::from(MOST_A6);
        let a = i64::try_from(most - (most - residue).rem_euclid(i128::from(b)))
            .expect("below the largest dividend");
        assert_eq!((i128::from(a) * 1_000_000 - i128::from(offset)) % i128::from(b), 0);
        assert_signed(a, b, 6, 18);
    }

    #[rstest]
    // 1.5, 2.5 and a large x.5 at the result scale: 2 * r = b.
    #[case::one_and_a_half(3, 2_000_000)]
    #[case::two_and_a_half(5, 2_000_000)]
    #[case::large_tie(MOST_A6 / 2 * 2 + 1, 2_000_000)]
    // 8,597,589 / (2 * 8,589) = 1,001 / 2, by a divisor near 2^34.
    #[case::tie_by_a_large_divisor(8_597_589, 17_178_000_000)]
    #[case::just_below_a_tie(2_499_999, 1_000_000)]
    fn ties_at_the_result_scale(#[case] a: i64, #[case] b: i64) {
        assert!(b <= MOST_6, "{b} beyond the bound");
        assert_signed(a, b, 6, 18);
    }

    #[rstest]
    #[case::to_the_precision(999_999_999_999, 1_000_000, 12)]
    #[case::one_beyond_the_precision(1_000_000_000_000, 1_000_000, 12)]
    #[case::rounds_up_into_overflow(999_999_999_999, 999_999, 12)]
    #[case::largest_at_eighteen_digits(MOST_A6, 1, 18)]
    fn precision_bounds(
        #[case] a: i64,
        #[case] b: i64,
        #[case] precision: u8,
        #[values(Form::Corrected, Form::Floored)] form: Form,
    ) {
        assert_signed_in(form, a, b, 6, precision);
    }

    #[rstest]
    // The largest dividend below 2^51 and the smallest ones there, by the
    // largest divisors for these scales and by small ones.
    #[case::largest_dividend_unscaled(MOST, (1 << 51) - 1, 0)]
    #[case::largest_dividend_by_one_unscaled(MOST, 1, 0)]
    #[case::largest_dividend_by_the_largest_divisor(MOST, (1 << 50) - 1, 1)]
    #[case::largest_dividend_by_three(MOST, 3, 1)]
    #[case::largest_dividend_by_two(MOST, 2, 1)]
    #[case::below_the_largest_by_the_largest_divisor(MOST - 1, (1 << 50) - 1, 1)]
    #[case::largest_dividend_by_the_largest_divisor_for_two_digits(MOST, (1 << 47) - 1, 2)]
    fn largest_dividends(#[case] a: i64, #[case] b: i64, #[case] k: u32) {
        assert!(b < 1 << most_divisor_bits(k).expect("within"));
        assert_signed(a, b, k, 18);
        assert_signed(a, b - 1, k, 18);
    }

    #[rstest]
    #[case::no_scale(0, Some(48))]
    #[case::one_digit(1, Some(46))]
    #[case::money_by_a_factor(6, Some(30))]
    #[case::largest_scale(9, Some(20))]
    #[case::beyond_the_largest_scale(10, None)]
    fn floored_divisor_bounds(#[case] k: u32, #[case] want: Option<u32>) {
        assert_eq!(floored_divisor_bits(k), want);
    }

    #[test]
    fn every_floored_divisor_bound_is_the_largest_that_holds() {
        for k in 0..=MAX_SHIFT {
            let b = floored_divisor_bits(k).expect("within the largest scale");
            let (error, margin) = (u128::from(floor_error(k)), u128::from(floor_margin(k)));
            // `ε` is a power of two above the error bound, the smallest one.
            assert!(margin.is_power_of_two() && margin > error && margin / 2 <= error, "k {k}");
            // `(2^b - 1) * (ε + E) < 1`, in units of `2^-58`; not for `b + 1`.
            let step = margin + error;
            assert!(((1u128 << b) - 1) * step < 1 << 58, "k {k}");
            let most = most_divisor_bits(k).expect("within");
            assert!(b == most || ((1u128 << (b + 1)) - 1) * step >= 1 << 58, "k {k}");
            // The bias is `ε - 1/2`, exactly.
            let c = TwoStepConstants::new(k, 18);
            assert_eq!(c.floor_bias + 0.5, margin as f64 / (1u64 << 58) as f64, "k {k}");
        }
    }

    #[rstest]
    #[case::within(51, 30, 6, true)]
    #[case::divisor_one_bit_beyond(51, 31, 6, false)]
    #[case::dividend_one_bit_beyond(52, 30, 6, false)]
    #[case::scale_beyond(20, 3, 10, false)]
    #[case::no_scale(51, 48, 0, true)]
    #[case::no_scale_divisor_one_bit_beyond(51, 49, 0, false)]
    fn which_calls_the_floored_kernel_applies(
        #[case] dividend: u32,
        #[case] divisor: u32,
        #[case] k: u32,
        #[case] want: bool,
    ) {
        assert_eq!(applies_floored(dividend, divisor, k), want);
    }

    #[rstest]
    #[case::largest_over_the_largest_divisor(MOST_A6, MOST_FLOORED_6)]
    #[case::largest_over_one_below_the_largest_divisor(MOST_A6, MOST_FLOORED_6 - 1)]
    #[case::largest_over_half_the_largest_divisor(MOST_A6, (MOST_FLOORED_6 + 1) / 2)]
    #[case::one_below_the_largest_over_the_largest_divisor(MOST_A6 - 1, MOST_FLOORED_6)]
    #[case::largest_over_one(MOST_A6, 1)]
    #[case::largest_over_two(MOST_A6, 2)]
    #[case::largest_over_three(MOST_A6, 3)]
    #[case::power_of_two_dividend(1 << 42, 3)]
    #[case::zero_dividend(0, 7)]
    #[case::money_over_a_factor(999_999_999_999, 999_999)]
    #[case::money_over_a_prime(987_654_321_987, 1_000_003)]
    #[case::small_over_the_largest_divisor(1, MOST_FLOORED_6)]
    fn floored_extremes_of_money_by_a_factor(#[case] a: i64, #[case] b: i64) {
        assert_signed_in(Form::Floored, a, b, 6, 18);
    }

    #[rstest]
    // `a * 10^6 = q * b - 1` (the largest fraction, `(b - 1) / b`, which
    // the bias must not round up), `q * b` (no fraction, which it must not
    // round down) and `q * b + 1`, for a large `q`, by the largest divisor
    // and by one unit below it.
    #[case::one_below_an_integer(-1, MOST_FLOORED_6)]
    #[case::an_integer(0, MOST_FLOORED_6)]
    #[case::one_above_an_integer(1, MOST_FLOORED_6)]
    #[case::one_below_an_integer_by_one_below_the_bound(-1, MOST_FLOORED_6 - 2)]
    #[case::an_integer_by_one_below_the_bound(0, MOST_FLOORED_6 - 2)]
    fn floored_quotients_beside_an_integer(#[case] offset: i64, #[case] b: i64) {
        // 2^30 - 1 = 3^2 * 7 * 11 * 31 * 151 * 331 and 2^30 - 3 (odd, not a
        // multiple of 5) share no factor with 10^6: every residue is some
        // a * 10^6; the a below is the one with a * 10^6 = offset (mod b),
        // near the largest dividend.
        let inverse = inverse_modulo(1_000_000, i128::from(b));
        assert_eq!(1_000_000 * inverse % i128::from(b), 1);
        let residue = (i128::from(offset).rem_euclid(i128::from(b)) * inverse) % i128::from(b);
        let most = i128::from(MOST_A6);
        let a = i64::try_from(most - (most - residue).rem_euclid(i128::from(b)))
            .expect("below the largest dividend");
        assert_eq!((i128::from(a) * 1_000_000 - i128::from(offset)) % i128::from(b), 0);
        assert_signed_in(Form::Floored, a, b, 6, 18);
    }

    #[rstest]
    #[case::one_and_a_half(3, 2_000_000)]
    #[case::two_and_a_half(5, 2_000_000)]
    #[case::large_tie(MOST_A6 / 2 * 2 + 1, 2_000_000)]
    // 536 * (2m + 1) * 10^6 / (2 * 536 * 10^6) = m + 1/2, by a divisor near
    // the bound (2^30 - 1 = 1,073,741,823).
    #[case::tie_by_a_large_divisor(536 * 16_000_000_001, 1_072_000_000)]
    #[case::just_below_a_tie(2_499_999, 1_000_000)]
    fn floored_ties_at_the_result_scale(#[case] a: i64, #[case] b: i64) {
        assert!(b <= MOST_FLOORED_6, "{b} beyond the bound");
        assert_signed_in(Form::Floored, a, b, 6, 18);
    }

    #[rstest]
    #[case::no_scale(0)]
    #[case::one_digit(1)]
    #[case::four_digits(4)]
    #[case::money_by_a_factor(6)]
    #[case::largest_scale(9)]
    fn every_scale_at_its_bounds(
        #[case] k: u32,
        #[values(Form::Corrected, Form::Floored)] form: Form,
    ) {
        let most_b = (1i64 << form.divisor_bits(k).expect("within")) - 1;
        // Dividends whose scaled value stays in i64 (the plan's work type).
        let most_a = MOST.min(i64::MAX / 10i64.pow(k));
        let rows = [
            (most_a, most_b),
            (most_a, most_b - 1),
            (most_a, 1),
            (most_a - 1, most_b - 1),
            (1, most_b),
            (most_a, 3),
            (most_b - 1, most_b),
        ];
        for (a, b) in rows {
            assert_signed_in(form, a, b, k, 18);
        }
    }

    #[rstest]
    fn zero_divisors_are_flagged_and_garbage_under_nulls_does_not_trap(
        #[values(Form::Corrected, Form::Floored)] form: Form,
    ) {
        let a = [5, -5, 0, i64::MAX, i64::MIN, i64::MIN, 7, 1 << 52, MOST, 3];
        let b = [0, 0, 0, 1, -1, 0, i64::MIN, 3, -(1 << 40), 1 << 31];
        // Rows 3 to 9 hold values beyond the bounds: null.
        let nulls = NullBuffer::from((0..a.len()).map(|i| i < 3).collect::<Vec<_>>());
        assert_rows_in(form, &a, &b, Some(&nulls), 6, 18);
        // Under the error policy a valid zero divisor fails the call.
        let rows = Rows::new(a.len()).with_nulls(Some(&nulls));
        assert!(form.call_strict(&a, &b, &rows).is_err());
    }

    #[rstest]
    #[case::corrected(Form::Corrected, 0x5eed, 0xd1)]
    #[case::floored(Form::Floored, 0xf100, 0xf1d1)]
    fn random_log_uniform_rows_equal_the_reference(
        #[case] form: Form,
        #[case] a_seed: u64,
        #[case] b_seed: u64,
    ) {
        for k in [0, 2, 6, 9] {
            let bits = form.divisor_bits(k).expect("within");
            let most_a = MOST.min(i64::MAX / 10i64.pow(k));
            let a: Vec<i64> = values(3000, OPERAND_BITS, a_seed + u64::from(k))
                .into_iter()
                .map(|v| v.clamp(-most_a, most_a))
                .collect();
            let b = values(3000, bits, b_seed + u64::from(k));
            for precision in [18, 12] {
                assert_rows_in(form, &a, &b, None, k, precision);
            }
        }
    }
}
