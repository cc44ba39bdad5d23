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

use crate::arity::{
    DIVIDE_BY_ZERO, Frame, Input, KernelError, OVERFLOW, Output, RowKernel, run, run_multiversioned,
};
use crate::estimate;
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

/// How quotient rows divide, and which compiled loop runs them.
pub trait Division<W: Work>: Copy + Send + Sync + 'static {
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
    /// As [`div`].
    fn run<S: Storage, K: RowKernel<W>>(
        lhs: Input<'_, S>,
        rhs: Input<'_, S>,
        constants: &K::Constants,
        frame: &Frame<'_>,
    ) -> Result<Output<S>, KernelError>;
}

/// The work type's own division: a hardware or library divide per row, a
/// multiply-high by a prepared divisor; the build's loop.
#[derive(Clone, Copy, Debug)]
pub struct Exact;

impl<W: Work> Division<W> for Exact {
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
    fn run<S: Storage, K: RowKernel<W>>(
        lhs: Input<'_, S>,
        rhs: Input<'_, S>,
        constants: &K::Constants,
        frame: &Frame<'_>,
    ) -> Result<Output<S>, KernelError> {
        run::<S, W, K>(lhs, rhs, constants, frame)
    }
}

/// `i64` quotients by a double-precision estimate and exact correction (see
/// `estimate`), in the AVX-512 copy of the loop, where they vectorize. For
/// scaled divisors below `2^61`.
#[derive(Clone, Copy, Debug)]
pub struct Estimated;

impl Division<i64> for Estimated {
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
    fn run<S: Storage, K: RowKernel<i64>>(
        lhs: Input<'_, S>,
        rhs: Input<'_, S>,
        constants: &K::Constants,
        frame: &Frame<'_>,
    ) -> Result<Output<S>, KernelError> {
        run_multiversioned::<S, i64, K>(lhs, rhs, constants, frame)
    }
}

/// `round(a * 10^k / b)`, rounding mode `R`, dividing by `D`.
#[derive(Clone, Copy, Debug)]
pub struct Quotient<R, D>(core::marker::PhantomData<(R, D)>);

impl<W: Work, R: Rounding, D: Division<W>> RowKernel<W> for Quotient<R, D> {
    type Constants = QuotientConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let n = a.mul(c.dividend_factor);
        // Tested after scaling: a valid row's divisor is zero exactly when `b`
        // is, and a null row's garbage that wraps to zero cannot trap either.
        let d = b.mul(c.divisor_factor);
        let by_zero = d.is_zero();
        let d = if by_zero { W::ONE } else { d };
        let (q, r) = D::div_rem(n, d);
        let q = R::finish(q, r, d.abs(), n.is_negative() != d.is_negative());
        let flags = if by_zero { DIVIDE_BY_ZERO } else { OVERFLOW * u8::from(q.exceeds(c.bound)) };
        (q, flags)
    }
}

/// What a quotient by one non-zero divisor for every row computes once.
#[derive(Clone, Copy, Debug)]
pub struct ScalarQuotientConstants<W: Work, D: Division<W>> {
    /// `10^k`, negated for a negative divisor: `n / -d = -n / d`, so rows
    /// divide by the magnitude and the divisor's sign costs nothing per row.
    dividend_factor: W,
    /// `|b * 10^-k|`, prepared for division.
    divisor: D::Prepared,
    divisor_magnitude: W,
    bound: W,
}

impl<W: Work, D: Division<W>> ScalarQuotientConstants<W, D> {
    /// For the non-zero scaled divisor `d`.
    fn new(constants: &QuotientConstants<W>, d: W) -> Self {
        let factor = constants.dividend_factor;
        Self {
            dividend_factor: if d.is_negative() { factor.neg() } else { factor },
            divisor: D::prepare(d.abs()),
            divisor_magnitude: d.abs(),
            bound: constants.bound,
        }
    }
}

/// `round(a * 10^k / b)` for one non-zero `b` on every row: the divisor is
/// prepared once (a multiply-high or a reciprocal), so rows never divide.
#[derive(Clone, Copy, Debug)]
pub struct ScalarQuotient<R, D>(core::marker::PhantomData<(R, D)>);

impl<W: Work, R: Rounding, D: Division<W>> RowKernel<W> for ScalarQuotient<R, D> {
    type Constants = ScalarQuotientConstants<W, D>;

