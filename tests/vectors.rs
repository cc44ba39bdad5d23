//! The test vectors (`tests/data/*.txt`, format in docs/semantics.md#vectors),
//! computed independently with exact rational arithmetic or published by the
//! engines themselves (`*_published.txt`), and the conformance vectors
//! generated from the reference (`conformance/vectors/*.txt`): every row through
//! the array kernels (at the narrowest storage and at `i256`, under both
//! policies, as array ⊕ array and array ⊕ scalar) and through the scalar
//! reference.

use rstest::rstest;

use decimal_kernels::{
    ArithmeticOptions, BinaryOp, CompareOp, DecimalArray, DecimalError, DecimalScalar, DecimalType,
    OverflowPolicy, RoundingMode, StorageWidth, binary, compare,
};

/// One `B` line and its `R` lines.
struct Batch {
    line: usize,
    op: Op,
    options: ArithmeticOptions,
    lhs: DecimalType,
    rhs: DecimalType,
    /// `None`: the profile rejects the types.
    result: Option<DecimalType>,
    rows: Vec<Row>,
}

/// The operator of a batch: arithmetic, or a comparison (whose result
/// fields are `bool -`).
#[derive(Clone, Copy)]
enum Op {
    Arithmetic(BinaryOp),
    Compare(CompareOp),
}

struct Row {
    line: usize,
    a: Option<String>,
    b: Option<String>,
    expected: String,
}

fn parse_file(text: &str) -> Vec<Batch> {
    let mut batches: Vec<Batch> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.first() {
            Some(&"B") => {
                assert_eq!(f.len(), 11, "line {line_no}: {line}");
                let op = match f[1] {
                    "add" => Op::Arithmetic(BinaryOp::Add),
                    "sub" => Op::Arithmetic(BinaryOp::Sub),
                    "mul" => Op::Arithmetic(BinaryOp::Mul),
                    "div" => Op::Arithmetic(BinaryOp::Div),
                    "rem" => Op::Arithmetic(BinaryOp::Rem),
                    "eq" => Op::Compare(CompareOp::Eq),
                    "ne" => Op::Compare(CompareOp::NotEq),
                    "lt" => Op::Compare(CompareOp::Lt),
                    "le" => Op::Compare(CompareOp::LtEq),
                    "gt" => Op::Compare(CompareOp::Gt),
                    "ge" => Op::Compare(CompareOp::GtEq),
                    other => panic!("line {line_no}: operator {other}"),
                };
                let rounding = match f[4] {
                    "toward_zero" => RoundingMode::TowardZero,
                    "half_up" => RoundingMode::HalfUp,
                    "half_even" => RoundingMode::HalfEven,
                    "floor" => RoundingMode::Floor,
                    "ceiling" => RoundingMode::Ceiling,
                    other => panic!("line {line_no}: rounding {other}"),
                };
                let options = match (f[2], f[3]) {
                    ("fixed", "-") => ArithmeticOptions::fixed_point(),
                    ("arrow", width) => ArithmeticOptions::arrow(parse_width(width)),
                    ("spark", "-") => ArithmeticOptions::spark(),
                    ("spark_no_loss", "-") => ArithmeticOptions::spark_no_precision_loss(),
                    ("presto", "-") => ArithmeticOptions::presto(),
                    other => panic!("line {line_no}: profile {other:?}"),
                }
                // Expected outcomes are stated under the `Error` policies,
                // whatever the profile's defaults.
                .with_rounding(rounding)
                .with_on_overflow(OverflowPolicy::Error)
                .with_on_divide_by_zero(OverflowPolicy::Error);
                let ty = |p: &str, s: &str| {
                    DecimalType::try_new(p.parse().unwrap(), s.parse().unwrap()).unwrap()
                };
                let result = (!matches!(f[9], "TYPEERR" | "bool")).then(|| ty(f[9], f[10]));
                batches.push(Batch {
                    line: line_no,
                    op,
                    options,
                    lhs: ty(f[5], f[6]),
                    rhs: ty(f[7], f[8]),
                    result,
                    rows: Vec::new(),
                });
            }
            Some(&"R") => {
                assert_eq!(f.len(), 4, "line {line_no}: {line}");
                let value = |t: &str| (t != "NULL").then(|| t.to_string());
                let batch = batches.last_mut().expect("an R line before any B line");
                batch.rows.push(Row {
                    line: line_no,
                    a: value(f[1]),
                    b: value(f[2]),
                    expected: f[3].to_string(),
                });
            }
            None => {}
            Some(comment) if comment.starts_with('#') => {}
            Some(other) => panic!("line {line_no}: unknown record {other}"),
        }
    }
    batches
}

