//! The comparisons: [`compare`] with a [`CompareOp`], and one function per
//! operator ([`eq`], [`neq`], [`lt`], [`lt_eq`], [`gt`], [`gt_eq`]). Each is
//! one [`ComparePlan`] made and run.

use arrow_buffer::BooleanBuffer;

use crate::compute::operand::Operand;
use crate::compute::prepared::ComparePlan;
use crate::types::{CompareOp, DecimalError};
use crate::values::NullableBuffer;

/// `lhs op rhs` row by row, by value: the operands may have any types and
/// storage widths (`1.00` in a `decimal(3,2)` equals `1.0` in a
/// `decimal(2,1)`), aligned exactly at the larger scale, never rounded and
/// never overflowing. A row is null where either side is null (every row,
/// for a null scalar); comparisons take no options, as none applies.
///
/// ```
/// use decimal_kernels::{compare, CompareOp, DecimalArray, DecimalScalar, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(3, 2)?, &[Some("1.00"), Some("0.49"), None])?;
/// let half = DecimalScalar::parse(DecimalType::try_new(4, 3)?, "0.500")?;
/// let gt = compare(CompareOp::Gt, &a, &half)?;
/// assert_eq!((0..3).map(|row| gt.get(row)).collect::<Vec<_>>(), [Some(true), Some(false), None]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::LengthMismatch`] for arrays of different lengths.
pub fn compare<'a>(
    op: CompareOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
) -> Result<NullableBuffer<BooleanBuffer>, DecimalError> {
    let (lhs, rhs) = (lhs.into(), rhs.into());
    ComparePlan::new(op, lhs.dtype(), rhs.dtype()).run(lhs, rhs)
}

/// `lhs = rhs` row by row, by value across any types; see [`compare`].
///
/// ```
/// use decimal_kernels::{eq, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(3, 2)?, &[Some("1.00"), Some("1.01")])?;
/// let b = DecimalArray::from_strs(DecimalType::try_new(2, 1)?, &[Some("1.0"), Some("1.0")])?;
/// assert_eq!(eq(&a, &b)?.values().iter().collect::<Vec<_>>(), [true, false]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`compare`].
pub fn eq<'a>(
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
) -> Result<NullableBuffer<BooleanBuffer>, DecimalError> {
    compare(CompareOp::Eq, lhs, rhs)
}

/// `lhs <> rhs` row by row, by value across any types; see [`compare`].
///
/// # Errors
/// As [`compare`].
pub fn neq<'a>(
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
) -> Result<NullableBuffer<BooleanBuffer>, DecimalError> {
    compare(CompareOp::NotEq, lhs, rhs)
}

/// `lhs < rhs` row by row, by value across any types; see [`compare`].
///
/// ```
/// use decimal_kernels::{lt, DecimalArray, DecimalScalar, DecimalType};
/// // TPC-H Q6's `l_discount < 0.07` style: a decimal(15,2) column against a decimal(3,2) literal.
/// let discount = DecimalArray::from_strs(DecimalType::try_new(15, 2)?, &[Some("0.06"), Some("0.07"), None])?;
/// let bound = DecimalScalar::parse(DecimalType::try_new(3, 2)?, "0.07")?;
/// let below = lt(&discount, &bound)?;
/// assert_eq!((below.get(0), below.get(1), below.get(2)), (Some(true), Some(false), None));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`compare`].
pub fn lt<'a>(
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
) -> Result<NullableBuffer<BooleanBuffer>, DecimalError> {
    compare(CompareOp::Lt, lhs, rhs)
}

/// `lhs <= rhs` row by row, by value across any types; see [`compare`].
///
/// # Errors
/// As [`compare`].
pub fn lt_eq<'a>(
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
) -> Result<NullableBuffer<BooleanBuffer>, DecimalError> {
    compare(CompareOp::LtEq, lhs, rhs)
}

/// `lhs > rhs` row by row, by value across any types; see [`compare`].
///
/// # Errors
/// As [`compare`].
pub fn gt<'a>(
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
) -> Result<NullableBuffer<BooleanBuffer>, DecimalError> {
    compare(CompareOp::Gt, lhs, rhs)
}

/// `lhs >= rhs` row by row, by value across any types; see [`compare`].
///
/// # Errors
/// As [`compare`].
pub fn gt_eq<'a>(
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
) -> Result<NullableBuffer<BooleanBuffer>, DecimalError> {
    compare(CompareOp::GtEq, lhs, rhs)
}
