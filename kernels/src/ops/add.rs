//! Addition of two decimals.
//!
//! Formula: both operands are aligned to the larger scale, exactly, and added:
//! `r = a * 10^ka + b * 10^kb` (at most one of `ka`, `kb` is non-zero when the
//! scales differ). No digit is dropped, so there is no rounding. Overflow when
//! `|r| > 10^p - 1` for the result precision `p`. A result scale other than
//! the aligned one (Spark's sums at precision 38 drop digits) rescales the
//! exact aligned result once. The kernels, shared with subtraction, are in
//! `ops::shared::add_or_sub`; addition is their [`Plus`].

use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::error::KernelError;
use crate::driver::output::{Output, Recycled, compute_output};
use crate::int::work::Work;
use crate::ops::shared::add_or_sub::add_or_sub;
use crate::ops::shared::add_spec::{AddOrSub, AddSpec};

/// Addition.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plus;

impl AddOrSub for Plus {
    #[inline(always)]
    fn combine<W: Work>(a: W, b: W) -> W {
        a.add(b)
    }
    #[inline(always)]
    fn overflowing<W: Work>(a: W, b: W) -> (W, bool) {
        a.overflowing_add(b)
    }
}

/// Adds `lhs` and `rhs` row by row, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{AddSpec, Operand, Output, Rows, add};
/// // decimal(10, 2) in i64 + decimal(20, 2) in i128, result decimal(21, 2) in i128.
/// let (a, b) = ([150i64, -225], [1_000i128, 25]);
/// let spec = AddSpec::new(0, 0, 21);
/// let out: Output<i128> = add(Operand::array(&a[..]), Operand::array(&b[..]), &spec, &Rows::new(2))?;
/// assert_eq!(out.values.as_ref(), [1_150, -200]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row beyond the result
/// precision under the `Error` policy; [`KernelError::LengthMismatch`] when an
/// input or the validity does not have `rows.len` rows;
/// [`KernelError::StorageTooNarrow`] when `O` cannot hold the result
/// precision; [`KernelError::UnsupportedSpec`] when both shifts are non-zero.
pub fn add<'a, O: Storage>(
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    spec: &AddSpec,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    compute_output(spec.result_precision, rows, |rows, sink| {
        add_or_sub::<Plus>(&lhs, &rhs, spec, rows, sink)
    })
}
