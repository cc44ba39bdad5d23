//! The tables of `docs/semantics.md`, executed.
//!
//! Every worked example runs through the reference (`DecimalScalar::reference_binary`),
//! `result_type`, and the kernels (`binary`) in every operand shape; the
//! rounding table runs as divisions; the text tables through parsing and
//! printing. A table row that cannot be parsed fails, and so does a page with
//! fewer examples than the guard counts or without one of the cases it
//! promises to cover, so that the tests cannot pass on a page they did not
//! read.

include!("support/arrow_crates.rs");

use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use decimal_kernels::aggregate::{self, Accumulator, AggregateOp, AggregateState};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalScalar, DecimalType,
    OverflowPolicy, RoundFunction, RoundingMode, Semantics, StorageWidth, UnaryOp, binary,
    conformance, unary,
};
use rstest::rstest;

const DOC: &str = include_str!("../docs/semantics.md");

const EXAMPLES_HEADER: &str = "| expression | options | result type | result | note |";
/// The rounding table's header begins so; the values to round follow.
const ROUNDING_HEADER: &str = "| mode | rule |";
const ACCEPTED_TEXT_HEADER: &str = "| text | type | stored integer | printed |";
const REJECTED_TEXT_HEADER: &str = "| text | type | rejected because |";

/// Fewer worked examples than this means tables were lost or not recognized.
const MIN_EXAMPLES: usize = 70;
/// The same guard for each of the two text tables.
const MIN_TEXT_ROWS: usize = 10;

/// One table as written: the header's cells and the rows below it.
struct Table {
    header: Vec<String>,
    rows: Vec<Row>,
}

/// One row of a table: its line in the page and its cells, trimmed, with the
/// backticks of inline code removed.
struct Row {
    line: usize,
    cells: Vec<String>,
}

fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|cell| cell.trim().replace('`', "")).collect()
}

/// Every table of `doc` whose header line begins with `header`.
fn tables(doc: &str, header: &str) -> Result<Vec<Table>, String> {
    let lines: Vec<&str> = doc.lines().collect();
    let mut found = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        if !lines[index].trim().starts_with(header) {
            index += 1;
            continue;
        }
        let header_cells = cells(lines[index]);
        let separator = lines.get(index + 1).copied().unwrap_or_default();
        if !separator.contains('-') || !separator.chars().all(|c| "|-: ".contains(c)) {
            return Err(format!("line {}: a table header without a separator line", index + 1));
        }
        index += 2;
        let mut rows = Vec::new();
        while let Some(line) = lines.get(index).filter(|line| line.trim().starts_with('|')) {
            let row = Row { line: index + 1, cells: cells(line) };
            if row.cells.len() != header_cells.len() {
                return Err(format!(
                    "line {}: {} cells where the header has {}",
                    row.line,
                    row.cells.len(),
                    header_cells.len()
                ));
            }
            rows.push(row);
            index += 1;
        }
        found.push(Table { header: header_cells, rows });
    }
    Ok(found)
}

/// The rows of every table of `doc` under `header`.
fn rows(doc: &str, header: &str) -> Result<Vec<Row>, String> {
    Ok(tables(doc, header)?.into_iter().flat_map(|table| table.rows).collect())
}

/// `(p,s)`, or `decimal(p,s)` with `prefix` `"decimal"`.
fn parse_type(text: &str, prefix: &str) -> Result<DecimalType, String> {
    let fail = || format!("{text:?} is not a type written {prefix}(p,s)");
    let inner = text.strip_prefix(prefix).ok_or_else(fail)?;
    let inner = inner.strip_prefix('(').and_then(|t| t.strip_suffix(')')).ok_or_else(fail)?;
    let (p, s) = inner.split_once(',').ok_or_else(fail)?;
    let (p, s) = (p.parse().map_err(|_| fail())?, s.parse().map_err(|_| fail())?);
    DecimalType::try_new(p, s).map_err(|e| e.to_string())
}

fn parse_mode(name: &str) -> Option<RoundingMode> {
    RoundingMode::ALL.into_iter().find(|mode| format!("{mode:?}") == name)
}

/// A value of `dtype`: the text, or `NULL`.
fn parse_value(text: &str, dtype: DecimalType) -> Result<DecimalScalar, String> {
    if text == "NULL" {
        return Ok(DecimalScalar::null(dtype));
    }
    DecimalScalar::parse(dtype, text).map_err(|e| e.to_string())
}

/// How a call ends, in the words of the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    /// The canonical text of the result.
    Value(String),
    Null,
    Fails(Failure),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Failure {
    Overflow,
    DivideByZero,
    NoResultType,
    StorageTooNarrow,
}

impl Outcome {
    fn parse(text: &str) -> Result<Self, String> {
        Ok(match text {
            "NULL" => Self::Null,
            "fails: overflow" => Self::Fails(Failure::Overflow),
            "fails: division by zero" => Self::Fails(Failure::DivideByZero),
            "fails: no result type" => Self::Fails(Failure::NoResultType),
            "fails: storage too narrow" => Self::Fails(Failure::StorageTooNarrow),
            _ if text.is_empty() || text.starts_with("fails") => {
                return Err(format!("{text:?} is not a result"));
            }
            value => Self::Value(value.to_string()),
        })
    }
}

/// One worked example.
struct Example {
    line: usize,
    /// The expression and options as written, for messages.
    written: String,
    op: BinaryOp,
    lhs: DecimalScalar,
    rhs: DecimalScalar,
    options: ArithmeticOptions,
    /// `None`: the profile rejects the operand types.
    result_type: Option<DecimalType>,
    result: Outcome,
}

