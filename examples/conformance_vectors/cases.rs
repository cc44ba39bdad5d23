//! The conformance vectors of `conformance/vectors/` and their renderings.
//!
//! Draws the cases of each profile from a fixed seed, computes every outcome
//! with the crate's exact reference (`DecimalScalar::reference_binary` and
//! `conformance::reference_to`), and writes them in the vector format of
//! docs/semantics.md#vectors, the Arrow cases also as a DataFusion
//! sqllogictest file and the Spark cases as Spark SQL. Shared by the
//! `conformance_vectors` example, which writes the files, and
//! `tests/conformance_vectors.rs`, which checks the committed ones are what
//! it writes.

use std::collections::HashMap;
use std::fmt::Write as _;

use decimal_kernels::{
    ArithmeticOptions, BinaryOp, CompareOp, DecimalError, DecimalScalar, DecimalType,
    OverflowPolicy, RoundingMode, StorageWidth, conformance,
};

/// The seed every file is drawn from.
pub const SEED: u64 = 0x0038_5EED_DEC1_0005;

/// What plain DataFusion answers to the queries of the sqllogictest
/// rendering, recorded by the DataFusion crate's
/// `plain_conformance_answers_are_recorded` test (read, never written, here).
pub const PLAIN_ANSWERS: &str = "conformance/vectors/datafusion_plain.txt";

/// The sqllogictest rendering of the Arrow cases.
pub const SLT: &str = "datafusion/tests/slt/conformance_arrow.slt";

/// The Spark SQL rendering of the two Spark profiles' cases.
pub const SPARK_SQL: &str = "conformance/vectors/spark.sql";

/// Tries at finding a tie at the result scale, per batch.
const TIE_TRIES: usize = 150;

/// The operators of the vectors, with their names in the files and their SQL
/// symbols.
const OPS: [(BinaryOp, &str, &str); 5] = [
    (BinaryOp::Add, "add", "+"),
    (BinaryOp::Sub, "sub", "-"),
    (BinaryOp::Mul, "mul", "*"),
    (BinaryOp::Div, "div", "/"),
    (BinaryOp::Rem, "rem", "%"),
];

/// The comparisons of the vectors, with their names in the files and their
/// SQL symbols.
const COMPARISONS: [(CompareOp, &str, &str); 6] = [
    (CompareOp::Eq, "eq", "="),
    (CompareOp::NotEq, "ne", "<>"),
    (CompareOp::Lt, "lt", "<"),
    (CompareOp::LtEq, "le", "<="),
    (CompareOp::Gt, "gt", ">"),
    (CompareOp::GtEq, "ge", ">="),
];

/// A small deterministic generator (splitmix64), so that the files depend on
/// nothing but the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    fn between(&mut self, lo: u32, hi: u32) -> u32 {
        let span = u64::from(hi - lo) + 1;
        lo + u32::try_from(self.next() % span).expect("below the span")
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// `count` decimal digits, the first not zero.
    fn digits(&mut self, count: u32) -> String {
        (0..count)
            .map(|i| {
                let lo = u32::from(i == 0);
                char::from_digit(self.between(lo, 9), 10).expect("a digit")
            })
            .collect()
    }
}

