//! arrow-rs interop: zero-copy conversions between [`DecimalArray`] and Arrow
//! decimal arrays; [`add`], [`sub`], [`mul`], [`div`], [`rem`] with the
//! signatures, result types and values of `arrow_arith::numeric` on
//! `Decimal32`, `Decimal64`, `Decimal128` and `Decimal256`; and [`cast`], a
//! drop-in for `arrow_cast::cast_with_options` whose decimal-to-decimal casts
//! are computed by this crate's kernels.
//!
//! - [`DecimalArray::from_arrow`] and [`DecimalArray::to_arrow`] share the
//!   values buffer and the validity bitmap (a sliced array keeps its offset);
//!   only `i8`/`i16` storage is widened, to `Decimal32`.
//! - [`add`], [`sub`], [`mul`], [`div`], [`rem`] take two [`Datum`]s of one
//!   Arrow decimal width (arrays or [`Scalar`](arrow_array::Scalar)s on either
//!   side) and use the Arrow profile, [`ArithmeticOptions::arrow`], at that
//!   width: Arrow's result types, truncation, [`ArrowError::ArithmeticOverflow`]
//!   and [`ArrowError::DivideByZero`] for the first failing row, a null row
//!   where either side is null.
//! - [`cast`] takes arrow-cast's `CastOptions`: a decimal cast rounds half
//!   away from zero, a value beyond the target precision is a null row
//!   (`safe: true`) or arrow-cast's error (`safe: false`); any cast that is not
//!   decimal to decimal is passed to arrow-cast unchanged.
//! - [`result_data_type`] plans a result's Arrow type from the operands' Arrow
//!   types under any profile; [`DecimalScalar::from_arrow`] reads an Arrow
//!   scalar; a [`DecimalError`] converts into an [`ArrowError`], so `?` works in
//!   functions returning Arrow's error.
//!
//! Deliberate differences, each where arrow-rs is not exact:
//!
//! - From `arrow_arith::numeric`: a result is checked against its result
//!   precision (arrow can return a value beyond the precision its type
//!   declares; here that is an overflow), and a result that fits is returned
//!   even where arrow fails on an intermediate (`10^k`, or an operand scaled by
//!   it, overflowing the native width). For [`rem`], that is a remainder whose
//!   operands arrow cannot align at the larger scale: arrow-arith 60 fails the
//!   call with an overflow, and arrow-arith 59, which computes `10^k` with
//!   wrapping, can return a wrong remainder.
//! - From `arrow_cast`: where arrow-cast fails a whole call because a scale
//!   rises by more digits than the target width has (even under `safe: true`,
//!   even for zeros), each row is cast here; values beyond their source
//!   precision are checked against the target precision in every cast (the
//!   same type included), where arrow-cast passes some on unchecked; arrow-cast
//!   59's `i8` scale arithmetic, which overflows for wide `Decimal256` scale
//!   changes, is exact here; an invalid target type fails before any row. The
//!   [`cast`] docs give each case.
//!
//! The arrow-rs major is the one selected by the crate's feature, `arrow_60`
//! (the default) or `arrow_59`; an application enables the one its own arrow
//! crates have, and a fresh lock file then holds a single arrow version.
//!
//! ```
//! # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
//! # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
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
use arrow_array::types::{
    Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type, DecimalType as ArrowDecimalType,
    validate_decimal_precision_and_scale,
};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, Datum, PrimitiveArray};
use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use arrow_cast::CastOptions;
use arrow_schema::{ArrowError, DataType};

use crate::array::{DecimalArray, DecimalNative, DecimalValues};
use crate::dispatch::{Operand, Recycled, compute, compute_recycling};
use crate::error::DecimalError;
use crate::options::{ArithmeticOptions, BinaryOp, OverflowPolicy, RoundingMode, Semantics};
use crate::profile::{result_type, result_width};
use crate::reference::rescaled;
use crate::scalar::DecimalScalar;
use crate::text::{bigint_to_i256, i256_to_bigint};
use crate::types::{DecimalType, StorageWidth};
use crate::unary::{UnaryOp, unary_stored};

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
            DecimalError::Overflow { .. } | DecimalError::UnaryOverflow { .. } => {
                Self::ArithmeticOverflow(message)
            }
            DecimalError::DivideByZero { .. } => Self::DivideByZero,
            DecimalError::LengthMismatch { .. } => Self::ComputeError(message),
            DecimalError::Parse { .. } => Self::ParseError(message),
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

