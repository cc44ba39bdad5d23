//! Bad input, one named case per kind: every way a caller can hand the crate
//! something wrong, the exact error it gets back, and the message that error
//! prints (which names the row, the value or the type at fault).
//!
//! Also here: the inputs that look suspicious but are not errors (empty and
//! all-null columns, a zero divisor under a null row), so that the line between
//! the two stays where it is.
//!
//! The "Bad input" table of docs/testing.md is backed by these cases.

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalNative, DecimalScalar,
    DecimalType, Operand, OverflowPolicy, RoundingMode, StorageWidth, UnaryOp, binary_to,
    conformance,
};
use rstest::rstest;
use support::outcomes::{
    Call, Outcome, UnaryCall, assert_error, assert_matches_reference, assert_same_outcome,
};
use support::types::{column_from_strs, dec, scalar};

/// Validity from `true` (valid) / `false` (null) per row.
fn validity(bits: &[bool]) -> NullBuffer {
    NullBuffer::from(bits.to_vec())
}

/// `lhs op rhs` by the operator's own function (`add`, `sub`, `mul`, `div`),
/// held to the exact reference: a bad call gets the reference's error, a
/// call that is not bad its result.
#[track_caller]
fn run<'a>(
    op: BinaryOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Outcome {
    let call = Call::new(op, lhs, rhs, options);
    let by_name = match op {
        BinaryOp::Add => decimal_kernels::add(call.lhs, call.rhs, options),
        BinaryOp::Sub => decimal_kernels::sub(call.lhs, call.rhs, options),
        BinaryOp::Mul => decimal_kernels::mul(call.lhs, call.rhs, options),
        BinaryOp::Div => decimal_kernels::div(call.lhs, call.rhs, options),
        BinaryOp::Rem => decimal_kernels::rem(call.lhs, call.rhs, options),
        other => panic!("no named function for {other}: add it here"),
    };
    assert_matches_reference(&call, &by_name);
    by_name
}

/// `op operand` by the operator's own function (`rescale`, `neg`, `abs`),
/// held to the exact reference as [`run`] holds the operators of two.
#[track_caller]
fn run_unary<'a>(
    op: UnaryOp,
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Outcome {
    let call = UnaryCall::new(op, operand, options);
    let by_name = match op {
        UnaryOp::Rescale { to } => decimal_kernels::rescale(call.operand, to, options),
        UnaryOp::Neg => decimal_kernels::neg(call.operand, options),
        UnaryOp::Abs => decimal_kernels::abs(call.operand, options),
        other => panic!("no named function for {other}: add it here"),
    };
    assert_same_outcome(&call, ("kernel", &by_name), ("reference", &call.reference()));
    by_name
}

/// Stored integers of a column, `None` for null rows.
fn stored(array: &DecimalArray) -> Vec<Option<i256>> {
    (0..array.len()).map(|i| array.scalar(i).and_then(|s| s.value())).collect()
}

// ---------------------------------------------------------------------------
// Types

#[rstest]
#[case::zero_precision(0, 0)]
#[case::precision_77(77, 0)]
#[case::precision_255(255, 0)]
#[case::scale_below_minus_76(10, -77)]
#[case::scale_i8_min(10, i8::MIN)]
#[case::scale_above_precision(5, 6)]
#[case::scale_above_max_precision(76, 77)]
fn invalid_type(#[case] precision: u8, #[case] scale: i8) {
    assert_error(
        DecimalType::try_new(precision, scale),
        &DecimalError::InvalidType { precision: precision.into(), scale: scale.into() },
        &format!(
            "invalid decimal type decimal({precision},{scale}): precision must be 1..=76 and \
             scale -76..=precision"
        ),
    );
}

// ---------------------------------------------------------------------------
// Building arrays and scalars

#[rstest]
#[case::try_new_short_validity(true, 3, 2)]
#[case::try_new_long_validity(true, 2, 3)]
#[case::try_new_empty_values(true, 0, 1)]
#[case::new_unchecked_short_validity(false, 3, 2)]
#[case::new_unchecked_long_validity(false, 2, 5)]
fn validity_of_wrong_length(#[case] checked: bool, #[case] values: usize, #[case] bits: usize) {
    let values = ScalarBuffer::from(vec![1i32; values]);
    let nulls = Some(validity(&vec![true; bits]));
    let result = if checked {
        DecimalArray::try_new(dec(5, 2), values.clone(), nulls)
    } else {
        DecimalArray::new_unchecked(dec(5, 2), values.clone(), nulls)
    };
    assert_error(
        result,
        &DecimalError::LengthMismatch { expected: values.len(), actual: bits },
        &format!("length mismatch: expected {} rows, found {bits}", values.len()),
    );
}

#[rstest]
#[case::past_the_end(1, 4, 4)]
#[case::offset_past_the_end(5, 0, 4)]
#[case::any_row_of_an_empty_array(0, 1, 0)]
#[case::end_overflows_usize(usize::MAX, 2, 4)]
fn slice_out_of_bounds(#[case] offset: usize, #[case] len: usize, #[case] array_len: usize) {
    let array = column_from_strs(dec(5, 2), &vec![Some("1.00"); array_len]);
    assert_error(
        array.slice(offset, len),
        &DecimalError::OutOfBounds { offset, len, array_len },
        &format!(
            "slice of {len} rows at offset {offset} is out of bounds for an array of \
             {array_len} rows"
        ),
    );
}

#[rstest]
#[case::positive_i8(dec(2, 0), vec![99i8, 100], 1, "100")]
#[case::negative_i8(dec(2, 0), vec![-100i8], 0, "-100")]
#[case::fraction_digits_i32(dec(5, 2), vec![0i32, -99_999, 100_000], 2, "100000")]
#[case::negative_scale_i64(dec(3, -2), vec![999i64, 1000], 1, "1000")]
fn try_new_value_beyond_precision<T: DecimalNative>(
    #[case] dtype: DecimalType,
    #[case] values: Vec<T>,
    #[case] row: usize,
    #[case] value: &str,
) {
    assert_error(
        DecimalArray::try_new(dtype, ScalarBuffer::from(values), None),
        &DecimalError::ValueOutOfRange { row, value: value.into(), dtype },
        &format!("stored value {value} at row {row} does not fit {dtype}"),
    );
}

#[test]
fn try_new_value_beyond_precision_of_76_digits() {
    let dtype = dec(76, 0);
    let values = ScalarBuffer::from(vec![i256::ZERO, i256::MAX]);
    assert_error(
        DecimalArray::try_new(dtype, values, None),
        &DecimalError::ValueOutOfRange { row: 1, value: i256::MAX.to_string(), dtype },
        &format!("stored value {} at row 1 does not fit decimal(76,0)", i256::MAX),
    );
}

#[rstest]
#[case::one_past_the_largest(dec(3, 0), i256::from_i128(1000))]
#[case::one_past_the_smallest(dec(3, 0), i256::from_i128(-1000))]
#[case::fraction_digits(dec(5, 5), i256::from_i128(100_000))]
#[case::i256_min(dec(76, 0), i256::MIN)]
fn from_stored_value_beyond_precision(#[case] dtype: DecimalType, #[case] value: i256) {
    assert_error(
        DecimalScalar::from_stored(dtype, value),
        &DecimalError::ValueOutOfRange { row: 0, value: value.to_string(), dtype },
        &format!("stored value {value} at row 0 does not fit {dtype}"),
    );
}

#[rstest]
#[case::i8_for_3_digits(dec(3, 0), StorageWidth::I8)]
#[case::i16_for_5_digits(dec(5, 2), StorageWidth::I16)]
#[case::i32_for_10_digits(dec(10, 2), StorageWidth::I32)]
#[case::i64_for_19_digits(dec(19, 0), StorageWidth::I64)]
#[case::i128_for_39_digits(dec(39, 0), StorageWidth::I128)]
fn storage_too_narrow_for_new(#[case] dtype: DecimalType, #[case] width: StorageWidth) {
    fn build<T: DecimalNative>(dtype: DecimalType, checked: bool) -> Result<(), DecimalError> {
        let values = ScalarBuffer::from(vec![T::default(); 2]);
        if checked {
            DecimalArray::try_new(dtype, values, None).map(drop)
        } else {
            DecimalArray::new_unchecked(dtype, values, None).map(drop)
        }
    }
    let want = DecimalError::StorageTooNarrow { dtype, width };
    let message = format!("{width} storage is too narrow for {dtype}");
    for checked in [false, true] {
        let result = match width {
            StorageWidth::I8 => build::<i8>(dtype, checked),
            StorageWidth::I16 => build::<i16>(dtype, checked),
            StorageWidth::I32 => build::<i32>(dtype, checked),
            StorageWidth::I64 => build::<i64>(dtype, checked),
            StorageWidth::I128 => build::<i128>(dtype, checked),
            StorageWidth::I256 => build::<i256>(dtype, checked),
        };
        assert_error(result, &want, &message);
    }
}

#[rstest]
#[case::i8_for_4_digits(dec(4, 0), StorageWidth::I8)]
#[case::i16_for_9_digits(dec(9, 4), StorageWidth::I16)]
#[case::i64_for_19_digits(dec(19, 0), StorageWidth::I64)]
#[case::i128_for_76_digits(dec(76, 10), StorageWidth::I128)]
fn storage_too_narrow_for_with_width(#[case] dtype: DecimalType, #[case] width: StorageWidth) {
    let array = column_from_strs(dtype, &[Some("1"), None, Some("-1")]);
    assert_error(
        array.with_width(width),
        &DecimalError::StorageTooNarrow { dtype, width },
        &format!("{width} storage is too narrow for {dtype}"),
    );
}

/// An unchecked value beyond the precision does not fit a narrower (but wide
/// enough for the type) storage: the row is named. Under a null row it is no
/// error.
#[test]
fn with_width_unchecked_value_too_wide() {
    let dtype = dec(2, 0);
    let wide = DecimalArray::new_unchecked(dtype, ScalarBuffer::from(vec![1i64, 1000]), None);
    assert_error(
        wide.unwrap().with_width(StorageWidth::I8),
        &DecimalError::ValueOutOfRange { row: 1, value: "1000".into(), dtype },
        "stored value 1000 at row 1 does not fit decimal(2,0)",
    );
    let nulls = Some(validity(&[true, false]));
    let under_null =
        DecimalArray::new_unchecked(dtype, ScalarBuffer::from(vec![1i64, 1000]), nulls).unwrap();
    let narrow = under_null.with_width(StorageWidth::I8).unwrap();
    assert_eq!(narrow.width(), StorageWidth::I8);
    assert_eq!(narrow.to_strs(), [Some("1".into()), None]);
}

// ---------------------------------------------------------------------------
// Text

/// The reason given for text outside the grammar (the one `cast::parse`
/// reads too).
const ONLY: &str = "only an optional sign, digits with one optional '.', an optional exponent and surrounding whitespace are allowed";

/// Text that is not a number at all, by `DecimalScalar::parse` and by
/// `DecimalArray::from_strs`.
#[rstest]
#[case::empty("", "no digits")]
#[case::lone_minus("-", "no digits")]
#[case::lone_plus("+", "no digits")]
#[case::lone_point(".", "no digits")]
#[case::sign_and_point("-.", "no digits")]
#[case::letters("abc", ONLY)]
#[case::trailing_letter("1.5x", ONLY)]
#[case::two_points("1.2.3", ONLY)]
#[case::two_signs("+-1", ONLY)]
#[case::sign_after_point(".-1", ONLY)]
#[case::exponent_without_digits("1e", ONLY)]
#[case::exponent_with_point("1e1.5", ONLY)]
#[case::space_inside("1 000", ONLY)]
#[case::space_after_sign("- 1", ONLY)]
#[case::decimal_comma("1,5", ONLY)]
#[case::digit_separator("1_000", ONLY)]
#[case::hex("0x10", ONLY)]
#[case::infinity("inf", ONLY)]
#[case::nan("NaN", ONLY)]
#[case::non_ascii_digit("\u{661}", ONLY)]
fn unparsable_text(#[case] text: &str, #[case] reason: &'static str) {
    let dtype = dec(5, 2);
    let want = |row| DecimalError::Parse { row, text: text.into(), dtype, reason };
    let message = |row| format!("cannot parse {text:?} at row {row} as decimal(5,2): {reason}");
    assert_error(DecimalScalar::parse(dtype, text), &want(0), &message(0));
    let column = DecimalArray::from_strs(dtype, &[Some("1"), None, Some(text)]);
    assert_error(column, &want(2), &message(2));
}

