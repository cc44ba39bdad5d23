//! Casts between decimals and text: `cast::parse` held to the exact
//! reference (`conformance::reference_parse`) on generated texts at every
//! width, negative scales and precision 76, each grammar form by name,
//! 1,000-digit texts; `cast::format` held to the canonical text; and
//! `arrow::cast` between strings and decimals beside arrow-cast.

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, LargeStringArray, StringArray, StringViewArray};
use arrow_cast::CastOptions;
use arrow_schema::DataType;
use decimal_kernels::{
    ArithmeticOptions, DecimalArray, DecimalError, DecimalScalar, DecimalType, OverflowPolicy,
    RoundingMode, StorageWidth, arrow, cast, conformance,
};
use rstest::rstest;
use support::types::{ARROW_WIDTHS, dec};
use support::values::Rng;

/// The texts' rows, as the functions take them.
fn rows(texts: &[Option<String>]) -> impl ExactSizeIterator<Item = Option<&str>> + Clone {
    texts.iter().map(Option::as_deref)
}

/// `cast::parse` equals the reference on `texts`, under the `Null` and the
/// `Error` overflow policies.
#[track_caller]
fn assert_parses_as_reference(
    texts: &[Option<String>],
    to: DecimalType,
    options: ArithmeticOptions,
) {
    for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
        let options = options.with_on_overflow(policy);
        let got = cast::parse(rows(texts), to, &options);
        let want = conformance::reference_parse(rows(texts), to, &options);
        match (&got, &want) {
            (Ok(g), Ok(w)) if g == w => {}
            (Err(g), Err(w)) if g == w => {}
            (Ok(g), Ok(w)) => {
                let row = (0..g.len()).find(|&r| g.to_strs()[r] != w.to_strs()[r]).unwrap_or(0);
                panic!(
                    "{to} under {options:?}: row {row} {:?}: got {:?}, reference {:?}",
                    texts[row],
                    g.to_strs()[row],
                    w.to_strs()[row]
                );
            }
            _ => panic!("{to} under {options:?}: got {got:?}, reference {want:?}"),
        }
    }
}

/// One random decimal-looking text: signs, digits on either side of the
/// point, exponents small and huge, whitespace, and now and then a defect.
fn random_text(rng: &mut Rng) -> String {
    let mut text = String::new();
    let space = |rng: &mut Rng| rng.pick(&["", "", "", " ", "\t", "  \n"]);
    text.push_str(space(rng));
    text.push_str(rng.pick(&["", "", "-", "+"]));
    let digits = |rng: &mut Rng, text: &mut String, most: usize| {
        let count = if rng.percent(10) { rng.below(90) } else { rng.below(most + 1) };
        let zeros = rng.percent(20);
        for i in 0..count {
            let d = if zeros && i < 3 { 0 } else { rng.below(10) };
            text.push(char::from(b'0' + u8::try_from(d).expect("a digit")));
        }
    };
    digits(rng, &mut text, 12);
    if rng.percent(70) {
        text.push('.');
        digits(rng, &mut text, 12);
    }
    if rng.percent(30) {
        text.push_str(rng.pick(&["e", "E"]));
        text.push_str(rng.pick(&["", "-", "+"]));
        let exponent = match rng.below(10) {
            0 => "400".to_string(),
            1 => "99999999999999999999999".to_string(),
            2 => format!("{:03}", rng.below(80)),
            _ => rng.below(40).to_string(),
        };
        text.push_str(&exponent);
    }
    text.push_str(space(rng));
    if rng.percent(5) {
        let at = rng.below(text.len() + 1);
        if text.is_char_boundary(at) {
            text.insert(at, rng.pick(&['a', '.', '-', '+', 'e', ' ', '_', ',']));
        }
    }
    text
}

/// A random type: precision 1..=76 (often small), scale from -10 to the
/// precision.
fn random_type(rng: &mut Rng) -> DecimalType {
    let precision = if rng.percent(50) { rng.range(1, 18) } else { rng.range(1, 76) };
    let scale = rng.range(-10, precision);
    dec(u8::try_from(precision).expect("1..=76"), i8::try_from(scale).expect("-10..=76"))
}

