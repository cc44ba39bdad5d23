//! A first look at the crate: two generated columns of a million rows,
//! prices `decimal(12,2)` and quantities `decimal(10,3)`, their product, a tax
//! rounded half-up, and a division, then the same product on Arrow
//! `Decimal128` arrays beside arrow-arith's, with a few rows printed and the
//! speed of each operation, and that product timed side by side with
//! arrow-arith's in 8,192-row batches and on the whole column.
//!
//! Run with `cargo run --release -p quickstart`.

use std::error::Error;
use std::time::Instant;

use arrow_array::{Array, ArrayRef};
use decimal_kernels::{
    ArithmeticOptions, DecimalArray, DecimalError, DecimalScalar, DecimalType, RoundingMode,
    StorageWidth, div, mul,
};

const ROWS: usize = 1 << 20;
/// Rows per batch, as engines hand columns to kernels.
const BATCH: usize = 8_192;

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
    let valid: Vec<bool> = (0..ROWS).map(|i| i % 50 != 49).collect();
    // The vectors become Arrow buffers: the values as they are, the validity
    // as a bitmap.
    DecimalArray::try_new(dtype, values.into(), Some(valid.into()))
}

/// Runs `op` twice (the first run warms the caches and the allocator) and
/// prints the speed of the second and its result type, `kind`; only `op` is
/// timed.
fn timed<T, E>(
    name: &str,
    op: impl Fn() -> Result<T, E>,
    kind: impl Fn(&T) -> String,
) -> Result<T, E> {
    op()?;
    let start = Instant::now();
    let result = op()?;
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{name:<38} -> {:<19} {:>7.1} M rows/s ({:.2} ns/row)",
        kind(&result),
        ROWS as f64 / seconds / 1e6,
        seconds * 1e9 / ROWS as f64
    );
    Ok(result)
}

/// Times `ours` and arrow-arith's `theirs` over `rows` rows, alternately,
/// seven runs each after a warm-up, and prints each side's median time per
/// row and the ratio of the medians: alternating keeps a noisy neighbour
/// from landing on one side only.
fn side_by_side(
    name: &str,
    rows: usize,
    mut ours: impl FnMut() -> Result<(), Box<dyn Error>>,
    mut theirs: impl FnMut() -> Result<(), Box<dyn Error>>,
) -> Result<(), Box<dyn Error>> {
    const RUNS: usize = 7;
    ours()?;
    theirs()?;
    let time = |f: &mut dyn FnMut() -> Result<(), Box<dyn Error>>| {
        let start = Instant::now();
        f().map(|()| start.elapsed().as_secs_f64() * 1e9 / rows as f64)
    };
    let (mut ours_ns, mut theirs_ns) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        ours_ns.push(time(&mut ours)?);
        theirs_ns.push(time(&mut theirs)?);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (ours_ns, theirs_ns) = (median(&mut ours_ns), median(&mut theirs_ns));
    println!(
        "{name:<30} ours {ours_ns:>6.2} ns/row, arrow-arith {theirs_ns:>6.2} ns/row: {:.2}x",
        theirs_ns / ours_ns
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let prices = column(DecimalType::try_new(12, 2)?, 9_999_999, 7)?; // up to 99,999.99 (stored in cents)
    let quantities = column(DecimalType::try_new(10, 3)?, 500_000, 11)?; // up to 500.000
    let tax_rate = DecimalScalar::parse(DecimalType::try_new(5, 4)?, "0.0825")?;

    // FixedPoint, the default profile, keeps the operands' scale: decimal(p1,s1)
    // op decimal(p2,s2) has scale s = max(s1, s2) and precision
    // max(p1 - s1, p2 - s2) + s (at most 76), so the amount is decimal(13,3);
    // digits beyond s are rounded (toward zero unless `with_rounding` says
    // otherwise), and results are stored at the narrowest width that holds them.
    // For arrow-rs's result types and values instead (a product at scale
    // s1 + s2, a quotient at s1 + 4, truncated), choose `Semantics::Arrow` with
    // `ArithmeticOptions::arrow(width)`, or call `decimal_kernels::arrow::{add,
    // sub, mul, div}` on Arrow arrays, which use it.
    let fixed = ArithmeticOptions::fixed_point();
    let half_up = fixed.with_rounding(RoundingMode::HalfUp);
    let dtype = |a: &DecimalArray| a.dtype().to_string();

    // The kernels' loops run in the best copy this CPU has (`avx512`, `avx2`
    // or `portable`); `DECIMAL_KERNELS_ISA` caps it.
    println!("kernels' copy: {}", decimal_kernels::active_isa());
    println!("{ROWS} rows: prices {}, quantities {}\n", prices.dtype(), quantities.dtype());
    let amount = timed("amount = price * quantity", || mul(&prices, &quantities, &fixed), dtype)?;
    let tax =
        timed("tax = amount * 0.0825 (half up)", || mul(&amount, &tax_rate, &half_up), dtype)?;
    let unit = timed("unit = amount / quantity", || div(&amount, &quantities, &half_up), dtype)?;

    // The same columns as Arrow Decimal128 arrays (widened once, untimed).
    let arrow_prices = prices.with_width(StorageWidth::I128)?.to_arrow();
    let arrow_quantities = quantities.with_width(StorageWidth::I128)?.to_arrow();
    let arrow_type = |a: &ArrayRef| a.data_type().to_string();
    let ours = timed(
        "price * quantity (arrow::mul)",
        || decimal_kernels::arrow::mul(&arrow_prices, &arrow_quantities),
        arrow_type,
    )?;
    let theirs = timed(
        "price * quantity (arrow-arith)",
        || arrow_arith::numeric::mul(&arrow_prices, &arrow_quantities),
        arrow_type,
    )?;
    assert_eq!(ours.to_data(), theirs.to_data(), "the same type and values as arrow-arith");
    let arrow_amount = DecimalArray::from_arrow(&ours)?;

    // Side by side, each output fresh: in batches of 8,192 rows, as an
    // engine calls a kernel, and on the whole column.
    println!(
        "\nprice * quantity, Decimal128, arrow::mul against arrow-arith (copy {}):",
        decimal_kernels::active_isa()
    );
    let batches: Vec<(ArrayRef, ArrayRef)> = (0..ROWS)
        .step_by(BATCH)
        .map(|at| {
            let len = BATCH.min(ROWS - at);
            (arrow_prices.slice(at, len), arrow_quantities.slice(at, len))
        })
        .collect();
    side_by_side(
        &format!("{BATCH}-row batches"),
        ROWS,
        || {
            for (p, q) in &batches {
                drop(decimal_kernels::arrow::mul(p, q)?);
            }
            Ok(())
        },
        || {
            for (p, q) in &batches {
                drop(arrow_arith::numeric::mul(p, q)?);
            }
            Ok(())
        },
    )?;
    side_by_side(
        &format!("the {ROWS}-row column"),
        ROWS,
        || {
            decimal_kernels::arrow::mul(&arrow_prices, &arrow_quantities)
                .map(drop)
                .map_err(Into::into)
        },
        || {
            arrow_arith::numeric::mul(&arrow_prices, &arrow_quantities)
                .map(drop)
                .map_err(Into::into)
        },
    )?;

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
