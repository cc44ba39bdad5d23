//! The functions of one decimal as scalar functions: unary minus
//! (`decimal_neg`), `decimal_abs`, and `decimal_round`, `decimal_floor`,
//! `decimal_ceil`, `decimal_trunc` to a literal number of digits (0 when
//! omitted), and `decimal_round`, `decimal_trunc` to digits read from an
//! integer column, row by row.
//!
//! Result types are the profile's. Under the Arrow profile they are
//! DataFusion's: `round` changes the type as DataFusion's does, and `floor`,
//! `ceil` and `trunc` keep the argument's type (DataFusion 55 returns
//! `floor(x)` of a `decimal(p, s)` as `decimal(p, s)`), so the rounded value
//! is rescaled back to it, which can overflow only where DataFusion's does
//! (`floor(-9.5)` in `decimal(2, 1)`).
//!
//! With digits from a column, no one type holds each row's rounding at its
//! own scale, so the result type is DataFusion's for every profile: the
//! argument's scale, and for `round` one more digit of precision (within
//! the storage's most), which holds a row rounded up to the next power of
//! ten. Each row is rounded exactly as the literal digits would round it
//! (half away from zero; toward zero for `trunc`), then rescaled to that
//! type without loss. Digits at or beyond the argument's scale leave a row
//! as it is, and digits far enough left of its point make every row 0 (for
//! `round`, from one more digit than the precision's integer digits), so
//! digits of any integer type and size are taken as they are, and a batch
//! runs one plan per distinct clamped digits, each over the rows that have
//! them.

use std::sync::Arc;

use std::collections::BTreeMap;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, make_array, new_null_array};
use datafusion::arrow::buffer::{BooleanBuffer, NullBuffer};
use datafusion::arrow::compute::{CastOptions, cast, interleave};
use datafusion::arrow::datatypes::{DataType, FieldRef, Int64Type, UInt64Type};
use datafusion::arrow::util::display::array_value_to_string;
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility,
};
use decimal_kernels::arrow::data_type;
use decimal_kernels::{DecimalArray, RoundFunction, UnaryOp, UnaryPlan};

use crate::plans::PlanCache;
use crate::profile::{Profile, decimal};
use crate::values::{Argument, failed, result, result_field};

/// What a function of one decimal computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum UnaryFunction {
    /// `-x`.
    Neg,
    /// `abs(x)`.
    Abs,
    /// `round`, `floor`, `ceil` or `trunc` to a number of digits.
    Round(RoundFunction),
}

impl UnaryFunction {
    /// Every function, for registration.
    pub(crate) const ALL: [Self; 6] = [
        Self::Neg,
        Self::Abs,
        Self::Round(RoundFunction::Round),
        Self::Round(RoundFunction::Floor),
        Self::Round(RoundFunction::Ceil),
        Self::Round(RoundFunction::Trunc),
    ];

    /// The function's name here.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Neg => "decimal_neg",
            Self::Abs => "decimal_abs",
            Self::Round(RoundFunction::Round) => "decimal_round",
            Self::Round(RoundFunction::Floor) => "decimal_floor",
            Self::Round(RoundFunction::Ceil) => "decimal_ceil",
            Self::Round(RoundFunction::Trunc) => "decimal_trunc",
        }
    }

    /// The function of a DataFusion function name, if it is one taken here.
    pub(crate) fn of_datafusion(name: &str) -> Option<Self> {
        Some(match name {
            "abs" => Self::Abs,
            "round" => Self::Round(RoundFunction::Round),
            "floor" => Self::Round(RoundFunction::Floor),
            "ceil" => Self::Round(RoundFunction::Ceil),
            "trunc" => Self::Round(RoundFunction::Trunc),
            _ => return None,
        })
    }

    /// Whether the function takes a number of digits.
    pub(crate) fn takes_digits(self) -> bool {
        matches!(self, Self::Round(_))
    }
}

/// Where a call's digits come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Digits {
    /// One number for every row: a literal, or 0 without one.
    Literal(i32),
    /// An integer column, a number per row.
    PerRow,
}

