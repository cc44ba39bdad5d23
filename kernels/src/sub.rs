//! Subtraction of two decimals.
//!
//! Formula: `r = a * 10^ka - b * 10^kb`, both operands aligned exactly to the
//! larger scale (the same alignment and width choice as addition, see
//! [`SumSpec`], including the storage-width difference whose borrow out of the
//! width is an overflow). Exact, so no rounding; overflow when
//! `|r| > 10^p - 1`.

use crate::add::{SumOperator, SumSpec, sum};
use crate::arity::{KernelError, Output, Recycling, recycle};
use crate::column::Input;
use crate::storage::Storage;
use crate::work::Work;

/// Subtraction: the operator of the shared sum kernels that makes them
/// differences.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Minus;

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

/// Subtracts `rhs` from `lhs` row by row, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Frame, Input, Output, SumSpec, sub};
/// // decimal(10, 2) - decimal(10, 3) at scale 3.
/// let a = [150i64];
/// let spec = SumSpec::new(1, 0, 12);
/// let out: Output<i64> = sub(Input::array(&a[..]), Input::scalar(1i64), &spec, &Frame::new(1))?;
/// assert_eq!(out.values[0], 1_499);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// As [`add`](crate::add).
pub fn sub<'a, O: Storage>(
    lhs: Input<'_>,
    rhs: Input<'_>,
    spec: &SumSpec,
    frame: impl Into<Recycling<'a, O>>,
) -> Result<Output<O>, KernelError> {
    recycle(spec.result_precision, frame, |frame, sink| sum::<Minus>(&lhs, &rhs, spec, frame, sink))
}
