//! Which compiled copies of a kernel's loops a call runs: the build's target
//! only ([`Portable`]), or on x86-64 also a copy compiled for AVX-512,
//! chosen at run time on a CPU that has it ([`Multiversioned`]); and the
//! same choice for the pass that measures a column.

use core::mem::MaybeUninit;

use crate::columns::convert::narrower_than_storage;
use crate::columns::in_place::InPlace;
use crate::columns::storage::Stored;
#[cfg(target_arch = "x86_64")]
use crate::driver::avx512;
use crate::driver::kernel::{BinaryKernel, UnaryKernel};
use crate::driver::loops::{binary_loop, binary_words_loop, unary_loop, unary_words_loop};
use crate::int::work::Work;

/// Which compiled copies of a kernel's loops a call can use.
pub(crate) trait Copies: 'static {
    /// [`binary_loop`].
    fn binary_block<W: Work, K: BinaryKernel<W>>(
        a: &[W],
        b: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8;

    /// [`binary_words_loop`].
    fn binary_words_block<S: Stored, W: Work, K: BinaryKernel<W>>(
        a: &[S::Words],
        b: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8;

    /// [`unary_loop`].
    fn unary_block<W: Work, K: UnaryKernel<W>>(
        a: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8;

    /// [`unary_words_loop`].
    fn unary_words_block<S: Stored, W: Work, K: UnaryKernel<W>>(
        a: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8;
}

/// The loops compiled for the build's target only.
pub(crate) struct Portable;

impl Copies for Portable {
    #[inline(never)]
    fn binary_block<W: Work, K: BinaryKernel<W>>(
        a: &[W],
        b: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8 {
        binary_loop::<W, K>(a, b, out, c)
    }

    #[inline(never)]
    fn binary_words_block<S: Stored, W: Work, K: BinaryKernel<W>>(
        a: &[S::Words],
        b: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8 {
        binary_words_loop::<S, W, K>(a, b, out, c)
    }

    #[inline(never)]
    fn unary_block<W: Work, K: UnaryKernel<W>>(
        a: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8 {
        unary_loop::<W, K>(a, out, c)
    }

    #[inline(never)]
    fn unary_words_block<S: Stored, W: Work, K: UnaryKernel<W>>(
        a: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8 {
        unary_words_loop::<S, W, K>(a, out, c)
    }
}

/// The build's loops, or on x86-64 copies compiled for AVX-512 when the CPU
/// has it.
pub(crate) struct Multiversioned;

impl Copies for Multiversioned {
    #[inline(always)]
    fn binary_block<W: Work, K: BinaryKernel<W>>(
        a: &[W],
        b: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8 {
        #[cfg(target_arch = "x86_64")]
        if avx512::available() {
            // SAFETY: `available` has just checked at run time that this CPU
            // supports every feature the function is compiled with.
            return unsafe { avx512::binary_block::<W, K>(a, b, out, c) };
        }
        Portable::binary_block::<W, K>(a, b, out, c)
    }

    #[inline(always)]
    fn binary_words_block<S: Stored, W: Work, K: BinaryKernel<W>>(
        a: &[S::Words],
        b: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8 {
        #[cfg(target_arch = "x86_64")]
        if avx512::available() {
            // SAFETY: `available` has just checked at run time that this CPU
            // supports every feature the function is compiled with.
            return unsafe { avx512::binary_words_block::<S, W, K>(a, b, out, c) };
        }
        Portable::binary_words_block::<S, W, K>(a, b, out, c)
    }

    #[inline(always)]
    fn unary_block<W: Work, K: UnaryKernel<W>>(
        a: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8 {
        #[cfg(target_arch = "x86_64")]
        if avx512::available() {
            // SAFETY: `available` has just checked at run time that this CPU
            // supports every feature the function is compiled with.
            return unsafe { avx512::unary_block::<W, K>(a, out, c) };
        }
        Portable::unary_block::<W, K>(a, out, c)
    }

    #[inline(always)]
    fn unary_words_block<S: Stored, W: Work, K: UnaryKernel<W>>(
        a: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8 {
        #[cfg(target_arch = "x86_64")]
        if avx512::available() {
            // SAFETY: `available` has just checked at run time that this CPU
            // supports every feature the function is compiled with.
            return unsafe { avx512::unary_words_block::<S, W, K>(a, out, c) };
        }
        Portable::unary_words_block::<S, W, K>(a, out, c)
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
    constants: &K::Constants,
) -> Option<u8> {
    // Compiled only where it pays and the storage is wider.
    if const { W::WORDS_PAY && narrower_than_storage::<S, W>() } {
        Some(C::binary_words_block::<S, W, K>(a, b, out, constants))
    } else {
        None
    }
}

/// [`binary_words_block`] for a unary kernel.
#[inline(always)]
pub(crate) fn unary_words_block<S: Stored, W: InPlace, K: UnaryKernel<W>, C: Copies>(
    a: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    constants: &K::Constants,
) -> Option<u8> {
    if const { W::WORDS_PAY && narrower_than_storage::<S, W>() } {
        Some(C::unary_words_block::<S, W, K>(a, out, constants))
    } else {
        None
    }
}

/// [`Stored::magnitude_bits`] of a column, in the AVX-512 copy on a CPU that
/// has it: the pass vectorizes at any width, but 64-bit arithmetic shifts
/// (the sign of each word) take one instruction only there.
pub(crate) fn magnitude_bits<S: Stored>(values: &[S]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if avx512::available() {
        // SAFETY: `available` has just checked at run time that this CPU
        // supports every feature the function is compiled with.
        return unsafe { avx512::magnitude_bits(values) };
    }
    measure_portable(values)
}

#[inline(never)]
fn measure_portable<S: Stored>(values: &[S]) -> u32 {
    S::magnitude_bits(values)
}

/// Whether the AVX-512 copies of the loops run on this CPU.
pub(crate) fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    return avx512::available();
    #[cfg(not(target_arch = "x86_64"))]
    false
}