fn parse_width(name: &str) -> StorageWidth {
    match name {
        "I32" => StorageWidth::I32,
        "I64" => StorageWidth::I64,
        "I128" => StorageWidth::I128,
        "I256" => StorageWidth::I256,
        other => panic!("width {other}"),
    }
}

/// What a row gives under the `Null` policies: the text, or `NULL`.
fn as_nulled(expected: &str) -> Option<&str> {
    match expected {
        "NULL" | "OVERFLOW" | "DIV0" => None,
        text => Some(text),
    }
}

fn error_name(e: &DecimalError) -> &'static str {
    match e {
        DecimalError::Overflow { .. } => "OVERFLOW",
        DecimalError::DivideByZero { .. } => "DIV0",
        _ => "another error",
    }
}

fn run_file(name: &str, text: &str) -> usize {
    let mut checked = 0;
    for batch in parse_file(text) {
        let Batch { line, op, options, lhs, rhs, result, ref rows } = batch;
        let op = match op {
            Op::Arithmetic(op) => op,
            Op::Compare(op) => {
                checked += run_comparison(name, line, op, (lhs, rhs), rows);
                continue;
            }
        };
        let typed = op.result_type(lhs, rhs, &options);
        let Some(result) = result else {
            assert!(typed.is_err(), "{name}:{line}: expected a type error, got {typed:?}");
            continue;
        };
        assert_eq!(typed.as_ref().ok(), Some(&result), "{name}:{line}: result type");

        // The scalar reference, row by row, under the `Error` policies.
        for row in rows {
            let a = scalar(lhs, row.a.as_deref());
            let b = scalar(rhs, row.b.as_deref());
            let got = match a.reference_binary(op, &b, &options) {
                Ok(s) => s.to_string(),
                Err(e) => error_name(&e).to_string(),
            };
            assert_eq!(
                got, row.expected,
                "{name}:{}: reference {:?} {op} {:?}",
                row.line, row.a, row.b
            );
            checked += 1;
        }

        // The array kernels, under the `Null` policies, at two storages.
        let nulling = options
            .with_on_overflow(OverflowPolicy::Null)
            .with_on_divide_by_zero(OverflowPolicy::Null);
        let a_texts: Vec<Option<&str>> = rows.iter().map(|r| r.a.as_deref()).collect();
        let b_texts: Vec<Option<&str>> = rows.iter().map(|r| r.b.as_deref()).collect();
        let want: Vec<Option<String>> =
            rows.iter().map(|r| as_nulled(&r.expected).map(str::to_string)).collect();
        let a = DecimalArray::from_strs(lhs, &a_texts).unwrap();
        let b = DecimalArray::from_strs(rhs, &b_texts).unwrap();
        let widest =
            (a.with_width(StorageWidth::I256).unwrap(), b.with_width(StorageWidth::I256).unwrap());
        for (x, y) in [(&a, &b), (&widest.0, &widest.1)] {
            let got = binary(op, x, y, &nulling).unwrap_or_else(|e| panic!("{name}:{line}: {e}"));
            assert_eq!(got.dtype(), result, "{name}:{line}");
            for (row, (g, w)) in got.to_strs().iter().zip(&want).enumerate() {
                assert_eq!(
                    g,
                    w,
                    "{name}:{}: kernel {:?} {op} {:?} at {}",
                    rows[row].line,
                    rows[row].a,
                    rows[row].b,
                    x.width()
                );
            }
        }

        // Array ⊕ scalar, one row at a time, and the `Error` policies naming row 0.
        for (row, want) in rows.iter().zip(&want) {
            let b = scalar(rhs, row.b.as_deref());
            let a = DecimalArray::from_strs(lhs, &[row.a.as_deref()]).unwrap();
            let got = binary(op, &a, &b, &nulling).unwrap();
            assert_eq!(&got.to_strs()[0], want, "{name}:{}: array ⊕ scalar", row.line);
            let strict = binary(op, &a, &b, &options);
            match (strict, row.expected.as_str()) {
                (Err(DecimalError::Overflow { row: 0, .. }), "OVERFLOW") => {}
                (Err(DecimalError::DivideByZero { row: 0, .. }), "DIV0") => {}
                (Ok(c), expected) => assert_eq!(
                    c.to_strs()[0].as_deref().unwrap_or("NULL"),
                    expected,
                    "{name}:{}",
                    row.line
                ),
                (Err(e), expected) => panic!("{name}:{}: expected {expected}, got {e}", row.line),
            }
        }
    }
    checked
}

