//! One decimal value, and the exact reference implementation of every operator.

use core::fmt;

use arrow_buffer::i256;

use crate::array::DecimalNative;
use crate::error::DecimalError;
use crate::options::{ArithmeticOptions, BinaryOp, OverflowPolicy};
use crate::profile::result_type;
use crate::reference::{Exact, exact, exact_unary};
use crate::text;
use crate::types::DecimalType;
use crate::unary::UnaryOp;

/// A single decimal value of a type, or a null of that type.
///
/// [`binary`](Self::binary) is the crate's reference implementation: exact big
/// integer arithmetic, rounded once. Engines use it for constant folding; the
/// tests hold every kernel to it.
///
/// ```
/// use decimal_kernels::{ArithmeticOptions, BinaryOp, DecimalScalar, DecimalType, RoundingMode};
/// let t = DecimalType::try_new(10, 2)?;
/// let two = DecimalScalar::parse(t, "2.00")?;
/// let three = DecimalScalar::parse(t, "3.00")?;
/// let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfUp);
/// assert_eq!(two.binary(BinaryOp::Div, &three, &opts)?.to_string(), "0.67");
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DecimalScalar {
    dtype: DecimalType,
    value: Option<i256>,
}

impl DecimalScalar {
    /// Parses canonical-form text (optional sign, digits, optional `.` and
    /// fraction digits) exactly as a value of `dtype`.
    ///
    /// # Errors
    /// [`DecimalError::Parse`] when the text is not a number or not exactly
    /// representable in `dtype` (never rounded).
    pub fn parse(dtype: DecimalType, text: &str) -> Result<Self, DecimalError> {
        let value = text::parse(text, dtype)?;
        Ok(Self { dtype, value: text::bigint_to_i256(&value) })
    }

    /// The null of `dtype`.
    #[must_use]
    pub fn null(dtype: DecimalType) -> Self {
        Self { dtype, value: None }
    }

    /// The value whose stored integer is `value`, of any native type (`i8`,
    /// `i16`, `i32`, `i64`, `i128`, `i256`), checked against the precision.
    ///
    /// ```
    /// use decimal_kernels::{DecimalScalar, DecimalType};
    /// # #[cfg(feature = "arrow_59")] extern crate arrow_buffer_59 as arrow_buffer;
    /// use arrow_buffer::i256;
    /// let t = DecimalType::try_new(40, 3)?;
    /// assert_eq!(DecimalScalar::from_stored(t, -1500_i16)?.to_string(), "-1.500");
    /// let big = i256::from_i128(i128::MAX).wrapping_mul(i256::from_i128(10));
    /// assert_eq!(DecimalScalar::from_stored(t, big)?.value(), Some(big));
    /// // 2 digits do not hold 100.
    /// assert!(DecimalScalar::from_stored(DecimalType::try_new(2, 0)?, 100_i8).is_err());
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::ValueOutOfRange`] beyond the precision.
    pub fn from_stored<T: DecimalNative>(
        dtype: DecimalType,
        value: T,
    ) -> Result<Self, DecimalError> {
        let value = value.to_i256();
        let limit = text::precision_limit(dtype.precision());
        let big = text::i256_to_bigint(value);
        if big > limit || big < -limit {
            return Err(DecimalError::ValueOutOfRange { row: 0, value: value.to_string(), dtype });
        }
        Ok(Self { dtype, value: Some(value) })
    }

    /// A value read from an array, kept as stored even beyond the precision.
    pub(crate) fn from_stored_unchecked(dtype: DecimalType, value: i256) -> Self {
        Self { dtype, value: Some(value) }
    }

    /// The type.
    #[must_use]
    pub fn dtype(&self) -> DecimalType {
        self.dtype
    }

    /// Whether this is a null.
    #[must_use]
    pub fn is_null(&self) -> bool {
        self.value.is_none()
    }

    /// The stored integer, `None` for null.
    #[must_use]
    pub fn value(&self) -> Option<i256> {
        self.value
    }

    /// `self op rhs`, computed exactly and rounded once (the reference).
    ///
    /// # Errors
    /// The result type's errors; [`DecimalError::Overflow`] and
    /// [`DecimalError::DivideByZero`] (row 0) under the `Error` policies.
    pub fn binary(
        &self,
        op: BinaryOp,
        rhs: &DecimalScalar,
        options: &ArithmeticOptions,
    ) -> Result<DecimalScalar, DecimalError> {
        let result = result_type(op, self.dtype, rhs.dtype, options)?;
        let (Some(a), Some(b)) = (self.value, rhs.value) else {
            return Ok(Self::null(result));
        };
        let outcome = exact(
            op,
            (&text::i256_to_bigint(a), self.dtype),
            (&text::i256_to_bigint(b), rhs.dtype),
            result,
            options.rounding(),
        );
        let fail = |policy: OverflowPolicy, error: DecimalError| match policy {
            OverflowPolicy::Error => Err(error),
            OverflowPolicy::Null => Ok(Self::null(result)),
        };
        match outcome {
            Exact::Value(v) => Ok(Self { dtype: result, value: text::bigint_to_i256(&v) }),
            Exact::Overflow => fail(
                options.on_overflow(),
                DecimalError::Overflow {
                    row: 0,
                    result_type: result,
                    op,
                    lhs: self.to_string(),
                    rhs: rhs.to_string(),
                },
            ),
            Exact::DivideByZero => fail(
                options.on_divide_by_zero(),
                DecimalError::DivideByZero { row: 0, lhs: self.to_string() },
            ),
        }
    }
}

impl DecimalScalar {
    /// `op self`, computed exactly and rounded once (the reference of
    /// [`unary`](crate::unary)); the profile does not change the value.
    ///
    /// ```
    /// use decimal_kernels::{ArithmeticOptions, DecimalScalar, DecimalType, RoundingMode, UnaryOp};
    /// let x = DecimalScalar::parse(DecimalType::try_new(5, 3)?, "-2.345")?;
    /// let to = DecimalType::try_new(4, 2)?;
    /// let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfEven);
    /// assert_eq!(x.unary(UnaryOp::Rescale { to }, &opts)?.to_string(), "-2.34");
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::UnaryOverflow`] (row 0) under the `Error` overflow
    /// policy.
    pub fn unary(&self, op: UnaryOp, options: &ArithmeticOptions) -> Result<Self, DecimalError> {
        let result = op.result_type(self.dtype);
        let Some(a) = self.value else {
            return Ok(Self::null(result));
        };
        match exact_unary(op, &text::i256_to_bigint(a), self.dtype, options.rounding()) {
            Exact::Value(v) => Ok(Self { dtype: result, value: text::bigint_to_i256(&v) }),
            _ => match options.on_overflow() {
                OverflowPolicy::Null => Ok(Self::null(result)),
                OverflowPolicy::Error => Err(DecimalError::UnaryOverflow {
                    row: 0,
                    result_type: result,
                    op,
                    value: self.to_string(),
                }),
            },
        }
    }
}

impl fmt::Display for DecimalScalar {
    /// Canonical text; `NULL` for a null.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Some(v) => f.write_str(&text::format(&text::i256_to_bigint(v), self.dtype.scale())),
            None => f.write_str("NULL"),
        }
    }
}
