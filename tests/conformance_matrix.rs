//! The element-wise conformance matrix: every operator (`+ - * / %`) ×
//! profile (FixedPoint, Arrow at i32/i64/i128/i256, Spark with and without
//! precision loss, Presto) × rounding mode × overflow and division-by-zero
//! policy × operand storage width (mixed where the types differ), over edge
//! values (zero, one unit, the maximum magnitude, the value 1, rounding ties,
//! values near the overflow line) and pseudo-random values, with null rows
//! hiding real values. Each call shape (array ⊕ array, an odd-offset slice,
//! array ⊕ scalar, scalar ⊕ array, empty arrays, scalar ⊕ scalar) is held to
//! `conformance::compare`.
//!
//! The operators of one operand (`rescale`, `neg`, `abs`) run through the
//! same profiles, modes, policies and widths, held to
//! `conformance::reference_unary`: rescale targets wider and narrower, at a
//! higher and a lower scale, at a negative scale, of the same scale with
//! fewer digits (the overflow check after an operator) and dropping more
//! digits than a value has; and `neg`, `abs` and `rescale` of unchecked
//! columns holding values beyond their precision up to each storage's
//! minimum, which overflow and never wrap.
//!
//! A second set of named cases checks specific outcomes directly: exact error
//! rows, which rows the `Null` policies null, rounding of ties, and results
//! whose intermediates do not fit the storage.
//!
//! The aggregates (`sum`, `avg`, `min`, `max`; module `aggregates` below) run through the
//! same profiles, rounding modes and overflow policies, for types of 1 to 76
//! digits (the 18/19 and 38/39 boundaries, negative scales), checked and
//! unchecked columns at every storage width that holds the type (the
//! storage extremes, `i128::MIN` and `i256::MIN` among them), by group and
//! over the whole column, held to `conformance::reference_aggregate`: empty
//! and all-null groups, sums that exceed the result type (the first such
//! group named with its exact value, or nulled) and sums whose running
//! total leaves the result type and `i256` but comes back.
//!
//! The kernels run in the compiled copy this process chose; `every_copy`
//! runs part of the matrix again in each other copy this CPU runs.

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

#[path = "copies/every_copy.rs"]
mod every_copy;

use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalScalar, DecimalType, Operand,
    OverflowPolicy, RoundingMode, StorageWidth, UnaryOp, binary, conformance,
};
use rstest::rstest;
use support::outcomes::{
    Call, Described, UnaryCall, assert_matches_reference, assert_same_outcome,
    assert_unary_conforms,
};
use support::types::{
    PROFILES, checked_column, column_from_strs, dec, max_stored, pow10, unchecked_column,
    widths_holding,
};
use support::values::{Kind, Rng, native_range};

const POLICIES: [OverflowPolicy; 2] = [OverflowPolicy::Error, OverflowPolicy::Null];

/// Pseudo-random rows per column, after the cross product of edge values.
const RANDOM_ROWS: usize = 16;

/// Canonical text of the stored integer `±digits` in a type of `scale`.
fn canonical(negative: bool, digits: &str, scale: i8) -> String {
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return "0".into();
    }
    let sign = if negative { "-" } else { "" };
    let places = usize::from(scale.unsigned_abs());
    if scale <= 0 {
        return format!("{sign}{digits}{}", "0".repeat(places));
    }
    let padded = format!("{digits:0>width$}", width = places + 1);
    let (int, frac) = padded.split_at(padded.len() - places);
    format!("{sign}{int}.{frac}")
}

/// `d` followed by `zeros` zeros.
fn digit_then_zeros(d: char, zeros: usize) -> String {
    format!("{d}{}", "0".repeat(zeros))
}

/// The edge values of `dtype` as canonical text, without duplicates: zero,
/// ±one unit, ±the maximum, ±half the maximum, `10^(p-1)`, ±the value 1, and the
/// ties 5 (one unit), -0.5 and 5 where they fit.
fn edge_values(dtype: DecimalType) -> Vec<String> {
    let p = usize::from(dtype.precision());
    let s = dtype.scale();
    let max = "9".repeat(p);
    let mut stored: Vec<(bool, String)> = vec![
        (false, "0".into()),
        (false, "1".into()),
        (true, "1".into()),
        (false, max.clone()),
        (true, max),
        (false, format!("4{}", "9".repeat(p - 1))),
        (true, format!("4{}", "9".repeat(p - 1))),
        (false, digit_then_zeros('1', p - 1)),
        (false, "5".into()),
    ];
    if let Ok(s) = usize::try_from(s) {
        if s < p {
            stored.push((false, digit_then_zeros('1', s)));
            stored.push((true, digit_then_zeros('1', s)));
            stored.push((false, digit_then_zeros('5', s)));
        }
        if (1..=p).contains(&s) {
            stored.push((true, digit_then_zeros('5', s - 1)));
        }
    }
    let mut texts: Vec<String> = stored.iter().map(|(neg, d)| canonical(*neg, d, s)).collect();
    let mut seen = std::collections::HashSet::new();
    texts.retain(|text| seen.insert(text.clone()));
    texts
}

/// A value of `dtype` with 1 to `p` digits and either sign, as text.
fn random_text(rng: &mut Rng, dtype: DecimalType) -> String {
    let stored = rng.value(dtype, dtype.storage_width(), Kind::Digits);
    DecimalScalar::from_stored(dtype, stored).expect("within the precision").to_string()
}

/// A column of `texts` stored at `width`; rows where `is_null(row)` are null but
/// keep their value underneath.
fn column(
    dtype: DecimalType,
    texts: &[String],
    is_null: impl Fn(usize) -> bool,
    width: StorageWidth,
) -> DecimalArray {
    let parsed: Vec<Option<&str>> = texts.iter().map(|text| Some(text.as_str())).collect();
    let dense = column_from_strs(dtype, &parsed);
    let values: Vec<i256> = (0..dense.len()).map(|i| dense.values().get(i).unwrap()).collect();
    let valid: Vec<bool> = (0..texts.len()).map(|i| !is_null(i)).collect();
    checked_column(dtype, &values, &valid, width)
}

fn lhs_null(row: usize) -> bool {
    row.is_multiple_of(7)
}

fn rhs_null(row: usize) -> bool {
    row.is_multiple_of(5)
}

/// The values of one type pair: the cross product of the edge values plus
/// random pairs (two columns), one column of distinct values per side for the
/// scalar shapes, and the scalars.
struct Values {
    lhs: Vec<String>,
    rhs: Vec<String>,
    lhs_distinct: Vec<String>,
    rhs_distinct: Vec<String>,
    lhs_scalars: Vec<DecimalScalar>,
    rhs_scalars: Vec<DecimalScalar>,
}

impl Values {
    fn new(lhs_type: DecimalType, rhs_type: DecimalType) -> Self {
        let (lhs_edges, rhs_edges) = (edge_values(lhs_type), edge_values(rhs_type));
        let seed = u64::from(lhs_type.precision()) << 8 | u64::from(rhs_type.precision());
        let mut rng = Rng::new(seed);
        let (mut lhs, mut rhs) = (Vec::new(), Vec::new());
        for a in &lhs_edges {
            for b in &rhs_edges {
                lhs.push(a.clone());
                rhs.push(b.clone());
            }
        }
        for i in 0..RANDOM_ROWS {
            lhs.push(random_text(&mut rng, lhs_type));
            // Every fourth random divisor is zero, so some are under null rows.
            rhs.push(if i % 4 == 0 { "0".into() } else { random_text(&mut rng, rhs_type) });
        }
        let distinct = |edges: &[String], dtype: DecimalType, rng: &mut Rng| {
            let random = (0..RANDOM_ROWS / 2).map(|_| random_text(rng, dtype));
            edges.iter().cloned().chain(random).collect::<Vec<_>>()
        };
        // Zero, one negative unit, the maximum, and null.
        let scalars = |dtype: DecimalType, edges: &[String]| {
            let mut scalars: Vec<DecimalScalar> = [0, 2, 3]
                .iter()
                .map(|&i| DecimalScalar::parse(dtype, &edges[i]).unwrap())
                .collect();
            scalars.push(DecimalScalar::null(dtype));
            scalars
        };
        let values = Self {
            lhs_distinct: distinct(&lhs_edges, lhs_type, &mut rng),
            rhs_distinct: distinct(&rhs_edges, rhs_type, &mut rng),
            lhs_scalars: scalars(lhs_type, &lhs_edges),
            rhs_scalars: scalars(rhs_type, &rhs_edges),
            lhs,
            rhs,
        };
        let zero_divisor = |valid: bool| {
            let row_valid = |row: usize| !(lhs_null(row) || rhs_null(row));
            values.rhs.iter().enumerate().any(|(row, text)| text == "0" && row_valid(row) == valid)
        };
        assert!(zero_divisor(true) && zero_divisor(false), "the data must hold zero divisors");
        values
    }
}

