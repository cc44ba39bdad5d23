//! How rows divide, shared by the operators that divide (quotients,
//! remainders, and rescales by `10^k` on AVX-512), and which compiled loop
//! runs them.
//!
//! [`WorkDivision`] is the work type's own division (a hardware or library
//! divide per row, a multiply-high by a prepared divisor);
//! [`EstimatedDivision`] divides `i64` rows by a double-precision estimate
//! with exact correction (see `int::estimate`), in the AVX-512 copy of the
//! loop, where it vectorizes.

use crate::columns::in_place::InPlace;
use crate::driver::copies::{Copies, Multiversioned, Portable};
use crate::driver::isa::{Isa, active};
use crate::int::estimate;
use crate::int::width::WorkWidth;

/// How quotient rows divide, and which compiled loop runs them.
pub(crate) trait Division<W: InPlace>: Copy + Send + Sync + 'static {
    /// A positive divisor prepared once for a whole call.
    type Prepared: Copy + core::fmt::Debug + Send + Sync;
    /// The compiled copies of the loops a kernel dividing this way runs in.
    type Copies: Copies;
    /// Prepares a positive divisor.
    fn prepare(divisor: W) -> Self::Prepared;
    /// Truncating quotient and remainder for a non-zero `d`.
    fn div_rem(n: W, d: W) -> (W, W);
    /// The same by a prepared divisor.
    fn div_rem_by(n: W, d: &Self::Prepared) -> (W, W);
}

/// The work type's own division: a hardware or library divide per row, a
/// multiply-high by a prepared divisor; the build's loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WorkDivision;

impl<W: InPlace> Division<W> for WorkDivision {
    type Prepared = W::Divisor;
    type Copies = Portable;
    fn prepare(divisor: W) -> W::Divisor {
        W::prepare_divisor(divisor)
    }
    #[inline(always)]
    fn div_rem(n: W, d: W) -> (W, W) {
        n.div_rem(d)
    }
    #[inline(always)]
    fn div_rem_by(n: W, d: &W::Divisor) -> (W, W) {
        n.div_rem_by(d)
    }
}

/// `i64` quotients by a double-precision estimate and exact correction (see
/// `estimate`), in the AVX-512 copy of the loop, where they vectorize. For
/// scaled divisors below `2^61`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EstimatedDivision;

impl Division<i64> for EstimatedDivision {
    /// The divisor and its reciprocal.
    type Prepared = (i64, f64);
    type Copies = Multiversioned;
    fn prepare(divisor: i64) -> (i64, f64) {
        (divisor, estimate::inverse(divisor))
    }
    #[inline(always)]
    fn div_rem(n: i64, d: i64) -> (i64, i64) {
        estimate::div_rem(n, d, estimate::inverse(d))
    }
    #[inline(always)]
    fn div_rem_by(n: i64, &(d, inverse): &(i64, f64)) -> (i64, i64) {
        estimate::div_rem(n, d, inverse)
    }
}

/// Whether rows in work type `width` dividing by divisors below
/// `2^divisor_bits` take [`EstimatedDivision`]: where the estimate vectorizes
/// it replaces a hardware divide per row, and for one divisor on every row
/// it also beats the multiply-high by a prepared divisor, which does not
/// vectorize. Only in the AVX-512 copy: in the AVX2 one (no 64-bit
/// multiply or float conversion in vectors) it was 2.3 to 3.2 times slower
/// than the other divisions (Decimal64 div 2.7 → 6.2 ns a row, Decimal128
/// ÷ scalar 1.8 → 5.8, rescale (15,4) → (15,2) 2.6 → 6.9; 8,192 rows).
pub(crate) fn estimate_serves(width: WorkWidth, divisor_bits: u32) -> bool {
    width == WorkWidth::I64 && divisor_bits <= estimate::DIVISOR_BITS && active() == Isa::Avx512
}