/// The Arrow type of `lhs op rhs` for operands of Arrow decimal types `lhs`
/// and `rhs` under `options`: the profile's [`result_type`]
/// at the Arrow width [`binary`] returns it (FixedPoint's at least as wide as
/// the wider operand).
///
/// For [`add`], [`sub`], [`mul`] and [`div`] (operands of one Arrow width),
/// pass [`ArithmeticOptions::arrow`] at that width.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_schema::DataType;
/// use decimal_kernels::{arrow, ArithmeticOptions, BinaryOp, StorageWidth};
/// let (price, qty) = (DataType::Decimal64(12, 2), DataType::Decimal64(10, 3));
/// // FixedPoint: the larger scale, stored at the narrowest width for it.
/// let fixed = ArithmeticOptions::fixed_point();
/// let t = arrow::result_data_type(BinaryOp::Mul, &price, &qty, &fixed)?;
/// assert_eq!(t, DataType::Decimal64(13, 3));
/// // As `arrow::mul` (and `arrow_arith::numeric::mul`) on Decimal64 arrays.
/// let arrow_profile = ArithmeticOptions::arrow(StorageWidth::I64);
/// let t = arrow::result_data_type(BinaryOp::Mul, &price, &qty, &arrow_profile)?;
/// assert_eq!(t, DataType::Decimal64(18, 5));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`decimal_type`] for either operand type, and as
/// [`result_type`].
pub fn result_data_type(
    op: BinaryOp,
    lhs: &DataType,
    rhs: &DataType,
    options: &ArithmeticOptions,
) -> Result<DataType, DecimalError> {
    let (lhs, lhs_width) = decimal_type(lhs)?;
    let (rhs, rhs_width) = decimal_type(rhs)?;
    let result = result_type(op, lhs, rhs, options)?;
    Ok(data_type(result, arrow_width(result, options, lhs_width.max(rhs_width))))
}

/// The Arrow width of a profile's results from operands of Arrow widths up
/// to `operands`: the profile's width (Spark and Presto `Decimal128`, Arrow
/// its own), FixedPoint's at least as wide as the wider operand, and never
/// below `Decimal32`.
fn arrow_width(
    result: DecimalType,
    options: &ArithmeticOptions,
    operands: StorageWidth,
) -> StorageWidth {
    // `result` comes from the profile, whose storage always holds it.
    let width = result_width(result, options).unwrap_or(result.storage_width());
    let width = match options.semantics() {
        Semantics::FixedPoint => width.max(operands),
        _ => width,
    };
    width.max(StorageWidth::I32)
}

/// `lhs op rhs` on Arrow decimals of any widths under any profile: the
/// profile's result type as an Arrow decimal (`Decimal128` for Spark and
/// Presto; FixedPoint at least as wide as the wider operand, so
/// `Decimal128` in gives `Decimal128` out; Arrow at its width), the
/// profile's rounding and failure policies (a null row for a failure under
/// `Null`). Operand buffers are read in place.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{Array, Decimal128Array};
/// use arrow_schema::DataType;
/// use decimal_kernels::{arrow, ArithmeticOptions, BinaryOp};
/// // Spark: decimal(38,18) * decimal(38,18) is decimal(38,6), half up.
/// let a = Decimal128Array::from(vec![Some(123_456_789_123_456_789_000_000_000_000_000_000), None])
///     .with_precision_and_scale(38, 18)?;
/// let b = Decimal128Array::from(vec![1_123_456_789_123_456_789, 1])
///     .with_precision_and_scale(38, 18)?;
/// let product = arrow::binary(BinaryOp::Mul, &a, &b, &ArithmeticOptions::spark())?;
/// assert_eq!(product.data_type(), &DataType::Decimal128(38, 6));
/// let product = product.as_any().downcast_ref::<Decimal128Array>().expect("Decimal128");
/// assert_eq!(product.value_as_string(0), "138698367904130467.515623");
/// assert!(product.is_null(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ArrowError::InvalidArgumentError`] for a non-decimal side or types the
/// profile rejects; [`ArrowError::ComputeError`] for arrays of different
/// lengths; [`ArrowError::ArithmeticOverflow`] and
/// [`ArrowError::DivideByZero`] for the first failing valid row under the
/// `Error` policies (the overflow's message names the row and its operands).
pub fn binary(
    op: BinaryOp,
    lhs: &dyn Datum,
    rhs: &dyn Datum,
    options: &ArithmeticOptions,
) -> Result<ArrayRef, ArrowError> {
    let (l, r) = (Side::of(lhs)?, Side::of(rhs)?);
    let result = result_type(op, l.operand().dtype(), r.operand().dtype(), options)?;
    let width = arrow_width(result, options, l.width.max(r.width));
    Ok(compute(op, l.operand(), r.operand(), result, width, options)?.to_arrow())
}

