//! TPC-H Q1 (the pricing summary report) at scale factor 1, evaluated twice
//! over the same generated `lineitem` batches: once with arrow-rs kernels
//! alone and once with decimal-kernels, each step timed. Both answers must
//! be exactly equal, in values and types, and at scale factor 1 equal to
//! TPC-H's published answer; the program exits non-zero otherwise.
//!
//! ```text
//! cargo run --release --manifest-path examples/tpch_q1/Cargo.toml -- [--sf 1] [--batch-rows 8192] [--runs 3]
//! ```
//!
//! The query, with the validation value of its parameter (90 days):
//!
//! ```sql
//! SELECT l_returnflag, l_linestatus,
//!        sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
//!        sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
//!        sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
//!        avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price,
//!        avg(l_discount) AS avg_disc, count(*) AS count_order
//! FROM lineitem
//! WHERE l_shipdate <= date '1998-12-01' - interval '90' day
//! GROUP BY l_returnflag, l_linestatus
//! ORDER BY l_returnflag, l_linestatus
//! ```
//!
//! - [`lineitem`]: generation with tpchgen-arrow (the rows of TPC-H's
//!   `dbgen`, 6,001,215 at scale factor 1) on arrow 60, the filter and the
//!   group numbers, shared by both evaluations.
//! - [`arrow_rs`] and [`with_kernels`]: the two evaluations.
//! - [`answer`]: the exact answer, the published one and their comparison.
//! - [`timing`]: the time per step.
//!
//! At another scale factor (`--sf 0.1`) there is no published answer, and
//! only the two evaluations are compared with each other.
//!
//! Timings are the best of `--runs` runs of each evaluation (alternating),
//! single-threaded, over batches already in memory; generation is not part
//! of them. The filter is the same code in both. In the grouped aggregation
//! the arrow-rs evaluation sums five columns and divides two of those sums
//! for the averages of quantity and price, where decimal-kernels runs seven
//! accumulators, one per aggregate, each average keeping its own sum and
//! count as in DataFusion: the decimal-kernels side does more work there.

mod answer;
mod arrow_rs;
mod evaluation;
mod lineitem;
mod timing;
mod with_kernels;

use std::error::Error;
use std::process::ExitCode;
use std::thread;
use std::time::Instant;

use answer::Answer;
use timing::Steps;

/// `lineitem` rows at scale factor 1.
const SF1_ROWS: usize = 6_001_215;

/// The command line.
struct Args {
    /// TPC-H scale factor.
    sf: f64,
    /// Rows per generated batch (DataFusion's default batch size).
    batch_rows: usize,
    /// Runs of each evaluation; each step's best time is reported.
    runs: usize,
}

const USAGE: &str = "usage: tpch_q1 [--sf <scale factor, default 1>] \
                     [--batch-rows <rows, default 8192>] [--runs <n, default 3>]";

/// Reads `--sf`, `--batch-rows` and `--runs`.
fn parse_args() -> Result<Args, String> {
    let mut args = Args { sf: 1.0, batch_rows: 8192, runs: 3 };
    let mut words = std::env::args().skip(1);
    while let Some(flag) = words.next() {
        let value = words.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{flag} {value}: {e}\n{USAGE}");
        match flag.as_str() {
            "--sf" => args.sf = value.parse().map_err(|e| bad(&e))?,
            "--batch-rows" => args.batch_rows = value.parse().map_err(|e| bad(&e))?,
            "--runs" => args.runs = value.parse().map_err(|e| bad(&e))?,
            _ => return Err(format!("unknown argument {flag}\n{USAGE}")),
        }
    }
    if !(args.sf.is_finite() && args.sf > 0.0) || args.batch_rows == 0 || args.runs == 0 {
        return Err(format!("the scale factor, batch rows and runs must be positive\n{USAGE}"));
    }
    Ok(args)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Generates, evaluates, prints and checks; `Ok(false)` when an answer is wrong.
fn run() -> Result<bool, Box<dyn Error>> {
    let args = parse_args()?;
    let threads = thread::available_parallelism().map_or(1, |n| n.get());
    let start = Instant::now();
    let lineitem = lineitem::generate(args.sf, args.batch_rows, threads)?;
    println!(
        "lineitem at SF {}: {} rows in {} batches of up to {} rows, generated in {:.1} s on {threads} threads",
        args.sf,
        thousands(lineitem.rows),
        thousands(lineitem.batches.len()),
        thousands(args.batch_rows),
        start.elapsed().as_secs_f64(),
    );
    println!("columns read: {}", lineitem::column_types());
    let at_sf1 = args.sf == 1.0;
    if at_sf1 && lineitem.rows != SF1_ROWS {
        println!("expected {} rows at SF 1", thousands(SF1_ROWS));
        return Ok(false);
    }

    let mut best: Option<(Steps, Steps)> = None;
    let mut answer: Option<Answer> = None;
    for _ in 0..args.runs {
        let (by_arrow, arrow_steps) = arrow_rs::run(&lineitem)?;
        let (by_kernels, kernel_steps) = with_kernels::run(&lineitem)?;
        if by_arrow != by_kernels {
            println!("The two answers differ.\narrow-rs:\n{}", by_arrow.table());
            println!("decimal-kernels:\n{}", by_kernels.table());
            return Ok(false);
        }
        if answer.as_ref().is_some_and(|a| *a != by_arrow) {
            println!("A run's answer differs from the first run's.");
            return Ok(false);
        }
        answer = Some(by_arrow);
        best = Some(match best {
            None => (arrow_steps, kernel_steps),
            Some((a, k)) => (a.min(arrow_steps), k.min(kernel_steps)),
        });
    }
    let (Some(answer), Some((arrow_steps, kernel_steps))) = (answer, best) else {
        return Err("no run".into());
    };

    println!("\nAnswer, exact; arrow-rs and decimal-kernels return it alike, in these types:");
    println!("{}\n\n{}", answer.type_line(), answer.table());
    let correct = !at_sf1 || check_published(&answer);
    let runs =
        if args.runs == 1 { "1 run".to_string() } else { format!("best of {} runs", args.runs) };
    println!("Time per step, {runs} ({} rows in):", thousands(lineitem.rows));
    println!("{}", timing::table(arrow_steps, kernel_steps));
    Ok(correct)
}

/// Prints the comparison with the published answer; `true` when equal.
fn check_published(answer: &Answer) -> bool {
    let (marked, differences) = answer.check_published();
    println!("TPC-H's published answer (answers/q1.out), ours rounded half up to its digits:");
    println!("{marked}");
    if differences == 0 {
        println!(
            "arrow-rs and decimal-kernels: the published answer, every field of the 4 rows.\n"
        );
    } else {
        println!("Fields that differ from the published answer: {differences}.\n");
    }
    differences == 0
}

/// `n` with a comma between each group of three digits.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}