/// The columns of one type pair at one pair of storage widths.
struct Columns {
    widths: String,
    lhs: DecimalArray,
    rhs: DecimalArray,
    lhs_slice: DecimalArray,
    rhs_slice: DecimalArray,
    lhs_empty: DecimalArray,
    rhs_empty: DecimalArray,
    lhs_distinct: DecimalArray,
    rhs_distinct: DecimalArray,
}

impl Columns {
    fn new(
        values: &Values,
        (lhs_type, lhs_width): (DecimalType, StorageWidth),
        (rhs_type, rhs_width): (DecimalType, StorageWidth),
    ) -> Self {
        let lhs = column(lhs_type, &values.lhs, lhs_null, lhs_width);
        let rhs = column(rhs_type, &values.rhs, rhs_null, rhs_width);
        let len = lhs.len();
        Self {
            widths: format!("{lhs_type}@{lhs_width}, {rhs_type}@{rhs_width}"),
            lhs_slice: lhs.slice(3, len - 5).unwrap(),
            rhs_slice: rhs.slice(3, len - 5).unwrap(),
            lhs_empty: lhs.slice(0, 0).unwrap(),
            rhs_empty: rhs.slice(0, 0).unwrap(),
            lhs_distinct: column(lhs_type, &values.lhs_distinct, lhs_null, lhs_width),
            rhs_distinct: column(rhs_type, &values.rhs_distinct, rhs_null, rhs_width),
            lhs,
            rhs,
        }
    }

    /// Every call shape over these columns, with a name.
    fn shapes<'a>(&'a self, values: &'a Values) -> Vec<(String, Operand<'a>, Operand<'a>)> {
        let mut shapes = vec![
            ("arrays".to_string(), (&self.lhs).into(), (&self.rhs).into()),
            ("sliced arrays".to_string(), (&self.lhs_slice).into(), (&self.rhs_slice).into()),
            ("empty arrays".to_string(), (&self.lhs_empty).into(), (&self.rhs_empty).into()),
        ];
        for scalar in &values.rhs_scalars {
            shapes.push((
                format!("array, scalar {scalar}"),
                (&self.lhs_distinct).into(),
                scalar.into(),
            ));
        }
        for scalar in &values.lhs_scalars {
            shapes.push((
                format!("scalar {scalar}, array"),
                scalar.into(),
                (&self.rhs_distinct).into(),
            ));
        }
        for a in &values.lhs_scalars {
            for b in &values.rhs_scalars {
                shapes.push((format!("scalars {a}, {b}"), a.into(), b.into()));
            }
        }
        shapes
    }
}

/// The storage widths to run a type pair at: each operand at its narrowest,
/// then both widened together up to i256.
fn width_pairs(lhs: DecimalType, rhs: DecimalType) -> Vec<(StorageWidth, StorageWidth)> {
    let (nl, nr) = (lhs.storage_width(), rhs.storage_width());
    let mut pairs: Vec<_> = StorageWidth::ALL
        .into_iter()
        .filter(|&w| w >= nl.min(nr))
        .map(|w| (w.max(nl), w.max(nr)))
        .collect();
    pairs.dedup();
    pairs
}

/// Every rounding mode and policy combination on top of `profile`.
fn option_combinations(profile: ArithmeticOptions) -> Vec<ArithmeticOptions> {
    let mut all = Vec::new();
    for rounding in RoundingMode::ALL {
        for on_overflow in POLICIES {
            for on_divide_by_zero in POLICIES {
                all.push(
                    profile
                        .with_rounding(rounding)
                        .with_on_overflow(on_overflow)
                        .with_on_divide_by_zero(on_divide_by_zero),
                );
            }
        }
    }
    all
}

