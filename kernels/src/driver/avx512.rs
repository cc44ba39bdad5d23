//! The loops compiled for AVX-512 (x86-64 only), and the check that this
//! CPU runs them.
//!
//! Each function is a loop of `loops` under
//! `#[target_feature]`: 64-bit multiplies (`vpmullq`), 64-bit arithmetic
//! shifts and comparisons into mask registers vectorize.

use core::mem::MaybeUninit;

use crate::columns::storage::Stored;
use crate::driver::kernel::{BinaryKernel, CompareKernel, UnaryKernel, WordsCompareKernel};
use crate::driver::loops::{
    Shifts, binary_loop, binary_words_loop, compare_i128_words_loop,
    compare_i128_words_scalar_loop, compare_loop, compare_scalar_loop, unary_loop,
    unary_words_loop,
};
use crate::int::work::Work;

/// Whether this CPU runs the functions here: the features they are
/// compiled with.
pub(crate) fn available() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512dq")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("bmi2")
}

/// [`Stored::magnitude_bits`] compiled with AVX-512.
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
pub(crate) fn magnitude_bits<S: Stored>(values: &[S]) -> u32 {
    S::magnitude_bits(values)
}

/// The binary block loop compiled with AVX-512.
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
pub(crate) fn binary_block<W: Work, K: BinaryKernel<W>>(
    a: &[W],
    b: &[W],
    out: &mut [MaybeUninit<W>],
    c: &K::Constants,
) -> u8 {
    binary_loop::<W, K>(a, b, out, c)
}

/// The binary words loop compiled with AVX-512.
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
pub(crate) fn binary_words_block<S: Stored, W: Work, K: BinaryKernel<W>>(
    a: &[S::Words],
    b: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    c: &K::Constants,
) -> u8 {
    binary_words_loop::<S, W, K>(a, b, out, c)
}

/// The unary block loop compiled with AVX-512.
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
pub(crate) fn unary_block<W: Work, K: UnaryKernel<W>>(
    a: &[W],
    out: &mut [MaybeUninit<W>],
    c: &K::Constants,
) -> u8 {
    unary_loop::<W, K>(a, out, c)
}

/// The unary words loop compiled with AVX-512.
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
pub(crate) fn unary_words_block<S: Stored, W: Work, K: UnaryKernel<W>>(
    a: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    c: &K::Constants,
) -> u8 {
    unary_words_loop::<S, W, K>(a, out, c)
}

/// The comparison block loop compiled for AVX-512.
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
pub(crate) fn compare_block<W: Work, K: CompareKernel<W>>(
    a: &[W],
    b: &[W],
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) {
    compare_loop::<W, K, Shifts>(a, b, out, invert, c);
}

/// The comparison block loop against one value compiled for AVX-512.
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
pub(crate) fn compare_scalar_block<W: Work, K: CompareKernel<W>>(
    a: &[W],
    y: W,
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) {
    compare_scalar_loop::<W, K, Shifts>(a, y, out, invert, c);
}

/// The comparison loop over `i128` words compiled for AVX-512.
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
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
/// AVX-512.
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
pub(crate) fn compare_i128_words_scalar<K: CompareKernel<i64>>(
    a: &[[u64; 2]],
    y: i64,
    out: &mut [u64],
    invert: u64,
    c: &K::Constants,
) -> u64 {
    compare_i128_words_scalar_loop::<K, Shifts>(a, y, out, invert, c)
}
