//! A prepared aggregate: the result type and storage width of one aggregate
//! over one input type under one profile, decided once, then run on any
//! number of columns or handed to accumulators.

use arrow_schema::Field;

use super::accumulator::Accumulator;
use super::state::AggregateState;
use crate::compute::funnel::{Operation, plan};
use crate::rules::storage::ResultStorage;
use crate::types::{AggregateOp, ArithmeticOptions, DecimalError, DecimalType, StorageWidth};
use crate::values::{DecimalArray, DecimalScalar};

/// `op` over values of one decimal type, planned once: what an engine keeps
/// per aggregate expression, asking it for the result type when it plans
/// and running it (or the [`Accumulator`]s it makes) per batch, with nothing
/// decided again.
///
/// ```
/// use decimal_kernels::aggregate::{AggregateOp, AggregatePlan};
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType, RoundingMode};
/// let t = DecimalType::try_new(15, 2)?;
/// let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfUp);
/// let mean = AggregatePlan::new(AggregateOp::Avg, t, &opts)?;
/// // Planned: FixedPoint keeps a mean at the input's type.
/// assert_eq!(mean.result_type(), t);
/// let prices = DecimalArray::from_strs(t, &[Some("1.00"), Some("2.50"), None, Some("0.01")])?;
/// assert_eq!(mean.run(&prices)?.to_string(), "1.17");
/// let by_group = mean.run_groups(&prices, &[0, 0, 1, 1], 3)?;
/// assert_eq!(by_group.to_strs(), [Some("1.75".into()), Some("0.01".into()), None]);
/// // Across batches and partitions: accumulators of the same plan.
/// let mut running = mean.accumulator();
/// running.update(&prices, &[0, 0, 0, 0], None, 1)?;
/// assert_eq!(running.finish(None)?.to_strs(), [Some("1.17".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AggregatePlan {
    pub(super) op: AggregateOp,
    pub(super) input: DecimalType,
    pub(super) result: DecimalType,
    pub(super) width: StorageWidth,
    pub(super) options: ArithmeticOptions,
}

impl AggregatePlan {
    /// `op` over values of type `input`, at the profile's result type and
    /// storage.
    ///
    /// # Errors
    /// As [`AggregateOp::result_type`]; [`DecimalError::StorageTooNarrow`]
    /// when an Arrow profile's width cannot hold the result type.
    pub fn new(
        op: AggregateOp,
        input: DecimalType,
        options: &ArithmeticOptions,
    ) -> Result<Self, DecimalError> {
        let planned = plan(Operation::Aggregate { op, input }, ResultStorage::Profile, options)?;
        Ok(Self { op, input, result: planned.result, width: planned.width, options: *options })
    }

    /// The aggregate.
    #[must_use]
    pub fn op(&self) -> AggregateOp {
        self.op
    }

    /// The type of the values it aggregates.
    #[must_use]
    pub fn input_type(&self) -> DecimalType {
        self.input
    }

    /// The type of its results.
    #[must_use]
    pub fn result_type(&self) -> DecimalType {
        self.result
    }

    /// The storage width of its results.
    #[must_use]
    pub fn result_width(&self) -> StorageWidth {
        self.width
    }

    /// The Arrow fields of its partial state, as
    /// [`AggregateState::fields_of`] gives them.
    #[must_use]
    pub fn state_fields(&self) -> Vec<Field> {
        AggregateState::fields_of(self.op, self.input)
    }

    /// An empty accumulator of this aggregate, with no groups.
    #[must_use]
    pub fn accumulator(&self) -> Accumulator {
        Accumulator::of_plan(*self)
    }

    /// The aggregate of every valid row of `values`; null when there is
    /// none.
    ///
    /// # Errors
    /// [`DecimalError::TypeMismatch`] for values of another type than
    /// planned (a smaller precision at the same scale is accepted); as
    /// [`Accumulator::finish`] for the result.
    pub fn run(&self, values: &DecimalArray) -> Result<DecimalScalar, DecimalError> {
        let result = self.run_whole(values)?;
        Ok(result.scalar(0).unwrap_or_else(|| DecimalScalar::null(result.dtype())))
    }

    /// [`run`](Self::run) as a one-row array.
    pub(crate) fn run_whole(&self, values: &DecimalArray) -> Result<DecimalArray, DecimalError> {
        let mut accumulator = self.accumulator();
        accumulator.update_whole(values)?;
        accumulator.finish(None)
    }

    /// The aggregate of each group's valid rows: row `i` belongs to group
    /// `group_indices[i]`, and there are `total_groups` groups (null where a
    /// group has no valid row).
    ///
    /// # Errors
    /// As [`run`](Self::run), and as [`Accumulator::update`] for the groups.
    pub fn run_groups(
        &self,
        values: &DecimalArray,
        group_indices: &[usize],
        total_groups: usize,
    ) -> Result<DecimalArray, DecimalError> {
        let mut accumulator = self.accumulator();
        // One batch: no running state to keep between calls.
        if let Some(sums) = accumulator.sum_batch(values, group_indices, total_groups) {
            return Ok(sums);
        }
        accumulator.update(values, group_indices, None, total_groups)?;
        accumulator.finish(None)
    }
}
