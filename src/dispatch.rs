//! From dynamic operands to one typed kernel call.
//!
//! The result type comes from the profile; the operator's shape (shifts,
//! rounding, result precision) from the types. The operands go to the kernels
//! as they are stored, whatever their widths, and the result comes back in
//! the width the profile wants: the kernels read each width into their work
//! type block by block and write the result's width directly, so no operand
//! is copied to a common width first and no result narrowed after. Validity
//! is combined with one bitmap operation.

use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use decimal_kernels_native::{
    self as native, DivSpec, Frame, Input, KernelError, MulSpec, Policies, SumSpec,
};

use crate::array::{DecimalArray, DecimalNative, with_native};
use crate::error::DecimalError;
use crate::options::{ArithmeticOptions, BinaryOp};
use crate::profile::{result_type, result_width};
use crate::scalar::DecimalScalar;
use crate::types::DecimalType;

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

impl<'a> Operand<'a> {
    /// The operand's type.
    #[must_use]
    pub fn dtype(&self) -> DecimalType {
        match self {
            Self::Array(a) => a.dtype(),
            Self::Scalar(s) => s.dtype(),
        }
    }

    /// The operand as the kernels read it: its stored values as they are,
    /// and for a checked array the promise that they fit its precision.
    fn input(self) -> Input<'a> {
        match self {
            Self::Array(a) => {
                let input = Input::array(a.values().column());
                if a.is_checked() {
                    // SAFETY: a checked array was built by `try_new` (which
                    // checks every valid value against the precision) or by
                    // this crate from values known to fit (kernel results,
                    // parsed text, slices and width changes of checked
                    // arrays): every valid value is within its precision.
                    unsafe { input.assume_precision(a.dtype().precision()) }
                } else {
                    input
                }
            }
            Self::Scalar(s) => Input::scalar(s.value().unwrap_or(i256::ZERO)),
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
    let call = Call { op, types: (lhs.dtype(), rhs.dtype()), result, options };
    let frame = Frame::new(len).with_nulls(nulls.as_ref()).with_policies(policies(options));
    let (values, nulls) = with_native!(out_width, T => {
        let output = call.run::<T>(lhs.input(), rhs.input(), &frame)?;
        (T::into_values(output.values), output.nulls)
    });
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

/// One kernel call: the operator and the types it runs between.
struct Call<'a> {
    op: BinaryOp,
    /// The operands' types.
    types: (DecimalType, DecimalType),
    result: DecimalType,
    options: &'a ArithmeticOptions,
}

impl Call<'_> {
    /// Runs the kernel with results stored as `T`.
    fn run<T: DecimalNative>(
        &self,
        lhs: Input<'_>,
        rhs: Input<'_>,
        frame: &Frame<'_>,
    ) -> Result<native::Output<T>, DecimalError> {
        let scale = |t: DecimalType| i32::from(t.scale());
        let (s1, s2, rs) = (scale(self.types.0), scale(self.types.1), scale(self.result));
        let precision = self.result.precision();
        let rounding = self.options.rounding();
        let output = match self.op {
            BinaryOp::Add | BinaryOp::Sub => {
                let shift = |s: i32| u32::try_from(rs - s).map_err(|_| self.unaligned());
                let spec = SumSpec::new(shift(s1)?, shift(s2)?, precision);
                if self.op == BinaryOp::Add {
                    native::add(lhs, rhs, &spec, frame)
                } else {
                    native::sub(lhs, rhs, &spec, frame)
                }
            }
            BinaryOp::Mul => {
                let spec = MulSpec::new(s1 + s2 - rs, rounding, precision);
                native::mul(lhs, rhs, &spec, frame)
            }
            BinaryOp::Div => {
                let spec = DivSpec::new(rs - s1 + s2, rounding, precision);
                native::div(lhs, rhs, &spec, frame)
            }
        };
        output.map_err(|e| self.error(e))
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
            // The profiles never ask for these (a result width always holds
            // the result precision, sums shift one side only); reported as
            // the types the kernels cannot serve if they ever did.
            other => DecimalError::UnsupportedTypes {
                op: self.op,
                lhs: self.types.0,
                rhs: self.types.1,
                reason: format!("the kernels reject the call: {other:?}"),
            },
        }
    }
}
