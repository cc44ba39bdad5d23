//! `decimal_sum` and `decimal_avg`: DataFusion aggregate UDFs computed by
//! decimal-kernels' `aggregate::Accumulator` under the Arrow profile at the
//! input's width, so that their result types and values are DataFusion's own
//! `sum` and `avg` (a sum keeps the scale with ten more digits, a mean gains
//! four digits of scale and is truncated).
//!
//! - Grouped: a `GroupsAccumulator` whose `update_batch`, `merge_batch`,
//!   `state`, `evaluate` and `convert_to_state` are the accumulator's
//!   `update`, `merge`, `state` and `finish` (`EmitTo::All` is every group,
//!   `EmitTo::First(n)` the first `n`).
//! - Whole column (no `GROUP BY`): DataFusion's row `Accumulator`, the same
//!   accumulator with one group.
//! - Partial states are the three columns of `AggregateState`: the exact sum
//!   (in two parts) and the count, so partitions merge in any order with the
//!   result of one pass.
//!
//! One difference from DataFusion: a sum beyond its result precision is an
//! error here, where DataFusion's `sum` wraps silently (apache/datafusion
//! issue 16406).

use std::mem::size_of;
use std::sync::atomic::{AtomicUsize, Ordering};

use arrow::array::{Array, ArrayRef, BooleanArray};
use arrow::buffer::BooleanBuffer;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{DataFusionError, Result, ScalarValue, not_impl_err, plan_err};
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::{AggregateOrderSensitivity, format_state_name};
use datafusion::logical_expr::{
    Accumulator as RowAccumulator, AggregateUDF, AggregateUDFImpl, EmitTo, GroupsAccumulator,
    ReversedUDAF, Signature, Volatility,
};
use decimal_kernels::aggregate::{Accumulator, AggregateOp, AggregateState};
use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalError, DecimalType};

/// The aggregates registered, each as the aggregate UDF of its name.
pub const AGGREGATES: [(AggregateOp, &str); 2] =
    [(AggregateOp::Sum, "decimal_sum"), (AggregateOp::Avg, "decimal_avg")];

/// Calls of `GroupsAccumulator::merge_batch`: evidence that a query ran its
/// grouped aggregates in two phases, partial states merged.
pub static GROUPED_MERGES: AtomicUsize = AtomicUsize::new(0);

/// Calls of the row `Accumulator::merge_batch` (the whole-column form).
pub static WHOLE_MERGES: AtomicUsize = AtomicUsize::new(0);

/// Every aggregate UDF of this example.
pub fn udafs() -> impl Iterator<Item = AggregateUDF> {
    AGGREGATES.into_iter().map(|(op, name)| AggregateUDF::from(DecimalAggregate::new(op, name)))
}

/// A decimal error as a DataFusion execution error.
fn exec(error: DecimalError) -> DataFusionError {
    DataFusionError::External(Box::new(error))
}

/// The decimal type of an input and the Arrow profile at its width.
fn input_type(data_type: &DataType) -> Result<(DecimalType, ArithmeticOptions)> {
    match decimal_kernels::arrow::decimal_type(data_type) {
        Ok((t, width)) => Ok((t, ArithmeticOptions::arrow(width))),
        Err(e) => plan_err!("a decimal argument expected: {e}"),
    }
}

/// `sum` or `avg` of one decimal argument as an aggregate UDF.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct DecimalAggregate {
    name: &'static str,
    op: AggregateOp,
    signature: Signature,
}

impl DecimalAggregate {
    /// The aggregate `op` under the name `name`.
    pub fn new(op: AggregateOp, name: &'static str) -> Self {
        Self { name, op, signature: Signature::user_defined(Volatility::Immutable) }
    }

