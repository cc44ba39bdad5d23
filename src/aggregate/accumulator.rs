//! The running state of one aggregate over any number of groups, across
//! batches and partitions.

use arrow_buffer::{BooleanBuffer, NullBuffer};
use decimal_kernels_native::{Extreme, GroupExtremes, GroupSum, GroupSums, KernelError, Rows};
use num_bigint::BigInt;

use super::plan::AggregatePlan;
use super::state::{AggregateState, exact_sum};
use crate::compute::operand::Operand;
use crate::rules::reference::round;
use crate::rules::shape::row_count;
use crate::types::AggregateOp;
use crate::types::ArithmeticOptions;
use crate::types::DecimalError;
use crate::types::{DecimalType, StorageWidth};
use crate::values::text;
use crate::values::{DecimalArray, DecimalNative, with_native};

/// Running sums and counts, or extremes, of one aggregate, shaped like DataFusion's
/// `GroupsAccumulator`: [`update`](Self::update) adds a batch of rows to
/// their groups, [`state`](Self::state) and [`merge`](Self::merge) move
/// partial results between partitions, and [`finish`](Self::finish) emits
/// the results of the first groups, or all.
///
/// ```
/// use decimal_kernels::aggregate::{Accumulator, AggregateOp};
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType};
/// let t = DecimalType::try_new(15, 2)?;
/// let opts = ArithmeticOptions::default();
/// // Two partitions, each summing its own batches by group.
/// let mut left = Accumulator::new(AggregateOp::Sum, t, &opts)?;
/// left.update(&DecimalArray::from_strs(t, &[Some("1.25"), Some("2.00")])?, &[0, 1], None, 2)?;
/// let mut right = Accumulator::new(AggregateOp::Sum, t, &opts)?;
/// right.update(&DecimalArray::from_strs(t, &[Some("0.75")])?, &[0], None, 1)?;
/// // The final step merges their states, group 0 with group 0.
/// let mut total = Accumulator::new(AggregateOp::Sum, t, &opts)?;
/// total.merge(&left.state(None), &[0, 1], 2)?;
/// total.merge(&right.state(None), &[0], 2)?;
/// assert_eq!(total.finish(None)?.to_strs(), [Some("2.00".into()), Some("2.00".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Accumulator {
    plan: AggregatePlan,
    running: Running,
}

/// What an accumulator keeps per group.
#[derive(Clone, Debug)]
enum Running {
    /// Exact sums and counts (`sum`, `avg`).
    Sums(GroupSums),
    /// Extremes (`min`, `max`).
    Extremes(GroupExtremes),
}

impl Running {
    /// No groups of `op`.
    fn new(op: AggregateOp) -> Self {
        match op {
            AggregateOp::Min => Self::Extremes(GroupExtremes::new(Extreme::Min, 0)),
            AggregateOp::Max => Self::Extremes(GroupExtremes::new(Extreme::Max, 0)),
            _ => Self::Sums(GroupSums::new(0)),
        }
    }

    fn len(&self) -> usize {
        match self {
            Self::Sums(sums) => sums.len(),
            Self::Extremes(extremes) => extremes.len(),
        }
    }

    fn allocated_bytes(&self) -> usize {
        match self {
            Self::Sums(sums) => sums.allocated_bytes(),
            Self::Extremes(extremes) => extremes.allocated_bytes(),
        }
    }

    fn resize(&mut self, groups: usize) -> Result<(), KernelError> {
        match self {
            Self::Sums(sums) => sums.resize(groups),
            Self::Extremes(extremes) => extremes.resize(groups),
        }
    }

    fn take_first(&mut self, n: usize) -> Self {
        match self {
            Self::Sums(sums) => Self::Sums(sums.take_first(n)),
            Self::Extremes(extremes) => Self::Extremes(extremes.take_first(n)),
        }
    }

    fn update(
        &mut self,
        values: decimal_kernels_native::Operand<'_>,
        groups: Option<&[usize]>,
        rows: &Rows<'_>,
    ) -> Result<(), KernelError> {
        match self {
            Self::Sums(sums) => sums.update(values, groups, rows),
            Self::Extremes(extremes) => extremes.update(values, groups, rows),
        }
    }
}

