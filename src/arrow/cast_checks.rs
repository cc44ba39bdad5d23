//! arrow-rs's checks of an Arrow decimal target and arrow-cast's errors for
//! a value that does not fit it, shared by every cast into decimals
//! (`cast.rs`, `number_cast.rs`, `text_cast.rs`) so each fails as arrow-cast
//! does.

use arrow_array::types::{
    Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type, DecimalType as ArrowDecimalType,
    validate_decimal_precision_and_scale,
};
use arrow_buffer::i256;
use arrow_schema::{ArrowError, DataType};

use crate::values::DecimalNative;

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
