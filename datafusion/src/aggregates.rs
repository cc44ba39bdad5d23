//! `sum`, `avg`, `min` and `max` of decimals as the aggregate functions
//! `decimal_sum`, `decimal_avg`, `decimal_min` and `decimal_max`, computed
//! by decimal-kernels' `aggregate::Accumulator` under the registration's
//! profile (under the Arrow profile, at the input's width: DataFusion's
//! result types and values, a mean truncated).
//!
//! - Grouped: a `GroupsAccumulator` whose `update_batch`, `merge_batch`,
//!   `state`, `evaluate` and `convert_to_state` are the accumulator's
//!   `update`, `merge`, `state` and `finish` (`EmitTo::All` is every group,
//!   `EmitTo::First(n)` the first `n`).
//! - Whole column (no `GROUP BY`): DataFusion's row `Accumulator`, the same
//!   accumulator with one group.
//! - Partial states are the columns of `AggregateState` (an exact sum in two
//!   parts and a count; or the extreme), so partitions merge in any order
//!   with the result of one pass.
//!
//! A sum beyond its result precision is an error here, where DataFusion's
//! `sum` wraps silently (apache/datafusion#16406).

use std::mem::size_of;
use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, BooleanArray};
use datafusion::arrow::buffer::BooleanBuffer;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue, not_impl_err, plan_err};
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::{AggregateOrderSensitivity, format_state_name};
use datafusion::logical_expr::{
    Accumulator as RowAccumulator, AggregateUDFImpl, EmitTo, GroupsAccumulator, ReversedUDAF,
    Signature, Volatility,
};
use decimal_kernels::DecimalArray;
use decimal_kernels::aggregate::{Accumulator, AggregateOp, AggregatePlan, AggregateState};

use crate::distinct::{self, DistinctAccumulator};
use crate::plans::PlanCache;
use crate::profile::{Profile, decimal};
use crate::values::failed;

/// The aggregates: each with the name of its function here and the names
/// DataFusion calls it by.
pub(crate) const AGGREGATES: [(AggregateOp, &str, &[&str]); 4] = [
    (AggregateOp::Sum, "decimal_sum", &["sum"]),
    (AggregateOp::Avg, "decimal_avg", &["avg", "mean"]),
    (AggregateOp::Min, "decimal_min", &["min"]),
    (AggregateOp::Max, "decimal_max", &["max"]),
];

/// The aggregate (and its name here) of a DataFusion aggregate function
/// name, if it is one taken here.
pub(crate) fn of_datafusion(name: &str) -> Option<(AggregateOp, &'static str)> {
    AGGREGATES.iter().find(|(_, _, names)| names.contains(&name)).map(|(op, ours, _)| (*op, *ours))
}

/// One aggregate of one decimal argument under a profile.
#[derive(Debug)]
pub(crate) struct DecimalAggregate {
    op: AggregateOp,
    name: &'static str,
    profile: Profile,
    signature: Signature,
    /// decimal-kernels' plans by input type: one per expression in
    /// practice, made when DataFusion asks the return type.
    plans: PlanCache<DataType, AggregatePlan>,
}

/// The identity of a function: the aggregate, its name and the profile (the
/// plans it made follow from them).
impl PartialEq for DecimalAggregate {
    fn eq(&self, other: &Self) -> bool {
        (self.op, self.name, self.profile) == (other.op, other.name, other.profile)
    }
}

impl Eq for DecimalAggregate {}

impl std::hash::Hash for DecimalAggregate {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.op, self.name, self.profile).hash(state);
    }
}

impl DecimalAggregate {
    /// The aggregate `op`, named `name`, under `profile`.
    pub(crate) fn new((op, name): (AggregateOp, &'static str), profile: Profile) -> Self {
        let signature = Signature::user_defined(Volatility::Immutable);
        Self { op, name, profile, signature, plans: PlanCache::default() }
    }

    /// The plan of this aggregate over values of `data_type`.
    fn plan(&self, data_type: &DataType) -> Result<Arc<AggregatePlan>> {
        self.plans.get(data_type.clone(), || {
            let (input, width) = decimal(data_type)?;
            AggregatePlan::new(self.op, input, &self.profile.at(width))
                .map_err(|e| failed(self.name(), e))
        })
    }

    /// An empty accumulator for values of `data_type`.
    fn empty(&self, data_type: &DataType) -> Result<Accumulator> {
        Ok(self.plan(data_type)?.accumulator())
    }

    /// An empty accumulator for the call `args` describes, with its options
    /// and the Arrow type of its results (the planned return type).
    fn accumulator_for(&self, args: &AccumulatorArgs) -> Result<GroupedAccumulator> {
        if args.is_distinct {
            return not_impl_err!("{}(DISTINCT ..)", self.name());
        }
        let [field] = args.expr_fields else {
            return plan_err!("{} takes one decimal argument", self.name());
        };
        let inner = self.empty(field.data_type())?;
        let name = self.name;
        Ok(GroupedAccumulator { inner, output: args.return_type().clone(), name })
    }
}

impl AggregateUDFImpl for DecimalAggregate {
    fn name(&self) -> &str {
        self.name
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    /// One decimal, as it is.
    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        match arg_types {
            [a] if a.is_decimal() => Ok(arg_types.to_vec()),
            _ => plan_err!("{} takes one decimal argument, not {arg_types:?}", self.name()),
        }
    }

