//! Arrow interop by example: zero-copy conversions (proven by buffer
//! pointers, sliced arrays included), the arrow-arith-compatible operators on
//! the Arrow worked examples of `docs/semantics.md`, scalars, nulls, errors,
//! and the two documented differences from arrow-arith; `arrow::rem` and
//! `arrow::cast` beside arrow-arith and arrow-cast at every width (scalars on
//! either side, nulls, sliced arrays, ties, overflow under `safe` true and
//! false, and the casts passed on to arrow-cast).

#![cfg(feature = "arrow")]

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, Decimal32Array, Decimal256Array, Float64Array, Int32Array,
    Scalar,
};
use arrow_buffer::i256;
use arrow_cast::CastOptions;
use arrow_schema::{ArrowError, DataType};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalType, DecimalValues,
    OverflowPolicy, Semantics, StorageWidth, arrow, binary, binary_to,
};
use rstest::rstest;
use support::outcomes::{arrow_arith, arrow_kernel};
use support::types::{ARROW_WIDTHS, checked_column, column_from_strs, dec, decimal128};
use support::values::{Kind, Mix, Rng};

/// An Arrow array of `data_type` (a decimal of `width`) with 100 rows of
/// money and edge values, a third of them null.
fn arrow_array(data_type: &DataType, width: StorageWidth) -> ArrayRef {
    let (dtype, _) = arrow::decimal_type(data_type).expect("a decimal type");
    let mix = Mix {
        kinds: &[(Kind::Money, 6), (Kind::Zero, 1), (Kind::Max, 1), (Kind::Unit, 1)],
        null_percent: 33,
    };
    Rng::new(0xA770_1E55).rows(dtype, width, 100, &mix).checked(dtype, width).to_arrow()
}

/// The address of the first value of a primitive array of `T`, and of its
/// validity bytes with the bit offset.
#[track_caller]
fn buffers<T: ArrowPrimitiveType>(
    array: &dyn Array,
) -> (*const T::Native, Option<(*const u8, usize)>) {
    let values = array.as_primitive::<T>().values().as_ptr();
    let nulls = array.nulls().map(|n| (n.buffer().as_ptr(), n.offset()));
    (values, nulls)
}

#[rstest]
#[case::decimal32(DataType::Decimal32(9, 2), StorageWidth::I32)]
#[case::decimal64(DataType::Decimal64(18, 2), StorageWidth::I64)]
#[case::decimal128(DataType::Decimal128(38, 2), StorageWidth::I128)]
#[case::decimal256(DataType::Decimal256(76, 2), StorageWidth::I256)]
fn conversions_share_buffers(
    #[case] data_type: DataType,
    #[case] width: StorageWidth,
    #[values(false, true)] sliced: bool,
) {
    fn check<T: ArrowPrimitiveType>(data_type: DataType, width: StorageWidth, sliced: bool) {
        let whole = arrow_array(&data_type, width);
        let input = if sliced { whole.slice(7, 50) } else { whole };
        let decimals = DecimalArray::from_arrow(input.as_ref()).unwrap();
        assert_eq!(decimals.width(), width);
        assert_eq!(decimals.len(), input.len());
        assert_eq!(decimals.null_count(), input.null_count());
        let output = decimals.to_arrow();
        assert_eq!(output.data_type(), &data_type);
        assert_eq!(buffers::<T>(output.as_ref()), buffers::<T>(input.as_ref()));
        assert_eq!(output.as_ref(), input.as_ref());
    }
    match width {
        StorageWidth::I32 => check::<Decimal32Type>(data_type, width, sliced),
        StorageWidth::I64 => check::<Decimal64Type>(data_type, width, sliced),
        StorageWidth::I128 => check::<Decimal128Type>(data_type, width, sliced),
        _ => check::<Decimal256Type>(data_type, width, sliced),
    }
}

#[test]
fn values_follow_the_slice() {
    let whole = decimal128(&[Some(100), None, Some(-250), Some(7)], 5, 2);
    let sliced = whole.slice(1, 3);
    let decimals = DecimalArray::from_arrow(&sliced).unwrap();
    assert_eq!(decimals.to_strs(), [None, Some("-2.50".into()), Some("0.07".into())]);
    let DecimalValues::I128(values) = decimals.values() else { panic!("i128 storage") };
    assert_eq!(values.as_ptr(), whole.values().as_ptr().wrapping_add(1));
}

