//! The operators of one operand: [`unary`] and [`unary_recycling`], each
//! one [`UnaryPlan`] made and run.

use crate::compute::operand::Operand;
use crate::compute::prepared::UnaryPlan;
use crate::types::{ArithmeticOptions, DecimalError, UnaryOp};
use crate::values::DecimalArray;

/// `op operand` row by row, under `options`: results stored as the profile
/// stores a result of their type (see [`Semantics`](crate::Semantics)).
///
/// ```
/// use decimal_kernels::{unary, ArithmeticOptions, DecimalArray, DecimalType, OverflowPolicy, UnaryOp};
/// let a = DecimalArray::from_strs(DecimalType::try_new(7, 2)?, &[Some("99.99"), Some("100.00"), None])?;
/// // The overflow check after an operator: the same scale, fewer digits.
/// let check = UnaryOp::Rescale { to: DecimalType::try_new(4, 2)? };
/// let opts = ArithmeticOptions::default().with_on_overflow(OverflowPolicy::Null);
/// assert_eq!(unary(check, &a, &opts)?.to_strs(), [Some("99.99".into()), None, None]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::StorageTooNarrow`] when an Arrow profile's width cannot
/// hold the result type (or is `I8` or `I16`, which Arrow does not have);
/// [`DecimalError::UnaryOverflow`] naming the first failing valid row under
/// the `Error` overflow policy.
pub fn unary<'a>(
    op: UnaryOp,
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let operand = operand.into();
    UnaryPlan::new(op, operand.dtype(), options)?.run(operand)
}

/// `op operand` as [`unary`], written into the memory of `recycled`, a
/// result the caller is done with: what
/// [`binary_recycling`](crate::binary_recycling) is to
/// [`binary`](crate::binary), with the same rules for what is reused (the
/// validity is the operand's, shared, so once `recycled` holds a previous
/// result a call allocates only the values buffer's fixed-size header). A
/// rescale that only widens the type of a checked array shares the operand's
/// buffers as [`unary`] does, and drops `recycled`.
///
/// ```
/// use decimal_kernels::{unary, unary_recycling, ArithmeticOptions, DecimalArray, DecimalType, UnaryOp};
/// let t = DecimalType::try_new(12, 4)?;
/// let to = UnaryOp::Rescale { to: DecimalType::try_new(10, 2)? };
/// let opts = ArithmeticOptions::default();
/// let first = DecimalArray::from_strs(t, &[Some("1.2345"), None])?;
/// let previous = unary(to, &first, &opts)?;
/// let second = DecimalArray::from_strs(t, &[Some("-0.2500"), Some("7")])?;
/// let cast = unary_recycling(to, &second, &opts, previous)?;
/// assert_eq!(cast.to_strs(), [Some("-0.25".into()), Some("7.00".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`unary`].
pub fn unary_recycling<'a>(
    op: UnaryOp,
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
    recycled: DecimalArray,
) -> Result<DecimalArray, DecimalError> {
    let operand = operand.into();
    UnaryPlan::new(op, operand.dtype(), options)?.run_recycling(operand, recycled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DecimalType;
    use crate::values::DecimalValues;
    use arrow_buffer::ScalarBuffer;

    fn t(p: u8, s: i8) -> DecimalType {
        DecimalType::try_new(p, s).unwrap()
    }

    fn i128_buffer(a: &DecimalArray) -> &ScalarBuffer<i128> {
        match a.values() {
            DecimalValues::I128(b) => b,
            other => panic!("stored as {:?}", other.width()),
        }
    }

    #[test]
    fn widening_a_checked_array_shares_its_buffers() {
        let a = DecimalArray::try_new(t(20, 2), ScalarBuffer::from(vec![1i128, -5, 7]), None)
            .unwrap()
            .slice(1, 2)
            .unwrap();
        let wider = unary(UnaryOp::Rescale { to: t(30, 2) }, &a, &ArithmeticOptions::default());
        let wider = wider.unwrap();
        assert_eq!(wider.dtype(), t(30, 2));
        assert_eq!(i128_buffer(&wider).as_ptr(), i128_buffer(&a).as_ptr());
        assert_eq!(wider.to_strs(), [Some("-0.05".into()), Some("0.07".into())]);
    }

    #[test]
    fn unchecked_arrays_are_checked_when_widened() {
        let beyond = 10i128.pow(31);
        // 32 digits stored under decimal(20,2): beyond even the target's 30.
        let a =
            DecimalArray::new_unchecked(t(20, 2), ScalarBuffer::from(vec![beyond]), None).unwrap();
        let err = unary(UnaryOp::Rescale { to: t(30, 2) }, &a, &ArithmeticOptions::default());
        assert!(matches!(err, Err(DecimalError::UnaryOverflow { row: 0, .. })), "{err:?}");
    }
}
