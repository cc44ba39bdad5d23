//! Subtraction of two decimals.
//!
//! Formula: `r = a * 10^ka - b * 10^kb`, both operands aligned exactly to the
//! larger scale (the same alignment and width choice as addition, see
//! [`SumSpec`], including the storage-width difference whose borrow out of the
//! width is an overflow). Exact, so no rounding; overflow when
//! `|r| > 10^p - 1`.

use crate::add::{SumOperator, SumSpec, sum};
use crate::arity::{Frame, KernelError, Output};
use crate::plan::Operand;
use crate::storage::Storage;
use crate::work::Work;

/// Subtraction: the operator of the shared sum kernels that makes them
/// differences.
#[derive(Clone, Copy, Debug)]
pub struct Minus;

impl SumOperator for Minus {
    #[inline(always)]
    fn combine<W: Work>(a: W, b: W) -> W {
        a.sub(b)
    }
    #[inline(always)]
    fn overflowing<W: Work>(a: W, b: W) -> (W, bool) {
        a.overflowing_sub(b)
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
    sum::<S, Minus>(lhs, rhs, spec, frame)
}
