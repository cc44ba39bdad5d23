//! Negation and absolute value of a decimal.
//!
//! Formula: `-a` and `|a|` at the operand's own type, exact ([`Signed`]). A
//! value within its precision always has its negation within it, so a
//! column with a declared precision runs unchecked; an undeclared column is
//! measured, and one holding a value beyond the precision (the
//! storage's minimum, `i128::MIN`, included) runs in a work type wide enough
//! for its negation, checked: such a row is an overflow, never a wrap.
//!
//! Unary operators, they run on the unary driver.

use arrow_buffer::NullBuffer;

use crate::columns::column::Sink;
use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::error::KernelError;
use crate::driver::kernel::{UnaryKernel, overflow_flag};
use crate::driver::output::compute_output;
use crate::driver::output::{Output, Recycled};
use crate::driver::plan::{needs_check, plan_unary};
use crate::driver::rows::Rows;
use crate::driver::unary::run_unary;
use crate::int::width::{WorkWidth, with_work};
use crate::int::work::Work;

/// `|a|` when `ABSOLUTE`, `-a` otherwise; `CHECKED`: whether results can
/// exceed the bound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Signed<const ABSOLUTE: bool, const CHECKED: bool>;

impl<W: Work, const ABSOLUTE: bool, const CHECKED: bool> UnaryKernel<W>
    for Signed<ABSOLUTE, CHECKED>
{
    /// The bound.
    type Constants = W;

    #[inline(always)]
    fn apply(a: W, bound: &W) -> (W, u8) {
        let r = if ABSOLUTE { a.abs() } else { a.neg() };
        (r, overflow_flag::<W, CHECKED>(r, *bound))
    }
}

/// `-input` row by row at precision `result_precision`, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Operand, Output, Rows, neg};
/// let a = [1_50i64, -7];
/// let out: Output<i64> = neg(Operand::array(&a[..]), 5, &Rows::new(2))?;
/// assert_eq!(out.values.as_ref(), [-1_50, 7]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row beyond the precision
/// (a stored value the caller did not check) under the `Error` policy;
/// [`KernelError::StorageTooNarrow`] as for [`add`](crate::add).
pub fn neg<'a, O: Storage>(
    input: Operand<'_>,
    result_precision: u8,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    compute_output(result_precision, rows, |rows, sink| {
        signed::<false>(&input, result_precision, rows, sink)
    })
}

/// `|input|` row by row at precision `result_precision`, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Operand, Output, Rows, abs};
/// let a = [1_50i64, -7];
/// let out: Output<i64> = abs(Operand::array(&a[..]), 5, &Rows::new(2))?;
/// assert_eq!(out.values.as_ref(), [1_50, 7]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// As [`neg`].
pub fn abs<'a, O: Storage>(
    input: Operand<'_>,
    result_precision: u8,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    compute_output(result_precision, rows, |rows, sink| {
        signed::<true>(&input, result_precision, rows, sink)
    })
}

/// [`neg`] or [`abs`] into any output storage, in the work type the values
/// call for.
fn signed<const ABSOLUTE: bool>(
    input: &Operand<'_>,
    precision: u8,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    // A declared precision is trusted whatever its width: the loop is a
    // negation, cheaper than a measuring pass. Magnitudes below `2^bits`
    // negate within the same bits; a storage minimum measures one bit more
    // than its width holds and so runs wider.
    let p = plan_unary(input, WorkWidth::I512, WorkWidth::for_bits);
    let checked = !input.declared_within(0, precision) && needs_check(p.bits, precision);
    with_work!(p.width, W => {
        let bound = W::precision_bound(precision.into());
        if checked {
            run_unary::<W, Signed<ABSOLUTE, true>>(input, bound, rows, sink)
        } else {
            run_unary::<W, Signed<ABSOLUTE, false>>(input, bound, rows, sink)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use arrow_buffer::i256;

    fn null_frame(len: usize) -> Rows<'static> {
        Rows::new(len)
            .with_policies(Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() })
    }

    #[test]
    fn storage_minimums_overflow() {
        let a = [i128::MIN, -5, i128::MAX];
        let negated: Output<i128> = neg(Operand::array(&a[..]), 38, &null_frame(3)).unwrap();
        let nulls = negated.nulls.expect("two rows overflow");
        assert_eq!([nulls.is_valid(0), nulls.is_valid(1), nulls.is_valid(2)], [false, true, false]);
        assert_eq!(negated.values[1], 5);
        let wide = [i256::MIN, i256::from_i128(-5)];
        let absolute: Output<i256> = abs(Operand::array(&wide[..]), 76, &null_frame(2)).unwrap();
        let nulls = absolute.nulls.expect("one row overflows");
        assert_eq!([nulls.is_valid(0), nulls.is_valid(1)], [false, true]);
        assert_eq!(absolute.values[1], i256::from_i128(5));
        let err = neg::<i64>(Operand::array(&[i64::MIN][..]), 18, &Rows::new(1)).unwrap_err();
        assert_eq!(err, KernelError::Overflow { row: 0 });
    }

    #[test]
    fn declared_columns_negate_in_their_storage() {
        let a: Vec<i128> = (-1000..1000).map(|v| v * 1_000_003).collect();
        // Every value is within 38 digits.
        let input = Operand::array(&a[..]).assume_precision(38);
        let out: Output<i128> = neg(input, 38, &Rows::new(a.len())).unwrap();
        assert!(out.values.iter().zip(&a).all(|(&r, &v)| r == -v));
        let out: Output<i64> = abs(Operand::array(&a[..]), 18, &Rows::new(a.len())).unwrap();
        assert!(out.values.iter().zip(&a).all(|(&r, &v)| i128::from(r) == v.abs()));
    }
}