#[test]
fn generated_texts_read_as_the_reference_at_every_width() {
    let mut rng = Rng::new(0x7e47_ca57);
    for _ in 0..400 {
        let to = random_type(&mut rng);
        let texts: Vec<Option<String>> =
            (0..64).map(|_| (!rng.percent(5)).then(|| random_text(&mut rng))).collect();
        let mode = rng.pick(&RoundingMode::ALL);
        assert_parses_as_reference(
            &texts,
            to,
            ArithmeticOptions::fixed_point().with_rounding(mode),
        );
        for width in ARROW_WIDTHS {
            if to.storage_width() <= width {
                assert_parses_as_reference(&texts, to, ArithmeticOptions::arrow(width));
            }
        }
        if to.precision() <= 38 {
            assert_parses_as_reference(&texts, to, ArithmeticOptions::spark());
            assert_parses_as_reference(&texts, to, ArithmeticOptions::presto());
        }
    }
}

#[test]
fn generated_texts_at_precision_76_and_the_narrowest_widths() {
    let mut rng = Rng::new(76);
    for to in [dec(76, 0), dec(76, 76), dec(76, -76), dec(76, 38), dec(1, 0), dec(2, 1), dec(4, -3)]
    {
        let texts: Vec<Option<String>> = (0..500).map(|_| Some(random_text(&mut rng))).collect();
        for mode in RoundingMode::ALL {
            assert_parses_as_reference(
                &texts,
                to,
                ArithmeticOptions::fixed_point().with_rounding(mode),
            );
        }
    }
}

/// The two modes of the one grammar: the exact reading (`DecimalScalar::parse`,
/// `DecimalArray::from_strs`) accepts a text exactly when the rounded one
/// (`cast::parse`) gives it one value whatever the rounding mode, and then
/// that value; a text the exact reading refuses is not a number, beyond the
/// precision, or rounded differently by some two modes.
#[test]
fn the_exact_reading_is_the_rounded_one_where_no_rounding_is_needed() {
    let mut rng = Rng::new(0xe7ac7);
    let named = [" 7 ", "1e3", "1.234", "\t-2.50E+1\n", "12.5e-1", "0e999", "1.5e-3", "abc"];
    for round in 0..400 {
        let to = if round == 0 { dec(10, 2) } else { random_type(&mut rng) };
        let texts: Vec<String> = if round == 0 {
            named.iter().map(|t| (*t).to_owned()).collect()
        } else {
            (0..16).map(|_| random_text(&mut rng)).collect()
        };
        for text in &texts {
            let exact = DecimalScalar::parse(to, text).map(|s| s.to_string());
            let column = DecimalArray::from_strs(to, &[Some(text)]).map(|c| c.to_strs());
            assert_eq!(column, exact.clone().map(|s| vec![Some(s)]), "{text:?} as {to}");
            let rounded: Vec<Option<String>> = RoundingMode::ALL
                .iter()
                .map(|&mode| {
                    let options = ArithmeticOptions::fixed_point().with_rounding(mode);
                    let read = cast::parse([Some(text.as_str())], to, &options).ok()?;
                    read.to_strs().swap_remove(0)
                })
                .collect();
            let one_value = rounded.iter().all(|r| r.is_some() && *r == rounded[0]);
            match &exact {
                Ok(value) => assert!(
                    one_value && rounded[0].as_ref() == Some(value),
                    "{text:?} as {to}: exact {value}, rounded {rounded:?}"
                ),
                Err(e) => assert!(!one_value, "{text:?} as {to}: exact {e}, rounded {rounded:?}"),
            }
        }
        if round == 0 {
            let exact: Vec<_> = texts.iter().map(|t| DecimalScalar::parse(to, t).ok()).collect();
            let printed: Vec<_> =
                exact.iter().map(|s| s.as_ref().map(ToString::to_string)).collect();
            let want = [
                Some("7.00"),
                Some("1000.00"),
                None,
                Some("-25.00"),
                Some("1.25"),
                Some("0.00"),
                None,
                None,
            ];
            assert_eq!(printed, want.map(|t| t.map(String::from)));
        }
    }
}

