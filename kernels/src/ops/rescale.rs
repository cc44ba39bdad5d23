//! Rescaling one decimal to another scale and precision (a cast).
//!
//! Formula: a value `a` at scale `s` becomes `a * 10^(s' - s)` at scale `s'`.
//! With `k = s - s'`: for `k > 0`, `k` digits are dropped by one truncating
//! division `a = q * 10^k + r`, and the rounding mode rounds `q` from `r`
//! ([`DroppedDigits`]); for `k < 0`, `-k` digits are appended, `a * 10^-k`
//! ([`AppendedDigits`]); for `k = 0` the value is kept ([`SameScale`]): the
//! check after an operator, or a change of precision or storage. Overflow
//! when `|r| > 10^p' - 1`.
//!
//! The division by `10^k` is a multiply-high by a prepared constant (as in a
//! rescaled product), so no row divides; in `i64` work on a CPU with AVX-512
//! it is instead the floating-point estimate with exact correction of `div`
//! by one divisor, which vectorizes there. The call runs in the narrowest work
//! type holding the operand's values, and for appended digits the result
//! before its check: a `Decimal256` column of money rescales in `i64`.
//! A unary operator, it runs on the unary driver.
//!
//! Appended digits check the operand, `|a| <= (10^p' - 1) / 10^k` (the same
//! rows as `|a * 10^k| <= 10^p' - 1`), so no row's verdict rests on a product
//! that left the work type. That lets a column whose declaration does not
//! bound it run without the pass that measures it where the target alone
//! bounds the work ([`Unmeasured`]): a target of at most 18 digits runs in
//! `i64`, an operand beyond `i64` being an overflow too (loaded saturated),
//! and operands of at most 64 bits form each product with one widening
//! multiply.

use arrow_buffer::NullBuffer;

use crate::columns::column::{Column, Sink};
use crate::columns::operand::{Operand, Values};
use crate::columns::storage::Storage;
#[cfg(all(target_endian = "little", any(target_arch = "x86_64", test)))]
use crate::columns::storage::Stored;
#[cfg(all(target_endian = "little", any(target_arch = "x86_64", test)))]
use crate::driver::copies::appended_i128_words_in;
use crate::driver::error::KernelError;
#[cfg(all(target_endian = "little", any(target_arch = "x86_64", test)))]
use crate::driver::isa::Runnable;
use crate::driver::isa::{Isa, active};
use crate::driver::kernel::{OVERFLOW, UnaryKernel, overflow_flag};
use crate::driver::output::compute_output;
use crate::driver::output::{Output, Recycled};
use crate::driver::plan::{needs_check, plan_unary, shift_bits};
use crate::driver::rows::Rows;
use crate::driver::unary::{run_unary, run_unary_multiversioned};
use crate::int::estimate::Instructions;
use crate::int::pow10::{pow10_bits, precision_bits};
use crate::int::rounding::{Rounding, RoundingMode, with_rounding};
use crate::int::width::{WorkWidth, with_work};
use crate::int::work::Work;
use crate::ops::shared::division::{EstimatedDivision, I64Division, i64_division};
use crate::ops::shared::in_double::{InDoubleConstants, ScalarQuotientInDouble};
use crate::ops::shared::scalar_quotient::{ScalarQuotient, ScalarQuotientConstants};
use crate::ops::shared::scale::ScaleConstants;

/// The shape of a rescale, from the source and target types.
///
/// ```
/// use decimal_kernels_native::{RescaleSpec, RoundingMode};
/// // decimal(15, 4) to decimal(15, 2): two digits dropped, half up.
/// let spec = RescaleSpec::new(2, RoundingMode::HalfUp, 15);
/// assert_eq!(spec.shift, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RescaleSpec {
    /// Digits dropped (`> 0`, with rounding) or appended (`< 0`): the source
    /// scale less the target scale.
    pub shift: i32,
    /// How dropped digits round.
    pub rounding: RoundingMode,
    /// The target precision: results beyond `10^p - 1` overflow.
    pub result_precision: u8,
}

impl RescaleSpec {
    /// Drops `shift` digits (appends `-shift` when negative), rounding with
    /// `rounding`, and checks results against `result_precision` digits.
    #[must_use]
    pub fn new(shift: i32, rounding: RoundingMode, result_precision: u8) -> Self {
        Self { shift, rounding, result_precision }
    }

    /// `L` such that the value, its rescaled value and `10^k` are below `2^L`.
    fn work_bits(&self, bits: u32) -> u32 {
        let k = self.shift.unsigned_abs();
        if self.shift < 0 { bits + shift_bits(k) } else { bits.max(shift_bits(k) + 1) }
    }
}

/// `round(a / 10^k)` for `k > 0`, rounding mode `R`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DroppedDigits<R>(core::marker::PhantomData<R>);

impl<W: Work, R: Rounding> UnaryKernel<W> for DroppedDigits<R> {
    type Constants = ScaleConstants<W>;

    #[inline(always)]
    fn apply(a: W, c: &Self::Constants) -> (W, u8) {
        c.drop_digits::<R>(a)
    }
}

