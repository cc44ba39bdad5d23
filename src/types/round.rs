//! The four ways to round a decimal to `d` digits: SQL's `round(x, d)`,
//! `floor`, `ceil` and `trunc`, each a rounding mode of its own, fixed
//! whatever the options' arithmetic mode (the
//! [semantics](crate::semantics#round)).

use core::fmt;

use crate::types::options::RoundingMode;

/// Which rounding [`UnaryOp::Round`](crate::UnaryOp::Round) applies.
///
/// ```
/// use decimal_kernels::{RoundFunction, RoundingMode};
/// assert_eq!(RoundFunction::ALL.map(RoundFunction::rounding), [
///     RoundingMode::HalfUp, RoundingMode::Floor, RoundingMode::Ceiling, RoundingMode::TowardZero,
/// ]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundFunction {
    /// `round`: to the nearest, a tie away from zero (as every engine's
    /// `round`): 2.5 → 3, -2.5 → -3.
    Round,
    /// `floor`: toward negative infinity.
    Floor,
    /// `ceil`: toward positive infinity.
    Ceil,
    /// `trunc`: toward zero.
    Trunc,
}

impl RoundFunction {
    /// Every function.
    pub const ALL: [Self; 4] = [Self::Round, Self::Floor, Self::Ceil, Self::Trunc];

    /// The rounding mode the function drops digits with.
    #[must_use]
    pub const fn rounding(self) -> RoundingMode {
        match self {
            Self::Round => RoundingMode::HalfUp,
            Self::Floor => RoundingMode::Floor,
            Self::Ceil => RoundingMode::Ceiling,
            Self::Trunc => RoundingMode::TowardZero,
        }
    }
}

impl fmt::Display for RoundFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Round => "round",
            Self::Floor => "floor",
            Self::Ceil => "ceil",
            Self::Trunc => "trunc",
        })
    }
}