/// The digits of a literal argument: an integer that fits `i32`.
pub(crate) fn literal_digits(value: &ScalarValue) -> Option<i32> {
    if value.is_null() || !value.data_type().is_integer() {
        return None;
    }
    let as_i64 = value.cast_to(&DataType::Int64).ok()?;
    match as_i64 {
        ScalarValue::Int64(Some(d)) => i32::try_from(d).ok(),
        _ => None,
    }
}

/// A function of one decimal under a profile, with the plans made for the
/// argument types and digits met (one per expression, in practice).
#[derive(Debug)]
pub(crate) struct Unary {
    function: UnaryFunction,
    profile: Profile,
    signature: Signature,
    plans: PlanCache<(DataType, i32), UnaryCall>,
}

/// The identity of a function: what it computes, under which profile.
impl PartialEq for Unary {
    fn eq(&self, other: &Self) -> bool {
        (self.function, self.profile) == (other.function, other.profile)
    }
}

impl Eq for Unary {}

impl std::hash::Hash for Unary {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.function, self.profile).hash(state);
    }
}

/// A planned call: the crate's plan, and the argument's type when DataFusion
/// keeps it (`floor`, `ceil` and `trunc` under the Arrow profile), the
/// rounded value then cast back to it.
#[derive(Debug)]
struct UnaryCall {
    plan: UnaryPlan,
    back_to: Option<DataType>,
}

impl UnaryCall {
    /// The Arrow type of its results.
    fn data_type(&self) -> DataType {
        let planned = || data_type(self.plan.result_type(), self.plan.result_width());
        self.back_to.clone().unwrap_or_else(planned)
    }
}

impl Unary {
    /// `function` under `profile`.
    pub(crate) fn new(function: UnaryFunction, profile: Profile) -> Self {
        let signature = Signature::user_defined(Volatility::Immutable);
        Self { function, profile, signature, plans: PlanCache::default() }
    }

    /// The plan for an argument of type `input`, rounded to `digits` where
    /// it rounds.
    fn plan(&self, input: &DataType, digits: i32) -> Result<Arc<UnaryCall>> {
        self.plans.get((input.clone(), digits), || {
            let name = self.function.name();
            let (dtype, width) = decimal(input)?;
            let op = match self.function {
                UnaryFunction::Neg => UnaryOp::Neg,
                UnaryFunction::Abs => UnaryOp::Abs,
                UnaryFunction::Round(function) => UnaryOp::Round { function, digits },
            };
            let plan = UnaryPlan::new(op, dtype, &self.profile.at(width))
                .or_else(|e| plan_err!("{name}: {e}"))?;
            let keeps_type = matches!(
                self.function,
                UnaryFunction::Round(
                    RoundFunction::Floor | RoundFunction::Ceil | RoundFunction::Trunc
                )
            );
            let planned = data_type(plan.result_type(), plan.result_width());
            let back = keeps_type && self.profile.is_arrow() && &planned != input;
            Ok(UnaryCall { plan, back_to: back.then(|| input.clone()) })
        })
    }

    /// The function of `array`, rounded to `digits` where it rounds.
    fn apply(&self, array: &dyn Array, digits: i32) -> Result<ArrayRef> {
        let name = self.function.name();
        let call = self.plan(array.data_type(), digits)?;
        let operand = DecimalArray::from_arrow(array).map_err(|e| failed(name, e))?;
        let computed = call.plan.run(&operand).map_err(|e| failed(name, e))?.to_arrow();
        let Some(back_to) = &call.back_to else {
            return Ok(computed);
        };
        let strict = CastOptions { safe: false, ..CastOptions::default() };
        decimal_kernels::arrow::cast(&computed, back_to, &strict).map_err(|e| failed(name, e))
    }

