//! The remainder of two decimals, with the sign of the dividend.
//!
//! Formula: both operands are aligned exactly at the larger scale
//! `max(s1, s2)`, `n = a * 10^ka`, `d = b * 10^kb` (one of `ka`, `kb` zero),
//! and one truncating division gives `n = q*d + r`: the remainder is
//! `r = n - d * trunc(n / d)`, exact, never rounded ([`Remainder`]). At a
//! result scale `m` digits above that, it is `r * 10^m` (the shift both
//! operands would share, taken out of them). The remainder's magnitude is
//! below both `|n|` and `|d|`, so a result type with the smaller operand's
//! integer digits holds it; the precision check catches stored values beyond
//! their own precision and digits appended beyond the result's. Division by
//! zero is flagged per row, the divisor replaced by one first so that no row
//! traps.
//!
//! Width: the larger of the aligned operands (and of the remainder with its
//! appended digits) decides, as for a quotient.
//! Alignment never overflows: a dividend too large even for the 512-bit
//! type (an operand of 76 digits shifted by more than 77) is reduced in
//! steps instead, `r = ((a rem d) * 10^j rem d) ...`, which leaves the same
//! remainder ([`SteppedRemainder`]); a divisor too large saturates, and any
//! dividend is then its own remainder, as it should be.
//!
//! One divisor for every row is prepared once ([`ScalarRemainder`]), as in
//! `div`; in `i64` work on a CPU with AVX-512 rows divide by a floating-point
//! estimate with exact correction (see `estimate`), in vectors.

use arrow_buffer::NullBuffer;

use crate::columns::column::Sink;
use crate::columns::in_place::InPlace;
use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::binary::run_multiversioned;
use crate::driver::binary::{run, run_in};
use crate::driver::error::KernelError;
use crate::driver::kernel::{BinaryKernel, DIVIDE_BY_ZERO, OVERFLOW};
use crate::driver::output::compute_output;
use crate::driver::output::{Output, Recycled};
use crate::driver::plan::{plan, shift_bits};
use crate::driver::rows::Rows;
use crate::int::estimate::Instructions;
use crate::int::i512::I512;
use crate::int::width::{WorkWidth, with_work};
use crate::int::work::Work;
use crate::ops::shared::division::{
    Division, EstimatedDivision, I64Division, WorkDivision, i64_division,
    portable_remainder_in_double,
};
use crate::ops::shared::in_double::{
    InDoubleConstants, LeanRemainderInDouble, RemainderInDouble, ScalarRemainderInDouble,
};

/// The shape of a remainder, from the operand types.
///
/// ```
/// use decimal_kernels_native::RemSpec;
/// // decimal(10, 2) % decimal(5, 3): the dividend gets one digit, result decimal(5, 3).
/// let spec = RemSpec::new(1, 0, 5);
/// assert_eq!((spec.lhs_shift, spec.rhs_shift), (1, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RemSpec {
    /// Digits appended to the dividend to reach the result scale.
    pub lhs_shift: u32,
    /// Digits appended to the divisor to reach the result scale.
    pub rhs_shift: u32,
    /// The result precision: results beyond `10^p - 1` overflow.
    pub result_precision: u8,
}

/// The most digits an aligned dividend is shifted by: the distance between
/// two scales of `-76..=76`.
const MOST_SHIFT: u32 = 152;

/// Digits appended to a remainder below `2^256` in one step: the product
/// stays below `2^510`, exact in the 512-bit type.
const STEP_DIGITS: u32 = 76;

impl RemSpec {
    /// Appends `lhs_shift` digits to the dividend and `rhs_shift` to the
    /// divisor, and checks results against `result_precision` digits.
    #[must_use]
    pub fn new(lhs_shift: u32, rhs_shift: u32, result_precision: u8) -> Self {
        Self { lhs_shift, rhs_shift, result_precision }
    }

    /// The shifts of the dividend and the divisor less their common part
    /// `m`, and `m`: `a·10^ka rem b·10^kb = (a·10^(ka-m) rem b·10^(kb-m))·10^m`,
    /// so a remainder at a scale above both operands' is the one at the
    /// larger scale with digits appended, and at most one operand is shifted.
    fn split(&self) -> (u32, u32, u32) {
        let common = self.lhs_shift.min(self.rhs_shift);
        (self.lhs_shift - common, self.rhs_shift - common, common)
    }

