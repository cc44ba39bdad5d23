//! A kernel with its constants behind a trait object: only a kernel's block
//! loops are compiled per operator shape and work type; the block drivers
//! reach them through [`BinaryBlocks`] or [`UnaryBlocks`] (one indirect call
//! per block), so they are compiled once per work type and output storage,
//! not once per operator.

use core::marker::PhantomData;
use core::mem::MaybeUninit;

use arrow_buffer::i256;

use crate::columns::in_place::InPlace;
use crate::columns::storage::Stored;
use crate::driver::copies::{Copies, binary_words_block, unary_words_block};
use crate::driver::kernel::{BinaryKernel, UnaryKernel};
use crate::int::work::Work;

/// One binary operator shape's loop over a block, and over single rows,
/// behind a trait object so the block driver is compiled once per work type.
///
/// # Safety
/// [`block`](Self::block) must write every slot of `out` when `a`, `b` and
/// `out` have the same length, and the words blocks likewise when they
/// return `Some`: the driver then treats the slots as initialized.
pub(crate) unsafe trait BinaryBlocks<W> {
    /// Computes `out[i]` from `a[i]` and `b[i]`; returns the OR of the flags.
    fn block(&self, a: &[W], b: &[W], out: &mut [MaybeUninit<W>]) -> u8;
    /// The same over `i128` values read and written as their 64-bit words,
    /// for a narrower work type (`None` for any other): money in
    /// `Decimal128` columns, computed without a conversion pass.
    fn block_of_i128_words(
        &self,
        a: &[[u64; 2]],
        b: &[[u64; 2]],
        out: &mut [MaybeUninit<[u64; 2]>],
    ) -> Option<u8>;
    /// The same over arrow `i256` values, for a narrower work type.
    fn block_of_i256_words(
        &self,
        a: &[[u64; 4]],
        b: &[[u64; 4]],
        out: &mut [MaybeUninit<[u64; 4]>],
    ) -> Option<u8>;
    /// One row's result and flags.
    fn row(&self, a: W, b: W) -> (W, u8);
}

/// [`BinaryBlocks`] for one operand.
///
/// # Safety
/// As for [`BinaryBlocks`]: every slot of `out` is written when `a` and
/// `out` have the same length (and a words block returns `Some`).
pub(crate) unsafe trait UnaryBlocks<W> {
    /// Computes `out[i]` from `a[i]`; returns the OR of the flags.
    fn block(&self, a: &[W], out: &mut [MaybeUninit<W>]) -> u8;
    /// The same over `i128` values as words, for a narrower work type.
    fn block_of_i128_words(&self, a: &[[u64; 2]], out: &mut [MaybeUninit<[u64; 2]>]) -> Option<u8>;
    /// The same over arrow `i256` values as words, for a narrower work type.
    fn block_of_i256_words(&self, a: &[[u64; 4]], out: &mut [MaybeUninit<[u64; 4]>]) -> Option<u8>;
    /// One row's result and flags.
    fn row(&self, a: W) -> (W, u8);
    /// [`UnaryKernel::SATURATED_LOADS`]: how the words of a row are loaded.
    fn saturated_loads(&self) -> bool;
}

/// Binary kernel `K` with its constants, run by the loop copies `C`.
pub(crate) struct BinaryLoops<W: Work, K: BinaryKernel<W>, C> {
    constants: K::Constants,
    copies: PhantomData<C>,
}

impl<W: Work, K: BinaryKernel<W>, C> BinaryLoops<W, K, C> {
    /// Kernel `K` with `constants`.
    pub(crate) fn new(constants: K::Constants) -> Self {
        Self { constants, copies: PhantomData }
    }
}

/// Unary kernel `K` with its constants, run by the loop copies `C`.
pub(crate) struct UnaryLoops<W: Work, K: UnaryKernel<W>, C> {
    constants: K::Constants,
    copies: PhantomData<C>,
}

impl<W: Work, K: UnaryKernel<W>, C> UnaryLoops<W, K, C> {
    /// Kernel `K` with `constants`.
    pub(crate) fn new(constants: K::Constants) -> Self {
        Self { constants, copies: PhantomData }
    }
}

