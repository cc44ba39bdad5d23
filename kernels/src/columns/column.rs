//! Columns of stored decimal integers in any storage width, and the output
//! vector and slots a call writes, one variant per storage type.
//!
//! Operands of one call may be stored at different widths (an `i64` column
//! times an `i128` one) and the result at a third; how blocks of them are
//! read into a work type and written back is `convert`'s.

use core::mem::MaybeUninit;

use arrow_buffer::i256;

use crate::int::width::WorkWidth;
/// A column of stored decimal integers, borrowed, in any storage width.
///
/// ```
/// use decimal_kernels_native::Column;
/// let cents = [150i64, -225];
/// let column = Column::from(&cents[..]);
/// assert_eq!(column.len(), 2);
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Column<'a> {
    /// `i8` storage.
    I8(&'a [i8]),
    /// `i16` storage.
    I16(&'a [i16]),
    /// `i32` storage.
    I32(&'a [i32]),
    /// `i64` storage.
    I64(&'a [i64]),
    /// `i128` storage.
    I128(&'a [i128]),
    /// arrow's `i256` storage.
    I256(&'a [i256]),
}

/// Calls `$body` with `$values` bound to the typed slice inside a column.
macro_rules! with_column {
    ($column:expr, $values:ident => $body:expr) => {
        match $column {
            $crate::columns::column::Column::I8($values) => $body,
            $crate::columns::column::Column::I16($values) => $body,
            $crate::columns::column::Column::I32($values) => $body,
            $crate::columns::column::Column::I64($values) => $body,
            $crate::columns::column::Column::I128($values) => $body,
            $crate::columns::column::Column::I256($values) => $body,
        }
    };
}

pub(crate) use with_column;

impl Column<'_> {
    /// The number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        with_column!(self, values => values.len())
    }

    /// Whether there are no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The narrowest work type holding every value of the column's type.
    pub(crate) fn holding_work(&self) -> WorkWidth {
        match self {
            Self::I8(_) | Self::I16(_) | Self::I32(_) | Self::I64(_) => WorkWidth::I64,
            Self::I128(_) => WorkWidth::I128,
            Self::I256(_) => WorkWidth::I256,
        }
    }
}

/// The output of a call: a vector of one storage type, to append results to.
#[derive(Debug)]
pub enum Sink<'a> {
    /// `i8` results.
    I8(&'a mut Vec<i8>),
    /// `i16` results.
    I16(&'a mut Vec<i16>),
    /// `i32` results.
    I32(&'a mut Vec<i32>),
    /// `i64` results.
    I64(&'a mut Vec<i64>),
    /// `i128` results.
    I128(&'a mut Vec<i128>),
    /// arrow's `i256` results.
    I256(&'a mut Vec<i256>),
}

/// Output slots of one storage type, for one block.
#[derive(Debug)]
pub enum Slots<'a> {
    /// `i8` slots.
    I8(&'a mut [MaybeUninit<i8>]),
    /// `i16` slots.
    I16(&'a mut [MaybeUninit<i16>]),
    /// `i32` slots.
    I32(&'a mut [MaybeUninit<i32>]),
    /// `i64` slots.
    I64(&'a mut [MaybeUninit<i64>]),
    /// `i128` slots.
    I128(&'a mut [MaybeUninit<i128>]),
    /// arrow's `i256` slots.
    I256(&'a mut [MaybeUninit<i256>]),
}
