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
mod rule;
mod spark;

pub(crate) use rule::Rules;

use crate::types::{ArithmeticOptions, Semantics};

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
