//! From dynamic operands to one typed kernel call.
//!
//! The result type comes from the profile; the operator's shape (shifts,
//! rounding, result precision) from the types. The operands go to the kernels
//! as they are stored, whatever their widths, and the result comes back in
//! the width the profile wants: the kernels read each width into their work
//! type block by block and write the result's width directly, so no operand
//! is copied to a common width first and no result narrowed after. Validity
//! is combined with one bitmap operation. A result the caller is done with
//! can be handed back ([`Recycled`]): its values' and validity's memory then
//! holds the next result.

use arrow_buffer::{BooleanBuffer, MutableBuffer, NullBuffer, ScalarBuffer, i256};
use decimal_kernels_native::{
    self as native, AddSpec, DivSpec, KernelError, MulSpec, Policies, RemSpec, Rows,
};

use crate::array::{DecimalArray, DecimalNative, DecimalValues, with_native};
use crate::error::DecimalError;
use crate::options::{ArithmeticOptions, BinaryOp};
use crate::profile::{result_type, result_width};
use crate::scalar::DecimalScalar;
use crate::text;
use crate::types::{DecimalType, StorageWidth};

/// One side of an operation: a column or a single value broadcast to every row.
///
/// The operators take `impl Into<Operand>`, so `&DecimalArray` and
/// `&DecimalScalar` can be passed as they are.
///
/// ```
/// use decimal_kernels::{DecimalArray, DecimalScalar, DecimalType, Operand};
/// let t = DecimalType::try_new(10, 2)?;
/// let column = DecimalArray::from_strs(t, &[Some("1.50")])?;
/// let one = DecimalScalar::parse(t, "1")?;
/// let sides: [Operand<'_>; 2] = [(&column).into(), (&one).into()];
/// assert!(matches!(sides[1], Operand::Scalar(s) if s.to_string() == "1.00"));
/// assert!(sides.iter().all(|side| side.dtype() == t));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Operand<'a> {
    /// A column.
    Array(&'a DecimalArray),
    /// One value for every row.
    Scalar(&'a DecimalScalar),
}

impl<'a> From<&'a DecimalArray> for Operand<'a> {
    fn from(array: &'a DecimalArray) -> Self {
        Self::Array(array)
    }
}

impl<'a> From<&'a DecimalScalar> for Operand<'a> {
    fn from(scalar: &'a DecimalScalar) -> Self {
        Self::Scalar(scalar)
    }
}

impl<'a> Operand<'a> {
    /// The operand's type.
    #[must_use]
    pub fn dtype(&self) -> DecimalType {
        match self {
            Self::Array(a) => a.dtype(),
            Self::Scalar(s) => s.dtype(),
        }
    }

    /// The operand's stored value at `row`, `None` when null.
    pub(crate) fn value(self, row: usize) -> Option<i256> {
        match self {
            Self::Array(a) => a.is_valid(row).then(|| a.values().get(row)).flatten(),
            Self::Scalar(s) => s.value(),
        }
    }

    /// Its number of rows: an array's length, one for a scalar.
    pub(crate) fn rows(self) -> usize {
        match self {
            Self::Array(a) => a.len(),
            Self::Scalar(_) => 1,
        }
    }

    /// The canonical text of the operand's value at `row` (`NULL` for a null).
    pub(crate) fn text(self, row: usize) -> String {
        let scale = self.dtype().scale();
        self.value(row)
            .map_or_else(|| "NULL".into(), |v| text::format(&text::i256_to_bigint(v), scale))
    }

    /// The operand as the kernels read it: its stored values as they are,
    /// and for a checked array the promise that they fit its precision.
    pub(crate) fn input(self) -> native::Operand<'a> {
        match self {
            Self::Array(a) => {
                let input = native::Operand::array(a.values().column());
                if a.is_checked() {
                    // A checked array was built by `try_new` (which
                    // checks every valid value against the precision) or by
                    // this crate from values known to fit (kernel results,
                    // parsed text, slices and width changes of checked
                    // arrays): every valid value is within its precision.
                    input.assume_precision(a.dtype().precision())
                } else {
                    input
                }
            }
            Self::Scalar(s) => native::Operand::scalar(s.value().unwrap_or(i256::ZERO)),
        }
    }
}

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
    let result = result_type(op, lhs.dtype(), rhs.dtype(), options)?;
    binary_to(op, lhs, rhs, result, options)
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
    planned(op, (lhs.into(), rhs.into()), result, options, Recycled::default())
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
    let result = result_type(op, lhs.dtype(), rhs.dtype(), options)?;
    planned(op, (lhs, rhs), result, options, Recycled::from(recycled))
}

