//! What a call computes: the operator, the profile and its knobs.

use core::fmt;

pub use decimal_kernels_native::{OverflowPolicy, RoundingMode};

use crate::types::StorageWidth;

/// The five operators of two operands: `+ - * / %`.
///
/// More may be added, so a `match` on one needs a catch-all arm.
///
/// ```
/// use decimal_kernels::{binary, ArithmeticOptions, BinaryOp, DecimalArray, DecimalType};
/// let t = DecimalType::try_new(5, 1)?;
/// let a = DecimalArray::from_strs(t, &[Some("7.5")])?;
/// let b = DecimalArray::from_strs(t, &[Some("2.5")])?;
/// let opts = ArithmeticOptions::default();
/// // FixedPoint keeps scale 1 and rounds toward zero: 7.5 * 2.5 = 18.75 -> 18.7.
/// for (op, want) in BinaryOp::ALL.into_iter().zip(["10.0", "5.0", "18.7", "3.0", "0.0"]) {
///     assert_eq!(binary(op, &a, &b, &opts)?.to_strs(), [Some(want.to_string())], "7.5 {op} 2.5");
/// }
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`: the remainder with the sign of the dividend, exact.
    Rem,
}

impl BinaryOp {
    /// Every operator.
    pub const ALL: [Self; 5] = [Self::Add, Self::Sub, Self::Mul, Self::Div, Self::Rem];
}

impl fmt::Display for BinaryOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Add => "+",
            Self::Sub => "-",
            Self::Mul => "*",
            Self::Div => "/",
            Self::Rem => "%",
        })
    }
}

/// Whose rules decide the result type (a profile).
///
/// A profile is only a result-type rule plus defaults; the kernels are the
/// same for all of them. More profiles may be added, so a `match` on one needs
/// a catch-all arm.
///
/// ```
/// use decimal_kernels::{mul, ArithmeticOptions, DecimalArray, DecimalType, Semantics, StorageWidth};
/// let t = DecimalType::try_new(10, 2)?;
/// let a = DecimalArray::from_strs(t, &[Some("1.25")])?;
/// // FixedPoint keeps the operands' scale; Arrow adds the scales, as arrow-rs does.
/// let fixed = ArithmeticOptions::fixed_point();
/// let arrow = ArithmeticOptions::arrow(StorageWidth::I128);
/// assert_eq!(fixed.semantics(), Semantics::FixedPoint);
/// assert_eq!(arrow.semantics(), Semantics::Arrow { width: StorageWidth::I128 });
/// assert_eq!(mul(&a, &a, &fixed)?.to_strs(), [Some("1.56".into())]);
/// assert_eq!(mul(&a, &a, &arrow)?.to_strs(), [Some("1.5625".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Semantics {
    /// Fixed-point arithmetic at the operands' shared scale: `s = max(s1, s2)`,
    /// `p = min(76, max(p1 - s1, p2 - s2) + s)`; results stored at the
    /// narrowest width for `p`.
    #[default]
    FixedPoint,
    /// arrow-rs `arrow_arith::numeric` types and values for `Decimal32/64/128/256`
    /// (`width` I32, I64, I128 or I256), with results checked against their
    /// precision; results stored at `width`.
    Arrow {
        /// The Arrow decimal width of operands and result.
        width: StorageWidth,
    },
    /// Apache Spark's result types (precision at most 38), with or without
    /// `spark.sql.decimalOperations.allowPrecisionLoss`; results stored in
    /// `i128`, as Spark's accelerators hold them in Arrow `Decimal128`.
    Spark {
        /// Spark's `allowPrecisionLoss` (its default is `true`): a result
        /// type beyond 38 digits keeps its integer digits and gives up
        /// fraction digits (down to 6); without it, fraction digits are kept
        /// and large results overflow.
        allow_precision_loss: bool,
    },
    /// Presto's and Trino's result types (precision at most 38, no negative
    /// scales); results stored in `i128`.
    Presto,
}

/// The knobs of a call: profile, rounding and failure policies.
///
/// ```
/// use decimal_kernels::{ArithmeticOptions, OverflowPolicy, RoundingMode};
/// let opts = ArithmeticOptions::fixed_point()
///     .with_rounding(RoundingMode::HalfEven)
///     .with_on_overflow(OverflowPolicy::Null);
/// assert_eq!(opts.rounding(), RoundingMode::HalfEven);
/// assert_eq!(ArithmeticOptions::default(), ArithmeticOptions::fixed_point());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArithmeticOptions {
    semantics: Semantics,
    rounding: RoundingMode,
    on_overflow: OverflowPolicy,
    on_divide_by_zero: OverflowPolicy,
}

