//! Subtraction of two decimals.
//!
//! Formula: `r = a * 10^ka - b * 10^kb`, both operands aligned exactly to the
//! larger scale (the same alignment and width choice as addition, see
//! [`AddSpec`], including the storage-width difference whose borrow out of the
//! width is an overflow; the kernels are in `ops::shared::add_or_sub`). Exact, so no rounding; overflow when
//! `|r| > 10^p - 1`.

use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::error::KernelError;
use crate::driver::output::compute_output;
use crate::driver::output::{Output, Recycled};
use crate::int::work::Work;
use crate::ops::shared::add_or_sub::add_or_sub;
use crate::ops::shared::add_spec::{AddOrSub, AddSpec};

/// Subtraction: the operator that makes the kernels shared with addition
/// differences.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Minus;

impl AddOrSub for Minus {
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
/// use decimal_kernels_native::{AddSpec, Operand, Output, Rows, sub};
/// // decimal(10, 2) - decimal(10, 3) at scale 3.
/// let a = [150i64];
/// let spec = AddSpec::new(1, 0, 12);
/// let out: Output<i64> = sub(Operand::array(&a[..]), Operand::scalar(1i64), &spec, &Rows::new(1))?;
/// assert_eq!(out.values[0], 1_499);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// As [`add`](crate::add).
pub fn sub<'a, O: Storage>(
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    spec: &AddSpec,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    compute_output(spec.result_precision, rows, |rows, sink| {
        add_or_sub::<Minus>(&lhs, &rhs, spec, rows, sink)
    })
}
