//! What a call returns, and the vector it writes into: a new one, or one the
//! caller recycles.

use arrow_buffer::{NullBuffer, ScalarBuffer};

use crate::columns::column::Sink;
use crate::columns::storage::{Storage, TOKEN};
use crate::driver::error::KernelError;
use crate::driver::rows::Rows;

/// A kernel's result: values for every row and the final validity.
///
/// ```
/// use decimal_kernels_native::{AddSpec, NullBuffer, Operand, Output, Rows, sub};
/// let (a, b) = ([7i32, 0], [2i32, 0]);
/// let nulls = NullBuffer::from(vec![true, false]);
/// let rows = Rows::new(2).with_nulls(Some(&nulls));
/// let out: Output<i32> =
///     sub(Operand::array(&a[..]), Operand::array(&b[..]), &AddSpec::new(0, 0, 9), &rows)?;
/// assert_eq!(out.values[0], 5);
/// assert_eq!(out.nulls, Some(nulls)); // row 1 stays null; its value is arbitrary
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Output<S: Storage> {
    /// One value per row (arbitrary under null rows).
    pub values: ScalarBuffer<S>,
    /// The input validity less the rows nulled by a `Null` policy.
    pub nulls: Option<NullBuffer>,
}

/// A call's [`Rows`] with a vector of the caller's to write its results
/// into, made by [`Rows::recycled`]: every operator takes one where it
/// takes its rows (a `&Rows` writes into a new vector).
///
/// The vector is cleared and its allocation holds the results, grown only
/// when its capacity is below the number of rows; the returned
/// [`Output`]'s values are that allocation (`ScalarBuffer::from(Vec)` does
/// not copy; it allocates only the buffer's fixed-size shared header), so an
/// engine that recovers it from a result it is done with
/// (arrow-buffer's `ScalarBuffer::into_inner` then `Buffer::into_vec`, which
/// succeed when nothing else shares the buffer) computes batch after batch
/// in one allocation. A call that fails drops the vector. Results are the
/// same as into a new vector.
///
/// ```
/// use decimal_kernels_native::{AddSpec, Operand, Output, Rows, add};
/// let spec = AddSpec::new(0, 0, 18);
/// let mut recycled: Vec<i64> = Vec::with_capacity(1024);
/// let first_address = recycled.as_ptr();
/// for batch in [[1i64, 2, 3], [40, 50, 60]] {
///     let rows = Rows::new(batch.len());
///     let sum: Output<i64> =
///         add(Operand::array(&batch[..]), Operand::scalar(1i64), &spec, rows.recycled(recycled))?;
///     assert_eq!(sum.values.as_ptr(), first_address); // written into the same memory
///     assert_eq!(sum.values[2], batch[2] + 1);
///     // Done with the result: its buffer back as a vector (a new one if it were shared).
///     recycled = sum.values.into_inner().into_vec().unwrap_or_default();
/// }
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
#[derive(Debug)]
pub struct Recycled<'a, S> {
    rows: Rows<'a>,
    values: Vec<S>,
}

impl<'a> Rows<'a> {
    /// The same rows, with results written into `values`' allocation (see
    /// [`Recycled`]).
    #[must_use]
    pub fn recycled<S: Storage>(self, values: Vec<S>) -> Recycled<'a, S> {
        Recycled { rows: self, values }
    }
}

impl<'a, S: Storage> From<&Rows<'a>> for Recycled<'a, S> {
    /// The same rows, with results in a new vector.
    fn from(rows: &Rows<'a>) -> Self {
        rows.recycled(Vec::new())
    }
}

/// [`compute_output`] for tests of one loop: `body` computes into a new
/// vector and returns the validity.
#[cfg(test)]
pub(crate) fn output<S: Storage>(
    result_precision: u8,
    body: impl FnOnce(Sink<'_>) -> Result<Option<NullBuffer>, KernelError>,
) -> Result<Output<S>, KernelError> {
    compute_output(result_precision, Recycled::from(&Rows::new(0)), |_, sink| body(sink))
}

/// What each public operator runs: checks that storage `S` holds every
/// result of `result_precision` digits, then lets `body` compute the rows
/// of `target` into its vector (emptied first), and returns that vector as
/// the [`Output`] with the validity `body` returns.
pub(crate) fn compute_output<'a, S: Storage>(
    result_precision: u8,
    target: impl Into<Recycled<'a, S>>,
    body: impl FnOnce(&Rows<'a>, Sink<'_>) -> Result<Option<NullBuffer>, KernelError>,
) -> Result<Output<S>, KernelError> {
    let Recycled { rows, mut values } = target.into();
    let max_precision = S::max_precision(TOKEN);
    if result_precision > max_precision {
        return Err(KernelError::StorageTooNarrow { result_precision, max_precision });
    }
    // The loops clear it too; a path that wrote nothing must not return
    // the vector's old contents.
    values.clear();
    let nulls = body(&rows, S::sink(&mut values, TOKEN))?;
    Ok(Output { values: ScalarBuffer::from(values), nulls })
}
