//! The native integer types decimal values are stored in.

use arrow_buffer::{ArrowNativeType, ToByteSlice, i256};

use crate::work::Work;

/// A native integer type that holds decimal values in a buffer: `i8`, `i16`,
/// `i32`, `i64`, `i128` or arrow's `i256`.
pub trait Storage: ArrowNativeType + core::fmt::Debug {
    /// The narrowest work type holding every stored value.
    type Native: Work;
    /// Loads a stored value into a work type (wrapping if the plan chose a
    /// work type narrower than the storage, which it only does for values
    /// known to fit).
    fn load<W: Work>(self) -> W;
    /// Stores a work value, keeping its low bits (a result always fits its
    /// storage once it passed the precision check; rows that failed it are
    /// nulled or abort the call, so their bits do not matter).
    fn store<W: Work>(value: W) -> Self;
    /// A bound `L` with `|v| < 2^L` for every value, from one vectorizable
    /// pass: the OR of the values' one's-complement magnitudes (`v ^ (v >> n)`,
    /// which is `|v|` or `|v| - 1`) has the bit length of the largest of them,
    /// and one bit more covers the `- 1`.
    fn magnitude_bits(values: &[Self]) -> u32;
}

macro_rules! small_storage {
    ($($t:ty),*) => {$(
        impl Storage for $t {
            type Native = i64;
            #[inline(always)]
            fn load<W: Work>(self) -> W {
                W::from_i64(i64::from(self))
            }
            #[inline(always)]
            fn store<W: Work>(value: W) -> Self {
                value.wrapping_to_i64() as $t
            }
            #[inline(always)]
            fn magnitude_bits(values: &[Self]) -> u32 {
                let any = values.iter().fold(0, |acc, &v| acc | (v ^ (v >> (<$t>::BITS - 1))));
                <$t>::BITS - any.leading_zeros() + 1
            }
        }
    )*};
}
small_storage!(i8, i16, i32, i64);

impl Storage for i128 {
    type Native = i128;
    #[inline(always)]
    fn load<W: Work>(self) -> W {
        W::from_i128(self)
    }
    #[inline(always)]
    fn store<W: Work>(value: W) -> Self {
        value.wrapping_to_i128()
    }
    #[inline(always)]
    fn magnitude_bits(values: &[Self]) -> u32 {
        // Over the little-endian bytes, as pairs of 64-bit words: the compiler
        // vectorizes this form, not one over `i128` values.
        let (words, _) = values.to_byte_slice().as_chunks::<16>();
        let (low, high) = words.iter().fold((0u64, 0u64), |(low, high), v| {
            let (l, h) = v.split_at(8);
            let l = u64::from_le_bytes(l.try_into().unwrap_or_default());
            let h = i64::from_le_bytes(h.try_into().unwrap_or_default());
            let sign = h >> 63;
            (low | (l ^ sign as u64), high | (h ^ sign) as u64)
        });
        word_bits(&[low, high]) + 1
    }
}

impl Storage for i256 {
    type Native = ethnum::I256;
    #[inline(always)]
    fn load<W: Work>(self) -> W {
        W::from_i256(self)
    }
    #[inline(always)]
    fn store<W: Work>(value: W) -> Self {
        value.wrapping_to_i256()
    }
    #[inline(always)]
    fn magnitude_bits(values: &[Self]) -> u32 {
        // As for `i128`: over the bytes, as four 64-bit words per value.
        let (values, _) = values.to_byte_slice().as_chunks::<32>();
        let words = values.iter().fold([0u64; 4], |acc, v| {
            let (words, _) = v.as_chunks::<8>();
            let parts: [u64; 4] =
                core::array::from_fn(|i| words.get(i).map_or(0, |w| u64::from_le_bytes(*w)));
            let sign = ((parts[3] as i64) >> 63) as u64;
            core::array::from_fn(|i| acc[i] | (parts[i] ^ sign))
        });
        word_bits(&words) + 1
    }
}

/// The bit length of a little-endian multi-word magnitude.
fn word_bits(words: &[u64]) -> u32 {
    words
        .iter()
        .enumerate()
        .rev()
        .find(|(_, w)| **w != 0)
        .map_or(0, |(i, w)| 64 * i as u32 + (u64::BITS - w.leading_zeros()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magnitude_bits_bound_every_value_strictly() {
        for v in [i64::MIN + 1, -(1 << 40), -(1 << 40) - 1, (1 << 40) - 1, 1 << 40, -1, 1, 0] {
            let bits = i64::magnitude_bits(&[v]);
            assert!(u128::from(v.unsigned_abs()) < 1u128 << bits, "{v}: {bits}");
            assert!(
                bits <= 1 || u128::from(v.unsigned_abs()) >= 1u128 << (bits - 2),
                "{v}: {bits} is loose"
            );
        }
    }

    #[test]
    fn magnitude_bits_examples() {
        // One bit above the largest magnitude's length, at most.
        assert_eq!(i64::magnitude_bits(&[]), 1);
        assert_eq!(i64::magnitude_bits(&[0, 0]), 1);
        assert_eq!(i64::magnitude_bits(&[-8, 3]), 4);
        assert_eq!(i64::magnitude_bits(&[-9, 3]), 5);
        assert_eq!(i64::magnitude_bits(&[i64::MIN]), 64);
        assert_eq!(i64::magnitude_bits(&[i64::MAX]), 64);
        assert_eq!(i8::magnitude_bits(&[i8::MIN]), 8);
        assert_eq!(i128::magnitude_bits(&[i128::MIN, 1]), 128);
        assert_eq!(i128::magnitude_bits(&[-(1 << 70)]), 71);
        assert_eq!(i256::magnitude_bits(&[i256::MIN]), 256);
        assert_eq!(i256::magnitude_bits(&[i256::MAX]), 256);
        assert_eq!(i256::magnitude_bits(&[i256::from_i128(-5)]), 4);
        assert_eq!(i256::magnitude_bits(&[i256::from_parts(0, 1)]), 130);
    }
}