    /// The digits of a call's arguments: the second one, a literal integer
    /// (`Some(value)`) or a column (`None`), or 0 without one.
    fn digits(&self, second: Option<Option<&ScalarValue>>) -> Result<Digits> {
        let name = self.function.name();
        match second {
            None => Ok(Digits::Literal(0)),
            Some(Some(value)) if self.function.takes_digits() => match literal_digits(value) {
                Some(d) => Ok(Digits::Literal(d)),
                None => plan_err!("{name} takes an integer literal of digits"),
            },
            Some(None) if self.takes_digits_per_row() => Ok(Digits::PerRow),
            Some(_) => plan_err!("{name} takes a literal number of digits"),
        }
    }

    /// Whether the function takes digits from a column (`round`, `trunc`).
    fn takes_digits_per_row(&self) -> bool {
        matches!(self.function, UnaryFunction::Round(RoundFunction::Round | RoundFunction::Trunc))
    }

    /// The result type of the function of a decimal of type `input` to
    /// digits read from a column (see the module's header).
    fn per_row_type(&self, input: &DataType) -> Result<DataType> {
        let name = self.function.name();
        if self.function == UnaryFunction::Round(RoundFunction::Trunc) {
            return Ok(input.clone());
        }
        let one_more = |p: u8, most: u8| p.saturating_add(1).min(most);
        Ok(match input {
            DataType::Decimal32(p, s) => DataType::Decimal32(one_more(*p, 9), *s),
            DataType::Decimal64(p, s) => DataType::Decimal64(one_more(*p, 18), *s),
            DataType::Decimal128(p, s) => DataType::Decimal128(one_more(*p, 38), *s),
            DataType::Decimal256(p, s) => DataType::Decimal256(one_more(*p, 76), *s),
            other => return plan_err!("{name} takes a decimal, not {other}"),
        })
    }

    /// The function of `values` to the digits of each row (`digits`, an
    /// integer column), in type `output` ([`per_row_type`](Self::per_row_type)):
    /// a null value or digits give a null row. Rows are grouped by their
    /// digits clamped to the range where they change the answer; each group
    /// runs the literal digits' plan over the column with every other row
    /// masked as null (so a failure names the row itself), and the rows are
    /// then taken from their group's result.
    fn apply_per_row(
        &self,
        values: &dyn Array,
        digits: &dyn Array,
        output: &DataType,
    ) -> Result<ArrayRef> {
        let name = self.function.name();
        let (dtype, _) = decimal(values.data_type())?;
        if digits.len() != values.len() {
            return exec_err!("{name}: {} digits for {} values", digits.len(), values.len());
        }
        let digits = digits_as_i64(digits)?;
        let digits = digits.as_primitive::<Int64Type>();
        // At or beyond the scale a row stays as it is; left of every digit
        // by one more it is 0 (`|x| < 10^(p - s)` rounds to 0 at 10^(p-s+1)).
        let (p, s) = (i64::from(dtype.precision()), i64::from(dtype.scale()));
        let clamped = |i: usize| (digits.value(i).clamp(s - p - 1, s)) as i32;
        let valid = |i: usize| values.is_valid(i) && digits.is_valid(i);
        let mut sources: Vec<ArrayRef> = vec![new_null_array(output, 1)];
        let mut groups = BTreeMap::new();
        let mut picks = Vec::with_capacity(values.len());
        for i in 0..values.len() {
            let source = if valid(i) {
                let next = groups.len() + 1;
                *groups.entry(clamped(i)).or_insert(next)
            } else {
                0
            };
            picks.push((source, if source == 0 { 0 } else { i }));
        }
        sources.resize(groups.len() + 1, sources[0].clone());
        for (&d, &source) in &groups {
            let rows = BooleanBuffer::collect_bool(values.len(), |i| valid(i) && clamped(i) == d);
            let masked = values.to_data().into_builder().nulls(Some(NullBuffer::new(rows)));
            let masked = make_array(masked.build()?);
            let rounded = self.apply(masked.as_ref(), d)?;
            if rounded.data_type() == output {
                sources[source] = rounded;
                continue;
            }
            // A row rounded up past the most digits `output` holds (only
            // at the storage's most precision) becomes null here, and is
            // named as the crate names an overflow.
            let widened = decimal_kernels::arrow::cast(&rounded, output, &CastOptions::default())
                .map_err(|e| failed(name, e))?;
            if widened.null_count() > rounded.null_count() {
                let row = (0..values.len()).find(|&i| rounded.is_valid(i) && widened.is_null(i));
                let row = row.unwrap_or_default();
                let value = array_value_to_string(values, row)?;
                let (to, _) = decimal(output)?;
                let (p, s) = (to.precision(), to.scale());
                return exec_err!(
                    "{name}: overflow at row {row}: {value} rounded to {d} digits does not fit \
                     decimal({p},{s})"
                );
            }
            sources[source] = widened;
        }
        if groups.len() == 1 && values.null_count() + digits.null_count() == 0 {
            return Ok(sources.swap_remove(1));
        }
        let sources: Vec<&dyn Array> = sources.iter().map(AsRef::as_ref).collect();
        Ok(interleave(&sources, &picks)?)
    }
}

