//! `round`, `floor`, `ceil` and `trunc` to `d` digits: every profile ×
//! function × `d` in -80..=80 held to `conformance::reference_unary`, on
//! every storage width that holds the operand type (precision 1 to 76,
//! negative scales), with null rows, scalars, both overflow policies and
//! every arithmetic rounding mode of the options (which the functions
//! ignore); unchecked columns holding each storage's extremes; and named
//! cases: the engines' examples, the result types by profile, overflow at
//! 38 digits, and `d` at the ends of `i32`.

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use decimal_kernels::{
    ArithmeticOptions, DecimalArray, DecimalError, DecimalScalar, DecimalType, OverflowPolicy,
    RoundFunction, RoundingMode, StorageWidth, UnaryOp, ceil, floor, round, trunc, unary,
};
use rstest::rstest;
use support::outcomes::{UnaryCall, assert_same_outcome, assert_unary_conforms};
use support::types::{PROFILES, dec, scalar, unchecked_column, widths_holding};
use support::values::{Kind, Mix, Rng, native_range};

/// The values a rounding meets: ties at every digit, money, any digit
/// count, values next to the precision bound and the bound itself, units;
/// one row in ten null.
const MIX: Mix<'static> = Mix {
    kinds: &[
        (Kind::Zero, 1),
        (Kind::Unit, 2),
        (Kind::Tie, 6),
        (Kind::Money, 4),
        (Kind::Digits, 6),
        (Kind::NearBound, 4),
        (Kind::Max, 2),
    ],
    null_percent: 10,
};

/// Rows per column.
const ROWS: usize = 48;

/// Each function to each `d` in -80..=80 of one operand type, under every
/// profile: at the narrowest width the array, an odd-offset slice and three
/// scalars (a tie, the largest value, null) are held to the reference; at
/// the wider widths the array must give the same outcome. The options'
/// rounding mode and overflow policy change from call to call.
#[rstest]
#[case::p1_s0(dec(1, 0))]
#[case::p3_s2(dec(3, 2))]
#[case::p4_s2(dec(4, 2))]
#[case::p9_s9(dec(9, 9))]
#[case::money(dec(15, 4))]
#[case::p18_s2(dec(18, 2))]
#[case::p19_s6(dec(19, 6))]
#[case::p38_s0(dec(38, 0))]
#[case::p38_s10(dec(38, 10))]
#[case::p40_s20(dec(40, 20))]
#[case::p76_s0(dec(76, 0))]
#[case::p76_s40(dec(76, 40))]
#[case::p76_s76(dec(76, 76))]
#[case::negative_scale(dec(6, -3))]
#[case::most_negative_scale(dec(3, -76))]
fn every_digit_count_matches_reference(#[case] dtype: DecimalType) {
    let mut rng = Rng::new(u64::from(dtype.precision()) << 8 | u64::from(dtype.scale() as u8));
    let stored = rng.rows(dtype, dtype.storage_width(), ROWS, &MIX);
    let columns: Vec<DecimalArray> =
        widths_holding(dtype).map(|w| stored.checked(dtype, w)).collect();
    let slice = columns[0].slice(3, ROWS - 7).unwrap();
    let tie = DecimalScalar::from_stored(dtype, rng.value(dtype, dtype.storage_width(), Kind::Tie));
    let largest = rng.value(dtype, dtype.storage_width(), Kind::Max);
    let scalars = [tie.unwrap(), DecimalScalar::from_stored(dtype, largest).unwrap()];
    let null = DecimalScalar::null(dtype);
    let mut turn = 0usize;
    for profile in PROFILES {
        for function in RoundFunction::ALL {
            for digits in -80..=80 {
                turn += 1;
                let opts = profile
                    .with_rounding(RoundingMode::ALL[turn % 5])
                    .with_on_overflow([OverflowPolicy::Error, OverflowPolicy::Null][turn % 2]);
                let op = UnaryOp::Round { function, digits };
                let call = UnaryCall::new(op, &columns[0], &opts);
                let at_narrowest = call.run();
                assert_same_outcome(
                    &call,
                    ("kernel", &at_narrowest),
                    ("reference", &call.reference()),
                );
                for wider in &columns[1..] {
                    let call = UnaryCall::new(op, wider, &opts).in_context("wider");
                    assert_same_outcome(
                        &call,
                        ("kernel", &call.run()),
                        ("narrowest", &at_narrowest),
                    );
                }
                assert_unary_conforms(&UnaryCall::new(op, &slice, &opts).in_context("slice"));
                for s in scalars.iter().chain([&null]) {
                    assert_unary_conforms(&UnaryCall::new(op, s, &opts).in_context("scalar"));
                }
            }
        }
    }
}

