//! Dropping or appending digits to an exact intermediate: what a rescale, a
//! product rescaled to its result scale and a rescaled addition share.
//!
//! Formula: for `k` digits dropped, one truncating division
//! `x = q * 10^k + r` by a divisor prepared once per call (no row divides),
//! and the rounding mode rounds `q` from `r`, once, from the exact `x`;
//! appended digits are one multiplication by `10^k`.

use crate::driver::kernel::OVERFLOW;
use crate::int::rounding::Rounding;
use crate::int::work::Work;

/// What a change of scale computes once per call: `10^|k|`, prepared for
/// division, and the result bound. Shared by every kernel that drops or
/// appends digits to an exact intermediate (products, rescaled sums).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScaleConstants<W: Work> {
    /// `10^|k|`.
    pub(crate) factor: W,
    /// The same, prepared for division.
    divisor: W::Divisor,
    /// `10^p - 1`.
    pub(crate) bound: W,
}

impl<W: Work> ScaleConstants<W> {
    /// For `|k|` digits and a result of `precision` digits.
    pub(crate) fn new(digits: u32, precision: u8) -> Self {
        let factor = W::pow10(digits);
        Self {
            factor,
            divisor: W::prepare_divisor(factor),
            bound: W::precision_bound(precision.into()),
        }
    }

    /// `round(x / 10^k)` with mode `R`, rounded once from the exact `x`, and
    /// its overflow flag.
    #[inline(always)]
    pub(crate) fn drop_digits<R: Rounding>(&self, x: W) -> (W, u8) {
        let (q, r) = x.div_rem_by(&self.divisor);
        let q = R::finish(q, r, self.factor, x.is_negative());
        (q, OVERFLOW * u8::from(q.exceeds(self.bound)))
    }
}
