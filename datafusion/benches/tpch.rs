//! TPC-H's 22 queries at scale factor `TPCH_SF` (1 by default) over
//! `tpchgen-arrow` data in memory, each run `TPCH_RUNS` times (5 by default)
//! on a context without and one with `register`, alternating, on the
//! machine's cores as target partitions. Prints a Markdown table: the median
//! time of each query both ways and their ratio, then the totals.
//!
//! `cargo bench --bench tpch` (a release build; the answers are checked in
//! `tests/tpch.rs`, here only that both ways return the same row count).

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use datafusion::error::Result;
use datafusion::prelude::SessionContext;
use support::{context, is_query, tpch_statements, tpch_tables};

/// The time of one run of query `n`, and its row count.
async fn time(ctx: &SessionContext, n: usize) -> Result<(Duration, usize)> {
    let start = Instant::now();
    let mut rows = 0;
    for statement in tpch_statements(n) {
        let batches = ctx.sql(&statement).await?.collect().await?;
        if is_query(&statement) {
            rows = batches.iter().map(|b| b.num_rows()).sum();
        }
    }
    Ok((start.elapsed(), rows))
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
        let (theirs, ours) =
            (context(&tables, false, partitions)?, context(&tables, true, partitions)?);
        println!("| query | DataFusion (ms) | registered (ms) | DataFusion / registered |");
        println!("|---|---:|---:|---:|");
        let (mut total_theirs, mut total_ours) = (Duration::ZERO, Duration::ZERO);
        for n in 1..=22 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for _ in 0..runs.max(1) {
                let (t, their_rows) = time(&theirs, n).await?;
                let (o, our_rows) = time(&ours, n).await?;
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
        let s = |d: Duration| d.as_secs_f64();
        println!(
            "| all 22 | {:.0} | {:.0} | {:.2} |",
            s(total_theirs) * 1e3,
            s(total_ours) * 1e3,
            s(total_theirs) / s(total_ours)
        );
        Ok(())
    })
}