/// `lhs op rhs` at the result type `result`, into `recycled` where it
/// serves: [`binary_to`] and [`binary_recycling`].
fn planned(
    op: BinaryOp,
    (lhs, rhs): (Operand<'_>, Operand<'_>),
    result: DecimalType,
    options: &ArithmeticOptions,
    recycled: Recycled,
) -> Result<DecimalArray, DecimalError> {
    remainder_scale(op, (lhs, rhs), result)?;
    let out_width = result_width(result, options).ok_or_else(|| {
        unsupported(op, (lhs, rhs), format!("{result} does not fit the profile's storage"))
    })?;
    compute_recycling(op, lhs, rhs, result, out_width, options, recycled)
}

/// Refuses a remainder at a scale below the operands' aligned scale: it is
/// exact at any scale from that one up, and below it would need rounding,
/// which a rescale of the exact result gives (no engine rounds a remainder).
pub(crate) fn remainder_scale(
    op: BinaryOp,
    operands: (Operand<'_>, Operand<'_>),
    result: DecimalType,
) -> Result<(), DecimalError> {
    let aligned = operands.0.dtype().scale().max(operands.1.dtype().scale());
    if op == BinaryOp::Rem && result.scale() < aligned {
        let scale = result.scale();
        let reason =
            format!("a remainder is exact at scale {aligned}; rescale it to scale {scale}");
        return Err(unsupported(op, operands, reason));
    }
    Ok(())
}

/// `lhs op rhs` at type `result`, results stored as `out_width` (which holds
/// `result`).
pub(crate) fn compute(
    op: BinaryOp,
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    result: DecimalType,
    out_width: StorageWidth,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    compute_recycling(op, lhs, rhs, result, out_width, options, Recycled::default())
}

/// [`compute`], the result written into `recycled`'s memory where it serves.
pub(crate) fn compute_recycling(
    op: BinaryOp,
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    result: DecimalType,
    out_width: StorageWidth,
    options: &ArithmeticOptions,
    recycled: Recycled,
) -> Result<DecimalArray, DecimalError> {
    let call = Call { op, operands: (lhs, rhs), result, options };
    let len = rows(lhs, rhs)?;
    over_rows(&[lhs, rhs], len, result, out_width, options, recycled, |frame, values| {
        Ok(with_native!(out_width, T => {
            let output = call.run::<T>(lhs.input(), rhs.input(), frame.recycled(values.vec()))?;
            (T::into_values(output.values), output.nulls)
        }))
    })
}

/// The memory of a result handed back for the next: its values and its
/// validity bitmap, each reused when nothing else shares it.
#[derive(Debug, Default)]
pub(crate) struct Recycled {
    /// The values, whatever their width.
    pub(crate) values: RecycledValues,
    /// The validity.
    nulls: Option<NullBuffer>,
}

impl From<DecimalArray> for Recycled {
    fn from(array: DecimalArray) -> Self {
        let (values, nulls) = array.into_parts();
        Self { values: RecycledValues(Some(values)), nulls }
    }
}

impl Recycled {
    /// From the parts of an array (Arrow's), the values as stored.
    #[cfg(feature = "arrow")]
    pub(crate) fn from_parts(values: DecimalValues, nulls: Option<NullBuffer>) -> Self {
        Self { values: RecycledValues(Some(values)), nulls }
    }

    /// The validity bitmap's memory, when nothing else shares it.
    fn bitmap(&mut self) -> Option<MutableBuffer> {
        let nulls = self.nulls.take()?;
        nulls.into_inner().into_inner().into_mutable().ok()
    }
}