#[rstest]
#[case::small(dec(2, 1), dec(2, 1))]
#[case::p4_s2(dec(4, 2), dec(4, 2))]
#[case::money_mixed(dec(12, 2), dec(10, 3))]
#[case::p9_s0(dec(9, 0), dec(9, 0))]
#[case::p18_s0(dec(18, 0), dec(18, 0))]
#[case::p18_s6(dec(18, 6), dec(18, 6))]
#[case::p19_s2(dec(19, 2), dec(19, 2))]
#[case::p38_s0(dec(38, 0), dec(38, 0))]
#[case::p38_s10(dec(38, 10), dec(38, 10))]
#[case::p38_s38(dec(38, 38), dec(38, 38))]
#[case::p40_s2(dec(40, 2), dec(40, 2))]
#[case::p76_s0(dec(76, 0), dec(76, 0))]
#[case::p76_s38(dec(76, 38), dec(76, 38))]
#[case::p76_s76(dec(76, 76), dec(76, 76))]
#[case::negative_scale_5(dec(5, -2), dec(5, -2))]
#[case::negative_scale_10(dec(10, -5), dec(10, -5))]
#[case::large_scale_shift(dec(2, -10), dec(3, 2))]
#[case::large_scale_shift_reversed(dec(3, 2), dec(2, -10))]
#[case::p38_with_p18(dec(38, 10), dec(18, 0))]
#[case::p76_with_small(dec(76, 0), dec(2, 1))]
#[case::negative_with_fraction(dec(5, -2), dec(9, 4))]
#[case::p19_with_p4(dec(19, 2), dec(4, 2))]
#[case::all_fraction_with_integer(dec(38, 38), dec(76, 0))]
#[case::one_digit_with_p76_s76(dec(1, 0), dec(76, 76))]
#[case::scales_152_apart(dec(3, -76), dec(76, 76))]
#[case::scales_152_apart_reversed(dec(76, 76), dec(3, -76))]
#[case::p76_negative_scale_with_p40(dec(76, -30), dec(40, 36))]
fn matches_reference(
    #[case] lhs_type: DecimalType,
    #[case] rhs_type: DecimalType,
    #[values(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Rem)]
    op: BinaryOp,
    #[values(
        ArithmeticOptions::fixed_point(),
        ArithmeticOptions::arrow(StorageWidth::I32),
        ArithmeticOptions::arrow(StorageWidth::I64),
        ArithmeticOptions::arrow(StorageWidth::I128),
        ArithmeticOptions::arrow(StorageWidth::I256),
        ArithmeticOptions::spark(),
        ArithmeticOptions::spark_no_precision_loss(),
        ArithmeticOptions::presto()
    )]
    profile: ArithmeticOptions,
) {
    let values = Values::new(lhs_type, rhs_type);
    let columns: Vec<Columns> = width_pairs(lhs_type, rhs_type)
        .into_iter()
        .map(|(lw, rw)| Columns::new(&values, (lhs_type, lw), (rhs_type, rw)))
        .collect();
    let shapes: Vec<_> = columns.iter().map(|c| (c, c.shapes(&values))).collect();
    let mut failures = Vec::new();
    for opts in option_combinations(profile) {
        // At the narrowest widths every shape is held to the reference; at
        // wider widths it must give the same outcome as there (or it is held
        // to the reference again, to report what differs).
        let mut at_narrowest = Vec::new();
        for (i, (columns, shapes)) in shapes.iter().enumerate() {
            for (j, (name, lhs, rhs)) in shapes.iter().enumerate() {
                let got = binary(op, *lhs, *rhs, &opts);
                let same_as_narrowest = i > 0 && got == at_narrowest[j];
                if !same_as_narrowest
                    && let Err(report) = conformance::compare(op, *lhs, *rhs, &opts, &got)
                {
                    failures.push(format!("{} ({name}):\n{report}", columns.widths));
                }
                if i == 0 {
                    at_narrowest.push(got);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} calls differ:\n{}", failures.len(), failures.join("\n"));
}

/// Every rounding mode and overflow policy on top of `profile` (an operator
/// of one operand never divides: its division-by-zero policy stays).
fn unary_option_combinations(profile: ArithmeticOptions) -> Vec<ArithmeticOptions> {
    let mut all = Vec::new();
    for rounding in RoundingMode::ALL {
        for on_overflow in POLICIES {
            all.push(profile.with_rounding(rounding).with_on_overflow(on_overflow));
        }
    }
    all
}

/// `decimal(p, s)` if it is a valid type.
fn try_dec(p: i16, s: i16) -> Option<DecimalType> {
    DecimalType::try_new(u8::try_from(p).ok()?, i8::try_from(s).ok()?).ok()
}

/// The rescale targets of `dtype` that are valid types: the same type;
/// wider and narrower at the same scale; the same scale with one digit
/// fewer (the overflow check after an operator); a higher scale with the
/// same or fewer integer digits; a lower scale with the same or fewer
/// integer digits (rounding); a negative scale; and a scale that drops more
/// digits than any value of `dtype` has.
fn rescale_targets(dtype: DecimalType) -> Vec<DecimalType> {
    let (p, s) = (i16::from(dtype.precision()), i16::from(dtype.scale()));
    let candidates = [
        (p, s),
        (p + 10, s),
        (p - 3, s),
        (p - 1, s),
        (p + 3, s + 3),
        (p, s + 3),
        (p, s - 3),
        (p - 3, s - 3),
        (p - 1, s - 1),
        (p.min(5), -5),
        (p, s - p - 2),
        (1, s - p),
    ];
    let mut targets: Vec<DecimalType> =
        candidates.into_iter().filter_map(|(p, s)| try_dec(p, s)).collect();
    let mut seen = std::collections::HashSet::new();
    targets.retain(|t| seen.insert(*t));
    targets
}

/// The columns of one operand type at one storage width: the edge values and
/// random values (every seventh row null, hiding its value), an odd-offset
/// slice and an empty slice of them.
struct UnaryColumns {
    array: DecimalArray,
    slice: DecimalArray,
    empty: DecimalArray,
}

impl UnaryColumns {
    fn new(dtype: DecimalType, texts: &[String], width: StorageWidth) -> Self {
        let array = column(dtype, texts, lhs_null, width);
        let len = array.len();
        Self { slice: array.slice(3, len - 5).unwrap(), empty: array.slice(0, 0).unwrap(), array }
    }

    /// Every call shape over these columns and `scalars`, with a name.
    fn shapes<'a>(&'a self, scalars: &'a [DecimalScalar]) -> Vec<(String, Operand<'a>)> {
        let mut shapes = vec![
            ("array".to_string(), (&self.array).into()),
            ("sliced array".to_string(), (&self.slice).into()),
            ("empty array".to_string(), (&self.empty).into()),
        ];
        shapes.extend(scalars.iter().map(|s| (format!("scalar {s}"), s.into())));
        shapes
    }
}

/// `rescale` to every target, `neg` and `abs` of one operand type, under
/// every profile, rounding mode and overflow policy, at every storage width
/// from the operand's narrowest: at the narrowest each shape is held to the
/// reference, at wider widths it must give the same outcome as there.
#[rstest]
#[case::p1_s0(dec(1, 0))]
#[case::small(dec(2, 1))]
#[case::p4_s2(dec(4, 2))]
#[case::p9_s0(dec(9, 0))]
#[case::money(dec(12, 2))]
#[case::p18_s6(dec(18, 6))]
#[case::p19_s2(dec(19, 2))]
#[case::p38_s0(dec(38, 0))]
#[case::p38_s10(dec(38, 10))]
#[case::p38_s38(dec(38, 38))]
#[case::p40_s2(dec(40, 2))]
#[case::p76_s0(dec(76, 0))]
#[case::p76_s38(dec(76, 38))]
#[case::p76_s76(dec(76, 76))]
#[case::negative_scale_5(dec(5, -2))]
#[case::negative_scale_10(dec(10, -5))]
#[case::most_negative_scale(dec(3, -76))]
fn unary_matches_reference(
    #[case] dtype: DecimalType,
    #[values(
        ArithmeticOptions::fixed_point(),
        ArithmeticOptions::arrow(StorageWidth::I32),
        ArithmeticOptions::arrow(StorageWidth::I64),
        ArithmeticOptions::arrow(StorageWidth::I128),
        ArithmeticOptions::arrow(StorageWidth::I256),
        ArithmeticOptions::spark(),
        ArithmeticOptions::spark_no_precision_loss(),
        ArithmeticOptions::presto()
    )]
    profile: ArithmeticOptions,
) {
    let edges = edge_values(dtype);
    let mut rng =
        Rng::new(u64::from(dtype.precision()) << 8 | u64::from(dtype.scale().unsigned_abs()));
    let mut texts = edges.clone();
    texts.extend((0..RANDOM_ROWS).map(|_| random_text(&mut rng, dtype)));
    // Zero, one negative unit, the maximum, and null.
    let mut scalars: Vec<DecimalScalar> =
        [0, 2, 3].iter().map(|&i| DecimalScalar::parse(dtype, &edges[i]).unwrap()).collect();
    scalars.push(DecimalScalar::null(dtype));
    let columns: Vec<UnaryColumns> =
        widths_holding(dtype).map(|w| UnaryColumns::new(dtype, &texts, w)).collect();
    let shapes: Vec<_> = columns.iter().map(|c| c.shapes(&scalars)).collect();
    let ops = rescale_targets(dtype)
        .into_iter()
        .map(|to| UnaryOp::Rescale { to })
        .chain([UnaryOp::Neg, UnaryOp::Abs]);
    for op in ops {
        for opts in unary_option_combinations(profile) {
            let mut at_narrowest = Vec::new();
            for (i, shapes) in shapes.iter().enumerate() {
                for (j, (name, operand)) in shapes.iter().enumerate() {
                    let width = columns[i].array.width();
                    let call =
                        UnaryCall::new(op, *operand, &opts).in_context(format!("{name}@{width}"));
                    let got = call.run();
                    if i == 0 {
                        assert_same_outcome(
                            &call,
                            ("kernel", &got),
                            ("reference", &call.reference()),
                        );
                        at_narrowest.push(got);
                    } else if got != at_narrowest[j] {
                        assert_unary_conforms(&call);
                    }
                }
            }
        }
    }
}

/// Stored values an unchecked column of `dtype` at `width` can hold beyond
/// the precision, with in-range neighbours: the storage's minimum, the
/// minimum plus one and the maximum, `±10^p` where the width holds them,
/// `±(10^p - 1)`, zero and one unit.
fn unchecked_values(dtype: DecimalType, width: StorageWidth) -> Vec<i256> {
    let (min, max) = native_range(width);
    let (beyond, largest) = (pow10(dtype.precision()), max_stored(dtype));
    let mut values = vec![min, min.wrapping_add(i256::ONE), max, i256::ZERO, i256::ONE];
    for v in [beyond, beyond.wrapping_neg(), largest, largest.wrapping_neg()] {
        if (min..=max).contains(&v) {
            values.push(v);
        }
    }
    values
}

/// `neg`, `abs` and `rescale` of unchecked columns at every width holding
/// values beyond their precision (each storage's minimum, `i128::MIN` and
/// `i256::MIN` included) under every profile and both overflow policies:
/// each call agrees with the reference, and a negation or absolute value
/// overflows exactly on the rows beyond the precision (never a wrapped
/// value).
#[rstest]
fn unary_of_unchecked_extremes(
    #[values(
        StorageWidth::I8,
        StorageWidth::I16,
        StorageWidth::I32,
        StorageWidth::I64,
        StorageWidth::I128,
        StorageWidth::I256
    )]
    width: StorageWidth,
    #[values(
        ArithmeticOptions::fixed_point(),
        ArithmeticOptions::arrow(StorageWidth::I128),
        ArithmeticOptions::arrow(StorageWidth::I256),
        ArithmeticOptions::spark(),
        ArithmeticOptions::presto().with_rounding(RoundingMode::Floor)
    )]
    profile: ArithmeticOptions,
) {
    let most = width.max_precision();
    let most_scale = i8::try_from(most).unwrap();
    let types =
        [dec(1, 0), dec(most, 0), dec(most, most_scale), dec(most.min(10), -3), dec(2, -76)];
    for dtype in types.into_iter().filter(|t| t.storage_width() <= width) {
        let values = unchecked_values(dtype, width);
        let mut rows = values.clone();
        // A null row hiding the minimum.
        rows.push(values[0]);
        let mut valid = vec![true; values.len()];
        valid.push(false);
        let array = unchecked_column(dtype, &rows, &valid, width);
        let (p, s) = (i16::from(dtype.precision()), i16::from(dtype.scale()));
        let targets = [(p, s), (76, s), (38, s), (p, s + 1), (p, s - 1), (p + 1, s - 2)];
        let ops = targets
            .into_iter()
            .filter_map(|(p, s)| try_dec(p, s))
            .map(|to| UnaryOp::Rescale { to })
            .chain([UnaryOp::Neg, UnaryOp::Abs]);
        let limit = max_stored(dtype);
        for op in ops {
            for on_overflow in POLICIES {
                let opts = profile.with_on_overflow(on_overflow);
                let call = UnaryCall::new(op, &array, &opts).in_context(format!("@{width}"));
                assert_unary_conforms(&call);
                for row in 0..values.len() {
                    let scalar = array.scalar(row).unwrap();
                    assert_unary_conforms(&UnaryCall::new(op, &scalar, &opts));
                }
                // A negation or absolute value is null exactly where the
                // stored value is beyond the precision (when the profile can
                // store the type at all).
                let signed = matches!(op, UnaryOp::Neg | UnaryOp::Abs);
                if let (true, OverflowPolicy::Null, Ok(got)) = (signed, on_overflow, call.run()) {
                    for (row, &v) in values.iter().enumerate() {
                        let beyond = v > limit || v < limit.wrapping_neg();
                        assert_eq!(got.is_valid(row), !beyond, "{op} of {v} in {dtype}@{width}");
                    }
                }
            }
        }
    }
}

