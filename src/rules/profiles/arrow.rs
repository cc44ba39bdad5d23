//! The Arrow profile: arrow-rs's arithmetic (`arrow-arith`) and casts
//! (`arrow-cast`), and DataFusion 55's aggregates and `round`, at the storage
//! width `W` of the operands (`Decimal32` to `Decimal256`).
//!
//! | rule | Arrow at width `W` (`max(W)` its most digits) |
//! |---|---|
//! | operands | at most `max(W)` digits; no width below `Decimal32` |
//! | `+ -` | `decimal(min(max(W), max(p1 - s1, p2 - s2) + max(s1, s2) + 1), max(s1, s2))` |
//! | `*` | `decimal(min(max(W), p1 + p2 + 1), s1 + s2)`, `s1 + s2` within `-76..=max(W)` |
//! | `/` | `s = min(max(W), s1 + 4)`: `decimal(min(max(W), max(p1 - s1 + s2 + s, s, 1)), s)` |
//! | `%` | `decimal(min(max(W), min(p1 - s1, p2 - s2) + max(s1, s2)), max(s1, s2))` |
//! | `sum` | `decimal(min(max(W), p + 10), s)` |
//! | `avg` | `decimal(min(max(W), p + 4), min(max(W), s + 4))` |
//! | `min`, `max` | `decimal(p, s)` |
//! | `round` … to `d` | `s > 0`: `decimal(p, min(s, max(d, 0)))`; `s = 0`: `decimal(min(p + 1, max(W)), 0)` for `-p <= d < 0`, else `x`'s type; `s < 0`: `decimal(p, max(min(s, d), -p))` |
//! | casts to integers | toward zero |
//! | casts into decimals | half away from zero |
//! | floats into decimals | their exact binary value |
//! | storage | `W` |

use super::rule::{Rules, remainder_type, sum_type};
use crate::types::{AggregateOp, BinaryOp, MAX_PRECISION, RoundFunction, RoundingMode, StorageWidth};

/// The Arrow profile's rules at the operands' width.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arrow {
    /// The width of the operands, and of the results.
    pub(crate) width: StorageWidth,
}

impl Arrow {
    /// The most digits of the width, after checking that Arrow has it and
    /// that `precision` fits it.
    fn most_digits(&self, precision: i32, what: &str) -> Result<i32, String> {
        let width = self.width;
        if width < StorageWidth::I32 {
            return Err(format!("Arrow has no {width} decimal"));
        }
        let max = i32::from(width.max_precision());
        if precision > max {
            return Err(format!("{what} exceeds {max}, the most of {width}"));
        }
        Ok(max)
    }
}

impl Rules for Arrow {
    fn binary_type(
        &self,
        op: BinaryOp,
        (p1, s1): (i32, i32),
        (p2, s2): (i32, i32),
    ) -> Result<(i32, i32), String> {
        let max = self.most_digits(p1.max(p2), "an operand's precision")?;
        Ok(match op {
            BinaryOp::Add | BinaryOp::Sub => sum_type((p1, s1), (p2, s2), 1, max),
            BinaryOp::Rem => remainder_type((p1, s1), (p2, s2), max),
            BinaryOp::Mul => {
                let s = s1 + s2;
                if !(-i32::from(MAX_PRECISION)..=max).contains(&s) {
                    return Err(format!("the product's scale {s} is outside -76..={max}"));
                }
                ((p1 + p2 + 1).min(max), s)
            }
            BinaryOp::Div => {
                let s = (s1 + 4).min(max);
                ((p1 + s - s1 + s2).max(s.max(1)).min(max), s)
            }
        })
    }

    fn aggregate_type(&self, op: AggregateOp, (p, s): (i32, i32)) -> Result<(i32, i32), String> {
        let max = self.most_digits(p, "the precision")?;
        Ok(match op {
            AggregateOp::Sum => ((p + 10).min(max), s),
            AggregateOp::Avg => ((p + 4).min(max), (s + 4).min(max)),
            // The extreme is one of the values: every engine keeps the
            // input's type.
            _ => (p, s),
        })
    }

    fn round_type(
        &self,
        _: RoundFunction,
        d: i64,
        (p, s): (i64, i64),
    ) -> Result<(i64, i64), String> {
        let max = i64::from(self.width.max_precision());
        Ok(if s < 0 {
            // The scale moves down to the digits (not below `-p`): the
            // dropped digits free one for the carry.
            (p, s.min(d).max(-p))
        } else if s == 0 && d < 0 && -d <= p {
            // Nothing below the point to give up: the carry needs a digit.
            ((p + 1).min(max), 0)
        } else {
            (p, s.min(d.max(0)))
        })
    }

    fn integer_rounding(&self) -> RoundingMode {
        RoundingMode::TowardZero
    }

    fn decimal_rounding(&self) -> RoundingMode {
        RoundingMode::HalfUp
    }

    fn reads_floats_as_shortest_text(&self) -> bool {
        false
    }

    fn stored_width(&self, needed: StorageWidth) -> Option<StorageWidth> {
        (self.width >= StorageWidth::I32 && needed <= self.width).then_some(self.width)
    }
}
