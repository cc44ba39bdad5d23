//! Aggregates of decimal columns: `sum`, `avg`, `min` and `max`, over a
//! whole column or by group, exact at each profile's result type.
//!
//! - Values: the exact sum of the valid rows; the mean is that sum divided by
//!   the count, rounded once with the options' mode; the least and greatest
//!   valid value, at the input's type. Null rows are skipped; a group
//!   without valid rows is null.
//! - No intermediate overflow: sums are kept wide enough for any number of
//!   rows (see the [semantics](crate::semantics#aggregates)), and only the final result is
//!   checked against the result type, by the options' overflow policy.
//! - Types: [`AggregateOp::result_type`], one rule per profile.
//! - Partial and final: an [`Accumulator`] keeps running sums and counts (or
//!   extremes) of any number of groups across batches; its [`AggregateState`] is exported
//!   as Arrow arrays, merged into another accumulator (another partition's,
//!   in any order), and finished there, with the same result as one pass.
//!
//! ```
//! use decimal_kernels::aggregate::{avg_groups, sum};
//! use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType, RoundingMode};
//! let t = DecimalType::try_new(15, 2)?;
//! let prices = DecimalArray::from_strs(t, &[Some("1.00"), Some("2.50"), None, Some("0.01")])?;
//! let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfUp);
//! // FixedPoint: a sum of decimal(15,2) is decimal(25,2), a mean decimal(15,2).
//! assert_eq!(sum(&prices, &opts)?.to_string(), "3.51");
//! let means = avg_groups(&prices, &[0, 0, 1, 1], 3, &opts)?;
//! assert_eq!(means.to_strs(), [Some("1.75".into()), Some("0.01".into()), None]);
//! # Ok::<(), decimal_kernels::DecimalError>(())
//! ```

mod accumulator;
mod plan;
mod state;

pub use crate::types::AggregateOp;
pub use accumulator::Accumulator;
pub use plan::AggregatePlan;
pub use state::AggregateState;

use crate::types::ArithmeticOptions;
use crate::types::DecimalError;
use crate::values::DecimalArray;
use crate::values::DecimalScalar;

/// The sum of the valid rows of `values`, at [`AggregateOp::result_type`]; null when
/// there is none.
///
/// ```
/// use decimal_kernels::aggregate::sum;
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(3, 1)?, &[Some("99.9"), Some("99.9"), None])?;
/// // decimal(3,1) sums to decimal(13,1): no overflow for ten billion rows.
/// assert_eq!(sum(&a, &ArithmeticOptions::default())?.to_string(), "199.8");
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`Accumulator::new`] and [`Accumulator::finish`].
pub fn sum(
    values: &DecimalArray,
    options: &ArithmeticOptions,
) -> Result<DecimalScalar, DecimalError> {
    whole(AggregateOp::Sum, values, options)
}

/// The mean of the valid rows of `values`, at [`AggregateOp::result_type`], rounded once
/// with the options' mode; null when there is no valid row.
///
/// ```
/// use decimal_kernels::aggregate::avg;
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType, StorageWidth};
/// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.00"), Some("2.00"), Some("2.00")])?;
/// // Arrow (DataFusion): four more digits, truncated.
/// let mean = avg(&a, &ArithmeticOptions::arrow(StorageWidth::I128))?;
/// assert_eq!(mean.to_string(), "1.666666");
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`sum`].
pub fn avg(
    values: &DecimalArray,
    options: &ArithmeticOptions,
) -> Result<DecimalScalar, DecimalError> {
    whole(AggregateOp::Avg, values, options)
}

/// The sum of each group's valid rows: row `i` belongs to group
/// `group_indices[i]` (as DataFusion's `GroupsAccumulator` passes them), and
/// the result has `total_groups` rows, null for a group without valid rows.
///
/// ```
/// use decimal_kernels::aggregate::sum_groups;
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.50"), Some("2.25"), Some("-1.00")])?;
/// let sums = sum_groups(&a, &[1, 0, 1], 3, &ArithmeticOptions::default())?;
/// assert_eq!(sums.to_strs(), [Some("2.25".into()), Some("0.50".into()), None]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`Accumulator::update`] and [`Accumulator::finish`].
pub fn sum_groups(
    values: &DecimalArray,
    group_indices: &[usize],
    total_groups: usize,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    grouped(AggregateOp::Sum, values, group_indices, total_groups, options)
}

