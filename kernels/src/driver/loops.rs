//! A kernel's loops over one block: each a plain zip over equal-length
//! slices, which the compiler vectorizes, the rows' flags ORed into one
//! byte, with no branch on a row's outcome. Each loop, and the pass that
//! measures a column, is also a [`BlockLoop`] value, so that `copies`
//! compiles every one of them for the build's target, for AVX2 and for
//! AVX-512 through one function per copy.

use core::mem::MaybeUninit;

use crate::columns::storage::Stored;
use crate::driver::kernel::{BinaryKernel, UnaryKernel};
use crate::int::work::Work;

/// One block's loop with its arguments, run by a compiled copy: the copy's
/// function inlines [`run`](Self::run), so the loop is compiled with the
/// copy's features.
pub(crate) trait BlockLoop {
    /// What the loop returns: the block's flags, or a column's measure.
    type Output;

    /// Runs the loop.
    fn run(self) -> Self::Output;
}

/// [`binary_loop`] over one block.
pub(crate) struct BinaryBlock<'a, W: Work, K: BinaryKernel<W>> {
    /// The left operand's rows.
    pub(crate) a: &'a [W],
    /// The right operand's rows.
    pub(crate) b: &'a [W],
    /// The results' slots.
    pub(crate) out: &'a mut [MaybeUninit<W>],
    /// The kernel's constants.
    pub(crate) c: &'a K::Constants,
}

impl<W: Work, K: BinaryKernel<W>> BlockLoop for BinaryBlock<'_, W, K> {
    type Output = u8;
    #[inline(always)]
    fn run(self) -> u8 {
        binary_loop::<W, K>(self.a, self.b, self.out, self.c)
    }
}

/// [`binary_words_loop`] over one block.
pub(crate) struct BinaryWordsBlock<'a, S: Stored, W: Work, K: BinaryKernel<W>> {
    /// The left operand's rows, as words.
    pub(crate) a: &'a [S::Words],
    /// The right operand's rows, as words.
    pub(crate) b: &'a [S::Words],
    /// The results' slots, as words.
    pub(crate) out: &'a mut [MaybeUninit<S::Words>],
    /// The kernel's constants.
    pub(crate) c: &'a K::Constants,
}

impl<S: Stored, W: Work, K: BinaryKernel<W>> BlockLoop for BinaryWordsBlock<'_, S, W, K> {
    type Output = u8;
    #[inline(always)]
    fn run(self) -> u8 {
        binary_words_loop::<S, W, K>(self.a, self.b, self.out, self.c)
    }
}

/// [`unary_loop`] over one block.
pub(crate) struct UnaryBlock<'a, W: Work, K: UnaryKernel<W>> {
    /// The operand's rows.
    pub(crate) a: &'a [W],
    /// The results' slots.
    pub(crate) out: &'a mut [MaybeUninit<W>],
    /// The kernel's constants.
    pub(crate) c: &'a K::Constants,
}

impl<W: Work, K: UnaryKernel<W>> BlockLoop for UnaryBlock<'_, W, K> {
    type Output = u8;
    #[inline(always)]
    fn run(self) -> u8 {
        unary_loop::<W, K>(self.a, self.out, self.c)
    }
}

/// [`unary_words_loop`] over one block.
pub(crate) struct UnaryWordsBlock<'a, S: Stored, W: Work, K: UnaryKernel<W>> {
    /// The operand's rows, as words.
    pub(crate) a: &'a [S::Words],
    /// The results' slots, as words.
    pub(crate) out: &'a mut [MaybeUninit<S::Words>],
    /// The kernel's constants.
    pub(crate) c: &'a K::Constants,
}

impl<S: Stored, W: Work, K: UnaryKernel<W>> BlockLoop for UnaryWordsBlock<'_, S, W, K> {
    type Output = u8;
    #[inline(always)]
    fn run(self) -> u8 {
        unary_words_loop::<S, W, K>(self.a, self.out, self.c)
    }
}

/// [`Stored::magnitude_bits`] of a column: the pass vectorizes at any width,
/// but 64-bit arithmetic shifts (the sign of each word) take one instruction
/// only with AVX-512, and 64-bit comparisons stand in for them with AVX2.
pub(crate) struct Measure<'a, S: Stored>(pub(crate) &'a [S]);

impl<S: Stored> BlockLoop for Measure<'_, S> {
    type Output = u32;
    #[inline(always)]
    fn run(self) -> u32 {
        S::magnitude_bits(self.0)
    }
}

/// Computes one block with binary kernel `K`.
#[inline(always)]
pub(crate) fn binary_loop<W: Work, K: BinaryKernel<W>>(
    a: &[W],
    b: &[W],
    out: &mut [MaybeUninit<W>],
    c: &K::Constants,
) -> u8 {
    let mut any = 0;
    for ((slot, &x), &y) in out.iter_mut().zip(a).zip(b) {
        let (r, flags) = K::apply(x, y, c);
        any |= flags;
        slot.write(r);
    }
    any
}

/// Computes one block with unary kernel `K`.
#[inline(always)]
pub(crate) fn unary_loop<W: Work, K: UnaryKernel<W>>(
    a: &[W],
    out: &mut [MaybeUninit<W>],
    c: &K::Constants,
) -> u8 {
    let mut any = 0;
    for (slot, &x) in out.iter_mut().zip(a) {
        let (r, flags) = K::apply(x, c);
        any |= flags;
        slot.write(r);
    }
    any
}

/// Computes one block of values stored as `S` in a narrower `W` with `K`,
/// reading and writing their 64-bit words: the compiler loads and
/// deinterleaves whole vectors, and only the low words of each operand are
/// used.
#[inline(always)]
pub(crate) fn binary_words_loop<S: Stored, W: Work, K: BinaryKernel<W>>(
    a: &[S::Words],
    b: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    c: &K::Constants,
) -> u8 {
    let mut any = 0;
    for ((slot, &x), &y) in out.iter_mut().zip(a).zip(b) {
        let (r, flags) = K::apply(S::load_words(x), S::load_words(y), c);
        any |= flags;
        slot.write(S::store_words(r));
    }
    any
}

/// [`binary_words_loop`] for one operand.
#[inline(always)]
pub(crate) fn unary_words_loop<S: Stored, W: Work, K: UnaryKernel<W>>(
    a: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    c: &K::Constants,
) -> u8 {
    let mut any = 0;
    for (slot, &x) in out.iter_mut().zip(a) {
        let (r, flags) = K::apply(S::load_words(x), c);
        any |= flags;
        slot.write(S::store_words(r));
    }
    any
}