/// `1.50 (10,2) + NULL (10,2)`.
fn parse_expression(text: &str) -> Result<(DecimalScalar, BinaryOp, DecimalScalar), String> {
    let [a, a_type, op, b, b_type] = text.split_whitespace().collect::<Vec<_>>()[..] else {
        return Err(format!("{text:?} is not `value (p,s) op value (p,s)`"));
    };
    let op = match op {
        "+" => BinaryOp::Add,
        "-" => BinaryOp::Sub,
        "*" => BinaryOp::Mul,
        "/" => BinaryOp::Div,
        "%" => BinaryOp::Rem,
        other => return Err(format!("{other:?} is not an operator")),
    };
    let lhs = parse_value(a, parse_type(a_type, "")?)?;
    let rhs = parse_value(b, parse_type(b_type, "")?)?;
    Ok((lhs, op, rhs))
}

/// `FixedPoint`, `Arrow(I128)`, `Spark`, `Spark(no precision loss)` or
/// `Presto`, then settings that differ from the defaults.
fn parse_options(text: &str) -> Result<ArithmeticOptions, String> {
    let mut parts = text.split(',').map(str::trim);
    let profile = parts.next().unwrap_or_default();
    let mut options = if profile == "FixedPoint" {
        ArithmeticOptions::fixed_point()
    } else if profile == "Spark" {
        ArithmeticOptions::spark()
    } else if profile == "Spark(no precision loss)" {
        ArithmeticOptions::spark_no_precision_loss()
    } else if profile == "Presto" {
        ArithmeticOptions::presto()
    } else {
        let name = profile
            .strip_prefix("Arrow(")
            .and_then(|p| p.strip_suffix(')'))
            .ok_or_else(|| format!("{profile:?} is not a profile"))?;
        let width = StorageWidth::ALL
            .into_iter()
            .find(|width| format!("{width:?}") == name)
            .ok_or_else(|| format!("{name:?} is not a storage width"))?;
        ArithmeticOptions::arrow(width)
    };
    let mut seen = Vec::new();
    for setting in parts {
        let (key, value) = setting.split_once(": ").unwrap_or(("rounding", setting));
        if seen.contains(&key) {
            return Err(format!("{key} is set twice in {text:?}"));
        }
        seen.push(key);
        let policy = || match value {
            "Null" => Ok(OverflowPolicy::Null),
            "Error" => Ok(OverflowPolicy::Error),
            other => Err(format!("{other:?} is not a policy")),
        };
        options = match key {
            "rounding" => options.with_rounding(
                parse_mode(value).ok_or_else(|| format!("{value:?} is not a rounding mode"))?,
            ),
            "on_overflow" => options.with_on_overflow(policy()?),
            "on_divide_by_zero" => options.with_on_divide_by_zero(policy()?),
            other => return Err(format!("{other:?} is not a setting")),
        };
    }
    Ok(options)
}

fn parse_example(row: &Row) -> Result<Example, String> {
    let [expression, options, result_type, result, _note] = &row.cells[..] else {
        return Err(format!("{} cells, not 5", row.cells.len()));
    };
    let (lhs, op, rhs) = parse_expression(expression)?;
    let result_type =
        if result_type == "none" { None } else { Some(parse_type(result_type, "decimal")?) };
    let result = Outcome::parse(result)?;
    if result_type.is_none() != (result == Outcome::Fails(Failure::NoResultType)) {
        return Err("`none` as the result type goes with `fails: no result type`".to_string());
    }
    Ok(Example {
        line: row.line,
        written: format!("{expression} [{options}]"),
        op,
        lhs,
        rhs,
        options: parse_options(options)?,
        result_type,
        result,
    })
}

/// Every worked example of `doc`.
fn parse_examples(doc: &str) -> Result<Vec<Example>, String> {
    rows(doc, EXAMPLES_HEADER)?
        .iter()
        .map(|row| parse_example(row).map_err(|e| format!("line {}: {e}", row.line)))
        .collect()
}

fn worked_examples() -> Vec<Example> {
    parse_examples(DOC).unwrap_or_else(|e| panic!("docs/semantics.md: {e}"))
}

/// How the operands are handed to the kernels.
#[derive(Clone, Copy, Debug)]
enum Shape {
    ArrayArray,
    ArrayScalar,
    ScalarArray,
    ScalarScalar,
    /// Two-row arrays whose first row is null over stored integers that must
    /// not count: the largest of each type, a zero as the divisor.
    ArraysAfterNullRow,
}

impl Shape {
    const ALL: [Self; 5] = [
        Self::ArrayArray,
        Self::ArrayScalar,
        Self::ScalarArray,
        Self::ScalarScalar,
        Self::ArraysAfterNullRow,
    ];

    /// The row of the result that holds the example.
    fn row(self) -> usize {
        match self {
            Self::ArraysAfterNullRow => 1,
            _ => 0,
        }
    }
}

/// The largest stored integer of `dtype`, `10^p - 1`.
fn largest(dtype: DecimalType) -> i256 {
    let power = i256::from_i128(10).checked_pow(u32::from(dtype.precision()));
    power.expect("10^76 fits an i256").wrapping_sub(i256::ONE)
}

/// A two-row array: a null row over `hidden`, then `value`.
fn after_null_row(value: &DecimalScalar, hidden: i256) -> Result<DecimalArray, DecimalError> {
    let values = ScalarBuffer::from(vec![hidden, value.value().unwrap_or(i256::ZERO)]);
    let validity = NullBuffer::from(vec![false, !value.is_null()]);
    DecimalArray::try_new(value.dtype(), values, Some(validity))
}