/// Numbers the type cannot hold exactly: rejected, never rounded or clamped.
#[rstest]
#[case::too_many_integer_digits("1000.00", dec(5, 2), "more digits than the precision")]
#[case::too_many_negative_digits("-1000", dec(5, 2), "more digits than the precision")]
#[case::any_integer_for_scale_equal_precision("1", dec(3, 3), "more digits than the precision")]
#[case::too_many_fraction_digits("1.234", dec(5, 2), "more fraction digits than the scale")]
#[case::too_many_fraction_digits_padded(
    " 1.234 ",
    dec(10, 2),
    "more fraction digits than the scale"
)]
#[case::exponent_beyond_precision("1e5", dec(5, 2), "more digits than the precision")]
#[case::exponent_needs_rounding("1.5E-3", dec(5, 2), "more fraction digits than the scale")]
#[case::huge_exponent("1e99999999999999999999", dec(76, 0), "more digits than the precision")]
#[case::huge_negative_exponent(
    "1e-99999999999999999999",
    dec(76, 2),
    "more fraction digits than the scale"
)]
#[case::exponent_for_negative_scale("15e1", dec(5, -2), "not a multiple of the type's power of ten")]
#[case::fraction_for_scale_0("0.5", dec(5, 0), "more fraction digits than the scale")]
#[case::not_a_multiple("550", dec(5, -2), "not a multiple of the type's power of ten")]
#[case::fraction_for_negative_scale("100.5", dec(5, -2), "not a multiple of the type's power of ten")]
#[case::beyond_76_digits(&"9".repeat(77), dec(76, 0), "more digits than the precision")]
#[case::beyond_any_decimal(&"9".repeat(161), dec(76, 0), "more digits than any decimal holds")]
fn unrepresentable_text(
    #[case] text: &str,
    #[case] dtype: DecimalType,
    #[case] reason: &'static str,
) {
    let want = DecimalError::Parse { row: 0, text: text.into(), dtype, reason };
    let message = format!("cannot parse {text:?} at row 0 as {dtype}: {reason}");
    assert_error(DecimalScalar::parse(dtype, text), &want, &message);
    assert_error(DecimalArray::from_strs(dtype, &[Some(text)]), &want, &message);
}

/// `from_strs` reports the first bad text of several.
#[test]
fn from_strs_reports_the_first_bad_text() {
    let dtype = dec(5, 2);
    let texts = [Some("1.00"), Some("x"), None, Some("1.234")];
    assert_error(
        DecimalArray::from_strs(dtype, &texts),
        &DecimalError::Parse { row: 1, text: "x".into(), dtype, reason: ONLY },
        &format!("cannot parse \"x\" at row 1 as decimal(5,2): {ONLY}"),
    );
}

/// `from_strs` names the row of the text it rejects.
#[test]
fn from_strs_parse_error_names_the_row() {
    let dtype = dec(5, 2);
    let first = DecimalArray::from_strs(dtype, &[Some("1"), Some("1.234")]).unwrap_err();
    let later = DecimalArray::from_strs(dtype, &[Some("1"), Some("2"), Some("3"), Some("1.234")])
        .unwrap_err();
    assert!(matches!(first, DecimalError::Parse { row: 1, .. }), "{first}");
    assert!(later.to_string().contains("at row 3"), "{later}");
}

// ---------------------------------------------------------------------------
// Operands

#[rstest]
#[case::lhs_longer(BinaryOp::Add, 3, 2)]
#[case::rhs_longer(BinaryOp::Sub, 2, 3)]
#[case::empty_and_one_row(BinaryOp::Mul, 0, 1)]
#[case::one_row_and_empty(BinaryOp::Div, 1, 0)]
#[case::rem(BinaryOp::Rem, 2, 4)]
fn operands_of_different_lengths(#[case] op: BinaryOp, #[case] lhs: usize, #[case] rhs: usize) {
    let dtype = dec(5, 2);
    let a = column_from_strs(dtype, &vec![Some("1.00"); lhs]);
    let b = column_from_strs(dtype, &vec![Some("1.00"); rhs]);
    for options in [ArithmeticOptions::fixed_point(), ArithmeticOptions::arrow(StorageWidth::I64)] {
        assert_error(
            run(op, &a, &b, &options),
            &DecimalError::LengthMismatch { expected: lhs, actual: rhs },
            &format!("length mismatch: expected {lhs} rows, found {rhs}"),
        );
    }
}

/// The Arrow profile has no result type: the call fails before any row is
/// looked at (for arrays, for scalars, and in `result_type`).
#[rstest]
#[case::arrow_has_no_i8_decimal(
    BinaryOp::Add,
    StorageWidth::I8,
    dec(2, 0),
    dec(2, 0),
    "Arrow has no i8 decimal"
)]
#[case::arrow_has_no_i16_decimal(
    BinaryOp::Sub,
    StorageWidth::I16,
    dec(4, 2),
    dec(4, 2),
    "Arrow has no i16 decimal"
)]
#[case::operand_too_wide_for_decimal32(
    BinaryOp::Add,
    StorageWidth::I32,
    dec(10, 2),
    dec(5, 2),
    "an operand's precision exceeds 9, the most of i32"
)]
#[case::operand_too_wide_for_decimal64(
    BinaryOp::Div,
    StorageWidth::I64,
    dec(5, 2),
    dec(19, 2),
    "an operand's precision exceeds 18, the most of i64"
)]
#[case::product_scale_beyond_decimal128(
    BinaryOp::Mul,
    StorageWidth::I128,
    dec(38, 20),
    dec(38, 20),
    "the product's scale 40 is outside -76..=38"
)]
#[case::product_scale_below_minus_76(
    BinaryOp::Mul,
    StorageWidth::I256,
    dec(5, -40),
    dec(5, -40),
    "the product's scale -80 is outside -76..=76"
)]
fn profile_without_result_type(
    #[case] op: BinaryOp,
    #[case] width: StorageWidth,
    #[case] lhs: DecimalType,
    #[case] rhs: DecimalType,
    #[case] reason: &str,
) {
    let options = ArithmeticOptions::arrow(width);
    let want = DecimalError::UnsupportedTypes { op, lhs, rhs, reason: reason.into() };
    let message = format!("no result type for {lhs} {op} {rhs}: {reason}");
    assert_error(op.result_type(lhs, rhs, &options), &want, &message);
    let (a, b) =
        (column_from_strs(lhs, &[Some("0"), None]), column_from_strs(rhs, &[Some("0"), Some("0")]));
    assert_error(run(op, &a, &b, &options), &want, &message);
    let (x, y) = (scalar(lhs, "0"), scalar(rhs, "0"));
    assert_error(x.reference_binary(op, &y, &options), &want, &message);
    // Even with no rows at all.
    let (a, b) = (column_from_strs(lhs, &[]), column_from_strs(rhs, &[]));
    assert_error(run(op, &a, &b, &options), &want, &message);
}

// ---------------------------------------------------------------------------
// Rows that fail: overflow and division by zero

/// Texts separated by spaces, `null` for a null row.
fn rows(texts: &str) -> Vec<Option<&str>> {
    texts.split(' ').map(|t| Some(t).filter(|t| *t != "null")).collect()
}

/// Rows whose result exceeds the result type: under `Error` the first valid
/// such row is named with the result type; under `Null` exactly those rows
/// become null and the rest are computed.
#[rstest]
#[case::add(
    BinaryOp::Add,
    ArithmeticOptions::fixed_point(),
    dec(3, 0),
    "1 null 999 -999",
    "1 999 1 -1",
    (2, dec(3, 0)),
    "2 null null null"
)]
#[case::sub(
    BinaryOp::Sub,
    ArithmeticOptions::fixed_point(),
    dec(3, 1),
    "1.0 -99.9 99.9",
    "0.5 0.1 -0.1",
    (1, dec(3, 1)),
    "0.5 null null"
)]
#[case::mul(
    BinaryOp::Mul,
    ArithmeticOptions::fixed_point(),
    dec(4, 2),
    "10.00 -10.00 0.50",
    "9.99 10.00 0.50",
    (1, dec(4, 2)),
    "99.90 null 0.25"
)]
#[case::div(
    BinaryOp::Div,
    ArithmeticOptions::fixed_point(),
    dec(3, 1),
    "99.9 1.0 -10.0",
    "0.1 3.0 0.1",
    (0, dec(3, 1)),
    "null 0.3 null"
)]
#[case::arrow_mul_into_a_wider_type(
    BinaryOp::Mul,
    ArithmeticOptions::arrow(StorageWidth::I32),
    dec(5, 2),
    "999.99 316.22 316.23",
    "999.99 316.22 -316.23",
    (0, dec(9, 4)),
    "null 99995.0884 null"
)]
fn overflow(
    #[case] op: BinaryOp,
    #[case] options: ArithmeticOptions,
    #[case] dtype: DecimalType,
    #[case] lhs: &str,
    #[case] rhs: &str,
    #[case] failing: (usize, DecimalType),
    #[case] nulled: &str,
) {
    let (row, result_type) = failing;
    let (a, b) = (column_from_strs(dtype, &rows(lhs)), column_from_strs(dtype, &rows(rhs)));
    let text = |texts: &str| rows(texts)[row].expect("a valid row").to_string();
    let (l, r) = (text(lhs), text(rhs));
    assert_error(
        run(op, &a, &b, &options),
        &DecimalError::Overflow { row, result_type, op, lhs: l.clone(), rhs: r.clone() },
        &format!("overflow at row {row}: {l} {op} {r} does not fit {result_type}"),
    );
    let null = options.with_on_overflow(OverflowPolicy::Null);
    let got = run(op, &a, &b, &null).unwrap();
    assert_eq!(got.dtype(), result_type);
    let want: Vec<Option<String>> = rows(nulled).into_iter().map(|t| t.map(String::from)).collect();
    assert_eq!(got.to_strs(), want);
}

/// Overflow against a scalar, and of two scalars (row 0).
#[test]
fn overflow_with_scalars() {
    let dtype = dec(3, 0);
    let a = column_from_strs(dtype, &[None, Some("499"), Some("600")]);
    let five_hundred = scalar(dtype, "500");
    let overflow = |row, lhs: &str, rhs: &str| DecimalError::Overflow {
        row,
        result_type: dtype,
        op: BinaryOp::Add,
        lhs: lhs.into(),
        rhs: rhs.into(),
    };
    let options = ArithmeticOptions::fixed_point();
    let message = "overflow at row 2: 600 + 500 does not fit decimal(3,0)";
    assert_error(
        run(BinaryOp::Add, &a, &five_hundred, &options),
        &overflow(2, "600", "500"),
        message,
    );
    let message = "overflow at row 2: 500 + 600 does not fit decimal(3,0)";
    assert_error(
        run(BinaryOp::Add, &five_hundred, &a, &options),
        &overflow(2, "500", "600"),
        message,
    );
    let six_hundred = scalar(dtype, "600");
    let want = overflow(0, "500", "600");
    let message = "overflow at row 0: 500 + 600 does not fit decimal(3,0)";
    assert_error(
        five_hundred.reference_binary(BinaryOp::Add, &six_hundred, &options),
        &want,
        message,
    );
    assert_error(run(BinaryOp::Add, &five_hundred, &six_hundred, &options), &want, message);
    let null = options.with_on_overflow(OverflowPolicy::Null);
    let sum = five_hundred.reference_binary(BinaryOp::Add, &six_hundred, &null).unwrap();
    assert!(sum.is_null());
}

/// Unchecked values beyond the precision are computed as the integers they
/// are: a result beyond the result type is an overflow naming the row, never a
/// panic or a wrapped value.
#[rstest]
#[case::add(BinaryOp::Add)]
#[case::sub(BinaryOp::Sub)]
#[case::mul(BinaryOp::Mul)]
#[case::div(BinaryOp::Div)]
fn overflow_of_unchecked_extremes(#[case] op: BinaryOp) {
    let dtype = dec(2, 0);
    let a = ScalarBuffer::from(vec![i256::ONE, i256::MIN, i256::MAX]);
    let b = ScalarBuffer::from(vec![i256::ONE, i256::MINUS_ONE, i256::from_i128(2)]);
    let a = DecimalArray::new_unchecked(dtype, a, None).unwrap();
    let b = DecimalArray::new_unchecked(dtype, b, None).unwrap();
    let options = ArithmeticOptions::fixed_point();
    let got = run(op, &a, &b, &options);
    let (lhs, rhs) = (a.scalar(1).unwrap().to_string(), b.scalar(1).unwrap().to_string());
    let message = format!("overflow at row 1: {lhs} {op} {rhs} does not fit decimal(2,0)");
    let want = DecimalError::Overflow { row: 1, result_type: dtype, op, lhs, rhs };
    assert_error(got, &want, &message);
    let null = options.with_on_overflow(OverflowPolicy::Null);
    let got = run(op, &a, &b, &null).unwrap();
    assert_eq!(got.null_count(), 2, "{:?}", got.to_strs());
    assert!(got.is_valid(0));
}

