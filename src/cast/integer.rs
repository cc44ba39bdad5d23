//! Casts between decimals and the integers `i8`..`i64`, `u8`..`u64`.
//!
//! Decimal to integer: the stored value `a` at scale `s` is the number
//! `a * 10^-s`; it is rounded once to an integer (scale 0) by the rescale
//! kernel, with the profile's mode ([`integer_rounding`]), then checked
//! against the integer type's range. A value beyond the range (before or
//! after rounding) is the options' overflow: a null row, or
//! [`DecimalError::CastOverflow`] naming the first such row.
//!
//! Integer to decimal: the integer `n` is the decimal `n` at scale 0 (its
//! stored values read as they are, no copy for the signed types), rescaled to
//! the target exactly; only a negative target scale drops digits, rounded
//! with the profile's mode for casts into decimals ([`decimal_rounding`]).
//! Overflow of the target precision follows the options' policy.
//!
//! Rounding by profile, from the engines' documented behaviour: Arrow
//! truncates toward zero as arrow-cast's decimal-to-integer cast does
//! (`cast/decimal.rs`, a division by `10^s`); Spark truncates (its
//! `Decimal.toLong`); Presto and Trino round half away from zero (Trino's
//! `TestDecimalCasts`: `CAST(DECIMAL '2.5' AS BIGINT) = 3`, as PostgreSQL's
//! and DuckDB's numeric-to-integer casts); FixedPoint uses the options' mode.

use arrow_buffer::{ArrowNativeType, NullBuffer, ScalarBuffer};

use crate::rules::profiles::rules;
use crate::compute::funnel::{Operation, Request, run};
use crate::compute::operand::Operand;
use crate::rules::storage::ResultStorage;
use crate::types::{
    ArithmeticOptions, DecimalError, DecimalType, OverflowPolicy, RoundingMode,
    StorageWidth, UnaryOp,
};
use crate::values::{DecimalArray, DecimalNative, NullableBuffer};

