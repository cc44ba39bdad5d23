//! The comparisons (`=`, `<>`, `<`, `<=`, `>`, `>=`) held to the exact
//! reference row by row: every operator over random pairs of types
//! (precision 1..=76, scales -76..=p, so scale gaps up to 152) at every
//! pair of storage widths, checked and unchecked columns (native extremes
//! beyond the precision), nulls, null scalars, array and scalar on either
//! side, and column lengths around the kernels' 64-row words and 512-row
//! blocks; then named edge cases, the errors, and the 411 comparisons
//! Trino, Spark and PostgreSQL publish (`tests/data/compare_published.txt`,
//! each with its source line).

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use arrow_buffer::{BooleanBuffer, i256};
use decimal_kernels::{
    CompareOp, DecimalArray, DecimalError, DecimalScalar, DecimalType, NullableBuffer, Operand,
    RowCount, StorageWidth, compare, conformance, eq, gt, gt_eq, lt, lt_eq, neq,
};
use rstest::rstest;
use support::outcomes::assert_error;
use support::types::{column_from_strs, dec, max_stored, pow10, scalar, widths_holding};
use support::values::{Kind, Mix, Rng, Stored};

/// What a comparison result holds: each row's answer, `None` where null.
fn answers(result: &NullableBuffer<BooleanBuffer>) -> Vec<Option<bool>> {
    (0..result.len()).map(|row| result.get(row)).collect()
}

/// Asserts that `op` on the operands agrees with the exact reference in
/// every row (value and validity), and with the scalar reference.
#[track_caller]
fn assert_exact(op: CompareOp, lhs: Operand<'_>, rhs: Operand<'_>, context: &str) {
    let got = compare(op, lhs, rhs).unwrap_or_else(|e| panic!("{context}: {e}"));
    let want = conformance::reference_compare(op, lhs, rhs).expect("the reference");
    assert_eq!(got.len(), want.len(), "{context}: rows");
    for row in 0..want.len() {
        assert_eq!(got.get(row), want.get(row), "{context}: row {row}");
    }
    // The scalar reference on the first row, as an engine folding a
    // constant would.
    if want.len() > 0 {
        let at = |operand: Operand<'_>| match operand {
            Operand::Array(a) => a.scalar(0).unwrap_or_else(|| DecimalScalar::null(a.dtype())),
            Operand::Scalar(s) => s.clone(),
        };
        assert_eq!(at(lhs).reference_compare(op, &at(rhs)), want.get(0), "{context}: scalar");
    }
}

/// A random valid type: precision 1..=76, scale -76..=p (often close to
/// the other side's, so that values meet).
fn random_type(rng: &mut Rng) -> DecimalType {
    let p = u8::try_from(rng.range(1, 76)).expect("a precision");
    let s = if rng.percent(30) {
        rng.range(-76, i64::from(p))
    } else {
        rng.range(-3, i64::from(p.min(10)))
    };
    dec(p, i8::try_from(s).expect("a scale"))
}

/// A storage width that holds `dtype` (the narrowest half the time).
fn random_width(rng: &mut Rng, dtype: DecimalType) -> StorageWidth {
    let narrowest = dtype.storage_width();
    if rng.percent(50) {
        return narrowest;
    }
    let wider: Vec<StorageWidth> = widths_holding(dtype).collect();
    rng.pick(&wider)
}

const MIX: Mix<'static> = Mix {
    kinds: &[
        (Kind::Zero, 1),
        (Kind::Unit, 1),
        (Kind::One, 2),
        (Kind::Money, 3),
        (Kind::Digits, 4),
        (Kind::NearBound, 2),
        (Kind::Max, 1),
    ],
    null_percent: 10,
};

/// `value` at scale `from` as a stored integer at scale `to` near it: the
/// same value where it is representable (so that `=` holds), truncated
/// otherwise, then moved by `nudge` units.
fn near(value: i256, from: i8, to: i8, nudge: i64) -> i256 {
    let gap = i16::from(to) - i16::from(from);
    let moved = if gap >= 0 {
        value.checked_mul(pow10(u8::try_from(gap).expect("a gap"))).unwrap_or(value)
    } else {
        value.wrapping_div(pow10(u8::try_from(-gap).expect("a gap")))
    };
    moved.wrapping_add(i256::from_i128(nudge.into()))
}

/// The right side's rows: drawn, or near the left side's (equal values
/// across the scales, and their neighbours), within the right type's
/// precision.
fn right_rows(
    rng: &mut Rng,
    left: &Stored,
    from: DecimalType,
    to: DecimalType,
    width: StorageWidth,
) -> Stored {
    let mut right = rng.rows(to, width, left.len(), &MIX);
    let max = max_stored(to);
    for (row, value) in right.values.iter_mut().enumerate() {
        if rng.percent(40) {
            let nudge = rng.range(-1, 1);
            let candidate = near(left.values[row], from.scale(), to.scale(), nudge);
            if candidate <= max && candidate >= max.wrapping_neg() {
                *value = candidate;
            }
        }
    }
    right
}

