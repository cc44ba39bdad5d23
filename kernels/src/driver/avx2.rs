//! The loops compiled for x86-64-v3 (AVX2, FMA, BMI1, BMI2, LZCNT, MOVBE;
//! x86-64 only), and the check that this CPU runs them.
//!
//! Each function is a loop of `loops` under `#[target_feature]`: 256-bit
//! vectors of 64-bit lanes with 64-bit comparisons (`vpcmpgtq`), fused
//! multiply-adds for the floating-point estimates, and `mulx`, `lzcnt`
//! and flagless shifts in the scalar parts.

use core::mem::MaybeUninit;

use crate::columns::storage::Stored;
use crate::driver::kernel::{BinaryKernel, CompareKernel, UnaryKernel, WordsCompareKernel};
use crate::driver::loops::{
    Shifts, appended_i128_words_loop, binary_loop, binary_words_loop, compare_i128_words_loop,
    compare_i128_words_scalar_loop, compare_loop, compare_scalar_loop, unary_loop,
    unary_words_loop,
};
use crate::int::work::Work;

/// Whether this CPU runs the functions here: the features they are
/// compiled with.
pub(crate) fn available() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("fma")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("movbe")
}

/// [`Stored::magnitude_bits`] compiled for x86-64-v3.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn magnitude_bits<S: Stored>(values: &[S]) -> u32 {
    S::magnitude_bits(values)
}

/// The binary block loop compiled for x86-64-v3.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn binary_block<W: Work, K: BinaryKernel<W>>(
    a: &[W],
    b: &[W],
    out: &mut [MaybeUninit<W>],
    c: &K::Constants,
) -> u8 {
    binary_loop::<W, K>(a, b, out, c)
}

/// The binary words loop compiled for x86-64-v3.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn binary_words_block<S: Stored, W: Work, K: BinaryKernel<W>>(
    a: &[S::Words],
    b: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    c: &K::Constants,
) -> u8 {
    binary_words_loop::<S, W, K>(a, b, out, c)
}

/// The unary block loop compiled for x86-64-v3.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn unary_block<W: Work, K: UnaryKernel<W>>(
    a: &[W],
    out: &mut [MaybeUninit<W>],
    c: &K::Constants,
) -> u8 {
    unary_loop::<W, K>(a, out, c)
}

/// The unary words loop compiled for x86-64-v3.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn unary_words_block<S: Stored, W: Work, K: UnaryKernel<W>>(
    a: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    c: &K::Constants,
) -> u8 {
    unary_words_loop::<S, W, K>(a, out, c)
}

/// [`appended_i128_words_loop`] compiled for x86-64-v3.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn appended_i128_words(
    a: &[[u64; 2]],
    out: &mut [MaybeUninit<[u64; 2]>],
    factor: u64,
    limit: u64,
) -> u64 {
    appended_i128_words_loop(a, out, factor, limit)
}

/// The comparison block loop compiled for x86-64-v3.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn compare_block<W: Work, K: CompareKernel<W>>(
    a: &[W],
    b: &[W],
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) {
    compare_loop::<W, K, Shifts>(a, b, out, invert, c);
}

/// The comparison block loop against one value compiled for x86-64-v3.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn compare_scalar_block<W: Work, K: CompareKernel<W>>(
    a: &[W],
    y: W,
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) {
    compare_scalar_loop::<W, K, Shifts>(a, y, out, invert, c);
}

/// The comparison loop over `i128` words compiled for x86-64-v3.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn compare_i128_words<K: WordsCompareKernel>(
    a: &[[u64; 2]],
    b: &[[u64; 2]],
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) -> u64 {
    compare_i128_words_loop::<K, Shifts>(a, b, out, invert, c)
}

/// The comparison loop over `i128` words against one value, compiled for
/// x86-64-v3.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn compare_i128_words_scalar<K: CompareKernel<i64>>(
    a: &[[u64; 2]],
    y: i64,
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) -> u64 {
    compare_i128_words_scalar_loop::<K, Shifts>(a, y, out, invert, c)
}
