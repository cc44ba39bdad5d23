//! [`cast_with`]: the casts of [`cast`] (Arrow decimals to and from
//! decimals, integers, floats and strings) under any profile.
//!
//! Under the Arrow profile it is [`cast`] with `CastOptions::safe` taken
//! from the overflow policy. Under the others each pair with a decimal side
//! is the native cast of [`crate::cast`] (or [`crate::rescale`]) with the
//! options as given, so each profile casts as its engine does (the table in
//! [Casts between decimals and integers or floats](crate::semantics#casts-between-decimals-and-integers-or-floats)):
//! the same [`CastPlan`] as [`cast`]'s, made with the profile's rules
//! ([`CastPlan::with_profile`]).
//! A decimal result is stored at the Arrow width of the target type: the
//! profile's own width (Spark and Presto `i128`, FixedPoint the narrowest)
//! is converted exactly, integer to integer, where it differs.

use arrow_array::{Array, ArrayRef};
use arrow_schema::{ArrowError, DataType};

use crate::arrow::CastPlan;
#[cfg(doc)]
use crate::arrow::cast;
use crate::types::ArithmeticOptions;
#[cfg(doc)]
use crate::types::{OverflowPolicy, Semantics};

/// `array` cast to `to_type` under `options`' profile, rounding mode and
/// overflow policy: SQL's `CAST` as the profile's engine computes it, on
/// Arrow arrays, with a result of exactly `to_type`.
///
/// - Under [`Semantics::Arrow`] (any width): exactly [`cast`] with
///   `CastOptions { safe: options.on_overflow() == OverflowPolicy::Null, ..Default::default() }`,
///   arrow-cast's rules and error texts.
/// - Under the other profiles, a cast between an Arrow decimal
///   (`Decimal32`..`Decimal256`) and an Arrow decimal, `Int8`..`Int64`,
///   `UInt8`..`UInt64`, `Float32`, `Float64`, `Utf8`, `LargeUtf8` or
///   `Utf8View` is the native cast with `options`: [`crate::rescale`],
///   [`crate::cast::to_integer`] (Spark truncates, Presto rounds half away
///   from zero, FixedPoint uses the options' mode),
///   [`crate::cast::from_integer`], [`crate::cast::to_float`],
///   [`crate::cast::from_float`] (Spark and Presto read the float's shortest
///   text, half up), [`crate::cast::parse`] and [`crate::cast::format`]. A
///   value that does not fit is a null row under [`OverflowPolicy::Null`]
///   and fails the call under [`OverflowPolicy::Error`]; nulls stay null. A
///   decimal result is stored at `to_type`'s Arrow width, whatever width the
///   profile stores at (the same values, converted exactly).
/// - Any other pair (`Float16`, no decimal side): `arrow_cast::cast_with_options`
///   with `safe` from the overflow policy.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{Array, Decimal32Array, Decimal128Array, Float64Array, Int32Array};
/// use arrow_schema::{ArrowError, DataType};
/// use decimal_kernels::{arrow, ArithmeticOptions, OverflowPolicy};
/// let spark = ArithmeticOptions::spark();
/// // Spark's CAST(9.95 AS DECIMAL(3,1)) is 10.0: it reads the double's
/// // shortest text, 9.95, and rounds half up; 123.4 does not fit, a null row
/// // (Spark's default policy).
/// let floats = Float64Array::from(vec![Some(9.95), None, Some(123.4)]);
/// let cast = arrow::cast_with(&floats, &DataType::Decimal32(3, 1), &spark)?;
/// let cast = cast.as_any().downcast_ref::<Decimal32Array>().expect("Decimal32");
/// assert_eq!((cast.value(0), cast.is_null(1), cast.is_null(2)), (100, true, true));
/// // Spark truncates a decimal cast to an integer.
/// let prices = Decimal128Array::from(vec![-2_599, 2_550]).with_precision_and_scale(10, 2)?;
/// let ints = arrow::cast_with(&prices, &DataType::Int32, &spark)?;
/// let ints = ints.as_any().downcast_ref::<Int32Array>().expect("Int32");
/// assert_eq!(ints.values(), &[-25, 25]);
/// // Presto rounds half away from zero, and fails on the first row that
/// // does not fit, naming it.
/// let presto = ArithmeticOptions::presto();
/// let ints = arrow::cast_with(&prices, &DataType::Int32, &presto)?;
/// let ints = ints.as_any().downcast_ref::<Int32Array>().expect("Int32");
/// assert_eq!(ints.values(), &[-26, 26]);
/// let err = arrow::cast_with(&prices, &DataType::Decimal32(2, 1), &presto).unwrap_err();
/// assert!(matches!(err, ArrowError::ArithmeticOverflow(_)), "{err}");
/// assert!(err.to_string().contains("row 0") && err.to_string().contains("-25.99"), "{err}");
/// // Under the Arrow profile it is `arrow::cast`, safe by the policy.
/// let arrow_profile = ArithmeticOptions::arrow(decimal_kernels::StorageWidth::I128)
///     .with_on_overflow(OverflowPolicy::Null);
/// let cast = arrow::cast_with(&floats, &DataType::Decimal32(3, 1), &arrow_profile)?;
/// let cast = cast.as_any().downcast_ref::<Decimal32Array>().expect("Decimal32");
/// assert_eq!(cast.value(0), 99); // the double's exact value, 9.9499999…
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// Under [`Semantics::Arrow`], what [`cast`] returns. Otherwise, for a
/// pair with a decimal side: arrow-rs's type error
/// ([`ArrowError::InvalidArgumentError`]) for a decimal target its Arrow
/// width cannot have (`Decimal32(10, 2)`); under
/// [`OverflowPolicy::Error`], the crate's error for the first valid row that
/// does not fit, converted to an [`ArrowError`] (its message names the row
/// and the value): [`ArrowError::ArithmeticOverflow`] for a decimal target
/// ([`DecimalError::UnaryOverflow`](crate::DecimalError::UnaryOverflow)),
/// [`ArrowError::InvalidArgumentError`] for an integer target or from
/// integers or floats
/// ([`DecimalError::CastOverflow`](crate::DecimalError::CastOverflow)),
/// [`ArrowError::ParseError`] from strings
/// ([`DecimalError::Parse`](crate::DecimalError::Parse)); and any other error
/// of the native cast, converted (a type the profile refuses). For any other
/// pair, what `arrow_cast::cast_with_options` returns.
pub fn cast_with(
    array: &dyn Array,
    to_type: &DataType,
    options: &ArithmeticOptions,
) -> Result<ArrayRef, ArrowError> {
    CastPlan::with_profile(array.data_type(), to_type, options)?.run(array)
}
