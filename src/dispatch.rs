//! From dynamic operands to one typed kernel call.
//!
//! The result type comes from the profile; the operator's shape (shifts,
//! rounding, result precision) from the types. Both operands and the result
//! then meet at one storage width, the widest of the three (an operand stored
//! narrower is widened first, a result stored wider than the profile wants is
//! narrowed after), so each kernel is compiled once per width, not per pair of
//! widths. Validity is combined with one bitmap operation.

use arrow_buffer::{NullBuffer, ScalarBuffer};
use decimal_kernels_native::{
    self as native, DivSpec, Frame, Input, KernelError, Magnitude, MulSpec, Policies, SumSpec,
};

use crate::array::{DecimalArray, DecimalNative, DecimalValues, with_native};
use crate::error::DecimalError;
use crate::options::{ArithmeticOptions, BinaryOp};
use crate::profile::{result_type, result_width};
use crate::scalar::DecimalScalar;
use crate::types::{DecimalType, StorageWidth};

/// One side of an operation: a column or a single value broadcast to every row.
///
/// The operators take `impl Into<Operand>`, so `&DecimalArray` and
/// `&DecimalScalar` can be passed as they are.
///
/// ```
/// use decimal_kernels::{DecimalArray, DecimalScalar, DecimalType, Operand};
/// let t = DecimalType::try_new(10, 2)?;
/// let column = DecimalArray::from_strs(t, &[Some("1.50")])?;
/// let one = DecimalScalar::parse(t, "1")?;
/// let sides: [Operand<'_>; 2] = [(&column).into(), (&one).into()];
/// assert!(matches!(sides[1], Operand::Scalar(s) if s.to_string() == "1.00"));
/// assert!(sides.iter().all(|side| side.dtype() == t));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Operand<'a> {
    /// A column.
    Array(&'a DecimalArray),
    /// One value for every row.
    Scalar(&'a DecimalScalar),
}

impl<'a> From<&'a DecimalArray> for Operand<'a> {
    fn from(array: &'a DecimalArray) -> Self {
        Self::Array(array)
    }
}

impl<'a> From<&'a DecimalScalar> for Operand<'a> {
    fn from(scalar: &'a DecimalScalar) -> Self {
        Self::Scalar(scalar)
    }
}

impl Operand<'_> {
    /// The operand's type.
    #[must_use]
    pub fn dtype(&self) -> DecimalType {
        match self {
            Self::Array(a) => a.dtype(),
            Self::Scalar(s) => s.dtype(),
        }
    }

    /// The narrowest width that holds the operand's stored values as they are.
    fn width(&self) -> StorageWidth {
        match self {
            Self::Array(a) => a.width(),
            Self::Scalar(s) => {
                let v = s.value().unwrap_or(arrow_buffer::i256::ZERO);
                StorageWidth::ALL
                    .into_iter()
                    .find(|w| with_native!(*w, T => T::from_i256(v).is_some()))
                    .unwrap_or(StorageWidth::I256)
            }
        }
    }
}

/// `lhs op rhs` row by row, under `options`.
///
/// ```
/// use decimal_kernels::{binary, ArithmeticOptions, BinaryOp, DecimalArray, DecimalScalar, DecimalType};
/// let t = DecimalType::try_new(10, 2)?;
/// let a = DecimalArray::from_strs(t, &[Some("10.00"), None])?;
/// let b = DecimalScalar::parse(t, "0.10")?;
/// let c = binary(BinaryOp::Div, &a, &b, &ArithmeticOptions::default())?;
/// assert_eq!(c.to_strs(), vec![Some("100.00".to_string()), None]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// The result type's errors; [`DecimalError::LengthMismatch`] for arrays of
/// different lengths; [`DecimalError::Overflow`] and
/// [`DecimalError::DivideByZero`] naming the first failing valid row under
/// the `Error` policies.
pub fn binary<'a>(
    op: BinaryOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let (lhs, rhs) = (lhs.into(), rhs.into());
    let result = result_type(op, lhs.dtype(), rhs.dtype(), options)?;
    let out_width = result_width(result, options);
    let len = rows(lhs, rhs)?;
    let null_scalar = [lhs, rhs].iter().any(|o| matches!(o, Operand::Scalar(s) if s.is_null()));
    if null_scalar {
        let values = with_native!(out_width, T => T::into_values(ScalarBuffer::from(vec![T::default(); len])));
        return Ok(DecimalArray::from_parts(result, values, Some(NullBuffer::new_null(len))));
    }
    let nulls = NullBuffer::union(array_nulls(lhs), array_nulls(rhs));
    let width = out_width.max(lhs.width()).max(rhs.width());
    let values = with_native!(width, T => {
        let call = TypedCall::<T> {
            op,
            lhs: typed_operand(lhs)?,
            rhs: typed_operand(rhs)?,
            types: (lhs.dtype(), rhs.dtype()),
            result,
            options,
            frame: Frame { len, nulls: nulls.as_ref(), policies: policies(options) },
        };
        call.run()?
    });
    let (values, nulls) = values;
    let values = if values.width() == out_width {
        values
    } else {
        with_native!(out_width, T => {
            // Every valid result is within the result precision, which the
            // result width holds; only null rows can fail to convert.
            let is_valid = |row: usize| nulls.as_ref().is_none_or(|n| n.is_valid(row));
            let narrowed = values.to_native::<T>(is_valid).map_err(|row| {
                DecimalError::Overflow { row, result_type: result }
            })?;
            T::into_values(narrowed)
        })
    };
    Ok(DecimalArray::from_parts(result, values, nulls))
}

