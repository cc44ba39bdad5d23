//! The operators of one operand: rescale (a cast to another decimal type),
//! negation and absolute value, from a dynamic operand to one typed kernel
//! call, as `dispatch` does for two.

use core::fmt;

use decimal_kernels_native::{self as native, Frame, KernelError, RescaleSpec};

use crate::array::{DecimalArray, DecimalNative, with_native};
use crate::dispatch::{Operand, over_rows};
use crate::error::DecimalError;
use crate::options::{ArithmeticOptions, Semantics};
use crate::profile::result_width;
use crate::types::{DecimalType, StorageWidth};

/// An operator of one operand.
///
/// ```
/// use decimal_kernels::{unary, ArithmeticOptions, DecimalArray, DecimalType, RoundingMode, UnaryOp};
/// let a = DecimalArray::from_strs(DecimalType::try_new(6, 3)?, &[Some("-1.255")])?;
/// let to = DecimalType::try_new(5, 2)?;
/// let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfUp);
/// for (op, want) in [(UnaryOp::Rescale { to }, "-1.26"), (UnaryOp::Neg, "1.255"), (UnaryOp::Abs, "1.255")] {
///     assert_eq!(unary(op, &a, &opts)?.to_strs(), [Some(want.to_string())], "{op}");
/// }
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnaryOp {
    /// The value at type `to` (SQL `CAST(x AS DECIMAL(p, s))`): rounded once
    /// with the options' mode when `to` has a smaller scale, an overflow when
    /// it exceeds `to`'s precision.
    Rescale {
        /// The result type.
        to: DecimalType,
    },
    /// `-x`, at the operand's type.
    Neg,
    /// `|x|`, at the operand's type.
    Abs,
}

impl UnaryOp {
    /// The result type for an operand of type `operand`.
    #[must_use]
    pub fn result_type(self, operand: DecimalType) -> DecimalType {
        match self {
            Self::Rescale { to } => to,
            Self::Neg | Self::Abs => operand,
        }
    }
}

impl fmt::Display for UnaryOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Rescale { to } => write!(f, "rescale to {to}"),
            Self::Neg => f.write_str("-"),
            Self::Abs => f.write_str("abs"),
        }
    }
}

/// `op operand` row by row, under `options`: results stored as the profile
/// stores a result of their type (see [`Semantics`]).
///
/// ```
/// use decimal_kernels::{unary, ArithmeticOptions, DecimalArray, DecimalType, OverflowPolicy, UnaryOp};
/// let a = DecimalArray::from_strs(DecimalType::try_new(7, 2)?, &[Some("99.99"), Some("100.00"), None])?;
/// // The overflow check after an operator: the same scale, fewer digits.
/// let check = UnaryOp::Rescale { to: DecimalType::try_new(4, 2)? };
/// let opts = ArithmeticOptions::default().with_on_overflow(OverflowPolicy::Null);
/// assert_eq!(unary(check, &a, &opts)?.to_strs(), [Some("99.99".into()), None, None]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::StorageTooNarrow`] when an Arrow profile's width cannot
/// hold the result type; [`DecimalError::UnaryOverflow`] naming the first
/// failing valid row under the `Error` overflow policy.
pub fn unary<'a>(
    op: UnaryOp,
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let operand = operand.into();
    let result = op.result_type(operand.dtype());
    let out_width = result_width(result, options).ok_or_else(|| {
        let width = match options.semantics() {
            Semantics::Arrow { width } => width,
            _ => result.storage_width(),
        };
        DecimalError::StorageTooNarrow { dtype: result, width }
    })?;
    unary_stored(op, operand, out_width, options)
}

/// `op operand` with results stored as `out_width` (which holds the result
/// type).
pub(crate) fn unary_stored(
    op: UnaryOp,
    operand: Operand<'_>,
    out_width: StorageWidth,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let result = op.result_type(operand.dtype());
    let len = match operand {
        Operand::Array(a) => a.len(),
        Operand::Scalar(_) => 1,
    };
    over_rows(&[operand], len, result, out_width, options, |frame| {
        Ok(with_native!(out_width, T => {
            let output = run::<T>(op, operand, result, options, frame)?;
            (T::into_values(output.values), output.nulls)
        }))
    })
}

/// The kernel call with results stored as `T`.
fn run<T: DecimalNative>(
    op: UnaryOp,
    operand: Operand<'_>,
    result: DecimalType,
    options: &ArithmeticOptions,
    frame: &Frame<'_>,
) -> Result<native::Output<T>, DecimalError> {
    let input = operand.input();
    let precision = result.precision();
    let output = match op {
        UnaryOp::Rescale { to } => {
            let shift = i32::from(operand.dtype().scale()) - i32::from(to.scale());
            native::rescale(input, &RescaleSpec::new(shift, options.rounding(), precision), frame)
        }
        UnaryOp::Neg => native::neg(input, precision, frame),
        UnaryOp::Abs => native::abs(input, precision, frame),
    };
    output.map_err(|error| match error {
        KernelError::Overflow { row } => {
            DecimalError::UnaryOverflow { row, result_type: result, op, value: operand.text(row) }
        }
        KernelError::LengthMismatch { expected, actual } => {
            DecimalError::LengthMismatch { expected, actual }
        }
        // The only other failure: a storage narrower than the result
        // precision, which the callers never choose.
        _ => DecimalError::StorageTooNarrow { dtype: result, width: T::WIDTH },
    })
}
