//! Decimal columns: values in one native width, validity, and the type.

use arrow_buffer::{NullBuffer, ScalarBuffer, i256};

use crate::types::DecimalError;
use crate::types::{DecimalType, StorageWidth};
use crate::values::native::{DecimalNative, DecimalValues, with_buffer, with_native};
use crate::values::scalar::DecimalScalar;
use crate::values::text;

/// A column of decimals of one type: zero-copy compatible with Arrow buffers.
///
/// ```
/// use decimal_kernels::{DecimalArray, DecimalType, StorageWidth};
/// let t = DecimalType::try_new(10, 2)?;
/// let a = DecimalArray::from_strs(t, &[Some("1.50"), None, Some("-2.25")])?;
/// assert_eq!(a.width(), StorageWidth::I64);
/// assert_eq!(a.to_strs(), vec![Some("1.50".to_string()), None, Some("-2.25".to_string())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Debug)]
pub struct DecimalArray {
    dtype: DecimalType,
    values: DecimalValues,
    nulls: Option<NullBuffer>,
    /// Whether every valid value is known to be within the precision.
    checked: bool,
}

impl DecimalArray {
    /// An array over `values` and `nulls`, checking that the storage is wide
    /// enough for the type, that `nulls` has one bit per value, and that every
    /// valid value is within the precision.
    ///
    /// # Errors
    /// [`DecimalError::StorageTooNarrow`], [`DecimalError::LengthMismatch`],
    /// [`DecimalError::ValueOutOfRange`] (naming the first such row).
    pub fn try_new<T: DecimalNative>(
        dtype: DecimalType,
        values: ScalarBuffer<T>,
        nulls: Option<NullBuffer>,
    ) -> Result<Self, DecimalError> {
        let array = Self::new_unchecked(dtype, values, nulls)?;
        array.check_values()?;
        Ok(Self { checked: true, ..array })
    }

    /// As [`try_new`](Self::try_new) without the value check: values beyond the
    /// precision are kept and computed as the integers they are (kernels never
    /// panic on them; results are exact or reported as overflow).
    ///
    /// # Errors
    /// [`DecimalError::StorageTooNarrow`], [`DecimalError::LengthMismatch`].
    pub fn new_unchecked<T: DecimalNative>(
        dtype: DecimalType,
        values: ScalarBuffer<T>,
        nulls: Option<NullBuffer>,
    ) -> Result<Self, DecimalError> {
        if T::WIDTH < dtype.storage_width() {
            return Err(DecimalError::StorageTooNarrow { dtype, width: T::WIDTH });
        }
        if let Some(nulls) = &nulls
            && nulls.len() != values.len()
        {
            return Err(DecimalError::LengthMismatch {
                expected: values.len(),
                actual: nulls.len(),
            });
        }
        let nulls = nulls.filter(|n| n.null_count() > 0);
        Ok(Self { dtype, values: T::into_values(values), nulls, checked: false })
    }

    /// An array assembled by the crate itself, whose values are known to fit.
    pub(crate) fn from_parts(
        dtype: DecimalType,
        values: DecimalValues,
        nulls: Option<NullBuffer>,
    ) -> Self {
        let nulls = nulls.filter(|n| n.null_count() > 0);
        Self { dtype, values, nulls, checked: true }
    }

    /// The values and the validity.
    pub(crate) fn into_parts(self) -> (DecimalValues, Option<NullBuffer>) {
        (self.values, self.nulls)
    }

    fn check_values(&self) -> Result<(), DecimalError> {
        let limit = text::bigint_to_i256(&text::precision_limit(self.dtype.precision()))
            .unwrap_or(i256::MAX);
        let out_of_range = |v: i256| v > limit || v < limit.wrapping_neg();
        with_buffer!(&self.values, b => {
            for (row, v) in b.iter().enumerate() {
                if self.is_valid(row) && out_of_range(v.to_i256()) {
                    return Err(DecimalError::ValueOutOfRange {
                        row,
                        value: v.to_i256().to_string(),
                        dtype: self.dtype,
                    });
                }
            }
        });
        Ok(())
    }

