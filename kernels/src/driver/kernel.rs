//! What an operator hands the loops: its per-row arithmetic for two operands
//! ([`BinaryKernel`]) or one ([`UnaryKernel`]) and the failure flags each
//! row reports, or its per-row test for a comparison ([`CompareKernel`],
//! and [`WordsCompareKernel`] over `i128` rows read as 64-bit words).

use core::marker::PhantomData;

use crate::int::work::Work;

/// Flag: the row's result exceeds the result precision.
pub(crate) const OVERFLOW: u8 = 1;
/// Flag: the row divides by zero.
pub(crate) const DIVIDE_BY_ZERO: u8 = 2;

/// [`OVERFLOW`] when `CHECKED` and `|r| > bound`; nothing (and no work) for a
/// loop planned without the precision check.
#[inline(always)]
pub(crate) fn overflow_flag<W: Work, const CHECKED: bool>(r: W, bound: W) -> u8 {
    if CHECKED { OVERFLOW * u8::from(r.exceeds(bound)) } else { 0 }
}

/// [`OVERFLOW`] when the operation left the work type or `|r| > bound`: for
/// loops in a type that holds the result bound but not every intermediate, where
/// leaving the type means the exact result exceeds every bound the type holds.
#[inline(always)]
pub(crate) fn left_or_overflow_flag<W: Work>(r: W, left_the_type: bool, bound: W) -> u8 {
    OVERFLOW * u8::from(left_the_type | r.exceeds(bound))
}

/// The per-row arithmetic of one binary operator shape, in work type `W`,
/// with the constants it needs hoisted into `Constants` once per call.
pub(crate) trait BinaryKernel<W: Work> {
    /// What the kernel computes once per call (scale factors, bounds).
    type Constants: Sync;

    /// Whether the block loop ORs this kernel's flags in 64-bit lanes and
    /// narrows them to a byte once a block: for a kernel whose flags are
    /// formed in 64-bit lanes, where narrowing each vector of them to
    /// bytes costs three SSE2 packs (the portable copy's floored quotient).
    /// The flags are the same either way.
    const WIDE_FLAGS: bool = false;

    /// The row's result and its failure flags ([`OVERFLOW`], [`DIVIDE_BY_ZERO`]);
    /// must not trap on any input, including a zero divisor.
    fn apply(a: W, b: W, constants: &Self::Constants) -> (W, u8);
}

/// The per-row arithmetic of one unary operator shape (a rescale, a sign
/// change), as [`BinaryKernel`] is for two operands.
pub(crate) trait UnaryKernel<W: Work> {
    /// What the kernel computes once per call.
    type Constants: Sync;

    /// Whether the kernel flags every value that does not fit `W` as an
    /// overflow, so that a plan may run it over values it did not measure:
    /// the loops over wider storage's words then load such a value as
    /// `W::MAX` ([`Stored::load_words_saturated`]), which the kernel must
    /// flag. For kernels whose result bound fits `W` and whose results are
    /// never smaller in magnitude than their operand.
    ///
    /// [`Stored::load_words_saturated`]: crate::columns::storage::Stored::load_words_saturated
    const SATURATED_LOADS: bool = false;

    /// The row's result and its failure flags; must not trap on any input.
    fn apply(a: W, constants: &Self::Constants) -> (W, u8);
}

/// The per-row test of one comparison shape, in work type `W`: whether the
/// row's operands stand in the kernel's relation (after any alignment the
/// constants describe). Rows of a comparison never fail.
pub(crate) trait CompareKernel<W: Work> {
    /// What the kernel computes once per call (the scale factor and the
    /// magnitude beyond which the factor is not applied).
    type Constants: Sync;

    /// Whether the relation holds for the row; must not trap on any input.
    fn holds(a: W, b: W, constants: &Self::Constants) -> bool;
}

/// The per-row test of a comparison over `i128` rows read as their 64-bit
/// words (`[low, high]`): the answer, and a word that is non-zero when the
/// row is beyond what this test holds exactly (the caller then tests the
/// row's 64-row word again in `i128`). Must not trap on any input.
pub(crate) trait WordsCompareKernel {
    /// What the kernel computes once per call.
    type Constants: Sync;

    /// The row's answer and its beyond-range word.
    fn holds_words(a: [u64; 2], b: [u64; 2], constants: &Self::Constants) -> (bool, u64);
}

/// Comparison kernel `K` on both sides' low words, in `i64`: a row is
/// beyond when either high word is not the sign of its low word.
pub(crate) struct InI64<K>(PhantomData<K>);

impl<K: CompareKernel<i64>> WordsCompareKernel for InI64<K> {
    type Constants = K::Constants;

    #[inline(always)]
    fn holds_words(
        [x_low, x_high]: [u64; 2],
        [y_low, y_high]: [u64; 2],
        c: &K::Constants,
    ) -> (bool, u64) {
        let (x, y) = (x_low.cast_signed(), y_low.cast_signed());
        let beyond = (x_high ^ (x >> 63).cast_unsigned()) | (y_high ^ (y >> 63).cast_unsigned());
        (K::holds(x, y, c), beyond)
    }
}
