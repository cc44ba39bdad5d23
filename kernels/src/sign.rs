//! Negation and absolute value of a decimal.
//!
//! Formula: `-a` and `|a|` at the operand's own type, exact ([`Signed`]). A value within its precision always has its negation within
//! it, so a column with a declared precision runs unchecked; an undeclared
//! column is measured, and one holding a value beyond the precision (the
//! storage's minimum, `i128::MIN`, included) runs in a work type wide enough
//! for its negation, checked: such a row is an overflow, never a wrap.
//!
//! Unary operators, they run on the shared binary loops with a zero in place
//! of the second operand, which their rows ignore.

use arrow_buffer::NullBuffer;

use crate::arity::{Frame, KernelError, Output, Recycling, RowKernel, overflow_flag, recycle, run};
use crate::column::{Input, Sink};
use crate::plan::{WorkWidth, needs_check, plan, with_work};
use crate::storage::Storage;
use crate::work::Work;

/// `|a|` when `ABSOLUTE`, `-a` otherwise; `CHECKED`: whether results can
/// exceed the bound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Signed<const ABSOLUTE: bool, const CHECKED: bool>;

impl<W: Work, const ABSOLUTE: bool, const CHECKED: bool> RowKernel<W>
    for Signed<ABSOLUTE, CHECKED>
{
    /// The bound.
    type Constants = W;

    #[inline(always)]
    fn apply(a: W, _: W, bound: &W) -> (W, u8) {
        let r = if ABSOLUTE { a.abs() } else { a.neg() };
        (r, overflow_flag::<W, CHECKED>(r, *bound))
    }
}

/// `-input` row by row at precision `result_precision`, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Frame, Input, Output, neg};
/// let a = [1_50i64, -7];
/// let out: Output<i64> = neg(Input::array(&a[..]), 5, &Frame::new(2))?;
/// assert_eq!(out.values.as_ref(), [-1_50, 7]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row beyond the precision
/// (a stored value the caller did not check) under the `Error` policy;
/// [`KernelError::StorageTooNarrow`] as for [`add`](crate::add).
pub fn neg<'a, O: Storage>(
    input: Input<'_>,
    result_precision: u8,
    frame: impl Into<Recycling<'a, O>>,
) -> Result<Output<O>, KernelError> {
    recycle(result_precision, frame, |frame, sink| {
        signed::<false>(&input, result_precision, frame, sink)
    })
}

/// `|input|` row by row at precision `result_precision`, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Frame, Input, Output, abs};
/// let a = [1_50i64, -7];
/// let out: Output<i64> = abs(Input::array(&a[..]), 5, &Frame::new(2))?;
/// assert_eq!(out.values.as_ref(), [1_50, 7]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// As [`neg`].
pub fn abs<'a, O: Storage>(
    input: Input<'_>,
    result_precision: u8,
    frame: impl Into<Recycling<'a, O>>,
) -> Result<Output<O>, KernelError> {
    recycle(result_precision, frame, |frame, sink| {
        signed::<true>(&input, result_precision, frame, sink)
    })
}

/// [`neg`] or [`abs`] into any output storage, in the work type the values
/// call for.
fn signed<const ABSOLUTE: bool>(
    input: &Input<'_>,
    precision: u8,
    frame: &Frame<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    // A declared precision is trusted whatever its width: the loop is a
    // negation, cheaper than a measuring pass. Magnitudes below `2^bits`
    // negate within the same bits; a storage minimum measures one bit more
    // than its width holds and so runs wider.
    let zero = Input::scalar(0i8);
    let p = plan(input, &zero, WorkWidth::Wide, |bits, _| WorkWidth::for_bits(bits));
    let checked = !input.declared_within(0, precision) && needs_check(p.lhs, precision);
    with_work!(p.width, W => {
        let bound = W::precision_bound(precision.into());
        if checked {
            run::<W, Signed<ABSOLUTE, true>>(input, &zero, bound, frame, sink)
        } else {
            run::<W, Signed<ABSOLUTE, false>>(input, &zero, bound, frame, sink)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arity::{OverflowPolicy, Policies};
    use arrow_buffer::i256;

    fn null_frame(len: usize) -> Frame<'static> {
        Frame::new(len)
            .with_policies(Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() })
    }

    #[test]
    fn storage_minimums_overflow() {
        let a = [i128::MIN, -5, i128::MAX];
        let negated: Output<i128> = neg(Input::array(&a[..]), 38, &null_frame(3)).unwrap();
        let nulls = negated.nulls.expect("two rows overflow");
        assert_eq!([nulls.is_valid(0), nulls.is_valid(1), nulls.is_valid(2)], [false, true, false]);
        assert_eq!(negated.values[1], 5);
        let wide = [i256::MIN, i256::from_i128(-5)];
        let absolute: Output<i256> = abs(Input::array(&wide[..]), 76, &null_frame(2)).unwrap();
        let nulls = absolute.nulls.expect("one row overflows");
        assert_eq!([nulls.is_valid(0), nulls.is_valid(1)], [false, true]);
        assert_eq!(absolute.values[1], i256::from_i128(5));
        let err = neg::<i64>(Input::array(&[i64::MIN][..]), 18, &Frame::new(1)).unwrap_err();
        assert_eq!(err, KernelError::Overflow { row: 0 });
    }

    #[test]
    fn declared_columns_negate_in_their_storage() {
        let a: Vec<i128> = (-1000..1000).map(|v| v * 1_000_003).collect();
        // SAFETY: every value is within 38 digits.
        let input = unsafe { Input::array(&a[..]).assume_precision(38) };
        let out: Output<i128> = neg(input, 38, &Frame::new(a.len())).unwrap();
        assert!(out.values.iter().zip(&a).all(|(&r, &v)| r == -v));
        let out: Output<i64> = abs(Input::array(&a[..]), 18, &Frame::new(a.len())).unwrap();
        assert!(out.values.iter().zip(&a).all(|(&r, &v)| i128::from(r) == v.abs()));
    }
}
