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
use core::marker::PhantomData;

use crate::int::estimate::{self, Conversion, ConversionKind};
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
/// `estimate`), converting between `i64` and `f64` by `C`, in the copy of
/// the loop this process runs. For scaled divisors below `2^61`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EstimatedDivision<C>(PhantomData<C>);

impl<C: Conversion> Division<i64> for EstimatedDivision<C> {
    /// The divisor and its reciprocal.
    type Prepared = (i64, f64);
    type Copies = Multiversioned;
    fn prepare(divisor: i64) -> (i64, f64) {
        (divisor, estimate::inverse::<C>(divisor))
    }
    #[inline(always)]
    fn div_rem(n: i64, d: i64) -> (i64, i64) {
        estimate::div_rem::<C>(n, d, estimate::inverse::<C>(d))
    }
    #[inline(always)]
    fn div_rem_by(n: i64, &(d, inverse): &(i64, f64)) -> (i64, i64) {
        estimate::div_rem::<C>(n, d, inverse)
    }
}

/// Which conversion, if any, quotients of rows in work type `width` by
/// divisors below `2^divisor_bits` estimate with in the copy this process
/// runs (`None`: the work type's own division). Only in the AVX-512 copy,
/// where conversions are instructions and the estimate vectorizes; in the
/// AVX2 copy, converting by exponent bits, it was 1.3 to 2.8 times slower
/// than the other divisions (Decimal64 div 3.7 → 4.9 ns a row, ÷ scalar
/// 2.6 → 4.6, rescale (15,4) → (15,2) 3.7 → 6.1; 8,192 rows): each row's
/// chain of dependent conversions and emulated 64-bit multiplies is too
/// long for out-of-order execution to overlap. In the portable copy the
/// compiler vectorizes the estimate in SSE2 lanes with scalar conversions,
/// 3 to 4 times slower than a hardware divide per row.
pub(crate) fn estimate_conversion(width: WorkWidth, divisor_bits: u32) -> Option<ConversionKind> {
    let serves = width == WorkWidth::I64 && divisor_bits <= estimate::DIVISOR_BITS;
    (serves && active() == Isa::Avx512).then_some(ConversionKind::Instructions)
}