impl Accumulator {
    /// An accumulator of `op` over values of type `input`, with no groups:
    /// [`AggregatePlan::new`] then [`AggregatePlan::accumulator`].
    ///
    /// # Errors
    /// As [`AggregateOp::result_type`]; [`DecimalError::StorageTooNarrow`] when an Arrow
    /// profile's width cannot hold the result type.
    pub fn new(
        op: AggregateOp,
        input: DecimalType,
        options: &ArithmeticOptions,
    ) -> Result<Self, DecimalError> {
        Ok(AggregatePlan::new(op, input, options)?.accumulator())
    }

    /// An empty accumulator of `plan`.
    pub(super) fn of_plan(plan: AggregatePlan) -> Self {
        Self { plan, running: Running::new(plan.op) }
    }

    /// The aggregate.
    #[must_use]
    pub fn op(&self) -> AggregateOp {
        self.plan.op
    }

    /// The type of the values it adds.
    #[must_use]
    pub fn input_type(&self) -> DecimalType {
        self.plan.input
    }

    /// The type of its results.
    #[must_use]
    pub fn result_type(&self) -> DecimalType {
        self.plan.result
    }

    /// The storage width of its results (of [`finish`](Self::finish)).
    #[must_use]
    pub fn result_width(&self) -> StorageWidth {
        self.plan.width
    }

    /// The number of groups it holds.
    #[must_use]
    pub fn groups(&self) -> usize {
        self.running.len()
    }

    /// The bytes it holds beyond its own size (DataFusion's
    /// `GroupsAccumulator::size` adds `size_of` of the value to it).
    #[must_use]
    pub fn allocated_bytes(&self) -> usize {
        self.running.allocated_bytes()
    }

    /// Adds the valid rows of `values` (less the rows where `filter` is
    /// false) to their groups: row `i` to group `group_indices[i]`. It then
    /// holds at least `total_groups` groups.
    ///
    /// # Errors
    /// [`DecimalError::TypeMismatch`] when `values` is not of the input type
    /// (a narrower precision at the same scale is accepted);
    /// [`DecimalError::LengthMismatch`] when `group_indices` or `filter` do not
    /// have a row per value; [`DecimalError::GroupOutOfRange`] for the first
    /// row whose group is not below the number of groups;
    /// [`DecimalError::TooManyGroups`] when memory for `total_groups` groups
    /// cannot be had. Nothing is added when it fails, not even the groups up
    /// to `total_groups`.
    pub fn update(
        &mut self,
        values: &DecimalArray,
        group_indices: &[usize],
        filter: Option<&BooleanBuffer>,
        total_groups: usize,
    ) -> Result<(), DecimalError> {
        let nulls = self.batch_nulls(values, group_indices, filter)?;
        let groups = self.groups();
        if total_groups > groups {
            self.running.resize(total_groups).map_err(|e| self.kernel_error(e))?;
        }
        let rows = Rows::new(values.len()).with_nulls(nulls.as_ref());
        let operand = Operand::Array(values).kernel_operand();
        if let Err(e) = self.running.update(operand, Some(group_indices), &rows) {
            // The kernels add nothing when they fail; the groups made for
            // the batch go too (dropping groups allocates nothing: it cannot
            // fail).
            let _ = self.running.resize(groups);
            return Err(self.kernel_error(e));
        }
        Ok(())
    }

