//! The rounded quotient by one non-zero divisor for every row, prepared
//! once: a division's scalar divisor, and a rescale's `10^k`.
//!
//! Formula: `round(a * 10^k / d)`; the divisor's sign goes into the
//! dividend's factor, so rows divide by `|d|` and round from the exact
//! remainder, once.

use crate::columns::in_place::InPlace;
use crate::driver::kernel::{BinaryKernel, OVERFLOW, UnaryKernel};
use crate::int::rounding::Rounding;
use crate::ops::shared::division::Division;

/// What a quotient by one non-zero divisor for every row computes once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScalarQuotientConstants<W: InPlace, D: Division<W>> {
    /// `10^k`, negated for a negative divisor: `n / -d = -n / d`, so rows
    /// divide by the magnitude and the divisor's sign costs nothing per row.
    dividend_factor: W,
    /// `|b * 10^-k|`, prepared for division.
    divisor: D::Prepared,
    divisor_magnitude: W,
    bound: W,
}

impl<W: InPlace, D: Division<W>> ScalarQuotientConstants<W, D> {
    /// For the dividend factor `10^k`, the non-zero scaled divisor `d` and
    /// the result bound.
    pub(crate) fn new(factor: W, d: W, bound: W) -> Self {
        Self {
            dividend_factor: if d.is_negative() { factor.neg() } else { factor },
            divisor: D::prepare(d.abs()),
            divisor_magnitude: d.abs(),
            bound,
        }
    }
}

/// `round(a * 10^k / b)` for one non-zero `b` on every row: the divisor is
/// prepared once (a multiply-high or a reciprocal), so rows never divide.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScalarQuotient<R, D>(core::marker::PhantomData<(R, D)>);

impl<W: InPlace, R: Rounding, D: Division<W>> BinaryKernel<W> for ScalarQuotient<R, D> {
    type Constants = ScalarQuotientConstants<W, D>;

    /// The divisor is the constants' one: `b` is not read.
    #[inline(always)]
    fn apply(a: W, _b: W, c: &Self::Constants) -> (W, u8) {
        <Self as UnaryKernel<W>>::apply(a, c)
    }
}

impl<W: InPlace, R: Rounding, D: Division<W>> UnaryKernel<W> for ScalarQuotient<R, D> {
    type Constants = ScalarQuotientConstants<W, D>;

    #[inline(always)]
    fn apply(a: W, c: &Self::Constants) -> (W, u8) {
        // `n` carries the divisor's sign (see the constants): the exact
        // quotient is `n / |d|`.
        let n = a.mul(c.dividend_factor);
        let (q, r) = D::div_rem_by(n, &c.divisor);
        let q = R::finish(q, r, c.divisor_magnitude, n.is_negative());
        (q, OVERFLOW * u8::from(q.exceeds(c.bound)))
    }
}
