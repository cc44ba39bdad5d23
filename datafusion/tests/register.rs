//! `register` on SQL: where DataFusion 55's answer is wrong the registered
//! context is exact (each case with DataFusion's answer and the exact one),
//! and everywhere else both give the same schema and rows.

use std::sync::Arc;

use datafusion::arrow::array::{
    ArrayRef, Decimal128Array, Decimal256Array, Float64Array, Int64Array, RecordBatch, StringArray,
};
use datafusion::arrow::datatypes::i256;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::error::Result;
use datafusion::prelude::SessionContext;
use rstest::rstest;

/// A context with one table `t` of `columns`, registered or not.
fn context(columns: Vec<(&str, ArrayRef)>, registered: bool) -> Result<SessionContext> {
    let ctx = SessionContext::new();
    ctx.register_batch("t", RecordBatch::try_from_iter(columns)?)?;
    if registered {
        decimal_kernels_datafusion::register(&ctx)?;
    }
    Ok(ctx)
}

/// A `Decimal128(p, s)` column.
fn decimals(values: Vec<Option<i128>>, p: u8, s: i8) -> ArrayRef {
    let array = Decimal128Array::from(values).with_precision_and_scale(p, s);
    Arc::new(array.unwrap_or_else(|e| panic!("decimal({p}, {s}): {e}")))
}

/// The rows of `sql` as text, or its error.
async fn run(ctx: &SessionContext, sql: &str) -> std::result::Result<String, String> {
    let batches = async { ctx.sql(sql).await?.collect().await }.await;
    let batches = batches.map_err(|e| e.to_string())?;
    let schema = batches.first().map(|b| format!("{:?}\n", b.schema().fields()));
    let rows = pretty_format_batches(&batches).map_err(|e| e.to_string())?;
    Ok(format!("{}{rows}", schema.unwrap_or_default()))
}

/// The table: `x` a `DECIMAL(20,0)` holding 12000000000000000000,
/// `big` a `DECIMAL(38,0)` holding 9·10^37, `y` a `DECIMAL(38,10)` holding
/// 1, in three rows.
fn defects() -> Vec<(&'static str, ArrayRef)> {
    let big = 9 * 10i128.pow(37);
    vec![
        ("x", decimals(vec![Some(12_000_000_000_000_000_000); 3], 20, 0)),
        ("big", decimals(vec![Some(big); 3], 38, 0)),
        ("y", decimals(vec![Some(10i128.pow(10)); 3], 38, 10)),
    ]
}

#[tokio::test]
async fn a_product_beyond_its_precision_is_an_error_where_datafusion_prints_it_ten_times_too_small()
-> Result<()> {
    let sql = "SELECT x * x AS p FROM t LIMIT 1";
    let theirs = run(&context(defects(), false)?, sql).await.expect("DataFusion answers");
    // 1.44·10^38 has 39 digits; DataFusion's DECIMAL(38,0) column prints 38 of them.
    assert!(theirs.contains("| 14400000000000000000000000000000000000 |"), "{theirs}");
    let ours = run(&context(defects(), true)?, sql).await.expect_err("an overflow");
    assert!(ours.contains("decimal_mul") && ours.contains("overflow"), "{ours}");
    assert!(ours.contains("12000000000000000000"), "the error names the operands: {ours}");
    Ok(())
}

#[tokio::test]
async fn a_sum_beyond_its_precision_is_an_error_where_datafusion_wraps() -> Result<()> {
    // As an aggregate and as a window over the whole partition.
    for sql in ["SELECT sum(big) AS s FROM t", "SELECT sum(big) OVER () AS s FROM t"] {
        let theirs = run(&context(defects(), false)?, sql).await.expect("DataFusion answers");
        assert!(theirs.contains("-70282366920938463463374607431768211456"), "{sql}: {theirs}");
        let ours = run(&context(defects(), true)?, sql).await.expect_err("an overflow");
        assert!(ours.contains("decimal_sum") && ours.contains("overflow"), "{sql}: {ours}");
    }
    Ok(())
}