    /// Takes the valid rows of `values` (less the rows where `filter` is
    /// false) out of their groups again: row `i` out of group
    /// `group_indices[i]`. They must have been added before, as a sliding
    /// window's rows are when they leave its frame: a `sum` or `avg` is then
    /// exactly that of the rows that stay (a group left without rows is
    /// null again).
    ///
    /// ```
    /// use decimal_kernels::aggregate::{Accumulator, AggregateOp};
    /// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType};
    /// let t = DecimalType::try_new(38, 0)?;
    /// let mut frame = Accumulator::new(AggregateOp::Sum, t, &ArithmeticOptions::default())?;
    /// let six = format!("6{}", "0".repeat(37));
    /// let rows = DecimalArray::from_strs(t, &[Some(six.as_str()), Some(six.as_str())])?;
    /// // 1.2·10^38 while both rows are in: beyond the result's 38 digits.
    /// frame.update(&rows, &[0, 0], None, 1)?;
    /// frame.retract(&rows.slice(0, 1)?, &[0], None)?;
    /// assert_eq!(frame.finish(None)?.to_strs(), [Some(six)]);
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// As [`update`](Self::update); [`DecimalError::UnsupportedAggregate`]
    /// for `min` and `max` (an extreme cannot forget a row);
    /// [`DecimalError::InvalidState`] when a group would give back more rows
    /// than it holds. Nothing is taken out when it fails.
    pub fn retract(
        &mut self,
        values: &DecimalArray,
        group_indices: &[usize],
        filter: Option<&BooleanBuffer>,
    ) -> Result<(), DecimalError> {
        let nulls = self.batch_nulls(values, group_indices, filter)?;
        let Running::Sums(sums) = &mut self.running else {
            let reason = "an extreme cannot forget a row".into();
            return Err(DecimalError::UnsupportedAggregate {
                op: self.plan.op,
                input: self.plan.input,
                reason,
            });
        };
        let rows = Rows::new(values.len()).with_nulls(nulls.as_ref());
        let operand = Operand::Array(values).kernel_operand();
        let mut leaving = GroupSums::new(sums.len());
        if let Err(e) = leaving.update(operand, Some(group_indices), &rows) {
            return Err(self.kernel_error(e));
        }
        let mut rest = sums.clone();
        for g in 0..leaving.len() {
            match leaving.group(g) {
                Some(part) if part.count > 0 => rest.retract(g, part).map_err(|_| {
                    let reason = format!("group {g} gives back more rows than it holds");
                    DecimalError::InvalidState { reason }
                })?,
                _ => {}
            }
        }
        *sums = rest;
        Ok(())
    }

    /// The sums of one batch by group, straight to the results, as a new
    /// accumulator's [`update`](Self::update) then [`finish`](Self::finish)
    /// would give them (for a sum; `None` for a mean). `None` too when the
    /// call fails: the caller then runs `update` and `finish`, which report
    /// the error with its values.
    pub(crate) fn sum_batch(
        &self,
        values: &DecimalArray,
        group_indices: &[usize],
        total_groups: usize,
    ) -> Option<DecimalArray> {
        if self.plan.op != AggregateOp::Sum || self.check_type(values).is_err() {
            return None;
        }
        let rows = Rows::new(values.len())
            .with_nulls(values.nulls())
            .with_policies(self.plan.options.policies());
        let operand = Operand::Array(values).kernel_operand();
        let precision = self.plan.result.precision();
        let (values, nulls) = with_native!(self.plan.width, T => {
            let sums =
                GroupSums::sum_batch::<T>(operand, group_indices, total_groups, precision, &rows);
            let output = sums.ok()?;
            (T::into_values(output.values), output.nulls)
        });
        Some(DecimalArray::from_parts(self.plan.result, values, nulls))
    }

    /// Adds every valid row of `values` to group 0 (made if there is none):
    /// the whole-column aggregate.
    pub(crate) fn update_whole(&mut self, values: &DecimalArray) -> Result<(), DecimalError> {
        self.check_type(values)?;
        if self.groups() == 0 {
            self.running.resize(1).map_err(|e| self.kernel_error(e))?;
        }
        let rows = Rows::new(values.len()).with_nulls(values.nulls());
        let operand = Operand::Array(values).kernel_operand();
        self.running.update(operand, None, &rows).map_err(|e| self.kernel_error(e))
    }

