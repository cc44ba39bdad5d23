//! One typed kernel call: the operator's shape (shifts, rounding, result
//! precision) from the types, and the kernels' failures as the crate's
//! errors naming the row and its operands.

use decimal_kernels_native::{
    self as native, AddSpec, DivSpec, KernelError, MulSpec, Recycled, RemSpec, RescaleSpec,
    RoundSpec,
};

use crate::compute::operand::Operand;
use crate::rules::round::RoundShape;
use crate::types::{ArithmeticOptions, BinaryOp, DecimalError, DecimalType, UnaryOp};
use crate::values::DecimalNative;

/// One kernel call of two operands: the operator, its operands and the
/// result type.
pub(crate) struct BinaryCall<'a> {
    pub(crate) op: BinaryOp,
    pub(crate) operands: (Operand<'a>, Operand<'a>),
    pub(crate) result: DecimalType,
    pub(crate) options: &'a ArithmeticOptions,
}

impl BinaryCall<'_> {
    /// Runs the kernel with results stored as `T`.
    pub(crate) fn run<T: DecimalNative>(
        &self,
        lhs: native::Operand<'_>,
        rhs: native::Operand<'_>,
        rows: Recycled<'_, T>,
    ) -> Result<native::Output<T>, DecimalError> {
        let (t1, t2) = (self.operands.0.dtype(), self.operands.1.dtype());
        let scale = |t: DecimalType| i32::from(t.scale());
        let (s1, s2, rs) = (scale(t1), scale(t2), scale(self.result));
        let precision = self.result.precision();
        let rounding = self.options.rounding();
        let output = match self.op {
            BinaryOp::Add | BinaryOp::Sub => {
                // Aligned exactly at the larger scale, then rescaled once (the
                // plan refused sums too wide to align: `check_exact`). Both
                // shifts are at most 152: scales lie within -76..=76.
                let aligned = s1.max(s2);
                let (k1, k2) = (aligned - s1, aligned - s2);
                let shift = |k: i32| k.unsigned_abs();
                let spec =
                    AddSpec::new(shift(k1), shift(k2), precision).rescaled(aligned - rs, rounding);
                if self.op == BinaryOp::Add {
                    native::add(lhs, rhs, &spec, rows)
                } else {
                    native::sub(lhs, rhs, &spec, rows)
                }
            }
            BinaryOp::Mul => {
                let spec = MulSpec::new(s1 + s2 - rs, rounding, precision);
                native::mul(lhs, rhs, &spec, rows)
            }
            BinaryOp::Div => {
                let spec = DivSpec::new(rs - s1 + s2, rounding, precision);
                native::div(lhs, rhs, &spec, rows)
            }
            BinaryOp::Rem => {
                // `rs` is at least the aligned scale (`check_planned`), and
                // both shifts are at most 152: scales lie within -76..=76.
                let shift = |s: i32| (rs - s).unsigned_abs();
                native::rem(lhs, rhs, &RemSpec::new(shift(s1), shift(s2), precision), rows)
            }
        };
        output.map_err(|e| self.error(e))
    }

    fn unsupported(&self, reason: String) -> DecimalError {
        let (lhs, rhs) = (self.operands.0.dtype(), self.operands.1.dtype());
        DecimalError::UnsupportedTypes { op: self.op, lhs, rhs, reason }
    }

    fn error(&self, error: KernelError) -> DecimalError {
        match error {
            KernelError::Overflow { row } => DecimalError::Overflow {
                row,
                result_type: self.result,
                op: self.op,
                lhs: self.operands.0.text(row),
                rhs: self.operands.1.text(row),
            },
            KernelError::DivideByZero { row } => {
                DecimalError::DivideByZero { row, lhs: self.operands.0.text(row) }
            }
            KernelError::LengthMismatch { expected, actual } => {
                DecimalError::LengthMismatch { expected, actual }
            }
            // The profiles never ask for these (a result width always holds
            // the result precision, sums shift one side only, rounded sums
            // stay within the exact range); reported as the types the
            // kernels cannot serve if they ever did.
            other => self.unsupported(format!("the kernels reject the call: {other:?}")),
        }
    }
}

/// The kernel call of one operand with results stored as `T`.
pub(crate) fn run_unary<T: DecimalNative>(
    op: UnaryOp,
    operand: Operand<'_>,
    result: DecimalType,
    options: &ArithmeticOptions,
    rows: Recycled<'_, T>,
) -> Result<native::Output<T>, DecimalError> {
    let kernel_operand = operand.kernel_operand();
    let precision = result.precision();
    let output = match op {
        UnaryOp::Rescale { to } => {
            let shift = i32::from(operand.dtype().scale()) - i32::from(to.scale());
            native::rescale(
                kernel_operand,
                &RescaleSpec::new(shift, options.rounding(), precision),
                rows,
            )
        }
        UnaryOp::Neg => native::neg(kernel_operand, precision, rows),
        UnaryOp::Abs => native::abs(kernel_operand, precision, rows),
        UnaryOp::Round { function, digits } => {
            let shape = RoundShape::new(operand.dtype().scale(), digits, result.scale());
            let spec =
                RoundSpec::new(shape.dropped, shape.appended, function.rounding(), precision);
            native::round(kernel_operand, &spec, rows)
        }
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