fn one_row(value: &DecimalScalar) -> Result<DecimalArray, DecimalError> {
    let text = (!value.is_null()).then(|| value.to_string());
    DecimalArray::from_strs(value.dtype(), &[text.as_deref()])
}

/// `example` through the kernels, with its operands in `shape`.
fn run_kernels(example: &Example, shape: Shape) -> Result<DecimalArray, DecimalError> {
    let Example { op, lhs, rhs, options, .. } = example;
    match shape {
        Shape::ArrayArray => binary(*op, &one_row(lhs)?, &one_row(rhs)?, options),
        Shape::ArrayScalar => binary(*op, &one_row(lhs)?, rhs, options),
        Shape::ScalarArray => binary(*op, lhs, &one_row(rhs)?, options),
        Shape::ScalarScalar => binary(*op, lhs, rhs, options),
        Shape::ArraysAfterNullRow => {
            let (lhs_type, rhs_type) = (lhs.dtype(), rhs.dtype());
            let hidden_rhs = match op {
                BinaryOp::Div | BinaryOp::Rem => i256::ZERO,
                BinaryOp::Sub => largest(rhs_type).wrapping_neg(),
                BinaryOp::Add | BinaryOp::Mul => largest(rhs_type),
                other => panic!("no hidden divisor for {other}: add it here"),
            };
            let lhs = after_null_row(lhs, largest(lhs_type))?;
            binary(*op, &lhs, &after_null_row(rhs, hidden_rhs)?, options)
        }
    }
}

/// The width the profile stores `result` at.
fn result_width(options: &ArithmeticOptions, result: DecimalType) -> StorageWidth {
    match options.semantics() {
        Semantics::FixedPoint => result.storage_width(),
        Semantics::Arrow { width } => width,
        Semantics::Spark { .. } | Semantics::Presto => {
            result.storage_width().max(StorageWidth::I128)
        }
        other => panic!("no result width for {other:?}: add it here"),
    }
}

/// A failed call as an outcome; `Err` when the error itself is wrong (another
/// kind, another row, another result type).
fn failure(error: DecimalError, example: &Example, row: usize) -> Result<Outcome, String> {
    match error {
        DecimalError::Overflow { row: r, result_type, .. } if r == row => {
            if Some(result_type) == example.result_type {
                Ok(Outcome::Fails(Failure::Overflow))
            } else {
                Err(format!("an overflow of {result_type}"))
            }
        }
        DecimalError::DivideByZero { row: r, .. } if r == row => {
            Ok(Outcome::Fails(Failure::DivideByZero))
        }
        DecimalError::UnsupportedTypes { .. } => Ok(Outcome::Fails(Failure::NoResultType)),
        other => Err(format!("the error {other:?}")),
    }
}

fn reference_outcome(example: &Example) -> Result<Outcome, String> {
    match example.lhs.reference_binary(example.op, &example.rhs, &example.options) {
        Ok(scalar) if Some(scalar.dtype()) != example.result_type => {
            Err(format!("a scalar of {}", scalar.dtype()))
        }
        Ok(scalar) if scalar.is_null() => Ok(Outcome::Null),
        Ok(scalar) => Ok(Outcome::Value(scalar.to_string())),
        Err(error) => failure(error, example, 0),
    }
}

fn kernel_outcome(example: &Example, shape: Shape) -> Result<Outcome, String> {
    let row = shape.row();
    let array = match run_kernels(example, shape) {
        Ok(array) => array,
        Err(error) => return failure(error, example, row),
    };
    let result_type = example.result_type.ok_or("a result without a result type")?;
    let width = result_width(&example.options, result_type);
    if array.dtype() != result_type || array.width() != width || array.len() != row + 1 {
        return Err(format!(
            "{} rows of {} stored as {}, not {} rows of {result_type} as {width}",
            array.len(),
            array.dtype(),
            array.width(),
            row + 1
        ));
    }
    let mut texts = array.to_strs();
    if texts[..row].iter().any(Option::is_some) {
        return Err(format!("a value under the null row: {texts:?}"));
    }
    Ok(texts.pop().flatten().map_or(Outcome::Null, Outcome::Value))
}

/// Every way `example` does not hold, one message each.
fn mismatches(example: &Example) -> Vec<String> {
    let mut found = Vec::new();
    let mut differs = |what: &str, got: String, want: String| {
        found.push(format!(
            "docs/semantics.md:{}: {}: {what} gives {got}, the page says {want}",
            example.line, example.written
        ));
    };
    let typed = example.op.result_type(example.lhs.dtype(), example.rhs.dtype(), &example.options);
    match (typed, example.result_type) {
        (Ok(got), Some(want)) if got == want => {}
        (Err(DecimalError::UnsupportedTypes { .. }), None) => {}
        (got, want) => differs("result_type", format!("{got:?}"), format!("{want:?}")),
    }
    let want = Ok(example.result.clone());
    let reference = reference_outcome(example);
    if reference != want {
        differs("the reference", format!("{reference:?}"), format!("{want:?}"));
    }
    for shape in Shape::ALL {
        let got = kernel_outcome(example, shape);
        if got != want {
            differs(&format!("the kernels ({shape:?})"), format!("{got:?}"), format!("{want:?}"));
        }
    }
    found
}

#[track_caller]
fn assert_all_hold<'a>(examples: impl IntoIterator<Item = &'a Example>) {
    let found: Vec<String> = examples.into_iter().flat_map(mismatches).collect();
    assert!(found.is_empty(), "{} mismatches:\n{}", found.len(), found.join("\n"));
}

#[test]
fn every_worked_example_holds() {
    let examples = worked_examples();
    assert!(
        examples.len() >= MIN_EXAMPLES,
        "only {} worked examples found under {EXAMPLES_HEADER:?}",
        examples.len()
    );
    assert_all_hold(&examples);
}

