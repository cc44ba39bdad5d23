//! How rows divide, shared by the operators that divide (quotients,
//! remainders, and rescales by `10^k` on AVX-512), and which compiled loop
//! runs them.
//!
//! [`WorkDivision`] is the work type's own division (a hardware or library
//! divide per row, a multiply-high by a prepared divisor);
//! [`EstimatedDivision`] divides `i64` rows by a double-precision estimate
//! with exact correction (see `int::estimate`), in the AVX-512 copy of the
//! loop, where it vectorizes; [`i64_division`] says which `i64` rows take
//! it, which the kernels computed wholly in double precision
//! (`in_double`), and which the quotient in two steps of double precision
//! (`two_step`).

use crate::columns::in_place::InPlace;
use crate::driver::copies::{Copies, Multiversioned, Portable};
use crate::driver::isa::{Isa, active};
use core::marker::PhantomData;

use crate::int::estimate::{self, Conversion};
use crate::int::exact_double;
use crate::int::width::WorkWidth;
use crate::ops::shared::two_step;

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

/// A division of `i64` rows other than the work type's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum I64Division {
    /// [`EstimatedDivision`] with the conversion instructions.
    Estimated,
    /// Wholly in double precision: the kernels of `in_double`.
    InDouble,
    /// A quotient by a divisor per row in two exact steps of double
    /// precision: `two_step`.
    TwoSteps,
}

/// A quotient's dividend before its scale, for [`I64Division::TwoSteps`]:
/// values below `2^bits` times `10^k`, by divisors per row that are not
/// scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ScaledDividend {
    /// The unscaled dividend's bound.
    pub(crate) bits: u32,
    /// Its scale.
    pub(crate) k: u32,
}

/// How rows in work type `width` divide dividends below `2^dividend_bits`
/// by divisors below `2^divisor_bits` into results below `2^result_bits`
/// in the copy this process runs, when not by the work type's own division
/// (`None`). Measured on an Intel Xeon at 8,192 rows, paired in one run:
///
/// - Everything below `2^51`: wholly in double precision in the AVX2 and
///   AVX-512 copies. Against the hardware divide in the AVX2 copy, 9% to
///   39% faster (Decimal64 rem 3.43 → 2.10 ns a row, % scalar 2.61 → 2.02,
///   rescale (15,4) → (15,2) 3.73 → 3.01); against the estimate in the
///   AVX-512 copy 1.6 to 2.4 times faster (rem 2.96 → 1.28, rescale 2.30 →
///   1.16). In the portable copy 9% to 29% slower than the divide: the
///   compiler's SSE2 lanes hold two doubles. There only remainders by a
///   divisor per row take a leaner form ([`portable_remainder_in_double`]),
///   which is faster.
/// - Other divisors below `2^61`: the estimate, in the AVX-512 copy only.
///   In the AVX2 copy, converting by exponent bits, it was 1.3 to 2.8 times
///   slower than the divide (Decimal64 div 3.7 → 4.9 ns a row, ÷ scalar 2.6
///   → 4.6), each row's chain of dependent conversions and emulated 64-bit
///   multiplies too long for out-of-order execution to overlap; in the
///   portable copy the compiler vectorizes it into SSE2 lanes with a scalar
///   conversion per lane, 3 to 4 times slower.
/// - Quotients by a divisor per row whose dividend, before its scale
///   (`scaled`), and divisor are within the bounds of `two_step`: in two
///   exact steps of double precision, in the AVX2 and AVX-512 copies
///   (`Decimal64(15,2)` div, money by a factor at scale 6: AVX2 2.95 →
///   1.60 ns a row against the divide, 0.93× → 1.71× arrow-arith;
///   AVX-512 1.84 → 1.17 against the estimate, 1.50× → 2.30×). In the
///   portable copy that form was no faster than the divide (3.08 against
///   3.14 ns a row, 0.89× against 0.87× arrow-arith): SSE2 lanes hold two
///   doubles, and its loop takes about 29 instructions a row, bound by the
///   count of vector operations. The portable copy takes the floored form
///   instead (`two_step::FlooredQuotientInTwoSteps`, 23 instructions a
///   row), within its tighter divisor bound (`2^30` for `10^6`): 2.9 →
///   2.2 ns a row, 0.87× → 1.14× arrow-arith.
pub(crate) fn i64_division(
    width: WorkWidth,
    dividend_bits: u32,
    divisor_bits: u32,
    result_bits: u32,
    scaled: Option<ScaledDividend>,
) -> Option<I64Division> {
    if width != WorkWidth::I64 {
        return None;
    }
    let small = dividend_bits.max(divisor_bits).max(result_bits) <= exact_double::OPERAND_BITS;
    let two_steps = scaled.is_some_and(|s| two_step::applies(s.bits, divisor_bits, s.k));
    let floored = scaled.is_some_and(|s| two_step::applies_floored(s.bits, divisor_bits, s.k));
    match active() {
        Isa::Portable if floored => Some(I64Division::TwoSteps),
        Isa::Avx512 | Isa::Avx2 if small => Some(I64Division::InDouble),
        Isa::Avx512 | Isa::Avx2 if two_steps => Some(I64Division::TwoSteps),
        Isa::Avx512 => (divisor_bits <= estimate::DIVISOR_BITS).then_some(I64Division::Estimated),
        Isa::Avx2 | Isa::Portable => None,
    }
}

/// Whether `i64` remainders by a divisor per row of dividends below
/// `2^dividend_bits`, divisors below `2^divisor_bits` and results below
/// `2^result_bits` take `in_double::LeanRemainderInDouble` in the copy this
/// process runs: in the portable copy, everything below `2^51` (the AVX2
/// and AVX-512 copies take [`I64Division::InDouble`]). Measured on an Intel
/// Xeon at 8,192 rows, `Decimal64` rem: 2.5 → 1.5 ns a row against the
/// divide, 1.00× → 1.71–1.74× arrow-arith.
pub(crate) fn portable_remainder_in_double(
    width: WorkWidth,
    dividend_bits: u32,
    divisor_bits: u32,
    result_bits: u32,
) -> bool {
    width == WorkWidth::I64
        && active() == Isa::Portable
        && dividend_bits.max(divisor_bits).max(result_bits) <= exact_double::OPERAND_BITS
}
