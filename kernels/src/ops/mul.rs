//! Multiplication of two decimals.
//!
//! Formula: the exact product `a * b` sits at scale `s1 + s2`; the result scale
//! is `s1 + s2 - k`. For `k > 0` the product is divided by `10^k` with the
//! call's rounding mode, once, from the exact product ([`RoundedProduct`]); for
//! `k < 0` it is multiplied by `10^-k` ([`ScaledProduct`]); for `k = 0` it is
//! the result ([`Product`]). Overflow when `|r| > 10^p - 1`.
//!
//! The product needs the sum of the operands' bits (plus those of `10^-k`);
//! the call runs in the narrowest work type with that many, which for the
//! widest operands is the saturating 512-bit type: a 76-digit product rescaled
//! down is exact even though it never fits 256 bits.
//!
//! One shape has its own kernel: operands within `i128` whose product needs
//! more than 127 bits, rescaled down by at most 38 digits to a result of at
//! most 38 digits (Spark's `decimal(38,18) * decimal(38,18)`). Its 256-bit
//! product is formed from the magnitudes in 128-bit halves and divided by a
//! 128-bit reciprocal of `10^k` ([`NarrowRoundedProduct`]), in the `i128`
//! work type, so columns are read and written in place and no row holds a
//! 256-bit value.

use arrow_buffer::NullBuffer;

use crate::columns::column::Sink;
use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::binary::{run, run_multiversioned};
use crate::driver::error::KernelError;
use crate::driver::isa::{Isa, active};
use crate::driver::kernel::{BinaryKernel, OVERFLOW, left_or_overflow_flag, overflow_flag};
use crate::driver::output::compute_output;
use crate::driver::output::{Output, Recycled};
use crate::driver::plan::{Plan, needs_check, plan, shift_bits, storage_work};
use crate::driver::rows::Rows;
use crate::int::estimate::{self, Conversion, ConversionKind, with_conversion};
use crate::int::magic::{Magic256, widening_mul};
use crate::int::pow10::precision_bits;
use crate::int::rounding::{Rounding, RoundingMode, with_rounding};
use crate::int::width::{WorkWidth, with_work};
use crate::int::work::Work;
use crate::ops::shared::scale::ScaleConstants;

/// The shape of a multiplication, from the operand and result types.
///
/// ```
/// use decimal_kernels_native::{MulSpec, RoundingMode};
/// // decimal(10, 2) * decimal(10, 2) kept at scale 2: two digits dropped.
/// let spec = MulSpec::new(2, RoundingMode::HalfUp, 21);
/// assert_eq!(spec.shift, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct MulSpec {
    /// Digits dropped from the exact product (`> 0`, with rounding) or
    /// appended to it (`< 0`).
    pub shift: i32,
    /// How dropped digits round.
    pub rounding: RoundingMode,
    /// The result precision: results beyond `10^p - 1` overflow.
    pub result_precision: u8,
}

impl MulSpec {
    /// Drops `shift` digits from the exact product (appends `-shift` when
    /// negative), rounding with `rounding`, and checks results against
    /// `result_precision` digits.
    #[must_use]
    pub fn new(shift: i32, rounding: RoundingMode, result_precision: u8) -> Self {
        Self { shift, rounding, result_precision }
    }

    /// `L` such that every intermediate (and the divisor `10^k`) is below `2^L`.
    fn work_bits(&self, lhs_bits: u32, rhs_bits: u32) -> u32 {
        let product = lhs_bits + rhs_bits;
        if self.shift < 0 {
            product + shift_bits(self.shift.unsigned_abs())
        } else {
            product.max(shift_bits(self.shift.unsigned_abs()) + 1)
        }
    }

    /// The work type and operand bounds, and whether results need the
    /// precision check (always, when digits are dropped: the check is cheap
    /// beside the division).
    fn plan(&self, lhs: &Operand<'_>, rhs: &Operand<'_>) -> (Plan, bool) {
        // A rescaled product divides, and measuring pays from i128. A plain
        // product of values stored in i128 or wider is one widening multiply,
        // cheaper than the pass over two wide columns; values stored in 64 bits
        // are measured cheaply, and a product that then fits i64 vectorizes
        // where a 64-bit multiply with an overflow check does not.
        let narrow_storage = storage_work(lhs, rhs) == WorkWidth::I64;
        let measure_from =
            if self.shift > 0 || narrow_storage { WorkWidth::I128 } else { WorkWidth::I256 };
        let plan = plan(lhs, rhs, measure_from, |l, r| WorkWidth::for_bits(self.work_bits(l, r)));
        let checked = self.shift > 0
            || needs_check(self.work_bits(plan.lhs, plan.rhs), self.result_precision);
        (plan, checked)
    }