/// The stored integer of `text` read as `to` under FixedPoint with `mode`
/// (`None`: null under the `Null` policy).
fn read(text: &str, to: DecimalType, mode: RoundingMode) -> Option<String> {
    let options =
        ArithmeticOptions::fixed_point().with_rounding(mode).with_on_overflow(OverflowPolicy::Null);
    let texts = [Some(text.to_owned())];
    assert_parses_as_reference(&texts, to, options);
    cast::parse(rows(&texts), to, &options).expect("the Null policy").to_strs().remove(0)
}

#[rstest]
#[case::plain("1.25", dec(5, 2), "1.25")]
#[case::leading_point(".5", dec(5, 2), "0.50")]
#[case::trailing_point("5.", dec(5, 2), "5.00")]
#[case::plus_sign("+7", dec(5, 2), "7.00")]
#[case::minus_sign("-7.5", dec(5, 2), "-7.50")]
#[case::exponent("1.5E3", dec(6, 1), "1500.0")]
#[case::negative_exponent("-2e-4", dec(6, 5), "-0.00020")]
#[case::signed_exponent("25e+1", dec(5, 0), "250")]
#[case::exponent_on_point("5.e1", dec(5, 0), "50")]
#[case::exponent_on_fraction(".5e1", dec(5, 0), "5")]
#[case::surrounding_whitespace(" \t1.5\n ", dec(5, 1), "1.5")]
#[case::leading_zeros("000000000000000000000000000000000000000000123", dec(3, 0), "123")]
#[case::trailing_zeros("1.000000000000000000000000000000000000000000000000", dec(1, 0), "1")]
#[case::zero_huge_exponent("0e999999999999999999999", dec(5, 2), "0.00")]
#[case::tiny_exponent("1e-400", dec(5, 2), "0.00")]
#[case::negative_scale("1234", dec(5, -2), "1200")]
#[case::negative_scale_tie("1250", dec(5, -2), "1300")]
#[case::negative_zero("-0.000", dec(3, 2), "0.00")]
#[case::tie_away_from_zero("-1.005", dec(5, 2), "-1.01")]
#[case::above_tie("1.0050000000000000000000000000000000000000001", dec(5, 2), "1.01")]
#[case::below_tie("1.0049999999999999999999999999999999999999999", dec(5, 2), "1.00")]
#[case::round_up_to_the_precision("99.994", dec(4, 2), "99.99")]
#[case::largest_of_76(
    "9999999999999999999999999999999999999999999999999999999999999999999999999999",
    dec(76, 0),
    "9999999999999999999999999999999999999999999999999999999999999999999999999999"
)]
fn reads(#[case] text: &str, #[case] to: DecimalType, #[case] want: &str) {
    assert_eq!(read(text, to, RoundingMode::HalfUp).as_deref(), Some(want), "{text:?} as {to}");
}

#[rstest]
#[case::empty("")]
#[case::blank("   ")]
#[case::letters("abc")]
#[case::two_points("1.2.3")]
#[case::two_signs("--1")]
#[case::exponent_without_digits("1e")]
#[case::exponent_sign_only("1e+")]
#[case::exponent_without_mantissa("e5")]
#[case::point_only(".")]
#[case::plus_only("+")]
#[case::nan("NaN")]
#[case::infinity("inf")]
#[case::inner_space("1 5")]
#[case::digit_separator("1_000")]
#[case::decimal_comma("1,5")]
#[case::hex("0x10")]
#[case::non_ascii_digit("\u{661}")]
#[case::non_ascii_space("\u{a0}1")]
fn refuses(#[case] text: &str) {
    assert_eq!(read(text, dec(10, 2), RoundingMode::HalfUp), None, "{text:?}");
    let err = cast::parse([Some(text)], dec(10, 2), &ArithmeticOptions::presto()).unwrap_err();
    assert_eq!(
        err,
        DecimalError::Parse {
            row: 0,
            text: text.into(),
            dtype: dec(10, 2),
            reason: "not a number"
        }
    );
}