/// Unchecked columns at every width holding the storage's extremes (beyond
/// the precision, `i128::MIN` and `i256::MIN` among them) round as the
/// reference says: an overflow, or the rounded value where the drop brings
/// it back within the result type.
#[test]
fn unchecked_extremes_match_reference() {
    for width in StorageWidth::ALL {
        let most = width.max_precision();
        let types =
            [dec(1, 0), dec(most, 0), dec(most, i8::try_from(most).unwrap() / 2), dec(2, -3)];
        let (min, max) = native_range(width);
        for dtype in types.into_iter().filter(|t| t.storage_width() <= width) {
            let values =
                [min, max, min.wrapping_add(arrow_buffer::i256::ONE), arrow_buffer::i256::ONE];
            let array = unchecked_column(dtype, &values, &[true, true, true, false], width);
            for profile in PROFILES {
                for function in RoundFunction::ALL {
                    for digits in [-80, -20, -3, -1, 0, 1, 2, 40, 80] {
                        for policy in [OverflowPolicy::Error, OverflowPolicy::Null] {
                            let op = UnaryOp::Round { function, digits };
                            let opts = profile.with_on_overflow(policy);
                            assert_unary_conforms(&UnaryCall::new(op, &array, &opts));
                        }
                    }
                }
            }
        }
    }
}

/// `function(text, digits)` of `dtype` under `opts` is `want` of `result`.
#[track_caller]
fn assert_rounds(
    function: RoundFunction,
    (text, dtype): (&str, DecimalType),
    digits: i32,
    opts: &ArithmeticOptions,
    (want, result): (&str, DecimalType),
) {
    let a = DecimalArray::from_strs(dtype, &[Some(text), None]).unwrap();
    let got = match function {
        RoundFunction::Round => round(&a, digits, opts),
        RoundFunction::Floor => floor(&a, digits, opts),
        RoundFunction::Ceil => ceil(&a, digits, opts),
        RoundFunction::Trunc => trunc(&a, digits, opts),
    };
    let got = got.unwrap_or_else(|e| panic!("{function}({text}, {digits}): {e}"));
    assert_eq!(got.dtype(), result, "{function}({text}, {digits}): type");
    assert_eq!(got.to_strs(), [Some(want.to_string()), None], "{function}({text}, {digits})");
    let op = UnaryOp::Round { function, digits };
    let folded = scalar(dtype, text).reference_unary(op, opts).unwrap();
    assert_eq!(folded.to_string(), want, "{function}({text}, {digits}): the reference");
}

#[rstest]
#[case::round_half_up(RoundFunction::Round, ("2.5", dec(2, 1)), 0, ArithmeticOptions::fixed_point(), ("3", dec(2, 0)))]
#[case::round_half_away_negative(RoundFunction::Round, ("-2.5", dec(2, 1)), 0, ArithmeticOptions::fixed_point(), ("-3", dec(2, 0)))]
#[case::round_ignores_half_even(RoundFunction::Round, ("2.5", dec(2, 1)), 0, ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfEven), ("3", dec(2, 0)))]
#[case::spark_round_half_up(RoundFunction::Round, ("2.5", dec(2, 1)), 0, ArithmeticOptions::spark(), ("3", dec(2, 0)))]
#[case::trino_round_carries(RoundFunction::Round, ("9.99", dec(3, 2)), 1, ArithmeticOptions::presto(), ("10.00", dec(4, 2)))]
#[case::spark_ceil_negative(RoundFunction::Ceil, ("-0.35", dec(2, 2)), 1, ArithmeticOptions::spark(), ("-0.3", dec(2, 1)))]
#[case::spark_floor_negative(RoundFunction::Floor, ("-0.35", dec(2, 2)), 1, ArithmeticOptions::spark(), ("-0.4", dec(2, 1)))]
#[case::spark_round_negative_digits(RoundFunction::Round, ("31.415", dec(5, 3)), -1, ArithmeticOptions::spark(), ("30", dec(3, 0)))]
#[case::trino_truncate_keeps_type(RoundFunction::Trunc, ("-123.45", dec(5, 2)), -1, ArithmeticOptions::presto(), ("-120.00", dec(5, 2)))]
#[case::arrow_keeps_precision(RoundFunction::Round, ("1.2345", dec(10, 4)), 2, ArithmeticOptions::arrow(StorageWidth::I128), ("1.23", dec(10, 2)))]
#[case::arrow_negative_digits_scale_0(RoundFunction::Round, ("95", dec(2, 0)), -1, ArithmeticOptions::arrow(StorageWidth::I64), ("100", dec(3, 0)))]
#[case::arrow_more_digits_than_scale(RoundFunction::Ceil, ("1.25", dec(3, 2)), 5, ArithmeticOptions::arrow(StorageWidth::I32), ("1.25", dec(3, 2)))]
#[case::fixed_point_negative_digits(RoundFunction::Floor, ("-12.5", dec(3, 1)), -1, ArithmeticOptions::fixed_point(), ("-20", dec(3, 0)))]
#[case::fixed_point_negative_scale(RoundFunction::Ceil, ("1200", dec(3, -2)), -3, ArithmeticOptions::fixed_point(), ("2000", dec(3, -2)))]
#[case::trunc_every_digit(RoundFunction::Trunc, ("-987.654", dec(6, 3)), -3, ArithmeticOptions::fixed_point(), ("0", dec(6, 0)))]
#[case::floor_every_digit(RoundFunction::Floor, ("0.001", dec(4, 3)), -2, ArithmeticOptions::spark(), ("0", dec(3, 0)))]
#[case::most_negative_digits(RoundFunction::Round, ("-987.654", dec(6, 3)), i32::MIN, ArithmeticOptions::spark(), ("0", dec(38, 0)))]
#[case::most_digits(RoundFunction::Floor, ("-987.654", dec(6, 3)), i32::MAX, ArithmeticOptions::spark(), ("-987.654", dec(7, 3)))]
#[case::most_digits_trino(RoundFunction::Ceil, ("-987.654", dec(6, 3)), i32::MAX, ArithmeticOptions::presto(), ("-987.654", dec(7, 3)))]
fn rounds_as_engines_do(
    #[case] function: RoundFunction,
    #[case] operand: (&str, DecimalType),
    #[case] digits: i32,
    #[case] opts: ArithmeticOptions,
    #[case] want: (&str, DecimalType),
) {
    assert_rounds(function, operand, digits, &opts, want);
}

