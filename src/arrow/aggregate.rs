//! The aggregates on Arrow decimal arrays: `sum`, `avg`, `min` and `max` of
//! a whole array, and by group, under the Arrow profile at the array's width
//! (DataFusion's result types).
//!
//! Each returns an array: a whole-array aggregate one row (null when the
//! array has no valid row), what an engine wraps in a `Scalar` or stores as
//! a one-row batch; a grouped one a row per group. The rows are computed by
//! [`crate::aggregate`]'s accumulator, exact, and checked against the result
//! type once (an overflow is [`ArrowError::ArithmeticOverflow`]).

use arrow_array::{Array, ArrayRef};
use arrow_schema::ArrowError;

use crate::aggregate::AggregatePlan;
use crate::arrow::convert::decimal_width;
use crate::types::{AggregateOp, ArithmeticOptions};
use crate::values::DecimalArray;

/// The sum of the valid rows of a decimal array, as a one-row array of
/// DataFusion's type: `Decimal(min(MAX, p + 10), s)` at the array's width
/// (`MAX` = 9, 18, 38, 76), null when there is no valid row.
///
/// Against `arrow_arith::aggregate::sum_checked`: the same value where both
/// return one, at a wider type (arrow-arith keeps the input's type). A sum
/// beyond the result precision is an [`ArrowError::ArithmeticOverflow`]
/// here, where arrow-arith returns any sum that fits the native integer
/// (beyond the precision its type declares) and fails only past it; an
/// array without a valid row gives a null row, where arrow-arith gives
/// `None`.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{Array, Decimal128Array, cast::AsArray, types::Decimal128Type};
/// use arrow_schema::DataType;
/// use decimal_kernels::arrow;
///
/// let prices = Decimal128Array::from(vec![Some(1050), None, Some(-299)])
///     .with_precision_and_scale(10, 2)?;
/// let total = arrow::sum(&prices)?;
/// assert_eq!(total.data_type(), &DataType::Decimal128(20, 2));
/// assert_eq!(total.as_primitive::<Decimal128Type>().value(0), 751);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ArrowError::InvalidArgumentError`] for an array that is not a decimal
/// (or whose type this crate does not take); [`ArrowError::ArithmeticOverflow`]
/// for a sum beyond the result precision.
pub fn sum(values: &dyn Array) -> Result<ArrayRef, ArrowError> {
    whole(AggregateOp::Sum, values)
}

/// The mean of the valid rows, as a one-row array of DataFusion's type:
/// `Decimal(min(MAX, p + 4), min(MAX, s + 4))`, truncated toward zero (as
/// DataFusion's `avg`); null when there is no valid row. arrow-arith has no
/// mean.
///
/// # Errors
/// As [`sum`], for a mean beyond the result precision.
pub fn avg(values: &dyn Array) -> Result<ArrayRef, ArrowError> {
    whole(AggregateOp::Avg, values)
}

/// The least valid value, as a one-row array of the input's type; null when
/// there is no valid row.
///
/// Against `arrow_arith::aggregate::min`: the same value (and arrow-arith's
/// `None` is a null row here), except for an array holding a valid value
/// beyond its declared precision (Arrow arrays are not checked), which is
/// an [`ArrowError::ArithmeticOverflow`] here when it is the result.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{Array, Decimal64Array, cast::AsArray, types::Decimal64Type};
/// use decimal_kernels::arrow;
///
/// let a = Decimal64Array::from(vec![Some(1050), None, Some(-299)]).with_precision_and_scale(10, 2)?;
/// let least = arrow::min(&a)?;
/// assert_eq!(least.data_type(), a.data_type());
/// assert_eq!(least.as_primitive::<Decimal64Type>().value(0), -299);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`sum`].
pub fn min(values: &dyn Array) -> Result<ArrayRef, ArrowError> {
    whole(AggregateOp::Min, values)
}

/// The greatest valid value; see [`min`] (against `arrow_arith::aggregate::max`).
///
/// # Errors
/// As [`min`].
pub fn max(values: &dyn Array) -> Result<ArrayRef, ArrowError> {
    whole(AggregateOp::Max, values)
}

/// The sum of each group's valid rows: row `i` belongs to group
/// `group_ids[i]`, and the result has `groups` rows of [`sum`]'s type, null
/// for a group without valid rows.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{Array, Decimal128Array, cast::AsArray, types::Decimal128Type};
/// use decimal_kernels::arrow;
///
/// let a = Decimal128Array::from(vec![Some(150), Some(225), Some(-100)]).with_precision_and_scale(5, 2)?;
/// let sums = arrow::sum_groups(&a, &[1, 0, 1], 3)?;
/// let sums = sums.as_primitive::<Decimal128Type>();
/// assert_eq!((sums.value(0), sums.value(1), sums.is_null(2)), (225, 50, true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`sum`]; [`ArrowError::ComputeError`] when `group_ids` does not have
/// a row per value, [`ArrowError::InvalidArgumentError`] for a group id not
/// below `groups`.
pub fn sum_groups(
    values: &dyn Array,
    group_ids: &[usize],
    groups: usize,
) -> Result<ArrayRef, ArrowError> {
    by_group(AggregateOp::Sum, values, group_ids, groups)
}

/// The mean of each group's valid rows; see [`sum_groups`] and [`avg`].
///
/// # Errors
/// As [`sum_groups`].
pub fn avg_groups(
    values: &dyn Array,
    group_ids: &[usize],
    groups: usize,
) -> Result<ArrayRef, ArrowError> {
    by_group(AggregateOp::Avg, values, group_ids, groups)
}

/// The least of each group's valid rows; see [`sum_groups`] and [`min`].
///
/// # Errors
/// As [`sum_groups`].
pub fn min_groups(
    values: &dyn Array,
    group_ids: &[usize],
    groups: usize,
) -> Result<ArrayRef, ArrowError> {
    by_group(AggregateOp::Min, values, group_ids, groups)
}

/// The greatest of each group's valid rows; see [`sum_groups`] and [`min`].
///
/// # Errors
/// As [`sum_groups`].
pub fn max_groups(
    values: &dyn Array,
    group_ids: &[usize],
    groups: usize,
) -> Result<ArrayRef, ArrowError> {
    by_group(AggregateOp::Max, values, group_ids, groups)
}

/// The array as this crate's, with the Arrow profile at its width.
fn decimals(values: &dyn Array) -> Result<(DecimalArray, ArithmeticOptions), ArrowError> {
    let width = decimal_width(values.data_type()).ok_or_else(|| {
        ArrowError::InvalidArgumentError(format!(
            "an aggregate of decimals takes Decimal32, Decimal64, Decimal128 or Decimal256, not {}",
            values.data_type()
        ))
    })?;
    Ok((DecimalArray::from_arrow(values)?, ArithmeticOptions::arrow(width)))
}

fn whole(op: AggregateOp, values: &dyn Array) -> Result<ArrayRef, ArrowError> {
    let (values, options) = decimals(values)?;
    Ok(AggregatePlan::new(op, values.dtype(), &options)?.run_whole(&values)?.to_arrow())
}

fn by_group(
    op: AggregateOp,
    values: &dyn Array,
    group_ids: &[usize],
    groups: usize,
) -> Result<ArrayRef, ArrowError> {
    let (values, options) = decimals(values)?;
    let plan = AggregatePlan::new(op, values.dtype(), &options)?;
    Ok(plan.run_groups(&values, group_ids, groups)?.to_arrow())
}
