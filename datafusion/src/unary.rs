//! The functions of one decimal as scalar functions: unary minus
//! (`decimal_neg`), `decimal_abs`, and `decimal_round`, `decimal_floor`,
//! `decimal_ceil`, `decimal_trunc` to a literal number of digits (0 when
//! omitted).
//!
//! Result types are the profile's. Under the Arrow profile they are
//! DataFusion's: `round` changes the type as DataFusion's does, and `floor`,
//! `ceil` and `trunc` keep the argument's type (DataFusion 55 returns
//! `floor(x)` of a `decimal(p, s)` as `decimal(p, s)`), so the rounded value
//! is rescaled back to it, which can overflow only where DataFusion's does
//! (`floor(-9.5)` in `decimal(2, 1)`).

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::compute::CastOptions;
use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{Result, ScalarValue, plan_err};
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

    /// The digits of a call's arguments: the second one, a literal integer,
    /// or 0 without one.
    fn digits(&self, second: Option<Option<&ScalarValue>>) -> Result<i32> {
        match second {
            None => Ok(0),
            Some(Some(value)) if self.function.takes_digits() => match literal_digits(value) {
                Some(d) => Ok(d),
                None => plan_err!("{} takes an integer literal of digits", self.function.name()),
            },
            Some(_) => plan_err!("{} takes a literal number of digits", self.function.name()),
        }
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
        let digits = self.digits(args.scalar_arguments.get(1).copied())?;
        let call = self.plan(input.data_type(), digits)?;
        let (name, data_type) = (self.name(), call.data_type());
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
        let digits = self.digits(second)?;
        let argument = Argument::new(first)?;
        let values = self.apply(argument.values(), digits)?;
        result(values, &[argument])
    }
}
