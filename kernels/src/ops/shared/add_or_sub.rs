//! The kernels of addition and subtraction at the aligned scale, and the
//! choice among them.
//!
//! Formula: `r = a * 10^ka ± b * 10^kb`, exact, so no rounding; overflow
//! when `|r| > 10^p - 1` for the result precision `p`.
//!
//! The result needs one bit more than the larger aligned operand; the call
//! runs in the narrowest work type with that many bits. Same-scale operands
//! skip the multiplications altogether ([`AlignedAdd`]); others use
//! [`ScaledAdd`]. Same-scale operands whose result may need more bits than
//! their storage holds are combined in the storage's own width instead, with
//! no pass to measure them: a carry or borrow out of that width means the
//! exact result exceeds every bound the width can hold, so it is an overflow
//! like a result beyond the bound ([`CarriedAdd`]).
//!
//! Every kernel is generic over [`AddOrSub`]: `Plus` in `add`, `Minus` in
//! `sub`.

use core::marker::PhantomData;

use arrow_buffer::NullBuffer;

use crate::columns::column::Sink;
use crate::columns::operand::Operand;
use crate::driver::binary::run;
use crate::driver::error::KernelError;
use crate::driver::kernel::{BinaryKernel, left_or_overflow_flag, overflow_flag};
use crate::driver::plan::{Plan, needs_check, plan, storage_work};
use crate::driver::rows::Rows;
use crate::int::pow10::precision_bits;
use crate::int::width::{WorkWidth, with_work};
use crate::int::work::Work;
use crate::ops::shared::add_spec::{AddOrSub, AddSpec};
use crate::ops::shared::rescaled_add::rescaled_add_or_sub;

/// What an addition or subtraction computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AddConstants<W> {
    pub(crate) lhs_factor: W,
    pub(crate) rhs_factor: W,
    pub(crate) bound: W,
}

impl AddSpec {
    /// The work type and how results are checked.
    pub(crate) fn plan(&self, lhs: &Operand<'_>, rhs: &Operand<'_>) -> AddPlan {
        let width_for = |l, r| WorkWidth::for_bits(self.result_bits(l, r));
        let checked = |p: Plan| {
            let check = needs_check(self.result_bits(p.lhs, p.rhs), self.result_precision);
            AddPlan::Within { width: p.width, checked: check }
        };
        if !self.aligned() {
            // Measuring pays as soon as the scaled result would leave i64.
            return checked(plan(lhs, rhs, WorkWidth::I128, width_for));
        }
        // Declared bounds are trusted as they are (measuring would cost a
        // pass as long as the add itself).
        let declared = plan(lhs, rhs, WorkWidth::I512, width_for);
        // A carry out of the type means overflow only if the type holds every
        // result of the result precision.
        let result = WorkWidth::for_bits(precision_bits(self.result_precision.into()));
        let holding = storage_work(lhs, rhs).max(result);
        if declared.width <= holding {
            checked(declared)
        } else {
            AddPlan::Carried { width: holding }
        }
    }

    /// What the kernels compute once per call.
    pub(crate) fn constants<W: Work>(&self) -> AddConstants<W> {
        AddConstants {
            lhs_factor: W::pow10(self.lhs_shift),
            rhs_factor: W::pow10(self.rhs_shift),
            bound: W::precision_bound(self.result_precision.into()),
        }
    }
}

/// How an addition or subtraction runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AddPlan {
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
pub(crate) struct AlignedAdd<O, const CHECKED: bool>(PhantomData<O>);

