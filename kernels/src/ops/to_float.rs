//! Decimal to float: the `f64` nearest the exact value `a * 10^-s`, ties to
//! the even significand, for stored integers below `2^51` in magnitude and
//! scales with `|s| <= 22`.
//!
//! Formula: `a` and `10^|s|` are both exact doubles, so one IEEE 754
//! division `a / 10^s` (or product `a * 10^-s` for a negative scale) is the
//! correctly rounded result, with no intermediate rounding. `a` becomes a
//! double by the magic-number conversion of `exact_double` (an integer add
//! and a float subtract), which vectorizes on every x86-64 level where a
//! conversion instruction from 64-bit integers exists only with AVX-512.
//!
//! Rows this path does not serve (stored integers of `2^51` or more in
//! magnitude) are flagged as an overflow is, for the caller to compute on
//! an exact path of its own; a scale beyond 22 serves no row.

use arrow_buffer::{NullBuffer, ScalarBuffer};

use crate::columns::operand::Operand;
use crate::driver::error::KernelError;
use crate::driver::kernel::{OVERFLOW, UnaryKernel};
use crate::driver::output::compute_output;
use crate::driver::rows::Rows;
use crate::driver::unary::run_unary_multiversioned;
use crate::int::exact_double;
use crate::int::pow10::exact_pow10_f64;
use crate::int::width::WorkWidth;

/// What a cast computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FloatPower {
    /// `10^|s|`, exact.
    power: f64,
    /// The rows served have `a + 2^51` below this: `2^52`, or zero when no
    /// row is (a scale beyond ±22, a column not loaded into `i64`).
    span: u64,
}

impl FloatPower {
    /// For `10^|s|` when it is exact, no row served otherwise.
    fn new(power: Option<f64>) -> Self {
        match power {
            Some(power) => Self { power, span: 1 << (exact_double::OPERAND_BITS + 1) },
            None => Self { power: 1.0, span: 0 },
        }
    }
}

/// The double nearest `a / 10^s` (`DIVIDE`, `s >= 0`) or `a * 10^-s`, as the
/// bits of the double in the row's integer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NearestFloat<const DIVIDE: bool>;

impl<const DIVIDE: bool> UnaryKernel<i64> for NearestFloat<DIVIDE> {
    type Constants = FloatPower;

    #[inline(always)]
    fn apply(a: i64, c: &FloatPower) -> (i64, u8) {
        let x = exact_double::to_f64(a);
        let q = if DIVIDE { x / c.power } else { x * c.power };
        // Within `[-2^51, 2^51)`: `a + 2^51` within `[0, 2^52)`.
        let beyond = a.cast_unsigned().wrapping_add(1 << exact_double::OPERAND_BITS) >= c.span;
        (q.to_bits().cast_signed(), OVERFLOW * u8::from(beyond))
    }
}

/// Floats from [`to_float`]: one per row (arbitrary where null), and the
/// validity.
#[derive(Clone, Debug)]
pub struct FloatOutput {
    /// One value per row.
    pub values: ScalarBuffer<f64>,
    /// The input validity less the rows the path left (under the `Null`
    /// policy).
    pub nulls: Option<NullBuffer>,
}