#[tokio::test]
async fn a_division_by_zero_names_the_row_and_its_dividend() -> Result<()> {
    let columns = vec![
        ("a", decimals(vec![Some(150), Some(-225), Some(-225)], 10, 2)),
        ("b", decimals(vec![Some(1), Some(3), Some(0)], 5, 0)),
    ];
    let ctx = context(columns, true)?;
    for (sql, name) in
        [("SELECT a / b FROM t", "decimal_div"), ("SELECT a % b FROM t", "decimal_rem")]
    {
        let ours = run(&ctx, sql).await.expect_err("a division by zero");
        assert!(ours.contains(&format!("{name}: division by zero at row 2: -2.25 / 0")), "{ours}");
    }
    Ok(())
}

#[tokio::test]
async fn decimals_of_two_types_compare_exactly_where_datafusion_fails_its_common_type_cast()
-> Result<()> {
    let sql = "SELECT big > y AS gt, y < big AS lt, big = y AS eq FROM t";
    let theirs = run(&context(defects(), false)?, sql).await.expect_err("DataFusion fails");
    assert!(theirs.contains("Overflow"), "{theirs}");
    let ours = run(&context(defects(), true)?, sql).await.expect("exact answers");
    assert_eq!(ours.matches("| true | true | false |").count(), 3, "{ours}");
    Ok(())
}

#[tokio::test]
async fn a_wide_decimal_becomes_the_nearest_double_where_datafusion_rounds_twice() -> Result<()> {
    // 701577452450875194.4930198157: arrow-cast makes the integer a double
    // (one rounding) and divides it by 10^10 (another).
    let v = vec![Some(7_015_774_524_508_751_944_930_198_157)];
    let sql = "SELECT CAST(c AS DOUBLE) AS d FROM t";
    let theirs = run(&context(vec![("c", decimals(v.clone(), 38, 10))], false)?, sql).await;
    assert!(theirs.expect("DataFusion answers").contains("| 7.015774524508753e17 |"));
    let ours = run(&context(vec![("c", decimals(v, 38, 10))], true)?, sql).await;
    assert!(ours.expect("an answer").contains("| 7.015774524508751e17 |"));
    Ok(())
}

/// Signed values of every magnitude a column of each type holds, with nulls.
fn ordinary() -> Vec<(&'static str, ArrayRef)> {
    let n = 200;
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut word = move || {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        state ^ (state >> 29)
    };
    // Uniform in `-bound..=bound` (`bound` below 2^126), every 17th row or so null.
    let mut next = move |bound: i128| {
        let bits = (u128::from(word()) << 64) | u128::from(word());
        let span = bound.unsigned_abs() * 2 + 1;
        let v = i128::try_from(bits % span).unwrap_or(0) - bound;
        (word() % 17 != 0).then_some(v)
    };
    let a: Vec<_> = (0..n).map(|_| next(10i128.pow(13))).collect();
    let b: Vec<_> =
        (0..n).map(|_| next(10i128.pow(12)).map(|v| if v == 0 { 7 } else { v })).collect();
    let c: Vec<_> = (0..n).map(|_| next(10i128.pow(30))).collect();
    let i: Vec<_> = (0..n).map(|_| next(1_000_000).and_then(|v| i64::try_from(v).ok())).collect();
    // Floats that are decimals exactly (quarters), so a cast has one answer.
    let f: Vec<_> = (0..n).map(|_| next(40_000).map(|v| v as f64 / 4.0)).collect();
    let s: Vec<_> = (0..n)
        .map(|_| next(10i128.pow(9)).map(|v| format!("{}.{:03}", v / 1000, (v % 1000).abs())))
        .collect();
    let g: Vec<_> = (0..n).map(|r| Some(r as i64 % 7)).collect();
    let wide: Vec<_> = (0..n)
        .map(|_| next(10i128.pow(35)).map(|v| i256::from_i128(v) * i256::from_i128(1000)))
        .collect();
    let wide = Decimal256Array::from(wide).with_precision_and_scale(50, 5).expect("decimal(50,5)");
    vec![
        ("a", decimals(a, 15, 2)),
        ("b", decimals(b, 12, 4)),
        ("c", decimals(c, 38, 10)),
        ("i", Arc::new(Int64Array::from(i))),
        ("f", Arc::new(Float64Array::from(f))),
        ("s", Arc::new(StringArray::from(s))),
        ("g", Arc::new(Int64Array::from(g))),
        ("w", Arc::new(wide)),
    ]
}

