//! A kernel's loops over one block: each a plain zip over equal-length
//! slices, which the compiler vectorizes, the rows' flags ORed into one
//! byte, with no branch on a row's outcome. `copies` compiles them for the
//! build's target, for AVX2 and for AVX-512.

use core::mem::MaybeUninit;

use crate::columns::storage::Stored;
use crate::driver::kernel::{BinaryKernel, CompareKernel, UnaryKernel, WordsCompareKernel};
use crate::int::work::Work;

/// Computes one block with binary kernel `K`.
#[inline(always)]
pub(crate) fn binary_loop<W: Work, K: BinaryKernel<W>>(
    a: &[W],
    b: &[W],
    out: &mut [MaybeUninit<W>],
    c: &K::Constants,
) -> u8 {
    if K::WIDE_FLAGS {
        let mut any = 0u64;
        for ((slot, &x), &y) in out.iter_mut().zip(a).zip(b) {
            let (r, flags) = K::apply(x, y, c);
            any |= u64::from(flags);
            slot.write(r);
        }
        // An OR of bytes: nothing is lost.
        return any.to_le_bytes()[0];
    }
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

/// Tests one block of rows with comparison kernel `K`, 64 rows to an output
/// word (row `i` of a word in bit `i`), each word XOR-ed with `invert` (all
/// ones for the negated relation, zero otherwise); bits past the last row
/// are zero. `out` has a word for every 64 rows of `a` and `b` (equally
/// long), rounded up. Each word is a fixed-length inner loop with no branch,
/// which the compiler turns into vector comparisons and a mask move.
///
/// Each answer is shifted into its bit (a flag, a shift and an OR, with
/// no branch): packing them instead by ANDing a mask of all ones or zero
/// with a bit that moves one place per row let the compiler turn the
/// selection into a branch on the row's answer in the portable copy and
/// for `i128` in the AVX-512 one, which mispredicts on real data
/// (`Decimal64` `lt`, portable: 0.19x arrow-ord at 1M rows, 0.38x at 8,192;
/// shifted, 0.96x and 0.94x; the branch predictor had partly learnt the
/// repeated 8,192 rows of the benchmark, which once made the masks look
/// faster).
#[inline(always)]
pub(crate) fn compare_loop<W: Work, K: CompareKernel<W>, P: Packing>(
    a: &[W],
    b: &[W],
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) {
    let word = |a: &[W], b: &[W]| P::pack_pairs(a, b, |x, y| K::holds(x, y, c));
    let (mut a_words, mut b_words) = (a.chunks_exact(64), b.chunks_exact(64));
    let mut slots = out.iter_mut();
    // The rows first: a slot is taken only for a full word of rows.
    for ((a, b), slot) in (&mut a_words).zip(&mut b_words).zip(&mut slots) {
        *slot = word(a, b) ^ invert;
    }
    let (a, b) = (a_words.remainder(), b_words.remainder());
    if let Some(slot) = slots.next().filter(|_| !a.is_empty()) {
        // Only the rows there are: the bits past them stay zero.
        let rows = u64::MAX >> (64 - a.len().min(b.len()).max(1));
        *slot = (word(a, b) ^ invert) & rows;
    }
}

/// [`compare_loop`] with one value `y` on the right of every row, held in
/// a register: only the column is loaded.
#[inline(always)]
pub(crate) fn compare_scalar_loop<W: Work, K: CompareKernel<W>, P: Packing>(
    a: &[W],
    y: W,
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) {
    let word = |a: &[W]| P::pack(a, |x| K::holds(x, y, c));
    let mut a_words = a.chunks_exact(64);
    let mut slots = out.iter_mut();
    for (a, slot) in (&mut a_words).zip(&mut slots) {
        *slot = word(a) ^ invert;
    }
    let a = a_words.remainder();
    if let Some(slot) = slots.next().filter(|_| !a.is_empty()) {
        *slot = (word(a) ^ invert) & (u64::MAX >> (64 - a.len()));
    }
}

/// How a loop packs up to 64 answers into a word, the `i`-th in bit `i`.
pub(crate) trait Packing {
    /// The answers of `rows`.
    fn pack<T: Copy>(rows: &[T], answer: impl FnMut(T) -> bool) -> u64;

    /// The answers of the rows of `a` and `b` (equally long) taken in pairs.
    fn pack_pairs<T: Copy, U: Copy>(a: &[T], b: &[U], answer: impl FnMut(T, U) -> bool) -> u64;
}

/// Each answer shifted into its bit (see [`compare_loop`] for why not by
/// masks): the AVX2 and AVX-512 copies turn a word's 64 answers into vector
/// comparisons and mask moves.
pub(crate) struct Shifts;

impl Packing for Shifts {
    #[inline(always)]
    fn pack<T: Copy>(rows: &[T], answer: impl FnMut(T) -> bool) -> u64 {
        shifted(rows.iter().copied().map(answer))
    }

    #[inline(always)]
    fn pack_pairs<T: Copy, U: Copy>(a: &[T], b: &[U], mut answer: impl FnMut(T, U) -> bool) -> u64 {
        shifted(a.iter().zip(b).map(|(&x, &y)| answer(x, y)))
    }
}

/// Up to 64 answers, each shifted into its bit.
#[inline(always)]
fn shifted(answers: impl Iterator<Item = bool>) -> u64 {
    let mut bits = 0u64;
    for (i, answer) in answers.enumerate() {
        bits |= u64::from(answer) << i;
    }
    bits
}

/// Eight answers at a time as the bytes of a word (0 or 1 each), gathered
/// into eight bits by one multiply: byte `i` times
/// `2^7 + 2^14 + ... + 2^56` lands in bit `56 + i` and nowhere else at or
/// above bit 56, with no carry (no two byte and multiplier bit pairs meet).
/// For the portable copy: SSE2 has no 64-bit vector comparison nor a
/// per-lane shift, and the compiler turned [`Shifts`] into emulated
/// comparisons followed by two shifts and a blend per pair of rows (about
/// ten instructions a row); stored as bytes, each row's answer lands at a
/// fixed position (no shift by a register) and eight rows take one multiply
/// (`Decimal64` against a single value at 8,192 rows: 0.31 ns a row against
/// 0.92 shifted and 0.60 for a loop of arrow-ord's shape, on its own).
pub(crate) struct Bytes;

/// `sum(2^(7m))` for `m` in `1..=8`.
const GATHER: u64 = 0x0102_0408_1020_4080;

/// Eight answers stored as bytes, in bits 0 to 7.
#[inline(always)]
fn gathered(bytes: [u8; 8]) -> u64 {
    u64::from_le_bytes(bytes).wrapping_mul(GATHER) >> 56
}

impl Packing for Bytes {
    #[inline(always)]
    fn pack<T: Copy>(rows: &[T], mut answer: impl FnMut(T) -> bool) -> u64 {
        let mut bits = 0u64;
        for (k, eight) in rows.chunks(8).take(8).enumerate() {
            let mut bytes = [0u8; 8];
            for (byte, &x) in bytes.iter_mut().zip(eight) {
                *byte = u8::from(answer(x));
            }
            bits |= gathered(bytes) << (8 * k);
        }
        bits
    }

    #[inline(always)]
    fn pack_pairs<T: Copy, U: Copy>(a: &[T], b: &[U], mut answer: impl FnMut(T, U) -> bool) -> u64 {
        let mut bits = 0u64;
        for (k, (a, b)) in a.chunks(8).zip(b.chunks(8)).take(8).enumerate() {
            let mut bytes = [0u8; 8];
            for ((byte, &x), &y) in bytes.iter_mut().zip(a).zip(b) {
                *byte = u8::from(answer(x, y));
            }
            bits |= gathered(bytes) << (8 * k);
        }
        bits
    }
}

/// [`compare_loop`] over `i128` values read as their 64-bit words, each
/// row tested by `K` (in `i64` for values that fit it: the compiler loads
/// and deinterleaves whole vectors). Returns a mask with bit `j` set when a
/// row of output word `j` (null rows alike) is beyond what `K` tests
/// exactly: that word's answers are unspecified, for the caller to compute
/// again in `i128`. `out` has at most 64 words.
#[inline(always)]
pub(crate) fn compare_i128_words_loop<K: WordsCompareKernel, P: Packing>(
    a: &[[u64; 2]],
    b: &[[u64; 2]],
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) -> u64 {
    let word = |a: &[[u64; 2]], b: &[[u64; 2]]| {
        let mut wide = 0u64;
        let bits = P::pack_pairs(a, b, |x, y| {
            let (answer, beyond) = K::holds_words(x, y, c);
            wide |= beyond;
            answer
        });
        (bits, wide != 0)
    };
    let mut wide_words = 0u64;
    let (mut a_words, mut b_words) = (a.chunks_exact(64), b.chunks_exact(64));
    let mut slots = out.iter_mut().enumerate();
    for ((a, b), (j, slot)) in (&mut a_words).zip(&mut b_words).zip(&mut slots) {
        let (bits, wide) = word(a, b);
        *slot = bits ^ invert;
        wide_words |= u64::from(wide) << (j % 64);
    }
    let (a, b) = (a_words.remainder(), b_words.remainder());
    if let Some((j, slot)) = slots.next().filter(|_| !a.is_empty()) {
        let rows = u64::MAX >> (64 - a.len().min(b.len()).max(1));
        let (bits, wide) = word(a, b);
        *slot = (bits ^ invert) & rows;
        wide_words |= u64::from(wide) << (j % 64);
    }
    wide_words
}

/// [`compare_i128_words_loop`] with one value `y` on the right of every row:
/// only the column's words are loaded.
#[inline(always)]
pub(crate) fn compare_i128_words_scalar_loop<K: CompareKernel<i64>, P: Packing>(
    a: &[[u64; 2]],
    y: i64,
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) -> u64 {
    let word = |a: &[[u64; 2]]| {
        let mut wide = 0u64;
        let bits = P::pack(a, |[x_low, x_high]| {
            let x = x_low.cast_signed();
            wide |= x_high ^ (x >> 63).cast_unsigned();
            K::holds(x, y, c)
        });
        (bits, wide != 0)
    };
    let mut wide_words = 0u64;
    let mut a_words = a.chunks_exact(64);
    let mut slots = out.iter_mut().enumerate();
    for (a, (j, slot)) in (&mut a_words).zip(&mut slots) {
        let (bits, wide) = word(a);
        *slot = bits ^ invert;
        wide_words |= u64::from(wide) << (j % 64);
    }
    let a = a_words.remainder();
    if let Some((j, slot)) = slots.next().filter(|_| !a.is_empty()) {
        let (bits, wide) = word(a);
        *slot = (bits ^ invert) & (u64::MAX >> (64 - a.len()));
        wide_words |= u64::from(wide) << (j % 64);
    }
    wide_words
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

/// [`binary_words_loop`] for one operand; for a kernel with saturated
/// loads, a value beyond `W` is loaded as `W::MAX`.
#[inline(always)]
pub(crate) fn unary_words_loop<S: Stored, W: Work, K: UnaryKernel<W>>(
    a: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    c: &K::Constants,
) -> u8 {
    let mut any = 0;
    for (slot, &x) in out.iter_mut().zip(a) {
        let a = if K::SATURATED_LOADS { S::load_words_saturated(x) } else { S::load_words(x) };
        let (r, flags) = K::apply(a, c);
        any |= flags;
        slot.write(S::store_words(r));
    }
    any
}

/// Appended digits of `i128` values whose results have at most 18 digits,
/// over the values' 64-bit words, two rows a step: each result is the low
/// word times `factor` in `i64`, its high word the sign, and the loop
/// returns the OR of a non-zero word for every operand beyond
/// `|a| <= limit` (a high word that is not the low word's sign, or a low
/// word beyond the limit; null rows alike). Unlike a kernel's words loop it
/// keeps no flag byte per row and moves no word across a vector's halves: a
/// pair of rows is one AVX2 vector of 64-bit lanes. Writes every slot of
/// `out` when it is as long as `a`. `limit` is below `2^62`; the words of a
/// value are in little-endian order. Compiled where the AVX2 copy runs it,
/// and for tests on any little-endian target (aarch64's included).
#[cfg(all(target_endian = "little", any(target_arch = "x86_64", test)))]
#[inline(always)]
pub(crate) fn appended_i128_words_loop(
    a: &[[u64; 2]],
    out: &mut [MaybeUninit<[u64; 2]>],
    factor: u64,
    limit: u64,
) -> u64 {
    let span = limit.wrapping_add(limit);
    let row = |[low, high]: [u64; 2]| {
        let sign = ((low.cast_signed()) >> 63).cast_unsigned();
        let beyond = (high ^ sign) | u64::from(low.wrapping_add(limit) > span);
        let r = low.wrapping_mul(factor);
        ([r, (r.cast_signed() >> 63).cast_unsigned()], beyond)
    };
    let mut any = 0;
    let mut slots = out.chunks_exact_mut(2);
    let mut pairs = a.chunks_exact(2);
    for (slot, pair) in (&mut slots).zip(&mut pairs) {
        let ((r0, b0), (r1, b1)) = (row(pair[0]), row(pair[1]));
        any |= b0 | b1;
        slot[0].write(r0);
        slot[1].write(r1);
    }
    for (slot, &words) in slots.into_remainder().iter_mut().zip(pairs.remainder()) {
        let (r, beyond) = row(words);
        any |= beyond;
        slot.write(r);
    }
    any
}