    /// An empty accumulator for the call `args` describes, with its options
    /// and the Arrow type of its results (the planned return type).
    fn accumulator_for(&self, args: &AccumulatorArgs) -> Result<GroupedAccumulator> {
        if args.is_distinct {
            return not_impl_err!("{}(DISTINCT ..)", self.name);
        }
        let [field] = args.expr_fields else {
            return plan_err!("{} takes one decimal argument", self.name);
        };
        let (input, options) = input_type(field.data_type())?;
        let inner = Accumulator::new(self.op, input, &options).map_err(exec)?;
        Ok(GroupedAccumulator { inner, options, output: args.return_type().clone() })
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
            [a] => {
                input_type(a)?;
                Ok(arg_types.to_vec())
            }
            _ => plan_err!("{} takes one decimal argument", self.name),
        }
    }

    /// `AggregateOp::result_type` under the Arrow profile, at the input's width.
    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        let [a] = arg_types else {
            return plan_err!("{} takes one decimal argument", self.name);
        };
        let (input, options) = input_type(a)?;
        let (_, width) = decimal_kernels::arrow::decimal_type(a).map_err(exec)?;
        match self.op.result_type(input, &options) {
            Ok(t) => Ok(decimal_kernels::arrow::data_type(t, width)),
            Err(e) => plan_err!("{e}"),
        }
    }

    fn accumulator(&self, args: AccumulatorArgs) -> Result<Box<dyn RowAccumulator>> {
        let GroupedAccumulator { inner, output, .. } = self.accumulator_for(&args)?;
        Ok(Box::new(WholeAccumulator { inner, output, zeros: Vec::new() }))
    }

    /// `AggregateState::fields`, named after the call.
    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        if args.is_distinct {
            return not_impl_err!("{}(DISTINCT ..)", self.name);
        }
        let [field] = args.input_fields else {
            return plan_err!("{} takes one decimal argument", self.name);
        };
        let (input, _) = input_type(field.data_type())?;
        let fields = AggregateState::fields(input).into_iter().map(|f: Field| {
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
fn argument(values: &[ArrayRef]) -> Result<DecimalArray> {
    let [values] = values else {
        return plan_err!("one decimal argument expected, {} given", values.len());
    };
    DecimalArray::from_arrow(values.as_ref()).map_err(exec)
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
fn results(array: &DecimalArray, output: &DataType) -> Result<ArrayRef> {
    let array = array.to_arrow();
    if array.data_type() != output {
        return plan_err!("results of {} where {output} was planned", array.data_type());
    }
    Ok(array)
}

/// The state read back from DataFusion's state columns.
fn state_of(inner: &Accumulator, columns: &[ArrayRef]) -> Result<AggregateState> {
    AggregateState::from_arrow(inner.input_type(), columns).map_err(exec)
}

/// The grouped form: every group's running sum and count.
struct GroupedAccumulator {
    inner: Accumulator,
    /// The options `inner` was made with.
    options: ArithmeticOptions,
    output: DataType,
}

impl GroupsAccumulator for GroupedAccumulator {
    fn update_batch(
        &mut self,
        values: &[ArrayRef],
        group_indices: &[usize],
        opt_filter: Option<&BooleanArray>,
        total_num_groups: usize,
    ) -> Result<()> {
        let values = argument(values)?;
        let filter = keep(opt_filter);
        self.inner.update(&values, group_indices, filter.as_ref(), total_num_groups).map_err(exec)
    }

    fn evaluate(&mut self, emit_to: EmitTo) -> Result<ArrayRef> {
        let finished = self.inner.finish(first(emit_to)).map_err(exec)?;
        results(&finished, &self.output)
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
        GROUPED_MERGES.fetch_add(1, Ordering::Relaxed);
        let state = state_of(&self.inner, values)?;
        self.inner.merge(&state, group_indices, total_num_groups).map_err(exec)
    }

    /// Each row as a group of its own.
    fn convert_to_state(
        &self,
        values: &[ArrayRef],
        opt_filter: Option<&BooleanArray>,
    ) -> Result<Vec<ArrayRef>> {
        let values = argument(values)?;
        let (op, input) = (self.inner.op(), self.inner.input_type());
        let mut rows = Accumulator::new(op, input, &self.options).map_err(exec)?;
        let groups: Vec<usize> = (0..values.len()).collect();
        let filter = keep(opt_filter);
        rows.update(&values, &groups, filter.as_ref(), values.len()).map_err(exec)?;
        Ok(rows.state(None).to_arrow())
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
            let empty = DecimalArray::from_strs(self.inner.input_type(), &[]).map_err(exec)?;
            self.inner.update(&empty, &[], None, 1).map_err(exec)?;
        }
        Ok(())
    }
}

impl RowAccumulator for WholeAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let values = argument(values)?;
        let zeros = zeros(&mut self.zeros, values.len());
        self.inner.update(&values, zeros, None, 1).map_err(exec)
    }

    /// The result so far, leaving the running sum in place (`finish` takes
    /// its groups out, so a copy of the one group is finished).
    fn evaluate(&mut self) -> Result<ScalarValue> {
        self.ensure_group()?;
        let finished = self.inner.clone().finish(None).map_err(exec)?;
        ScalarValue::try_from_array(&results(&finished, &self.output)?, 0)
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
        WHOLE_MERGES.fetch_add(1, Ordering::Relaxed);
        let state = state_of(&self.inner, states)?;
        let zeros = zeros(&mut self.zeros, state.len());
        self.inner.merge(&state, zeros, 1).map_err(exec)
    }
}
