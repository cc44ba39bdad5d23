//! Addition of two decimals.
//!
//! Formula: both operands are aligned to the larger scale, exactly, and added:
//! `r = a * 10^ka + b * 10^kb` (at most one of `ka`, `kb` is non-zero when the
//! scales differ). No digit is dropped, so there is no rounding. Overflow when
//! `|r| > 10^p - 1` for the result precision `p`. A result scale other than
//! the aligned one (Spark's sums at precision 38 drop digits) rescales the
//! exact aligned sum once, in `rescaled_sum`.
//!
//! The sum needs one bit more than the larger aligned operand; the call runs in
//! the narrowest work type with that many bits. Same-scale operands skip the
//! multiplications altogether ([`Sum`]); others use [`ScaledSum`]. Same-scale
//! operands whose sum may need more bits than their storage holds are added in
//! the storage's own width instead, with no pass to measure them: a carry out
//! of that width means the exact sum exceeds every bound the width can hold,
//! so the carry is an overflow like a result beyond the bound ([`CarriedSum`]).
//!
//! The kernels and the choice among them serve subtraction too: they are
//! generic over the [`SumOperator`], [`Plus`] here and `Minus` in `sub`.

use core::marker::PhantomData;

use arrow_buffer::NullBuffer;

use crate::arity::{
    Frame, KernelError, Output, Recycling, RowKernel, left_or_overflow_flag, overflow_flag,
    recycle, run,
};
use crate::column::{Input, Sink};
use crate::plan::{Plan, WorkWidth, needs_check, plan, shift_bits, storage_work, with_work};
use crate::pow10::precision_bits;
use crate::rescaled_sum::rescaled_sum;
use crate::rounding::RoundingMode;
use crate::storage::Storage;
use crate::work::Work;

/// The shape of an addition or subtraction, from the operand and result types.
///
/// ```
/// use decimal_kernels_native::SumSpec;
/// // decimal(10, 2) + decimal(10, 4) at scale 4: two digits appended to the left.
/// let spec = SumSpec::new(2, 0, 13);
/// assert_eq!((spec.lhs_shift, spec.rhs_shift), (2, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SumSpec {
    /// Digits appended to the left operand to reach the result scale.
    pub lhs_shift: u32,
    /// Digits appended to the right operand to reach the result scale.
    pub rhs_shift: u32,
    /// Digits dropped from the exact aligned sum (`> 0`, with rounding) or
    /// appended to it (`< 0`) to reach the result scale; usually 0.
    pub result_shift: i32,
    /// How dropped digits round (when `result_shift > 0`).
    pub rounding: RoundingMode,
    /// The result precision: results beyond `10^p - 1` overflow.
    pub result_precision: u8,
}

/// What a sum or difference computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SumConstants<W> {
    pub(crate) lhs_factor: W,
    pub(crate) rhs_factor: W,
    pub(crate) bound: W,
}

impl SumSpec {
    /// Appends `lhs_shift` digits to the left operand and `rhs_shift` to the
    /// right one (at most one of them non-zero), and checks results against
    /// `result_precision` digits.
    #[must_use]
    pub fn new(lhs_shift: u32, rhs_shift: u32, result_precision: u8) -> Self {
        Self {
            lhs_shift,
            rhs_shift,
            result_shift: 0,
            rounding: RoundingMode::TowardZero,
            result_precision,
        }
    }

    /// The same sum, then rescaled to the result scale: `shift > 0` drops that
    /// many digits from the exact aligned sum, rounding once with `rounding`;
    /// `shift < 0` appends `-shift` digits.
    ///
    /// ```
    /// use decimal_kernels_native::{Frame, Input, Output, RoundingMode, SumSpec, add};
    /// // decimal(38,10) + decimal(38,10) at Spark's decimal(38,9), half up.
    /// let spec = SumSpec::new(0, 0, 38).rescaled(1, RoundingMode::HalfUp);
    /// let (a, b) = ([1_5i128, -1_5], [0i128, 0]);
    /// let out: Output<i128> = add(Input::array(&a[..]), Input::array(&b[..]), &spec, &Frame::new(2))?;
    /// assert_eq!(out.values.as_ref(), [2, -2]);
    /// # Ok::<(), decimal_kernels_native::KernelError>(())
    /// ```
    #[must_use]
    pub fn rescaled(self, shift: i32, rounding: RoundingMode) -> Self {
        Self { result_shift: shift, rounding, ..self }
    }

    /// `L` such that every sum of operands below `2^lhs_bits` and `2^rhs_bits`
    /// is below `2^L`.
    pub(crate) fn result_bits(&self, lhs_bits: u32, rhs_bits: u32) -> u32 {
        let lhs = lhs_bits + shift_bits(self.lhs_shift);
        let rhs = rhs_bits + shift_bits(self.rhs_shift);
        lhs.max(rhs) + 1
    }

