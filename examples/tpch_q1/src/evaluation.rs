//! What the two evaluations of Q1 share: the loop over the batches with each
//! step timed, and the two products, computed with whichever decimal
//! kernels an evaluation brings (arrow-arith's, or decimal-kernels' drop-ins
//! for them: the same signatures).

use std::error::Error;

use arrow::array::{ArrayRef, Datum};
use arrow::error::ArrowError;

use crate::answer::Answer;
use crate::lineitem::{Groups, Lineitem, Q1Input, filter, one};
use crate::timing::{Step, Steps};

/// A binary decimal kernel on Arrow data, as arrow-arith's `numeric` ones.
pub type Kernel = fn(&dyn Datum, &dyn Datum) -> Result<ArrayRef, ArrowError>;

/// The kernels of the products.
pub struct Arithmetic {
    /// `a - b`.
    pub sub: Kernel,
    /// `a + b`.
    pub add: Kernel,
    /// `a * b`.
    pub mul: Kernel,
}

/// The two products of one batch.
pub struct Products {
    /// `l_extendedprice * (1 - l_discount)`, `Decimal128(38, 4)`.
    pub disc_price: ArrayRef,
    /// `l_extendedprice * (1 - l_discount) * (1 + l_tax)`, `Decimal128(38, 6)`.
    pub charge: ArrayRef,
}

/// An evaluation's grouped aggregates, batch by batch.
pub trait GroupedAggregates {
    /// Adds one batch (filtered, with its products).
    fn update(
        &mut self,
        groups: &mut Groups,
        input: &Q1Input,
        products: &Products,
    ) -> Result<(), Box<dyn Error>>;

    /// The answer, once every batch was added.
    fn finish(&mut self, groups: &Groups) -> Result<Answer, Box<dyn Error>>;
}

/// Q1 over every batch of `lineitem`, with the time of each step.
pub fn run(
    lineitem: &Lineitem,
    arithmetic: &Arithmetic,
    aggregates: &mut impl GroupedAggregates,
) -> Result<(Answer, Steps), Box<dyn Error>> {
    let mut steps = Steps::default();
    let mut groups = Groups::new();
    for batch in &lineitem.batches {
        let input = steps.time(Step::Filter, || filter(batch))?;
        let products = steps.time(Step::Products, || products(&input, arithmetic))?;
        steps.time(Step::Aggregate, || aggregates.update(&mut groups, &input, &products))?;
    }
    let answer = steps.time(Step::Aggregate, || aggregates.finish(&groups))?;
    Ok((answer, steps))
}

/// Both products of a batch.
fn products(input: &Q1Input, k: &Arithmetic) -> Result<Products, Box<dyn Error>> {
    let one = one()?;
    let disc_price = (k.mul)(&input.extendedprice, &(k.sub)(&one, &input.discount)?)?;
    let charge = (k.mul)(&disc_price, &(k.add)(&one, &input.tax)?)?;
    Ok(Products { disc_price, charge })
}
