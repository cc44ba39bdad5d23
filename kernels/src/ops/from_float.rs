//! Float to decimal: the exact binary value of an `f64` at scale `s`
//! (`0 <= s <= 22`, where `10^s` is an exact double), rounded once to an
//! integer with a rounding mode, in double-precision arithmetic that
//! vectorizes on every x86-64 level.
//!
//! Formula: `p = x * 10^s` rounded to nearest, and its error `e`
//! (`x * 10^s = p + e` exactly) by Dekker's two-product with Veltkamp's
//! split (T. J. Dekker, "A floating-point technique for extending the
//! available precision", Numerische Mathematik 18, 1971), exact while the
//! operands stay far from overflow and underflow: wherever `e` decides a
//! row below (`|p|` at least one half, so `|x| > 2^-76`). With `a = |p|` and `e'`
//! the error with `x`'s sign taken out, the exact magnitude is `a + e'`,
//! `|e'|` at most half an ulp of `a`. Let `n` be the integer nearest `a` and
//! `d = a - n` (exact, `|d| <= 1/2`). Below `2^51` an ulp is at most `1/4`,
//! so `d` is `±1/2` or an ulp inside it, and `e'` never carries the
//! magnitude across an integer or a half-integer that `a` itself does not
//! reach:
//! - it is below `n` when `d < 0`, or `d = 0 > e'`; above `n` when `d > 0`,
//!   or `d = 0 < e'`; and equal to it when both are zero;
//! - at `d = ±1/2`, `a ± 1/2` are the integers on either side, and `e'`'s
//!   sign says whether the exact magnitude is below, at or above the tie.
//!
//! Each rounding mode then picks `n`, its neighbour below or above, or the
//! side of the tie: a handful of comparisons and selections.
//!
//! Rows this path does not serve are flagged as an overflow is, for the
//! caller to compute on an exact path of its own: NaN, infinities, values
//! whose magnitude at the scale reaches `2^51`, and magnitudes beyond the
//! result precision.

use core::marker::PhantomData;

use arrow_buffer::{NullBuffer, ScalarBuffer};

use crate::columns::column::Sink;
use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::error::KernelError;
use crate::driver::kernel::{OVERFLOW, UnaryKernel};
use crate::driver::output::{Output, Recycled, compute_output};
use crate::driver::rows::Rows;
use crate::driver::unary::run_unary_multiversioned;
use crate::int::exact_double;
use crate::int::pow10::{EXACT_POW10_F64, exact_pow10_f64};
use crate::int::rounding::{Rounding, RoundingMode, with_rounding};

/// The shape of a float → decimal cast on the vectorized path.
///
/// ```
/// use decimal_kernels_native::{FromFloatSpec, RoundingMode};
/// // CAST(x AS DECIMAL(15, 2)) rounding half away from zero.
/// let spec = FromFloatSpec::new(2, RoundingMode::HalfUp, 15);
/// assert_eq!(spec.scale, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FromFloatSpec {
    /// The target scale: the float is multiplied by `10^scale`. Beyond 22
    /// the power is not an exact double and every row is left to the
    /// caller.
    pub scale: u32,
    /// How the digits beyond the scale round.
    pub rounding: RoundingMode,
    /// The result precision: magnitudes beyond `10^p - 1` are flagged.
    pub result_precision: u8,
}

impl FromFloatSpec {
    /// Values at `scale`, rounded with `rounding`, checked against
    /// `result_precision` digits.
    #[must_use]
    pub fn new(scale: u32, rounding: RoundingMode, result_precision: u8) -> Self {
        Self { scale, rounding, result_precision }
    }
}

/// The magnitudes this path forms stay below `2^51`, where the conversions
/// of `exact_double` are exact.
const MAGNITUDE_BITS: u32 = exact_double::OPERAND_BITS;

/// What a cast computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FloatConstants {
    /// `10^s`, exact.
    power: f64,
    /// `power` split in two halves of at most 26 significant bits each.
    power_high: f64,
    power_low: f64,
    /// The largest magnitude served: the precision's, and below `2^51`.
    limit: f64,
}

/// Veltkamp's split of `x` into `high + low`, each with at most 26
/// significant bits, so that products of halves are exact.
#[inline(always)]
fn split(x: f64) -> (f64, f64) {
    // `2^27 + 1`.
    const SPLITTER: f64 = 134_217_729.0;
    let g = SPLITTER * x;
    let high = g - (g - x);
    (high, x - high)
}

