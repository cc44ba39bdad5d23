//! `round`, `floor`, `ceil` and `trunc` to `digits` fraction digits: each
//! [`unary`] with [`UnaryOp::Round`], one pass through the funnel, at the
//! profile's type (see [`UnaryOp::result_type_under`] and the
//! [semantics](crate::semantics#round)).

use crate::compute::operand::Operand;
use crate::compute::unary::unary;
use crate::types::{ArithmeticOptions, DecimalError, RoundFunction, UnaryOp};
use crate::values::DecimalArray;

/// `round(operand, digits)` row by row: to the nearest multiple of
/// `10^-digits`, a tie away from zero whatever the options' rounding mode,
/// at the profile's type ([`UnaryOp::result_type_under`]); any `digits`,
/// negative ones rounding digits before the point.
///
/// ```
/// use decimal_kernels::{round, ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(4, 2)?, &[Some("9.99"), Some("-2.45"), None])?;
/// // FixedPoint keeps the precision and takes scale 1.
/// let r = round(&a, 1, &ArithmeticOptions::default())?;
/// assert_eq!(r.to_strs(), [Some("10.0".into()), Some("-2.5".into()), None]);
/// // Trino keeps the scale, one digit more.
/// let r = round(&a, 1, &ArithmeticOptions::presto())?;
/// assert_eq!((r.dtype().to_string(), r.to_strs()[0].clone()), ("decimal(5,2)".into(), Some("10.00".into())));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`unary`]; [`DecimalError::UnsupportedOperand`] where the profile has
/// no such operand (Spark, Presto and Trino above 38 digits, Presto and
/// Trino with a negative scale).
pub fn round<'a>(
    operand: impl Into<Operand<'a>>,
    digits: i32,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    unary(UnaryOp::Round { function: RoundFunction::Round, digits }, operand, options)
}

/// `floor(operand, digits)`: the largest multiple of `10^-digits` not above
/// the value, at the profile's type; as [`round`] otherwise.
///
/// ```
/// use decimal_kernels::{floor, ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(3, 2)?, &[Some("-0.35"), Some("0.35")])?;
/// let r = floor(&a, 1, &ArithmeticOptions::spark())?;
/// assert_eq!(r.to_strs(), [Some("-0.4".into()), Some("0.3".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`round`].
pub fn floor<'a>(
    operand: impl Into<Operand<'a>>,
    digits: i32,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    unary(UnaryOp::Round { function: RoundFunction::Floor, digits }, operand, options)
}

/// `ceil(operand, digits)`: the smallest multiple of `10^-digits` not below
/// the value, at the profile's type; as [`round`] otherwise.
///
/// ```
/// use decimal_kernels::{ceil, ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(3, 2)?, &[Some("-0.35"), Some("0.35")])?;
/// let r = ceil(&a, 1, &ArithmeticOptions::spark())?;
/// assert_eq!(r.to_strs(), [Some("-0.3".into()), Some("0.4".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`round`].
pub fn ceil<'a>(
    operand: impl Into<Operand<'a>>,
    digits: i32,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    unary(UnaryOp::Round { function: RoundFunction::Ceil, digits }, operand, options)
}

/// `trunc(operand, digits)`: the digits beyond `digits` dropped, toward
/// zero, at the profile's type; as [`round`] otherwise.
///
/// ```
/// use decimal_kernels::{trunc, ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("-123.45")])?;
/// let r = trunc(&a, -1, &ArithmeticOptions::presto())?;
/// assert_eq!((r.dtype().to_string(), r.to_strs()), ("decimal(5,2)".into(), vec![Some("-120.00".into())]));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`round`].
pub fn trunc<'a>(
    operand: impl Into<Operand<'a>>,
    digits: i32,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    unary(UnaryOp::Round { function: RoundFunction::Trunc, digits }, operand, options)
}
