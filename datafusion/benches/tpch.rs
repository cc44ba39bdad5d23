//! TPC-H's 22 queries at scale factor `TPCH_SF` (1 by default) over
//! `tpchgen-arrow` data in memory, each run `TPCH_RUNS` times (5 by default)
//! on a context without and one with `register`, alternating, on the
//! machine's cores as target partitions. Prints a Markdown table: the median
//! time of each query both ways and their ratio, then the totals.
//!
//! `cargo bench --bench tpch` (a release build; the answers are compared in
//! `tests/tpch.rs`, here that both ways return the same row count, and at
//! SF 1 that Q1's answer with `register` is TPC-H's published one).
//!
//! `TPCH_QUERIES=1,18,20` runs only those queries; `TPCH_AA=1` runs two
//! plain contexts against each other, whose ratios are the spread of the
//! measurement itself; `TPCH_EXPLAIN=1` prints the physical plans both ways
//! instead; `TPCH_PLAN=1` times the planning alone (SQL to physical plan). The loop copy is `DECIMAL_KERNELS_ISA`'s (printed).

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use datafusion::arrow::util::display::array_value_to_string;
use datafusion::error::Result;
use datafusion::prelude::SessionContext;
use support::{context, is_query, tpch_statements, tpch_tables};

/// The time of one run of query `n`, and its row count; with `plan_only`,
/// of planning its query (SQL to physical plan, the rewrite included), with
/// no rows.
async fn time(ctx: &SessionContext, n: usize, plan_only: bool) -> Result<(Duration, usize)> {
    let start = Instant::now();
    let mut rows = 0;
    for statement in tpch_statements(n) {
        let frame = ctx.sql(&statement).await?;
        if plan_only && is_query(&statement) {
            frame.create_physical_plan().await?;
            continue;
        }
        let batches = frame.collect().await?;
        if is_query(&statement) {
            rows = batches.iter().map(|b| b.num_rows()).sum();
        }
    }
    Ok((start.elapsed(), rows))
}

/// TPC-H's published SF 1 answer to Q1 (`answers/q1.out` of the TPC-H
/// tools): each value rounded half up to two decimals.
const Q1_PUBLISHED: [&str; 4] = [
    "A|F|37734107.00|56586554400.73|53758257134.87|55909065222.83|25.52|38273.13|0.05|1478493",
    "N|F|991417.00|1487504710.38|1413082168.05|1469649223.19|25.52|38284.47|0.05|38854",
    "N|O|74476040.00|111701729697.74|106118230307.61|110367043872.50|25.50|38249.12|0.05|2920374",
    "R|F|37719753.00|56568041380.90|53741292684.60|55889619119.83|25.51|38250.85|0.05|1478870",
];

/// A decimal's text rounded half up (away from zero) to two decimals; any
/// other text as it is.
fn two_decimals(text: &str) -> String {
    let Some((int, frac)) = text.split_once('.') else {
        return text.to_string();
    };
    let (negative, int) = match int.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, int),
    };
    let digits = format!("{int}{:0<2}", &frac[..frac.len().min(2)]);
    let mut hundredths: u128 = digits.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    if frac.as_bytes().get(2).is_some_and(|d| *d >= b'5') {
        hundredths += 1;
    }
    let sign = if negative && hundredths > 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", hundredths / 100, hundredths % 100)
}

/// Q1's answer on `ctx`, checked against [`Q1_PUBLISHED`]: the query
/// with TPC-H's validation parameter, `DELTA` = 90 days (DataFusion's
/// benchmark text takes 68).
async fn check_q1_published(ctx: &SessionContext) -> Result<()> {
    let statements = tpch_statements(1);
    let benchmark = "interval '68 days'";
    assert!(statements[0].contains(benchmark), "Q1's text names {benchmark}");
    let validation = statements[0].replace(benchmark, "interval '90 days'");
    let batches = ctx.sql(&validation).await?.collect().await?;
    let mut rows = Vec::new();
    for batch in &batches {
        for row in 0..batch.num_rows() {
            let cells: Result<Vec<String>, _> = batch
                .columns()
                .iter()
                .map(|c| array_value_to_string(c, row).map(|v| two_decimals(&v)))
                .collect();
            rows.push(cells?.join("|"));
        }
    }
    assert_eq!(rows, Q1_PUBLISHED, "Q1 at SF 1 against TPC-H's published answer");
    eprintln!("Q1 at SF 1 with register: TPC-H's published answer");
    Ok(())
}

/// The median of `times`.
fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() -> Result<()> {
    let sf = std::env::var("TPCH_SF").ok().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let runs: usize = std::env::var("TPCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let partitions = std::thread::available_parallelism().map_or(1, usize::from);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let generated = Instant::now();
        let tables = tpch_tables(sf);
        eprintln!("generated SF {sf} in {:.1} s", generated.elapsed().as_secs_f64());
        let aa = std::env::var_os("TPCH_AA").is_some();
        let (theirs, ours) =
            (context(&tables, false, partitions)?, context(&tables, !aa, partitions)?);
        let queries: Vec<usize> = match std::env::var("TPCH_QUERIES") {
            Ok(list) => list.split(',').filter_map(|q| q.trim().parse().ok()).collect(),
            Err(_) => (1..=22).collect(),
        };
        eprintln!(
            "copy {}, {partitions} partitions, {runs} runs a side{}",
            decimal_kernels::active_isa(),
            if aa { ", A/A: plain against plain" } else { "" }
        );
        println!("| query | DataFusion (ms) | registered (ms) | DataFusion / registered |");
        println!("|---|---:|---:|---:|");
        let (mut total_theirs, mut total_ours) = (Duration::ZERO, Duration::ZERO);
        if std::env::var_os("TPCH_EXPLAIN").is_some() {
            for &n in &queries {
                for (side, ctx) in [("DataFusion", &theirs), ("registered", &ours)] {
                    for statement in tpch_statements(n).iter().filter(|s| is_query(s)) {
                        let plan = ctx.sql(statement).await?.create_physical_plan().await?;
                        let shown =
                            datafusion::physical_plan::displayable(plan.as_ref()).indent(true);
                        eprintln!("q{n} {side}:\n{shown}");
                    }
                }
            }
            return Ok(());
        }
        let plan_only = std::env::var_os("TPCH_PLAN").is_some();
        for n in queries {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for _ in 0..runs.max(1) {
                let (t, their_rows) = time(&theirs, n, plan_only).await?;
                let (o, our_rows) = time(&ours, n, plan_only).await?;
                assert_eq!(their_rows, our_rows, "q{n}: row counts differ");
                a.push(t);
                b.push(o);
            }
            let (t, o) = (median(&mut a), median(&mut b));
            total_theirs += t;
            total_ours += o;
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            println!("| q{n} | {:.1} | {:.1} | {:.2} |", ms(t), ms(o), ms(t) / ms(o));
        }
        if sf == 1.0 && !aa && !plan_only {
            check_q1_published(&ours).await?;
        }
        let s = |d: Duration| d.as_secs_f64();
        println!(
            "| all | {:.0} | {:.0} | {:.2} |",
            s(total_theirs) * 1e3,
            s(total_ours) * 1e3,
            s(total_theirs) / s(total_ours)
        );
        Ok(())
    })
}