/// `lhs op rhs` as [`binary`], written into the memory of `recycled`, a
/// result the caller is done with (any Arrow decimal array this crate
/// returned): the Arrow face of
/// [`binary_recycling`](crate::binary_recycling), under the same rules for
/// what is reused, and with the same results as [`binary`]. For the
/// `arrow_arith` drop-ins ([`add`], [`sub`], [`mul`], [`div`], [`rem`]),
/// pass [`ArithmeticOptions::arrow`] at the operands' width.
///
/// Its values buffer and validity bitmap are reused when `recycled` is the
/// only reference to the array and to them (drop every clone of the
/// `ArrayRef` first); an array that is shared, sliced, of another decimal
/// width or not a decimal array at all is dropped and the result allocated
/// as by [`binary`]. What is left to allocate does not grow with the rows:
/// the buffers' fixed-size headers, as for
/// [`binary_recycling`](crate::binary_recycling), and the returned
/// [`ArrayRef`]'s own `Arc` around the array (about a hundred bytes).
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{Array, ArrayRef, Decimal128Array};
/// use decimal_kernels::{arrow, ArithmeticOptions, BinaryOp, StorageWidth};
/// let opts = ArithmeticOptions::arrow(StorageWidth::I128);
/// let mut previous: Option<ArrayRef> = None;
/// for batch in [vec![150, -225], vec![1, 2]] {
///     let a = Decimal128Array::from(batch).with_precision_and_scale(15, 2)?;
///     let fresh = arrow::binary(BinaryOp::Add, &a, &a, &opts)?;
///     let sum = match previous.take() {
///         Some(done) => arrow::binary_recycling(BinaryOp::Add, &a, &a, &opts, done)?,
///         None => fresh.clone(),
///     };
///     assert_eq!(sum.to_data(), fresh.to_data());
///     drop(fresh);
///     previous = Some(sum);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`binary`].
pub fn binary_recycling(
    op: BinaryOp,
    lhs: &dyn Datum,
    rhs: &dyn Datum,
    options: &ArithmeticOptions,
    recycled: ArrayRef,
) -> Result<ArrayRef, ArrowError> {
    let (l, r) = (Side::of(lhs)?, Side::of(rhs)?);
    let result = result_type(op, l.operand().dtype(), r.operand().dtype(), options)?;
    let width = arrow_width(result, options, l.width.max(r.width));
    let recycled = match recycled.data_type() {
        DataType::Decimal32(..) => recycled_parts::<Decimal32Type>(recycled),
        DataType::Decimal64(..) => recycled_parts::<Decimal64Type>(recycled),
        DataType::Decimal128(..) => recycled_parts::<Decimal128Type>(recycled),
        DataType::Decimal256(..) => recycled_parts::<Decimal256Type>(recycled),
        _ => Recycled::default(),
    };
    let (l, r) = (l.operand(), r.operand());
    Ok(compute_recycling(op, l, r, result, width, options, recycled)?.to_arrow())
}

/// The buffers of an Arrow array of type `T`, held by nothing else once the
/// array is dropped if `array` was its only reference.
fn recycled_parts<T: ArrowPrimitiveType>(array: ArrayRef) -> Recycled
where
    T::Native: DecimalNative,
{
    let Some(typed) = array.as_primitive_opt::<T>().cloned() else {
        return Recycled::default();
    };
    drop(array);
    let (_, values, nulls) = typed.into_parts();
    Recycled::from_parts(T::Native::into_values(values), nulls)
}

/// `lhs op rhs` on Arrow decimals at a result type the caller planned
/// (`result`, any Arrow decimal type): each row is the exact result rounded
/// once to its scale with the options' rounding mode, checked against its
/// precision, and stored at its Arrow width; the options' profile is not
/// consulted for the type. For engines with their own type rules.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{Array, Decimal128Array};
/// use arrow_schema::DataType;
/// use decimal_kernels::{arrow, ArithmeticOptions, BinaryOp};
/// let a = Decimal128Array::from(vec![Some(10_050), Some(-10_050), None])
///     .with_precision_and_scale(10, 2)?;
/// // 100.50 / 3 at decimal(12,1), half up: 33.5 and -33.5.
/// let three = Decimal128Array::from(vec![3, 3, 3]).with_precision_and_scale(1, 0)?;
/// let q = arrow::binary_to(BinaryOp::Div, &a, &three, &DataType::Decimal64(12, 1), &ArithmeticOptions::spark())?;
/// assert_eq!(q.data_type(), &DataType::Decimal64(12, 1));
/// assert_eq!(q.null_count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`binary`]; [`ArrowError::InvalidArgumentError`] when `result` is not
/// a decimal type this crate supports.
pub fn binary_to(
    op: BinaryOp,
    lhs: &dyn Datum,
    rhs: &dyn Datum,
    result: &DataType,
    options: &ArithmeticOptions,
) -> Result<ArrayRef, ArrowError> {
    let (l, r) = (Side::of(lhs)?, Side::of(rhs)?);
    let (result, width) = decimal_type(result)?;
    Ok(compute(op, l.operand(), r.operand(), result, width, options)?.to_arrow())
}

