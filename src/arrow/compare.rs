//! Comparisons on Arrow arrays: drop-ins for `arrow_ord::cmp`'s `eq`,
//! `neq`, `lt`, `lt_eq`, `gt` and `gt_eq` that compare decimals of any two
//! types exactly, each one [`ComparePlan`] made and run, and pass every
//! other call on to arrow-ord; and the plan's Arrow face.
//!
//! Where arrow-ord accepts a call of two decimals (both of one type), the
//! result is the same: the same rows, values and nulls. Where it refuses
//! them (different precisions, scales or widths, as
//! `Decimal128(15,2) < Decimal64(12,4)`), the values are compared by value
//! here, aligned exactly at the larger scale, with no cast and no overflow.

use arrow_array::{BooleanArray, Datum};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use arrow_schema::{ArrowError, DataType};

use crate::arrow::arithmetic::DatumOperand;
use crate::arrow::convert::{decimal_type, decimal_width};
use crate::compute::prepared::ComparePlan;
use crate::types::{CompareOp, DecimalError};
use crate::values::NullableBuffer;

impl ComparePlan {
    /// `op` on Arrow decimals of types `lhs` and `rhs`.
    ///
    /// ```
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
    /// use arrow_array::{BooleanArray, Decimal128Array, Decimal64Array};
    /// use arrow_schema::DataType;
    /// use decimal_kernels::{CompareOp, ComparePlan};
    /// let plan = ComparePlan::for_arrow(
    ///     CompareOp::Eq,
    ///     &DataType::Decimal128(10, 2),
    ///     &DataType::Decimal64(5, 1),
    /// )?;
    /// let a = Decimal128Array::from(vec![100, 101]).with_precision_and_scale(10, 2)?;
    /// let b = Decimal64Array::from(vec![10, 10]).with_precision_and_scale(5, 1)?;
    /// assert_eq!(plan.run_arrow(&a, &b)?, BooleanArray::from(vec![true, false]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::NotDecimal`] for a type that is not an Arrow decimal.
    pub fn for_arrow(op: CompareOp, lhs: &DataType, rhs: &DataType) -> Result<Self, DecimalError> {
        let ((l, _), (r, _)) = (decimal_type(lhs)?, decimal_type(rhs)?);
        Ok(Self::new(op, l, r))
    }

    /// [`run`](Self::run) on Arrow decimals (a scalar datum stands for
    /// every row), as arrow-ord answers: no validity where no row is null.
    ///
    /// # Errors
    /// [`DecimalError::NotDecimal`] for a side that is not an Arrow decimal
    /// array; as [`run`](Self::run).
    pub fn run_arrow(&self, lhs: &dyn Datum, rhs: &dyn Datum) -> Result<BooleanArray, DecimalError> {
        let (l, r) = (DatumOperand::native(lhs)?, DatumOperand::native(rhs)?);
        Ok(boolean_array(self.run(l.operand(), r.operand())?))
    }
}

/// A comparison's rows as arrow-ord gives them: no validity where no row
/// is null.
fn boolean_array(result: NullableBuffer<BooleanBuffer>) -> BooleanArray {
    let (values, nulls) = result.into_parts();
    BooleanArray::new(values, nulls.filter(|n: &NullBuffer| n.null_count() > 0))
}