#[rstest]
#[case::i8_storage(dec(2, 1), &[Some("1.5"), None, Some("-9.9")], "Decimal32(2, 1)")]
#[case::i16_storage(dec(4, 0), &[Some("9999"), Some("-1")], "Decimal32(4, 0)")]
#[case::i64_storage(dec(12, 3), &[Some("1.250"), None], "Decimal64(12, 3)")]
#[case::negative_scale(dec(5, -2), &[Some("500")], "Decimal32(5, -2)")]
fn narrow_storage_becomes_decimal32(
    #[case] dtype: DecimalType,
    #[case] texts: &[Option<&str>],
    #[case] arrow_type: &str,
) {
    let a = DecimalArray::from_strs(dtype, texts).unwrap();
    let out = a.to_arrow();
    assert_eq!(out.data_type().to_string(), arrow_type);
    assert_eq!(DecimalArray::from_arrow(out.as_ref()).unwrap(), a);
}

#[test]
fn out_of_precision_values_are_kept() {
    // Arrow does not check values against the precision; neither does the conversion.
    let arrow = Decimal32Array::from(vec![12_345]).with_precision_and_scale(2, 0).unwrap();
    let a = DecimalArray::from_arrow(&arrow).unwrap();
    assert!(!a.is_checked());
    assert_eq!(a.to_strs(), [Some("12345".into())]);
}

#[rstest]
#[case::int32(Arc::new(Int32Array::from(vec![1])) as ArrayRef, "Int32")]
#[case::float64(Arc::new(Float64Array::from(vec![1.0])) as ArrayRef, "Float64")]
fn non_decimal_arrays_are_rejected(#[case] array: ArrayRef, #[case] name: &str) {
    assert_eq!(
        DecimalArray::from_arrow(array.as_ref()).unwrap_err(),
        DecimalError::NotDecimal { data_type: name.into() }
    );
    let err = arrow::add(&array, &array).unwrap_err();
    assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
}

#[test]
fn scale_below_minus_76_is_rejected_without_panic() {
    let arrow = Decimal256Array::from(vec![i256::ONE]).with_precision_and_scale(10, -100).unwrap();
    assert!(matches!(
        DecimalArray::from_arrow(&arrow),
        Err(DecimalError::InvalidType { precision: 10, scale: -100 })
    ));
    assert!(matches!(arrow::add(&arrow, &arrow), Err(ArrowError::InvalidArgumentError(_))));
}

// The Arrow worked examples of docs/semantics.md#examples, with arrow-arith beside.
#[rstest]
#[case::mul_same(BinaryOp::Mul, (50, 10, 2), (10, 10, 2), (21, 4), 500)]
#[case::div_same(BinaryOp::Div, (1000, 10, 2), (10, 10, 2), (16, 6), 100_000_000)]
#[case::div_third(BinaryOp::Div, (100, 10, 2), (300, 10, 2), (16, 6), 333_333)]
#[case::div_negative(BinaryOp::Div, (-200, 10, 2), (300, 10, 2), (16, 6), -666_666)]
#[case::add_mixed(BinaryOp::Add, (125, 10, 2), (1, 5, 3), (12, 3), 1251)]
#[case::mul_mixed(BinaryOp::Mul, (125, 10, 2), (1, 5, 3), (16, 5), 125)]
#[case::div_mixed(BinaryOp::Div, (125, 10, 2), (1, 5, 3), (17, 6), 1_250_000_000)]
#[case::div_mixed_reversed(BinaryOp::Div, (1, 5, 3), (125, 10, 2), (11, 7), 8000)]
fn worked_examples(
    #[case] op: BinaryOp,
    #[case] lhs: (i128, u8, i8),
    #[case] rhs: (i128, u8, i8),
    #[case] result: (u8, i8),
    #[case] value: i128,
) {
    let l = decimal128(&[Some(lhs.0), None], lhs.1, lhs.2);
    let r = decimal128(&[Some(rhs.0), Some(rhs.0)], rhs.1, rhs.2);
    let got = arrow_kernel(op)(&l, &r).unwrap();
    assert_eq!(got.data_type(), &DataType::Decimal128(result.0, result.1));
    assert_eq!(got.as_primitive::<Decimal128Type>().value(0), value);
    assert!(got.is_null(1));
    assert_eq!(got.as_ref(), arrow_arith(op)(&l, &r).unwrap().as_ref());
}

