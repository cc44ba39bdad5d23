//! The census of decimal expressions: every one a registered plan holds is
//! a call of this crate's function, or one `README.md` lists as left to
//! DataFusion. The sqllogictest corpus (`tests/sqllogictest.rs`) and TPC-H
//! (`tests/tpch.rs`) take the census of their own queries; this file takes
//! it of the SQL surface the README names, and holds the README's list and
//! the census's to each other.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Decimal128Array, Int64Array, RecordBatch};
use datafusion::error::Result;
use datafusion::prelude::SessionContext;

mod support;

use support::{CHOOSING, STILL_DATAFUSIONS, decimal_expressions};

/// A `Decimal128(p, s)` column.
fn decimals(values: Vec<i128>, p: u8, s: i8) -> ArrayRef {
    let array = Decimal128Array::from(values).with_precision_and_scale(p, s);
    Arc::new(array.unwrap_or_else(|e| panic!("decimal({p}, {s}): {e}")))
}

/// Every kind of decimal expression the README names, on `t(k, g, big, y,
/// m)` and `u(b)`.
const SURFACE: [&str; 19] = [
    "SELECT big + y, big - y, m * y, y / m, y % m, -y, abs(m) FROM t",
    "SELECT big = y, big < y, y BETWEEN m AND big, m NOT BETWEEN 0 AND 1 FROM t",
    "SELECT round(m, 1), floor(y), ceil(m), trunc(y, 3), round(m) FROM t",
    "SELECT round(m, k), trunc(y, k - 1) FROM t",
    "SELECT CAST(m AS DECIMAL(20, 4)) AS a, TRY_CAST(y AS DECIMAL(10, 2)) AS b, CAST(k AS DECIMAL(5, 1)) AS c, CAST(m AS DOUBLE) AS d FROM t",
    "SELECT sum(m), avg(y), min(big), max(m), count(m) FROM t",
    "SELECT g, sum(m), avg(m), min(y), max(y) FROM t GROUP BY g",
    "SELECT sum(DISTINCT m), avg(DISTINCT y), min(DISTINCT m), max(DISTINCT y), count(DISTINCT m) FROM t",
    "SELECT sum(DISTINCT m) FROM t",
    "SELECT g, sum(DISTINCT m), count(*) FROM t GROUP BY g",
    "SELECT sum(m) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
    "SELECT avg(y) OVER (ORDER BY k ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM t",
    "SELECT sum(y) OVER (ORDER BY k RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t",
    "SELECT min(m) OVER (ORDER BY k), max(y) OVER (PARTITION BY g), sum(m) OVER () FROM t",
    "SELECT y IN (big, 2.5), big NOT IN (y, 1), m IN (1.5, 2, y) FROM t",
    "SELECT greatest(m, y), least(big, y, 1), nullif(y, big), greatest(m, m) FROM t",
    "SELECT coalesce(m, y), CASE WHEN g > 0 THEN m ELSE y END FROM t",
    "SELECT t.m, u.b FROM t JOIN u ON t.big = u.b",
    "SELECT DISTINCT m FROM t UNION SELECT y FROM t",
];

/// Queries of decimals whose every decimal expression the README lists as
/// left to DataFusion.
const LISTED: [&str; 5] = [
    "SELECT m FROM t WHERE m > 1.5 AND y IS NOT NULL AND m = m ORDER BY m",
    "SELECT min(m) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
    "SELECT first_value(m) OVER (ORDER BY k), lag(y) OVER (ORDER BY k), count(m) OVER (ORDER BY k ROWS 1 PRECEDING) FROM t",
    "SELECT greatest(m, m), least(y, y), nullif(m, m), arrow_typeof(m) FROM t",
    "SELECT count(DISTINCT y), count(m) FROM t",
];

/// A registered context with `t` and `u`.
fn context() -> Result<SessionContext> {
    let ctx = SessionContext::new();
    let t = RecordBatch::try_from_iter(vec![
        ("k", Arc::new(Int64Array::from(vec![1, 2, 3])) as ArrayRef),
        ("g", Arc::new(Int64Array::from(vec![1, 1, 2])) as ArrayRef),
        ("big", decimals(vec![8 * 10i128.pow(37), 3, -1], 38, 0)),
        ("y", decimals(vec![25 * 10i128.pow(11), 0, 10i128.pow(12)], 38, 12)),
        ("m", decimals(vec![150, -275, 150], 10, 2)),
    ])?;
    ctx.register_batch("t", t)?;
    ctx.register_batch("u", RecordBatch::try_from_iter(vec![("b", decimals(vec![3, 7], 12, 2))])?)?;
    decimal_kernels_datafusion::register(&ctx)?;
    Ok(ctx)
}

#[tokio::test]
async fn every_decimal_expression_of_the_surface_runs_here() -> Result<()> {
    let ctx = context()?;
    let mut left = Vec::new();
    for (sql, listed) in SURFACE.map(|q| (q, false)).into_iter().chain(LISTED.map(|q| (q, true))) {
        let plan = ctx.sql(sql).await?.into_optimized_plan()?;
        let found = decimal_expressions(&plan)?;
        left.extend(found.datafusion.iter().map(|e| format!("{e}\n  in {sql}")));
        if found.ours == 0 && !listed {
            left.push(format!("nothing of this crate's in {sql}"));
        }
    }
    assert!(left.is_empty(), "left to DataFusion:\n{}", left.join("\n"));
    Ok(())
}

#[test]
fn the_readme_lists_what_the_census_leaves_to_datafusion() {
    let readme = include_str!("../README.md");
    let (_, listed) = readme.split_once("### Left to DataFusion").expect("the README's list");
    for name in CHOOSING.into_iter().chain(STILL_DATAFUSIONS) {
        assert!(listed.contains(&format!("`{name}")), "{name} is not in the README's list");
    }
}
