//! The operators of two operands: [`binary`] at the profile's result type,
//! [`binary_to`] at one the caller planned, [`binary_recycling`] into a
//! result handed back. Each is one [`BinaryPlan`] made and run.

use crate::compute::operand::Operand;
use crate::compute::prepared::BinaryPlan;
use crate::types::{ArithmeticOptions, BinaryOp, DecimalError, DecimalType};
use crate::values::DecimalArray;

/// `lhs op rhs` row by row, under `options`.
///
/// ```
/// use decimal_kernels::{binary, ArithmeticOptions, BinaryOp, DecimalArray, DecimalScalar, DecimalType};
/// let t = DecimalType::try_new(10, 2)?;
/// let a = DecimalArray::from_strs(t, &[Some("10.00"), None])?;
/// let b = DecimalScalar::parse(t, "0.10")?;
/// let c = binary(BinaryOp::Div, &a, &b, &ArithmeticOptions::default())?;
/// assert_eq!(c.to_strs(), vec![Some("100.00".to_string()), None]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// The result type's errors; [`DecimalError::LengthMismatch`] for arrays of
/// different lengths; [`DecimalError::Overflow`] and
/// [`DecimalError::DivideByZero`] naming the first failing valid row under
/// the `Error` policies.
pub fn binary<'a>(
    op: BinaryOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let (lhs, rhs) = (lhs.into(), rhs.into());
    BinaryPlan::new(op, lhs.dtype(), rhs.dtype(), options)?.run(lhs, rhs)
}

/// `lhs op rhs` row by row at a result type the caller chose: each row is
/// the exact result rounded once to `result`'s scale with the options'
/// rounding mode, and overflows beyond `result`'s precision.
///
/// For engines that plan their own types (any rule this crate does not
/// ship): the options' profile only decides how results are stored (see
/// [`Semantics`](crate::Semantics)).
///
/// ```
/// use decimal_kernels::{binary_to, ArithmeticOptions, BinaryOp, DecimalArray, DecimalType};
/// let t = DecimalType::try_new(38, 10)?;
/// let a = DecimalArray::from_strs(t, &[Some("1.0000000005"), Some("-2.0000000015")])?;
/// // Spark's planner types decimal(38,10) + decimal(38,10) as decimal(38,9).
/// let spark_type = DecimalType::try_new(38, 9)?;
/// let sum = binary_to(BinaryOp::Add, &a, &a, spark_type, &ArithmeticOptions::spark())?;
/// assert_eq!(sum.to_strs(), [Some("2.000000001".into()), Some("-4.000000003".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`binary`]; [`DecimalError::UnsupportedTypes`] when the profile's
/// storage cannot hold `result` (an Arrow width narrower than its
/// precision), for a sum rounded by more than 77 digits whose exact value
/// would need more than 152 (operand scales more than 76 digits apart), or
/// for a remainder at a scale below `max(s1, s2)` (it is exact there and
/// above; rescale its result instead).
pub fn binary_to<'a>(
    op: BinaryOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    result: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let (lhs, rhs) = (lhs.into(), rhs.into());
    BinaryPlan::with_result(op, lhs.dtype(), rhs.dtype(), result, options)?.run(lhs, rhs)
}

/// `lhs op rhs` as [`binary`], written into the memory of `recycled`, a
/// result the caller is done with: for engines that run one expression over
/// batch after batch, so that a 1M-row call touches no newly allocated page
/// (where the allocator hands out fresh pages, first touching them costs more
/// than the arithmetic at that size).
///
/// The results are [`binary`]'s. What is reused:
///
/// - `recycled`'s values buffer holds the result values when this crate
///   allocated it (any result of its operators) or it came from a `Vec` of
///   the result's native type, when nothing else shares it (no clone of the
///   array, of its buffer or of an Arrow array over it is alive) and it is
///   stored at the result's width; it grows if it has fewer than the call's
///   rows. Otherwise a new buffer is allocated, as by [`binary`]: a shared,
///   sliced or other-width array is never an error.
/// - The validity: without nulls in the operands the result has none, and
///   with nulls on one side only the result shares that side's bitmap; with
///   nulls on both sides their intersection is written into `recycled`'s
///   bitmap when nothing else shares it, and into a new one otherwise.
///
/// So once `recycled` holds a previous result of the expression, a call
/// allocates nothing that grows with its rows: only the fixed-size header
/// (an `Arc` of a few dozen bytes) arrow-buffer gives each buffer it returns,
/// the values' and, with nulls on both sides, the validity's. Still
/// allocated in full: under a `Null` policy, the bitmap of the rows it nulls
/// (only when a row fails); a null scalar operand's all-null validity; the
/// error of a call that fails (which drops `recycled`).
///
/// ```
/// use decimal_kernels::{
///     binary, binary_recycling, ArithmeticOptions, BinaryOp, DecimalArray, DecimalType, DecimalValues,
/// };
/// let t = DecimalType::try_new(15, 2)?;
/// let opts = ArithmeticOptions::default();
/// let batches = [["1.25", "2.50"], ["10.00", "-0.01"]];
/// let mut previous: Option<DecimalArray> = None;
/// for batch in batches {
///     let prices = DecimalArray::from_strs(t, &batch.map(Some))?;
///     let sum = match previous.take() {
///         Some(done) => binary_recycling(BinaryOp::Add, &prices, &prices, &opts, done)?,
///         None => binary(BinaryOp::Add, &prices, &prices, &opts)?,
///     };
///     assert_eq!(sum, binary(BinaryOp::Add, &prices, &prices, &opts)?);
///     previous = Some(sum); // handed back for the next batch once consumed
/// }
/// // The second batch's sum lives in the first's buffer.
/// let DecimalValues::I64(values) = previous.expect("two batches").values().clone() else {
///     unreachable!("decimal(16,2) is stored as i64")
/// };
/// assert_eq!(values.as_ref(), [20_00, -2]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`binary`].
pub fn binary_recycling<'a>(
    op: BinaryOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
    recycled: DecimalArray,
) -> Result<DecimalArray, DecimalError> {
    let (lhs, rhs) = (lhs.into(), rhs.into());
    BinaryPlan::new(op, lhs.dtype(), rhs.dtype(), options)?.run_recycling(lhs, rhs, recycled)
}