/// What a direct case expects.
#[derive(Debug)]
enum Want<'a> {
    /// One text per row, `null` for a null row.
    Rows(&'a [&'a str]),
    /// An overflow at this row (first) of this result type, carrying the row's operands.
    Overflow(usize, DecimalType),
    /// A division by zero at this row (first), carrying the row's dividend.
    DivideByZero(usize),
    /// An overflow of an operator of one operand at this row (first) of this
    /// result type, carrying the row's operand.
    UnaryOverflow(usize, DecimalType),
    /// The profile rejects the types.
    TypeError,
}

/// A column from row texts: `null` is a null row (zero underneath), `null:V` a
/// null row with the value `V` underneath. Values beyond the precision make
/// an unchecked column. Stored at every width from the narrowest that holds
/// the values.
fn columns(dtype: DecimalType, rows: &[&str]) -> Vec<DecimalArray> {
    let wide = DecimalType::try_new(76, dtype.scale()).unwrap();
    let stored = |text: &str| DecimalScalar::parse(wide, text).unwrap().value().unwrap();
    let values: Vec<i256> = rows
        .iter()
        .map(|row| match row.strip_prefix("null") {
            Some(hidden) => hidden.strip_prefix(':').map_or(i256::ZERO, stored),
            None => stored(row),
        })
        .collect();
    let nulls =
        NullBuffer::from(rows.iter().map(|row| !row.starts_with("null")).collect::<Vec<_>>());
    let buffer = ScalarBuffer::from(values);
    let array = DecimalArray::try_new(dtype, buffer.clone(), Some(nulls.clone()))
        .or_else(|_| DecimalArray::new_unchecked(dtype, buffer, Some(nulls)))
        .unwrap();
    StorageWidth::ALL.into_iter().filter_map(|w| array.with_width(w).ok()).collect()
}

/// Checks `lhs op rhs` at every storage width against `want`, and that the
/// reference agrees.
#[track_caller]
fn assert_outcome(
    op: BinaryOp,
    (lhs_type, lhs_rows): (DecimalType, &[&str]),
    (rhs_type, rhs_rows): (DecimalType, &[&str]),
    opts: ArithmeticOptions,
    want: &Want<'_>,
) {
    for lhs in columns(lhs_type, lhs_rows) {
        for rhs in columns(rhs_type, rhs_rows) {
            let call = Call::new(op, &lhs, &rhs, &opts);
            let got = call.run();
            let expected = match (want, &got) {
                (Want::Rows(rows), _) => {
                    let result = op
                        .result_type(lhs_type, rhs_type, &opts)
                        .unwrap_or_else(|e| panic!("{}: {e}", call.describe()));
                    let texts: Vec<Option<&str>> =
                        rows.iter().map(|&row| Some(row).filter(|&r| r != "null")).collect();
                    let expected = column_from_strs(result, &texts);
                    // The width is the reference's to check, below.
                    let width = got.as_ref().map_or(expected.width(), DecimalArray::width);
                    Ok(expected.with_width(width).unwrap())
                }
                (&Want::Overflow(row, result_type), _) => Err(DecimalError::Overflow {
                    row,
                    result_type,
                    op,
                    lhs: text(&lhs, row),
                    rhs: text(&rhs, row),
                }),
                (&Want::DivideByZero(row), _) => {
                    Err(DecimalError::DivideByZero { row, lhs: text(&lhs, row) })
                }
                (Want::UnaryOverflow(..), _) => panic!("{}: a binary call", call.describe()),
                (Want::TypeError, Err(error @ DecimalError::UnsupportedTypes { .. })) => {
                    Err(error.clone())
                }
                (Want::TypeError, _) => {
                    panic!("{}: expected a type error, got {got:?}", call.describe())
                }
            };
            assert_same_outcome(&call, ("kernel", &got), ("expected", &expected));
            assert_matches_reference(&call, &got);
        }
    }
}

fn options(on_overflow: OverflowPolicy, on_divide_by_zero: OverflowPolicy) -> ArithmeticOptions {
    ArithmeticOptions::fixed_point()
        .with_on_overflow(on_overflow)
        .with_on_divide_by_zero(on_divide_by_zero)
}

const ERROR: ArithmeticOptions = ArithmeticOptions::fixed_point();

fn overflow(row: usize, result_type: DecimalType) -> Want<'static> {
    Want::Overflow(row, result_type)
}

fn divide_by_zero(row: usize) -> Want<'static> {
    Want::DivideByZero(row)
}

/// The canonical text of `column`'s row.
fn text(column: &DecimalArray, row: usize) -> String {
    column.scalar(row).expect("the row exists").to_string()
}

