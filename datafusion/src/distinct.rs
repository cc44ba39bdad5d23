//! `sum(DISTINCT x)` and `avg(DISTINCT x)` of a decimal, where DataFusion
//! keeps them as `DISTINCT` aggregates (next to other aggregates; alone,
//! its optimizer turns them into a grouping and a plain `decimal_sum`): the
//! distinct values met, kept exactly whatever the input's width, then added
//! by decimal-kernels' accumulator once, when the result is asked for. So
//! the result type, the overflow error (or null) and the rounding of a mean
//! are those of the plain aggregate over the distinct values.
//!
//! A partial state is one list of a partition's distinct values, as
//! `Decimal256` of the input's precision and scale. (`min` and `max` of
//! distinct values are the extremes of all values: the rewrite drops their
//! `DISTINCT`.)

use std::collections::HashSet;
use std::mem::size_of;
use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Decimal256Array, ListArray};
use datafusion::arrow::buffer::OffsetBuffer;
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Decimal256Type, Field, i256};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::Accumulator as RowAccumulator;
use decimal_kernels::aggregate::Accumulator;
use decimal_kernels::{DecimalArray, DecimalType};

use crate::values::failed;

/// The type the distinct values are kept at: `Decimal256` of the input's
/// precision and scale (a widening, exact for every input width).
fn kept_type(input: DecimalType) -> DataType {
    DataType::Decimal256(input.precision(), input.scale())
}

/// The type of the one state column: a list of distinct values.
pub(crate) fn state_type(input: DecimalType) -> DataType {
    DataType::List(Arc::new(Field::new_list_field(kept_type(input), true)))
}

/// The distinct values of one aggregate over the whole input.
#[derive(Debug)]
pub(crate) struct DistinctAccumulator {
    /// An empty accumulator of the aggregate, finished over the values.
    inner: Accumulator,
    /// The planned result type.
    output: DataType,
    name: &'static str,
    seen: HashSet<i256>,
}

impl DistinctAccumulator {
    /// No values yet, for `inner`'s aggregate and input type.
    pub(crate) fn new(inner: Accumulator, output: DataType, name: &'static str) -> Self {
        Self { inner, output, name, seen: HashSet::new() }
    }

    /// Adds the valid values of `values`, of the input's type (or a list's
    /// values, at the kept type).
    fn insert(&mut self, values: &dyn Array) -> Result<()> {
        let kept = cast(values, &kept_type(self.inner.input_type()))?;
        self.seen.extend(kept.as_primitive::<Decimal256Type>().iter().flatten());
        Ok(())
    }

    /// The distinct values as one column of the kept type.
    fn values(&self) -> Result<Decimal256Array> {
        let input = self.inner.input_type();
        let values = Decimal256Array::from_iter_values(self.seen.iter().copied());
        Ok(values.with_precision_and_scale(input.precision(), input.scale())?)
    }
}

impl RowAccumulator for DistinctAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let [values] = values else {
            return plan_err!("{}: one decimal argument expected", self.name);
        };
        self.insert(values.as_ref())
    }

    /// The plain aggregate over the distinct values.
    fn evaluate(&mut self) -> Result<ScalarValue> {
        let failed = |e| failed(self.name, e);
        let values = self.values()?;
        let column = DecimalArray::from_arrow(&values).map_err(failed)?;
        let mut aggregate = self.inner.clone();
        aggregate.update(&column, &vec![0; column.len()], None, 1).map_err(failed)?;
        let finished = aggregate.finish(None).map_err(failed)?.to_arrow();
        if finished.data_type() != &self.output {
            let planned = &self.output;
            return plan_err!(
                "{}: a {} result where {planned} was planned",
                self.name,
                finished.data_type()
            );
        }
        ScalarValue::try_from_array(&finished, 0)
    }

    fn size(&self) -> usize {
        size_of::<Self>() + self.seen.capacity() * size_of::<i256>() + self.inner.allocated_bytes()
    }

    /// One row: the list of the distinct values.
    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let values = self.values()?;
        let field = Arc::new(Field::new_list_field(values.data_type().clone(), true));
        let offsets = OffsetBuffer::from_lengths([values.len()]);
        let list = ListArray::try_new(field, offsets, Arc::new(values), None)?;
        Ok(vec![ScalarValue::List(Arc::new(list))])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let [lists] = states else {
            return plan_err!("{}: one list of distinct values expected", self.name);
        };
        let lists = lists.as_list::<i32>();
        for row in (0..lists.len()).filter(|&row| lists.is_valid(row)) {
            self.insert(lists.value(row).as_ref())?;
        }
        Ok(())
    }
}