mod sealed {
    pub trait Sealed {}
    impl Sealed for i8 {}
    impl Sealed for i16 {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// An integer type decimals cast to and from: `i8`, `i16`, `i32`, `i64`,
/// `u8`, `u16`, `u32`, `u64`.
///
/// ```
/// use decimal_kernels::cast::CastInteger;
/// assert_eq!((i8::NAME, i8::DIGITS), ("i8", 3));
/// assert_eq!((u64::NAME, u64::DIGITS), ("u64", 20));
/// ```
pub trait CastInteger: ArrowNativeType + sealed::Sealed {
    /// The type's name (`i64`), for errors.
    const NAME: &'static str;
    /// The digits of its largest magnitude: every value is a decimal of this
    /// precision at scale 0.
    const DIGITS: u8;
    /// The signed type its values are read as decimals from: itself when
    /// signed, the next wider one when unsigned.
    #[doc(hidden)]
    type Stored: DecimalNative;
    /// The values as that signed type (shared when it is the same type).
    #[doc(hidden)]
    fn stored(values: ScalarBuffer<Self>) -> ScalarBuffer<Self::Stored>;
    /// An integer of this type, if `value` is within its range.
    #[doc(hidden)]
    fn from_i128(value: i128) -> Option<Self>;
    /// The value as an `i128` (exact).
    #[doc(hidden)]
    fn to_i128(self) -> i128;
}

/// The [`CastInteger`] implementation of a signed type, read as it is.
macro_rules! signed_cast_integer {
    ($($t:ty => $digits:literal),*) => {$(
        impl CastInteger for $t {
            const NAME: &'static str = stringify!($t);
            const DIGITS: u8 = $digits;
            type Stored = $t;
            fn stored(values: ScalarBuffer<Self>) -> ScalarBuffer<Self> {
                values
            }
            fn from_i128(value: i128) -> Option<Self> {
                Self::try_from(value).ok()
            }
            fn to_i128(self) -> i128 {
                i128::from(self)
            }
        }
    )*};
}
signed_cast_integer!(i8 => 3, i16 => 5, i32 => 10, i64 => 19);

/// The [`CastInteger`] implementation of an unsigned type, read as the
/// signed type `$wide` that holds all of it.
macro_rules! unsigned_cast_integer {
    ($($t:ty => $wide:ty, $digits:literal),*) => {$(
        impl CastInteger for $t {
            const NAME: &'static str = stringify!($t);
            const DIGITS: u8 = $digits;
            type Stored = $wide;
            fn stored(values: ScalarBuffer<Self>) -> ScalarBuffer<$wide> {
                values.iter().map(|&v| <$wide>::from(v)).collect()
            }
            fn from_i128(value: i128) -> Option<Self> {
                Self::try_from(value).ok()
            }
            fn to_i128(self) -> i128 {
                i128::from(self)
            }
        }
    )*};
}
unsigned_cast_integer!(u8 => i16, 3, u16 => i32, 5, u32 => i64, 10, u64 => i128, 20);

/// The rounding of a cast from decimals to integers under `options`' profile:
/// toward zero for Arrow and Spark, half away from zero for Presto and Trino,
/// the options' mode for FixedPoint.
pub(crate) fn integer_rounding(options: &ArithmeticOptions) -> RoundingMode {
    rules(options).get().integer_rounding()
}

/// The rounding of a cast into decimals that drops digits under `options`'
/// profile: half away from zero for Arrow, Spark, Presto and Trino (as their
/// decimal-to-decimal casts), the options' mode for FixedPoint.
pub(crate) fn decimal_rounding(options: &ArithmeticOptions) -> RoundingMode {
    rules(options).get().decimal_rounding()
}

/// `operand` cast to the integer type `T` row by row (SQL `CAST(x AS
/// BIGINT)`): rounded once to an integer with the profile's mode (toward zero
/// under Arrow and Spark, half away from zero under Presto and Trino, the
/// options' mode under FixedPoint), then checked against `T`'s range.
///
/// ```
/// use decimal_kernels::{cast, ArithmeticOptions, DecimalArray, DecimalType, OverflowPolicy};
/// let a = DecimalArray::from_strs(DecimalType::try_new(6, 1)?, &[Some("2.5"), Some("-0.5"), None, Some("300.0")])?;
/// let trino = ArithmeticOptions::presto().with_on_overflow(OverflowPolicy::Null);
/// let rounded = cast::to_integer::<i8>(&a, &trino)?;
/// assert_eq!((0..4).map(|r| rounded.get(r)).collect::<Vec<_>>(), [Some(3), Some(-1), None, None]);
/// let truncated = cast::to_integer::<i64>(&a, &ArithmeticOptions::spark())?;
/// assert_eq!((0..4).map(|r| truncated.get(r)).collect::<Vec<_>>(), [Some(2), Some(0), None, Some(300)]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::CastOverflow`] naming the first valid row whose value is
/// beyond `T`'s range under the `Error` overflow policy.
pub fn to_integer<'a, T: CastInteger>(
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<NullableBuffer<ScalarBuffer<T>>, DecimalError> {
    let operand = operand.into();
    // Every value of `T` is one of `decimal(DIGITS, 0)`: a rounded value
    // beyond that precision is beyond `T` (the rescale nulls it).
    let integers = DecimalType::try_new(T::DIGITS, 0)?;
    let rescale = ArithmeticOptions::fixed_point()
        .with_rounding(integer_rounding(options))
        .with_on_overflow(OverflowPolicy::Null);
    let operation = Operation::Unary { op: UnaryOp::Rescale { to: integers }, operand };
    let request =
        Request::new(operation, &rescale).stored(ResultStorage::Exact(StorageWidth::I128));
    let rounded = run(request)?;
    // Stored as i128 (the request's width): shared, not converted.
    let stored = rounded.values().to_native::<i128>(|r| rounded.is_valid(r));
    let stored = stored.map_err(|row| rounded.out_of_range(row))?;
    let mut values = Vec::with_capacity(stored.len());
    let mut in_range = true;
    for (row, &v) in stored.iter().enumerate() {
        match T::from_i128(v) {
            Some(x) => values.push(x),
            None => {
                values.push(T::default());
                in_range &= !rounded.is_valid(row);
            }
        }
    }
    let operand_nulls = match operand {
        Operand::Array(a) => a.null_count(),
        Operand::Scalar(s) if s.is_null() => rounded.len(),
        Operand::Scalar(_) => 0,
    };
    let nulls = if in_range && rounded.null_count() == operand_nulls {
        rounded.nulls().cloned()
    } else {
        let mut valid = Vec::with_capacity(values.len());
        for (row, &v) in stored.iter().enumerate() {
            let fits = rounded.is_valid(row) && T::from_i128(v).is_some();
            if !fits
                && operand.value(row).is_some()
                && options.on_overflow() == OverflowPolicy::Error
            {
                let value = operand.text(row);
                return Err(DecimalError::CastOverflow { row, value, target: T::NAME.into() });
            }
            valid.push(fits);
        }
        Some(NullBuffer::from(valid))
    };
    Ok(NullableBuffer::new(ScalarBuffer::from(values), nulls.filter(|n| n.null_count() > 0)))
}

/// The integers `values` (null where `nulls` says so) as decimals of type
/// `to` (SQL `CAST(n AS DECIMAL(p, s))`): exact, the digits of a negative
/// scale rounded with the profile's mode for casts into decimals (half away
/// from zero, FixedPoint the options' mode); a value beyond `to`'s precision
/// is the options' overflow. Results are stored as the profile stores `to`.
///
/// ```
/// use decimal_kernels::{cast, ArithmeticOptions, DecimalType, OverflowPolicy};
/// let to = DecimalType::try_new(5, 2)?;
/// let opts = ArithmeticOptions::default().with_on_overflow(OverflowPolicy::Null);
/// let cast = cast::from_integer(vec![7i64, -120, 1_000], None, to, &opts)?;
/// assert_eq!(cast.to_strs(), [Some("7.00".into()), Some("-120.00".into()), None]);
/// // A negative scale drops digits: rounded with the options' mode under
/// // FixedPoint (toward zero by default), half away from zero elsewhere.
/// let thousands = DecimalType::try_new(20, -3)?;
/// let cast = cast::from_integer(vec![u64::MAX], None, thousands, &opts)?;
/// assert_eq!(cast.to_strs(), [Some("18446744073709551000".into())]);
/// let cast = cast::from_integer(vec![u64::MAX], None, thousands, &ArithmeticOptions::spark())?;
/// assert_eq!(cast.to_strs(), [Some("18446744073709552000".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::LengthMismatch`] when `nulls` has another length than
/// `values`; [`DecimalError::StorageTooNarrow`] when the profile's width
/// cannot hold `to`; [`DecimalError::CastOverflow`] naming the first valid
/// row beyond `to`'s precision under the `Error` overflow policy.
pub fn from_integer<T: CastInteger>(
    values: impl Into<ScalarBuffer<T>>,
    nulls: Option<NullBuffer>,
    to: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let stored = T::stored(values.into());
    // Declared at the widest precision of the storage: the kernels take the
    // values as the integers they are, and the unsigned ones fit it.
    let dtype = DecimalType::try_new(<T::Stored as DecimalNative>::WIDTH.max_precision(), 0)?;
    let integers = DecimalArray::new_unchecked(dtype, stored, nulls)?;
    let rescale = options.with_rounding(decimal_rounding(options));
    let operation =
        Operation::Unary { op: UnaryOp::Rescale { to }, operand: Operand::Array(&integers) };
    run(Request::new(operation, &rescale)).map_err(|e| match e {
        DecimalError::UnaryOverflow { row, value, .. } => {
            DecimalError::CastOverflow { row, value, target: to.to_string() }
        }
        other => other,
    })
}
