//! A result handed back for the next call: its values' and validity's
//! memory, each reused when nothing else shares it.

use arrow_buffer::{MutableBuffer, NullBuffer};

use crate::values::{DecimalArray, DecimalNative, DecimalValues};

/// The memory of a result the caller is done with. Empty (the default) when
/// there is none: every buffer is then allocated afresh.
#[derive(Debug, Default)]
pub(crate) struct RecycledArray {
    /// The values, at whatever width they were stored.
    values: Option<DecimalValues>,
    /// The validity.
    nulls: Option<NullBuffer>,
}

impl From<DecimalArray> for RecycledArray {
    fn from(array: DecimalArray) -> Self {
        let (values, nulls) = array.into_parts();
        Self { values: Some(values), nulls }
    }
}

impl RecycledArray {
    /// From the parts of an array (an Arrow array's, as stored).
    #[cfg(feature = "arrow")]
    pub(crate) fn from_parts(values: DecimalValues, nulls: Option<NullBuffer>) -> Self {
        Self { values: Some(values), nulls }
    }

    /// The values' memory as an empty vector of `T` when they are stored as
    /// `T` and nothing else shares them; a new empty vector otherwise.
    pub(crate) fn take_values<T: DecimalNative>(&mut self) -> Vec<T> {
        let mut values =
            self.values.take().and_then(DecimalValues::into_vec::<T>).unwrap_or_default();
        values.clear();
        values
    }

    /// The validity bitmap's memory, when nothing else shares it.
    pub(crate) fn take_bitmap(&mut self) -> Option<MutableBuffer> {
        let nulls = self.nulls.take()?;
        nulls.into_inner().into_inner().into_mutable().ok()
    }
}