// SAFETY: `block` runs `binary_loop` (in one of its copies), which writes
// every slot of `out` when the three slices have the same length (the zip
// visits each slot); the words blocks run `binary_words_loop`, alike, or
// return `None`.
unsafe impl<W: InPlace, K: BinaryKernel<W>, C: Copies> BinaryBlocks<W> for BinaryLoops<W, K, C> {
    fn block(&self, a: &[W], b: &[W], out: &mut [MaybeUninit<W>]) -> u8 {
        C::binary_block::<W, K>(a, b, out, &self.constants)
    }
    fn block_of_i128_words(
        &self,
        a: &[[u64; 2]],
        b: &[[u64; 2]],
        out: &mut [MaybeUninit<[u64; 2]>],
    ) -> Option<u8> {
        binary_words_block::<i128, W, K, C>(a, b, out, &self.constants)
    }
    fn block_of_i256_words(
        &self,
        a: &[[u64; 4]],
        b: &[[u64; 4]],
        out: &mut [MaybeUninit<[u64; 4]>],
    ) -> Option<u8> {
        binary_words_block::<i256, W, K, C>(a, b, out, &self.constants)
    }
    fn row(&self, a: W, b: W) -> (W, u8) {
        K::apply(a, b, &self.constants)
    }
}

// SAFETY: as for the binary kernels, with `unary_loop` and
// `unary_words_loop`, which zip `a` with `out`.
unsafe impl<W: InPlace, K: UnaryKernel<W>, C: Copies> UnaryBlocks<W> for UnaryLoops<W, K, C> {
    fn block(&self, a: &[W], out: &mut [MaybeUninit<W>]) -> u8 {
        C::unary_block::<W, K>(a, out, &self.constants)
    }
    fn block_of_i128_words(&self, a: &[[u64; 2]], out: &mut [MaybeUninit<[u64; 2]>]) -> Option<u8> {
        unary_words_block::<i128, W, K, C>(a, out, &self.constants)
    }
    fn block_of_i256_words(&self, a: &[[u64; 4]], out: &mut [MaybeUninit<[u64; 4]>]) -> Option<u8> {
        unary_words_block::<i256, W, K, C>(a, out, &self.constants)
    }
    fn row(&self, a: W) -> (W, u8) {
        K::apply(a, &self.constants)
    }
    fn saturated_loads(&self) -> bool {
        K::SATURATED_LOADS
    }
}

/// Storage wider than 64 bits, whose columns a narrower work type reads and
/// writes as 64-bit words: the kernel's words loop for this storage.
pub(crate) trait WordStorage: Stored {
    /// `kernel`'s block over two operands' words.
    fn binary_block<W>(
        kernel: &dyn BinaryBlocks<W>,
        a: &[Self::Words],
        b: &[Self::Words],
        out: &mut [MaybeUninit<Self::Words>],
    ) -> Option<u8>;
    /// `kernel`'s block over one operand's words.
    fn unary_block<W>(
        kernel: &dyn UnaryBlocks<W>,
        a: &[Self::Words],
        out: &mut [MaybeUninit<Self::Words>],
    ) -> Option<u8>;
}

impl WordStorage for i128 {
    fn binary_block<W>(
        kernel: &dyn BinaryBlocks<W>,
        a: &[[u64; 2]],
        b: &[[u64; 2]],
        out: &mut [MaybeUninit<[u64; 2]>],
    ) -> Option<u8> {
        kernel.block_of_i128_words(a, b, out)
    }
    fn unary_block<W>(
        kernel: &dyn UnaryBlocks<W>,
        a: &[[u64; 2]],
        out: &mut [MaybeUninit<[u64; 2]>],
    ) -> Option<u8> {
        kernel.block_of_i128_words(a, out)
    }
}

impl WordStorage for i256 {
    fn binary_block<W>(
        kernel: &dyn BinaryBlocks<W>,
        a: &[[u64; 4]],
        b: &[[u64; 4]],
        out: &mut [MaybeUninit<[u64; 4]>],
    ) -> Option<u8> {
        kernel.block_of_i256_words(a, b, out)
    }
    fn unary_block<W>(
        kernel: &dyn UnaryBlocks<W>,
        a: &[[u64; 4]],
        out: &mut [MaybeUninit<[u64; 4]>],
    ) -> Option<u8> {
        kernel.block_of_i256_words(a, out)
    }
}
