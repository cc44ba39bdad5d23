//! `decimal_kernels::arrow::{neg, abs, round, floor, ceil, trunc}` on every
//! Arrow decimal width: `neg` against `arrow_arith::numeric::neg` (the same
//! values and type where the values are within their precision; an overflow
//! where arrow negates a value beyond it); every call against the exact
//! reference under the Arrow profile at the array's width, on sliced arrays
//! with null rows; DataFusion's result types by name; the errors; and
//! `DecimalScalar::to_arrow` feeding the binary drop-ins.

#![cfg(feature = "arrow")]

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use arrow_array::{Array, ArrayRef, Decimal32Array, Decimal128Array, Int32Array};
use arrow_schema::{ArrowError, DataType};
use decimal_kernels::{
    ArithmeticOptions, DecimalArray, DecimalScalar, DecimalType, RoundFunction, StorageWidth,
    UnaryOp, arrow, conformance,
};
use rstest::rstest;
use support::types::{dec, unchecked_column};
use support::values::{Kind, Mix, Rng};

type ArrowUnary = fn(&dyn Array) -> Result<ArrayRef, ArrowError>;
type ArrowRound = fn(&dyn Array, i32) -> Result<ArrayRef, ArrowError>;

/// Each rounding function's Arrow form.
fn arrow_round(function: RoundFunction) -> ArrowRound {
    match function {
        RoundFunction::Round => arrow::round,
        RoundFunction::Floor => arrow::floor,
        RoundFunction::Ceil => arrow::ceil,
        RoundFunction::Trunc => arrow::trunc,
    }
}

const MIX: Mix<'static> = Mix {
    kinds: &[
        (Kind::Tie, 3),
        (Kind::Money, 2),
        (Kind::Digits, 3),
        (Kind::NearBound, 2),
        (Kind::Max, 1),
    ],
    null_percent: 15,
};

/// Sliced arrays of a few types per width (negative scales and the width's
/// most digits among them), with null rows.
fn arrays(width: StorageWidth) -> Vec<ArrayRef> {
    let most = width.max_precision();
    let types = [
        dec(most, 2),
        dec(most, 0),
        dec(most.min(7), -2),
        dec(5, 4),
        dec(most, i8::try_from(most).unwrap()),
    ];
    let mut rng = Rng::new(u64::from(most));
    types
        .into_iter()
        .map(|dtype| {
            let stored = rng.rows(dtype, width, 60, &MIX);
            stored.checked(dtype, width).slice(3, 50).unwrap().to_arrow()
        })
        .collect()
}

/// `got` is what the reference gives `op` of `array` under the Arrow
/// profile at its width, as an Arrow result (an error as its Arrow error).
#[track_caller]
fn assert_reference(op: UnaryOp, array: &dyn Array, got: Result<ArrayRef, ArrowError>) {
    let operand = DecimalArray::from_arrow(array).unwrap();
    let options = ArithmeticOptions::arrow(operand.width());
    let want = conformance::reference_unary(op, &operand, &options);
    let context = format!("{op} of {}", array.data_type());
    match (got, want) {
        (Ok(got), Ok(want)) => assert_eq!(got.to_data(), want.to_arrow().to_data(), "{context}"),
        (Err(got), Err(want)) => {
            assert_eq!(got.to_string(), ArrowError::from(want).to_string(), "{context}");
        }
        (got, want) => panic!("{context}: got {got:?}, want {want:?}"),
    }
}

#[rstest]
fn every_function_matches_reference(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
) {
    for array in arrays(width) {
        let signs: [(UnaryOp, ArrowUnary); 2] =
            [(UnaryOp::Neg, arrow::neg), (UnaryOp::Abs, arrow::abs)];
        for (op, f) in signs {
            assert_reference(op, array.as_ref(), f(array.as_ref()));
        }
        for function in RoundFunction::ALL {
            for digits in -40..=40 {
                let op = UnaryOp::Round { function, digits };
                assert_reference(op, array.as_ref(), arrow_round(function)(array.as_ref(), digits));
            }
        }
    }
}

/// Where every value is within its precision, `neg` is arrow-arith's.
#[rstest]
fn neg_is_arrow_arith_neg(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
) {
    for array in arrays(width) {
        let ours = arrow::neg(array.as_ref()).unwrap();
        let theirs = arrow_arith::numeric::neg(array.as_ref()).unwrap();
        assert_eq!(ours.to_data(), theirs.to_data(), "{}", array.data_type());
    }
}