/// A recycled values buffer of any width.
#[derive(Debug, Default)]
pub(crate) struct RecycledValues(Option<DecimalValues>);

impl RecycledValues {
    /// The buffer as a vector of `T` when it is stored as `T` and nothing
    /// else shares it; an empty vector (a new allocation) otherwise.
    pub(crate) fn vec<T: DecimalNative>(self) -> Vec<T> {
        self.0.and_then(DecimalValues::into_vec::<T>).unwrap_or_default()
    }
}

/// Runs `kernel` over `len` rows of `operands` for a result of type
/// `result` stored as `out_width`: the rows' validity is the operands'
/// combined, and a null scalar makes every row null without running it.
/// `kernel` gets the recycled values to write into.
pub(crate) fn over_rows(
    operands: &[Operand<'_>],
    len: usize,
    result: DecimalType,
    out_width: StorageWidth,
    options: &ArithmeticOptions,
    mut recycled: Recycled,
    kernel: impl FnOnce(
        &Rows<'_>,
        RecycledValues,
    ) -> Result<(DecimalValues, Option<NullBuffer>), DecimalError>,
) -> Result<DecimalArray, DecimalError> {
    if operands.iter().any(|o| matches!(o, Operand::Scalar(s) if s.is_null())) {
        let values = with_native!(out_width, T => {
            let mut values = recycled.values.vec::<T>();
            values.clear();
            values.resize(len, T::default());
            T::into_values(ScalarBuffer::from(values))
        });
        return Ok(DecimalArray::from_parts(result, values, Some(NullBuffer::new_null(len))));
    }
    let nulls = operands.iter().filter_map(|&o| array_nulls(o)).fold(None, |acc, next| {
        Some(match acc {
            None => next.clone(),
            Some(acc) => intersection(&acc, next, recycled.bitmap()),
        })
    });
    let frame = Rows::new(len).with_nulls(nulls.as_ref()).with_policies(policies(options));
    let (values, nulls) = kernel(&frame, recycled.values)?;
    Ok(DecimalArray::from_parts(result, values, nulls))
}

/// The rows valid in both `a` and `b` (of one length), written into
/// `bitmap` when there is one (grown if too small), into a new one
/// otherwise.
fn intersection(a: &NullBuffer, b: &NullBuffer, bitmap: Option<MutableBuffer>) -> NullBuffer {
    let Some(mut bits) = bitmap else {
        return NullBuffer::new(a.inner() & b.inner());
    };
    bits.clear();
    let (a_chunks, b_chunks) = (a.inner().bit_chunks(), b.inner().bit_chunks());
    for (x, y) in a_chunks.iter().zip(b_chunks.iter()) {
        bits.push(x & y);
    }
    if a_chunks.remainder_len() > 0 {
        bits.push(a_chunks.remainder_bits() & b_chunks.remainder_bits());
    }
    NullBuffer::new(BooleanBuffer::new(bits.into(), 0, a.len()))
}

/// The number of rows of `lhs op rhs`: the arrays' common length, or one for
/// two scalars.
pub(crate) fn rows(lhs: Operand<'_>, rhs: Operand<'_>) -> Result<usize, DecimalError> {
    match (lhs, rhs) {
        (Operand::Array(a), Operand::Array(b)) if a.len() != b.len() => {
            Err(DecimalError::LengthMismatch { expected: a.len(), actual: b.len() })
        }
        (Operand::Scalar(_), other) => Ok(other.rows()),
        (array, _) => Ok(array.rows()),
    }
}

fn array_nulls(operand: Operand<'_>) -> Option<&NullBuffer> {
    match operand {
        Operand::Array(a) => a.nulls(),
        Operand::Scalar(_) => None,
    }
}

pub(crate) fn policies(options: &ArithmeticOptions) -> Policies {
    Policies { on_overflow: options.on_overflow(), on_divide_by_zero: options.on_divide_by_zero() }
}

/// The profile or the kernels have no result for `lhs op rhs`.
fn unsupported(
    op: BinaryOp,
    (lhs, rhs): (Operand<'_>, Operand<'_>),
    reason: String,
) -> DecimalError {
    DecimalError::UnsupportedTypes { op, lhs: lhs.dtype(), rhs: rhs.dtype(), reason }
}

/// One kernel call: the operator, its operands and the result type.
struct Call<'a> {
    op: BinaryOp,
    operands: (Operand<'a>, Operand<'a>),
    result: DecimalType,
    options: &'a ArithmeticOptions,
}