fn profile_name(semantics: Semantics) -> &'static str {
    match semantics {
        Semantics::FixedPoint => "FixedPoint",
        Semantics::Arrow { .. } => "Arrow",
        Semantics::Spark { allow_precision_loss: true } => "Spark",
        Semantics::Spark { allow_precision_loss: false } => "Spark(no precision loss)",
        Semantics::Presto => "Presto",
        other => panic!("no name for {other:?}: add it here"),
    }
}

fn is_zero_divisor(example: &Example) -> bool {
    matches!(example.op, BinaryOp::Div | BinaryOp::Rem) && example.rhs.value() == Some(i256::ZERO)
}

fn has_values(example: &Example) -> bool {
    !example.lhs.is_null() && !example.rhs.is_null()
}

/// A case the page promises to cover, and how to recognize an example of it.
type Promise<E = Example> = (String, Box<dyn Fn(&E) -> bool>);

#[test]
fn worked_examples_cover_what_the_page_promises() {
    let examples = worked_examples();
    let mut promises: Vec<Promise> = vec![
        (
            "with a negative scale".into(),
            Box::new(|e| e.lhs.dtype().scale() < 0 || e.rhs.dtype().scale() < 0),
        ),
        (
            "failing the call on overflow".into(),
            Box::new(|e| e.result == Outcome::Fails(Failure::Overflow)),
        ),
        (
            "nulling an overflowing row".into(),
            Box::new(|e| {
                e.options.on_overflow() == OverflowPolicy::Null
                    && e.result == Outcome::Null
                    && has_values(e)
                    && !is_zero_divisor(e)
            }),
        ),
        (
            "failing the call on division by zero".into(),
            Box::new(|e| e.result == Outcome::Fails(Failure::DivideByZero)),
        ),
        (
            "nulling a division by zero".into(),
            Box::new(|e| {
                e.options.on_divide_by_zero() == OverflowPolicy::Null
                    && e.result == Outcome::Null
                    && has_values(e)
                    && is_zero_divisor(e)
            }),
        ),
        ("with a null operand".into(), Box::new(|e| !has_values(e))),
        (
            "without a result type".into(),
            Box::new(|e| e.result == Outcome::Fails(Failure::NoResultType)),
        ),
    ];
    for op in BinaryOp::ALL {
        for profile in ["FixedPoint", "Arrow", "Spark", "Spark(no precision loss)", "Presto"] {
            promises.push((
                format!("of {op} under {profile}"),
                Box::new(move |e| e.op == op && profile_name(e.options.semantics()) == profile),
            ));
        }
    }
    for mode in RoundingMode::ALL {
        promises.push((
            format!("rounding {mode:?}"),
            Box::new(move |e| e.options.rounding() == mode && has_values(e)),
        ));
    }
    let missing: Vec<&str> = promises
        .iter()
        .filter(|(_, holds)| !examples.iter().any(holds))
        .map(|(what, _)| what.as_str())
        .collect();
    assert!(missing.is_empty(), "no worked example {}", missing.join("; no worked example "));
}

const UNARY_HEADER: &str = "| operation | options | result type | result | note |";
/// Fewer examples of one operand than this means the table was lost.
const MIN_UNARY_EXAMPLES: usize = 20;

/// One worked example of an operator of one operand.
struct UnaryExample {
    line: usize,
    written: String,
    op: UnaryOp,
    operand: DecimalScalar,
    options: ArithmeticOptions,
    result_type: DecimalType,
    result: Outcome,
}

/// `rescale 1.5 (2,1) to (3,2)`, `neg 1.5 (2,1)`, `abs NULL (2,1)` or
/// `round 1.5 (2,1) to 0` (and `floor`, `ceil`, `trunc`).
fn parse_operation(text: &str) -> Result<(UnaryOp, DecimalScalar), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let round_function =
        |name: &str| RoundFunction::ALL.into_iter().find(|f| f.to_string() == name);
    let (op, value, dtype) = match words[..] {
        ["rescale", value, dtype, "to", to] => {
            (UnaryOp::Rescale { to: parse_type(to, "")? }, value, dtype)
        }
        ["neg", value, dtype] => (UnaryOp::Neg, value, dtype),
        ["abs", value, dtype] => (UnaryOp::Abs, value, dtype),
        [name, value, dtype, "to", digits] if round_function(name).is_some() => {
            let digits = digits.parse().map_err(|_| format!("{digits:?} is not a digit count"))?;
            (UnaryOp::Round { function: round_function(name).unwrap(), digits }, value, dtype)
        }
        _ => {
            return Err(format!(
                "{text:?} is not `rescale|neg|abs value (p,s) [to (p,s)]` or \
                 `round|floor|ceil|trunc value (p,s) to d`"
            ));
        }
    };
    Ok((op, parse_value(value, parse_type(dtype, "")?)?))
}

fn parse_unary_examples(doc: &str) -> Result<Vec<UnaryExample>, String> {
    let parse = |row: &Row| {
        let [operation, options, result_type, result, _note] = &row.cells[..] else {
            return Err(format!("{} cells, not 5", row.cells.len()));
        };
        let (op, operand) = parse_operation(operation)?;
        Ok(UnaryExample {
            line: row.line,
            written: format!("{operation} [{options}]"),
            op,
            operand,
            options: parse_options(options)?,
            result_type: parse_type(result_type, "decimal")?,
            result: Outcome::parse(result)?,
        })
    };
    rows(doc, UNARY_HEADER)?
        .iter()
        .map(|row| parse(row).map_err(|e: String| format!("line {}: {e}", row.line)))
        .collect()
}

