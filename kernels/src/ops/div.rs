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

use crate::columns::column::Sink;
use crate::columns::in_place::InPlace;
use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::binary::run_in;
use crate::driver::binary::run_multiversioned;
use crate::driver::error::KernelError;
use crate::driver::kernel::{BinaryKernel, DIVIDE_BY_ZERO, OVERFLOW};
use crate::driver::output::compute_output;
use crate::driver::output::{Output, Recycled};
use crate::driver::plan::{plan, shift_bits};
use crate::driver::rows::Rows;
use crate::int::estimate::Instructions;
use crate::int::rounding::{Rounding, RoundingMode, with_rounding};
use crate::int::width::{WorkWidth, with_work};
use crate::int::work::Work;
use crate::ops::shared::division::{
    Division, EstimatedDivision, I64Division, ScaledDividend, WorkDivision, i64_division,
};
use crate::ops::shared::in_double::{InDoubleConstants, QuotientInDouble, ScalarQuotientInDouble};
use crate::ops::shared::scalar_quotient::{ScalarQuotient, ScalarQuotientConstants};
use crate::driver::isa::{Isa, active};
use crate::ops::shared::two_step::{
    FlooredQuotientInTwoSteps, Fused, QuotientInTwoSteps, Separate, TwoStepConstants,
};

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

/// `round(a * 10^k / b)`, rounding mode `R`, dividing by `D`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quotient<R, D>(core::marker::PhantomData<(R, D)>);

impl<W: InPlace, R: Rounding, D: Division<W>> BinaryKernel<W> for Quotient<R, D> {
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

/// Divides `lhs` by `rhs` row by row, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{DivSpec, Operand, Output, RoundingMode, Rows, div};
/// // 10.00 / 3 at scale 2 (k = 2 - 2 + 0), rounding half up: 3.33; and 2.00 / 3: 0.67.
/// let a = [1_000i64, 200];
/// let spec = DivSpec::new(0, RoundingMode::HalfUp, 18);
/// let out: Output<i64> = div(Operand::array(&a[..]), Operand::scalar(3i8), &spec, &Rows::new(2))?;
/// assert_eq!(out.values.as_ref(), [333, 67]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// As [`add`](crate::add), and [`KernelError::DivideByZero`] for the first
/// valid row with a zero divisor under the `Error` policy.
pub fn div<'a, O: Storage>(
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    spec: &DivSpec,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    compute_output(spec.result_precision, rows, |rows, sink| quotient(&lhs, &rhs, spec, rows, sink))
}

/// [`div`] into any output storage, in the kernel the plan picks.
fn quotient(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    spec: &DivSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    // Beyond i64 a quotient costs a library divide: measuring always pays.
    let plan = plan(lhs, rhs, WorkWidth::I128, |l, r| spec.width(l, r));
    let (up, down) = spec.shifts();
    // The scaled divisor's bound, a zero divisor counting as one.
    let divisor_bits = plan.rhs.max(1) + shift_bits(down);
    let dividend_bits = plan.lhs + shift_bits(up);
    // Two steps are for a divisor per row (a single divisor is prepared
    // once) that is not scaled. Measured on an AMD EPYC, `Decimal128(15,2)`
    // ÷ scalar in the AVX2 copy: two steps take 19.8 instructions a row
    // against the prepared divisor's 26.9, yet 3.44 ns a row against 2.81
    // at 8,192 rows, each row's reciprocal on the critical path (the
    // portable copy's floored form: 24% more instructions).
    let scaled = (down == 0 && rhs.scalar_value::<i64>().is_none())
        .then_some(ScaledDividend { bits: plan.lhs, k: up });
    // A quotient is at most its dividend.
    match i64_division(plan.width, dividend_bits, divisor_bits, dividend_bits, scaled) {
        Some(I64Division::InDouble) => return divide_in_double(lhs, rhs, spec, rows, sink),
        Some(I64Division::TwoSteps) => return divide_in_two_steps(lhs, rhs, spec, rows, sink),
        Some(I64Division::Estimated) => {
            return divide::<i64, EstimatedDivision<Instructions>>(lhs, rhs, spec, rows, sink);
        }
        None => {}
    }
    with_work!(plan.width, W => divide::<W, WorkDivision>(lhs, rhs, spec, rows, sink))
}