#[test]
fn product_scale_beyond_38_is_a_type_error_like_arrow() {
    let a = decimal128(&[Some(1)], 38, 20);
    for err in [arrow::mul(&a, &a).unwrap_err(), arrow_arith::numeric::mul(&a, &a).unwrap_err()] {
        assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
    }
}

#[rstest]
#[case::array_scalar(false, true, 3)]
#[case::scalar_array(true, false, 3)]
#[case::scalar_scalar(true, true, 1)]
fn scalars(#[case] l_scalar: bool, #[case] r_scalar: bool, #[case] len: usize) {
    let array = decimal128(&[Some(150), None, Some(-300)], 10, 2);
    let one = decimal128(&[Some(200)], 10, 2);
    let null = decimal128(&[None], 10, 2);
    for (scalar, nulls) in [(&one, if len == 1 { 0 } else { 1 }), (&null, len)] {
        let side = |is_scalar: bool| -> Box<dyn arrow_array::Datum> {
            if is_scalar { Box::new(Scalar::new(scalar.clone())) } else { Box::new(array.clone()) }
        };
        let (l, r) = (side(l_scalar), side(r_scalar));
        let got = arrow::mul(l.as_ref(), r.as_ref()).unwrap();
        let want = arrow_arith::numeric::mul(l.as_ref(), r.as_ref()).unwrap();
        assert_eq!(got.len(), len);
        assert_eq!(got.null_count(), nulls);
        assert_eq!(got.as_ref(), want.as_ref());
    }
}

#[test]
fn failures_are_arrow_errors() {
    let a = decimal128(&[Some(1), Some(2), Some(3)], 10, 2);
    let zero = decimal128(&[Some(1), Some(0), Some(1)], 10, 2);
    assert!(matches!(arrow::div(&a, &zero), Err(ArrowError::DivideByZero)));
    assert!(matches!(arrow_arith::numeric::div(&a, &zero), Err(ArrowError::DivideByZero)));
    let zero_under_null = decimal128(&[Some(1), None, Some(1)], 10, 2);
    assert_eq!(arrow::div(&a, &zero_under_null).unwrap().null_count(), 1);
    let big = decimal128(&[Some(10i128.pow(38) - 1)], 38, 0);
    let err = arrow::mul(&big, &big).unwrap_err();
    assert!(matches!(err, ArrowError::ArithmeticOverflow(_)), "{err}");
    assert!(matches!(
        arrow_arith::numeric::mul(&big, &big),
        Err(ArrowError::ArithmeticOverflow(_))
    ));
}

#[test]
fn length_mismatch_is_the_same_error_as_arrow() {
    let (a, b) = (decimal128(&[Some(1), Some(2)], 10, 2), decimal128(&[Some(1)], 10, 2));
    let ours = arrow::add(&a, &b).unwrap_err();
    let theirs = arrow_arith::numeric::add(&a, &b).unwrap_err();
    assert!(matches!(ours, ArrowError::ComputeError(_)), "{ours}");
    assert_eq!(ours.to_string(), theirs.to_string());
}

#[test]
fn mixed_widths_are_rejected_like_arrow() {
    let a = decimal128(&[Some(1)], 10, 2);
    let b = Decimal256Array::from(vec![i256::ONE]).with_precision_and_scale(10, 2).unwrap();
    for err in [arrow::add(&a, &b).unwrap_err(), arrow_arith::numeric::add(&a, &b).unwrap_err()] {
        assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
    }
}

// Deviation 1: arrow returns a value beyond the declared precision; ours overflows.
#[test]
fn results_are_checked_against_the_result_precision() {
    let max = decimal128(&[Some(10i128.pow(38) - 1)], 38, 0);
    let one = decimal128(&[Some(1)], 38, 0);
    let theirs = arrow_arith::numeric::add(&max, &one).unwrap();
    assert_eq!(theirs.data_type(), &DataType::Decimal128(38, 0));
    assert_eq!(theirs.as_primitive::<Decimal128Type>().value(0), 10i128.pow(38));
    assert!(matches!(arrow::add(&max, &one), Err(ArrowError::ArithmeticOverflow(_))));
}

