//! Rescaling one decimal to another scale and precision (a cast).
//!
//! Formula: a value `a` at scale `s` becomes `a * 10^(s' - s)` at scale `s'`.
//! With `k = s - s'`: for `k > 0`, `k` digits are dropped by one truncating
//! division `a = q * 10^k + r`, and the rounding mode rounds `q` from `r`
//! ([`DroppedDigits`]); for `k < 0`, `-k` digits are appended, `a * 10^-k`
//! ([`AppendedDigits`]); for `k = 0` the value is kept ([`SameScale`]): the
//! check after an operator, or a change of precision or storage. Overflow
//! when `|r| > 10^p' - 1`.
//!
//! The division by `10^k` is a multiply-high by a prepared constant (as in a
//! rescaled product), so no row divides; in `i64` work on a CPU with AVX-512
//! it is instead the floating-point estimate with exact correction of `div`
//! by one divisor, which vectorizes there. The call runs in the narrowest work
//! type holding the operand's values, and for appended digits the result
//! before its check: a `Decimal256` column of money rescales in `i64`.
//! A unary operator, it runs on the unary driver.

use arrow_buffer::NullBuffer;

use crate::columns::column::Sink;
use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::error::KernelError;
use crate::driver::kernel::{UnaryKernel, overflow_flag};
use crate::driver::output::compute_output;
use crate::driver::output::{Output, Recycled};
use crate::driver::plan::{needs_check, plan_unary, shift_bits};
use crate::driver::rows::Rows;
use crate::driver::unary::{run_unary, run_unary_multiversioned};
use crate::int::estimate::Instructions;
use crate::int::rounding::{Rounding, RoundingMode, with_rounding};
use crate::int::width::{WorkWidth, with_work};
use crate::int::work::Work;
use crate::ops::shared::division::{EstimatedDivision, I64Division, i64_division};
use crate::ops::shared::in_double::{InDoubleConstants, ScalarQuotientInDouble};
use crate::ops::shared::scalar_quotient::{ScalarQuotient, ScalarQuotientConstants};
use crate::ops::shared::scale::ScaleConstants;

/// The shape of a rescale, from the source and target types.
///
/// ```
/// use decimal_kernels_native::{RescaleSpec, RoundingMode};
/// // decimal(15, 4) to decimal(15, 2): two digits dropped, half up.
/// let spec = RescaleSpec::new(2, RoundingMode::HalfUp, 15);
/// assert_eq!(spec.shift, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RescaleSpec {
    /// Digits dropped (`> 0`, with rounding) or appended (`< 0`): the source
    /// scale less the target scale.
    pub shift: i32,
    /// How dropped digits round.
    pub rounding: RoundingMode,
    /// The target precision: results beyond `10^p - 1` overflow.
    pub result_precision: u8,
}

impl RescaleSpec {
    /// Drops `shift` digits (appends `-shift` when negative), rounding with
    /// `rounding`, and checks results against `result_precision` digits.
    #[must_use]
    pub fn new(shift: i32, rounding: RoundingMode, result_precision: u8) -> Self {
        Self { shift, rounding, result_precision }
    }

    /// `L` such that the value, its rescaled value and `10^k` are below `2^L`.
    fn work_bits(&self, bits: u32) -> u32 {
        let k = self.shift.unsigned_abs();
        if self.shift < 0 { bits + shift_bits(k) } else { bits.max(shift_bits(k) + 1) }
    }
}

/// `round(a / 10^k)` for `k > 0`, rounding mode `R`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DroppedDigits<R>(core::marker::PhantomData<R>);

impl<W: Work, R: Rounding> UnaryKernel<W> for DroppedDigits<R> {
    type Constants = ScaleConstants<W>;

    #[inline(always)]
    fn apply(a: W, c: &Self::Constants) -> (W, u8) {
        c.drop_digits::<R>(a)
    }
}

/// `a * 10^-k` for `k < 0`; `CHECKED`: whether results can exceed the bound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AppendedDigits<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> UnaryKernel<W> for AppendedDigits<CHECKED> {
    type Constants = ScaleConstants<W>;

    #[inline(always)]
    fn apply(a: W, c: &Self::Constants) -> (W, u8) {
        let r = a.mul(c.factor);
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `a` itself, checked against the bound when `CHECKED`: a change of
/// precision or storage only.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SameScale<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> UnaryKernel<W> for SameScale<CHECKED> {
    type Constants = ScaleConstants<W>;

    #[inline(always)]
    fn apply(a: W, c: &Self::Constants) -> (W, u8) {
        (a, overflow_flag::<W, CHECKED>(a, c.bound))
    }
}