#[rstest]
#[case::beyond_the_precision("1000", dec(5, 2))]
#[case::rounded_past_the_precision("99.995", dec(4, 2))]
#[case::huge_exponent("1e400", dec(76, 0))]
#[case::saturated_exponent("1e99999999999999999999999", dec(38, 0))]
#[case::beyond_76_digits(
    "99999999999999999999999999999999999999999999999999999999999999999999999999999",
    dec(76, 0)
)]
fn overflows(#[case] text: &str, #[case] to: DecimalType) {
    assert_eq!(read(text, to, RoundingMode::HalfUp), None, "{text:?}");
    let err = cast::parse([Some(text)], to, &ArithmeticOptions::presto()).unwrap_err();
    let reason = "more digits than the precision";
    assert_eq!(err, DecimalError::Parse { row: 0, text: text.into(), dtype: to, reason });
}

/// A tie after an odd digit, its negation, a tie after an even digit, and a
/// negative value just beyond a tie, at scale 2.
#[rstest]
#[case::toward_zero(RoundingMode::TowardZero, ["1.23", "-1.23", "1.22", "-1.23"])]
#[case::half_up(RoundingMode::HalfUp, ["1.24", "-1.24", "1.23", "-1.24"])]
#[case::half_even(RoundingMode::HalfEven, ["1.24", "-1.24", "1.22", "-1.24"])]
#[case::floor(RoundingMode::Floor, ["1.23", "-1.24", "1.22", "-1.24"])]
#[case::ceiling(RoundingMode::Ceiling, ["1.24", "-1.23", "1.23", "-1.23"])]
fn fixed_point_rounds_with_its_mode(#[case] mode: RoundingMode, #[case] want: [&str; 4]) {
    let texts = ["1.235", "-1.235", "12.25e-1", "-1.23500000001"];
    let got = texts.map(|t| read(t, dec(5, 2), mode).expect("fits"));
    assert_eq!(got, want.map(String::from));
}

#[test]
fn engines_round_half_away_from_zero_whatever_the_mode() {
    let texts = [Some("1.235"), Some("-0.005"), Some("2.5e-2")];
    let to = dec(5, 2);
    let want = [Some("1.24"), Some("-0.01"), Some("0.03")].map(|t| t.map(String::from));
    for options in [
        ArithmeticOptions::arrow(StorageWidth::I32),
        ArithmeticOptions::spark(),
        ArithmeticOptions::presto().with_rounding(RoundingMode::TowardZero),
    ] {
        assert_eq!(cast::parse(texts, to, &options).unwrap().to_strs(), want, "{options:?}");
    }
}

#[test]
fn thousand_digit_texts_read_exactly() {
    let mut rng = Rng::new(1000);
    let mut texts = Vec::new();
    for _ in 0..20 {
        let digits: String = (0..1000)
            .map(|_| char::from(b'0' + u8::try_from(rng.below(10)).expect("a digit")))
            .collect();
        texts.push(Some(format!("0.{digits}")));
        texts.push(Some(format!("-{}.{}e-960", &digits[..500], &digits[500..])));
        texts.push(Some(format!("{}e-990", &digits)));
    }
    // A tie decided by the thousandth digit.
    texts.push(Some(format!("0.5{}1", "0".repeat(997))));
    texts.push(Some(format!("0.5{}", "0".repeat(998))));
    for to in [dec(76, 76), dec(38, 20), dec(18, 2), dec(10, 0)] {
        for mode in RoundingMode::ALL {
            assert_parses_as_reference(
                &texts,
                to,
                ArithmeticOptions::fixed_point().with_rounding(mode),
            );
        }
    }
    let half = cast::parse(
        rows(&texts[texts.len() - 2..]),
        dec(1, 0),
        &ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfEven),
    );
    assert_eq!(half.unwrap().to_strs(), [Some("1".into()), Some("0".into())]);
}

#[test]
fn null_rows_and_failures_name_their_row() {
    let texts = [Some("1"), None, Some("x"), Some("1e9")];
    let to = dec(5, 2);
    let null = ArithmeticOptions::fixed_point().with_on_overflow(OverflowPolicy::Null);
    let read = cast::parse(texts, to, &null).unwrap();
    assert_eq!(read.to_strs(), [Some("1.00".into()), None, None, None]);
    let err = cast::parse(texts, to, &ArithmeticOptions::fixed_point()).unwrap_err();
    assert_eq!(err.to_string(), "cannot parse \"x\" at row 2 as decimal(5,2): not a number");
    let none: [Option<&str>; 0] = [];
    assert_eq!(cast::parse(none, to, &null).unwrap().len(), 0);
}

