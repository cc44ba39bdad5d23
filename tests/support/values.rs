//! The one generator of test values: deterministic (a seed gives the same
//! values on every run and machine), signed, and drawn from the kinds of value
//! an engine's columns hold, in proportions a test chooses, with null rows at
//! a chosen rate.

use arrow_buffer::i256;
use decimal_kernels::{DecimalArray, DecimalType, StorageWidth};

use super::types::{checked_column, max_stored, pow10, unchecked_column};

/// What kind of stored integer to draw for a column of `decimal(p, s)`. Every
/// kind but [`Kind::Zero`] and [`Kind::NativeExtreme`] comes with either sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Zero (a zero divisor).
    Zero,
    /// One unit of the last place (stored 1).
    Unit,
    /// The value 1 (stored `10^s`), or one unit where `10^s` does not fit.
    One,
    /// A rounding tie `5·10^k`: half the value 1 (`k = s - 1`) half the time,
    /// any `k < p` otherwise.
    Tie,
    /// Up to 8 digits, like amounts of money.
    Money,
    /// 1 to `⌈p/2⌉` digits: two of them multiply within the precision.
    Short,
    /// 1 to `p` digits, the number of digits uniform.
    Digits,
    /// 11 to 19 digits where the precision allows (else `p`): two of them
    /// multiply past 64 bits.
    WideProduct,
    /// Within 99 units of the precision bound (`10^p - 1`) or of the
    /// smallest `p`-digit value (`10^(p-1)`).
    NearBound,
    /// The largest magnitude of the precision, `10^p - 1` (overflows).
    Max,
    /// Beyond the precision, for unchecked columns only: the storage width's
    /// minimum, maximum and minimum + 1, `±10^p` where the width holds it, or
    /// any bits of the width.
    NativeExtreme,
}

/// The kinds a column is drawn from, with weights, and the rate of null rows.
#[derive(Clone, Copy, Debug)]
pub struct Mix<'a> {
    /// Each kind with its weight (a share of the sum of the weights).
    pub kinds: &'a [(Kind, u32)],
    /// Percent of rows that are null; a null row hides zero or the maximum,
    /// which must not matter.
    pub null_percent: u32,
}

/// A column's stored integers and validity, before they become an array.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stored {
    /// One stored integer per row (also under null rows).
    pub values: Vec<i256>,
    /// Whether each row is valid.
    pub valid: Vec<bool>,
}

impl Stored {
    /// The rows as a column checked against the precision, at `width`.
    #[track_caller]
    pub fn checked(&self, dtype: DecimalType, width: StorageWidth) -> DecimalArray {
        checked_column(dtype, &self.values, &self.valid, width)
    }

    /// The rows as an unchecked column at `width` (values beyond the
    /// precision kept).
    #[track_caller]
    pub fn unchecked(&self, dtype: DecimalType, width: StorageWidth) -> DecimalArray {
        unchecked_column(dtype, &self.values, &self.valid, width)
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.values.len()
    }
}