#[tokio::test]
async fn every_other_answer_is_datafusions() -> Result<()> {
    let queries = [
        "SELECT a + b, a - b, a * b, a / b, a % b FROM t",
        "SELECT a + i, i - a, a * i, a / 3, 7 % b, a + 1, a * 2.5 FROM t",
        "SELECT c + a, c - b, c * 2, c / a FROM t",
        "SELECT w + w, w - a, w * 3, w / 7 FROM t",
        "SELECT a = b, a <> b, a < b, a <= b, a > b, a >= b FROM t",
        "SELECT a < c, c >= b, a = 12.5, a > 100, b < 0.5, a < i, c > f FROM t",
        "SELECT a BETWEEN b AND c, a NOT BETWEEN -1 AND 1 FROM t",
        "SELECT -a, abs(b), -c, abs(w) FROM t",
        "SELECT round(a, 1), round(b), round(b, -2), floor(b), ceil(b), trunc(b, 2), trunc(c) FROM t",
        "SELECT CAST(a AS DECIMAL(20, 1)), CAST(b AS DECIMAL(20, 6)), TRY_CAST(c AS DECIMAL(10, 2)) FROM t",
        "SELECT CAST(a AS BIGINT), CAST(b AS INT), TRY_CAST(c AS SMALLINT), CAST(i AS DECIMAL(9, 1)) FROM t",
        "SELECT CAST(a AS DOUBLE), CAST(b AS REAL), CAST(f AS DECIMAL(12, 2)) FROM t",
        "SELECT CAST(s AS DECIMAL(12, 3)), CAST(a AS VARCHAR), CAST(w AS VARCHAR) FROM t",
        "SELECT g, sum(a), avg(b), min(c), max(a), sum(w), count(a) FROM t GROUP BY g ORDER BY g",
        "SELECT sum(a), avg(a), min(b), max(b), avg(c) FROM t",
        "SELECT g, a, sum(a) OVER (PARTITION BY g ORDER BY a, b), max(b) OVER () FROM t ORDER BY g, a, b",
        "SELECT avg(c) OVER (ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING AND 2 FOLLOWING) FROM t ORDER BY a, b",
        "SELECT sum(a) OVER (ORDER BY a, b ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t ORDER BY a, b",
        "SELECT g, sum(a) FILTER (WHERE b > 0) FROM t GROUP BY g ORDER BY g",
        "SELECT a FROM t WHERE a > b AND c < 1000000 ORDER BY a",
        // A `CASE` whose branches DataFusion casts; not `WHEN a > 0 THEN a`,
        // which DataFusion proves never null by reading through its own
        // cast of `a` (not through this crate's): there the column is
        // nullable, with the same rows.
        "SELECT CASE WHEN g > 2 THEN a ELSE 0 END, COALESCE(a, b) FROM t",
    ];
    let (theirs, ours) = (context(ordinary(), false)?, context(ordinary(), true)?);
    let mut differences = Vec::new();
    for sql in queries {
        let (expected, got) = (run(&theirs, sql).await, run(&ours, sql).await);
        if expected != got {
            differences.push(format!("{sql}\nDataFusion: {expected:?}\nregistered: {got:?}"));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n\n"));
    Ok(())
}

/// The table of the wider SQL surface: `k` the row order, `big` a
/// `DECIMAL(38,0)` and `y` a `DECIMAL(38,12)`, in two rows.
fn surface(big: [i128; 2], y: [i128; 2]) -> Vec<(&'static str, ArrayRef)> {
    vec![
        ("k", Arc::new(Int64Array::from(vec![1, 2])) as ArrayRef),
        ("big", decimals(big.map(Some).to_vec(), 38, 0)),
        ("y", decimals(y.map(Some).to_vec(), 38, 12)),
    ]
}

/// `n · 10^37`.
fn e37(n: i128) -> i128 {
    n * 10i128.pow(37)
}

/// `2.5` at scale 12.
const TWO_AND_A_HALF: i128 = 25 * 10i128.pow(11);

#[tokio::test]
async fn a_sliding_sum_beyond_its_precision_is_the_plain_sums_error() -> Result<()> {
    let table = || surface([e37(6), e37(6)], [0, 0]);
    let sql =
        "SELECT sum(big) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM t";
    let theirs = run(&context(table(), false)?, sql).await.expect("DataFusion answers");
    // 1.2·10^38 has 39 digits; DataFusion's DECIMAL(38,0) column holds it anyway.
    assert!(theirs.contains("| 12000000000000000000000000000000000000 |"), "{theirs}");
    let ours = run(&context(table(), true)?, sql).await.expect_err("an overflow");
    assert!(ours.contains("decimal_sum") && ours.contains("overflow"), "{ours}");
    Ok(())
}

#[rstest]
#[case::rows_preceding("sum(y) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)", ["1.000000000000", "3.500000000000"])]
#[case::rows_unbounded_following("sum(y) OVER (ORDER BY k ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)", ["3.500000000000", "2.500000000000"])]
#[case::range_bounded("sum(y) OVER (ORDER BY k RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING)", ["3.500000000000", "2.500000000000"])]
#[case::avg_sliding("avg(y) OVER (ORDER BY k ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING)", ["1.7500000000000000", "2.5000000000000000"])]
#[tokio::test]
async fn rows_leave_a_sliding_frame_exactly(
    #[case] window: &str,
    #[case] expected: [&str; 2],
) -> Result<()> {
    // y: 1.0 then 2.5.
    let table = surface([e37(1), e37(1)], [10i128.pow(12), TWO_AND_A_HALF]);
    let ctx = context(table, true)?;
    let sql = format!("SELECT {window} AS s FROM t ORDER BY k");
    let plan = run(&ctx, &format!("EXPLAIN {sql}")).await.expect("a plan");
    assert!(plan.contains("decimal_sum") || plan.contains("decimal_avg"), "{plan}");
    let ours = run(&ctx, &sql).await.expect("an answer");
    for value in expected {
        assert!(ours.contains(&format!("| {value} ")), "{window}: {value} in {ours}");
    }
    Ok(())
}

#[tokio::test]
async fn a_distinct_sum_beyond_its_precision_is_an_error() -> Result<()> {
    // 9·10^37, 8·10^37 and 9·10^37 again: the distinct values add up to
    // 1.7·10^38. Alone (DataFusion's optimizer groups by the value) and
    // beside another aggregate (a distinct accumulator).
    let columns = || vec![("big", decimals(vec![Some(e37(9)), Some(e37(8)), Some(e37(9))], 38, 0))];
    for sql in [
        "SELECT sum(DISTINCT big) AS s FROM t",
        "SELECT sum(DISTINCT big) AS s, count(*) AS n FROM t",
    ] {
        let theirs = run(&context(columns(), false)?, sql).await.expect("DataFusion answers");
        assert!(theirs.contains("17000000000000000000000000000000000000"), "{sql}: {theirs}");
        let ours = run(&context(columns(), true)?, sql).await.expect_err("an overflow");
        assert!(ours.contains("decimal_sum") && ours.contains("overflow"), "{sql}: {ours}");
    }
    Ok(())
}

#[tokio::test]
async fn distinct_aggregates_run_here_on_the_distinct_values() -> Result<()> {
    let v = vec![Some(100), Some(100), Some(250), None, Some(-75)];
    let ctx = context(
        vec![("v", decimals(v, 10, 2)), ("g", Arc::new(Int64Array::from(vec![1, 1, 2, 2, 1])))],
        true,
    )?;
    let sql = "SELECT sum(DISTINCT v) AS s, avg(DISTINCT v) AS a, min(DISTINCT v) AS lo, max(DISTINCT v) AS hi, count(*) AS n FROM t";
    let plan = run(&ctx, &format!("EXPLAIN {sql}")).await.expect("a plan");
    for name in ["decimal_sum", "decimal_avg", "decimal_min", "decimal_max"] {
        assert!(plan.contains(name), "{name}: {plan}");
    }
    let ours = run(&ctx, sql).await.expect("an answer");
    // (1.00 + 2.50 - 0.75) / 3 in DataFusion's avg type DECIMAL(14,6),
    // truncated as DataFusion's mean is.
    assert!(ours.contains("| 2.75 | 0.916666 | -0.75 | 2.50 | 5 |"), "{ours}");
    let grouped = "SELECT g, sum(DISTINCT v) AS s, count(*) AS n FROM t GROUP BY g ORDER BY g";
    let ours = run(&ctx, grouped).await.expect("an answer");
    assert!(ours.contains("| 1 | 0.25 | 3 |") && ours.contains("| 2 | 2.50 | 2 |"), "{ours}");
    Ok(())
}

#[rstest]
#[case::column_and_literal("y IN (big, 2.5)", "true")]
#[case::decimal_of_another_type("big IN (y, 1)", "false")]
#[case::wide_literal("big IN (80000000000000000000000000000000000000, 1.5)", "true")]
#[case::not_in("y NOT IN (big, 2.5)", "false")]
#[case::not_in_none_equal("big NOT IN (y, 1)", "true")]
#[case::with_a_null("y IN (big, NULL)", "")]
#[tokio::test]
async fn in_lists_compare_each_item_exactly(
    #[case] condition: &str,
    #[case] expected: &str,
) -> Result<()> {
    let table = || surface([e37(8), e37(8)], [TWO_AND_A_HALF, TWO_AND_A_HALF]);
    let sql = format!("SELECT {condition} AS c FROM t");
    let theirs = run(&context(table(), false)?, &sql).await;
    let ours = run(&context(table(), true)?, &sql).await.expect("an answer");
    // A null prints as an empty cell.
    let cell = if expected.is_empty() { "|   |".to_string() } else { format!("| {expected} |") };
    assert_eq!(ours.matches(&cell).count(), 2, "{condition}: {ours}\nDataFusion: {theirs:?}");
    Ok(())
}

#[rstest]
#[case::least("least(big, y)", Ok("2.500000000000"))]
#[case::least_of_three("least(y, big, 1)", Ok("1.000000000000"))]
#[case::greatest_does_not_fit("greatest(big, y)", Err("80000000000000000000000000000000000000"))]
#[case::nullif_not_equal("nullif(y, big)", Ok("2.500000000000"))]
#[tokio::test]
async fn a_choice_casts_only_the_chosen_value(
    #[case] choice: &str,
    #[case] expected: std::result::Result<&str, &str>,
) -> Result<()> {
    let table = surface([e37(8), e37(8)], [TWO_AND_A_HALF, TWO_AND_A_HALF]);
    let ctx = context(table, true)?;
    let sql = format!("SELECT {choice} AS c FROM t");
    match (run(&ctx, &sql).await, expected) {
        (Ok(rows), Ok(value)) => {
            assert!(rows.contains("Decimal128(38, 12)"), "{choice}: {rows}");
            assert_eq!(rows.matches(&format!("| {value} |")).count(), 2, "{choice}: {rows}");
        }
        (Err(e), Err(value)) => {
            assert!(e.contains("Overflow") && e.contains(value), "{choice}: {e}")
        }
        (got, _) => panic!("{choice}: {got:?}"),
    }
    Ok(())
}

#[tokio::test]
async fn a_join_on_keys_of_two_decimal_types_matches_equal_values() -> Result<()> {
    let ctx = context(vec![("a", decimals(vec![Some(e37(8)), Some(3)], 38, 0))], true)?;
    let right = RecordBatch::try_from_iter(vec![(
        "b",
        decimals(vec![Some(3 * 10i128.pow(10)), Some(35 * 10i128.pow(9))], 38, 10),
    )])?;
    ctx.register_batch("u", right)?;
    let sql = "SELECT a, b FROM t JOIN u ON t.a = u.b";
    let ours = run(&ctx, sql).await.expect("an exact match");
    assert!(ours.contains("| 3 | 3.0000000000 |") && ours.lines().count() == 6, "{ours}");
    Ok(())
}

#[tokio::test]
async fn a_literal_with_more_digits_than_the_column_is_not_rounded_to_it() -> Result<()> {
    // 1.00 and 1.01 in a DECIMAL(15,2): 1.005 lies between them (rounded to
    // two digits it would be 1.01, and `v > 1.005` false for 1.01).
    let ctx = context(vec![("v", decimals(vec![Some(100), Some(101)], 15, 2))], true)?;
    let sql = "SELECT v > 1.005 AS gt, v = 1.005 AS eq, v BETWEEN 1.001 AND 1.009 AS btw FROM t";
    let ours = run(&ctx, sql).await.expect("an answer");
    assert!(ours.contains("| false | false | false |"), "{ours}");
    assert!(ours.contains("| true  | false | false |"), "{ours}");
    Ok(())
}

/// `m` a `DECIMAL(10,2)` and `k` its digits, row by row: ties, a carry to
/// one more integer digit, digits beyond every integer type DataFusion
/// narrows them to, digits far left of the point, and nulls in each.
fn digits_per_row() -> Vec<(&'static str, ArrayRef)> {
    let m = [12_345, -12_345, 9_999_999_999, 555, 1, 777, 4_449, -4_450];
    let k = [
        Some(1),
        Some(1),
        Some(-8),
        Some(10_000_000_000),
        Some(0),
        None,
        Some(-20),
        Some(i64::MIN),
    ];
    let mut m: Vec<Option<i128>> = m.into_iter().map(Some).collect();
    m[4] = None;
    vec![("m", decimals(m, 10, 2)), ("k", Arc::new(Int64Array::from(k.to_vec())))]
}

#[rstest]
#[case::round(
    "round(m, k)",
    "Decimal128(11, 2)",
    ["123.50", "-123.50", "100000000.00", "5.55", "", "", "0.00", "0.00"]
)]
#[case::trunc(
    "trunc(m, k)",
    "Decimal128(10, 2)",
    ["123.40", "-123.40", "0.00", "5.55", "", "", "0.00", "0.00"]
)]
#[tokio::test]
async fn digits_from_a_column_round_each_row_exactly(
    #[case] call: &str,
    #[case] data_type: &str,
    #[case] rows: [&str; 8],
) -> Result<()> {
    let ctx = context(digits_per_row(), true)?;
    let sql = format!("SELECT {call} AS r FROM t");
    let plan = run(&ctx, &format!("EXPLAIN {sql}")).await.expect("a plan");
    assert!(plan.contains(&format!("decimal_{}", &call[..5])), "{plan}");
    let ours = ctx.sql(&sql).await?.collect().await?;
    let schema = ours[0].schema();
    assert_eq!(schema.field(0).data_type().to_string(), data_type);
    let cells: Vec<String> = ours
        .iter()
        .flat_map(|b| {
            let column = b.column(0).clone();
            (0..b.num_rows()).map(move |i| {
                datafusion::arrow::util::display::array_value_to_string(&column, i).unwrap()
            })
        })
        .collect();
    let theirs = run(&context(digits_per_row(), false)?, &sql).await;
    assert_eq!(cells, rows, "DataFusion: {theirs:?}");
    Ok(())
}