/// Every operator over random types, widths and values, as columns, with a
/// scalar on either side, a null scalar, and unchecked columns holding
/// native extremes.
#[test]
fn random_pairs_agree_with_the_reference() {
    let mut rng = Rng::new(0x00C0_4A7E);
    let lengths = [0, 1, 5, 63, 64, 65, 130, 511, 512, 513, 1500];
    for case in 0..600 {
        let (t1, t2) = (random_type(&mut rng), random_type(&mut rng));
        let (w1, w2) = (random_width(&mut rng, t1), random_width(&mut rng, t2));
        let len = if case % 8 == 0 { rng.pick(&lengths) } else { rng.range(1, 70) as usize };
        let left_rows = rng.rows(t1, w1, len, &MIX);
        let right_rows = right_rows(&mut rng, &left_rows, t1, t2, w2);
        let (lhs, rhs) = (left_rows.checked(t1, w1), right_rows.checked(t2, w2));
        let op = rng.pick(&CompareOp::ALL);
        let context = format!("case {case}: {t1} at {w1} {op} {t2} at {w2}, {len} rows");
        assert_exact(op, (&lhs).into(), (&rhs).into(), &context);
        if len > 0 {
            let row = rng.below(len);
            let (one_left, one_right) = (lhs.scalar(row), rhs.scalar(row));
            let one_left = one_left.unwrap_or_else(|| DecimalScalar::null(t1));
            let one_right = one_right.unwrap_or_else(|| DecimalScalar::null(t2));
            assert_exact(op, (&one_left).into(), (&rhs).into(), &format!("{context}, scalar lhs"));
            assert_exact(op, (&lhs).into(), (&one_right).into(), &format!("{context}, scalar rhs"));
            assert_exact(
                op,
                (&one_left).into(),
                (&one_right).into(),
                &format!("{context}, scalars"),
            );
        }
        let null = DecimalScalar::null(t2);
        assert_exact(op, (&lhs).into(), (&null).into(), &format!("{context}, null scalar"));
        // Unchecked columns: any integer of the width, beyond the precision.
        let extremes =
            Mix { kinds: &[(Kind::NativeExtreme, 1), (Kind::Digits, 1)], null_percent: 5 };
        let wild = rng.rows(t1, w1, len, &extremes).unchecked(t1, w1);
        assert_exact(op, (&wild).into(), (&rhs).into(), &format!("{context}, unchecked lhs"));
        assert_exact(op, (&rhs).into(), (&wild).into(), &format!("{context}, unchecked rhs"));
    }
}

/// The same values at every storage width on both sides, every operator:
/// the answers do not depend on the widths.
#[test]
fn every_width_pair_gives_the_same_answers() {
    let mut rng = Rng::new(77);
    for (t1, t2) in [(dec(2, 0), dec(2, 1)), (dec(2, -5), dec(2, 2)), (dec(1, 0), dec(2, -1))] {
        let left = rng.rows(t1, StorageWidth::I8, 200, &MIX);
        let right = right_rows(&mut rng, &left, t1, t2, StorageWidth::I8);
        for w1 in StorageWidth::ALL {
            for w2 in StorageWidth::ALL {
                let (lhs, rhs) = (left.checked(t1, w1), right.checked(t2, w2));
                for op in CompareOp::ALL {
                    assert_exact(
                        op,
                        (&lhs).into(),
                        (&rhs).into(),
                        &format!("{t1} at {w1} {op} {t2} at {w2}"),
                    );
                }
            }
        }
    }
}

/// Decimal `text` of type `decimal(p, s)`.
fn value(p: u8, s: i8, text: &str) -> DecimalScalar {
    scalar(dec(p, s), text)
}

/// The stored integer `v` as a scalar of `decimal(p, s)` at any width.
fn stored(p: u8, s: i8, v: i256) -> DecimalScalar {
    DecimalScalar::from_stored(dec(p, s), v).expect("a test value")
}

