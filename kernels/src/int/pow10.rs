//! Powers of ten and their sizes in bits.
//!
//! Every width decision in the kernels is made in bits: a value known to satisfy
//! `|v| < 2^L` times `10^k` is below `2^(L + pow10_bits(k))`. Decimal precision
//! enters through [`precision_bits`], the bit length of the largest value of `p`
//! digits.

/// Bit length of `10^k`, so that `10^k < 2^pow10_bits(k)`.
///
/// `floor(k * log2(10)) + 1`; `k * log2(10)` is never an integer for `k >= 1`
/// and stays far enough from one for every `k` that `f64` resolves it exactly
/// (checked against exact powers up to `k = 400` in the tests).
#[must_use]
pub(crate) fn pow10_bits(k: u32) -> u32 {
    if k == 0 {
        return 1;
    }
    // Saturates (never wraps) for `k` near `u32::MAX`.
    ((f64::from(k) * core::f64::consts::LOG2_10).floor() as u32).saturating_add(1)
}

/// `10^k` as a double: exact for `k <= 22` (each step multiplies exact
/// values), the nearest-ish double beyond, and infinite past `10^308`.
#[must_use]
pub(crate) fn pow10_f64(k: u32) -> f64 {
    (0..k.min(400)).fold(1.0, |p, _| p * 10.0)
}

/// Bit length of `10^p - 1`, the largest magnitude of precision `p`: every valid
/// value of precision `p` satisfies `|v| < 2^precision_bits(p)`.
#[must_use]
pub(crate) fn precision_bits(p: u32) -> u32 {
    // 10^p is not a power of two for p >= 1, so 10^p - 1 has the same length.
    if p == 0 { 0 } else { pow10_bits(p) }
}

/// The largest `L` with `2^L <= 10^p`: a value below `2^L` never exceeds
/// `10^p - 1`, so a result bounded that way needs no precision check.
#[must_use]
pub(crate) fn bits_within_precision(p: u32) -> u32 {
    pow10_bits(p) - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn pow10_bits_match_exact_powers() {
        let mut p = BigUint::from(1u32);
        for k in 0..=400u32 {
            assert_eq!(u64::from(pow10_bits(k)), p.bits(), "10^{k}");
            let below = &p - 1u32;
            assert_eq!(u64::from(precision_bits(k)), below.bits(), "10^{k} - 1");
            let two_pow = BigUint::from(1u32) << bits_within_precision(k);
            assert!(k == 0 || two_pow <= p, "2^L <= 10^{k}");
            assert!(k == 0 || (two_pow << 1u32) > p, "L is the largest for 10^{k}");
            p *= 10u32;
        }
    }
}