impl Default for ArithmeticOptions {
    fn default() -> Self {
        Self::fixed_point()
    }
}

impl ArithmeticOptions {
    /// The FixedPoint profile: rounding toward zero, both policies `Error`.
    #[must_use]
    pub const fn fixed_point() -> Self {
        Self {
            semantics: Semantics::FixedPoint,
            rounding: RoundingMode::TowardZero,
            on_overflow: OverflowPolicy::Error,
            on_divide_by_zero: OverflowPolicy::Error,
        }
    }

    /// The Arrow profile at `width`: truncation, both policies `Error`.
    #[must_use]
    pub const fn arrow(width: StorageWidth) -> Self {
        Self { semantics: Semantics::Arrow { width }, ..Self::fixed_point() }
    }

    /// Spark's default profile (`allowPrecisionLoss = true`, ANSI mode off):
    /// `HalfUp`, overflow and division by zero give null. Spark's ANSI mode is
    /// the same profile with both policies `Error`.
    ///
    /// ```
    /// use decimal_kernels::{div, ArithmeticOptions, DecimalArray, DecimalType, OverflowPolicy};
    /// let t = DecimalType::try_new(2, 1)?;
    /// let a = DecimalArray::from_strs(t, &[Some("-3.4"), Some("0.5")])?;
    /// let b = DecimalArray::from_strs(t, &[Some("-6.0"), Some("0.0")])?;
    /// let q = div(&a, &b, &ArithmeticOptions::spark())?;
    /// assert_eq!(q.dtype().to_string(), "decimal(8,6)");
    /// assert_eq!(q.to_strs(), [Some("0.566667".into()), None]);
    /// let ansi = ArithmeticOptions::spark()
    ///     .with_on_overflow(OverflowPolicy::Error)
    ///     .with_on_divide_by_zero(OverflowPolicy::Error);
    /// assert!(div(&a, &b, &ansi).is_err());
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    #[must_use]
    pub const fn spark() -> Self {
        Self {
            semantics: Semantics::Spark { allow_precision_loss: true },
            rounding: RoundingMode::HalfUp,
            on_overflow: OverflowPolicy::Null,
            on_divide_by_zero: OverflowPolicy::Null,
        }
    }

    /// Spark with `allowPrecisionLoss = false`; otherwise as [`spark`](Self::spark).
    #[must_use]
    pub const fn spark_no_precision_loss() -> Self {
        Self { semantics: Semantics::Spark { allow_precision_loss: false }, ..Self::spark() }
    }

    /// The Presto and Trino profile: `HalfUp`, both policies `Error`.
    ///
    /// ```
    /// use decimal_kernels::{div, ArithmeticOptions, DecimalArray, DecimalType};
    /// let t = DecimalType::try_new(2, 1)?;
    /// let a = DecimalArray::from_strs(t, &[Some("-3.4"), Some("0.5")])?;
    /// let b = DecimalArray::from_strs(t, &[Some("-6.0"), Some("-6.0")])?;
    /// let q = div(&a, &b, &ArithmeticOptions::presto())?;
    /// assert_eq!(q.dtype().to_string(), "decimal(3,1)");
    /// assert_eq!(q.to_strs(), [Some("0.6".into()), Some("-0.1".into())]);
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    #[must_use]
    pub const fn presto() -> Self {
        Self { semantics: Semantics::Presto, rounding: RoundingMode::HalfUp, ..Self::fixed_point() }
    }

    /// The same options with another rounding mode.
    #[must_use]
    pub const fn with_rounding(self, rounding: RoundingMode) -> Self {
        Self { rounding, ..self }
    }

    /// The same options with another overflow policy.
    #[must_use]
    pub const fn with_on_overflow(self, policy: OverflowPolicy) -> Self {
        Self { on_overflow: policy, ..self }
    }

    /// The same options with another division-by-zero policy.
    #[must_use]
    pub const fn with_on_divide_by_zero(self, policy: OverflowPolicy) -> Self {
        Self { on_divide_by_zero: policy, ..self }
    }

    /// The profile.
    #[must_use]
    pub const fn semantics(&self) -> Semantics {
        self.semantics
    }

    /// The rounding mode.
    #[must_use]
    pub const fn rounding(&self) -> RoundingMode {
        self.rounding
    }

    /// The overflow policy.
    #[must_use]
    pub const fn on_overflow(&self) -> OverflowPolicy {
        self.on_overflow
    }

    /// The division-by-zero policy.
    #[must_use]
    pub const fn on_divide_by_zero(&self) -> OverflowPolicy {
        self.on_divide_by_zero
    }
}
