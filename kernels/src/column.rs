//! What a kernel call reads and writes: columns of any storage width, single
//! values, and the output vector.
//!
//! Operands of one call may be stored at different widths (an `i64` column
//! times an `i128` one) and the result at a third. The kernels compute in one
//! work type per call; each block of rows is read straight from a column
//! stored as that work type, or converted into it in one typed loop per
//! block (no per-row dispatch, no `i256` round trip), and written straight
//! into the output when it is stored as the work type, or converted back.

use core::mem::MaybeUninit;

use arrow_buffer::{ScalarBuffer, i256};

use crate::plan::WorkWidth;
use crate::storage::{Storage, Stored, TOKEN};
use crate::work::Work;

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
            Column::I8($values) => $body,
            Column::I16($values) => $body,
            Column::I32($values) => $body,
            Column::I64($values) => $body,
            Column::I128($values) => $body,
            Column::I256($values) => $body,
        }
    };
}

impl<'a, S: Storage> From<&'a [S]> for Column<'a> {
    fn from(values: &'a [S]) -> Self {
        S::column(values, TOKEN)
    }
}

impl<'a, S: Storage> From<&'a Vec<S>> for Column<'a> {
    fn from(values: &'a Vec<S>) -> Self {
        S::column(values, TOKEN)
    }
}

impl<'a, S: Storage> From<&'a ScalarBuffer<S>> for Column<'a> {
    fn from(values: &'a ScalarBuffer<S>) -> Self {
        S::column(values, TOKEN)
    }
}

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

    /// A bound `L` with `|v| < 2^L` for every value (null rows included).
    pub(crate) fn magnitude_bits(&self) -> u32 {
        with_column!(self, values => crate::arity::magnitude_bits(values))
    }

    /// Rows `start..start + len` in work type `W`: the column itself when it
    /// is stored as `W`, otherwise converted into `scratch`.
    #[inline(always)]
    pub(crate) fn rows<'s, W: Work>(
        &'s self,
        start: usize,
        len: usize,
        scratch: &'s mut [MaybeUninit<W>],
    ) -> &'s [W] {
        if let Some(same) = W::from_column(self) {
            return window(same, start, len);
        }
        with_column!(self, values => load(window(values, start, len), scratch))
    }
}

/// The rows `start..start + len` of a slice (empty if out of range, which the
/// frame check rules out).
#[inline(always)]
fn window<S>(values: &[S], start: usize, len: usize) -> &[S] {
    values.get(start..start.saturating_add(len)).unwrap_or_default()
}

/// Converts stored values into work type `W`, in `scratch`, and returns them.
///
/// Wide storage computed in a narrower work type (money in `i128` or `i256`
/// columns) is read as 64-bit words, of which only the low ones are used: the
/// compiler loads and deinterleaves whole vectors, where a loop over `i128`
/// values would move each value on its own.
#[inline(never)]
fn load<'s, S: Stored, W: Work>(values: &[S], scratch: &'s mut [MaybeUninit<W>]) -> &'s [W] {
    let len = values.len().min(scratch.len());
    let slots = &mut scratch[..len];
    if narrower_than_storage::<S, W>() {
        for (slot, &words) in slots.iter_mut().zip(S::as_words(values)) {
            slot.write(S::load_words(words));
        }
    } else {
        for (slot, &value) in slots.iter_mut().zip(values) {
            slot.write(value.load());
        }
    }
    initialized(slots)
}

/// Converts work values into output slots of storage `S`, keeping the low
/// bits: every valid result already fits (see `arity`).
#[inline(never)]
pub(crate) fn store<S: Stored, W: Work>(values: &[W], slots: &mut [MaybeUninit<S>]) {
    if narrower_than_storage::<S, W>() {
        for (slot, &value) in S::word_slots(slots).iter_mut().zip(values) {
            slot.write(S::store_words(value));
        }
    } else {
        for (slot, &value) in slots.iter_mut().zip(values) {
            slot.write(S::store(value));
        }
    }
}

/// Whether work type `W` is narrower than storage `S`: conversions then go
/// through [`Stored::Words`].
pub(crate) const fn narrower_than_storage<S: Stored, W: Work>() -> bool {
    (W::MAGNITUDE_BITS as usize) < 8 * size_of::<S>() - 1
}

/// The slots, all written, as values.
#[inline(always)]
pub(crate) fn initialized<W>(slots: &[MaybeUninit<W>]) -> &[W] {
    // SAFETY: every caller passes slots that were written, all of them (the
    // loops above write `min(values.len(), slots.len())` slots and are given
    // exactly that many; `arity` passes the slots a block kernel wrote, which
    // writes every one, and the first rows of a block a single value was
    // repeated over, at most as many as it filled); `MaybeUninit<W>` has the
    // layout of `W`.
    unsafe { &*(core::ptr::from_ref(slots) as *const [W]) }
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
/// use decimal_kernels_native::Input;
/// let prices = [1999i64, -250];
/// let lhs = Input::array(&prices[..]);
/// let rhs = Input::scalar(3i64);
/// assert_eq!(lhs.row_count(), Some(2));
/// assert_eq!(rhs.row_count(), None);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
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

impl<'a> Input<'a> {
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
    /// # Safety
    /// The promise must hold. The kernels choose a work type from it and do
    /// not check it: a value beyond it wraps in that work type, and the call
    /// returns wrong values for that row with no error. Memory safety does not
    /// depend on it, but a caller's own guarantees about the results do, so
    /// breaking it is on the caller, as with any `unsafe` contract.
    #[must_use]
    pub unsafe fn assume_precision(self, precision: u8) -> Self {
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

    /// A bound measured from the values (null rows included).
    pub(crate) fn measured_bits(&self) -> u32 {
        match self.values {
            Values::Array(column) => column.magnitude_bits(),
            Values::Scalar(value) => i256::magnitude_bits(&[value]),
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
