//! Each profile's storage: the width a result of a type is stored at.

use crate::rules::profiles::rules;
use crate::types::{ArithmeticOptions, DecimalType, Semantics, StorageWidth};

/// Who chose the storage width of a call's result.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ResultStorage {
    /// The profile: FixedPoint the narrowest width for the type, Arrow its
    /// own width, Spark and Presto `i128` (`i256` for a wider type).
    Profile,
    /// The `arrow` module for operands of Arrow widths up to this one: the
    /// profile's width, FixedPoint's at least as wide as the wider operand,
    /// and never below `Decimal32`.
    ArrowOperands(StorageWidth),
    /// The caller (an Arrow type it asked for): exactly this width.
    Exact(StorageWidth),
}

/// The width a result of type `result` is stored at, `None` when the width
/// chosen cannot hold it (or the profile names a width Arrow does not have).
pub(crate) fn result_width(
    result: DecimalType,
    storage: ResultStorage,
    options: &ArithmeticOptions,
) -> Option<StorageWidth> {
    let needed = result.storage_width();
    match storage {
        ResultStorage::Profile => profile_width(result, options),
        ResultStorage::ArrowOperands(operands) => {
            // The profile's result types always fit its storage; the
            // fallback only keeps this total.
            let width = profile_width(result, options).unwrap_or(needed);
            let width = match options.semantics() {
                Semantics::FixedPoint => width.max(operands),
                _ => width,
            };
            Some(width.max(StorageWidth::I32))
        }
        ResultStorage::Exact(width) => (needed <= width).then_some(width),
    }
}

/// The profile's width for results of type `result`.
fn profile_width(result: DecimalType, options: &ArithmeticOptions) -> Option<StorageWidth> {
    rules(options).get().stored_width(result.storage_width())
}

/// The width a refusal names: the one the profile or the caller chose.
pub(crate) fn refused_width(
    result: DecimalType,
    storage: ResultStorage,
    options: &ArithmeticOptions,
) -> StorageWidth {
    match (storage, options.semantics()) {
        (ResultStorage::Exact(width), _) | (_, Semantics::Arrow { width }) => width,
        _ => result.storage_width(),
    }
}
