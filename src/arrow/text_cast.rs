//! [`cast`](super::cast) and [`cast_with`](super::cast_with) between Arrow
//! strings (`Utf8`, `LargeUtf8`, `Utf8View`) and Arrow decimals
//! (`Decimal32/64/128/256`): reading through [`crate::cast::parse`] under the
//! plan's [`CastRules`] (arrow-cast's: the Arrow profile, half away from
//! zero, arrow-cast's errors; or a profile's), writing through
//! [`crate::cast::format`] (arrow-cast's text, the same in every profile).

use std::sync::Arc;

use arrow_array::builder::{GenericStringBuilder, StringViewBuilder};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, OffsetSizeTrait};
use arrow_schema::{ArrowError, DataType};

use crate::arrow::cast_checks::{CastFn, CastRules, validate_arrow_decimal};
use crate::arrow::convert::{decimal_type, decimal_width};
use crate::cast::{NOT_A_NUMBER, format, parse_stored};
use crate::rules::storage::ResultStorage;
use crate::types::DecimalError;
use crate::values::DecimalArray;

/// Whether `data_type` is one of Arrow's three string types.
fn is_text(data_type: &DataType) -> bool {
    matches!(data_type, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

/// The cast from `from` to `to` when one is an Arrow string type and the
/// other an Arrow decimal; `None` for any other pair.
pub(super) fn text_route(from: &DataType, to: &DataType) -> Option<CastFn> {
    if is_text(from) && decimal_width(to).is_some() {
        Some(text_to_decimal)
    } else if decimal_width(from).is_some() && is_text(to) {
        Some(decimal_to_text)
    } else {
        None
    }
}

/// The string rows of `array` read as decimals of `to_type`, stored at its
/// Arrow width (the values [`crate::cast::parse`] gives, whatever width the
/// profile would store them at).
fn text_to_decimal(
    array: &dyn Array,
    to_type: &DataType,
    rules: CastRules,
) -> Result<ArrayRef, ArrowError> {
    validate_arrow_decimal(to_type)?;
    let (to, width) = decimal_type(to_type)?;
    let read = rules.options(width);
    let storage = ResultStorage::Exact(width);
    let parsed = match array.data_type() {
        DataType::Utf8 => parse_stored(array.as_string::<i32>().iter(), to, &read, storage),
        DataType::LargeUtf8 => parse_stored(array.as_string::<i64>().iter(), to, &read, storage),
        _ => parse_stored(array.as_string_view().iter(), to, &read, storage),
    };
    match parsed {
        Ok(decimals) => Ok(decimals.to_arrow()),
        // arrow-cast's message for a row that fails a cast from strings.
        Err(DecimalError::Parse { text, reason, .. }) if rules.arrow_errors() => {
            let why = if reason == NOT_A_NUMBER {
                "invalid decimal format"
            } else {
                "value does not fit"
            };
            Err(ArrowError::CastError(format!(
                "Cannot cast string '{text}' to value of {to_type} type: {why}"
            )))
        }
        Err(e) => Err(e.into()),
    }
}

/// The decimals of `array` as arrow-cast's text, in an array of `to_type`.
fn decimal_to_text(
    array: &dyn Array,
    to_type: &DataType,
    _: CastRules,
) -> Result<ArrayRef, ArrowError> {
    let decimals = DecimalArray::from_arrow(array)?;
    // Most texts are the precision's digits, a sign and a point.
    let bytes = decimals.len() * (usize::from(decimals.dtype().precision()) + 2);
    match to_type {
        DataType::Utf8 => offset_text::<i32>(&decimals, bytes),
        DataType::LargeUtf8 => offset_text::<i64>(&decimals, bytes),
        _ => {
            let mut builder = StringViewBuilder::with_capacity(decimals.len());
            format(&decimals, |text| builder.append_option(text));
            Ok(Arc::new(builder.finish()))
        }
    }
}

/// The texts of `decimals` in a string array with offsets `O`.
///
/// # Errors
/// [`ArrowError::OffsetOverflowError`] when the texts are more bytes than
/// `O` can address (where arrow-rs's builder would panic).
fn offset_text<O: OffsetSizeTrait>(
    decimals: &DecimalArray,
    bytes: usize,
) -> Result<ArrayRef, ArrowError> {
    let limit = O::MAX_OFFSET;
    let mut builder = GenericStringBuilder::<O>::with_capacity(decimals.len(), bytes.min(limit));
    let mut total = 0_usize;
    format(decimals, |text| {
        total = total.saturating_add(text.map_or(0, str::len));
        if total <= limit {
            builder.append_option(text);
        }
    });
    if total > limit {
        return Err(ArrowError::OffsetOverflowError(total));
    }
    Ok(Arc::new(builder.finish()))
}