/// A carry beyond 38 digits, where Spark and Trino cap the type: the
/// overflow policy decides, and the error names the row, the operand and
/// the result type, the operand's `decimal(38, 0)`.
#[rstest]
#[case::trino_round(RoundFunction::Round, ArithmeticOptions::presto(), -1)]
#[case::spark_floor(RoundFunction::Floor, ArithmeticOptions::spark(), -1)]
#[case::fixed_point_negative_digits(RoundFunction::Round, ArithmeticOptions::fixed_point(), -1)]
#[case::floor_to_minus_infinity(RoundFunction::Floor, ArithmeticOptions::fixed_point(), i32::MIN)]
fn overflow_at_38_digits(
    #[case] function: RoundFunction,
    #[case] opts: ArithmeticOptions,
    #[case] digits: i32,
) {
    let t = dec(38, 0);
    let nines = "9".repeat(38);
    let a = DecimalArray::from_strs(t, &[Some("1"), Some(&format!("-{nines}"))]).unwrap();
    let op = UnaryOp::Round { function, digits };
    let err = unary(op, &a, &opts.with_on_overflow(OverflowPolicy::Error)).unwrap_err();
    let want =
        DecimalError::UnaryOverflow { row: 1, result_type: t, op, value: format!("-{nines}") };
    assert_eq!(err, want);
    let nulled = unary(op, &a, &opts.with_on_overflow(OverflowPolicy::Null)).unwrap();
    assert!(nulled.is_valid(0) && !nulled.is_valid(1), "{function}: {:?}", nulled.to_strs());
}

/// The profiles' result types (sources in the semantics).
#[rstest]
#[case::fixed_point_drops_scale(
    ArithmeticOptions::fixed_point(),
    RoundFunction::Round,
    dec(10, 4),
    2,
    dec(10, 2)
)]
#[case::fixed_point_negative_digits(ArithmeticOptions::fixed_point(), RoundFunction::Round, dec(10, 4), -2, dec(10, 0))]
#[case::fixed_point_more_digits(
    ArithmeticOptions::fixed_point(),
    RoundFunction::Round,
    dec(10, 4),
    6,
    dec(10, 4)
)]
#[case::fixed_point_negative_scale(ArithmeticOptions::fixed_point(), RoundFunction::Round, dec(10, -4), -6, dec(10, -4))]
#[case::arrow_scale_0_negative_digits(ArithmeticOptions::arrow(StorageWidth::I64), RoundFunction::Round, dec(18, 0), -2, dec(18, 0))]
#[case::arrow_negative_digits(ArithmeticOptions::arrow(StorageWidth::I128), RoundFunction::Round, dec(10, 4), -2, dec(10, 0))]
#[case::spark_keeps_integer_digits(
    ArithmeticOptions::spark(),
    RoundFunction::Floor,
    dec(10, 4),
    2,
    dec(9, 2)
)]
#[case::spark_more_digits(
    ArithmeticOptions::spark(),
    RoundFunction::Round,
    dec(10, 4),
    6,
    dec(11, 4)
)]
#[case::spark_negative_digits(ArithmeticOptions::spark(), RoundFunction::Round, dec(10, 4), -8, dec(9, 0))]
#[case::spark_caps_at_38(
    ArithmeticOptions::spark(),
    RoundFunction::Ceil,
    dec(38, 2),
    1,
    dec(38, 1)
)]
#[case::trino_keeps_scale(
    ArithmeticOptions::presto(),
    RoundFunction::Floor,
    dec(10, 4),
    2,
    dec(11, 4)
)]
#[case::trino_truncate(
    ArithmeticOptions::presto(),
    RoundFunction::Trunc,
    dec(10, 4),
    2,
    dec(10, 4)
)]
#[case::trino_caps_at_38(
    ArithmeticOptions::presto(),
    RoundFunction::Round,
    dec(38, 4),
    2,
    dec(38, 4)
)]
fn result_types(
    #[case] opts: ArithmeticOptions,
    #[case] function: RoundFunction,
    #[case] operand: DecimalType,
    #[case] digits: i32,
    #[case] want: DecimalType,
) {
    let op = UnaryOp::Round { function, digits };
    assert_eq!(op.result_type_under(operand, &opts).unwrap(), want);
}