/// What appending `k` digits computes once per call: `10^k` and the
/// largest operand whose product is within the result bound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Appending<W: Work> {
    /// `10^k`, or 0 when it is beyond `W` (then only a zero is within the
    /// bound, and its product is 0).
    factor: W,
    /// `floor((10^p - 1) / 10^k)`: `|a| <= limit` exactly when
    /// `|a * 10^k| <= 10^p - 1`.
    limit: W,
}

impl<W: Work> Appending<W> {
    /// For `k` digits appended to a result of `precision` digits (its bound
    /// capped at `W::MAX`).
    pub(crate) fn new(digits: u32, precision: u8) -> Self {
        if pow10_bits(digits) > W::MAGNITUDE_BITS {
            return Self { factor: W::ZERO, limit: W::ZERO };
        }
        let factor = W::pow10(digits);
        let (limit, _) = W::precision_bound(precision.into()).div_rem(factor);
        Self { factor, limit }
    }
}

/// `a * 10^-k` for `k < 0`; `CHECKED`: whether results can exceed the
/// bound, which is then checked on the operand (`|a| <= limit`), so no row
/// relies on a product that left `W`: an operand of a column not measured
/// can be any value (saturated loads).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AppendedDigits<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> UnaryKernel<W> for AppendedDigits<CHECKED> {
    type Constants = Appending<W>;
    const SATURATED_LOADS: bool = CHECKED;

    #[inline(always)]
    fn apply(a: W, c: &Self::Constants) -> (W, u8) {
        (a.mul(c.factor), overflow_flag::<W, CHECKED>(a, c.limit))
    }
}

/// [`AppendedDigits`] in `i128` of operands of at most 64 bits (a column
/// stored in `i64` or narrower, or declared within 18 digits) and `k <= 18`:
/// the product is one widening multiply of the two low words, where an
/// `i128` product takes three.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WidenedDigits<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> UnaryKernel<W> for WidenedDigits<CHECKED> {
    type Constants = Appending<W>;

    #[inline(always)]
    fn apply(a: W, c: &Self::Constants) -> (W, u8) {
        let product = widened_product(a.wrapping_to_i64(), c.factor.wrapping_to_i64());
        (W::from_i128(product), overflow_flag::<W, CHECKED>(a, c.limit))
    }
}

/// [`AppendedDigits`] in `i128` whose products fit `i64` (a result bound
/// within 18 digits): the operand is checked as it is stored, the product
/// formed from its low word in `i64` (a row whose operand is beyond the
/// limit is flagged, whatever its product).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NarrowedDigits;

impl UnaryKernel<i128> for NarrowedDigits {
    type Constants = Appending<i128>;

    #[inline(always)]
    fn apply(a: i128, c: &Self::Constants) -> (i128, u8) {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "10^k and an operand within the limit fit i64"
        )]
        let product = (a as i64).wrapping_mul(c.factor as i64);
        // `|a| <= limit` as one unsigned comparison of `a + limit`.
        let beyond = a.wrapping_add(c.limit).cast_unsigned() > 2 * c.limit.cast_unsigned();
        (i128::from(product), OVERFLOW * u8::from(beyond))
    }
}

/// `a` itself, checked against the bound when `CHECKED`: a change of
/// precision or storage only.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SameScale<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> UnaryKernel<W> for SameScale<CHECKED> {
    type Constants = ScaleConstants<W>;
    const SATURATED_LOADS: bool = CHECKED;

    #[inline(always)]
    fn apply(a: W, c: &Self::Constants) -> (W, u8) {
        (a, overflow_flag::<W, CHECKED>(a, c.bound))
    }
}

/// Rescales `input` row by row, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Operand, Output, RescaleSpec, RoundingMode, Rows, rescale};
/// // 1.2345 and -1.2350 (scale 4) at scale 2, half up: 1.23 and -1.24.
/// let a = [1_2345i64, -1_2350];
/// let spec = RescaleSpec::new(2, RoundingMode::HalfUp, 15);
/// let out: Output<i64> = rescale(Operand::array(&a[..]), &spec, &Rows::new(2))?;
/// assert_eq!(out.values.as_ref(), [123, -124]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row beyond the result
/// precision under the `Error` policy; [`KernelError::LengthMismatch`] and
/// [`KernelError::StorageTooNarrow`] as for [`add`](crate::add).
pub fn rescale<'a, O: Storage>(
    input: Operand<'_>,
    spec: &RescaleSpec,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    compute_output(spec.result_precision, rows, |rows, sink| rescaled(&input, spec, rows, sink))
}