    /// The work type and how results are checked.
    pub(crate) fn plan(&self, lhs: &Input<'_>, rhs: &Input<'_>) -> SumPlan {
        let width_for = |l, r| WorkWidth::for_bits(self.result_bits(l, r));
        let checked = |p: Plan| {
            let check = needs_check(self.result_bits(p.lhs, p.rhs), self.result_precision);
            SumPlan::Within { width: p.width, checked: check }
        };
        if !self.aligned() {
            // Measuring pays as soon as the scaled sum would leave i64.
            return checked(plan(lhs, rhs, WorkWidth::I128, width_for));
        }
        // Declared bounds are trusted as they are (measuring would cost a
        // pass as long as the add itself).
        let declared = plan(lhs, rhs, WorkWidth::Wide, width_for);
        // A carry out of the type means overflow only if the type holds every
        // result of the result precision.
        let result = WorkWidth::for_bits(precision_bits(self.result_precision.into()));
        let holding = storage_work(lhs, rhs).max(result);
        if declared.width <= holding {
            checked(declared)
        } else {
            SumPlan::Carried { width: holding }
        }
    }

    /// Whether the operands are already at the result scale.
    pub(crate) fn aligned(&self) -> bool {
        self.lhs_shift == 0 && self.rhs_shift == 0
    }

    pub(crate) fn constants<W: Work>(&self) -> SumConstants<W> {
        SumConstants {
            lhs_factor: W::pow10(self.lhs_shift),
            rhs_factor: W::pow10(self.rhs_shift),
            bound: W::precision_bound(self.result_precision.into()),
        }
    }
}

/// Whether the right operand is added or subtracted: the one thing that tells
/// a difference from a sum.
pub(crate) trait SumOperator: Copy + Send + Sync + 'static {
    /// `a ± b`, wrapping.
    fn combine<W: Work>(a: W, b: W) -> W;
    /// `a ± b`, and whether it left the type.
    fn overflowing<W: Work>(a: W, b: W) -> (W, bool);
}

/// Addition.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plus;

impl SumOperator for Plus {
    #[inline(always)]
    fn combine<W: Work>(a: W, b: W) -> W {
        a.add(b)
    }
    #[inline(always)]
    fn overflowing<W: Work>(a: W, b: W) -> (W, bool) {
        a.overflowing_add(b)
    }
}

/// How a sum or difference runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SumPlan {
    /// In `width`, which holds every result; `checked`: whether results can
    /// exceed the precision at all.
    Within {
        /// The work type.
        width: WorkWidth,
        /// Whether results are compared with the bound.
        checked: bool,
    },
    /// Same-scale operands in the widest operand storage's own width, a
    /// carry out of it counting as overflow.
    Carried {
        /// The work type.
        width: WorkWidth,
    },
}

/// `a ± b`, operands at the result scale; `CHECKED`: whether results can
/// exceed the precision at all.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sum<O, const CHECKED: bool>(PhantomData<O>);

