//! The options a registration runs under, resolved for each call: the Arrow
//! profile takes the width of the call's operands (`Decimal128` operands,
//! `Decimal128` arithmetic), every other profile is used as given.

use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, plan_err};
use decimal_kernels::{ArithmeticOptions, DecimalType, OverflowPolicy, Semantics, StorageWidth};

/// A registration's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Profile(ArithmeticOptions);

impl Profile {
    /// The profile of `options`.
    pub(crate) fn new(options: ArithmeticOptions) -> Self {
        Self(options)
    }

    /// Whether this is the Arrow profile, whose result types are DataFusion's.
    pub(crate) fn is_arrow(self) -> bool {
        matches!(self.0.semantics(), Semantics::Arrow { .. })
    }

    /// Whether a failing row is a null row rather than an error.
    pub(crate) fn may_be_null(self) -> bool {
        self.0.on_overflow() == OverflowPolicy::Null
            || self.0.on_divide_by_zero() == OverflowPolicy::Null
    }

    /// The options for operands stored at `width`: the Arrow profile at that
    /// width with the registration's policies, any other profile unchanged.
    pub(crate) fn at(self, width: StorageWidth) -> ArithmeticOptions {
        if !self.is_arrow() {
            return self.0;
        }
        ArithmeticOptions::arrow(width)
            .with_rounding(self.0.rounding())
            .with_on_overflow(self.0.on_overflow())
            .with_on_divide_by_zero(self.0.on_divide_by_zero())
    }

    /// [`Self::at`] the widest of `types`' Arrow decimal widths.
    pub(crate) fn for_types(self, types: &[&DataType]) -> Result<ArithmeticOptions> {
        let mut width = StorageWidth::I32;
        for t in types {
            width = width.max(decimal(t)?.1);
        }
        Ok(self.at(width))
    }
}

/// The decimal type and Arrow width of `data_type`, as a planning error for
/// any other type.
pub(crate) fn decimal(data_type: &DataType) -> Result<(DecimalType, StorageWidth)> {
    match decimal_kernels::arrow::decimal_type(data_type) {
        Ok(t) => Ok(t),
        Err(e) => plan_err!("a decimal argument expected, not {data_type}: {e}"),
    }
}
