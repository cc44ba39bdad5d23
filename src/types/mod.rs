//! The vocabulary every layer shares: decimal types and storage widths, the
//! operators, the options that pick a profile, and the errors.

pub(crate) mod decimal_type;
pub(crate) mod error;
pub(crate) mod ops;
pub(crate) mod options;
pub(crate) mod round;
mod type_range;

pub use decimal_type::{DecimalType, MAX_PRECISION, StorageWidth};
pub use error::DecimalError;
pub use ops::{AggregateOp, BinaryOp, CompareOp, UnaryOp};
pub use options::{ArithmeticOptions, OverflowPolicy, RoundingMode, Semantics};
pub use round::RoundFunction;
