//! Result types: each profile's rule for `decimal(p1,s1) op decimal(p2,s2)`.

use crate::error::DecimalError;
use crate::options::{ArithmeticOptions, BinaryOp, Semantics};
use crate::types::{DecimalType, MAX_PRECISION, StorageWidth};

/// The result type of `lhs op rhs` under the options' profile.
///
/// ```
/// use decimal_kernels::{result_type, ArithmeticOptions, BinaryOp, DecimalType, StorageWidth};
/// let t = DecimalType::try_new(10, 2)?;
/// assert_eq!(result_type(BinaryOp::Mul, t, t, &ArithmeticOptions::default())?, t);
/// let arrow = ArithmeticOptions::arrow(StorageWidth::I128);
/// assert_eq!(result_type(BinaryOp::Div, t, t, &arrow)?.to_string(), "decimal(16,6)");
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::UnsupportedTypes`] when the profile rejects the operands
/// (Arrow: an operand wider than the profile's width, a product scale beyond
/// it, a width other than I32, I64, I128, I256).
pub fn result_type(
    op: BinaryOp,
    lhs: DecimalType,
    rhs: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalType, DecimalError> {
    let unsupported = |reason: String| DecimalError::UnsupportedTypes { op, lhs, rhs, reason };
    let (p1, s1) = (i32::from(lhs.precision()), i32::from(lhs.scale()));
    let (p2, s2) = (i32::from(rhs.precision()), i32::from(rhs.scale()));
    let integer_digits = (p1 - s1).max(p2 - s2);
    let (precision, scale) = match options.semantics() {
        Semantics::FixedPoint => {
            let s = s1.max(s2);
            ((integer_digits + s).min(i32::from(MAX_PRECISION)), s)
        }
        Semantics::Arrow { width } => {
            if width < StorageWidth::I32 {
                return Err(unsupported(format!("Arrow has no {width} decimal")));
            }
            let max = i32::from(width.max_precision());
            if p1 > max || p2 > max {
                return Err(unsupported(format!(
                    "an operand's precision exceeds {max}, the most of {width}"
                )));
            }
            match op {
                BinaryOp::Add | BinaryOp::Sub => {
                    let s = s1.max(s2);
                    ((integer_digits + s + 1).min(max), s)
                }
                BinaryOp::Mul => {
                    let s = s1 + s2;
                    if !(-i32::from(MAX_PRECISION)..=max).contains(&s) {
                        return Err(unsupported(format!(
                            "the product's scale {s} is outside -76..={max}"
                        )));
                    }
                    ((p1 + p2 + 1).min(max), s)
                }
                BinaryOp::Div => {
                    let s = (s1 + 4).min(max);
                    ((p1 + s - s1 + s2).max(s.max(1)).min(max), s)
                }
            }
        }
    };
    DecimalType::try_from_ints(precision, scale)
        .map_err(|_| unsupported(format!("decimal({precision},{scale}) is not a valid type")))
}

/// The storage width of results under the options' profile.
pub(crate) fn result_width(result: DecimalType, options: &ArithmeticOptions) -> StorageWidth {
    match options.semantics() {
        Semantics::FixedPoint => result.storage_width(),
        Semantics::Arrow { width } => width,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(result_type(op, lhs, rhs, &opts).unwrap().to_string(), want);
    }

    #[test]
    fn arrow_product_scale_beyond_width_is_rejected() {
        let opts = ArithmeticOptions::arrow(StorageWidth::I128);
        let err = result_type(BinaryOp::Mul, t(38, 20), t(38, 20), &opts).unwrap_err();
        assert!(matches!(err, DecimalError::UnsupportedTypes { .. }), "{err}");
    }

    #[rstest]
    #[case::too_narrow_width(StorageWidth::I16, t(4, 2))]
    #[case::operand_too_wide(StorageWidth::I64, t(19, 2))]
    fn arrow_rejects(#[case] width: StorageWidth, #[case] operand: DecimalType) {
        let opts = ArithmeticOptions::arrow(width);
        assert!(result_type(BinaryOp::Add, operand, operand, &opts).is_err());
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
        assert_eq!(result_type(op, lhs, rhs, &opts).unwrap().to_string(), want);
    }
}