    /// The Arrow type of the accumulator's results: its result type at its
    /// width (nothing is finished to learn it).
    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        let [a] = arg_types else {
            return plan_err!("{} takes one decimal argument", self.name());
        };
        let plan = self.plan(a)?;
        Ok(decimal_kernels::arrow::data_type(plan.result_type(), plan.result_width()))
    }

    fn accumulator(&self, args: AccumulatorArgs) -> Result<Box<dyn RowAccumulator>> {
        if args.is_distinct {
            let [field] = args.expr_fields else {
                return plan_err!("{} takes one decimal argument", self.name());
            };
            let inner = self.empty(field.data_type())?;
            let output = args.return_type().clone();
            return Ok(Box::new(DistinctAccumulator::new(inner, output, self.name)));
        }
        let GroupedAccumulator { inner, output, name, .. } = self.accumulator_for(&args)?;
        Ok(Box::new(WholeAccumulator { inner, output, name, zeros: Vec::new() }))
    }

    /// `AggregateState::fields_of`, named after the call.
    /// Or, for `DISTINCT`, the list of distinct values met.
    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        let [field] = args.input_fields else {
            return plan_err!("{} takes one decimal argument", self.name());
        };
        let plan = self.plan(field.data_type())?;
        if args.is_distinct {
            let name = format_state_name(args.name, "distinct");
            let state_type = distinct::state_type(plan.input_type());
            return Ok(vec![Field::new(name, state_type, false).into()]);
        }
        let fields = plan.state_fields().into_iter().map(|f| {
            let name = format_state_name(args.name, f.name());
            f.with_name(name).into()
        });
        Ok(fields.collect())
    }

    fn groups_accumulator_supported(&self, args: AccumulatorArgs) -> bool {
        !args.is_distinct
    }

    fn create_groups_accumulator(
        &self,
        args: AccumulatorArgs,
    ) -> Result<Box<dyn GroupsAccumulator>> {
        Ok(Box::new(self.accumulator_for(&args)?))
    }

    fn reverse_expr(&self) -> ReversedUDAF {
        ReversedUDAF::Identical
    }

    fn order_sensitivity(&self) -> AggregateOrderSensitivity {
        AggregateOrderSensitivity::Insensitive
    }
}

/// The one argument of an update, as decimal-kernels' array (no copy).
fn argument(name: &str, values: &[ArrayRef]) -> Result<DecimalArray> {
    let [values] = values else {
        return plan_err!("{name}: one decimal argument expected, {} given", values.len());
    };
    DecimalArray::from_arrow(values.as_ref()).map_err(|e| failed(name, e))
}

/// DataFusion's optional filter as the rows to keep: a filter row that is
/// false or null drops the row.
fn keep(filter: Option<&BooleanArray>) -> Option<BooleanBuffer> {
    filter.map(|f| match f.nulls() {
        Some(nulls) => f.values() & nulls.inner(),
        None => f.values().clone(),
    })
}

/// The groups an `EmitTo` takes: all, or the first `n`.
fn first(emit_to: EmitTo) -> Option<usize> {
    match emit_to {
        EmitTo::All => None,
        EmitTo::First(n) => Some(n),
    }
}

/// Results as the planned Arrow type (the accumulator's own, checked).
fn results(name: &str, array: &DecimalArray, output: &DataType) -> Result<ArrayRef> {
    let array = array.to_arrow();
    if array.data_type() != output {
        return plan_err!("{name}: results of {} where {output} was planned", array.data_type());
    }
    Ok(array)
}

/// The state read back from DataFusion's state columns.
fn state_of(name: &str, inner: &Accumulator, columns: &[ArrayRef]) -> Result<AggregateState> {
    AggregateState::from_arrow(inner.input_type(), columns).map_err(|e| failed(name, e))
}

/// The grouped form: every group's running sum and count, or extreme.
struct GroupedAccumulator {
    inner: Accumulator,
    output: DataType,
    name: &'static str,
}

