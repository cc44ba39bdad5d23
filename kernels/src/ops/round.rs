//! Rounding to fewer digits while keeping a larger scale: SQL's
//! `round(x, d)`, `floor`, `ceil` and `trunc` where the result's scale is
//! above `d` (Trino keeps the operand's scale, Spark and DataFusion scale 0
//! for `d < 0`), so the dropped digits come back as zeros.
//!
//! Formula: `q = round(a / 10^dropped)` with the mode, from the exact `a`
//! (one truncating division by a divisor prepared once per call, as a
//! rescale drops digits), then `r = q * 10^appended`; an overflow when
//! `|q| > (10^p - 1) / 10^appended`, the same rows as `|r| > 10^p - 1`, so
//! no verdict rests on a product that left the work type. One pass over the
//! column: no rounded intermediate is stored.
//!
//! A spec that drops no digit or appends none is a [`rescale`] and runs as
//! one, with its plans (the `i64` estimate on AVX-512, the unmeasured
//! appends).

use core::marker::PhantomData;

use arrow_buffer::NullBuffer;

use crate::columns::column::Sink;
use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::error::KernelError;
use crate::driver::kernel::UnaryKernel;
use crate::driver::output::{Output, Recycled, compute_output};
use crate::driver::plan::{plan_unary, shift_bits};
use crate::driver::rows::Rows;
use crate::driver::unary::run_unary;
use crate::int::pow10::precision_bits;
use crate::int::rounding::{Rounding, RoundingMode, with_rounding};
use crate::int::width::{WorkWidth, with_work};
use crate::int::work::Work;
use crate::ops::rescale::{AppendedDigits, Appending, RescaleSpec, rescale};
use crate::ops::shared::scale::ScaleConstants;

/// The shape of a rounding: digits dropped with a mode, then zeros appended.
///
/// ```
/// use decimal_kernels_native::{RoundSpec, RoundingMode};
/// // Trino's round(x, 1) of decimal(4, 2): one digit dropped half up, one
/// // zero appended, at most 5 digits.
/// let spec = RoundSpec::new(1, 1, RoundingMode::HalfUp, 5);
/// assert_eq!((spec.dropped, spec.appended), (1, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RoundSpec {
    /// Digits dropped, rounded with `rounding`.
    pub dropped: u32,
    /// Zeros appended after rounding.
    pub appended: u32,
    /// How dropped digits round.
    pub rounding: RoundingMode,
    /// The result precision: results beyond `10^p - 1` overflow.
    pub result_precision: u8,
}

impl RoundSpec {
    /// Drops `dropped` digits rounding with `rounding`, appends `appended`
    /// zeros and checks results against `result_precision` digits.
    #[must_use]
    pub fn new(dropped: u32, appended: u32, rounding: RoundingMode, result_precision: u8) -> Self {
        Self { dropped, appended, rounding, result_precision }
    }

    /// `L` such that the operand, `10^dropped`, the rounded quotient and
    /// every result within the precision are below `2^L` (a product beyond
    /// the precision is flagged from the quotient, whatever it wrapped to).
    fn work_bits(&self, bits: u32) -> u32 {
        let precision = precision_bits(self.result_precision.into());
        bits.max(shift_bits(self.dropped) + 1).max(precision)
    }
}

/// What a rounding computes once per call: `10^dropped` prepared for
/// division, and `10^appended` with the largest quotient it may multiply.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundConstants<W: Work> {
    dropping: ScaleConstants<W>,
    appending: Appending<W>,
}

/// `round(a / 10^dropped) * 10^appended`, rounding mode `R`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundedDigits<R>(PhantomData<R>);

impl<W: Work, R: Rounding> UnaryKernel<W> for RoundedDigits<R> {
    type Constants = RoundConstants<W>;