    fn constants<W: Work>(&self) -> ScaleConstants<W> {
        ScaleConstants::new(self.shift.unsigned_abs(), self.result_precision)
    }
}

/// `a * b`; `CHECKED`: whether results can exceed the precision at all.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Product<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> BinaryKernel<W> for Product<CHECKED> {
    type Constants = ScaleConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.mul(b);
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `a * b` in a type that may not hold every product but holds the result
/// bound: a product that leaves the type exceeds the bound, so the hardware's
/// overflow flag joins the precision check (`i64` for results of up to 18
/// digits, where a widening product would cost 128-bit compares).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OverflowingProduct;

impl<W: Work> BinaryKernel<W> for OverflowingProduct {
    type Constants = ScaleConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let (r, left_the_type) = a.overflowing_mul(b);
        (r, left_or_overflow_flag(r, left_the_type, c.bound))
    }
}

/// `a * b * 10^-k` for `k < 0`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScaledProduct<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> BinaryKernel<W> for ScaledProduct<CHECKED> {
    type Constants = ScaleConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.mul(b).mul(c.factor);
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `round(a * b / 10^k)` for `k > 0`, rounding mode `R`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundedProduct<R>(core::marker::PhantomData<R>);

impl<W: Work, R: Rounding> BinaryKernel<W> for RoundedProduct<R> {
    type Constants = ScaleConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        c.drop_digits::<R>(a.mul(b))
    }
}

/// What [`EstimatedRoundedProduct`] computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EstimatedProductConstants {
    /// `10^k`.
    factor: i64,
    /// `1 / 10^k`.
    inverse: f64,
    bound: i64,
}

/// `round(a * b / 10^k)` for `i64` operands whose product may need up to
/// 126 bits but whose quotient is below `i64::MAX`: a double-precision estimate
/// with exact correction (see `estimate`), all in 64-bit lanes, which
/// vectorize on AVX-512 (money times a rate, rounded to the money's scale).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EstimatedRoundedProduct<R, C>(core::marker::PhantomData<(R, C)>);

impl<R: Rounding, C: Conversion> BinaryKernel<i64> for EstimatedRoundedProduct<R, C> {
    type Constants = EstimatedProductConstants;

    #[inline(always)]
    fn apply(a: i64, b: i64, c: &Self::Constants) -> (i64, u8) {
        let (q, r) = estimate::div_rem_product::<C>(a, b, c.factor, c.inverse);
        let q = R::finish(q, r, c.factor, (a ^ b) < 0);
        (q, OVERFLOW * u8::from(q.exceeds(c.bound)))
    }
}

impl MulSpec {
    /// The constants of [`EstimatedRoundedProduct`], when it serves products
    /// of operands below `2^lhs_bits` and `2^rhs_bits`: digits dropped, both
    /// operands within `i64`, `10^k` below `2^50` and every quotient below
    /// `i64::MAX`.
    fn estimated_constants(
        &self,
        lhs_bits: u32,
        rhs_bits: u32,
    ) -> Option<EstimatedProductConstants> {
        let k = u32::try_from(self.shift).ok().filter(|&k| k > 0)?;
        let operands_fit = lhs_bits.max(rhs_bits) <= i64::MAGNITUDE_BITS;
        if !operands_fit || shift_bits(k) > estimate::PRODUCT_DIVISOR_BITS {
            return None;
        }
        let factor = 10i64.pow(k);
        // |a * b| < 2^(lhs + rhs) <= 2^126, so every quotient is below
        // `i64::MAX` when 2^(lhs + rhs) <= i64::MAX * 10^k.
        let most = u128::from(i64::MAX.unsigned_abs()) * u128::from(factor.unsigned_abs());
        if 1u128 << (lhs_bits + rhs_bits) > most {
            return None;
        }
        let bound = <i64 as Work>::precision_bound(self.result_precision.into());
        Some(EstimatedProductConstants {
            factor,
            inverse: estimate::inverse::<estimate::Instructions>(factor),
            bound,
        })
    }
}