    /// Bits of the aligned dividend and divisor (a zero divisor counting as
    /// one), and of the result (a remainder is below the divisor).
    fn aligned_bits(&self, lhs_bits: u32, rhs_bits: u32) -> (u32, u32, u32) {
        let (ka, kb, common) = self.split();
        let divisor = rhs_bits.max(1) + shift_bits(kb);
        (lhs_bits + shift_bits(ka), divisor, divisor + shift_bits(common))
    }

    fn constants<W: Work>(&self) -> RemainderConstants<W> {
        let (ka, kb, common) = self.split();
        RemainderConstants {
            dividend_factor: W::pow10(ka),
            divisor_factor: W::pow10(kb),
            result_factor: W::pow10(common),
            bound: W::precision_bound(self.result_precision.into()),
        }
    }
}

/// What a remainder computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RemainderConstants<W> {
    dividend_factor: W,
    divisor_factor: W,
    /// `10^m` for the shift both operands share (usually one).
    result_factor: W,
    bound: W,
}

/// `(a * 10^ka rem b * 10^kb) * 10^m`, dividing by `D`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Remainder<D>(core::marker::PhantomData<D>);

impl<W: InPlace, D: Division<W>> BinaryKernel<W> for Remainder<D> {
    type Constants = RemainderConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let n = a.mul(c.dividend_factor);
        let d = b.mul(c.divisor_factor);
        let by_zero = d.is_zero();
        let (_, r) = D::div_rem(n, if by_zero { W::ONE } else { d });
        let r = r.mul(c.result_factor);
        let flags = if by_zero { DIVIDE_BY_ZERO } else { OVERFLOW * u8::from(r.exceeds(c.bound)) };
        (r, flags)
    }
}

/// What a remainder by one non-zero divisor for every row computes once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScalarRemainderConstants<W: InPlace, D: Division<W>> {
    dividend_factor: W,
    /// `|b * 10^kb|`, prepared: `n rem -d = n rem d`.
    divisor: D::Prepared,
    result_factor: W,
    bound: W,
}

/// `(a * 10^ka rem d) * 10^m` for one non-zero `d` on every row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScalarRemainder<D>(core::marker::PhantomData<D>);

impl<W: InPlace, D: Division<W>> BinaryKernel<W> for ScalarRemainder<D> {
    type Constants = ScalarRemainderConstants<W, D>;

    #[inline(always)]
    fn apply(a: W, _: W, c: &Self::Constants) -> (W, u8) {
        let (_, r) = D::div_rem_by(a.mul(c.dividend_factor), &c.divisor);
        let r = r.mul(c.result_factor);
        (r, OVERFLOW * u8::from(r.exceeds(c.bound)))
    }
}

/// What a stepped remainder computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SteppedConstants<W> {
    /// `10^j` for each step, together `10^ka`.
    steps: [W; 2],
    result_factor: W,
    bound: W,
}

/// `a * 10^ka rem b` for a dividend too large for the work type: the
/// remainder of `a` is taken first and the digits appended to it in steps,
/// each followed by a remainder (`(x * 10^j) rem d` keeps the residue of
/// `x * 10^j` and the sign of `x`). Only the dividend is shifted here.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SteppedRemainder;

impl<W: Work> BinaryKernel<W> for SteppedRemainder {
    type Constants = SteppedConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        if b.is_zero() {
            return (W::ZERO, DIVIDE_BY_ZERO);
        }
        let (_, mut r) = a.div_rem(b);
        for factor in c.steps {
            r = r.mul(factor).div_rem(b).1;
        }
        let r = r.mul(c.result_factor);
        (r, OVERFLOW * u8::from(r.exceeds(c.bound)))
    }
}

/// The remainder of `lhs` by `rhs` row by row, with the sign of `lhs`,
/// results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Operand, Output, RemSpec, Rows, rem};
/// // 7.50 % 2 and -7.50 % 2 (aligned at scale 2): 1.50 and -1.50.
/// let a = [7_50i64, -7_50];
/// let spec = RemSpec::new(0, 2, 3);
/// let out: Output<i64> = rem(Operand::array(&a[..]), Operand::scalar(2i8), &spec, &Rows::new(2))?;
/// assert_eq!(out.values.as_ref(), [1_50, -1_50]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// As [`div`](crate::div); [`KernelError::UnsupportedSpec`] for a dividend
/// shifted by more than 152 digits beyond the divisor (no two scales of
/// `-76..=76` are further apart).
pub fn rem<'a, O: Storage>(
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    spec: &RemSpec,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    if spec.split().0 > MOST_SHIFT {
        return Err(KernelError::UnsupportedSpec {
            reason: "a remainder whose dividend is shifted by more than 152 digits",
        });
    }
    compute_output(spec.result_precision, rows, |rows, sink| {
        remainder(&lhs, &rhs, spec, rows, sink)
    })
}

