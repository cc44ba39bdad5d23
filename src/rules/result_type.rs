//! Result types of the operators and aggregates, each profile's rule (the
//! rules themselves, one file per engine, are in `rules/profiles/`), and the
//! check that a planned result type has an exact result to round.

use crate::rules::profiles::rules;
use crate::types::{AggregateOp, ArithmeticOptions, BinaryOp, DecimalError, DecimalType, UnaryOp};

impl BinaryOp {
    /// The result type of `lhs op rhs` under the options' profile.
    ///
    /// ```
    /// use decimal_kernels::{ArithmeticOptions, BinaryOp, DecimalType, StorageWidth};
    /// let t = DecimalType::try_new(10, 2)?;
    /// assert_eq!(BinaryOp::Mul.result_type(t, t, &ArithmeticOptions::default())?, t);
    /// let arrow = ArithmeticOptions::arrow(StorageWidth::I128);
    /// assert_eq!(BinaryOp::Div.result_type(t, t, &arrow)?.to_string(), "decimal(16,6)");
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::UnsupportedTypes`] when the profile rejects the operands
    /// (Arrow: an operand wider than the profile's width, a product scale beyond
    /// it, a width other than I32, I64, I128, I256).
    pub fn result_type(
        self,
        lhs: DecimalType,
        rhs: DecimalType,
        options: &ArithmeticOptions,
    ) -> Result<DecimalType, DecimalError> {
        binary_result_type(self, lhs, rhs, options)
    }
}

impl UnaryOp {
    /// The result type for an operand of type `operand`: the same in every
    /// profile for `Rescale`, `Neg` and `Abs`; FixedPoint's for `Round`,
    /// whose type depends on the profile
    /// ([`result_type_under`](Self::result_type_under)).
    #[must_use]
    pub fn result_type(self, operand: DecimalType) -> DecimalType {
        match self {
            Self::Rescale { to } => to,
            Self::Neg | Self::Abs => operand,
            Self::Round { digits, .. } => crate::rules::round::fixed_point_type(operand, digits),
        }
    }
}

impl AggregateOp {
    /// The result type of `op` over a column of type `input` under the options'
    /// profile (sources in the [semantics](crate::semantics#aggregates)):
    ///
    /// | profile | `sum` | `avg` | `min`, `max` |
    /// |---|---|---|---|
    /// | FixedPoint | `decimal(min(76, p+10), s)` | `decimal(p, s)` | `decimal(p, s)` |
    /// | Arrow at width `W` (DataFusion) | `decimal(min(max(W), p+10), s)` | `decimal(min(max(W), p+4), min(max(W), s+4))` | `decimal(p, s)` |
    /// | Spark | `decimal(min(38, p+10), min(38, s))` | `decimal(min(38, p+4), min(38, s+4))` | `decimal(p, s)` |
    /// | Presto, Trino | `decimal(38, s)` | `decimal(p, s)` | `decimal(p, s)` |
    ///
    /// ```
    /// use decimal_kernels::aggregate::AggregateOp;
    /// use decimal_kernels::{ArithmeticOptions, DecimalType, StorageWidth};
    /// let t = DecimalType::try_new(15, 2)?;
    /// let arrow = ArithmeticOptions::arrow(StorageWidth::I128);
    /// assert_eq!(AggregateOp::Sum.result_type(t, &arrow)?.to_string(), "decimal(25,2)");
    /// assert_eq!(AggregateOp::Avg.result_type(t, &arrow)?.to_string(), "decimal(19,6)");
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::UnsupportedAggregate`] when the profile has no such
    /// input: an Arrow width below `I32` or an input wider than it, a precision
    /// above 38 for Spark, Presto and Trino, a negative scale for Presto and Trino.
    pub fn result_type(
        self,
        input: DecimalType,
        options: &ArithmeticOptions,
    ) -> Result<DecimalType, DecimalError> {
        aggregate_result_type(self, input, options)
    }
}

/// Rounded sums the kernels always serve: an aligned sum of at most 152
/// digits is exact in their widest (512-bit) type, and so is any sum whose
/// rounded result cannot hide a saturated one (`p + k <= 153`, as
/// `10^153 < 2^510`).
const MOST_EXACT_SUM_DIGITS: i32 = 152;
const MOST_ROUNDED_SUM_DIGITS: i32 = 153;

/// Refuses a result type (a profile's, or one a caller planned) at which
/// `lhs op rhs` has no exact result to round:
///
/// - a remainder at a scale below the operands' aligned scale (it is exact
///   at any scale from that one up, and below it would need rounding, which
///   a rescale of the exact result gives; no engine rounds a remainder);
/// - a sum or difference rounded by more than 77 digits whose exact value
///   would need more than 152 (operand scales more than 76 digits apart).
///
/// No profile's own result type is refused; every row of a call is, nulls
/// and empty calls included.
///
/// # Errors
/// [`DecimalError::UnsupportedTypes`] naming the reason.
pub(crate) fn check_exact(
    op: BinaryOp,
    lhs: DecimalType,
    rhs: DecimalType,
    result: DecimalType,
) -> Result<(), DecimalError> {
    let scale = |t: DecimalType| i32::from(t.scale());
    let (s1, s2, rs) = (scale(lhs), scale(rhs), scale(result));
    let aligned = s1.max(s2);
    let reason = match op {
        BinaryOp::Rem if rs < aligned => {
            format!("a remainder is exact at scale {aligned}; rescale it to scale {rs}")
        }
        BinaryOp::Add | BinaryOp::Sub if rs < aligned => {
            let digits = |t: DecimalType| i32::from(t.precision()) + aligned - scale(t);
            let digits = digits(lhs).max(digits(rhs));
            let rounded = i32::from(result.precision()) + aligned - rs;
            if digits <= MOST_EXACT_SUM_DIGITS || rounded <= MOST_ROUNDED_SUM_DIGITS {
                return Ok(());
            }
            format!("the exact sum would need {digits} digits before rounding to scale {rs}")
        }
        _ => return Ok(()),
    };
    Err(DecimalError::UnsupportedTypes { op, lhs, rhs, reason })
}

fn binary_result_type(
    op: BinaryOp,
    lhs: DecimalType,
    rhs: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalType, DecimalError> {
    let unsupported = |reason: String| DecimalError::UnsupportedTypes { op, lhs, rhs, reason };
    let pair = |t: DecimalType| (i32::from(t.precision()), i32::from(t.scale()));
    let (precision, scale) =
        rules(options).get().binary_type(op, pair(lhs), pair(rhs)).map_err(unsupported)?;
    DecimalType::try_from_ints(precision, scale)
        .map_err(|_| unsupported(format!("decimal({precision},{scale}) is not a valid type")))
}

fn aggregate_result_type(
    op: AggregateOp,
    input: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalType, DecimalError> {
    let unsupported = |reason: String| DecimalError::UnsupportedAggregate { op, input, reason };
    let input_pair = (i32::from(input.precision()), i32::from(input.scale()));
    let (precision, scale) =
        rules(options).get().aggregate_type(op, input_pair).map_err(unsupported)?;
    DecimalType::try_from_ints(precision, scale)
        .map_err(|_| unsupported(format!("decimal({precision},{scale}) is not a valid type")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::StorageWidth;
    use rstest::rstest;

    fn t(p: u8, s: i8) -> DecimalType {
        DecimalType::try_new(p, s).unwrap()
    }

    // The Arrow worked examples of docs/semantics.md#examples.
    #[rstest]
    #[case::mul_same(BinaryOp::Mul, t(10, 2), t(10, 2), "decimal(21,4)")]
    #[case::div_same(BinaryOp::Div, t(10, 2), t(10, 2), "decimal(16,6)")]
    #[case::add_mixed(BinaryOp::Add, t(10, 2), t(5, 3), "decimal(12,3)")]
    #[case::mul_mixed(BinaryOp::Mul, t(10, 2), t(5, 3), "decimal(16,5)")]
    #[case::div_mixed(BinaryOp::Div, t(10, 2), t(5, 3), "decimal(17,6)")]
    #[case::div_mixed_reversed(BinaryOp::Div, t(5, 3), t(10, 2), "decimal(11,7)")]
    fn arrow_128(
        #[case] op: BinaryOp,
        #[case] lhs: DecimalType,
        #[case] rhs: DecimalType,
        #[case] want: &str,
    ) {
        let opts = ArithmeticOptions::arrow(StorageWidth::I128);
        assert_eq!(op.result_type(lhs, rhs, &opts).unwrap().to_string(), want);
    }

    #[test]
    fn arrow_product_scale_beyond_width_is_rejected() {
        let opts = ArithmeticOptions::arrow(StorageWidth::I128);
        let err = BinaryOp::Mul.result_type(t(38, 20), t(38, 20), &opts).unwrap_err();
        assert!(matches!(err, DecimalError::UnsupportedTypes { .. }), "{err}");
    }

    #[rstest]
    #[case::too_narrow_width(StorageWidth::I16, t(4, 2))]
    #[case::operand_too_wide(StorageWidth::I64, t(19, 2))]
    fn arrow_rejects(#[case] width: StorageWidth, #[case] operand: DecimalType) {
        let opts = ArithmeticOptions::arrow(width);
        assert!(BinaryOp::Add.result_type(operand, operand, &opts).is_err());
    }

    #[rstest]
    #[case::same_type(BinaryOp::Mul, t(10, 2), t(10, 2), "decimal(10,2)")]
    #[case::mixed_scales(BinaryOp::Add, t(10, 2), t(5, 5), "decimal(13,5)")]
    #[case::negative_scale(BinaryOp::Div, t(10, -2), t(10, -2), "decimal(10,-2)")]
    #[case::capped(BinaryOp::Add, t(76, 0), t(76, 76), "decimal(76,76)")]
    fn fixed_point(
        #[case] op: BinaryOp,
        #[case] lhs: DecimalType,
        #[case] rhs: DecimalType,
        #[case] want: &str,
    ) {
        let opts = ArithmeticOptions::fixed_point();
        assert_eq!(op.result_type(lhs, rhs, &opts).unwrap().to_string(), want);
    }

    // Spark's types from its own published results and rules (issue cases and
    // `decimalArithmeticOperations.sql`), with and without precision loss.
    #[rstest]
    #[case::div_small(BinaryOp::Div, t(2, 1), t(2, 1), "decimal(8,6)", "decimal(8,6)")]
    #[case::div_money(BinaryOp::Div, t(10, 2), t(10, 2), "decimal(23,13)", "decimal(23,13)")]
    #[case::div_wide(BinaryOp::Div, t(38, 18), t(38, 18), "decimal(38,6)", "decimal(38,18)")]
    #[case::div_tiny_divisor(
        BinaryOp::Div,
        t(26, 12),
        t(15, 15),
        "decimal(38,9)",
        "decimal(38,18)"
    )]
    #[case::mul_wide(BinaryOp::Mul, t(38, 18), t(38, 18), "decimal(38,6)", "decimal(38,36)")]
    #[case::mul_literals(BinaryOp::Mul, t(3, 1), t(2, 1), "decimal(6,2)", "decimal(6,2)")]
    #[case::add_wide(BinaryOp::Add, t(38, 10), t(38, 10), "decimal(38,9)", "decimal(38,10)")]
    #[case::sub_mixed(BinaryOp::Sub, t(10, 2), t(5, 3), "decimal(12,3)", "decimal(12,3)")]
    #[case::mul_negative_scale(BinaryOp::Mul, t(10, -2), t(38, 0), "decimal(38,-2)", "decimal(38,-2)")]
    fn spark(
        #[case] op: BinaryOp,
        #[case] lhs: DecimalType,
        #[case] rhs: DecimalType,
        #[case] with_loss: &str,
        #[case] without_loss: &str,
    ) {
        let typed = |opts| op.result_type(lhs, rhs, &opts).unwrap().to_string();
        assert_eq!(typed(ArithmeticOptions::spark()), with_loss);
        assert_eq!(typed(ArithmeticOptions::spark_no_precision_loss()), without_loss);
    }

    // Presto's and Trino's types (their `TestDecimalOperators` and the issue's cases).
    #[rstest]
    #[case::div_small(BinaryOp::Div, t(2, 1), t(2, 1), "decimal(3,1)")]
    #[case::div_larger_divisor_scale(BinaryOp::Div, t(10, 2), t(5, 3), "decimal(14,3)")]
    #[case::add(BinaryOp::Add, t(4, 1), t(3, 1), "decimal(5,1)")]
    #[case::add_capped(BinaryOp::Add, t(38, 0), t(38, 0), "decimal(38,0)")]
    #[case::mul(BinaryOp::Mul, t(2, 1), t(2, 1), "decimal(4,2)")]
    #[case::mul_capped(BinaryOp::Mul, t(38, 10), t(5, 2), "decimal(38,12)")]
    fn presto(
        #[case] op: BinaryOp,
        #[case] lhs: DecimalType,
        #[case] rhs: DecimalType,
        #[case] want: &str,
    ) {
        let opts = ArithmeticOptions::presto();
        assert_eq!(op.result_type(lhs, rhs, &opts).unwrap().to_string(), want);
    }

    #[rstest]
    #[case::spark_beyond_38(ArithmeticOptions::spark(), BinaryOp::Add, t(39, 0), t(1, 0))]
    #[case::presto_beyond_38(ArithmeticOptions::presto(), BinaryOp::Add, t(1, 0), t(39, 0))]
    #[case::presto_negative_scale(ArithmeticOptions::presto(), BinaryOp::Add, t(5, -2), t(1, 0))]
    #[case::presto_product_scale(ArithmeticOptions::presto(), BinaryOp::Mul, t(38, 20), t(38, 20))]
    fn engines_reject(
        #[case] opts: ArithmeticOptions,
        #[case] op: BinaryOp,
        #[case] lhs: DecimalType,
        #[case] rhs: DecimalType,
    ) {
        let err = op.result_type(lhs, rhs, &opts).unwrap_err();
        assert!(matches!(err, DecimalError::UnsupportedTypes { .. }), "{err}");
    }
}
