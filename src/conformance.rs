//! Holding a kernel to the reference, row by row.
//!
//! [`reference()`] computes what any implementation of the [semantics](crate::semantics) must
//! return for a call, row by row with exact big integers; [`compare`] sets an actual
//! result beside it and reports every row that differs with its inputs, the
//! expected and the actual outcome. An engine can run its own kernels through
//! [`check_kernel`] on its own data.
//!
//! ```
//! use decimal_kernels::{conformance, mul, ArithmeticOptions, BinaryOp, DecimalArray, DecimalType};
//! let t = DecimalType::try_new(10, 2)?;
//! let a = DecimalArray::from_strs(t, &[Some("1.50"), None, Some("-2.25")])?;
//! let opts = ArithmeticOptions::default();
//! conformance::check_kernel(BinaryOp::Mul, &a, &a, &opts, |_, l, r, o| mul(l, r, o))
//!     .map_err(|report| report.to_string())
//!     .expect("the crate's own kernels conform");
//! # Ok::<(), decimal_kernels::DecimalError>(())
//! ```

use core::fmt;

use arrow_buffer::{BooleanBuffer, NullBuffer, ScalarBuffer, i256};

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use crate::rules::profiles::rules;
use crate::cast::integer::{decimal_rounding, integer_rounding};
use crate::cast::{CastFloat, CastInteger};
use crate::compute::operand::Operand;
use crate::rules::numeric_cast::{
    F32, F64, decimal_to_float, float_fraction, fraction_at_scale, shortest_text_fraction,
};
use crate::rules::reference::rescaled;
use crate::rules::reference::{Exact, exact, exact_order, exact_unary, round};
use crate::rules::result_type::check_exact;
use crate::rules::shape::row_count;
use crate::rules::storage::{ResultStorage, refused_width, result_width};
use crate::types::AggregateOp;
use crate::types::DecimalError;
use crate::types::UnaryOp;
use crate::types::{ArithmeticOptions, BinaryOp, CompareOp, OverflowPolicy};
use crate::types::{DecimalType, StorageWidth};
use crate::values::text;
use crate::values::{DecimalArray, DecimalNative, NullableBuffer, with_native};
use arrow_buffer::ArrowNativeType;
use num_traits::ToPrimitive;

/// Rows listed in a report at most (all are counted).
const LISTED: usize = 20;

/// The result the [semantics](crate::semantics) define for `lhs op rhs`, computed row by
/// row by the exact reference (stored values beyond their precision included).
///
/// # Errors
/// Exactly the errors a conforming kernel returns: type and length errors, and
/// the first failing valid row under an `Error` policy.
pub fn reference<'a>(
    op: BinaryOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let (lhs, rhs) = (lhs.into(), rhs.into());
    let result = op.result_type(lhs.dtype(), rhs.dtype(), options)?;
    reference_to(op, lhs, rhs, result, options)
}

/// The result the [semantics](crate::semantics) define for `lhs op rhs` at a result type
/// the caller chose (what [`binary_to`](crate::binary_to) must return).
///
/// # Errors
/// As [`reference()`]; the result type is not checked against the
/// profile's storage.
pub fn reference_to<'a>(
    op: BinaryOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    result: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let (lhs, rhs) = (lhs.into(), rhs.into());
    check_exact(op, lhs.dtype(), rhs.dtype(), result)?;
    let len = row_count(&[lhs.length(), rhs.length()])?;
    let outcome = |row| {
        let (a, b) = (lhs.value(row)?, rhs.value(row)?);
        Some(exact(
            op,
            (&text::i256_to_bigint(a), lhs.dtype()),
            (&text::i256_to_bigint(b), rhs.dtype()),
            result,
            options.rounding(),
        ))
    };
    let error = |row, outcome: &Exact| match outcome {
        Exact::DivideByZero => DecimalError::DivideByZero { row, lhs: lhs.text(row) },
        _ => DecimalError::Overflow {
            row,
            result_type: result,
            op,
            lhs: lhs.text(row),
            rhs: rhs.text(row),
        },
    };
    reference_rows(len, result, options, outcome, error)
}