// Deviation 2: a result that fits is returned where arrow fails on `10^k`.
#[test]
fn results_that_fit_are_returned_where_arrow_fails_on_an_intermediate() {
    let hundreds = Decimal32Array::from(vec![0]).with_precision_and_scale(2, -5).unwrap();
    let tiny = Decimal32Array::from(vec![1]).with_precision_and_scale(9, 9).unwrap();
    // 10^14 does not fit i32, which arrow-arith needs to align the scales.
    assert!(matches!(
        arrow_arith::numeric::add(&hundreds, &tiny),
        Err(ArrowError::ArithmeticOverflow(_))
    ));
    let sum = arrow::add(&hundreds, &tiny).unwrap();
    assert_eq!(sum.data_type(), &DataType::Decimal32(9, 9));
    assert_eq!(
        DecimalArray::from_arrow(sum.as_ref()).unwrap().to_strs(),
        [Some("0.000000001".into())]
    );
}

#[test]
fn results_keep_the_profile_width() {
    let a = decimal128(&[Some(1)], 2, 0);
    let sum = arrow::add(&a, &a).unwrap();
    assert_eq!(sum.data_type(), &DataType::Decimal128(3, 0));
    assert_eq!(DecimalArray::from_arrow(sum.as_ref()).unwrap().width(), StorageWidth::I128);
}

/// `arrow::binary` under each profile: the profile's type at its Arrow width
/// (Spark and Presto `Decimal128`, FixedPoint at least the wider operand's),
/// and the same rows as this crate's arrays give, for operands of any widths.
#[rstest]
#[case::spark(ArithmeticOptions::spark())]
#[case::spark_no_precision_loss(ArithmeticOptions::spark_no_precision_loss())]
#[case::presto(ArithmeticOptions::presto())]
#[case::fixed_point(ArithmeticOptions::fixed_point())]
fn profiles_on_arrow_arrays(#[case] options: ArithmeticOptions) {
    let lhs_type = DataType::Decimal64(12, 2);
    let rhs_type = DataType::Decimal128(20, 6);
    let (lhs, rhs) =
        (arrow_array(&lhs_type, StorageWidth::I64), arrow_array(&rhs_type, StorageWidth::I128));
    let nulling =
        options.with_on_overflow(OverflowPolicy::Null).with_on_divide_by_zero(OverflowPolicy::Null);
    for op in BinaryOp::ALL {
        let got = arrow::binary(op, &lhs, &rhs, &nulling).expect("a result");
        let planned = arrow::result_data_type(op, &lhs_type, &rhs_type, &nulling).unwrap();
        assert_eq!(got.data_type(), &planned, "{op}");
        if !matches!(options.semantics(), Semantics::FixedPoint) {
            assert!(matches!(planned, DataType::Decimal128(..)), "{op}: {planned}");
        }
        let (a, b) =
            (DecimalArray::from_arrow(&lhs).unwrap(), DecimalArray::from_arrow(&rhs).unwrap());
        let want = binary(op, &a, &b, &nulling).unwrap();
        assert_eq!(DecimalArray::from_arrow(&got).unwrap().to_strs(), want.to_strs(), "{op}");
    }
}