/// `lhs = rhs` as `arrow_ord::cmp::eq`, with decimals of any two types
/// compared by value.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{BooleanArray, Decimal128Array, Decimal64Array, Scalar};
/// use decimal_kernels::arrow;
/// // 1.00 as Decimal128(10,2) and 1.0 as Decimal64(5,1): equal, though arrow-ord refuses the types.
/// let a = Decimal128Array::from(vec![Some(100), Some(101), None]).with_precision_and_scale(10, 2)?;
/// let one = Scalar::new(Decimal64Array::from(vec![10]).with_precision_and_scale(5, 1)?);
/// assert_eq!(arrow::eq(&a, &one)?, BooleanArray::from(vec![Some(true), Some(false), None]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// Where neither side is a decimal, or one is not, arrow-ord's errors (a
/// decimal against an integer is its `InvalidArgumentError`); for two
/// decimals, arrow-ord's `InvalidArgumentError` for arrays of different
/// lengths, and for a type outside this crate's range (a scale below -76).
pub fn eq(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<BooleanArray, ArrowError> {
    comparison(CompareOp::Eq, lhs, rhs)
}

/// `lhs <> rhs` as `arrow_ord::cmp::neq`; see [`eq`].
///
/// # Errors
/// As [`eq`].
pub fn neq(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<BooleanArray, ArrowError> {
    comparison(CompareOp::NotEq, lhs, rhs)
}

/// `lhs < rhs` as `arrow_ord::cmp::lt`; see [`eq`].
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{BooleanArray, Decimal128Array};
/// use decimal_kernels::arrow;
/// // 1.00 < 0.500 is false: the scales are aligned, not the stored integers compared.
/// let a = Decimal128Array::from(vec![100, 49]).with_precision_and_scale(3, 2)?;
/// let b = Decimal128Array::from(vec![500, 500]).with_precision_and_scale(4, 3)?;
/// assert_eq!(arrow::lt(&a, &b)?, BooleanArray::from(vec![false, true]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`eq`].
pub fn lt(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<BooleanArray, ArrowError> {
    comparison(CompareOp::Lt, lhs, rhs)
}

/// `lhs <= rhs` as `arrow_ord::cmp::lt_eq`; see [`eq`].
///
/// # Errors
/// As [`eq`].
pub fn lt_eq(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<BooleanArray, ArrowError> {
    comparison(CompareOp::LtEq, lhs, rhs)
}

/// `lhs > rhs` as `arrow_ord::cmp::gt`; see [`eq`].
///
/// # Errors
/// As [`eq`].
pub fn gt(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<BooleanArray, ArrowError> {
    comparison(CompareOp::Gt, lhs, rhs)
}

/// `lhs >= rhs` as `arrow_ord::cmp::gt_eq`; see [`eq`].
///
/// # Errors
/// As [`eq`].
pub fn gt_eq(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<BooleanArray, ArrowError> {
    comparison(CompareOp::GtEq, lhs, rhs)
}

/// arrow-ord's function for `op`.
fn arrow_ord(op: CompareOp) -> fn(&dyn Datum, &dyn Datum) -> Result<BooleanArray, ArrowError> {
    match op {
        CompareOp::Eq => arrow_ord::cmp::eq,
        CompareOp::NotEq => arrow_ord::cmp::neq,
        CompareOp::Lt => arrow_ord::cmp::lt,
        CompareOp::LtEq => arrow_ord::cmp::lt_eq,
        CompareOp::Gt => arrow_ord::cmp::gt,
        CompareOp::GtEq => arrow_ord::cmp::gt_eq,
    }
}

fn is_decimal(data_type: &DataType) -> bool {
    decimal_width(data_type).is_some()
}

fn comparison(op: CompareOp, lhs: &dyn Datum, rhs: &dyn Datum) -> Result<BooleanArray, ArrowError> {
    let ((l, l_scalar), (r, r_scalar)) = (lhs.get(), rhs.get());
    if !is_decimal(l.data_type()) || !is_decimal(r.data_type()) {
        // Not two plain decimal arrays (dictionaries of decimals included):
        // arrow-ord's rules and errors.
        return arrow_ord(op)(lhs, rhs);
    }
    if l.len() != r.len() && !l_scalar && !r_scalar {
        return Err(ArrowError::InvalidArgumentError(format!(
            "Cannot compare arrays of different lengths, got {} vs {}",
            l.len(),
            r.len()
        )));
    }
    let (l, r) = (DatumOperand::of(lhs)?, DatumOperand::of(rhs)?);
    let (l, r) = (l.operand(), r.operand());
    Ok(boolean_array(ComparePlan::new(op, l.dtype(), r.dtype()).run(l, r)?))
}