/// The result the [semantics](crate::semantics) define for `op operand` (what
/// [`unary`](crate::unary) must return), row by row.
///
/// ```
/// use decimal_kernels::{conformance, rescale, ArithmeticOptions, DecimalArray, DecimalType, UnaryOp};
/// let a = DecimalArray::from_strs(DecimalType::try_new(6, 3)?, &[Some("1.005"), None])?;
/// let to = DecimalType::try_new(5, 2)?;
/// let opts = ArithmeticOptions::default();
/// assert_eq!(conformance::reference_unary(UnaryOp::Rescale { to }, &a, &opts)?, rescale(&a, to, &opts)?);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`unary`](crate::unary): the profile's storage refusing the result
/// type, and the first failing valid row under the `Error` overflow policy.
pub fn reference_unary<'a>(
    op: UnaryOp,
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let operand = operand.into();
    let result = op.result_type_under(operand.dtype(), options)?;
    profile_width(result, options)?;
    let len = row_count(&[operand.length()])?;
    let outcome = |row| {
        let a = text::i256_to_bigint(operand.value(row)?);
        Some(exact_unary(op, &a, (operand.dtype(), result), options.rounding()))
    };
    let error = |row, _: &Exact| DecimalError::UnaryOverflow {
        row,
        result_type: result,
        op,
        value: operand.text(row),
    };
    reference_rows(len, result, options, outcome, error)
}

/// The result the [semantics](crate::semantics) define for `lhs op rhs`, a
/// comparison (what [`compare`](crate::compare()) must return), row by row
/// with exact big integers: a null row where either side is null, and a
/// `false` value there.
///
/// ```
/// use decimal_kernels::{conformance, lt, CompareOp, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.00"), None])?;
/// let b = DecimalArray::from_strs(DecimalType::try_new(9, -2)?, &[Some("100"), Some("0")])?;
/// let expected = conformance::reference_compare(CompareOp::Lt, &a, &b)?;
/// assert_eq!((expected.get(0), expected.get(1)), (Some(true), None));
/// assert_eq!(expected.get(0), lt(&a, &b)?.get(0));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::LengthMismatch`] for arrays of different lengths.
pub fn reference_compare<'a>(
    op: CompareOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
) -> Result<NullableBuffer<BooleanBuffer>, DecimalError> {
    let (lhs, rhs) = (lhs.into(), rhs.into());
    let len = row_count(&[lhs.length(), rhs.length()])?;
    let (s1, s2) = (lhs.dtype().scale(), rhs.dtype().scale());
    let answers: Vec<Option<bool>> = (0..len)
        .map(|row| {
            let (a, b) = (lhs.value(row)?, rhs.value(row)?);
            let (a, b) = (text::i256_to_bigint(a), text::i256_to_bigint(b));
            Some(op.holds(exact_order(&a, s1, &b, s2)))
        })
        .collect();
    let values = answers.iter().map(|answer| answer.unwrap_or(false)).collect();
    let nulls = answers
        .iter()
        .any(Option::is_none)
        .then(|| NullBuffer::from(answers.iter().map(Option::is_some).collect::<Vec<_>>()));
    Ok(NullableBuffer::new(values, nulls))
}

