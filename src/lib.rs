//! Vectorized decimal arithmetic for query engines: `+ - * / %` on decimal
//! columns, rescale, negation and absolute value, comparisons, casts, and the
//! `sum`, `avg`, `min` and `max` aggregates, exact to the last digit under
//! each engine's rules.
//!
//! - Types: [`DecimalType`] `decimal(p, s)` with precision up to 76 and
//!   negative scales, stored in any [`StorageWidth`] from `i8` to `i256`.
//! - Columns: [`DecimalArray`] (Arrow buffers, validity bitmaps, zero-copy
//!   slices); single values: [`DecimalScalar`].
//! - Operators: [`add`], [`sub`], [`mul`], [`div`], [`rem`] (or [`binary`]) on
//!   any mix of arrays and scalars, and [`rescale`] (a cast), [`neg`], [`abs`]
//!   (or [`unary`]), with [`ArithmeticOptions`]: the profile
//!   ([`Semantics::FixedPoint`], [`Semantics::Arrow`], [`Semantics::Spark`]
//!   with or without precision loss, [`Semantics::Presto`] for Presto and
//!   Trino), one of five [`RoundingMode`]s, and an [`OverflowPolicy`] for
//!   overflow and for division by zero. [`binary_to`] computes at a result
//!   type the caller planned.
//! - Comparisons: [`eq`], [`neq`], [`lt`], [`lt_eq`], [`gt`], [`gt_eq`] (or
//!   [`compare`] with a [`CompareOp`]) between decimals of any two types,
//!   exact, as a [`NullableBuffer`] of booleans.
//! - Aggregates ([`aggregate`]): `sum`, `avg`, `min` and `max`, whole and by group, exact
//!   at each profile's types, with partial states for distributed engines.
//! - [`DecimalScalar::reference_binary`] is the exact reference every kernel is checked
//!   against; [`conformance`] lets an engine hold its own kernels to it.
//! - [`semantics`]: what every operator computes, profile by profile, with
//!   worked examples.
//!
//! ```
//! use decimal_kernels::{mul, ArithmeticOptions, DecimalArray, DecimalType, RoundingMode};
//! let t = DecimalType::try_new(10, 2)?;
//! let prices = DecimalArray::from_strs(t, &[Some("0.15"), Some("-0.15"), None])?;
//! let opts = ArithmeticOptions::default().with_rounding(RoundingMode::Ceiling);
//! let squared = mul(&prices, &prices, &opts)?;
//! assert_eq!(squared.dtype(), t);
//! assert_eq!(squared.to_strs(), vec![Some("0.03".into()), Some("0.03".into()), None]);
//! # Ok::<(), decimal_kernels::DecimalError>(())
//! ```
//!
//! # Features
//!
//! - `arrow_60` (default) or `arrow_59`: the arrow-rs major the crate builds
//!   on; either turns on the [`arrow`] module. Exactly one may be on: both on
//!   (as `--all-features` or a forgotten `default-features = false` makes
//!   them) is a compile error, rather than one major silently chosen. An
//!   application on arrow 59 depends with `default-features = false,
//!   features = ["arrow_59"]`.

#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(clippy::undocumented_unsafe_blocks)]

// Under `arrow_59`, the arrow 59 crates under their usual names (`arrow_60`
// uses the dependencies of those names).
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_array_59 as arrow_array;
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_buffer_59 as arrow_buffer;
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_cast_59 as arrow_cast;
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_ord_59 as arrow_ord;
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_schema_59 as arrow_schema;

#[cfg(not(any(feature = "arrow_59", feature = "arrow_60")))]
compile_error!(
    "decimal-kernels: no arrow-rs major selected; enable the feature `arrow_60` (the default) \
     or `arrow_59`"
);

// Both on is most often an application on arrow 59 that kept the default
// features: building on either major would hand it arrays of the other one,
// and the type errors that follow name two arrow versions, not the cause.
#[cfg(all(feature = "arrow_59", feature = "arrow_60"))]
compile_error!(
    "decimal-kernels: the features `arrow_59` and `arrow_60` are both on; exactly one arrow-rs \
     major may be. To build on arrow 59, depend on decimal-kernels with \
     `default-features = false, features = [\"arrow_59\"]` (the default features select \
     arrow 60)"
);

