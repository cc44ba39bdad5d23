//! Additions and subtractions whose result scale is not the operands'
//! aligned scale.
//!
//! Formula: the operands are aligned exactly, as in every sum
//! (`x = a * 10^ka ± b * 10^kb`, at most one of `ka`, `kb` non-zero), and the
//! exact aligned sum is then rescaled to the result scale: for a result shift
//! `k > 0` it is divided by `10^k` and rounded once, with the call's rounding
//! mode, from the exact sum ([`RoundedAdd`]); for `k < 0` it is multiplied by
//! `10^-k` ([`AppendedAdd`]). Overflow when `|r| > 10^p - 1`.
//!
//! Rounding the operands first and adding after would round twice (and, under
//! `HalfEven`, `TowardZero` or `HalfUp`, `round(x + n)` is not `round(x) + n`
//! for a whole `n`), so the division always sees the exact sum. The sign of
//! the right operand is folded into its factor (`-10^kb` for a difference),
//! which makes one loop per work type and rounding mode serve both operators.
//!
//! The aligned sum needs one bit more than the larger aligned operand, and the
//! divisor `10^k` must fit too; the call runs in the narrowest work type with
//! that many bits. The saturating 512-bit type is exact below `2^511`, and a
//! sum that saturates is at least `2^510` (only one operand is shifted, and
//! the other is below `2^256`): such a row is an overflow whenever
//! `10^(p + k) <= 2^510`, which covers every result type of 76 digits or
//! fewer with `k <= 77`. A call beyond that whose sums may saturate is refused
//! ([`KernelError::UnsupportedSpec`]) rather than rounded from a saturated
//! value.

use arrow_buffer::NullBuffer;

use crate::columns::column::Sink;
use crate::columns::operand::Operand;
use crate::driver::binary::run;
use crate::driver::error::KernelError;
use crate::driver::kernel::{BinaryKernel, OVERFLOW};
use crate::driver::plan::{plan, shift_bits};
use crate::driver::rows::Rows;
use crate::int::pow10::pow10_bits;
use crate::int::rounding::{Rounding, with_rounding};
use crate::int::width::{WorkWidth, with_work};
use crate::int::work::Work;
use crate::ops::shared::add_spec::{AddOrSub, AddSpec};
use crate::ops::shared::scale::ScaleConstants;

/// Aligned sums below `2^510` are exact in the 512-bit type and never
/// saturate, and a divisor of `10^154` or more (which saturates) leaves them
/// a quotient below one half, which the saturated divisor rounds the same
/// way.
const EXACT_ALIGNED_BITS: u32 = 510;

/// What a rescaled addition or subtraction computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RescaledAddConstants<W: Work> {
    lhs_factor: W,
    /// `±10^kb`: negative for a difference.
    rhs_factor: W,
    /// `10^|k|` and the bound.
    scale: ScaleConstants<W>,
}

impl AddSpec {
    /// Bits of the exact aligned sum of operands below `2^lhs_bits` and
    /// `2^rhs_bits`, and of every intermediate of the rescale.
    fn rescaled_bits(&self, lhs_bits: u32, rhs_bits: u32) -> (u32, u32) {
        let aligned = self.result_bits(lhs_bits, rhs_bits);
        let k = self.result_shift.unsigned_abs();
        let work = if self.result_shift < 0 {
            aligned + shift_bits(k)
        } else {
            aligned.max(shift_bits(k) + 1)
        };
        (aligned, work)
    }

    fn rescaled_constants<W: Work, O: AddOrSub>(&self) -> RescaledAddConstants<W> {
        RescaledAddConstants {
            lhs_factor: W::pow10(self.lhs_shift),
            rhs_factor: O::combine(W::ZERO, W::pow10(self.rhs_shift)),
            scale: ScaleConstants::new(self.result_shift.unsigned_abs(), self.result_precision),
        }
    }
}