/// The result the [semantics](crate::semantics) define for the aggregate `op` of
/// `values` by group (what [`sum_groups`](crate::aggregate::sum_groups),
/// [`avg_groups`](crate::aggregate::avg_groups),
/// [`min_groups`](crate::aggregate::min_groups) and
/// [`max_groups`](crate::aggregate::max_groups) must return; a whole-column
/// aggregate is one group), from exact sums and comparisons of the stored
/// values.
///
/// ```
/// use decimal_kernels::aggregate::{avg_groups, AggregateOp};
/// use decimal_kernels::{conformance, ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.00"), Some("0.01"), None])?;
/// let opts = ArithmeticOptions::default();
/// let expected = conformance::reference_aggregate(AggregateOp::Avg, &a, &[0, 0, 1], 2, &opts)?;
/// assert_eq!(expected, avg_groups(&a, &[0, 0, 1], 2, &opts)?);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As the aggregates: the profile refusing the input, a length mismatch,
/// the first row whose group is out of range, a number of groups memory
/// cannot hold, and the first failing group under the `Error` overflow
/// policy.
pub fn reference_aggregate(
    op: AggregateOp,
    values: &DecimalArray,
    group_indices: &[usize],
    total_groups: usize,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let input = values.dtype();
    let result = op.result_type(input, options)?;
    profile_width(result, options)?;
    if group_indices.len() != values.len() {
        return Err(DecimalError::LengthMismatch {
            expected: values.len(),
            actual: group_indices.len(),
        });
    }
    if let Some((row, &group)) = group_indices.iter().enumerate().find(|&(_, &g)| g >= total_groups)
    {
        return Err(DecimalError::GroupOutOfRange { row, group, total_groups });
    }
    let mut sums = per_group(BigInt::zero(), total_groups)?;
    let mut counts = per_group(0u64, total_groups)?;
    // The least and greatest valid value of each group.
    let mut extremes: Vec<Option<(BigInt, BigInt)>> = per_group(None, total_groups)?;
    for (row, &group) in group_indices.iter().enumerate() {
        if let Some(v) = Operand::Array(values).value(row) {
            let v = text::i256_to_bigint(v);
            extremes[group] = Some(match extremes[group].take() {
                None => (v.clone(), v.clone()),
                Some((least, greatest)) => (least.min(v.clone()), greatest.max(v.clone())),
            });
            sums[group] += v;
            counts[group] += 1;
        }
    }
    let shift = i32::from(result.scale()) - i32::from(input.scale());
    let limit = text::precision_limit(result.precision());
    let value = |group: usize| -> Option<BigInt> {
        let sum = &sums[group];
        (counts[group] > 0).then(|| match op {
            AggregateOp::Sum => sum.clone(),
            AggregateOp::Min => extremes[group].clone().map(|(least, _)| least).unwrap_or_default(),
            AggregateOp::Max => {
                extremes[group].clone().map(|(_, greatest)| greatest).unwrap_or_default()
            }
            _ => {
                let scaled = sum * text::pow10(shift.unsigned_abs());
                round(&scaled, &BigInt::from(counts[group]), options.rounding())
            }
        })
    };
    let outcome = |group| {
        value(group).map(|v| if v.abs() > limit { Exact::Overflow } else { Exact::Value(v) })
    };
    let error = |group, _: &Exact| DecimalError::AggregateOverflow {
        group,
        result_type: result,
        op,
        value: value(group).map_or_else(String::new, |v| text::format(&v, result.scale())),
    };
    reference_rows(total_groups, result, options, outcome, error)
}

/// `groups` copies of `fill`, or [`DecimalError::TooManyGroups`] when
/// memory for them cannot be had: a count from input never panics.
fn per_group<T: Clone>(fill: T, groups: usize) -> Result<Vec<T>, DecimalError> {
    let mut v = Vec::new();
    v.try_reserve_exact(groups).map_err(|_| DecimalError::TooManyGroups { groups })?;
    v.resize(groups, fill);
    Ok(v)
}

/// The result the [semantics](crate::semantics) define for reading the
/// string rows `texts` as decimals of type `to` (what
/// [`cast::parse`](crate::cast::parse) must return): each text's exact value
/// as a big integer, rounded once to `to`'s scale, then checked against its
/// precision.
///
/// ```
/// use decimal_kernels::{cast, conformance, ArithmeticOptions, DecimalType};
/// let texts = [Some("1.005"), Some("-2.5e-2"), None, Some("1e400"), Some("x")];
/// let to = DecimalType::try_new(5, 2)?;
/// let opts = ArithmeticOptions::presto().with_on_overflow(decimal_kernels::OverflowPolicy::Null);
/// let expected = conformance::reference_parse(texts, to, &opts)?;
/// assert_eq!(expected, cast::parse(texts, to, &opts)?);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// As [`cast::parse`](crate::cast::parse): the profile's storage refusing
/// `to`, and the first failing valid row under the `Error` overflow policy.
pub fn reference_parse<'t>(
    texts: impl IntoIterator<Item = Option<&'t str>>,
    to: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let texts: Vec<Option<&str>> = texts.into_iter().collect();
    profile_width(to, options)?;
    let mode = decimal_rounding(options);
    let outcome = |row: usize| {
        let scanned = text::scan(texts[row]?).ok().filter(text::Scanned::has_digits);
        Some(scanned.map_or(Exact::Overflow, |s| exact_text(&s, to, mode)))
    };
    let error = |row: usize, _: &Exact| {
        let text = texts[row].unwrap_or_default();
        let number = text::scan(text).is_ok_and(|s| s.has_digits());
        let reason = if number { crate::cast::BEYOND_PRECISION } else { crate::cast::NOT_A_NUMBER };
        DecimalError::Parse { row, text: text.to_owned(), dtype: to, reason }
    };
    reference_rows(texts.len(), to, options, outcome, error)
}

