//! From this crate's single values back to Arrow scalars.

use arrow_array::{ArrayRef, Scalar};
use arrow_buffer::{NullBuffer, ScalarBuffer};

use crate::types::{DecimalError, StorageWidth};
use crate::values::{DecimalArray, DecimalNative, DecimalScalar, with_native};

#[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
impl DecimalScalar {
    /// The value as an Arrow scalar of its type at `width` (`I32`: a
    /// `Decimal32`, … `I256`: a `Decimal256`), a null row for a null: what
    /// [`DecimalScalar::from_arrow`] reads back, and the scalar side of
    /// [`arrow::binary`](crate::arrow::binary) and the `arrow_arith`
    /// drop-ins.
    ///
    /// ```
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
    /// use arrow_array::{Array, Datum};
    /// use arrow_schema::DataType;
    /// use decimal_kernels::{DecimalScalar, DecimalType, StorageWidth};
    /// let rate = DecimalScalar::parse(DecimalType::try_new(3, 2)?, "0.08")?;
    /// let arrow = rate.to_arrow(StorageWidth::I128)?;
    /// assert_eq!(arrow.get().0.data_type(), &DataType::Decimal128(3, 2));
    /// assert_eq!(DecimalScalar::from_arrow(&arrow)?, rate);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::StorageTooNarrow`] for a width that cannot hold the
    /// type, or that Arrow has no decimal of (`I8`, `I16`);
    /// [`DecimalError::ValueOutOfRange`] for a value (kept as stored beyond
    /// its precision) that the width cannot hold.
    pub fn to_arrow(&self, width: StorageWidth) -> Result<Scalar<ArrayRef>, DecimalError> {
        let dtype = self.dtype();
        if width < StorageWidth::I32 || width < dtype.storage_width() {
            return Err(DecimalError::StorageTooNarrow { dtype, width });
        }
        let nulls = self.is_null().then(|| NullBuffer::new_null(1));
        let array = with_native!(width, T => {
            let stored = self.value().map_or(Some(T::default()), T::from_i256);
            let stored = stored.ok_or_else(|| DecimalError::ValueOutOfRange {
                row: 0,
                value: self.to_string(),
                dtype,
            })?;
            DecimalArray::new_unchecked(dtype, ScalarBuffer::from(vec![stored]), nulls)?
        });
        Ok(Scalar::new(array.to_arrow()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DecimalType;
    use arrow_array::Datum;
    use arrow_buffer::i256;
    use rstest::rstest;

    fn t(p: u8, s: i8) -> DecimalType {
        DecimalType::try_new(p, s).unwrap()
    }

    /// A value, a null and a value beyond its precision come back from every
    /// Arrow width that holds the type as they went.
    #[rstest]
    fn round_trips_through_every_arrow_width(
        #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
        width: StorageWidth,
    ) {
        let dtype = t(4, -2);
        let scalars = [
            DecimalScalar::parse(dtype, "-123400").unwrap(),
            DecimalScalar::null(dtype),
            DecimalScalar::from_stored_unchecked(dtype, i256::from_i128(123_456)),
        ];
        for scalar in scalars {
            let arrow = scalar.to_arrow(width).unwrap();
            let (array, is_scalar) = arrow.get();
            assert!(is_scalar && array.len() == 1);
            assert_eq!(DecimalScalar::from_arrow(&arrow).unwrap(), scalar, "{scalar} at {width}");
        }
    }

    #[rstest]
    #[case::no_arrow_i16(t(2, 0), StorageWidth::I16)]
    #[case::too_narrow(t(19, 0), StorageWidth::I64)]
    fn widths_that_cannot_hold_the_type_are_refused(
        #[case] dtype: DecimalType,
        #[case] width: StorageWidth,
    ) {
        let err = DecimalScalar::null(dtype).to_arrow(width).unwrap_err();
        assert_eq!(err, DecimalError::StorageTooNarrow { dtype, width });
    }

    #[test]
    fn a_stored_value_the_width_cannot_hold_is_refused() {
        let beyond = DecimalScalar::from_stored_unchecked(t(5, 0), i256::from_i128(1 << 40));
        let err = beyond.to_arrow(StorageWidth::I32).unwrap_err();
        assert!(matches!(err, DecimalError::ValueOutOfRange { row: 0, .. }), "{err}");
    }
}
