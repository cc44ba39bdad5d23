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

use crate::arity::{Frame, KernelError, OVERFLOW, Output, RowKernel, run};
use crate::plan::{Operand, WorkWidth, shift_bits, with_work};
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
pub struct ProductConstants<W> {
    /// `10^|shift|`.
    factor: W,
    bound: W,
}

impl MulSpec {
    fn width(&self, lhs_bits: u32, rhs_bits: u32) -> WorkWidth {
        let product = lhs_bits + rhs_bits;
        let bits = if self.shift < 0 {
            product + shift_bits(self.shift.unsigned_abs())
        } else {
            // The divisor itself must fit as well.
            product.max(shift_bits(self.shift.unsigned_abs()) + 1)
        };
        WorkWidth::for_bits(bits)
    }

    fn constants<W: Work>(&self) -> ProductConstants<W> {
        ProductConstants {
            factor: W::pow10(self.shift.unsigned_abs()),
            bound: W::precision_bound(self.result_precision.into()),
        }
    }
}

/// `a * b`.
#[derive(Clone, Copy, Debug)]
pub struct Product;

impl<W: Work> RowKernel<W> for Product {
    type Constants = ProductConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.mul(b);
        (r, OVERFLOW * u8::from(r.exceeds(c.bound)))
    }
}

/// `a * b * 10^-k` for `k < 0`.
#[derive(Clone, Copy, Debug)]
pub struct ScaledProduct;

impl<W: Work> RowKernel<W> for ScaledProduct {
    type Constants = ProductConstants<W>;

    #[inline(always)]
    fn apply(a: W, b: W, c: &Self::Constants) -> (W, u8) {
        let r = a.mul(b).mul(c.factor);
        (r, OVERFLOW * u8::from(r.exceeds(c.bound)))
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
        let (q, r) = product.div_rem(c.factor);
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
    let width = spec.width(lhs.bits(), rhs.bits());
    with_work!(width, W => {
        let constants = spec.constants::<W>();
        match spec.shift {
            0 => run::<S, W, Product>(lhs.input, rhs.input, &constants, frame),
            ..0 => run::<S, W, ScaledProduct>(lhs.input, rhs.input, &constants, frame),
            1.. => with_rounding!(spec.rounding, R => {
                run::<S, W, RoundedProduct<R>>(lhs.input, rhs.input, &constants, frame)
            }),
        }
    })
}
