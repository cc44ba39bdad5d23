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

use crate::int::estimate::{self, Conversion};
use crate::int::exact_double;
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

/// `i64` quotients of dividends and divisors below `2^51`, exact in double
/// precision (see `exact_double`), in the copy of the loop this process
/// runs: they vectorize at every level.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExactDoubleDivision;

impl Division<i64> for ExactDoubleDivision {
    type Prepared = exact_double::Prepared;
    type Copies = Multiversioned;
    fn prepare(divisor: i64) -> exact_double::Prepared {
        exact_double::Prepared::new(divisor)
    }
    #[inline(always)]
    fn div_rem(n: i64, d: i64) -> (i64, i64) {
        exact_double::div_rem(n, d)
    }
    #[inline(always)]
    fn div_rem_by(n: i64, d: &exact_double::Prepared) -> (i64, i64) {
        exact_double::div_rem_by(n, d)
    }
}

/// A division of `i64` rows other than the work type's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum I64Division {
    /// [`EstimatedDivision`] with the conversion instructions.
    Estimated,
    /// [`ExactDoubleDivision`].
    ExactDouble,
}

/// Runs `$body` with `$d` the [`Division`] type of an [`I64Division`].
macro_rules! with_i64_division {
    ($choice:expr, $d:ident => $body:expr) => {
        match $choice {
            $crate::ops::shared::division::I64Division::Estimated => {
                type $d = $crate::ops::shared::division::EstimatedDivision<
                    $crate::int::estimate::Instructions,
                >;
                $body
            }
            $crate::ops::shared::division::I64Division::ExactDouble => {
                type $d = $crate::ops::shared::division::ExactDoubleDivision;
                $body
            }
        }
    };
}
pub(crate) use with_i64_division;

/// How rows in work type `width` divide dividends below `2^dividend_bits`
/// by divisors below `2^divisor_bits` in the copy this process runs, when
/// not by the work type's own division (`None`).
///
/// Only in the AVX-512 copy, measured on an Intel Xeon at 8,192 rows: exact
/// in double precision where both fit 51 bits, 1.3 to 1.75 times faster
/// than the estimate (remainders 2.96 → 1.73 ns a row, % scalar 1.79 →
/// 1.03, rescale (15,4) → (15,2) 2.30 → 1.61), and the estimate for other
/// divisors below `2^61`. In the AVX2 copy neither beat the hardware
/// divide: the estimate converts by exponent bits there and was 1.3 to 2.8
/// times slower (Decimal64 div 3.7 → 4.9 ns a row, ÷ scalar 2.6 → 4.6,
/// rescale 3.7 → 6.1), each row's chain of dependent conversions and
/// emulated 64-bit multiplies too long for out-of-order execution to
/// overlap; exact in double precision it was even with the divide
/// (Decimal64 rem 0.90× against 1.02× arrow-arith), the kernels' 64-bit
/// factor multiplies and bound checks emulated around it. In the portable
/// copy the compiler vectorizes either into SSE2 lanes: 1.5 to 4 times
/// slower than the divide.
pub(crate) fn i64_division(
    width: WorkWidth,
    dividend_bits: u32,
    divisor_bits: u32,
) -> Option<I64Division> {
    if width != WorkWidth::I64 || active() != Isa::Avx512 {
        return None;
    }
    let small = dividend_bits.max(divisor_bits) <= exact_double::OPERAND_BITS;
    if small {
        Some(I64Division::ExactDouble)
    } else {
        (divisor_bits <= estimate::DIVISOR_BITS).then_some(I64Division::Estimated)
    }
}
