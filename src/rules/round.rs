//! The types of `round(x, d)`, `floor`, `ceil` and `trunc` by profile, and
//! the digits a rounding drops and appends.
//!
//! For `x` of `decimal(p, s)` (sources in the
//! [semantics](crate::semantics#round)):
//!
//! | profile | type |
//! |---|---|
//! | FixedPoint | `decimal(p, min(s, max(d, 0)))` |
//! | Arrow at width `W` (DataFusion 55's `round`) | `s > 0`: `decimal(p, min(s, max(d, 0)))`; `s = 0`: `decimal(min(p + 1, max(W)), 0)` for `-p <= d < 0`, else `x`'s type; `s < 0`: `decimal(p, max(min(s, d), -p))` |
//! | Spark (`RoundBase`) | `d >= 0`: `decimal(min(38, p - s + 1 + min(s, d)), min(s, d))`; `d < 0`: `decimal(min(38, max(p - s + 1, 1 - d)), 0)` |
//! | Presto, Trino | `trunc`: `x`'s type; the others `decimal(min(38, p + 1), s)` |
//!
//! The value is `x` rounded at scale `min(s, d)` with the function's mode,
//! then stored at the result scale (which is never below `min(s, d)`): `s -
//! min(s, d)` digits dropped, then `rs - min(s, d)` zeros appended.

use crate::rules::profiles::{fixed_point, rules};
use crate::types::{ArithmeticOptions, DecimalError, DecimalType, RoundFunction, UnaryOp};

/// Dropping this many digits rounds any stored value to `-1`, `0` or `1`
/// exactly as dropping more does: every stored value is below
/// `2^255 < 10^78 / 2`, so its dropped part alone decides the mode.
const MOST_DROPPED: i64 = 78;

/// A non-zero value with this many zeros appended exceeds every precision
/// (`10^77 > 10^76 - 1`), as it does with more.
const MOST_APPENDED: i64 = 77;

