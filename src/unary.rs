//! The operators of one operand: rescale (a cast to another decimal type),
//! negation and absolute value, from a dynamic operand to one typed kernel
//! call, as `dispatch` does for two.

use core::fmt;

use decimal_kernels_native::{self as native, KernelError, RescaleSpec};

use crate::array::{DecimalArray, DecimalNative, with_native};
use crate::dispatch::{Operand, Recycled, over_rows};
use crate::error::DecimalError;
use crate::options::ArithmeticOptions;
use crate::profile::stored_width;
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
            Self::Rescale { .. } => f.write_str("rescale"),
            Self::Neg => f.write_str("neg"),
            Self::Abs => f.write_str("abs"),
        }
    }
}

/// `op operand` row by row, under `options`: results stored as the profile
/// stores a result of their type (see [`Semantics`](crate::Semantics)).
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
/// hold the result type (or is `I8` or `I16`, which Arrow does not have);
/// [`DecimalError::UnaryOverflow`] naming the first failing valid row under
/// the `Error` overflow policy.
pub fn unary<'a>(
    op: UnaryOp,
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let operand = operand.into();
    let out_width = stored_width(op.result_type(operand.dtype()), options)?;
    unary_stored(op, operand, out_width, options, Recycled::default())
}

/// `op operand` as [`unary`], written into the memory of `recycled`, a
/// result the caller is done with: what
/// [`binary_recycling`](crate::binary_recycling) is to
/// [`binary`](crate::binary), with the same rules for what is reused (the
/// validity is the operand's, shared, so once `recycled` holds a previous
/// result a call allocates only the values buffer's fixed-size header). A
/// rescale that only widens the type of a checked array shares the operand's
/// buffers as [`unary`] does, and drops `recycled`.
///
/// ```
/// use decimal_kernels::{unary, unary_recycling, ArithmeticOptions, DecimalArray, DecimalType, UnaryOp};
/// let t = DecimalType::try_new(12, 4)?;
/// let to = UnaryOp::Rescale { to: DecimalType::try_new(10, 2)? };
/// let opts = ArithmeticOptions::default();
/// let first = DecimalArray::from_strs(t, &[Some("1.2345"), None])?;
/// let previous = unary(to, &first, &opts)?;
/// let second = DecimalArray::from_strs(t, &[Some("-0.2500"), Some("7")])?;
/// let cast = unary_recycling(to, &second, &opts, previous)?;
/// assert_eq!(cast.to_strs(), [Some("-0.25".into()), Some("7.00".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`unary`].
pub fn unary_recycling<'a>(
    op: UnaryOp,
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
    recycled: DecimalArray,
) -> Result<DecimalArray, DecimalError> {
    let operand = operand.into();
    let out_width = stored_width(op.result_type(operand.dtype()), options)?;
    unary_stored(op, operand, out_width, options, Recycled::from(recycled))
}

/// `op operand` with results stored as `out_width` (which holds the result
/// type), written into `recycled` where it serves.
pub(crate) fn unary_stored(
    op: UnaryOp,
    operand: Operand<'_>,
    out_width: StorageWidth,
    options: &ArithmeticOptions,
    recycled: Recycled,
) -> Result<DecimalArray, DecimalError> {
    let result = op.result_type(operand.dtype());
    if let (UnaryOp::Rescale { to }, Operand::Array(a)) = (op, operand)
        && widens(a, to)
        && a.width() == out_width
    {
        // Only the type changes: the buffers are shared, nothing is computed.
        return Ok(DecimalArray::from_parts(to, a.values().clone(), a.nulls().cloned()));
    }
    let len = operand.rows();
    over_rows(&[operand], len, result, out_width, options, recycled, |frame, values| {
        Ok(with_native!(out_width, T => {
            let output = run::<T>(op, operand, result, options, frame.recycled(values.vec()))?;
            (T::into_values(output.values), output.nulls)
        }))
    })
}

/// Whether every value of `a` is a value of `to` as it is stored: the same
/// scale, at least the precision, and values known to fit their own.
fn widens(a: &DecimalArray, to: DecimalType) -> bool {
    let from = a.dtype();
    a.is_checked() && from.scale() == to.scale() && from.precision() <= to.precision()
}

/// The kernel call with results stored as `T`.
fn run<T: DecimalNative>(
    op: UnaryOp,
    operand: Operand<'_>,
    result: DecimalType,
    options: &ArithmeticOptions,
    frame: native::Recycled<'_, T>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::array::DecimalValues;
    use arrow_buffer::ScalarBuffer;

    fn t(p: u8, s: i8) -> DecimalType {
        DecimalType::try_new(p, s).unwrap()
    }

    fn i128_buffer(a: &DecimalArray) -> &ScalarBuffer<i128> {
        match a.values() {
            DecimalValues::I128(b) => b,
            other => panic!("stored as {:?}", other.width()),
        }
    }

    #[test]
    fn widening_a_checked_array_shares_its_buffers() {
        let a = DecimalArray::try_new(t(20, 2), ScalarBuffer::from(vec![1i128, -5, 7]), None)
            .unwrap()
            .slice(1, 2)
            .unwrap();
        let wider = unary(UnaryOp::Rescale { to: t(30, 2) }, &a, &ArithmeticOptions::default());
        let wider = wider.unwrap();
        assert_eq!(wider.dtype(), t(30, 2));
        assert_eq!(i128_buffer(&wider).as_ptr(), i128_buffer(&a).as_ptr());
        assert_eq!(wider.to_strs(), [Some("-0.05".into()), Some("0.07".into())]);
    }

    #[test]
    fn unchecked_arrays_are_checked_when_widened() {
        let beyond = 10i128.pow(31);
        // 32 digits stored under decimal(20,2): beyond even the target's 30.
        let a =
            DecimalArray::new_unchecked(t(20, 2), ScalarBuffer::from(vec![beyond]), None).unwrap();
        let err = unary(UnaryOp::Rescale { to: t(30, 2) }, &a, &ArithmeticOptions::default());
        assert!(matches!(err, Err(DecimalError::UnaryOverflow { row: 0, .. })), "{err:?}");
    }
}
