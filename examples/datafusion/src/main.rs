//! decimal-kernels in DataFusion, as user-defined functions:
//!
//! - scalar UDFs (`scalar.rs`): `decimal_add`, `decimal_sub`, `decimal_mul`
//!   and `decimal_div` under the FixedPoint profile (any decimal argument
//!   types, results at the larger scale), and `arrow_add`, `arrow_sub` and
//!   `arrow_mul` under the Arrow profile (DataFusion's own result types and
//!   values);
//! - aggregate UDFs (`aggregates.rs`): `decimal_sum` and `decimal_avg`, with
//!   a `GroupsAccumulator` and partial states that merge across partitions,
//!   with DataFusion's own result types and values.
//!
//! It runs two things, and fails on any difference:
//!
//! 1. SQL over a generated million-row Parquet file: every FixedPoint result
//!    row against the crate's exact reference, every Arrow-profile result
//!    against DataFusion's own operator.
//! 2. TPC-H Q1 over a generated SF 1 `lineitem` (`q1.rs`), with DataFusion's
//!    operators and aggregates and then with this crate's, at 1, 2 and 4
//!    target partitions: both answers identical, and equal to the published
//!    SF 1 answer; then a table of their timings.
//!
//! `Q1_SF` sets another scale factor (the published answer is checked at 1
//! only), `Q1_REPS` the runs per query (the median is shown; default 5 in a
//! release build, 1 in a debug build).

use std::fs::File;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use arrow::array::{Array, ArrayRef, Decimal128Array, RecordBatch};
use arrow::datatypes::{DataType, Field, Schema};
use datafusion::prelude::{ParquetReadOptions, SessionContext};
use decimal_kernels::{ArithmeticOptions, BinaryOp, DecimalArray, DecimalScalar, conformance};
use parquet::arrow::ArrowWriter;

mod aggregates;
mod q1;
mod scalar;

/// A boxed error, for the example's own failures.
type Error = Box<dyn std::error::Error + Send + Sync>;

/// Rows in the generated file.
const ROWS: usize = 1_000_000;
/// Rows per written record batch.
const BATCH: usize = 65_536;

/// SplitMix64, for reproducible data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `-bound..=bound`, or in `1..=bound` when `positive`.
    fn value(&mut self, bound: i128, positive: bool) -> i128 {
        let span = if positive { bound } else { 2 * bound + 1 };
        let v = i128::from(self.next()) % span;
        if positive { v + 1 } else { v - bound }
    }
}

/// A column of `len` values of `Decimal128(p, s)`, about one row in 50 null.
fn column(
    rng: &mut Rng,
    len: usize,
    (p, s): (u8, i8),
    bound: i128,
    positive: bool,
) -> std::result::Result<ArrayRef, arrow::error::ArrowError> {
    let values: Vec<Option<i128>> = (0..len)
        .map(|_| (!rng.next().is_multiple_of(50)).then(|| rng.value(bound, positive)))
        .collect();
    Ok(Arc::new(Decimal128Array::from(values).with_precision_and_scale(p, s)?))
}

/// Writes the Parquet file: `price decimal(12,2)` up to ±10,000.00,
/// `qty decimal(10,3)` up to ±1,000.000, `rate decimal(5,4)` in 0.0001..=9.9999
/// (never zero), 2% nulls in each.
fn write_parquet(path: &Path) -> Result<(), Error> {
    let schema = Arc::new(Schema::new(vec![
        Field::new("price", DataType::Decimal128(12, 2), true),
        Field::new("qty", DataType::Decimal128(10, 3), true),
        Field::new("rate", DataType::Decimal128(5, 4), true),
    ]));
    let mut writer = ArrowWriter::try_new(File::create(path)?, schema.clone(), None)?;
    let mut rng = Rng(42);
    let mut written = 0;
    while written < ROWS {
        let len = BATCH.min(ROWS - written);
        let columns = vec![
            column(&mut rng, len, (12, 2), 1_000_000, false)?,
            column(&mut rng, len, (10, 3), 1_000_000, false)?,
            column(&mut rng, len, (5, 4), 99_999, true)?,
        ];
        writer.write(&RecordBatch::try_new(schema.clone(), columns)?)?;
        written += len;
    }
    writer.close()?;
    Ok(())
}

/// The first query's FixedPoint results: each operator's operands and result.
const CHECKS: [(BinaryOp, usize, usize, usize); 4] = [
    (BinaryOp::Add, 0, 1, 3),
    (BinaryOp::Sub, 0, 2, 4),
    (BinaryOp::Mul, 0, 1, 5),
    (BinaryOp::Div, 0, 2, 6),
];

