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

use arrow_buffer::NullBuffer;

use crate::arity::{
    DIVIDE_BY_ZERO, Frame, KernelError, OVERFLOW, Output, Recycling, RowKernel, recycle, run,
    run_multiversioned,
};
use crate::column::{Input, Sink};
use crate::estimate;
use crate::plan::{WorkWidth, plan, shift_bits, with_work};
use crate::rounding::{Rounding, RoundingMode, with_rounding};
use crate::storage::Storage;
use crate::work::Work;

/// The shape of a division, from the operand and result types.
///
/// ```
/// use decimal_kernels_native::{DivSpec, RoundingMode};
/// // decimal(10, 2) / decimal(10, 2) at result scale 6: k = 6 - 2 + 2.
/// let spec = DivSpec::new(6, RoundingMode::HalfUp, 18);
/// assert_eq!(spec.shift, 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
pub(crate) struct QuotientConstants<W> {
    dividend_factor: W,
    divisor_factor: W,
    bound: W,
}

impl DivSpec {
    /// `round(a * 10^shift / b)` with `rounding`, checked against
    /// `result_precision` digits.
    #[must_use]
    pub fn new(shift: i32, rounding: RoundingMode, result_precision: u8) -> Self {
        Self { shift, rounding, result_precision }
    }

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
pub(crate) trait Division<W: Work>: Copy + Send + Sync + 'static {
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
    fn run<K: RowKernel<W>>(
        lhs: &Input<'_>,
        rhs: &Input<'_>,
        constants: K::Constants,
        frame: &Frame<'_>,
        sink: Sink<'_>,
    ) -> Result<Option<NullBuffer>, KernelError>;
}

/// The work type's own division: a hardware or library divide per row, a
/// multiply-high by a prepared divisor; the build's loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WorkDivision;

