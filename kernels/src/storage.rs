//! The native integer types decimal values are stored in.

use arrow_buffer::{ArrowNativeType, i256};

use crate::work::Work;

/// A native integer type that holds decimal values in a buffer: `i8`, `i16`,
/// `i32`, `i64`, `i128` or arrow's `i256`.
pub trait Storage: ArrowNativeType + core::fmt::Debug {
    /// Loads a stored value into a work type (wrapping if the plan chose a
    /// work type narrower than the storage, which it only does for values
    /// known to fit).
    fn load<W: Work>(self) -> W;
    /// Stores a work value, keeping its low bits (a result always fits its
    /// storage once it passed the precision check; rows that failed it are
    /// nulled or abort the call, so their bits do not matter).
    fn store<W: Work>(value: W) -> Self;
    /// The bit length of the largest magnitude in `values`, so that every
    /// `|v| < 2^bits`.
    fn magnitude_bits(values: &[Self]) -> u32;
}

macro_rules! small_storage {
    ($($t:ty),*) => {$(
        impl Storage for $t {
            #[inline(always)]
            fn load<W: Work>(self) -> W {
                W::from_i64(i64::from(self))
            }
            #[inline(always)]
            fn store<W: Work>(value: W) -> Self {
                value.wrapping_to_i64() as $t
            }
            fn magnitude_bits(values: &[Self]) -> u32 {
                let any = values.iter().fold(0u64, |acc, v| acc | u64::from(v.unsigned_abs()));
                u64::BITS - any.leading_zeros()
            }
        }
    )*};
}
small_storage!(i8, i16, i32, i64);

impl Storage for i128 {
    #[inline(always)]
    fn load<W: Work>(self) -> W {
        W::from_i128(self)
    }
    #[inline(always)]
    fn store<W: Work>(value: W) -> Self {
        value.wrapping_to_i128()
    }
    fn magnitude_bits(values: &[Self]) -> u32 {
        let any = values.iter().fold(0u128, |acc, v| acc | v.unsigned_abs());
        u128::BITS - any.leading_zeros()
    }
}

impl Storage for i256 {
    #[inline(always)]
    fn load<W: Work>(self) -> W {
        W::from_i256(self)
    }
    #[inline(always)]
    fn store<W: Work>(value: W) -> Self {
        value.wrapping_to_i256()
    }
    fn magnitude_bits(values: &[Self]) -> u32 {
        let (low, high) = values.iter().fold((0u128, 0u128), |(low, high), v| {
            // `wrapping_abs(MIN)` is MIN itself, whose high word reads as 2^127:
            // the OR then reports 256 bits, which is the truth for |MIN| = 2^255
            // rounded up, and safe.
            let (l, h) = v.wrapping_abs().to_parts();
            (low | l, high | h as u128)
        });
        if high != 0 { 256 - high.leading_zeros() } else { 128 - low.leading_zeros() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magnitude_bits_bound_every_value() {
        assert_eq!(i64::magnitude_bits(&[]), 0);
        assert_eq!(i64::magnitude_bits(&[0, 0]), 0);
        assert_eq!(i64::magnitude_bits(&[-8, 3]), 4);
        assert_eq!(i64::magnitude_bits(&[i64::MIN]), 64);
        assert_eq!(i8::magnitude_bits(&[i8::MIN]), 8);
        assert_eq!(i128::magnitude_bits(&[i128::MIN, 1]), 128);
        assert_eq!(i256::magnitude_bits(&[i256::MIN]), 256);
        assert_eq!(i256::magnitude_bits(&[i256::MAX]), 255);
        assert_eq!(i256::magnitude_bits(&[i256::from_i128(-5)]), 3);
        assert_eq!(i256::magnitude_bits(&[i256::from_parts(0, 1)]), 129);
    }
}
