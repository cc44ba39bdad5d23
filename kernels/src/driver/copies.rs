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
use crate::driver::kernel::{BinaryKernel, CompareKernel, UnaryKernel, WordsCompareKernel};
use crate::driver::loops::{
    Bytes, binary_loop, binary_words_loop, compare_i128_words_loop, compare_i128_words_scalar_loop,
    compare_loop, compare_scalar_loop, unary_loop, unary_words_loop,
};
#[cfg(target_arch = "x86_64")]
use crate::driver::{avx2, avx512};
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
    fn binary_block<W: Work, K: BinaryKernel<W>>(
        a: &[W],
        b: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8 {
        match P::copy().isa() {
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => {
                // SAFETY: a `Runnable` level runs on this CPU (checked at run
                // time when it was made), and the copy is compiled with its
                // features.
                unsafe { avx512::binary_block::<W, K>(a, b, out, c) }
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
                // this CPU, and the copy is compiled with its features.
                unsafe { avx2::binary_block::<W, K>(a, b, out, c) }
            }
            _ => Portable::binary_block::<W, K>(a, b, out, c),
        }
    }

    #[inline(always)]
    fn binary_words_block<S: Stored, W: Work, K: BinaryKernel<W>>(
        a: &[S::Words],
        b: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8 {
        match P::copy().isa() {
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => {
                // SAFETY: a `Runnable` level runs on this CPU, and the copy is
                // compiled with its features.
                unsafe { avx512::binary_words_block::<S, W, K>(a, b, out, c) }
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
                // this CPU, and the copy is compiled with its features.
                unsafe { avx2::binary_words_block::<S, W, K>(a, b, out, c) }
            }
            _ => Portable::binary_words_block::<S, W, K>(a, b, out, c),
        }
    }

    #[inline(always)]
    fn unary_block<W: Work, K: UnaryKernel<W>>(
        a: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8 {
        match P::copy().isa() {
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => {
                // SAFETY: a `Runnable` level runs on this CPU, and the copy is
                // compiled with its features.
                unsafe { avx512::unary_block::<W, K>(a, out, c) }
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
                // this CPU, and the copy is compiled with its features.
                unsafe { avx2::unary_block::<W, K>(a, out, c) }
            }
            _ => Portable::unary_block::<W, K>(a, out, c),
        }
    }

    #[inline(always)]
    fn unary_words_block<S: Stored, W: Work, K: UnaryKernel<W>>(
        a: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8 {
        match P::copy().isa() {
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => {
                // SAFETY: a `Runnable` level runs on this CPU, and the copy is
                // compiled with its features.
                unsafe { avx512::unary_words_block::<S, W, K>(a, out, c) }
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
                // this CPU, and the copy is compiled with its features.
                unsafe { avx2::unary_words_block::<S, W, K>(a, out, c) }
            }
            _ => Portable::unary_words_block::<S, W, K>(a, out, c),
        }
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

/// [`Stored::magnitude_bits`] of a column, in the copy this process runs:
/// the pass vectorizes at any width, but 64-bit arithmetic shifts (the sign
/// of each word) take one instruction only with AVX-512, and 64-bit
/// comparisons stand in for them with AVX2.
pub(crate) fn magnitude_bits<S: Stored>(values: &[S]) -> u32 {
    magnitude_bits_in(Runnable::active(), values)
}

/// [`magnitude_bits`] in `copy`.
pub(crate) fn magnitude_bits_in<S: Stored>(copy: Runnable, values: &[S]) -> u32 {
    match copy.isa() {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            // SAFETY: a `Runnable` level runs on this CPU, and the copy is
            // compiled with its features.
            unsafe { avx512::magnitude_bits(values) }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
            // this CPU, and the copy is compiled with its features.
            unsafe { avx2::magnitude_bits(values) }
        }
        _ => measure_portable(values),
    }
}

/// [`Stored::magnitude_bits`] compiled for the build's target, out of line
/// as the other copies are.
#[inline(never)]
fn measure_portable<S: Stored>(values: &[S]) -> u32 {
    S::magnitude_bits(values)
}

/// [`compare_loop`] in `copy`: 64-bit comparisons into masks vectorize
/// best with AVX-512, and need AVX2 for 64-bit lanes at all.
pub(crate) fn compare_block_in<W: Work, K: CompareKernel<W>>(
    copy: Runnable,
    a: &[W],
    b: &[W],
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) {
    match copy.isa() {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            // SAFETY: a `Runnable` level runs on this CPU (checked at run
            // time when it was made), and the copy is compiled with its
            // features.
            unsafe { avx512::compare_block::<W, K>(a, b, out, invert, c) }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
            // this CPU, and the copy is compiled with its features.
            unsafe { avx2::compare_block::<W, K>(a, b, out, invert, c) }
        }
        _ => compare_portable::<W, K>(a, b, out, invert, c),
    }
}

/// [`compare_loop`] compiled for the build's target, out of line as the
/// other copies are.
#[inline(never)]
fn compare_portable<W: Work, K: CompareKernel<W>>(
    a: &[W],
    b: &[W],
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) {
    compare_loop::<W, K, Bytes>(a, b, out, invert, c);
}

/// [`compare_scalar_loop`] in `copy`, as [`compare_block_in`] chooses.
pub(crate) fn compare_scalar_block_in<W: Work, K: CompareKernel<W>>(
    copy: Runnable,
    a: &[W],
    y: W,
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) {
    match copy.isa() {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            // SAFETY: a `Runnable` level runs on this CPU (checked at run
            // time when it was made), and the copy is compiled with its
            // features.
            unsafe { avx512::compare_scalar_block::<W, K>(a, y, out, invert, c) }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
            // this CPU, and the copy is compiled with its features.
            unsafe { avx2::compare_scalar_block::<W, K>(a, y, out, invert, c) }
        }
        _ => compare_scalar_portable::<W, K>(a, y, out, invert, c),
    }
}

/// [`compare_scalar_loop`] compiled for the build's target, out of line as
/// the other copies are.
#[inline(never)]
fn compare_scalar_portable<W: Work, K: CompareKernel<W>>(
    a: &[W],
    y: W,
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) {
    compare_scalar_loop::<W, K, Bytes>(a, y, out, invert, c);
}

/// [`compare_i128_words_loop`] in `copy`.
pub(crate) fn compare_i128_words_in<K: WordsCompareKernel>(
    copy: Runnable,
    a: &[[u64; 2]],
    b: &[[u64; 2]],
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) -> u64 {
    match copy.isa() {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            // SAFETY: a `Runnable` level runs on this CPU (checked at run
            // time when it was made), and the copy is compiled with its
            // features.
            unsafe { avx512::compare_i128_words::<K>(a, b, out, invert, c) }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
            // this CPU, and the copy is compiled with its features.
            unsafe { avx2::compare_i128_words::<K>(a, b, out, invert, c) }
        }
        _ => compare_i128_words_portable::<K>(a, b, out, invert, c),
    }
}

/// [`compare_i128_words_loop`] compiled for the build's target, out of
/// line as the other copies are.
#[inline(never)]
fn compare_i128_words_portable<K: WordsCompareKernel>(
    a: &[[u64; 2]],
    b: &[[u64; 2]],
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) -> u64 {
    compare_i128_words_loop::<K, Bytes>(a, b, out, invert, c)
}

/// [`compare_i128_words_scalar_loop`] in `copy`.
pub(crate) fn compare_i128_words_scalar_in<K: CompareKernel<i64>>(
    copy: Runnable,
    a: &[[u64; 2]],
    y: i64,
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) -> u64 {
    match copy.isa() {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            // SAFETY: a `Runnable` level runs on this CPU (checked at run
            // time when it was made), and the copy is compiled with its
            // features.
            unsafe { avx512::compare_i128_words_scalar::<K>(a, y, out, invert, c) }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
            // this CPU, and the copy is compiled with its features.
            unsafe { avx2::compare_i128_words_scalar::<K>(a, y, out, invert, c) }
        }
        _ => compare_i128_words_scalar_portable::<K>(a, y, out, invert, c),
    }
}

