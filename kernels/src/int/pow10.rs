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
    // Saturates (never wraps) for `k` near `u32::MAX`. The product is
    // positive, so the truncating cast is its floor: `f64::floor` is a
    // library call on the x86-64 baseline (no SSE4.1 `roundsd`), which every
    // call planned paid several times.
    ((f64::from(k) * core::f64::consts::LOG2_10) as u32).saturating_add(1)
}

/// `10^0` to `10^22` as doubles, each exact: `10^k = 2^k * 5^k` with
/// `5^k < 2^53` up to `k = 22`, and a decimal literal is the double nearest
/// it (so the value itself). The one source of an exact power of ten as a
/// double: `10f64.powi(k)` is not promised exact (its precision is
/// unspecified, and may differ by platform or optimization).
pub(crate) const EXACT_POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `10^k` as an exact double, for `k <= 22` ([`EXACT_POW10_F64`]); `None`
/// beyond, where no power of ten is a double.
#[must_use]
pub(crate) fn exact_pow10_f64(k: u32) -> Option<f64> {
    EXACT_POW10_F64.get(usize::try_from(k).ok()?).copied()
}

/// `10^k` as a double: exact for `k <= 22` (the table), beyond that the
/// table's last power times ten for each further digit (each product
/// correctly rounded: the nearest-ish double), and infinite past `10^308`.
#[must_use]
pub(crate) fn pow10_f64(k: u32) -> f64 {
    let last = EXACT_POW10_F64.len() - 1;
    exact_pow10_f64(k)
        .unwrap_or_else(|| (last..k.min(400) as usize).fold(EXACT_POW10_F64[last], |p, _| p * 10.0))
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

    /// Each table entry is the integer `10^k` converted exactly: the
    /// conversion from `u128` rounds to the nearest double, and the entry
    /// converts back to the same integer (so nothing was rounded away).
    #[test]
    fn the_float_table_holds_exact_powers() {
        for (k, &power) in EXACT_POW10_F64.iter().enumerate() {
            let k = u32::try_from(k).unwrap();
            let integer = 10u128.pow(k);
            assert_eq!(power.to_bits(), (integer as f64).to_bits(), "10^{k}");
            assert_eq!(power as u128, integer, "10^{k} round-trips");
            assert_eq!(power.fract(), 0.0);
            assert_eq!(exact_pow10_f64(k), Some(power));
            assert_eq!(pow10_f64(k).to_bits(), power.to_bits());
        }
        // 10^23 is not a double: the table stops at 10^22.
        assert_ne!(1e23 as u128, 10u128.pow(23));
        assert_eq!(exact_pow10_f64(23), None);
        assert_eq!(exact_pow10_f64(u32::MAX), None);
        // Beyond it, ten times the table's last power per digit, as before.
        let folded = |k: u32| (0..k).fold(1.0f64, |p, _| p * 10.0);
        for k in [23, 38, 76, 308, 309, 400] {
            assert_eq!(pow10_f64(k).to_bits(), folded(k).to_bits(), "10^{k}");
        }
        assert_eq!(pow10_f64(u32::MAX), f64::INFINITY);
    }

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