/// One profile's file.
struct Profile {
    /// File name under `conformance/vectors/`.
    file: &'static str,
    /// The profile field of the `B` lines.
    name: &'static str,
    /// What the file is, for its header.
    title: &'static str,
    /// The rounding modes, taken in turn by the batches.
    roundings: &'static [RoundingMode],
    /// (width field, options, the largest operand precision, type pairs).
    widths: Vec<(&'static str, ArithmeticOptions, u8, usize)>,
}

fn profiles() -> Vec<Profile> {
    use RoundingMode::{Ceiling, Floor, HalfEven, HalfUp, TowardZero};
    vec![
        Profile {
            file: "fixed_point.txt",
            name: "fixed",
            title: "FixedPoint (ArithmeticOptions::fixed_point), every rounding mode",
            roundings: &[TowardZero, HalfUp, HalfEven, Floor, Ceiling],
            widths: vec![("-", ArithmeticOptions::fixed_point(), 76, 8)],
        },
        Profile {
            file: "arrow.txt",
            name: "arrow",
            title: "Arrow (ArithmeticOptions::arrow) at the four widths; what \
                    DataFusion computes after decimal_kernels_datafusion::register",
            roundings: &[TowardZero],
            widths: vec![
                ("I32", ArithmeticOptions::arrow(StorageWidth::I32), 9, 2),
                ("I64", ArithmeticOptions::arrow(StorageWidth::I64), 18, 2),
                ("I128", ArithmeticOptions::arrow(StorageWidth::I128), 38, 8),
                ("I256", ArithmeticOptions::arrow(StorageWidth::I256), 76, 4),
            ],
        },
        Profile {
            file: "spark.txt",
            name: "spark",
            title: "Spark with allowPrecisionLoss=true (ArithmeticOptions::spark), ANSI mode",
            roundings: &[HalfUp],
            widths: vec![("-", ArithmeticOptions::spark(), 38, 8)],
        },
        Profile {
            file: "spark_no_loss.txt",
            name: "spark_no_loss",
            title: "Spark with allowPrecisionLoss=false \
                    (ArithmeticOptions::spark_no_precision_loss), ANSI mode",
            roundings: &[HalfUp],
            widths: vec![("-", ArithmeticOptions::spark_no_precision_loss(), 38, 8)],
        },
        Profile {
            file: "presto.txt",
            name: "presto",
            title: "Presto and Trino (ArithmeticOptions::presto)",
            roundings: &[HalfUp],
            widths: vec![("-", ArithmeticOptions::presto(), 38, 8)],
        },
    ]
}

fn rounding_name(mode: RoundingMode) -> &'static str {
    match mode {
        RoundingMode::TowardZero => "toward_zero",
        RoundingMode::HalfUp => "half_up",
        RoundingMode::HalfEven => "half_even",
        RoundingMode::Floor => "floor",
        RoundingMode::Ceiling => "ceiling",
    }
}

#[track_caller]
fn ty(precision: u8, scale: i8) -> DecimalType {
    DecimalType::try_new(precision, scale).expect("a valid type")
}

fn as_u8(value: u32) -> u8 {
    u8::try_from(value).expect("a precision")
}

fn as_i8(value: u32) -> i8 {
    i8::try_from(value).expect("a scale")
}

/// The operand types of a width whose largest precision is `max`: fixed
/// shapes first (the type maxima, all-fraction types, a negative scale),
/// then random ones; the first `count`.
fn type_pairs(rng: &mut Rng, max: u8, count: usize) -> Vec<(DecimalType, DecimalType)> {
    let m = u32::from(max);
    let small = |p: u32| as_u8(p.min(m));
    let mut random = || {
        let p = rng.between(1, m);
        ty(as_u8(p), as_i8(rng.between(0, p)))
    };
    let mut pairs = vec![
        (ty(max, 0), ty(max, 0)),
        (ty(max, as_i8(m / 2)), ty(small(m / 3 + 1), 2.min(as_i8(m / 3 + 1)))),
        (ty(small(5), -2), ty(small(4), 1)),
        (random(), random()),
        (ty(small(5), 2), ty(small(5), 2)),
        (ty(small(10), 4), ty(small(7), 1)),
        (ty(small(3), as_i8(u32::from(small(3)))), ty(small(4), 0)),
        (random(), random()),
    ];
    pairs.truncate(count);
    pairs
}

/// Canonical text of the value whose stored digits are `digits`.
fn canonical(dtype: DecimalType, negative: bool, digits: &str) -> String {
    let scale = dtype.scale();
    let body = if scale <= 0 {
        format!("{digits}{}", "0".repeat(usize::from(scale.unsigned_abs())))
    } else {
        let s = usize::from(scale.unsigned_abs());
        let padded = format!("{}{digits}", "0".repeat((s + 1).saturating_sub(digits.len())));
        let (int, frac) = padded.split_at(padded.len() - s);
        format!("{int}.{frac}")
    };
    let text = if negative { format!("-{body}") } else { body };
    DecimalScalar::parse(dtype, &text).expect("a value of its type").to_string()
}

/// A random value of `dtype`, a third of them with all its digits.
fn random_value(rng: &mut Rng, dtype: DecimalType) -> String {
    let p = u32::from(dtype.precision());
    let count = if rng.chance(33) { p } else { rng.between(1, p) };
    let digits = rng.digits(count);
    canonical(dtype, rng.chance(50), &digits)
}

/// The largest value of `dtype` (all nines), negated or not.
fn extreme(dtype: DecimalType, negative: bool) -> String {
    canonical(dtype, negative, &"9".repeat(usize::from(dtype.precision())))
}

