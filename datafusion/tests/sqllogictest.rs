//! DataFusion's own decimal sqllogictest cases, run with and without
//! [`decimal_kernels_datafusion::register`].
//!
//! Every `tests/slt/*.slt` file runs twice through the `sqllogictest` crate,
//! each time on a fresh `SessionContext` configured as DataFusion's runner
//! configures one (four target partitions): once plain, which gives
//! DataFusion's own answers, and once after `register`, with the runner label
//! `register` set. The results are printed as DataFusion's runner prints them
//! (see [`cell`]), so the expected results of DataFusion's suite hold as they
//! are. `tests/slt/README.md` says which cases were taken, from where, and
//! which were left out.
//!
//! # Known differences
//!
//! A record whose result differs under `register` is written twice, one
//! after the other, with the same SQL:
//!
//! ```text
//! # difference: why the answers differ (DataFusion's wrong value and the
//! # exact one, another error message, another result type)
//! skipif register
//! query R
//! SELECT ...
//! ----
//! DataFusion's answer
//!
//! onlyif register
//! query R
//! SELECT ...
//! ----
//! the exact answer
//! ```
//!
//! An expected error on one side and a result on the other, or errors with
//! different messages, are written the same way. The test checks that every `onlyif register` record follows a
//! `skipif register` record with the same SQL and a different expectation,
//! and that a `# difference:` comment precedes the pair. The plain run skips
//! the `onlyif` record and the `register` run the `skipif` record, so an
//! unlisted difference fails the `register` run, and a listed difference that
//! no longer occurs fails it too (the `onlyif` record then no longer matches).
//!
//! # Census
//!
//! The registered run also reads the optimized plan of every query and
//! fails on each decimal expression it leaves to DataFusion that
//! `README.md` does not list as left to it (`support::decimal_expressions`).
//!
//! # Data files
//!
//! `__DATA_DIR__` in a file stands for a temporary directory, a fresh one for
//! each run of each file, into which the test writes the CSV files the cases
//! read, from the rows in [`DATA_FILES`], and where records may write files of
//! their own (`COPY ... TO`). `SLT_FILE=name` runs only the files whose name
//! contains `name`.

use std::fmt;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, Decimal32Array, Decimal64Array, Decimal128Array,
    Decimal256Array, Float16Array, Float32Array, Float64Array, LargeStringArray, StringArray,
    StringViewArray,
};
use datafusion::arrow::datatypes::{DataType, Fields};
use datafusion::arrow::error::ArrowError;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::arrow::util::display::ArrayFormatter;
use datafusion::error::DataFusionError;
use datafusion::physical_plan::execute_stream;
use datafusion::prelude::{SessionConfig, SessionContext};
use sqllogictest::{
    AsyncDB, ColumnType, Condition, DBOutput, QueryExpect, Record, Runner, StatementExpect,
};
use support::decimal_expressions;

mod support;

/// The label set for the run after `register`.
const REGISTER_LABEL: &str = "register";

/// Placeholder for the directory holding the generated data files.
const DATA_DIR_PLACEHOLDER: &str = "__DATA_DIR__";

/// Data files the cases read, as (file name, CSV lines). The rows are those
/// of DataFusion's `datafusion/core/tests/data/decimal_data.csv`, in its
/// order (queries ordered on `c1` alone show it).
const DATA_FILES: &[(&str, &[&str])] = &[(
    "decimal_data.csv",
    &[
        "c1,c2,c3,c4,c5",
        "0.00001,0.000000000001,1,true,0.000014",
        "0.00002,0.000000000002,2,true,0.000025",
        "0.00002,0.000000000002,3,false,0.000019",
        "0.00003,0.000000000003,4,true,0.000032",
        "0.00003,0.000000000003,5,false,0.000035",
        "0.00003,0.000000000003,5,true,0.000011",
        "0.00004,0.000000000004,5,true,0.000044",
        "0.00004,0.000000000004,12,false,0.000040",
        "0.00004,0.000000000004,14,true,0.000040",
        "0.00004,0.000000000004,8,false,0.000044",
        "0.00005,0.000000000005,9,true,0.000052",
        "0.00005,0.000000000005,4,true,0.000078",
        "0.00005,0.000000000005,8,false,0.000033",
        "0.00005,0.000000000005,100,true,0.000068",
        "0.00005,0.000000000005,1,false,0.000100",
    ],
)];

