//! Conversions between this crate's values and Arrow's: arrays and scalars
//! (sharing buffers), decimal types and widths, and errors.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, Datum, PrimitiveArray};
use arrow_buffer::{NullBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType};

use crate::types::DecimalError;
use crate::types::{DecimalType, StorageWidth};
use crate::values::DecimalScalar;
use crate::values::{DecimalArray, DecimalValues};

#[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
impl DecimalArray {
    /// The decimals of an Arrow `Decimal32`, `Decimal64`, `Decimal128` or
    /// `Decimal256` array, sharing its values buffer and validity (a slice
    /// keeps its offset; nothing is copied).
    ///
    /// The values are not checked against the precision (Arrow arrays may hold
    /// values beyond it): the kernels measure such arrays and compute their
    /// values exactly as the integers they are.
    ///
    /// ```
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
    /// use arrow_array::{Array, Decimal64Array};
    /// use decimal_kernels::{DecimalArray, StorageWidth};
    /// let arrow = Decimal64Array::from(vec![Some(150), None]).with_precision_and_scale(12, 2)?;
    /// let a = DecimalArray::from_arrow(&arrow)?;
    /// assert_eq!(a.width(), StorageWidth::I64);
    /// assert_eq!(a.to_strs(), [Some("1.50".into()), None]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::NotDecimal`] for any other array;
    /// [`DecimalError::InvalidType`] for an Arrow type outside this crate's
    /// range (a scale below -76); [`DecimalError::StorageTooNarrow`] for a
    /// precision its Arrow width cannot hold (Arrow accepts a
    /// `Decimal128(39, 0)` type, whose values need more than 128 bits).
    pub fn from_arrow(array: &dyn Array) -> Result<Self, DecimalError> {
        let (dtype, width) = decimal_type(array.data_type())?;
        let nulls = array.nulls().cloned();
        match width {
            StorageWidth::I32 => Self::new_unchecked(dtype, values::<Decimal32Type>(array)?, nulls),
            StorageWidth::I64 => Self::new_unchecked(dtype, values::<Decimal64Type>(array)?, nulls),
            StorageWidth::I128 => {
                Self::new_unchecked(dtype, values::<Decimal128Type>(array)?, nulls)
            }
            // `decimal_type` gives no narrower width than I32.
            _ => Self::new_unchecked(dtype, values::<Decimal256Type>(array)?, nulls),
        }
    }

