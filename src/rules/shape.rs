//! The shape of a call: how many rows it has.

use crate::types::DecimalError;

/// The rows of a call whose sides have `lengths` rows, `None` for a side
/// that is one value for every row: the arrays' common length, or one when
/// every side is a value.
///
/// # Errors
/// [`DecimalError::LengthMismatch`] naming the first array's length and the
/// first that differs from it.
pub(crate) fn row_count(lengths: &[Option<usize>]) -> Result<usize, DecimalError> {
    let mut arrays = lengths.iter().flatten();
    let Some(&expected) = arrays.next() else {
        return Ok(1);
    };
    match arrays.find(|&&actual| actual != expected) {
        Some(&actual) => Err(DecimalError::LengthMismatch { expected, actual }),
        None => Ok(expected),
    }
}