/// How DataFusion's runner prints NULL.
const NULL: &str = "NULL";

/// Column type letters of DataFusion's sqllogictest files.
#[derive(Debug, PartialEq, Eq, Clone)]
enum Column {
    /// `B`
    Boolean,
    /// `D`: dates and times of day.
    DateTime,
    /// `I`: signed and unsigned integers.
    Integer,
    /// `R`: floats and decimals.
    Float,
    /// `T`: strings, and dictionaries of strings.
    Text,
    /// `P`: timestamps.
    Timestamp,
    /// `?`: anything else.
    Another,
}

impl ColumnType for Column {
    fn from_char(value: char) -> Option<Self> {
        Some(match value {
            'B' => Self::Boolean,
            'D' => Self::DateTime,
            'I' => Self::Integer,
            'R' => Self::Float,
            'T' => Self::Text,
            'P' => Self::Timestamp,
            _ => Self::Another,
        })
    }

    fn to_char(&self) -> char {
        match self {
            Self::Boolean => 'B',
            Self::DateTime => 'D',
            Self::Integer => 'I',
            Self::Float => 'R',
            Self::Text => 'T',
            Self::Timestamp => 'P',
            Self::Another => '?',
        }
    }
}

/// The letter of each column of a result.
fn column_types(fields: &Fields) -> Vec<Column> {
    fields
        .iter()
        .map(|field| match field.data_type() {
            DataType::Boolean => Column::Boolean,
            DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64 => Column::Integer,
            DataType::Float16
            | DataType::Float32
            | DataType::Float64
            | DataType::Decimal32(..)
            | DataType::Decimal64(..)
            | DataType::Decimal128(..)
            | DataType::Decimal256(..) => Column::Float,
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Column::Text,
            DataType::Date32 | DataType::Date64 | DataType::Time32(_) | DataType::Time64(_) => {
                Column::DateTime
            }
            DataType::Timestamp(..) => Column::Timestamp,
            DataType::Dictionary(key, value)
                if key.is_integer()
                    && matches!(
                        value.as_ref(),
                        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
                    ) =>
            {
                Column::Text
            }
            _ => Column::Another,
        })
        .collect()
}

/// Rounds the plain decimal text `text` (an optional `-`, digits, an optional
/// fraction; no exponent) to at most `digits` fraction digits, ties to even,
/// and drops trailing fraction zeros: DataFusion's runner prints floats and
/// decimals this way (with 12 digits for floats, the scale for decimals).
fn plain_rounded(text: &str, digits: usize) -> String {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int_part, frac_part) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let mut kept: Vec<u8> = int_part.bytes().chain(frac_part.bytes().take(digits)).collect();
    let dropped = frac_part.as_bytes().get(digits..).unwrap_or(&[]);
    let round_up = match dropped.first() {
        Some(b'6'..=b'9') => true,
        Some(b'5') => {
            dropped[1..].iter().any(|&d| d != b'0')
                || kept.last().is_some_and(|&d| (d - b'0') % 2 == 1)
        }
        _ => false,
    };
    let mut int_len = int_part.len();
    if round_up {
        let mut carry = true;
        for d in kept.iter_mut().rev() {
            if *d == b'9' {
                *d = b'0';
            } else {
                *d += 1;
                carry = false;
                break;
            }
        }
        if carry {
            kept.insert(0, b'1');
            int_len += 1;
        }
    }
    let (int_digits, frac_digits) = kept.split_at(int_len);
    let int_text = std::str::from_utf8(int_digits).unwrap_or("0").trim_start_matches('0');
    let frac_text = std::str::from_utf8(frac_digits).unwrap_or("").trim_end_matches('0');
    let int_text = if int_text.is_empty() { "0" } else { int_text };
    if int_text == "0" && frac_text.is_empty() {
        return "0".to_owned();
    }
    let sign = if negative { "-" } else { "" };
    if frac_text.is_empty() {
        format!("{sign}{int_text}")
    } else {
        format!("{sign}{int_text}.{frac_text}")
    }
}