/// A column of `dtype` from stored integers separated by spaces, `null` for a
/// null row, which stores 0 (a zero divisor under the null).
#[track_caller]
fn zeros_under_nulls(dtype: DecimalType, rows: &str) -> DecimalArray {
    let rows: Vec<Option<i32>> = rows.split(' ').map(|r| r.parse().ok()).collect();
    let values = ScalarBuffer::from(rows.iter().map(|r| r.unwrap_or(0)).collect::<Vec<_>>());
    let nulls = validity(&rows.iter().map(Option::is_some).collect::<Vec<_>>());
    DecimalArray::try_new(dtype, values, Some(nulls)).unwrap()
}

/// A zero divisor of a quotient or a remainder: under `Error` the first valid
/// row with one is named (a remainder's with the message of a division); a
/// zero under a null row (on either side) is no error; under `Null` those rows
/// become null, and the overflow policy does not govern them.
#[rstest]
#[case::first_row(BinaryOp::Div, "100 200", "0 0", Some(0), "null null")]
#[case::later_row(BinaryOp::Div, "100 200 300", "100 200 0", Some(2), "1.00 1.00 null")]
#[case::zero_by_zero(BinaryOp::Div, "0 100", "0 100", Some(0), "null 1.00")]
#[case::skips_null_divisor(BinaryOp::Div, "100 200 300", "100 null 0", Some(2), "1.00 null null")]
#[case::skips_null_dividend(BinaryOp::Div, "100 null 300", "100 0 0", Some(2), "1.00 null null")]
#[case::zero_only_under_nulls(BinaryOp::Div, "null 400", "null 200", None, "null 2.00")]
#[case::zero_under_null_dividend(BinaryOp::Div, "null 400", "0 200", None, "null 2.00")]
#[case::rem_first_row(BinaryOp::Rem, "750 200", "0 0", Some(0), "null null")]
#[case::rem_later_row(BinaryOp::Rem, "750 -750 300", "200 200 0", Some(2), "1.50 -1.50 null")]
#[case::rem_skips_null_divisor(
    BinaryOp::Rem,
    "750 200 300",
    "200 null 0",
    Some(2),
    "1.50 null null"
)]
#[case::rem_zero_only_under_nulls(BinaryOp::Rem, "null 400", "null 300", None, "null 1.00")]
fn divide_by_zero(
    #[case] op: BinaryOp,
    #[case] lhs: &str,
    #[case] rhs: &str,
    #[case] row: Option<usize>,
    #[case] nulled: &str,
) {
    let dtype = dec(5, 2);
    let (a, b) = (zeros_under_nulls(dtype, lhs), zeros_under_nulls(dtype, rhs));
    let error = ArithmeticOptions::fixed_point();
    let want: Vec<Option<String>> = rows(nulled).into_iter().map(|t| t.map(String::from)).collect();
    match row {
        Some(row) => {
            let lhs = a.scalar(row).unwrap().to_string();
            assert_error(
                run(op, &a, &b, &error),
                &DecimalError::DivideByZero { row, lhs: lhs.clone() },
                &format!("division by zero at row {row}: {lhs} / 0"),
            );
        }
        None => assert_eq!(run(op, &a, &b, &error).unwrap().to_strs(), want),
    }
    // The overflow policy does not govern a zero divisor.
    let only_overflow_null = error.with_on_overflow(OverflowPolicy::Null);
    assert_eq!(run(op, &a, &b, &only_overflow_null), run(op, &a, &b, &error));
    let null = error.with_on_divide_by_zero(OverflowPolicy::Null);
    assert_eq!(run(op, &a, &b, &null).unwrap().to_strs(), want);
}

/// A zero scalar divisor of a quotient or a remainder fails at the first
/// valid row (named with the message of a division); two scalars at row 0,
/// whether computed by the kernels or the reference.
#[rstest]
#[case::quotient(BinaryOp::Div)]
#[case::remainder(BinaryOp::Rem)]
fn divide_by_zero_scalar(#[case] op: BinaryOp) {
    let dtype = dec(5, 2);
    let zero = scalar(dtype, "0.00");
    let a = column_from_strs(dtype, &[None, None, Some("1.00")]);
    let options = ArithmeticOptions::fixed_point();
    let by_zero = |row| DecimalError::DivideByZero { row, lhs: "1.00".into() };
    assert_error(run(op, &a, &zero, &options), &by_zero(2), "division by zero at row 2: 1.00 / 0");
    let one = scalar(dtype, "1.00");
    let at_row_0 = "division by zero at row 0: 1.00 / 0";
    assert_error(one.reference_binary(op, &zero, &options), &by_zero(0), at_row_0);
    assert_error(run(op, &one, &zero, &options), &by_zero(0), at_row_0);
    let null = options.with_on_divide_by_zero(OverflowPolicy::Null);
    assert_eq!(run(op, &a, &zero, &null).unwrap().null_count(), 3);
    assert!(one.reference_binary(op, &zero, &null).unwrap().is_null());
    // Each policy governs only its own failure.
    let only_overflow_null = options.with_on_overflow(OverflowPolicy::Null);
    assert_error(
        run(op, &a, &zero, &only_overflow_null),
        &by_zero(2),
        "division by zero at row 2: 1.00 / 0",
    );
}

/// Overflow and division by zero in one column: the first failing row wins.
#[test]
fn first_failing_row_of_either_kind() {
    let dtype = dec(3, 1);
    let a = column_from_strs(dtype, &[Some("1.0"), Some("99.9"), Some("1.0")]);
    let b = column_from_strs(dtype, &[Some("1.0"), Some("0.1"), Some("0.0")]);
    let options = ArithmeticOptions::fixed_point();
    let (lhs, rhs) = ("99.9".to_string(), "0.1".to_string());
    assert_error(
        run(BinaryOp::Div, &a, &b, &options),
        &DecimalError::Overflow { row: 1, result_type: dtype, op: BinaryOp::Div, lhs, rhs },
        "overflow at row 1: 99.9 / 0.1 does not fit decimal(3,1)",
    );
    let b = column_from_strs(dtype, &[Some("1.0"), Some("0.0"), Some("0.1")]);
    let a = column_from_strs(dtype, &[Some("1.0"), Some("1.0"), Some("99.9")]);
    assert_error(
        run(BinaryOp::Div, &a, &b, &options),
        &DecimalError::DivideByZero { row: 1, lhs: "1.0".into() },
        "division by zero at row 1: 1.0 / 0",
    );
}

/// A null scalar on either side of a remainder makes every row null: no row
/// divides, so a zero divisor is no error.
#[test]
fn remainder_of_a_null_scalar() {
    let dtype = dec(5, 2);
    let zeros = column_from_strs(dtype, &[Some("0"), Some("0"), None]);
    let null = DecimalScalar::null(dtype);
    let options = ArithmeticOptions::fixed_point();
    for got in
        [run(BinaryOp::Rem, &null, &zeros, &options), run(BinaryOp::Rem, &zeros, &null, &options)]
    {
        assert_eq!(stored(&got.unwrap()), [None, None, None]);
    }
    let got = run(BinaryOp::Rem, &null, &scalar(dtype, "0"), &options).unwrap();
    assert_eq!(stored(&got), [None]);
    assert!(null.reference_binary(BinaryOp::Rem, &scalar(dtype, "0"), &options).unwrap().is_null());
}

/// `binary_to` a remainder at a scale below the operands' larger one: it
/// would have to round, which a rescale of the exact remainder does; refused
/// before any row, by the reference too.
#[test]
fn remainder_below_the_aligned_scale() {
    let (lhs, rhs) = (dec(10, 2), dec(5, 3));
    let a = column_from_strs(lhs, &[Some("7.50"), None]);
    let b = column_from_strs(rhs, &[Some("2.001"), Some("0")]);
    let reason = "a remainder is exact at scale 3; rescale it to scale 2";
    let want =
        DecimalError::UnsupportedTypes { op: BinaryOp::Rem, lhs, rhs, reason: reason.into() };
    let message = format!("no result type for decimal(10,2) % decimal(5,3): {reason}");
    let options = ArithmeticOptions::fixed_point();
    let to = dec(12, 2);
    assert_error(binary_to(BinaryOp::Rem, &a, &b, to, &options), &want, &message);
    assert_error(conformance::reference_to(BinaryOp::Rem, &a, &b, to, &options), &want, &message);
    // At the aligned scale and above it is exact.
    let at = binary_to(BinaryOp::Rem, &a, &b, dec(12, 5), &options).unwrap();
    assert_eq!(at.to_strs(), [Some("1.49700".into()), None]);
}

/// `binary_to` a remainder at a scale above both operands': the remainder at
/// the larger one with digits appended, exactly, even where aligning both
/// operands at the result scale would leave every work type (scales -76 to
/// 20: 96 digits on both sides); a remainder too large for the result and a
/// zero divisor fail or are null by their policies, the lower row first, as
/// the reference has it.
#[rstest]
fn remainder_above_the_aligned_scale(
    #[values(OverflowPolicy::Error, OverflowPolicy::Null)] on_overflow: OverflowPolicy,
    #[values(OverflowPolicy::Error, OverflowPolicy::Null)] on_divide_by_zero: OverflowPolicy,
    #[values(false, true)] zero_divisor_first: bool,
) {
    let (lhs, rhs) = (dec(63, -76), dec(34, -76));
    let (seven, three) = (format!("7{}", "0".repeat(76)), format!("3{}", "0".repeat(76)));
    let mut a_rows = vec![Some(seven.as_str()), Some("0"), None];
    let mut b_rows = vec![Some(three.as_str()), Some("0"), Some("0")];
    if zero_divisor_first {
        a_rows.swap(0, 1);
        b_rows.swap(0, 1);
    }
    let (a, b) = (column_from_strs(lhs, &a_rows), column_from_strs(rhs, &b_rows));
    let options = ArithmeticOptions::fixed_point()
        .with_on_overflow(on_overflow)
        .with_on_divide_by_zero(on_divide_by_zero);
    let context = format!("{options:?}, zero divisor first: {zero_divisor_first}");
    // At scale 20 the remainder 10^76 needs 97 digits: an overflow. At the
    // aligned scale it is stored as 1.
    for to in [dec(22, 20), dec(2, -76)] {
        let got = binary_to(BinaryOp::Rem, &a, &b, to, &options);
        let reference = conformance::reference_to(BinaryOp::Rem, &a, &b, to, &options);
        assert_eq!(got, reference, "{to}, {context}");
    }
    let remainder_row = usize::from(zero_divisor_first);
    let at_aligned = binary_to(BinaryOp::Rem, &a, &b, dec(2, -76), &options);
    if on_divide_by_zero == OverflowPolicy::Null {
        let want = format!("1{}", "0".repeat(76));
        assert_eq!(at_aligned.unwrap().to_strs()[remainder_row].as_deref(), Some(want.as_str()));
    }
}