#[test]
fn an_arrow_width_too_narrow_for_the_type_is_refused() {
    let err = cast::parse([Some("1")], dec(10, 0), &ArithmeticOptions::arrow(StorageWidth::I32));
    assert!(matches!(err, Err(DecimalError::StorageTooNarrow { .. })), "{err:?}");
}

#[test]
fn formatting_is_the_canonical_text_at_every_width() {
    let mut rng = Rng::new(0xf0_4a7);
    for _ in 0..300 {
        let to = random_type(&mut rng);
        let texts: Vec<Option<String>> =
            (0..64).map(|_| (!rng.percent(10)).then(|| random_text(&mut rng))).collect();
        let null = ArithmeticOptions::fixed_point().with_on_overflow(OverflowPolicy::Null);
        let column: DecimalArray = cast::parse(rows(&texts), to, &null).unwrap();
        let mut formatted = Vec::new();
        cast::format(&column, |text| formatted.push(text.map(str::to_owned)));
        assert_eq!(formatted, column.to_strs(), "{to}");
    }
}

/// Every case of `tests/data/text_casts_published.txt` (DuckDB's and
/// arrow-cast's published string casts, each with its source) under its
/// profile: the result, or an error where the engine raises one.
#[test]
fn published_cases() {
    let data = include_str!("data/text_casts_published.txt");
    let mut count = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [profile, precision, scale, text, expected, source] = fields[..] else {
            panic!("a malformed case: {line:?}");
        };
        let to = dec(precision.parse().unwrap(), scale.parse().unwrap());
        let options = match profile {
            "duckdb" => ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp),
            "arrow" => ArithmeticOptions::arrow(to.storage_width().max(StorageWidth::I32)),
            other => panic!("unknown profile {other} ({source})"),
        };
        let text =
            text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).expect("a quoted text");
        let got = cast::parse([Some(text)], to, &options).map(|a| a.to_strs().remove(0));
        match (expected, got) {
            ("ERROR", Err(DecimalError::Parse { .. })) => {}
            (want, Ok(Some(got))) if want == got => {}
            (want, got) => panic!("{text:?} as {to} ({source}): want {want}, got {got:?}"),
        }
        count += 1;
    }
    assert_eq!(count, 163);
}

/// Texts near every edge arrow-cast's reader has: digits beyond the native
/// width with an exponent bringing them back, leading and trailing zeros,
/// exponents far beyond every width, and the random texts.
fn edge_texts(rng: &mut Rng) -> Vec<Option<String>> {
    let mut texts: Vec<Option<String>> =
        (0..32).map(|_| (!rng.percent(5)).then(|| random_text(rng))).collect();
    for _ in 0..16 {
        let count = rng.below(100) + 1;
        let digits: String = (0..count)
            .map(|_| char::from(b'0' + u8::try_from(rng.below(10)).expect("a digit")))
            .collect();
        let (sign, exponent) = (rng.pick(&["", "-", "+"]), rng.range(-120, 120));
        let (zeros, trailing) = ("0".repeat(rng.below(60)), "0".repeat(rng.below(50)));
        let point = rng.below(count + 1);
        let (integer, fraction) = digits.split_at(point);
        texts.push(Some(format!("{sign}{zeros}{integer}.{fraction}{trailing}e{exponent}")));
        texts.push(Some(format!("{sign}{zeros}{digits}{trailing}E{exponent}")));
        texts.push(Some(format!("{sign}{zeros}{digits}{trailing}")));
    }
    texts
}

/// The Arrow decimal type of `to` at its narrowest Arrow width.
fn arrow_type(to: DecimalType) -> DataType {
    let (p, s) = (to.precision(), to.scale());
    match to.storage_width() {
        StorageWidth::I8 | StorageWidth::I16 | StorageWidth::I32 => DataType::Decimal32(p, s),
        StorageWidth::I64 => DataType::Decimal64(p, s),
        StorageWidth::I128 => DataType::Decimal128(p, s),
        _ => DataType::Decimal256(p, s),
    }
}