/// The stored integer `digits` in `dtype`, when it fits.
fn stored(dtype: DecimalType, negative: bool, digits: &str) -> Option<String> {
    (digits.len() <= usize::from(dtype.precision())).then(|| canonical(dtype, negative, digits))
}

fn scalar(dtype: DecimalType, text: Option<&str>) -> DecimalScalar {
    text.map_or_else(
        || DecimalScalar::null(dtype),
        |t| DecimalScalar::parse(dtype, t).expect("a generated value parses"),
    )
}

/// The outcome of a row under the `Error` policies, as the files write it.
fn outcome(
    op: BinaryOp,
    (lhs, a): (DecimalType, Option<&str>),
    (rhs, b): (DecimalType, Option<&str>),
    options: &ArithmeticOptions,
) -> String {
    match scalar(lhs, a).reference_binary(op, &scalar(rhs, b), options) {
        Ok(value) => value.to_string(),
        Err(DecimalError::Overflow { .. }) => "OVERFLOW".to_owned(),
        Err(DecimalError::DivideByZero { .. }) => "DIV0".to_owned(),
        Err(e) => panic!("the reference fails on a generated row: {e}"),
    }
}

/// Whether `a op b` lies exactly halfway between two values of the result
/// scale: one more digit holds it exactly, and that digit is a 5.
fn is_tie(op: BinaryOp, a: &DecimalScalar, b: &DecimalScalar, result: DecimalType) -> bool {
    let (p, s) = (result.precision(), result.scale());
    let Ok(wider) = DecimalType::try_new(p.saturating_add(1), s.saturating_add(1)) else {
        return false;
    };
    if wider.scale() <= 0 || p >= 76 {
        return false;
    }
    // The exact value does not depend on the profile: FixedPoint holds the
    // wider type at any precision up to 76.
    let exact = ArithmeticOptions::fixed_point();
    let at = |mode| {
        conformance::reference_to(op, a, b, wider, &exact.with_rounding(mode))
            .ok()
            .and_then(|r| r.to_strs().into_iter().next().flatten())
    };
    match (at(RoundingMode::Floor), at(RoundingMode::Ceiling)) {
        (Some(lo), Some(hi)) => lo == hi && lo.ends_with('5'),
        _ => false,
    }
}

/// A row whose exact result is a tie at the result scale, if one of a few
/// draws with divisors and multipliers apt to give one is.
fn tie_row(
    rng: &mut Rng,
    op: BinaryOp,
    (lhs, rhs, result): (DecimalType, DecimalType, DecimalType),
) -> Option<(String, String)> {
    let mut apt: Vec<String> =
        ["2", "4", "8", "5", "25", "125", "16", "20", "15", "375"].map(str::to_owned).to_vec();
    // The stored divisor 2 * 10^k makes A / B a tie for an odd A when k is
    // s2 - s1 + rs; the factor 5 * 10^j makes A * B one when j is
    // s1 + s2 - rs - 1.
    let (s1, s2, rs) = (i32::from(lhs.scale()), i32::from(rhs.scale()), i32::from(result.scale()));
    let aimed = match op {
        BinaryOp::Div => Some(("2", s2 - s1 + rs)),
        BinaryOp::Mul => Some(("5", s1 + s2 - rs - 1)),
        _ => None,
    };
    if let Some((lead, zeros)) = aimed
        && let Ok(zeros) = usize::try_from(zeros)
    {
        apt.push(format!("{lead}{}", "0".repeat(zeros)));
        apt.push(format!("{lead}{}", "0".repeat(zeros)));
    }
    let choices = u64::try_from(apt.len() + 2).expect("small");
    for _ in 0..TIE_TRIES {
        let a = random_value(rng, lhs);
        let pick = usize::try_from(rng.next() % choices).expect("small");
        let b = match apt.get(pick) {
            Some(digits) => stored(rhs, rng.chance(30), digits),
            None => {
                let count = rng.between(1, u32::from(rhs.precision()));
                let mut digits = rng.digits(count);
                digits.pop();
                digits.push('5');
                stored(rhs, rng.chance(30), &digits)
            }
        };
        let Some(b) = b else { continue };
        if is_tie(op, &scalar(lhs, Some(&a)), &scalar(rhs, Some(&b)), result) {
            return Some((a, b));
        }
    }
    None
}

