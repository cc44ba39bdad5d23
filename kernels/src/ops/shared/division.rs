//! How rows divide, shared by the operators that divide (quotients,
//! remainders, and rescales by `10^k` on AVX-512), and which compiled loop
//! runs them.
//!
//! [`WorkDivision`] is the work type's own division (a hardware or library
//! divide per row, a multiply-high by a prepared divisor);
//! [`EstimatedDivision`] divides `i64` rows by a double-precision estimate
//! with exact correction (see `int::estimate`), in the AVX-512 copy of the
//! loop, where it vectorizes.

use arrow_buffer::NullBuffer;

use crate::columns::column::Sink;
use crate::columns::in_place::InPlace;
use crate::columns::operand::Operand;
use crate::driver::binary::{run, run_multiversioned};
use crate::driver::error::KernelError;
use crate::driver::isa::{Isa, active};
use crate::driver::kernel::{BinaryKernel, UnaryKernel};
use crate::driver::rows::Rows;
use crate::driver::unary::{run_unary, run_unary_multiversioned};
use crate::int::estimate;
use crate::int::width::WorkWidth;

/// How quotient rows divide, and which compiled loop runs them.
pub(crate) trait Division<W: InPlace>: Copy + Send + Sync + 'static {
    /// A positive divisor prepared once for a whole call.
    type Prepared: Copy + core::fmt::Debug + Send + Sync;
    /// Prepares a positive divisor.
    fn prepare(divisor: W) -> Self::Prepared;
    /// Truncating quotient and remainder for a non-zero `d`.
    fn div_rem(n: W, d: W) -> (W, W);
    /// The same by a prepared divisor.
    fn div_rem_by(n: W, d: &Self::Prepared) -> (W, W);
    /// Runs a kernel dividing this way over every row.
    ///
    /// # Errors
    /// As [`div`](crate::div).
    fn run<K: BinaryKernel<W>>(
        lhs: &Operand<'_>,
        rhs: &Operand<'_>,
        constants: K::Constants,
        rows: &Rows<'_>,
        sink: Sink<'_>,
    ) -> Result<Option<NullBuffer>, KernelError>;
    /// Runs a unary kernel dividing this way over every row.
    ///
    /// # Errors
    /// As [`rescale`](crate::rescale).
    fn run_unary<K: UnaryKernel<W>>(
        operand: &Operand<'_>,
        constants: K::Constants,
        rows: &Rows<'_>,
        sink: Sink<'_>,
    ) -> Result<Option<NullBuffer>, KernelError>;
}

/// The work type's own division: a hardware or library divide per row, a
/// multiply-high by a prepared divisor; the build's loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WorkDivision;

impl<W: InPlace> Division<W> for WorkDivision {
    type Prepared = W::Divisor;
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
    fn run<K: BinaryKernel<W>>(
        lhs: &Operand<'_>,
        rhs: &Operand<'_>,
        constants: K::Constants,
        rows: &Rows<'_>,
        sink: Sink<'_>,
    ) -> Result<Option<NullBuffer>, KernelError> {
        run::<W, K>(lhs, rhs, constants, rows, sink)
    }
    fn run_unary<K: UnaryKernel<W>>(
        operand: &Operand<'_>,
        constants: K::Constants,
        rows: &Rows<'_>,
        sink: Sink<'_>,
    ) -> Result<Option<NullBuffer>, KernelError> {
        run_unary::<W, K>(operand, constants, rows, sink)
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
    fn run<K: BinaryKernel<i64>>(
        lhs: &Operand<'_>,
        rhs: &Operand<'_>,
        constants: K::Constants,
        rows: &Rows<'_>,
        sink: Sink<'_>,
    ) -> Result<Option<NullBuffer>, KernelError> {
        run_multiversioned::<i64, K>(lhs, rhs, constants, rows, sink)
    }
    fn run_unary<K: UnaryKernel<i64>>(
        operand: &Operand<'_>,
        constants: K::Constants,
        rows: &Rows<'_>,
        sink: Sink<'_>,
    ) -> Result<Option<NullBuffer>, KernelError> {
        run_unary_multiversioned::<i64, K>(operand, constants, rows, sink)
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