impl<W: Work> Division<W> for WorkDivision {
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
    fn run<K: RowKernel<W>>(
        lhs: &Input<'_>,
        rhs: &Input<'_>,
        constants: K::Constants,
        frame: &Frame<'_>,
        sink: Sink<'_>,
    ) -> Result<Option<NullBuffer>, KernelError> {
        run::<W, K>(lhs, rhs, constants, frame, sink)
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
    fn run<K: RowKernel<i64>>(
        lhs: &Input<'_>,
        rhs: &Input<'_>,
        constants: K::Constants,
        frame: &Frame<'_>,
        sink: Sink<'_>,
    ) -> Result<Option<NullBuffer>, KernelError> {
        run_multiversioned::<i64, K>(lhs, rhs, constants, frame, sink)
    }
}

/// `round(a * 10^k / b)`, rounding mode `R`, dividing by `D`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quotient<R, D>(core::marker::PhantomData<(R, D)>);

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
pub(crate) struct ScalarQuotientConstants<W: Work, D: Division<W>> {
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
pub(crate) struct ScalarQuotient<R, D>(core::marker::PhantomData<(R, D)>);

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

/// Divides `lhs` by `rhs` row by row, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{DivSpec, Frame, Input, Output, RoundingMode, div};
/// // 10.00 / 3 at scale 2 (k = 2 - 2 + 0), rounding half up: 3.33; and 2.00 / 3: 0.67.
/// let a = [1_000i64, 200];
/// let spec = DivSpec::new(0, RoundingMode::HalfUp, 18);
/// let out: Output<i64> = div(Input::array(&a[..]), Input::scalar(3i8), &spec, &Frame::new(2))?;
/// assert_eq!(out.values.as_ref(), [333, 67]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// As [`add`](crate::add), and [`KernelError::DivideByZero`] for the first
/// valid row with a zero divisor under the `Error` policy.
pub fn div<'a, O: Storage>(
    lhs: Input<'_>,
    rhs: Input<'_>,
    spec: &DivSpec,
    frame: impl Into<Recycling<'a, O>>,
) -> Result<Output<O>, KernelError> {
    recycle(spec.result_precision, frame, |frame, sink| quotient(&lhs, &rhs, spec, frame, sink))
}

/// [`div`] into any output storage, in the kernel the plan picks.
fn quotient(
    lhs: &Input<'_>,
    rhs: &Input<'_>,
    spec: &DivSpec,
    frame: &Frame<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    // Beyond i64 a quotient costs a library divide: measuring always pays.
    let plan = plan(lhs, rhs, WorkWidth::I128, |l, r| spec.width(l, r));
    let (_, down) = spec.shifts();
    // The scaled divisor's bound, a zero divisor counting as one.
    let divisor_bits = plan.rhs.max(1) + shift_bits(down);
    if estimate_serves(plan.width, divisor_bits) {
        return divide::<i64, EstimatedDivision>(lhs, rhs, spec, frame, sink);
    }
    with_work!(plan.width, W => divide::<W, WorkDivision>(lhs, rhs, spec, frame, sink))
}

/// Whether rows in work type `width` dividing by divisors below
/// `2^divisor_bits` take [`EstimatedDivision`]: where the estimate vectorizes
/// it replaces a hardware divide per row, and for one divisor on every row
/// it also beats the multiply-high by a prepared divisor, which does not
/// vectorize.
pub(crate) fn estimate_serves(width: WorkWidth, divisor_bits: u32) -> bool {
    width == WorkWidth::I64
        && divisor_bits <= estimate::DIVISOR_BITS
        && crate::arity::wide_vectors()
}

/// [`div`] in work type `W`, dividing by `D`.
pub(crate) fn divide<W: Work, D: Division<W>>(
    lhs: &Input<'_>,
    rhs: &Input<'_>,
    spec: &DivSpec,
    frame: &Frame<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let constants = spec.constants::<W>();
    let scalar_divisor = rhs.scalar_value::<W>().map(|b| b.mul(constants.divisor_factor));
    with_rounding!(spec.rounding, R => match scalar_divisor {
        // A zero scalar divisor fails every valid row: the row kernel says so.
        Some(d) if !d.is_zero() => {
            let constants = ScalarQuotientConstants::<W, D>::new(&constants, d);
            D::run::<ScalarQuotient<R, D>>(lhs, rhs, constants, frame, sink)
        }
        _ => D::run::<Quotient<R, D>>(lhs, rhs, constants, frame, sink),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arity::{OverflowPolicy, Policies, output};
    use crate::testing::assert_same_outcome;
    use arrow_buffer::NullBuffer;

    /// [`divide`] in `i64` with `D`, results in `i64`.
    fn divide_i64<D: Division<i64>>(
        lhs: Input<'_>,
        rhs: Input<'_>,
        spec: &DivSpec,
        frame: &Frame<'_>,
    ) -> Result<Output<i64>, KernelError> {
        output(spec.result_precision, |sink| divide::<i64, D>(&lhs, &rhs, spec, frame, sink))
    }

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
                let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
                let frame = Frame::new(a.len()).with_nulls(Some(&nulls)).with_policies(policies);
                let spec = DivSpec::new(0, rounding, 18);
                // A divisor per row, and one for every row (a zero one too).
                let divisors: [i64; 8] = [7, -3, 1, -1, (1 << 61) - 1, 1 - (1 << 61), 1_000_003, 0];
                let rhs = core::iter::once((Input::array(&b[..]), "per row".to_string()))
                    .chain(divisors.into_iter().map(|d| (Input::scalar(d), d.to_string())));
                for (r, divisor) in rhs {
                    let l = Input::array(&a[..]);
                    let exact = divide_i64::<WorkDivision>(l, r, &spec, &frame);
                    let estimated = divide_i64::<EstimatedDivision>(l, r, &spec, &frame);
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
        let frame = Frame::new(2).with_nulls(Some(&nulls));
        let spec = DivSpec::new(-4, RoundingMode::HalfUp, 9);
        // SAFETY: both valid values are within 2 digits (row 0 is null).
        let operand = |v: &'static [i64]| unsafe { Input::array(v).assume_precision(2) };
        let out = div::<i64>(operand(&A), operand(&B), &spec, &frame).unwrap();
        // 100 / (7 * 10^4), half up, is 0.
        assert_eq!(out.values[1], 0);
        let frame = frame.with_policies(Policies {
            on_divide_by_zero: OverflowPolicy::Error,
            ..Policies::default()
        });
        assert!(div::<i64>(operand(&A), operand(&B), &spec, &frame).is_ok());
    }
}
