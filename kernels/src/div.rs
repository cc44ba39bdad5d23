//! Division of two decimals.
//!
//! Formula: the exact quotient of `a * 10^-s1` by `b * 10^-s2` at result scale
//! `rs` is the rational `a * 10^k / b` with `k = rs - s1 + s2`. For `k >= 0` the
//! dividend is scaled up, `n = a * 10^k, d = b`; for `k < 0` the divisor is,
//! `n = a, d = b * 10^-k`. One truncating division gives `n = q*d + r`, and the
//! call's rounding mode rounds `q` from `r` once ([`Quotient`]). Division by
//! zero is flagged per row; the divisor is replaced by one first so that no
//! row, null or not, ever traps. Overflow when `|q| > 10^p - 1`.
//!
//! Width: the larger of the scaled dividend and the scaled divisor decides. A
//! divisor too large for 512 bits saturates, which leaves the quotient's
//! rounding exactly as it would be (the dividend is far below half of it).

use crate::arity::{DIVIDE_BY_ZERO, Frame, Input, KernelError, OVERFLOW, Output, RowKernel, run};
use crate::plan::{Operand, WorkWidth, plan, shift_bits, with_work};
use crate::rounding::{Rounding, RoundingMode};
use crate::storage::Storage;
use crate::with_rounding;
use crate::work::Work;

/// The shape of a division, from the operand and result types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DivSpec {
    /// `k`: the result is `round(a * 10^k / b)`.
    pub shift: i32,
    /// How the quotient rounds.
    pub rounding: RoundingMode,
    /// The result precision: results beyond `10^p - 1` overflow.
    pub result_precision: u8,
}

/// What a quotient computes once per call.
#[derive(Clone, Copy, Debug)]
pub struct QuotientConstants<W> {
    dividend_factor: W,
    divisor_factor: W,
    bound: W,
}

impl DivSpec {
    fn shifts(&self) -> (u32, u32) {
        let k = self.shift.unsigned_abs();
        if self.shift >= 0 { (k, 0) } else { (0, k) }
    }

    fn width(&self, lhs_bits: u32, rhs_bits: u32) -> WorkWidth {
        let (up, down) = self.shifts();
        let dividend = lhs_bits + shift_bits(up);
        // A zero divisor is replaced by one: at least one bit.
        let divisor = rhs_bits.max(1) + shift_bits(down);
        WorkWidth::for_bits(dividend.max(divisor))
    }

    fn constants<W: Work>(&self) -> QuotientConstants<W> {
        let (up, down) = self.shifts();
        QuotientConstants {
            dividend_factor: W::pow10(up),
            divisor_factor: W::pow10(down),
            bound: W::precision_bound(self.result_precision.into()),
        }
    }
}

/// `round(a * 10^k / b)`, rounding mode `R`.
#[derive(Clone, Copy, Debug)]
pub struct Quotient<R>(core::marker::PhantomData<R>);

impl<W: Work, R: Rounding> RowKernel<W> for Quotient<R> {
    type Constants = QuotientConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let n = a.mul(c.dividend_factor);
        // Tested after scaling: a valid row's divisor is zero exactly when `b`
        // is, and a null row's garbage that wraps to zero cannot trap either.
        let d = b.mul(c.divisor_factor);
        let by_zero = d.is_zero();
        let d = if by_zero { W::ONE } else { d };
        let (q, r) = n.div_rem(d);
        let q = R::finish(q, r, d.abs(), n.is_negative() != d.is_negative());
        let flags = if by_zero { DIVIDE_BY_ZERO } else { OVERFLOW * u8::from(q.exceeds(c.bound)) };
        (q, flags)
    }
}

/// What a quotient by one non-zero divisor for every row computes once.
#[derive(Clone, Copy, Debug)]
pub struct ScalarQuotientConstants<W: Work> {
    /// `10^k`, negated for a negative divisor: `n / -d = -n / d`, so rows
    /// divide by the magnitude and the divisor's sign costs nothing per row.
    dividend_factor: W,
    /// `|b * 10^-k|`, prepared for division by multiplication.
    divisor: W::Divisor,
    divisor_magnitude: W,
    bound: W,
}