#[rstest]
#[case::max_times_minus_one(
    BinaryOp::Mul,
    dec(10, 2),
    &["99999999.99", "-99999999.99"],
    dec(10, 2),
    &["-1.00", "-1.00"],
    ERROR,
    Want::Rows(&["-99999999.99", "99999999.99"]),
)]
#[case::max_plus_one_unit(
    BinaryOp::Add,
    dec(38, 0),
    &["99999999999999999999999999999999999999"],
    dec(38, 0),
    &["1"],
    ERROR,
    overflow(0, dec(38, 0)),
)]
#[case::overflow_names_first_valid_row(
    BinaryOp::Add,
    dec(3, 0),
    &["null:999", "1", "999", "999"],
    dec(3, 0),
    &["999", "2", "1", "999"],
    ERROR,
    overflow(2, dec(3, 0)),
)]
#[case::overflow_null_policy_nulls_only_failing_rows(
    BinaryOp::Add,
    dec(3, 0),
    &["null:999", "1", "999", "-999", "999"],
    dec(3, 0),
    &["999", "2", "1", "999", "999"],
    options(OverflowPolicy::Null, OverflowPolicy::Error),
    Want::Rows(&["null", "3", "null", "0", "null"]),
)]
#[case::zero_divisor_under_null_never_raises(
    BinaryOp::Div,
    dec(10, 2),
    &["1.00", "null:5.00", "4.00"],
    dec(10, 2),
    &["null", "0.00", "2.00"],
    ERROR,
    Want::Rows(&["null", "null", "2.00"]),
)]
#[case::zero_over_zero(
    BinaryOp::Div,
    dec(10, 2),
    &["1.00", "0.00"],
    dec(10, 2),
    &["3.00", "0.00"],
    ERROR,
    divide_by_zero(1),
)]
#[case::zero_over_zero_null_policy(
    BinaryOp::Div,
    dec(10, 2),
    &["1.00", "0.00"],
    dec(10, 2),
    &["3.00", "0.00"],
    options(OverflowPolicy::Error, OverflowPolicy::Null),
    Want::Rows(&["0.33", "null"]),
)]
#[case::overflow_before_zero_divisor(
    BinaryOp::Div,
    dec(4, 2),
    &["99.99", "1.00"],
    dec(4, 2),
    &["0.01", "0.00"],
    ERROR,
    overflow(0, dec(4, 2)),
)]
#[case::zero_divisor_before_overflow(
    BinaryOp::Div,
    dec(4, 2),
    &["1.00", "99.99"],
    dec(4, 2),
    &["0.00", "0.01"],
    ERROR,
    divide_by_zero(0),
)]
#[case::null_overflow_reports_later_zero_divisor(
    BinaryOp::Div,
    dec(4, 2),
    &["99.99", "1.00"],
    dec(4, 2),
    &["0.01", "0.00"],
    options(OverflowPolicy::Null, OverflowPolicy::Error),
    divide_by_zero(1),
)]
#[case::null_zero_divisor_reports_later_overflow(
    BinaryOp::Div,
    dec(4, 2),
    &["1.00", "99.99"],
    dec(4, 2),
    &["0.00", "0.01"],
    options(OverflowPolicy::Error, OverflowPolicy::Null),
    overflow(1, dec(4, 2)),
)]
#[case::both_null_policies(
    BinaryOp::Div,
    dec(4, 2),
    &["1.00", "99.99", "6.00"],
    dec(4, 2),
    &["0.00", "0.01", "-4.00"],
    options(OverflowPolicy::Null, OverflowPolicy::Null),
    Want::Rows(&["null", "null", "-1.50"]),
)]
#[case::no_false_overflow_i64_intermediate(
    BinaryOp::Mul,
    dec(18, 9),
    &["999999999.999999999", "-3.000000001"],
    dec(18, 9),
    &["0.999999999", "33333333.333333333"],
    ERROR,
    Want::Rows(&["999999998.999999999", "-100000000.033333332"]),
)]
#[case::no_false_overflow_i128_intermediate(
    BinaryOp::Div,
    dec(38, 19),
    &["9999999999999999999.0000000000000000000"],
    dec(38, 19),
    &["10.0000000000000000000"],
    ERROR,
    Want::Rows(&["999999999999999999.9000000000000000000"]),
)]
#[case::arrow_div_dividend_shift_beyond_i128(
    BinaryOp::Div,
    dec(38, 0),
    &["10000000000000000000000000000000000000"],
    dec(38, 0),
    &["10000000000000000000000000000000000000"],
    ArithmeticOptions::arrow(StorageWidth::I128),
    Want::Rows(&["1.0000"]),
)]
#[case::arrow_product_scale_beyond_width(
    BinaryOp::Mul,
    dec(38, 20),
    &["1.00000000000000000000"],
    dec(38, 20),
    &["1.00000000000000000000"],
    ArithmeticOptions::arrow(StorageWidth::I128),
    Want::TypeError,
)]
#[case::negative_scale_product(
    BinaryOp::Mul,
    dec(10, -2),
    &["500", "-12300"],
    dec(10, -2),
    &["300", "100"],
    ERROR,
    Want::Rows(&["150000", "-1230000"]),
)]
#[case::negative_scale_quotient(
    BinaryOp::Div,
    dec(10, -2),
    &["500", "-90000"],
    dec(10, -2),
    &["300", "300"],
    ERROR,
    Want::Rows(&["0", "-300"]),
)]
#[case::unchecked_value_beyond_precision_computes_as_integer(
    BinaryOp::Sub,
    dec(2, 0),
    &["1000", "1000"],
    dec(2, 0),
    &["999", "1"],
    options(OverflowPolicy::Null, OverflowPolicy::Error),
    Want::Rows(&["1", "null"]),
)]
#[case::rem_sign_of_dividend(
    BinaryOp::Rem,
    dec(5, 2),
    &["7.50", "-7.50", "7.50", "-7.50", "-6.00"],
    dec(5, 2),
    &["2.00", "2.00", "-2.00", "-2.00", "3.00"],
    ERROR,
    Want::Rows(&["1.50", "-1.50", "1.50", "-1.50", "0.00"]),
)]
#[case::rem_mixed_scales(
    BinaryOp::Rem,
    dec(10, 2),
    &["7.50", "-12345678.91"],
    dec(5, 3),
    &["2.001", "-0.007"],
    ERROR,
    Want::Rows(&["1.497", "-0.005"]),
)]
#[case::rem_negative_scale_dividend(
    BinaryOp::Rem,
    dec(5, -2),
    &["12300", "-9900"],
    dec(3, 0),
    &["7", "-100"],
    ERROR,
    Want::Rows(&["1", "0"]),
)]
#[case::rem_by_zero_names_first_valid_row(
    BinaryOp::Rem,
    dec(5, 2),
    &["1.00", "null:5.00", "4.00"],
    dec(5, 2),
    &["3.00", "0.00", "0.00"],
    ERROR,
    divide_by_zero(2),
)]
#[case::rem_by_zero_null_policy(
    BinaryOp::Rem,
    dec(5, 2),
    &["1.00", "5.00", "4.00"],
    dec(5, 2),
    &["0.30", "0.00", "-3.00"],
    options(OverflowPolicy::Error, OverflowPolicy::Null),
    Want::Rows(&["0.10", "null", "1.00"]),
)]
#[case::rem_of_unchecked_values_beyond_precision(
    BinaryOp::Rem,
    dec(2, 0),
    &["1000", "-1000", "99"],
    dec(2, 0),
    &["7", "2000", "-1000"],
    options(OverflowPolicy::Null, OverflowPolicy::Error),
    Want::Rows(&["6", "null", "99"]),
)]
#[case::rem_overflow_of_unchecked_dividend(
    BinaryOp::Rem,
    dec(2, 0),
    &["5", "-1000"],
    dec(2, 0),
    &["3", "2000"],
    ERROR,
    overflow(1, dec(2, 0)),
)]
fn direct(
    #[case] op: BinaryOp,
    #[case] lhs_type: DecimalType,
    #[case] lhs_rows: &[&str],
    #[case] rhs_type: DecimalType,
    #[case] rhs_rows: &[&str],
    #[case] opts: ArithmeticOptions,
    #[case] want: Want<'static>,
) {
    assert_outcome(op, (lhs_type, lhs_rows), (rhs_type, rhs_rows), opts, &want);
}

/// Checks `op operand` at every storage width against `want`, and that the
/// reference agrees.
#[track_caller]
fn assert_unary_outcome(
    op: UnaryOp,
    (dtype, rows): (DecimalType, &[&str]),
    opts: ArithmeticOptions,
    want: &Want<'_>,
) {
    let result = op.result_type(dtype);
    for operand in columns(dtype, rows) {
        let call = UnaryCall::new(op, &operand, &opts);
        let got = call.run();
        let expected = match want {
            Want::Rows(rows) => {
                let texts: Vec<Option<&str>> =
                    rows.iter().map(|&row| Some(row).filter(|&r| r != "null")).collect();
                let expected = column_from_strs(result, &texts);
                let width = got.as_ref().map_or(expected.width(), DecimalArray::width);
                Ok(expected.with_width(width).unwrap())
            }
            &Want::UnaryOverflow(row, result_type) => Err(DecimalError::UnaryOverflow {
                row,
                result_type,
                op,
                value: text(&operand, row),
            }),
            other => panic!("{}: no {other:?} of one operand", call.describe()),
        };
        assert_same_outcome(&call, ("kernel", &got), ("expected", &expected));
        assert_unary_conforms(&call);
    }
}

fn unary_overflow(row: usize, result_type: DecimalType) -> Want<'static> {
    Want::UnaryOverflow(row, result_type)
}

fn rounding(mode: RoundingMode) -> ArithmeticOptions {
    ERROR.with_rounding(mode)
}

fn to(p: u8, s: i8) -> UnaryOp {
    UnaryOp::Rescale { to: dec(p, s) }
}

