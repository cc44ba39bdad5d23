//! TPC-H Q1 over a generated `lineitem` table, two ways:
//!
//! - DataFusion's own decimal operators and `sum`/`avg`;
//! - the same query with `arrow_sub`, `arrow_mul`, `arrow_add`,
//!   `decimal_sum` and `decimal_avg`, all computed by decimal-kernels.
//!
//! `lineitem` comes from `tpchgen-arrow` (the TPC-H `dbgen` data, as Arrow
//! batches), in several parts generated side by side, kept as the partitions
//! of a `MemTable`. Each target partition count runs both queries; the two
//! answers must be identical (types and values), and at scale factor 1 equal
//! to the published answer:
//!
//! - TPC-H's answer set (`answers/q1.out` of the TPC-H tools, two decimals
//!   per value): each of our values rounded half up to two decimals, from
//!   its own scale, must read the same;
//! - the exact decimal sums of DuckDB's SF1 answer file
//!   (`extension/tpch/dbgen/answers/sf1/q01.csv` in duckdb/duckdb): each sum
//!   exactly, and each average (a double there) cut after the sixth decimal
//!   must read as ours, which DataFusion truncates at six decimals.
//!
//! Filters, null rows and the other widths are checked too: a second query
//! with nullable arguments, `FILTER (WHERE ..)` clauses whose condition is
//! false or null, and `Decimal32`, `Decimal64` and `Decimal256` arguments,
//! grouped and whole-column, both ways.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use arrow::array::{Array, ArrayRef, RecordBatch};
use arrow::compute::concat_batches;
use arrow::util::display::{ArrayFormatter, FormatOptions};
use datafusion::datasource::MemTable;
use datafusion::prelude::{SessionConfig, SessionContext};
use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType, RoundingMode, rescale};
use tpchgen::generators::LineItemGenerator;
use tpchgen_arrow::LineItemArrow;

use crate::aggregates::{self, GROUPED_MERGES, WHOLE_MERGES};
use crate::{Error, scalar};

/// The `lineitem` columns Q1 reads; the others are dropped as generated.
const COLUMNS: [&str; 7] = [
    "l_quantity",
    "l_extendedprice",
    "l_discount",
    "l_tax",
    "l_returnflag",
    "l_linestatus",
    "l_shipdate",
];

/// Parts generated side by side, one `MemTable` partition each.
const PARTS: usize = 4;

/// Rows per generated batch.
const BATCH: usize = 8192;

/// Q1 as TPC-H states it, with DataFusion's operators and aggregates.
const Q1_DATAFUSION: &str = "SELECT l_returnflag, l_linestatus, \
    sum(l_quantity) AS sum_qty, \
    sum(l_extendedprice) AS sum_base_price, \
    sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, \
    sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge, \
    avg(l_quantity) AS avg_qty, \
    avg(l_extendedprice) AS avg_price, \
    avg(l_discount) AS avg_disc, \
    count(*) AS count_order \
    FROM lineitem \
    WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY \
    GROUP BY l_returnflag, l_linestatus \
    ORDER BY l_returnflag, l_linestatus";

/// The same query with decimal-kernels' UDFs for every decimal operator
/// and aggregate.
const Q1_KERNELS: &str = "SELECT l_returnflag, l_linestatus, \
    decimal_sum(l_quantity) AS sum_qty, \
    decimal_sum(l_extendedprice) AS sum_base_price, \
    decimal_sum(arrow_mul(l_extendedprice, arrow_sub(1, l_discount))) AS sum_disc_price, \
    decimal_sum(arrow_mul(arrow_mul(l_extendedprice, arrow_sub(1, l_discount)), \
        arrow_add(1, l_tax))) AS sum_charge, \
    decimal_avg(l_quantity) AS avg_qty, \
    decimal_avg(l_extendedprice) AS avg_price, \
    decimal_avg(l_discount) AS avg_disc, \
    count(*) AS count_order \
    FROM lineitem \
    WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY \
    GROUP BY l_returnflag, l_linestatus \
    ORDER BY l_returnflag, l_linestatus";