    #[inline(always)]
    fn apply(a: W, c: &Self::Constants) -> (W, u8) {
        // The quotient's own flag compares it with the result bound, which
        // the appending's limit already implies.
        let (q, _) = c.dropping.drop_digits::<R>(a);
        <AppendedDigits<true> as UnaryKernel<W>>::apply(q, &c.appending)
    }
}

/// Rounds `input` row by row, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Operand, Output, RoundSpec, RoundingMode, Rows, round};
/// // 9.99 and -1.25 (scale 2) to one digit, half up, kept at scale 2: 10.00 and -1.30.
/// let a = [999i64, -125];
/// let spec = RoundSpec::new(1, 1, RoundingMode::HalfUp, 5);
/// let out: Output<i64> = round(Operand::array(&a[..]), &spec, &Rows::new(2))?;
/// assert_eq!(out.values.as_ref(), [1000, -130]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row beyond the result
/// precision under the `Error` policy; [`KernelError::LengthMismatch`] and
/// [`KernelError::StorageTooNarrow`] as for [`add`](crate::add).
pub fn round<'a, O: Storage>(
    input: Operand<'_>,
    spec: &RoundSpec,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    if spec.dropped == 0 || spec.appended == 0 {
        // Any count beyond `i32::MAX` drops or appends as many digits as
        // that: the work type saturates long before.
        let count = |digits: u32| i32::try_from(digits).unwrap_or(i32::MAX);
        let shift = if spec.dropped == 0 { -count(spec.appended) } else { count(spec.dropped) };
        let rescaling = RescaleSpec::new(shift, spec.rounding, spec.result_precision);
        return rescale(input, &rescaling, rows);
    }
    compute_output(spec.result_precision, rows, |rows, sink| rounded(&input, spec, rows, sink))
}