/// The exact value of `scanned` at `to`'s scale, rounded once with `mode`,
/// or an overflow of `to`'s precision.
fn exact_text(scanned: &text::Scanned<'_>, to: DecimalType, mode: crate::RoundingMode) -> Exact {
    let digits = text::digits_value(scanned.integer.iter().chain(scanned.fraction));
    let digits = if scanned.negative { -digits } else { digits };
    let shift = i128::from(scanned.exponent.unwrap_or(0)) + i128::from(to.scale())
        - scanned.fraction.len() as i128;
    if digits.is_zero() {
        return Exact::Value(digits);
    }
    // Bounded so the powers of ten stay small, without changing the outcome:
    // a non-zero value moved up by more than the precision overflows either
    // way, and one moved down by two digits more than it has is below a
    // hundredth of the last place either way, on the same side of zero.
    let length = (scanned.integer.len() + scanned.fraction.len()) as i128;
    let shift = shift.clamp(-(length + 2), i128::from(to.precision()) + 1);
    let exponent = u32::try_from(shift.unsigned_abs()).unwrap_or(u32::MAX);
    let value = if shift >= 0 {
        digits * text::pow10(exponent)
    } else {
        round(&digits, &text::pow10(exponent), mode)
    };
    if value.abs() > text::precision_limit(to.precision()) {
        Exact::Overflow
    } else {
        Exact::Value(value)
    }
}

/// The width the profile stores a result of one operand's type at.
///
/// # Errors
/// [`DecimalError::StorageTooNarrow`] when the profile's width cannot hold
/// `result`.
fn profile_width(
    result: DecimalType,
    options: &ArithmeticOptions,
) -> Result<StorageWidth, DecimalError> {
    let storage = ResultStorage::Profile;
    result_width(result, storage, options).ok_or_else(|| DecimalError::StorageTooNarrow {
        dtype: result,
        width: refused_width(result, storage, options),
    })
}

/// The reference's result over `len` rows: `outcome` is a row's exact
/// outcome (`None` for a null row), `error` the error a failing row
/// reports under the `Error` policy.
fn reference_rows(
    len: usize,
    result: DecimalType,
    options: &ArithmeticOptions,
    outcome: impl Fn(usize) -> Option<Exact>,
    error: impl Fn(usize, &Exact) -> DecimalError,
) -> Result<DecimalArray, DecimalError> {
    let mut values = Vec::with_capacity(len);
    let mut valid = Vec::with_capacity(len);
    for row in 0..len {
        let value = match outcome(row) {
            None => None,
            Some(Exact::Value(v)) => Some(text::bigint_to_i256(&v).unwrap_or(i256::ZERO)),
            Some(failure) => {
                let policy = match failure {
                    Exact::DivideByZero => options.on_divide_by_zero(),
                    _ => options.on_overflow(),
                };
                if policy == OverflowPolicy::Error {
                    return Err(error(row, &failure));
                }
                None
            }
        };
        values.push(value.unwrap_or(i256::ZERO));
        valid.push(value.is_some());
    }
    // A type the profile cannot store is checked by the kernels' caller; the
    // reference stores it as wide as it needs.
    let width =
        result_width(result, ResultStorage::Profile, options).unwrap_or(result.storage_width());
    let values = with_native!(width, T => {
        let typed: Vec<T> = values.into_iter().map(|v| T::from_i256(v).unwrap_or_default()).collect();
        T::into_values(ScalarBuffer::from(typed))
    });
    Ok(DecimalArray::from_parts(result, values, Some(NullBuffer::from(valid))))
}