/// The magnitude `a + e` (`a` a double below `2^51`, `e` at most half its
/// ulp) rounded to an integer with `R`, from `n`, the integer nearest `a`
/// (ties to even), of a value that is negative when `negative`.
///
/// With `d = a - n` (exact, `|d| <= 1/2`), `e` decides only where `a` is an
/// integer or a half-integer (see the header): the magnitude is below `n`
/// when `d < 0`, or `d = 0 > e`; above it when `d > 0`, or `d = 0 < e`; and
/// at `d = ±1/2`, `a ± 1/2` are the integers on either side of it, `e`'s
/// sign saying where the exact magnitude lies between them.
#[inline(always)]
fn rounded_magnitude<R: Rounding>(a: f64, e: f64, n: f64, negative: bool) -> f64 {
    let d = a - n;
    let tie = d.abs() == 0.5;
    let below = d < 0.0 || (d == 0.0 && e < 0.0);
    let above = d > 0.0 || (d == 0.0 && e > 0.0);
    let floor = if below { n - 1.0 } else { n };
    let ceiling = if above { n + 1.0 } else { n };
    let tie_side = if e < 0.0 { a - 0.5 } else { a + 0.5 };
    match R::MODE {
        RoundingMode::TowardZero => floor,
        // A tie is at least one half: away from zero.
        RoundingMode::HalfUp => {
            if tie {
                tie_side
            } else {
                n
            }
        }
        // An exact tie keeps `n`, the even integer.
        RoundingMode::HalfEven => {
            if tie && e != 0.0 {
                tie_side
            } else {
                n
            }
        }
        RoundingMode::Floor => {
            if negative {
                ceiling
            } else {
                floor
            }
        }
        RoundingMode::Ceiling => {
            if negative {
                floor
            } else {
                ceiling
            }
        }
    }
}

/// The exact binary value of the float whose bits are the row's value, at
/// the scale, rounded with `R`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExactFloat<R>(PhantomData<R>);

impl<R: Rounding> UnaryKernel<i64> for ExactFloat<R> {
    type Constants = FloatConstants;

    #[inline(always)]
    fn apply(bits: i64, c: &FloatConstants) -> (i64, u8) {
        let x = f64::from_bits(bits.cast_unsigned());
        let p = x * c.power;
        let (x_high, x_low) = split(x);
        // Dekker's two-product: `x * 10^s - p`, exactly.
        let e = ((x_high * c.power_high - p) + x_high * c.power_low + x_low * c.power_high)
            + x_low * c.power_low;
        let sign = exact_double::sign_bits(x);
        let (a, e) = (exact_double::with_sign(p, sign), exact_double::with_sign(e, sign));
        let n = exact_double::nearest(a);
        let magnitude = rounded_magnitude::<R>(a, e, n, sign != 0);
        // NaN fails every comparison: flagged.
        let serves = magnitude <= c.limit && a < c.limit + 1.0;
        let value = exact_double::to_i64(exact_double::with_sign(magnitude, sign));
        (value, OVERFLOW * u8::from(!serves))
    }
}

/// The floats `values` as decimals at the spec's scale, each the exact
/// binary value rounded once, results stored as `O`.
///
/// The vectorized path of float → decimal casts: a row it does not serve is
/// flagged as an overflow (under the `Null` policy it is null; under
/// `Error` it fails the call), whether it is beyond the precision or only
/// outside the path's range: NaN, infinities, magnitudes at the scale of
/// `2^51` or more, and every row when the scale is above 22. A caller that casts such rows exactly runs this
/// with the `Null` policy and computes the rows it nulled.
///
/// ```
/// use decimal_kernels_native::{
///     FromFloatSpec, OverflowPolicy, Output, Policies, RoundingMode, Rows, ScalarBuffer, from_float,
/// };
/// // 0.125 and -2.675 (the double just below -2.675) at scale 2, half away
/// // from zero; NaN is left.
/// let x = ScalarBuffer::from(vec![0.125f64, -2.675, f64::NAN]);
/// let spec = FromFloatSpec::new(2, RoundingMode::HalfUp, 15);
/// let lenient = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
/// let out: Output<i64> = from_float(&x, &spec, &Rows::new(3).with_policies(lenient))?;
/// assert_eq!(out.values[..2], [13, -267]);
/// assert!(out.nulls.is_some_and(|n| n.is_null(2)));
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row the path does not
/// serve under the `Error` policy; [`KernelError::LengthMismatch`] and
/// [`KernelError::StorageTooNarrow`] as for [`add`](crate::add).
pub fn from_float<'a, O: Storage>(
    values: &ScalarBuffer<f64>,
    spec: &FromFloatSpec,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    // The floats' bits as integers, without a copy: the driver's loops
    // read 64-bit integer columns.
    let bits = ScalarBuffer::<i64>::new(values.inner().clone(), 0, values.len());
    compute_output(spec.result_precision, rows, |rows, sink| {
        cast_bits(&Operand::array(&bits[..]), spec, rows, sink)
    })
}

