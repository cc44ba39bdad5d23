//! FixedPoint, the crate's own profile: every result exact at the larger
//! scale of its operands, up to 76 digits, rounded by the options' mode
//! wherever digits are dropped (sources and examples in the
//! [semantics](crate::semantics)).
//!
//! | rule | FixedPoint |
//! |---|---|
//! | `+ - * /` | `decimal(min(76, max(p1 - s1, p2 - s2) + max(s1, s2)), max(s1, s2))` |
//! | `%` | `decimal(min(76, min(p1 - s1, p2 - s2) + max(s1, s2)), max(s1, s2))` |
//! | `sum` | `decimal(min(76, p + 10), s)` |
//! | `avg`, `min`, `max` | `decimal(p, s)` |
//! | `round`, `floor`, `ceil`, `trunc` to `d` | `decimal(p, min(s, max(d, 0)))` |
//! | casts to integers, into decimals | the options' rounding mode |
//! | floats into decimals | their exact binary value |
//! | storage | the narrowest width for the type |

use super::rule::{Rules, remainder_type, sum_type};
use crate::types::{
    AggregateOp, BinaryOp, MAX_PRECISION, RoundFunction, RoundingMode, StorageWidth,
};

/// FixedPoint's rules, with the options' rounding mode.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FixedPoint {
    /// The options' mode: casts round with it too.
    pub(crate) rounding: RoundingMode,
}

/// FixedPoint's type of a rounding of `decimal(p, s)` to `digits`:
/// `decimal(p, min(s, max(d, 0)))`.
pub(crate) fn round_type((p, s): (i64, i64), digits: i64) -> (i64, i64) {
    (p, s.min(digits.max(0)))
}

impl Rules for FixedPoint {
    fn binary_type(
        &self,
        op: BinaryOp,
        lhs: (i32, i32),
        rhs: (i32, i32),
    ) -> Result<(i32, i32), String> {
        let max = i32::from(MAX_PRECISION);
        Ok(match op {
            BinaryOp::Rem => remainder_type(lhs, rhs, max),
            _ => sum_type(lhs, rhs, 0, max),
        })
    }

    fn aggregate_type(&self, op: AggregateOp, (p, s): (i32, i32)) -> Result<(i32, i32), String> {
        Ok(match op {
            AggregateOp::Sum => ((p + 10).min(i32::from(MAX_PRECISION)), s),
            _ => (p, s),
        })
    }

    fn round_type(
        &self,
        _: RoundFunction,
        digits: i64,
        operand: (i64, i64),
    ) -> Result<(i64, i64), String> {
        Ok(round_type(operand, digits))
    }

    fn integer_rounding(&self) -> RoundingMode {
        self.rounding
    }

    fn decimal_rounding(&self) -> RoundingMode {
        self.rounding
    }

    fn reads_floats_as_shortest_text(&self) -> bool {
        false
    }

    fn stored_width(&self, needed: StorageWidth) -> Option<StorageWidth> {
        Some(needed)
    }
}
