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

use arrow_buffer::NullBuffer;

use crate::arity::{
    Frame, KernelError, OVERFLOW, Output, RowKernel, left_or_overflow_flag, output, overflow_flag,
    run_multiversioned,
};
use crate::column::{Input, Sink};
use crate::plan::{WorkWidth, needs_check, plan, shift_bits, storage_work, with_work};
use crate::pow10::precision_bits;
use crate::rounding::{Rounding, RoundingMode, with_rounding};
use crate::storage::Storage;
use crate::work::Work;

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

/// What a product computes once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProductConstants<W: Work> {
    /// `10^|shift|`.
    factor: W,
    /// The same, prepared for division.
    divisor: W::Divisor,
    bound: W,
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

    /// The work type and whether results need the precision check (always,
    /// when digits are dropped: the check is cheap beside the division).
    fn plan(&self, lhs: &Input<'_>, rhs: &Input<'_>) -> (WorkWidth, bool, bool) {
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
        let operands_fit_i64 = plan.lhs.max(plan.rhs) <= i64::MAGNITUDE_BITS;
        (plan.width, checked, operands_fit_i64)
    }

    fn constants<W: Work>(&self) -> ProductConstants<W> {
        let factor = W::pow10(self.shift.unsigned_abs());
        ProductConstants {
            factor,
            divisor: W::prepare_divisor(factor),
            bound: W::precision_bound(self.result_precision.into()),
        }
    }
}

/// `a * b`; `CHECKED`: whether results can exceed the precision at all.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Product<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> RowKernel<W> for Product<CHECKED> {
    type Constants = ProductConstants<W>;

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

impl<W: Work> RowKernel<W> for OverflowingProduct {
    type Constants = ProductConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let (r, left_the_type) = a.overflowing_mul(b);
        (r, left_or_overflow_flag(r, left_the_type, c.bound))
    }
}

/// `a * b * 10^-k` for `k < 0`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScaledProduct<const CHECKED: bool>;

impl<W: Work, const CHECKED: bool> RowKernel<W> for ScaledProduct<CHECKED> {
    type Constants = ProductConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.mul(b).mul(c.factor);
        (r, overflow_flag::<W, CHECKED>(r, c.bound))
    }
}

/// `round(a * b / 10^k)` for `k > 0`, rounding mode `R`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundedProduct<R>(core::marker::PhantomData<R>);

impl<W: Work, R: Rounding> RowKernel<W> for RoundedProduct<R> {
    type Constants = ProductConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let product = a.mul(b);
        let (q, r) = product.div_rem_by(&c.divisor);
        let r = R::finish(q, r, c.factor, product.is_negative());
        (r, OVERFLOW * u8::from(r.exceeds(c.bound)))
    }
}

/// Multiplies `lhs` and `rhs` row by row, results stored as `O`.
///
/// ```
/// use decimal_kernels_native::{Frame, Input, MulSpec, Output, RoundingMode, mul};
/// // 0.15 * -0.15 = -0.0225, kept at scale 2 rounding half up: -0.02.
/// let a = [15i64, 15];
/// let b = [-15i64, 15];
/// let spec = MulSpec::new(2, RoundingMode::HalfUp, 18);
/// let out: Output<i64> = mul(Input::array(&a[..]), Input::array(&b[..]), &spec, &Frame::new(2))?;
/// assert_eq!(out.values.as_ref(), [-2, 2]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid row beyond the result
/// precision under the `Error` policy; [`KernelError::LengthMismatch`] and
/// [`KernelError::StorageTooNarrow`] as for [`add`](crate::add).
pub fn mul<O: Storage>(
    lhs: Input<'_>,
    rhs: Input<'_>,
    spec: &MulSpec,
    frame: &Frame<'_>,
) -> Result<Output<O>, KernelError> {
    output(spec.result_precision, |sink| product(&lhs, &rhs, spec, frame, sink))
}