/// A failed unary call as an outcome; `Err` when the error itself is wrong.
fn unary_failure(
    error: DecimalError,
    example: &UnaryExample,
    row: usize,
) -> Result<Outcome, String> {
    match error {
        DecimalError::UnaryOverflow { row: r, result_type, op, .. }
            if r == row && result_type == example.result_type && op == example.op =>
        {
            Ok(Outcome::Fails(Failure::Overflow))
        }
        DecimalError::StorageTooNarrow { dtype, .. } if dtype == example.result_type => {
            Ok(Outcome::Fails(Failure::StorageTooNarrow))
        }
        other => Err(format!("the error {other:?}")),
    }
}

/// Every way `example` does not hold, one message each.
fn unary_mismatches(example: &UnaryExample) -> Vec<String> {
    let UnaryExample { op, operand, options, result_type, .. } = example;
    let mut found = Vec::new();
    let mut differs = |what: &str, got: String, want: &Outcome| {
        found.push(format!(
            "docs/semantics.md:{}: {}: {what} gives {got}, the page says {want:?}",
            example.line, example.written
        ));
    };
    match op.result_type_under(operand.dtype(), options) {
        Ok(planned) if planned == *result_type => {}
        planned => differs("UnaryOp::result_type_under", format!("{planned:?}"), &example.result),
    }
    // The reference computes values; storage is the kernels' concern.
    if example.result != Outcome::Fails(Failure::StorageTooNarrow) {
        let reference = match operand.reference_unary(*op, options) {
            Ok(scalar) if scalar.dtype() != *result_type => {
                Err(format!("a scalar of {}", scalar.dtype()))
            }
            Ok(scalar) if scalar.is_null() => Ok(Outcome::Null),
            Ok(scalar) => Ok(Outcome::Value(scalar.to_string())),
            Err(error) => unary_failure(error, example, 0),
        };
        if reference.as_ref() != Ok(&example.result) {
            differs("the reference", format!("{reference:?}"), &example.result);
        }
    }
    let hidden = largest(operand.dtype());
    let shapes: [(&str, usize, Result<DecimalArray, DecimalError>); 3] = [
        ("an array", 0, one_row(operand).and_then(|a| unary(*op, &a, options))),
        ("a scalar", 0, unary(*op, operand, options)),
        (
            "an array after a null row",
            1,
            after_null_row(operand, hidden).and_then(|a| unary(*op, &a, options)),
        ),
    ];
    for (shape, row, outcome) in shapes {
        let got = match outcome {
            Err(error) => unary_failure(error, example, row),
            Ok(array) => {
                let width = result_width(options, *result_type);
                let texts = array.to_strs();
                if array.dtype() != *result_type || array.width() != width || texts.len() != row + 1
                {
                    Err(format!("{} rows of {} as {}", texts.len(), array.dtype(), array.width()))
                } else if texts[..row].iter().any(Option::is_some) {
                    Err(format!("a value under the null row: {texts:?}"))
                } else {
                    Ok(texts[row].clone().map_or(Outcome::Null, Outcome::Value))
                }
            }
        };
        if got.as_ref() != Ok(&example.result) {
            differs(&format!("the kernels on {shape}"), format!("{got:?}"), &example.result);
        }
    }
    found
}

#[test]
fn every_unary_example_holds() {
    let examples = parse_unary_examples(DOC).unwrap_or_else(|e| panic!("docs/semantics.md: {e}"));
    assert!(examples.len() >= MIN_UNARY_EXAMPLES, "only {} unary examples", examples.len());
    let found: Vec<String> = examples.iter().flat_map(unary_mismatches).collect();
    assert!(found.is_empty(), "{} mismatches:\n{}", found.len(), found.join("\n"));
    let mut promises: Vec<Promise<UnaryExample>> = vec![
        ("neg".into(), Box::new(|e| e.op == UnaryOp::Neg)),
        ("abs".into(), Box::new(|e| e.op == UnaryOp::Abs)),
        (
            "a rounding to negative digits".into(),
            Box::new(|e| matches!(e.op, UnaryOp::Round { digits: ..0, .. })),
        ),
        ("a null operand".into(), Box::new(|e| e.operand.is_null())),
        ("an overflow".into(), Box::new(|e| e.result == Outcome::Fails(Failure::Overflow))),
        (
            "an overflow as a null".into(),
            Box::new(|e| {
                e.options.on_overflow() == OverflowPolicy::Null && e.result == Outcome::Null
            }),
        ),
        (
            "a storage too narrow".into(),
            Box::new(|e| e.result == Outcome::Fails(Failure::StorageTooNarrow)),
        ),
        ("a negative scale".into(), Box::new(|e| e.result_type.scale() < 0)),
        ("digits appended".into(), Box::new(|e| e.result_type.scale() > e.operand.dtype().scale())),
    ];
    for profile in ["FixedPoint", "Arrow", "Spark", "Spark(no precision loss)", "Presto"] {
        promises.push((
            format!("rescale under {profile}"),
            Box::new(move |e| {
                matches!(e.op, UnaryOp::Rescale { .. })
                    && profile_name(e.options.semantics()) == profile
            }),
        ));
    }
    for function in RoundFunction::ALL {
        promises.push((
            format!("{function}"),
            Box::new(move |e| matches!(e.op, UnaryOp::Round { function: f, .. } if f == function)),
        ));
    }
    for mode in RoundingMode::ALL {
        promises.push((
            format!("rescale rounding {mode:?}"),
            Box::new(move |e| {
                e.options.rounding() == mode && e.result_type.scale() < e.operand.dtype().scale()
            }),
        ));
    }
    let missing: Vec<&str> = promises
        .iter()
        .filter(|(_, holds)| !examples.iter().any(holds))
        .map(|(what, _)| what.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "no unary example with {}",
        missing.join("; no unary example with ")
    );
}

