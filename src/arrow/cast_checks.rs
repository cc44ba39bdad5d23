//! What the casts on Arrow arrays share (`cast.rs`, `profile_cast.rs`,
//! `number_cast.rs`, `text_cast.rs`): the rules a call follows
//! ([`CastRules`]: arrow-cast's, or a profile's), arrow-rs's checks of an
//! Arrow decimal target, and arrow-cast's errors for a value that does not
//! fit it, so each cast under arrow-cast's rules fails as arrow-cast does.

use arrow_array::types::{
    Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type, DecimalType as ArrowDecimalType,
    validate_decimal_precision_and_scale,
};
use arrow_buffer::i256;
use arrow_schema::{ArrowError, DataType};

use crate::types::{ArithmeticOptions, OverflowPolicy, StorageWidth};
use crate::values::{DecimalArray, DecimalNative};

/// The cast of one pair of types, chosen when a cast is planned: `array`
/// (of the planned source type) to `to_type` under the rules.
pub(super) type CastFn =
    fn(&dyn arrow_array::Array, &DataType, CastRules) -> Result<arrow_array::ArrayRef, ArrowError>;

/// The rules of one cast on Arrow arrays, held by its
/// [`CastPlan`](super::CastPlan) and passed to the cast of its pair of types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CastRules {
    /// arrow-cast's ([`cast`](super::cast)): the Arrow profile at the Arrow
    /// width of the decimal side, the overflow policy from
    /// `CastOptions::safe`, and arrow-cast's error for a failing row.
    ArrowCast(OverflowPolicy),
    /// A profile's ([`cast_with`](super::cast_with)): the native cast with
    /// these options, and the crate's error converted to an `ArrowError`.
    Profile(ArithmeticOptions),
}

impl CastRules {
    /// The options of the native cast whose decimal side has Arrow width
    /// `width`.
    pub(super) fn options(self, width: StorageWidth) -> ArithmeticOptions {
        match self {
            Self::ArrowCast(policy) => ArithmeticOptions::arrow(width).with_on_overflow(policy),
            Self::Profile(options) => options,
        }
    }

    /// Whether a failing row is reported with arrow-cast's error.
    pub(super) fn arrow_errors(self) -> bool {
        matches!(self, Self::ArrowCast(_))
    }
}

/// The decimals a cast computed, as an Arrow array of their type at the
/// Arrow width `width` (the target's): a profile stores at its own width
/// (Spark and Presto `i128`, FixedPoint the narrowest), so the stored
/// integers are converted, exactly, where that width differs; a cast checked
/// every value against the target precision, which `width` holds.
pub(super) fn at_arrow_width(
    decimals: &DecimalArray,
    width: StorageWidth,
) -> Result<arrow_array::ArrayRef, ArrowError> {
    if decimals.width() == width {
        return Ok(decimals.to_arrow());
    }
    Ok(decimals.with_width(width)?.to_arrow())
}

/// arrow-rs's own check of a decimal type against its width (the check and
/// the error arrow-cast's result goes through).
pub(super) fn validate_arrow_decimal(data_type: &DataType) -> Result<(), ArrowError> {
    match *data_type {
        DataType::Decimal32(p, s) => validate_decimal_precision_and_scale::<Decimal32Type>(p, s),
        DataType::Decimal64(p, s) => validate_decimal_precision_and_scale::<Decimal64Type>(p, s),
        DataType::Decimal128(p, s) => validate_decimal_precision_and_scale::<Decimal128Type>(p, s),
        DataType::Decimal256(p, s) => validate_decimal_precision_and_scale::<Decimal256Type>(p, s),
        _ => Ok(()),
    }
}

/// arrow-rs's precision error for the cast value `exact` when it fits the
/// native integer of `T`, arrow-cast's overflow error naming the source
/// `value` when it does not.
pub(super) fn precision_error<T: ArrowDecimalType>(
    exact: Option<i256>,
    value: &dyn core::fmt::Display,
    p: u8,
    s: i8,
) -> ArrowError
where
    T::Native: DecimalNative,
{
    let overflow = || {
        ArrowError::CastError(format!(
            "Cannot cast to {}({p}, {s}). Overflowing on {value}",
            T::PREFIX
        ))
    };
    let exact = exact.and_then(<T::Native as DecimalNative>::from_i256);
    exact.and_then(|v| T::validate_decimal_precision(v, p, s).err()).unwrap_or_else(overflow)
}

/// arrow-cast's error for a value cast into `to_type` that does not fit:
/// its precision error when the cast value `exact` fits the target's native
/// integer, its overflow error naming the source `value` otherwise.
pub(super) fn overflow_error(
    to_type: &DataType,
    exact: Option<i256>,
    value: &dyn core::fmt::Display,
) -> ArrowError {
    match *to_type {
        DataType::Decimal32(p, s) => precision_error::<Decimal32Type>(exact, value, p, s),
        DataType::Decimal64(p, s) => precision_error::<Decimal64Type>(exact, value, p, s),
        DataType::Decimal128(p, s) => precision_error::<Decimal128Type>(exact, value, p, s),
        DataType::Decimal256(p, s) => precision_error::<Decimal256Type>(exact, value, p, s),
        _ => ArrowError::CastError(format!("Cannot cast to {to_type}. Overflowing on {value}")),
    }
}
