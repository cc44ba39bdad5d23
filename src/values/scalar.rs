//! One decimal value: its type, its stored integer or null, and its text (the
//! exact reference of every operator on values is in `rules/reference.rs`).

use core::fmt;

use arrow_buffer::i256;

use crate::types::DecimalError;
use crate::types::DecimalType;

use crate::values::DecimalNative;
use crate::values::text;

/// A single decimal value of a type, or a null of that type.
///
/// [`reference_binary`](Self::reference_binary) is the crate's reference
/// implementation: exact big integer arithmetic, rounded once. Engines use it for constant folding; the
/// tests hold every kernel to it.
///
/// ```
/// use decimal_kernels::{ArithmeticOptions, BinaryOp, DecimalScalar, DecimalType, RoundingMode};
/// let t = DecimalType::try_new(10, 2)?;
/// let two = DecimalScalar::parse(t, "2.00")?;
/// let three = DecimalScalar::parse(t, "3.00")?;
/// let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfUp);
/// assert_eq!(two.reference_binary(BinaryOp::Div, &three, &opts)?.to_string(), "0.67");
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DecimalScalar {
    dtype: DecimalType,
    value: Option<i256>,
}

impl DecimalScalar {
    /// Reads `text` as a value of `dtype` in the exact mode of the crate's
    /// one text grammar (an optional sign, digits with one optional `.`, an
    /// optional exponent, surrounding ASCII whitespace; see the
    /// [text format](crate::semantics#text)): a value that would need
    /// rounding is refused. [`cast::parse`](crate::cast::parse) reads the same
    /// grammar in the rounded mode.
    ///
    /// ```
    /// use decimal_kernels::{DecimalScalar, DecimalType};
    /// let t = DecimalType::try_new(10, 2)?;
    /// assert_eq!(DecimalScalar::parse(t, " 1.5e2 ")?.to_string(), "150.00");
    /// assert!(DecimalScalar::parse(t, "1.234").is_err()); // would need rounding
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
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

    /// The value whose stored integer is `value` (`None`: the null), known
    /// to fit `dtype`.
    pub(crate) fn from_fitting(dtype: DecimalType, value: Option<i256>) -> Self {
        Self { dtype, value }
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