/// [`rescale`] into any output storage, in the kernel the plan picks.
fn rescaled(
    input: &Operand<'_>,
    spec: &RescaleSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    if let Some(plan) = unmeasured_plan(input, spec, &sink) {
        return appended_unmeasured(input, spec, plan, rows, sink);
    }
    // As for products: measuring a wide column pays from i128 on.
    let p = plan_unary(input, WorkWidth::I128, |bits| WorkWidth::for_bits(spec.work_bits(bits)));
    let k = spec.shift.unsigned_abs();
    let within = spec.shift <= 0 && input.declared_within(k, spec.result_precision);
    let checked = !within && needs_check(spec.work_bits(p.bits), spec.result_precision);
    if spec.shift > 0
        && let Some(division) = i64_division(p.width, p.bits, shift_bits(k), p.bits, None)
    {
        // In i64 on AVX-512 a quotient by the one divisor 10^k vectorizes as
        // a floating-point estimate with exact correction, where the 64-bit
        // multiply-high of the prepared divisor runs row by row: the same
        // rounded quotient as a division by that one divisor.
        let bound = i64::precision_bound(spec.result_precision.into());
        let precision = spec.result_precision;
        return with_rounding!(spec.rounding, R => match division {
            I64Division::InDouble => {
                let c = InDoubleConstants::scalar(0, i64::pow10(k), 0, precision);
                run_unary_multiversioned::<i64, ScalarQuotientInDouble<R>>(input, c, rows, sink)
            }
            // Two steps are for quotients by a divisor per row: not chosen
            // without a scaled dividend, and the estimate is exact too.
            I64Division::Estimated | I64Division::TwoSteps => {
                type D = EstimatedDivision<Instructions>;
                let c = ScalarQuotientConstants::<i64, D>::new(1, i64::pow10(k), bound);
                run_unary_multiversioned::<i64, ScalarQuotient<R, D>>(input, c, rows, sink)
            }
        });
    }
    let a = input;
    with_work!(p.width, W => {
        let c = ScaleConstants::<W>::new(k, spec.result_precision);
        let appending = Appending::<W>::new(k, spec.result_precision);
        match (spec.shift, checked) {
            // One portable loop: in i64 on AVX-512 the estimate above serves,
            // and wider multiply-highs do not vectorize.
            (1.., _) => with_rounding!(spec.rounding, R => {
                run_unary::<W, DroppedDigits<R>>(a, c, rows, sink)
            }),
            (..0, true) => {
                run_unary_multiversioned::<W, AppendedDigits<true>>(a, appending, rows, sink)
            }
            (..0, false) => {
                run_unary_multiversioned::<W, AppendedDigits<false>>(a, appending, rows, sink)
            }
            (0, true) => run_unary_multiversioned::<W, SameScale<true>>(a, c, rows, sink),
            (0, false) => run_unary_multiversioned::<W, SameScale<false>>(a, c, rows, sink),
        }
    })
}

/// How a rescale that appends digits, or keeps the scale, runs without the
/// pass that measures its column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unmeasured {
    /// In `i64` ([`AppendedDigits`], [`SameScale`]): a target of at most 18
    /// digits; values stored wider are read as words, saturated.
    InI64 {
        /// Whether a result can exceed the target precision.
        checked: bool,
    },
    /// In `i128` over `i128` values as they are, the products in `i64`
    /// ([`NarrowedDigits`]): a target of at most 18 digits, on a CPU
    /// without AVX-512.
    Narrowed,
    /// In `i128`, each product one widening multiply ([`WidenedDigits`], or
    /// [`widen_i64`] from an `i64` column into `i128` unchecked): operands of
    /// at most 64 bits and `k <= 18`.
    Widened {
        /// Whether a result can exceed the target precision.
        checked: bool,
    },
}

/// The plan of a rescale that appends `k >= 0` digits to a column whose
/// declaration alone does not give a work type below `i128`, where the
/// pass that measures the column can be saved (from memory it costs about
/// as much as the rescale); `None` where the call is measured as before.
///
/// A result within a target of at most 18 digits is an `i64`, and the
/// kernels check the operand (`|a| <= (10^p - 1) / 10^k`), not the product:
/// so the call runs in `i64` whatever the values, an operand beyond `i64`
/// being an overflow too (loaded saturated by the loops over wider storage's
/// words, which run when the result is stored as the column is; a narrowing
/// into another storage is converted a block at a time, which trusts the
/// plan, so it is measured). Without AVX-512, those loops do not vectorize
/// the products and checks of `i128` words well, and an `i128` loop over the
/// values as they are runs faster. Operands of at most 64 bits times `10^k`
/// fit `i128` whatever the target.
fn unmeasured_plan(input: &Operand<'_>, spec: &RescaleSpec, sink: &Sink<'_>) -> Option<Unmeasured> {
    let Values::Array(column) = input.values else {
        return None;
    };
    if spec.shift > 0 {
        return None;
    }
    let declared = input.precision.map(|p| precision_bits(p.into()));
    if declared.is_some_and(|bits| WorkWidth::for_bits(spec.work_bits(bits)) < WorkWidth::I128) {
        // The declaration gives a narrow type: there is no pass to save.
        return None;
    }
    let storage = storage_bits(&column);
    let bits = declared.map_or(storage, |d| d.min(storage));
    let k = spec.shift.unsigned_abs();
    let within = input.declared_within(k, spec.result_precision);
    let checked = !within && needs_check(spec.work_bits(bits), spec.result_precision);
    if precision_bits(spec.result_precision.into()) <= i64::MAGNITUDE_BITS {
        return match (column, sink) {
            (Column::I128(_), _) if active() != Isa::Avx512 => Some(Unmeasured::Narrowed),
            (Column::I128(_), Sink::I128(_)) | (Column::I256(_), Sink::I256(_)) => {
                Some(Unmeasured::InI64 { checked })
            }
            (Column::I128(_) | Column::I256(_), _) => None,
            _ => Some(Unmeasured::InI64 { checked }),
        };
    }
    // Every value is an `i64`: stored in one (or narrower), or declared
    // below `2^63` (a bound of 64 bits holds `i64::MIN` but also values
    // beyond it).
    let fits_i64 = storage <= 64 || bits <= i64::MAGNITUDE_BITS;
    (fits_i64 && k <= 18).then_some(Unmeasured::Widened { checked })
}