/// [`div`] of rows whose scaled operands are below `2^51`, wholly in
/// double precision.
fn divide_in_double(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    spec: &DivSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let (up, down) = spec.shifts();
    let precision = spec.result_precision;
    let scalar_divisor = rhs.scalar_value::<i64>().map(|b| b.mul(i64::pow10(down)));
    with_rounding!(spec.rounding, R => match scalar_divisor {
        // A zero scalar divisor fails every valid row: the row kernel says so.
        Some(d) if d != 0 => {
            let c = InDoubleConstants::scalar(up, d, 0, precision);
            run_multiversioned::<i64, ScalarQuotientInDouble<R>>(lhs, rhs, c, rows, sink)
        }
        _ => {
            let c = InDoubleConstants::per_row(up, down, 0, precision);
            run_multiversioned::<i64, QuotientInDouble<R>>(lhs, rhs, c, rows, sink)
        }
    })
}

/// [`div`] by a divisor per row, of dividends and divisors within the
/// bounds of `two_step`, in two steps of double precision.
fn divide_in_two_steps(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    spec: &DivSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let (up, _) = spec.shifts();
    let c = TwoStepConstants::new(up, spec.result_precision);
    // Fused multiply-adds where the copy this process runs has them; the
    // portable copy's SSE2 lanes take the floored form, with fewer
    // operations a row (`i64_division` chose it within its bounds).
    let portable = active() == Isa::Portable;
    with_rounding!(spec.rounding, R => if portable {
        run_multiversioned::<i64, FlooredQuotientInTwoSteps<R, Separate>>(lhs, rhs, c, rows, sink)
    } else {
        run_multiversioned::<i64, QuotientInTwoSteps<R, Fused>>(lhs, rhs, c, rows, sink)
    })
}

