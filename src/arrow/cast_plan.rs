//! [`CastPlan`]: a cast on Arrow arrays planned once for its source and
//! target types, then run batch after batch. [`cast`](super::cast) and
//! [`cast_with`](super::cast_with) are each one plan, made and run.
//!
//! Planning decides what depends on the types alone: which of the crate's
//! casts serves the pair (decimal to decimal, to or from an integer, a float
//! or a string, or arrow-cast's for a pair without a decimal), arrow-rs's
//! check of a decimal target, and, decimal to decimal, the rescale's result
//! width and rules. A run checks the array's type and reads its rows.

use arrow_array::{Array, ArrayRef};
use arrow_buffer::i256;
use arrow_cast::CastOptions;
use arrow_schema::{ArrowError, DataType};

use crate::arrow::cast_checks::{
    CastFn, CastRules, at_arrow_width, overflow_error, validate_arrow_decimal,
};
use crate::arrow::convert::{decimal_type, decimal_width};
use crate::arrow::number_cast::number_route;
use crate::arrow::text_cast::text_route;
use crate::compute::prepared::UnaryPlan;
use crate::rules::reference::rescaled;
use crate::rules::storage::ResultStorage;
use crate::types::{
    ArithmeticOptions, DecimalError, DecimalType, OverflowPolicy, RoundingMode, Semantics,
    StorageWidth, UnaryOp,
};
use crate::values::DecimalArray;
use crate::values::text::{bigint_to_i256, i256_to_bigint};

/// A cast from one Arrow type to another planned once under one set of
/// rules: arrow-cast's ([`new`](Self::new), as [`cast`](super::cast) casts)
/// or a profile's ([`with_profile`](Self::with_profile), as
/// [`cast_with`](super::cast_with) casts). Each [`run`](Self::run) casts an
/// array of the planned source type exactly as those functions would.
///
/// ```
/// # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_cast_59 as arrow_cast;
/// # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
/// use arrow_array::{Array, Decimal64Array, Decimal128Array, Int32Array};
/// use arrow_cast::CastOptions;
/// use arrow_schema::{ArrowError, DataType};
/// use decimal_kernels::{ArithmeticOptions, arrow::CastPlan};
/// let (from, to) = (DataType::Decimal128(12, 3), DataType::Decimal64(10, 1));
/// // Once per expression: arrow-cast's rules, a null row for a value that
/// // does not fit.
/// let safe = CastOptions { safe: true, ..CastOptions::default() };
/// let plan = CastPlan::new(&from, &to, &safe)?;
/// // Once per batch:
/// for batch in [vec![Some(1_250), None], vec![Some(-99_999_999_999), Some(-5)]] {
///     let a = Decimal128Array::from(batch).with_precision_and_scale(12, 3)?;
///     let cast = plan.run(&a)?;
///     assert_eq!(cast.data_type(), plan.to_type());
///     let cast = cast.as_any().downcast_ref::<Decimal64Array>().expect("Decimal64");
///     assert_eq!(cast.len(), 2);
/// }
/// // Spark's rules: a decimal to an integer truncates toward zero.
/// let spark = CastPlan::with_profile(&from, &DataType::Int32, &ArithmeticOptions::spark())?;
/// let a = Decimal128Array::from(vec![-2_599, 2_550]).with_precision_and_scale(12, 3)?;
/// let ints = spark.run(&a)?;
/// assert_eq!(ints.as_any().downcast_ref::<Int32Array>().expect("Int32").values(), &[-2, 2]);
/// // An array of another type than planned is refused.
/// let other = Decimal128Array::from(vec![1]).with_precision_and_scale(12, 2)?;
/// assert!(matches!(plan.run(&other), Err(ArrowError::InvalidArgumentError(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct CastPlan<'a> {
    from: DataType,
    to: DataType,
    rules: CastRules,
    route: Route<'a>,
}

/// Which cast a plan runs.
#[derive(Clone, Debug)]
enum Route<'a> {
    /// Between a decimal and an integer, a float or a string.
    Typed(CastFn),
    /// Decimal to decimal: the rescale to the target type, stored at its
    /// Arrow width `width`.
    Rescale { rescale: UnaryPlan, to: DecimalType, width: StorageWidth },
    /// A pair without a decimal side (or `Float16`): arrow-cast's own.
    ArrowCast(CastOptions<'a>),
}

impl<'a> CastPlan<'a> {
    /// The cast of arrays of type `from` to `to_type` under arrow-cast's rules
    /// and `options`: what [`cast`](super::cast) does with them.
    ///
    /// # Errors
    /// As [`cast`](super::cast) for the types: arrow-rs's type error for a
    /// decimal target its Arrow width cannot have, and
    /// [`ArrowError::InvalidArgumentError`] for a decimal type outside this
    /// crate's range.
    pub fn new(
        from: &DataType,
        to_type: &DataType,
        options: &CastOptions<'a>,
    ) -> Result<Self, ArrowError> {
        let on_overflow = if options.safe { OverflowPolicy::Null } else { OverflowPolicy::Error };
        Self::planned(from, to_type, CastRules::ArrowCast(on_overflow), options)
    }