/// A comparison batch: every row through the scalar reference, and all rows
/// through `compare` at the narrowest storage and at `i256`, and array ⊕
/// scalar.
fn run_comparison(
    name: &str,
    line: usize,
    op: CompareOp,
    (lhs, rhs): (DecimalType, DecimalType),
    rows: &[Row],
) -> usize {
    let text = |v: Option<bool>| v.map_or_else(|| "NULL".to_string(), |v| v.to_string());
    for row in rows {
        let got =
            scalar(lhs, row.a.as_deref()).reference_compare(op, &scalar(rhs, row.b.as_deref()));
        assert_eq!(text(got), row.expected, "{name}:{}: reference", row.line);
    }
    let a_texts: Vec<Option<&str>> = rows.iter().map(|r| r.a.as_deref()).collect();
    let b_texts: Vec<Option<&str>> = rows.iter().map(|r| r.b.as_deref()).collect();
    let a = DecimalArray::from_strs(lhs, &a_texts).unwrap();
    let b = DecimalArray::from_strs(rhs, &b_texts).unwrap();
    let widest =
        (a.with_width(StorageWidth::I256).unwrap(), b.with_width(StorageWidth::I256).unwrap());
    for (x, y) in [(&a, &b), (&widest.0, &widest.1)] {
        let got = compare(op, x, y).unwrap_or_else(|e| panic!("{name}:{line}: {e}"));
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(
                text(got.get(i)),
                row.expected,
                "{name}:{}: kernel at {}",
                row.line,
                x.width()
            );
        }
    }
    for row in rows {
        let a = DecimalArray::from_strs(lhs, &[row.a.as_deref()]).unwrap();
        let got = compare(op, &a, &scalar(rhs, row.b.as_deref())).unwrap();
        assert_eq!(text(got.get(0)), row.expected, "{name}:{}: array ⊕ scalar", row.line);
    }
    rows.len()
}

fn scalar(dtype: DecimalType, text: Option<&str>) -> DecimalScalar {
    text.map_or_else(|| DecimalScalar::null(dtype), |t| DecimalScalar::parse(dtype, t).unwrap())
}

#[test]
fn fixed_point_vectors() {
    let rows = run_file("fixed_point.txt", include_str!("data/fixed_point.txt"));
    assert!(rows > 15_000, "only {rows} rows checked");
}

#[test]
fn arrow_vectors() {
    let rows = run_file("arrow.txt", include_str!("data/arrow.txt"));
    assert!(rows > 10_000, "only {rows} rows checked");
}

/// Cases Spark and Velox's Spark functions publish, with Spark's own result
/// types (tests/data/spark_published.txt names the source of each).
#[test]
fn spark_published_cases() {
    let rows = run_file("spark_published.txt", include_str!("data/spark_published.txt"));
    assert!(rows > 250, "only {rows} rows checked");
}

/// Cases Presto, Trino and Velox's Presto functions publish, with their result
/// types (tests/data/presto_published.txt names the source of each).
#[test]
fn presto_published_cases() {
    let rows = run_file("presto_published.txt", include_str!("data/presto_published.txt"));
    assert!(rows > 250, "only {rows} rows checked");
}

/// The conformance vectors of each profile (`conformance/vectors/`, written
/// by `cargo run --example conformance_vectors`; `tests/conformance_vectors.rs`
/// keeps them current), through the kernels as well as the reference.
#[rstest]
#[case::fixed_point("fixed_point.txt", include_str!("../conformance/vectors/fixed_point.txt"))]
#[case::arrow("arrow.txt", include_str!("../conformance/vectors/arrow.txt"))]
#[case::spark("spark.txt", include_str!("../conformance/vectors/spark.txt"))]
#[case::spark_no_loss("spark_no_loss.txt", include_str!("../conformance/vectors/spark_no_loss.txt"))]
#[case::presto("presto.txt", include_str!("../conformance/vectors/presto.txt"))]
fn conformance_vectors(#[case] name: &str, #[case] text: &str) {
    let rows = run_file(name, text);
    assert!(rows > 250, "only {rows} rows checked");
}
