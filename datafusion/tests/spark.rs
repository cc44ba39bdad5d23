//! The Spark profile against datafusion-spark 55.2, whose decimal functions
//! (`try_sum`, `avg`, `round`, `ceil`, `floor`, `abs`, `negative`, `mod`,
//! `pmod`) are the ones engines of the Comet family plan with: each on a
//! context with datafusion-spark's functions against the same SQL on a
//! context with `register_with(ctx, ArithmeticOptions::spark())`.
//!
//! Where the two agree, types and values are asserted equal. Where they
//! differ, both answers are asserted and the comment says which is Spark's,
//! from Spark's own source (`Sum`, `Average`, `RoundBase`, `Ceil`, `Floor`,
//! `Remainder`, `Pmod` in `org.apache.spark.sql.catalyst.expressions`).
//! datafusion-spark has no decimal `+ - * /`, cast or `sum` of its own (its
//! `spark_cast` only casts to timestamps), so those are not compared.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Decimal128Array, Int32Array, RecordBatch};
use datafusion::arrow::datatypes::DataType;
use datafusion::arrow::util::display::array_value_to_string;
use datafusion::error::Result;
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::SessionContext;
use datafusion_spark::SessionStateBuilderSpark;
use decimal_kernels::OverflowPolicy;
use decimal_kernels_datafusion::{ArithmeticOptions, register_with};

/// The largest `DECIMAL(38, _)` unscaled value, 10^38 - 1.
const MAX38: i128 = 99_999_999_999_999_999_999_999_999_999_999_999_999;

/// 5·10^37.
const HALF38: i128 = 50_000_000_000_000_000_000_000_000_000_000_000_000;

/// A `Decimal128(p, s)` column.
fn decimals(values: Vec<Option<i128>>, p: u8, s: i8) -> ArrayRef {
    let array = Decimal128Array::from(values).with_precision_and_scale(p, s);
    Arc::new(array.unwrap_or_else(|e| panic!("decimal({p}, {s}): {e}")))
}

/// Registers the tables on `ctx`: `t` (`id` 1 to 6; `a` a `DECIMAL(38,18)`,
/// `b` a `DECIMAL(10,2)` with a zero, `c` a `DECIMAL(38,0)` holding
/// ±(10^38 - 1); each with a null in row 3) and `u` (one `DECIMAL(38,0)`
/// column `v`: 10^38 - 1, 5·10^37, -(10^38 - 1), in that order).
fn tables(ctx: &SessionContext) -> Result<()> {
    ctx.register_batch(
        "t",
        RecordBatch::try_from_iter([
            ("id", Arc::new(Int32Array::from(vec![1, 2, 3, 4, 5, 6])) as ArrayRef),
            (
                "a",
                decimals(
                    vec![
                        // 123456789012345678.123456789012345678
                        Some(123_456_789_012_345_678_123_456_789_012_345_678),
                        Some(-500_000_000_000_000_000),
                        None,
                        // 99999999999999999999.999999999999999999
                        Some(MAX38),
                        Some(-1_250_000_000_000_000_000),
                        Some(1),
                    ],
                    38,
                    18,
                ),
            ),
            (
                "b",
                decimals(
                    vec![Some(1235), Some(-1235), None, Some(9_999_999_999), Some(250), Some(0)],
                    10,
                    2,
                ),
            ),
            (
                "c",
                decimals(
                    vec![Some(MAX38), Some(-MAX38), None, Some(HALF38), Some(-15), Some(25)],
                    38,
                    0,
                ),
            ),
        ])?,
    )?;
    ctx.register_batch(
        "u",
        RecordBatch::try_from_iter([(
            "v",
            decimals(vec![Some(MAX38), Some(HALF38), Some(-MAX38)], 38, 0),
        )])?,
    )?;
    Ok(())
}

/// A context with datafusion-spark's functions (and planner), ANSI mode as
/// given (DataFusion's `execution.enable_ansi_mode`).
fn theirs(ansi: bool) -> Result<SessionContext> {
    let state = SessionStateBuilder::new().with_default_features().with_spark_features().build();
    let ctx = SessionContext::new_with_state(state);
    ctx.state_ref().write().config_mut().options_mut().execution.enable_ansi_mode = ansi;
    tables(&ctx)?;
    Ok(ctx)
}