#[tokio::test]
async fn a_row_rounded_beyond_the_most_digits_is_an_error_naming_it() -> Result<()> {
    let most = 10i128.pow(38) - 1;
    let table = vec![
        ("w", decimals(vec![Some(1), Some(most)], 38, 0)),
        ("k", Arc::new(Int64Array::from(vec![-40, -1])) as ArrayRef),
    ];
    let error =
        run(&context(table, true)?, "SELECT round(w, k) FROM t").await.expect_err("overflow");
    assert!(error.contains("row 1") && error.contains("decimal_round"), "{error}");
    Ok(())
}

/// DataFusion's `median`, left to it: the exact mean of the two middle
/// values truncated toward zero (the Arrow profile's rounding), also where
/// their sum leaves `i128`, and the middle value of an odd count.
#[rstest]
#[case::a_half_cent_truncated(vec![101, 102], 3, 2, "1.01")]
#[case::negative_toward_zero(vec![-101, -102], 3, 2, "-1.01")]
#[case::across_zero(vec![-3, 4], 3, 0, "0")]
#[case::sum_beyond_i128(vec![10i128.pow(38) - 1, 10i128.pow(38) - 2], 38, 0, "99999999999999999999999999999999999998")]
#[case::odd_count(vec![5, -7, 9], 3, 1, "0.5")]
#[tokio::test]
async fn the_median_is_the_exact_mean_truncated(
    #[case] values: Vec<i128>,
    #[case] p: u8,
    #[case] s: i8,
    #[case] expected: &str,
) -> Result<()> {
    let table = || vec![("m", decimals(values.iter().copied().map(Some).collect(), p, s))];
    let sql = "SELECT median(m) AS r FROM t";
    let ours = run(&context(table(), true)?, sql).await.expect("a median");
    assert!(ours.contains(&format!("| {expected} |")), "{ours}");
    assert_eq!(Ok(ours), run(&context(table(), false)?, sql).await);
    Ok(())
}