/// [`rem`] into any output storage, in the kernel the plan picks.
fn remainder(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    spec: &RemSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    // Beyond i64 a remainder costs a library divide: measuring always pays.
    // A result that saturates the 512-bit type (a non-zero remainder with
    // more than 76 digits appended) overflows any bound, as it should.
    let plan = plan(lhs, rhs, WorkWidth::I128, |l, r| {
        let (n, d, result) = spec.aligned_bits(l, r);
        WorkWidth::for_bits(n.max(d).max(result))
    });
    let (dividend_bits, divisor_bits, result_bits) = spec.aligned_bits(plan.lhs, plan.rhs);
    if dividend_bits > EXACT_BITS {
        // Only the dividend is shifted (the divisor has no more than 256
        // bits), by more than 76 digits: at most two steps.
        let (shift, _, common) = spec.split();
        let digits = shift.min(STEP_DIGITS);
        let c = SteppedConstants {
            steps: [I512::pow10(digits), I512::pow10(shift - digits)],
            result_factor: I512::pow10(common),
            bound: I512::precision_bound(spec.result_precision.into()),
        };
        return run::<I512, SteppedRemainder>(lhs, rhs, c, rows, sink);
    }
    match i64_division(plan.width, dividend_bits, divisor_bits, result_bits, None) {
        Some(I64Division::InDouble) => return divide_in_double(lhs, rhs, spec, rows, sink),
        Some(I64Division::Estimated) => {
            return divide::<i64, EstimatedDivision<Instructions>>(lhs, rhs, spec, rows, sink);
        }
        // Two steps are for quotients: not chosen without a scaled dividend.
        Some(I64Division::TwoSteps) | None => {}
    }
    if portable_remainder_in_double(plan.width, dividend_bits, divisor_bits, result_bits)
        && rhs.scalar_value::<i64>().is_none()
    {
        let (ka, kb, common) = spec.split();
        let c = InDoubleConstants::per_row(ka, kb, common, spec.result_precision);
        return run_multiversioned::<i64, LeanRemainderInDouble>(lhs, rhs, c, rows, sink);
    }
    with_work!(plan.width, W => divide::<W, WorkDivision>(lhs, rhs, spec, rows, sink))
}

/// Aligned dividends below `2^510` are exact in the 512-bit type.
const EXACT_BITS: u32 = 510;

/// [`rem`] of rows whose aligned operands and results are below `2^51`,
/// wholly in double precision.
fn divide_in_double(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    spec: &RemSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let (ka, kb, common) = spec.split();
    let precision = spec.result_precision;
    match rhs.scalar_value::<i64>().map(|b| b.mul(i64::pow10(kb))) {
        // A zero scalar divisor fails every valid row: the row kernel says so.
        Some(d) if d != 0 => {
            let c = InDoubleConstants::scalar(ka, d, common, precision);
            run_multiversioned::<i64, ScalarRemainderInDouble>(lhs, rhs, c, rows, sink)
        }
        _ => {
            let c = InDoubleConstants::per_row(ka, kb, common, precision);
            run_multiversioned::<i64, RemainderInDouble>(lhs, rhs, c, rows, sink)
        }
    }
}