/// A rescale to a type whose precision a value exceeds (after rounding):
/// under `Error` the first valid such row is named with its value and the
/// target type; under `Null` exactly those rows become null.
#[rstest]
#[case::fewer_digits(
    dec(5, 2),
    "1.00 null 123.45 -999.99",
    dec(4, 2),
    RoundingMode::TowardZero,
    2,
    "1.00 null null null"
)]
#[case::rounds_up_into_overflow(
    dec(5, 3),
    "99.994 99.995",
    dec(4, 2),
    RoundingMode::HalfUp,
    1,
    "99.99 null"
)]
#[case::appended_digits(
    dec(4, 2),
    "-0.01 -10.00",
    dec(4, 3),
    RoundingMode::TowardZero,
    1,
    "-0.010 null"
)]
#[case::negative_scale(dec(6, 0), "-149 -99951", dec(2, -3), RoundingMode::HalfEven, 1, "0 null")]
fn rescale_overflow(
    #[case] dtype: DecimalType,
    #[case] values: &str,
    #[case] to: DecimalType,
    #[case] mode: RoundingMode,
    #[case] row: usize,
    #[case] nulled: &str,
) {
    let a = column_from_strs(dtype, &rows(values));
    let value = rows(values)[row].expect("a valid row").to_string();
    let op = UnaryOp::Rescale { to };
    let options = ArithmeticOptions::fixed_point().with_rounding(mode);
    assert_error(
        run_unary(op, &a, &options),
        &DecimalError::UnaryOverflow { row, result_type: to, op, value: value.clone() },
        &format!("overflow at row {row}: rescale of {value} does not fit {to}"),
    );
    let null = options.with_on_overflow(OverflowPolicy::Null);
    let got = run_unary(op, &a, &null).unwrap();
    assert_eq!(got.dtype(), to);
    let want: Vec<Option<String>> = rows(nulled).into_iter().map(|t| t.map(String::from)).collect();
    assert_eq!(got.to_strs(), want);
    // The same value as a scalar fails at row 0.
    let x = a.scalar(row).unwrap();
    let at_zero = DecimalError::UnaryOverflow { row: 0, result_type: to, op, value: value.clone() };
    assert_eq!(x.reference_unary(op, &options), Err(at_zero.clone()));
    assert_eq!(run_unary(op, &x, &options), Err(at_zero));
}

/// The Arrow profile stores results at its width: a result type that width
/// cannot hold is refused before any row is looked at (for columns, empty
/// ones and null scalars alike).
#[rstest]
#[case::rescale_beyond_decimal32(
    StorageWidth::I32,
    dec(5, 2),
    UnaryOp::Rescale { to: dec(10, 2) }
)]
#[case::rescale_beyond_decimal128(
    StorageWidth::I128,
    dec(38, 0),
    UnaryOp::Rescale { to: dec(39, 1) }
)]
#[case::neg_beyond_decimal64(StorageWidth::I64, dec(19, 0), UnaryOp::Neg)]
#[case::abs_beyond_decimal128(StorageWidth::I128, dec(40, 2), UnaryOp::Abs)]
fn unary_result_beyond_the_arrow_width(
    #[case] width: StorageWidth,
    #[case] dtype: DecimalType,
    #[case] op: UnaryOp,
) {
    let options = ArithmeticOptions::arrow(width);
    let result = op.result_type(dtype);
    let want = DecimalError::StorageTooNarrow { dtype: result, width };
    let message = format!("{width} storage is too narrow for {result}");
    let a = column_from_strs(dtype, &[Some("1"), None]);
    assert_error(run_unary(op, &a, &options), &want, &message);
    assert_error(run_unary(op, &a.slice(0, 0).unwrap(), &options), &want, &message);
    assert_error(run_unary(op, &DecimalScalar::null(dtype), &options), &want, &message);
}

/// A stored minimum of each width (`i8::MIN` up to `i128::MIN` and
/// `i256::MIN`) in an unchecked column of that width's largest precision:
/// its negation and absolute value are beyond the precision, an overflow
/// naming it (never a wrapped value); under `Null` that row alone is null.
#[rstest]
#[case::i8(dec(2, 0), StorageWidth::I8)]
#[case::i16(dec(4, 1), StorageWidth::I16)]
#[case::i32(dec(9, 0), StorageWidth::I32)]
#[case::i64(dec(18, -3), StorageWidth::I64)]
#[case::i128(dec(38, 0), StorageWidth::I128)]
#[case::i256(dec(76, 0), StorageWidth::I256)]
fn negation_of_unchecked_storage_minimum(
    #[case] dtype: DecimalType,
    #[case] width: StorageWidth,
    #[values(UnaryOp::Neg, UnaryOp::Abs)] op: UnaryOp,
) {
    let (min, _) = support::values::native_range(width);
    let values = [i256::from_i128(-7), min, i256::from_i128(5)];
    let a = support::types::unchecked_column(dtype, &values, &[true; 3], width);
    let value = a.scalar(1).unwrap().to_string();
    let options = ArithmeticOptions::fixed_point();
    assert_error(
        run_unary(op, &a, &options),
        &DecimalError::UnaryOverflow { row: 1, result_type: dtype, op, value: value.clone() },
        &format!("overflow at row 1: {op} of {value} does not fit {dtype}"),
    );
    let null = options.with_on_overflow(OverflowPolicy::Null);
    let got = run_unary(op, &a, &null).unwrap();
    let five = if op == UnaryOp::Neg { -5 } else { 5 };
    assert_eq!(stored(&got), [Some(i256::from_i128(7)), None, Some(i256::from_i128(five))]);
    // As a scalar too.
    let x = a.scalar(1).unwrap();
    let at_zero = DecimalError::UnaryOverflow { row: 0, result_type: dtype, op, value };
    assert_eq!(run_unary(op, &x, &options), Err(at_zero));
    assert_eq!(stored(&run_unary(op, &x, &null).unwrap()), [None]);
}

// ---------------------------------------------------------------------------
// Nothing panics: extreme stored values

/// Stored values at every storage width's extremes, zero and a few small
/// ones: beyond most precisions, as unchecked arrays may hold them.
const EXTREME_VALUES: [i256; 8] = [
    i256::MIN,
    i256::MAX,
    i256::ZERO,
    i256::ONE,
    i256::MINUS_ONE,
    i256::from_i128(i128::MIN),
    i256::from_i128(i128::MAX),
    i256::from_i128(-10),
];

/// Types at the edges of the range: one digit, every digit a fraction or
/// none, the most negative scale.
fn extreme_types() -> [DecimalType; 8] {
    [
        dec(1, -76),
        dec(1, 0),
        dec(2, 2),
        dec(9, -9),
        dec(38, 38),
        dec(76, 0),
        dec(76, 76),
        dec(76, -76),
    ]
}

/// Columns made with `new_unchecked` (or from Arrow) may hold any integer,
/// far beyond their precision. Every operator, profile and policy computes
/// them as the integers they are: each row agrees with the exact reference,
/// and a call fails only with the reference's error at its first failing row
/// (never a panic, never a wrapped value).
#[rstest]
#[case::fixed_point_error(ArithmeticOptions::fixed_point())]
#[case::fixed_point_null(
    ArithmeticOptions::fixed_point()
        .with_on_overflow(OverflowPolicy::Null)
        .with_on_divide_by_zero(OverflowPolicy::Null)
)]
#[case::fixed_point_half_even(
    ArithmeticOptions::fixed_point().with_rounding(decimal_kernels::RoundingMode::HalfEven)
)]
#[case::arrow_decimal256(ArithmeticOptions::arrow(StorageWidth::I256))]
#[case::arrow_decimal128_null(
    ArithmeticOptions::arrow(StorageWidth::I128).with_on_overflow(OverflowPolicy::Null)
)]
#[case::arrow_decimal32(ArithmeticOptions::arrow(StorageWidth::I32))]
fn extreme_stored_values_never_panic(#[case] options: ArithmeticOptions) {
    let values = EXTREME_VALUES;
    let reversed: Vec<i256> = values.iter().rev().copied().collect();
    let types = extreme_types();
    for (lhs, rhs) in types.iter().flat_map(|&l| types.iter().map(move |&r| (l, r))) {
        let a = DecimalArray::new_unchecked(lhs, ScalarBuffer::from(values.to_vec()), None);
        let b = DecimalArray::new_unchecked(rhs, ScalarBuffer::from(reversed.clone()), None);
        let (a, b) = (a.unwrap(), b.unwrap());
        for op in BinaryOp::ALL {
            let reference: Vec<_> = (0..values.len())
                .map(|i| a.scalar(i).unwrap().reference_binary(op, &b.scalar(i).unwrap(), &options))
                .collect();
            let first_failure = reference.iter().position(Result::is_err).map(|row| {
                // The scalar reference names row 0; the column call names its row.
                match reference[row].clone().unwrap_err() {
                    DecimalError::Overflow { result_type, op, lhs, rhs, .. } => {
                        DecimalError::Overflow { row, result_type, op, lhs, rhs }
                    }
                    DecimalError::DivideByZero { lhs, .. } => {
                        DecimalError::DivideByZero { row, lhs }
                    }
                    other => other,
                }
            });
            let context = format!("{lhs} {op} {rhs} under {options:?}");
            match (run(op, &a, &b, &options), first_failure) {
                (Err(got), Some(want)) => assert_eq!(got, want, "{context}"),
                (Ok(got), None) => {
                    for (row, want) in reference.iter().enumerate() {
                        let want = want.as_ref().unwrap();
                        assert_eq!(&got.scalar(row).unwrap(), want, "{context}, row {row}");
                    }
                }
                (got, want) => panic!("{context}: got {got:?}, the reference fails with {want:?}"),
            }
            // A scalar beside the column: no panic, and only a typed error.
            let x = a.scalar(0).unwrap();
            for got in [run(op, &x, &b, &options), run(op, &b, &x, &options)] {
                if let Err(e) = got {
                    assert!(
                        matches!(
                            e,
                            DecimalError::Overflow { .. }
                                | DecimalError::DivideByZero { .. }
                                | DecimalError::UnsupportedTypes { .. }
                        ),
                        "{context}: {e}"
                    );
                }
            }
        }
    }
}