impl GroupsAccumulator for GroupedAccumulator {
    fn update_batch(
        &mut self,
        values: &[ArrayRef],
        group_indices: &[usize],
        opt_filter: Option<&BooleanArray>,
        total_num_groups: usize,
    ) -> Result<()> {
        let values = argument(self.name, values)?;
        let filter = keep(opt_filter);
        self.inner
            .update(&values, group_indices, filter.as_ref(), total_num_groups)
            .map_err(|e| failed(self.name, e))
    }

    fn evaluate(&mut self, emit_to: EmitTo) -> Result<ArrayRef> {
        let finished = self.inner.finish(first(emit_to)).map_err(|e| failed(self.name, e))?;
        results(self.name, &finished, &self.output)
    }

    fn state(&mut self, emit_to: EmitTo) -> Result<Vec<ArrayRef>> {
        Ok(self.inner.state(first(emit_to)).to_arrow())
    }

    fn merge_batch(
        &mut self,
        values: &[ArrayRef],
        group_indices: &[usize],
        total_num_groups: usize,
    ) -> Result<()> {
        let state = state_of(self.name, &self.inner, values)?;
        self.inner.merge(&state, group_indices, total_num_groups).map_err(|e| failed(self.name, e))
    }

    /// Each row as a group of its own.
    fn convert_to_state(
        &self,
        values: &[ArrayRef],
        opt_filter: Option<&BooleanArray>,
    ) -> Result<Vec<ArrayRef>> {
        let values = argument(self.name, values)?;
        let filter = keep(opt_filter);
        let states = self.inner.row_states(&values, filter.as_ref());
        Ok(states.map_err(|e| failed(self.name, e))?.to_arrow())
    }

    fn size(&self) -> usize {
        size_of::<Self>() + self.inner.allocated_bytes()
    }
}

/// The whole-column form: the same accumulator with one group, 0.
#[derive(Debug)]
struct WholeAccumulator {
    inner: Accumulator,
    output: DataType,
    name: &'static str,
    /// Group indices for a batch, all 0 (`Accumulator::update` takes one per row).
    zeros: Vec<usize>,
}

/// `n` group indices, all 0, from a buffer that only grows.
fn zeros(buffer: &mut Vec<usize>, n: usize) -> &[usize] {
    if buffer.len() < n {
        buffer.resize(n, 0);
    }
    &buffer[..n]
}

impl WholeAccumulator {
    /// Makes group 0 if there is none (after `state` took it).
    fn ensure_group(&mut self) -> Result<()> {
        if self.inner.groups() == 0 {
            let failed = |e| failed(self.name, e);
            let empty = DecimalArray::from_strs(self.inner.input_type(), &[]).map_err(failed)?;
            self.inner.update(&empty, &[], None, 1).map_err(failed)?;
        }
        Ok(())
    }
}

impl RowAccumulator for WholeAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let values = argument(self.name, values)?;
        let zeros = zeros(&mut self.zeros, values.len());
        self.inner.update(&values, zeros, None, 1).map_err(|e| failed(self.name, e))
    }

    /// The result so far, leaving the running state in place (`finish` takes
    /// its groups out, so a copy of the one group is finished).
    fn evaluate(&mut self) -> Result<ScalarValue> {
        self.ensure_group()?;
        let finished = self.inner.clone().finish(None).map_err(|e| failed(self.name, e))?;
        ScalarValue::try_from_array(&results(self.name, &finished, &self.output)?, 0)
    }

    fn size(&self) -> usize {
        size_of::<Self>()
            + self.zeros.capacity() * size_of::<usize>()
            + self.inner.allocated_bytes()
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        self.ensure_group()?;
        let columns = self.inner.state(None).to_arrow();
        columns.iter().map(|c| ScalarValue::try_from_array(c, 0)).collect()
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let state = state_of(self.name, &self.inner, states)?;
        let zeros = zeros(&mut self.zeros, state.len());
        self.inner.merge(&state, zeros, 1).map_err(|e| failed(self.name, e))
    }

    /// The rows leaving a sliding frame, taken out of the exact sum and
    /// count (`sum` and `avg`; a sliding `min` or `max` is DataFusion's).
    fn retract_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let values = argument(self.name, values)?;
        let zeros = zeros(&mut self.zeros, values.len());
        self.inner.retract(&values, zeros, None).map_err(|e| failed(self.name, e))
    }

    fn supports_retract_batch(&self) -> bool {
        retracts(self.inner.op())
    }
}

/// Whether the running state of `op` can take rows out again (a sum and a
/// count can; an extreme cannot forget a row).
pub(crate) fn retracts(op: AggregateOp) -> bool {
    matches!(op, AggregateOp::Sum | AggregateOp::Avg)
}