/// [`mul`] into any output storage, in the kernel the plan picks.
fn product(
    l: &Input<'_>,
    r: &Input<'_>,
    spec: &MulSpec,
    frame: &Frame<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let (width, checked, operands_fit_i64) = spec.plan(l, r);
    let narrow_result = precision_bits(spec.result_precision.into()) <= i64::MAGNITUDE_BITS;
    if spec.shift == 0 && checked && width == WorkWidth::I128 && narrow_result && operands_fit_i64 {
        let c = spec.constants::<i64>();
        return run_multiversioned::<i64, OverflowingProduct>(l, r, c, frame, sink);
    }
    with_work!(width, W => {
        let c = spec.constants::<W>();
        match (spec.shift, checked) {
            (0, true) => run_multiversioned::<W, Product<true>>(l, r, c, frame, sink),
            (0, false) => run_multiversioned::<W, Product<false>>(l, r, c, frame, sink),
            (..0, true) => run_multiversioned::<W, ScaledProduct<true>>(l, r, c, frame, sink),
            (..0, false) => run_multiversioned::<W, ScaledProduct<false>>(l, r, c, frame, sink),
            (1.., _) => with_rounding!(spec.rounding, R => {
                run_multiversioned::<W, RoundedProduct<R>>(l, r, c, frame, sink)
            }),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arity::{OverflowPolicy, Policies, wide_vectors};
    use crate::rounding::HalfEven;
    use crate::testing::{assert_same_outcome, call, call_multiversioned, values};
    use arrow_buffer::NullBuffer;

    /// The multiversioned loop (the AVX-512 copy) and the portable one give
    /// the same values, validity and first failure.
    #[track_caller]
    fn assert_copies_agree<W: Work, K: RowKernel<W>>(constants: K::Constants, bits: u32)
    where
        K::Constants: Copy,
    {
        let (a, b) = (values(1000, bits, 7), values(1000, bits, 11));
        let nulls = NullBuffer::from((0..1000).map(|i| i % 7 != 3).collect::<Vec<_>>());
        for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
            let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
            let frame = Frame::new(1000).with_nulls(Some(&nulls)).with_policies(policies);
            let (l, r) = (Input::array(&a[..]), Input::array(&b[..]));
            let portable = call::<i64, W, K>(l, r, constants, &frame);
            let chosen = call_multiversioned::<i64, W, K>(l, r, constants, &frame);
            assert_same_outcome(portable, chosen, &format!("{policy:?}"));
        }
    }

    #[test]
    fn multiversioned_products_match_the_portable_loop() {
        if !wide_vectors() {
            eprintln!("no AVX-512 on this machine: the AVX-512 product loops are not compared");
            return;
        }
        let spec =
            |shift, result_precision| MulSpec::new(shift, RoundingMode::HalfEven, result_precision);
        assert_copies_agree::<i64, OverflowingProduct>(spec(0, 18).constants(), 40);
        assert_copies_agree::<i64, Product<true>>(spec(0, 12).constants(), 30);
        assert_copies_agree::<i128, Product<false>>(spec(0, 38).constants(), 62);
        assert_copies_agree::<i128, ScaledProduct<true>>(spec(-3, 30).constants(), 40);
        assert_copies_agree::<i64, RoundedProduct<HalfEven>>(spec(4, 12).constants(), 30);
        assert_copies_agree::<i128, RoundedProduct<HalfEven>>(spec(6, 20).constants(), 60);
    }

    #[test]
    fn multiversioned_measurement_matches_the_storage_pass() {
        if !wide_vectors() {
            eprintln!("no AVX-512 on this machine: the AVX-512 measurement is not compared");
            return;
        }
        for bits in [1, 20, 40, 63] {
            let v = values(777, bits, u64::from(bits));
            assert_eq!(
                crate::arity::magnitude_bits(&v),
                <i64 as crate::storage::Stored>::magnitude_bits(&v)
            );
            let wide: Vec<i128> = v.iter().map(|&x| i128::from(x) << 40).collect();
            assert_eq!(
                crate::arity::magnitude_bits(&wide),
                <i128 as crate::storage::Stored>::magnitude_bits(&wide)
            );
        }
    }
}