/// A context registered under Spark's profile, ANSI mode as given (an
/// overflow or a division by zero an error rather than a null row).
fn ours(ansi: bool) -> Result<SessionContext> {
    let ctx = SessionContext::new();
    tables(&ctx)?;
    let options = if ansi {
        ArithmeticOptions::spark()
            .with_on_overflow(OverflowPolicy::Error)
            .with_on_divide_by_zero(OverflowPolicy::Error)
    } else {
        ArithmeticOptions::spark()
    };
    register_with(&ctx, options)?;
    Ok(ctx)
}

/// The type and values (as text, a null as "") of the first column `sql`
/// returns. The type is the batches' own: a `DataFrame`'s schema before
/// execution is the plan's before the analyzer rewrites it.
async fn column(ctx: &SessionContext, sql: &str) -> Result<(DataType, Vec<String>)> {
    let batches = ctx.sql(sql).await?.collect().await?;
    let mut values = Vec::new();
    for batch in &batches {
        let column = batch.column(0);
        for i in 0..column.len() {
            values.push(array_value_to_string(column, i)?);
        }
    }
    Ok((batches[0].column(0).data_type().clone(), values))
}

/// The message of the error `sql` fails with.
async fn error(ctx: &SessionContext, sql: &str) -> String {
    match column(ctx, sql).await {
        Ok(answer) => panic!("{sql}: an error expected, not {answer:?}"),
        Err(e) => e.to_string(),
    }
}

/// Asserts that datafusion-spark's `theirs_sql` and the registered
/// `ours_sql` both return `expected`.
async fn agree(theirs_sql: &str, ours_sql: &str, expected: (DataType, &[&str])) -> Result<()> {
    let expected = owned(expected.0, expected.1);
    assert_eq!(column(&theirs(false)?, theirs_sql).await?, expected, "{theirs_sql}");
    assert_eq!(column(&ours(false)?, ours_sql).await?, expected, "{ours_sql}");
    Ok(())
}

/// [`agree`] on one query that both sides run as it is.
async fn agree_on(sql: &str, expected: (DataType, &[&str])) -> Result<()> {
    agree(sql, sql, expected).await
}

