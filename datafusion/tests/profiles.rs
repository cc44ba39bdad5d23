//! `register_with` under the other profiles: the engine's result types,
//! rounding and failure policies on DataFusion's SQL.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Decimal128Array, RecordBatch};
use datafusion::arrow::datatypes::DataType;
use datafusion::arrow::util::display::array_value_to_string;
use datafusion::error::Result;
use datafusion::prelude::SessionContext;
use decimal_kernels_datafusion::{ArithmeticOptions, register_with};

/// A context under `options` with one table `t`: `a` a `DECIMAL(38,18)`
/// holding 123456789012345678.123456789012345678 and `b` one holding
/// 1.123456789123456789, and `x` a `DECIMAL(20,0)` holding 12·10^18.
fn context(options: ArithmeticOptions) -> Result<SessionContext> {
    let column = |v: i128, p: u8, s: i8| -> ArrayRef {
        let array = Decimal128Array::from(vec![v]).with_precision_and_scale(p, s);
        Arc::new(array.unwrap_or_else(|e| panic!("decimal({p}, {s}): {e}")))
    };
    let batch = RecordBatch::try_from_iter([
        ("a", column(123_456_789_012_345_678_123_456_789_012_345_678, 38, 18)),
        ("b", column(1_123_456_789_123_456_789, 38, 18)),
        ("x", column(12_000_000_000_000_000_000, 20, 0)),
    ])?;
    let ctx = SessionContext::new();
    ctx.register_batch("t", batch)?;
    register_with(&ctx, options)?;
    Ok(ctx)
}

/// The type and text of the one value `sql` returns.
async fn value(ctx: &SessionContext, sql: &str) -> Result<(DataType, String)> {
    let batches = ctx.sql(sql).await?.collect().await?;
    let column = batches[0].column(0);
    Ok((column.data_type().clone(), array_value_to_string(column, 0)?))
}

#[tokio::test]
async fn spark_multiplies_at_its_own_type_rounding_half_up() -> Result<()> {
    let ctx = context(ArithmeticOptions::spark())?;
    // Spark: decimal(38,18) * decimal(38,18) is decimal(38,6) with precision loss.
    let (t, v) = value(&ctx, "SELECT a * b FROM t").await?;
    assert_eq!(t, DataType::Decimal128(38, 6));
    // 138698367779301935.654320988543209877515622620763907942, half up.
    assert_eq!(v, "138698367779301935.654321");
    Ok(())
}

#[tokio::test]
async fn spark_gives_a_null_row_for_an_overflow() -> Result<()> {
    let ctx = context(ArithmeticOptions::spark())?;
    // 1.44·10^38 does not fit decimal(38,0): null with ANSI mode off.
    let (t, v) = value(&ctx, "SELECT x * x * x FROM t").await?;
    assert_eq!(t, DataType::Decimal128(38, 0));
    assert_eq!(v, "");
    Ok(())
}

#[tokio::test]
async fn spark_without_precision_loss_keeps_the_scale_and_overflows() -> Result<()> {
    let ctx = context(ArithmeticOptions::spark_no_precision_loss())?;
    let (t, v) = value(&ctx, "SELECT a * b FROM t").await?;
    assert_eq!(t, DataType::Decimal128(38, 36));
    assert_eq!(v, "", "beyond decimal(38,36): null");
    Ok(())
}

#[tokio::test]
async fn presto_divides_rounding_half_up_at_its_type() -> Result<()> {
    let ctx = context(ArithmeticOptions::presto())?;
    let (t, v) = value(&ctx, "SELECT CAST(2 AS DECIMAL(3,0)) / CAST(3 AS DECIMAL(3,0))").await?;
    // Presto: decimal(3,0) / decimal(3,0) is decimal(3,0); 0.67 rounds to 1.
    assert_eq!(t, DataType::Decimal128(3, 0));
    assert_eq!(v, "1");
    Ok(())
}

#[tokio::test]
async fn the_arrow_profile_sums_as_datafusion_types_it() -> Result<()> {
    let ctx = context(ArithmeticOptions::arrow(decimal_kernels::StorageWidth::I32))?;
    // The profile's width is the operands': a Decimal128 sum stays Decimal128.
    let (t, v) = value(&ctx, "SELECT sum(b) FROM t").await?;
    assert_eq!(t, DataType::Decimal128(38, 18));
    assert_eq!(v, "1.123456789123456789");
    Ok(())
}

#[tokio::test]
async fn spark_casts_a_double_through_its_shortest_text_and_nulls_an_overflow() -> Result<()> {
    let ctx = context(ArithmeticOptions::spark())?;
    // 9.95 is the double 9.949999…; Spark reads "9.95" and rounds half up.
    let (t, v) = value(&ctx, "SELECT CAST(CAST(9.95 AS DOUBLE) AS DECIMAL(3, 1))").await?;
    assert_eq!((t, v.as_str()), (DataType::Decimal128(3, 1), "10.0"));
    let (_, v) = value(&ctx, "SELECT CAST(x AS DECIMAL(5, 0)) FROM t").await?;
    assert_eq!(v, "", "12·10^18 does not fit decimal(5,0): null with ANSI off");
    // Spark truncates a decimal to an integer.
    let (_, v) = value(&ctx, "SELECT CAST(CAST(-2.7 AS DECIMAL(3, 1)) AS INT)").await?;
    assert_eq!(v, "-2");
    Ok(())
}

#[tokio::test]
async fn the_arrow_profile_casts_as_arrow_cast_rounds_once() -> Result<()> {
    let ctx = context(ArithmeticOptions::arrow(decimal_kernels::StorageWidth::I128))?;
    // The double's exact value, 9.949999…, rounded once.
    let (_, v) = value(&ctx, "SELECT CAST(CAST(9.95 AS DOUBLE) AS DECIMAL(3, 1))").await?;
    assert_eq!(v, "9.9");
    let err = value(&ctx, "SELECT CAST(x AS DECIMAL(5, 0)) FROM t").await.expect_err("overflow");
    assert!(err.to_string().contains("decimal_cast"), "{err}");
    let (_, v) = value(&ctx, "SELECT TRY_CAST(x AS DECIMAL(5, 0)) FROM t").await?;
    assert_eq!(v, "");
    Ok(())
}