/// The operators of one operand over the same extreme stored values and
/// types (each type rescaled to every other, negated and made absolute):
/// every call agrees with the exact reference, row by row or in its error
/// (never a panic, never a wrapped value), as a column and as scalars.
#[rstest]
#[case::fixed_point_error(ArithmeticOptions::fixed_point())]
#[case::fixed_point_null(ArithmeticOptions::fixed_point().with_on_overflow(OverflowPolicy::Null))]
#[case::half_even_null(
    ArithmeticOptions::fixed_point()
        .with_rounding(RoundingMode::HalfEven)
        .with_on_overflow(OverflowPolicy::Null)
)]
#[case::floor(ArithmeticOptions::fixed_point().with_rounding(RoundingMode::Floor))]
#[case::arrow_decimal256(ArithmeticOptions::arrow(StorageWidth::I256))]
#[case::arrow_decimal32_null(
    ArithmeticOptions::arrow(StorageWidth::I32).with_on_overflow(OverflowPolicy::Null)
)]
#[case::spark(ArithmeticOptions::spark())]
fn unary_extreme_stored_values_never_panic(#[case] options: ArithmeticOptions) {
    let values = EXTREME_VALUES;
    let types = extreme_types();
    for dtype in types {
        let a = DecimalArray::new_unchecked(dtype, ScalarBuffer::from(values.to_vec()), None);
        let a = a.unwrap();
        let ops =
            types.map(|to| UnaryOp::Rescale { to }).into_iter().chain([UnaryOp::Neg, UnaryOp::Abs]);
        for op in ops {
            run_unary(op, &a, &options).ok();
            for row in 0..a.len() {
                run_unary(op, &a.scalar(row).unwrap(), &options).ok();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Not errors: empty and all-null input

#[rstest]
#[case::fixed_point(ArithmeticOptions::fixed_point())]
#[case::arrow_decimal128(ArithmeticOptions::arrow(StorageWidth::I128))]
fn empty_columns_give_empty_results(#[case] options: ArithmeticOptions) {
    let dtype = dec(10, 2);
    let empty = DecimalArray::from_strs(dtype, &[]).unwrap();
    assert!(empty.is_empty());
    assert_eq!(empty.slice(0, 0).unwrap().len(), 0);
    let zero = scalar(dtype, "0");
    let null = DecimalScalar::null(dtype);
    for op in BinaryOp::ALL {
        let want = op.result_type(dtype, dtype, &options).unwrap();
        for got in [
            run(op, &empty, &empty, &options),
            run(op, &empty, &zero, &options),
            run(op, &zero, &empty, &options),
            run(op, &empty, &null, &options),
        ] {
            let got = got.unwrap();
            assert!(got.is_empty());
            assert_eq!(got.dtype(), want);
        }
    }
    for op in unary_ops() {
        let got = run_unary(op, &empty, &options).unwrap();
        assert!(got.is_empty());
        assert_eq!(got.dtype(), op.result_type(dtype));
        // A null scalar is one null row.
        assert_eq!(stored(&run_unary(op, &null, &options).unwrap()), [None]);
    }
}

/// `neg`, `abs`, and rescales that would overflow, round and append digits.
fn unary_ops() -> [UnaryOp; 5] {
    [
        UnaryOp::Neg,
        UnaryOp::Abs,
        UnaryOp::Rescale { to: dec(3, 2) },
        UnaryOp::Rescale { to: dec(9, -2) },
        UnaryOp::Rescale { to: dec(18, 6) },
    ]
}

#[rstest]
#[case::fixed_point(ArithmeticOptions::fixed_point())]
#[case::arrow_decimal64(ArithmeticOptions::arrow(StorageWidth::I64))]
fn all_null_columns_give_all_null_results(#[case] options: ArithmeticOptions) {
    let dtype = dec(5, 2);
    // Stored values under the nulls that would overflow and divide by zero.
    let nulls = Some(validity(&[false, false, false]));
    let huge = DecimalArray::try_new(dtype, ScalarBuffer::from(vec![i32::MAX; 3]), nulls.clone());
    let zeros = DecimalArray::try_new(dtype, ScalarBuffer::from(vec![0i32; 3]), nulls);
    let (huge, zeros) = (huge.unwrap(), zeros.unwrap());
    let one = scalar(dtype, "1.00");
    for op in BinaryOp::ALL {
        for got in [
            run(op, &huge, &zeros, &options),
            run(op, &huge, &huge, &options),
            run(op, &one, &zeros, &options),
            run(op, &huge, &one, &options),
        ] {
            let got = got.unwrap();
            assert_eq!(stored(&got), [None, None, None]);
        }
        // A null scalar makes every row null, whatever the column holds.
        let full = column_from_strs(dtype, &[Some("999.99"), Some("0")]);
        let got = run(op, &full, &DecimalScalar::null(dtype), &options).unwrap();
        assert_eq!(stored(&got), [None, None]);
    }
    // Unchecked values beyond the precision under the nulls: no overflow.
    let nulls = Some(validity(&[false, false]));
    let hidden =
        DecimalArray::new_unchecked(dtype, ScalarBuffer::from(vec![i32::MIN, i32::MAX]), nulls);
    for op in unary_ops() {
        for column in [&huge, &zeros, hidden.as_ref().unwrap()] {
            let got = run_unary(op, column, &options).unwrap();
            assert_eq!(got.null_count(), column.len());
        }
    }
}

// ---------------------------------------------------------------------------
// Arrow

#[cfg(feature = "arrow")]
mod arrow {
    use std::sync::Arc;

    use arrow_array::{
        Array, ArrayRef, Datum, Decimal32Array, Decimal64Array, Decimal128Array, Decimal256Array,
        Float64Array, Int32Array, Scalar, StringArray,
    };
    use arrow_schema::{ArrowError, DataType};
    use decimal_kernels::arrow::{add, decimal_type, div};

    use super::*;

    use support::outcomes::{arrow_kernel, assert_arrow_error};
    use support::types::decimal128;

    #[rstest]
    #[case::int32(Arc::new(Int32Array::from(vec![1, 2])), "Int32")]
    #[case::float64(Arc::new(Float64Array::from(vec![1.5])), "Float64")]
    #[case::utf8(Arc::new(StringArray::from(vec!["1.50"])), "Utf8")]
    fn from_arrow_not_decimal(#[case] array: ArrayRef, #[case] data_type: &str) {
        let want = DecimalError::NotDecimal { data_type: data_type.into() };
        let message = format!("expected a decimal array, found {data_type}");
        assert_error(DecimalArray::from_arrow(&array), &want, &message);
        assert_error(decimal_type(array.data_type()), &want, &message);
    }

    /// Arrow decimal types this crate has no type for.
    #[rstest]
    #[case::scale_below_minus_76(DataType::Decimal256(76, -77), 76, -77)]
    #[case::scale_i8_min(DataType::Decimal256(10, i8::MIN), 10, -128)]
    #[case::zero_precision(DataType::Decimal128(0, 0), 0, 0)]
    #[case::scale_above_precision(DataType::Decimal64(5, 6), 5, 6)]
    fn from_arrow_invalid_type(#[case] data_type: DataType, #[case] p: i32, #[case] s: i32) {
        let array = arrow_array::new_empty_array(&data_type);
        let want = DecimalError::InvalidType { precision: p, scale: s };
        let message = format!(
            "invalid decimal type decimal({p},{s}): precision must be 1..=76 and scale \
             -76..=precision"
        );
        assert_error(DecimalArray::from_arrow(&array), &want, &message);
        assert_error(decimal_type(&data_type), &want, &message);
    }

    /// Arrow types whose precision exceeds what their own width holds (which
    /// arrow-rs can construct with `with_data_type`): the storage is too narrow.
    #[rstest]
    #[case::decimal32_of_10_digits(DataType::Decimal32(10, 0), dec(10, 0), StorageWidth::I32)]
    #[case::decimal64_of_19_digits(DataType::Decimal64(19, 2), dec(19, 2), StorageWidth::I64)]
    #[case::decimal128_of_39_digits(DataType::Decimal128(39, 0), dec(39, 0), StorageWidth::I128)]
    fn from_arrow_precision_beyond_width(
        #[case] data_type: DataType,
        #[case] dtype: DecimalType,
        #[case] width: StorageWidth,
    ) {
        let array = arrow_array::new_empty_array(&data_type);
        assert_error(
            DecimalArray::from_arrow(&array),
            &DecimalError::StorageTooNarrow { dtype, width },
            &format!("{width} storage is too narrow for {dtype}"),
        );
    }

    fn mismatch(lhs: &str, op: BinaryOp, rhs: &str) -> ArrowError {
        ArrowError::InvalidArgumentError(format!(
            "Invalid arithmetic operation: {lhs} {op} {rhs}: both sides must be decimals of one \
             Arrow width (Decimal32, Decimal64, Decimal128 or Decimal256)"
        ))
    }

    #[rstest]
    #[case::add(BinaryOp::Add)]
    #[case::sub(BinaryOp::Sub)]
    #[case::mul(BinaryOp::Mul)]
    #[case::div(BinaryOp::Div)]
    fn arrow_mismatched_widths(#[case] op: BinaryOp) {
        let a = decimal128(&[Some(1)], 10, 2);
        let b = Decimal256Array::from(vec![i256::ONE]).with_precision_and_scale(10, 2).unwrap();
        let f = arrow_kernel(op);
        let want = |l: &str, r: &str| mismatch(l, op, r);
        assert_arrow_error(f(&a, &b), &want("Decimal128(10, 2)", "Decimal256(10, 2)"));
        assert_arrow_error(f(&b, &a), &want("Decimal256(10, 2)", "Decimal128(10, 2)"));
        let s = Scalar::new(b);
        assert_arrow_error(f(&a, &s), &want("Decimal128(10, 2)", "Decimal256(10, 2)"));
    }

    fn ints() -> ArrayRef {
        Arc::new(Int32Array::from(vec![1]))
    }

    fn floats() -> ArrayRef {
        Arc::new(Float64Array::from(vec![1.0]))
    }

    fn decimal32() -> ArrayRef {
        Arc::new(Decimal32Array::from(vec![1]).with_precision_and_scale(7, 2).unwrap())
    }

    fn decimal64() -> ArrayRef {
        Arc::new(Decimal64Array::from(vec![1]).with_precision_and_scale(15, 3).unwrap())
    }

    #[rstest]
    #[case::both_int32(ints(), ints(), "Int32", "Int32")]
    #[case::decimal_and_int32(decimal32(), ints(), "Decimal32(7, 2)", "Int32")]
    #[case::float_and_decimal(floats(), decimal64(), "Float64", "Decimal64(15, 3)")]
    fn arrow_non_decimals(
        #[case] lhs: ArrayRef,
        #[case] rhs: ArrayRef,
        #[case] lhs_type: &str,
        #[case] rhs_type: &str,
    ) {
        for op in BinaryOp::ALL {
            let got = arrow_kernel(op)(&lhs, &rhs);
            assert_arrow_error(got, &mismatch(lhs_type, op, rhs_type));
        }
    }

    /// Types Arrow accepts but this crate or the Arrow profile does not: an
    /// InvalidArgumentError carrying this crate's message.
    #[rstest]
    #[case::scale_below_minus_76(
        BinaryOp::Add,
        DataType::Decimal256(10, -100),
        "invalid decimal type decimal(10,-100): precision must be 1..=76 and scale -76..=precision"
    )]
    #[case::precision_beyond_width(
        BinaryOp::Sub,
        DataType::Decimal128(39, 0),
        "i128 storage is too narrow for decimal(39,0)"
    )]
    #[case::product_scale_beyond_max(
        BinaryOp::Mul,
        DataType::Decimal128(38, 20),
        "no result type for decimal(38,20) * decimal(38,20): the product's scale 40 is \
         outside -76..=38"
    )]
    fn arrow_unsupported_types(
        #[case] op: BinaryOp,
        #[case] data_type: DataType,
        #[case] message: &str,
    ) {
        let array = arrow_array::new_null_array(&data_type, 2);
        let want = ArrowError::InvalidArgumentError(message.into());
        assert_arrow_error(arrow_kernel(op)(&array, &array), &want);
    }

    /// A scalar operand without rows (which `Scalar::new` cannot build, but a
    /// `Datum` implementation can).
    struct EmptyScalar(Decimal128Array);

    impl Datum for EmptyScalar {
        fn get(&self) -> (&dyn Array, bool) {
            (&self.0, true)
        }
    }

    #[test]
    fn arrow_scalar_without_rows() {
        let empty = EmptyScalar(decimal128(&[], 10, 2));
        let a = decimal128(&[Some(1)], 10, 2);
        let want = ArrowError::InvalidArgumentError("a scalar operand has no rows".into());
        assert_arrow_error(add(&a, &empty), &want);
        assert_arrow_error(div(&empty, &a), &want);
    }

    #[rstest]
    #[case::add(BinaryOp::Add, 3, 2)]
    #[case::sub(BinaryOp::Sub, 2, 3)]
    #[case::mul(BinaryOp::Mul, 0, 1)]
    #[case::div(BinaryOp::Div, 1, 0)]
    fn arrow_different_lengths(#[case] op: BinaryOp, #[case] lhs: usize, #[case] rhs: usize) {
        let a = decimal128(&vec![Some(1); lhs], 10, 2);
        let b = decimal128(&vec![Some(1); rhs], 10, 2);
        let want = ArrowError::ComputeError(
            "Cannot perform a binary operation on arrays of different length".into(),
        );
        assert_arrow_error(arrow_kernel(op)(&a, &b), &want);
    }

    /// The first valid row whose result exceeds the result precision, with
    /// both operands and the result type in the message.
    #[rstest]
    #[case::add(
        BinaryOp::Add,
        (vec![Some(1), None, Some(99_999_999_999_999_999_999_999_999_999_999_999_999)], 38, 0),
        (vec![Some(1), Some(1), Some(1)], 38, 0),
        "Overflow happened on: 99999999999999999999999999999999999999 + 1 (row 2): the \
         result does not fit decimal(38,0)"
    )]
    #[case::sub(
        BinaryOp::Sub,
        (vec![Some(-99_999_999_999_999_999_999_999_999_999_999_999_999), Some(1)], 38, 0),
        (vec![Some(1), Some(1)], 38, 0),
        "Overflow happened on: -99999999999999999999999999999999999999 - 1 (row 0): the \
         result does not fit decimal(38,0)"
    )]
    #[case::mul(
        BinaryOp::Mul,
        (vec![Some(1), Some(10_i128.pow(19))], 38, 2),
        (vec![Some(1), Some(10_i128.pow(19))], 20, 0),
        "Overflow happened on: 100000000000000000.00 * 10000000000000000000 (row 1): the \
             result does not fit decimal(38,2)"
    )]
    #[case::div(
        BinaryOp::Div,
        (vec![Some(10_i128.pow(37)), Some(1)], 38, 0),
        (vec![Some(1), Some(1)], 38, 38),
        "Overflow happened on: 10000000000000000000000000000000000000 / \
         0.00000000000000000000000000000000000001 (row 0): the result does not fit \
         decimal(38,4)"
    )]
    fn arrow_overflow(
        #[case] op: BinaryOp,
        #[case] lhs: (Vec<Option<i128>>, u8, i8),
        #[case] rhs: (Vec<Option<i128>>, u8, i8),
        #[case] message: &str,
    ) {
        let (a, b) = (decimal128(&lhs.0, lhs.1, lhs.2), decimal128(&rhs.0, rhs.1, rhs.2));
        assert_arrow_error(
            arrow_kernel(op)(&a, &b),
            &ArrowError::ArithmeticOverflow(message.into()),
        );
    }

    #[test]
    fn arrow_divide_by_zero() {
        let a = decimal128(&[Some(100), Some(200), Some(300)], 10, 2);
        let zero_at_1 = decimal128(&[Some(100), Some(0), Some(100)], 10, 2);
        assert_arrow_error(div(&a, &zero_at_1), &ArrowError::DivideByZero);
        let zero = Scalar::new(decimal128(&[Some(0)], 10, 2));
        assert_arrow_error(div(&a, &zero), &ArrowError::DivideByZero);
        // A zero under a null row is no error: that row is null.
        let zero_under_null = decimal128(&[Some(100), None, Some(100)], 10, 2);
        let got = div(&a, &zero_under_null).unwrap();
        let got = DecimalArray::from_arrow(&got).unwrap();
        assert_eq!(got.to_strs(), [Some("1.000000".into()), None, Some("3.000000".into())]);
        let null_dividend = decimal128(&[None, None, None], 10, 2);
        assert_eq!(div(&null_dividend, &zero_at_1).unwrap().null_count(), 3);
    }

    #[rstest]
    #[case::add(BinaryOp::Add)]
    #[case::sub(BinaryOp::Sub)]
    #[case::mul(BinaryOp::Mul)]
    #[case::div(BinaryOp::Div)]
    fn arrow_empty_and_all_null_are_not_errors(#[case] op: BinaryOp) {
        let f = arrow_kernel(op);
        let empty = decimal128(&[], 10, 2);
        assert_eq!(f(&empty, &empty).unwrap().len(), 0);
        let zero = Scalar::new(decimal128(&[Some(0)], 10, 2));
        assert_eq!(f(&empty, &zero).unwrap().len(), 0);
        let nulls = decimal128(&[None, None], 10, 2);
        let got = f(&nulls, &nulls).unwrap();
        assert_eq!((got.len(), got.null_count()), (2, 2));
        let got = f(&nulls, &zero).unwrap();
        assert_eq!((got.len(), got.null_count()), (2, 2));
        let null = Scalar::new(decimal128(&[None], 10, 2));
        let full = decimal128(&[Some(99_999_999), Some(0)], 10, 2);
        let got = f(&full, &null).unwrap();
        assert_eq!((got.len(), got.null_count()), (2, 2));
    }

    /// The grouped aggregates of `decimal_kernels::arrow`, by name.
    type ArrowGrouped = fn(&dyn Array, &[usize], usize) -> Result<ArrayRef, ArrowError>;

    /// A group count no memory holds is refused by every grouped Arrow
    /// aggregate, at every width, as an `ArrowError::MemoryError`: never a
    /// panic or an abort.
    #[rstest]
    #[case::usize_max(usize::MAX)]
    #[case::half_isize_max(isize::MAX as usize / 2)]
    #[case::two_to_40(1 << 40)]
    fn arrow_group_count_beyond_memory(
        #[case] groups: usize,
        #[values(
            decimal_kernels::arrow::sum_groups,
            decimal_kernels::arrow::avg_groups,
            decimal_kernels::arrow::min_groups,
            decimal_kernels::arrow::max_groups
        )]
        f: ArrowGrouped,
    ) {
        let want = ArrowError::MemoryError(format!("cannot hold the state of {groups} groups"));
        let arrays: [ArrayRef; 4] = [
            Arc::new(Decimal32Array::from(vec![Some(150), None, Some(-225)])),
            Arc::new(Decimal64Array::from(vec![Some(150), None, Some(-225)])),
            Arc::new(decimal128(&[Some(150), None, Some(-225)], 10, 2)),
            Arc::new(Decimal256Array::from(vec![Some(i256::from(150)), None, Some(i256::MIN)])),
        ];
        for array in &arrays {
            assert_arrow_error(f(array.as_ref(), &[0, 1, 0], groups), &want);
        }
    }

    /// Any Arrow decimal type (valid or not: zero precision, precision beyond
    /// the width, scales down to -128) with the native extremes as values:
    /// every call returns a result or one of the four documented errors.
    #[test]
    fn arrow_any_type_and_value_never_panics() {
        let widths: [fn(u8, i8) -> DataType; 4] =
            [DataType::Decimal32, DataType::Decimal64, DataType::Decimal128, DataType::Decimal256];
        let mut pairs = Vec::new();
        for width in widths {
            let mut types = Vec::new();
            for p in [0, 1, 9, 10, 38, 39, 76, 77] {
                for s in [i8::MIN, -77, -76, 0, 2, 38, 77] {
                    types.push(width(p, s));
                }
            }
            let n = types.len();
            for i in 0..n {
                for j in [i, (i + 1) % n, (i + 8) % n] {
                    pairs.push((types[i].clone(), types[j].clone()));
                }
            }
        }
        let array = |data_type: &DataType| -> ArrayRef {
            let dt = data_type.clone();
            match data_type {
                DataType::Decimal32(..) => Arc::new(
                    Decimal32Array::from(vec![Some(i32::MIN), Some(i32::MAX), None, Some(0)])
                        .with_data_type(dt),
                ),
                DataType::Decimal64(..) => Arc::new(
                    Decimal64Array::from(vec![Some(i64::MIN), Some(i64::MAX), None, Some(0)])
                        .with_data_type(dt),
                ),
                DataType::Decimal128(..) => Arc::new(
                    Decimal128Array::from(vec![Some(i128::MIN), Some(i128::MAX), None, Some(0)])
                        .with_data_type(dt),
                ),
                _ => Arc::new(
                    Decimal256Array::from(vec![
                        Some(i256::MIN),
                        Some(i256::MAX),
                        None,
                        Some(i256::ZERO),
                    ])
                    .with_data_type(dt),
                ),
            }
        };
        for (l, r) in &pairs {
            let (l, r) = (array(l), array(r));
            for op in BinaryOp::ALL {
                for got in [
                    arrow_kernel(op)(&l, &r),
                    arrow_kernel(op)(&l, &Scalar::new(r.slice(0, 1))),
                    arrow_kernel(op)(&Scalar::new(l.slice(3, 1)), &r),
                ] {
                    if let Err(e) = got {
                        assert!(
                            matches!(
                                e,
                                ArrowError::InvalidArgumentError(_)
                                    | ArrowError::ArithmeticOverflow(_)
                                    | ArrowError::DivideByZero
                            ),
                            "{e:?}"
                        );
                    }
                }
            }
            let _ = DecimalArray::from_arrow(&l).map(|a| a.to_arrow());
        }
    }
}