/// The number of rows of `lhs op rhs`: the arrays' common length, or one for
/// two scalars.
pub(crate) fn rows(lhs: Operand<'_>, rhs: Operand<'_>) -> Result<usize, DecimalError> {
    match (lhs, rhs) {
        (Operand::Array(a), Operand::Array(b)) if a.len() != b.len() => {
            Err(DecimalError::LengthMismatch { expected: a.len(), actual: b.len() })
        }
        (Operand::Array(a), _) | (_, Operand::Array(a)) => Ok(a.len()),
        (Operand::Scalar(_), Operand::Scalar(_)) => Ok(1),
    }
}

fn array_nulls(operand: Operand<'_>) -> Option<&NullBuffer> {
    match operand {
        Operand::Array(a) => a.nulls(),
        Operand::Scalar(_) => None,
    }
}

fn policies(options: &ArithmeticOptions) -> Policies {
    Policies { on_overflow: options.on_overflow(), on_divide_by_zero: options.on_divide_by_zero() }
}

/// An operand's values at storage `T`, with what is known of their size.
struct TypedOperand<T: arrow_buffer::ArrowNativeType> {
    values: TypedValues<T>,
    magnitude: Magnitude,
}

enum TypedValues<T: arrow_buffer::ArrowNativeType> {
    Array(ScalarBuffer<T>),
    Scalar(T),
}

fn typed_operand<T: DecimalNative>(operand: Operand<'_>) -> Result<TypedOperand<T>, DecimalError> {
    let precision = Magnitude::Precision(operand.dtype().precision());
    Ok(match operand {
        Operand::Array(a) => TypedOperand {
            values: TypedValues::Array(
                a.values()
                    .to_native::<T>(|row| a.is_valid(row))
                    .map_err(|row| a.out_of_range(row))?,
            ),
            magnitude: if a.is_checked() { precision } else { Magnitude::Unknown },
        },
        Operand::Scalar(s) => {
            let v = s.value().and_then(T::from_i256).unwrap_or_default();
            TypedOperand { values: TypedValues::Scalar(v), magnitude: Magnitude::Unknown }
        }
    })
}

impl<T: DecimalNative> TypedOperand<T> {
    fn native(&self) -> native::Operand<'_, T> {
        let input = match &self.values {
            TypedValues::Array(values) => Input::Array(values),
            TypedValues::Scalar(value) => Input::Scalar(*value),
        };
        native::Operand { input, magnitude: self.magnitude }
    }
}

/// One kernel call at storage `T`.
struct TypedCall<'a, T: arrow_buffer::ArrowNativeType> {
    op: BinaryOp,
    lhs: TypedOperand<T>,
    rhs: TypedOperand<T>,
    /// The operands' types.
    types: (DecimalType, DecimalType),
    result: DecimalType,
    options: &'a ArithmeticOptions,
    frame: Frame<'a>,
}

impl<T: DecimalNative> TypedCall<'_, T> {
    fn run(&self) -> Result<(DecimalValues, Option<NullBuffer>), DecimalError> {
        let scale = |t: DecimalType| i32::from(t.scale());
        let (s1, s2, rs) = (scale(self.types.0), scale(self.types.1), scale(self.result));
        let precision = self.result.precision();
        let rounding = self.options.rounding();
        let (lhs, rhs, frame) = (self.lhs.native(), self.rhs.native(), &self.frame);
        let output = match self.op {
            BinaryOp::Add | BinaryOp::Sub => {
                let shift = |s: i32| u32::try_from(rs - s).map_err(|_| self.unaligned());
                let spec = SumSpec {
                    lhs_shift: shift(s1)?,
                    rhs_shift: shift(s2)?,
                    result_precision: precision,
                };
                if self.op == BinaryOp::Add {
                    native::add(lhs, rhs, &spec, frame)
                } else {
                    native::sub(lhs, rhs, &spec, frame)
                }
            }
            BinaryOp::Mul => {
                let spec = MulSpec { shift: s1 + s2 - rs, rounding, result_precision: precision };
                native::mul(lhs, rhs, &spec, frame)
            }
            BinaryOp::Div => {
                let spec = DivSpec { shift: rs - s1 + s2, rounding, result_precision: precision };
                native::div(lhs, rhs, &spec, frame)
            }
        };
        let output = output.map_err(|e| self.error(e))?;
        Ok((T::into_values(output.values), output.nulls))
    }

    fn unaligned(&self) -> DecimalError {
        DecimalError::UnsupportedTypes {
            op: self.op,
            lhs: self.types.0,
            rhs: self.types.1,
            reason: format!("a sum at scale {} would drop operand digits", self.result.scale()),
        }
    }

    fn error(&self, error: KernelError) -> DecimalError {
        match error {
            KernelError::Overflow { row } => {
                DecimalError::Overflow { row, result_type: self.result }
            }
            KernelError::DivideByZero { row } => DecimalError::DivideByZero { row },
            KernelError::LengthMismatch { expected, actual } => {
                DecimalError::LengthMismatch { expected, actual }
            }
        }
    }
}
