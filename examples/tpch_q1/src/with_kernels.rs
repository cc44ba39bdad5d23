//! Q1 with decimal-kernels: the products with `decimal_kernels::arrow`'s
//! drop-ins for arrow-arith (the same Arrow arrays in, the same types and
//! values out), the grouped sums and averages with the crate's aggregate
//! API (to come).

use std::error::Error;

use arrow::array::ArrayRef;
use decimal_kernels::arrow::{add, mul, sub};

use crate::answer::Answer;
use crate::lineitem::{Lineitem, Q1Input, filter, one};
use crate::timing::{Step, Steps};

/// Q1 over every batch of `lineitem`, with the time of each step.
pub fn run(lineitem: &Lineitem) -> Result<(Answer, Steps), Box<dyn Error>> {
    let mut steps = Steps::default();
    for batch in &lineitem.batches {
        let input = steps.time(Step::Filter, || filter(batch))?;
        let _products = steps.time(Step::Products, || products(&input))?;
    }
    Err("the grouped aggregation with decimal-kernels is not written yet".into())
}

/// The two products of one batch.
struct Products {
    /// `l_extendedprice * (1 - l_discount)`, `Decimal128(38, 4)`.
    #[expect(dead_code, reason = "aggregated once the aggregate API is in")]
    disc_price: ArrayRef,
    /// `l_extendedprice * (1 - l_discount) * (1 + l_tax)`, `Decimal128(38, 6)`.
    #[expect(dead_code, reason = "aggregated once the aggregate API is in")]
    charge: ArrayRef,
}

/// Both products with decimal-kernels' Arrow drop-ins.
fn products(input: &Q1Input) -> Result<Products, Box<dyn Error>> {
    let one = one()?;
    let disc_price = mul(&input.extendedprice, &sub(&one, &input.discount)?)?;
    let charge = mul(&disc_price, &add(&one, &input.tax)?)?;
    Ok(Products { disc_price, charge })
}