/// `round((a * 10^ka ± b * 10^kb) / 10^k)` for `k > 0`, rounding mode `R`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundedAdd<R>(core::marker::PhantomData<R>);

impl<W: Work, R: Rounding> BinaryKernel<W> for RoundedAdd<R> {
    type Constants = RescaledAddConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        c.scale.drop_digits::<R>(a.mul(c.lhs_factor).add(b.mul(c.rhs_factor)))
    }
}

/// `(a * 10^ka ± b * 10^kb) * 10^-k` for `k < 0`, always checked against
/// the bound: only explicit result types append digits to a sum, and one
/// loop per work type serves them (an unchecked copy would double the loops
/// for a compare per row).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AppendedAdd;

impl<W: Work> BinaryKernel<W> for AppendedAdd {
    type Constants = RescaledAddConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.mul(c.lhs_factor).add(b.mul(c.rhs_factor)).mul(c.scale.factor);
        (r, OVERFLOW * u8::from(r.exceeds(c.scale.bound)))
    }
}

/// `lhs ± rhs` rescaled to the result scale, in the kernel the plan picks
/// (`spec.result_shift != 0`).
pub(crate) fn rescaled_add_or_sub<O: AddOrSub>(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    spec: &AddSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    // Measuring pays from i128, as for every sum that multiplies.
    let p = plan(lhs, rhs, WorkWidth::I128, |l, r| WorkWidth::for_bits(spec.rescaled_bits(l, r).1));
    let (aligned, _) = spec.rescaled_bits(p.lhs, p.rhs);
    if spec.result_shift > 0 && aligned > EXACT_ALIGNED_BITS {
        // A saturated sum (at least 2^510) divided by 10^k must still exceed
        // the bound: 10^(p + k) <= 2^510.
        let digits =
            u32::from(spec.result_precision).saturating_add(spec.result_shift.unsigned_abs());
        if pow10_bits(digits) > EXACT_ALIGNED_BITS {
            return Err(KernelError::UnsupportedSpec {
                reason: "a rounded sum that may saturate 512 bits while 10^(p+k) exceeds 2^510",
            });
        }
    }
    let (l, r) = (lhs, rhs);
    with_work!(p.width, W => {
        let c = spec.rescaled_constants::<W, O>();
        if spec.result_shift > 0 {
            with_rounding!(spec.rounding, R => run::<W, RoundedAdd<R>>(l, r, c, rows, sink))
        } else {
            run::<W, AppendedAdd>(l, r, c, rows, sink)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::output::Output;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use crate::int::rounding::RoundingMode;
    use crate::testing::{add, sub};
    use arrow_buffer::i256;
    use rstest::rstest;

    fn spec(lhs_shift: u32, rhs_shift: u32, result_shift: i32, mode: RoundingMode) -> AddSpec {
        AddSpec::new(lhs_shift, rhs_shift, 38).rescaled(result_shift, mode)
    }

    /// One row under the `Null` policy: its value, or `None` on overflow.
    #[track_caller]
    fn one_row(op: Op, a: i128, b: i128, spec: &AddSpec) -> Option<i128> {
        let policies = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows::new(1).with_policies(policies);
        let out: Output<i128> =
            op(Operand::array(&[a][..]), Operand::scalar(b), spec, &rows).unwrap();
        out.nulls.as_ref().is_none_or(|n| n.is_valid(0)).then(|| out.values[0])
    }

    type Op =
        fn(Operand<'_>, Operand<'_>, &AddSpec, &Rows<'_>) -> Result<Output<i128>, KernelError>;

    // Spark's decimal(38,10) + decimal(38,10) is decimal(38,9): one digit dropped.
    #[rstest]
    #[case::tie_away_from_zero(add, 15, 0, RoundingMode::HalfUp, Some(2))]
    #[case::negative_tie_away(add, -15, 0, RoundingMode::HalfUp, Some(-2))]
    #[case::tie_to_even(add, 25, 0, RoundingMode::HalfEven, Some(2))]
    #[case::exact_sum_not_rounded_parts(add, 14, 1, RoundingMode::HalfUp, Some(2))]
    #[case::sign_change_truncates_toward_zero(add, 19, -25, RoundingMode::TowardZero, Some(0))]
    #[case::difference_floors(sub, 1, 12, RoundingMode::Floor, Some(-2))]
    #[case::difference_ceils(sub, 1, 12, RoundingMode::Ceiling, Some(-1))]
    fn one_digit_dropped(
        #[case] op: Op,
        #[case] a: i128,
        #[case] b: i128,
        #[case] mode: RoundingMode,
        #[case] want: Option<i128>,
    ) {
        assert_eq!(one_row(op, a, b, &spec(0, 0, 1, mode)), want);
    }

    #[test]
    fn aligned_then_rounded_and_appended() {
        // 1.5 (scale 1) + 0.05 (scale 2) at scale 0: the aligned 1.55 rounds
        // once to 2; 1.4 + 0.05 = 1.45 rounds to 1.
        assert_eq!(one_row(add, 15, 5, &spec(1, 0, 2, RoundingMode::HalfUp)), Some(2));
        assert_eq!(one_row(add, 14, 5, &spec(1, 0, 2, RoundingMode::HalfUp)), Some(1));
        // 1.4 - 0.05 at scale 3: 1.350 -> 1350.
        assert_eq!(one_row(sub, 14, 5, &spec(1, 0, -1, RoundingMode::HalfUp)), Some(1350));
        let max = 10i128.pow(38) - 1;
        assert_eq!(one_row(add, max, 0, &spec(0, 0, -1, RoundingMode::HalfUp)), None);
        assert_eq!(
            one_row(add, max, max, &spec(0, 0, 1, RoundingMode::HalfUp)),
            Some(2 * 10i128.pow(37))
        );
    }

    #[test]
    fn extremes_of_i256_round_in_i512() {
        let nines = i256::from_string(&"9".repeat(76)).unwrap();
        let policies = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows::new(2).with_policies(policies);
        let spec = AddSpec::new(0, 0, 76).rescaled(1, RoundingMode::HalfUp);
        let a = [nines, nines.wrapping_neg()];
        let out: Output<i256> =
            add(Operand::array(&a[..]), Operand::array(&a[..]), &spec, &rows).expect("in range");
        // (2 * (10^76 - 1)) / 10 = 2 * 10^75 - 0.2, rounds to 2 * 10^75.
        let want = i256::from_i128(2).wrapping_mul(i256::from_i128(10).wrapping_pow(75));
        assert_eq!(out.values.as_ref(), [want, want.wrapping_neg()]);
    }

    #[test]
    fn saturated_sums_overflow_or_are_refused() {
        let a = [i256::MAX, i256::ZERO];
        let policies = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows::new(2).with_policies(policies);
        // 10^(76 + 1) <= 2^510: the saturated row overflows, the other is exact.
        let spec = AddSpec::new(160, 0, 76).rescaled(1, RoundingMode::HalfUp);
        let out: Output<i256> =
            add(Operand::array(&a[..]), Operand::scalar(-15i8), &spec, &rows).expect("in range");
        assert_eq!(out.nulls.as_ref().map(|n| (n.is_valid(0), n.is_valid(1))), Some((false, true)));
        assert_eq!(out.values[1], i256::from_i128(-2));
        // 10^(76 + 100) > 2^510: a saturated sum could still round to a
        // result, so the call is refused.
        let spec = AddSpec::new(160, 0, 76).rescaled(100, RoundingMode::HalfUp);
        let out = add::<i256>(Operand::array(&a[..]), Operand::scalar(1i8), &spec, &rows);
        assert!(matches!(out, Err(KernelError::UnsupportedSpec { .. })), "{out:?}");
    }
}