/// Rounded sums the kernels always serve: an aligned sum of at most 152
/// digits is exact in their widest (512-bit) type, and so is any sum whose
/// rounded result cannot hide a saturated one (`p + k <= 153`, as
/// `10^153 < 2^510`).
const MOST_EXACT_SUM_DIGITS: i32 = 152;
const MOST_ROUNDED_SUM_DIGITS: i32 = 153;

impl Call<'_> {
    /// Runs the kernel with results stored as `T`.
    fn run<T: DecimalNative>(
        &self,
        lhs: native::Operand<'_>,
        rhs: native::Operand<'_>,
        frame: native::Recycled<'_, T>,
    ) -> Result<native::Output<T>, DecimalError> {
        let (t1, t2) = (self.operands.0.dtype(), self.operands.1.dtype());
        let scale = |t: DecimalType| i32::from(t.scale());
        let (s1, s2, rs) = (scale(t1), scale(t2), scale(self.result));
        let precision = self.result.precision();
        let rounding = self.options.rounding();
        let output = match self.op {
            BinaryOp::Add | BinaryOp::Sub => {
                // Aligned exactly at the larger scale, then rescaled once.
                let aligned = s1.max(s2);
                let (k1, k2) = (aligned - s1, aligned - s2);
                let digits = (i32::from(t1.precision()) + k1).max(i32::from(t2.precision()) + k2);
                let rounded = i32::from(precision) + aligned - rs;
                if rs < aligned
                    && digits > MOST_EXACT_SUM_DIGITS
                    && rounded > MOST_ROUNDED_SUM_DIGITS
                {
                    return Err(self.unsupported(format!(
                        "the exact sum would need {digits} digits before rounding to scale {rs}"
                    )));
                }
                // Both shifts are at most 152: scales lie within -76..=76.
                let shift = |k: i32| k.unsigned_abs();
                let spec =
                    AddSpec::new(shift(k1), shift(k2), precision).rescaled(aligned - rs, rounding);
                if self.op == BinaryOp::Add {
                    native::add(lhs, rhs, &spec, frame)
                } else {
                    native::sub(lhs, rhs, &spec, frame)
                }
            }
            BinaryOp::Mul => {
                let spec = MulSpec::new(s1 + s2 - rs, rounding, precision);
                native::mul(lhs, rhs, &spec, frame)
            }
            BinaryOp::Div => {
                let spec = DivSpec::new(rs - s1 + s2, rounding, precision);
                native::div(lhs, rhs, &spec, frame)
            }
            BinaryOp::Rem => {
                // `rs` is at least the aligned scale (`remainder_scale`), and
                // both shifts are at most 152: scales lie within -76..=76.
                let shift = |s: i32| (rs - s).unsigned_abs();
                native::rem(lhs, rhs, &RemSpec::new(shift(s1), shift(s2), precision), frame)
            }
        };
        output.map_err(|e| self.error(e))
    }

    fn unsupported(&self, reason: String) -> DecimalError {
        unsupported(self.op, self.operands, reason)
    }

    fn error(&self, error: KernelError) -> DecimalError {
        match error {
            KernelError::Overflow { row } => DecimalError::Overflow {
                row,
                result_type: self.result,
                op: self.op,
                lhs: self.operands.0.text(row),
                rhs: self.operands.1.text(row),
            },
            KernelError::DivideByZero { row } => {
                DecimalError::DivideByZero { row, lhs: self.operands.0.text(row) }
            }
            KernelError::LengthMismatch { expected, actual } => {
                DecimalError::LengthMismatch { expected, actual }
            }
            // The profiles never ask for these (a result width always holds
            // the result precision, sums shift one side only, rounded sums
            // stay within the exact range); reported as the types the
            // kernels cannot serve if they ever did.
            other => self.unsupported(format!("the kernels reject the call: {other:?}")),
        }
    }
}
