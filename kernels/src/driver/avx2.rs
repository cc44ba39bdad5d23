//! The loops compiled for x86-64-v3 (AVX2, FMA, BMI1, BMI2, LZCNT, MOVBE;
//! x86-64 only), and the check that this CPU runs them.
//!
//! The loops of `loops` under `#[target_feature]`: 256-bit vectors of 64-bit
//! lanes with 64-bit comparisons (`vpcmpgtq`), fused multiply-adds for the
//! floating-point estimates, and `mulx`, `lzcnt` and flagless shifts in the
//! scalar parts.

use crate::driver::loops::BlockLoop;

/// Whether this CPU runs [`run`]: it has the features it is compiled with.
pub(crate) fn available() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("fma")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("movbe")
}

/// `block`'s loop compiled with x86-64-v3's features.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
pub(crate) fn run<L: BlockLoop>(block: L) -> L::Output {
    block.run()
}