/// Spark's defaults on Arrow batches: an overflow or a zero divisor is a null
/// row, and ANSI mode (both policies `Error`) names the row and its operands.
#[test]
fn spark_nulls_failures_and_ansi_errors_name_the_operands() {
    let t = DataType::Decimal128(38, 0);
    let max = 10i128.pow(38) - 1;
    let a = decimal128(&[Some(max), Some(5)], 38, 0);
    let b = decimal128(&[Some(1), Some(0)], 38, 0);
    let sum = arrow::binary(BinaryOp::Add, &a, &b, &ArithmeticOptions::spark()).unwrap();
    assert_eq!((sum.data_type(), sum.null_count()), (&t, 1));
    // decimal(38,6): 1 / 1, and 0 / 0 a null row.
    let quotient = arrow::binary(BinaryOp::Div, &b, &b, &ArithmeticOptions::spark()).unwrap();
    assert_eq!(quotient.data_type(), &DataType::Decimal128(38, 6));
    assert!(quotient.is_valid(0) && quotient.is_null(1));
    let ansi = ArithmeticOptions::spark()
        .with_on_overflow(OverflowPolicy::Error)
        .with_on_divide_by_zero(OverflowPolicy::Error);
    let err = arrow::binary(BinaryOp::Add, &a, &b, &ansi).unwrap_err();
    let ArrowError::ArithmeticOverflow(message) = err else { panic!("{err:?}") };
    assert!(message.contains(&format!("{max} + 1")), "{message}");
    let err = arrow::binary(BinaryOp::Div, &b, &b, &ansi).unwrap_err();
    assert!(matches!(err, ArrowError::DivideByZero), "{err:?}");
}

/// `arrow::binary_to` at a result type the engine planned: the rows of
/// `binary_to` on this crate's arrays, stored at the type's Arrow width.
#[rstest]
#[case::spark_sum_at_38_9(BinaryOp::Add, DataType::Decimal128(38, 9))]
#[case::narrower_width(BinaryOp::Mul, DataType::Decimal64(18, 3))]
#[case::wider_width(BinaryOp::Div, DataType::Decimal256(50, 20))]
#[case::negative_scale(BinaryOp::Sub, DataType::Decimal32(9, -2))]
fn explicit_result_types_on_arrow_arrays(#[case] op: BinaryOp, #[case] result: DataType) {
    let t = DataType::Decimal128(38, 10);
    let (lhs, rhs) = (arrow_array(&t, StorageWidth::I128), arrow_array(&t, StorageWidth::I128));
    let options = ArithmeticOptions::spark();
    let got = arrow::binary_to(op, &lhs, &rhs, &result, &options).unwrap();
    assert_eq!(got.data_type(), &result);
    let (a, b) = (DecimalArray::from_arrow(&lhs).unwrap(), DecimalArray::from_arrow(&rhs).unwrap());
    let (dtype, _) = arrow::decimal_type(&result).unwrap();
    let want = binary_to(op, &a, &b, dtype, &options).unwrap();
    assert_eq!(DecimalArray::from_arrow(&got).unwrap().to_strs(), want.to_strs());
}

/// An Arrow decimal array of `dtype` at `width` from text (`None`: null).
#[track_caller]
fn arrow_from_strs(dtype: DecimalType, width: StorageWidth, texts: &[Option<&str>]) -> ArrayRef {
    column_from_strs(dtype, texts).with_width(width).expect("the width holds the type").to_arrow()
}

/// The rows of an Arrow decimal array as text (`None`: null).
#[track_caller]
fn texts(array: &ArrayRef) -> Vec<Option<String>> {
    DecimalArray::from_arrow(array.as_ref()).expect("a decimal array").to_strs()
}

fn some(texts: &[&str]) -> Vec<Option<String>> {
    texts.iter().map(|t| Some((*t).to_string())).collect()
}

/// The largest precision of `width` that these examples use.
fn example_precision(width: StorageWidth) -> u8 {
    width.max_precision().min(12)
}

/// `7.50 % 2.001` with arrays and scalars on either side, at every width:
/// arrow-arith's type (`decimal(min(p1 - s1, p2 - s2) + 3, 3)`) and rows.
#[rstest]
fn rem_with_scalars_either_side(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
    #[values((false, false), (false, true), (true, false), (true, true))] scalars: (bool, bool),
) {
    let p = example_precision(width);
    let lhs = arrow_from_strs(dec(p, 2), width, &[Some("7.50"), None, Some("-7.50"), Some("0.00")]);
    let rhs = arrow_from_strs(
        dec(5, 3),
        width,
        &[Some("2.001"), Some("2.001"), Some("-2.001"), Some("1.000")],
    );
    let (l_scalar, r_scalar) = scalars;
    let side = |array: &ArrayRef, is_scalar: bool| -> Box<dyn arrow_array::Datum> {
        if is_scalar { Box::new(Scalar::new(array.slice(0, 1))) } else { Box::new(array.clone()) }
    };
    let (l, r) = (side(&lhs, l_scalar), side(&rhs, r_scalar));
    let ours = arrow::rem(l.as_ref(), r.as_ref()).unwrap();
    let theirs = arrow_arith::numeric::rem(l.as_ref(), r.as_ref()).unwrap();
    assert_eq!(ours.data_type(), theirs.data_type());
    assert_eq!(ours.data_type(), &ARROW_WIDTHS_DATA[width_index(width)](5, 3));
    assert_eq!(ours.as_ref(), theirs.as_ref());
    let want = match scalars {
        (false, false) => {
            vec![Some("1.497".into()), None, Some("-1.497".into()), Some("0.000".into())]
        }
        (false, true) => {
            vec![Some("1.497".into()), None, Some("-1.497".into()), Some("0.000".into())]
        }
        (true, false) => some(&["1.497", "1.497", "1.497", "0.500"]),
        (true, true) => some(&["1.497"]),
    };
    assert_eq!(texts(&ours), want);
}