    /// Adds another accumulator's partial results: row `i` of `state` to
    /// group `group_indices[i]`. It then holds at least `total_groups` groups.
    ///
    /// # Errors
    /// [`DecimalError::TypeMismatch`] when `state` was made from values of
    /// another scale; [`DecimalError::LengthMismatch`] when `group_indices`
    /// does not have a row per state row; [`DecimalError::GroupOutOfRange`]
    /// and [`DecimalError::TooManyGroups`] as for [`update`](Self::update)
    /// (nothing is added then); [`DecimalError::InvalidState`] for a
    /// state that no rows add up to, or one of another kind (extremes merged
    /// into a sum or mean, sums into an extreme; a `min` state merged into a
    /// `max` accumulator is not told apart, and is folded as `max`). The rows
    /// before a failing one are added.
    pub fn merge(
        &mut self,
        state: &AggregateState,
        group_indices: &[usize],
        total_groups: usize,
    ) -> Result<(), DecimalError> {
        if state.input_type().scale() != self.plan.input.scale() {
            return Err(DecimalError::TypeMismatch {
                expected: self.plan.input,
                actual: state.input_type(),
            });
        }
        if group_indices.len() != state.len() {
            return Err(DecimalError::LengthMismatch {
                expected: state.len(),
                actual: group_indices.len(),
            });
        }
        if total_groups > self.groups() {
            self.running.resize(total_groups).map_err(|e| self.kernel_error(e))?;
        }
        let out_of_range = |row: usize, e: KernelError, reason: &str| match e {
            KernelError::GroupOutOfRange { group, groups, .. } => {
                DecimalError::GroupOutOfRange { row, group, total_groups: groups }
            }
            KernelError::TooManyGroups { groups } => DecimalError::TooManyGroups { groups },
            _ => DecimalError::InvalidState { reason: format!("row {row} is not {reason}") },
        };
        // A compact state, in one pass.
        if let (Running::Sums(sums), Some(parts)) = (&mut self.running, state.compact_sums()) {
            let (sums_in, valid, counts) = (parts.sums, parts.valid, parts.counts);
            return sums.merge_i128(group_indices, sums_in, valid, counts).map_err(|e| match e {
                KernelError::GroupOutOfRange { row, group, groups } => {
                    DecimalError::GroupOutOfRange { row, group, total_groups: groups }
                }
                _ => DecimalError::InvalidState {
                    reason: "a part is not a sum and count of rows".into(),
                },
            });
        }
        match &mut self.running {
            Running::Sums(sums) => {
                for (row, &group) in group_indices.iter().enumerate() {
                    let part = state.group_sum(row)?;
                    sums.merge(group, part)
                        .map_err(|e| out_of_range(row, e, "a sum and count of rows"))?;
                }
            }
            Running::Extremes(extremes) => {
                if !state.holds_extremes() {
                    return Err(DecimalError::InvalidState {
                        reason: format!("a {} state holds extremes, not sums", self.plan.op),
                    });
                }
                let (parts, valid) = state.extreme_parts().ok_or_else(|| {
                    DecimalError::InvalidState { reason: "a state without extremes".into() }
                })?;
                extremes.merge_parts(group_indices, parts, valid).map_err(|e| match e {
                    KernelError::GroupOutOfRange { row, .. } => out_of_range(row, e, "an extreme"),
                    e => out_of_range(0, e, "an extreme"),
                })?;
            }
        }
        Ok(())
    }

    /// Each row of `values` (less the rows where `filter` is false) as the
    /// partial result of a group of its own, row `i` as group `i`: the state
    /// an accumulator fed one row per group would give, without making the
    /// groups where the state is compact (DataFusion's `convert_to_state`,
    /// which it calls when it skips partial aggregation on groups that are
    /// nearly all distinct).
    ///
    /// # Errors
    /// As [`update`](Self::update).
    pub fn row_states(
        &self,
        values: &DecimalArray,
        filter: Option<&BooleanBuffer>,
    ) -> Result<AggregateState, DecimalError> {
        self.check_type(values)?;
        row_count(&[Some(values.len()), filter.map(BooleanBuffer::len)])?;
        if let Some(state) = AggregateState::compact_rows(self.plan.op, self.plan.input, values, filter) {
            return Ok(state);
        }
        let mut rows = Self::of_plan(self.plan);
        let groups: Vec<usize> = (0..values.len()).collect();
        rows.update(values, &groups, filter, values.len())?;
        Ok(rows.state(None))
    }

    /// Takes out the partial results of the first `first` groups (all for
    /// `None`); the others move down to `0..`.
    #[must_use]
    pub fn state(&mut self, first: Option<usize>) -> AggregateState {
        match self.take(first) {
            Running::Sums(sums) => AggregateState::from_sums(self.plan.op, self.plan.input, &sums),
            Running::Extremes(extremes) => AggregateState::from_extremes(self.plan.input, &extremes),
        }
    }