/// Nulls, filters and widths: a nullable argument (null where the tax is
/// zero), a filter that is null for some rows and false for others, one that
/// keeps no row (a null result), a nullable mean, and `Decimal64`,
/// `Decimal32` and `Decimal256` arguments; `{keys}` and `{group}` are the
/// grouping (or nothing), `{sum}` and `{avg}` the aggregates.
const EDGES: &str = "SELECT {keys} \
    {sum}(CASE WHEN l_tax = 0 THEN NULL ELSE l_extendedprice END) AS sum_taxed, \
    {avg}(l_discount) FILTER (WHERE CASE WHEN l_tax = 0.08 THEN NULL ELSE l_quantity > 25 END) \
        AS avg_disc_large, \
    {sum}(l_quantity) FILTER (WHERE l_linestatus = 'X') AS sum_none, \
    {avg}(CASE WHEN l_discount = 0 THEN NULL ELSE l_extendedprice END) AS avg_discounted, \
    {sum}(arrow_cast(l_tax, 'Decimal64(10, 2)')) AS sum_tax_64, \
    {avg}(arrow_cast(l_discount, 'Decimal32(5, 2)')) AS avg_disc_32, \
    {avg}(arrow_cast(l_extendedprice, 'Decimal256(40, 2)')) AS avg_price_256 \
    FROM lineitem {group}";

/// TPC-H's published SF1 answer, `answers/q1.out` of the TPC-H tools
/// (padding removed): two decimals per value.
const PUBLISHED: [&str; 4] = [
    "A|F|37734107.00|56586554400.73|53758257134.87|55909065222.83|25.52|38273.13|0.05|1478493",
    "N|F|991417.00|1487504710.38|1413082168.05|1469649223.19|25.52|38284.47|0.05|38854",
    "N|O|74476040.00|111701729697.74|106118230307.61|110367043872.50|25.50|38249.12|0.05|2920374",
    "R|F|37719753.00|56568041380.90|53741292684.60|55889619119.83|25.51|38250.85|0.05|1478870",
];

/// DuckDB's SF1 answer (`extension/tpch/dbgen/answers/sf1/q01.csv`): exact
/// decimal sums, averages as doubles.
const EXACT: [&str; 4] = [
    "A|F|37734107.00|56586554400.73|53758257134.8700|55909065222.827692|25.522005853257337|38273.129734621674|0.049985295838397614|1478493",
    "N|F|991417.00|1487504710.38|1413082168.0541|1469649223.194375|25.516471920522985|38284.4677608483|0.0500934266742163|38854",
    "N|O|74476040.00|111701729697.74|106118230307.6056|110367043872.497010|25.50222676958499|38249.11798890827|0.049996586053704085|2920374",
    "R|F|37719753.00|56568041380.90|53741292684.6040|55889619119.831932|25.50579361269077|38250.85462609966|0.05000940583012706|1478870",
];

/// The timing of Q1 at one target partition count: median milliseconds.
pub struct Timing {
    /// `SessionConfig::with_target_partitions`.
    pub partitions: usize,
    /// DataFusion's own operators and aggregates.
    pub datafusion_ms: f64,
    /// decimal-kernels' UDFs.
    pub kernels_ms: f64,
}

/// Generates `lineitem` at scale factor `sf`: [`PARTS`] parts side by side,
/// only Q1's columns kept.
fn lineitem(sf: f64) -> Result<(MemTable, usize), Error> {
    let schema = LineItemArrow::schema_ref();
    let indices: Vec<usize> =
        COLUMNS.iter().map(|c| schema.index_of(c)).collect::<Result<_, _>>()?;
    let projected = Arc::new(schema.project(&indices)?);
    let parts = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=PARTS)
            .map(|part| {
                let indices = &indices;
                scope.spawn(move || -> Result<Vec<RecordBatch>, Error> {
                    let generator = LineItemGenerator::new(sf, part as i32, PARTS as i32);
                    let batches = LineItemArrow::new(generator).with_batch_size(BATCH);
                    batches.map(|b| Ok(b?.project(indices)?)).collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().map_err(|_| Error::from("a generator thread panicked"))?)
            .collect::<Result<Vec<_>, Error>>()
    })?;
    let rows = parts.iter().flatten().map(RecordBatch::num_rows).sum();
    Ok((MemTable::try_new(projected, parts)?, rows))
}

/// A DataFusion context with every UDF of the example and `lineitem`.
fn context(table: &Arc<MemTable>, partitions: usize) -> Result<SessionContext, Error> {
    let ctx =
        SessionContext::new_with_config(SessionConfig::new().with_target_partitions(partitions));
    for udf in scalar::udfs() {
        ctx.register_udf(udf);
    }
    for udaf in aggregates::udafs() {
        ctx.register_udaf(udaf);
    }
    ctx.register_table("lineitem", table.clone())?;
    Ok(ctx)
}