/// The Arrow decimal type constructors, in the order of `ARROW_WIDTHS`.
const ARROW_WIDTHS_DATA: [fn(u8, i8) -> DataType; 4] =
    [DataType::Decimal32, DataType::Decimal64, DataType::Decimal128, DataType::Decimal256];

fn width_index(width: StorageWidth) -> usize {
    ARROW_WIDTHS.iter().position(|&w| w == width).expect("an Arrow width")
}

/// A null scalar makes every row null; a zero divisor under a null row is no
/// error; a zero divisor in a valid row is arrow-arith's `DivideByZero`.
#[rstest]
fn rem_nulls_and_zero_divisors(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
) {
    let t = dec(example_precision(width), 2);
    let a = arrow_from_strs(t, width, &[Some("7.50"), Some("1.25"), None]);
    let null = Scalar::new(arrow_from_strs(t, width, &[None]));
    for datum in [arrow::rem(&a, &null).unwrap(), arrow::rem(&null, &a).unwrap()] {
        assert_eq!((datum.len(), datum.null_count()), (3, 3));
    }
    let zero_under_null = arrow_from_strs(t, width, &[Some("2.00"), None, Some("0.00")]);
    let ours = arrow::rem(&a, &zero_under_null).unwrap();
    assert_eq!(texts(&ours), [Some("1.50".into()), None, None]);
    assert_eq!(ours.as_ref(), arrow_arith::numeric::rem(&a, &zero_under_null).unwrap().as_ref());
    let zero = arrow_from_strs(t, width, &[Some("2.00"), Some("0.00"), Some("1.00")]);
    assert!(matches!(arrow::rem(&a, &zero), Err(ArrowError::DivideByZero)));
    assert!(matches!(arrow_arith::numeric::rem(&a, &zero), Err(ArrowError::DivideByZero)));
}

/// Sliced arrays on both sides (different offsets) give the rows of the
/// slices, as arrow-arith does.
#[rstest]
fn rem_of_sliced_arrays(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
) {
    // One digit below the example precision, so that arrow-arith can align
    // every dividend at scale 3.
    let p = example_precision(width) - 1;
    let lhs = arrow_array(&ARROW_WIDTHS_DATA[width_index(width)](p, 2), width).slice(3, 60);
    let divisors = Mix { kinds: &[(Kind::Money, 1)], null_percent: 10 };
    let t = dec(5, 3);
    let rhs = Rng::new(0xD1_5150)
        .rows(t, width, 80, &divisors)
        .checked(t, width)
        .to_arrow()
        .slice(11, 60);
    let ours = arrow::rem(&lhs, &rhs).unwrap();
    assert_eq!(ours.as_ref(), arrow_arith::numeric::rem(&lhs, &rhs).unwrap().as_ref());
    assert!(ours.null_count() > 0 && ours.null_count() < ours.len());
}

fn cast_options(safe: bool) -> CastOptions<'static> {
    CastOptions { safe, ..CastOptions::default() }
}