    /// Takes out the results of the first `first` groups (all for `None`),
    /// at [`result_type`](Self::result_type); the others move down to `0..`.
    ///
    /// # Errors
    /// [`DecimalError::AggregateOverflow`] for the first group whose result
    /// exceeds the result type under the `Error` overflow policy (the taken
    /// groups are dropped).
    pub fn finish(&mut self, first: Option<usize>) -> Result<DecimalArray, DecimalError> {
        let taken = self.take(first);
        let precision = self.plan.result.precision();
        let policies = self.plan.options.policies();
        let (values, nulls) = with_native!(self.plan.width, T => {
            let output = match (&taken, self.plan.op) {
                (Running::Extremes(extremes), _) => extremes.finish::<T>(precision, policies),
                (Running::Sums(sums), AggregateOp::Sum) => sums.finish_sum::<T>(precision, policies),
                (Running::Sums(sums), _) => sums.finish_mean::<T>(
                    self.mean_shift(),
                    self.plan.options.rounding(),
                    precision,
                    policies,
                ),
            }
            .map_err(|e| self.finish_error(&taken, e))?;
            (T::into_values(output.values), output.nulls)
        });
        Ok(DecimalArray::from_parts(self.plan.result, values, nulls))
    }

    /// The digits a mean appends to the input's scale: the result scale is
    /// never below it (`result_type`).
    fn mean_shift(&self) -> u32 {
        (i32::from(self.plan.result.scale()) - i32::from(self.plan.input.scale())).unsigned_abs()
    }

    /// The first `first` groups, taken out.
    fn take(&mut self, first: Option<usize>) -> Running {
        self.running.take_first(first.unwrap_or(usize::MAX))
    }

    /// The rows of a batch to add or take out: its type and lengths checked,
    /// a row left out where it is null or `filter` is false.
    fn batch_nulls(
        &self,
        values: &DecimalArray,
        group_indices: &[usize],
        filter: Option<&BooleanBuffer>,
    ) -> Result<Option<NullBuffer>, DecimalError> {
        self.check_type(values)?;
        row_count(&[
            Some(values.len()),
            Some(group_indices.len()),
            filter.map(BooleanBuffer::len),
        ])?;
        let filter = filter.map(|f| NullBuffer::new(f.clone()));
        Ok(NullBuffer::union(values.nulls(), filter.as_ref()))
    }

    fn check_type(&self, values: &DecimalArray) -> Result<(), DecimalError> {
        let t = values.dtype();
        if t.scale() != self.plan.input.scale() || t.precision() > self.plan.input.precision() {
            return Err(DecimalError::TypeMismatch { expected: self.plan.input, actual: t });
        }
        Ok(())
    }

    fn kernel_error(&self, error: KernelError) -> DecimalError {
        match error {
            KernelError::GroupOutOfRange { row, group, groups } => {
                DecimalError::GroupOutOfRange { row, group, total_groups: groups }
            }
            KernelError::LengthMismatch { expected, actual } => {
                DecimalError::LengthMismatch { expected, actual }
            }
            KernelError::TooManyGroups { groups } => DecimalError::TooManyGroups { groups },
            _ => DecimalError::StorageTooNarrow { dtype: self.plan.result, width: self.plan.width },
        }
    }

    /// The error of a failed finish, naming the group and its exact result.
    fn finish_error(&self, taken: &Running, error: KernelError) -> DecimalError {
        let KernelError::Overflow { row: group } = error else {
            return self.kernel_error(error);
        };
        let sums = match taken {
            Running::Sums(sums) => sums,
            Running::Extremes(extremes) => {
                let value = extremes.group(group).flatten().unwrap_or_default();
                let value = text::format(&text::i256_to_bigint(value), self.plan.input.scale());
                return DecimalError::AggregateOverflow {
                    group,
                    result_type: self.plan.result,
                    op: self.plan.op,
                    value,
                };
            }
        };
        let part = sums.group(group).unwrap_or(GroupSum {
            sum_low: arrow_buffer::i256::ZERO,
            sum_carry: 0,
            count: 1,
        });
        let sum = exact_sum(part);
        let value = match self.plan.op {
            AggregateOp::Sum => text::format(&sum, self.plan.input.scale()),
            _ => {
                let scaled = sum * text::pow10(self.mean_shift());
                let mean = round(&scaled, &BigInt::from(part.count), self.plan.options.rounding());
                text::format(&mean, self.plan.result.scale())
            }
        };
        DecimalError::AggregateOverflow { group, result_type: self.plan.result, op: self.plan.op, value }
    }
}