/// Runs `sql`: its batches as one, and the milliseconds it took.
async fn run(ctx: &SessionContext, sql: &str) -> Result<(RecordBatch, f64), Error> {
    let started = Instant::now();
    let batches = ctx.sql(sql).await?.collect().await?;
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let schema = batches.first().map(RecordBatch::schema).ok_or("no result batches")?;
    Ok((concat_batches(&schema, &batches)?, ms))
}

/// The two answers are identical: same column types, same values.
fn same(what: &str, ours: &RecordBatch, theirs: &RecordBatch) -> Result<(), Error> {
    let (a, b) = (ours.schema(), theirs.schema());
    for (i, (x, y)) in a.fields().iter().zip(b.fields().iter()).enumerate() {
        if x.data_type() != y.data_type() {
            return Err(format!(
                "{what}: column {i} ({}) is {} with decimal-kernels, {} with DataFusion",
                y.name(),
                x.data_type(),
                y.data_type()
            )
            .into());
        }
        if ours.column(i).to_data() != theirs.column(i).to_data() {
            return Err(format!("{what}: column {i} ({}) differs", y.name()).into());
        }
    }
    if a.fields().len() != b.fields().len() || ours.num_rows() != theirs.num_rows() {
        return Err(format!("{what}: the answers differ in shape").into());
    }
    Ok(())
}

/// Cell `row` of `column` as text.
fn cell(column: &ArrayRef, row: usize) -> Result<String, Error> {
    Ok(ArrayFormatter::try_new(column.as_ref(), &FormatOptions::default())?.value(row).to_string())
}

/// Decimal column `column` rounded half up to `scale` digits, as text.
fn rounded(column: &ArrayRef, scale: i8) -> Result<Vec<String>, Error> {
    let exact = DecimalArray::from_arrow(column.as_ref())?;
    let t = exact.dtype();
    let digits = i16::from(t.precision()) - i16::from(t.scale()) + i16::from(scale);
    let target = DecimalType::try_new(u8::try_from(digits.clamp(1, 76))?, scale)?;
    let options = ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp);
    let rounded = rescale(&exact, target, &options)?;
    Ok(rounded.to_strs().into_iter().map(|v| v.unwrap_or_else(|| "NULL".into())).collect())
}

/// `text` (a decimal number) cut after `scale` decimals, padded with zeros.
fn cut(text: &str, scale: usize) -> String {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let fraction: String = fraction.chars().chain(std::iter::repeat('0')).take(scale).collect();
    format!("{whole}.{fraction}")
}

/// Checks Q1's answer against the published SF1 answers.
fn check_published(answer: &RecordBatch) -> Result<(), Error> {
    let (rows, width) = (answer.num_rows(), answer.num_columns());
    if rows != PUBLISHED.len() || width != 10 {
        return Err(format!("{rows} groups of {width} columns, 4 of 10 published").into());
    }
    let columns = answer.columns();
    let two: Vec<Vec<String>> =
        columns[2..9].iter().map(|c| rounded(c, 2)).collect::<Result<_, _>>()?;
    for (row, (published, exact)) in PUBLISHED.iter().zip(EXACT).enumerate() {
        let published: Vec<&str> = published.split('|').collect();
        let exact: Vec<&str> = exact.split('|').collect();
        for (i, column) in columns.iter().enumerate() {
            let name = answer.schema().field(i).name().clone();
            let ours = cell(column, row)?;
            let (expected, got) = match i {
                2..=8 => (published[i].to_string(), two[i - 2][row].clone()),
                _ => (published[i].to_string(), ours.clone()),
            };
            if expected != got {
                return Err(format!("row {row} {name}: {got}, published {expected}").into());
            }
            // The exact check: sums as they are, averages cut at our scale.
            let exact = match i {
                6..=8 => cut(exact[i], ours.split_once('.').map_or(0, |(_, f)| f.len())),
                _ => exact[i].to_string(),
            };
            if exact != ours {
                return Err(
                    format!("row {row} {name}: {ours}, DuckDB's exact answer {exact}").into()
                );
            }
        }
    }
    Ok(())
}

