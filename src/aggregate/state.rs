//! Partial aggregate results as Arrow arrays, for moving between partitions.
//!
//! A group's state is its exact sum and its count of valid rows. The sum is
//! split into two columns so that each is an ordinary Arrow value whatever
//! the number of rows: `sum` (a `Decimal256(76, s)`, below `10^76` in
//! magnitude) and `sum_high` (an `Int64` of whole `10^76`s, with the sign of
//! the sum), `sum = sum_high * 10^76 + sum`. Up to 57-digit inputs,
//! `sum_high` is zero for any realistic count of rows.

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Decimal256Array, Int64Array, UInt64Array};
use arrow_buffer::i256;
use arrow_schema::{DataType, Field};
use decimal_kernels_native::{GroupSum, GroupSums};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::ToPrimitive;

use crate::types::DecimalError;
use crate::types::{DecimalType, MAX_PRECISION};
use crate::values::text;

/// The partial results of an [`Accumulator`](super::Accumulator)'s groups,
/// one row per group, as three Arrow arrays ([`fields`](Self::fields)):
/// `sum` and `sum_high` (the exact sum is `sum_high * 10^76 + sum`) and
/// `count`.
///
/// ```
/// use decimal_kernels::aggregate::{Accumulator, AggregateOp, AggregateState};
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType};
/// let t = DecimalType::try_new(5, 2)?;
/// let mut partial = Accumulator::new(AggregateOp::Avg, t, &ArithmeticOptions::default())?;
/// partial.update(&DecimalArray::from_strs(t, &[Some("1.50"), Some("2.00")])?, &[0, 0], None, 1)?;
/// let arrays = partial.state(None).to_arrow();
/// assert_eq!(arrays.len(), AggregateState::fields(t).len());
/// // Across the wire and back.
/// let state = AggregateState::from_arrow(t, &arrays)?;
/// let mut total = Accumulator::new(AggregateOp::Avg, t, &ArithmeticOptions::default())?;
/// total.merge(&state, &[0], 1)?;
/// assert_eq!(total.finish(None)?.to_strs(), [Some("1.75".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AggregateState {
    input: DecimalType,
    sum: Decimal256Array,
    sum_high: Int64Array,
    count: UInt64Array,
}

impl AggregateState {
    /// The state's columns for values of type `input`: `sum`
    /// (`Decimal256(76, s)`), `sum_high` (`Int64`) and `count` (`UInt64`),
    /// none nullable.
    #[must_use]
    pub fn fields(input: DecimalType) -> Vec<Field> {
        vec![
            Field::new("sum", DataType::Decimal256(MAX_PRECISION, input.scale()), false),
            Field::new("sum_high", DataType::Int64, false),
            Field::new("count", DataType::UInt64, false),
        ]
    }

    /// The state of some groups' sums.
    pub(crate) fn from_sums(input: DecimalType, sums: &GroupSums) -> Self {
        let len = sums.len();
        let (mut sum, mut sum_high, mut count) =
            (Vec::with_capacity(len), Vec::with_capacity(len), Vec::with_capacity(len));
        let limit = i256::from_i128(10i128.pow(38)).wrapping_mul(i256::from_i128(10i128.pow(38)));
        for part in (0..len).filter_map(|g| sums.group(g)) {
            let (high, low) = split(part, limit);
            sum.push(low);
            sum_high.push(high);
            count.push(part.count);
        }
        // Every `low` is below 10^76: the values are of this type.
        let sum = Decimal256Array::from(sum)
            .with_data_type(DataType::Decimal256(MAX_PRECISION, input.scale()));
        Self { input, sum, sum_high: Int64Array::from(sum_high), count: UInt64Array::from(count) }
    }