#[rstest]
#[case::rescale_half_up_ties(
    to(5, 2),
    dec(6, 3),
    &["1.005", "-1.005", "1.004", "-0.005"],
    rounding(RoundingMode::HalfUp),
    Want::Rows(&["1.01", "-1.01", "1.00", "-0.01"]),
)]
#[case::rescale_half_even_ties(
    to(5, 2),
    dec(6, 3),
    &["1.005", "1.015", "-1.025", "-1.026"],
    rounding(RoundingMode::HalfEven),
    Want::Rows(&["1.00", "1.02", "-1.02", "-1.03"]),
)]
#[case::rescale_floor_and_ceiling_of_negatives(
    to(5, 1),
    dec(6, 3),
    &["-1.001", "1.001"],
    rounding(RoundingMode::Floor),
    Want::Rows(&["-1.1", "1.0"]),
)]
#[case::rescale_ceiling(
    to(5, 1),
    dec(6, 3),
    &["-1.099", "1.001"],
    rounding(RoundingMode::Ceiling),
    Want::Rows(&["-1.0", "1.1"]),
)]
#[case::rescale_rounds_into_overflow(
    to(4, 2),
    dec(5, 3),
    &["1.000", "99.995"],
    rounding(RoundingMode::HalfUp),
    unary_overflow(1, dec(4, 2)),
)]
#[case::rescale_truncates_below_overflow(
    to(4, 2),
    dec(5, 3),
    &["99.995", "-99.999"],
    ERROR,
    Want::Rows(&["99.99", "-99.99"]),
)]
#[case::rescale_appends_digits_into_overflow(
    to(4, 3),
    dec(4, 2),
    &["9.99", "-10.00"],
    ERROR,
    unary_overflow(1, dec(4, 3)),
)]
#[case::rescale_appends_digits(
    to(20, 12),
    dec(4, 2),
    &["99.99", "-0.01"],
    ERROR,
    Want::Rows(&["99.990000000000", "-0.010000000000"]),
)]
#[case::rescale_to_negative_scale(
    to(4, -2),
    dec(6, 0),
    &["1250", "1350", "-1250", "-1251"],
    rounding(RoundingMode::HalfEven),
    Want::Rows(&["1200", "1400", "-1200", "-1300"]),
)]
#[case::rescale_drops_more_digits_than_the_value_has_ceiling(
    to(1, -3),
    dec(3, 2),
    &["0.01", "-0.01", "9.99", "0.00"],
    rounding(RoundingMode::Ceiling),
    Want::Rows(&["1000", "0", "1000", "0"]),
)]
#[case::rescale_drops_more_digits_than_the_value_has_half_up(
    to(1, -3),
    dec(3, 2),
    &["0.01", "-9.99"],
    rounding(RoundingMode::HalfUp),
    Want::Rows(&["0", "0"]),
)]
#[case::rescale_drops_76_digits(
    to(1, -1),
    dec(76, 75),
    &["9.999999999999999999999999999999999999999999999999999999999999999999999999999", "-5.000000000000000000000000000000000000000000000000000000000000000000000000000"],
    rounding(RoundingMode::Floor),
    Want::Rows(&["0", "-10"]),
)]
#[case::same_scale_fewer_digits_is_the_overflow_check(
    to(4, 2),
    dec(7, 2),
    &["99.99", "100.00", "null:100.00", "-99.99", "-100.00"],
    options(OverflowPolicy::Null, OverflowPolicy::Error),
    Want::Rows(&["99.99", "null", "null", "-99.99", "null"]),
)]
#[case::rescale_error_names_first_valid_row(
    to(4, 2),
    dec(7, 2),
    &["null:100.00", "1.00", "-100.00", "100.00"],
    ERROR,
    unary_overflow(2, dec(4, 2)),
)]
#[case::rescale_across_widths(
    to(18, 0),
    dec(38, 0),
    &["999999999999999999", "-1000000000000000000"],
    ERROR,
    unary_overflow(1, dec(18, 0)),
)]
#[case::rescale_of_unchecked_beyond_precision(
    to(5, 1),
    dec(2, 0),
    &["1000", "-99999", "null:-99999"],
    options(OverflowPolicy::Null, OverflowPolicy::Error),
    Want::Rows(&["1000.0", "null", "null"]),
)]
#[case::neg(
    UnaryOp::Neg,
    dec(5, 2),
    &["1.50", "-999.99", "0.00", "null:1.00"],
    ERROR,
    Want::Rows(&["-1.50", "999.99", "0.00", "null"]),
)]
#[case::abs(
    UnaryOp::Abs,
    dec(5, -2),
    &["-9999900", "100", "null:-100"],
    ERROR,
    Want::Rows(&["9999900", "100", "null"]),
)]
#[case::neg_of_unchecked_beyond_precision(
    UnaryOp::Neg,
    dec(2, 0),
    &["-5", "1000", "null:1000"],
    options(OverflowPolicy::Null, OverflowPolicy::Error),
    Want::Rows(&["5", "null", "null"]),
)]
#[case::abs_error_names_the_unchecked_row(
    UnaryOp::Abs,
    dec(2, 1),
    &["-9.9", "-10.0", "10.0"],
    ERROR,
    unary_overflow(1, dec(2, 1)),
)]
fn direct_unary(
    #[case] op: UnaryOp,
    #[case] dtype: DecimalType,
    #[case] rows: &[&str],
    #[case] opts: ArithmeticOptions,
    #[case] want: Want<'static>,
) {
    assert_unary_outcome(op, (dtype, rows), opts, &want);
}

/// The rounding table of docs/semantics.md#rounding through division at scale 0:
/// 5/2, -5/2, 12/5, -13/5, 7/2, -7/2.
#[rstest]
#[case::toward_zero(RoundingMode::TowardZero, &["2", "-2", "2", "-2", "3", "-3"])]
#[case::half_up(RoundingMode::HalfUp, &["3", "-3", "2", "-3", "4", "-4"])]
#[case::half_even(RoundingMode::HalfEven, &["2", "-2", "2", "-3", "4", "-4"])]
#[case::floor(RoundingMode::Floor, &["2", "-3", "2", "-3", "3", "-4"])]
#[case::ceiling(RoundingMode::Ceiling, &["3", "-2", "3", "-2", "4", "-3"])]
fn rounds_ties_and_near_ties(#[case] mode: RoundingMode, #[case] want: &'static [&'static str]) {
    let dividends = (dec(3, 0), &["5", "-5", "12", "-13", "7", "-7"][..]);
    let divisors = (dec(3, 0), &["2", "2", "5", "5", "2", "2"][..]);
    assert_outcome(
        BinaryOp::Div,
        dividends,
        divisors,
        ERROR.with_rounding(mode),
        &Want::Rows(want),
    );
}

/// A single failing row around the kernels' 64-row chunks and 512-row
/// blocks: `Error` names it, `Null` nulls it alone; an earlier null row hides
/// an overflowing value.
#[rstest]
fn failing_row_across_chunks_and_blocks(
    #[values(1, 63, 64, 65, 69, 511, 512, 513, 1100)] failing: usize,
    #[values(BinaryOp::Add, BinaryOp::Mul)] op: BinaryOp,
) {
    let dtype = dec(4, 0);
    let rows = (failing + 6).max(70);
    let lhs: Vec<&str> = (0..rows)
        .map(|row| match row {
            0 => "null:9999",
            r if r == failing => "9999",
            _ => "2",
        })
        .collect();
    let rhs = vec!["3"; rows];
    assert_outcome(op, (dtype, &lhs), (dtype, &rhs), ERROR, &overflow(failing, dtype));
    let fits = if op == BinaryOp::Add { "5" } else { "6" };
    let nulled: Vec<&str> =
        (0..rows).map(|row| if row == 0 || row == failing { "null" } else { fits }).collect();
    let opts = options(OverflowPolicy::Null, OverflowPolicy::Error);
    assert_outcome(op, (dtype, &lhs), (dtype, &rhs), opts, &Want::Rows(&nulled));
}

mod aggregates {
    use super::support::aggregates::{aggregate, aggregate_groups};
    use super::*;
    use decimal_kernels::aggregate::AggregateOp;

    /// The groups of the matrix's columns.
    const GROUPS: usize = 9;

    /// An outcome as text: each group's value or `NULL`, or the error.
    fn show(outcome: &Result<DecimalArray, DecimalError>) -> String {
        match outcome {
            Ok(array) => format!(
                "{}@{} {:?}",
                array.dtype(),
                array.width(),
                array.to_strs().iter().map(|v| v.as_deref().unwrap_or("NULL")).collect::<Vec<_>>()
            ),
            Err(e) => format!("error `{e}`"),
        }
    }

    /// `sum_groups`/`avg_groups` give what the reference gives: the same
    /// error, or the same type, storage width, and value and validity of
    /// every group.
    #[track_caller]
    fn assert_grouped(
        op: AggregateOp,
        values: &DecimalArray,
        groups: &[usize],
        total: usize,
        options: &ArithmeticOptions,
        context: &str,
    ) {
        let want = conformance::reference_aggregate(op, values, groups, total, options);
        let got = aggregate_groups(op, values, groups, total, options);
        let same_width = match (&got, &want) {
            (Ok(g), Ok(w)) => g.width() == w.width(),
            _ => true,
        };
        assert!(
            got == want && same_width,
            "{context}: {op} by group of {}@{} ({} rows) under {options:?}:\n  got  {}\n  want {}",
            values.dtype(),
            values.width(),
            values.len(),
            show(&got),
            show(&want)
        );
    }

    /// `sum`/`avg` of the whole column give the reference's one group.
    #[track_caller]
    fn assert_whole(
        op: AggregateOp,
        values: &DecimalArray,
        options: &ArithmeticOptions,
        context: &str,
    ) {
        let zeros = vec![0; values.len()];
        let want = conformance::reference_aggregate(op, values, &zeros, 1, options)
            .map(|a| a.scalar(0).expect("one group"));
        let got = aggregate(op, values, options);
        assert_eq!(
            got,
            want,
            "{context}: {op} of the whole {}@{} ({} rows) under {options:?}",
            values.dtype(),
            values.width(),
            values.len()
        );
    }