/// Digits dropped from the scale round half away from zero, as arrow-cast
/// rounds them, from any Arrow width to any: ties, negative values, values
/// below one unit.
#[rstest]
fn cast_rounds_half_away_from_zero(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    from: StorageWidth,
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    to: StorageWidth,
) {
    let source = [
        Some("1.255"),
        Some("-1.255"),
        Some("1.245"),
        Some("-1.245"),
        Some("0.005"),
        Some("-0.005"),
        Some("0.015"),
        Some("-0.015"),
        Some("0.004"),
        Some("-0.004"),
        None,
    ];
    let array = arrow_from_strs(dec(example_precision(from), 3), from, &source);
    let to_type = ARROW_WIDTHS_DATA[width_index(to)](example_precision(to), 2);
    let want = [
        Some("1.26"),
        Some("-1.26"),
        Some("1.25"),
        Some("-1.25"),
        Some("0.01"),
        Some("-0.01"),
        Some("0.02"),
        Some("-0.02"),
        Some("0.00"),
        Some("0.00"),
        None,
    ];
    let want: Vec<Option<String>> = want.iter().map(|t| t.map(String::from)).collect();
    for safe in [true, false] {
        let ours = arrow::cast(&array, &to_type, &cast_options(safe)).unwrap();
        let theirs = arrow_cast::cast_with_options(&array, &to_type, &cast_options(safe)).unwrap();
        assert_eq!(ours.data_type(), &to_type);
        assert_eq!(theirs.data_type(), &to_type);
        assert_eq!((texts(&ours), texts(&theirs)), (want.clone(), want.clone()));
    }
}

/// Scale up, the same scale with fewer digits, and negative scales, from a
/// sliced array with nulls, against arrow-cast.
#[rstest]
#[case::scale_up(dec(5, 2), DataType::Decimal64(12, 6), &["123.450000", "-0.010000"])]
#[case::same_scale_fewer_digits(dec(5, 2), DataType::Decimal32(4, 2), &["", "-0.01"])]
#[case::to_negative_scale(dec(6, 2), DataType::Decimal128(5, -1), &["120", "0"])]
#[case::from_negative_scale(dec(5, -2), DataType::Decimal256(9, 1), &["1234500.0", "-100.0"])]
fn casts_of_sliced_arrays(
    #[case] from: DecimalType,
    #[case] to_type: DataType,
    #[case] want: &[&str],
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
) {
    let values: &[Option<&str>] = if from.scale() < 0 {
        &[Some("100"), None, Some("1234500"), Some("-100")]
    } else {
        &[Some("1"), None, Some("123.45"), Some("-0.01")]
    };
    let array = arrow_from_strs(from, width, values).slice(1, 3);
    let ours = arrow::cast(&array, &to_type, &cast_options(true)).unwrap();
    let theirs = arrow_cast::cast_with_options(&array, &to_type, &cast_options(true)).unwrap();
    assert_eq!(ours.data_type(), &to_type);
    assert_eq!(ours.as_ref(), theirs.as_ref());
    let mut expected = vec![None];
    expected.extend(want.iter().map(|t| (!t.is_empty()).then(|| (*t).to_string())));
    assert_eq!(texts(&ours), expected);
}

/// A value beyond the target precision: a null row under `safe: true`, and
/// arrow-cast's error under `safe: false`: `InvalidArgumentError` with
/// arrow-rs's message when the cast value fits the target's integer,
/// `CastError` naming the source value when it does not.
#[rstest]
#[case::beyond_precision(
    DataType::Decimal64(10, 0),
    &[1_234_567_890],
    DataType::Decimal32(9, 0),
    "InvalidArgumentError(\"1234567890 is too large to store in a Decimal32 of precision 9. Max is 999999999\")"
)]
#[case::below_precision(
    DataType::Decimal128(12, 2),
    &[-123_456_789_012],
    DataType::Decimal128(10, 1),
    "InvalidArgumentError(\"-1234567890.1 is too small to store in a Decimal128 of precision 10. Min is -999999999.9\")"
)]
#[case::beyond_the_width(
    DataType::Decimal128(20, 0),
    &[10_000_000_000_000_000_000],
    DataType::Decimal32(9, 0),
    "CastError(\"Cannot cast to Decimal32(9, 0). Overflowing on 10000000000000000000\")"
)]
#[case::rising_beyond_the_width(
    DataType::Decimal64(18, 0),
    &[1, 30_000_000_000],
    DataType::Decimal64(18, 9),
    "CastError(\"Cannot cast to Decimal64(18, 9). Overflowing on 30000000000\")"
)]
fn cast_overflow_is_null_or_the_error_of_arrow(
    #[case] from_type: DataType,
    #[case] values: &[i128],
    #[case] to_type: DataType,
    #[case] error: &str,
) {
    let (from, width) = arrow::decimal_type(&from_type).unwrap();
    let values: Vec<i256> = values.iter().map(|&v| i256::from_i128(v)).collect();
    let array = checked_column(from, &values, &vec![true; values.len()], width).to_arrow();
    let ours = arrow::cast(&array, &to_type, &cast_options(true)).unwrap();
    let theirs = arrow_cast::cast_with_options(&array, &to_type, &cast_options(true)).unwrap();
    assert_eq!(ours.as_ref(), theirs.as_ref());
    assert!(ours.is_null(values.len() - 1));
    let ours = arrow::cast(&array, &to_type, &cast_options(false)).unwrap_err();
    let theirs = arrow_cast::cast_with_options(&array, &to_type, &cast_options(false)).unwrap_err();
    assert_eq!(format!("{ours:?}"), error);
    assert_eq!(format!("{theirs:?}"), error);
}

