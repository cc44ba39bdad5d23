//! TPC-H's 22 queries (DataFusion's benchmark texts, `tests/tpch/`) over
//! `tpchgen-arrow` data at a small scale factor (`TPCH_SF`, 0.01 by
//! default), on a context without and with `register`:
//!
//! - the same schema and the same rows, for every query, on 1 and 3 target
//!   partitions (so grouped aggregates merge partial states);
//! - every decimal expression of each registered plan is a call of this
//!   crate's functions, read off the optimized logical plan (what `EXPLAIN`
//!   prints), and each of those names is in the physical plan that runs;
//! - a query with decimal expressions has at least one of ours, so a
//!   `register` that did nothing fails.

mod support;

use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::error::Result;
use std::sync::Arc;

use datafusion::physical_plan::aggregates::AggregateExec;
use datafusion::physical_plan::{ExecutionPlan, displayable};
use datafusion::prelude::SessionContext;
use support::{context, decimal_expressions, is_query, scale_factor, tpch_statements, tpch_tables};

/// The answer of query `n` (schema and rows as text), and the optimized
/// plan of its query statement.
async fn answer(
    ctx: &SessionContext,
    n: usize,
) -> Result<(String, datafusion::logical_expr::LogicalPlan, String)> {
    let mut result = None;
    for statement in tpch_statements(n) {
        let frame = ctx.sql(&statement).await?;
        if !is_query(&statement) {
            frame.collect().await?;
            continue;
        }
        let plan = frame.clone().into_optimized_plan()?;
        let physical = frame.clone().create_physical_plan().await?;
        let physical = physical_text(&physical);
        let batches = frame.collect().await?;
        let schema = batches.first().map(|b| format!("{:?}", b.schema().fields()));
        let rows = pretty_format_batches(&batches)?.to_string();
        result = Some((format!("{}\n{rows}", schema.unwrap_or_default()), plan, physical));
    }
    Ok(result.unwrap_or_else(|| panic!("q{n} has no query")))
}

/// The physical plan as `EXPLAIN` prints it, and the functions of its
/// aggregates (which it prints by their output names).
fn physical_text(plan: &Arc<dyn ExecutionPlan>) -> String {
    let mut text = displayable(plan.as_ref()).indent(true).to_string();
    let mut aggregates = Vec::new();
    let mut stack = vec![Arc::clone(plan)];
    while let Some(node) = stack.pop() {
        if let Some(aggregate) = node.downcast_ref::<AggregateExec>() {
            aggregates.extend(aggregate.aggr_expr().iter().map(|a| a.fun().name().to_string()));
        }
        stack.extend(node.children().into_iter().cloned());
    }
    text.push_str(&format!("aggregates: {aggregates:?}"));
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tpch_answers_and_plans_match_with_and_without_register() -> Result<()> {
    let tables = tpch_tables(scale_factor());
    let mut failures = Vec::new();
    for partitions in [1, 3] {
        let (theirs, ours) =
            (context(&tables, false, partitions)?, context(&tables, true, partitions)?);
        for n in 1..=22 {
            let (expected, their_plan, _) = answer(&theirs, n).await?;
            let (got, plan, physical) = match answer(&ours, n).await {
                Ok(answer) => answer,
                Err(e) => {
                    failures.push(format!("q{n} ({partitions} partitions) failed: {e}"));
                    continue;
                }
            };
            if got != expected {
                failures.push(format!(
                    "q{n} ({partitions} partitions):\nDataFusion:\n{expected}\nregistered:\n{got}"
                ));
            }
            let found = decimal_expressions(&plan)?;
            eprintln!("q{n}: {} of this crate's: {:?}", found.ours, found.names);
            if !found.datafusion.is_empty() {
                failures.push(format!(
                    "q{n}: decimal expressions left to DataFusion: {:?}\n{plan}",
                    found.datafusion
                ));
            }
            let before = decimal_expressions(&their_plan)?;
            if found.ours > 0 && before.datafusion.is_empty() {
                failures.push(format!("q{n}: no decimal expression read in DataFusion's plan"));
            }
            if !before.datafusion.is_empty() && found.ours == 0 {
                failures.push(format!("q{n}: none of {:?} runs here", before.datafusion));
            }
            for name in &found.names {
                if !physical.contains(name.as_str()) {
                    failures.push(format!("q{n}: {name} is not in the physical plan:\n{physical}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    Ok(())
}