impl<W: Work> ScalarQuotientConstants<W> {
    /// For the non-zero scaled divisor `d`.
    fn new(constants: &QuotientConstants<W>, d: W) -> Self {
        let factor = constants.dividend_factor;
        Self {
            dividend_factor: if d.is_negative() { factor.neg() } else { factor },
            divisor: W::prepare_divisor(d.abs()),
            divisor_magnitude: d.abs(),
            bound: constants.bound,
        }
    }
}

/// `round(a * 10^k / b)` for one non-zero `b` on every row: the divisor is
/// prepared once (a multiply-high for native types), so rows never divide.
#[derive(Clone, Copy, Debug)]
pub struct ScalarQuotient<R>(core::marker::PhantomData<R>);

impl<W: Work, R: Rounding> RowKernel<W> for ScalarQuotient<R> {
    type Constants = ScalarQuotientConstants<W>;

    #[inline(always)]
    fn apply(a: W, _b: W, c: &Self::Constants) -> (W, u8) {
        // `n` carries the divisor's sign (see the constants): the exact
        // quotient is `n / |d|`.
        let n = a.mul(c.dividend_factor);
        let (q, r) = n.div_rem_by(&c.divisor);
        let q = R::finish(q, r, c.divisor_magnitude, n.is_negative());
        (q, OVERFLOW * u8::from(q.exceeds(c.bound)))
    }
}

/// Divides `lhs` by `rhs` row by row.
///
/// # Errors
/// As [`add`](crate::add::add), and [`KernelError::DivideByZero`] for the first
/// valid row with a zero divisor under the `Error` policy.
pub fn div<S: Storage>(
    lhs: Operand<'_, S>,
    rhs: Operand<'_, S>,
    spec: &DivSpec,
    frame: &Frame<'_>,
) -> Result<Output<S>, KernelError> {
    // Beyond i64 a quotient costs a library divide: measuring always pays.
    let width = plan(&lhs, &rhs, WorkWidth::I128, |l, r| spec.width(l, r)).width;
    with_work!(width, W => {
        let constants = spec.constants::<W>();
        let scalar_divisor = match rhs.input {
            Input::Scalar(b) => Some(b.load::<W>().mul(constants.divisor_factor)),
            Input::Array(_) => None,
        };
        with_rounding!(spec.rounding, R => match scalar_divisor {
            // A zero scalar divisor fails every valid row: the row kernel says so.
            Some(d) if !d.is_zero() => {
                let constants = ScalarQuotientConstants::new(&constants, d);
                run::<S, W, ScalarQuotient<R>>(lhs.input, rhs.input, &constants, frame)
            }
            _ => run::<S, W, Quotient<R>>(lhs.input, rhs.input, &constants, frame),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arity::{OverflowPolicy, Policies};
    use arrow_buffer::NullBuffer;

    #[test]
    fn garbage_divisor_under_a_null_that_wraps_to_zero_does_not_trap() {
        // 2^60 * 10^4 wraps to 0 in i64; the row is null, so it is ignored.
        static A: [i64; 2] = [100, 100];
        static B: [i64; 2] = [1 << 60, 7];
        let nulls = NullBuffer::from(vec![false, true]);
        let frame = Frame { len: 2, nulls: Some(&nulls), policies: Policies::default() };
        let spec = DivSpec { shift: -4, rounding: RoundingMode::HalfUp, result_precision: 9 };
        let operand = |v: &'static [i64]| Operand {
            input: Input::Array(v),
            magnitude: crate::Magnitude::Precision(2),
        };
        let out = div(operand(&A), operand(&B), &spec, &frame).unwrap();
        // 100 / (7 * 10^4), half up, is 0.
        assert_eq!(out.values[1], 0);
        let frame = Frame {
            policies: Policies { on_divide_by_zero: OverflowPolicy::Error, ..Policies::default() },
            ..frame
        };
        assert!(div(operand(&A), operand(&B), &spec, &frame).is_ok());
    }
}
