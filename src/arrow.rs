//! arrow-rs interop: zero-copy conversions between [`DecimalArray`] and Arrow
//! decimal arrays, and [`add`], [`sub`], [`mul`], [`div`] with the signatures,
//! result types and values of `arrow_arith::numeric` on `Decimal32`,
//! `Decimal64`, `Decimal128` and `Decimal256`, computed by this crate's kernels.
//!
//! - [`DecimalArray::from_arrow`] and [`DecimalArray::to_arrow`] share the
//!   values buffer and the validity bitmap (a sliced array keeps its offset);
//!   only `i8`/`i16` storage is widened, to `Decimal32`.
//! - [`add`], [`sub`], [`mul`], [`div`] take two [`Datum`]s of one Arrow
//!   decimal width (arrays or [`Scalar`](arrow_array::Scalar)s on either side)
//!   and use the Arrow profile, [`ArithmeticOptions::arrow`], at that width:
//!   Arrow's result types, truncation, [`ArrowError::ArithmeticOverflow`] and
//!   [`ArrowError::DivideByZero`] for the first failing row, a null row where
//!   either side is null.
//!
//! Two deliberate differences from `arrow_arith::numeric`: a result is checked
//! against its result precision (arrow can return a value beyond the precision
//! its type declares; here that is an overflow), and a result that fits is
//! returned even where arrow fails on an intermediate (`10^k`, or an operand
//! scaled by it, overflowing the native width).
//!
//! ```
//! use arrow_array::{Array, Decimal128Array, Scalar};
//! use arrow_schema::DataType;
//! use decimal_kernels::{DecimalArray, arrow};
//!
//! let prices = Decimal128Array::from(vec![Some(1050), None, Some(-299)])
//!     .with_precision_and_scale(10, 2)?;
//! let rate = Scalar::new(Decimal128Array::from(vec![8]).with_precision_and_scale(3, 2)?);
//!
//! // As `arrow_arith::numeric::mul`: Decimal128(14, 4), a null where either side is null.
//! let tax = arrow::mul(&prices, &rate)?;
//! assert_eq!(tax.data_type(), &DataType::Decimal128(14, 4));
//!
//! // Back to this crate's arrays without copying.
//! let tax = DecimalArray::from_arrow(&tax)?;
//! assert_eq!(tax.to_strs(), [Some("0.8400".into()), None, Some("-0.2392".into())]);
//! let again = tax.to_arrow();
//! assert_eq!(again.data_type(), &DataType::Decimal128(14, 4));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, Datum, PrimitiveArray};
use arrow_buffer::{NullBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType};

use crate::array::{DecimalArray, DecimalValues};
use crate::dispatch::{Operand, binary};
use crate::error::DecimalError;
use crate::options::{ArithmeticOptions, BinaryOp};
use crate::scalar::DecimalScalar;
use crate::types::{DecimalType, StorageWidth};

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

