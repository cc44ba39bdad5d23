//! `decimal_add`, `decimal_sub`, `decimal_mul` and `decimal_div` as DataFusion
//! scalar UDFs, computed by decimal-kernels (FixedPoint profile, any decimal
//! argument types), over a generated million-row Parquet file.
//!
//! The arguments keep their own decimal types (no implicit casts): the kernels
//! align scales exactly, so nothing goes through a float. Arrow arrays become
//! `DecimalArray`s and back without copying. Every result row is checked
//! against the crate's exact reference.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use arrow::array::{ArrayRef, Decimal128Array, RecordBatch};
use arrow::datatypes::{DataType, Field, Schema};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature, Volatility,
};
use datafusion::prelude::{ParquetReadOptions, SessionContext};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalScalar, Operand, binary, conformance,
    result_type,
};
use parquet::arrow::ArrowWriter;

/// Rows in the generated file.
const ROWS: usize = 1_000_000;
/// Rows per written record batch.
const BATCH: usize = 65_536;

/// The operators registered, each as the scalar UDF of its name.
const UDFS: [(BinaryOp, &str); 4] = [
    (BinaryOp::Add, "decimal_add"),
    (BinaryOp::Sub, "decimal_sub"),
    (BinaryOp::Mul, "decimal_mul"),
    (BinaryOp::Div, "decimal_div"),
];

/// One of the four operators as a scalar UDF `decimal_<op>(a, b)`.
#[derive(Debug, PartialEq, Eq, Hash)]
struct DecimalUdf {
    name: &'static str,
    op: BinaryOp,
    signature: Signature,
}

impl DecimalUdf {
    fn new(op: BinaryOp, name: &'static str) -> Self {
        Self { name, op, signature: Signature::user_defined(Volatility::Immutable) }
    }

    fn options() -> ArithmeticOptions {
        ArithmeticOptions::fixed_point()
    }
}

/// The decimal type of an argument type, as a DataFusion planning error.
fn decimal_type(data_type: &DataType) -> Result<decimal_kernels::DecimalType> {
    match decimal_kernels::arrow::decimal_type(data_type) {
        Ok((t, _)) => Ok(t),
        Err(e) => plan_err!("decimal arguments expected: {e}"),
    }
}

/// One evaluated argument, converted without copying.
enum Arg {
    Array(DecimalArray),
    Scalar(DecimalScalar),
}

impl Arg {
    fn new(value: &ColumnarValue) -> Result<Self> {
        let converted = match value {
            ColumnarValue::Array(a) => DecimalArray::from_arrow(a.as_ref()).map(Self::Array),
            ColumnarValue::Scalar(s) => {
                let one = s.to_array_of_size(1)?;
                DecimalArray::from_arrow(one.as_ref()).and_then(|a| {
                    let t = a.dtype();
                    Ok(Self::Scalar(a.scalar(0).unwrap_or_else(|| DecimalScalar::null(t))))
                })
            }
        };
        converted.or_else(|e| exec_err!("{e}"))
    }

    fn operand(&self) -> Operand<'_> {
        match self {
            Self::Array(a) => Operand::Array(a),
            Self::Scalar(s) => Operand::Scalar(s),
        }
    }
}

impl ScalarUDFImpl for DecimalUdf {
    fn name(&self) -> &str {
        self.name
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    /// Any two decimals, as they are: no implicit cast.
    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        match arg_types {
            [a, b] => {
                decimal_type(a)?;
                decimal_type(b)?;
                Ok(arg_types.to_vec())
            }
            _ => plan_err!("{} takes two decimal arguments", self.name),
        }
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        let [a, b] = arg_types else {
            return plan_err!("{} takes two decimal arguments", self.name);
        };
        match result_type(self.op, decimal_type(a)?, decimal_type(b)?, &Self::options()) {
            Ok(t) => Ok(decimal_kernels::arrow::data_type(t, t.storage_width())),
            Err(e) => plan_err!("{e}"),
        }
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let [a, b] = args.args.as_slice() else {
            return exec_err!("{} takes two decimal arguments", self.name);
        };
        let (a, b) = (Arg::new(a)?, Arg::new(b)?);
        let result = match binary(self.op, a.operand(), b.operand(), &Self::options()) {
            Ok(result) => result.to_arrow(),
            Err(e) => return exec_err!("{}: {e}", self.name),
        };
        match (&a, &b) {
            (Arg::Scalar(_), Arg::Scalar(_)) => {
                Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&result, 0)?))
            }
            _ => Ok(ColumnarValue::Array(result)),
        }
    }
}

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
fn write_parquet(path: &Path) -> std::result::Result<(), Box<dyn std::error::Error>> {
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

/// The query's result columns: each operator's operands and result.
const CHECKS: [(BinaryOp, usize, usize, usize); 4] = [
    (BinaryOp::Add, 0, 1, 3),
    (BinaryOp::Sub, 0, 2, 4),
    (BinaryOp::Mul, 0, 1, 5),
    (BinaryOp::Div, 0, 2, 6),
];

#[tokio::main]
async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("orders.parquet");
    let started = Instant::now();
    write_parquet(&path)?;
    println!("wrote {ROWS} rows to {} in {:.1?}", path.display(), started.elapsed());

    let ctx = SessionContext::new();
    for (op, name) in UDFS {
        ctx.register_udf(ScalarUDF::from(DecimalUdf::new(op, name)));
    }
    let file = path.to_str().ok_or("temporary path is not UTF-8")?;
    ctx.register_parquet("orders", file, ParquetReadOptions::default()).await?;

    let sql = "SELECT price, qty, rate, \
               decimal_add(price, qty) AS total, \
               decimal_sub(price, rate) AS net, \
               decimal_mul(price, qty) AS amount, \
               decimal_div(price, rate) AS per_rate, \
               decimal_mul(price, CAST(1.08 AS DECIMAL(3, 2))) AS taxed \
               FROM orders";
    let started = Instant::now();
    let batches = ctx.sql(sql).await?.collect().await?;
    println!("ran the query in {:.1?}", started.elapsed());

    let first = batches.first().ok_or("no result batches")?;
    let schema = first.schema();
    let names: Vec<String> =
        schema.fields().iter().map(|f| format!("{} {}", f.name(), f.data_type())).collect();
    println!("{}", names.join(" | "));
    let decimals = |batch: &RecordBatch| -> std::result::Result<Vec<DecimalArray>, _> {
        batch.columns().iter().map(|c| DecimalArray::from_arrow(c.as_ref())).collect()
    };
    let shown = decimals(first)?;
    for row in 0..first.num_rows().min(5) {
        let cells: Vec<String> =
            shown.iter().filter_map(|c| c.scalar(row)).map(|v| v.to_string()).collect();
        println!("{}", cells.join(" | "));
    }

    // Every row of every result against the exact reference.
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
        rows += batch.num_rows();
    }
    if rows != ROWS {
        return Err(format!("{rows} rows returned, {ROWS} expected").into());
    }
    println!(
        "checked {rows} rows x {} results against the reference in {:.1?}: all equal",
        CHECKS.len() + 1,
        started.elapsed()
    );
    Ok(())
}