#[rstest]
#[case::unknown_operator("| `sqrt 1 (3,0)` | `FixedPoint` | decimal(3,0) | 1 | |")]
#[case::rescale_without_target("| `rescale 1 (3,0)` | `FixedPoint` | decimal(3,0) | 1 | |")]
#[case::no_result_type("| `neg 1 (3,0)` | `FixedPoint` | none | fails: no result type | |")]
fn malformed_unary_examples_are_rejected(#[case] row: &str) {
    let doc = format!("{UNARY_HEADER}\n|---|---|---|---|---|\n{row}\n");
    assert!(parse_unary_examples(&doc).is_err(), "{row}");
}

fn t(p: u8, s: i8) -> DecimalType {
    DecimalType::try_new(p, s).unwrap()
}

/// The rounding table: each value `v` of its header rounded to a whole number
/// by each mode, as the division `10·v / 10` in `decimal(3,0)`.
#[test]
fn rounding_table_holds() {
    let [table] = &tables(DOC, ROUNDING_HEADER).unwrap()[..] else {
        panic!("docs/semantics.md needs exactly one table under {ROUNDING_HEADER:?}");
    };
    let values = &table.header[2..];
    assert!(!values.is_empty(), "no values in the rounding table's header");
    let mut examples = Vec::new();
    let mut modes = Vec::new();
    for row in &table.rows {
        let mode = parse_mode(&row.cells[0])
            .unwrap_or_else(|| panic!("line {}: no rounding mode {:?}", row.line, row.cells[0]));
        modes.push(mode);
        for (value, rounded) in values.iter().zip(&row.cells[2..]) {
            let tenths = DecimalScalar::parse(t(3, 1), value)
                .unwrap_or_else(|e| panic!("rounding table header: {e}"))
                .value()
                .expect("a parsed value");
            examples.push(Example {
                line: row.line,
                written: format!("{mode:?} of {value}"),
                op: BinaryOp::Div,
                lhs: DecimalScalar::parse(t(3, 0), &tenths.to_string()).unwrap(),
                rhs: DecimalScalar::parse(t(3, 0), "10").unwrap(),
                options: ArithmeticOptions::fixed_point().with_rounding(mode),
                result_type: Some(t(3, 0)),
                result: Outcome::Value(rounded.clone()),
            });
        }
    }
    assert_eq!(modes, RoundingMode::ALL, "the rounding table lists every mode once, in order");
    assert_all_hold(&examples);
}

/// A text cell: `(empty)` stands for the empty text.
fn text_cell(cell: &str) -> &str {
    if cell == "(empty)" { "" } else { cell }
}

#[test]
fn accepted_texts_are_stored_and_printed_as_documented() {
    let rows = rows(DOC, ACCEPTED_TEXT_HEADER).unwrap();
    assert!(rows.len() >= MIN_TEXT_ROWS, "only {} accepted texts found", rows.len());
    for Row { line, cells } in &rows {
        let [text, dtype, stored, printed] = &cells[..] else { unreachable!("four cells") };
        let (text, dtype) = (text_cell(text), parse_type(dtype, "").unwrap());
        let scalar = DecimalScalar::parse(dtype, text)
            .unwrap_or_else(|e| panic!("docs/semantics.md:{line}: {e}"));
        let got = scalar.value().map(|v| v.to_string());
        assert_eq!(got.as_deref(), Some(stored.as_str()), "docs/semantics.md:{line}: stored");
        assert_eq!(&scalar.to_string(), printed, "docs/semantics.md:{line}: scalar text");
        let column = DecimalArray::from_strs(dtype, &[Some(text)]).unwrap().to_strs();
        assert_eq!(column, [Some(printed.clone())], "docs/semantics.md:{line}: column text");
    }
}

#[test]
fn rejected_texts_fail_for_the_documented_reason() {
    let rows = rows(DOC, REJECTED_TEXT_HEADER).unwrap();
    assert!(rows.len() >= MIN_TEXT_ROWS, "only {} rejected texts found", rows.len());
    for Row { line, cells } in &rows {
        let [text, dtype, because] = &cells[..] else { unreachable!("three cells") };
        let (text, dtype) = (text_cell(text), parse_type(dtype, "").unwrap());
        let scalar = DecimalScalar::parse(dtype, text).map(|s| s.to_string());
        let column = DecimalArray::from_strs(dtype, &[Some(text)]).map(|c| c.to_strs());
        for got in [scalar.err(), column.err()] {
            match got {
                Some(DecimalError::Parse { row: 0, reason, .. }) if reason == because => {}
                other => panic!("docs/semantics.md:{line}: {text:?} gives {other:?}"),
            }
        }
    }
}

#[test]
fn a_well_formed_example_parses() {
    let doc = format!(
        "{EXAMPLES_HEADER}\n|---|---|---|---|---|\n\
         | `1 (3,0) / NULL (4,-1)` | `Arrow(I64), Floor, on_overflow: Null` | decimal(10,4) | NULL | |\n"
    );
    let [example] = &parse_examples(&doc).unwrap()[..] else { panic!("one example") };
    assert_eq!(example.op, BinaryOp::Div);
    assert_eq!((example.lhs.to_string(), example.rhs.dtype()), ("1".to_string(), t(4, -1)));
    assert!(example.rhs.is_null());
    let options = ArithmeticOptions::arrow(StorageWidth::I64)
        .with_rounding(RoundingMode::Floor)
        .with_on_overflow(OverflowPolicy::Null);
    assert_eq!(example.options, options);
    assert_eq!((example.result_type, &example.result), (Some(t(10, 4)), &Outcome::Null));
}