    /// The array as an Arrow decimal array of its storage width (`Decimal32`,
    /// `Decimal64`, `Decimal128`, `Decimal256`), sharing the values buffer and
    /// validity; `i8` and `i16` storage is widened to `Decimal32` (a copy).
    ///
    /// ```
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
    /// use arrow_schema::DataType;
    /// use decimal_kernels::{DecimalArray, DecimalType};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(10, 2)?, &[Some("1.50"), None])?;
    /// let arrow = a.to_arrow();
    /// assert_eq!(arrow.data_type(), &DataType::Decimal64(10, 2));
    /// assert_eq!(arrow.null_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn to_arrow(&self) -> ArrayRef {
        let data_type = data_type(self.dtype(), self.width());
        let nulls = self.nulls().cloned();
        match self.values() {
            DecimalValues::I8(b) => primitive::<Decimal32Type>(
                b.iter().map(|&v| i32::from(v)).collect(),
                nulls,
                data_type,
            ),
            DecimalValues::I16(b) => primitive::<Decimal32Type>(
                b.iter().map(|&v| i32::from(v)).collect(),
                nulls,
                data_type,
            ),
            DecimalValues::I32(b) => primitive::<Decimal32Type>(b.clone(), nulls, data_type),
            DecimalValues::I64(b) => primitive::<Decimal64Type>(b.clone(), nulls, data_type),
            DecimalValues::I128(b) => primitive::<Decimal128Type>(b.clone(), nulls, data_type),
            DecimalValues::I256(b) => primitive::<Decimal256Type>(b.clone(), nulls, data_type),
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
impl DecimalScalar {
    /// The value of an Arrow scalar: a [`Scalar`](arrow_array::Scalar), or
    /// any [`Datum`] marked as a scalar, of a decimal type; null when its row
    /// is null.
    ///
    /// As with [`DecimalArray::from_arrow`], the value is kept as stored, not
    /// checked against the precision.
    ///
    /// ```
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
    /// use arrow_array::{Decimal128Array, Scalar};
    /// use decimal_kernels::{DecimalScalar, DecimalType};
    /// let rate = Scalar::new(Decimal128Array::from(vec![825]).with_precision_and_scale(5, 4)?);
    /// let rate = DecimalScalar::from_arrow(&rate)?;
    /// assert_eq!((rate.dtype(), rate.to_string()), (DecimalType::try_new(5, 4)?, "0.0825".into()));
    /// let null = Scalar::new(Decimal128Array::new_null(1).with_precision_and_scale(5, 4)?);
    /// assert!(DecimalScalar::from_arrow(&null)?.is_null());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::NotScalar`] for an array, or a datum marked as a scalar
    /// without exactly one row; otherwise as [`DecimalArray::from_arrow`].
    pub fn from_arrow(datum: &dyn Datum) -> Result<Self, DecimalError> {
        let (array, is_scalar) = datum.get();
        if !is_scalar || array.len() != 1 {
            return Err(DecimalError::NotScalar { is_scalar, rows: array.len() });
        }
        let decimals = DecimalArray::from_arrow(array)?;
        // One row, so row 0 exists.
        Ok(decimals.scalar(0).unwrap_or_else(|| DecimalScalar::null(decimals.dtype())))
    }
}

/// An Arrow error carrying this crate's message, in the variant arrow-rs uses
/// for the same failure: `ArithmeticOverflow` (after an operator of two
/// operands or of one, as arrow-arith's `neg`), `DivideByZero` (which carries no
/// message, so the row is dropped), `ComputeError` for operands of different
/// lengths, `ParseError`, and `InvalidArgumentError` for everything else. So
/// `?` works on this crate's results in functions returning `ArrowError`.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_schema::ArrowError;
/// use decimal_kernels::{DecimalScalar, DecimalType};
///
/// fn parse_price(text: &str) -> Result<DecimalScalar, ArrowError> {
///     Ok(DecimalScalar::parse(DecimalType::try_new(10, 2)?, text)?)
/// }
///
/// assert_eq!(parse_price("12.50")?.to_string(), "12.50");
/// let err = parse_price("12.505").unwrap_err();
/// assert!(matches!(err, ArrowError::ParseError(_)), "{err}");
/// assert!(err.to_string().contains("cannot parse \"12.505\" at row 0 as decimal(10,2)"), "{err}");
/// # Ok::<(), ArrowError>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
impl From<DecimalError> for ArrowError {
    fn from(error: DecimalError) -> Self {
        let message = error.to_string();
        match error {
            DecimalError::Overflow { .. }
            | DecimalError::UnaryOverflow { .. }
            | DecimalError::AggregateOverflow { .. } => Self::ArithmeticOverflow(message),
            DecimalError::DivideByZero { .. } => Self::DivideByZero,
            DecimalError::LengthMismatch { .. } => Self::ComputeError(message),
            DecimalError::Parse { .. } => Self::ParseError(message),
            DecimalError::TooManyGroups { .. } => Self::MemoryError(message),
            _ => Self::InvalidArgumentError(message),
        }
    }
}

/// The values buffer of a decimal array of Arrow type `T` (shared).
fn values<T: ArrowPrimitiveType>(
    array: &dyn Array,
) -> Result<ScalarBuffer<T::Native>, DecimalError> {
    array
        .as_primitive_opt::<T>()
        .map(|a| a.values().clone())
        .ok_or_else(|| DecimalError::NotDecimal { data_type: array.data_type().to_string() })
}

/// An Arrow array over `values` and `nulls` (shared), of `data_type`.
fn primitive<T: ArrowPrimitiveType>(
    values: ScalarBuffer<T::Native>,
    nulls: Option<NullBuffer>,
    data_type: DataType,
) -> ArrayRef {
    // A `DecimalArray` keeps one validity bit per value, and `data_type` is a
    // decimal of `T`'s width: neither check of arrow-array can fail.
    Arc::new(PrimitiveArray::<T>::new(values, nulls).with_data_type(data_type))
}

/// The decimal type and storage width of an Arrow decimal type.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_schema::DataType;
/// use decimal_kernels::{arrow, StorageWidth};
/// let (t, width) = arrow::decimal_type(&DataType::Decimal128(10, 2))?;
/// assert_eq!((t.to_string(), width), ("decimal(10,2)".to_string(), StorageWidth::I128));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::NotDecimal`] for a non-decimal type;
/// [`DecimalError::InvalidType`] for a type outside this crate's range (a
/// scale below -76).
pub fn decimal_type(data_type: &DataType) -> Result<(DecimalType, StorageWidth), DecimalError> {
    let (precision, scale, width) = match *data_type {
        DataType::Decimal32(p, s) => (p, s, StorageWidth::I32),
        DataType::Decimal64(p, s) => (p, s, StorageWidth::I64),
        DataType::Decimal128(p, s) => (p, s, StorageWidth::I128),
        DataType::Decimal256(p, s) => (p, s, StorageWidth::I256),
        _ => return Err(DecimalError::NotDecimal { data_type: data_type.to_string() }),
    };
    Ok((DecimalType::try_new(precision, scale)?, width))
}

/// The Arrow type of decimals of `dtype` stored at `width`, as
/// [`DecimalArray::to_arrow`] returns them: `Decimal32` for up to 32 bits
/// (`i8`, `i16`, `i32`), then `Decimal64`, `Decimal128`, `Decimal256` (never
/// narrower than `dtype` needs).
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_schema::DataType;
/// use decimal_kernels::{arrow, DecimalType, StorageWidth};
/// let t = DecimalType::try_new(4, 1)?;
/// assert_eq!(arrow::data_type(t, t.storage_width()), DataType::Decimal32(4, 1));
/// assert_eq!(arrow::data_type(t, StorageWidth::I128), DataType::Decimal128(4, 1));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[must_use]
pub fn data_type(dtype: DecimalType, width: StorageWidth) -> DataType {
    let (p, s) = (dtype.precision(), dtype.scale());
    match width.max(dtype.storage_width()) {
        StorageWidth::I8 | StorageWidth::I16 | StorageWidth::I32 => DataType::Decimal32(p, s),
        StorageWidth::I64 => DataType::Decimal64(p, s),
        StorageWidth::I128 => DataType::Decimal128(p, s),
        StorageWidth::I256 => DataType::Decimal256(p, s),
    }
}

/// The Arrow width of a decimal type, `None` for any other type.
pub(crate) fn decimal_width(data_type: &DataType) -> Option<StorageWidth> {
    match data_type {
        DataType::Decimal32(..) => Some(StorageWidth::I32),
        DataType::Decimal64(..) => Some(StorageWidth::I64),
        DataType::Decimal128(..) => Some(StorageWidth::I128),
        DataType::Decimal256(..) => Some(StorageWidth::I256),
        _ => None,
    }
}
