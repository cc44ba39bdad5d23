//! Arithmetic on Arrow decimals: the `arrow_arith::numeric` drop-ins and
//! the calls under any profile, each one request to the funnel.

use arrow_array::cast::AsArray;
use arrow_array::types::{Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, Datum};
use arrow_schema::{ArrowError, DataType};

use crate::arrow::convert::{data_type, decimal_type, decimal_width};
use crate::compute::prepared::BinaryPlan;
use crate::compute::operand::Operand;
use crate::compute::recycled::RecycledArray;
use crate::rules::storage::ResultStorage;
use crate::types::DecimalError;
use crate::types::StorageWidth;
use crate::types::{ArithmeticOptions, BinaryOp};
use crate::values::DecimalScalar;
use crate::values::{DecimalArray, DecimalNative};

/// The Arrow type of `lhs op rhs` for operands of Arrow decimal types `lhs`
/// and `rhs` under `options`: the profile's [`BinaryOp::result_type`]
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
/// [`BinaryOp::result_type`].
pub fn result_data_type(
    op: BinaryOp,
    lhs: &DataType,
    rhs: &DataType,
    options: &ArithmeticOptions,
) -> Result<DataType, DecimalError> {
    Ok(BinaryPlan::for_arrow(op, lhs, rhs, options)?.result_data_type())
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
    let (l, r) = (DatumOperand::of(lhs)?, DatumOperand::of(rhs)?);
    Ok(arrow_plan(op, (&l, &r), options)?.run(l.operand(), r.operand())?.to_arrow())
}

/// The plan of `lhs op rhs` at the profile's result type, stored at the
/// Arrow width [`binary`] returns.
fn arrow_plan(
    op: BinaryOp,
    (lhs, rhs): (&DatumOperand, &DatumOperand),
    options: &ArithmeticOptions,
) -> Result<BinaryPlan, DecimalError> {
    let storage = ResultStorage::ArrowOperands(lhs.width.max(rhs.width));
    let types = (lhs.operand().dtype(), rhs.operand().dtype());
    BinaryPlan::stored(op, types, None, storage, options)
}

impl BinaryPlan {
    /// `op` on Arrow decimals of types `lhs` and `rhs`, as [`binary`] plans
    /// it: the profile's result type, stored at the Arrow width [`binary`]
    /// returns ([`result_data_type`](Self::result_data_type)).
    ///
    /// ```
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
    /// use arrow_array::Decimal64Array;
    /// use arrow_schema::DataType;
    /// use decimal_kernels::{ArithmeticOptions, BinaryOp, BinaryPlan, DecimalError, StorageWidth};
    /// let t = DataType::Decimal64(10, 2);
    /// let plan = BinaryPlan::for_arrow(BinaryOp::Div, &t, &t, &ArithmeticOptions::arrow(StorageWidth::I64))?;
    /// assert_eq!(plan.result_data_type(), DataType::Decimal64(16, 6));
    /// let a = Decimal64Array::from(vec![100, 250]).with_precision_and_scale(10, 2).unwrap();
    /// let b = Decimal64Array::from(vec![300, 0]).with_precision_and_scale(10, 2).unwrap();
    /// // The crate's own error, naming the row and its dividend.
    /// let err = plan.run_arrow(&a, &b).unwrap_err();
    /// assert!(matches!(err, DecimalError::DivideByZero { row: 1, .. }));
    /// # Ok::<(), DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::NotDecimal`] for a type that is not an Arrow decimal;
    /// as [`BinaryPlan::new`].
    pub fn for_arrow(
        op: BinaryOp,
        lhs: &DataType,
        rhs: &DataType,
        options: &ArithmeticOptions,
    ) -> Result<Self, DecimalError> {
        let ((l, lw), (r, rw)) = (decimal_type(lhs)?, decimal_type(rhs)?);
        Self::stored(op, (l, r), None, ResultStorage::ArrowOperands(lw.max(rw)), options)
    }

    /// The Arrow type of its results.
    #[must_use]
    pub fn result_data_type(&self) -> DataType {
        data_type(self.result_type(), self.result_width())
    }

