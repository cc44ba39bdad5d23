//! Which compiled copies of a kernel's loops a call runs: the build's target
//! only ([`Portable`]), or on x86-64 also copies compiled for AVX2 and for
//! AVX-512, of which each block runs the one this process chose
//! ([`Multiversioned`], see `isa`); and the same choice for the pass that
//! measures a column.

use core::marker::PhantomData;
use core::mem::MaybeUninit;

use crate::columns::convert::narrower_than_storage;
use crate::columns::in_place::InPlace;
use crate::columns::storage::Stored;
#[cfg(target_arch = "x86_64")]
use crate::driver::isa::Isa;
use crate::driver::isa::Runnable;
use crate::driver::kernel::{BinaryKernel, UnaryKernel};
use crate::driver::loops::{BinaryWordsBlock, BlockLoop, Measure, UnaryWordsBlock};
#[cfg(target_arch = "x86_64")]
use crate::driver::{avx2, avx512};

/// Which compiled copies of a kernel's loops a call can use.
pub(crate) trait Copies: 'static {
    /// Runs `block`'s loop in one of the copies.
    fn run<L: BlockLoop>(block: L) -> L::Output;
}

/// The loops compiled for the build's target only.
pub(crate) struct Portable;

impl Copies for Portable {
    /// Out of line, as the other copies are: one function per loop.
    #[inline(never)]
    fn run<L: BlockLoop>(block: L) -> L::Output {
        block.run()
    }
}

/// Which copy of the loops [`Chosen`] runs.
pub(crate) trait Choice: 'static {
    /// The copy, one this CPU runs.
    fn copy() -> Runnable;
}

/// The copy this process runs ([`Runnable::active`]).
pub(crate) struct Active;

impl Choice for Active {
    #[inline(always)]
    fn copy() -> Runnable {
        Runnable::active()
    }
}

/// The loops in the copy `P` picks, for each block: the build's target, or
/// on x86-64 a copy compiled for AVX2 or for AVX-512.
pub(crate) struct Chosen<P>(PhantomData<P>);

/// The loops in the copy this process runs.
pub(crate) type Multiversioned = Chosen<Active>;

impl<P: Choice> Copies for Chosen<P> {
    #[inline(always)]
    fn run<L: BlockLoop>(block: L) -> L::Output {
        run_in(P::copy(), block)
    }
}

/// Runs `block`'s loop in `copy`.
#[inline(always)]
pub(crate) fn run_in<L: BlockLoop>(copy: Runnable, block: L) -> L::Output {
    match copy.isa() {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            // SAFETY: a `Runnable` level runs on this CPU (checked at run
            // time when it was made), and this copy is compiled with its
            // features.
            unsafe { avx512::run(block) }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
            // this CPU, and this copy is compiled with its features.
            unsafe { avx2::run(block) }
        }
        _ => Portable::run(block),
    }
}

/// Binary kernel `K`'s block over the words of values stored as `S`, in
/// work type `W`: `None` unless `W` is narrower than the storage and a
/// narrow one (`i64`, `i128`), where reading words pays.
#[inline(always)]
pub(crate) fn binary_words_block<S: Stored, W: InPlace, K: BinaryKernel<W>, C: Copies>(
    a: &[S::Words],
    b: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    c: &K::Constants,
) -> Option<u8> {
    // Compiled only where it pays and the storage is wider.
    if const { W::WORDS_PAY && narrower_than_storage::<S, W>() } {
        Some(C::run(BinaryWordsBlock::<S, W, K> { a, b, out, c }))
    } else {
        None
    }
}

/// [`binary_words_block`] for a unary kernel.
#[inline(always)]
pub(crate) fn unary_words_block<S: Stored, W: InPlace, K: UnaryKernel<W>, C: Copies>(
    a: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    c: &K::Constants,
) -> Option<u8> {
    if const { W::WORDS_PAY && narrower_than_storage::<S, W>() } {
        Some(C::run(UnaryWordsBlock::<S, W, K> { a, out, c }))
    } else {
        None
    }
}

/// [`Stored::magnitude_bits`] of a column, in the copy this process runs
/// (see [`Measure`]).
pub(crate) fn magnitude_bits<S: Stored>(values: &[S]) -> u32 {
    run_in(Runnable::active(), Measure(values))
}