    /// Reads one text per row (`None`: null) into the narrowest storage, each
    /// in the exact mode of the crate's one text grammar, as
    /// [`DecimalScalar::parse`]: a value that would need rounding is refused
    /// ([`cast::parse`](crate::cast::parse) rounds it once instead).
    ///
    /// # Errors
    /// [`DecimalError::Parse`] for the first text that is not exactly a value of
    /// `dtype`.
    pub fn from_strs(dtype: DecimalType, texts: &[Option<&str>]) -> Result<Self, DecimalError> {
        let mut values = Vec::with_capacity(texts.len());
        for (row, text) in texts.iter().enumerate() {
            let value = match text {
                Some(t) => {
                    let parsed = text::parse(t, dtype).map_err(|e| match e {
                        DecimalError::Parse { text, dtype, reason, .. } => {
                            DecimalError::Parse { row, text, dtype, reason }
                        }
                        other => other,
                    })?;
                    text::bigint_to_i256(&parsed).unwrap_or(i256::ZERO)
                }
                None => i256::ZERO,
            };
            values.push(value);
        }
        let nulls = NullBuffer::from(texts.iter().map(Option::is_some).collect::<Vec<_>>());
        let values = with_native!(dtype.storage_width(), T => {
            let typed: Vec<T> =
                values.into_iter().map(|v| T::from_i256(v).unwrap_or_default()).collect();
            T::into_values(ScalarBuffer::from(typed))
        });
        Ok(Self::from_parts(dtype, values, Some(nulls)))
    }

    /// The same values stored at `width` (a copy unless already there).
    ///
    /// # Errors
    /// [`DecimalError::StorageTooNarrow`] when `width` cannot hold every value
    /// of the type; [`DecimalError::ValueOutOfRange`] when an unchecked value
    /// does not fit it.
    pub fn with_width(&self, width: StorageWidth) -> Result<Self, DecimalError> {
        if width < self.dtype.storage_width() {
            return Err(DecimalError::StorageTooNarrow { dtype: self.dtype, width });
        }
        let values = with_native!(width, T => {
            let converted = self.values.to_native::<T>(|row| self.is_valid(row));
            T::into_values(converted.map_err(|row| self.out_of_range(row))?)
        });
        Ok(Self { values, ..self.clone() })
    }

    pub(crate) fn out_of_range(&self, row: usize) -> DecimalError {
        DecimalError::ValueOutOfRange {
            row,
            value: self.values.get(row).unwrap_or(i256::ZERO).to_string(),
            dtype: self.dtype,
        }
    }

    /// The decimal type.
    #[must_use]
    pub fn dtype(&self) -> DecimalType {
        self.dtype
    }

    /// The storage width.
    #[must_use]
    pub fn width(&self) -> StorageWidth {
        self.values.width()
    }

    /// The stored integers (arbitrary under null rows).
    #[must_use]
    pub fn values(&self) -> &DecimalValues {
        &self.values
    }

    /// The validity, if any row is null.
    #[must_use]
    pub fn nulls(&self) -> Option<&NullBuffer> {
        self.nulls.as_ref()
    }

    /// Whether every valid value is known to be within the precision (false
    /// only for arrays made with [`new_unchecked`](Self::new_unchecked)).
    #[must_use]
    pub fn is_checked(&self) -> bool {
        self.checked
    }

    /// The number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are no rows.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of null rows.
    #[must_use]
    pub fn null_count(&self) -> usize {
        self.nulls.as_ref().map_or(0, NullBuffer::null_count)
    }

    /// Whether row `i` holds a value (false past the end).
    #[must_use]
    pub fn is_valid(&self, i: usize) -> bool {
        i < self.len() && self.nulls.as_ref().is_none_or(|n| n.is_valid(i))
    }

    /// Rows `offset..offset + len`, sharing the buffers.
    ///
    /// # Errors
    /// [`DecimalError::OutOfBounds`] when the range reaches past the end.
    pub fn slice(&self, offset: usize, len: usize) -> Result<Self, DecimalError> {
        let array_len = self.len();
        if offset.checked_add(len).is_none_or(|end| end > array_len) {
            return Err(DecimalError::OutOfBounds { offset, len, array_len });
        }
        Ok(Self {
            dtype: self.dtype,
            values: self.values.slice(offset, len),
            nulls: self.nulls.as_ref().map(|n| n.slice(offset, len)).filter(|n| n.null_count() > 0),
            checked: self.checked,
        })
    }