/// The scalar UDFs over the Parquet file: every FixedPoint result against
/// the exact reference, every Arrow-profile result against DataFusion's own
/// operator.
async fn scalar_udfs() -> Result<(), Error> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("orders.parquet");
    let started = Instant::now();
    write_parquet(&path)?;
    println!("wrote {ROWS} rows to {} in {:.1?}", path.display(), started.elapsed());

    let ctx = SessionContext::new();
    for udf in scalar::udfs() {
        ctx.register_udf(udf);
    }
    let file = path.to_str().ok_or("temporary path is not UTF-8")?;
    ctx.register_parquet("orders", file, ParquetReadOptions::default()).await?;

    let sql = "SELECT price, qty, rate, \
               decimal_add(price, qty) AS total, \
               decimal_sub(price, rate) AS net, \
               decimal_mul(price, qty) AS amount, \
               decimal_div(price, rate) AS per_rate, \
               decimal_mul(price, CAST(1.08 AS DECIMAL(3, 2))) AS taxed, \
               arrow_add(price, qty), price + qty, \
               arrow_sub(1, rate), 1 - rate, \
               arrow_mul(price, qty), price * qty, \
               arrow_mul(price, CAST(1.08 AS DECIMAL(3, 2))), price * CAST(1.08 AS DECIMAL(3, 2)) \
               FROM orders";
    let started = Instant::now();
    let batches = ctx.sql(sql).await?.collect().await?;
    println!("ran the query in {:.1?}", started.elapsed());

    let first = batches.first().ok_or("no result batches")?;
    let schema = first.schema();
    let names: Vec<String> =
        schema.fields().iter().take(8).map(|f| format!("{} {}", f.name(), f.data_type())).collect();
    println!("{}", names.join(" | "));
    let decimals = |batch: &RecordBatch| -> std::result::Result<Vec<DecimalArray>, _> {
        batch.columns().iter().map(|c| DecimalArray::from_arrow(c.as_ref())).collect()
    };
    let shown = decimals(first)?;
    for row in 0..first.num_rows().min(5) {
        let cells: Vec<String> =
            shown.iter().take(8).filter_map(|c| c.scalar(row)).map(|v| v.to_string()).collect();
        println!("{}", cells.join(" | "));
    }

    // Every row of every result against the exact reference, or DataFusion's.
    let started = Instant::now();
    let mut rows = 0;
    let options = ArithmeticOptions::fixed_point();
    let tax = DecimalScalar::parse(decimal_kernels::DecimalType::try_new(3, 2)?, "1.08")?;
    for batch in &batches {
        let columns = decimals(batch)?;
        for (op, l, r, result) in CHECKS {
            let (lhs, rhs, got) = (&columns[l], &columns[r], &columns[result]);
            conformance::compare(op, lhs, rhs, &options, &Ok(got.clone()))?;
        }
        // A literal argument reaches the UDF as a scalar.
        conformance::compare(BinaryOp::Mul, &columns[0], &tax, &options, &Ok(columns[7].clone()))?;
        for pair in (8..batch.num_columns()).step_by(2) {
            let (ours, theirs) = (batch.column(pair), batch.column(pair + 1));
            if ours.data_type() != theirs.data_type() || ours.to_data() != theirs.to_data() {
                let name = schema.field(pair).name();
                return Err(format!("{name} differs from DataFusion's own operator").into());
            }
        }
        rows += batch.num_rows();
    }
    if rows != ROWS {
        return Err(format!("{rows} rows returned, {ROWS} expected").into());
    }
    println!(
        "checked {rows} rows x {} FixedPoint results against the reference and {} Arrow-profile \
         results against DataFusion's operators in {:.1?}: all equal",
        CHECKS.len() + 1,
        (first.num_columns() - 8) / 2,
        started.elapsed()
    );
    Ok(())
}

/// A number from the environment variable `name`, or `default`.
fn setting<T: std::str::FromStr>(name: &str, default: T) -> Result<T, Error> {
    match std::env::var(name) {
        Ok(text) => text.parse().map_err(|_| format!("{name}={text} is not a number").into()),
        Err(_) => Ok(default),
    }
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    scalar_udfs().await?;

    // TPC-H Q1 both ways: SF 1 unless `Q1_SF` says otherwise; the median of
    // `Q1_REPS` runs (5 in a release build, 1 in a debug build).
    let sf = setting("Q1_SF", 1.0)?;
    let reps = setting("Q1_REPS", if cfg!(debug_assertions) { 1 } else { 5 })?;
    let partitions = [1, 2, 4];
    let timings = q1::run_all(sf, &partitions, reps).await?;
    println!("Q1 at SF {sf}, median of {reps} runs each (ms):");
    println!("| query | target partitions | DataFusion's own | decimal-kernels | ratio |");
    println!("|---|---:|---:|---:|---:|");
    for t in timings {
        println!(
            "| Q1 | {} | {:.1} | {:.1} | {:.2}x |",
            t.partitions,
            t.datafusion_ms,
            t.kernels_ms,
            t.datafusion_ms / t.kernels_ms
        );
    }
    Ok(())
}
