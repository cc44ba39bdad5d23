//! [`cast`](super::cast) between Arrow decimals and `Int8`..`Int64`,
//! `UInt8`..`UInt64`, `Float32`, `Float64`: this crate's casts
//! ([`crate::cast`]) under the Arrow profile, with arrow-cast's result types,
//! `CastOptions::safe` as the overflow policy (null or error), and
//! arrow-cast's errors.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, PrimitiveArray};
use arrow_buffer::i256;
use arrow_cast::CastOptions;
use arrow_schema::{ArrowError, DataType};
use num_bigint::BigInt;

use crate::arrow::cast_checks::{overflow_error, validate_arrow_decimal};
use crate::arrow::convert::{decimal_type, decimal_width};
use crate::cast::{self, CastFloat, CastInteger};
use crate::rules::numeric_cast::{float_fraction, fraction_at_scale};
use crate::rules::reference::rescaled;
use crate::types::{ArithmeticOptions, DecimalError, OverflowPolicy, RoundingMode};
use crate::values::text::{bigint_to_i256, i256_to_bigint, pow10};
use crate::values::{DecimalArray, DecimalNative};

/// The cast of `array` to `to_type` when one is an Arrow decimal and the
/// other an integer or a `Float32`/`Float64`; `None` for any other pair.
pub(super) fn number_cast(
    array: &dyn Array,
    to_type: &DataType,
    options: &CastOptions<'_>,
) -> Option<Result<ArrayRef, ArrowError>> {
    use DataType::{Float32, Float64, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64};
    let policy = if options.safe { OverflowPolicy::Null } else { OverflowPolicy::Error };
    if decimal_width(array.data_type()).is_some() {
        return Some(match to_type {
            Int8 => to_integer::<Int8Type>(array, policy),
            Int16 => to_integer::<Int16Type>(array, policy),
            Int32 => to_integer::<Int32Type>(array, policy),
            Int64 => to_integer::<Int64Type>(array, policy),
            UInt8 => to_integer::<UInt8Type>(array, policy),
            UInt16 => to_integer::<UInt16Type>(array, policy),
            UInt32 => to_integer::<UInt32Type>(array, policy),
            UInt64 => to_integer::<UInt64Type>(array, policy),
            Float32 => to_float::<Float32Type>(array),
            Float64 => to_float::<Float64Type>(array),
            _ => return None,
        });
    }
    decimal_width(to_type)?;
    Some(match array.data_type() {
        Int8 => from_integer::<Int8Type>(array, to_type, policy),
        Int16 => from_integer::<Int16Type>(array, to_type, policy),
        Int32 => from_integer::<Int32Type>(array, to_type, policy),
        Int64 => from_integer::<Int64Type>(array, to_type, policy),
        UInt8 => from_integer::<UInt8Type>(array, to_type, policy),
        UInt16 => from_integer::<UInt16Type>(array, to_type, policy),
        UInt32 => from_integer::<UInt32Type>(array, to_type, policy),
        UInt64 => from_integer::<UInt64Type>(array, to_type, policy),
        Float32 => from_float::<Float32Type>(array, to_type, policy),
        Float64 => from_float::<Float64Type>(array, to_type, policy),
        _ => return None,
    })
}

/// The Arrow profile at the decimals' width, with `policy` for overflow.
fn arrow_options(decimals: &DecimalArray, policy: OverflowPolicy) -> ArithmeticOptions {
    ArithmeticOptions::arrow(decimals.width()).with_on_overflow(policy)
}

fn to_integer<A: ArrowPrimitiveType>(
    array: &dyn Array,
    policy: OverflowPolicy,
) -> Result<ArrayRef, ArrowError>
where
    A::Native: CastInteger,
{
    let decimals = DecimalArray::from_arrow(array)?;
    match cast::to_integer::<A::Native>(&decimals, &arrow_options(&decimals, policy)) {
        Ok(rows) => {
            let (values, nulls) = rows.into_parts();
            Ok(Arc::new(PrimitiveArray::<A>::new(values, nulls)))
        }
        Err(DecimalError::CastOverflow { row, .. }) => {
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

fn to_float<A: ArrowPrimitiveType>(array: &dyn Array) -> Result<ArrayRef, ArrowError>
where
    A::Native: CastFloat,
{
    let decimals = DecimalArray::from_arrow(array)?;
    let options = arrow_options(&decimals, OverflowPolicy::Null);
    let (values, nulls) = cast::to_float::<A::Native>(&decimals, &options)?.into_parts();
    Ok(Arc::new(PrimitiveArray::<A>::new(values, nulls)))
}

fn from_integer<A: ArrowPrimitiveType>(
    array: &dyn Array,
    to_type: &DataType,
    policy: OverflowPolicy,
) -> Result<ArrayRef, ArrowError>
where
    A::Native: CastInteger,
{
    validate_arrow_decimal(to_type)?;
    let (to, width) = decimal_type(to_type)?;
    let integers = primitive::<A>(array)?;
    let options = ArithmeticOptions::arrow(width).with_on_overflow(policy);
    let nulls = integers.nulls().cloned();
    match cast::from_integer(integers.values().clone(), nulls, to, &options) {
        Ok(decimals) => Ok(decimals.to_arrow()),
        Err(DecimalError::CastOverflow { row, value, .. }) => {
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
    policy: OverflowPolicy,
) -> Result<ArrayRef, ArrowError>
where
    A::Native: CastFloat,
{
    validate_arrow_decimal(to_type)?;
    let (to, width) = decimal_type(to_type)?;
    let floats = primitive::<A>(array)?;
    let options = ArithmeticOptions::arrow(width).with_on_overflow(policy);
    let nulls = floats.nulls().cloned();
    match cast::from_float(floats.values().clone(), nulls, to, &options) {
        Ok(decimals) => Ok(decimals.to_arrow()),
        Err(DecimalError::CastOverflow { row, .. }) => {
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
