//! The one error type of the crate.

use core::fmt;

use crate::options::BinaryOp;
use crate::types::{DecimalType, StorageWidth};

/// Everything that can go wrong, each naming what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecimalError {
    /// A precision outside `1..=76` or a scale outside `-76..=precision`.
    InvalidType {
        /// The precision asked for.
        precision: i32,
        /// The scale asked for.
        scale: i32,
    },
    /// A result exceeded its precision under the `Error` overflow policy.
    Overflow {
        /// The first failing row (0 for a scalar).
        row: usize,
        /// The result type whose precision was exceeded.
        result_type: DecimalType,
    },
    /// A divisor was zero under the `Error` division-by-zero policy.
    DivideByZero {
        /// The first failing row (0 for a scalar).
        row: usize,
    },
    /// Two operands, or values and validity, of different lengths.
    LengthMismatch {
        /// The length required.
        expected: usize,
        /// The length found.
        actual: usize,
    },
    /// A slice reaching past the end of an array.
    OutOfBounds {
        /// The slice's first row.
        offset: usize,
        /// The slice's length.
        len: usize,
        /// The array's length.
        array_len: usize,
    },
    /// Text that is not a decimal of the type.
    Parse {
        /// Its row (0 for a scalar).
        row: usize,
        /// The text.
        text: String,
        /// The type it was parsed as.
        dtype: DecimalType,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A stored value beyond its type's precision, or beyond a narrower storage.
    ValueOutOfRange {
        /// Its row (0 for a scalar).
        row: usize,
        /// The stored integer.
        value: String,
        /// The type it was checked against.
        dtype: DecimalType,
    },
    /// A storage width narrower than the type's precision needs.
    StorageTooNarrow {
        /// The type.
        dtype: DecimalType,
        /// The width asked for.
        width: StorageWidth,
    },
    /// The profile has no result type for these operands.
    UnsupportedTypes {
        /// The operator.
        op: BinaryOp,
        /// The left operand's type.
        lhs: DecimalType,
        /// The right operand's type.
        rhs: DecimalType,
        /// Why.
        reason: String,
    },
    /// An array that is not a decimal array (from the Arrow conversions).
    NotDecimal {
        /// The array's data type, as text.
        data_type: String,
    },
}

impl fmt::Display for DecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidType { precision, scale } => write!(
                f,
                "invalid decimal type decimal({precision},{scale}): precision must be 1..=76 \
                 and scale -76..=precision"
            ),
            Self::Overflow { row, result_type } => {
                write!(f, "overflow at row {row}: the result does not fit {result_type}")
            }
            Self::DivideByZero { row } => write!(f, "division by zero at row {row}"),
            Self::LengthMismatch { expected, actual } => {
                write!(f, "length mismatch: expected {expected} rows, found {actual}")
            }
            Self::OutOfBounds { offset, len, array_len } => write!(
                f,
                "slice of {len} rows at offset {offset} is out of bounds for an array of \
                 {array_len} rows"
            ),
            Self::Parse { row, text, dtype, reason } => {
                write!(f, "cannot parse {text:?} at row {row} as {dtype}: {reason}")
            }
            Self::ValueOutOfRange { row, value, dtype } => {
                write!(f, "stored value {value} at row {row} does not fit {dtype}")
            }
            Self::StorageTooNarrow { dtype, width } => {
                write!(f, "{width} storage is too narrow for {dtype}")
            }
            Self::UnsupportedTypes { op, lhs, rhs, reason } => {
                write!(f, "no result type for {lhs} {op} {rhs}: {reason}")
            }
            Self::NotDecimal { data_type } => {
                write!(f, "expected a decimal array, found {data_type}")
            }
        }
    }
}

impl std::error::Error for DecimalError {}