/// Which conversion, if any, [`EstimatedRoundedProduct`] takes in the copy
/// this process runs, for operands below `2^lhs_bits` and `2^rhs_bits`.
/// AVX-512 lanes convert in one instruction. AVX2 lanes convert by exponent
/// bits, which paid for products beyond `i64` (FixedPoint money × rate 9.6 →
/// 6.4 ns a row, 8,192 rows) but not for products within it, which the
/// exact `i64` product serves faster (FixedPoint (38,2) 4.4 → 7.6 ns); with
/// the conversion instructions the AVX2 copy was 1.85 times slower on those
/// and only 12% faster on money × rate. The portable copy's compiler
/// vectorizes the estimate in SSE2 lanes with scalar conversions, slower
/// than its other products.
fn product_estimate(lhs_bits: u32, rhs_bits: u32) -> Option<ConversionKind> {
    match active() {
        Isa::Avx512 => Some(ConversionKind::Instructions),
        Isa::Avx2 if lhs_bits + rhs_bits > i64::MAGNITUDE_BITS => {
            Some(ConversionKind::ExponentBits)
        }
        _ => None,
    }
}

/// What [`NarrowRoundedProduct`] computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NarrowProductConstants {
    /// `10^k`, prepared.
    reciprocal: Magic256,
    /// `10^k`.
    factor: i128,
    bound: i128,
}

/// `round(a * b / 10^k)` for operands and a result within `i128` whose
/// product may not be: the 256-bit product of the magnitudes is formed in
/// two 128-bit halves and divided with a 128-bit reciprocal, so no row ever
/// holds a 256-bit value (Spark's `decimal(38,18)` products rescaled to
/// scale 6). A quotient of `2^127` or more exceeds every bound of 38 digits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NarrowRoundedProduct<R>(core::marker::PhantomData<R>);

impl<R: Rounding> BinaryKernel<i128> for NarrowRoundedProduct<R> {
    type Constants = NarrowProductConstants;

    #[inline(always)]
    fn apply(a: i128, b: i128, c: &Self::Constants) -> (i128, u8) {
        let negative = (a ^ b) < 0;
        let product = widening_mul(a.unsigned_abs(), b.unsigned_abs());
        // Declined only for quotients above 2^127: an overflow either way.
        let (q, r) = c.reciprocal.div_rem(product).unwrap_or((u128::MAX, 0));
        let beyond = q > i128::MAX as u128;
        // Both below 2^127 here (r < 10^k); a quotient beyond is flagged.
        let (q, r) = (q as i128, r as i128);
        let (q, r) = if negative { (q.wrapping_neg(), r.wrapping_neg()) } else { (q, r) };
        let q = R::finish(q, r, c.factor, negative);
        (q, OVERFLOW * u8::from(beyond | q.exceeds(c.bound)))
    }
}

impl MulSpec {
    /// The constants of [`NarrowRoundedProduct`], when it serves the spec:
    /// digits dropped (`1..=38`), results of at most 38 digits.
    fn narrow_constants(&self) -> Option<NarrowProductConstants> {
        let k = u32::try_from(self.shift).ok().filter(|k| (1..=38).contains(k))?;
        if self.result_precision > 38 {
            return None;
        }
        let factor = 10i128.pow(k);
        let reciprocal = Magic256::new(factor.unsigned_abs())?;
        let bound = <i128 as Work>::precision_bound(self.result_precision.into());
        Some(NarrowProductConstants { reciprocal, factor, bound })
    }
}

/// Multiplies `lhs` and `rhs` row by row, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{MulSpec, Operand, Output, RoundingMode, Rows, mul};
/// // 0.15 * -0.15 = -0.0225, kept at scale 2 rounding half up: -0.02.
/// let a = [15i64, 15];
/// let b = [-15i64, 15];
/// let spec = MulSpec::new(2, RoundingMode::HalfUp, 18);
/// let out: Output<i64> = mul(Operand::array(&a[..]), Operand::array(&b[..]), &spec, &Rows::new(2))?;
/// assert_eq!(out.values.as_ref(), [-2, 2]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row beyond the result
/// precision under the `Error` policy; [`KernelError::LengthMismatch`] and
/// [`KernelError::StorageTooNarrow`] as for [`add`](crate::add).
pub fn mul<'a, O: Storage>(
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    spec: &MulSpec,
    rows: impl Into<Recycled<'a, O>>,
) -> Result<Output<O>, KernelError> {
    compute_output(spec.result_precision, rows, |rows, sink| product(&lhs, &rhs, spec, rows, sink))
}