/// What the operators compute: types and storage, the value rule, result
/// types by profile, the operators of one operand, aggregates, rounding,
/// nulls, overflow and division by zero, the text format, and worked examples
/// (which the crate's tests run).
pub mod semantics {
    #![doc = include_str!("../docs/semantics.md")]
}

// Every item below needs the arrow-rs major's crates. Without a major they
// are left out, so that the build reports only the `compile_error!` above,
// not one unresolved import per use of the missing crate.
macro_rules! with_arrow_major {
    ($($item:item)*) => {
        $(#[cfg(any(feature = "arrow_59", feature = "arrow_60"))] $item)*
    };
}

with_arrow_major! {
    pub mod aggregate;
    #[cfg(feature = "arrow")]
    #[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
    pub mod arrow;
    pub mod cast;
    mod compute;
    pub mod conformance;
    mod rules;
    mod types;
    mod values;

    pub use compute::binary::{binary, binary_recycling, binary_to};
    pub use compute::compare::{compare, eq, gt, gt_eq, lt, lt_eq, neq};
    pub use compute::operand::Operand;
    pub use compute::prepared::{BinaryPlan, ComparePlan, UnaryPlan};
    pub use compute::round::{ceil, floor, round, trunc};
    pub use compute::unary::{unary, unary_recycling};
    pub use types::RoundFunction;
    pub use types::{
        ArithmeticOptions, BinaryOp, CompareOp, DecimalError, DecimalType, MAX_PRECISION,
        OverflowPolicy, RoundingMode, Semantics, StorageWidth, UnaryOp,
    };
    pub use values::{
        DecimalArray, DecimalNative, DecimalScalar, DecimalValues, NullableBuffer, RowCount,
    };

    /// Which compiled copy of the kernels this process runs, for logs and
    /// benchmark reports; set `DECIMAL_KERNELS_ISA` to `portable`, `avx2` or
    /// `avx512` to cap it (before the first operator call).
    ///
    /// ```
    /// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType, active_isa, add};
    /// let t = DecimalType::try_new(5, 2)?;
    /// let a = DecimalArray::from_strs(t, &[Some("1.25")])?;
    /// let sum = add(&a, &a, &ArithmeticOptions::default())?;
    /// assert_eq!(sum.to_strs(), [Some("2.50".into())]);
    /// // Every copy gives the same results; this names the one that ran.
    /// assert!(["portable", "avx2", "avx512"].contains(&active_isa()));
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    pub use decimal_kernels_native::active_isa;

    /// `lhs + rhs` row by row under the options' profile (FixedPoint rules by
    /// default); [`arrow::add`] is the one with Arrow's rules on Arrow arrays.
    /// See [`binary`].
    ///
    /// ```
    /// use decimal_kernels::{add, ArithmeticOptions, DecimalArray, DecimalScalar, DecimalType, OverflowPolicy};
    /// let t = DecimalType::try_new(5, 2)?;
    /// let a = DecimalArray::from_strs(t, &[Some("1.25"), None, Some("999.99")])?;
    /// let one = DecimalScalar::parse(t, "1")?;
    /// // FixedPoint: decimal(5,2) + decimal(5,2) is decimal(5,2).
    /// let sum = add(&a, &one, &ArithmeticOptions::default().with_on_overflow(OverflowPolicy::Null))?;
    /// assert_eq!(sum.to_strs(), [Some("2.25".into()), None, None]); // 1000.99 overflows: null
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// As [`binary`].
    pub fn add<'a>(
        lhs: impl Into<Operand<'a>>,
        rhs: impl Into<Operand<'a>>,
        options: &ArithmeticOptions,
    ) -> Result<DecimalArray, DecimalError> {
        binary(BinaryOp::Add, lhs, rhs, options)
    }

    /// `lhs - rhs` row by row under the options' profile (FixedPoint rules by
    /// default); [`arrow::sub`] is the one with Arrow's rules on Arrow arrays.
    /// See [`binary`].
    ///
    /// ```
    /// use decimal_kernels::{sub, ArithmeticOptions, DecimalArray, DecimalType};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(6, 2)?, &[Some("10.00"), Some("0.50")])?;
    /// let b = DecimalArray::from_strs(DecimalType::try_new(4, 3)?, &[Some("0.125"), Some("1.000")])?;
    /// // Mixed scales: the result has the larger, decimal(7,3).
    /// let difference = sub(&a, &b, &ArithmeticOptions::default())?;
    /// assert_eq!(difference.dtype(), DecimalType::try_new(7, 3)?);
    /// assert_eq!(difference.to_strs(), [Some("9.875".into()), Some("-0.500".into())]);
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// As [`binary`].
    pub fn sub<'a>(
        lhs: impl Into<Operand<'a>>,
        rhs: impl Into<Operand<'a>>,
        options: &ArithmeticOptions,
    ) -> Result<DecimalArray, DecimalError> {
        binary(BinaryOp::Sub, lhs, rhs, options)
    }

    /// `lhs * rhs` row by row under the options' profile (FixedPoint rules by
    /// default: the operands' larger scale, rounded); [`arrow::mul`] is the one
    /// with Arrow's rules on Arrow arrays (scale `s1 + s2`). See [`binary`].
    ///
    /// ```
    /// use decimal_kernels::{mul, ArithmeticOptions, DecimalArray, DecimalScalar, DecimalType, RoundingMode};
    /// let t = DecimalType::try_new(10, 2)?;
    /// let a = DecimalArray::from_strs(t, &[Some("0.05"), Some("-0.05")])?;
    /// let half = DecimalScalar::parse(t, "0.50")?;
    /// // 0.025 at scale 2 is a tie, rounded away from zero under HalfUp.
    /// let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfUp);
    /// assert_eq!(mul(&a, &half, &opts)?.to_strs(), [Some("0.03".into()), Some("-0.03".into())]);
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// As [`binary`].
    pub fn mul<'a>(
        lhs: impl Into<Operand<'a>>,
        rhs: impl Into<Operand<'a>>,
        options: &ArithmeticOptions,
    ) -> Result<DecimalArray, DecimalError> {
        binary(BinaryOp::Mul, lhs, rhs, options)
    }

    /// `lhs / rhs` row by row under the options' profile (FixedPoint rules by
    /// default: the operands' larger scale, rounded); [`arrow::div`] is the one
    /// with Arrow's rules on Arrow arrays (scale `s1 + 4`, truncated). See
    /// [`binary`].
    ///
    /// ```
    /// use decimal_kernels::{div, ArithmeticOptions, DecimalArray, DecimalType, OverflowPolicy};
    /// let t = DecimalType::try_new(10, 2)?;
    /// let a = DecimalArray::from_strs(t, &[Some("1.00"), Some("2.00")])?;
    /// let b = DecimalArray::from_strs(t, &[Some("3.00"), Some("0.00")])?;
    /// // Division by zero gives a null row under the Null policy.
    /// let opts = ArithmeticOptions::default().with_on_divide_by_zero(OverflowPolicy::Null);
    /// assert_eq!(div(&a, &b, &opts)?.to_strs(), [Some("0.33".into()), None]);
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// As [`binary`].
    pub fn div<'a>(
        lhs: impl Into<Operand<'a>>,
        rhs: impl Into<Operand<'a>>,
        options: &ArithmeticOptions,
    ) -> Result<DecimalArray, DecimalError> {
        binary(BinaryOp::Div, lhs, rhs, options)
    }

    /// `lhs % rhs` row by row under the options' profile (FixedPoint rules by
    /// default); [`arrow::rem`] is the one with Arrow's rules on Arrow arrays.
    ///
    /// The exact remainder `A - B * trunc(A / B)`, with the sign of `lhs`; see
    /// [`binary`].
    ///
    /// ```
    /// use decimal_kernels::{rem, ArithmeticOptions, DecimalArray, DecimalScalar, DecimalType};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(10, 2)?, &[Some("7.50"), Some("-7.50")])?;
    /// let b = DecimalScalar::parse(DecimalType::try_new(5, 3)?, "2.001")?;
    /// // decimal(10,2) % decimal(5,3) is decimal(5,3) in every profile.
    /// let r = rem(&a, &b, &ArithmeticOptions::default())?;
    /// assert_eq!(r.dtype(), DecimalType::try_new(5, 3)?);
    /// assert_eq!(r.to_strs(), [Some("1.497".into()), Some("-1.497".into())]);
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// As [`binary`].
    pub fn rem<'a>(
        lhs: impl Into<Operand<'a>>,
        rhs: impl Into<Operand<'a>>,
        options: &ArithmeticOptions,
    ) -> Result<DecimalArray, DecimalError> {
        binary(BinaryOp::Rem, lhs, rhs, options)
    }

    /// `operand` at type `to` row by row (SQL `CAST(x AS DECIMAL(p, s))`):
    /// rounded once with the options' mode when `to` has a smaller scale;
    /// `round`, `floor`, `ceil` and `truncate` to `d` digits are this with
    /// a mode (see [semantics](crate::semantics#rescale)). See [`unary`].
    ///
    /// ```
    /// use decimal_kernels::{rescale, ArithmeticOptions, DecimalArray, DecimalType, RoundingMode};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(15, 4)?, &[Some("2.0050"), Some("-2.0049")])?;
    /// let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfUp);
    /// let cast = rescale(&a, DecimalType::try_new(12, 2)?, &opts)?;
    /// assert_eq!(cast.to_strs(), [Some("2.01".into()), Some("-2.00".into())]);
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// As [`unary`].
    pub fn rescale<'a>(
        operand: impl Into<Operand<'a>>,
        to: DecimalType,
        options: &ArithmeticOptions,
    ) -> Result<DecimalArray, DecimalError> {
        unary(UnaryOp::Rescale { to }, operand, options)
    }

    /// `-operand` row by row, at its type; see [`unary`].
    ///
    /// ```
    /// use decimal_kernels::{neg, ArithmeticOptions, DecimalArray, DecimalType};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("1.50"), None])?;
    /// assert_eq!(neg(&a, &ArithmeticOptions::default())?.to_strs(), [Some("-1.50".into()), None]);
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// As [`unary`]: only a stored value beyond its precision (an array built
    /// with `new_unchecked`) can overflow.
    pub fn neg<'a>(
        operand: impl Into<Operand<'a>>,
        options: &ArithmeticOptions,
    ) -> Result<DecimalArray, DecimalError> {
        unary(UnaryOp::Neg, operand, options)
    }

    /// `|operand|` row by row, at its type; see [`unary`].
    ///
    /// ```
    /// use decimal_kernels::{abs, ArithmeticOptions, DecimalArray, DecimalType};
    /// let a = DecimalArray::from_strs(DecimalType::try_new(5, 2)?, &[Some("-1.50"), Some("2.00")])?;
    /// assert_eq!(abs(&a, &ArithmeticOptions::default())?.to_strs(), [Some("1.50".into()), Some("2.00".into())]);
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// As [`neg`].
    pub fn abs<'a>(
        operand: impl Into<Operand<'a>>,
        options: &ArithmeticOptions,
    ) -> Result<DecimalArray, DecimalError> {
        unary(UnaryOp::Abs, operand, options)
    }

    /// The README's examples, compiled and run as doc tests. Its Arrow example
    /// names the arrow crates as an application does, and only the arrow 60
    /// dependencies carry those names; the same example runs on both majors as
    /// the `arrow` module's doc test.
    #[cfg(all(doctest, feature = "arrow_60"))]
    #[doc = include_str!("../README.md")]
    pub struct ReadmeDoctests;
}