/// The operands of a batch's rows: random values, the type maxima, the
/// smallest step, a zero divisor, a null, a tie when one is found, short
/// values.
fn rows(
    rng: &mut Rng,
    op: BinaryOp,
    types: (DecimalType, DecimalType, DecimalType),
) -> (Vec<Operands>, bool) {
    let (lhs, rhs, _) = types;
    let one = |dtype, negative| stored(dtype, negative, "1");
    let mut rows = vec![
        (Some(random_value(rng, lhs)), Some(random_value(rng, rhs))),
        (Some(random_value(rng, lhs)), Some(random_value(rng, rhs))),
        (Some(extreme(lhs, false)), Some(extreme(rhs, rng.chance(50)))),
        (Some(extreme(lhs, true)), one(rhs, false)),
        (Some(random_value(rng, lhs)), one(rhs, true)),
        (Some(random_value(rng, lhs)), Some(canonical(rhs, false, "0"))),
    ];
    rows.push(if rng.chance(50) {
        (None, Some(random_value(rng, rhs)))
    } else {
        (Some(random_value(rng, lhs)), None)
    });
    let tie = tie_row(rng, op, types);
    let found = tie.is_some();
    if let Some((a, b)) = tie {
        rows.push((Some(a), Some(b)));
    }
    let short = |rng: &mut Rng, dtype: DecimalType| {
        let count = rng.between(1, u32::from(dtype.precision()).min(3));
        let digits = rng.digits(count);
        canonical(dtype, rng.chance(50), &digits)
    };
    rows.push((Some(short(rng, lhs)), Some(short(rng, rhs))));
    (rows, found)
}

/// The operands of a row, `None` for a null.
type Operands = (Option<String>, Option<String>);

/// An arithmetic operator or a comparison.
#[derive(Clone, Copy)]
pub enum Operator {
    /// `+ - * / %`: a decimal result.
    Arithmetic,
    /// `= <> < <= > >=`: a boolean result.
    Comparison,
}

/// One batch: a `B` line and its rows with their outcomes.
pub struct Batch {
    /// The profile field.
    pub profile: &'static str,
    /// The width field.
    pub width: &'static str,
    /// The operator, its name and its SQL symbol.
    pub op: (Operator, &'static str, &'static str),
    /// The rounding mode's name.
    pub rounding: &'static str,
    /// The operand types.
    pub lhs: DecimalType,
    /// The right operand's type.
    pub rhs: DecimalType,
    /// The result type, `None` when the profile refuses the operands or the
    /// operator is a comparison.
    pub result: Option<DecimalType>,
    /// `(a, b, outcome)`, `None` for a null operand.
    pub rows: Vec<(Option<String>, Option<String>, String)>,
    /// Whether one row is a tie at the result scale.
    pub tie: bool,
}

fn batches(profile: &Profile, rng: &mut Rng, compare_rng: &mut Rng) -> Vec<Batch> {
    let mut batches = Vec::new();
    let mut turn = 0;
    for &(width, base, max, count) in &profile.widths {
        for (lhs, rhs) in type_pairs(rng, max, count) {
            for op in OPS {
                let mode = profile.roundings[turn % profile.roundings.len()];
                turn += 1;
                let options = base
                    .with_rounding(mode)
                    .with_on_overflow(OverflowPolicy::Error)
                    .with_on_divide_by_zero(OverflowPolicy::Error);
                let result = op.0.result_type(lhs, rhs, &options).ok();
                let (operands, tie) = result.map_or_else(
                    || (Vec::new(), false),
                    |result| rows(rng, op.0, (lhs, rhs, result)),
                );
                let rows = operands
                    .into_iter()
                    .map(|(a, b)| {
                        let out = outcome(op.0, (lhs, a.as_deref()), (rhs, b.as_deref()), &options);
                        (a, b, out)
                    })
                    .collect();
                batches.push(Batch {
                    profile: profile.name,
                    width,
                    op: (Operator::Arithmetic, op.1, op.2),
                    rounding: rounding_name(mode),
                    lhs,
                    rhs,
                    result,
                    rows,
                    tie,
                });
            }
        }
    }
    for &(width, _, max, _) in &profile.widths {
        for (lhs, rhs) in compare_pairs(compare_rng, max) {
            for _ in 0..2 {
                let op = COMPARISONS[turn % COMPARISONS.len()];
                turn += 1;
                let rows = compare_rows(compare_rng, lhs, rhs)
                    .into_iter()
                    .map(|(a, b)| {
                        let got = scalar(lhs, a.as_deref())
                            .reference_compare(op.0, &scalar(rhs, b.as_deref()));
                        let out = got.map_or_else(|| "NULL".to_owned(), |v| v.to_string());
                        (a, b, out)
                    })
                    .collect();
                batches.push(Batch {
                    profile: profile.name,
                    width,
                    op: (Operator::Comparison, op.1, op.2),
                    rounding: rounding_name(profile.roundings[0]),
                    lhs,
                    rhs,
                    result: None,
                    rows,
                    tie: false,
                });
            }
        }
    }
    batches
}

