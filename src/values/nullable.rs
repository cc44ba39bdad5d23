//! [`NullableBuffer`]: the rows of a result that is not a decimal.

use arrow_buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};

/// The result of a call whose rows are not decimals (the booleans of a
/// comparison, the integers or floats of a cast): one value per row, and
/// which rows are null.
///
/// `values` holds a value in every row, null rows included (what is there
/// is unspecified); `nulls`, when present, has the same length and marks the
/// null rows. An Arrow array of the same rows is one move away
/// ([`into_parts`](Self::into_parts), then the array's `new`).
#[derive(Clone, Debug, PartialEq)]
pub struct NullableBuffer<B> {
    values: B,
    nulls: Option<NullBuffer>,
}

impl<B> NullableBuffer<B> {
    /// The rows `values` with validity `nulls` (`None`: every row valid).
    /// The caller guarantees equal lengths.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "the comparison and cast kernels, next, build their results here"
        )
    )]
    pub(crate) fn new(values: B, nulls: Option<NullBuffer>) -> Self {
        Self { values, nulls }
    }

    /// One value per row (unspecified in null rows).
    pub fn values(&self) -> &B {
        &self.values
    }

    /// Which rows are null; `None` when none is.
    pub fn nulls(&self) -> Option<&NullBuffer> {
        self.nulls.as_ref()
    }

    /// Whether row `row` has a value (rows past the end have none).
    pub fn is_valid(&self, row: usize) -> bool
    where
        Self: RowCount,
    {
        row < self.len() && self.nulls.as_ref().is_none_or(|n| n.is_valid(row))
    }

    /// The values and the validity, to build an Arrow array from.
    pub fn into_parts(self) -> (B, Option<NullBuffer>) {
        (self.values, self.nulls)
    }
}

/// The number of rows of a [`NullableBuffer`].
pub trait RowCount {
    /// The number of rows.
    fn len(&self) -> usize;

    /// Whether there are no rows.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl RowCount for NullableBuffer<BooleanBuffer> {
    fn len(&self) -> usize {
        self.values.len()
    }
}

impl<T: arrow_buffer::ArrowNativeType> RowCount for NullableBuffer<ScalarBuffer<T>> {
    fn len(&self) -> usize {
        self.values.len()
    }
}

impl NullableBuffer<BooleanBuffer> {
    /// Row `row` as an `Option` (`None`: null or past the end).
    pub fn get(&self, row: usize) -> Option<bool> {
        self.is_valid(row).then(|| self.values.value(row))
    }
}

impl<T: arrow_buffer::ArrowNativeType> NullableBuffer<ScalarBuffer<T>> {
    /// Row `row` as an `Option` (`None`: null or past the end).
    pub fn get(&self, row: usize) -> Option<T> {
        self.is_valid(row).then(|| self.values[row])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_rows_and_rows_past_the_end_have_no_value() {
        let nulls = NullBuffer::from(vec![true, false, true]);
        let rows = NullableBuffer::new(BooleanBuffer::from(vec![true, true, false]), Some(nulls));
        assert_eq!(
            (0..4).map(|r| rows.get(r)).collect::<Vec<_>>(),
            [Some(true), None, Some(false), None]
        );
        let ints = NullableBuffer::new(ScalarBuffer::from(vec![7i64, -1]), None);
        assert_eq!((ints.len(), ints.get(1), ints.get(2)), (2, Some(-1), None));
    }
}