/// A float as DataFusion's runner prints it: `NaN` whatever its sign,
/// `Infinity`, `-Infinity`, else rounded to 12 fraction digits.
fn float_text(value: f64, text: String) -> String {
    if value.is_nan() {
        "NaN".to_owned()
    } else if value.is_infinite() {
        if value > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
    } else {
        plain_rounded(&text, 12)
    }
}

/// A decimal's text (`format_decimal` of Arrow) without trailing zeros.
fn decimal_text(text: &str, scale: i8) -> String {
    plain_rounded(text, usize::try_from(scale).unwrap_or(0))
}

/// A string as DataFusion's runner prints it: `(empty)` for the empty
/// string, trailing newlines dropped, NUL as `\0`.
fn string_text(value: &str) -> String {
    if value.is_empty() {
        "(empty)".to_owned()
    } else {
        value.trim_end_matches('\n').replace('\0', "\\0")
    }
}

/// One cell of a result, printed as DataFusion's runner prints it.
fn cell(column: &ArrayRef, row: usize) -> Result<String, ArrowError> {
    if column.is_null(row) {
        return Ok(NULL.to_owned());
    }
    let any = column.as_any();
    let downcast_error = || ArrowError::CastError(format!("{}", column.data_type()));
    Ok(match column.data_type() {
        DataType::Null => NULL.to_owned(),
        DataType::Boolean => {
            let array = any.downcast_ref::<BooleanArray>().ok_or_else(downcast_error)?;
            array.value(row).to_string()
        }
        DataType::Float16 => {
            let value = any.downcast_ref::<Float16Array>().ok_or_else(downcast_error)?.value(row);
            float_text(f64::from(value), value.to_string())
        }
        DataType::Float32 => {
            let value = any.downcast_ref::<Float32Array>().ok_or_else(downcast_error)?.value(row);
            float_text(f64::from(value), value.to_string())
        }
        DataType::Float64 => {
            let value = any.downcast_ref::<Float64Array>().ok_or_else(downcast_error)?.value(row);
            float_text(value, value.to_string())
        }
        DataType::Decimal32(_, scale) => {
            let array = any.downcast_ref::<Decimal32Array>().ok_or_else(downcast_error)?;
            decimal_text(&array.value_as_string(row), *scale)
        }
        DataType::Decimal64(_, scale) => {
            let array = any.downcast_ref::<Decimal64Array>().ok_or_else(downcast_error)?;
            decimal_text(&array.value_as_string(row), *scale)
        }
        DataType::Decimal128(_, scale) => {
            let array = any.downcast_ref::<Decimal128Array>().ok_or_else(downcast_error)?;
            decimal_text(&array.value_as_string(row), *scale)
        }
        DataType::Decimal256(_, scale) => {
            let array = any.downcast_ref::<Decimal256Array>().ok_or_else(downcast_error)?;
            decimal_text(&array.value_as_string(row), *scale)
        }
        DataType::Utf8 => {
            string_text(any.downcast_ref::<StringArray>().ok_or_else(downcast_error)?.value(row))
        }
        DataType::LargeUtf8 => string_text(
            any.downcast_ref::<LargeStringArray>().ok_or_else(downcast_error)?.value(row),
        ),
        DataType::Utf8View => string_text(
            any.downcast_ref::<StringViewArray>().ok_or_else(downcast_error)?.value(row),
        ),
        DataType::Dictionary(..) => {
            let dictionary = column.as_any_dictionary();
            let key = dictionary.normalized_keys()[row];
            return cell(dictionary.values(), key);
        }
        _ => {
            let options =
                datafusion::config::FormatOptions { null: NULL.to_owned(), ..Default::default() };
            let options: datafusion::arrow::util::display::FormatOptions<'_> = (&options)
                .try_into()
                .map_err(|e: DataFusionError| ArrowError::ExternalError(Box::new(e)))?;
            ArrayFormatter::try_new(column.as_ref(), &options)?.value(row).to_string()
        }
    })
}