/// Rescales `input` row by row, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Operand, Output, RescaleSpec, RoundingMode, Rows, rescale};
/// // 1.2345 and -1.2350 (scale 4) at scale 2, half up: 1.23 and -1.24.
/// let a = [1_2345i64, -1_2350];
/// let spec = RescaleSpec::new(2, RoundingMode::HalfUp, 15);
/// let out: Output<i64> = rescale(Operand::array(&a[..]), &spec, &Rows::new(2))?;
/// assert_eq!(out.values.as_ref(), [123, -124]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row beyond the result
/// precision under the `Error` policy; [`KernelError::LengthMismatch`] and
/// [`KernelError::StorageTooNarrow`] as for [`add`](crate::add).
pub fn rescale<'a, O: Storage>(
    input: Operand<'_>,
    spec: &RescaleSpec,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    compute_output(spec.result_precision, rows, |rows, sink| rescaled(&input, spec, rows, sink))
}

/// [`rescale`] into any output storage, in the kernel the plan picks.
fn rescaled(
    input: &Operand<'_>,
    spec: &RescaleSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    // As for products: measuring a wide column pays from i128 on.
    let p = plan_unary(input, WorkWidth::I128, |bits| WorkWidth::for_bits(spec.work_bits(bits)));
    let k = spec.shift.unsigned_abs();
    let within = spec.shift <= 0 && input.declared_within(k, spec.result_precision);
    let checked = !within && needs_check(spec.work_bits(p.bits), spec.result_precision);
    if spec.shift > 0
        && let Some(division) = i64_division(p.width, p.bits, shift_bits(k), p.bits)
    {
        // In i64 on AVX-512 a quotient by the one divisor 10^k vectorizes as
        // a floating-point estimate with exact correction, where the 64-bit
        // multiply-high of the prepared divisor runs row by row: the same
        // rounded quotient as a division by that one divisor.
        let bound = i64::precision_bound(spec.result_precision.into());
        let precision = spec.result_precision;
        return with_rounding!(spec.rounding, R => match division {
            I64Division::InDouble => {
                let c = InDoubleConstants::scalar(0, i64::pow10(k), 0, precision);
                run_unary_multiversioned::<i64, ScalarQuotientInDouble<R>>(input, c, rows, sink)
            }
            I64Division::Estimated => {
                type D = EstimatedDivision<Instructions>;
                let c = ScalarQuotientConstants::<i64, D>::new(1, i64::pow10(k), bound);
                run_unary_multiversioned::<i64, ScalarQuotient<R, D>>(input, c, rows, sink)
            }
        });
    }
    let a = input;
    with_work!(p.width, W => {
        let c = ScaleConstants::<W>::new(k, spec.result_precision);
        match (spec.shift, checked) {
            // One portable loop: in i64 on AVX-512 the estimate above serves,
            // and wider multiply-highs do not vectorize.
            (1.., _) => with_rounding!(spec.rounding, R => {
                run_unary::<W, DroppedDigits<R>>(a, c, rows, sink)
            }),
            (..0, true) => run_unary_multiversioned::<W, AppendedDigits<true>>(a, c, rows, sink),
            (..0, false) => run_unary_multiversioned::<W, AppendedDigits<false>>(a, c, rows, sink),
            (0, true) => run_unary_multiversioned::<W, SameScale<true>>(a, c, rows, sink),
            (0, false) => run_unary_multiversioned::<W, SameScale<false>>(a, c, rows, sink),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use arrow_buffer::i256;
    use rstest::rstest;

    /// One value rescaled under the `Null` policy into `i128`: `None` on
    /// overflow.
    #[track_caller]
    fn one(value: i256, spec: RescaleSpec) -> Option<i128> {
        let policies = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows::new(1).with_policies(policies);
        let out: Output<i128> = rescale(Operand::array(&[value][..]), &spec, &rows).unwrap();
        out.nulls.as_ref().is_none_or(|n| n.is_valid(0)).then(|| out.values[0])
    }

    fn spec(shift: i32, mode: RoundingMode, precision: u8) -> RescaleSpec {
        RescaleSpec::new(shift, mode, precision)
    }

    #[rstest]
    #[case::half_up_tie(1_2350, 2, RoundingMode::HalfUp, Some(124))]
    #[case::half_up_negative_tie(-1_2350, 2, RoundingMode::HalfUp, Some(-124))]
    #[case::half_even_tie_down(1_2250, 2, RoundingMode::HalfEven, Some(122))]
    #[case::floor_negative(-1_2301, 2, RoundingMode::Floor, Some(-124))]
    #[case::ceiling_negative(-1_2399, 2, RoundingMode::Ceiling, Some(-123))]
    #[case::truncate(1_2399, 2, RoundingMode::TowardZero, Some(123))]
    #[case::rounds_into_overflow(99_995, 2, RoundingMode::HalfUp, None)]
    #[case::appended(-12, -1, RoundingMode::HalfUp, Some(-120))]
    #[case::appended_into_overflow(100, -1, RoundingMode::HalfUp, None)]
    #[case::precision_check_only(1000, 0, RoundingMode::HalfUp, None)]
    #[case::precision_check_passes(-999, 0, RoundingMode::HalfUp, Some(-999))]
    fn rescales_to_three_digits(
        #[case] value: i128,
        #[case] shift: i32,
        #[case] mode: RoundingMode,
        #[case] want: Option<i128>,
    ) {
        assert_eq!(one(i256::from_i128(value), spec(shift, mode, 3)), want);
    }

    #[test]
    fn extremes_rescale_exactly() {
        let nines = i256::from_string(&"9".repeat(76)).unwrap();
        // 76 nines less 40 digits, half up: 10^36, within 38 digits.
        assert_eq!(one(nines, spec(40, RoundingMode::HalfUp, 38)), Some(10i128.pow(36)));
        assert_eq!(
            one(nines.wrapping_neg(), spec(40, RoundingMode::Floor, 38)),
            Some(-10i128.pow(36))
        );
        // More digits dropped than the value has: zero or one unit.
        assert_eq!(one(nines, spec(200, RoundingMode::Ceiling, 38)), Some(1));
        assert_eq!(one(nines, spec(200, RoundingMode::HalfUp, 38)), Some(0));
        // The storage's minimum is an overflow, never a wrap.
        assert_eq!(one(i256::MIN, spec(0, RoundingMode::HalfUp, 38)), None);
        assert_eq!(one(i256::MIN, spec(-100, RoundingMode::HalfUp, 38)), None);
    }

    /// The `i64` rescale by a prepared divisor (the loop of CPUs without
    /// AVX-512) and the quotient `rescale` takes on AVX-512 (estimated, or
    /// exact in double precision for columns below `2^51`) agree on every
    /// mode and shift, ties and bounds included.
    #[rstest]
    #[case::full_range(62, i64::MAX)]
    #[case::below_two_to_51(50, (1 << 51) - 1)]
    fn both_i64_divisions_agree(#[case] bits: u32, #[case] most: i64) {
        use crate::testing::{assert_same_outcome, call_unary, values};
        let ties: Vec<i64> =
            (0..15).map(|k| 5 * 10i64.pow(k) * if k % 2 == 0 { 1 } else { -1 }).collect();
        let a = [values(3000, bits, 17), ties, vec![most, -most, 0]].concat();
        let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows::new(a.len()).with_policies(null);
        for shift in [1, 2, 9, 15, 18] {
            for mode in RoundingMode::ALL {
                let spec = spec(shift, mode, 15);
                let constants = ScaleConstants::<i64>::new(shift.unsigned_abs(), 15);
                let prepared = with_rounding!(mode, R => {
                    call_unary::<i64, i64, DroppedDigits<R>>(Operand::array(&a[..]), constants, &rows)
                });
                let chosen = rescale::<i64>(Operand::array(&a[..]), &spec, &rows);
                assert_same_outcome(prepared, chosen, &format!("{spec:?}"));
            }
        }
    }

    /// A declared precision that fits the target with the appended digits
    /// runs the loops without the check, and gives the same values.
    #[rstest]
    #[case::appended(-2, 12)]
    #[case::same_scale(0, 38)]
    fn declared_columns_within_the_target(#[case] shift: i32, #[case] precision: u8) {
        let a: Vec<i128> = (-500..500).map(|v| v * 10_000_019).collect();
        // Every value is below 10^10.
        let input = Operand::array(&a[..]).assume_precision(10);
        let spec = spec(shift, RoundingMode::HalfUp, precision);
        let out: Output<i128> = rescale(input, &spec, &Rows::new(a.len())).unwrap();
        let factor = 10i128.pow(shift.unsigned_abs());
        assert!(out.values.iter().zip(&a).all(|(&r, &v)| r == v * factor));
        assert!(out.nulls.is_none());
    }

    #[test]
    fn narrow_storage_takes_the_measured_work_type() {
        // Decimal256 money at scale 4 to Decimal128 at scale 2.
        let a: Vec<i256> = (-500..500).map(|v| i256::from_i128(v * 1_0005)).collect();
        let want: Vec<i128> =
            (-500..500i128).map(|v| (v * 1_0005 + v.signum() * 50) / 100).collect();
        let out: Output<i128> =
            rescale(Operand::array(&a[..]), &spec(2, RoundingMode::HalfUp, 38), &Rows::new(1000))
                .unwrap();
        assert_eq!(out.values.as_ref(), want);
    }
}
