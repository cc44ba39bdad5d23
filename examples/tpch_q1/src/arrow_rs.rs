//! Q1 with arrow-rs alone, as an engine built on the arrow crates would run
//! it: arrow-arith's `sub`, `add` and `mul` on `Decimal128` for the two
//! products, then per group a filter (arrow-select) of the aggregated
//! columns and arrow-arith's `sum_checked` of each, added to running sums
//! across batches; an average is its sum divided by its count with
//! arrow-arith's `div`.
//!
//! The result types are DataFusion's: the literal `1` is an `Int64` cast to
//! `Decimal128(20, 0)` beside a decimal, so `1 - l_discount` is
//! `Decimal128(23, 2)` and the products `Decimal128(38, 4)` and
//! `Decimal128(38, 6)` (arrow-arith's rules); a sum of `decimal(p, s)` is
//! `decimal(min(38, p + 10), s)` and an average
//! `decimal(min(38, p + 4), min(38, s + 4))`, truncated.

use std::error::Error;

use arrow::array::{Array, AsArray, Decimal128Array, UInt32Array};
use arrow::compute::kernels::aggregate::sum_checked;
use arrow::compute::kernels::cmp::eq;
use arrow::compute::kernels::numeric::{add, div, mul, sub};
use arrow::compute::{FilterBuilder, cast};
use arrow::datatypes::{DataType, Decimal128Type};

use crate::answer::Answer;
use crate::evaluation::{self, Arithmetic, GroupedAggregates, Products};
use crate::lineitem::{Groups, Lineitem, Q1Input};
use crate::timing::Steps;

/// The products' kernels: arrow-arith's kernels.
const ARROW_RS: Arithmetic = Arithmetic { sub, add, mul };

/// Q1 over every batch of `lineitem`, with the time of each step.
pub fn run(lineitem: &Lineitem) -> Result<(Answer, Steps), Box<dyn Error>> {
    evaluation::run(lineitem, &ARROW_RS, &mut GroupedSums::default())
}

/// The columns summed per group, in this order: `l_quantity`,
/// `l_extendedprice`, the two products, `l_discount` (the sums of quantity and
/// price serve their averages too).
const SUMMED: usize = 5;

/// Running per-group sums and row counts, indexed by group number.
#[derive(Default)]
struct GroupedSums {
    /// The stored sum of each of the [`SUMMED`] columns, per group.
    sums: Vec<[i128; SUMMED]>,
    /// Rows per group.
    counts: Vec<u64>,
    /// The type of each summed column, from the first batch.
    types: Option<[DataType; SUMMED]>,
}

impl GroupedAggregates for GroupedSums {
    /// Adds one batch: its rows' group numbers, then for each group a filter
    /// of the summed columns and their checked sums.
    fn update(
        &mut self,
        groups: &mut Groups,
        input: &Q1Input,
        products: &Products,
    ) -> Result<(), Box<dyn Error>> {
        let mut numbers = Vec::with_capacity(input.quantity.len());
        groups.assign(input, |group| numbers.push(u32::from(group)))?;
        let numbers = UInt32Array::from(numbers);
        self.sums.resize(groups.len(), [0; SUMMED]);
        self.counts.resize(groups.len(), 0);
        let columns: [&dyn Array; SUMMED] = [
            &input.quantity,
            &input.extendedprice,
            &products.disc_price,
            &products.charge,
            &input.discount,
        ];
        self.types.get_or_insert_with(|| columns.map(|c| c.data_type().clone()));
        for (group, (sums, count)) in self.sums.iter_mut().zip(&mut self.counts).enumerate() {
            let in_group = eq(&numbers, &UInt32Array::new_scalar(u32::try_from(group)?))?;
            let rows = in_group.true_count();
            if rows == 0 {
                continue;
            }
            // One selection for all five columns.
            let select = FilterBuilder::new(&in_group).optimize().build();
            for (sum, column) in sums.iter_mut().zip(columns) {
                let kept = select.filter(column)?;
                let part = sum_checked(kept.as_primitive::<Decimal128Type>())?.unwrap_or(0);
                *sum = sum.checked_add(part).ok_or("a sum overflowed i128")?;
            }
            *count += u64::try_from(rows)?;
        }
        Ok(())
    }

    /// The sums in their result types, and the averages as sum ÷ count.
    fn finish(&mut self, groups: &Groups) -> Result<Answer, Box<dyn Error>> {
        let types = self.types.as_ref().ok_or("no row passed the filter")?;
        let sums: Vec<Decimal128Array> = (0..SUMMED)
            .map(|i| sum_column(self.sums.iter().map(|s| s[i]), &types[i]))
            .collect::<Result<_, _>>()?;
        let counts = Decimal128Array::from_iter_values(self.counts.iter().map(|&c| i128::from(c)))
            .with_precision_and_scale(20, 0)?;
        let avg = |sum: &Decimal128Array, input: &DataType| -> Result<_, Box<dyn Error>> {
            // arrow-arith's quotient already has the scale s + 4 (and a wider
            // precision); the cast checks the values against DataFusion's.
            let quotient = div(sum, &counts)?;
            Ok(cast(&quotient, &avg_type(input)?)?.as_primitive::<Decimal128Type>().clone())
        };
        let avg_qty = avg(&sums[0], &types[0])?;
        let avg_price = avg(&sums[1], &types[1])?;
        let avg_disc = avg(&sums[4], &types[4])?;
        let columns = [&sums[0], &sums[1], &sums[2], &sums[3], &avg_qty, &avg_price, &avg_disc];
        Answer::new(groups, columns, &self.counts)
    }
}

/// A column of sums of an `input`-typed column, in the sum's type, each
/// value checked against its precision.
fn sum_column(
    values: impl Iterator<Item = i128>,
    input: &DataType,
) -> Result<Decimal128Array, Box<dyn Error>> {
    let DataType::Decimal128(precision, scale) = *input else {
        return Err(format!("a Decimal128 column expected, not {input}").into());
    };
    let precision = precision.saturating_add(10).min(38);
    let sums =
        Decimal128Array::from_iter_values(values).with_precision_and_scale(precision, scale)?;
    sums.validate_decimal_precision(precision)?;
    Ok(sums)
}

/// DataFusion's average type for a decimal column:
/// `decimal(min(38, p + 4), min(38, s + 4))`.
fn avg_type(input: &DataType) -> Result<DataType, Box<dyn Error>> {
    match *input {
        DataType::Decimal128(p, s) => {
            Ok(DataType::Decimal128(p.saturating_add(4).min(38), s.saturating_add(4).min(38)))
        }
        _ => Err(format!("a Decimal128 column expected, not {input}").into()),
    }
}