/// [`round`] with digits both dropped and appended, into any output storage.
fn rounded(
    input: &Operand<'_>,
    spec: &RoundSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    // As for a rescale: measuring a wide column pays from i128 on.
    let p = plan_unary(input, WorkWidth::I128, |bits| WorkWidth::for_bits(spec.work_bits(bits)));
    with_work!(p.width, W => {
        let c = RoundConstants {
            dropping: ScaleConstants::<W>::new(spec.dropped, spec.result_precision),
            appending: Appending::<W>::new(spec.appended, spec.result_precision),
        };
        with_rounding!(spec.rounding, R => run_unary::<W, RoundedDigits<R>>(input, c, rows, sink))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use arrow_buffer::i256;
    use rstest::rstest;

    /// `round(v / 10^dropped) * 10^appended` with `mode`, when within
    /// `precision` digits, computed on big integers from first principles.
    fn expected(v: i128, spec: &RoundSpec) -> Option<i128> {
        use num_bigint::BigInt;
        use num_traits::{Signed, ToPrimitive};
        let (v, d) = (BigInt::from(v), BigInt::from(10).pow(spec.dropped));
        let (q, r) = (&v / &d, &v % &d);
        let twice = 2 * r.abs();
        let away = match spec.rounding {
            RoundingMode::TowardZero => false,
            RoundingMode::HalfUp => twice >= d,
            RoundingMode::HalfEven => twice > d || (twice == d && q.bit(0)),
            RoundingMode::Floor => r.is_negative(),
            RoundingMode::Ceiling => r.is_positive(),
        };
        let q = if away { q + v.signum() } else { q };
        let r = q * BigInt::from(10).pow(spec.appended);
        let bound = BigInt::from(10).pow(spec.result_precision.into()) - 1;
        (r.abs() <= bound).then(|| r.to_i128().unwrap())
    }

    /// Values around the rounding points and the bounds of `precision`.
    fn values(precision: u8) -> Vec<i128> {
        let top = 10i128.pow(precision.into()) - 1;
        let mut values = vec![0, 1, -1, 5, -5, 15, -15, 25, -25, 149, -150, 999, -999, 12_345];
        values.extend([top, -top, top / 10, -top / 10, top - 5, -(top - 5)]);
        values
    }

    /// Every mode on every width of storage, both sides of the rounding
    /// points and the bounds, the `Null` policy and null rows.
    #[rstest]
    #[case::one_and_one(1, 1, 5)]
    #[case::two_of_three(2, 1, 4)]
    #[case::into_a_carry(1, 2, 3)]
    #[case::money_in_i64(2, 2, 18)]
    #[case::wide(3, 4, 38)]
    #[case::appended_beyond_the_work_type(1, 40, 38)]
    #[case::dropped_beyond_every_value(40, 1, 38)]
    fn rounds_as_computed_in_i128(
        #[case] dropped: u32,
        #[case] appended: u32,
        #[case] precision: u8,
    ) {
        let values = values(precision.min(36));
        let valid: Vec<bool> = (0..values.len()).map(|row| row % 7 != 3).collect();
        let nulls = NullBuffer::from(valid.clone());
        let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows::new(values.len()).with_nulls(Some(&nulls)).with_policies(null);
        let wide: Vec<i256> = values.iter().map(|&v| i256::from_i128(v)).collect();
        for mode in RoundingMode::ALL {
            let spec = RoundSpec::new(dropped, appended, mode, precision);
            let context = format!("{spec:?}");
            let check = |got: Vec<Option<i128>>, storage: &str| {
                for (row, &v) in values.iter().enumerate() {
                    let want = expected(v, &spec).filter(|_| valid[row]);
                    assert_eq!(got[row], want, "{context}, {storage}, row {row}: {v}");
                }
            };
            let out: Output<i128> = round(Operand::array(&values[..]), &spec, &rows).unwrap();
            check(present(&out, |v| v), "i128");
            let out: Output<i256> = round(Operand::array(&wide[..]), &spec, &rows).unwrap();
            check(present(&out, |v| v.as_i128()), "i256");
        }
    }

    /// The rows of `out` that are valid, as `i128`.
    fn present<S: Storage + Copy>(
        out: &Output<S>,
        to_i128: impl Fn(S) -> i128,
    ) -> Vec<Option<i128>> {
        (0..out.values.len())
            .map(|row| {
                let valid = out.nulls.as_ref().is_none_or(|n| n.is_valid(row));
                valid.then(|| to_i128(out.values[row]))
            })
            .collect()
    }

    #[test]
    fn first_failing_row_under_the_error_policy() {
        // 99.5 and 9.95 at scale 2 (decimal(3,1) kept), to scale 0 half up:
        // 100.0 overflows 3 digits, 10.0 fits.
        let a = [95i64, 995, -995];
        let spec = RoundSpec::new(1, 1, RoundingMode::HalfUp, 3);
        let err = round::<i64>(Operand::array(&a[..]), &spec, &Rows::new(3)).unwrap_err();
        assert_eq!(err, KernelError::Overflow { row: 1 });
    }

    #[rstest]
    #[case::nothing_dropped(0, 2, RoundingMode::Ceiling, [125, -125], [12_500, -12_500])]
    #[case::nothing_appended(2, 0, RoundingMode::Floor, [125, -125], [1, -2])]
    fn one_sided_specs_are_rescales(
        #[case] dropped: u32,
        #[case] appended: u32,
        #[case] mode: RoundingMode,
        #[case] a: [i64; 2],
        #[case] want: [i64; 2],
    ) {
        let spec = RoundSpec::new(dropped, appended, mode, 18);
        let out: Output<i64> = round(Operand::array(&a[..]), &spec, &Rows::new(2)).unwrap();
        assert_eq!(out.values.as_ref(), want);
    }

    #[test]
    fn a_scalar_rounds_as_a_row() {
        let spec = RoundSpec::new(1, 1, RoundingMode::Ceiling, 5);
        let out: Output<i32> = round(Operand::scalar(-35i64), &spec, &Rows::new(2)).unwrap();
        assert_eq!(out.values.as_ref(), [-30, -30]);
    }
}
