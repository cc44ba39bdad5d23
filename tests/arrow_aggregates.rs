//! `decimal_kernels::arrow::{sum, avg, min, max}` and their grouped forms on
//! Arrow decimal arrays of every width: equal to `arrow_arith::aggregate`'s
//! `min`, `max` and `sum_checked` where both return a value, and to this
//! crate's native aggregates (held to the exact reference elsewhere) by
//! group; the one-row shape, nulls, and the errors.

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use arrow_array::cast::AsArray;
use arrow_array::types::{Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, Int32Array, PrimitiveArray};
use arrow_buffer::i256;
use arrow_schema::{ArrowError, DataType};
use decimal_kernels::aggregate::AggregateOp;
use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType, StorageWidth, arrow};
use rstest::rstest;

use support::aggregates::aggregate_groups;
use support::types::dec;
use support::values::{Kind, Mix, Rng};

/// Values of every kind within the precision.
const KINDS: [(Kind, u32); 5] =
    [(Kind::Zero, 1), (Kind::Money, 4), (Kind::Digits, 4), (Kind::NearBound, 2), (Kind::Max, 1)];

/// A random Arrow array of `dtype` at `width`, `null_percent` of its rows
/// null.
fn random_array(
    rng: &mut Rng,
    dtype: DecimalType,
    width: StorageWidth,
    rows: usize,
    null_percent: u32,
) -> ArrayRef {
    let mix = Mix { kinds: &KINDS, null_percent };
    rng.rows(dtype, width, rows, &mix).checked(dtype, width).to_arrow()
}

/// The whole-array aggregates equal arrow-arith's on `T`'s arrays, as a
/// one-row array (a null row where arrow-arith has `None`).
#[track_caller]
fn assert_like_arrow_arith<T: ArrowPrimitiveType>(array: &ArrayRef)
where
    T::Native: PartialEq + core::fmt::Debug,
{
    let typed: &PrimitiveArray<T> = array.as_primitive::<T>();
    let one_row = |result: Result<ArrayRef, ArrowError>| -> Option<T::Native> {
        let result = result.unwrap_or_else(|e| panic!("{} of {typed:?}: {e}", array.data_type()));
        assert_eq!(result.len(), 1);
        let result = result.as_primitive::<T>();
        result.is_valid(0).then(|| result.value(0))
    };
    assert_eq!(one_row(arrow::min(array)), arrow_arith::aggregate::min(typed), "min");
    assert_eq!(one_row(arrow::max(array)), arrow_arith::aggregate::max(typed), "max");
    assert_eq!(arrow::min(array).unwrap().data_type(), array.data_type());
    // The sum at its wider type, where arrow-arith's fits the native width.
    if let Ok(want) = arrow_arith::aggregate::sum_checked(typed) {
        match arrow::sum(array) {
            Ok(got) => assert_eq!(one_row(Ok(got)), want, "sum"),
            // Beyond the result precision only.
            Err(e) => assert!(matches!(e, ArrowError::ArithmeticOverflow(_)), "{e}"),
        }
    }
}

#[rstest]
#[case::decimal32(dec(9, 2), StorageWidth::I32)]
#[case::decimal64(dec(18, 4), StorageWidth::I64)]
#[case::decimal64_negative_scale(dec(12, -3), StorageWidth::I64)]
#[case::decimal128(dec(38, 10), StorageWidth::I128)]
#[case::decimal128_narrow(dec(10, 2), StorageWidth::I128)]
#[case::decimal256(dec(76, 0), StorageWidth::I256)]
#[case::decimal256_negative_scale(dec(50, -20), StorageWidth::I256)]
fn whole_array_aggregates_equal_arrow_arith(
    #[case] dtype: DecimalType,
    #[case] width: StorageWidth,
) {
    let mut rng = Rng::new(u64::from(dtype.precision()));
    for (rows, null_percent) in [(0, 0), (1, 0), (100, 0), (2000, 10), (300, 100)] {
        let array = random_array(&mut rng, dtype, width, rows, null_percent);
        match width {
            StorageWidth::I32 => assert_like_arrow_arith::<Decimal32Type>(&array),
            StorageWidth::I64 => assert_like_arrow_arith::<Decimal64Type>(&array),
            StorageWidth::I128 => assert_like_arrow_arith::<Decimal128Type>(&array),
            _ => assert_like_arrow_arith::<Decimal256Type>(&array),
        }
    }
}