/// The result the [semantics](crate::semantics#numeric-casts) define for
/// [`cast::to_integer`](crate::cast::to_integer): each valid row's exact
/// value rounded once to an integer with the profile's mode, then checked
/// against `T`'s range.
///
/// ```
/// use decimal_kernels::{cast, conformance, ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(5, 1)?, &[Some("-2.5"), None])?;
/// let opts = ArithmeticOptions::presto();
/// assert_eq!(conformance::reference_to_integer::<i16>(&a, &opts)?, cast::to_integer::<i16>(&a, &opts)?);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::CastOverflow`] for the first valid row beyond `T`'s
/// range under the `Error` overflow policy.
pub fn reference_to_integer<'a, T: CastInteger>(
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<NullableBuffer<ScalarBuffer<T>>, DecimalError> {
    let operand = operand.into();
    let mode = integer_rounding(options);
    let outcome = |row| {
        let a = text::i256_to_bigint(operand.value(row)?);
        let integer = rescaled(&a, operand.dtype().scale(), 0, mode);
        Some(integer.to_i128().and_then(T::from_i128))
    };
    let error =
        |row| DecimalError::CastOverflow { row, value: operand.text(row), target: T::NAME.into() };
    reference_values(operand.length().unwrap_or(1), options, outcome, error)
}

/// The result the [semantics](crate::semantics#numeric-casts) define for
/// [`cast::from_integer`](crate::cast::from_integer): each valid integer at
/// `to`'s scale (a negative scale rounded with the profile's mode), checked
/// against `to`'s precision.
///
/// # Errors
/// As [`cast::from_integer`](crate::cast::from_integer).
pub fn reference_from_integer<T: CastInteger>(
    values: &[T],
    nulls: Option<&NullBuffer>,
    to: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    check_nulls(values.len(), nulls)?;
    profile_width(to, options)?;
    let mode = decimal_rounding(options);
    let limit = text::precision_limit(to.precision());
    let outcome = |row: usize| {
        nulls.is_none_or(|n| n.is_valid(row)).then(|| {
            let stored = rescaled(&BigInt::from(values[row].to_i128()), 0, to.scale(), mode);
            if stored.abs() > limit { Exact::Overflow } else { Exact::Value(stored) }
        })
    };
    let error = |row: usize, _: &Exact| DecimalError::CastOverflow {
        row,
        value: values[row].to_i128().to_string(),
        target: to.to_string(),
    };
    reference_rows(values.len(), to, options, outcome, error)
}

/// The result the [semantics](crate::semantics#numeric-casts) define for
/// [`cast::to_float`](crate::cast::to_float): the float nearest each valid
/// row's exact value, ties to even, found by big-integer division.
///
/// # Errors
/// None today, as [`cast::to_float`](crate::cast::to_float).
pub fn reference_to_float<'a, F: CastFloat>(
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<NullableBuffer<ScalarBuffer<F>>, DecimalError> {
    let operand = operand.into();
    let format = if size_of::<F>() == 4 { F32 } else { F64 };
    let outcome = |row| {
        let a = text::i256_to_bigint(operand.value(row)?);
        Some(Some(F::from_widened(decimal_to_float(&a, operand.dtype().scale(), format))))
    };
    let error =
        |row| DecimalError::CastOverflow { row, value: operand.text(row), target: F::NAME.into() };
    reference_values(operand.length().unwrap_or(1), options, outcome, error)
}

/// The result the [semantics](crate::semantics#numeric-casts) define for
/// [`cast::from_float`](crate::cast::from_float): each valid float's exact
/// binary value (Arrow, FixedPoint) or shortest round-trip text (Spark,
/// Presto; an `f32` widened to `f64` first) at `to`'s scale, rounded once,
/// checked against `to`'s precision; NaN and infinities fail.
///
/// # Errors
/// As [`cast::from_float`](crate::cast::from_float).
pub fn reference_from_float<F: CastFloat>(
    values: &[F],
    nulls: Option<&NullBuffer>,
    to: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    check_nulls(values.len(), nulls)?;
    profile_width(to, options)?;
    let mode = decimal_rounding(options);
    let limit = text::precision_limit(to.precision());
    let shortest = rules(options).get().reads_floats_as_shortest_text();
    let outcome = |row: usize| {
        nulls.is_none_or(|n| n.is_valid(row)).then(|| {
            let x = values[row].widened();
            let fraction = if shortest { shortest_text_fraction(x) } else { float_fraction(x) };
            match fraction {
                Some((num, den)) => {
                    let stored = fraction_at_scale(&num, &den, to.scale(), mode);
                    if stored.abs() > limit { Exact::Overflow } else { Exact::Value(stored) }
                }
                None => Exact::Overflow,
            }
        })
    };
    let error = |row: usize, _: &Exact| DecimalError::CastOverflow {
        row,
        value: values[row].to_string(),
        target: to.to_string(),
    };
    reference_rows(values.len(), to, options, outcome, error)
}

