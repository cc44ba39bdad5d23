//! A first look at the crate: two generated columns of a million rows,
//! prices `decimal(12,2)` and quantities `decimal(10,3)`, their product, a tax
//! rounded half-up, and a division, with a few rows printed and the speed of
//! each operation.
//!
//! Run with `cargo run --release --example quickstart`.

use std::time::Instant;

use arrow_buffer::{NullBuffer, ScalarBuffer};
use decimal_kernels::{
    ArithmeticOptions, DecimalArray, DecimalError, DecimalScalar, DecimalType, RoundingMode,
    StorageWidth, div, mul,
};

const ROWS: usize = 1 << 20;

/// A small deterministic generator, so every run sees the same data.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// `ROWS` values in `1..=max` (stored integers), every 50th row null.
fn column(dtype: DecimalType, max: u64, seed: u64) -> Result<DecimalArray, DecimalError> {
    let mut rng = XorShift(seed);
    let values: Vec<i64> = (0..ROWS).map(|_| (rng.next() % max + 1) as i64).collect();
    let nulls = NullBuffer::from((0..ROWS).map(|i| i % 50 != 49).collect::<Vec<_>>());
    DecimalArray::try_new(dtype, ScalarBuffer::from(values), Some(nulls))
}

/// Runs `op`, printing its result type and speed.
fn timed(
    name: &str,
    op: impl Fn() -> Result<DecimalArray, DecimalError>,
) -> Result<DecimalArray, DecimalError> {
    op()?; // warm the caches and the allocator
    let start = Instant::now();
    let result = op()?;
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{name:<34} -> {:<15} {:>7.1} M rows/s ({:.2} ns/row)",
        result.dtype().to_string(),
        ROWS as f64 / seconds / 1e6,
        seconds * 1e9 / ROWS as f64
    );
    Ok(result)
}

fn main() -> Result<(), DecimalError> {
    let prices = column(DecimalType::try_new(12, 2)?, 9_999_999, 7)?; // up to 99,999.99 (stored in cents)
    let quantities = column(DecimalType::try_new(10, 3)?, 500_000, 11)?; // up to 500.000
    let tax_rate = DecimalScalar::parse(DecimalType::try_new(5, 4)?, "0.0825")?;

    let fixed = ArithmeticOptions::fixed_point();
    let half_up = fixed.with_rounding(RoundingMode::HalfUp);
    let arrow = ArithmeticOptions::arrow(StorageWidth::I128);

    println!("{ROWS} rows: prices {}, quantities {}\n", prices.dtype(), quantities.dtype());
    let amount = timed("amount = price * quantity", || mul(&prices, &quantities, &fixed))?;
    let tax = timed("tax = amount * 0.0825 (half up)", || mul(&amount, &tax_rate, &half_up))?;
    let unit = timed("unit = amount / quantity", || div(&amount, &quantities, &half_up))?;
    let wide = prices.with_width(StorageWidth::I128)?;
    let arrow_amount = timed("price * quantity (Arrow Decimal128)", || {
        mul(&wide, &quantities.with_width(StorageWidth::I128)?, &arrow)
    })?;

    println!(
        "\n{:>10} {:>10} {:>14} {:>12} {:>12} {:>20}",
        "price", "quantity", "amount", "tax", "unit", "amount (Arrow)"
    );
    let columns = [&prices, &quantities, &amount, &tax, &unit, &arrow_amount];
    for row in [0, 1, 2, 49, 50] {
        let cell = |c: usize| columns[c].scalar(row).map(|s| s.to_string()).unwrap_or_default();
        println!(
            "{:>10} {:>10} {:>14} {:>12} {:>12} {:>20}",
            cell(0),
            cell(1),
            cell(2),
            cell(3),
            cell(4),
            cell(5)
        );
    }
    Ok(())
}