    /// Row `i` as a scalar (null for a null row); `None` past the end.
    #[must_use]
    pub fn scalar(&self, i: usize) -> Option<DecimalScalar> {
        let value = self.values.get(i)?;
        Some(if self.is_valid(i) {
            DecimalScalar::from_stored_unchecked(self.dtype, value)
        } else {
            DecimalScalar::null(self.dtype)
        })
    }

    /// The canonical text of every row, `None` for null rows.
    #[must_use]
    pub fn to_strs(&self) -> Vec<Option<String>> {
        (0..self.len())
            .map(|i| {
                let v = self.values.get(i).filter(|_| self.is_valid(i))?;
                Some(text::format(&text::i256_to_bigint(v), self.dtype.scale()))
            })
            .collect()
    }
}

impl PartialEq for DecimalArray {
    /// Same type, length, validity and valid values (storage width and the
    /// bits under null rows do not matter).
    fn eq(&self, other: &Self) -> bool {
        self.dtype == other.dtype
            && self.len() == other.len()
            && (0..self.len()).all(|i| {
                self.is_valid(i) == other.is_valid(i)
                    && (!self.is_valid(i) || self.values.get(i) == other.values.get(i))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(p: u8, s: i8) -> DecimalType {
        DecimalType::try_new(p, s).unwrap()
    }

    #[test]
    fn try_new_checks_precision_of_valid_rows_only() {
        let nulls = NullBuffer::from(vec![true, false]);
        let ok = DecimalArray::try_new(t(2, 0), ScalarBuffer::from(vec![99i8, 127]), Some(nulls));
        assert!(ok.is_ok());
        let err = DecimalArray::try_new(t(2, 0), ScalarBuffer::from(vec![99i8, -100]), None);
        assert!(matches!(err, Err(DecimalError::ValueOutOfRange { row: 1, .. })), "{err:?}");
    }

    #[test]
    fn storage_must_hold_the_type() {
        let err = DecimalArray::try_new(t(10, 0), ScalarBuffer::from(vec![1i32]), None);
        assert!(matches!(err, Err(DecimalError::StorageTooNarrow { .. })));
        let a =
            DecimalArray::try_new(t(4, 0), ScalarBuffer::from(vec![1i64, -9999]), None).unwrap();
        assert!(matches!(
            a.with_width(StorageWidth::I8),
            Err(DecimalError::StorageTooNarrow { .. })
        ));
        let narrow = a.with_width(StorageWidth::I16).unwrap();
        assert_eq!(narrow.width(), StorageWidth::I16);
        assert_eq!(narrow, a);
    }

    #[test]
    fn null_buffer_length_is_checked() {
        let nulls = NullBuffer::from(vec![true]);
        let err = DecimalArray::try_new(t(4, 0), ScalarBuffer::from(vec![1i16, 2]), Some(nulls));
        assert_eq!(err.unwrap_err(), DecimalError::LengthMismatch { expected: 2, actual: 1 });
    }

    #[test]
    fn slices_share_and_bound_check() {
        let a = DecimalArray::from_strs(t(5, 2), &[Some("1.00"), None, Some("-3.25"), Some("4")])
            .unwrap();
        let s = a.slice(1, 3).unwrap();
        assert_eq!(s.to_strs(), vec![None, Some("-3.25".into()), Some("4.00".into())]);
        assert_eq!(s.null_count(), 1);
        assert!(!s.is_valid(3));
        assert!(matches!(a.slice(3, 2), Err(DecimalError::OutOfBounds { .. })));
        assert!(matches!(a.slice(usize::MAX, 2), Err(DecimalError::OutOfBounds { .. })));
    }

    #[test]
    fn unchecked_values_too_wide_for_a_narrower_width_are_reported() {
        let a = DecimalArray::new_unchecked(t(2, 0), ScalarBuffer::from(vec![1i64, 1000]), None)
            .unwrap();
        assert!(matches!(
            a.with_width(StorageWidth::I8),
            Err(DecimalError::ValueOutOfRange { row: 1, .. })
        ));
    }
}
