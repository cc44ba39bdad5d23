//! [`cast`](super::cast) and [`cast_with`](super::cast_with) between Arrow
//! decimals and `Int8`..`Int64`, `UInt8`..`UInt64`, `Float32`, `Float64`:
//! this crate's casts ([`crate::cast`]) under the plan's [`CastRules`]:
//! arrow-cast's (the Arrow profile, `CastOptions::safe` as the overflow
//! policy, arrow-cast's errors) or a profile's (its options, the crate's
//! errors), with arrow-cast's result types.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, PrimitiveArray};
use arrow_buffer::i256;
use arrow_schema::{ArrowError, DataType};
use num_bigint::BigInt;

use crate::arrow::cast_checks::{
    CastFn, CastRules, at_arrow_width, overflow_error, validate_arrow_decimal,
};
use crate::arrow::convert::{decimal_type, decimal_width};
use crate::cast::{self, CastFloat, CastInteger};
use crate::rules::numeric_cast::{float_fraction, fraction_at_scale};
use crate::rules::reference::rescaled;
use crate::types::{DecimalError, RoundingMode};
use crate::values::text::{bigint_to_i256, i256_to_bigint, pow10};
use crate::values::{DecimalArray, DecimalNative};

/// The cast from `from` to `to` when one is an Arrow decimal and the other
/// an integer or a `Float32`/`Float64`; `None` for any other pair.
pub(super) fn number_route(from: &DataType, to: &DataType) -> Option<CastFn> {
    use DataType::{Float32, Float64, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64};
    if decimal_width(from).is_some() {
        return Some(match to {
            Int8 => to_integer::<Int8Type>,
            Int16 => to_integer::<Int16Type>,
            Int32 => to_integer::<Int32Type>,
            Int64 => to_integer::<Int64Type>,
            UInt8 => to_integer::<UInt8Type>,
            UInt16 => to_integer::<UInt16Type>,
            UInt32 => to_integer::<UInt32Type>,
            UInt64 => to_integer::<UInt64Type>,
            Float32 => to_float::<Float32Type>,
            Float64 => to_float::<Float64Type>,
            _ => return None,
        });
    }
    decimal_width(to)?;
    Some(match from {
        Int8 => from_integer::<Int8Type>,
        Int16 => from_integer::<Int16Type>,
        Int32 => from_integer::<Int32Type>,
        Int64 => from_integer::<Int64Type>,
        UInt8 => from_integer::<UInt8Type>,
        UInt16 => from_integer::<UInt16Type>,
        UInt32 => from_integer::<UInt32Type>,
        UInt64 => from_integer::<UInt64Type>,
        Float32 => from_float::<Float32Type>,
        Float64 => from_float::<Float64Type>,
        _ => return None,
    })
}

fn to_integer<A: ArrowPrimitiveType>(
    array: &dyn Array,
    _: &DataType,
    rules: CastRules,
) -> Result<ArrayRef, ArrowError>
where
    A::Native: CastInteger,
{
    let decimals = DecimalArray::from_arrow(array)?;
    match cast::to_integer::<A::Native>(&decimals, &rules.options(decimals.width())) {
        Ok(rows) => {
            let (values, nulls) = rows.into_parts();
            Ok(Arc::new(PrimitiveArray::<A>::new(values, nulls)))
        }
        Err(DecimalError::CastOverflow { row, .. }) if rules.arrow_errors() => {
            // arrow-cast's message names the truncated integer.
            let value = decimals.values().get(row).unwrap_or(i256::ZERO);
            let scale = decimals.dtype().scale();
            let value = i256_to_bigint(value);
            let truncated = rescaled(&value, scale, 0, RoundingMode::TowardZero);
            if scale < 0 && !native_fits(array.data_type(), &truncated) {
                // arrow-cast first multiplies in the decimal's own integer.
                let factor = pow10(u32::from(scale.unsigned_abs()));
                return Err(multiply_overflow(&value, &factor));
            }
            Err(ArrowError::CastError(format!(
                "value of {truncated} is out of range {}",
                A::DATA_TYPE
            )))
        }
        Err(e) => Err(e.into()),
    }
}

