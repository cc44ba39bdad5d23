//! A kernel's loops over one block: each a plain zip over equal-length
//! slices, which the compiler vectorizes, the rows' flags ORed into one
//! byte, with no branch on a row's outcome. `copies` compiles them for the
//! build's target, for AVX2 and for AVX-512.

use core::mem::MaybeUninit;

use crate::columns::storage::Stored;
use crate::driver::kernel::{BinaryKernel, UnaryKernel};
use crate::int::work::Work;

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
