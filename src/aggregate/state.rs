//! Partial aggregate results as Arrow arrays, for moving between partitions.
//!
//! A `min` or `max` group's state is its extreme: one nullable
//! `Decimal256(76, s)` column (`min` or `max`), null for a group that met no
//! valid row. A `sum` or `avg` group's state is its exact sum and its count
//! of valid rows. The sum is
//! split into two columns so that each is an ordinary Arrow value whatever
//! the number of rows: `sum` (a `Decimal256(76, s)`, below `10^76` in
//! magnitude) and `sum_high` (an `Int64` of whole `10^76`s, with the sign of
//! the sum), `sum = sum_high * 10^76 + sum`. Up to 57-digit inputs,
//! `sum_high` is zero for any realistic count of rows.
//!
//! Inputs of at most 18 digits have a compact state, as DataFusion's own:
//! no sum of `2^64` of their rows leaves `i128` (it stays below `2^124`), so
//! a `sum`'s state is one nullable `Decimal128(38, s)` column `sum` (null for
//! a group without valid rows) and an `avg`'s adds the `count`. The result
//! type is checked once, when the groups are finished.

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Decimal128Array, Decimal256Array, Int64Array, UInt64Array};
use arrow_buffer::{BooleanBuffer, NullBuffer, i256};
use arrow_schema::{DataType, Field};
use decimal_kernels_native::{GroupExtremes, GroupSum, GroupSums};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::ToPrimitive;

use crate::types::{AggregateOp, DecimalType, MAX_PRECISION};
use crate::types::{DecimalError, StorageWidth};
use crate::values::text;
use crate::values::{DecimalArray, DecimalValues};

/// The partial results of an [`Accumulator`](super::Accumulator)'s groups,
/// one row per group, as Arrow arrays ([`fields_of`](Self::fields_of)): for
/// `sum` and `avg` three, `sum` and `sum_high` (the exact sum is
/// `sum_high * 10^76 + sum`) and `count`, or, for an input of at most 18
/// digits, a `Decimal128` `sum` (and for `avg` the `count`); for `min` and
/// `max` one, the group's extreme (null for a group without valid rows).
///
/// ```
/// use decimal_kernels::aggregate::{Accumulator, AggregateOp, AggregateState};
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType};
/// let t = DecimalType::try_new(5, 2)?;
/// let mut partial = Accumulator::new(AggregateOp::Avg, t, &ArithmeticOptions::default())?;
/// partial.update(&DecimalArray::from_strs(t, &[Some("1.50"), Some("2.00")])?, &[0, 0], None, 1)?;
/// let arrays = partial.state(None).to_arrow();
/// // A compact sum and a count: the input has at most 18 digits.
/// assert_eq!(arrays.len(), AggregateState::fields_of(AggregateOp::Avg, t).len());
/// assert_eq!(arrays.len(), 2);
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
    columns: StateColumns,
}

/// A compact state's rows as the kernels merge them.
pub(crate) struct CompactParts<'a> {
    /// Each row's sum.
    pub(crate) sums: &'a [i128],
    /// The rows with a sum (a `sum`'s state: the groups that met rows).
    pub(crate) valid: Option<&'a NullBuffer>,
    /// Each row's count of rows, for `avg`.
    pub(crate) counts: Option<&'a [u64]>,
}

/// The arrays of a state.
#[derive(Clone, Debug, PartialEq)]
enum StateColumns {
    /// Exact sums and counts (`sum`, `avg`).
    Sums { sum: Decimal256Array, sum_high: Int64Array, count: UInt64Array },
    /// The sums of an input of at most 18 digits (null: no rows), and for
    /// `avg` the counts.
    Compact { sum: Decimal128Array, count: Option<UInt64Array> },
    /// Extremes (`min`, `max`), null where a group met no valid row.
    Extremes(Decimal256Array),
}

impl AggregateState {
    /// The columns of a `sum` state for values of type `input`
    /// ([`fields_of`](Self::fields_of) of [`AggregateOp::Sum`]): for an input
    /// of at most 18 digits one nullable `Decimal128(38, s)` column `sum`;
    /// for any other `sum` (`Decimal256(76, s)`), `sum_high` (`Int64`) and
    /// `count` (`UInt64`), none nullable.
    #[must_use]
    pub fn fields(input: DecimalType) -> Vec<Field> {
        Self::fields_of(AggregateOp::Sum, input)
    }

