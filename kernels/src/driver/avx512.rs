//! The loops compiled for AVX-512 (x86-64 only), and the check that this
//! CPU runs them.
//!
//! The loops of `loops` under `#[target_feature]`: 64-bit multiplies
//! (`vpmullq`), 64-bit arithmetic shifts and comparisons into mask registers
//! vectorize.

use crate::driver::loops::BlockLoop;

/// Whether this CPU runs [`run`]: it has the features it is compiled with.
pub(crate) fn available() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512dq")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("bmi2")
}

/// `block`'s loop compiled with AVX-512.
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
pub(crate) fn run<L: BlockLoop>(block: L) -> L::Output {
    block.run()
}