    /// The state read back from its arrays (as [`to_arrow`](Self::to_arrow)
    /// wrote them) for values of type `input`.
    ///
    /// # Errors
    /// [`DecimalError::InvalidState`] when there are not three arrays of the
    /// [`fields`](Self::fields)' types and one length, or one has nulls.
    pub fn from_arrow(input: DecimalType, arrays: &[ArrayRef]) -> Result<Self, DecimalError> {
        let invalid = |reason: &str| DecimalError::InvalidState { reason: reason.into() };
        let [sum, sum_high, count] = arrays else {
            return Err(invalid("a state has three arrays: sum, sum_high, count"));
        };
        let expected = Self::fields(input);
        for (array, field) in [sum, sum_high, count].into_iter().zip(&expected) {
            if array.data_type() != field.data_type() {
                return Err(invalid(&format!(
                    "{} is {}, not {}",
                    field.name(),
                    array.data_type(),
                    field.data_type()
                )));
            }
            if array.null_count() > 0 || array.len() != sum.len() {
                return Err(invalid(&format!("{} has nulls or another length", field.name())));
            }
        }
        let (Some(sum), Some(sum_high), Some(count)) = (
            sum.as_any().downcast_ref::<Decimal256Array>(),
            sum_high.as_any().downcast_ref::<Int64Array>(),
            count.as_any().downcast_ref::<UInt64Array>(),
        ) else {
            return Err(invalid("the arrays are not of the state's types"));
        };
        Ok(Self { input, sum: sum.clone(), sum_high: sum_high.clone(), count: count.clone() })
    }

    /// The three arrays, in the order of [`fields`](Self::fields).
    #[must_use]
    pub fn to_arrow(&self) -> Vec<ArrayRef> {
        vec![
            Arc::new(self.sum.clone()),
            Arc::new(self.sum_high.clone()),
            Arc::new(self.count.clone()),
        ]
    }

    /// The type of the values summed.
    #[must_use]
    pub fn input_type(&self) -> DecimalType {
        self.input
    }

    /// The number of groups.
    #[must_use]
    pub fn len(&self) -> usize {
        self.count.len()
    }

    /// Whether there are no groups.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.count.is_empty()
    }

    /// Row `row` as the kernels merge it.
    pub(crate) fn group_sum(&self, row: usize) -> Result<GroupSum, DecimalError> {
        let (low, high, count) =
            (self.sum.value(row), self.sum_high.value(row), self.count.value(row));
        if high == 0 {
            return Ok(GroupSum { sum_low: low, sum_carry: 0, count });
        }
        // Beyond `i256`: as `low + carry * 2^256`.
        let exact =
            BigInt::from(high) * text::pow10(MAX_PRECISION.into()) + text::i256_to_bigint(low);
        let (carry, low) = exact.div_mod_floor(&(BigInt::from(1) << 256));
        // `low` is in 0..2^256: as a signed value with one carry more.
        let (low, carry) = if low >= (BigInt::from(1) << 255) {
            (low - (BigInt::from(1) << 256), carry + 1)
        } else {
            (low, carry)
        };
        match (text::bigint_to_i256(&low), carry.to_i64()) {
            (Some(sum_low), Some(sum_carry)) => Ok(GroupSum { sum_low, sum_carry, count }),
            _ => Err(DecimalError::InvalidState {
                reason: format!("row {row} is not a sum and count of rows"),
            }),
        }
    }
}

/// A group's sum as `(high, low)`: `sum = high * 10^76 + low`, `|low| < 10^76`,
/// both with the sign of the sum; `limit` is `10^76`.
fn split(part: GroupSum, limit: i256) -> (i64, i256) {
    if part.sum_carry == 0 && part.sum_low.checked_abs().is_some_and(|m| m < limit) {
        return (0, part.sum_low);
    }
    let (high, low) = exact_sum(part).div_rem(&text::pow10(MAX_PRECISION.into()));
    // A merged sum is at most `count * 2^255` in magnitude with a count of
    // at most `2^60` (the kernels refuse any other): `|high|` is below
    // `2^255 / 10^76 * 2^60 < 5.8 * 2^60 < 2^63`, `low` below `10^76`, so
    // both convert.
    (high.to_i64().unwrap_or_default(), text::bigint_to_i256(&low).unwrap_or(i256::ZERO))
}
/// A group's exact sum, `sum_low + sum_carry * 2^256`.
pub(crate) fn exact_sum(part: GroupSum) -> BigInt {
    text::i256_to_bigint(part.sum_low) + (BigInt::from(part.sum_carry) << 256)
}