    /// The state's columns of aggregate `op` for values of type `input`:
    /// [`fields`](Self::fields) for `sum`, and for `avg` the same with a
    /// `count` (`UInt64`) after a compact `sum`; for `min` and `max` one
    /// nullable `Decimal256(76, s)` column named after the aggregate.
    ///
    /// ```
    /// use decimal_kernels::aggregate::{AggregateOp, AggregateState};
    /// use decimal_kernels::DecimalType;
    /// let fields = AggregateState::fields_of(AggregateOp::Max, DecimalType::try_new(9, 2)?);
    /// assert_eq!(fields.len(), 1);
    /// assert_eq!((fields[0].name().as_str(), fields[0].is_nullable()), ("max", true));
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    #[must_use]
    pub fn fields_of(op: AggregateOp, input: DecimalType) -> Vec<Field> {
        let wide = DataType::Decimal256(MAX_PRECISION, input.scale());
        let count = Field::new("count", DataType::UInt64, false);
        if compact(input) && matches!(op, AggregateOp::Sum | AggregateOp::Avg) {
            let sum = Field::new("sum", DataType::Decimal128(38, input.scale()), true);
            return if op == AggregateOp::Sum { vec![sum] } else { vec![sum, count] };
        }
        match op {
            AggregateOp::Sum | AggregateOp::Avg => wide_sum_fields(input).to_vec(),
            AggregateOp::Min | AggregateOp::Max => vec![Field::new(op.to_string(), wide, true)],
        }
    }

    /// The state of some groups' extremes.
    pub(crate) fn from_extremes(input: DecimalType, extremes: &GroupExtremes) -> Self {
        let values: Decimal256Array =
            (0..extremes.len()).map(|g| extremes.group(g).flatten()).collect();
        // Every extreme is a stored value of a checked column, or one the
        // finish refuses: it is kept as it is, exactly.
        let values = values.with_data_type(DataType::Decimal256(MAX_PRECISION, input.scale()));
        Self { input, columns: StateColumns::Extremes(values) }
    }

    /// The state of some groups' sums, of `op` (`sum` or `avg`): compact
    /// where the input is (its sums are always narrow then, but for states
    /// no rows of it add up to).
    pub(crate) fn from_sums(op: AggregateOp, input: DecimalType, sums: &GroupSums) -> Self {
        if compact(input)
            && let Some((narrow, counts)) = sums.narrow_sums()
        {
            let valid = counts.iter().map(|&c| c > 0);
            let sum = Decimal128Array::new(narrow.to_vec().into(), Some(valid.collect()))
                .with_data_type(DataType::Decimal128(38, input.scale()));
            let count = (op == AggregateOp::Avg).then(|| {
                counts.iter().map(|&c| u64::try_from(c).unwrap_or_default()).collect()
            });
            return Self { input, columns: StateColumns::Compact { sum, count } };
        }
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
        let (sum_high, count) = (Int64Array::from(sum_high), UInt64Array::from(count));
        Self { input, columns: StateColumns::Sums { sum, sum_high, count } }
    }

    /// Each row of `values` (null where `filter` is false) as the compact
    /// state of a group of its own, when `op` and `input` have one: the
    /// values themselves as `i128` sums, and for `avg` a count of 1 (0 for
    /// a null row).
    pub(crate) fn compact_rows(
        op: AggregateOp,
        input: DecimalType,
        values: &DecimalArray,
        filter: Option<&BooleanBuffer>,
    ) -> Option<Self> {
        if !compact(input) || !matches!(op, AggregateOp::Sum | AggregateOp::Avg) {
            return None;
        }
        // Values beyond `i128` (beyond their declared precision) take the
        // exact wide path.
        let Ok(wide) = values.with_width(StorageWidth::I128) else {
            return None;
        };
        let DecimalValues::I128(buffer) = wide.values() else {
            return None;
        };
        let filter = filter.map(|f| NullBuffer::new(f.clone()));
        let nulls = NullBuffer::union(values.nulls(), filter.as_ref());
        let count = (op == AggregateOp::Avg).then(|| {
            let valid = |i| nulls.as_ref().is_none_or(|n| n.is_valid(i));
            UInt64Array::from_iter_values((0..values.len()).map(|i| u64::from(valid(i))))
        });
        let sum = Decimal128Array::new(buffer.clone(), nulls)
            .with_data_type(DataType::Decimal128(38, input.scale()));
        Some(Self { input, columns: StateColumns::Compact { sum, count } })
    }

    /// The state read back from its arrays (as [`to_arrow`](Self::to_arrow)
    /// wrote them) for values of type `input`.
    ///
    /// # Errors
    /// [`DecimalError::InvalidState`] when the arrays are not those of
    /// [`fields_of`](Self::fields_of) one aggregate: three arrays of the
    /// [`fields`](Self::fields)' types, of one length and without nulls, or
    /// one array of `min` or `max`'s type.
    pub fn from_arrow(input: DecimalType, arrays: &[ArrayRef]) -> Result<Self, DecimalError> {
        let invalid = |reason: &str| DecimalError::InvalidState { reason: reason.into() };
        if let Some(sum) = arrays.first().and_then(|a| a.as_any().downcast_ref::<Decimal128Array>())
            && arrays.len() <= 2
        {
            return Self::compact_from_arrow(input, sum, arrays.get(1));
        }
        if let [extremes] = arrays {
            let field = &Self::fields_of(AggregateOp::Min, input)[0];
            return match extremes.as_any().downcast_ref::<Decimal256Array>() {
                Some(values) if values.data_type() == field.data_type() => {
                    Ok(Self { input, columns: StateColumns::Extremes(values.clone()) })
                }
                _ => Err(invalid(&format!(
                    "a min or max state is {}, not {}",
                    extremes.data_type(),
                    field.data_type()
                ))),
            };
        }
        let [sum, sum_high, count] = arrays else {
            return Err(invalid(
                "a state has three arrays (sum, sum_high, count), a Decimal128 sum and an optional count (of an input of at most 18 digits), or one extreme (min or max)",
            ));
        };
        let expected = wide_sum_fields(input);
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
        let (sum, sum_high, count) = (sum.clone(), sum_high.clone(), count.clone());
        Ok(Self { input, columns: StateColumns::Sums { sum, sum_high, count } })
    }