/// The operand types of the comparisons at a width whose largest precision
/// is `max`: all-integer against nearly all-fraction at the maximum (their
/// common type needs twice the digits), two small types, a random pair.
fn compare_pairs(rng: &mut Rng, max: u8) -> Vec<(DecimalType, DecimalType)> {
    let m = u32::from(max);
    let p = rng.between(1, m);
    let q = rng.between(1, m);
    vec![
        (ty(max, 0), ty(max, as_i8(m - 1))),
        (ty(as_u8(m.min(5)), 2), ty(as_u8(m.min(7)), as_i8(m.min(4)))),
        (ty(as_u8(p), as_i8(rng.between(0, p))), ty(as_u8(q), as_i8(rng.between(0, q)))),
    ]
}

/// The operands of a comparison's rows: random values, the maxima, one
/// value in both types, that value against one a step above it, a null.
fn compare_rows(rng: &mut Rng, lhs: DecimalType, rhs: DecimalType) -> Vec<Operands> {
    let mut rows = vec![
        (Some(random_value(rng, lhs)), Some(random_value(rng, rhs))),
        (Some(random_value(rng, lhs)), Some(random_value(rng, rhs))),
        (Some(extreme(lhs, rng.chance(50))), Some(extreme(rhs, rng.chance(50)))),
    ];
    // A value both types hold: at most the fewer integer and fraction digits.
    let (p1, s1) = (i32::from(lhs.precision()), i32::from(lhs.scale()));
    let (p2, s2) = (i32::from(rhs.precision()), i32::from(rhs.scale()));
    let int_digits = u32::try_from((p1 - s1).min(p2 - s2)).unwrap_or(0);
    let frac_digits = u32::try_from(s1.min(s2)).unwrap_or(0);
    if int_digits + frac_digits > 0 {
        let negative = rng.chance(50);
        let int = if int_digits > 0 {
            let count = rng.between(1, int_digits);
            rng.digits(count)
        } else {
            "0".to_owned()
        };
        let frac = if frac_digits > 0 {
            let count = rng.between(1, frac_digits);
            rng.digits(count)
        } else {
            String::new()
        };
        let sign = if negative { "-" } else { "" };
        let text =
            if frac.is_empty() { format!("{sign}{int}") } else { format!("{sign}{int}.{frac}") };
        let both = |dtype| DecimalScalar::parse(dtype, &text).ok().map(|v| v.to_string());
        if let (Some(a), Some(b)) = (both(lhs), both(rhs)) {
            rows.push((Some(a.clone()), Some(b)));
            // One step of the finer fraction above (or below, if negative).
            let finer = usize::try_from(s2).unwrap_or(0);
            if finer > frac.len() {
                let mut near = if frac.is_empty() { format!("{text}.") } else { text.clone() };
                near.push_str(&"0".repeat(finer - frac.len() - 1));
                near.push('1');
                if let Ok(b) = DecimalScalar::parse(rhs, &near) {
                    rows.push((Some(a), Some(b.to_string())));
                }
            }
        }
    }
    rows.push(if rng.chance(50) {
        (None, Some(random_value(rng, rhs)))
    } else {
        (Some(random_value(rng, lhs)), None)
    });
    rows
}

const GENERATED: &str = "generated by `cargo run --example conformance_vectors` from the \
                         crate's exact reference; do not edit (conformance/README.md)";