/// A stored value beyond the precision: arrow-arith negates it as stored,
/// here it is an overflow.
#[test]
fn neg_checks_the_precision_where_arrow_does_not() {
    let beyond = [arrow_buffer::i256::from_i128(1_000)];
    let array = unchecked_column(dec(3, 0), &beyond, &[true], StorageWidth::I128).to_arrow();
    let theirs = arrow_arith::numeric::neg(array.as_ref()).unwrap();
    assert_eq!(theirs.as_any().downcast_ref::<Decimal128Array>().unwrap().value(0), -1_000);
    let err = arrow::neg(array.as_ref()).unwrap_err();
    assert!(matches!(err, ArrowError::ArithmeticOverflow(_)), "{err}");
}

/// DataFusion 55's types: a positive scale drops to `max(d, 0)` keeping
/// the precision; at scale 0 a carry digit when `-p <= d < 0`; a negative
/// scale moves down to `d` (not below `-p`); the array's type where nothing
/// is dropped.
#[rstest]
#[case::drops_scale(DataType::Decimal128(10, 4), 2, DataType::Decimal128(10, 2))]
#[case::negative_digits(DataType::Decimal128(10, 4), -2, DataType::Decimal128(10, 0))]
#[case::scale_0_carry(DataType::Decimal32(5, 0), -1, DataType::Decimal32(6, 0))]
#[case::capped_at_the_width(DataType::Decimal64(18, 0), -1, DataType::Decimal64(18, 0))]
#[case::nothing_dropped(DataType::Decimal256(50, 3), 3, DataType::Decimal256(50, 3))]
#[case::scale_0_digits_beyond_the_precision(DataType::Decimal32(2, 0), -3, DataType::Decimal32(2, 0))]
#[case::negative_scale_moves_down(DataType::Decimal64(10, -2), -3, DataType::Decimal64(10, -3))]
#[case::negative_scale_not_below_minus_p(DataType::Decimal64(3, -1), -5, DataType::Decimal64(3, -3))]
#[case::negative_scale_kept(DataType::Decimal128(10, -2), -1, DataType::Decimal128(10, -2))]
fn datafusion_result_types(#[case] input: DataType, #[case] digits: i32, #[case] want: DataType) {
    let (dtype, width) = arrow::decimal_type(&input).unwrap();
    let empty = DecimalArray::from_strs(dtype, &[]).unwrap().with_width(width).unwrap().to_arrow();
    for function in RoundFunction::ALL {
        let got = arrow_round(function)(empty.as_ref(), digits).unwrap();
        assert_eq!(got.data_type(), &want, "{function}({input}, {digits})");
    }
}

#[test]
fn non_decimal_arrays_are_refused() {
    let ints = Int32Array::from(vec![1]);
    for result in
        [arrow::neg(&ints), arrow::abs(&ints), arrow::round(&ints, 0), arrow::trunc(&ints, 1)]
    {
        assert!(matches!(result, Err(ArrowError::InvalidArgumentError(_))), "{result:?}");
    }
}

#[test]
fn a_carry_beyond_the_width_overflows() {
    // 999999999 at Decimal32(9, 0): round to -1 needs 10 digits, beyond 9.
    let a = Decimal32Array::from(vec![Some(1), None, Some(999_999_999)])
        .with_precision_and_scale(9, 0)
        .unwrap();
    let err = arrow::round(&a, -1).unwrap_err();
    assert!(matches!(err, ArrowError::ArithmeticOverflow(ref m) if m.contains("row 2")), "{err}");
}

/// A scalar back as an Arrow scalar is the scalar side of the drop-ins.
#[test]
fn scalar_to_arrow_feeds_the_binary_drop_ins() {
    let t = DecimalType::try_new(10, 2).unwrap();
    let a = DecimalArray::from_strs(t, &[Some("1.50"), None]).unwrap();
    let two = DecimalScalar::parse(t, "2.00").unwrap();
    let product = arrow::mul(&a.to_arrow(), &two.to_arrow(StorageWidth::I64).unwrap()).unwrap();
    let product = DecimalArray::from_arrow(&product).unwrap();
    assert_eq!(product.to_strs(), [Some("3.0000".into()), None]);
}