/// The mean of each group's valid rows; see [`sum_groups`] and [`avg`].
///
/// ```
/// use decimal_kernels::aggregate::avg_groups;
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType, RoundingMode};
/// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("0.01"), Some("0.02"), Some("-0.01"), Some("-0.02")])?;
/// let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfEven);
/// // 0.015 and -0.015 at two digits, ties to even.
/// let means = avg_groups(&a, &[0, 0, 1, 1], 2, &opts)?;
/// assert_eq!(means.to_strs(), [Some("0.02".into()), Some("-0.02".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`sum_groups`].
pub fn avg_groups(
    values: &DecimalArray,
    group_indices: &[usize],
    total_groups: usize,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    grouped(AggregateOp::Avg, values, group_indices, total_groups, options)
}

/// The least of the valid rows of `values`, at the input's type in every
/// profile ([`AggregateOp::result_type`]); null when there is none.
///
/// ```
/// use decimal_kernels::aggregate::min;
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.50"), None, Some("-0.25")])?;
/// let least = min(&a, &ArithmeticOptions::default())?;
/// assert_eq!((least.to_string(), least.dtype()), ("-0.25".into(), a.dtype()));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`sum`]: the profile refusing the input type (Spark, Presto and
/// Trino above 38 digits, Presto and Trino below scale 0), a width that
/// cannot hold it; [`DecimalError::AggregateOverflow`] under the `Error`
/// overflow policy for an unchecked column whose extreme exceeds its
/// precision (nulled under `Null`).
pub fn min(
    values: &DecimalArray,
    options: &ArithmeticOptions,
) -> Result<DecimalScalar, DecimalError> {
    whole(AggregateOp::Min, values, options)
}

/// The greatest of the valid rows of `values`; see [`min`].
///
/// ```
/// use decimal_kernels::aggregate::max;
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType};
/// let t = DecimalType::try_new(5, 2)?;
/// let a = DecimalArray::from_strs(t, &[Some("1.50"), None, Some("-0.25")])?;
/// assert_eq!(max(&a, &ArithmeticOptions::default())?.to_string(), "1.50");
/// // No valid row: null.
/// let nulls = DecimalArray::from_strs(t, &[None, None])?;
/// assert!(max(&nulls, &ArithmeticOptions::default())?.is_null());
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`min`].
pub fn max(
    values: &DecimalArray,
    options: &ArithmeticOptions,
) -> Result<DecimalScalar, DecimalError> {
    whole(AggregateOp::Max, values, options)
}

/// The least of each group's valid rows; see [`sum_groups`] and [`min`].
///
/// ```
/// use decimal_kernels::aggregate::min_groups;
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.50"), Some("2.25"), Some("-1.00"), None])?;
/// let least = min_groups(&a, &[1, 0, 1, 2], 3, &ArithmeticOptions::default())?;
/// assert_eq!(least.to_strs(), [Some("2.25".into()), Some("-1.00".into()), None]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`sum_groups`] and [`min`].
pub fn min_groups(
    values: &DecimalArray,
    group_indices: &[usize],
    total_groups: usize,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    grouped(AggregateOp::Min, values, group_indices, total_groups, options)
}

/// The greatest of each group's valid rows; see [`sum_groups`] and [`min`].
///
/// ```
/// use decimal_kernels::aggregate::max_groups;
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.50"), Some("2.25"), Some("-1.00")])?;
/// let greatest = max_groups(&a, &[1, 0, 1], 2, &ArithmeticOptions::default())?;
/// assert_eq!(greatest.to_strs(), [Some("2.25".into()), Some("1.50".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`min_groups`].
pub fn max_groups(
    values: &DecimalArray,
    group_indices: &[usize],
    total_groups: usize,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    grouped(AggregateOp::Max, values, group_indices, total_groups, options)
}

/// `op` over every valid row.
fn whole(
    op: AggregateOp,
    values: &DecimalArray,
    options: &ArithmeticOptions,
) -> Result<DecimalScalar, DecimalError> {
    AggregatePlan::new(op, values.dtype(), options)?.run(values)
}

/// `op` by group.
fn grouped(
    op: AggregateOp,
    values: &DecimalArray,
    group_indices: &[usize],
    total_groups: usize,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    AggregatePlan::new(op, values.dtype(), options)?.run_groups(values, group_indices, total_groups)
}