/// Prints an answer with its column types.
fn print_answer(answer: &RecordBatch) -> Result<(), Error> {
    let schema = answer.schema();
    let mut table: Vec<Vec<String>> = vec![
        schema.fields().iter().map(|f| f.name().clone()).collect(),
        schema.fields().iter().map(|f| f.data_type().to_string()).collect(),
    ];
    for row in 0..answer.num_rows() {
        table.push(answer.columns().iter().map(|c| cell(c, row)).collect::<Result<_, _>>()?);
    }
    let widths: Vec<usize> = (0..schema.fields().len())
        .map(|i| table.iter().map(|r| r[i].len()).max().unwrap_or(0))
        .collect();
    for row in &table {
        let cells: Vec<String> =
            row.iter().zip(&widths).map(|(c, w)| format!("{c:>w$}", w = *w)).collect();
        println!("{}", cells.join(" | "));
    }
    Ok(())
}

/// The median of some milliseconds.
fn median(mut ms: Vec<f64>) -> f64 {
    ms.sort_by(f64::total_cmp);
    match ms.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => ms[n / 2],
        n => (ms[n / 2 - 1] + ms[n / 2]) / 2.0,
    }
}

/// Generates `lineitem` at `sf`, runs Q1 both ways `reps` times at each
/// target partition count and checks the answers (against the published
/// ones at SF1); returns the median timings.
pub async fn run_all(sf: f64, partitions: &[usize], reps: usize) -> Result<Vec<Timing>, Error> {
    let started = Instant::now();
    let (table, rows) = lineitem(sf)?;
    let table = Arc::new(table);
    println!(
        "generated lineitem at SF {sf}: {rows} rows in {PARTS} partitions ({} columns) in {:.1?}",
        COLUMNS.len(),
        started.elapsed()
    );

    let mut timings = Vec::new();
    let mut shown = false;
    for &n in partitions {
        let ctx = context(&table, n)?;
        let (mut own_ms, mut kernels_ms) = (Vec::new(), Vec::new());
        let merges = GROUPED_MERGES.load(Ordering::Relaxed);
        for _ in 0..reps.max(1) {
            let (theirs, ms) = run(&ctx, Q1_DATAFUSION).await?;
            own_ms.push(ms);
            let (ours, ms) = run(&ctx, Q1_KERNELS).await?;
            kernels_ms.push(ms);
            same(&format!("Q1 at {n} target partitions"), &ours, &theirs)?;
            if !shown {
                println!("Q1 (decimal-kernels, equal to DataFusion's own):");
                print_answer(&ours)?;
                shown = true;
            }
            if sf == 1.0 {
                check_published(&ours)?;
            }
        }
        let merges = GROUPED_MERGES.load(Ordering::Relaxed) - merges;
        if merges == 0 {
            return Err(format!("Q1 at {n} target partitions merged no partial states").into());
        }
        let whole_merges = WHOLE_MERGES.load(Ordering::Relaxed);
        for (keys, group) in [
            ("l_returnflag, l_linestatus,", "GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2"),
            ("", ""),
        ] {
            let sql = EDGES.replace("{keys}", keys).replace("{group}", group);
            let own = sql.replace("{sum}", "sum").replace("{avg}", "avg");
            let kernels = sql.replace("{sum}", "decimal_sum").replace("{avg}", "decimal_avg");
            let (theirs, _) = run(&ctx, &own).await?;
            let (ours, _) = run(&ctx, &kernels).await?;
            let what = if group.is_empty() { "whole" } else { "grouped" };
            same(&format!("nulls and filters, {what}, at {n} target partitions"), &ours, &theirs)?;
        }
        let whole_merges = WHOLE_MERGES.load(Ordering::Relaxed) - whole_merges;
        if whole_merges == 0 {
            return Err(format!("at {n} target partitions no whole-column state was merged").into());
        }
        println!(
            "target partitions {n}: equal answers both ways ({} runs each{}), grouped partial \
             states merged in {merges} calls; nulls and filters equal, grouped and whole \
             (whole-column states merged in {whole_merges} calls)",
            reps.max(1),
            if sf == 1.0 { ", each equal to the published SF1 answer" } else { "" },
        );
        timings.push(Timing {
            partitions: n,
            datafusion_ms: median(own_ms),
            kernels_ms: median(kernels_ms),
        });
    }
    Ok(timings)
}
