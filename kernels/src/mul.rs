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

use crate::arity::{
    Frame, KernelError, OVERFLOW, Output, RowKernel, left_or_overflow_flag, overflow_flag,
    run_multiversioned,
};
use crate::plan::{Operand, WorkWidth, needs_check, plan, shift_bits, with_work};
use crate::pow10::precision_bits;
use crate::rounding::{Rounding, RoundingMode};
use crate::storage::Storage;
use crate::with_rounding;
use crate::work::Work;

/// The shape of a multiplication, from the operand and result types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
pub struct ProductConstants<W: Work> {
    /// `10^|shift|`.
    factor: W,
    /// The same, prepared for division.
    divisor: W::Divisor,
    bound: W,
}

impl MulSpec {
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
    fn plan<S: Storage>(
        &self,
        lhs: &Operand<'_, S>,
        rhs: &Operand<'_, S>,
    ) -> (WorkWidth, bool, bool) {
        // A rescaled product divides, and measuring pays from i128. A plain
        // product of values stored in i128 or wider is one widening multiply,
        // cheaper than the pass over two wide columns; values stored in 64 bits
        // are measured cheaply, and a product that then fits i64 vectorizes
        // where a 64-bit multiply with an overflow check does not.
        let narrow_storage = <S::Native as Work>::MAGNITUDE_BITS <= i64::MAGNITUDE_BITS;
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
pub struct Product<const CHECKED: bool>;

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
pub struct OverflowingProduct;

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
pub struct ScaledProduct<const CHECKED: bool>;

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
pub struct RoundedProduct<R>(core::marker::PhantomData<R>);

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

/// Multiplies `lhs` and `rhs` row by row.
///
/// # Errors
/// As [`add`](crate::add::add).
pub fn mul<S: Storage>(
    lhs: Operand<'_, S>,
    rhs: Operand<'_, S>,
    spec: &MulSpec,
    frame: &Frame<'_>,
) -> Result<Output<S>, KernelError> {
    let (width, checked, operands_fit_i64) = spec.plan(&lhs, &rhs);
    let (l, r) = (lhs.input, rhs.input);
    let narrow_result = precision_bits(spec.result_precision.into()) <= i64::MAGNITUDE_BITS;
    if spec.shift == 0 && checked && width == WorkWidth::I128 && narrow_result && operands_fit_i64 {
        return run_multiversioned::<S, i64, OverflowingProduct>(
            l,
            r,
            &spec.constants::<i64>(),
            frame,
        );
    }
    with_work!(width, W => {
        let c = spec.constants::<W>();
        match (spec.shift, checked) {
            (0, true) => run_multiversioned::<S, W, Product<true>>(l, r, &c, frame),
            (0, false) => run_multiversioned::<S, W, Product<false>>(l, r, &c, frame),
            (..0, true) => run_multiversioned::<S, W, ScaledProduct<true>>(l, r, &c, frame),
            (..0, false) => run_multiversioned::<S, W, ScaledProduct<false>>(l, r, &c, frame),
            (1.., _) => with_rounding!(spec.rounding, R => {
                run_multiversioned::<S, W, RoundedProduct<R>>(l, r, &c, frame)
            }),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arity::{Input, OverflowPolicy, Policies, assert_same_outcome, run};
    use crate::rounding::HalfEven;
    use arrow_buffer::NullBuffer;

    /// Values of every size up to `2^bits`, both signs, from a fixed seed.
    fn values(len: usize, bits: u32, seed: u64) -> Vec<i64> {
        let mut x = seed;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let v = (x >> (64 - bits.min(63))) as i64 >> (x % 40);
                if x & 1 == 1 { -v } else { v }
            })
            .collect()
    }

    /// The multiversioned loop (the AVX-512 copy on a CPU that has it) and the
    /// portable one give the same values, validity and first failure.
    #[track_caller]
    fn assert_copies_agree<W: Work, K: RowKernel<W>>(constants: &K::Constants, bits: u32) {
        let (a, b) = (values(1000, bits, 7), values(1000, bits, 11));
        let nulls = NullBuffer::from((0..1000).map(|i| i % 7 != 3).collect::<Vec<_>>());
        for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
            let frame = Frame {
                len: 1000,
                nulls: Some(&nulls),
                policies: Policies { on_overflow: policy, on_divide_by_zero: policy },
            };
            let (l, r) = (Input::Array(&a[..]), Input::Array(&b[..]));
            let portable = run::<i64, W, K>(l, r, constants, &frame);
            let chosen = run_multiversioned::<i64, W, K>(l, r, constants, &frame);
            assert_same_outcome(portable, chosen, &format!("{policy:?}"));
        }
    }

    #[test]
    fn multiversioned_products_match_the_portable_loop() {
        #[cfg(target_arch = "x86_64")]
        if !crate::arity::avx512::available() {
            eprintln!("no AVX-512 here: both runs take the portable loop");
        }
        let spec = |shift, result_precision| MulSpec {
            shift,
            rounding: RoundingMode::HalfEven,
            result_precision,
        };
        assert_copies_agree::<i64, OverflowingProduct>(&spec(0, 18).constants(), 40);
        assert_copies_agree::<i64, Product<true>>(&spec(0, 12).constants(), 30);
        assert_copies_agree::<i128, Product<false>>(&spec(0, 38).constants(), 62);
        assert_copies_agree::<i128, ScaledProduct<true>>(&spec(-3, 30).constants(), 40);
        assert_copies_agree::<i64, RoundedProduct<HalfEven>>(&spec(4, 12).constants(), 30);
        assert_copies_agree::<i128, RoundedProduct<HalfEven>>(&spec(6, 20).constants(), 60);
    }

    #[test]
    fn multiversioned_measurement_matches_the_storage_pass() {
        for bits in [1, 20, 40, 63] {
            let v = values(777, bits, u64::from(bits));
            assert_eq!(crate::arity::magnitude_bits(&v), i64::magnitude_bits(&v));
            let wide: Vec<i128> = v.iter().map(|&x| i128::from(x) << 40).collect();
            assert_eq!(crate::arity::magnitude_bits(&wide), i128::magnitude_bits(&wide));
        }
    }
}