/// Casts that are neither decimal to decimal nor between decimals and
/// strings (`tests/text_casts.rs`) are arrow-cast's own.
#[rstest]
#[case::int_to_decimal(Arc::new(Int32Array::from(vec![Some(12), None])) as ArrayRef, DataType::Decimal128(10, 2))]
#[case::decimal_to_float(Arc::new(decimal128(&[Some(-1250)], 10, 2)) as ArrayRef, DataType::Float64)]
#[case::float_to_int(Arc::new(Float64Array::from(vec![1.5])) as ArrayRef, DataType::Int32)]
fn other_casts_are_arrow_casts(#[case] array: ArrayRef, #[case] to_type: DataType) {
    for safe in [true, false] {
        let ours = arrow::cast(&array, &to_type, &cast_options(safe));
        let theirs = arrow_cast::cast_with_options(&array, &to_type, &cast_options(safe));
        match (ours, theirs) {
            (Ok(ours), Ok(theirs)) => assert_eq!(ours.as_ref(), theirs.as_ref()),
            (Err(ours), Err(theirs)) => assert_eq!(format!("{ours:?}"), format!("{theirs:?}")),
            (ours, theirs) => panic!("ours {ours:?}, arrow-cast {theirs:?}"),
        }
    }
}

/// A cast to the array's own type gives its rows; an empty array casts to
/// an empty array of the target type.
#[rstest]
fn casts_to_the_same_type_and_of_empty_arrays(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
) {
    let data_type = ARROW_WIDTHS_DATA[width_index(width)](example_precision(width), 2);
    let array = arrow_array(&data_type, width).slice(5, 40);
    let same = arrow::cast(&array, &data_type, &cast_options(false)).unwrap();
    assert_eq!(same.as_ref(), array.as_ref());
    let empty = array.slice(0, 0);
    for to in ARROW_WIDTHS {
        let to_type = ARROW_WIDTHS_DATA[width_index(to)](3, 1);
        let cast = arrow::cast(&empty, &to_type, &cast_options(false)).unwrap();
        assert_eq!((cast.data_type(), cast.len()), (&to_type, 0));
    }
}

/// A target type its Arrow width cannot have is arrow-rs's type error; a
/// scale below -76 (which arrow-rs allows) is an error here, never a panic.
#[test]
fn invalid_cast_types_are_errors() {
    let a = decimal128(&[Some(125)], 5, 2);
    for to_type in
        [DataType::Decimal32(10, 2), DataType::Decimal64(5, 6), DataType::Decimal128(39, 0)]
    {
        let ours = arrow::cast(&a, &to_type, &cast_options(true)).unwrap_err();
        let theirs = arrow_cast::cast_with_options(&a, &to_type, &cast_options(true)).unwrap_err();
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "{to_type}");
    }
    let far = DataType::Decimal256(10, -100);
    let ours = arrow::cast(&a, &far, &cast_options(true)).unwrap_err();
    assert!(matches!(ours, ArrowError::InvalidArgumentError(_)), "{ours:?}");
}