#[rstest]
#[case::one_equals_one_at_another_scale(
    value(3, 2, "1.00"),
    CompareOp::Eq,
    value(2, 1, "1.0"),
    true
)]
#[case::one_above_a_half_at_a_larger_scale(
    value(3, 2, "1.00"),
    CompareOp::Gt,
    value(4, 3, "0.500"),
    true
)]
#[case::raw_integers_would_say_less(
    value(3, 2, "1.00"),
    CompareOp::Lt,
    value(4, 3, "0.500"),
    false
)]
#[case::tpch_q6_discount_bound(value(15, 2, "0.07"), CompareOp::LtEq, value(3, 2, "0.07"), true)]
#[case::a_unit_below(value(15, 2, "0.06"), CompareOp::GtEq, value(4, 3, "0.061"), false)]
#[case::negative_scale_hundreds(value(3, -2, "12300"), CompareOp::Eq, value(7, 2, "12300.00"), true)]
#[case::negative_scale_below(value(3, -2, "-12300"), CompareOp::Lt, value(7, 2, "-12299.99"), true)]
#[case::zeros_of_any_scale(value(1, -76, "0"), CompareOp::Eq, value(76, 76, "0"), true)]
#[case::largest_against_one_at_a_scale_152_apart(
    stored(76, -76, max_stored(dec(76, 0))), CompareOp::Gt, value(76, 76, "0.0000000000000000000000000000000000000000000000000000000000000000000000000001"), true
)]
#[case::smallest_against_a_tiny_negative(
    stored(76, -76, max_stored(dec(76, 0)).wrapping_neg()), CompareOp::Lt, stored(76, 76, max_stored(dec(76, 0)).wrapping_neg()), true
)]
#[case::max_76_digits_equal_across_scales(
    stored(76, 0, max_stored(dec(76, 0))),
    CompareOp::Eq,
    stored(76, 0, max_stored(dec(76, 0))),
    true
)]
#[case::max_76_digits_not_equal_to_one_less(
    stored(76, 3, max_stored(dec(76, 0))), CompareOp::NotEq, stored(76, 3, max_stored(dec(76, 0)).wrapping_sub(i256::ONE)), true
)]
#[case::i8_scale_minus_5_against_76_digits(
    stored(2, -5, i256::from_i128(99)), CompareOp::Lt, stored(76, 0, max_stored(dec(76, 0))), true
)]
#[case::i8_scale_minus_5_equal_to_its_value(
    stored(2, -5, i256::from_i128(-99)), CompareOp::Eq, value(8, 0, "-9900000"), true
)]
#[case::i256_max_at_scale_76_below_1(
    stored(76, 76, max_stored(dec(76, 0))),
    CompareOp::Lt,
    value(1, 0, "1"),
    true
)]
fn named_cases(
    #[case] lhs: DecimalScalar,
    #[case] op: CompareOp,
    #[case] rhs: DecimalScalar,
    #[case] want: bool,
) {
    assert_eq!(lhs.reference_compare(op, &rhs), Some(want), "reference: {lhs} {op} {rhs}");
    // As one-row columns at their narrowest width and at i256, and as a
    // column against a scalar.
    let column = |s: &DecimalScalar| {
        let text = s.to_string();
        column_from_strs(s.dtype(), &[Some(text.as_str()), None])
    };
    let (left, right) = (column(&lhs), column(&rhs));
    let wide = |a: &DecimalArray| a.with_width(StorageWidth::I256).expect("i256 holds any value");
    for (l, r) in
        [(left.clone(), right.clone()), (wide(&left), wide(&right)), (left.clone(), wide(&right))]
    {
        let got = answers(&compare(op, &l, &r).expect("a comparison"));
        assert_eq!(got, [Some(want), None], "{lhs} {op} {rhs} at {} and {}", l.width(), r.width());
    }
    assert_eq!(answers(&compare(op, &left, &rhs).expect("a comparison")), [Some(want), None]);
    assert_eq!(answers(&compare(op, &lhs, &right).expect("a comparison")), [Some(want), None]);
}

/// The operator functions are `compare` with their operator.
#[test]
fn operator_functions_are_compare_with_their_operator() {
    let a = column_from_strs(dec(5, 2), &[Some("1.00"), Some("-2.50"), None, Some("0.01")]);
    let b =
        column_from_strs(dec(4, 3), &[Some("1.000"), Some("-2.499"), Some("1.000"), Some("0.001")]);
    type Function =
        fn(&DecimalArray, &DecimalArray) -> Result<NullableBuffer<BooleanBuffer>, DecimalError>;
    let functions: [(CompareOp, Function); 6] = [
        (CompareOp::Eq, |l, r| eq(l, r)),
        (CompareOp::NotEq, |l, r| neq(l, r)),
        (CompareOp::Lt, |l, r| lt(l, r)),
        (CompareOp::LtEq, |l, r| lt_eq(l, r)),
        (CompareOp::Gt, |l, r| gt(l, r)),
        (CompareOp::GtEq, |l, r| gt_eq(l, r)),
    ];
    let want = [
        [Some(true), Some(false), None, Some(false)],
        [Some(false), Some(true), None, Some(true)],
        [Some(false), Some(true), None, Some(false)],
        [Some(true), Some(true), None, Some(false)],
        [Some(false), Some(false), None, Some(true)],
        [Some(true), Some(false), None, Some(true)],
    ];
    for ((op, function), want) in functions.into_iter().zip(want) {
        let got = function(&a, &b).expect("a comparison");
        assert_eq!(answers(&got), want, "{op}");
        assert_eq!(answers(&compare(op, &a, &b).expect("a comparison")), want, "{op}");
    }
}

