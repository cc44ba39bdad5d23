//! Rounding a truncated quotient to the final result, once.
//!
//! Every operation that drops digits (a product rescaled down, a quotient)
//! first divides with truncation, `n = q*d + r` with `r` carrying the sign of
//! `n` and `|r| < |d|`, and then hands `q`, `r` and `|d|` to one of the modes
//! here. The remainder holds everything the exact value had beyond `q`, so the
//! result is rounded from the exact value, never from a rounded intermediate.

use crate::int::exact_double;
use crate::int::work::Work;

/// How an inexact result is rounded to the result scale.
///
/// ```
/// use decimal_kernels_native::{DivSpec, Operand, Output, RoundingMode, Rows, div};
/// // -5 / 2 = -2.5 at scale 0 under each mode.
/// let modes = RoundingMode::ALL.map(|mode| {
///     let spec = DivSpec::new(0, mode, 9);
///     let out: Output<i32> = div(Operand::scalar(-5i8), Operand::scalar(2i8), &spec, &Rows::new(1)).unwrap();
///     out.values[0]
/// });
/// // TowardZero, HalfUp, HalfEven, Floor, Ceiling.
/// assert_eq!(modes, [-2, -3, -2, -3, -2]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RoundingMode {
    /// Drop the digits (truncate): 2.5 → 2, -2.5 → -2.
    #[default]
    TowardZero,
    /// Nearest; ties away from zero (SQL `HALF_UP`): 2.5 → 3, -2.5 → -3.
    HalfUp,
    /// Nearest; ties to the even neighbour: 2.5 → 2, 3.5 → 4.
    HalfEven,
    /// Toward negative infinity: 2.5 → 2, -2.5 → -3.
    Floor,
    /// Toward positive infinity: 2.5 → 3, -2.5 → -2.
    Ceiling,
}

impl RoundingMode {
    /// Every mode.
    pub const ALL: [Self; 5] =
        [Self::TowardZero, Self::HalfUp, Self::HalfEven, Self::Floor, Self::Ceiling];
}

/// One rounding mode as a type, so a kernel loop is compiled per mode and
/// carries no per-row branch on the mode.
pub(crate) trait Rounding: Copy + Send + Sync + 'static {
    /// The mode this type is.
    const MODE: RoundingMode;

    /// The rounded quotient, from the truncated quotient `q`, the remainder `r`
    /// (sign of the dividend), the divisor's magnitude `d` (non-zero) and
    /// whether the exact quotient is negative.
    fn finish<W: Work>(q: W, r: W, d: W, negative: bool) -> W;

    /// Whether a quotient of magnitude `q` steps one unit away from zero,
    /// from the remainder's magnitude `r < d` and the divisor's `d`, all
    /// integers below `2^51` held in doubles (see `exact_double`), and
    /// whether the exact quotient is negative.
    fn away_in_double(q: f64, r: f64, d: f64, negative: bool) -> bool;
}

/// Steps `q` one unit away from zero when `away` holds.
///
/// With arithmetic rather than a branch: whether a row rounds away depends on
/// its dropped digits, which a branch predictor cannot guess, and a
/// mispredicted branch costs several times the add.
#[inline(always)]
fn step_away<W: Work>(q: W, away: bool, negative: bool) -> W {
    // `sign` is 0 or -1; `(step ^ sign) - sign` is `step` or `-step`.
    let sign = -i64::from(negative);
    q.add(W::from_i64((i64::from(away) ^ sign) - sign))
}

/// Whether the dropped part `|r| / d` is at least one half, compared as
/// `|r| >= d - |r|` so that `2|r|` is never formed (it could leave the range).
#[inline(always)]
fn at_least_half<W: Work>(r: W, d: W) -> (bool, bool) {
    let r = r.abs();
    let rest = d.sub(r);
    (r >= rest, r == rest)
}

/// [`RoundingMode::TowardZero`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct TowardZero;
/// [`RoundingMode::HalfUp`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct HalfUp;
/// [`RoundingMode::HalfEven`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct HalfEven;
/// [`RoundingMode::Floor`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Floor;
/// [`RoundingMode::Ceiling`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ceiling;

impl Rounding for TowardZero {
    const MODE: RoundingMode = RoundingMode::TowardZero;

    #[inline(always)]
    fn finish<W: Work>(q: W, _r: W, _d: W, _negative: bool) -> W {
        q
    }

    #[inline(always)]
    fn away_in_double(_q: f64, _r: f64, _d: f64, _negative: bool) -> bool {
        false
    }
}

impl Rounding for HalfUp {
    const MODE: RoundingMode = RoundingMode::HalfUp;

    #[inline(always)]
    fn finish<W: Work>(q: W, r: W, d: W, negative: bool) -> W {
        let (half_or_more, _) = at_least_half(r, d);
        step_away(q, half_or_more, negative)
    }

    #[inline(always)]
    fn away_in_double(_q: f64, r: f64, d: f64, _negative: bool) -> bool {
        r >= d - r
    }
}