fn vector_file(profile: &Profile, seeds: (u64, u64), batches: &[Batch]) -> String {
    let mut out = String::new();
    let rows: usize = batches.iter().map(|b| b.rows.len()).sum();
    let ties = batches.iter().filter(|b| b.tie).count();
    let _ = writeln!(out, "# Conformance vectors: {}.", profile.title);
    let _ = writeln!(out, "# {GENERATED}.");
    let _ = writeln!(
        out,
        "# Seeds {:#x} (arithmetic) and {:#x} (comparisons); {} batches, {rows} rows; {ties} \
         batches hold a tie at the result scale.",
        seeds.0,
        seeds.1,
        batches.len()
    );
    let _ =
        writeln!(out, "# Format: docs/semantics.md#vectors; outcomes under the Error policies.");
    for batch in batches {
        let (p1, s1, p2, s2) =
            (batch.lhs.precision(), batch.lhs.scale(), batch.rhs.precision(), batch.rhs.scale());
        let result = match (batch.op.0, batch.result) {
            (Operator::Comparison, _) => "bool -".to_owned(),
            (Operator::Arithmetic, None) => "TYPEERR TYPEERR".to_owned(),
            (Operator::Arithmetic, Some(r)) => format!("{} {}", r.precision(), r.scale()),
        };
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "B {} {} {} {} {p1} {s1} {p2} {s2} {result}",
            batch.op.1, batch.profile, batch.width, batch.rounding
        );
        for (a, b, expected) in &batch.rows {
            let _ = writeln!(
                out,
                "R {} {} {expected}",
                a.as_deref().unwrap_or("NULL"),
                b.as_deref().unwrap_or("NULL")
            );
        }
    }
    out
}

/// Plain DataFusion's answer to one query, as recorded.
#[derive(PartialEq, Eq)]
enum Answer {
    /// The printed row.
    Value(String),
    /// The error, its line breaks written `\n`.
    Error(String),
    /// A panic: the query is left out of the file.
    Panic,
}

/// Reads the recorded answers: `Q <sql>` lines, each followed by `= <row>`,
/// `E <error>` or `P <panic message>`.
fn plain_answers(text: &str) -> HashMap<String, Answer> {
    let mut answers = HashMap::new();
    let mut sql: Option<&str> = None;
    for line in text.lines() {
        if let Some(q) = line.strip_prefix("Q ") {
            sql = Some(q);
        } else if let Some(query) = sql.take() {
            let answer = if let Some(v) = line.strip_prefix("= ") {
                Answer::Value(v.to_owned())
            } else if let Some(e) = line.strip_prefix("E ") {
                Answer::Error(e.to_owned())
            } else if line.starts_with("P ") {
                Answer::Panic
            } else {
                continue;
            };
            answers.insert(query.to_owned(), answer);
        }
    }
    answers
}

/// A text as a regular expression matching it.
fn regex_escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A decimal as DataFusion's sqllogictest runner prints it: trailing
/// fraction zeros and a bare point dropped, zero as `0`.
fn slt_decimal(text: &str) -> String {
    if !text.contains('.') {
        return text.to_owned();
    }
    let trimmed = text.trim_end_matches('0').trim_end_matches('.');
    match trimmed {
        "-0" | "0" | "" => "0".to_owned(),
        other => other.to_owned(),
    }
}

/// What the exact record of a query expects.
enum Exact {
    /// A type name or a printed decimal.
    Value(String),
    /// A regular expression for register's error, and what the error is.
    Error(String, String),
}

/// The SQL of an Arrow operand at `width`.
fn df_operand(width: &str, dtype: DecimalType, text: Option<&str>) -> String {
    let literal = text.map_or_else(|| "NULL".to_owned(), |t| format!("'{t}'"));
    let (p, s) = (dtype.precision(), dtype.scale());
    if width == "I256" {
        format!("arrow_cast({literal}, 'Decimal256({p}, {s})')")
    } else {
        format!("CAST({literal} AS DECIMAL({p},{s}))")
    }
}

/// Writes one query record: a result (`Ok`) or an error matching a regular
/// expression (`Err`), after an optional condition line.
fn slt_record(
    out: &mut String,
    condition: Option<&str>,
    column: char,
    sql: &str,
    expect: Result<&str, &str>,
) {
    if let Some(condition) = condition {
        let _ = writeln!(out, "{condition}");
    }
    let _ = match expect {
        Ok(value) => writeln!(out, "query {column}\n{sql}\n----\n{value}\n"),
        Err(regex) => writeln!(out, "query error {regex}\n{sql}\n"),
    };
}