// ---------------------------------------------------------------------------
// Aggregates

mod aggregates {
    use std::sync::Arc;

    use arrow_array::{
        ArrayRef, Decimal128Array, Decimal256Array, Int32Array, Int64Array, UInt64Array,
    };
    use arrow_buffer::{BooleanBuffer, i256};
    use decimal_kernels::aggregate::{
        Accumulator, AggregateOp, AggregateState, avg, avg_groups, max, max_groups, min,
        min_groups, sum, sum_groups,
    };
    use decimal_kernels::{
        ArithmeticOptions, DecimalArray, DecimalError, DecimalType, StorageWidth, conformance,
    };
    use num_bigint::BigInt;
    use rstest::rstest;

    use super::support::outcomes::assert_error;
    use super::support::types::{column_from_strs, dec};

    /// `op` by group (`sum_groups`, `avg_groups`), held to the reference:
    /// a bad call gets exactly the reference's error.
    #[track_caller]
    fn grouped(
        op: AggregateOp,
        values: &DecimalArray,
        groups: &[usize],
        total_groups: usize,
        options: &ArithmeticOptions,
    ) -> Result<DecimalArray, DecimalError> {
        let got = match op {
            AggregateOp::Sum => sum_groups(values, groups, total_groups, options),
            AggregateOp::Avg => avg_groups(values, groups, total_groups, options),
            AggregateOp::Min => min_groups(values, groups, total_groups, options),
            AggregateOp::Max => max_groups(values, groups, total_groups, options),
            other => panic!("no grouped function for {other}: add it here"),
        };
        let want = conformance::reference_aggregate(op, values, groups, total_groups, options);
        assert_eq!(got, want, "{op} of {} by {groups:?} under {options:?}", values.dtype());
        got
    }

    /// `op` over the whole column (`sum`, `avg`), held to the reference with
    /// every row in group 0.
    #[track_caller]
    fn whole(
        op: AggregateOp,
        values: &DecimalArray,
        options: &ArithmeticOptions,
    ) -> Result<String, DecimalError> {
        let got = match op {
            AggregateOp::Sum => sum(values, options),
            AggregateOp::Avg => avg(values, options),
            AggregateOp::Min => min(values, options),
            AggregateOp::Max => max(values, options),
            other => panic!("no whole-column function for {other}: add it here"),
        };
        let zeros = vec![0; values.len()];
        let want = conformance::reference_aggregate(op, values, &zeros, 1, options);
        let want = want.map(|a| a.to_strs().remove(0).unwrap_or_else(|| "NULL".into()));
        let got = got.map(|s| if s.is_null() { "NULL".into() } else { s.to_string() });
        assert_eq!(got, want, "{op} of {} under {options:?}", values.dtype());
        got
    }

    fn money() -> DecimalArray {
        column_from_strs(dec(10, 2), &[Some("1.50"), None, Some("-2.25"), Some("4.00")])
    }

    /// An accumulator of `op` over `decimal(10,2)` holding `money()` in two
    /// groups.
    #[track_caller]
    fn holding_money(op: AggregateOp) -> Accumulator {
        let mut acc = Accumulator::new(op, dec(10, 2), &ArithmeticOptions::default()).unwrap();
        acc.update(&money(), &[0, 1, 1, 0], None, 2).unwrap();
        acc
    }

    /// `acc`'s results so far, leaving it as it is.
    #[track_caller]
    fn results(acc: &Accumulator) -> Vec<Option<String>> {
        acc.clone().finish(None).expect("the results fit").to_strs()
    }

    #[rstest]
    #[case::first_row(&[2, 0, 1, 0], 2, 0, 2)]
    #[case::first_of_two_bad_rows(&[0, 1, 5, 9], 2, 2, 5)]
    #[case::last_row(&[0, 0, 1, 3], 3, 3, 3)]
    #[case::usize_max(&[0, usize::MAX, 1, 1], 2, 1, usize::MAX)]
    #[case::no_groups(&[0, 0, 0, 0], 0, 0, 0)]
    fn group_out_of_range(
        #[case] groups: &[usize],
        #[case] total_groups: usize,
        #[case] row: usize,
        #[case] group: usize,
        #[values(AggregateOp::Sum, AggregateOp::Avg)] op: AggregateOp,
    ) {
        let want = DecimalError::GroupOutOfRange { row, group, total_groups };
        let message =
            format!("row {row} belongs to group {group}, beyond the {total_groups} groups");
        let options = ArithmeticOptions::default();
        assert_error(grouped(op, &money(), groups, total_groups, &options), &want, &message);
        // An accumulator that already holds values (in one group, if there
        // are any): nothing changes, not even its number of groups.
        let mut acc = Accumulator::new(op, dec(10, 2), &options).unwrap();
        let held = total_groups.min(1);
        acc.update(&money(), &vec![0; 4 * held], None, held).unwrap_or_default();
        let before = (acc.groups(), results(&acc));
        assert_error(acc.update(&money(), groups, None, total_groups), &want, &message);
        assert_eq!((acc.groups(), results(&acc)), before, "a failed update adds nothing");
    }

    /// Group counts no memory holds, for every grouped entry point: a
    /// `Vec` cannot count their bytes (`usize::MAX`, half of `isize::MAX`)
    /// or no allocator can give them (`2^40` groups, terabytes of state).
    /// Each is refused with an error, never a panic or an abort, and an
    /// accumulator that refuses it keeps its groups and values.
    #[rstest]
    #[case::usize_max(usize::MAX)]
    #[case::half_isize_max(isize::MAX as usize / 2)]
    #[case::two_to_40(1 << 40)]
    fn group_count_beyond_memory(
        #[case] total_groups: usize,
        #[values(AggregateOp::Sum, AggregateOp::Avg, AggregateOp::Min, AggregateOp::Max)]
        op: AggregateOp,
    ) {
        let want = DecimalError::TooManyGroups { groups: total_groups };
        let message = format!("cannot hold the state of {total_groups} groups");
        let options = ArithmeticOptions::default();
        assert_error(grouped(op, &money(), &[0, 1, 1, 0], total_groups, &options), &want, &message);
        let mut acc = holding_money(op);
        let before = (acc.groups(), results(&acc));
        assert_error(acc.update(&money(), &[0, 1, 1, 0], None, total_groups), &want, &message);
        assert_eq!((acc.groups(), results(&acc)), before, "a refused update adds nothing");
        let state = holding_money(op).state(None);
        assert_error(acc.merge(&state, &[1, 0], total_groups), &want, &message);
        assert_eq!((acc.groups(), results(&acc)), before, "a refused merge adds nothing");
    }

