//! Presto's and Trino's rules (their `DecimalOperators`, aggregates and
//! `round`): no precision above 38, no negative scale, and rounding half
//! away from zero wherever digits are dropped.
//!
//! | rule | Presto, Trino |
//! |---|---|
//! | `+ -` | `decimal(min(38, max(p1 - s1, p2 - s2) + max(s1, s2) + 1), max(s1, s2))` |
//! | `*` | `decimal(min(38, p1 + p2), s1 + s2)`, `s1 + s2` at most 38 |
//! | `/` | `decimal(min(38, p1 + s2 + max(s2 - s1, 0)), max(s1, s2))` |
//! | `%` | `decimal(min(38, min(p1 - s1, p2 - s2) + max(s1, s2)), max(s1, s2))` |
//! | `sum` | `decimal(38, s)` |
//! | `avg`, `min`, `max` | `decimal(p, s)` |
//! | `trunc` to `d` | `x`'s type |
//! | `round`, `floor`, `ceil` to `d` | `decimal(min(38, p + 1), s)` |
//! | casts to integers, into decimals | half away from zero |
//! | floats into decimals | their shortest text |
//! | storage | `i128` (`i256` for a wider type) |

use super::rule::{ENGINE_MAX, Rules, remainder_type, sum_type};
use crate::types::{AggregateOp, BinaryOp, RoundFunction, RoundingMode, StorageWidth};

/// Presto's and Trino's rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Presto;

impl Rules for Presto {
    fn binary_type(
        &self,
        op: BinaryOp,
        (p1, s1): (i32, i32),
        (p2, s2): (i32, i32),
    ) -> Result<(i32, i32), String> {
        if p1.max(p2) > ENGINE_MAX || s1.min(s2) < 0 {
            return Err(format!(
                "Presto and Trino have no precision above {ENGINE_MAX} and no negative scale"
            ));
        }
        let s = s1.max(s2);
        Ok(match op {
            BinaryOp::Add | BinaryOp::Sub => sum_type((p1, s1), (p2, s2), 1, ENGINE_MAX),
            BinaryOp::Mul if s1 + s2 > ENGINE_MAX => {
                return Err(format!("the product's scale {} exceeds {ENGINE_MAX}", s1 + s2));
            }
            BinaryOp::Mul => ((p1 + p2).min(ENGINE_MAX), s1 + s2),
            BinaryOp::Div => ((p1 + s2 + (s2 - s1).max(0)).min(ENGINE_MAX), s),
            BinaryOp::Rem => remainder_type((p1, s1), (p2, s2), ENGINE_MAX),
        })
    }

    fn aggregate_type(&self, op: AggregateOp, (p, s): (i32, i32)) -> Result<(i32, i32), String> {
        if p > ENGINE_MAX {
            return Err(format!("Presto and Trino have no precision above {ENGINE_MAX}"));
        }
        if s < 0 {
            return Err("Presto and Trino have no negative scale".into());
        }
        Ok(match op {
            AggregateOp::Sum => (ENGINE_MAX, s),
            _ => (p, s),
        })
    }

    fn round_type(
        &self,
        function: RoundFunction,
        _: i64,
        (p, s): (i64, i64),
    ) -> Result<(i64, i64), String> {
        let most = i64::from(ENGINE_MAX);
        if p > most || s < 0 {
            return Err(
                "Presto and Trino have no precision above 38 and no negative scale".into()
            );
        }
        Ok(match function {
            RoundFunction::Trunc => (p, s),
            _ => ((p + 1).min(most), s),
        })
    }

    fn integer_rounding(&self) -> RoundingMode {
        RoundingMode::HalfUp
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