/// Splits a row whose last cell has several lines (a plan) into one row per
/// line, numbered, with leading spaces shown as `-`, as DataFusion's runner
/// does.
fn expand_row(mut row: Vec<String>) -> Vec<Vec<String>> {
    let Some(last) = row.pop() else {
        return vec![row];
    };
    if !last.contains('\n') {
        row.push(last);
        return vec![row];
    }
    let mut rows = vec![row];
    for (index, line) in last.split('\n').enumerate() {
        let content = line.trim_start();
        let indent = "-".repeat(line.len() - content.len());
        rows.push(vec![format!("{:02}){indent}{content}", index + 1)]);
    }
    rows
}

/// An error of a query, shown as DataFusion's runner shows it (expected
/// error messages match against this text).
#[derive(Debug)]
enum EngineError {
    DataFusion(DataFusionError),
    Arrow(ArrowError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DataFusion(e) => write!(f, "DataFusion error: {}", e.strip_backtrace()),
            Self::Arrow(e) => write!(f, "Arrow error: {e}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<DataFusionError> for EngineError {
    fn from(e: DataFusionError) -> Self {
        Self::DataFusion(e)
    }
}

/// A `SessionContext` as a sqllogictest database; for a registered context,
/// with the census of the decimal expressions its plans leave to DataFusion.
struct Engine {
    ctx: SessionContext,
    census: Option<Census>,
}

/// The decimal expressions left to DataFusion that `README.md` does not
/// list, each with its query.
type Census = Arc<Mutex<Vec<String>>>;

impl Engine {
    async fn query(&self, sql: &str) -> Result<DBOutput<Column>, EngineError> {
        let frame = self.ctx.sql(sql).await?;
        if let Some(census) = &self.census
            && let Ok(plan) = frame.clone().into_optimized_plan()
        {
            let left = decimal_expressions(&plan)?.datafusion;
            let mut census = census.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            census.extend(left.into_iter().map(|e| format!("{e}\n  in {sql}")));
        }
        let task_ctx = Arc::new(frame.task_ctx());
        let plan = frame.create_physical_plan().await?;
        let schema = plan.schema();
        let stream = execute_stream(plan, task_ctx)?;
        let types = column_types(stream.schema().fields());
        let batches: Vec<RecordBatch> = datafusion::physical_plan::common::collect(stream).await?;
        let mut rows = Vec::new();
        for batch in batches {
            if !schema.contains(&batch.schema()) {
                return Err(EngineError::DataFusion(DataFusionError::Internal(format!(
                    "schema mismatch: planned {schema:?}, got {:?}",
                    batch.schema()
                ))));
            }
            for row in 0..batch.num_rows() {
                let cells = batch
                    .columns()
                    .iter()
                    .map(|column| cell(column, row))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(EngineError::Arrow)?;
                rows.extend(expand_row(cells));
            }
        }
        if rows.is_empty() && types.is_empty() {
            Ok(DBOutput::StatementComplete(0))
        } else {
            Ok(DBOutput::Rows { types, rows })
        }
    }
}

/// The future type of the (`async_trait`-shaped) [`AsyncDB`] methods.
type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

impl AsyncDB for Engine {
    type Error = EngineError;
    type ColumnType = Column;

    fn run<'s, 'q, 'f>(
        &'s mut self,
        sql: &'q str,
    ) -> BoxFuture<'f, Result<DBOutput<Column>, EngineError>>
    where
        's: 'f,
        'q: 'f,
        Self: 'f,
    {
        Box::pin(self.query(sql))
    }

    fn shutdown<'s, 'f>(&'s mut self) -> BoxFuture<'f, ()>
    where
        's: 'f,
        Self: 'f,
    {
        Box::pin(async {})
    }

    fn engine_name(&self) -> &str {
        "DataFusion"
    }
}

/// A context configured as DataFusion's runner configures one.
fn new_context() -> SessionContext {
    SessionContext::new_with_config(SessionConfig::new().with_target_partitions(4))
}

/// Lines of a result as the validator compares them: trailing spaces
/// dropped, as DataFusion's runner does.
#[expect(clippy::ptr_arg, reason = "the sqllogictest Normalizer type takes &String")]
fn trim_end(line: &String) -> String {
    line.trim_end().to_owned()
}

/// Actual rows, cells joined by a space, against the expected lines.
fn validate(
    normalizer: sqllogictest::Normalizer,
    actual: &[Vec<String>],
    expected: &[String],
) -> bool {
    let actual: Vec<String> =
        actual.iter().map(|row| row.join(" ").trim_end().to_owned()).collect();
    let expected: Vec<String> = expected.iter().map(normalizer).collect();
    actual == expected
}

/// The SQL and what is expected of a statement or query record.
fn sql_and_expectation(record: &Record<Column>) -> Option<(&[Condition], &str, String)> {
    match record {
        Record::Statement { conditions, sql, expected, .. } => {
            let expected = match expected {
                StatementExpect::Ok => "ok".to_owned(),
                StatementExpect::Count(n) => format!("count {n}"),
                StatementExpect::Error(e) => format!("error {e}"),
            };
            Some((conditions, sql, expected))
        }
        Record::Query { conditions, sql, expected, .. } => {
            let expected = match expected {
                QueryExpect::Results { types, results, .. } => {
                    let types: String = types.iter().map(Column::to_char).collect();
                    format!("{types}\n{}", results.join("\n"))
                }
                QueryExpect::Error(e) => format!("error {e}"),
            };
            Some((conditions, sql, expected))
        }
        _ => None,
    }
}

fn has_label(conditions: &[Condition], only: bool) -> bool {
    conditions.iter().any(|c| match c {
        Condition::OnlyIf { label } => only && label == REGISTER_LABEL,
        Condition::SkipIf { label } => !only && label == REGISTER_LABEL,
    })
}

/// Checks the shape of the known differences of one file: every `onlyif
/// register` record follows a `skipif register` record with the same SQL and
/// another expectation, after a `# difference:` comment.
fn check_differences(name: &str, records: &[Record<Column>], problems: &mut Vec<String>) {
    let mut previous: Option<(&[Condition], &str, String)> = None;
    let mut explained = false;
    for record in records {
        if let Record::Comment(lines) = record
            && lines
                .iter()
                .any(|l| l.trim_start_matches('#').trim_start().starts_with("difference:"))
        {
            explained = true;
        }
        let Some(current) = sql_and_expectation(record) else {
            continue;
        };
        let loc = match record {
            Record::Statement { loc, .. } | Record::Query { loc, .. } => loc.to_string(),
            _ => name.to_owned(),
        };
        if has_label(current.0, false) && !explained {
            problems.push(format!("{loc}: `skipif register` without a `# difference:` comment"));
        }
        if has_label(current.0, true) {
            match &previous {
                Some((conditions, sql, expected)) if has_label(conditions, false) => {
                    if *sql != current.1 {
                        problems.push(format!(
                            "{loc}: `onlyif register` record with other SQL than the `skipif register` one before it"
                        ));
                    } else if *expected == current.2 {
                        problems.push(format!(
                            "{loc}: `onlyif register` record expecting what DataFusion gives"
                        ));
                    }
                }
                _ => problems.push(format!(
                    "{loc}: `onlyif register` record not right after a `skipif register` one"
                )),
            }
            explained = false;
        } else if !has_label(current.0, false) {
            explained = false;
        }
        previous = Some(current);
    }
}

/// Runs `records` on a fresh context, `register`ed or not, and adds every
/// failing record to `failures`.
async fn run_file(records: &[Record<Column>], register: bool, failures: &mut Vec<String>) {
    let ctx = new_context();
    if register && let Err(e) = decimal_kernels_datafusion::register(&ctx) {
        failures.push(format!("register failed: {e}"));
        return;
    }
    let census = register.then(Census::default);
    let engine_census = census.clone();
    let mut runner = Runner::new(move || {
        let (ctx, census) = (ctx.clone(), engine_census.clone());
        async move { Ok::<_, EngineError>(Engine { ctx, census }) }
    });
    if register {
        runner.add_label(REGISTER_LABEL);
    }
    runner.with_column_validator(sqllogictest::strict_column_validator);
    runner.with_normalizer(trim_end);
    runner.with_validator(validate);
    let run = if register { "register" } else { "plain" };
    for record in records {
        if let Err(e) = runner.run_async(record.clone()).await {
            failures.push(format!("[{run}] {e}"));
        }
    }
    runner.shutdown_async().await;
    if let Some(census) = census {
        let left = census.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        failures.extend(left.iter().map(|e| format!("[census] left to DataFusion: {e}")));
    }
}

/// Writes the data files into `dir`.
fn write_data_files(dir: &Path) -> std::io::Result<()> {
    for (name, lines) in DATA_FILES {
        let mut text = lines.join("\n");
        text.push('\n');
        std::fs::write(dir.join(name), text)?;
    }
    Ok(())
}

/// The `.slt` files, sorted by name.
fn slt_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slt");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "slt"))
        .collect();
    files.sort();
    files
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn datafusion_decimal_slt_plain_and_registered() {
    let only = std::env::var("SLT_FILE").ok();
    let mut failures = Vec::new();
    let files = slt_files();
    assert!(!files.is_empty(), "no .slt files");
    for path in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if only.as_ref().is_some_and(|only| !name.contains(only.as_str())) {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        for register in [false, true] {
            // A data directory of its own for each run: records may write
            // files there (COPY) as well as read the generated ones.
            let data = tempfile::tempdir().expect("temporary directory");
            write_data_files(data.path()).expect("writing the data files");
            let data_dir = data.path().to_str().expect("UTF-8 temporary path");
            let script = text.replace(DATA_DIR_PLACEHOLDER, data_dir);
            let records = match sqllogictest::parse_with_name::<Column>(&script, name.as_str()) {
                Ok(records) => records,
                Err(e) => {
                    failures.push(format!("{name}: {e}"));
                    break;
                }
            };
            if !register {
                check_differences(&name, &records, &mut failures);
            }
            run_file(&records, register, &mut failures).await;
        }
    }
    assert!(failures.is_empty(), "{} failures:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// The sqllogictest rendering of the crate's Arrow-profile conformance
/// vectors, written by the main crate's `conformance_vectors` example.
const CONFORMANCE_SLT: &str = "conformance_arrow.slt";

/// Where [`plain_conformance_answers_are_recorded`] reads and writes, from
/// this crate's root.
const PLAIN_ANSWERS: &str = "../conformance/vectors/datafusion_plain.txt";

/// What plain DataFusion answers to every query of
/// `tests/slt/conformance_arrow.slt`, held to
/// `conformance/vectors/datafusion_plain.txt`: `Q <sql>`, then `= <row>` as
/// the runner prints it, `E <error>`, its line breaks written `\n`, or
/// `P <message>` where DataFusion panics (the generator leaves such a query
/// out of the file). The generator reads the file to write the known
/// differences of the `.slt` file, so a DataFusion whose answers changed
/// fails here, naming the first query. With `RECORD_PLAIN_ANSWERS=1` the
/// test writes the file instead (conformance/README.md says when).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_conformance_answers_are_recorded() {
    use std::fmt::Write as _;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("tests/slt").join(CONFORMANCE_SLT);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let records = sqllogictest::parse_with_name::<Column>(&text, CONFORMANCE_SLT)
        .unwrap_or_else(|e| panic!("parsing {CONFORMANCE_SLT}: {e}"));
    let engine = Engine { ctx: new_context(), census: None };
    let mut out = String::from(
        "# What plain DataFusion (without register) answers to each query of\n\
         # datafusion/tests/slt/conformance_arrow.slt, written by\n\
         # `RECORD_PLAIN_ANSWERS=1 cargo test --test sqllogictest plain_conformance_answers`\n\
         # in datafusion/ and read by `cargo run --example conformance_vectors`.\n",
    );
    let mut seen = std::collections::BTreeSet::new();
    // The queries of the file's records, then those it leaves out because
    // plain DataFusion panics on them (each written, commented, on the line
    // after `# left out: ...`), so that the record keeps saying so.
    let run = records.iter().filter_map(|record| match record {
        Record::Query { conditions, sql, .. } if !has_label(conditions, true) => Some(sql.clone()),
        _ => None,
    });
    let left_out = text
        .lines()
        .zip(text.lines().skip(1))
        .filter(|(line, _)| line.starts_with("# left out:"))
        .filter_map(|(_, next)| next.strip_prefix("# ").map(str::to_owned));
    for sql in run.chain(left_out) {
        if !seen.insert(sql.clone()) {
            continue;
        }
        // A query of its own task, so that a panic of DataFusion's is
        // recorded (as `P`) instead of ending the recording.
        let (ctx, query) = (engine.ctx.clone(), sql.clone());
        let answer = tokio::spawn(async move {
            match (Engine { ctx, census: None }).query(&query).await {
                Ok(DBOutput::Rows { rows, .. }) => {
                    let rows: Vec<String> =
                        rows.iter().map(|row| row.join(" ").trim_end().to_owned()).collect();
                    format!("= {}", rows.join(" | "))
                }
                Ok(_) => "= ".to_owned(),
                Err(e) => format!("E {}", e.to_string().trim_end().replace('\n', "\\n")),
            }
        })
        .await
        .unwrap_or_else(|e| {
            let message = e.try_into_panic().ok().and_then(|p| {
                p.downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| p.downcast_ref::<String>().cloned())
            });
            format!("P {}", message.unwrap_or_default().replace('\n', "\\n"))
        });
        let _ = writeln!(out, "Q {sql}\n{answer}");
    }
    let recorded = root.join(PLAIN_ANSWERS);
    if std::env::var_os("RECORD_PLAIN_ANSWERS").is_some() {
        std::fs::write(&recorded, out).expect("writing the recorded answers");
        return;
    }
    let kept = std::fs::read_to_string(&recorded)
        .unwrap_or_else(|e| panic!("reading {}: {e}", recorded.display()));
    if let Some((kept, now)) = kept.lines().zip(out.lines()).find(|(kept, now)| kept != now) {
        panic!(
            "plain DataFusion now answers otherwise than {PLAIN_ANSWERS} records:\n  recorded: \
             {kept}\n  now:      {now}\nrecord again (RECORD_PLAIN_ANSWERS=1) and regenerate \
             the vectors (conformance/README.md)"
        );
    }
    assert_eq!(
        kept.lines().count(),
        out.lines().count(),
        "{PLAIN_ANSWERS}: another number of lines"
    );
}

#[test]
fn plain_rounded_matches_the_runner() {
    for (text, digits, expected) in [
        ("0.110", 3, "0.11"),
        ("1.1", 1, "1.1"),
        ("-0.011", 3, "-0.011"),
        ("110", 0, "110"),
        ("0.00", 2, "0"),
        ("-0.00", 2, "0"),
        ("1.0000000000011", 12, "1.000000000001"),
        ("0.1234567890125", 12, "0.123456789012"),
        ("0.1234567890135", 12, "0.123456789014"),
        ("0.12345678901251", 12, "0.123456789013"),
        ("9.9999999999999", 12, "10"),
        ("-9.9999999999999", 12, "-10"),
        ("400420638.54", 12, "400420638.54"),
    ] {
        assert_eq!(plain_rounded(text, digits), expected, "{text} to {digits}");
    }
}