/// Whether the selected arrow major is 59, whose arrow-cast reads and writes
/// decimal text differently (see `docs/semantics.md#text-casts`).
const ARROW_59: bool = cfg!(all(feature = "arrow_59", not(feature = "arrow_60")));

/// `arrow::cast` from the three string types equals arrow-cast 60 on edge
/// texts at every width (on arrow 59, the reference under the Arrow profile),
/// both with `safe` on (nulls) and off (the same error).
#[test]
fn strings_to_decimals_as_arrow_cast() {
    let mut rng = Rng::new(0xa770_ca57);
    let mut overflowed_before_the_defect = 0;
    for _ in 0..150 {
        let to = random_type(&mut rng);
        let to_type = arrow_type(to);
        let texts = edge_texts(&mut rng);
        let utf8: ArrayRef = Arc::new(StringArray::from(texts.clone()));
        let inputs = [
            utf8.clone(),
            Arc::new(LargeStringArray::from(texts.clone())),
            Arc::new(StringViewArray::from(texts.clone())),
        ];
        for safe in [true, false] {
            let options = CastOptions { safe, ..CastOptions::default() };
            let theirs = arrow_cast::cast_with_options(&utf8, &to_type, &options);
            for input in &inputs {
                let ours = arrow::cast(input, &to_type, &options);
                if ARROW_59 {
                    let width = decimal_kernels::arrow::decimal_type(&to_type).unwrap().1;
                    let policy = if safe { OverflowPolicy::Null } else { OverflowPolicy::Error };
                    let profile = ArithmeticOptions::arrow(width).with_on_overflow(policy);
                    let want = conformance::reference_parse(rows(&texts), to, &profile);
                    match (ours, want) {
                        (Ok(o), Ok(w)) => assert_eq!(DecimalArray::from_arrow(&o).unwrap(), w),
                        (Err(_), Err(_)) => {}
                        (o, w) => panic!("{to_type} from {:?}: {o:?} vs {w:?}", input.data_type()),
                    }
                    continue;
                }
                match (&ours, &theirs) {
                    (Ok(o), Ok(t)) => {
                        assert_eq!(o.data_type(), t.data_type());
                        let (o, t) = (
                            DecimalArray::from_arrow(o).unwrap(),
                            DecimalArray::from_arrow(t).unwrap(),
                        );
                        let row = (0..o.len()).find(|&r| o.to_strs()[r] != t.to_strs()[r]);
                        assert_eq!(row, None, "{to_type}: {:?}", row.map(|r| &texts[r]));
                    }
                    (Err(o), Err(t)) => {
                        let (o, t) = (o.to_string(), t.to_string());
                        // arrow-cast stops at a native overflow before it
                        // sees that the rest is not a number.
                        let overflow_first =
                            o.replace("invalid decimal format", "value does not fit");
                        if o != t && overflow_first == t {
                            overflowed_before_the_defect += 1;
                        } else {
                            assert_eq!(o, t);
                        }
                    }
                    _ => panic!(
                        "{to_type} from {:?}: ours {ours:?}, arrow-cast {theirs:?}",
                        input.data_type()
                    ),
                }
            }
        }
    }
    // The one class of difference, in the error message only, is met.
    assert!(ARROW_59 || overflowed_before_the_defect > 0);
}

/// `arrow::cast` to the three string types writes what arrow-cast 60
/// writes, at every width and negative scales (on arrow 59, the canonical
/// text).
#[test]
fn decimals_to_strings_as_arrow_cast() {
    let mut rng = Rng::new(0x5_7a1);
    let mut compared = 0;
    for _ in 0..300 {
        let to = random_type(&mut rng);
        let to_type = arrow_type(to);
        let null = ArithmeticOptions::fixed_point().with_on_overflow(OverflowPolicy::Null);
        let texts = edge_texts(&mut rng);
        let column = cast::parse(rows(&texts), to, &null).unwrap();
        let width = decimal_kernels::arrow::decimal_type(&to_type).unwrap().1;
        let column = column.with_width(width).unwrap();
        let decimals = column.to_arrow();
        for text_type in [DataType::Utf8, DataType::LargeUtf8, DataType::Utf8View] {
            let options = CastOptions::default();
            let ours = arrow::cast(&decimals, &text_type, &options).unwrap();
            assert_eq!(ours.data_type(), &text_type);
            let ours = arrow_cast::cast(&ours, &DataType::Utf8).unwrap();
            let ours: Vec<Option<String>> =
                ours.as_string::<i32>().iter().map(|t| t.map(str::to_owned)).collect();
            let want = if ARROW_59 {
                column.to_strs()
            } else {
                let theirs =
                    arrow_cast::cast_with_options(&decimals, &DataType::Utf8, &options).unwrap();
                theirs.as_string::<i32>().iter().map(|t| t.map(str::to_owned)).collect()
            };
            assert_eq!(ours, want, "{to_type} as {text_type}");
            compared += ours.len();
        }
    }
    assert!(compared > 10_000, "{compared}");
}