/// Each grouped form equals the native aggregate under the Arrow profile at
/// the array's width; each whole form its one group.
#[rstest]
#[case::decimal64(dec(10, 2), StorageWidth::I64)]
#[case::decimal128(dec(24, 6), StorageWidth::I128)]
#[case::decimal256(dec(60, -2), StorageWidth::I256)]
fn grouped_forms_equal_the_native_aggregates(
    #[case] dtype: DecimalType,
    #[case] width: StorageWidth,
) {
    let mut rng = Rng::new(99);
    let array = random_array(&mut rng, dtype, width, 1500, 15);
    let groups = 300;
    let ids: Vec<usize> = (0..array.len()).map(|_| rng.below(groups)).collect();
    let native = DecimalArray::from_arrow(&array).unwrap();
    let options = ArithmeticOptions::arrow(width);
    type Grouped = fn(&dyn Array, &[usize], usize) -> Result<ArrayRef, ArrowError>;
    type Whole = fn(&dyn Array) -> Result<ArrayRef, ArrowError>;
    let forms: [(AggregateOp, Grouped, Whole); 4] = [
        (AggregateOp::Sum, arrow::sum_groups, arrow::sum),
        (AggregateOp::Avg, arrow::avg_groups, arrow::avg),
        (AggregateOp::Min, arrow::min_groups, arrow::min),
        (AggregateOp::Max, arrow::max_groups, arrow::max),
    ];
    for (op, by_group, whole) in forms {
        let want = aggregate_groups(op, &native, &ids, groups, &options).unwrap();
        assert_eq!(
            by_group(&array, &ids, groups).unwrap().as_ref(),
            want.to_arrow().as_ref(),
            "{op}"
        );
        let zeros = vec![0; array.len()];
        let one = by_group(&array, &zeros, 1).unwrap();
        assert_eq!(whole(&array).unwrap().as_ref(), one.as_ref(), "whole {op}");
    }
}

/// A sum beyond the result precision is arrow-arith's overflow error; a
/// value beyond the declared precision (Arrow arrays are not checked) is
/// one too when it is the extreme.
#[test]
fn overflows_are_arithmetic_overflow() {
    let near = i256::from_i128(10i128.pow(38) - 1);
    let column =
        arrow_array::Decimal256Array::from(vec![near; 2]).with_precision_and_scale(76, 0).unwrap();
    // decimal(76,0) sums to decimal(76,0): 2 * (10^38 - 1) fits.
    assert!(arrow::sum(&column).is_ok());
    let big = i256::from_i128(10i128.pow(38)).wrapping_mul(i256::from_i128(10i128.pow(38)));
    let column = arrow_array::Decimal256Array::from(vec![big - i256::ONE; 2])
        .with_precision_and_scale(76, 0)
        .unwrap();
    let err = arrow::sum(&column).unwrap_err();
    assert!(matches!(err, ArrowError::ArithmeticOverflow(_)), "{err}");
    let beyond =
        arrow_array::Decimal64Array::from(vec![1000, 5]).with_precision_and_scale(3, 0).unwrap();
    let err = arrow::max(&beyond).unwrap_err();
    assert!(matches!(err, ArrowError::ArithmeticOverflow(_)), "{err}");
    assert_eq!(arrow::min(&beyond).unwrap().as_primitive::<Decimal64Type>().value(0), 5);
}

#[test]
fn bad_arguments_are_arrow_errors() {
    let not_decimal = Int32Array::from(vec![1, 2]);
    let err = arrow::min(&not_decimal).unwrap_err();
    assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
    let a = arrow_array::Decimal128Array::from(vec![1, 2]).with_precision_and_scale(5, 1).unwrap();
    let err = arrow::max_groups(&a, &[0], 1).unwrap_err();
    assert!(matches!(err, ArrowError::ComputeError(_)), "{err}");
    let err = arrow::sum_groups(&a, &[0, 3], 2).unwrap_err();
    assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
    // No valid row: a null row of the result type.
    let empty = a.slice(0, 0);
    let sum = arrow::sum(&empty).unwrap();
    assert_eq!(
        (sum.len(), sum.null_count(), sum.data_type()),
        (1, 1, &DataType::Decimal128(15, 1))
    );
}