impl<W: Work, O: SumOperator, const CHECKED: bool> RowKernel<W> for Sum<O, CHECKED> {
    type Constants = SumConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = O::combine(a, b);
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `a * 10^ka ± b * 10^kb`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScaledSum<O, const CHECKED: bool>(PhantomData<O>);

impl<W: Work, O: SumOperator, const CHECKED: bool> RowKernel<W> for ScaledSum<O, CHECKED> {
    type Constants = SumConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = O::combine(a.mul(c.lhs_factor), b.mul(c.rhs_factor));
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `a ± b` in the storage's own width, operands at the result scale: a carry
/// or borrow out of the width, or a result beyond the bound, is an overflow.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CarriedSum<O>(PhantomData<O>);

impl<W: Work, O: SumOperator> RowKernel<W> for CarriedSum<O> {
    type Constants = SumConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let (r, carried) = O::overflowing(a, b);
        (r, left_or_overflow_flag(r, carried, c.bound))
    }
}

/// Combines `lhs` and `rhs` row by row with `O`, in the kernel the plan picks.
pub(crate) fn sum<O: SumOperator>(
    lhs: &Input<'_>,
    rhs: &Input<'_>,
    spec: &SumSpec,
    frame: &Frame<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    if spec.lhs_shift != 0 && spec.rhs_shift != 0 {
        // Alignment appends digits to one operand only; two shifts would let
        // saturated intermediates of the 512-bit type cancel.
        return Err(KernelError::UnsupportedSpec { reason: "both operands of a sum shifted" });
    }
    if spec.result_shift != 0 {
        return rescaled_sum::<O>(lhs, rhs, spec, frame, sink);
    }
    let (l, r) = (lhs, rhs);
    match spec.plan(lhs, rhs) {
        SumPlan::Carried { width } => with_work!(width, W => {
            run::<W, CarriedSum<O>>(l, r, spec.constants(), frame, sink)
        }),
        SumPlan::Within { width, checked } => with_work!(width, W => {
            let c = spec.constants::<W>();
            match (spec.aligned(), checked) {
                (true, true) => run::<W, Sum<O, true>>(l, r, c, frame, sink),
                (true, false) => run::<W, Sum<O, false>>(l, r, c, frame, sink),
                (false, true) => run::<W, ScaledSum<O, true>>(l, r, c, frame, sink),
                (false, false) => run::<W, ScaledSum<O, false>>(l, r, c, frame, sink),
            }
        }),
    }
}

/// Adds `lhs` and `rhs` row by row, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Frame, Input, Output, SumSpec, add};
/// // decimal(10, 2) in i64 + decimal(20, 2) in i128, result decimal(21, 2) in i128.
/// let (a, b) = ([150i64, -225], [1_000i128, 25]);
/// let spec = SumSpec::new(0, 0, 21);
/// let out: Output<i128> = add(Input::array(&a[..]), Input::array(&b[..]), &spec, &Frame::new(2))?;
/// assert_eq!(out.values.as_ref(), [1_150, -200]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row beyond the result
/// precision under the `Error` policy; [`KernelError::LengthMismatch`] when an
/// input or the validity does not have `frame.len` rows;
/// [`KernelError::StorageTooNarrow`] when `O` cannot hold the result
/// precision; [`KernelError::UnsupportedSpec`] when both shifts are non-zero.
pub fn add<'a, O: Storage>(
    lhs: Input<'_>,
    rhs: Input<'_>,
    spec: &SumSpec,
    frame: impl Into<Recycling<'a, O>>,
) -> Result<Output<O>, KernelError> {
    recycle(spec.result_precision, frame, |frame, sink| sum::<Plus>(&lhs, &rhs, spec, frame, sink))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arity::{OverflowPolicy, Policies};
    use crate::testing::{add, sub};
    use arrow_buffer::i256;
    use rstest::rstest;

    /// What is known of the operands' magnitudes.
    #[derive(Clone, Copy, Debug)]
    enum Magnitude {
        Precision(u8),
        Unknown,
    }

    fn same_scale(result_precision: u8) -> SumSpec {
        SumSpec::new(0, 0, result_precision)
    }

    fn array<S: Storage>(values: &[S], magnitude: Magnitude) -> Input<'_> {
        match magnitude {
            // SAFETY: the tests declare precisions their values fit.
            Magnitude::Precision(p) => unsafe { Input::array(values).assume_precision(p) },
            Magnitude::Unknown => Input::array(values),
        }
    }

    /// `add` or `sub` over one storage type.
    type SumKernel<S> =
        fn(Input<'_>, Input<'_>, &SumSpec, &Frame<'_>) -> Result<Output<S>, KernelError>;

    /// Runs `op` under the `Null` policy and returns each row's value, `None`
    /// where it overflowed; also checks that `Error` names the first of them.
    #[track_caller]
    fn rows<S: Storage>(
        op: SumKernel<S>,
        (a, b): (&[S], &[S]),
        magnitude: Magnitude,
        spec: &SumSpec,
    ) -> Vec<Option<S>> {
        let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let frame = Frame { len: a.len(), nulls: None, policies: null };
        let out = op(array(a, magnitude), array(b, magnitude), spec, &frame).unwrap();
        let got: Vec<Option<S>> = (0..a.len())
            .map(|i| out.nulls.as_ref().is_none_or(|n| n.is_valid(i)).then(|| out.values[i]))
            .collect();
        let frame = Frame { policies: Policies::default(), ..frame };
        let first = got.iter().position(Option::is_none);
        let error = op(array(a, magnitude), array(b, magnitude), spec, &frame).err();
        assert_eq!(error, first.map(|row| KernelError::Overflow { row }));
        got
    }

    #[test]
    fn plans_trust_narrow_declarations_and_carry_wide_ones() {
        let (small, big) = ([1i128, 2], [i128::MAX, i128::MIN]);
        let declared = |p| array(&small[..], Magnitude::Precision(p));
        assert_eq!(
            same_scale(19).plan(&declared(18), &declared(18)),
            SumPlan::Within { width: WorkWidth::I64, checked: false }
        );
        assert_eq!(
            same_scale(38).plan(&declared(30), &declared(30)),
            SumPlan::Within { width: WorkWidth::I128, checked: false }
        );
        let carried = SumPlan::Carried { width: WorkWidth::I128 };
        assert_eq!(same_scale(38).plan(&declared(38), &declared(38)), carried);
        let unknown = array(&big[..], Magnitude::Unknown);
        assert_eq!(same_scale(38).plan(&unknown, &unknown), carried);
        // Mixed storage carries in the wider one's width.
        let narrow = [i64::MAX];
        let narrow = array(&narrow[..], Magnitude::Unknown);
        assert_eq!(same_scale(38).plan(&narrow, &unknown), carried);
        // Unless the result precision needs a wider type: 38 + 38 digits
        // into 39 runs in I256, which holds every sum, and no sum of two
        // 38-digit values reaches 2^129 <= 10^39.
        assert_eq!(
            same_scale(39).plan(&declared(38), &declared(38)),
            SumPlan::Within { width: WorkWidth::I256, checked: false }
        );
        // Different scales keep the measured plan.
        let scaled = SumSpec::new(1, 0, 38);
        let money = array(&small[..], Magnitude::Precision(38));
        assert_eq!(
            scaled.plan(&money, &money),
            SumPlan::Within { width: WorkWidth::I64, checked: false }
        );
    }

    #[rstest]
    #[case::max_plus_max_carries(i128::MAX, i128::MAX, None)]
    #[case::min_plus_min_carries(i128::MIN, i128::MIN, None)]
    #[case::min_plus_minus_one_carries(i128::MIN, -1, None)]
    #[case::nines_plus_nines_carries(10i128.pow(38) - 1, 10i128.pow(38) - 1, None)]
    #[case::nines_plus_one_exceeds(10i128.pow(38) - 1, 1, None)]
    #[case::minus_nines_minus_one_exceeds(1 - 10i128.pow(38), -1, None)]
    #[case::nines_plus_zero_fits(10i128.pow(38) - 1, 0, Some(10i128.pow(38) - 1))]
    #[case::opposite_extremes_cancel(i128::MAX, i128::MIN + 1, Some(0))]
    fn carried_sum_in_i128(#[case] a: i128, #[case] b: i128, #[case] want: Option<i128>) {
        let spec = same_scale(38);
        for magnitude in [Magnitude::Unknown, Magnitude::Precision(38)] {
            let got = rows(add::<i128>, (&[a, 7], &[b, 8]), magnitude, &spec);
            assert_eq!(got, [want, Some(15)], "{magnitude:?}");
        }
    }

    #[rstest]
    #[case::min_minus_one_borrows(i128::MIN, 1, None)]
    #[case::max_minus_min_borrows(i128::MAX, i128::MIN, None)]
    #[case::minus_nines_minus_nines_borrows(1 - 10i128.pow(38), 10i128.pow(38) - 1, None)]
    #[case::nines_minus_minus_one_exceeds(10i128.pow(38) - 1, -1, None)]
    #[case::max_minus_max_is_zero(i128::MAX, i128::MAX, Some(0))]
    fn carried_difference_in_i128(#[case] a: i128, #[case] b: i128, #[case] want: Option<i128>) {
        let got = rows(sub::<i128>, (&[a, 7], &[b, 8]), Magnitude::Unknown, &same_scale(38));
        assert_eq!(got, [want, Some(-1)]);
    }

    #[test]
    fn carried_sums_in_i64_and_i256() {
        let spec = same_scale(18);
        let (a, b) = ([i64::MAX, i64::MIN, 5], [1, -1, -6]);
        assert_eq!(rows(add::<i64>, (&a, &b), Magnitude::Unknown, &spec), [None, None, Some(-1)]);
        assert_eq!(rows(sub::<i64>, (&b, &a), Magnitude::Unknown, &spec), [None, None, Some(-11)]);
        let spec = same_scale(76);
        let nines = i256::from_string(&"9".repeat(76)).unwrap();
        let a = [i256::MAX, i256::MIN, nines, nines];
        let b = [i256::ONE, i256::MINUS_ONE, i256::ONE, i256::MINUS_ONE];
        let want = [None, None, None, Some(nines.wrapping_sub(i256::ONE))];
        assert_eq!(rows(add::<i256>, (&a, &b), Magnitude::Unknown, &spec), want);
        let sum =
            rows(add::<i256>, (&[nines], &[nines.wrapping_neg()]), Magnitude::Precision(76), &spec);
        assert_eq!(sum, [Some(i256::ZERO)]);
        let b = b.map(i256::wrapping_neg);
        assert_eq!(rows(sub::<i256>, (&a, &b), Magnitude::Unknown, &spec), want);
    }

    #[test]
    fn two_shifted_operands_are_rejected() {
        let (a, b) = ([1i64], [1i64]);
        let spec = SumSpec::new(u32::MAX, u32::MAX, 18);
        let out = add::<i64>(Input::array(&a[..]), Input::array(&b[..]), &spec, &Frame::new(1));
        assert!(matches!(out, Err(KernelError::UnsupportedSpec { .. })));
    }
}