/// [`from_float`] over the floats' bits, into any output storage.
fn cast_bits(
    bits: &Operand<'_>,
    spec: &FromFloatSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let constants = constants(spec);
    with_rounding!(spec.rounding, R => {
        run_unary_multiversioned::<i64, ExactFloat<R>>(bits, constants, rows, sink)
    })
}

/// The constants of `spec`.
fn constants(spec: &FromFloatSpec) -> FloatConstants {
    let power = exact_pow10_f64(spec.scale);
    // Beyond 10^22 nothing is served: a limit below every magnitude.
    let (power, limit) = match power {
        Some(power) => {
            // The precision's largest magnitude, within `2^51 - 1` (exact
            // as a double); 10^p - 1 rounds to 10^p beyond 2^53, which the
            // bound on `2^51` keeps out.
            let largest = EXACT_POW10_F64[usize::from(spec.result_precision.min(16))] - 1.0;
            (power, largest.min(((1u64 << MAGNITUDE_BITS) - 1) as f64))
        }
        None => (1.0, -1.0),
    };
    let (power_high, power_low) = split(power);
    FloatConstants { power, power_high, power_low, limit }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::isa::Runnable;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use crate::testing::call_unary_in;
    use num_bigint::BigInt;
    use num_integer::Integer;
    use rstest::rstest;

    /// The float's exact value at `scale` rounded with `mode`, if within
    /// `limit`: big integers (`x = m * 2^e`).
    fn exact(x: f64, scale: u32, mode: RoundingMode, limit: i64) -> Option<i64> {
        if !x.is_finite() {
            return None;
        }
        let bits = x.to_bits();
        let biased = i32::try_from((bits >> 52) & 0x7ff).unwrap();
        let fraction = bits & ((1 << 52) - 1);
        let (m, e) =
            if biased == 0 { (fraction, -1074) } else { (fraction | 1 << 52, biased - 1075) };
        let negative = bits >> 63 == 1;
        let n = BigInt::from(m) * BigInt::from(10).pow(scale);
        let (q, twice_r, d) = if e >= 0 {
            (n << e.unsigned_abs(), BigInt::ZERO, BigInt::from(1))
        } else {
            let d = BigInt::from(1) << e.unsigned_abs();
            let (q, r) = n.div_rem(&d);
            (q, r * 2, d)
        };
        let inexact = twice_r != BigInt::ZERO;
        let odd = &q % 2 == BigInt::from(1);
        let up = match mode {
            RoundingMode::TowardZero => false,
            RoundingMode::HalfUp => twice_r >= d,
            RoundingMode::HalfEven => twice_r > d || (twice_r == d && odd),
            RoundingMode::Floor => negative && inexact,
            RoundingMode::Ceiling => !negative && inexact,
        };
        let magnitude = i64::try_from(q + BigInt::from(u8::from(up))).ok()?;
        (magnitude <= limit).then_some(if negative { -magnitude } else { magnitude })
    }

    /// Values around every kind of edge the path decides: ties and their
    /// neighbours, integers and their neighbours, `2^51` and `2^53` at the
    /// scale, tiny values, signed zeros, subnormals, NaN and infinities.
    fn edges(scale: u32) -> Vec<f64> {
        let power = 10f64.powi(i32::try_from(scale).unwrap());
        let mut v = vec![0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE];
        v.extend([5e-324, 2f64.powi(-900), 2f64.powi(-1000), f64::MAX, 1e-20, 0.4999999999999999]);
        let mut centers = vec![0.5, 1.0, 1.5, 2.5, 1e15 + 0.5, 2f64.powi(51), 2f64.powi(53)];
        centers.extend((1..40).map(|k| f64::from(k) * 0.125 + 0.005));
        for c in centers {
            let at_scale = c / power;
            let mut down = at_scale;
            let mut up = at_scale;
            for _ in 0..3 {
                v.extend([down, up, -down, -up]);
                down = down.next_down();
                up = up.next_up();
            }
        }
        v.extend([2.675, 1.005, 0.015, 9.95, 0.1, 0.2, 0.3, 123.456, 1e10 / 3.0]);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        // Miri interprets each row's steps: a sample there.
        for _ in 0..if cfg!(miri) { 20 } else { 2000 } {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let magnitude = f64::from(u32::try_from(seed >> 40).unwrap()) / 1000.0;
            v.push(if seed & 1 == 0 { magnitude } else { -magnitude });
            v.push(f64::from_bits(seed >> 2));
        }
        v
    }

    /// Every served row equals the exact rounding and every row the exact
    /// cast serves within `2^51` is served, in every mode and copy.
    #[rstest]
    #[case::scale_0(0, 18)]
    #[case::money(2, 15)]
    #[case::scale_4_narrow(4, 9)]
    #[case::scale_10(10, 38)]
    #[case::scale_22(22, 38)]
    fn served_rows_are_exact(#[case] scale: u32, #[case] precision: u8) {
        let values = edges(scale);
        let x = ScalarBuffer::from(values.clone());
        let limit = 10i64.checked_pow(u32::from(precision)).map_or(i64::MAX, |p| p - 1);
        let lenient = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let bits: Vec<i64> = values.iter().map(|v| v.to_bits().cast_signed()).collect();
        for copy in Runnable::all() {
            for mode in RoundingMode::ALL {
                let spec = FromFloatSpec::new(scale, mode, precision);
                let rows = Rows::new(values.len()).with_policies(lenient);
                let operand = Operand::array(&bits[..]);
                let out: Output<i128> = with_rounding!(mode, R => {
                    call_unary_in::<i128, i64, ExactFloat<R>>(copy, operand, constants(&spec), &rows)
                })
                .unwrap();
                // The public entry agrees with the pinned copy on which rows
                // it serves and on their values (an unserved row's value is
                // unspecified: Miri, for one, gives NaNs other payloads).
                let public: Output<i128> = from_float(&x, &spec, &rows).unwrap();
                assert_eq!(public.nulls, out.nulls);
                let served = |o: &Output<i128>| -> Vec<Option<i128>> {
                    let valid = |r: usize| o.nulls.as_ref().is_none_or(|n| n.is_valid(r));
                    (0..o.values.len()).map(|r| valid(r).then(|| o.values[r])).collect()
                };
                assert_eq!(served(&public), served(&out));
                for (row, &v) in values.iter().enumerate() {
                    let served = out.nulls.as_ref().is_none_or(|n| n.is_valid(row));
                    let want = exact(v, scale, mode, limit);
                    let within = want.is_some_and(|w| w.unsigned_abs() < 1 << MAGNITUDE_BITS);
                    let at = || format!("{v:e} at scale {scale}, {mode:?}, {:?}", copy.isa());
                    if served {
                        assert_eq!(Some(i64::try_from(out.values[row]).unwrap()), want, "{}", at());
                    } else {
                        assert!(!within, "{}: left although within the path", at());
                    }
                }
            }
        }
    }

    #[test]
    fn a_left_row_fails_the_call_under_error() {
        let x = ScalarBuffer::from(vec![1.0, f64::NAN]);
        let spec = FromFloatSpec::new(2, RoundingMode::HalfUp, 15);
        let err = from_float::<i64>(&x, &spec, &Rows::new(2)).unwrap_err();
        assert!(matches!(err, KernelError::Overflow { row: 1, .. }), "{err:?}");
    }

    #[test]
    fn scales_beyond_22_leave_every_row() {
        let x = ScalarBuffer::from(vec![0.0, 1.0]);
        let lenient = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let spec = FromFloatSpec::new(23, RoundingMode::HalfUp, 38);
        let out: Output<i128> =
            from_float(&x, &spec, &Rows::new(2).with_policies(lenient)).unwrap();
        assert_eq!(out.nulls.map(|n| n.null_count()), Some(2));
    }
}