fn to_float<A: ArrowPrimitiveType>(
    array: &dyn Array,
    _: &DataType,
    rules: CastRules,
) -> Result<ArrayRef, ArrowError>
where
    A::Native: CastFloat,
{
    let decimals = DecimalArray::from_arrow(array)?;
    let options = rules.options(decimals.width());
    let (values, nulls) = cast::to_float::<A::Native>(&decimals, &options)?.into_parts();
    Ok(Arc::new(PrimitiveArray::<A>::new(values, nulls)))
}

fn from_integer<A: ArrowPrimitiveType>(
    array: &dyn Array,
    to_type: &DataType,
    rules: CastRules,
) -> Result<ArrayRef, ArrowError>
where
    A::Native: CastInteger,
{
    validate_arrow_decimal(to_type)?;
    let (to, width) = decimal_type(to_type)?;
    let integers = primitive::<A>(array)?;
    let options = rules.options(width);
    let nulls = integers.nulls().cloned();
    match cast::from_integer(integers.values().clone(), nulls, to, &options) {
        Ok(decimals) => at_arrow_width(&decimals, width),
        Err(DecimalError::CastOverflow { row, value, .. }) if rules.arrow_errors() => {
            let integer = BigInt::from(integers.value(row).to_i128());
            let exact = rescaled(&integer, 0, to.scale(), RoundingMode::HalfUp);
            if to.scale() >= 0 && native_fits(to_type, &integer) && !native_fits(to_type, &exact) {
                // arrow-cast multiplies in the decimal's integer, checked.
                let factor = pow10(u32::from(to.scale().unsigned_abs()));
                return Err(multiply_overflow(&integer, &factor));
            }
            Err(overflow_error(to_type, bigint_to_i256(&exact), &value))
        }
        Err(e) => Err(e.into()),
    }
}

fn from_float<A: ArrowPrimitiveType>(
    array: &dyn Array,
    to_type: &DataType,
    rules: CastRules,
) -> Result<ArrayRef, ArrowError>
where
    A::Native: CastFloat,
{
    validate_arrow_decimal(to_type)?;
    let (to, width) = decimal_type(to_type)?;
    let floats = primitive::<A>(array)?;
    let options = rules.options(width);
    let nulls = floats.nulls().cloned();
    match cast::from_float(floats.values().clone(), nulls, to, &options) {
        Ok(decimals) => at_arrow_width(&decimals, width),
        Err(DecimalError::CastOverflow { row, .. }) if rules.arrow_errors() => {
            let x = floats.value(row).widened();
            let exact = float_fraction(x)
                .map(|(n, d)| fraction_at_scale(&n, &d, to.scale(), RoundingMode::HalfUp));
            Err(overflow_error(to_type, exact.as_ref().and_then(bigint_to_i256), &format!("{x:?}")))
        }
        Err(e) => Err(e.into()),
    }
}

/// `array` as the primitive array its data type says it is.
fn primitive<A: ArrowPrimitiveType>(array: &dyn Array) -> Result<&PrimitiveArray<A>, ArrowError> {
    array.as_primitive_opt::<A>().ok_or_else(|| {
        ArrowError::CastError(format!(
            "expected a {} array, found {}",
            A::DATA_TYPE,
            array.data_type()
        ))
    })
}

/// Whether `value` fits the native integer of the Arrow decimal `data_type`.
fn native_fits(data_type: &DataType, value: &BigInt) -> bool {
    let Some(value) = bigint_to_i256(value) else {
        return false;
    };
    match data_type {
        DataType::Decimal32(..) => i32::from_i256(value).is_some(),
        DataType::Decimal64(..) => i64::from_i256(value).is_some(),
        DataType::Decimal128(..) => i128::from_i256(value).is_some(),
        _ => true,
    }
}

/// arrow-rs's error for a checked product that overflows its integer.
fn multiply_overflow(value: &BigInt, factor: &BigInt) -> ArrowError {
    ArrowError::ArithmeticOverflow(format!("Overflow happened on: {value} * {factor}"))
}