    /// One column's rows: stored value, validity and group.
    type Rows = Vec<(i256, bool, usize)>;

    /// The rows of the matrix for `dtype` at `width` (`unchecked`: with the
    /// storage's extremes and values beyond the precision), groups
    /// interleaved:
    ///
    /// - 0: the edge values (and, unchecked, the storage extremes);
    /// - 1: random values;
    /// - 2: no rows; 3: null rows only (hiding the maximum);
    /// - 4: `+m` six times then `-m` six times, `m` the largest magnitude
    ///   (unchecked: the storage's maximum, then its minimum), so the running
    ///   sum leaves the result type (and `i256` at 76 digits) and comes back;
    /// - 5: one unit;
    /// - 6 and 7 (the last rows): the largest value three times, and its
    ///   negation three times, which overflow where the result type has no
    ///   more digits than the input;
    /// - 8: no rows.
    fn matrix_rows(dtype: DecimalType, width: StorageWidth, unchecked: bool) -> Rows {
        let max = max_stored(dtype);
        let mut rng =
            Rng::new(u64::from(dtype.precision()) << 8 | u64::from(dtype.scale().unsigned_abs()));
        let mut front: Vec<Rows> = vec![Vec::new(); 6];
        let edges = super::edge_values(dtype);
        front[0] = edges
            .iter()
            .map(|t| (DecimalScalar::parse(dtype, t).unwrap().value().unwrap(), true, 0))
            .collect();
        let (wmin, wmax) = native_range(width);
        let (up, down) = if unchecked {
            front[0].extend(unchecked_values(dtype, width).into_iter().map(|v| (v, true, 0)));
            (wmax, wmin)
        } else {
            (max, max.wrapping_neg())
        };
        front[1] = (0..12).map(|_| (rng.value(dtype, width, Kind::Digits), true, 1)).collect();
        front[3] = vec![(max, false, 3), (i256::ZERO, false, 3), (max.wrapping_neg(), false, 3)];
        front[4] = [[up; 6], [down; 6]].concat().into_iter().map(|v| (v, true, 4)).collect();
        front[5] = vec![(i256::ONE, true, 5)];
        // A null row hiding the maximum in the edge group too.
        front[0].push((max, false, 0));
        // Interleaved: one row of each group in turn, so that the grouped sums
        // scatter.
        let mut rows = Rows::new();
        let longest = front.iter().map(Vec::len).max().unwrap_or(0);
        for i in 0..longest {
            for group in &front {
                if let Some(&row) = group.get(i) {
                    rows.push(row);
                }
            }
        }
        for _ in 0..3 {
            rows.push((max, true, 6));
            rows.push((max.wrapping_neg(), true, 7));
        }
        rows
    }

    /// The rows as a column at `width` and their groups.
    fn as_column(
        dtype: DecimalType,
        width: StorageWidth,
        unchecked: bool,
        rows: &Rows,
    ) -> (DecimalArray, Vec<usize>) {
        let values: Vec<i256> = rows.iter().map(|r| r.0).collect();
        let valid: Vec<bool> = rows.iter().map(|r| r.1).collect();
        let groups = rows.iter().map(|r| r.2).collect();
        let column = if unchecked {
            unchecked_column(dtype, &values, &valid, width)
        } else {
            checked_column(dtype, &values, &valid, width)
        };
        (column, groups)
    }

    /// The options of the matrix on top of `profile`: `sum`, `min` and `max`
    /// in one rounding mode (they never round), `avg` in all five, each under
    /// both overflow policies.
    fn combinations(profile: ArithmeticOptions) -> Vec<(AggregateOp, ArithmeticOptions)> {
        let mut all = Vec::new();
        for on_overflow in POLICIES {
            let base = profile.with_on_overflow(on_overflow);
            all.push((AggregateOp::Sum, base));
            all.push((AggregateOp::Min, base));
            all.push((AggregateOp::Max, base));
            for mode in RoundingMode::ALL {
                all.push((AggregateOp::Avg, base.with_rounding(mode)));
            }
        }
        all
    }

    /// `sum` and `avg` of one input type under one profile, every rounding
    /// mode and overflow policy, checked and unchecked columns at every
    /// storage width that holds the type: by group (the whole column, an
    /// odd-offset slice, the rows before the overflowing groups), over the
    /// whole column, and over each of those.
    #[rstest]
    #[case::p1_s0(dec(1, 0))]
    #[case::small(dec(2, 1))]
    #[case::p4_s2(dec(4, 2))]
    #[case::p9_s0(dec(9, 0))]
    #[case::p9_s9(dec(9, 9))]
    #[case::money(dec(10, 2))]
    #[case::p18_s0(dec(18, 0))]
    #[case::p18_s6(dec(18, 6))]
    #[case::p19_s2(dec(19, 2))]
    #[case::p28_s4(dec(28, 4))]
    #[case::p29_s0(dec(29, 0))]
    #[case::p38_s0(dec(38, 0))]
    #[case::p38_s10(dec(38, 10))]
    #[case::p38_s38(dec(38, 38))]
    #[case::p39_s0(dec(39, 0))]
    #[case::p40_s2(dec(40, 2))]
    #[case::p57_s0(dec(57, 0))]
    #[case::p66_s0(dec(66, 0))]
    #[case::p67_s3(dec(67, 3))]
    #[case::p76_s0(dec(76, 0))]
    #[case::p76_s38(dec(76, 38))]
    #[case::p76_s76(dec(76, 76))]
    #[case::negative_scale_5(dec(5, -2))]
    #[case::negative_scale_10(dec(10, -5))]
    #[case::most_negative_scale(dec(3, -76))]
    #[case::p76_negative_scale(dec(76, -30))]
    fn aggregates_match_reference(
        #[case] dtype: DecimalType,
        #[values(0, 1, 2, 3, 4, 5, 6, 7)] profile: usize,
    ) {
        let profile = PROFILES[profile];
        for width in widths_holding(dtype) {
            for unchecked in [false, true] {
                let rows = matrix_rows(dtype, width, unchecked);
                let (column, groups) = as_column(dtype, width, unchecked, &rows);
                let front = rows.iter().filter(|r| r.2 < 6).count();
                let shapes = [
                    ("column", column.clone(), &groups[..]),
                    (
                        "odd slice",
                        column.slice(3, column.len() - 4).unwrap(),
                        &groups[3..groups.len() - 1],
                    ),
                    (
                        "before the overflowing groups",
                        column.slice(0, front).unwrap(),
                        &groups[..front],
                    ),
                ];
                let kind = if unchecked { "unchecked" } else { "checked" };
                for (op, options) in combinations(profile) {
                    for (name, values, groups) in &shapes {
                        let context = format!("{kind} {name}");
                        assert_grouped(op, values, groups, GROUPS, &options, &context);
                        assert_whole(op, values, &options, &context);
                    }
                }
            }
        }
    }