    #[rstest]
    #[case::fewer_groups(&[0, 1, 0])]
    #[case::more_groups(&[0, 1, 0, 1, 1])]
    #[case::none(&[])]
    fn group_indices_of_another_length(#[case] groups: &[usize]) {
        let want = DecimalError::LengthMismatch { expected: 4, actual: groups.len() };
        let message = format!("length mismatch: expected 4 rows, found {}", groups.len());
        for op in AggregateOp::ALL {
            let options = ArithmeticOptions::default();
            assert_error(grouped(op, &money(), groups, 2, &options), &want, &message);
            let mut acc = holding_money(op);
            let before = results(&acc);
            assert_error(acc.update(&money(), groups, None, 2), &want, &message);
            assert_eq!(results(&acc), before);
        }
    }

    #[rstest]
    #[case::shorter(3)]
    #[case::longer(5)]
    #[case::empty(0)]
    fn filter_of_another_length(#[case] len: usize) {
        let filter = BooleanBuffer::from(vec![true; len]);
        let mut acc = holding_money(AggregateOp::Sum);
        let before = results(&acc);
        assert_error(
            acc.update(&money(), &[0, 1, 0, 1], Some(&filter), 2),
            &DecimalError::LengthMismatch { expected: 4, actual: len },
            &format!("length mismatch: expected 4 rows, found {len}"),
        );
        assert_eq!(results(&acc), before);
    }

    #[rstest]
    #[case::other_scale(dec(10, 3))]
    #[case::wider_precision(dec(11, 2))]
    #[case::negative_scale(dec(10, -2))]
    #[case::p76(dec(76, 2))]
    fn values_of_another_type(#[case] actual: DecimalType) {
        let values = DecimalArray::from_strs(actual, &[Some("0"), None]).unwrap();
        for op in AggregateOp::ALL {
            let mut acc = holding_money(op);
            let before = results(&acc);
            assert_error(
                acc.update(&values, &[0, 1], None, 2),
                &DecimalError::TypeMismatch { expected: dec(10, 2), actual },
                &format!("expected values of decimal(10,2), found {actual}"),
            );
            assert_eq!(results(&acc), before);
        }
    }

    /// A narrower precision at the same scale is the same values: accepted,
    /// and summed as the input type's.
    #[test]
    fn values_of_a_narrower_precision_are_accepted() {
        let narrow = column_from_strs(dec(3, 2), &[Some("9.99"), Some("-1.00"), None]);
        let mut acc = holding_money(AggregateOp::Sum);
        acc.update(&narrow, &[1, 1, 0], None, 2).unwrap();
        assert_eq!(acc.finish(None).unwrap().to_strs(), [Some("5.50".into()), Some("6.74".into())]);
    }

    /// What a state's arrays may be.
    const STATE_SHAPES: &str = "a state has three arrays (sum, sum_high, count), a Decimal128 sum and an optional count (of an input of at most 18 digits), or one extreme (min or max)";

    /// The three arrays of a state for `decimal(10,2)` holding `sums`
    /// (stored at scale 2) and `counts`.
    fn state_arrays(sums: &[i128], highs: &[i64], counts: &[u64]) -> Vec<ArrayRef> {
        let sums: Vec<i256> = sums.iter().map(|&s| i256::from_i128(s)).collect();
        vec![
            Arc::new(Decimal256Array::from(sums).with_precision_and_scale(76, 2).unwrap()),
            Arc::new(Int64Array::from(highs.to_vec())),
            Arc::new(UInt64Array::from(counts.to_vec())),
        ]
    }