/// [`rem`] in work type `W`, dividing by `D`.
fn divide<W: InPlace, D: Division<W>>(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    spec: &RemSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let constants = spec.constants::<W>();
    match rhs.scalar_value::<W>().map(|b| b.mul(constants.divisor_factor)) {
        // A zero scalar divisor fails every valid row: the row kernel says so.
        Some(d) if !d.is_zero() => {
            let constants = ScalarRemainderConstants::<W, D> {
                dividend_factor: constants.dividend_factor,
                divisor: D::prepare(d.abs()),
                result_factor: constants.result_factor,
                bound: constants.bound,
            };
            run_in::<W, ScalarRemainder<D>, D::Copies>(lhs, rhs, constants, rows, sink)
        }
        _ => run_in::<W, Remainder<D>, D::Copies>(lhs, rhs, constants, rows, sink),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use arrow_buffer::i256;
    use rstest::rstest;

    /// One row under the `Null` policies into `i256`: `None` on a failure.
    #[track_caller]
    fn one(a: i256, b: Operand<'_>, spec: RemSpec) -> Option<i256> {
        let null =
            Policies { on_overflow: OverflowPolicy::Null, on_divide_by_zero: OverflowPolicy::Null };
        let rows = Rows::new(1).with_policies(null);
        let out: Output<i256> = rem(Operand::array(&[a][..]), b, &spec, &rows).unwrap();
        out.nulls.as_ref().is_none_or(|n| n.is_valid(0)).then(|| out.values[0])
    }

    fn v(x: i128) -> i256 {
        i256::from_i128(x)
    }

    #[rstest]
    #[case::sign_of_dividend(-7_50, 2, RemSpec::new(0, 2, 3), Some(-1_50))]
    #[case::negative_divisor(7_50, -2, RemSpec::new(0, 2, 3), Some(1_50))]
    #[case::dividend_aligned(75, 3_00, RemSpec::new(1, 0, 5), Some(1_50))]
    #[case::both_shifted(75, 2, RemSpec::new(2, 3, 5), Some(1_500))]
    #[case::appended_beyond_precision(75, 2, RemSpec::new(3, 4, 4), None)]
    #[case::exact_multiple(-600, 3, RemSpec::new(0, 0, 3), Some(0))]
    #[case::by_zero(5, 0, RemSpec::new(0, 3, 3), None)]
    #[case::beyond_precision(12_345, 100_000, RemSpec::new(0, 0, 4), None)]
    // At the bound of the remainders in double precision (2^51, the
    // portable copy's lean form included) and one unit beyond (the divide).
    #[case::operands_at_the_bound(2_251_799_813_685_247, 2_251_799_813_685_246, RemSpec::new(0, 0, 18), Some(1))]
    #[case::dividend_one_beyond_the_bound(2_251_799_813_685_248, 2_251_799_813_685_246, RemSpec::new(0, 0, 18), Some(2))]
    #[case::largest_by_three_at_the_bound(2_251_799_813_685_247, 3, RemSpec::new(0, 0, 18), Some(1))]
    #[case::largest_by_three_one_beyond_the_bound(2_251_799_813_685_248, 3, RemSpec::new(0, 0, 18), Some(2))]
    fn remainders(
        #[case] a: i128,
        #[case] b: i128,
        #[case] spec: RemSpec,
        #[case] want: Option<i128>,
    ) {
        let want = want.map(v);
        assert_eq!(one(v(a), Operand::array(&[v(b)][..]), spec), want, "column divisor");
        assert_eq!(one(v(a), Operand::scalar(b), spec), want, "scalar divisor");
    }

    #[test]
    fn alignment_never_overflows() {
        // 10^75 at scale -76 rem 7 at scale 76: the dividend aligned at scale
        // 76 is 10^227, which no work type holds.
        let a = i256::from_string(&format!("1{}", "0".repeat(75))).unwrap();
        let spec = RemSpec::new(152, 0, 76);
        // 10^227 mod 7: 10^6 = 1 (mod 7), 227 = 6*37 + 5, 10^5 mod 7 = 5.
        assert_eq!(one(a, Operand::scalar(7i8), spec), Some(v(5)));
        assert_eq!(one(a.wrapping_neg(), Operand::array(&[v(-7)][..]), spec), Some(v(-5)));
        // A divisor aligned beyond 512 bits: the dividend is its own remainder.
        let b = i256::from_string(&"9".repeat(76)).unwrap();
        assert_eq!(one(v(-42), Operand::scalar(b), RemSpec::new(0, 152, 76)), Some(v(-42)));
        let one = Operand::scalar(1i8);
        let refused = rem::<i256>(one, one, &RemSpec::new(153, 0, 76), &Rows::new(1));
        assert!(matches!(refused, Err(KernelError::UnsupportedSpec { .. })), "{refused:?}");
    }

    #[test]
    fn storage_minimum_is_no_wrap() {
        // i256::MIN rem -1 is 0 and fits; a stored value beyond 76 digits is
        // its own remainder by a larger divisor, an overflow.
        assert_eq!(one(i256::MIN, Operand::scalar(-1i8), RemSpec::new(0, 0, 76)), Some(v(0)));
        let ten_76 = i256::from_i128(10).wrapping_pow(76);
        let beyond = ten_76.wrapping_add(v(5)).wrapping_neg();
        let divisor = Operand::scalar(ten_76.wrapping_mul(v(2)));
        assert_eq!(one(beyond, divisor, RemSpec::new(0, 0, 76)), None);
    }
}
