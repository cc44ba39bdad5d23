//! `CAST` and `TRY_CAST` to and from decimals as the scalar functions
//! `decimal_cast(x, 'type')` and `decimal_try_cast(x, 'type')`, the target
//! type as Arrow writes it (`'Decimal128(15, 2)'`), so a plan that names
//! them can be written and read back as text or by a remote process.
//!
//! They run a `decimal_kernels::arrow::CastPlan` (one per pair of types, made
//! once, as `cast_with` would make it) under the registration's
//! profile: decimal ↔ decimal, integers, floats and strings, exact and
//! rounded once. Under the Arrow profile that is arrow-cast's rules (half
//! away from zero), and `CAST` fails on a value that does not fit as
//! DataFusion's does; under another profile its engine's rules, `CAST`
//! following the profile's overflow policy (Spark's: a null row). `TRY_CAST`
//! gives a null row in every profile.

use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility,
};
use std::str::FromStr;
use std::sync::Arc;

use decimal_kernels::arrow::CastPlan;
use decimal_kernels::{ArithmeticOptions, OverflowPolicy, StorageWidth};

use crate::plans::PlanCache;
use crate::profile::{Profile, decimal};
use crate::values::{Argument, failed, result, result_field};

/// Whether this crate casts `from` to `to`: one side a decimal, the other a
/// decimal, an integer, a float or a string.
pub(crate) fn casts(from: &DataType, to: &DataType) -> bool {
    let other = |t: &DataType| {
        t.is_decimal()
            || t.is_integer()
            || matches!(t, DataType::Float32 | DataType::Float64)
            || matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
    };
    (from.is_decimal() && other(to)) || (to.is_decimal() && other(from))
}

/// `CAST` (`safe: false`) or `TRY_CAST` (`safe: true`), with the plans made
/// for the pairs of types met: one per expression.
#[derive(Debug)]
pub(crate) struct Cast {
    safe: bool,
    profile: Profile,
    signature: Signature,
    plans: PlanCache<(DataType, DataType), CastPlan<'static>>,
}

/// The identity of a function: `CAST` or `TRY_CAST`, and the profile (the
/// plans it made follow from them).
impl PartialEq for Cast {
    fn eq(&self, other: &Self) -> bool {
        (self.safe, self.profile) == (other.safe, other.profile)
    }
}

impl Eq for Cast {}

impl std::hash::Hash for Cast {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.safe, self.profile).hash(state);
    }
}

impl Cast {
    /// `TRY_CAST` when `safe`, `CAST` otherwise, under `profile`.
    pub(crate) fn new(safe: bool, profile: Profile) -> Self {
        let signature = Signature::user_defined(Volatility::Immutable);
        Self { safe, profile, signature, plans: PlanCache::default() }
    }

    /// The plan of this cast from `from` to `to`.
    fn plan(&self, from: &DataType, to: &DataType) -> Result<Arc<CastPlan<'static>>> {
        self.plans.get((from.clone(), to.clone()), || {
            // One side is a decimal: its width is the one an Arrow profile
            // runs at.
            let width = decimal(from).or_else(|_| decimal(to)).map(|(_, w)| w)?;
            CastPlan::with_profile(from, to, &self.options(width))
                .map_err(|e| failed(self.name(), e))
        })
    }

    /// The options of a cast to or from an Arrow width: the profile's, with
    /// a null row for a value that does not fit under `TRY_CAST`.
    fn options(&self, width: StorageWidth) -> ArithmeticOptions {
        let options = self.profile.at(width);
        if self.safe { options.with_on_overflow(OverflowPolicy::Null) } else { options }
    }

    /// The function's name for `safe`.
    pub(crate) fn name_for(safe: bool) -> &'static str {
        if safe { "decimal_try_cast" } else { "decimal_cast" }
    }

    /// The target type a call names.
    fn target(&self, name: Option<&ScalarValue>) -> Result<DataType> {
        let text = match name {
            Some(ScalarValue::Utf8(Some(t)) | ScalarValue::Utf8View(Some(t))) => t,
            _ => return plan_err!("{} takes the target type as a text literal", self.name()),
        };
        match DataType::from_str(text) {
            Ok(t) => Ok(t),
            Err(e) => plan_err!("{}: no Arrow type {text:?}: {e}", self.name()),
        }
    }
}

impl ScalarUDFImpl for Cast {
    fn name(&self) -> &str {
        Self::name_for(self.safe)
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    /// A null argument gives a null row.
    fn is_strict(&self) -> bool {
        true
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        match arg_types {
            [_, DataType::Utf8 | DataType::Utf8View] => Ok(arg_types.to_vec()),
            _ => plan_err!("{} takes a value and a type name, not {arg_types:?}", self.name()),
        }
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        plan_err!("{}'s type is planned from its arguments", self.name())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        let to = self.target(args.scalar_arguments.get(1).copied().flatten())?;
        match args.arg_fields.first() {
            Some(from) if casts(from.data_type(), &to) => {}
            _ => return plan_err!("{} casts to or from decimals, not {args:?}", self.name()),
        }
        // A value that does not fit is a null row under `TRY_CAST`, and
        // under `CAST` where the profile says so.
        let may_be_null = self.safe || self.profile.may_be_null();
        Ok(result_field(self.name(), to, &args.arg_fields[..1], may_be_null))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let Some(value) = args.args.first() else {
            return plan_err!("{} takes a value and a type name", self.name());
        };
        let argument = Argument::new(value)?;
        let from = argument.values();
        let plan = self.plan(from.data_type(), args.return_type())?;
        let cast = plan.run(from).map_err(|e| failed(self.name(), e))?;
        result(cast, &[argument])
    }
}