/// [`DecimalError::LengthMismatch`] unless `nulls` has `len` rows.
fn check_nulls(len: usize, nulls: Option<&NullBuffer>) -> Result<(), DecimalError> {
    match nulls {
        Some(n) if n.len() != len => {
            Err(DecimalError::LengthMismatch { expected: len, actual: n.len() })
        }
        _ => Ok(()),
    }
}

/// A reference result of `len` rows that are not decimals: `outcome` is a
/// row's value (`None`: a null row; `Some(None)`: it fails), `error` what a
/// failing row reports under the `Error` overflow policy.
fn reference_values<V: ArrowNativeType>(
    len: usize,
    options: &ArithmeticOptions,
    outcome: impl Fn(usize) -> Option<Option<V>>,
    error: impl Fn(usize) -> DecimalError,
) -> Result<NullableBuffer<ScalarBuffer<V>>, DecimalError> {
    let mut values = Vec::with_capacity(len);
    let mut valid = Vec::with_capacity(len);
    for row in 0..len {
        let value = match outcome(row) {
            None => None,
            Some(None) if options.on_overflow() == OverflowPolicy::Error => return Err(error(row)),
            Some(value) => value,
        };
        values.push(value.unwrap_or_default());
        valid.push(value.is_some());
    }
    let nulls = Some(NullBuffer::from(valid)).filter(|n| n.null_count() > 0);
    Ok(NullableBuffer::new(ScalarBuffer::from(values), nulls))
}

/// One row on which a result differs from the reference (see the example of
/// [`ConformanceError`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The row.
    pub row: usize,
    /// The left operand's text at that row (`NULL` for null).
    pub lhs: String,
    /// The right operand's text at that row.
    pub rhs: String,
    /// What the reference gives (text, `NULL`, or the error).
    pub expected: String,
    /// What the result gives.
    pub got: String,
}

/// A result that does not conform: what differs, row by row.
///
/// ```
/// use decimal_kernels::{binary, conformance, ArithmeticOptions, BinaryOp, DecimalArray, DecimalType, RoundingMode};
/// let t = DecimalType::try_new(5, 2)?;
/// let a = DecimalArray::from_strs(t, &[Some("2.00"), Some("3.00")])?;
/// let b = DecimalArray::from_strs(t, &[Some("3.00"), Some("3.00")])?;
/// let opts = ArithmeticOptions::default(); // rounds toward zero
/// // A kernel that rounds half up whatever the options say.
/// let half_up = opts.with_rounding(RoundingMode::HalfUp);
/// let report = conformance::check_kernel(BinaryOp::Div, &a, &b, &opts, |op, l, r, _| {
///     binary(op, l, r, &half_up)
/// })
/// .unwrap_err();
/// assert_eq!(report.mismatch_count, 1);
/// let row = &report.mismatches[0];
/// assert_eq!((row.row, row.expected.as_str(), row.got.as_str()), (0, "0.66", "0.67"));
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConformanceError {
    /// The operator.
    pub op: BinaryOp,
    /// The options of the call.
    pub options: ArithmeticOptions,
    /// The first rows that differ (at most 20).
    pub mismatches: Vec<Mismatch>,
    /// How many rows differ in all (a whole-call difference counts as one).
    pub mismatch_count: usize,
}