/// The backticked texts of a cell of the semantics page's table (`empty`: the
/// empty text).
fn documented_texts(cell: &str) -> Vec<String> {
    let mut texts: Vec<String> = cell.split('`').skip(1).step_by(2).map(str::to_owned).collect();
    if cell.contains("empty") {
        texts.push(String::new());
    }
    texts
}

/// What a documented outcome cell says: the text, or the refusal's reason.
fn documented_outcome(cell: &str) -> Result<String, &'static str> {
    if cell.starts_with("beyond") {
        Err("more digits than the precision")
    } else if cell == "not a number" {
        Err("not a number")
    } else {
        Ok(cell.to_owned())
    }
}

/// The table of `docs/semantics.md#text-casts` holds under FixedPoint (toward
/// zero) and under the Arrow, Spark and Presto profiles.
#[test]
fn documented_text_casts_hold() {
    let page = include_str!("../docs/semantics.md");
    let table = page
        .split("| text | type | FixedPoint (toward zero) | Arrow, Spark, Presto |")
        .nth(1)
        .expect("the text casts table");
    let mut checked = 0;
    for row in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> =
            row.split(" | ").map(|c| c.trim_matches(|c| c == '|' || c == ' ')).collect();
        let [texts, dtype, fixed, engines] = cells[..] else { panic!("a malformed row: {row}") };
        let types: Vec<DecimalType> = if dtype == "any" {
            vec![dec(5, 2), dec(76, -10)]
        } else {
            let (p, s) =
                dtype.trim_matches(|c| c == '`' || c == '(' || c == ')').split_once(',').unwrap();
            vec![dec(p.parse().unwrap(), s.parse().unwrap())]
        };
        for text in documented_texts(texts) {
            for to in &types {
                let profiles = [
                    (ArithmeticOptions::fixed_point(), fixed),
                    (ArithmeticOptions::arrow(StorageWidth::I256), engines),
                    (ArithmeticOptions::spark(), engines),
                    (ArithmeticOptions::presto(), engines),
                ];
                for (options, want) in profiles {
                    if to.precision() > 38
                        && options != ArithmeticOptions::fixed_point()
                        && options != ArithmeticOptions::arrow(StorageWidth::I256)
                    {
                        continue;
                    }
                    let options = options.with_on_overflow(OverflowPolicy::Error);
                    let got = cast::parse([Some(text.as_str())], *to, &options);
                    let got = match got {
                        Ok(a) => Ok(a.to_strs().remove(0).expect("a value")),
                        Err(DecimalError::Parse { reason, .. }) => Err(reason),
                        Err(e) => panic!("{text:?}: {e}"),
                    };
                    assert_eq!(got, documented_outcome(want), "{text:?} as {to} under {options:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 40, "{checked}");
}

/// An iterator whose length promises more rows than it yields.
struct ShortRows(Option<&'static str>);

impl Iterator for ShortRows {
    type Item = Option<&'static str>;
    fn next(&mut self) -> Option<Self::Item> {
        self.0.take().map(Some)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (3, Some(3))
    }
}

impl ExactSizeIterator for ShortRows {}

#[test]
fn rows_fewer_than_promised_are_an_error_not_a_panic() {
    let err = cast::parse(ShortRows(Some("1.5")), dec(5, 2), &ArithmeticOptions::default());
    assert_eq!(err.unwrap_err(), DecimalError::LengthMismatch { expected: 3, actual: 1 });
}
