//! The benches' one source of values: a fixed-seed xorshift generator, so
//! that every run (criterion's, the paired timer's, and the instruction
//! counts of `benches/instructions`) sees the same columns.

// The including bench names its arrow major's `i256`.
use super::i256;

/// A deterministic generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `-(max-1)..=max-1`, never zero.
    pub fn nonzero_below(&mut self, max: u128) -> i128 {
        let wide = (u128::from(self.next()) << 64) | u128::from(self.next());
        let v = (wide % (max - 1)) as i128 + 1;
        if self.next() & 1 == 1 { -v } else { v }
    }

    /// A value of about `digits` digits (between 10^(digits-1) and 10^digits).
    pub fn digits(&mut self, digits: u32) -> i256 {
        let mut v = i256::from_i128(1 + (self.next() % 9) as i128);
        for _ in 1..digits {
            v = v
                .wrapping_mul(i256::from_i128(10))
                .wrapping_add(i256::from_i128((self.next() % 10) as i128));
        }
        if self.next() & 1 == 1 { v.wrapping_neg() } else { v }
    }
}
