//! Q1 with decimal-kernels, on the same Arrow batches: the products with
//! `decimal_kernels::arrow`'s drop-ins for arrow-arith (the same arrays in,
//! the same types and values out), and the grouped sums and averages with
//! the crate's aggregate API: one [`Accumulator`] per aggregate, as a
//! DataFusion `GroupsAccumulator` is used, updated batch by batch with the
//! group number of each row and finished once.
//!
//! The accumulators use the Arrow profile at `Decimal128`, so their result
//! types are DataFusion's (sum `decimal(min(38, p + 10), s)`, average
//! `decimal(min(38, p + 4), min(38, s + 4))` truncated); their input types are
//! planned up front from the column types, as a query planner does, and each
//! update checks the batch against them.

use std::error::Error;

use arrow::array::{Array, AsArray, Decimal128Array};
use arrow::datatypes::Decimal128Type;
use decimal_kernels::aggregate::{Accumulator, AggregateOp};
use decimal_kernels::arrow::{add, decimal_type, mul, sub};
use decimal_kernels::{ArithmeticOptions, BinaryOp, DecimalArray, DecimalType, StorageWidth};

use crate::answer::{AGGREGATES, Answer};
use crate::evaluation::{self, Arithmetic, GroupedAggregates, Products};
use crate::lineitem::{Groups, Lineitem, MONEY, Q1Input, one};
use crate::timing::Steps;

/// The products' kernels: decimal-kernels' Arrow drop-ins.
const DECIMAL_KERNELS: Arithmetic = Arithmetic { sub, add, mul };

/// Q1 over every batch of `lineitem`, with the time of each step.
pub fn run(lineitem: &Lineitem) -> Result<(Answer, Steps), Box<dyn Error>> {
    evaluation::run(lineitem, &DECIMAL_KERNELS, &mut Aggregates::new()?)
}

/// Each of [`AGGREGATES`] as an aggregate of an input column: `l_quantity`,
/// `l_extendedprice`, the two products and `l_discount`, numbered as in
/// [`Aggregates::update`].
const PLAN: [(AggregateOp, usize); 7] = [
    (AggregateOp::Sum, 0),
    (AggregateOp::Sum, 1),
    (AggregateOp::Sum, 2),
    (AggregateOp::Sum, 3),
    (AggregateOp::Avg, 0),
    (AggregateOp::Avg, 1),
    (AggregateOp::Avg, 4),
];

/// The running aggregates of all groups.
struct Aggregates {
    /// One per entry of [`PLAN`].
    accumulators: [Accumulator; 7],
    /// Rows per group (`count(*)`, not a decimal aggregate).
    counts: Vec<u64>,
}

impl Aggregates {
    /// Plans the input types and makes the accumulators.
    fn new() -> Result<Self, Box<dyn Error>> {
        let options = ArithmeticOptions::arrow(StorageWidth::I128);
        let inputs = input_types(&options)?;
        let accumulators: Vec<Accumulator> = PLAN
            .iter()
            .map(|&(op, column)| Accumulator::new(op, inputs[column], &options))
            .collect::<Result<_, _>>()?;
        let accumulators = accumulators.try_into().map_err(|_| "seven accumulators")?;
        Ok(Self { accumulators, counts: Vec::new() })
    }
}

impl GroupedAggregates for Aggregates {
    /// Adds one batch: its rows' group numbers, computed once and shared by
    /// the seven accumulators, then each accumulator's update.
    fn update(
        &mut self,
        groups: &mut Groups,
        input: &Q1Input,
        products: &Products,
    ) -> Result<(), Box<dyn Error>> {
        let mut numbers = Vec::with_capacity(input.quantity.len());
        groups.assign(input, |group| numbers.push(usize::from(group)))?;
        let total_groups = groups.len();
        self.counts.resize(total_groups, 0);
        for &group in &numbers {
            if let Some(count) = self.counts.get_mut(group) {
                *count += 1;
            }
        }
        // Zero-copy views of the Arrow columns, numbered as in `PLAN`.
        let columns = [
            DecimalArray::from_arrow(&input.quantity)?,
            DecimalArray::from_arrow(&input.extendedprice)?,
            DecimalArray::from_arrow(products.disc_price.as_ref())?,
            DecimalArray::from_arrow(products.charge.as_ref())?,
            DecimalArray::from_arrow(&input.discount)?,
        ];
        for (accumulator, &(_, column)) in self.accumulators.iter_mut().zip(&PLAN) {
            // The rows were filtered already: no filter here.
            accumulator.update(&columns[column], &numbers, None, total_groups)?;
        }
        Ok(())
    }

    /// Every group's results, as Arrow arrays.
    fn finish(&mut self, groups: &Groups) -> Result<Answer, Box<dyn Error>> {
        let results: Vec<Decimal128Array> = (self.accumulators.iter_mut())
            .zip(AGGREGATES)
            .map(|(accumulator, name)| {
                let result = accumulator.finish(None)?.to_arrow();
                let result = result.as_primitive_opt::<Decimal128Type>().cloned();
                result.ok_or_else(|| format!("{name}: a Decimal128 result expected").into())
            })
            .collect::<Result<_, Box<dyn Error>>>()?;
        let results: [Decimal128Array; 7] = results.try_into().map_err(|_| "seven results")?;
        Answer::new(groups, results.each_ref(), &self.counts)
    }
}

/// The types of the five aggregated columns, as a planner derives them from
/// the table's column types under the Arrow profile (arrow-arith's rules).
fn input_types(options: &ArithmeticOptions) -> Result<[DecimalType; 5], Box<dyn Error>> {
    let (money, _) = decimal_type(&MONEY)?;
    let (one, _) = decimal_type(one()?.into_inner().data_type())?;
    let less_discount = BinaryOp::Sub.result_type(one, money, options)?;
    let plus_tax = BinaryOp::Add.result_type(one, money, options)?;
    let disc_price = BinaryOp::Mul.result_type(money, less_discount, options)?;
    let charge = BinaryOp::Mul.result_type(disc_price, plus_tax, options)?;
    Ok([money, money, disc_price, charge, money])
}