    /// [`run`](Self::run) on Arrow decimals (a scalar datum stands for
    /// every row), its failures the crate's own errors, with their row and
    /// operands.
    ///
    /// # Errors
    /// [`DecimalError::NotDecimal`] for a side that is not an Arrow decimal
    /// array; as [`run`](Self::run).
    pub fn run_arrow(&self, lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, DecimalError> {
        let (l, r) = (DatumOperand::native(lhs)?, DatumOperand::native(rhs)?);
        Ok(self.run(l.operand(), r.operand())?.to_arrow())
    }
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
    let (l, r) = (DatumOperand::of(lhs)?, DatumOperand::of(rhs)?);
    let recycled = match recycled.data_type() {
        DataType::Decimal32(..) => recycled_parts::<Decimal32Type>(recycled),
        DataType::Decimal64(..) => recycled_parts::<Decimal64Type>(recycled),
        DataType::Decimal128(..) => recycled_parts::<Decimal128Type>(recycled),
        DataType::Decimal256(..) => recycled_parts::<Decimal256Type>(recycled),
        _ => RecycledArray::default(),
    };
    let plan = arrow_plan(op, (&l, &r), options)?;
    Ok(plan.run_into(l.operand(), r.operand(), recycled)?.to_arrow())
}

/// The buffers of an Arrow array of type `T`, held by nothing else once the
/// array is dropped if `array` was its only reference.
fn recycled_parts<T: ArrowPrimitiveType>(array: ArrayRef) -> RecycledArray
where
    T::Native: DecimalNative,
{
    let Some(typed) = array.as_primitive_opt::<T>().cloned() else {
        return RecycledArray::default();
    };
    drop(array);
    let (_, values, nulls) = typed.into_parts();
    RecycledArray::from_parts(T::Native::into_values(values), nulls)
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
    let (l, r) = (DatumOperand::of(lhs)?, DatumOperand::of(rhs)?);
    let (result, width) = decimal_type(result)?;
    let types = (l.operand().dtype(), r.operand().dtype());
    let plan = BinaryPlan::stored(op, types, Some(result), ResultStorage::Exact(width), options)?;
    Ok(plan.run(l.operand(), r.operand())?.to_arrow())
}

/// `lhs + rhs` under Arrow's rules, as `arrow_arith::numeric::add` on
/// decimals; [`crate::add`] is the one under a chosen profile (FixedPoint by
/// default) on [`DecimalArray`](crate::DecimalArray)s.
///
/// See the [module](super) docs for the two differences from arrow-arith.
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
/// default) on [`DecimalArray`](crate::DecimalArray)s.
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
/// default: the larger scale, rounded) on [`DecimalArray`](crate::DecimalArray)s.
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
/// rounded) on [`DecimalArray`](crate::DecimalArray)s.
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
/// default) on [`DecimalArray`](crate::DecimalArray)s.
///
/// Result type `decimal(min(p1 - s1, p2 - s2) + max(s1, s2), max(s1, s2))`,
/// the exact remainder with the sign of `lhs`. Where arrow-arith fails to
/// align the operands at the larger scale (an aligned value beyond the
/// width), this returns the remainder.
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

/// One side of an Arrow call, read in place: a column, or one value for
/// every row (the owned form of [`Operand`]), with its Arrow width.
pub(crate) struct DatumOperand {
    decimals: OwnedOperand,
    width: StorageWidth,
}

/// The decimals of one side of an Arrow call.
enum OwnedOperand {
    Array(DecimalArray),
    Scalar(DecimalScalar),
}

impl DatumOperand {
    /// The side for `datum` (a scalar datum is a one-row array standing for
    /// every row, null when it holds a null, as arrow reads it).
    pub(crate) fn of(datum: &dyn Datum) -> Result<Self, ArrowError> {
        Self::native(datum).map_err(|e| match e {
            DecimalError::NotScalar { is_scalar: true, rows: 0 } => {
                ArrowError::InvalidArgumentError("a scalar operand has no rows".to_string())
            }
            e => e.into(),
        })
    }

    /// [`of`](Self::of) with the crate's own error.
    pub(crate) fn native(datum: &dyn Datum) -> Result<Self, DecimalError> {
        let (array, is_scalar) = datum.get();
        let decimals = DecimalArray::from_arrow(array)?;
        let width = decimals.width();
        if !is_scalar {
            return Ok(Self { decimals: OwnedOperand::Array(decimals), width });
        }
        let scalar = if decimals.null_count() > 0 {
            Some(DecimalScalar::null(decimals.dtype()))
        } else {
            decimals.scalar(0)
        };
        let scalar = scalar.ok_or(DecimalError::NotScalar { is_scalar: true, rows: 0 })?;
        Ok(Self { decimals: OwnedOperand::Scalar(scalar), width })
    }

    pub(crate) fn operand(&self) -> Operand<'_> {
        match &self.decimals {
            OwnedOperand::Array(a) => Operand::Array(a),
            OwnedOperand::Scalar(s) => Operand::Scalar(s),
        }
    }
}

/// The Arrow decimal width both types share, if they are decimals of one.
fn shared_width(lhs: &DataType, rhs: &DataType) -> Option<StorageWidth> {
    decimal_width(lhs).filter(|&width| decimal_width(rhs) == Some(width))
}

fn arithmetic(op: BinaryOp, lhs: &dyn Datum, rhs: &dyn Datum) -> Result<ArrayRef, ArrowError> {
    let (l, r) = (lhs.get().0.data_type(), rhs.get().0.data_type());
    let width = shared_width(l, r).ok_or_else(|| {
        ArrowError::InvalidArgumentError(format!(
            "Invalid arithmetic operation: {l} {op} {r}: both sides must be decimals of one Arrow \
             width (Decimal32, Decimal64, Decimal128 or Decimal256)"
        ))
    })?;
    let (l, r) = (DatumOperand::of(lhs)?, DatumOperand::of(rhs)?);
    let options = ArithmeticOptions::arrow(width);
    match crate::compute::binary::binary(op, l.operand(), r.operand(), &options) {
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
