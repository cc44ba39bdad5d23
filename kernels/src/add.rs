//! Addition of two decimals.
//!
//! Formula: both operands are aligned to the larger scale, exactly, and added:
//! `r = a * 10^ka + b * 10^kb` (at most one of `ka`, `kb` is non-zero when the
//! scales differ). No digit is dropped, so there is no rounding. Overflow when
//! `|r| > 10^p - 1` for the result precision `p`.
//!
//! The sum needs one bit more than the larger aligned operand; the call runs in
//! the narrowest work type with that many bits. Same-scale operands skip the
//! multiplications altogether ([`Sum`]); others use [`ScaledSum`].

use crate::arity::{Frame, KernelError, Output, RowKernel, overflow_flag, run};
use crate::plan::{Operand, WorkWidth, needs_check, plan, shift_bits, with_work};
use crate::storage::Storage;
use crate::work::Work;

/// The shape of an addition or subtraction, from the operand and result types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SumSpec {
    /// Digits appended to the left operand to reach the result scale.
    pub lhs_shift: u32,
    /// Digits appended to the right operand to reach the result scale.
    pub rhs_shift: u32,
    /// The result precision: results beyond `10^p - 1` overflow.
    pub result_precision: u8,
}

/// What a sum or difference computes once per call.
#[derive(Clone, Copy, Debug)]
pub struct SumConstants<W> {
    pub(crate) lhs_factor: W,
    pub(crate) rhs_factor: W,
    pub(crate) bound: W,
}

impl SumSpec {
    /// `L` such that every sum of operands below `2^lhs_bits` and `2^rhs_bits`
    /// is below `2^L`.
    fn result_bits(&self, lhs_bits: u32, rhs_bits: u32) -> u32 {
        let lhs = lhs_bits + shift_bits(self.lhs_shift);
        let rhs = rhs_bits + shift_bits(self.rhs_shift);
        lhs.max(rhs) + 1
    }

    /// The work type and whether results need the precision check.
    pub(crate) fn plan<S: Storage>(
        &self,
        lhs: &Operand<'_, S>,
        rhs: &Operand<'_, S>,
    ) -> (WorkWidth, bool) {
        // Measuring pays as soon as the sum would leave i64.
        let plan =
            plan(lhs, rhs, WorkWidth::I128, |l, r| WorkWidth::for_bits(self.result_bits(l, r)));
        (plan.width, needs_check(self.result_bits(plan.lhs, plan.rhs), self.result_precision))
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

/// `a + b`, operands at the result scale; `CHECKED`: whether results can
/// exceed the precision at all.
#[derive(Clone, Copy, Debug)]
pub struct Sum<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> RowKernel<W> for Sum<CHECKED> {
    type Constants = SumConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.add(b);
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `a * 10^ka + b * 10^kb`.
#[derive(Clone, Copy, Debug)]
pub struct ScaledSum<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> RowKernel<W> for ScaledSum<CHECKED> {
    type Constants = SumConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.mul(c.lhs_factor).add(b.mul(c.rhs_factor));
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// Adds `lhs` and `rhs` row by row.
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row beyond the result
/// precision under the `Error` policy; [`KernelError::LengthMismatch`] when an
/// input or the validity does not have `frame.len` rows.
pub fn add<S: Storage>(
    lhs: Operand<'_, S>,
    rhs: Operand<'_, S>,
    spec: &SumSpec,
    frame: &Frame<'_>,
) -> Result<Output<S>, KernelError> {
    let (width, checked) = spec.plan(&lhs, &rhs);
    let (l, r) = (lhs.input, rhs.input);
    with_work!(width, W => {
        let c = spec.constants::<W>();
        match (spec.aligned(), checked) {
            (true, true) => run::<S, W, Sum<true>>(l, r, &c, frame),
            (true, false) => run::<S, W, Sum<false>>(l, r, &c, frame),
            (false, true) => run::<S, W, ScaledSum<true>>(l, r, &c, frame),
            (false, false) => run::<S, W, ScaledSum<false>>(l, r, &c, frame),
        }
    })
}