/// Digits of any integer type as `Int64`, a `UInt64` beyond `i64::MAX` as
/// `i64::MAX` (the same answer: digits that far right change nothing).
fn digits_as_i64(digits: &dyn Array) -> Result<ArrayRef> {
    match digits.data_type() {
        DataType::UInt64 => {
            let unsigned = digits.as_primitive::<UInt64Type>();
            let saturated =
                unsigned.unary::<_, Int64Type>(|d| i64::try_from(d).unwrap_or(i64::MAX));
            Ok(std::sync::Arc::new(saturated))
        }
        t if t.is_integer() => Ok(cast(digits, &DataType::Int64)?),
        t => plan_err!("digits are an integer, not {t}"),
    }
}

impl ScalarUDFImpl for Unary {
    fn name(&self) -> &str {
        self.function.name()
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    /// A null argument gives a null row.
    fn is_strict(&self) -> bool {
        true
    }

    /// A decimal as it is (and the digits as they are).
    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        match arg_types {
            [x] | [x, _] if x.is_decimal() => Ok(arg_types.to_vec()),
            _ => plan_err!("{} takes a decimal, not {arg_types:?}", self.name()),
        }
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        plan_err!("{}'s type is planned from its arguments", self.name())
    }

    /// The planned type of the function of the argument.
    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        let Some(input) = args.arg_fields.first() else {
            return plan_err!("{} takes a decimal", self.name());
        };
        let data_type = match self.digits(args.scalar_arguments.get(1).copied())? {
            Digits::Literal(digits) => self.plan(input.data_type(), digits)?.data_type(),
            Digits::PerRow => self.per_row_type(input.data_type())?,
        };
        let name = self.name();
        let may_be_null = self.profile.may_be_null();
        Ok(result_field(name, data_type, &args.arg_fields[..1], may_be_null))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let Some(first) = args.args.first() else {
            return plan_err!("{} takes a decimal", self.name());
        };
        let second = args.args.get(1).map(|d| match d {
            ColumnarValue::Scalar(s) => Some(s),
            ColumnarValue::Array(_) => None,
        });
        let argument = Argument::new(first)?;
        let values = match (self.digits(second)?, args.args.get(1)) {
            (Digits::PerRow, Some(ColumnarValue::Array(digits))) => {
                let output = args.return_field.data_type();
                let values = argument.values();
                // A literal decimal beside a column of digits: one row each.
                let values = if argument.is_scalar() {
                    let scalar = ScalarValue::try_from_array(values, 0)?;
                    scalar.to_array_of_size(digits.len())?
                } else {
                    values.slice(0, values.len())
                };
                return Ok(ColumnarValue::Array(self.apply_per_row(&values, digits, output)?));
            }
            (Digits::Literal(digits), _) => self.apply(argument.values(), digits)?,
            (Digits::PerRow, _) => return plan_err!("{} takes digits", self.name()),
        };
        result(values, &[argument])
    }
}