#[rstest]
#[case::missing_cell("| `1 (3,0) + 1 (3,0)` | `FixedPoint` | decimal(3,0) | 2 |")]
#[case::extra_cell("| `1 (3,0) + 1 (3,0)` | `FixedPoint` | decimal(3,0) | 2 | | |")]
#[case::unknown_operator("| `1 (3,0) ^ 1 (3,0)` | `FixedPoint` | decimal(3,0) | 1 | |")]
#[case::missing_operand("| `1 (3,0) +` | `FixedPoint` | decimal(3,0) | 1 | |")]
#[case::bad_type("| `1 (3;0) + 1 (3,0)` | `FixedPoint` | decimal(3,0) | 2 | |")]
#[case::invalid_type("| `1 (0,0) + 1 (3,0)` | `FixedPoint` | decimal(3,0) | 2 | |")]
#[case::value_outside_type("| `1.5 (3,0) + 1 (3,0)` | `FixedPoint` | decimal(3,0) | 2 | |")]
#[case::unknown_profile("| `1 (3,0) + 1 (3,0)` | `Hive` | decimal(3,0) | 2 | |")]
#[case::unknown_width("| `1 (3,0) + 1 (3,0)` | `Arrow(I512)` | decimal(3,0) | 2 | |")]
#[case::unknown_rounding("| `1 (3,0) + 1 (3,0)` | `FixedPoint, HalfDown` | decimal(3,0) | 2 | |")]
#[case::rounding_twice(
    "| `1 (3,0) + 1 (3,0)` | `FixedPoint, Floor, Ceiling` | decimal(3,0) | 2 | |"
)]
#[case::unknown_policy(
    "| `1 (3,0) + 1 (3,0)` | `FixedPoint, on_overflow: Wrap` | decimal(3,0) | 2 | |"
)]
#[case::bad_result_type("| `1 (3,0) + 1 (3,0)` | `FixedPoint` | (3,0) | 2 | |")]
#[case::empty_result("| `1 (3,0) + 1 (3,0)` | `FixedPoint` | decimal(3,0) | | |")]
#[case::unknown_failure("| `1 (3,0) + 1 (3,0)` | `FixedPoint` | decimal(3,0) | fails: wraps | |")]
#[case::none_with_a_value("| `1 (3,0) + 1 (3,0)` | `FixedPoint` | none | 2 | |")]
#[case::type_with_no_result_type(
    "| `1 (3,0) + 1 (3,0)` | `FixedPoint` | decimal(3,0) | fails: no result type | |"
)]
fn malformed_examples_are_rejected(#[case] row: &str) {
    let doc = format!("{EXAMPLES_HEADER}\n|---|---|---|---|---|\n{row}\n");
    assert!(parse_examples(&doc).is_err(), "{row}");
}

#[test]
fn a_table_without_its_separator_is_rejected() {
    let doc =
        format!("{EXAMPLES_HEADER}\n| `1 (3,0) + 1 (3,0)` | `FixedPoint` | decimal(3,0) | 2 | |\n");
    assert!(parse_examples(&doc).is_err());
}

const AGGREGATE_HEADER: &str = "| aggregate | options | result type | result | note |";
/// Fewer aggregate examples than this means the table was lost.
const MIN_AGGREGATE_EXAMPLES: usize = 12;

/// One worked example of an aggregate over a column.
struct AggregateExample {
    line: usize,
    written: String,
    op: AggregateOp,
    values: DecimalArray,
    options: ArithmeticOptions,
    /// `None`: the profile has no result type for the input.
    result_type: Option<DecimalType>,
    result: Outcome,
}

/// `sum 1.00, NULL, 2.50 (15,2)`: the aggregate, the column's rows, its type.
fn parse_aggregate(text: &str) -> Result<(AggregateOp, DecimalArray), String> {
    let (op, rest) = text.split_once(' ').ok_or_else(|| format!("{text:?} has no values"))?;
    let op = AggregateOp::ALL
        .into_iter()
        .find(|o| o.to_string() == op)
        .ok_or_else(|| format!("{op:?} is not an aggregate"))?;
    let (values, dtype) = rest.rsplit_once(' ').ok_or_else(|| format!("{rest:?} has no type"))?;
    let dtype = parse_type(dtype, "")?;
    let rows: Vec<Option<&str>> =
        values.split(',').map(str::trim).map(|v| (v != "NULL").then_some(v)).collect();
    let rows = if values.trim() == "none" { Vec::new() } else { rows };
    Ok((op, DecimalArray::from_strs(dtype, &rows).map_err(|e| e.to_string())?))
}

fn parse_aggregate_examples(doc: &str) -> Result<Vec<AggregateExample>, String> {
    let parse = |row: &Row| {
        let [aggregate, options, result_type, result, _note] = &row.cells[..] else {
            return Err(format!("{} cells, not 5", row.cells.len()));
        };
        let (op, values) = parse_aggregate(aggregate)?;
        let result_type =
            if result_type == "none" { None } else { Some(parse_type(result_type, "decimal")?) };
        Ok(AggregateExample {
            line: row.line,
            written: format!("{aggregate} [{options}]"),
            op,
            values,
            options: parse_options(options)?,
            result_type,
            result: Outcome::parse(result)?,
        })
    };
    rows(doc, AGGREGATE_HEADER)?
        .iter()
        .map(|row| parse(row).map_err(|e: String| format!("line {}: {e}", row.line)))
        .collect()
}