/// [`compare_i128_words_scalar_loop`] compiled for the build's target, out
/// of line as the other copies are.
#[inline(never)]
fn compare_i128_words_scalar_portable<K: CompareKernel<i64>>(
    a: &[[u64; 2]],
    y: i64,
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) -> u64 {
    compare_i128_words_scalar_loop::<K, Bytes>(a, y, out, invert, c)
}

/// [`appended_i128_words_loop`] in `copy`: compiled for AVX2 in that copy,
/// for the build's target in any other. Calls run it only in the AVX2 copy
/// (the AVX-512 words loop and the portable loop over `i128` values serve
/// better in theirs); tests run it in every copy, on any little-endian
/// target.
#[cfg(all(target_endian = "little", any(target_arch = "x86_64", test)))]
pub(crate) fn appended_i128_words_in(
    copy: Runnable,
    a: &[[u64; 2]],
    out: &mut [MaybeUninit<[u64; 2]>],
    factor: u64,
    limit: u64,
) -> u64 {
    match copy.isa() {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            // SAFETY: a `Runnable` level runs on this CPU (checked at run
            // time when it was made), and the copy is compiled with its
            // features.
            unsafe { avx2::appended_i128_words(a, out, factor, limit) }
        }
        _ => appended_i128_words_portable(a, out, factor, limit),
    }
}

/// [`appended_i128_words_loop`] compiled for the build's target, out of
/// line as the other copies are.
#[cfg(all(target_endian = "little", any(target_arch = "x86_64", test)))]
#[inline(never)]
fn appended_i128_words_portable(
    a: &[[u64; 2]],
    out: &mut [MaybeUninit<[u64; 2]>],
    factor: u64,
    limit: u64,
) -> u64 {
    crate::driver::loops::appended_i128_words_loop(a, out, factor, limit)
}