/// SplitMix64: small, fast, and the same everywhere.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose sequence `seed` fixes.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n).expect("usize fits u64");
        usize::try_from(self.next_u64() % n).expect("below a usize")
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = u64::try_from(hi - lo).expect("lo <= hi") + 1;
        lo + i64::try_from(self.next_u64() % span).expect("within the span")
    }

    /// True `percent` times in 100.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.next_u64() % 100 < u64::from(percent)
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A digit count in `lo..=hi`.
    fn digit_count(&mut self, lo: u8, hi: u8) -> u8 {
        u8::try_from(self.range(lo.into(), hi.into())).expect("a digit count")
    }

    /// A non-negative `i256` below `limit` (`limit > 0`).
    fn below_i256(&mut self, limit: i256) -> i256 {
        // Most limits are small: 64-bit arithmetic is much faster in a debug
        // build than 256-bit division.
        if let Some(small) = limit.to_i128().and_then(|l| u64::try_from(l).ok()) {
            return i256::from_i128((self.next_u64() % small).into());
        }
        let low = u128::from(self.next_u64()) | (u128::from(self.next_u64()) << 64);
        let high = i128::from(self.next_u64()) | (i128::from(self.next_u64() >> 1) << 64);
        i256::from_parts(low, high & i128::MAX).wrapping_rem(limit)
    }

    /// A value of exactly `digits` digits (`1 ≤ digits ≤ 76`).
    fn with_digits(&mut self, digits: u8) -> i256 {
        let first = pow10(digits - 1);
        let span = pow10(digits).wrapping_sub(first);
        first.wrapping_add(self.below_i256(span))
    }

    /// One stored integer of `kind` for a column of `dtype` at `width`.
    pub fn value(&mut self, dtype: DecimalType, width: StorageWidth, kind: Kind) -> i256 {
        let p = dtype.precision();
        let s = dtype.scale();
        let magnitude = match kind {
            Kind::Zero => return i256::ZERO,
            Kind::NativeExtreme => return self.native_extreme(dtype, width),
            Kind::Unit => i256::ONE,
            Kind::One => u8::try_from(s).ok().filter(|&s| s < p).map_or(i256::ONE, pow10),
            Kind::Tie => {
                let half_of_one = u8::try_from(s).ok().filter(|&s| (1..=p).contains(&s));
                let k = match half_of_one {
                    Some(s) if self.percent(50) => s - 1,
                    _ => self.digit_count(0, p - 1),
                };
                pow10(k).wrapping_mul(i256::from_i128(5))
            }
            Kind::Money => self.below_i256(pow10(p.min(8))),
            Kind::Short => {
                let most = p.div_ceil(2);
                let digits = self.digit_count(1, most);
                self.with_digits(digits)
            }
            Kind::Digits => {
                let digits = self.digit_count(1, p);
                self.with_digits(digits)
            }
            Kind::WideProduct => {
                let digits = if p < 11 { p } else { self.digit_count(11, p.min(19)) };
                self.with_digits(digits)
            }
            Kind::NearBound => {
                let offset = i256::from_i128(self.range(0, 99).into());
                let max = max_stored(dtype);
                if self.percent(50) {
                    max.wrapping_sub(offset).max(i256::ZERO)
                } else {
                    pow10(p - 1).wrapping_add(offset).min(max)
                }
            }
            Kind::Max => max_stored(dtype),
        };
        if self.percent(50) { magnitude.wrapping_neg() } else { magnitude }
    }

    /// A value beyond the precision that `width` holds.
    fn native_extreme(&mut self, dtype: DecimalType, width: StorageWidth) -> i256 {
        let (min, max) = native_range(width);
        let beyond = pow10(dtype.precision());
        let fits = |v: i256| (min..=max).contains(&v);
        match self.below(6) {
            0 => min,
            1 => max,
            2 => min.wrapping_add(i256::ONE),
            3 if fits(beyond) => beyond,
            4 if fits(beyond.wrapping_neg()) => beyond.wrapping_neg(),
            3 | 4 => max,
            _ => {
                let bits = self.below_i256(i256::MAX).wrapping_sub(self.below_i256(i256::MAX));
                wrap_to(bits, width)
            }
        }
    }

    /// One stored integer of a kind drawn from `mix` (validity aside).
    pub fn draw(&mut self, dtype: DecimalType, width: StorageWidth, mix: &Mix<'_>) -> i256 {
        if let [(kind, _)] = mix.kinds {
            return self.value(dtype, width, *kind);
        }
        let total: u32 = mix.kinds.iter().map(|&(_, weight)| weight).sum();
        let mut ticket = u32::try_from(self.below(usize::try_from(total).expect("a weight")))
            .expect("below the total weight");
        for &(kind, weight) in mix.kinds {
            if ticket < weight {
                return self.value(dtype, width, kind);
            }
            ticket -= weight;
        }
        unreachable!("a ticket below the total weight falls on a kind")
    }

    /// `rows` rows of `dtype` at `width` drawn from `mix`.
    pub fn rows(
        &mut self,
        dtype: DecimalType,
        width: StorageWidth,
        rows: usize,
        mix: &Mix<'_>,
    ) -> Stored {
        let mut stored =
            Stored { values: Vec::with_capacity(rows), valid: Vec::with_capacity(rows) };
        for _ in 0..rows {
            let valid = mix.null_percent == 0 || !self.percent(mix.null_percent);
            let value = if valid {
                self.draw(dtype, width, mix)
            } else {
                let hidden = if self.percent(50) { Kind::Zero } else { Kind::Max };
                self.value(dtype, width, hidden)
            };
            stored.values.push(value);
            stored.valid.push(valid);
        }
        stored
    }
}

/// The smallest and largest integer of `width`.
pub fn native_range(width: StorageWidth) -> (i256, i256) {
    let of = |min: i128, max: i128| (i256::from_i128(min), i256::from_i128(max));
    match width {
        StorageWidth::I8 => of(i8::MIN.into(), i8::MAX.into()),
        StorageWidth::I16 => of(i16::MIN.into(), i16::MAX.into()),
        StorageWidth::I32 => of(i32::MIN.into(), i32::MAX.into()),
        StorageWidth::I64 => of(i64::MIN.into(), i64::MAX.into()),
        StorageWidth::I128 => of(i128::MIN, i128::MAX),
        StorageWidth::I256 => (i256::MIN, i256::MAX),
    }
}

/// `v` truncated to `width`'s bits and sign-extended back.
fn wrap_to(v: i256, width: StorageWidth) -> i256 {
    let mut bytes = v.to_le_bytes();
    let kept = width.bytes();
    let fill = if bytes[kept - 1] & 0x80 == 0 { 0 } else { 0xff };
    for b in &mut bytes[kept..] {
        *b = fill;
    }
    i256::from_le_bytes(bytes)
}
