//! `arrow_cast::cast_with_options` with exact decimal-to-decimal casts: one
//! [`CastPlan`], made and run.

use arrow_array::{Array, ArrayRef};
use arrow_cast::CastOptions;
use arrow_schema::{ArrowError, DataType};

use crate::arrow::CastPlan;
#[cfg(doc)]
use crate::types::{RoundingMode, UnaryOp};

/// `array` cast to `to_type`, as `arrow_cast::cast_with_options(array,
/// to_type, options)` casts it: the same parameters, so a drop-in. A cast
/// from an Arrow decimal (`Decimal32`, `Decimal64`, `Decimal128`,
/// `Decimal256`) to an Arrow decimal (any of the four, any precision and
/// scale, negative scales included) runs through this crate's rescale kernel
/// ([`UnaryOp::Rescale`]) with arrow-cast's result:
///
/// - digits dropped from the scale round half away from zero
///   ([`RoundingMode::HalfUp`]) at every pair of widths: `-1.255` at scale 2
///   is `-1.26`;
/// - a value beyond the target precision is a null row under `safe: true`;
///   under `safe: false` the first such valid row fails the call, with
///   arrow-cast's error: [`ArrowError::InvalidArgumentError`] with arrow-rs's
///   "too large (small) to store" message where the cast value fits the
///   target's native integer, [`ArrowError::CastError`] ("Cannot cast to
///   Decimal32(9, 2). Overflowing on 123") where it does not;
/// - the result's type is exactly `to_type`, its nulls those of `array`
///   (and of the rows that did not fit).
///
/// A cast between an Arrow decimal and `Int8`..`Int64`, `UInt8`..`UInt64`,
/// `Float32` or `Float64` runs through [`crate::cast`] under the Arrow
/// profile: decimal to integer truncates toward zero, integer to decimal is
/// exact, decimal to float is the nearest float, float to decimal rounds the
/// float's exact binary value once, half away from zero; a value that does
/// not fit (NaN and infinities included) is a null row under `safe: true`
/// and fails the call under `safe: false`, with arrow-cast's error for that
/// row.
///
/// A cast between an Arrow string type (`Utf8`, `LargeUtf8`, `Utf8View`)
/// and an Arrow decimal reads with [`crate::cast::parse`] and writes with
/// [`crate::cast::format`] (see [Text casts](#text-casts) below).
///
/// Every other cast (`Float16`, any pair without an Arrow decimal) is
/// `arrow_cast::cast_with_options` itself.
///
/// The same casts under another profile (Spark's, Presto's, FixedPoint's
/// rounding and overflow policy) are [`cast_with`](super::cast_with).
///
/// Deliberate differences from arrow-cast (`cast/decimal.rs` of arrow-cast
/// 59.3 and 60.1), all where arrow-cast is not exact:
///
/// - A scale raised by more digits than the target width's maximum
///   precision (`Decimal32(9, 0)` to `Decimal32(9, 9)` is fine, from scale
///   -1 it is not): arrow-cast fails the whole call ("Value overflows for
///   output scale"), even under `safe: true` and for zeros and nulls; here
///   each row is cast (zero stays zero, any other value overflows).
/// - Values beyond their declared source precision, which arrow-rs arrays can
///   hold: rescaled exactly and checked against the target precision, in
///   every cast including one to the same type; arrow-cast passes them on
///   unchecked wherever the types alone prove that in-precision values fit
///   (the same type, the same scale with no fewer digits, enough digits for
///   the scale change), and panics where such a value then misses a narrower
///   target width.
/// - arrow-cast 59 computes the scale change, and the digits it needs, in
///   `i8`: past 127 (a `Decimal256(76, 0)` raised to scale 60, scales far
///   below zero) that panics where overflow checks are on and wraps, skipping
///   the precision check, where they are off. Here the cast is exact.
/// - Float to decimal: arrow-cast rounds `x * 10^s` computed in `f64`, two
///   roundings; here the float's exact value is rounded once. The product
///   can land on a tie the float is not on (`0.045`, which is
///   `0.04499999999999999833`, is `0.05` at scale 2 in arrow-cast and
///   `0.04` here), and at large scales its binary digits show
///   (`1/3.0` at `Decimal256(76, 30)`: arrow-cast gives
///   `0.333333333333333316505293553664`, the double is
///   `0.333333333333333314829616256247…`); a negative scale multiplies by
///   an inexact `10^s` there.
/// - Integer to decimal at a negative scale: arrow-cast truncates the
///   dropped digits (`1250` at scale -2 is `1200`); here they round half
///   away from zero as every Arrow-profile cast into decimals does (`1300`).
/// - Decimal of negative scale to integer: arrow-cast first multiplies by
///   `10^-s` in the decimal's own integer, and a row whose product leaves
///   it is null (or fails) even where the integer fits the target
///   (`Decimal64(18, -3)` holding `9999999999999999` thousands to
///   `UInt64`); here each row is exact.
/// - Decimal to float: arrow-cast 60 rounds once, as here; arrow-cast 59
///   divides `a as f64` by `10^s` (two roundings when `|a| >= 2^53` or
///   `s > 22`), and narrows an `f64` to `f32` (a second rounding).
/// - arrow-cast 59 converts an integer beyond the target decimal's native
///   integer with `as`, wrapping (`u32::MAX` is `-1` in a `Decimal32`), and
///   a `Decimal256` beyond `i64` to an integer by its low 64 bits (`2^64` is
///   `0` as `Int8`); here such rows overflow.
/// - A target type its Arrow width cannot have (`Decimal32(10, 2)`) fails
///   with arrow-rs's type error before any row is read (arrow-cast may first
///   report a failing row); a decimal with a scale below -76, which arrow-rs
///   accepts, is an [`ArrowError::InvalidArgumentError`] here.
///
/// # Text casts
///
/// Strings to a decimal: the rounded mode of [`crate::cast::parse`] (each
/// text's exact value rounded once), half away from zero as arrow-cast rounds;
/// a row that is not a number or does not fit the target precision is null
/// under `safe: true` and fails the call under `safe: false` with
/// arrow-cast's [`ArrowError::CastError`] ("Cannot cast string 'abc' to
/// value of Decimal128(10, 2) type: invalid decimal format", or "value does
/// not fit"). Decimal to strings: arrow-cast 60's text (the canonical text),
/// as `Utf8`, `LargeUtf8` or `Utf8View`. Differences from arrow-cast 60,
/// found by comparing the two on thousands of edge texts
/// (`tests/text_casts.rs`):
///
/// - Values: none. arrow-cast 60 reads the same grammar (ASCII whitespace,
///   sign, digits on either side of the point, `e`/`E` exponents saturated
///   at `i64`) and rounds half away from zero from the exact digits; on some
///   800,000 generated edge texts (exponents to ±10^22, 100-digit mantissas,
///   60 leading zeros, every width, negative scales) every row is equal.
/// - The error of `safe: false` for a text whose leading digits already
///   overflow the native integer and that is malformed further on
///   (`"1234567890123.5x"` to `Decimal32`): arrow-cast says "value does not
///   fit", this cast "invalid decimal format".
/// - arrow-cast 59 (`parse_decimal` and `format_decimal_str` of 59.3) reads
///   differently: it truncates digits beyond the scale instead of rounding
///   them and computes the exponent in `i16`; and it writes a value beyond
///   its precision cut to the precision's digits. This cast is the same on
///   both majors.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_cast_59 as arrow_cast;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{Array, Decimal32Array, Decimal128Array};
/// use arrow_cast::CastOptions;
/// use arrow_schema::{ArrowError, DataType};
/// use decimal_kernels::arrow;
/// let a = Decimal128Array::from(vec![Some(-1_255), Some(99_995), None])
///     .with_precision_and_scale(10, 3)?;
/// // To Decimal32(4, 2): -1.255 rounds half away from zero to -1.26; 99.995
/// // rounds to 100.00, beyond 4 digits, so a null row under `safe: true`.
/// let safe = CastOptions { safe: true, ..CastOptions::default() };
/// let cast = arrow::cast(&a, &DataType::Decimal32(4, 2), &safe)?;
/// let cast = cast.as_any().downcast_ref::<Decimal32Array>().expect("Decimal32");
/// assert_eq!(cast.data_type(), &DataType::Decimal32(4, 2));
/// assert_eq!((cast.value(0), cast.is_null(1), cast.is_null(2)), (-126, true, true));
/// // Under `safe: false` the row fails the call, with arrow-cast's error.
/// let strict = CastOptions { safe: false, ..CastOptions::default() };
/// let err = arrow::cast(&a, &DataType::Decimal32(4, 2), &strict).unwrap_err();
/// assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
/// assert!(err.to_string().contains("100.00 is too large to store in a Decimal32 of precision 4"), "{err}");
/// // Decimals to strings write arrow-cast's text; strings read back, rounded.
/// let text = arrow::cast(&a, &DataType::Utf8, &safe)?;
/// assert_eq!(text.data_type(), &DataType::Utf8);
/// let back = arrow::cast(&text, &DataType::Decimal32(4, 2), &safe)?;
/// assert_eq!(back.as_any().downcast_ref::<Decimal32Array>().expect("Decimal32").value(0), -126);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As above for a decimal cast under `safe: false`; arrow-rs's type error
/// ([`ArrowError::InvalidArgumentError`]) for a target type invalid for its
/// Arrow width, and [`ArrowError::InvalidArgumentError`] for a decimal type
/// outside this crate's range; otherwise what `arrow_cast::cast_with_options`
/// returns.
pub fn cast(
    array: &dyn Array,
    to_type: &DataType,
    options: &CastOptions<'_>,
) -> Result<ArrayRef, ArrowError> {
    CastPlan::new(array.data_type(), to_type, options)?.run(array)
}