    /// The cast of arrays of type `from` to `to_type` under `options`'
    /// profile, rounding mode and overflow policy: what
    /// [`cast_with`](super::cast_with) does with them.
    ///
    /// # Errors
    /// As [`cast_with`](super::cast_with) for the types.
    pub fn with_profile(
        from: &DataType,
        to_type: &DataType,
        options: &ArithmeticOptions,
    ) -> Result<CastPlan<'static>, ArrowError> {
        let safe = options.on_overflow() == OverflowPolicy::Null;
        let cast_options = CastOptions { safe, ..CastOptions::default() };
        if let Semantics::Arrow { .. } = options.semantics() {
            return CastPlan::new(from, to_type, &cast_options);
        }
        CastPlan::planned(from, to_type, CastRules::Profile(*options), &cast_options)
    }

    fn planned(
        from: &DataType,
        to_type: &DataType,
        rules: CastRules,
        options: &CastOptions<'a>,
    ) -> Result<Self, ArrowError> {
        let route = if let Some(cast) = number_route(from, to_type) {
            Route::Typed(cast)
        } else if let Some(cast) = text_route(from, to_type) {
            Route::Typed(cast)
        } else if decimal_width(from).is_none() || decimal_width(to_type).is_none() {
            Route::ArrowCast(options.clone())
        } else {
            validate_arrow_decimal(to_type)?;
            let ((operand, _), (to, width)) = (decimal_type(from)?, decimal_type(to_type)?);
            let op = UnaryOp::Rescale { to };
            let rescale = match rules {
                // arrow-cast's: half away from zero, stored at the target's
                // width, whatever the Arrow profile's width would be.
                CastRules::ArrowCast(on_overflow) => {
                    let options = ArithmeticOptions::arrow(width)
                        .with_rounding(RoundingMode::HalfUp)
                        .with_on_overflow(on_overflow);
                    UnaryPlan::stored(op, operand, ResultStorage::Exact(width), &options)
                }
                CastRules::Profile(options) => UnaryPlan::new(op, operand, &options),
            };
            Route::Rescale { rescale: rescale?, to, width }
        };
        Ok(Self { from: from.clone(), to: to_type.clone(), rules, route })
    }

    /// The type the plan casts from.
    #[must_use]
    pub fn from_type(&self) -> &DataType {
        &self.from
    }

    /// The type of its results.
    #[must_use]
    pub fn to_type(&self) -> &DataType {
        &self.to
    }

    /// `array` cast to the planned type.
    ///
    /// # Errors
    /// [`ArrowError::InvalidArgumentError`] for an array of another type
    /// than planned; otherwise what [`cast`](super::cast) (a plan of
    /// [`new`](Self::new)) or [`cast_with`](super::cast_with) (of
    /// [`with_profile`](Self::with_profile)) returns for the rows.
    pub fn run(&self, array: &dyn Array) -> Result<ArrayRef, ArrowError> {
        if array.data_type() != &self.from {
            return Err(ArrowError::InvalidArgumentError(format!(
                "a cast planned from {} is given an array of {}",
                self.from,
                array.data_type()
            )));
        }
        match &self.route {
            Route::Typed(cast) => cast(array, &self.to, self.rules),
            Route::ArrowCast(options) => arrow_cast::cast_with_options(array, &self.to, options),
            Route::Rescale { rescale, to, width } => {
                let decimals = DecimalArray::from_arrow(array)?;
                match (rescale.run(&decimals), self.rules) {
                    (Ok(cast), CastRules::ArrowCast(_)) => Ok(cast.to_arrow()),
                    (Ok(cast), CastRules::Profile(_)) => at_arrow_width(&cast, *width),
                    (Err(DecimalError::UnaryOverflow { row, .. }), CastRules::ArrowCast(_)) => {
                        Err(cast_error(&decimals, row, *to, &self.to))
                    }
                    (Err(e), _) => Err(e.into()),
                }
            }
        }
    }
}

/// arrow-cast's error for the first row of `from` that does not fit
/// `to_type`: its precision error when the cast value fits the target's
/// native integer, its overflow error naming the source value otherwise.
fn cast_error(from: &DecimalArray, row: usize, to: DecimalType, to_type: &DataType) -> ArrowError {
    let value = from.values().get(row).unwrap_or(i256::ZERO);
    let exact =
        rescaled(&i256_to_bigint(value), from.dtype().scale(), to.scale(), RoundingMode::HalfUp);
    let exact = bigint_to_i256(&exact);
    overflow_error(to_type, exact, &value)
}
