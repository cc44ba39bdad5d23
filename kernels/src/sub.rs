//! Subtraction of two decimals.
//!
//! Formula: `r = a * 10^ka - b * 10^kb`, both operands aligned exactly to the
//! larger scale (the same alignment and width choice as addition, see
//! [`SumSpec`]). Exact, so no rounding; overflow when `|r| > 10^p - 1`.

use crate::add::{SumConstants, SumSpec};
use crate::arity::{Frame, KernelError, OVERFLOW, Output, RowKernel, run};
use crate::plan::{Operand, with_work};
use crate::storage::Storage;
use crate::work::Work;

/// `a - b`, operands at the result scale.
#[derive(Clone, Copy, Debug)]
pub struct Difference;

impl<W: Work> RowKernel<W> for Difference {
    type Constants = SumConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.sub(b);
        (r, OVERFLOW * u8::from(r.exceeds(c.bound)))
    }
}

/// `a * 10^ka - b * 10^kb`.
#[derive(Clone, Copy, Debug)]
pub struct ScaledDifference;

impl<W: Work> RowKernel<W> for ScaledDifference {
    type Constants = SumConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.mul(c.lhs_factor).sub(b.mul(c.rhs_factor));
        (r, OVERFLOW * u8::from(r.exceeds(c.bound)))
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
    let width = spec.width(lhs.bits(), rhs.bits());
    with_work!(width, W => {
        let constants = spec.constants::<W>();
        if spec.aligned() {
            run::<S, W, Difference>(lhs.input, rhs.input, &constants, frame)
        } else {
            run::<S, W, ScaledDifference>(lhs.input, rhs.input, &constants, frame)
        }
    })
}