impl fmt::Display for ConformanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} rows differ from the reference for `{}` under {:?}:",
            self.mismatch_count, self.op, self.options
        )?;
        for m in &self.mismatches {
            writeln!(
                f,
                "  row {}: {} {} {}: expected {}, got {}",
                m.row, m.lhs, self.op, m.rhs, m.expected, m.got
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for ConformanceError {}

/// Compares `got`, a result of `lhs op rhs`, with the reference: the same
/// error, or the same type, length, validity and value on every row.
///
/// # Errors
/// A [`ConformanceError`] listing what differs.
pub fn compare<'a>(
    op: BinaryOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
    got: &Result<DecimalArray, DecimalError>,
) -> Result<(), ConformanceError> {
    let (lhs, rhs) = (lhs.into(), rhs.into());
    let expected = reference(op, lhs, rhs, options);
    let mut mismatches = Vec::new();
    let whole = |row: usize, expected: String, got: String| Mismatch {
        row,
        lhs: lhs.text(row),
        rhs: rhs.text(row),
        expected,
        got,
    };
    match (&expected, got) {
        (Err(e), Err(g)) if e == g => {}
        (Err(e), Err(g)) => mismatches.push(whole(error_row(e), e.to_string(), g.to_string())),
        (Err(e), Ok(_)) => mismatches.push(whole(error_row(e), e.to_string(), "a result".into())),
        (Ok(_), Err(g)) => mismatches.push(whole(error_row(g), "a result".into(), g.to_string())),
        (Ok(e), Ok(g)) if e.dtype() != g.dtype() || e.len() != g.len() => mismatches.push(whole(
            0,
            format!("{} rows of {}", e.len(), e.dtype()),
            format!("{} rows of {}", g.len(), g.dtype()),
        )),
        (Ok(e), Ok(g)) => {
            // Both have one type, so equal stored values print alike: only
            // the rows that differ are formatted (long columns stay cheap).
            let scale = e.dtype().scale();
            let stored = |a: &DecimalArray, row| a.is_valid(row).then(|| a.values().get(row));
            let show = |v: Option<Option<i256>>| match v {
                Some(Some(v)) => text::format(&text::i256_to_bigint(v), scale),
                _ => "NULL".into(),
            };
            for row in 0..e.len() {
                let (want, have) = (stored(e, row), stored(g, row));
                if want != have {
                    mismatches.push(whole(row, show(want), show(have)));
                }
            }
        }
    }
    if mismatches.is_empty() {
        return Ok(());
    }
    let mismatch_count = mismatches.len();
    mismatches.truncate(LISTED);
    Err(ConformanceError { op, options: *options, mismatches, mismatch_count })
}

fn error_row(error: &DecimalError) -> usize {
    match error {
        DecimalError::Overflow { row, .. } | DecimalError::DivideByZero { row, .. } => *row,
        _ => 0,
    }
}

/// Runs `kernel` on `lhs op rhs` and compares its result with the reference.
///
/// # Errors
/// A [`ConformanceError`] listing what differs.
pub fn check_kernel<'a, F>(
    op: BinaryOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
    kernel: F,
) -> Result<(), ConformanceError>
where
    F: FnOnce(
        BinaryOp,
        Operand<'a>,
        Operand<'a>,
        &ArithmeticOptions,
    ) -> Result<DecimalArray, DecimalError>,
{
    let (lhs, rhs) = (lhs.into(), rhs.into());
    let got = kernel(op, lhs, rhs, options);
    compare(op, lhs, rhs, options, &got)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_reports_each_differing_row_as_text() {
        let t = DecimalType::try_new(10, 2).expect("a valid type");
        let a = DecimalArray::from_strs(t, &[Some("1.50"), None, Some("-2.25"), Some("3.00")])
            .expect("valid text");
        let options = ArithmeticOptions::default();
        let right = reference(BinaryOp::Mul, &a, &a, &options).expect("no row fails");
        let mut texts = right.to_strs();
        let (changed, nulled) = (texts[2].replace("7.77".into()), texts[3].take());
        let wrong = DecimalArray::from_strs(
            right.dtype(),
            &texts.iter().map(Option::as_deref).collect::<Vec<_>>(),
        )
        .expect("valid text");

        let report =
            compare(BinaryOp::Mul, &a, &a, &options, &Ok(wrong)).expect_err("two rows differ");
        let rows: Vec<(usize, &str, &str)> = report
            .mismatches
            .iter()
            .map(|m| (m.row, m.expected.as_str(), m.got.as_str()))
            .collect();
        let (changed, nulled) = (changed.expect("row 2 valid"), nulled.expect("row 3 valid"));
        assert_eq!(rows, [(2, changed.as_str(), "7.77"), (3, nulled.as_str(), "NULL")]);
        assert_eq!(report.mismatch_count, 2);
        assert!(compare(BinaryOp::Mul, &a, &a, &options, &Ok(right)).is_ok());
    }
}