/// An aggregate's result as an outcome; `Err` when the error itself is wrong.
fn aggregate_outcome(
    got: Result<DecimalArray, DecimalError>,
    example: &AggregateExample,
    group: usize,
) -> Result<Outcome, String> {
    match got {
        Ok(array) if Some(array.dtype()) != example.result_type => {
            Err(format!("a result of {}", array.dtype()))
        }
        Ok(array) => match array.to_strs().get(group) {
            Some(text) => Ok(text.clone().map_or(Outcome::Null, Outcome::Value)),
            None => Err(format!("{} groups", array.len())),
        },
        Err(DecimalError::AggregateOverflow { group: g, result_type, op, .. })
            if g == group && Some(result_type) == example.result_type && op == example.op =>
        {
            Ok(Outcome::Fails(Failure::Overflow))
        }
        Err(DecimalError::UnsupportedAggregate { op, .. }) if op == example.op => {
            Ok(Outcome::Fails(Failure::NoResultType))
        }
        Err(DecimalError::StorageTooNarrow { dtype, .. }) if Some(dtype) == example.result_type => {
            Ok(Outcome::Fails(Failure::StorageTooNarrow))
        }
        Err(other) => Err(format!("the error {other:?}")),
    }
}

/// Every way `example` does not hold: through `result_type`, the reference,
/// the whole-column call, a grouped call (the rows in group 1 of 2, group 0
/// empty) and one accumulator per row merged into a final one.
fn aggregate_mismatches(example: &AggregateExample) -> Vec<String> {
    let AggregateExample { op, values, options, .. } = example;
    let mut found = Vec::new();
    let mut differs = |what: &str, got: String| {
        found.push(format!(
            "docs/semantics.md:{}: {}: {what} gives {got}, the page says {:?} at {:?}",
            example.line, example.written, example.result, example.result_type
        ));
    };
    let typed = op.result_type(values.dtype(), options).ok();
    if typed != example.result_type {
        differs("AggregateOp::result_type", format!("{typed:?}"));
    }
    let rows = values.len();
    let whole = match op {
        AggregateOp::Sum => aggregate::sum(values, options),
        AggregateOp::Min => aggregate::min(values, options),
        AggregateOp::Max => aggregate::max(values, options),
        _ => aggregate::avg(values, options),
    };
    let whole = whole.and_then(|s| {
        let text = (!s.is_null()).then(|| s.to_string());
        DecimalArray::from_strs(s.dtype(), &[text.as_deref()])
    });
    let ones = vec![1; rows];
    let grouped = match op {
        AggregateOp::Sum => aggregate::sum_groups(values, &ones, 2, options),
        AggregateOp::Min => aggregate::min_groups(values, &ones, 2, options),
        AggregateOp::Max => aggregate::max_groups(values, &ones, 2, options),
        _ => aggregate::avg_groups(values, &ones, 2, options),
    };
    let merged = (|| {
        let mut total = Accumulator::new(*op, values.dtype(), options)?;
        // Two groups, whether or not a row comes.
        total.update(&values.slice(0, 0)?, &[], None, 2)?;
        for row in 0..rows {
            let mut part = Accumulator::new(*op, values.dtype(), options)?;
            part.update(&values.slice(row, 1)?, &[0], None, 1)?;
            let state = AggregateState::from_arrow(values.dtype(), &part.state(None).to_arrow())?;
            total.merge(&state, &[1], 2)?;
        }
        total.finish(Some(2))
    })();
    let calls = [
        (
            "the reference",
            conformance::reference_aggregate(*op, values, &vec![0; rows], 1, options),
            0,
        ),
        ("the whole-column call", whole, 0),
        ("the grouped call", grouped, 1),
        ("the merged partial states", merged, 1),
    ];
    for (what, got, group) in calls {
        let outcome = aggregate_outcome(got, example, group);
        if outcome.as_ref() != Ok(&example.result) {
            differs(what, format!("{outcome:?}"));
        }
    }
    found
}

/// A case the aggregate table must show.
type AggregatePromise = fn(&AggregateExample) -> bool;

#[test]
fn every_aggregate_example_holds() {
    let examples =
        parse_aggregate_examples(DOC).unwrap_or_else(|e| panic!("docs/semantics.md: {e}"));
    assert!(examples.len() >= MIN_AGGREGATE_EXAMPLES, "only {} aggregate examples", examples.len());
    let found: Vec<String> = examples.iter().flat_map(aggregate_mismatches).collect();
    assert!(found.is_empty(), "{} mismatches:\n{}", found.len(), found.join("\n"));
    let promises: [(&str, AggregatePromise); 6] = [
        ("sum", |e| e.op == AggregateOp::Sum),
        ("avg", |e| e.op == AggregateOp::Avg),
        ("no valid row", |e| {
            e.result == Outcome::Null && e.options.on_overflow() == OverflowPolicy::Error
        }),
        ("an overflow", |e| e.result == Outcome::Fails(Failure::Overflow)),
        ("no result type", |e| e.result == Outcome::Fails(Failure::NoResultType)),
        ("an intermediate beyond the type", |e| {
            // A prefix of the rows sums beyond the result precision.
            let Some(t) = e.result_type else { return false };
            let limit = i256::from_i128(10).checked_pow(u32::from(t.precision()));
            let mut running = i256::ZERO;
            (0..e.values.len()).filter_map(|i| e.values.scalar(i)?.value()).any(|v| {
                running = running.wrapping_add(v);
                limit.is_some_and(|l| running >= l || running <= l.wrapping_neg())
            })
        }),
    ];
    for (what, holds) in promises {
        assert!(examples.iter().any(holds), "no aggregate example shows {what}");
    }
}