#[test]
fn a_null_scalar_nulls_every_row() {
    let a = column_from_strs(dec(5, 2), &[Some("1.00"), Some("2.00"), None]);
    let null = DecimalScalar::null(dec(38, 10));
    for op in CompareOp::ALL {
        for got in [compare(op, &a, &null), compare(op, &null, &a)] {
            let got = got.expect("a comparison");
            assert_eq!(answers(&got), [None, None, None], "{op}");
            assert_eq!(got.nulls().map(|n| n.null_count()), Some(3));
        }
    }
}

#[test]
fn columns_of_different_lengths_are_an_error() {
    let a = column_from_strs(dec(5, 2), &[Some("1.00"), Some("2.00")]);
    let b = column_from_strs(dec(5, 1), &[Some("1.0")]);
    for op in CompareOp::ALL {
        let want = DecimalError::LengthMismatch { expected: 2, actual: 1 };
        assert_error(compare(op, &a, &b), &want, "length mismatch: expected 2 rows, found 1");
    }
}

#[test]
fn empty_columns_give_empty_results() {
    let a = column_from_strs(dec(5, 2), &[]);
    for op in CompareOp::ALL {
        assert!(compare(op, &a, &a).expect("a comparison").is_empty());
        assert!(compare(op, &a, &scalar(dec(2, 0), "7")).expect("a comparison").is_empty());
    }
}

/// A Trino literal `DECIMAL 'text'` as Trino types it: `decimal(p, s)` with
/// `s` fraction digits and `p` digits without leading zeros (at least 1 and
/// at least `s`); its value in canonical text.
fn trino_literal(text: &str) -> DecimalScalar {
    let (sign, digits) = text.strip_prefix('-').map_or(("", text), |rest| ("-", rest));
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let whole = whole.trim_start_matches('0');
    let precision = (whole.len() + fraction.len()).max(1);
    let dtype = dec(
        u8::try_from(precision).expect("a literal's precision"),
        i8::try_from(fraction.len()).expect("a literal's scale"),
    );
    let whole = if whole.is_empty() { "0" } else { whole };
    let point = if fraction.is_empty() { "" } else { "." };
    scalar(dtype, &format!("{sign}{whole}{point}{fraction}"))
}

/// A side of a published comparison: `<value>::decimal(p,s)` at that type,
/// otherwise a Trino literal.
fn published_literal(text: &str) -> DecimalScalar {
    match text.split_once("::decimal(") {
        Some((value, dtype)) => {
            let (p, s) = dtype
                .strip_suffix(')')
                .and_then(|ps| ps.split_once(','))
                .unwrap_or_else(|| panic!("a type (p,s): {text}"));
            scalar(dec(p.parse().expect("a precision"), s.parse().expect("a scale")), value)
        }
        None => trino_literal(text),
    }
}

/// Every case of `tests/data/compare_published.txt` (comparisons published
/// by Trino, Spark and PostgreSQL, each with its source line), as scalars through the reference
/// and as columns (narrowest storage and `i256`, and against a scalar)
/// through the kernels.
#[test]
fn published_cases_hold() {
    let file = include_str!("data/compare_published.txt");
    let mut cases = 0;
    for line in file.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [source_line, lhs, op, rhs, answer] = fields[..] else {
            panic!("a case has five fields: {line}");
        };
        let op = CompareOp::ALL
            .into_iter()
            .find(|o| o.to_string() == op)
            .unwrap_or_else(|| panic!("an operator: {line}"));
        let want = match answer {
            "true" => true,
            "false" => false,
            _ => panic!("an answer: {line}"),
        };
        let (lhs, rhs) = (published_literal(lhs), published_literal(rhs));
        let context =
            format!("line {source_line}: {lhs} ({}) {op} {rhs} ({})", lhs.dtype(), rhs.dtype());
        assert_eq!(lhs.reference_compare(op, &rhs), Some(want), "{context}");
        let column = |s: &DecimalScalar| {
            let text = s.to_string();
            column_from_strs(s.dtype(), &[Some(text.as_str())])
        };
        let (left, right) = (column(&lhs), column(&rhs));
        let wide = left.with_width(StorageWidth::I256).expect("i256 holds any value");
        for got in
            [compare(op, &left, &right), compare(op, &wide, &right), compare(op, &left, &rhs)]
        {
            assert_eq!(answers(&got.expect("a comparison")), [Some(want)], "{context}");
        }
        cases += 1;
    }
    assert_eq!(cases, 411, "every case of the file ran");
}
