//! Spark's rules (Apache Spark 4.3, `DecimalPrecision` and the arithmetic
//! expressions' `resultDecimalType`), with and without
//! `spark.sql.decimalOperations.allowPrecisionLoss`. Spark has no precision
//! above 38.
//!
//! | rule | Spark |
//! |---|---|
//! | `+ -` | `decimal(max(p1 - s1, p2 - s2) + max(s1, s2) + 1, max(s1, s2))`, bounded |
//! | `*` | `decimal(p1 + p2 + 1, s1 + s2)`, bounded |
//! | `/` | with precision loss: `s = max(6, s1 + p2 + 1)`, `decimal(p1 - s1 + s2 + s, s)`, bounded; without: 38 digits split between `min(38, p1 - s1 + s2)` integer and `clamp(s1 + p2 + 1, 6, 38)` fraction digits, each giving up half the excess |
//! | `%` | `decimal(min(38, min(p1 - s1, p2 - s2) + max(s1, s2)), max(s1, s2))` |
//! | bounded to 38 digits | with precision loss: the integer digits kept and at least `min(s, 6)` fraction digits; without: precision and scale each at most 38 |
//! | `sum` | `decimal(min(38, p + 10), min(38, s))` |
//! | `avg` | `decimal(min(38, p + 4), min(38, s + 4))` |
//! | `min`, `max` | `decimal(p, s)` |
//! | `round` … to `d` (`RoundBase`) | `d >= 0`: `decimal(min(38, p - s + 1 + min(s, d)), min(s, d))`; `d < 0`: `decimal(min(38, max(p - s + 1, 1 - d)), 0)` |
//! | casts to integers | toward zero |
//! | casts into decimals | half away from zero (`HALF_UP`) |
//! | floats into decimals | their shortest text |
//! | storage | `i128` (`i256` for a wider type) |

use super::rule::{ENGINE_MAX, Rules, remainder_type, sum_type};
use crate::types::{AggregateOp, BinaryOp, RoundFunction, RoundingMode, StorageWidth};

/// Spark's rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spark {
    /// `spark.sql.decimalOperations.allowPrecisionLoss`.
    pub(crate) allow_precision_loss: bool,
}

/// The fraction digits Spark keeps at least when a type is bounded to 38
/// digits with precision loss (its `MINIMUM_ADJUSTED_SCALE`).
const MIN_ADJUSTED_SCALE: i32 = 6;

/// Spark has no precision above 38.
fn within_38(precision: i64) -> Result<(), String> {
    if precision > i64::from(ENGINE_MAX) {
        return Err(format!("Spark has no precision above {ENGINE_MAX}"));
    }
    Ok(())
}

impl Rules for Spark {
    fn binary_type(
        &self,
        op: BinaryOp,
        (p1, s1): (i32, i32),
        (p2, s2): (i32, i32),
    ) -> Result<(i32, i32), String> {
        within_38(p1.max(p2).into())?;
        let loss = self.allow_precision_loss;
        // The type before Spark bounds it to 38 digits.
        let (p, s) = match op {
            BinaryOp::Add | BinaryOp::Sub => sum_type((p1, s1), (p2, s2), 1, i32::MAX),
            BinaryOp::Mul => (p1 + p2 + 1, s1 + s2),
            // Never beyond 38 digits: bounding leaves it as it is.
            BinaryOp::Rem => remainder_type((p1, s1), (p2, s2), ENGINE_MAX),
            BinaryOp::Div if !loss => {
                // Without precision loss a quotient splits 38 digits between
                // integer and fraction digits, taking from both when both ask
                // more.
                let integer = (p1 - s1 + s2).min(ENGINE_MAX);
                let fraction = (s1 + p2 + 1).clamp(MIN_ADJUSTED_SCALE, ENGINE_MAX);
                let excess = integer + fraction - ENGINE_MAX;
                if excess > 0 {
                    let fraction = fraction - (excess / 2 + 1);
                    return Ok((ENGINE_MAX, fraction));
                }
                return Ok((integer + fraction, fraction));
            }
            BinaryOp::Div => {
                let s = (s1 + p2 + 1).max(MIN_ADJUSTED_SCALE);
                (p1 - s1 + s2 + s, s)
            }
        };
        Ok(if !loss {
            (p.min(ENGINE_MAX), s.min(ENGINE_MAX))
        } else if p <= ENGINE_MAX {
            (p, s)
        } else if s < 0 {
            // Fraction digits cannot be given up: the integer digits are kept.
            (ENGINE_MAX, s)
        } else {
            // Keep every integer digit if 38 allow, but at least min(s, 6)
            // fraction digits.
            let integer = p - s;
            (ENGINE_MAX, (ENGINE_MAX - integer).max(s.min(MIN_ADJUSTED_SCALE)))
        })
    }

    fn aggregate_type(&self, op: AggregateOp, (p, s): (i32, i32)) -> Result<(i32, i32), String> {
        within_38(p.into())?;
        Ok(match op {
            AggregateOp::Sum => ((p + 10).min(ENGINE_MAX), s.min(ENGINE_MAX)),
            AggregateOp::Avg => ((p + 4).min(ENGINE_MAX), (s + 4).min(ENGINE_MAX)),
            _ => (p, s),
        })
    }

    fn round_type(
        &self,
        _: RoundFunction,
        d: i64,
        (p, s): (i64, i64),
    ) -> Result<(i64, i64), String> {
        within_38(p)?;
        let most = i64::from(ENGINE_MAX);
        let integer_digits = p - s + 1;
        Ok(if d >= 0 {
            let kept = s.min(d);
            ((integer_digits + kept).min(most), kept)
        } else {
            (integer_digits.max(1 - d).min(most), 0)
        })
    }

    fn integer_rounding(&self) -> RoundingMode {
        RoundingMode::TowardZero
    }

    fn decimal_rounding(&self) -> RoundingMode {
        RoundingMode::HalfUp
    }

    fn reads_floats_as_shortest_text(&self) -> bool {
        true
    }

    fn stored_width(&self, needed: StorageWidth) -> Option<StorageWidth> {
        Some(needed.max(StorageWidth::I128))
    }
}