impl Rounding for HalfEven {
    const MODE: RoundingMode = RoundingMode::HalfEven;

    #[inline(always)]
    fn finish<W: Work>(q: W, r: W, d: W, negative: bool) -> W {
        let (half_or_more, exactly_half) = at_least_half(r, d);
        // A tie steps away from zero only from an odd quotient.
        let away = half_or_more && (!exactly_half || q.is_odd());
        step_away(q, away, negative)
    }

    #[inline(always)]
    fn away_in_double(q: f64, r: f64, d: f64, _negative: bool) -> bool {
        let rest = d - r;
        r > rest || (r == rest && exact_double::is_odd(q))
    }
}

impl Rounding for Floor {
    const MODE: RoundingMode = RoundingMode::Floor;

    #[inline(always)]
    fn finish<W: Work>(q: W, r: W, _d: W, negative: bool) -> W {
        step_away(q, negative && !r.is_zero(), negative)
    }

    #[inline(always)]
    fn away_in_double(_q: f64, r: f64, _d: f64, negative: bool) -> bool {
        negative && r != 0.0
    }
}

impl Rounding for Ceiling {
    const MODE: RoundingMode = RoundingMode::Ceiling;

    #[inline(always)]
    fn finish<W: Work>(q: W, r: W, _d: W, negative: bool) -> W {
        step_away(q, !negative && !r.is_zero(), negative)
    }

    #[inline(always)]
    fn away_in_double(_q: f64, r: f64, _d: f64, negative: bool) -> bool {
        !negative && r != 0.0
    }
}

/// Calls `$body` with the rounding type `$r` matching the runtime `$mode`: the
/// one place a mode value becomes a compiled mode.
macro_rules! with_rounding {
    ($mode:expr, $r:ident => $body:expr) => {
        match $mode {
            $crate::int::rounding::RoundingMode::TowardZero => {
                type $r = $crate::int::rounding::TowardZero;
                $body
            }
            $crate::int::rounding::RoundingMode::HalfUp => {
                type $r = $crate::int::rounding::HalfUp;
                $body
            }
            $crate::int::rounding::RoundingMode::HalfEven => {
                type $r = $crate::int::rounding::HalfEven;
                $body
            }
            $crate::int::rounding::RoundingMode::Floor => {
                type $r = $crate::int::rounding::Floor;
                $body
            }
            $crate::int::rounding::RoundingMode::Ceiling => {
                type $r = $crate::int::rounding::Ceiling;
                $body
            }
        }
    };
}

pub(crate) use with_rounding;

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// Rounds `n / d` (both small) with mode `R`.
    fn round<R: Rounding>(n: i64, d: i64) -> i64 {
        let (q, r) = n.div_rem(d);
        R::finish(q, r, d.abs(), (n < 0) != (d < 0))
    }

    // The rounding table of docs/semantics.md#rounding: tenths of 2.5, -2.5,
    // 2.4, -2.6, 3.5, -3.5.
    #[rstest]
    #[case::toward_zero(RoundingMode::TowardZero, [2, -2, 2, -2, 3, -3])]
    #[case::half_up(RoundingMode::HalfUp, [3, -3, 2, -3, 4, -4])]
    #[case::half_even(RoundingMode::HalfEven, [2, -2, 2, -3, 4, -4])]
    #[case::floor(RoundingMode::Floor, [2, -3, 2, -3, 3, -4])]
    #[case::ceiling(RoundingMode::Ceiling, [3, -2, 3, -2, 4, -3])]
    fn contract_table(#[case] mode: RoundingMode, #[case] expected: [i64; 6]) {
        let tenths = [25, -25, 24, -26, 35, -35];
        for (n, want) in tenths.into_iter().zip(expected) {
            let got = with_rounding!(mode, R => round::<R>(n, 10));
            assert_eq!(got, want, "{mode:?} {n}/10");
            // Same through a negative divisor.
            let got = with_rounding!(mode, R => round::<R>(-n, -10));
            assert_eq!(got, want, "{mode:?} {}/-10", -n);
        }
    }

    #[rstest]
    #[case::exact(RoundingMode::HalfUp, 30, 10, 3)]
    #[case::exact_negative(RoundingMode::Floor, -30, 10, -3)]
    #[case::third_half_up(RoundingMode::HalfUp, 2, 3, 1)]
    #[case::third_floor_negative(RoundingMode::Floor, -1, 3, -1)]
    #[case::third_ceiling_negative(RoundingMode::Ceiling, -1, 3, 0)]
    #[case::half_even_odd_tie(RoundingMode::HalfEven, 15, 2, 8)]
    #[case::half_even_even_tie(RoundingMode::HalfEven, 13, 2, 6)]
    #[case::largest_divisor(RoundingMode::HalfUp, i64::MAX / 2 + 1, i64::MAX, 1)]
    fn rounds_quotients(
        #[case] mode: RoundingMode,
        #[case] n: i64,
        #[case] d: i64,
        #[case] want: i64,
    ) {
        assert_eq!(with_rounding!(mode, R => round::<R>(n, d)), want);
    }
}
