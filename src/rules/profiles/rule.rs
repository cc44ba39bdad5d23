//! What every engine's rules answer ([`Rules`]), and the pieces of them
//! several engines share.

use crate::types::{AggregateOp, BinaryOp, RoundFunction, RoundingMode, StorageWidth};

/// One engine's rules. A type is `(precision, scale)`; a type the engine
/// does not have is the reason, as text, which the caller puts in its
/// error.
pub(crate) trait Rules {
    /// The type of `lhs op rhs`.
    fn binary_type(&self, op: BinaryOp, lhs: (i32, i32), rhs: (i32, i32))
    -> Result<(i32, i32), String>;

    /// The type of `op` over a column of type `input`.
    fn aggregate_type(&self, op: AggregateOp, input: (i32, i32)) -> Result<(i32, i32), String>;

    /// The type of `function(x, digits)` for `x` of type `operand`.
    fn round_type(
        &self,
        function: RoundFunction,
        digits: i64,
        operand: (i64, i64),
    ) -> Result<(i64, i64), String>;

    /// How a cast from decimals to integers rounds.
    fn integer_rounding(&self) -> RoundingMode;

    /// How a cast into decimals that drops digits rounds.
    fn decimal_rounding(&self) -> RoundingMode;

    /// Whether a float cast into decimals is read as its shortest text
    /// (`0.1` is `0.1`), rather than as its exact binary value
    /// (`0.1000000000000000055…`).
    fn reads_floats_as_shortest_text(&self) -> bool;

    /// The width results of a type stored at least at `needed` are stored
    /// at; `None` when the profile has none for it.
    fn stored_width(&self, needed: StorageWidth) -> Option<StorageWidth>;
}

/// The largest precision of Spark, Presto and Trino.
pub(super) const ENGINE_MAX: i32 = 38;

/// The type of `lhs % rhs` in every profile, as `(precision, scale)`:
/// `decimal(min(p1 - s1, p2 - s2) + max(s1, s2), max(s1, s2))`, at most
/// `max` digits (the rule of arrow-rs, Spark, Presto and Trino). A remainder
/// is smaller than both operands, so these digits always hold it.
pub(super) fn remainder_type((p1, s1): (i32, i32), (p2, s2): (i32, i32), max: i32) -> (i32, i32) {
    let s = s1.max(s2);
    (((p1 - s1).min(p2 - s2) + s).min(max), s)
}

/// The type of a sum or difference, as `(precision, scale)`: the larger
/// integer part and the larger scale, plus `carry` digits, at most `max`.
pub(super) fn sum_type((p1, s1): (i32, i32), (p2, s2): (i32, i32), carry: i32, max: i32) -> (i32, i32) {
    let s = s1.max(s2);
    (((p1 - s1).max(p2 - s2) + s + carry).min(max), s)
}