/// `lhs + rhs` under Arrow's rules, as `arrow_arith::numeric::add` on
/// decimals; [`crate::add`] is the one under a chosen profile (FixedPoint by
/// default) on [`DecimalArray`]s.
///
/// See the [module](self) docs for the two differences from arrow-arith.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{Array, Decimal64Array};
/// use decimal_kernels::arrow;
/// let a = Decimal64Array::from(vec![Some(150), None]).with_precision_and_scale(10, 2)?;
/// let b = Decimal64Array::from(vec![Some(25), Some(1)]).with_precision_and_scale(5, 1)?;
/// let sum = arrow::add(&a, &b)?;
/// let sum = sum.as_any().downcast_ref::<Decimal64Array>().expect("Decimal64");
/// assert_eq!((sum.precision(), sum.scale()), (11, 2));
/// assert_eq!(sum.value(0), 400); // 1.50 + 2.5 = 4.00
/// assert!(sum.is_null(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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

/// `lhs - rhs` under Arrow's rules, as `arrow_arith::numeric::sub` on
/// decimals; [`crate::sub`] is the one under a chosen profile (FixedPoint by
/// default) on [`DecimalArray`]s.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// use arrow_array::{Array, Decimal32Array, Scalar};
/// use decimal_kernels::arrow;
/// let a = Decimal32Array::from(vec![100, 5]).with_precision_and_scale(4, 2)?;
/// let one = Scalar::new(Decimal32Array::from(vec![100]).with_precision_and_scale(4, 2)?);
/// // A scalar on either side; Decimal32(5, 2) as arrow-arith gives.
/// let diff = arrow::sub(&one, &a)?;
/// let diff = diff.as_any().downcast_ref::<Decimal32Array>().expect("Decimal32");
/// assert_eq!(diff.values().to_vec(), [0, 95]);
/// assert_eq!((diff.precision(), diff.scale()), (5, 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`add`].
pub fn sub(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, ArrowError> {
    arithmetic(BinaryOp::Sub, lhs, rhs)
}

/// `lhs * rhs` under Arrow's rules, as `arrow_arith::numeric::mul` on
/// decimals (result scale `s1 + s2`, a type error beyond the width's maximum
/// scale); [`crate::mul`] is the one under a chosen profile (FixedPoint by
/// default: the larger scale, rounded) on [`DecimalArray`]s.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{Array, Decimal128Array};
/// use arrow_schema::{ArrowError, DataType};
/// use decimal_kernels::arrow;
/// let a = Decimal128Array::from(vec![125]).with_precision_and_scale(10, 2)?;
/// let product = arrow::mul(&a, &a)?;
/// assert_eq!(product.data_type(), &DataType::Decimal128(21, 4));
/// // Scale 20 + 20 is beyond Decimal128's 38: a type error, as in arrow-arith.
/// let fine = Decimal128Array::from(vec![1]).with_precision_and_scale(38, 20)?;
/// assert!(matches!(arrow::mul(&fine, &fine), Err(ArrowError::InvalidArgumentError(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`add`].
pub fn mul(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, ArrowError> {
    arithmetic(BinaryOp::Mul, lhs, rhs)
}

/// `lhs / rhs` under Arrow's rules, as `arrow_arith::numeric::div` on
/// decimals (result scale `min(s1 + 4, max)`, truncated); [`crate::div`] is
/// the one under a chosen profile (FixedPoint by default: the larger scale,
/// rounded) on [`DecimalArray`]s.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{Array, Decimal128Array};
/// use arrow_schema::ArrowError;
/// use decimal_kernels::arrow;
/// let a = Decimal128Array::from(vec![200, -200]).with_precision_and_scale(10, 2)?;
/// let b = Decimal128Array::from(vec![300, 300]).with_precision_and_scale(10, 2)?;
/// let q = arrow::div(&a, &b)?;
/// let q = q.as_any().downcast_ref::<Decimal128Array>().expect("Decimal128");
/// // Scale 2 + 4, truncated: 0.666666 and -0.666666.
/// assert_eq!((q.scale(), q.values().to_vec()), (6, vec![666_666, -666_666]));
/// let zero = Decimal128Array::from(vec![0, 1]).with_precision_and_scale(10, 2)?;
/// assert!(matches!(arrow::div(&a, &zero), Err(ArrowError::DivideByZero)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`add`], and [`ArrowError::DivideByZero`] for the first valid row whose
/// divisor is zero.
pub fn div(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, ArrowError> {
    arithmetic(BinaryOp::Div, lhs, rhs)
}

/// `lhs % rhs` under Arrow's rules, as `arrow_arith::numeric::rem` on
/// decimals; [`crate::rem`] is the one under a chosen profile (FixedPoint by
/// default) on [`DecimalArray`]s.
///
/// Result type `decimal(min(p1 - s1, p2 - s2) + max(s1, s2), max(s1, s2))`,
/// the exact remainder with the sign of `lhs`. Where arrow-arith fails to
/// align the
/// operands at the larger scale (an aligned value beyond the width), this
/// returns the remainder.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{Array, Decimal128Array};
/// use arrow_schema::{ArrowError, DataType};
/// use decimal_kernels::arrow;
/// let a = Decimal128Array::from(vec![750, -750]).with_precision_and_scale(10, 2)?;
/// let b = Decimal128Array::from(vec![2_001, 2_001]).with_precision_and_scale(5, 3)?;
/// let r = arrow::rem(&a, &b)?;
/// assert_eq!(r.data_type(), &DataType::Decimal128(5, 3));
/// let r = r.as_any().downcast_ref::<Decimal128Array>().expect("Decimal128");
/// assert_eq!(r.values().to_vec(), [1_497, -1_497]); // 7.50 % 2.001 = 1.497
/// let zero = Decimal128Array::from(vec![0, 1]).with_precision_and_scale(5, 3)?;
/// assert!(matches!(arrow::rem(&a, &zero), Err(ArrowError::DivideByZero)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`div`].
pub fn rem(lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, ArrowError> {
    arithmetic(BinaryOp::Rem, lhs, rhs)
}

/// `array` cast to `to_type`, as `arrow_cast::cast_with_options(array,
/// to_type, options)` casts it: the same parameters, so a drop-in. A cast
/// from an Arrow decimal (`Decimal32`, `Decimal64`, `Decimal128`,
/// `Decimal256`) to an Arrow decimal (any of the four, any precision and
/// scale, negative scales included) runs through this crate's rescale kernel
/// ([`UnaryOp::Rescale`]) with arrow-cast's result:
///
/// - digits dropped from the scale round half away from zero
///   ([`RoundingMode::HalfUp`]) at every pair of widths: `-1.255` at scale 2
///   is `-1.26`;
/// - a value beyond the target precision is a null row under `safe: true`;
///   under `safe: false` the first such valid row fails the call, with
///   arrow-cast's error: [`ArrowError::InvalidArgumentError`] with arrow-rs's
///   "too large (small) to store" message where the cast value fits the
///   target's native integer, [`ArrowError::CastError`] ("Cannot cast to
///   Decimal32(9, 2). Overflowing on 123") where it does not;
/// - the result's type is exactly `to_type`, its nulls those of `array`
///   (and of the rows that did not fit).
///
/// Every other cast (a source or target that is not an Arrow decimal) is
/// `arrow_cast::cast_with_options` itself.
///
/// Deliberate differences from arrow-cast (`cast/decimal.rs` of arrow-cast
/// 59.3 and 60.1), all where arrow-cast is not exact:
///
/// - A scale raised by more digits than the target width's maximum
///   precision (`Decimal32(9, 0)` to `Decimal32(9, 9)` is fine, from scale
///   -1 it is not): arrow-cast fails the whole call ("Value overflows for
///   output scale"), even under `safe: true` and for zeros and nulls; here
///   each row is cast (zero stays zero, any other value overflows).
/// - Values beyond their declared source precision, which arrow-rs arrays can
///   hold: rescaled exactly and checked against the target precision, in
///   every cast including one to the same type; arrow-cast passes them on
///   unchecked wherever the types alone prove that in-precision values fit
///   (the same type, the same scale with no fewer digits, enough digits for
///   the scale change), and panics where such a value then misses a narrower
///   target width.
/// - arrow-cast 59 computes the scale change, and the digits it needs, in
///   `i8`: past 127 (a `Decimal256(76, 0)` raised to scale 60, scales far
///   below zero) that panics where overflow checks are on and wraps, skipping
///   the precision check, where they are off. Here the cast is exact.
/// - A target type its Arrow width cannot have (`Decimal32(10, 2)`) fails
///   with arrow-rs's type error before any row is read (arrow-cast may first
///   report a failing row); a decimal with a scale below -76, which arrow-rs
///   accepts, is an [`ArrowError::InvalidArgumentError`] here.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_cast_59 as arrow_cast;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{Array, Decimal32Array, Decimal128Array};
/// use arrow_cast::CastOptions;
/// use arrow_schema::{ArrowError, DataType};
/// use decimal_kernels::arrow;
/// let a = Decimal128Array::from(vec![Some(-1_255), Some(99_995), None])
///     .with_precision_and_scale(10, 3)?;
/// // To Decimal32(4, 2): -1.255 rounds half away from zero to -1.26; 99.995
/// // rounds to 100.00, beyond 4 digits, so a null row under `safe: true`.
/// let safe = CastOptions { safe: true, ..CastOptions::default() };
/// let cast = arrow::cast(&a, &DataType::Decimal32(4, 2), &safe)?;
/// let cast = cast.as_any().downcast_ref::<Decimal32Array>().expect("Decimal32");
/// assert_eq!(cast.data_type(), &DataType::Decimal32(4, 2));
/// assert_eq!((cast.value(0), cast.is_null(1), cast.is_null(2)), (-126, true, true));
/// // Under `safe: false` the row fails the call, with arrow-cast's error.
/// let strict = CastOptions { safe: false, ..CastOptions::default() };
/// let err = arrow::cast(&a, &DataType::Decimal32(4, 2), &strict).unwrap_err();
/// assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
/// assert!(err.to_string().contains("100.00 is too large to store in a Decimal32 of precision 4"), "{err}");
/// // Any other cast is arrow-cast's own.
/// let text = arrow::cast(&a, &DataType::Utf8, &safe)?;
/// assert_eq!(text.data_type(), &DataType::Utf8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As above for a decimal cast under `safe: false`; arrow-rs's type error
/// ([`ArrowError::InvalidArgumentError`]) for a target type invalid for its
/// Arrow width, and [`ArrowError::InvalidArgumentError`] for a decimal type
/// outside this crate's range; otherwise what `arrow_cast::cast_with_options`
/// returns.
pub fn cast(
    array: &dyn Array,
    to_type: &DataType,
    options: &CastOptions<'_>,
) -> Result<ArrayRef, ArrowError> {
    if decimal_width(array.data_type()).is_none() || decimal_width(to_type).is_none() {
        return arrow_cast::cast_with_options(array, to_type, options);
    }
    validate_arrow_decimal(to_type)?;
    let (to, width) = decimal_type(to_type)?;
    let decimals = DecimalArray::from_arrow(array)?;
    let on_overflow = if options.safe { OverflowPolicy::Null } else { OverflowPolicy::Error };
    let rescale = ArithmeticOptions::arrow(width)
        .with_rounding(RoundingMode::HalfUp)
        .with_on_overflow(on_overflow);
    let recycled = Recycled::default();
    match unary_stored(
        UnaryOp::Rescale { to },
        Operand::Array(&decimals),
        width,
        &rescale,
        recycled,
    ) {
        Ok(cast) => Ok(cast.to_arrow()),
        Err(DecimalError::UnaryOverflow { row, .. }) => {
            Err(cast_error(&decimals, row, to, to_type))
        }
        Err(e) => Err(e.into()),
    }
}

/// The Arrow width of a decimal type, `None` for any other type.
fn decimal_width(data_type: &DataType) -> Option<StorageWidth> {
    match data_type {
        DataType::Decimal32(..) => Some(StorageWidth::I32),
        DataType::Decimal64(..) => Some(StorageWidth::I64),
        DataType::Decimal128(..) => Some(StorageWidth::I128),
        DataType::Decimal256(..) => Some(StorageWidth::I256),
        _ => None,
    }
}

/// arrow-rs's own check of a decimal type against its width (the check and
/// the error arrow-cast's result goes through).
fn validate_arrow_decimal(data_type: &DataType) -> Result<(), ArrowError> {
    match *data_type {
        DataType::Decimal32(p, s) => validate_decimal_precision_and_scale::<Decimal32Type>(p, s),
        DataType::Decimal64(p, s) => validate_decimal_precision_and_scale::<Decimal64Type>(p, s),
        DataType::Decimal128(p, s) => validate_decimal_precision_and_scale::<Decimal128Type>(p, s),
        DataType::Decimal256(p, s) => validate_decimal_precision_and_scale::<Decimal256Type>(p, s),
        _ => Ok(()),
    }
}

/// arrow-cast's error for the first row of `from` that does not fit
/// `to_type`: its precision error when the cast value fits the target's
/// native integer, its overflow error naming the source value otherwise.
fn cast_error(from: &DecimalArray, row: usize, to: DecimalType, to_type: &DataType) -> ArrowError {
    let value = from.values().get(row).unwrap_or(i256::ZERO);
    let exact =
        rescaled(&i256_to_bigint(value), from.dtype().scale(), to.scale(), RoundingMode::HalfUp);
    let exact = bigint_to_i256(&exact);
    match *to_type {
        DataType::Decimal32(p, s) => precision_error::<Decimal32Type>(exact, value, p, s),
        DataType::Decimal64(p, s) => precision_error::<Decimal64Type>(exact, value, p, s),
        DataType::Decimal128(p, s) => precision_error::<Decimal128Type>(exact, value, p, s),
        DataType::Decimal256(p, s) => precision_error::<Decimal256Type>(exact, value, p, s),
        _ => ArrowError::CastError(format!("Cannot cast to {to_type}. Overflowing on {value}")),
    }
}

/// arrow-rs's precision error for the cast value `exact` when it fits the
/// native integer of `T`, arrow-cast's overflow error naming the source
/// `value` when it does not.
fn precision_error<T: ArrowDecimalType>(
    exact: Option<i256>,
    value: i256,
    p: u8,
    s: i8,
) -> ArrowError
where
    T::Native: DecimalNative,
{
    let overflow = || {
        ArrowError::CastError(format!(
            "Cannot cast to {}({p}, {s}). Overflowing on {value}",
            T::PREFIX
        ))
    };
    let exact = exact.and_then(<T::Native as DecimalNative>::from_i256);
    exact.and_then(|v| T::validate_decimal_precision(v, p, s).err()).unwrap_or_else(overflow)
}

/// One side of an Arrow call, converted without copying, and its Arrow width.
struct Side {
    values: SideValues,
    width: StorageWidth,
}

/// The values of one side of an Arrow call.
enum SideValues {
    Array(DecimalArray),
    Scalar(DecimalScalar),
}

impl Side {
    /// The side for `datum`.
    fn of(datum: &dyn Datum) -> Result<Self, ArrowError> {
        let (array, is_scalar) = datum.get();
        let (_, width) = decimal_type(array.data_type())?;
        Ok(Self { values: SideValues::new(array, is_scalar)?, width })
    }

    fn operand(&self) -> Operand<'_> {
        self.values.operand()
    }
}

impl SideValues {
    /// The side for `array` (`is_scalar`: a one-row array standing for every
    /// row, null when it holds a null, as arrow reads it).
    fn new(array: &dyn Array, is_scalar: bool) -> Result<Self, ArrowError> {
        let decimals = DecimalArray::from_arrow(array)?;
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
}

/// The Arrow decimal width both types share, if they are decimals of one.
fn shared_width(lhs: &DataType, rhs: &DataType) -> Option<StorageWidth> {
    decimal_width(lhs).filter(|&width| decimal_width(rhs) == Some(width))
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
    let (l, r) = (SideValues::new(l, l_scalar)?, SideValues::new(r, r_scalar)?);
    let options = ArithmeticOptions::arrow(width);
    match crate::dispatch::binary(op, l.operand(), r.operand(), &options) {
        Ok(result) => Ok(result.to_arrow()),
        Err(DecimalError::Overflow { row, result_type, lhs, rhs, .. }) => {
            Err(ArrowError::ArithmeticOverflow(format!(
                "Overflow happened on: {lhs} {op} {rhs} (row {row}): the result does not fit \
                 {result_type}"
            )))
        }
        // arrow-arith's error for arrays of different lengths.
        Err(DecimalError::LengthMismatch { .. }) => Err(ArrowError::ComputeError(
            "Cannot perform a binary operation on arrays of different length".to_string(),
        )),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{
        Decimal32Array, Decimal64Array, Decimal128Array, Decimal256Array, Int32Array, Scalar,
    };
    use arrow_buffer::i256;
    use rstest::rstest;

    fn t(p: u8, s: i8) -> DecimalType {
        DecimalType::try_new(p, s).unwrap()
    }

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

    /// The operand type pairs of the result-type checks: a result narrower
    /// than 32 bits, mixed and negative scales, the widest of Decimal128 (whose
    /// product scale Arrow rejects), and beyond it.
    fn type_pairs() -> [(DecimalType, DecimalType); 5] {
        [
            (t(2, 1), t(2, 1)),
            (t(9, 2), t(5, 3)),
            (t(18, -2), t(4, 4)),
            (t(38, 20), t(38, 20)),
            (t(76, 0), t(1, 0)),
        ]
    }

    /// The planned Arrow type is the type of what `binary` returns, and the
    /// planning fails exactly where `binary` does.
    #[rstest]
    fn result_data_type_is_the_type_binary_returns(
        #[values(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Rem)]
        op: BinaryOp,
        #[values(
            ArithmeticOptions::fixed_point(),
            ArithmeticOptions::arrow(StorageWidth::I32),
            ArithmeticOptions::arrow(StorageWidth::I64),
            ArithmeticOptions::arrow(StorageWidth::I128),
            ArithmeticOptions::arrow(StorageWidth::I256),
            ArithmeticOptions::spark(),
            ArithmeticOptions::spark_no_precision_loss(),
            ArithmeticOptions::presto()
        )]
        options: ArithmeticOptions,
    ) {
        for (lhs, rhs) in type_pairs() {
            let empty = |dtype| DecimalArray::from_strs(dtype, &[]).unwrap().to_arrow();
            let computed = binary(op, &empty(lhs), &empty(rhs), &options)
                .map(|result| result.data_type().clone());
            let (l, r) = (data_type(lhs, lhs.storage_width()), data_type(rhs, rhs.storage_width()));
            // The same type, or the same error (as the Arrow error `binary` returns).
            let planned = result_data_type(op, &l, &r, &options).map_err(ArrowError::from);
            let message = |e: ArrowError| e.to_string();
            assert_eq!(planned.map_err(message), computed.map_err(message), "{lhs} {op} {rhs}");
        }
    }

    #[test]
    fn result_data_type_of_a_non_decimal_is_an_error() {
        let options = ArithmeticOptions::default();
        let err = result_data_type(BinaryOp::Add, &DataType::Int32, &DataType::Int32, &options);
        assert_eq!(err, Err(DecimalError::NotDecimal { data_type: "Int32".into() }));
    }

    /// Each error becomes the Arrow variant arrow-rs uses for it, carrying
    /// this crate's message where the variant carries one.
    #[rstest]
    #[case::overflow(
        DecimalError::Overflow {
            row: 3,
            result_type: t(5, 2),
            op: BinaryOp::Add,
            lhs: "999.99".into(),
            rhs: "0.01".into()
        },
        ArrowError::ArithmeticOverflow
    )]
    #[case::unary_overflow(
        DecimalError::UnaryOverflow {
            row: 1,
            result_type: t(4, 2),
            op: UnaryOp::Rescale { to: t(4, 2) },
            value: "123.45".into()
        },
        ArrowError::ArithmeticOverflow
    )]
    #[case::divide_by_zero(
        DecimalError::DivideByZero { row: 3, lhs: "1.00".into() },
        |_| ArrowError::DivideByZero
    )]
    #[case::length_mismatch(
        DecimalError::LengthMismatch { expected: 2, actual: 3 },
        ArrowError::ComputeError
    )]
    #[case::parse(
        DecimalError::Parse { row: 0, text: "1.x".into(), dtype: t(5, 2), reason: "not a digit" },
        ArrowError::ParseError
    )]
    #[case::invalid_type(
        DecimalError::InvalidType { precision: 0, scale: 0 },
        ArrowError::InvalidArgumentError
    )]
    #[case::not_decimal(
        DecimalError::NotDecimal { data_type: "Utf8".into() },
        ArrowError::InvalidArgumentError
    )]
    fn decimal_errors_become_arrow_errors(
        #[case] error: DecimalError,
        #[case] variant: fn(String) -> ArrowError,
    ) {
        let want = variant(error.to_string());
        assert_eq!(format!("{:?}", ArrowError::from(error)), format!("{want:?}"));
    }

    fn scalar<A: Array + 'static>(array: A) -> Scalar<ArrayRef> {
        Scalar::new(Arc::new(array) as ArrayRef)
    }

    /// Every Arrow decimal width, and a value beyond its precision (kept as
    /// stored, as `DecimalArray::from_arrow` keeps it).
    #[rstest]
    #[case::decimal32(scalar(Decimal32Array::from(vec![-5]).with_precision_and_scale(3, 1).unwrap()), t(3, 1), -5)]
    #[case::decimal64(scalar(Decimal64Array::from(vec![7]).with_precision_and_scale(12, -2).unwrap()), t(12, -2), 7)]
    #[case::decimal128(scalar(Decimal128Array::from(vec![825]).with_precision_and_scale(5, 4).unwrap()), t(5, 4), 825)]
    #[case::decimal256(scalar(Decimal256Array::from(vec![i256::from_i128(-1)]).with_precision_and_scale(50, 0).unwrap()), t(50, 0), -1)]
    #[case::beyond_precision(scalar(Decimal128Array::from(vec![12_345]).with_precision_and_scale(2, 0).unwrap()), t(2, 0), 12_345)]
    fn scalar_from_arrow(
        #[case] datum: Scalar<ArrayRef>,
        #[case] dtype: DecimalType,
        #[case] stored: i128,
    ) {
        let got = DecimalScalar::from_arrow(&datum).unwrap();
        assert_eq!((got.dtype(), got.value()), (dtype, Some(i256::from_i128(stored))));
    }

    #[test]
    fn null_scalar_from_arrow_is_null() {
        let null = scalar(Decimal64Array::new_null(1).with_precision_and_scale(10, 2).unwrap());
        assert_eq!(DecimalScalar::from_arrow(&null), Ok(DecimalScalar::null(t(10, 2))));
    }

    #[rstest]
    #[case::one_row_array(Box::new(Decimal128Array::from(vec![1])), false, 1)]
    #[case::longer_array(Box::new(Decimal128Array::from(vec![1, 2, 3])), false, 3)]
    #[case::empty_scalar(Box::new(EmptyScalar(Decimal128Array::from(Vec::<i128>::new()))), true, 0)]
    fn scalar_from_arrow_needs_a_scalar(
        #[case] datum: Box<dyn Datum>,
        #[case] is_scalar: bool,
        #[case] rows: usize,
    ) {
        let err = DecimalScalar::from_arrow(datum.as_ref());
        assert_eq!(err, Err(DecimalError::NotScalar { is_scalar, rows }));
    }

    #[test]
    fn scalar_from_arrow_needs_a_decimal() {
        let err = DecimalScalar::from_arrow(&scalar(Int32Array::from(vec![1])));
        assert_eq!(err, Err(DecimalError::NotDecimal { data_type: "Int32".into() }));
    }
}