/// [`div`] in work type `W`, dividing by `D`.
fn divide<W: InPlace, D: Division<W>>(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    spec: &DivSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let constants = spec.constants::<W>();
    let scalar_divisor = rhs.scalar_value::<W>().map(|b| b.mul(constants.divisor_factor));
    with_rounding!(spec.rounding, R => match scalar_divisor {
        // A zero scalar divisor fails every valid row: the row kernel says so.
        Some(d) if !d.is_zero() => {
            let constants = ScalarQuotientConstants::<W, D>::new(
                constants.dividend_factor,
                d,
                constants.bound,
            );
            run_in::<W, ScalarQuotient<R, D>, D::Copies>(lhs, rhs, constants, rows, sink)
        }
        _ => run_in::<W, Quotient<R, D>, D::Copies>(lhs, rhs, constants, rows, sink),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::output::output;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use crate::int::estimate::{ConversionKind, with_conversion};
    use crate::int::exact_double;
    use crate::testing::assert_same_outcome;
    use arrow_buffer::NullBuffer;

    /// [`divide`] in `i64` with `D`, results in `i64`.
    fn divide_i64<D: Division<i64>>(
        lhs: Operand<'_>,
        rhs: Operand<'_>,
        spec: &DivSpec,
        rows: &Rows<'_>,
    ) -> Result<Output<i64>, KernelError> {
        output(spec.result_precision, |sink| divide::<i64, D>(&lhs, &rhs, spec, rows, sink))
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

    /// Small dividends and divisors, below `2^51` where valid, with the
    /// bounds, zeros, and garbage beyond the bound under nulls.
    fn small_columns() -> (Vec<i64>, Vec<i64>) {
        let (a, b) = extreme_columns();
        let most = (1i64 << exact_double::OPERAND_BITS) - 1;
        let mut a: Vec<i64> = a.iter().map(|v| v >> 12).collect();
        let mut b: Vec<i64> = b.iter().map(|v| v >> 10).collect();
        a.extend([most, -most, most, 0, most - 1, -1]);
        b.extend([1, -1, most, most, -most, 1 << 40]);
        (a, b)
    }

    /// Every rounding and policy, a divisor per row and each of `scalars`:
    /// `divide` (`D`'s outcome) against the work type's own division.
    #[track_caller]
    fn assert_matches_work_division(
        (a, b): (Vec<i64>, Vec<i64>),
        scalars: &[i64],
        divide: impl Fn(
            Operand<'_>,
            Operand<'_>,
            &DivSpec,
            &Rows<'_>,
        ) -> Vec<(String, Result<Output<i64>, KernelError>)>,
    ) {
        // Garbage under the nulls: every eleventh row, and the last (a zero
        // over a zero, or beyond the bounds).
        let nulls = NullBuffer::from(
            (0..a.len()).map(|i| i % 11 != 5 && i != a.len() - 1).collect::<Vec<_>>(),
        );
        for rounding in RoundingMode::ALL {
            for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
                let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
                let rows = Rows::new(a.len()).with_nulls(Some(&nulls)).with_policies(policies);
                let spec = DivSpec::new(0, rounding, 18);
                let rhs = core::iter::once((Operand::array(&b[..]), "per row".to_string()))
                    .chain(scalars.iter().map(|&d| (Operand::scalar(d), d.to_string())));
                for (r, divisor) in rhs {
                    let l = Operand::array(&a[..]);
                    for (name, outcome) in divide(l, r, &spec, &rows) {
                        let exact = divide_i64::<WorkDivision>(l, r, &spec, &rows);
                        let context =
                            format!("{rounding:?}, {policy:?}, divisor {divisor}, {name}");
                        assert_same_outcome(exact, outcome, &context);
                    }
                }
            }
        }
    }

    #[test]
    fn estimated_quotients_equal_exact_ones() {
        let scalars = [7, -3, 1, -1, (1 << 61) - 1, 1 - (1 << 61), 1_000_003, 0];
        assert_matches_work_division(extreme_columns(), &scalars, |l, r, spec, rows| {
            [ConversionKind::Instructions, ConversionKind::ExponentBits]
                .into_iter()
                .map(|conversion| {
                    let outcome = with_conversion!(conversion, C => {
                        divide_i64::<EstimatedDivision<C>>(l, r, spec, rows)
                    });
                    (format!("{conversion:?}"), outcome)
                })
                .collect()
        });
    }

    #[test]
    fn quotients_exact_in_double_precision_equal_exact_ones() {
        let most = (1i64 << exact_double::OPERAND_BITS) - 1;
        let scalars = [7, -3, 1, -1, most, -most, 1_000_003, 0];
        assert_matches_work_division(small_columns(), &scalars, |l, r, spec, rows| {
            let outcome =
                output(spec.result_precision, |sink| divide_in_double(&l, &r, spec, rows, sink));
            vec![("in double".to_string(), outcome)]
        });
    }

    /// Money below `2^40` and its bound, factors up to the two steps' bound
    /// for `k = 6` (`2^34`), zeros, and garbage beyond the bounds under the
    /// nulls of [`assert_two_steps_exact`].
    fn money_and_factors() -> (Vec<i64>, Vec<i64>) {
        let (a, b) = extreme_columns();
        let most = (1i64 << 40) - 1;
        let mut a: Vec<i64> = a.iter().map(|v| v >> 23).collect();
        let mut b: Vec<i64> = b.iter().map(|v| v >> 27).collect();
        a.extend([most, -most, 0, most, 999_999_999_999, -1, i64::MIN]);
        b.extend([1, -1, 0, (1 << 34) - 1, 999_999, 1 << 33, 3]);
        (a, b)
    }

    /// `divide_in_two_steps` against the work type's own division, every
    /// mode and policy, in the copy this process runs.
    #[track_caller]
    fn assert_two_steps_exact(a: &[i64], b: &[i64], shift: i32, precision: u8) {
        let nulls = NullBuffer::from(
            (0..a.len()).map(|i| i % 11 != 5 && i != a.len() - 1).collect::<Vec<_>>(),
        );
        let (l, r) = (Operand::array(a), Operand::array(b));
        for rounding in RoundingMode::ALL {
            for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
                let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
                let rows = Rows::new(a.len()).with_nulls(Some(&nulls)).with_policies(policies);
                let spec = DivSpec::new(shift, rounding, precision);
                let exact = divide_i64::<WorkDivision>(l, r, &spec, &rows);
                let two_steps =
                    output(precision, |sink| divide_in_two_steps(&l, &r, &spec, &rows, sink));
                let context = format!("{rounding:?}, {policy:?}, k {shift}, p {precision}");
                assert_same_outcome(exact, two_steps, &context);
            }
        }
    }

    #[rstest::rstest]
    #[case::money_by_a_factor(6, 18)]
    #[case::money_by_a_factor_overflowing(6, 12)]
    #[case::two_digits(2, 15)]
    fn quotients_in_two_steps_equal_exact_ones(#[case] shift: i32, #[case] precision: u8) {
        let (a, mut b) = money_and_factors();
        if active() == Isa::Portable {
            // The floored form's bound for 10^6: 2^30 (2^34 - 1 becomes
            // 2^30 - 1, at the bound).
            b.iter_mut().for_each(|v| *v >>= 4);
        }
        assert_two_steps_exact(&a, &b, shift, precision);
    }

    #[test]
    fn money_by_a_factor_per_row_is_exact_in_whichever_kernel_the_plan_picks() {
        // Decimal64(15, 2) by Decimal64(15, 2) at scale 6, measured: the two
        // steps on every copy (floored on the portable one, for divisors
        // below 2^30); divisors beyond the bound take the divide or the
        // estimate.
        let (mut a, b) = money_and_factors();
        // Measured bits count null rows: garbage this large would take the
        // call to i128.
        *a.last_mut().expect("rows") = 1 << 39;
        let nulls = NullBuffer::from((0..a.len()).map(|i| i != a.len() - 1).collect::<Vec<_>>());
        let policies = Policies { on_overflow: OverflowPolicy::Null, on_divide_by_zero: OverflowPolicy::Null };
        let rows = Rows::new(a.len()).with_nulls(Some(&nulls)).with_policies(policies);
        let big_b: Vec<i64> = b.iter().map(|v| v << 2).collect();
        for (a, b) in [(&a, &b), (&a, &big_b)] {
            let (l, r) = (Operand::array(&a[..]).assume_precision(15), Operand::array(&b[..]));
            for rounding in RoundingMode::ALL {
                let spec = DivSpec::new(6, rounding, 18);
                let exact = divide_i64::<WorkDivision>(l, r, &spec, &rows);
                assert_same_outcome(exact, div::<i64>(l, r, &spec, &rows), &format!("{rounding:?}"));
            }
        }
    }

    #[rstest::rstest]
    // At the bounds of the two steps, and one unit beyond (another kernel).
    #[case::divisor_at_the_bound(6, 1 << 40, (1 << 34) - 1)]
    #[case::divisor_one_beyond_the_bound(6, 1 << 40, 1 << 34)]
    #[case::dividend_at_the_bound(1, (1 << 51) - 1, (1 << 50) - 1)]
    #[case::dividend_one_beyond_the_bound(1, 1 << 51, (1 << 50) - 1)]
    #[case::largest_values_of_i64(0, i64::MAX, i64::MIN)]
    // The floored form's bound (the portable copy's), and one unit beyond.
    #[case::divisor_at_the_floored_bound(6, 1 << 40, (1 << 30) - 1)]
    #[case::divisor_one_beyond_the_floored_bound(6, 1 << 40, 1 << 30)]
    #[case::divisor_at_the_floored_bound_unscaled(0, (1 << 51) - 1, (1 << 48) - 1)]
    #[case::divisor_one_beyond_the_floored_bound_unscaled(0, (1 << 51) - 1, 1 << 48)]
    fn quotients_at_the_bounds_of_the_two_steps_are_exact(
        #[case] shift: i32,
        #[case] most_a: i64,
        #[case] most_b: i64,
    ) {
        let a = [most_a, -most_a, most_a - 1, 12_345, 0, most_a / 3, most_a];
        let b = [most_b, most_b, most_b.wrapping_neg(), most_b, 7, 1, most_b.wrapping_sub(1)];
        let policies =
            Policies { on_overflow: OverflowPolicy::Null, on_divide_by_zero: OverflowPolicy::Null };
        let rows = Rows::new(a.len()).with_policies(policies);
        // A divisor per row, and each divisor alone as a scalar (which the
        // prepared divisor serves).
        let divisors = core::iter::once(Operand::array(&b[..]))
            .chain([most_b, most_b.wrapping_neg(), 7, 1].map(Operand::scalar));
        for r in divisors {
            let l = Operand::array(&a[..]);
            for rounding in RoundingMode::ALL {
                let spec = DivSpec::new(shift, rounding, 18);
                // The work type's division in i128: exact for every row here.
                let exact = output(spec.result_precision, |sink| {
                    divide::<i128, WorkDivision>(&l, &r, &spec, &rows, sink)
                });
                let context = format!("{rounding:?}, divisor {r:?}");
                assert_same_outcome(exact, div::<i64>(l, r, &spec, &rows), &context);
            }
        }
    }

    #[rstest::rstest]
    // Dividend and divisor bits, scale, and whether the corrected form
    // (AVX2, AVX-512) and the floored one (portable) are within bounds.
    #[case::money_by_a_factor(40, 20, 6, true, true)]
    #[case::divisor_at_the_floored_bound(51, 30, 6, true, true)]
    #[case::divisor_one_bit_beyond_the_floored_bound(51, 31, 6, true, false)]
    #[case::divisor_at_the_bound(51, 34, 6, true, false)]
    #[case::divisor_one_bit_beyond(51, 35, 6, false, false)]
    #[case::dividend_one_bit_beyond(52, 20, 6, false, false)]
    #[case::scale_beyond(20, 10, 10, false, false)]
    fn which_copies_divide_in_two_steps(
        #[case] lhs: u32,
        #[case] rhs: u32,
        #[case] k: u32,
        #[case] corrected: bool,
        #[case] floored: bool,
    ) {
        let scaled = Some(ScaledDividend { bits: lhs, k });
        let dividend = lhs + shift_bits(k);
        let chosen = i64_division(WorkWidth::I64, dividend, rhs, dividend, scaled);
        let two_steps = chosen == Some(I64Division::TwoSteps);
        let copy = active();
        let within = if copy == Isa::Portable { floored } else { corrected };
        assert_eq!(two_steps, within, "{copy:?}: {chosen:?}");
        // No scaled dividend (a scalar divisor, a remainder): never.
        let chosen = i64_division(WorkWidth::I64, dividend, rhs, dividend, None);
        assert_ne!(chosen, Some(I64Division::TwoSteps));
    }

    #[test]
    fn garbage_divisor_under_a_null_that_wraps_to_zero_does_not_trap() {
        // 2^60 * 10^4 wraps to 0 in i64; the row is null, so it is ignored.
        static A: [i64; 2] = [100, 100];
        static B: [i64; 2] = [1 << 60, 7];
        let nulls = NullBuffer::from(vec![false, true]);
        let rows = Rows::new(2).with_nulls(Some(&nulls));
        let spec = DivSpec::new(-4, RoundingMode::HalfUp, 9);
        // Both valid values are within 2 digits (row 0 is null).
        let operand = |v: &'static [i64]| Operand::array(v).assume_precision(2);
        let out = div::<i64>(operand(&A), operand(&B), &spec, &rows).unwrap();
        // 100 / (7 * 10^4), half up, is 0.
        assert_eq!(out.values[1], 0);
        let rows = rows.with_policies(Policies {
            on_divide_by_zero: OverflowPolicy::Error,
            ..Policies::default()
        });
        assert!(div::<i64>(operand(&A), operand(&B), &spec, &rows).is_ok());
    }
}