/// Writes a query record, or the pair of records of a known difference when
/// plain DataFusion's recorded answer is not the exact one (a query without
/// a recorded answer is taken to be answered exactly).
fn slt_query(
    out: &mut String,
    column: char,
    sql: &str,
    exact: &Exact,
    plain: &HashMap<String, Answer>,
    differences: &mut usize,
) {
    if plain.get(sql) == Some(&Answer::Panic) {
        // Left out: DataFusion panics on it (conformance/README.md).
        let _ = writeln!(out, "# left out: plain DataFusion panics on\n# {sql}\n");
        return;
    }
    let (exact_expect, exact_says) = match exact {
        Exact::Value(v) => (Ok(v.as_str()), format!("the exact result is {v}")),
        Exact::Error(regex, what) => (Err(regex.as_str()), format!("the exact outcome is {what}")),
    };
    let (plain_regex, plain_expect, plain_says) = match plain.get(sql) {
        Some(Answer::Value(p)) if exact_expect != Ok(p.as_str()) => {
            let says = if matches!(exact, Exact::Error(..)) {
                format!("DataFusion gives no error but a value, printed {p}")
            } else {
                format!("DataFusion gives {p}")
            };
            (String::new(), Some(Ok(p.as_str())), says)
        }
        Some(Answer::Error(e)) => {
            // Line breaks are recorded as `\n`: a regular expression's line
            // break in the record, a space in the comment.
            let lines: Vec<&str> = e.split("\\n").collect();
            let regex = lines.iter().map(|l| regex_escape(l)).collect::<Vec<_>>().join("\\n");
            (regex, Some(Err(())), format!("DataFusion fails with \"{}\"", lines.join(" ")))
        }
        _ => (String::new(), None, String::new()),
    };
    let Some(plain_expect) = plain_expect else {
        slt_record(out, None, column, sql, exact_expect);
        return;
    };
    let plain_expect = plain_expect.map_err(|()| plain_regex.as_str());
    *differences += 1;
    let why = if exact_expect.is_err() && plain_expect.is_err() {
        format!("same outcome, an error, with another message: {plain_says}; {exact_says}")
    } else {
        format!("{plain_says}; {exact_says}")
    };
    let _ = writeln!(out, "# difference: {why}.");
    slt_record(out, Some("skipif register"), column, sql, plain_expect);
    slt_record(out, Some("onlyif register"), column, sql, exact_expect);
}

/// The Arrow cases DataFusion's SQL can state: `Decimal128` operands (the
/// `I128` width) written as `CAST(.. AS DECIMAL(p,s))`, `Decimal256` ones
/// (`I256`) as `arrow_cast`, scales not negative. Returns the file and the
/// number of known differences.
fn slt_file(batches: &[Batch], plain: &HashMap<String, Answer>) -> (String, usize) {
    let mut out = String::new();
    let mut differences = 0;
    let _ = writeln!(
        out,
        "# The Arrow-profile conformance vectors (conformance/vectors/arrow.txt) as\n\
         # DataFusion SQL: {GENERATED}.\n\
         # Only the I128 and I256 batches with scales of 0 or more are here (DataFusion's\n\
         # SQL has no Decimal32/Decimal64 arithmetic of its own and no negative scales).\n\
         # The exact answers are register's; where plain DataFusion answers otherwise\n\
         # (recorded in conformance/vectors/datafusion_plain.txt), both are written as\n\
         # described in tests/sqllogictest.rs.\n"
    );
    for batch in batches {
        if !matches!(batch.width, "I128" | "I256") || batch.lhs.scale() < 0 || batch.rhs.scale() < 0
        {
            continue;
        }
        let (operator, name, symbol) = batch.op;
        let operand =
            |dtype, text: &Option<String>| df_operand(batch.width, dtype, text.as_deref());
        let result = match (operator, batch.result) {
            (Operator::Comparison, _) => None,
            (Operator::Arithmetic, Some(result)) if result.scale() >= 0 => Some(result),
            (Operator::Arithmetic, _) => continue,
        };
        let result_name = result.map_or_else(|| "boolean".to_owned(), |r| r.to_string());
        let _ = writeln!(
            out,
            "# arrow {} {}: {} {symbol} {} -> {result_name}\n",
            batch.width, name, batch.lhs, batch.rhs
        );
        if let Some(result) = result {
            let type_name = if batch.width == "I256" { "Decimal256" } else { "Decimal128" };
            let sql = format!(
                "SELECT arrow_typeof({} {symbol} {})",
                operand(batch.lhs, &None),
                operand(batch.rhs, &None)
            );
            let exact =
                Exact::Value(format!("{type_name}({}, {})", result.precision(), result.scale()));
            slt_query(&mut out, 'T', &sql, &exact, plain, &mut differences);
        }
        for (a, b, expected) in &batch.rows {
            let sql =
                format!("SELECT {} {symbol} {}", operand(batch.lhs, a), operand(batch.rhs, b));
            let function = format!("decimal_{name}");
            let exact = match expected.as_str() {
                "OVERFLOW" => Exact::Error(
                    format!("{function}: overflow at row 0"),
                    format!("an overflow: the result does not fit {result_name}"),
                ),
                "DIV0" => Exact::Error(
                    format!("{function}: division by zero at row 0"),
                    "a division by zero".to_owned(),
                ),
                value => Exact::Value(slt_decimal(value)),
            };
            let column = if result.is_some() { 'R' } else { 'B' };
            slt_query(&mut out, column, &sql, &exact, plain, &mut differences);
        }
    }
    (out, differences)
}