    /// A compact state read back: a `Decimal128(38, s)` sum and an optional
    /// `UInt64` count without nulls, of one length.
    fn compact_from_arrow(
        input: DecimalType,
        sum: &Decimal128Array,
        count: Option<&ArrayRef>,
    ) -> Result<Self, DecimalError> {
        let invalid = |reason: String| DecimalError::InvalidState { reason };
        let expected = DataType::Decimal128(38, input.scale());
        if sum.data_type() != &expected {
            return Err(invalid(format!("sum is {}, not {expected}", sum.data_type())));
        }
        let count = match count {
            None => None,
            Some(count) => match count.as_any().downcast_ref::<UInt64Array>() {
                Some(c) if c.null_count() == 0 && c.len() == sum.len() => Some(c.clone()),
                Some(_) => return Err(invalid("count has nulls or another length".into())),
                None => return Err(invalid(format!("count is {}, not UInt64", count.data_type()))),
            },
        };
        Ok(Self { input, columns: StateColumns::Compact { sum: sum.clone(), count } })
    }

    /// The arrays, in the order of [`fields_of`](Self::fields_of).
    #[must_use]
    pub fn to_arrow(&self) -> Vec<ArrayRef> {
        match &self.columns {
            StateColumns::Compact { sum, count } => {
                let mut arrays: Vec<ArrayRef> = vec![Arc::new(sum.clone())];
                arrays.extend(count.iter().map(|c| Arc::new(c.clone()) as ArrayRef));
                arrays
            }
            StateColumns::Sums { sum, sum_high, count } => {
                vec![Arc::new(sum.clone()), Arc::new(sum_high.clone()), Arc::new(count.clone())]
            }
            StateColumns::Extremes(values) => vec![Arc::new(values.clone())],
        }
    }

    /// The type of the values summed.
    #[must_use]
    pub fn input_type(&self) -> DecimalType {
        self.input
    }

    /// The number of groups.
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.columns {
            StateColumns::Sums { count, .. } => count.len(),
            StateColumns::Compact { sum, .. } => sum.len(),
            StateColumns::Extremes(values) => values.len(),
        }
    }

    /// Whether there are no groups.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether it holds extremes (of `min` or `max`), not sums.
    pub(crate) fn holds_extremes(&self) -> bool {
        matches!(self.columns, StateColumns::Extremes(_))
    }
    /// The extremes of a `min` or `max` state and their validity, as the
    /// kernels merge them in one pass.
    pub(crate) fn extreme_parts(&self) -> Option<(&[i256], Option<&NullBuffer>)> {
        match &self.columns {
            StateColumns::Extremes(values) => Some((values.values(), values.nulls())),
            StateColumns::Sums { .. } | StateColumns::Compact { .. } => None,
        }
    }

    /// The sums of a compact state, their validity and counts (`None` for
    /// a `sum`'s state), as the kernels merge them in one pass.
    pub(crate) fn compact_sums(&self) -> Option<CompactParts<'_>> {
        match &self.columns {
            StateColumns::Compact { sum, count } => Some(CompactParts {
                sums: sum.values(),
                valid: sum.nulls(),
                counts: count.as_ref().map(|c| &c.values()[..]),
            }),
            _ => None,
        }
    }

    /// Row `row` as the kernels merge it.
    pub(crate) fn group_sum(&self, row: usize) -> Result<GroupSum, DecimalError> {
        if let StateColumns::Compact { sum, count } = &self.columns {
            let rows = count.as_ref().map_or(u64::from(sum.is_valid(row)), |c| c.value(row));
            let sum_low = i256::from_i128(if sum.is_valid(row) { sum.value(row) } else { 0 });
            return Ok(GroupSum { sum_low, sum_carry: 0, count: rows });
        }
        let StateColumns::Sums { sum, sum_high, count } = &self.columns else {
            return Err(DecimalError::InvalidState {
                reason: format!("row {row} is an extreme, not a sum and count of rows"),
            });
        };
        let (low, high, count) = (sum.value(row), sum_high.value(row), count.value(row));
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

/// The three columns of the state of sums of any input: the exact sum as
/// `sum_high * 10^76 + sum`, and the count.
fn wide_sum_fields(input: DecimalType) -> [Field; 3] {
    [
        Field::new("sum", DataType::Decimal256(MAX_PRECISION, input.scale()), false),
        Field::new("sum_high", DataType::Int64, false),
        Field::new("count", DataType::UInt64, false),
    ]
}

/// Whether values of `input` have the compact state: at most 18 digits, so
/// that `2^64` rows sum below `2^124`.
fn compact(input: DecimalType) -> bool {
    input.precision() <= 18
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
