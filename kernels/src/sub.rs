//! Subtraction of two decimals.
//!
//! Formula: `r = a * 10^ka - b * 10^kb`, both operands aligned exactly to the
//! larger scale (the same alignment and width choice as addition, see
//! [`SumSpec`], including the storage-width difference whose borrow out of the
//! width is an overflow). Exact, so no rounding; overflow when
//! `|r| > 10^p - 1`.

use crate::add::{SumConstants, SumPlan, SumSpec};
use crate::arity::{Frame, KernelError, OVERFLOW, Output, RowKernel, overflow_flag, run};
use crate::plan::{Operand, with_work};
use crate::storage::Storage;
use crate::work::Work;

/// `a - b`, operands at the result scale; `CHECKED`: whether results can
/// exceed the precision at all.
#[derive(Clone, Copy, Debug)]
pub struct Difference<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> RowKernel<W> for Difference<CHECKED> {
    type Constants = SumConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.sub(b);
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `a * 10^ka - b * 10^kb`.
#[derive(Clone, Copy, Debug)]
pub struct ScaledDifference<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> RowKernel<W> for ScaledDifference<CHECKED> {
    type Constants = SumConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.mul(c.lhs_factor).sub(b.mul(c.rhs_factor));
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `a - b` in the storage's own width, operands at the result scale: a borrow
/// out of the width, or a result beyond the bound, is an overflow.
#[derive(Clone, Copy, Debug)]
pub struct CarriedDifference;

impl<W: Work> RowKernel<W> for CarriedDifference {
    type Constants = SumConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let (r, borrowed) = a.overflowing_sub(b);
        (r, OVERFLOW * u8::from(borrowed | r.exceeds(c.bound)))
    }
}

/// Subtracts `rhs` from `lhs` row by row.
///
/// # Errors
/// As [`add`](crate::add::add).
pub fn sub<S: Storage>(
    lhs: Operand<'_, S>,
    rhs: Operand<'_, S>,
    spec: &SumSpec,
    frame: &Frame<'_>,
) -> Result<Output<S>, KernelError> {
    let (l, r) = (lhs.input, rhs.input);
    match spec.plan(&lhs, &rhs) {
        SumPlan::Carried => {
            run::<S, S::Native, CarriedDifference>(l, r, &spec.constants::<S::Native>(), frame)
        }
        SumPlan::Within { width, checked } => with_work!(width, W => {
            let c = spec.constants::<W>();
            match (spec.aligned(), checked) {
                (true, true) => run::<S, W, Difference<true>>(l, r, &c, frame),
                (true, false) => run::<S, W, Difference<false>>(l, r, &c, frame),
                (false, true) => run::<S, W, ScaledDifference<true>>(l, r, &c, frame),
                (false, false) => run::<S, W, ScaledDifference<false>>(l, r, &c, frame),
            }
        }),
    }
}