    #[inline(always)]
    fn apply(a: W, _b: W, c: &Self::Constants) -> (W, u8) {
        // `n` carries the divisor's sign (see the constants): the exact
        // quotient is `n / |d|`.
        let n = a.mul(c.dividend_factor);
        let (q, r) = D::div_rem_by(n, &c.divisor);
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
    let plan = plan(&lhs, &rhs, WorkWidth::I128, |l, r| spec.width(l, r));
    let (_, down) = spec.shifts();
    // The scaled divisor's bound, a zero divisor counting as one.
    let divisor_bits = plan.rhs.max(1) + shift_bits(down);
    // Where the estimate vectorizes it replaces a hardware divide per row, and
    // for one divisor on every row it also beats the multiply-high by a
    // prepared divisor, which does not vectorize.
    if plan.width == WorkWidth::I64
        && divisor_bits <= estimate::DIVISOR_BITS
        && crate::arity::wide_vectors()
    {
        return divide::<S, i64, Estimated>(lhs.input, rhs.input, spec, frame);
    }
    with_work!(plan.width, W => divide::<S, W, Exact>(lhs.input, rhs.input, spec, frame))
}

/// [`div`] in work type `W`, dividing by `D`.
fn divide<S: Storage, W: Work, D: Division<W>>(
    lhs: Input<'_, S>,
    rhs: Input<'_, S>,
    spec: &DivSpec,
    frame: &Frame<'_>,
) -> Result<Output<S>, KernelError> {
    let constants = spec.constants::<W>();
    let scalar_divisor = match rhs {
        Input::Scalar(b) => Some(b.load::<W>().mul(constants.divisor_factor)),
        Input::Array(_) => None,
    };
    with_rounding!(spec.rounding, R => match scalar_divisor {
        // A zero scalar divisor fails every valid row: the row kernel says so.
        Some(d) if !d.is_zero() => {
            let constants = ScalarQuotientConstants::<W, D>::new(&constants, d);
            D::run::<S, ScalarQuotient<R, D>>(lhs, rhs, &constants, frame)
        }
        _ => D::run::<S, Quotient<R, D>>(lhs, rhs, &constants, frame),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arity::{OverflowPolicy, Policies, assert_same_outcome};
    use arrow_buffer::NullBuffer;

    /// Full-range dividends, divisors of every size up to the estimate's
    /// bound (zeros and garbage under nulls included).
    fn extreme_columns() -> (Vec<i64>, Vec<i64>) {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut a: Vec<i64> =
            (0..2000).map(|_| (next() >> 1) as i64 * [1, -1][next() as usize % 2]).collect();
        let mut b: Vec<i64> = (0..2000)
            .map(|_| ((next() >> 3) >> (next() % 61)) as i64 * [1, -1][next() as usize % 2])
            .collect();
        a.extend([i64::MAX, -i64::MAX, i64::MAX, 0, 7, i64::MIN]);
        b.extend([1, -1, (1 << 61) - 1, 5, 0, 0]);
        (a, b)
    }

    #[test]
    fn estimated_quotients_equal_exact_ones() {
        let (a, b) = extreme_columns();
        let nulls = NullBuffer::from(
            (0..a.len()).map(|i| i % 11 != 5 && i != a.len() - 1).collect::<Vec<_>>(),
        );
        for rounding in RoundingMode::ALL {
            for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
                let frame = Frame {
                    len: a.len(),
                    nulls: Some(&nulls),
                    policies: Policies { on_overflow: policy, on_divide_by_zero: policy },
                };
                let spec = DivSpec { shift: 0, rounding, result_precision: 18 };
                // A divisor per row, and one for every row (a zero one too).
                let divisors = [7, -3, 1, -1, (1 << 61) - 1, 1 - (1 << 61), 1_000_003, 0];
                let rhs = core::iter::once(Input::Array(&b[..]))
                    .chain(divisors.into_iter().map(Input::Scalar));
                for r in rhs {
                    let l = Input::Array(&a[..]);
                    let exact = divide::<i64, i64, Exact>(l, r, &spec, &frame);
                    let estimated = divide::<i64, i64, Estimated>(l, r, &spec, &frame);
                    let divisor = match r {
                        Input::Array(_) => "per row".to_string(),
                        Input::Scalar(d) => d.to_string(),
                    };
                    let context = format!("{rounding:?}, {policy:?}, divisor {divisor}");
                    assert_same_outcome(exact, estimated, &context);
                }
            }
        }
    }

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