/// The Spark SQL of an operand.
fn spark_operand(dtype: DecimalType, text: Option<&str>) -> String {
    let literal = text.map_or_else(|| "NULL".to_owned(), |t| format!("'{t}'"));
    format!("CAST({literal} AS DECIMAL({},{}))", dtype.precision(), dtype.scale())
}

/// The Spark cases as Spark SQL, ANSI mode on, each query followed by its
/// expectation: `-- expect <type> <value>`, `NULL`, `OVERFLOW` or `DIV0`.
fn spark_file(groups: &[(&str, &[Batch])]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "-- The Spark-profile conformance vectors (conformance/vectors/spark.txt and\n\
         -- spark_no_loss.txt) as Spark SQL: {GENERATED}.\n\
         -- Every query is followed by a comment: `-- expect <result type> <value>`, the value\n\
         -- as Spark prints a decimal (all its scale's digits), `NULL`, or `OVERFLOW`\n\
         -- (ANSI: NUMERIC_VALUE_OUT_OF_RANGE) or `DIV0` (ANSI: DIVIDE_BY_ZERO).\n\
         -- Batches with negative scales are left out (Spark refuses them in SQL).\n\n\
         SET spark.sql.ansi.enabled=true;"
    );
    for (loss, batches) in groups {
        let _ = writeln!(out, "\nSET spark.sql.decimalOperations.allowPrecisionLoss={loss};");
        for batch in *batches {
            let result = match (batch.op.0, batch.result) {
                (Operator::Comparison, _) => "boolean".to_owned(),
                (Operator::Arithmetic, Some(result)) => result.to_string(),
                (Operator::Arithmetic, None) => continue,
            };
            if batch.lhs.scale() < 0 || batch.rhs.scale() < 0 {
                continue;
            }
            let (_, name, symbol) = batch.op;
            let _ = writeln!(
                out,
                "\n-- {} {name}: {} {symbol} {} -> {result}",
                batch.profile, batch.lhs, batch.rhs
            );
            for (a, b, expected) in &batch.rows {
                let _ = writeln!(
                    out,
                    "SELECT {} {symbol} {};\n-- expect {result} {expected}",
                    spark_operand(batch.lhs, a.as_deref()),
                    spark_operand(batch.rhs, b.as_deref())
                );
            }
        }
    }
    out
}

/// What the generator writes.
pub struct Generated {
    /// Every file, as (path from the repository root, contents).
    pub files: Vec<(String, String)>,
    /// The number of cases of each case file.
    pub counts: Vec<(String, usize)>,
    /// The known differences of the sqllogictest file.
    pub differences: usize,
}

/// Every generated file, given the recorded plain DataFusion answers (the
/// contents of [`PLAIN_ANSWERS`], empty when there are none).
pub fn generate(plain: &str) -> Generated {
    let mut files = Vec::new();
    let mut counts = Vec::new();
    let mut all = Vec::new();
    for (index, profile) in (0..).zip(profiles()) {
        // Each profile's arithmetic and comparisons draw from streams of
        // their own, so that a change to one leaves the others' cases.
        let seeds = (SEED + 2 * index, SEED + 2 * index + 1);
        let batches = batches(&profile, &mut Rng(seeds.0), &mut Rng(seeds.1));
        let rows = batches.iter().map(|b| b.rows.len()).sum();
        counts.push((profile.file.to_owned(), rows));
        files.push((
            format!("conformance/vectors/{}", profile.file),
            vector_file(&profile, seeds, &batches),
        ));
        all.push((profile.name, batches));
    }
    let find =
        |name: &str| all.iter().find(|(n, _)| *n == name).map_or(&[][..], |(_, b)| b.as_slice());
    let (slt, differences) = slt_file(find("arrow"), &plain_answers(plain));
    files.push((SLT.to_owned(), slt));
    files.push((
        SPARK_SQL.to_owned(),
        spark_file(&[("true", find("spark")), ("false", find("spark_no_loss"))]),
    ));
    Generated { files, counts, differences }
}
