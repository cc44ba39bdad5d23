//! Each engine's rules, one file per profile, side by side: the result types
//! of the operators, the aggregates and `round`, the rounding of casts, how
//! a float is read into a decimal, and the width results are stored at. A
//! reader checks one engine against its documentation in one file:
//! [`fixed_point`], [`arrow`], [`spark`], [`presto`] (Presto and Trino).
//!
//! Each file's rules are a value implementing [`Rules`]; [`rules`] gives the
//! one an [`ArithmeticOptions`] names, so a profile stays a small value (its
//! rules and its defaults, `types/options.rs`), never a kernel branch.
//! Types are `(precision, scale)` pairs of wide integers here, checked into
//! a [`DecimalType`](crate::DecimalType) by the callers
//! (`rules/result_type.rs`, `rules/round.rs`).

mod arrow;
pub(crate) mod fixed_point;
mod presto;
mod spark;

use crate::types::{
    AggregateOp, ArithmeticOptions, BinaryOp, RoundFunction, RoundingMode, Semantics, StorageWidth,
};

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

/// The rules of one profile, as [`rules`] gives them.
#[derive(Clone, Copy, Debug)]
pub(crate) enum EngineRules {
    FixedPoint(fixed_point::FixedPoint),
    Arrow(arrow::Arrow),
    Spark(spark::Spark),
    Presto(presto::Presto),
}

impl EngineRules {
    /// The rules themselves.
    pub(crate) fn get(&self) -> &dyn Rules {
        match self {
            Self::FixedPoint(rules) => rules,
            Self::Arrow(rules) => rules,
            Self::Spark(rules) => rules,
            Self::Presto(rules) => rules,
        }
    }
}

/// The rules of the profile `options` names.
pub(crate) fn rules(options: &ArithmeticOptions) -> EngineRules {
    match options.semantics() {
        Semantics::FixedPoint => {
            EngineRules::FixedPoint(fixed_point::FixedPoint { rounding: options.rounding() })
        }
        Semantics::Arrow { width } => EngineRules::Arrow(arrow::Arrow { width }),
        Semantics::Spark { allow_precision_loss } => {
            EngineRules::Spark(spark::Spark { allow_precision_loss })
        }
        Semantics::Presto => EngineRules::Presto(presto::Presto),
    }
}

/// The largest precision of Spark, Presto and Trino.
const ENGINE_MAX: i32 = 38;

/// The type of `lhs % rhs` in every profile, as `(precision, scale)`:
/// `decimal(min(p1 - s1, p2 - s2) + max(s1, s2), max(s1, s2))`, at most
/// `max` digits (the rule of arrow-rs, Spark, Presto and Trino). A remainder
/// is smaller than both operands, so these digits always hold it.
fn remainder_type((p1, s1): (i32, i32), (p2, s2): (i32, i32), max: i32) -> (i32, i32) {
    let s = s1.max(s2);
    (((p1 - s1).min(p2 - s2) + s).min(max), s)
}

/// The type of a sum or difference, as `(precision, scale)`: the larger
/// integer part and the larger scale, plus `carry` digits, at most `max`.
fn sum_type((p1, s1): (i32, i32), (p2, s2): (i32, i32), carry: i32, max: i32) -> (i32, i32) {
    let s = s1.max(s2);
    (((p1 - s1).max(p2 - s2) + s + carry).min(max), s)
}