/// A `Decimal128` beside a `Decimal256` whose common type would need 79
/// digits: DataFusion's SQL planner finds no operand types and fails; the
/// registered context computes them (the product at the Arrow profile's
/// type for the wider width, the comparison exactly).
#[rstest]
#[case::product("a * b", "Decimal256(76, 7)", "0.2469000")]
#[case::comparison("a < b", "Boolean", "true")]
#[tokio::test]
async fn decimals_datafusion_finds_no_types_for_run_here(
    #[case] expression: &str,
    #[case] data_type: &str,
    #[case] expected: &str,
) -> Result<()> {
    let b = Decimal256Array::from(vec![i256::from_i128(200)]).with_precision_and_scale(76, 2)?;
    let table =
        || vec![("a", decimals(vec![Some(12_345)], 6, 5)), ("b", Arc::new(b.clone()) as ArrayRef)];
    let sql = format!("SELECT {expression} AS r FROM t");
    let theirs = run(&context(table(), false)?, &sql).await.expect_err("no operand types");
    assert!(
        theirs.contains("Decimal128(6, 5)") && theirs.contains("Decimal256(76, 2)"),
        "{theirs}"
    );
    let ours = run(&context(table(), true)?, &sql).await.expect("an answer");
    assert!(ours.contains(data_type) && ours.contains(&format!("| {expected} |")), "{ours}");
    Ok(())
}
