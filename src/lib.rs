//! Vectorized decimal arithmetic for query engines: `+ - * /` on decimal
//! columns, exact to the last digit under each engine's rules.
//!
//! - Types: [`DecimalType`] `decimal(p, s)` with precision up to 76 and
//!   negative scales, stored in any [`StorageWidth`] from `i8` to `i256`.
//! - Columns: [`DecimalArray`] (Arrow buffers, validity bitmaps, zero-copy
//!   slices); single values: [`DecimalScalar`].
//! - Operators: [`add`], [`sub`], [`mul`], [`div`] (or [`binary`]) on any mix of
//!   arrays and scalars, with [`ArithmeticOptions`]: the profile
//!   ([`Semantics::FixedPoint`] or [`Semantics::Arrow`]), one of five
//!   [`RoundingMode`]s, and an [`OverflowPolicy`] for overflow and for division
//!   by zero.
//! - [`DecimalScalar::binary`] is the exact reference every kernel is checked
//!   against; [`conformance`] lets an engine hold its own kernels to it.
//!
//! ```
//! use decimal_kernels::{mul, ArithmeticOptions, DecimalArray, DecimalType, RoundingMode};
//! let t = DecimalType::try_new(10, 2)?;
//! let prices = DecimalArray::from_strs(t, &[Some("0.15"), Some("-0.15"), None])?;
//! let opts = ArithmeticOptions::default().with_rounding(RoundingMode::Ceiling);
//! let squared = mul(&prices, &prices, &opts)?;
//! assert_eq!(squared.dtype(), t);
//! assert_eq!(squared.to_strs(), vec![Some("0.03".into()), Some("0.03".into()), None]);
//! # Ok::<(), decimal_kernels::DecimalError>(())
//! ```

mod array;
#[cfg(feature = "arrow")]
pub mod arrow;
pub mod conformance;
mod dispatch;
mod error;
mod options;
mod profile;
mod reference;
mod scalar;
mod text;
mod types;

pub use array::{DecimalArray, DecimalNative, DecimalValues};
pub use dispatch::{Operand, binary};
pub use error::DecimalError;
pub use options::{ArithmeticOptions, BinaryOp, OverflowPolicy, RoundingMode, Semantics};
pub use profile::result_type;
pub use scalar::DecimalScalar;
pub use types::{DecimalType, MAX_PRECISION, StorageWidth};

/// `lhs + rhs` row by row; see [`binary`].
///
/// # Errors
/// As [`binary`].
pub fn add<'a>(
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    binary(BinaryOp::Add, lhs, rhs, options)
}

/// `lhs - rhs` row by row; see [`binary`].
///
/// # Errors
/// As [`binary`].
pub fn sub<'a>(
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    binary(BinaryOp::Sub, lhs, rhs, options)
}

/// `lhs * rhs` row by row; see [`binary`].
///
/// # Errors
/// As [`binary`].
pub fn mul<'a>(
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    binary(BinaryOp::Mul, lhs, rhs, options)
}

/// `lhs / rhs` row by row; see [`binary`].
///
/// # Errors
/// As [`binary`].
pub fn div<'a>(
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    binary(BinaryOp::Div, lhs, rhs, options)
}

/// The README's examples, compiled and run as doc tests.
#[cfg(all(doctest, feature = "arrow"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