/// `(type, values)` of a decimal answer.
fn dec<'a>(p: u8, s: i8, values: &'a [&'a str]) -> (DataType, &'a [&'a str]) {
    (DataType::Decimal128(p, s), values)
}

/// `(type, values)` as [`column`] returns them.
fn owned(t: DataType, values: &[&str]) -> (DataType, Vec<String>) {
    (t, values.iter().map(|v| (*v).to_owned()).collect())
}

#[tokio::test]
async fn try_sum_is_sum_at_type_p_plus_10_and_null_on_overflow() -> Result<()> {
    // Spark's Sum (of which try_sum is the TRY mode) is
    // DecimalType.bounded(p + 10, s), null on overflow with ANSI off.
    agree("SELECT try_sum(b) FROM t", "SELECT sum(b) FROM t", dec(20, 2, &["100000002.49"]))
        .await?;
    agree(
        "SELECT try_sum(c) FROM t",
        "SELECT sum(c) FROM t",
        dec(38, 0, &["50000000000000000000000000000000000010"]),
    )
    .await?;
    // 10^38 - 1 + 5·10^37 is beyond DECIMAL(38,0); the sum of `a` beyond
    // DECIMAL(38,18).
    agree(
        "SELECT try_sum(c) FROM t WHERE id IN (1, 4)",
        "SELECT sum(c) FROM t WHERE id IN (1, 4)",
        dec(38, 0, &[""]),
    )
    .await?;
    agree("SELECT try_sum(a) FROM t", "SELECT sum(a) FROM t", dec(38, 18, &[""])).await?;
    Ok(())
}

#[tokio::test]
async fn try_sum_gives_up_at_an_overflow_the_final_sum_does_not_have() -> Result<()> {
    // u: 10^38 - 1, then 5·10^37 (the running sum leaves DECIMAL(38,0)),
    // then -(10^38 - 1): the sum, 5·10^37, fits. datafusion-spark's try_sum
    // checks each running sum against the precision and stays null once one
    // does not fit; the registered sum is exact and checks the result.
    // Spark's Sum adds with DecimalAddNoOverflowCheck and checks at the end
    // (CheckOverflowInSum); a running sum becomes null only where its buffer
    // cannot hold it (an UnsafeRow buffer nulls a decimal beyond its
    // precision), so Spark's answer here depends on the physical plan.
    let sql = |f: &str| format!("SELECT {f}(v) FROM u");
    assert_eq!(
        column(&theirs(false)?, &sql("try_sum")).await?,
        owned(DataType::Decimal128(38, 0), &[""])
    );
    assert_eq!(
        column(&ours(false)?, &sql("sum")).await?,
        owned(DataType::Decimal128(38, 0), &["50000000000000000000000000000000000000"])
    );
    Ok(())
}

#[tokio::test]
async fn avg_is_a_decimal_in_spark_and_a_double_in_datafusion_spark() -> Result<()> {
    // Spark's Average of DECIMAL(p, s) is DecimalType.bounded(p + 4, s + 4),
    // summed at bounded(p + 10, s) (null once that overflows, ANSI off) and
    // divided HALF_UP: the registered answers. datafusion-spark's avg casts
    // to Float64 and returns Float64.
    let (them, us) = (theirs(false)?, ours(false)?);
    let sql = |x: &str| format!("SELECT avg({x}) FROM t");
    assert_eq!(column(&them, &sql("b")).await?, owned(DataType::Float64, &["20000000.498"]));
    assert_eq!(
        column(&us, &sql("b")).await?,
        owned(DataType::Decimal128(14, 6), &["20000000.498000"])
    );
    // The sum of `a` overflows DECIMAL(38,18): null in Spark.
    assert_eq!(
        column(&them, &sql("a")).await?,
        owned(DataType::Float64, &["2.002469135780247e19"])
    );
    assert_eq!(column(&us, &sql("a")).await?, owned(DataType::Decimal128(38, 22), &[""]));
    // 10^37 + 2 does not fit DECIMAL(38,4) (bounded(42, 4)): null in Spark.
    assert_eq!(column(&them, &sql("c")).await?, owned(DataType::Float64, &["1e37"]));
    assert_eq!(column(&us, &sql("c")).await?, owned(DataType::Decimal128(38, 4), &[""]));
    Ok(())
}

#[tokio::test]
async fn round_has_spark_type_only_when_registered() -> Result<()> {
    // Spark's RoundBase of DECIMAL(p, s) to d >= 0 digits is
    // DECIMAL(min(p - s + 1 + min(s, d), 38), min(s, d)), to d < 0 digits
    // DECIMAL(min(max(p - s + 1, 1 - d), 38), 0), HALF_UP, null when the
    // rounded value does not fit (ANSI off). datafusion-spark keeps the
    // argument's type and rescales the rounded value back to it.
    let (them, us) = (theirs(false)?, ours(false)?);
    let sql = |x: &str, d: i32| format!("SELECT round({x}, {d}) FROM t ORDER BY id");
    assert_eq!(
        column(&us, &sql("b", 1)).await?,
        owned(DataType::Decimal128(10, 1), &["12.4", "-12.4", "", "100000000.0", "2.5", "0.0"])
    );
    // 99999999.99 rounds to 10^8, which a DECIMAL(10,2) cannot hold (11
    // digits): datafusion-spark returns it anyway, and Arrow prints that
    // out-of-range value ten times too small.
    assert_eq!(
        column(&them, &sql("b", 1)).await?,
        owned(DataType::Decimal128(10, 2), &["12.40", "-12.40", "", "10000000.00", "2.50", "0.00"])
    );
    assert_eq!(
        column(&us, &sql("b", 0)).await?,
        owned(DataType::Decimal128(9, 0), &["12", "-12", "", "100000000", "3", "0"])
    );
    assert_eq!(
        column(&us, "SELECT round(b) FROM t ORDER BY id").await?,
        column(&us, &sql("b", 0)).await?
    );
    assert_eq!(
        column(&them, &sql("b", 0)).await?,
        owned(DataType::Decimal128(10, 2), &["12.00", "-12.00", "", "10000000.00", "3.00", "0.00"])
    );
    // More digits than the scale: Spark still adds the carry digit.
    assert_eq!(
        column(&us, &sql("b", 3)).await?,
        owned(DataType::Decimal128(11, 2), &["12.35", "-12.35", "", "99999999.99", "2.50", "0.00"])
    );
    assert_eq!(
        column(&them, &sql("b", 3)).await?,
        owned(DataType::Decimal128(10, 2), &["12.35", "-12.35", "", "99999999.99", "2.50", "0.00"])
    );
    assert_eq!(
        column(&us, &sql("b", -1)).await?,
        owned(DataType::Decimal128(9, 0), &["10", "-10", "", "100000000", "0", "0"])
    );
    assert_eq!(
        column(&them, &sql("b", -1)).await?,
        owned(DataType::Decimal128(10, 2), &["10.00", "-10.00", "", "10000000.00", "0.00", "0.00"])
    );
    assert_eq!(
        column(&us, &sql("a", 1)).await?,
        owned(
            DataType::Decimal128(22, 1),
            &["123456789012345678.1", "-0.5", "", "100000000000000000000.0", "-1.3", "0.0"]
        )
    );
    // Row 4 again 10^38 unscaled, beyond DECIMAL(38,18).
    assert_eq!(
        column(&them, &sql("a", 1)).await?,
        owned(
            DataType::Decimal128(38, 18),
            &[
                "123456789012345678.100000000000000000",
                "-0.500000000000000000",
                "",
                "10000000000000000000.000000000000000000",
                "-1.300000000000000000",
                "0.000000000000000000",
            ]
        )
    );
    // ±(10^38 - 1) rounds to ±10^38, beyond DECIMAL(38,0): null in Spark.
    assert_eq!(
        column(&us, &sql("c", -1)).await?,
        owned(
            DataType::Decimal128(38, 0),
            &["", "", "", "50000000000000000000000000000000000000", "-20", "30"]
        )
    );
    assert_eq!(
        column(&them, &sql("c", -1)).await?,
        owned(
            DataType::Decimal128(38, 0),
            &[
                "10000000000000000000000000000000000000",
                "-10000000000000000000000000000000000000",
                "",
                "50000000000000000000000000000000000000",
                "-20",
                "30",
            ]
        )
    );
    Ok(())
}

#[tokio::test]
async fn round_overflow_under_ansi_is_an_error_only_when_registered() -> Result<()> {
    // Spark with ANSI on raises the overflow; datafusion-spark returns the
    // out-of-range 10^38 as above.
    let sql = "SELECT round(c, -1) FROM t ORDER BY id";
    let message = error(&ours(true)?, sql).await;
    assert!(message.contains("decimal_round: overflow at row 0"), "{message}");
    let (t, values) = column(&theirs(true)?, sql).await?;
    assert_eq!(t, DataType::Decimal128(38, 0));
    assert_eq!(values[0], "10000000000000000000000000000000000000");
    Ok(())
}

#[tokio::test]
async fn ceil_and_floor_agree() -> Result<()> {
    // Spark's Ceil and Floor of DECIMAL(p, s > 0) are
    // DecimalType.bounded(p - s + 1, 0); of DECIMAL(p, 0) the same type.
    agree_on(
        "SELECT ceil(a) FROM t ORDER BY id",
        dec(21, 0, &["123456789012345679", "0", "", "100000000000000000000", "-1", "1"]),
    )
    .await?;
    agree_on(
        "SELECT floor(a) FROM t ORDER BY id",
        dec(21, 0, &["123456789012345678", "-1", "", "99999999999999999999", "-2", "0"]),
    )
    .await?;
    agree_on(
        "SELECT ceil(b) FROM t ORDER BY id",
        dec(9, 0, &["13", "-12", "", "100000000", "3", "0"]),
    )
    .await?;
    agree_on(
        "SELECT floor(b) FROM t ORDER BY id",
        dec(9, 0, &["12", "-13", "", "99999999", "2", "0"]),
    )
    .await?;
    let c = [
        "99999999999999999999999999999999999999",
        "-99999999999999999999999999999999999999",
        "",
        "50000000000000000000000000000000000000",
        "-15",
        "25",
    ];
    agree_on("SELECT ceil(c) FROM t ORDER BY id", dec(38, 0, &c)).await?;
    agree_on("SELECT floor(c) FROM t ORDER BY id", dec(38, 0, &c)).await?;
    Ok(())
}

#[tokio::test]
async fn abs_agrees() -> Result<()> {
    // Spark's Abs keeps the decimal type; it cannot overflow.
    agree_on(
        "SELECT abs(b) FROM t ORDER BY id",
        dec(10, 2, &["12.35", "12.35", "", "99999999.99", "2.50", "0.00"]),
    )
    .await?;
    agree_on(
        "SELECT abs(c) FROM t ORDER BY id",
        dec(
            38,
            0,
            &[
                "99999999999999999999999999999999999999",
                "99999999999999999999999999999999999999",
                "",
                "50000000000000000000000000000000000000",
                "15",
                "25",
            ],
        ),
    )
    .await?;
    Ok(())
}

#[tokio::test]
async fn negative_fails_in_datafusion_spark_with_ansi_off() -> Result<()> {
    // Spark's UnaryMinus keeps the decimal type and cannot overflow. With
    // ANSI off datafusion-spark's negative returns an array of Arrow's
    // default Decimal128(38, 10), which DataFusion rejects; with ANSI on it
    // keeps the type and agrees.
    let values = [
        "-99999999999999999999999999999999999999",
        "99999999999999999999999999999999999999",
        "",
        "-50000000000000000000000000000000000000",
        "15",
        "-25",
    ];
    let expected = owned(DataType::Decimal128(38, 0), &values);
    assert_eq!(column(&ours(false)?, "SELECT -c FROM t ORDER BY id").await?, expected);
    assert_eq!(column(&ours(true)?, "SELECT -c FROM t ORDER BY id").await?, expected);
    assert_eq!(column(&theirs(true)?, "SELECT negative(c) FROM t ORDER BY id").await?, expected);
    let message = error(&theirs(false)?, "SELECT negative(c) FROM t ORDER BY id").await;
    assert!(message.contains("returned value of type 'Decimal128(38, 10)'"), "{message}");
    Ok(())
}

#[tokio::test]
async fn mod_and_pmod_have_spark_type_only_when_registered() -> Result<()> {
    // Spark's Remainder and Pmod of DECIMAL(p1, s1), DECIMAL(p2, s2) are
    // DECIMAL(min(p1 - s1, p2 - s2) + max(s1, s2), max(s1, s2)) (adjusted
    // past 38 digits), null for a zero divisor with ANSI off.
    // datafusion-spark casts both to one common type and returns it.
    let (them, us) = (theirs(false)?, ours(false)?);
    let a_mod_b = [
        "11.323456789012345678",
        "-0.500000000000000000",
        "",
        "0.999999999999999999",
        "-1.250000000000000000",
        "",
    ];
    assert_eq!(
        column(&us, "SELECT a % b FROM t ORDER BY id").await?,
        owned(DataType::Decimal128(26, 18), &a_mod_b)
    );
    assert_eq!(
        column(&them, "SELECT mod(a, b) FROM t ORDER BY id").await?,
        owned(DataType::Decimal128(38, 18), &a_mod_b)
    );
    // pmod(x, n) = x % n, plus n and % n again where x % n < 0.
    let pmod = |x: &str, n: &str| {
        format!(
            "SELECT CASE WHEN {x} % {n} < 0 THEN ({x} % {n} + {n}) % {n} ELSE {x} % {n} END FROM t ORDER BY id"
        )
    };
    let a_pmod_b = [
        "11.323456789012345678",
        "-0.500000000000000000",
        "",
        "0.999999999999999999",
        "1.250000000000000000",
        "",
    ];
    assert_eq!(column(&us, &pmod("a", "b")).await?, owned(DataType::Decimal128(26, 18), &a_pmod_b));
    assert_eq!(
        column(&them, "SELECT pmod(a, b) FROM t ORDER BY id").await?,
        owned(DataType::Decimal128(38, 18), &a_pmod_b)
    );
    // DECIMAL(38,0) % DECIMAL(10,2) is DECIMAL(10,2) in Spark; datafusion-spark
    // first casts 10^38 - 1 to the common Decimal128(38, 2) and fails.
    let c_mod_b = ["0.20", "-0.20", "", "50000000.00", "0.00", ""];
    assert_eq!(
        column(&us, "SELECT c % b FROM t ORDER BY id").await?,
        owned(DataType::Decimal128(10, 2), &c_mod_b)
    );
    assert_eq!(column(&us, &pmod("c", "b")).await?, owned(DataType::Decimal128(10, 2), &c_mod_b));
    for f in ["mod", "pmod"] {
        let message = error(&them, &format!("SELECT {f}(c, b) FROM t ORDER BY id")).await;
        assert!(message.contains("Cannot cast to Decimal128(38, 2)"), "{message}");
    }
    // Operands of one type: the same type and values.
    agree(
        "SELECT mod(b, b) FROM t ORDER BY id",
        "SELECT b % b FROM t ORDER BY id",
        dec(10, 2, &["0.00", "0.00", "", "0.00", "0.00", ""]),
    )
    .await?;
    Ok(())
}

#[tokio::test]
async fn mod_by_zero_under_ansi_is_an_error_in_both() -> Result<()> {
    // Spark with ANSI on raises DIVIDE_BY_ZERO.
    let message = error(&theirs(true)?, "SELECT mod(a, b) FROM t").await;
    assert!(message.contains("Divide by zero"), "{message}");
    let message = error(&ours(true)?, "SELECT a % b FROM t").await;
    assert!(message.contains("decimal_rem: division by zero at row 5"), "{message}");
    Ok(())
}
