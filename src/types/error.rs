//! The one error type of the crate.

use core::fmt;

use crate::types::BinaryOp;
use crate::types::UnaryOp;
use crate::types::{DecimalType, StorageWidth};

/// Everything that can go wrong, each naming what was wrong.
///
/// New variants may be added, so a `match` needs a catch-all arm:
///
/// ```
/// use decimal_kernels::{div, ArithmeticOptions, DecimalArray, DecimalError, DecimalType};
/// let t = DecimalType::try_new(5, 2)?;
/// let a = DecimalArray::from_strs(t, &[Some("1.00"), Some("2.00")])?;
/// let b = DecimalArray::from_strs(t, &[Some("4.00"), Some("0.00")])?;
/// let outcome = match div(&a, &b, &ArithmeticOptions::default()) {
///     Ok(quotient) => format!("{:?}", quotient.to_strs()),
///     Err(DecimalError::DivideByZero { row, .. }) => format!("row {row} divides by zero"),
///     Err(other) => format!("failed: {other}"),
/// };
/// assert_eq!(outcome, "row 1 divides by zero");
/// # Ok::<(), DecimalError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecimalError {
    /// A precision outside `1..=76` or a scale outside `-76..=precision`.
    ///
    /// ```
    /// use decimal_kernels::{DecimalError, DecimalType};
    /// let err = DecimalType::try_new(5, 6).unwrap_err();
    /// assert_eq!(err, DecimalError::InvalidType { precision: 5, scale: 6 });
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid decimal type decimal(5,6): precision must be 1..=76 and scale -76..=precision"
    /// );
    /// ```
    InvalidType {
        /// The precision asked for.
        precision: i32,
        /// The scale asked for.
        scale: i32,
    },
    /// A result exceeded its precision under the `Error` overflow policy.
    ///
    /// It names the first failing valid row and carries that row's operands
    /// as canonical text, so an engine can word its own message (Spark's
    /// `NUMERIC_VALUE_OUT_OF_RANGE`, Trino's "Decimal overflow") without
    /// computing anything again.
    ///
    /// ```
    /// use decimal_kernels::{add, ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalType};
    /// let t = DecimalType::try_new(3, 0)?;
    /// let a = DecimalArray::from_strs(t, &[Some("1"), Some("999")])?;
    /// let err = add(&a, &a, &ArithmeticOptions::fixed_point()).unwrap_err();
    /// let (lhs, rhs) = ("999".to_string(), "999".to_string());
    /// assert_eq!(err, DecimalError::Overflow { row: 1, result_type: t, op: BinaryOp::Add, lhs, rhs });
    /// assert_eq!(err.to_string(), "overflow at row 1: 999 + 999 does not fit decimal(3,0)");
    /// # Ok::<(), DecimalError>(())
    /// ```
    Overflow {
        /// The first failing row (0 for a scalar).
        row: usize,
        /// The result type whose precision was exceeded.
        result_type: DecimalType,
        /// The operator.
        op: BinaryOp,
        /// The row's left operand, canonical text.
        lhs: String,
        /// The row's right operand, canonical text.
        rhs: String,
    },
    /// The result of an operator of one operand (a rescale, a negation, an
    /// absolute value) exceeded its precision under the `Error` overflow
    /// policy; it names the first failing valid row and carries that row's
    /// operand as canonical text.
    ///
    /// ```
    /// use decimal_kernels::{rescale, ArithmeticOptions, DecimalArray, DecimalError, DecimalType, UnaryOp};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.00"), Some("123.45")])?;
    /// let to = DecimalType::try_new(4, 2)?;
    /// let err = rescale(&a, to, &ArithmeticOptions::default()).unwrap_err();
    /// let op = UnaryOp::Rescale { to };
    /// assert_eq!(err, DecimalError::UnaryOverflow { row: 1, result_type: to, op, value: "123.45".into() });
    /// assert_eq!(err.to_string(), "overflow at row 1: rescale of 123.45 does not fit decimal(4,2)");
    /// # Ok::<(), DecimalError>(())
    /// ```
    UnaryOverflow {
        /// The first failing row (0 for a scalar).
        row: usize,
        /// The result type whose precision was exceeded.
        result_type: DecimalType,
        /// The operator.
        op: UnaryOp,
        /// The row's operand, canonical text.
        value: String,
    },
    /// A divisor was zero under the `Error` division-by-zero policy; it names
    /// the first failing valid row and carries that row's dividend as
    /// canonical text.
    ///
    /// ```
    /// use decimal_kernels::{div, ArithmeticOptions, DecimalArray, DecimalError, DecimalScalar, DecimalType};
    /// let t = DecimalType::try_new(5, 2)?;
    /// let a = DecimalArray::from_strs(t, &[None, Some("1.00")])?;
    /// let zero = DecimalScalar::parse(t, "0")?;
    /// // Row 0 is null, so row 1 is the first to fail.
    /// let err = div(&a, &zero, &ArithmeticOptions::default()).unwrap_err();
    /// assert_eq!(err, DecimalError::DivideByZero { row: 1, lhs: "1.00".into() });
    /// assert_eq!(err.to_string(), "division by zero at row 1: 1.00 / 0");
    /// # Ok::<(), DecimalError>(())
    /// ```
    DivideByZero {
        /// The first failing row (0 for a scalar).
        row: usize,
        /// The row's dividend, canonical text.
        lhs: String,
    },
    /// Two operands, or values and validity, of different lengths.
    ///
    /// ```
    /// use decimal_kernels::{sub, ArithmeticOptions, DecimalArray, DecimalError, DecimalType};
    /// let t = DecimalType::try_new(5, 2)?;
    /// let two = DecimalArray::from_strs(t, &[Some("1.00"), Some("2.00")])?;
    /// let three = DecimalArray::from_strs(t, &[Some("1.00"), None, Some("3.00")])?;
    /// let err = sub(&two, &three, &ArithmeticOptions::default()).unwrap_err();
    /// assert_eq!(err, DecimalError::LengthMismatch { expected: 2, actual: 3 });
    /// # Ok::<(), DecimalError>(())
    /// ```
    LengthMismatch {
        /// The length required.
        expected: usize,
        /// The length found.
        actual: usize,
    },
    /// A slice reaching past the end of an array.
    ///
    /// ```
    /// use decimal_kernels::{DecimalArray, DecimalError, DecimalType};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.00"); 4])?;
    /// let err = a.slice(3, 2).unwrap_err();
    /// assert_eq!(err, DecimalError::OutOfBounds { offset: 3, len: 2, array_len: 4 });
    /// # Ok::<(), DecimalError>(())
    /// ```
    OutOfBounds {
        /// The slice's first row.
        offset: usize,
        /// The slice's length.
        len: usize,
        /// The array's length.
        array_len: usize,
    },
    /// Text that is not a decimal of the type.
    ///
    /// ```
    /// use decimal_kernels::{DecimalArray, DecimalError, DecimalType};
    /// let t = DecimalType::try_new(5, 2)?;
    /// // Three fraction digits do not fit scale 2 (the exact mode never
    /// // rounds; `cast::parse` would).
    /// let err = DecimalArray::from_strs(t, &[Some("1.00"), Some("1.005")]).unwrap_err();
    /// assert!(matches!(err, DecimalError::Parse { row: 1, ref text, .. } if text == "1.005"));
    /// # Ok::<(), DecimalError>(())
    /// ```
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
    ///
    /// ```
    /// use decimal_kernels::{DecimalError, DecimalScalar, DecimalType};
    /// let t = DecimalType::try_new(2, 0)?;
    /// let err = DecimalScalar::from_stored(t, 100_i32).unwrap_err();
    /// assert_eq!(err, DecimalError::ValueOutOfRange { row: 0, value: "100".into(), dtype: t });
    /// assert_eq!(err.to_string(), "stored value 100 at row 0 does not fit decimal(2,0)");
    /// # Ok::<(), DecimalError>(())
    /// ```
    ValueOutOfRange {
        /// Its row (0 for a scalar).
        row: usize,
        /// The stored integer.
        value: String,
        /// The type it was checked against.
        dtype: DecimalType,
    },
    /// A storage width narrower than the type's precision needs.
    ///
    /// ```
    /// use decimal_kernels::{DecimalArray, DecimalError, DecimalType, StorageWidth};
    /// let t = DecimalType::try_new(3, 0)?;
    /// // `i8` holds two digits, not three.
    /// let err = DecimalArray::try_new(t, vec![1_i8, 2].into(), None).unwrap_err();
    /// assert_eq!(err, DecimalError::StorageTooNarrow { dtype: t, width: StorageWidth::I8 });
    /// # Ok::<(), DecimalError>(())
    /// ```
    StorageTooNarrow {
        /// The type.
        dtype: DecimalType,
        /// The width asked for.
        width: StorageWidth,
    },
    /// The profile has no result type for these operands.
    ///
    /// ```
    /// use decimal_kernels::{ArithmeticOptions, BinaryOp, DecimalError, DecimalType, StorageWidth};
    /// let t = DecimalType::try_new(38, 20)?;
    /// // Arrow's product scale, 20 + 20, is beyond Decimal128's 38.
    /// let arrow = ArithmeticOptions::arrow(StorageWidth::I128);
    /// let err = BinaryOp::Mul.result_type(t, t, &arrow).unwrap_err();
    /// assert!(matches!(err, DecimalError::UnsupportedTypes { op: BinaryOp::Mul, .. }));
    /// # Ok::<(), DecimalError>(())
    /// ```
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
    /// The profile has no result type for this operator of one operand.
    ///
    /// ```
    /// use decimal_kernels::{ArithmeticOptions, DecimalError, DecimalType, RoundFunction, UnaryOp};
    /// let t = DecimalType::try_new(40, 2)?;
    /// let op = UnaryOp::Round { function: RoundFunction::Round, digits: 1 };
    /// let err = op.result_type_under(t, &ArithmeticOptions::spark()).unwrap_err();
    /// assert_eq!(err.to_string(), "no round to 1 digits of decimal(40,2): Spark has no precision above 38");
    /// # Ok::<(), DecimalError>(())
    /// ```
    UnsupportedOperand {
        /// The operator.
        op: UnaryOp,
        /// The operand's type.
        operand: DecimalType,
        /// Why.
        reason: String,
    },
    /// The profile has no aggregate result type for this input.
    ///
    /// ```
    /// use decimal_kernels::aggregate::{AggregateOp};
    /// use decimal_kernels::{ArithmeticOptions, DecimalError, DecimalType};
    /// let t = DecimalType::try_new(40, 2)?;
    /// let err = AggregateOp::Sum.result_type(t, &ArithmeticOptions::presto()).unwrap_err();
    /// assert_eq!(err.to_string(), "no sum of decimal(40,2): Presto and Trino have no precision above 38");
    /// # Ok::<(), DecimalError>(())
    /// ```
    UnsupportedAggregate {
        /// The aggregate.
        op: crate::aggregate::AggregateOp,
        /// The input type.
        input: DecimalType,
        /// Why.
        reason: String,
    },
    /// An aggregate's result exceeded its type under the `Error` overflow
    /// policy: the first such group, with its exact result as text.
    ///
    /// ```
    /// use decimal_kernels::aggregate::sum;
    /// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalError, DecimalType};
    /// let t = DecimalType::try_new(76, 0)?;
    /// let nines = "9".repeat(76);
    /// let a = DecimalArray::from_strs(t, &[Some(nines.as_str()), Some("1")])?;
    /// let err = sum(&a, &ArithmeticOptions::default()).unwrap_err();
    /// assert_eq!(err.to_string(), format!("overflow in group 0: sum 1{} does not fit decimal(76,0)", "0".repeat(76)));
    /// # Ok::<(), DecimalError>(())
    /// ```
    AggregateOverflow {
        /// The first failing group (0 for a whole-column aggregate).
        group: usize,
        /// The result type whose precision was exceeded.
        result_type: DecimalType,
        /// The aggregate.
        op: crate::aggregate::AggregateOp,
        /// The exact result, canonical text.
        value: String,
    },
    /// A row's group is not below the number of groups.
    ///
    /// ```
    /// use decimal_kernels::aggregate::sum_groups;
    /// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalError, DecimalType};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.00"), Some("2.00")])?;
    /// let err = sum_groups(&a, &[0, 3], 2, &ArithmeticOptions::default()).unwrap_err();
    /// assert_eq!(err, DecimalError::GroupOutOfRange { row: 1, group: 3, total_groups: 2 });
    /// # Ok::<(), DecimalError>(())
    /// ```
    GroupOutOfRange {
        /// The first such row.
        row: usize,
        /// Its group.
        group: usize,
        /// The number of groups.
        total_groups: usize,
    },
    /// A number of groups whose aggregate state memory cannot hold: it
    /// could not be allocated, and nothing was added.
    ///
    /// ```
    /// use decimal_kernels::aggregate::sum_groups;
    /// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalError, DecimalType};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.00")])?;
    /// let err = sum_groups(&a, &[0], usize::MAX, &ArithmeticOptions::default()).unwrap_err();
    /// assert_eq!(err, DecimalError::TooManyGroups { groups: usize::MAX });
    /// assert_eq!(err.to_string(), format!("cannot hold the state of {} groups", usize::MAX));
    /// # Ok::<(), DecimalError>(())
    /// ```
    TooManyGroups {
        /// The number of groups asked for.
        groups: usize,
    },
    /// Values of another type than the aggregate was made for.
    TypeMismatch {
        /// The type expected.
        expected: DecimalType,
        /// The type found.
        actual: DecimalType,
    },
    /// Aggregate state arrays that are not a state this crate wrote, or do
    /// not describe sums and counts of rows.
    InvalidState {
        /// Why.
        reason: String,
    },
    /// An array that is not a decimal array (from the Arrow conversions).
    ///
    /// ```
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
    /// use arrow_array::Int32Array;
    /// use decimal_kernels::{DecimalArray, DecimalError};
    /// let err = DecimalArray::from_arrow(&Int32Array::from(vec![1, 2])).unwrap_err();
    /// assert_eq!(err, DecimalError::NotDecimal { data_type: "Int32".into() });
    /// ```
    NotDecimal {
        /// The array's data type, as text.
        data_type: String,
    },
    /// A cast between decimals and integers or floats whose value does not
    /// fit its target (an integer type's range, a decimal type's precision,
    /// or a NaN or infinity cast to a decimal) under the `Error` overflow
    /// policy; it names the first failing valid row and carries its value.
    ///
    /// ```
    /// use decimal_kernels::{cast, ArithmeticOptions, DecimalArray, DecimalError, DecimalType};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(5, 1)?, &[Some("12.5"), Some("300.0")])?;
    /// let err = cast::to_integer::<i8>(&a, &ArithmeticOptions::default()).unwrap_err();
    /// let want = DecimalError::CastOverflow { row: 1, value: "300.0".into(), target: "i8".into() };
    /// assert_eq!(err, want);
    /// assert_eq!(err.to_string(), "cast overflow at row 1: 300.0 does not fit i8");
    /// # Ok::<(), DecimalError>(())
    /// ```
    CastOverflow {
        /// The first failing row (0 for a scalar).
        row: usize,
        /// Its value as text (a decimal's canonical text, an integer's or a
        /// float's own).
        value: String,
        /// The target type (`i8`, `u64`, `decimal(5,2)`).
        target: String,
    },
    /// An Arrow datum that is not a scalar of one row (from
    /// `DecimalScalar::from_arrow`).
    ///
    /// ```
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
    /// use arrow_array::Decimal128Array;
    /// use decimal_kernels::{DecimalError, DecimalScalar};
    /// let column = Decimal128Array::from(vec![150, 250]).with_precision_and_scale(5, 2)?;
    /// let err = DecimalScalar::from_arrow(&column).unwrap_err();
    /// assert_eq!(err, DecimalError::NotScalar { is_scalar: false, rows: 2 });
    /// assert_eq!(err.to_string(), "expected an Arrow scalar, found an array of 2 rows");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    NotScalar {
        /// Whether the datum is marked as a scalar (then it does not have
        /// exactly one row: `Scalar::new` ensures one, a `Datum` of one's own
        /// need not).
        is_scalar: bool,
        /// Its number of rows.
        rows: usize,
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
            Self::Overflow { row, result_type, op, lhs, rhs } => {
                write!(f, "overflow at row {row}: {lhs} {op} {rhs} does not fit {result_type}")
            }
            Self::UnaryOverflow { row, result_type, op, value } => {
                write!(f, "overflow at row {row}: {op} of {value} does not fit {result_type}")
            }
            Self::DivideByZero { row, lhs } => {
                write!(f, "division by zero at row {row}: {lhs} / 0")
            }
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
            Self::UnsupportedOperand { op, operand, reason } => {
                write!(f, "no {op} of {operand}: {reason}")
            }
            Self::UnsupportedAggregate { op, input, reason } => {
                write!(f, "no {op} of {input}: {reason}")
            }
            Self::AggregateOverflow { group, result_type, op, value } => {
                write!(f, "overflow in group {group}: {op} {value} does not fit {result_type}")
            }
            Self::GroupOutOfRange { row, group, total_groups } => {
                write!(f, "row {row} belongs to group {group}, beyond the {total_groups} groups")
            }
            Self::TooManyGroups { groups } => {
                write!(f, "cannot hold the state of {groups} groups")
            }
            Self::TypeMismatch { expected, actual } => {
                write!(f, "expected values of {expected}, found {actual}")
            }
            Self::InvalidState { reason } => write!(f, "invalid aggregate state: {reason}"),
            Self::CastOverflow { row, value, target } => {
                write!(f, "cast overflow at row {row}: {value} does not fit {target}")
            }
            Self::NotDecimal { data_type } => {
                write!(f, "expected a decimal array, found {data_type}")
            }
            Self::NotScalar { is_scalar: false, rows } => {
                write!(f, "expected an Arrow scalar, found an array of {rows} rows")
            }
            Self::NotScalar { is_scalar: true, rows } => {
                write!(f, "expected an Arrow scalar of one row, found one of {rows} rows")
            }
        }
    }
}

impl std::error::Error for DecimalError {}
