//! One operand of a kernel call: a column or one value for every row, and
//! what its caller knows of the size of its values.

use arrow_buffer::i256;

use crate::columns::column::Column;
use crate::columns::storage::{Storage, Stored, TOKEN};
use crate::int::pow10::precision_bits;
use crate::int::width::WorkWidth;
use crate::int::work::Work;

/// One operand of a kernel call: a column, or one value for every row, and
/// what is known of the size of its values.
///
/// The kernels choose their work type from the operands' magnitudes. By
/// default they measure them (one vectorized pass per column); a caller that
/// already knows every valid value fits a precision (a validated decimal
/// column) can say so with [`assume_precision`](Self::assume_precision) and
/// save the pass.
///
/// ```
/// use decimal_kernels_native::Operand;
/// let prices = [1999i64, -250];
/// let lhs = Operand::array(&prices[..]);
/// let rhs = Operand::scalar(3i64);
/// assert_eq!(lhs.row_count(), Some(2));
/// assert_eq!(rhs.row_count(), None);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Operand<'a> {
    pub(crate) values: Values<'a>,
    /// Every valid value is within `10^p - 1`, as the caller promised.
    pub(crate) precision: Option<u8>,
}

/// An operand's values.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Values<'a> {
    /// One value per row.
    Array(Column<'a>),
    /// The same value for every row.
    Scalar(i256),
}

impl<'a> Operand<'a> {
    /// A column: one value per row.
    #[must_use]
    pub fn array(values: impl Into<Column<'a>>) -> Self {
        Self { values: Values::Array(values.into()), precision: None }
    }

    /// One value for every row.
    #[must_use]
    pub fn scalar<S: Storage>(value: S) -> Self {
        Self { values: Values::Scalar(value.widened(TOKEN)), precision: None }
    }

    /// The same operand, with the promise that every valid row's value is at
    /// most `10^precision - 1` in magnitude (null rows may hold anything).
    ///
    /// The kernels choose a work type from the promise and do not check it
    /// (that would cost the pass it saves). A broken promise gives wrong
    /// values, never undefined behaviour: a value beyond it wraps in the
    /// work type, and its row's result is wrong, with no error, and may be
    /// stored without its precision check. No memory access depends on the
    /// values.
    #[must_use]
    pub fn assume_precision(self, precision: u8) -> Self {
        Self { precision: Some(precision), ..self }
    }

    /// The number of rows of a column; `None` for a single value.
    #[must_use]
    pub fn row_count(&self) -> Option<usize> {
        match self.values {
            Values::Array(column) => Some(column.len()),
            Values::Scalar(_) => None,
        }
    }

    /// The narrowest work type holding every value of the operand's storage
    /// type (a single value's: of the narrowest native integer holding it).
    pub(crate) fn holding_work(&self) -> WorkWidth {
        match self.values {
            Values::Array(column) => column.holding_work(),
            // `|v| < 2^bits` from the one's complement: a value fits `iN`
            // exactly when `bits <= N`.
            Values::Scalar(value) => match i256::magnitude_bits(&[value]) {
                0..=64 => WorkWidth::I64,
                65..=128 => WorkWidth::I128,
                _ => WorkWidth::I256,
            },
        }
    }

    /// [`holding_work`](Self::holding_work), or the declared precision's
    /// work type when that is narrower.
    pub(crate) fn declared_work(&self) -> WorkWidth {
        let stored = self.holding_work();
        match self.precision {
            Some(p) => stored.min(WorkWidth::for_bits(precision_bits(p.into()))),
            None => stored,
        }
    }

    /// The scalar's value in work type `W`.
    pub(crate) fn scalar_value<W: Work>(&self) -> Option<W> {
        match self.values {
            Values::Scalar(value) => Some(W::from_i256(value)),
            Values::Array(_) => None,
        }
    }
}