    #[rstest]
    #[case::no_arrays(vec![], STATE_SHAPES)]
    #[case::two_arrays(state_arrays(&[1], &[0], &[1])[..2].to_vec(), STATE_SHAPES)]
    #[case::four_arrays(
        [state_arrays(&[1], &[0], &[1]), state_arrays(&[1], &[0], &[1])[..1].to_vec()].concat(),
        STATE_SHAPES
    )]
    #[case::sum_as_decimal128(
        vec![
            Arc::new(Decimal128Array::from(vec![1i128]).with_precision_and_scale(38, 2).unwrap()) as ArrayRef,
            Arc::new(Int64Array::from(vec![0i64])),
            Arc::new(UInt64Array::from(vec![1u64])),
        ],
        "sum is Decimal128(38, 2), not Decimal256(76, 2)"
    )]
    #[case::sum_of_another_scale(
        vec![
            Arc::new(Decimal256Array::from(vec![i256::ONE]).with_precision_and_scale(76, 3).unwrap()) as ArrayRef,
            Arc::new(Int64Array::from(vec![0i64])),
            Arc::new(UInt64Array::from(vec![1u64])),
        ],
        "sum is Decimal256(76, 3), not Decimal256(76, 2)"
    )]
    #[case::sum_high_as_int32(
        vec![
            state_arrays(&[1], &[0], &[1])[0].clone(),
            Arc::new(Int32Array::from(vec![0])) as ArrayRef,
            Arc::new(UInt64Array::from(vec![1u64])),
        ],
        "sum_high is Int32, not Int64"
    )]
    #[case::count_as_int64(
        vec![
            state_arrays(&[1], &[0], &[1])[0].clone(),
            Arc::new(Int64Array::from(vec![0i64])) as ArrayRef,
            Arc::new(Int64Array::from(vec![1i64])),
        ],
        "count is Int64, not UInt64"
    )]
    #[case::count_with_a_null(
        vec![
            state_arrays(&[1, 2], &[0, 0], &[1, 1])[0].clone(),
            Arc::new(Int64Array::from(vec![0i64, 0])) as ArrayRef,
            Arc::new(UInt64Array::from(vec![Some(1u64), None])),
        ],
        "count has nulls or another length"
    )]
    #[case::sum_with_a_null(
        vec![
            Arc::new(Decimal256Array::from(vec![None, Some(i256::ONE)]).with_precision_and_scale(76, 2).unwrap()) as ArrayRef,
            Arc::new(Int64Array::from(vec![0i64, 0])),
            Arc::new(UInt64Array::from(vec![1u64, 1])),
        ],
        "sum has nulls or another length"
    )]
    #[case::sum_high_shorter(
        vec![
            state_arrays(&[1, 2], &[0, 0], &[1, 1])[0].clone(),
            Arc::new(Int64Array::from(vec![0i64])) as ArrayRef,
            Arc::new(UInt64Array::from(vec![1u64, 1])),
        ],
        "sum_high has nulls or another length"
    )]
    #[case::count_longer(
        vec![
            state_arrays(&[1], &[0], &[1])[0].clone(),
            Arc::new(Int64Array::from(vec![0i64])) as ArrayRef,
            Arc::new(UInt64Array::from(vec![1u64, 1])),
        ],
        "count has nulls or another length"
    )]
    fn state_arrays_that_are_not_a_state(#[case] arrays: Vec<ArrayRef>, #[case] reason: &str) {
        assert_error(
            AggregateState::from_arrow(dec(10, 2), &arrays),
            &DecimalError::InvalidState { reason: reason.into() },
            &format!("invalid aggregate state: {reason}"),
        );
    }

    /// The compact state of `decimal(10,2)`: sums (null for none) and, for
    /// `avg`, counts.
    fn compact_arrays(sums: &[Option<i128>], counts: Option<&[u64]>) -> Vec<ArrayRef> {
        let sum = Decimal128Array::from(sums.to_vec()).with_precision_and_scale(38, 2).unwrap();
        let mut arrays: Vec<ArrayRef> = vec![Arc::new(sum)];
        arrays.extend(counts.map(|c| Arc::new(UInt64Array::from(c.to_vec())) as ArrayRef));
        arrays
    }

    #[rstest]
    #[case::sum_of_another_precision(
        vec![Arc::new(Decimal128Array::from(vec![1i128]).with_precision_and_scale(18, 2).unwrap()) as ArrayRef],
        "sum is Decimal128(18, 2), not Decimal128(38, 2)"
    )]
    #[case::sum_of_another_scale(
        vec![Arc::new(Decimal128Array::from(vec![1i128]).with_precision_and_scale(38, 3).unwrap()) as ArrayRef],
        "sum is Decimal128(38, 3), not Decimal128(38, 2)"
    )]
    #[case::count_as_int64(
        vec![compact_arrays(&[Some(1)], None)[0].clone(), Arc::new(Int64Array::from(vec![1i64])) as ArrayRef],
        "count is Int64, not UInt64"
    )]
    #[case::count_with_a_null(
        vec![compact_arrays(&[Some(1), Some(2)], None)[0].clone(), Arc::new(UInt64Array::from(vec![Some(1u64), None])) as ArrayRef],
        "count has nulls or another length"
    )]
    #[case::count_shorter(
        vec![compact_arrays(&[Some(1), Some(2)], None)[0].clone(), Arc::new(UInt64Array::from(vec![1u64])) as ArrayRef],
        "count has nulls or another length"
    )]
    fn compact_arrays_that_are_not_a_state(#[case] arrays: Vec<ArrayRef>, #[case] reason: &str) {
        assert_error(
            AggregateState::from_arrow(dec(10, 2), &arrays),
            &DecimalError::InvalidState { reason: reason.into() },
            &format!("invalid aggregate state: {reason}"),
        );
    }

    /// Compact states no rows add up to: a sum without rows, a count beyond
    /// `2^60`. The parts before the refused one are merged.
    #[rstest]
    #[case::sum_without_rows(vec![Some(150), Some(1)], Some(vec![2, 0]), "0.75")]
    #[case::count_beyond_2_to_60(vec![Some(150), Some(1)], Some(vec![2, (1 << 60) + 1]), "0.75")]
    fn fabricated_compact_states_are_refused(
        #[case] sums: Vec<Option<i128>>,
        #[case] counts: Option<Vec<u64>>,
        #[case] merged: &str,
    ) {
        let op = if counts.is_some() { AggregateOp::Avg } else { AggregateOp::Sum };
        let t = dec(10, 2);
        let state =
            AggregateState::from_arrow(t, &compact_arrays(&sums, counts.as_deref())).unwrap();
        let mut acc = Accumulator::new(op, t, &ArithmeticOptions::default()).unwrap();
        let groups: Vec<usize> = (0..sums.len()).map(|i| usize::from(i == 0)).collect();
        assert_error(
            acc.merge(&state, &groups, 2),
            &DecimalError::InvalidState { reason: "a part is not a sum and count of rows".into() },
            "invalid aggregate state: a part is not a sum and count of rows",
        );
        // Part 0 went into group 1 first.
        assert_eq!(acc.finish(None).unwrap().to_strs(), [None, Some(merged.into())]);
    }

    /// Compact parts whose sum leaves `i128` (values beyond the declared
    /// precision) add up exactly: the group's result is the overflow of its
    /// exact sum.
    #[test]
    fn compact_parts_beyond_i128_sum_exactly() {
        let t = dec(10, 2);
        let arrays = compact_arrays(&[Some(i128::MAX), Some(i128::MAX), Some(-5)], None);
        let state = AggregateState::from_arrow(t, &arrays).unwrap();
        let mut acc = Accumulator::new(AggregateOp::Sum, t, &ArithmeticOptions::default()).unwrap();
        acc.merge(&state, &[0, 0, 1], 2).unwrap();
        let exact = BigInt::from(i128::MAX) * 2;
        let value = format!("{}.{}", &exact / 100, &exact % 100);
        let want = DecimalError::AggregateOverflow {
            group: 0,
            result_type: dec(20, 2),
            op: AggregateOp::Sum,
            value,
        };
        assert_eq!(acc.finish(None).map(|a| a.to_strs()), Err(want));
    }

    /// `value * 2^exp` as a state row `(sum, sum_high)` at scale 2:
    /// `sum_high * 10^76 + sum`.
    fn split(value: &BigInt) -> (i256, i64) {
        let p76 = BigInt::from(10).pow(76);
        let high = value / &p76;
        let low = value - &high * &p76;
        (i256::from_string(&low.to_string()).unwrap(), i64::try_from(high).unwrap())
    }

    /// A state for `dtype` from exact sums and counts.
    fn state_of(dtype: DecimalType, rows: &[(BigInt, u64)]) -> AggregateState {
        let (lows, highs): (Vec<i256>, Vec<i64>) = rows.iter().map(|(v, _)| split(v)).unzip();
        let counts: Vec<u64> = rows.iter().map(|&(_, c)| c).collect();
        let arrays: Vec<ArrayRef> = vec![
            Arc::new(
                Decimal256Array::from(lows).with_precision_and_scale(76, dtype.scale()).unwrap(),
            ),
            Arc::new(Int64Array::from(highs)),
            Arc::new(UInt64Array::from(counts)),
        ];
        AggregateState::from_arrow(dtype, &arrays).expect("arrays of a state's types")
    }

    fn pow2(k: u32) -> BigInt {
        BigInt::from(1) << k
    }

    /// States no rows add up to: their row is refused, the rows before it
    /// are merged.
    #[rstest]
    #[case::count_beyond_2_to_60(pow2(10), (1 << 60) + 1)]
    #[case::count_u64_max(BigInt::from(0), u64::MAX)]
    #[case::sum_without_rows(BigInt::from(1), 0)]
    #[case::negative_sum_without_rows(BigInt::from(-100), 0)]
    #[case::one_row_past_2_to_255(pow2(255) + 1, 1)]
    #[case::one_row_below_minus_2_to_255(-pow2(255) - 1, 1)]
    #[case::one_row_of_2_to_256(pow2(256), 1)]
    #[case::three_rows_past_their_bound(pow2(255) * 3 + 1, 3)]
    #[case::sum_high_extreme(BigInt::from(i64::MAX) * BigInt::from(10).pow(76), 1000)]
    #[case::sum_high_most_negative(BigInt::from(i64::MIN) * BigInt::from(10).pow(76), 1000)]
    fn fabricated_states_are_refused(#[case] sum: BigInt, #[case] count: u64) {
        let t = dec(10, 2);
        let state = state_of(t, &[(BigInt::from(150), 2), (sum, count)]);
        // The aggregates whose states are sums.
        for op in [AggregateOp::Sum, AggregateOp::Avg] {
            let mut acc = Accumulator::new(op, t, &ArithmeticOptions::default()).unwrap();
            assert_error(
                acc.merge(&state, &[1, 0], 2),
                &DecimalError::InvalidState {
                    reason: "row 1 is not a sum and count of rows".into(),
                },
                "invalid aggregate state: row 1 is not a sum and count of rows",
            );
            // Row 0 (1.50 over two rows) went into group 1 first.
            let want = if op == AggregateOp::Sum { "1.50" } else { "0.75" };
            assert_eq!(acc.finish(None).unwrap().to_strs(), [None, Some(want.into())]);
        }
    }

    /// The extremes rows can reach are accepted: `count * 2^255` in
    /// magnitude, at the count limit.
    #[rstest]
    #[case::one_row_at_2_to_255(-pow2(255), 1)]
    #[case::three_rows_at_their_bound(pow2(255) * 3, 3)]
    #[case::count_at_2_to_60(pow2(60) * (pow2(255) - 1), 1 << 60)]
    #[case::empty(BigInt::from(0), 0)]
    fn extreme_states_are_merged(#[case] sum: BigInt, #[case] count: u64) {
        let t = dec(76, 0);
        let mut acc = Accumulator::new(AggregateOp::Sum, t, &ArithmeticOptions::default()).unwrap();
        acc.merge(&state_of(t, &[(sum.clone(), count)]), &[0], 1).unwrap();
        let got = acc.finish(None);
        let want = if count == 0 {
            Ok(vec![None])
        } else {
            Err(DecimalError::AggregateOverflow {
                group: 0,
                result_type: t,
                op: AggregateOp::Sum,
                value: sum.to_string(),
            })
        };
        assert_eq!(got.map(|a| a.to_strs()), want);
    }

    /// The largest states the kernels accept keep their exact sum through
    /// `state` and `to_arrow`: parts of `2^58` rows of `i256::MAX` merged
    /// until the count limit refuses one, exported, read back and merged
    /// again overflow with the exact sum. (With up to `2^62` rows, the
    /// exported `sum_high` went past `i64` and was written as 0.)
    #[test]
    fn the_largest_states_survive_a_round_trip() {
        let t = dec(76, 0);
        let options = ArithmeticOptions::default();
        let count = 1u64 << 58;
        let part: BigInt = BigInt::from(count) * (pow2(255) - 1);
        let mut acc = Accumulator::new(AggregateOp::Sum, t, &options).unwrap();
        let mut merged = 0u32;
        for _ in 0..8 {
            match acc.merge(&state_of(t, &[(part.clone(), count)]), &[0], 1) {
                Ok(()) => merged += 1,
                Err(e) => {
                    assert!(matches!(e, DecimalError::InvalidState { .. }), "{e}");
                    break;
                }
            }
        }
        assert_eq!(merged, 4, "2^60 rows at most");
        let exported = AggregateState::from_arrow(t, &acc.state(None).to_arrow()).unwrap();
        let mut again = Accumulator::new(AggregateOp::Sum, t, &options).unwrap();
        again.merge(&exported, &[0], 1).unwrap();
        let want = DecimalError::AggregateOverflow {
            group: 0,
            result_type: t,
            op: AggregateOp::Sum,
            value: (part * merged).to_string(),
        };
        assert_eq!(again.finish(None), Err(want));
    }

    #[rstest]
    #[case::higher_scale(dec(10, 3))]
    #[case::lower_scale(dec(10, 1))]
    #[case::negative_scale(dec(10, -2))]
    fn merge_of_a_state_of_another_scale(#[case] other: DecimalType) {
        let options = ArithmeticOptions::default();
        let mut from = Accumulator::new(AggregateOp::Sum, other, &options).unwrap();
        from.update(&DecimalArray::from_strs(other, &[Some("0")]).unwrap(), &[0], None, 1).unwrap();
        let state = from.state(None);
        for op in AggregateOp::ALL {
            let mut acc = holding_money(op);
            let before = results(&acc);
            assert_error(
                acc.merge(&state, &[0], 2),
                &DecimalError::TypeMismatch { expected: dec(10, 2), actual: other },
                &format!("expected values of decimal(10,2), found {other}"),
            );
            assert_eq!(results(&acc), before);
        }
        // Another precision at the same scale merges.
        let mut acc = holding_money(AggregateOp::Sum);
        let wide = Accumulator::new(AggregateOp::Sum, dec(38, 2), &options).unwrap().state(None);
        acc.merge(&wide, &[], 2).unwrap();
    }

    #[rstest]
    #[case::group_beyond(&[0, 2], 2, 1, 2)]
    #[case::no_groups(&[0, 0], 0, 0, 0)]
    fn merge_into_a_group_out_of_range(
        #[case] groups: &[usize],
        #[case] total_groups: usize,
        #[case] row: usize,
        #[case] group: usize,
    ) {
        let state = holding_money(AggregateOp::Sum).state(None);
        let mut acc =
            Accumulator::new(AggregateOp::Sum, dec(10, 2), &ArithmeticOptions::default()).unwrap();
        assert_error(
            acc.merge(&state, groups, total_groups),
            &DecimalError::GroupOutOfRange { row, group, total_groups },
            &format!("row {row} belongs to group {group}, beyond the {total_groups} groups"),
        );
        assert_error(
            acc.merge(&state, &groups[..1], total_groups),
            &DecimalError::LengthMismatch { expected: 2, actual: 1 },
            "length mismatch: expected 2 rows, found 1",
        );
    }

    #[rstest]
    #[case::presto_precision_39(
        ArithmeticOptions::presto(),
        dec(39, 0),
        "Presto and Trino have no precision above 38"
    )]
    #[case::presto_negative_scale(ArithmeticOptions::presto(), dec(10, -2), "Presto and Trino have no negative scale")]
    #[case::spark_precision_39(
        ArithmeticOptions::spark(),
        dec(39, 2),
        "Spark has no precision above 38"
    )]
    #[case::spark_precision_76(
        ArithmeticOptions::spark_no_precision_loss(),
        dec(76, 0),
        "Spark has no precision above 38"
    )]
    #[case::arrow_i8(
        ArithmeticOptions::arrow(StorageWidth::I8),
        dec(2, 0),
        "Arrow has no i8 decimal"
    )]
    #[case::arrow_i16(
        ArithmeticOptions::arrow(StorageWidth::I16),
        dec(4, 1),
        "Arrow has no i16 decimal"
    )]
    #[case::arrow_i32_input_too_wide(
        ArithmeticOptions::arrow(StorageWidth::I32),
        dec(10, 2),
        "the precision exceeds 9, the most of i32"
    )]
    #[case::arrow_i64_input_too_wide(
        ArithmeticOptions::arrow(StorageWidth::I64),
        dec(19, 0),
        "the precision exceeds 18, the most of i64"
    )]
    #[case::arrow_i128_input_too_wide(
        ArithmeticOptions::arrow(StorageWidth::I128),
        dec(39, 0),
        "the precision exceeds 38, the most of i128"
    )]
    fn profile_without_an_aggregate(
        #[case] options: ArithmeticOptions,
        #[case] input: DecimalType,
        #[case] reason: &str,
        #[values(AggregateOp::Sum, AggregateOp::Avg)] op: AggregateOp,
    ) {
        let want = DecimalError::UnsupportedAggregate { op, input, reason: reason.into() };
        let message = format!("no {op} of {input}: {reason}");
        let values = DecimalArray::from_strs(input, &[Some("0"), None]).unwrap();
        assert_error(grouped(op, &values, &[0, 0], 1, &options), &want, &message);
        assert_error(whole(op, &values, &options), &want, &message);
        assert_error(Accumulator::new(op, input, &options), &want, &message);
        assert_error(op.result_type(input, &options), &want, &message);
    }

    /// No Arrow width is too narrow for an aggregate it accepts: the result
    /// types are capped at the width's precision, stored at the width.
    #[rstest]
    #[case::i32(StorageWidth::I32)]
    #[case::i64(StorageWidth::I64)]
    #[case::i128(StorageWidth::I128)]
    #[case::i256(StorageWidth::I256)]
    fn arrow_results_fit_their_width(#[case] width: StorageWidth) {
        let options = ArithmeticOptions::arrow(width);
        let most = width.max_precision();
        for input in
            [dec(1, 0), dec(most, 0), dec(most, i8::try_from(most).unwrap()), dec(most, -5)]
        {
            let values = DecimalArray::from_strs(input, &[Some("0")]).unwrap();
            for op in AggregateOp::ALL {
                let got = grouped(op, &values, &[0], 1, &options).unwrap();
                assert_eq!(got.width(), width, "{op} of {input}");
            }
        }
    }

    /// What looks odd but is not an error: empty and all-null columns, no
    /// groups, emitting more groups than there are, an empty state.
    #[test]
    fn empty_inputs_are_not_errors() {
        let t = dec(10, 2);
        let options = ArithmeticOptions::default();
        let empty = DecimalArray::from_strs(t, &[]).unwrap();
        let nulls = DecimalArray::from_strs(t, &[None, None]).unwrap();
        for op in AggregateOp::ALL {
            assert_eq!(whole(op, &empty, &options), Ok("NULL".into()));
            assert_eq!(whole(op, &nulls, &options), Ok("NULL".into()));
            assert_eq!(grouped(op, &empty, &[], 0, &options).map(|a| a.len()), Ok(0));
            assert_eq!(grouped(op, &nulls, &[1, 1], 3, &options).map(|a| a.null_count()), Ok(3));
            let mut acc = Accumulator::new(op, t, &options).unwrap();
            assert_eq!(acc.finish(Some(5)).map(|a| a.len()), Ok(0));
            assert!(acc.state(None).is_empty());
            acc.merge(&acc.clone().state(Some(0)), &[], 4).unwrap();
            assert_eq!(acc.groups(), 4);
            assert_eq!(acc.finish(Some(usize::MAX)).map(|a| a.null_count()), Ok(4));
            assert_eq!(acc.groups(), 0);
        }
    }
}