impl UnaryOp {
    /// The result type for an operand of type `operand` under the options'
    /// profile: [`result_type`](Self::result_type) for `Rescale`, `Neg` and
    /// `Abs`; for [`Round`](Self::Round), the profile's rule:
    ///
    /// | profile | `round(x, d)`, `x` of `decimal(p, s)` |
    /// |---|---|
    /// | FixedPoint | `decimal(p, min(s, max(d, 0)))` |
    /// | Arrow at width `W` (DataFusion 55) | `s > 0`: `decimal(p, min(s, max(d, 0)))`; `s = 0`: `decimal(min(p + 1, max(W)), 0)` for `-p <= d < 0`, else `x`'s type; `s < 0`: `decimal(p, max(min(s, d), -p))` |
    /// | Spark | `d >= 0`: `decimal(min(38, p - s + 1 + min(s, d)), min(s, d))`; `d < 0`: `decimal(min(38, max(p - s + 1, 1 - d)), 0)` |
    /// | Presto, Trino | `trunc`: `x`'s type; the others `decimal(min(38, p + 1), s)` |
    ///
    /// ```
    /// use decimal_kernels::{ArithmeticOptions, DecimalType, RoundFunction, UnaryOp};
    /// let t = DecimalType::try_new(4, 2)?;
    /// let round = UnaryOp::Round { function: RoundFunction::Round, digits: 1 };
    /// assert_eq!(round.result_type_under(t, &ArithmeticOptions::default())?.to_string(), "decimal(4,1)");
    /// assert_eq!(round.result_type_under(t, &ArithmeticOptions::spark())?.to_string(), "decimal(4,1)");
    /// assert_eq!(round.result_type_under(t, &ArithmeticOptions::presto())?.to_string(), "decimal(5,2)");
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::UnsupportedOperand`] for a precision above 38 under
    /// Spark, Presto and Trino, and a negative scale under Presto and Trino.
    pub fn result_type_under(
        self,
        operand: DecimalType,
        options: &ArithmeticOptions,
    ) -> Result<DecimalType, DecimalError> {
        match self {
            Self::Round { function, digits } => round_type(function, digits, operand, options),
            _ => Ok(self.result_type(operand)),
        }
    }
}

/// The profile's type of `function(operand, digits)`.
fn round_type(
    function: RoundFunction,
    digits: i32,
    operand: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalType, DecimalError> {
    let op = UnaryOp::Round { function, digits };
    let pair = (i64::from(operand.precision()), i64::from(operand.scale()));
    let (precision, scale) = rules(options)
        .get()
        .round_type(function, digits.into(), pair)
        .map_err(|reason| DecimalError::UnsupportedOperand { op, operand, reason })?;
    // Every rule keeps `-76 <= scale <= precision <= 76`.
    let narrow = |v: i64| i32::try_from(v).unwrap_or(i32::MAX);
    DecimalType::try_from_ints(narrow(precision), narrow(scale))
}

/// FixedPoint's type of a rounding of `operand` to `digits`, whatever the
/// profile (see [`UnaryOp::result_type`]).
pub(crate) fn fixed_point_type(operand: DecimalType, digits: i32) -> DecimalType {
    let pair = (i64::from(operand.precision()), i64::from(operand.scale()));
    let (_, scale) = fixed_point::round_type(pair, digits.into());
    // Between the operand's scale and 0 (or the operand's, when negative):
    // within `-76..=p`.
    DecimalType::new_in_range(operand.precision(), i8::try_from(scale).unwrap_or(i8::MAX))
}

/// What a rounding of a value at scale `operand_scale` to `digits`, stored
/// at `result_scale`, does to the stored integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RoundShape {
    /// Digits dropped with the function's mode.
    pub(crate) dropped: u32,
    /// Zeros appended after.
    pub(crate) appended: u32,
}

impl RoundShape {
    /// The shape, with counts beyond those that change a result capped
    /// ([`MOST_DROPPED`], [`MOST_APPENDED`]), so any `digits` is served.
    /// `result_scale` is never below `min(operand_scale, digits)` in a
    /// profile's type.
    pub(crate) fn new(operand_scale: i8, digits: i32, result_scale: i8) -> Self {
        let (s, rs) = (i64::from(operand_scale), i64::from(result_scale));
        let rounded_at = s.min(digits.into());
        let count = |digits: i64| u32::try_from(digits).unwrap_or(0);
        Self {
            dropped: count((s - rounded_at).min(MOST_DROPPED)),
            appended: count((rs - rounded_at).min(MOST_APPENDED)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::reference::round;
    use crate::types::RoundingMode;
    use crate::values::text::{pow10, precision_limit};
    use num_bigint::BigInt;
    use num_traits::Signed;

    /// `q * 10^appended` if within `precision` digits.
    fn within(q: BigInt, appended: u32, precision: u8) -> Option<BigInt> {
        let r = q * pow10(appended);
        (r.abs() <= precision_limit(precision)).then_some(r)
    }

    /// The capped counts give what the exact counts give, for the extreme
    /// stored values of every width, digit counts up to 400 beyond the caps,
    /// result scales from the rounding scale up, and the narrowest and
    /// widest precision.
    #[test]
    fn capped_counts_give_the_exact_results() {
        let extremes =
            [BigInt::from(2).pow(255) - 1, pow10(76) * 5, pow10(76) - 1, BigInt::from(1)];
        for s in [-76i8, -3, 0, 4, 76] {
            for digits in (i32::from(s) - 480..=i32::from(s) - 60).step_by(7) {
                let rounded_at = i32::from(s).min(digits);
                for rs in [s, 0, 76].into_iter().filter(|&rs| i32::from(rs) >= rounded_at) {
                    let shape = RoundShape::new(s, digits, rs);
                    let exact_dropped = (i32::from(s) - rounded_at).unsigned_abs();
                    let exact_appended = (i32::from(rs) - rounded_at).unsigned_abs();
                    for mode in RoundingMode::ALL {
                        for a in extremes.iter().flat_map(|v| [v.clone(), -v]) {
                            let q = round(&a, &pow10(exact_dropped), mode);
                            let capped_q = round(&a, &pow10(shape.dropped), mode);
                            for precision in [1, 76] {
                                let want = within(q.clone(), exact_appended, precision);
                                let got = within(capped_q.clone(), shape.appended, precision);
                                assert_eq!(
                                    got, want,
                                    "{a} at scale {s}, {digits} digits, {mode:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn digits_at_the_ends_of_i32() {
        assert_eq!(RoundShape::new(0, i32::MIN, 0), RoundShape { dropped: 78, appended: 77 });
        assert_eq!(RoundShape::new(-76, i32::MIN, 76), RoundShape { dropped: 78, appended: 77 });
        assert_eq!(RoundShape::new(5, i32::MAX, 5), RoundShape { dropped: 0, appended: 0 });
        assert_eq!(RoundShape::new(-5, i32::MAX, 0), RoundShape { dropped: 0, appended: 5 });
    }
}