    /// What a direct aggregate case expects.
    #[derive(Debug)]
    enum Expect<'a> {
        /// One text per group, `null` for a null group.
        Groups(&'a [&'a str]),
        /// An overflow of this group, whose exact result is this text.
        Overflow(usize, &'a str),
    }

    /// Checks `op` of `rows` (texts, `null`, or `stored:N` for a stored
    /// integer beyond the precision, in an unchecked column) by `groups`
    /// against `want` at every storage width that holds the values, and that
    /// the reference agrees.
    #[track_caller]
    fn assert_aggregate(
        op: AggregateOp,
        (dtype, rows): (DecimalType, &[&str]),
        groups: &[usize],
        options: ArithmeticOptions,
        want: &Expect<'_>,
    ) {
        let total = groups.iter().max().map_or(0, |g| g + 1).max(match want {
            Expect::Groups(g) => g.len(),
            Expect::Overflow(..) => 0,
        });
        let stored: Vec<(i256, bool)> = rows
            .iter()
            .map(|&r| match r {
                "null" => (i256::ZERO, false),
                r => match r.strip_prefix("stored:") {
                    Some(v) => (i256::from_string(v).unwrap(), true),
                    None => (super::scalar_value(dtype, r), true),
                },
            })
            .collect();
        let values: Vec<i256> = stored.iter().map(|v| v.0).collect();
        let valid: Vec<bool> = stored.iter().map(|v| v.1).collect();
        let unchecked = rows.iter().any(|r| r.starts_with("stored:"));
        let narrowest = values
            .iter()
            .map(|&v| {
                StorageWidth::ALL
                    .into_iter()
                    .find(|&w| (native_range(w).0..=native_range(w).1).contains(&v))
                    .unwrap()
            })
            .chain([dtype.storage_width()])
            .max()
            .unwrap();
        for width in StorageWidth::ALL.into_iter().filter(|&w| w >= narrowest) {
            let column = if unchecked {
                unchecked_column(dtype, &values, &valid, width)
            } else {
                checked_column(dtype, &values, &valid, width)
            };
            let got = aggregate_groups(op, &column, groups, total, &options);
            let result = op.result_type(dtype, &options).unwrap();
            match want {
                Expect::Groups(texts) => {
                    let got = got.as_ref().map(DecimalArray::to_strs);
                    let texts: Vec<Option<String>> =
                        texts.iter().map(|&t| (t != "null").then(|| t.to_string())).collect();
                    assert_eq!(got, Ok(texts), "{op} at {width}");
                }
                Expect::Overflow(group, value) => assert_eq!(
                    got.as_ref().err(),
                    Some(&DecimalError::AggregateOverflow {
                        group: *group,
                        result_type: result,
                        op,
                        value: (*value).into()
                    }),
                    "{op} at {width}"
                ),
            }
            assert_grouped(op, &column, groups, total, &options, &format!("direct at {width}"));
        }
    }

    fn nines(n: usize) -> String {
        "9".repeat(n)
    }

    #[test]
    fn sum_overflow_names_the_first_failing_group_with_its_exact_value() {
        let max = nines(76);
        let rows = [max.as_str(), "1", max.as_str(), max.as_str(), "null", max.as_str()];
        let groups = [1, 0, 2, 1, 0, 2];
        let twice = format!("1{}8", nines(75));
        let error = ArithmeticOptions::fixed_point();
        assert_aggregate(
            AggregateOp::Sum,
            (dec(76, 0), &rows),
            &groups,
            error,
            &Expect::Overflow(1, &twice),
        );
        let null = error.with_on_overflow(OverflowPolicy::Null);
        assert_aggregate(
            AggregateOp::Sum,
            (dec(76, 0), &rows),
            &groups,
            null,
            &Expect::Groups(&["1", "null", "null", "null"]),
        );
    }

    #[test]
    fn running_sums_beyond_i256_that_come_back_fit() {
        let max = nines(76);
        let neg = format!("-{max}");
        let mut rows = vec![max.as_str(); 6];
        rows.extend(vec![neg.as_str(); 6]);
        rows.push("5");
        let groups = vec![0; rows.len()];
        let opts = ArithmeticOptions::fixed_point();
        assert_aggregate(
            AggregateOp::Sum,
            (dec(76, 0), &rows),
            &groups,
            opts,
            &Expect::Groups(&["5"]),
        );
        // 5 / 13 rounded at scale 0: 0, or 1 rounding up.
        for (mode, want) in [(RoundingMode::HalfUp, "0"), (RoundingMode::Ceiling, "1")] {
            let opts = opts.with_rounding(mode);
            assert_aggregate(
                AggregateOp::Avg,
                (dec(76, 0), &rows),
                &groups,
                opts,
                &Expect::Groups(&[want]),
            );
        }
        // In an unchecked i256 column: the storage's extremes, six each.
        let (top, bottom) = (i256::MAX.to_string(), i256::MIN.to_string());
        let up = format!("stored:{top}");
        let down = format!("stored:{bottom}");
        let mut rows = vec![up.as_str(); 6];
        rows.extend(vec![down.as_str(); 6]);
        assert_aggregate(
            AggregateOp::Sum,
            (dec(76, 0), &rows),
            &groups[..12],
            opts,
            &Expect::Groups(&["-6"]),
        );
    }

    #[rstest]
    #[case::toward_zero(RoundingMode::TowardZero, ["0.01", "-0.01", "0.01"])]
    #[case::half_up(RoundingMode::HalfUp, ["0.02", "-0.02", "0.01"])]
    #[case::half_even(RoundingMode::HalfEven, ["0.02", "-0.02", "0.01"])]
    #[case::floor(RoundingMode::Floor, ["0.01", "-0.02", "0.01"])]
    #[case::ceiling(RoundingMode::Ceiling, ["0.02", "-0.01", "0.02"])]
    fn mean_ties_round_by_the_mode(#[case] mode: RoundingMode, #[case] want: [&str; 3]) {
        // 0.015, -0.015 and 0.0133.. at two digits.
        let rows = ["0.01", "0.02", "-0.01", "-0.02", "0.01", "0.01", "0.02"];
        let groups = [0, 0, 1, 1, 2, 2, 2];
        let opts = ArithmeticOptions::fixed_point().with_rounding(mode);
        let want = [want[0], want[1], want[2], "null"];
        assert_aggregate(
            AggregateOp::Avg,
            (dec(5, 2), &rows),
            &groups,
            opts,
            &Expect::Groups(&want),
        );
    }

    #[rstest]
    #[case::arrow_i32_mean_gains_four_digits(
        AggregateOp::Avg,
        ArithmeticOptions::arrow(StorageWidth::I32),
        dec(9, 2),
        "9999999.990000"
    )]
    #[case::arrow_i64_sum_capped_at_18_digits(
        AggregateOp::Sum,
        ArithmeticOptions::arrow(StorageWidth::I64),
        dec(18, 0),
        "1999999999999999998"
    )]
    #[case::spark_sum_capped_at_38_digits(
        AggregateOp::Sum,
        ArithmeticOptions::spark(),
        dec(38, 0),
        "199999999999999999999999999999999999998"
    )]
    #[case::presto_sum_at_38_digits(
        AggregateOp::Sum,
        ArithmeticOptions::presto(),
        dec(38, 2),
        "1999999999999999999999999999999999999.98"
    )]
    fn results_capped_at_the_profile_overflow(
        #[case] op: AggregateOp,
        #[case] options: ArithmeticOptions,
        #[case] dtype: DecimalType,
        #[case] value: &str,
    ) {
        let max = DecimalScalar::from_stored(dtype, max_stored(dtype)).unwrap().to_string();
        let rows = [max.as_str(), max.as_str()];
        let error = options.with_on_overflow(OverflowPolicy::Error);
        assert_aggregate(op, (dtype, &rows), &[0, 0], error, &Expect::Overflow(0, value));
        let null = options.with_on_overflow(OverflowPolicy::Null);
        assert_aggregate(op, (dtype, &rows), &[0, 0], null, &Expect::Groups(&["null"]));
    }

    /// Unchecked columns at the storage minimum (`i64::MIN`, `i128::MIN`,
    /// `i256::MIN`) summed and averaged as the integers they are, by group
    /// and whole, under every profile and overflow policy.
    #[rstest]
    #[case::i64_min(dec(18, 0), i256::from_i128(i64::MIN.into()))]
    #[case::i128_min(dec(38, 0), i256::from_i128(i128::MIN))]
    #[case::i256_min(dec(76, 0), i256::MIN)]
    fn storage_minimum_sums_exactly(#[case] dtype: DecimalType, #[case] min: i256) {
        let stored = format!("stored:{min}");
        let rows = [stored.as_str(), stored.as_str(), "1"];
        for profile in PROFILES {
            for op in AggregateOp::ALL {
                for on_overflow in POLICIES {
                    let opts = profile.with_on_overflow(on_overflow);
                    assert_aggregate_reference(op, dtype, &rows, &opts);
                }
            }
        }
    }

    /// The reference and the aggregate agree on `rows` at every width.
    #[track_caller]
    fn assert_aggregate_reference(
        op: AggregateOp,
        dtype: DecimalType,
        rows: &[&str],
        options: &ArithmeticOptions,
    ) {
        let values: Vec<i256> = rows
            .iter()
            .map(|r| {
                r.strip_prefix("stored:").map_or_else(
                    || super::scalar_value(dtype, r),
                    |v| i256::from_string(v).unwrap(),
                )
            })
            .collect();
        let valid = vec![true; values.len()];
        let groups: Vec<usize> = (0..values.len()).map(|i| i % 2).collect();
        for width in StorageWidth::ALL {
            if values.iter().all(|v| (native_range(width).0..=native_range(width).1).contains(v)) {
                let column = unchecked_column(dtype, &values, &valid, width);
                assert_grouped(op, &column, &groups, 3, options, "storage minimum");
                assert_whole(op, &column, options, "storage minimum");
            }
        }
    }
}

/// The stored integer of `text` in `dtype`.
#[track_caller]
fn scalar_value(dtype: DecimalType, text: &str) -> i256 {
    DecimalScalar::parse(dtype, text)
        .unwrap_or_else(|e| panic!("{text} in {dtype}: {e}"))
        .value()
        .expect("not null")
}