impl<W: Work, O: AddOrSub, const CHECKED: bool> BinaryKernel<W> for AlignedAdd<O, CHECKED> {
    type Constants = AddConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = O::combine(a, b);
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `a * 10^ka ± b * 10^kb`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScaledAdd<O, const CHECKED: bool>(PhantomData<O>);

impl<W: Work, O: AddOrSub, const CHECKED: bool> BinaryKernel<W> for ScaledAdd<O, CHECKED> {
    type Constants = AddConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = O::combine(a.mul(c.lhs_factor), b.mul(c.rhs_factor));
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `a ± b` in the storage's own width, operands at the result scale: a carry
/// or borrow out of the width, or a result beyond the bound, is an overflow.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CarriedAdd<O>(PhantomData<O>);

impl<W: Work, O: AddOrSub> BinaryKernel<W> for CarriedAdd<O> {
    type Constants = AddConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let (r, carried) = O::overflowing(a, b);
        (r, left_or_overflow_flag(r, carried, c.bound))
    }
}

/// Combines `lhs` and `rhs` row by row with `O`, in the kernel the plan picks.
pub(crate) fn add_or_sub<O: AddOrSub>(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    spec: &AddSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    if spec.lhs_shift != 0 && spec.rhs_shift != 0 {
        // Alignment appends digits to one operand only; two shifts would let
        // saturated intermediates of the 512-bit type cancel.
        return Err(KernelError::UnsupportedSpec { reason: "both operands of a sum shifted" });
    }
    if spec.result_shift != 0 {
        return rescaled_add_or_sub::<O>(lhs, rhs, spec, rows, sink);
    }
    let (l, r) = (lhs, rhs);
    match spec.plan(lhs, rhs) {
        AddPlan::Carried { width } => with_work!(width, W => {
            run::<W, CarriedAdd<O>>(l, r, spec.constants(), rows, sink)
        }),
        AddPlan::Within { width, checked } => with_work!(width, W => {
            let c = spec.constants::<W>();
            match (spec.aligned(), checked) {
                (true, true) => run::<W, AlignedAdd<O, true>>(l, r, c, rows, sink),
                (true, false) => run::<W, AlignedAdd<O, false>>(l, r, c, rows, sink),
                (false, true) => run::<W, ScaledAdd<O, true>>(l, r, c, rows, sink),
                (false, false) => run::<W, ScaledAdd<O, false>>(l, r, c, rows, sink),
            }
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::storage::Storage;
    use crate::driver::output::Output;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use crate::testing::{add, sub};
    use arrow_buffer::i256;
    use rstest::rstest;

    /// What is known of the operands' magnitudes.
    #[derive(Clone, Copy, Debug)]
    enum Magnitude {
        Precision(u8),
        Unknown,
    }

    fn same_scale(result_precision: u8) -> AddSpec {
        AddSpec::new(0, 0, result_precision)
    }

    fn array<S: Storage>(values: &[S], magnitude: Magnitude) -> Operand<'_> {
        match magnitude {
            // The tests declare precisions their values fit.
            Magnitude::Precision(p) => Operand::array(values).assume_precision(p),
            Magnitude::Unknown => Operand::array(values),
        }
    }

    /// `add` or `sub` over one storage type.
    type SumKernel<S> =
        fn(Operand<'_>, Operand<'_>, &AddSpec, &Rows<'_>) -> Result<Output<S>, KernelError>;

    /// Runs `op` under the `Null` policy and returns each row's value, `None`
    /// where it overflowed; also checks that `Error` names the first of them.
    #[track_caller]
    fn rows<S: Storage>(
        op: SumKernel<S>,
        (a, b): (&[S], &[S]),
        magnitude: Magnitude,
        spec: &AddSpec,
    ) -> Vec<Option<S>> {
        let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows { len: a.len(), nulls: None, policies: null };
        let out = op(array(a, magnitude), array(b, magnitude), spec, &rows).unwrap();
        let got: Vec<Option<S>> = (0..a.len())
            .map(|i| out.nulls.as_ref().is_none_or(|n| n.is_valid(i)).then(|| out.values[i]))
            .collect();
        let rows = Rows { policies: Policies::default(), ..rows };
        let first = got.iter().position(Option::is_none);
        let error = op(array(a, magnitude), array(b, magnitude), spec, &rows).err();
        assert_eq!(error, first.map(|row| KernelError::Overflow { row }));
        got
    }

    #[test]
    fn plans_trust_narrow_declarations_and_carry_wide_ones() {
        let (small, big) = ([1i128, 2], [i128::MAX, i128::MIN]);
        let declared = |p| array(&small[..], Magnitude::Precision(p));
        assert_eq!(
            same_scale(19).plan(&declared(18), &declared(18)),
            AddPlan::Within { width: WorkWidth::I64, checked: false }
        );
        assert_eq!(
            same_scale(38).plan(&declared(30), &declared(30)),
            AddPlan::Within { width: WorkWidth::I128, checked: false }
        );
        let carried = AddPlan::Carried { width: WorkWidth::I128 };
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
            AddPlan::Within { width: WorkWidth::I256, checked: false }
        );
        // Different scales keep the measured plan.
        let scaled = AddSpec::new(1, 0, 38);
        let money = array(&small[..], Magnitude::Precision(38));
        assert_eq!(
            scaled.plan(&money, &money),
            AddPlan::Within { width: WorkWidth::I64, checked: false }
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
        let spec = AddSpec::new(u32::MAX, u32::MAX, 18);
        let out = add::<i64>(Operand::array(&a[..]), Operand::array(&b[..]), &spec, &Rows::new(1));
        assert!(matches!(out, Err(KernelError::UnsupportedSpec { .. })));
    }
}