/// The stored decimals `input` at `scale` as the nearest `f64`s, each
/// correctly rounded.
///
/// The vectorized path of decimal → float casts: a row whose stored
/// integer is `2^51` or more in magnitude is flagged as an overflow (null
/// under the `Null` policy, failing the call under `Error`), and with a
/// scale beyond ±22 every row is; a caller that casts such rows exactly
/// runs this with the `Null` policy and computes the rows it nulled.
///
/// ```
/// use decimal_kernels_native::{Operand, OverflowPolicy, Policies, Rows, to_float};
/// // 0.10 and -12.34 at scale 2; a value beyond 2^51 is left.
/// let a = [10i64, -1234, 1 << 60];
/// let lenient = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
/// let out = to_float(Operand::array(&a[..]), 2, &Rows::new(3).with_policies(lenient))?;
/// assert_eq!(out.values[..2], [0.1, -12.34]);
/// assert!(out.nulls.is_some_and(|n| n.is_null(2)));
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row the path does not
/// serve under the `Error` policy; [`KernelError::LengthMismatch`] as for
/// [`add`](crate::add).
pub fn to_float(
    input: Operand<'_>,
    scale: i32,
    rows: &Rows<'_>,
) -> Result<FloatOutput, KernelError> {
    rows.check(&[&input])?;
    // A column whose values do not all fit `i64` is loaded into it wrapped:
    // then no row is served, as with a power that is not exact.
    let fits = input.holding_work() <= WorkWidth::I64 || input.measured_bits() <= 63;
    let power = exact_pow10_f64(scale.unsigned_abs()).filter(|_| fits);
    let c = FloatPower::new(power);
    let out = compute_output::<i64>(0, rows, |rows, sink| {
        if scale >= 0 {
            run_unary_multiversioned::<i64, NearestFloat<true>>(&input, c, rows, sink)
        } else {
            run_unary_multiversioned::<i64, NearestFloat<false>>(&input, c, rows, sink)
        }
    })?;
    let values = ScalarBuffer::<f64>::new(out.values.into_inner(), 0, rows.len);
    Ok(FloatOutput { values, nulls: out.nulls })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::isa::Runnable;
    use crate::driver::output::Output;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use crate::testing::call_unary_in;
    use rstest::rstest;

    fn lenient(len: usize) -> Rows<'static> {
        Rows::new(len)
            .with_policies(Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() })
    }

    /// Stored integers around the edges: zero, powers of ten and of two
    /// and their neighbours, `2^51` and beyond, both signs, and random ones.
    fn stored() -> Vec<i64> {
        let mut v = vec![0, 1, 5, 25, 1 << 53, i64::MAX, i64::MIN];
        for k in 0..=18 {
            let p = 10i64.pow(k);
            v.extend([p - 1, p, p + 1]);
        }
        for k in [24, 50, 51, 52, 53] {
            let p = 1i64 << k;
            v.extend([p - 1, p, p + 1]);
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        // Miri interprets each row's steps: a sample there.
        for _ in 0..if cfg!(miri) { 20 } else { 500 } {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            v.push((seed >> (13 + seed % 50)).cast_signed());
        }
        let negated: Vec<i64> = v.iter().map(|x| x.wrapping_neg()).collect();
        v.extend(negated);
        v
    }

    /// Every served row is the float Rust's correctly rounded parsing gives
    /// for the exact decimal text, and every row below `2^51` is served, in
    /// every copy.
    #[rstest]
    #[case::money(2)]
    #[case::scale_0(0)]
    #[case::scale_18(18)]
    #[case::scale_22(22)]
    #[case::negative_scale(-3)]
    #[case::negative_scale_22(-22)]
    fn served_rows_are_correctly_rounded(#[case] scale: i32) {
        let values = stored();
        let rows = lenient(values.len());
        let power = exact_pow10_f64(scale.unsigned_abs()).expect("a scale within 10^22");
        for copy in Runnable::all() {
            let operand = Operand::array(&values[..]);
            let out: Output<i64> = if scale >= 0 {
                call_unary_in::<i64, i64, NearestFloat<true>>(
                    copy,
                    operand,
                    FloatPower::new(Some(power)),
                    &rows,
                )
            } else {
                call_unary_in::<i64, i64, NearestFloat<false>>(
                    copy,
                    operand,
                    FloatPower::new(Some(power)),
                    &rows,
                )
            }
            .unwrap();
            let public = to_float(operand, scale, &rows).unwrap();
            for (row, &a) in values.iter().enumerate() {
                let served = out.nulls.as_ref().is_none_or(|n| n.is_valid(row));
                assert_eq!(served, (-(1 << 51)..1 << 51).contains(&a), "{a} in {:?}", copy.isa());
                if served {
                    let want: f64 = format!("{a}e{}", -scale).parse().unwrap();
                    let got = f64::from_bits(out.values[row].cast_unsigned());
                    assert_eq!(got.to_bits(), want.to_bits(), "{a}e{} in {:?}", -scale, copy.isa());
                    assert_eq!(public.values[row].to_bits(), want.to_bits());
                }
            }
        }
    }

    #[rstest]
    #[case::beyond_22(23)]
    #[case::beyond_minus_22(-23)]
    fn scales_beyond_22_leave_every_row(#[case] scale: i32) {
        let a = [0i64, 1];
        let out = to_float(Operand::array(&a[..]), scale, &lenient(2)).unwrap();
        assert_eq!(out.nulls.map(|n| n.null_count()), Some(2));
    }

    #[test]
    fn wide_columns_are_served_when_their_values_fit() {
        let fits = [12_345i128, -7];
        let out = to_float(Operand::array(&fits[..]), 2, &lenient(2)).unwrap();
        assert_eq!((out.values.to_vec(), out.nulls), (vec![123.45, -0.07], None));
        let wide = [1i128 << 70, 5];
        let out = to_float(Operand::array(&wide[..]), 0, &lenient(2)).unwrap();
        assert_eq!(out.nulls.map(|n| n.null_count()), Some(2));
    }

    #[test]
    fn a_left_row_fails_the_call_under_error() {
        let a = [1i64, 1 << 52];
        let err = to_float(Operand::array(&a[..]), 2, &Rows::new(2)).unwrap_err();
        assert!(matches!(err, KernelError::Overflow { row: 1, .. }), "{err:?}");
        let short = to_float(Operand::array(&a[..]), 2, &Rows::new(3)).unwrap_err();
        assert!(matches!(short, KernelError::LengthMismatch { .. }), "{short:?}");
    }
}