/// [`mul`] into any output storage, in the kernel the plan picks.
fn product(
    l: &Operand<'_>,
    r: &Operand<'_>,
    spec: &MulSpec,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let (plan, checked) = spec.plan(l, r);
    let (width, operand_bits) = (plan.width, plan.lhs.max(plan.rhs));
    let operands_fit_i64 = operand_bits <= i64::MAGNITUDE_BITS;
    // Rounded products of i64 operands beyond i64 (money times a rate), in
    // 64-bit lanes where they vectorize.
    if width <= WorkWidth::I128
        && let Some(conversion) = product_estimate(plan.lhs, plan.rhs)
        && let Some(c) = spec.estimated_constants(plan.lhs, plan.rhs)
    {
        return with_conversion!(conversion, C => with_rounding!(spec.rounding, R => {
            run_multiversioned::<i64, EstimatedRoundedProduct<R, C>>(l, r, c, rows, sink)
        }));
    }
    // Products beyond i128 of operands within it, rescaled to a result within
    // it: computed in 128-bit halves.
    if width == WorkWidth::I256
        && operand_bits <= i128::MAGNITUDE_BITS
        && let Some(c) = spec.narrow_constants()
    {
        // One portable loop: its 128-bit multiplies do not vectorize, and an
        // AVX-512 copy measured no faster (120 against 120-143 µs per 8,192
        // rows of Spark's decimal(38,18) product).
        return with_rounding!(spec.rounding, R => {
            run::<i128, NarrowRoundedProduct<R>>(l, r, c, rows, sink)
        });
    }
    let narrow_result = precision_bits(spec.result_precision.into()) <= i64::MAGNITUDE_BITS;
    if spec.shift == 0 && checked && width == WorkWidth::I128 && narrow_result && operands_fit_i64 {
        let c = spec.constants::<i64>();
        return run_multiversioned::<i64, OverflowingProduct>(l, r, c, rows, sink);
    }
    with_work!(width, W => {
        let c = spec.constants::<W>();
        match (spec.shift, checked) {
            (0, true) => run_multiversioned::<W, Product<true>>(l, r, c, rows, sink),
            (0, false) => run_multiversioned::<W, Product<false>>(l, r, c, rows, sink),
            (..0, true) => run_multiversioned::<W, ScaledProduct<true>>(l, r, c, rows, sink),
            (..0, false) => run_multiversioned::<W, ScaledProduct<false>>(l, r, c, rows, sink),
            (1.., _) => with_rounding!(spec.rounding, R => {
                run_multiversioned::<W, RoundedProduct<R>>(l, r, c, rows, sink)
            }),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::in_place::InPlace;
    use crate::driver::copies::magnitude_bits_in;
    use crate::driver::isa::Runnable;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use crate::int::estimate::{ExponentBits, Instructions};
    use crate::int::rounding::HalfEven;
    use crate::testing::{assert_same_outcome, call, call_in, values};
    use arrow_buffer::NullBuffer;
    use ethnum::I256;
    use rstest::rstest;

    /// Every copy of the loop this CPU runs and the portable one give the
    /// same values, validity and first failure.
    #[track_caller]
    fn assert_copies_agree<W: InPlace, K: BinaryKernel<W>>(constants: K::Constants, bits: u32)
    where
        K::Constants: Copy,
    {
        let (a, b) = (values(1000, bits, 7), values(1000, bits, 11));
        let nulls = NullBuffer::from((0..1000).map(|i| i % 7 != 3).collect::<Vec<_>>());
        for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
            let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
            let rows = Rows::new(1000).with_nulls(Some(&nulls)).with_policies(policies);
            let (l, r) = (Operand::array(&a[..]), Operand::array(&b[..]));
            let portable = call::<i64, W, K>(l, r, constants, &rows);
            for copy in Runnable::all() {
                let chosen = call_in::<i64, W, K>(copy, l, r, constants, &rows);
                let context = format!("{:?} copy, {policy:?}", copy.isa());
                assert_same_outcome(portable.clone(), chosen, &context);
            }
        }
    }

    #[test]
    fn every_copy_of_the_products_matches_the_portable_loop() {
        let spec =
            |shift, result_precision| MulSpec::new(shift, RoundingMode::HalfEven, result_precision);
        assert_copies_agree::<i64, OverflowingProduct>(spec(0, 18).constants(), 40);
        assert_copies_agree::<i64, Product<true>>(spec(0, 12).constants(), 30);
        assert_copies_agree::<i128, Product<false>>(spec(0, 38).constants(), 62);
        assert_copies_agree::<i128, ScaledProduct<true>>(spec(-3, 30).constants(), 40);
        assert_copies_agree::<i64, RoundedProduct<HalfEven>>(spec(4, 12).constants(), 30);
        assert_copies_agree::<i128, RoundedProduct<HalfEven>>(spec(6, 20).constants(), 60);
        // Products of up to 112 bits, rounded by 10^15 to quotients within i64.
        let estimated = spec(15, 18).estimated_constants(56, 56).expect("served");
        assert_copies_agree::<i64, EstimatedRoundedProduct<HalfEven, Instructions>>(estimated, 56);
        assert_copies_agree::<i64, EstimatedRoundedProduct<HalfEven, ExponentBits>>(estimated, 56);
    }

    /// `bits` values below `2^bits` of both signs, with the extremes of the
    /// bound and ties of `10^k` (products of an odd multiple of 5).
    fn bounded_values(len: usize, bits: u32, seed: u64) -> Vec<i64> {
        let most = i64::MAX >> (63 - bits);
        let mut v = values(len, bits, seed);
        let ties = (0..40).map(|i| (5 + 10 * i) * (1 - 2 * (i % 2)));
        v.extend([most, -most, most - 1, 0, 1, -1].into_iter().chain(ties));
        v
    }

    /// Products of `i64` operands beyond 64 bits, rounded by the estimate in
    /// 64-bit lanes, agree with the same products in `I256` for every
    /// rounding mode, both policies, shifts of 1 to 15 digits with operands
    /// up to the largest bounds served, and results that overflow a small
    /// precision.
    #[test]
    fn estimated_rounded_products_match_the_wide_work_type() {
        for k in 1..=15u32 {
            // The widest operands served at this shift: lhs at 63 bits, rhs
            // as wide as the quotient bound allows, and a balanced pair.
            let rhs_most = (1..=63)
                .rev()
                .find(|&r| {
                    MulSpec::new(k as i32, RoundingMode::HalfUp, 38)
                        .estimated_constants(63, r)
                        .is_some()
                })
                .expect("some operand width is served");
            for (lhs_bits, rhs_bits) in [(63, rhs_most), ((63 + rhs_most) / 2, (63 + rhs_most) / 2)]
            {
                let seed = u64::from(k * 64 + lhs_bits);
                let a = bounded_values(500, lhs_bits, seed);
                let b = bounded_values(500, rhs_bits, seed + 1);
                let len = a.len().min(b.len());
                let nulls = NullBuffer::from((0..len).map(|i| i % 13 != 2).collect::<Vec<_>>());
                for precision in [38, 18, 12] {
                    for mode in RoundingMode::ALL {
                        let spec = MulSpec::new(k as i32, mode, precision);
                        let estimated =
                            spec.estimated_constants(lhs_bits, rhs_bits).expect("served");
                        for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
                            let policies =
                                Policies { on_overflow: policy, on_divide_by_zero: policy };
                            let rows =
                                Rows::new(len).with_nulls(Some(&nulls)).with_policies(policies);
                            let (l, r) = (Operand::array(&a[..len]), Operand::array(&b[..len]));
                            let context =
                                format!("{lhs_bits} × {rhs_bits} bits, {spec:?}, {policy:?}");
                            let wide = with_rounding!(mode, R => {
                                call::<i128, I256, RoundedProduct<R>>(l, r, spec.constants(), &rows)
                            });
                            let conversions =
                                [ConversionKind::Instructions, ConversionKind::ExponentBits];
                            for (copy, conversion) in Runnable::all().flat_map(|copy| {
                                conversions.into_iter().map(move |conversion| (copy, conversion))
                            }) {
                                let ours = with_conversion!(conversion, C => {
                                    with_rounding!(mode, R => {
                                        call_in::<i128, i64, EstimatedRoundedProduct<R, C>>(
                                            copy, l, r, estimated, &rows,
                                        )
                                    })
                                });
                                let context =
                                    format!("{:?} copy, {conversion:?}, {context}", copy.isa());
                                assert_same_outcome(wide.clone(), ours, &context);
                            }
                        }
                    }
                }
            }
        }
    }

    #[rstest]
    #[case::no_digits_dropped(0, 40, 40)]
    #[case::digits_appended(-2, 40, 20)]
    #[case::an_operand_beyond_i64(2, 64, 10)]
    #[case::divisor_beyond_two_to_the_50(16, 63, 63)]
    #[case::quotient_beyond_i64(2, 63, 8)]
    #[case::quotient_at_the_type_bound(1, 63, 4)]
    fn estimated_products_refuse(#[case] shift: i32, #[case] lhs_bits: u32, #[case] rhs_bits: u32) {
        let spec = MulSpec::new(shift, RoundingMode::HalfUp, 38);
        assert!(spec.estimated_constants(lhs_bits, rhs_bits).is_none());
    }

    #[rstest]
    #[case::money_times_rate(2, 41, 28)]
    #[case::largest_product_of_a_one_digit_shift(1, 63, 3)]
    #[case::widest_divisor(15, 63, 49)]
    fn estimated_products_serve(#[case] shift: i32, #[case] lhs_bits: u32, #[case] rhs_bits: u32) {
        let spec = MulSpec::new(shift, RoundingMode::HalfUp, 38);
        assert!(spec.estimated_constants(lhs_bits, rhs_bits).is_some());
    }

    /// i128 operands of up to `bits` bits (products beyond i128 from about 64).
    fn wide_values(len: usize, bits: u32, seed: u64) -> Vec<i128> {
        let (high, low) = (values(len, 63, seed), values(len, 63, seed ^ 0x5a5a));
        let mut out: Vec<i128> = high
            .iter()
            .zip(&low)
            .map(|(&h, &l)| {
                let magnitude = (u128::from(h.unsigned_abs()) << 64) | u128::from(l.unsigned_abs());
                let v = (magnitude >> (128 - bits.min(127))) as i128;
                if (h ^ l) < 0 { -v } else { v }
            })
            .collect();
        out.extend([i128::MAX, -i128::MAX, 10i128.pow(38) - 1, 1 - 10i128.pow(38), 0, 1, -1]);
        out
    }

    /// The 128-bit-halves product agrees with the same product rescaled in
    /// `I256`, for every rounding mode, both policies and shifts up to 38,
    /// ties included.
    #[test]
    fn narrow_rounded_products_match_the_wide_work_type() {
        let ties: Vec<i128> =
            (0..40u32).map(|k| (5 - 10 * i128::from(k % 2)) * 10i128.pow(k % 38)).collect();
        for (bits, seed) in [(100, 3), (127, 5), (70, 9)] {
            let (a, b) = (wide_values(700, bits, seed), wide_values(700, 64, seed + 1));
            let (a, b) = ([a, ties.clone()].concat(), [b, vec![1; 40]].concat());
            let len = a.len().min(b.len());
            let nulls = NullBuffer::from((0..len).map(|i| i % 11 != 4).collect::<Vec<_>>());
            for (shift, precision) in [(1, 38), (6, 38), (30, 38), (38, 38), (30, 20), (12, 1)] {
                for mode in RoundingMode::ALL {
                    let spec = MulSpec::new(shift, mode, precision);
                    let narrow = spec.narrow_constants().expect("served");
                    for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
                        let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
                        let rows = Rows::new(len).with_nulls(Some(&nulls)).with_policies(policies);
                        let (l, r) = (Operand::array(&a[..len]), Operand::array(&b[..len]));
                        let context = format!("{bits} bits, {spec:?}, {policy:?}");
                        let wide = with_rounding!(mode, R => {
                            call::<i128, I256, RoundedProduct<R>>(l, r, spec.constants(), &rows)
                        });
                        let narrow = with_rounding!(mode, R => {
                            call::<i128, i128, NarrowRoundedProduct<R>>(l, r, narrow, &rows)
                        });
                        assert_same_outcome(wide, narrow, &context);
                    }
                }
            }
        }
        assert!(MulSpec::new(39, RoundingMode::HalfUp, 38).narrow_constants().is_none());
        assert!(MulSpec::new(6, RoundingMode::HalfUp, 39).narrow_constants().is_none());
        assert!(MulSpec::new(0, RoundingMode::HalfUp, 38).narrow_constants().is_none());
    }

    #[test]
    fn every_copy_of_the_measurement_matches_the_storage_pass() {
        for bits in [1, 20, 40, 63] {
            let v = values(777, bits, u64::from(bits));
            let wide: Vec<i128> = v.iter().map(|&x| i128::from(x) << 40).collect();
            for copy in Runnable::all() {
                assert_eq!(
                    magnitude_bits_in(copy, &v),
                    <i64 as crate::columns::storage::Stored>::magnitude_bits(&v),
                    "{:?} copy, {bits} bits",
                    copy.isa()
                );
                assert_eq!(
                    magnitude_bits_in(copy, &wide),
                    <i128 as crate::columns::storage::Stored>::magnitude_bits(&wide),
                    "{:?} copy, {bits} bits << 40",
                    copy.isa()
                );
            }
        }
    }
}