/// The bits of a column's storage type: a bound on every stored magnitude
/// (the minimum's is `2^(n-1)`, of `n` bits).
fn storage_bits(column: &Column<'_>) -> u32 {
    match column {
        Column::I8(_) => 8,
        Column::I16(_) => 16,
        Column::I32(_) => 32,
        Column::I64(_) => 64,
        Column::I128(_) => 128,
        Column::I256(_) => 256,
    }
}

/// Runs an [`unmeasured_plan`].
fn appended_unmeasured(
    a: &Operand<'_>,
    spec: &RescaleSpec,
    plan: Unmeasured,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let k = spec.shift.unsigned_abs();
    let precision = spec.result_precision;
    match plan {
        Unmeasured::InI64 { checked } if k == 0 => {
            let c = ScaleConstants::<i64>::new(0, precision);
            if checked {
                run_unary_multiversioned::<i64, SameScale<true>>(a, c, rows, sink)
            } else {
                run_unary_multiversioned::<i64, SameScale<false>>(a, c, rows, sink)
            }
        }
        Unmeasured::InI64 { checked } => {
            let c = Appending::<i64>::new(k, precision);
            if checked {
                run_unary_multiversioned::<i64, AppendedDigits<true>>(a, c, rows, sink)
            } else {
                run_unary_multiversioned::<i64, AppendedDigits<false>>(a, c, rows, sink)
            }
        }
        Unmeasured::Narrowed => {
            let c = Appending::<i128>::new(k, precision);
            // In the AVX2 copy, a loop over the words of two rows at a time
            // vectorizes; any operand beyond the limit (a null row's too)
            // sends the call to the kernel, which resolves each row.
            #[cfg(target_arch = "x86_64")]
            let sink = match (a.values, sink) {
                (Values::Array(Column::I128(values)), Sink::I128(out))
                    if Runnable::active().isa() == Isa::Avx2 =>
                {
                    rows.check(&[a])?;
                    if appended_in_words(Runnable::active(), values, &c, out) {
                        return Ok(rows.nulls.cloned());
                    }
                    Sink::I128(out)
                }
                (_, sink) => sink,
            };
            run_unary_multiversioned::<i128, NarrowedDigits>(a, c, rows, sink)
        }
        Unmeasured::Widened { checked } => {
            let c = Appending::<i128>::new(k, precision);
            match (a.values, sink, checked) {
                (Values::Array(Column::I64(values)), Sink::I128(out), false) => {
                    rows.check(&[a])?;
                    widen_i64(values, c.factor.wrapping_to_i64(), out);
                    Ok(rows.nulls.cloned())
                }
                // One portable loop: a 64-bit by 64-bit product does not
                // vectorize.
                (_, sink, true) => run_unary::<i128, WidenedDigits<true>>(a, c, rows, sink),
                (_, sink, false) => run_unary::<i128, WidenedDigits<false>>(a, c, rows, sink),
            }
        }
    }
}

/// [`NarrowedDigits`]' results into `out` (emptied first), by the loop over
/// the values' words in `copy` (the AVX2 one, but for tests)
/// ([`appended_i128_words_loop`](crate::driver::loops::appended_i128_words_loop));
/// whether every operand was within the limit, null rows' included: if not,
/// the results are not all valid, and the caller runs the kernel.
#[cfg(all(target_endian = "little", any(target_arch = "x86_64", test)))]
fn appended_in_words(
    copy: Runnable,
    values: &[i128],
    c: &Appending<i128>,
    out: &mut Vec<i128>,
) -> bool {
    // A factor beyond 64 bits leaves only zeros within the limit: the
    // kernel takes those calls.
    let (Ok(factor), Ok(limit)) = (u64::try_from(c.factor), u64::try_from(c.limit)) else {
        return false;
    };
    out.clear();
    out.reserve_exact(values.len());
    let Some(slots) = out.spare_capacity_mut().get_mut(..values.len()) else {
        return false;
    };
    let words = i128::as_words(values);
    let beyond = appended_i128_words_in(copy, words, i128::word_slots(slots), factor, limit);
    // SAFETY: the loop wrote all `values.len()` slots (as many as the words
    // it read), which directly follow the emptied vector's elements.
    unsafe { out.set_len(values.len()) };
    beyond == 0
}

/// `values[i] * factor` into `out` (emptied first), for `factor = 10^k`
/// with `k <= 18` and a call whose every product is within its target (an
/// unchecked plan): no row can fail, so one pass over the `i64` column, with
/// no flags and no block conversion ([`widened_product`]).
#[inline(never)]
fn widen_i64(values: &[i64], factor: i64, out: &mut Vec<i128>) {
    out.clear();
    out.extend(values.iter().map(|&v| widened_product(v, factor)));
}

