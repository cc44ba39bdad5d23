//! Types, scalars and columns, built from text or from stored integers at a
//! chosen storage width.

use std::sync::OnceLock;

use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use decimal_kernels::{
    ArithmeticOptions, DecimalArray, DecimalNative, DecimalScalar, DecimalType, StorageWidth,
};

/// The four widths Arrow has decimals of.
pub const ARROW_WIDTHS: [StorageWidth; 4] =
    [StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256];

/// Every profile, the Arrow one at each of its widths.
pub const PROFILES: [ArithmeticOptions; 8] = [
    ArithmeticOptions::fixed_point(),
    ArithmeticOptions::arrow(StorageWidth::I32),
    ArithmeticOptions::arrow(StorageWidth::I64),
    ArithmeticOptions::arrow(StorageWidth::I128),
    ArithmeticOptions::arrow(StorageWidth::I256),
    ArithmeticOptions::spark(),
    ArithmeticOptions::spark_no_precision_loss(),
    ArithmeticOptions::presto(),
];

/// Every storage width that holds `dtype`, from its narrowest.
pub fn widths_holding(dtype: DecimalType) -> impl Iterator<Item = StorageWidth> {
    let narrowest = dtype.storage_width();
    StorageWidth::ALL.into_iter().filter(move |&w| w >= narrowest)
}

/// `decimal(p, s)`, which the test knows to be a valid type.
#[track_caller]
pub fn dec(p: u8, s: i8) -> DecimalType {
    DecimalType::try_new(p, s).unwrap_or_else(|e| panic!("a test type: {e}"))
}

/// `10^k` (`k ≤ 76` fits an `i256`; beyond, wrapped).
pub fn pow10(k: u8) -> i256 {
    // Computed once: `wrapping_pow` of an `i256` is slow in a debug build.
    static POWERS: OnceLock<[i256; 78]> = OnceLock::new();
    let powers = POWERS.get_or_init(|| {
        let mut powers = [i256::ONE; 78];
        for k in 1..powers.len() {
            powers[k] = powers[k - 1].wrapping_mul(i256::from_i128(10));
        }
        powers
    });
    powers
        .get(usize::from(k))
        .copied()
        .unwrap_or_else(|| i256::from_i128(10).wrapping_pow(k.into()))
}

/// The largest stored integer of `dtype`: `10^p - 1`.
pub fn max_stored(dtype: DecimalType) -> i256 {
    pow10(dtype.precision()).wrapping_sub(i256::ONE)
}

/// A scalar of `dtype` from text.
#[track_caller]
pub fn scalar(dtype: DecimalType, text: &str) -> DecimalScalar {
    DecimalScalar::parse(dtype, text).unwrap_or_else(|e| panic!("a test scalar: {e}"))
}

/// A column of `dtype` from one text per row (`None`: null), at the narrowest
/// storage.
#[track_caller]
pub fn column_from_strs(dtype: DecimalType, texts: &[Option<&str>]) -> DecimalArray {
    DecimalArray::from_strs(dtype, texts).unwrap_or_else(|e| panic!("a test column: {e}"))
}

/// A column of `dtype` at `width` from stored integers and validity (the
/// values under null rows are kept), checked against the precision.
#[track_caller]
pub fn checked_column(
    dtype: DecimalType,
    values: &[i256],
    valid: &[bool],
    width: StorageWidth,
) -> DecimalArray {
    let nulls = Some(NullBuffer::from(valid.to_vec()));
    DecimalArray::try_new(dtype, ScalarBuffer::from(values.to_vec()), nulls)
        .and_then(|array| array.with_width(width))
        .unwrap_or_else(|e| panic!("a checked {dtype} column at {width}: {e}"))
}

/// The same without the precision check: the values may be anything `width`
/// holds (a value `width` cannot hold is a mistake of the test).
#[track_caller]
pub fn unchecked_column(
    dtype: DecimalType,
    values: &[i256],
    valid: &[bool],
    width: StorageWidth,
) -> DecimalArray {
    #[track_caller]
    fn at<T: DecimalNative>(
        dtype: DecimalType,
        values: &[i256],
        nulls: Option<NullBuffer>,
    ) -> DecimalArray {
        let typed: Vec<T> = values
            .iter()
            .map(|&v| T::from_i256(v).unwrap_or_else(|| panic!("{v} does not fit {}", T::WIDTH)))
            .collect();
        DecimalArray::new_unchecked(dtype, ScalarBuffer::from(typed), nulls)
            .unwrap_or_else(|e| panic!("an unchecked {dtype} column: {e}"))
    }
    let nulls = Some(NullBuffer::from(valid.to_vec()));
    match width {
        StorageWidth::I8 => at::<i8>(dtype, values, nulls),
        StorageWidth::I16 => at::<i16>(dtype, values, nulls),
        StorageWidth::I32 => at::<i32>(dtype, values, nulls),
        StorageWidth::I64 => at::<i64>(dtype, values, nulls),
        StorageWidth::I128 => at::<i128>(dtype, values, nulls),
        StorageWidth::I256 => at::<i256>(dtype, values, nulls),
    }
}

/// A `Decimal128(p, s)` Arrow array holding `values` (`None`: null).
#[track_caller]
pub fn decimal128(values: &[Option<i128>], p: u8, s: i8) -> arrow_array::Decimal128Array {
    arrow_array::Decimal128Array::from(values.to_vec())
        .with_precision_and_scale(p, s)
        .unwrap_or_else(|e| panic!("a test Decimal128({p}, {s}) array: {e}"))
}
