//! The operators of one operand on Arrow decimal arrays: [`neg`] and [`abs`]
//! (arrow-arith's `neg` and the absolute value), and [`round`], [`floor`],
//! [`ceil`], [`trunc`] to `digits` with DataFusion's result types: each the
//! native operator under the Arrow profile at the array's width, one request
//! to the funnel, the operand's buffers read in place.
//!
//! Differences from arrow-rs: `arrow_arith::numeric::neg` checks only the
//! native width (a value beyond its precision, which an Arrow array may hold,
//! is negated as stored), where [`neg`] and [`abs`] check the precision of
//! the type and return [`ArrowError::ArithmeticOverflow`] for such a value
//! (the first valid row). arrow-rs has no decimal rounding; DataFusion's
//! `round` of a decimal returns the same values and types as [`round`], and
//! DataFusion has no `floor` or `ceil` with digits, and its one-argument
//! `floor`, `ceil` and `trunc` of `decimal(p, s)` keep `x`'s type (the value
//! an integer at scale `s`), where `floor(x, 0)` here is `decimal(p, 0)`:
//! the same values (`decimal-kernels-datafusion` rescales them back).

use arrow_array::{Array, ArrayRef};
use arrow_schema::ArrowError;

use crate::compute::unary::unary;
use crate::types::{ArithmeticOptions, RoundFunction, UnaryOp};
use crate::values::DecimalArray;

/// `op array` under the Arrow profile at the array's width.
fn arrow_unary(op: UnaryOp, array: &dyn Array) -> Result<ArrayRef, ArrowError> {
    let operand = DecimalArray::from_arrow(array)?;
    let options = ArithmeticOptions::arrow(operand.width());
    Ok(unary(op, &operand, &options)?.to_arrow())
}

/// `-x` row by row, at the array's type: `arrow_arith::numeric::neg` on a
/// decimal array, checked against the precision.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{cast::AsArray, types::Decimal64Type, Decimal64Array};
/// use decimal_kernels::arrow;
/// let a = Decimal64Array::from(vec![Some(150), None]).with_precision_and_scale(10, 2)?;
/// let n = arrow::neg(&a)?;
/// assert_eq!(n.as_primitive::<Decimal64Type>().value_as_string(0), "-1.50");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ArrowError::InvalidArgumentError`] for a non-decimal array;
/// [`ArrowError::ArithmeticOverflow`] for the first valid row beyond the
/// precision.
pub fn neg(array: &dyn Array) -> Result<ArrayRef, ArrowError> {
    arrow_unary(UnaryOp::Neg, array)
}

/// `|x|` row by row, at the array's type.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{cast::AsArray, types::Decimal128Type, Decimal128Array};
/// use decimal_kernels::arrow;
/// let a = Decimal128Array::from(vec![-150, 7]).with_precision_and_scale(10, 2)?;
/// let r = arrow::abs(&a)?;
/// assert_eq!(r.as_primitive::<Decimal128Type>().values().as_ref(), [150, 7]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`neg`].
pub fn abs(array: &dyn Array) -> Result<ArrayRef, ArrowError> {
    arrow_unary(UnaryOp::Abs, array)
}

/// `round(x, digits)` row by row, half away from zero, at DataFusion's type
/// ([`UnaryOp::result_type_under`] with [`ArithmeticOptions::arrow`]):
/// `decimal(p, max(digits, 0))` when digits are dropped below a positive
/// scale, `decimal(min(p + 1, max), s)` when they are dropped at a scale of
/// 0 or less, the array's type otherwise.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{cast::AsArray, types::Decimal128Type, Array, Decimal128Array};
/// use arrow_schema::DataType;
/// use decimal_kernels::arrow;
/// let a = Decimal128Array::from(vec![12_345, -12_355]).with_precision_and_scale(10, 4)?;
/// let r = arrow::round(&a, 3)?;
/// assert_eq!(r.data_type(), &DataType::Decimal128(10, 3));
/// assert_eq!(r.as_primitive::<Decimal128Type>().values().as_ref(), [1_235, -1_236]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`neg`], for the first valid row beyond the result type.
pub fn round(array: &dyn Array, digits: i32) -> Result<ArrayRef, ArrowError> {
    arrow_unary(UnaryOp::Round { function: RoundFunction::Round, digits }, array)
}

/// `floor(x, digits)` row by row, at [`round`]'s type.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{cast::AsArray, types::Decimal32Type, Decimal32Array};
/// use decimal_kernels::arrow;
/// let a = Decimal32Array::from(vec![-35, 35]).with_precision_and_scale(3, 2)?;
/// let r = arrow::floor(&a, 1)?;
/// assert_eq!(r.as_primitive::<Decimal32Type>().values().as_ref(), [-4, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`round`].
pub fn floor(array: &dyn Array, digits: i32) -> Result<ArrayRef, ArrowError> {
    arrow_unary(UnaryOp::Round { function: RoundFunction::Floor, digits }, array)
}

/// `ceil(x, digits)` row by row, at [`round`]'s type.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{cast::AsArray, types::Decimal32Type, Decimal32Array};
/// use decimal_kernels::arrow;
/// let a = Decimal32Array::from(vec![-35, 35]).with_precision_and_scale(3, 2)?;
/// let r = arrow::ceil(&a, 1)?;
/// assert_eq!(r.as_primitive::<Decimal32Type>().values().as_ref(), [-3, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`round`].
pub fn ceil(array: &dyn Array, digits: i32) -> Result<ArrayRef, ArrowError> {
    arrow_unary(UnaryOp::Round { function: RoundFunction::Ceil, digits }, array)
}

/// `trunc(x, digits)` row by row, toward zero, at [`round`]'s type.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{cast::AsArray, types::Decimal64Type, Decimal64Array};
/// use decimal_kernels::arrow;
/// let a = Decimal64Array::from(vec![-12_345]).with_precision_and_scale(7, 2)?;
/// let r = arrow::trunc(&a, -1)?;
/// assert_eq!(r.as_primitive::<Decimal64Type>().value_as_string(0), "-120");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`round`].
pub fn trunc(array: &dyn Array, digits: i32) -> Result<ArrayRef, ArrowError> {
    arrow_unary(UnaryOp::Round { function: RoundFunction::Trunc, digits }, array)
}