#[rstest]
#[case::spark_above_38(ArithmeticOptions::spark(), dec(39, 2))]
#[case::trino_above_38(ArithmeticOptions::presto(), dec(39, 2))]
#[case::trino_negative_scale(ArithmeticOptions::presto(), dec(10, -2))]
fn profiles_refuse_types_they_do_not_have(
    #[case] opts: ArithmeticOptions,
    #[case] operand: DecimalType,
) {
    let op = UnaryOp::Round { function: RoundFunction::Round, digits: 0 };
    let err = op.result_type_under(operand, &opts).unwrap_err();
    assert!(matches!(err, DecimalError::UnsupportedOperand { operand: o, .. } if o == operand));
    let a = DecimalArray::from_strs(operand, &[Some("0")]).unwrap();
    assert_eq!(round(&a, 0, &opts).unwrap_err(), err);
}

/// The options of a profile named in `round_published.txt`, failing on
/// overflow (an engine's error).
fn published_profile(name: &str) -> ArithmeticOptions {
    let profile = match name {
        "spark" => ArithmeticOptions::spark(),
        "presto" => ArithmeticOptions::presto(),
        "fixed_point" => ArithmeticOptions::fixed_point(),
        other => panic!("unknown profile {other}"),
    };
    profile.with_on_overflow(OverflowPolicy::Error)
}

fn published_function(name: &str) -> RoundFunction {
    RoundFunction::ALL
        .into_iter()
        .find(|f| f.to_string() == name)
        .unwrap_or_else(|| panic!("unknown function {name}"))
}

/// Every case Spark, Presto, DuckDB and PostgreSQL publish (`tests/data/round_published.txt`
/// names the source of each) under its profile: the result type and value of
/// a two-argument form, the text at the engine's scale, or the value of a
/// one-argument form or of an engine without fixed decimal types.
#[test]
fn published_cases() {
    let text = include_str!("data/round_published.txt");
    let mut source = "";
    let mut cases = 0;
    for line in text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields[0] == "S" {
            source = line;
            continue;
        }
        let [kind, at, profile, function, p, s, value, digits, rest @ ..] = fields.as_slice()
        else {
            panic!("malformed case: {line}");
        };
        let context = format!("{source} line {at}: {line}");
        let dtype = dec(p.parse().unwrap(), s.parse().unwrap());
        let operand = DecimalArray::from_strs(dtype, &[Some(value)]).unwrap();
        let op = UnaryOp::Round {
            function: published_function(function),
            digits: digits.parse().unwrap(),
        };
        let got = unary(op, &operand, &published_profile(profile));
        match (*kind, rest) {
            ("C", [rp, rs, "OVERFLOW"]) => {
                let result_type = dec(rp.parse().unwrap(), rs.parse().unwrap());
                let want = DecimalError::UnaryOverflow {
                    row: 0,
                    result_type,
                    op,
                    value: value.to_string(),
                };
                assert_eq!(got, Err(want), "{context}");
            }
            ("C", [rp, rs, want]) => {
                let got = got.unwrap_or_else(|e| panic!("{context}: {e}"));
                assert_eq!(got.dtype(), dec(rp.parse().unwrap(), rs.parse().unwrap()), "{context}");
                assert_eq!(got.to_strs(), [Some(want.to_string())], "{context}");
            }
            ("T", [want]) => {
                let got = got.unwrap_or_else(|e| panic!("{context}: {e}"));
                assert_eq!(got.to_strs(), [Some(want.to_string())], "{context}");
            }
            ("V", [want]) => {
                let got = got.unwrap_or_else(|e| panic!("{context}: {e}"));
                let want = DecimalScalar::parse(got.dtype(), want).unwrap();
                assert_eq!(got.scalar(0), Some(want), "{context}");
            }
            _ => panic!("malformed case: {line}"),
        }
        cases += 1;
    }
    assert_eq!(cases, 325, "the file's case count");
}