/// `lhs + rhs` as `arrow_arith::numeric::add` on decimals (see the
/// [module](self) docs for the two differences).
///
/// # Errors
/// [`ArrowError::InvalidArgumentError`] unless both sides are decimals of one
/// Arrow width, or when the Arrow profile rejects their types;
/// [`ArrowError::ComputeError`] for arrays of different lengths;
/// [`ArrowError::ArithmeticOverflow`] for the first row whose result exceeds
/// the result precision.
pub fn add(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, ArrowError> {
    arithmetic(BinaryOp::Add, lhs, rhs)
}

/// `lhs - rhs` as `arrow_arith::numeric::sub` on decimals.
///
/// # Errors
/// As [`add`].
pub fn sub(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, ArrowError> {
    arithmetic(BinaryOp::Sub, lhs, rhs)
}

/// `lhs * rhs` as `arrow_arith::numeric::mul` on decimals (result scale
/// `s1 + s2`, a type error beyond the width's maximum scale).
///
/// # Errors
/// As [`add`].
pub fn mul(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, ArrowError> {
    arithmetic(BinaryOp::Mul, lhs, rhs)
}

/// `lhs / rhs` as `arrow_arith::numeric::div` on decimals (result scale
/// `min(s1 + 4, max)`, truncated).
///
/// # Errors
/// As [`add`], and [`ArrowError::DivideByZero`] for the first valid row whose
/// divisor is zero.
pub fn div(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, ArrowError> {
    arithmetic(BinaryOp::Div, lhs, rhs)
}

/// One side of an Arrow call, converted without copying.
enum Side {
    Array(DecimalArray),
    Scalar(DecimalScalar),
}

impl Side {
    /// The side for `array` (`is_scalar`: a one-row array standing for every
    /// row, null when it holds a null, as arrow reads it).
    fn new(array: &dyn Array, is_scalar: bool) -> Result<Self, ArrowError> {
        let decimals = DecimalArray::from_arrow(array).map_err(invalid_argument)?;
        if !is_scalar {
            return Ok(Self::Array(decimals));
        }
        let scalar = if decimals.null_count() > 0 {
            Some(DecimalScalar::null(decimals.dtype()))
        } else {
            decimals.scalar(0)
        };
        scalar.map(Self::Scalar).ok_or_else(|| {
            ArrowError::InvalidArgumentError("a scalar operand has no rows".to_string())
        })
    }

    fn operand(&self) -> Operand<'_> {
        match self {
            Self::Array(a) => Operand::Array(a),
            Self::Scalar(s) => Operand::Scalar(s),
        }
    }

    /// The text of the value at `row`.
    fn text(&self, row: usize) -> String {
        match self {
            Self::Array(a) => a.scalar(row).map_or_else(|| "NULL".to_string(), |s| s.to_string()),
            Self::Scalar(s) => s.to_string(),
        }
    }
}

/// The Arrow decimal width both types share, if they are decimals of one.
fn shared_width(lhs: &DataType, rhs: &DataType) -> Option<StorageWidth> {
    match (lhs, rhs) {
        (DataType::Decimal32(..), DataType::Decimal32(..)) => Some(StorageWidth::I32),
        (DataType::Decimal64(..), DataType::Decimal64(..)) => Some(StorageWidth::I64),
        (DataType::Decimal128(..), DataType::Decimal128(..)) => Some(StorageWidth::I128),
        (DataType::Decimal256(..), DataType::Decimal256(..)) => Some(StorageWidth::I256),
        _ => None,
    }
}

fn arithmetic(op: BinaryOp, lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, ArrowError> {
    let (l, l_scalar) = lhs.get();
    let (r, r_scalar) = rhs.get();
    let width = shared_width(l.data_type(), r.data_type()).ok_or_else(|| {
        ArrowError::InvalidArgumentError(format!(
            "Invalid arithmetic operation: {} {op} {}: both sides must be decimals of one Arrow \
             width (Decimal32, Decimal64, Decimal128 or Decimal256)",
            l.data_type(),
            r.data_type()
        ))
    })?;
    let (l, r) = (Side::new(l, l_scalar)?, Side::new(r, r_scalar)?);
    let options = ArithmeticOptions::arrow(width);
    match binary(op, l.operand(), r.operand(), &options) {
        Ok(result) => Ok(result.to_arrow()),
        Err(DecimalError::Overflow { row, result_type }) => {
            Err(ArrowError::ArithmeticOverflow(format!(
                "Overflow happened on: {} {op} {} (row {row}): the result does not fit \
                 {result_type}",
                l.text(row),
                r.text(row)
            )))
        }
        Err(DecimalError::DivideByZero { .. }) => Err(ArrowError::DivideByZero),
        // arrow-arith's error for arrays of different lengths.
        Err(DecimalError::LengthMismatch { .. }) => Err(ArrowError::ComputeError(
            "Cannot perform a binary operation on arrays of different length".to_string(),
        )),
        Err(e) => Err(invalid_argument(e)),
    }
}

fn invalid_argument(error: DecimalError) -> ArrowError {
    ArrowError::InvalidArgumentError(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Decimal128Array, Int32Array, Scalar};

    #[test]
    fn non_decimal_arrays_are_rejected() {
        let ints = Int32Array::from(vec![1, 2]);
        let err = DecimalArray::from_arrow(&ints).unwrap_err();
        assert_eq!(err, DecimalError::NotDecimal { data_type: "Int32".into() });
        let err = add(&ints, &ints).unwrap_err();
        assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
    }

    /// A scalar operand without rows (which `Scalar::new` cannot build).
    struct EmptyScalar(Decimal128Array);

    impl Datum for EmptyScalar {
        fn get(&self) -> (&dyn Array, bool) {
            (&self.0, true)
        }
    }

    #[test]
    fn empty_scalar_is_an_error() {
        let empty = EmptyScalar(Decimal128Array::from(Vec::<i128>::new()));
        let one = Decimal128Array::from(vec![1]);
        let err = add(&one, &empty).unwrap_err();
        assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
    }

    #[test]
    fn scalar_with_a_null_is_null() {
        let one = Decimal128Array::from(vec![1, 2]);
        let null = Scalar::new(Decimal128Array::from(vec![None::<i128>]));
        let sum = add(&one, &null).unwrap();
        assert_eq!(sum.null_count(), 2);
    }
}