/// `v * factor` for `factor >= 0`, exactly: the unsigned product of `v`'s
/// bits and the factor (one multiply) less `factor * 2^64` when `v` is
/// negative (its bits are `v + 2^64`), where the signed `i128` product takes
/// a multiply per operand's sign to correct.
#[inline(always)]
fn widened_product(v: i64, factor: i64) -> i128 {
    let factor = factor.cast_unsigned();
    let unsigned = u128::from(v.cast_unsigned()) * u128::from(factor);
    let correction = u128::from(factor & (v >> 63).cast_unsigned()) << 64;
    unsigned.wrapping_sub(correction).cast_signed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::storage::{Stored, TOKEN};
    use crate::driver::rows::{OverflowPolicy, Policies};
    use arrow_buffer::i256;
    use rstest::rstest;

    /// One value rescaled under the `Null` policy into `i128`: `None` on
    /// overflow.
    #[track_caller]
    fn one(value: i256, spec: RescaleSpec) -> Option<i128> {
        let policies = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows::new(1).with_policies(policies);
        let out: Output<i128> = rescale(Operand::array(&[value][..]), &spec, &rows).unwrap();
        out.nulls.as_ref().is_none_or(|n| n.is_valid(0)).then(|| out.values[0])
    }

    fn spec(shift: i32, mode: RoundingMode, precision: u8) -> RescaleSpec {
        RescaleSpec::new(shift, mode, precision)
    }

    #[rstest]
    #[case::half_up_tie(1_2350, 2, RoundingMode::HalfUp, Some(124))]
    #[case::half_up_negative_tie(-1_2350, 2, RoundingMode::HalfUp, Some(-124))]
    #[case::half_even_tie_down(1_2250, 2, RoundingMode::HalfEven, Some(122))]
    #[case::floor_negative(-1_2301, 2, RoundingMode::Floor, Some(-124))]
    #[case::ceiling_negative(-1_2399, 2, RoundingMode::Ceiling, Some(-123))]
    #[case::truncate(1_2399, 2, RoundingMode::TowardZero, Some(123))]
    #[case::rounds_into_overflow(99_995, 2, RoundingMode::HalfUp, None)]
    #[case::appended(-12, -1, RoundingMode::HalfUp, Some(-120))]
    #[case::appended_into_overflow(100, -1, RoundingMode::HalfUp, None)]
    #[case::precision_check_only(1000, 0, RoundingMode::HalfUp, None)]
    #[case::precision_check_passes(-999, 0, RoundingMode::HalfUp, Some(-999))]
    fn rescales_to_three_digits(
        #[case] value: i128,
        #[case] shift: i32,
        #[case] mode: RoundingMode,
        #[case] want: Option<i128>,
    ) {
        assert_eq!(one(i256::from_i128(value), spec(shift, mode, 3)), want);
    }

    #[test]
    fn extremes_rescale_exactly() {
        let nines = i256::from_string(&"9".repeat(76)).unwrap();
        // 76 nines less 40 digits, half up: 10^36, within 38 digits.
        assert_eq!(one(nines, spec(40, RoundingMode::HalfUp, 38)), Some(10i128.pow(36)));
        assert_eq!(
            one(nines.wrapping_neg(), spec(40, RoundingMode::Floor, 38)),
            Some(-10i128.pow(36))
        );
        // More digits dropped than the value has: zero or one unit.
        assert_eq!(one(nines, spec(200, RoundingMode::Ceiling, 38)), Some(1));
        assert_eq!(one(nines, spec(200, RoundingMode::HalfUp, 38)), Some(0));
        // The storage's minimum is an overflow, never a wrap.
        assert_eq!(one(i256::MIN, spec(0, RoundingMode::HalfUp, 38)), None);
        assert_eq!(one(i256::MIN, spec(-100, RoundingMode::HalfUp, 38)), None);
    }

    /// The `i64` rescale by a prepared divisor (the loop of CPUs without
    /// AVX-512) and the quotient `rescale` takes on AVX-512 (estimated, or
    /// exact in double precision for columns below `2^51`) agree on every
    /// mode and shift, ties and bounds included.
    #[rstest]
    #[case::full_range(62, i64::MAX)]
    #[case::below_two_to_51(50, (1 << 51) - 1)]
    fn both_i64_divisions_agree(#[case] bits: u32, #[case] most: i64) {
        use crate::testing::{assert_same_outcome, call_unary, values};
        let ties: Vec<i64> =
            (0..15).map(|k| 5 * 10i64.pow(k) * if k % 2 == 0 { 1 } else { -1 }).collect();
        let a = [values(3000, bits, 17), ties, vec![most, -most, 0]].concat();
        let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows::new(a.len()).with_policies(null);
        for shift in [1, 2, 9, 15, 18] {
            for mode in RoundingMode::ALL {
                let spec = spec(shift, mode, 15);
                let constants = ScaleConstants::<i64>::new(shift.unsigned_abs(), 15);
                let prepared = with_rounding!(mode, R => {
                    call_unary::<i64, i64, DroppedDigits<R>>(Operand::array(&a[..]), constants, &rows)
                });
                let chosen = rescale::<i64>(Operand::array(&a[..]), &spec, &rows);
                assert_same_outcome(prepared, chosen, &format!("{spec:?}"));
            }
        }
    }

    /// A declared precision that fits the target with the appended digits
    /// runs the loops without the check, and gives the same values.
    #[rstest]
    #[case::appended(-2, 12)]
    #[case::same_scale(0, 38)]
    fn declared_columns_within_the_target(#[case] shift: i32, #[case] precision: u8) {
        let a: Vec<i128> = (-500..500).map(|v| v * 10_000_019).collect();
        // Every value is below 10^10.
        let input = Operand::array(&a[..]).assume_precision(10);
        let spec = spec(shift, RoundingMode::HalfUp, precision);
        let out: Output<i128> = rescale(input, &spec, &Rows::new(a.len())).unwrap();
        let factor = 10i128.pow(shift.unsigned_abs());
        assert!(out.values.iter().zip(&a).all(|(&r, &v)| r == v * factor));
        assert!(out.nulls.is_none());
    }

    /// `v * 10^k` when it is within `precision` digits (at most 38).
    fn appended(v: i128, k: u32, precision: u8) -> Option<i128> {
        let bound = 10i128.pow(precision.into()) - 1;
        v.checked_mul(10i128.pow(k)).filter(|r| r.unsigned_abs() <= bound.unsigned_abs())
    }

    /// Values a plan that does not measure its column meets: zero, units,
    /// the largest operand within the limit and the smallest beyond it of
    /// either sign, values past 64 bits whose low words are small or look
    /// like in-range values (which a plan trusting the low words would
    /// misread), and the storage's extremes.
    fn unmeasured_values(k: u32, precision: u8) -> Vec<i128> {
        let limit = (10i128.pow(precision.into()) - 1) / 10i128.pow(k);
        vec![
            0,
            1,
            -1,
            123_456_789,
            limit,
            -limit,
            limit + 1,
            -limit - 1,
            (1 << 64) + 5,
            -(1 << 64) + 3,
            (7 << 64) - 123_456,
            1 << 63,
            -(1 << 63),
            -(1 << 63) - 1,
            i128::from(i64::MAX),
            i128::MAX,
            i128::MIN,
            i128::MIN + 1,
        ]
    }

    /// Asserts that `out` holds `want` for each valid row (null where the
    /// row overflows, under the `Null` policy) and is null under the null
    /// rows of `valid`.
    #[track_caller]
    fn assert_rows<S: Storage + Stored>(
        out: &Output<S>,
        want: &[Option<i128>],
        valid: &[bool],
        context: &str,
    ) {
        for (row, (&want, &valid)) in want.iter().zip(valid).enumerate() {
            let got = out.nulls.as_ref().is_none_or(|n| n.is_valid(row)).then(|| out.values[row]);
            let want = want.filter(|_| valid).map(i256::from_i128);
            assert_eq!(got.map(|v| v.widened(TOKEN)), want, "{context}: row {row}");
        }
    }

    /// The kernels a plan without the measuring pass runs, in every copy
    /// this CPU has: appended digits and the same-scale check in `i64` over
    /// `i128` and `i256` words (values beyond `i64` loaded saturated, so
    /// they overflow), in `i128` over `i256` words, the products of `i128`
    /// values in `i64` and the widening products of `i64` values: exact
    /// where the result is within the target, null (`Null` policy) or the
    /// first failing valid row (`Error`) where it is not, whatever the low
    /// words of a value past the work type look like.
    #[rstest]
    #[case::two_digits_to_18(2, 18)]
    #[case::same_scale_18(0, 18)]
    #[case::eight_digits_to_15(8, 15)]
    #[case::eighteen_digits_to_18(18, 18)]
    #[case::one_digit_to_1(1, 1)]
    fn unmeasured_kernels_in_every_copy(#[case] k: u32, #[case] precision: u8) {
        use crate::driver::isa::Runnable;
        use crate::testing::call_unary_in;
        let values = unmeasured_values(k, precision);
        let valid: Vec<bool> = (0..values.len()).map(|row| row % 5 != 4).collect();
        let nulls = NullBuffer::from(valid.clone());
        let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows::new(values.len()).with_nulls(Some(&nulls)).with_policies(null);
        let want: Vec<Option<i128>> = values.iter().map(|&v| appended(v, k, precision)).collect();
        let wide: Vec<i256> = values.iter().map(|&v| i256::from_i128(v)).collect();
        let first_failure = (0..values.len()).find(|&row| valid[row] && want[row].is_none());
        let strict = Rows::new(values.len()).with_nulls(Some(&nulls));
        for copy in Runnable::all() {
            let context = format!("{copy:?}, 10^{k}, {precision} digits");
            let (c64, c128) =
                (Appending::<i64>::new(k, precision), Appending::<i128>::new(k, precision));
            let words = Operand::array(&values[..]);
            let out: Output<i128> = if k == 0 {
                let c = ScaleConstants::<i64>::new(0, precision);
                call_unary_in::<_, i64, SameScale<true>>(copy, words, c, &rows).unwrap()
            } else {
                call_unary_in::<_, i64, AppendedDigits<true>>(copy, words, c64, &rows).unwrap()
            };
            assert_rows(&out, &want, &valid, &format!("{context}, i64 over i128 words"));
            let failed =
                call_unary_in::<i128, i64, AppendedDigits<true>>(copy, words, c64, &strict);
            let want_error = first_failure.map(|row| KernelError::Overflow { row });
            assert_eq!(failed.err(), want_error, "{context}: Error policy");
            let wide_words = Operand::array(&wide[..]);
            let out: Output<i256> =
                call_unary_in::<_, i64, AppendedDigits<true>>(copy, wide_words, c64, &rows)
                    .unwrap();
            assert_rows(&out, &want, &valid, &format!("{context}, i64 over i256 words"));
            let out: Output<i256> =
                call_unary_in::<_, i128, AppendedDigits<true>>(copy, wide_words, c128, &rows)
                    .unwrap();
            assert_rows(&out, &want, &valid, &format!("{context}, i128 over i256 words"));
            let out: Output<i128> =
                call_unary_in::<_, i128, NarrowedDigits>(copy, words, c128, &rows).unwrap();
            assert_rows(&out, &want, &valid, &format!("{context}, products in i64"));
            // Widening products: the values that are 64-bit ones.
            let narrow: Vec<i64> = values.iter().filter_map(|&v| i64::try_from(v).ok()).collect();
            let want: Vec<Option<i128>> =
                narrow.iter().map(|&v| appended(v.into(), k, precision)).collect();
            let rows = Rows::new(narrow.len()).with_policies(null);
            let out: Output<i128> = call_unary_in::<_, i128, WidenedDigits<true>>(
                copy,
                Operand::array(&narrow[..]),
                c128,
                &rows,
            )
            .unwrap();
            assert_rows(&out, &want, &vec![true; narrow.len()], &format!("{context}, widened"));
        }
    }

    /// The loop over the words of pairs of `i128` values that the AVX2 copy
    /// runs for targets of at most 18 digits, in every copy, at every length
    /// (an odd one ends with a row on its own): the products of the operands
    /// within the limit, and a call the kernel takes over exactly when an
    /// operand is beyond it, null or not. On any little-endian target, as
    /// the loop's word order is.
    #[cfg(target_endian = "little")]
    #[rstest]
    #[case::two_digits_to_18(2, 18)]
    #[case::same_scale_18(0, 18)]
    #[case::eighteen_digits_to_18(18, 18)]
    #[case::one_digit_to_1(1, 1)]
    #[case::nineteen_digits_to_18(19, 18)]
    fn appended_words_in_every_copy(#[case] k: u32, #[case] precision: u8) {
        let values = unmeasured_values(k, precision);
        let c = Appending::<i128>::new(k, precision);
        for copy in Runnable::all() {
            for len in 0..=values.len() {
                let rows = &values[..len];
                let mut out = vec![7; 3];
                let within = appended_in_words(copy, rows, &c, &mut out);
                let want: Vec<Option<i128>> =
                    rows.iter().map(|&v| appended(v, k, precision)).collect();
                let context = format!("{copy:?}, 10^{k}, {precision} digits, {len} rows");
                assert_eq!(within, want.iter().all(Option::is_some), "{context}");
                if within {
                    let want: Vec<i128> = want.into_iter().flatten().collect();
                    assert_eq!(out, want, "{context}");
                }
            }
        }
    }

    /// Which rescales skip the measuring pass, and how they run: targets of
    /// at most 18 digits (in `i64`, or, without AVX-512, over `i128` values
    /// as they are: `narrowed`), operands of at most 64 bits (widening
    /// products); narrowing into another storage, wide operands to wide
    /// targets, a declaration that already gives a narrow type or one that
    /// does not bound the values within `i64`, a single value and dropped
    /// digits are measured as before.
    #[rstest]
    #[case::i128_to_18_digits(Operand::array(&[0i128][..]), -2, 18, 128, true, Some(Unmeasured::InI64 { checked: true }))]
    #[case::i128_check_only(Operand::array(&[0i128][..]), 0, 18, 128, true, Some(Unmeasured::InI64 { checked: true }))]
    #[case::i128_into_i64_storage(Operand::array(&[0i128][..]), -2, 18, 64, true, None)]
    #[case::i256_to_18_digits(Operand::array(&[i256::ZERO][..]), -2, 18, 256, false, Some(Unmeasured::InI64 { checked: true }))]
    #[case::i256_into_i128_storage(Operand::array(&[i256::ZERO][..]), -2, 18, 128, false, None)]
    #[case::i64_to_38_digits(Operand::array(&[0i64][..]), -8, 38, 128, false, Some(Unmeasured::Widened { checked: false }))]
    #[case::i64_to_20_digits(Operand::array(&[0i64][..]), -8, 20, 128, false, Some(Unmeasured::Widened { checked: true }))]
    #[case::i64_to_40_digits(Operand::array(&[0i64][..]), -4, 40, 256, false, Some(Unmeasured::Widened { checked: false }))]
    #[case::i64_to_18_digits(Operand::array(&[0i64][..]), -2, 18, 64, false, Some(Unmeasured::InI64 { checked: true }))]
    #[case::i16_to_10_digits(Operand::array(&[0i16][..]), -5, 10, 64, false, Some(Unmeasured::InI64 { checked: false }))]
    #[case::i128_to_38_digits(Operand::array(&[0i128][..]), -8, 38, 128, false, None)]
    #[case::i128_to_40_digits(Operand::array(&[0i128][..]), -4, 40, 256, false, None)]
    #[case::i64_by_19_digits(Operand::array(&[0i64][..]), -19, 38, 128, false, None)]
    #[case::declared_money(Operand::array(&[0i128][..]).assume_precision(15), -2, 18, 128, false, None)]
    #[case::declared_wide(Operand::array(&[0i128][..]).assume_precision(38), -2, 18, 128, true, Some(Unmeasured::InI64 { checked: true }))]
    #[case::declared_18_digits(Operand::array(&[0i128][..]).assume_precision(18), -8, 38, 128, false, Some(Unmeasured::Widened { checked: false }))]
    #[case::declared_19_digits_past_i64(Operand::array(&[0i128][..]).assume_precision(19), -8, 38, 128, false, None)]
    #[case::scalar(Operand::scalar(0i128), -2, 18, 128, false, None)]
    #[case::dropped_digits(Operand::array(&[0i128][..]), 2, 18, 128, false, None)]
    fn plans_without_the_measuring_pass(
        #[case] input: Operand<'_>,
        #[case] shift: i32,
        #[case] precision: u8,
        #[case] sink_bits: u32,
        #[case] narrowed: bool,
        #[case] want: Option<Unmeasured>,
    ) {
        let (mut i64s, mut i128s, mut i256s) = (Vec::new(), Vec::new(), Vec::new());
        let sink = match sink_bits {
            64 => Sink::I64(&mut i64s),
            128 => Sink::I128(&mut i128s),
            _ => Sink::I256(&mut i256s),
        };
        let spec = spec(shift, RoundingMode::HalfUp, precision);
        let plan = unmeasured_plan(&input, &spec, &sink);
        let want =
            if narrowed && active() != Isa::Avx512 { Some(Unmeasured::Narrowed) } else { want };
        assert_eq!(plan, want);
    }

    /// `rescale` on the plans without the measuring pass, in this process's
    /// copy, held to the exact results: columns of every width with values
    /// beyond 64 bits and beyond the target, with null rows hiding
    /// overflowing values.
    #[rstest]
    #[case::i128_to_18_digits(2, 18)]
    #[case::i128_check_only(0, 18)]
    #[case::i64_to_38_digits(8, 38)]
    #[case::i64_to_20_digits(8, 20)]
    #[case::eighteen_digits_to_18(18, 18)]
    fn rescale_without_the_measuring_pass(#[case] k: u32, #[case] precision: u8) {
        let values = unmeasured_values(k, precision);
        let valid: Vec<bool> = (0..values.len()).map(|row| row % 5 != 4).collect();
        let nulls = NullBuffer::from(valid.clone());
        let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let rows = Rows::new(values.len()).with_nulls(Some(&nulls)).with_policies(null);
        let spec = RescaleSpec::new(-k.cast_signed(), RoundingMode::HalfUp, precision);
        let want: Vec<Option<i128>> = values.iter().map(|&v| appended(v, k, precision)).collect();
        let out: Output<i128> = rescale(Operand::array(&values[..]), &spec, &rows).unwrap();
        assert_rows(&out, &want, &valid, "i128");
        let wide: Vec<i256> = values.iter().map(|&v| i256::from_i128(v)).collect();
        let out: Output<i256> = rescale(Operand::array(&wide[..]), &spec, &rows).unwrap();
        assert_rows(&out, &want, &valid, "i256");
        if precision <= 18 {
            let out: Output<i64> = rescale(Operand::array(&values[..]), &spec, &rows).unwrap();
            assert_rows(&out, &want, &valid, "i128 into i64");
        }
        // The values that are 64-bit ones, stored in `i64`, into `i128`
        // (where no product can fail when the target has 38 digits) and
        // `i256`.
        let (narrow, narrow_valid): (Vec<i64>, Vec<bool>) = values
            .iter()
            .zip(&valid)
            .filter_map(|(&v, &ok)| Some((i64::try_from(v).ok()?, ok)))
            .unzip();
        let narrow_nulls = NullBuffer::from(narrow_valid.clone());
        let rows = Rows::new(narrow.len()).with_nulls(Some(&narrow_nulls)).with_policies(null);
        let want: Vec<Option<i128>> =
            narrow.iter().map(|&v| appended(v.into(), k, precision)).collect();
        let out: Output<i128> = rescale(Operand::array(&narrow[..]), &spec, &rows).unwrap();
        assert_rows(&out, &want, &narrow_valid, "i64 into i128");
        let out: Output<i256> = rescale(Operand::array(&narrow[..]), &spec, &rows).unwrap();
        assert_rows(&out, &want, &narrow_valid, "i64 into i256");
    }

    #[test]
    fn narrow_storage_takes_the_measured_work_type() {
        // Decimal256 money at scale 4 to Decimal128 at scale 2.
        let a: Vec<i256> = (-500..500).map(|v| i256::from_i128(v * 1_0005)).collect();
        let want: Vec<i128> =
            (-500..500i128).map(|v| (v * 1_0005 + v.signum() * 50) / 100).collect();
        let out: Output<i128> =
            rescale(Operand::array(&a[..]), &spec(2, RoundingMode::HalfUp, 38), &Rows::new(1000))
                .unwrap();
        assert_eq!(out.values.as_ref(), want);
    }
}
