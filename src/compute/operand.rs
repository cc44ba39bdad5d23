//! One side of an operation: a column or one value for every row.

use arrow_buffer::i256;
use decimal_kernels_native::Operand as KernelOperand;

use crate::types::DecimalType;
use crate::values::{DecimalArray, DecimalScalar, text};

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

    /// The operand's stored value at `row`, `None` when null.
    pub(crate) fn value(self, row: usize) -> Option<i256> {
        match self {
            Self::Array(a) => a.is_valid(row).then(|| a.values().get(row)).flatten(),
            Self::Scalar(s) => s.value(),
        }
    }

    /// An array's length; `None` for a scalar, which stands for every row.
    pub(crate) fn length(self) -> Option<usize> {
        match self {
            Self::Array(a) => Some(a.len()),
            Self::Scalar(_) => None,
        }
    }

    /// The canonical text of the operand's value at `row` (`NULL` for a null).
    pub(crate) fn text(self, row: usize) -> String {
        let scale = self.dtype().scale();
        self.value(row)
            .map_or_else(|| "NULL".into(), |v| text::format(&text::i256_to_bigint(v), scale))
    }

    /// The operand as the kernels read it: its stored values as they are,
    /// and for a checked array the promise that they fit its precision.
    pub(crate) fn kernel_operand(self) -> KernelOperand<'a> {
        match self {
            Self::Array(a) => {
                let operand = KernelOperand::array(a.values().column());
                if a.is_checked() {
                    // A checked array was built by `try_new` (which checks
                    // every valid value against the precision) or by this
                    // crate from values known to fit (kernel results, parsed
                    // text, slices and width changes of checked arrays):
                    // every valid value is within its precision.
                    operand.assume_precision(a.dtype().precision())
                } else {
                    operand
                }
            }
            Self::Scalar(s) => KernelOperand::scalar(s.value().unwrap_or(i256::ZERO)),
        }
    }
}
