//! `I512`: a signed 512-bit integer that saturates, used as the exact slow path of the kernels.
//!
//! The fast kernels work on `i64`/`i128`/`I256` values and only fall back to this type
//! when an intermediate result could leave the native range: the full product of two 256-bit
//! operands, an operand rescaled by `10^k`, and the exact division of such values. 512 bits is
//! enough to hold a 256x256-bit product exactly, so in the cases the kernels care about nothing
//! is lost.
//!
//! # Representation
//!
//! Values are stored in sign-magnitude form: a sign flag plus eight little-endian `u64` limbs.
//! Sign-magnitude keeps multiplication and division simple (they work on magnitudes and fix the
//! sign afterwards) and makes the range symmetric, so negation and absolute value can never
//! overflow. Zero is always stored with the sign flag cleared, which keeps the derived
//! `PartialEq`/`Hash` consistent with numeric equality.
//!
//! # Saturation
//!
//! Any operation whose exact result has magnitude `>= 2^512` returns `2^512 - 1` with the sign of
//! the exact result. Decimal precision limits are far below `2^512`, so a caller that checks a
//! result against its type's limit sees a saturated value as an overflow; saturating instead of
//! wrapping guarantees that an out-of-range intermediate can never come back as a small,
//! plausible-looking number. Saturated values are not special afterwards: they take
//! part in further arithmetic as the ordinary number `±(2^512 - 1)`.
//!
//! # Division
//!
//! Long division follows Algorithm D ("Division of nonnegative integers") from D. E. Knuth,
//! *The Art of Computer Programming*, vol. 2, section 4.3.1, with base `2^64` limbs: the divisor
//! is normalized so its top limb has the high bit set, and each quotient limb is estimated from
//! the top limbs of the running remainder. Normalization bounds the estimate's error to 2, which
//! is corrected by a cheap test on three limbs and, rarely, by adding the divisor back once.
//!
//! No operation panics, whatever its inputs: there is no overflowing arithmetic, every index is
//! bounded by the fixed limb count, and division by zero returns a defined result.
//!
//! # Why not `bnum`
//!
//! Measured on 2026-12-04 on a shared 2-core AMD EPYC (Zen, AVX2): this type against the same
//! sign-magnitude saturating type built on `bnum`'s 512-bit unsigned integer (`checked_*` for the
//! saturating operations, one `div_rem` through its `numtraits` feature), both running the
//! kernels' row shapes over 1024 signed operands of 40 to 76 digits with half-up rounding, timed
//! round-robin (each round times one batch of every type in turn); `x` is a 512-bit product.
//! Median ns per row over six runs, by `bnum` version; each ratio is bnum / ours, the median of
//! per-round ratios, with its range over the runs:
//!
//! | case                     | ours | 0.14.4 | ratio            | 0.13.0 | ratio            |
//! |--------------------------|-----:|-------:|------------------|-------:|------------------|
//! | `a * b` (256 x 256 bits) |   45 |     29 | 0.65             |     29 | 0.64             |
//! | `round(a * b / 10^18)`   |  165 |    145 | 0.88 (0.87-0.91) |    102 | 0.62 (0.61-0.64) |
//! | `round(a * b / 10^38)`   |  201 |    207 | 1.03 (1.01-1.10) |    192 | 0.94 (0.92-1.01) |
//! | `round(a * b / 10^76)`   |  197 |    178 | 0.90 (0.87-0.94) |    166 | 0.84 (0.79-0.92) |
//! | `round(a * 10^38 / b)`   |  191 |    171 | 0.89 (0.88-0.95) |    155 | 0.80 (0.79-0.97) |
//! | `round(a * 10^76 / b)`   |  229 |    212 | 0.93 (0.91-1.00) |    214 | 0.94 (0.92-1.10) |
//! | `round(x / 10^18)`       |  114 |    114 | 0.99 (0.97-1.00) |     73 | 0.64 (0.62-0.66) |
//! | `round(x / 10^38)`       |  151 |    167 | 1.11 (1.10-1.21) |    157 | 1.03 (0.98-1.14) |
//! | `round(x / 10^76)`       |  148 |    143 | 0.96 (0.95-1.02) |    134 | 0.89 (0.83-1.02) |
//! | `a * 10^38`              |   39 |     34 | 0.85 (0.83-0.89) |     28 | 0.72 (0.70-0.75) |
//!
//! Both versions lose where the divisor has two limbs (`10^38`): 0.14.4 in every run, 0.13.0 in
//! the runs on a busier machine, which also cost it up to 10% on `a * 10^76 / b`. Division is what
//! this slow path exists for, so this type stays, and the kernels take no dependency for it.
//! `bnum`'s own signed `I512` is no substitute either: it is two's complement, so its range
//! `[-2^511, 2^511)` is neither symmetric nor as wide as `±(2^512 - 1)`, and with its saturating
//! methods it was nowhere faster than this type (0.99 to 1.22 times its time). The cases `bnum`
//! wins (one-limb divisors, the plain product) show where this implementation can improve.

use core::cmp::Ordering;
use core::num::{NonZeroU64, NonZeroU128};
use core::ops::Neg;

use ethnum::{I256, U256};

/// Number of 64-bit limbs in a magnitude.
const LIMBS: usize = 8;

/// Little-endian limbs of an unsigned 512-bit magnitude.
type Magnitude = [u64; LIMBS];

/// The largest magnitude, `2^512 - 1`, used as the saturated result.
const SATURATED: Magnitude = [u64::MAX; LIMBS];

/// Largest `k` with `10^k < 2^512`; `10^155` already needs 515 bits.
const MAX_EXACT_POW10: u32 = 154;

/// Largest `k` with `10^k <= u64::MAX`, the step size of [`I512::pow10`].
const MAX_U64_POW10: u32 = 19;

/// `10^0 ..= 10^19`, the powers of ten that fit in one limb.
const POW10_U64: [u64; MAX_U64_POW10 as usize + 1] = {
    let mut table = [1_u64; MAX_U64_POW10 as usize + 1];
    let mut i = 1;
    while i < table.len() {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// A signed 512-bit integer in sign-magnitude form whose arithmetic saturates at `±(2^512 - 1)`.
///
/// See the [module documentation](self) for why it exists and how it behaves at the edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct I512 {
    /// Sign flag; never set when the magnitude is zero.
    negative: bool,
    /// Absolute value as little-endian limbs.
    magnitude: Magnitude,
}

impl I512 {
    /// Zero.
    pub const ZERO: Self = Self { negative: false, magnitude: [0; LIMBS] };

    /// One.
    pub const ONE: Self = Self { negative: false, magnitude: [1, 0, 0, 0, 0, 0, 0, 0] };

    /// The largest value, `2^512 - 1`; also the result of any positive overflow.
    pub const MAX: Self = Self { negative: false, magnitude: SATURATED };

    /// The smallest value, `-(2^512 - 1)`; also the result of any negative overflow.
    #[cfg(test)]
    pub const MIN: Self = Self { negative: true, magnitude: SATURATED };

    /// Builds a value from a sign and a magnitude, clearing the sign of zero so that every number
    /// has exactly one representation.
    fn from_parts(negative: bool, magnitude: Magnitude) -> Self {
        Self { negative: negative && magnitude != [0; LIMBS], magnitude }
    }

    /// Converts an `i64` exactly (including `i64::MIN`, whose magnitude does not fit in `i64`).
    #[must_use]
    pub fn from_i64(v: i64) -> Self {
        let mut magnitude = [0; LIMBS];
        magnitude[0] = v.unsigned_abs();
        Self::from_parts(v < 0, magnitude)
    }

    /// Converts an `i128` exactly (including `i128::MIN`).
    #[must_use]
    pub fn from_i128(v: i128) -> Self {
        let (hi, lo) = split_u128(v.unsigned_abs());
        Self::from_parts(v < 0, [lo, hi, 0, 0, 0, 0, 0, 0])
    }

    /// Converts an `I256` exactly (including `I256::MIN`).
    #[must_use]
    pub fn from_i256(v: I256) -> Self {
        let (hi, lo) = v.unsigned_abs().into_words();
        let (limb_1, limb_0) = split_u128(lo);
        let (limb_3, limb_2) = split_u128(hi);
        Self::from_parts(v.is_negative(), [limb_0, limb_1, limb_2, limb_3, 0, 0, 0, 0])
    }

    /// Returns the value modulo `2^64` as a two's complement `i64`.
    ///
    /// Exact whenever the value fits in an `i64`; otherwise the high bits are dropped, like an
    /// `as` cast, rather than panicking.
    #[must_use]
    pub fn wrapping_to_i64(self) -> i64 {
        let low = self.magnitude[0];
        let bits = if self.negative { low.wrapping_neg() } else { low };
        // Reinterpreting the bits is the intended two's complement conversion.
        bits as i64
    }

    /// Returns the value modulo `2^128` as a two's complement `i128`.
    ///
    /// Exact whenever the value fits in an `i128`; otherwise the high bits are dropped.
    #[must_use]
    pub fn wrapping_to_i128(self) -> i128 {
        let low = join_u128(self.magnitude[1], self.magnitude[0]);
        let bits = if self.negative { low.wrapping_neg() } else { low };
        bits as i128
    }

    /// Returns the value modulo `2^256` as a two's complement `I256`.
    ///
    /// Exact whenever the value fits in an `I256`; otherwise the high bits are dropped.
    #[must_use]
    pub fn wrapping_to_i256(self) -> I256 {
        let lo = join_u128(self.magnitude[1], self.magnitude[0]);
        let hi = join_u128(self.magnitude[3], self.magnitude[2]);
        let low = U256::from_words(hi, lo);
        let bits = if self.negative { low.wrapping_neg() } else { low };
        bits.as_i256()
    }

    /// Returns `true` if the value is strictly less than zero.
    #[must_use]
    pub fn is_negative(self) -> bool {
        self.negative
    }

    /// Returns `true` if the value is zero.
    #[must_use]
    pub fn is_zero(self) -> bool {
        self.magnitude == [0; LIMBS]
    }

    /// Returns `true` if the value is odd (for either sign).
    #[must_use]
    pub fn is_odd(self) -> bool {
        self.magnitude[0] & 1 == 1
    }

    /// Returns `-self`. Never overflows because the range is symmetric; zero stays non-negative.
    #[must_use]
    pub fn neg(self) -> Self {
        Self::from_parts(!self.negative, self.magnitude)
    }

    /// Returns `|self|`. Never overflows because the range is symmetric.
    #[must_use]
    pub fn abs(self) -> Self {
        Self { negative: false, magnitude: self.magnitude }
    }

    /// Returns `self + rhs`, saturating to [`I512::MAX`] or [`I512::MIN`] on overflow.
    #[must_use]
    pub fn saturating_add(self, rhs: Self) -> Self {
        if self.negative == rhs.negative {
            // Same sign: magnitudes add and the sign is kept, so only this branch can overflow.
            let magnitude = mag_add(&self.magnitude, &rhs.magnitude).unwrap_or(SATURATED);
            Self::from_parts(self.negative, magnitude)
        } else if mag_cmp(&self.magnitude, &rhs.magnitude) == Ordering::Less {
            // Opposite signs: the larger magnitude wins, and the difference is always in range.
            Self::from_parts(rhs.negative, mag_sub(&rhs.magnitude, &self.magnitude))
        } else {
            Self::from_parts(self.negative, mag_sub(&self.magnitude, &rhs.magnitude))
        }
    }

    /// Returns `self - rhs`, saturating to [`I512::MAX`] or [`I512::MIN`] on overflow.
    #[must_use]
    pub fn saturating_sub(self, rhs: Self) -> Self {
        // Negation is exact, so this is the same as adding the negated operand.
        self.saturating_add(rhs.neg())
    }

    /// Returns `self * rhs`, saturating to [`I512::MAX`] or [`I512::MIN`] when the product needs
    /// more than 512 bits.
    #[must_use]
    pub fn saturating_mul(self, rhs: Self) -> Self {
        let magnitude = mag_mul(&self.magnitude, &rhs.magnitude).unwrap_or(SATURATED);
        Self::from_parts(self.negative != rhs.negative, magnitude)
    }

    /// Returns `10^k`, saturated to [`I512::MAX`] when `10^k >= 2^512` (that is, `k >= 155`).
    ///
    /// Multiplies by at most nine one-limb powers of ten, so it is cheap enough to call once per
    /// kernel invocation.
    #[must_use]
    pub fn pow10(k: u32) -> Self {
        if k > MAX_EXACT_POW10 {
            return Self::MAX;
        }
        let mut magnitude = Self::ONE.magnitude;
        let mut remaining = k;
        while remaining > 0 {
            let step = remaining.min(MAX_U64_POW10);
            let factor = POW10_U64.get(step as usize).copied().unwrap_or(1);
            // `k <= 154` keeps every partial power below `2^512`, so the carry is always zero;
            // saturating on a carry anyway keeps the function total.
            magnitude = match mul_small(&magnitude, factor) {
                (product, 0) => product,
                _ => SATURATED,
            };
            remaining -= step;
        }
        Self::from_parts(false, magnitude)
    }

    /// Truncating division: returns `(self / rhs, self % rhs)` with the semantics of Rust's `/`
    /// and `%` on signed integers.
    ///
    /// The quotient is rounded toward zero, and the remainder has the sign of `self` with
    /// `|remainder| < |rhs|`. Division by zero does not panic: it returns `(ZERO, self)`. The
    /// quotient's magnitude never exceeds `|self|`, so division never saturates; saturated
    /// operands are simply divided as the number `±(2^512 - 1)`.
    #[must_use]
    pub fn div_rem(self, rhs: Self) -> (Self, Self) {
        let (a, b) = (&self.magnitude, &rhs.magnitude);
        let (quotient, remainder) = if limb_len(b) <= 1 {
            // One-limb (or zero) divisor: short division, one u128 step per limb.
            let Some(divisor) = NonZeroU64::new(b[0]) else {
                return (Self::ZERO, self);
            };
            let (quotient, rem) = div_rem_small(a, divisor);
            let mut remainder = [0; LIMBS];
            remainder[0] = rem;
            (quotient, remainder)
        } else if mag_cmp(a, b) == Ordering::Less {
            // |self| < |rhs|: the quotient is zero and the dividend is the remainder.
            ([0; LIMBS], *a)
        } else {
            div_rem_long(a, b)
        };
        (
            Self::from_parts(self.negative != rhs.negative, quotient),
            Self::from_parts(self.negative, remainder),
        )
    }

    /// Compares `|self|` with `|rhs|`.
    #[must_use]
    #[cfg(test)]
    pub fn magnitude_cmp(self, rhs: Self) -> Ordering {
        mag_cmp(&self.magnitude, &rhs.magnitude)
    }

    /// Returns the number of significant bits of `|self|`, or 0 for zero.
    #[must_use]
    #[cfg(test)]
    pub fn bit_len(self) -> u32 {
        // Pair each limb with its bit offset rather than casting an index.
        (0_u32..)
            .step_by(64)
            .zip(self.magnitude)
            .filter(|&(_, limb)| limb != 0)
            .last()
            .map_or(0, |(offset, limb)| offset + (u64::BITS - limb.leading_zeros()))
    }
}

impl Neg for I512 {
    type Output = Self;

    fn neg(self) -> Self {
        Self::from_parts(!self.negative, self.magnitude)
    }
}

impl Ord for I512 {
    fn cmp(&self, other: &Self) -> Ordering {
        // Zero is never negative, so a sign mismatch always means a strict order.
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => mag_cmp(&self.magnitude, &other.magnitude),
            (true, true) => mag_cmp(&other.magnitude, &self.magnitude),
        }
    }
}

impl PartialOrd for I512 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Splits a `u128` into `(high, low)` limbs.
fn split_u128(v: u128) -> (u64, u64) {
    ((v >> 64) as u64, v as u64)
}

/// Joins `(high, low)` limbs into a `u128`.
fn join_u128(hi: u64, lo: u64) -> u128 {
    (u128::from(hi) << 64) | u128::from(lo)
}

/// Number of limbs up to and including the most significant non-zero one (0 for zero).
fn limb_len(a: &[u64]) -> usize {
    a.iter().rposition(|&limb| limb != 0).map_or(0, |top| top + 1)
}

/// Compares two magnitudes, most significant limb first.
fn mag_cmp(a: &Magnitude, b: &Magnitude) -> Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

/// Returns `a + b`, or `None` if the sum needs a ninth limb.
fn mag_add(a: &Magnitude, b: &Magnitude) -> Option<Magnitude> {
    let mut sum = [0; LIMBS];
    let mut carry = false;
    for ((out, &x), &y) in sum.iter_mut().zip(a).zip(b) {
        let (partial, carry_1) = x.overflowing_add(y);
        let (total, carry_2) = partial.overflowing_add(u64::from(carry));
        *out = total;
        carry = carry_1 || carry_2;
    }
    (!carry).then_some(sum)
}

/// Returns `a - b`; callers guarantee `a >= b`, so the final borrow is always zero.
fn mag_sub(a: &Magnitude, b: &Magnitude) -> Magnitude {
    let mut difference = [0; LIMBS];
    let mut borrow = false;
    for ((out, &x), &y) in difference.iter_mut().zip(a).zip(b) {
        let (partial, borrow_1) = x.overflowing_sub(y);
        let (total, borrow_2) = partial.overflowing_sub(u64::from(borrow));
        *out = total;
        borrow = borrow_1 || borrow_2;
    }
    difference
}

/// Schoolbook product `a * b`, or `None` if it needs more than eight limbs.
fn mag_mul(a: &Magnitude, b: &Magnitude) -> Option<Magnitude> {
    let mut product = [0_u64; 2 * LIMBS];
    for (i, &x) in a.iter().enumerate() {
        if x == 0 {
            continue;
        }
        let row = &mut product[i..=i + LIMBS];
        let mut carry = 0_u64;
        for (out, &y) in row.iter_mut().zip(b) {
            // (2^64-1)^2 + 2 * (2^64-1) == 2^128 - 1, so this cannot overflow.
            let t = u128::from(x) * u128::from(y) + u128::from(*out) + u128::from(carry);
            (carry, *out) = split_u128(t);
        }
        // Row `i` is the first to reach limb `i + LIMBS`, so it is still zero here.
        if let Some(top) = row.last_mut() {
            *top = carry;
        }
    }
    let (low, high) = product.split_at(LIMBS);
    if high.iter().any(|&limb| limb != 0) {
        return None;
    }
    low.try_into().ok()
}

/// Returns `a * m` as eight limbs plus the limb carried out of the top.
fn mul_small(a: &Magnitude, m: u64) -> (Magnitude, u64) {
    let mut product = [0; LIMBS];
    let mut carry = 0_u64;
    for (out, &x) in product.iter_mut().zip(a) {
        let t = u128::from(x) * u128::from(m) + u128::from(carry);
        (carry, *out) = split_u128(t);
    }
    (product, carry)
}

/// Short division of `a` by a one-limb divisor: returns the quotient and the remainder.
fn div_rem_small(a: &Magnitude, divisor: NonZeroU64) -> (Magnitude, u64) {
    let divisor = NonZeroU128::from(divisor);
    let mut quotient = [0; LIMBS];
    let mut rem = 0_u64;
    for (out, &x) in quotient.iter_mut().zip(a).rev() {
        // `rem < divisor`, so the quotient of this two-limb step fits in one limb.
        let current = join_u128(rem, x);
        *out = (current / divisor) as u64;
        rem = (current % divisor) as u64;
    }
    (quotient, rem)
}

/// Counters for the rare branches of Algorithm D, so tests can show that they are exercised.
#[cfg(test)]
mod trace {
    use std::cell::Cell;
    use std::thread::LocalKey;

    thread_local! {
        /// Times step D3 decremented a quotient estimate.
        pub(super) static QHAT_CORRECTIONS: Cell<u64> = const { Cell::new(0) };
        /// Times step D6 added the divisor back.
        pub(super) static ADD_BACKS: Cell<u64> = const { Cell::new(0) };
    }

    /// Increments one of the counters above.
    pub(super) fn bump(counter: &'static LocalKey<Cell<u64>>) {
        counter.with(|count| count.set(count.get() + 1));
    }
}

/// Knuth's Algorithm D (TAOCP vol. 2, 4.3.1) on base-`2^64` limbs.
///
/// Callers guarantee that the divisor `b` has at least two significant limbs and that `a >= b`,
/// so the dividend has at least as many limbs as the divisor. Returns `(quotient, remainder)`.
fn div_rem_long(a: &Magnitude, b: &Magnitude) -> (Magnitude, Magnitude) {
    const LIMB_MAX: u128 = u64::MAX as u128;

    let n = limb_len(b);
    let m = limb_len(a);
    if n < 2 || m < n {
        // Unreachable through `div_rem`; answer conservatively instead of indexing out of range.
        return ([0; LIMBS], *a);
    }

    // D1: shift both operands left so the divisor's top limb has its high bit set. This makes
    // the quotient estimate below at most 2 too large. The dividend gains a ninth limb for the
    // bits shifted out of its top. `checked_shr` yields `None` for a zero shift (a shift by 64),
    // which correctly means "no bits carried over".
    let shift = b[n - 1].leading_zeros();
    let shift_left = |src: &[u64], dst: &mut [u64]| {
        let mut carried = 0_u64;
        for (out, &limb) in dst.iter_mut().zip(src) {
            *out = (limb << shift) | carried;
            carried = limb.checked_shr(u64::BITS - shift).unwrap_or(0);
        }
        carried
    };
    let mut v = [0_u64; LIMBS];
    shift_left(b, &mut v);
    let mut u = [0_u64; LIMBS + 1];
    u[LIMBS] = shift_left(a, &mut u[..LIMBS]);

    let v_top = v[n - 1];
    let v_next = v[n - 2];
    let Some(v_top_nonzero) = NonZeroU128::new(u128::from(v_top)) else {
        // Impossible after normalization (the high bit is set); keeps the division total.
        return ([0; LIMBS], *a);
    };

    let mut quotient = [0_u64; LIMBS];
    // D2/D7: one quotient limb per position, most significant first. The window
    // `u[j..=j + n]` always holds a value smaller than `v * 2^64`.
    for j in (0..=m - n).rev() {
        // D3: estimate the quotient limb from the top two limbs of the window, then refine it
        // with the third limb. After this loop `qhat` is at most 1 too large.
        let top_two = join_u128(u[j + n], u[j + n - 1]);
        let mut qhat = top_two / v_top_nonzero;
        let mut rhat = top_two % v_top_nonzero;
        // Short-circuiting keeps `qhat * v_next` and `rhat << 64` inside u128: the product is
        // only formed once `qhat` fits in a limb, and `rhat` is below 2^64 whenever it is
        // shifted (the loop stops as soon as it is not).
        while qhat > LIMB_MAX
            || qhat * u128::from(v_next) > ((rhat << 64) | u128::from(u[j + n - 2]))
        {
            #[cfg(test)]
            trace::bump(&trace::QHAT_CORRECTIONS);
            qhat -= 1;
            rhat += u128::from(v_top);
            if rhat > LIMB_MAX {
                break;
            }
        }
        let mut q_digit = qhat as u64;

        // D4: subtract q_digit * v from the window.
        let window = &mut u[j..=j + n];
        let mut mul_carry = 0_u64;
        let mut borrow = false;
        for (out, &limb) in window.iter_mut().zip(&v[..n]) {
            let (carry, product) =
                split_u128(u128::from(q_digit) * u128::from(limb) + u128::from(mul_carry));
            mul_carry = carry;
            let (partial, borrow_1) = out.overflowing_sub(product);
            let (total, borrow_2) = partial.overflowing_sub(u64::from(borrow));
            *out = total;
            borrow = borrow_1 || borrow_2;
        }
        let went_negative = if let Some(top) = window.last_mut() {
            let (partial, borrow_1) = top.overflowing_sub(mul_carry);
            let (total, borrow_2) = partial.overflowing_sub(u64::from(borrow));
            *top = total;
            borrow_1 || borrow_2
        } else {
            false
        };

        // D5/D6: the estimate was one too large (probability about 2/2^64): add v back once.
        // The carry out of the top limb cancels the borrow from D4 and is dropped.
        if went_negative {
            #[cfg(test)]
            trace::bump(&trace::ADD_BACKS);
            q_digit = q_digit.wrapping_sub(1);
            let mut carry = false;
            for (out, &limb) in window.iter_mut().zip(&v[..n]) {
                let (partial, carry_1) = out.overflowing_add(limb);
                let (total, carry_2) = partial.overflowing_add(u64::from(carry));
                *out = total;
                carry = carry_1 || carry_2;
            }
            if let Some(top) = window.last_mut() {
                *top = top.wrapping_add(u64::from(carry));
            }
        }
        quotient[j] = q_digit;
    }

    // D8: the remainder is the low `n` limbs of `u`, shifted back right.
    let mut remainder = [0_u64; LIMBS];
    for ((out, &limb), &above) in remainder.iter_mut().zip(&u[..n]).zip(&u[1..=n]) {
        *out = (limb >> shift) | above.checked_shl(u64::BITS - shift).unwrap_or(0);
    }
    (quotient, remainder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::{BigInt, Sign};
    use num_traits::{One, Signed, Zero};
    use proptest::prelude::*;
    use rstest::rstest;

    /// `2^63`, the normalized top bit of a limb.
    const HIGH_BIT: u64 = 1 << 63;

    /// `2^512`, the first magnitude that saturates.
    fn limit() -> BigInt {
        BigInt::one() << 512
    }

    fn to_big(x: I512) -> BigInt {
        let bytes: Vec<u8> = x.magnitude.iter().flat_map(|limb| limb.to_le_bytes()).collect();
        let sign = if x.negative { Sign::Minus } else { Sign::Plus };
        BigInt::from_bytes_le(sign, &bytes)
    }

    #[track_caller]
    fn from_big(v: &BigInt) -> I512 {
        let digits: Vec<u64> = v.magnitude().iter_u64_digits().collect();
        assert!(digits.len() <= LIMBS, "{v} does not fit in 512 bits");
        let mut magnitude = [0; LIMBS];
        magnitude[..digits.len()].copy_from_slice(&digits);
        I512::from_parts(v.is_negative(), magnitude)
    }

    fn i256_to_big(v: I256) -> BigInt {
        BigInt::from_signed_bytes_le(&v.to_le_bytes())
    }

    /// The result `I512` must produce for an exact result `v`.
    fn saturate(v: BigInt) -> BigInt {
        if v.abs() < limit() {
            v
        } else if v.is_negative() {
            BigInt::one() - limit()
        } else {
            limit() - BigInt::one()
        }
    }

    /// `v` modulo `2^bits`, mapped to the two's complement range.
    fn wrap(v: &BigInt, bits: u32) -> BigInt {
        let modulus = BigInt::one() << bits;
        let reduced = ((v % &modulus) + &modulus) % &modulus;
        if reduced >= (BigInt::one() << (bits - 1)) { reduced - modulus } else { reduced }
    }

    fn pow2(k: u32) -> I512 {
        from_big(&(BigInt::one() << k))
    }

    fn limbs(negative: bool, magnitude: Magnitude) -> I512 {
        I512::from_parts(negative, magnitude)
    }

    #[track_caller]
    fn assert_value(actual: I512, expected: &BigInt) {
        assert!(!(actual.negative && actual.is_zero()), "negative zero: {actual:?}");
        let actual_big = to_big(actual);
        assert_eq!(&actual_big, expected, "I512 is {actual_big} ({actual:?}), expected {expected}");
    }

    #[track_caller]
    fn check_add_sub(a: I512, b: I512) {
        let (x, y) = (to_big(a), to_big(b));
        assert_value(a.saturating_add(b), &saturate(&x + &y));
        assert_value(b.saturating_add(a), &saturate(&x + &y));
        assert_value(a.saturating_sub(b), &saturate(&x - &y));
        assert_value(b.saturating_sub(a), &saturate(&y - &x));
    }

    #[track_caller]
    fn check_mul(a: I512, b: I512) {
        let exact = to_big(a) * to_big(b);
        assert_value(a.saturating_mul(b), &saturate(exact.clone()));
        assert_value(b.saturating_mul(a), &saturate(exact));
    }

    #[track_caller]
    fn check_div_rem(a: I512, b: I512) {
        let (q, r) = a.div_rem(b);
        if b.is_zero() {
            assert_eq!((q, r), (I512::ZERO, a), "division of {a:?} by zero");
            return;
        }
        let (x, y) = (to_big(a), to_big(b));
        // num-bigint's `/` and `%` truncate toward zero, exactly like Rust's primitives.
        assert_value(q, &(&x / &y));
        assert_value(r, &(&x % &y));
        assert_eq!(r.magnitude_cmp(b), Ordering::Less, "|remainder| must be below |divisor|");
    }

    #[track_caller]
    fn check_wrapping(x: I512) {
        let v = to_big(x);
        assert_eq!(BigInt::from(x.wrapping_to_i64()), wrap(&v, 64), "i64 of {v}");
        assert_eq!(BigInt::from(x.wrapping_to_i128()), wrap(&v, 128), "i128 of {v}");
        assert_eq!(i256_to_big(x.wrapping_to_i256()), wrap(&v, 256), "I256 of {v}");
    }

    fn add_backs() -> u64 {
        trace::ADD_BACKS.with(std::cell::Cell::get)
    }

    fn qhat_corrections() -> u64 {
        trace::QHAT_CORRECTIONS.with(std::cell::Cell::get)
    }

    #[test]
    fn constants_have_their_documented_values() {
        assert_value(I512::ZERO, &BigInt::zero());
        assert_value(I512::ONE, &BigInt::one());
        assert_value(I512::MAX, &(limit() - 1));
        assert_value(I512::MIN, &(BigInt::one() - limit()));
        assert_eq!(-I512::MAX, I512::MIN);
        assert_eq!(I512::MIN.abs(), I512::MAX);
        assert!(I512::MIN < I512::ZERO && I512::ZERO < I512::ONE && I512::ONE < I512::MAX);
    }

    #[test]
    fn zero_is_never_negative() {
        assert!(!(-I512::ZERO).is_negative());
        assert!(!I512::ZERO.neg().is_negative());
        assert!(!I512::from_i64(-5).saturating_add(I512::from_i64(5)).is_negative());
        assert!(!I512::MIN.saturating_mul(I512::ZERO).is_negative());
        assert!(!I512::from_i64(-3).div_rem(I512::from_i64(4)).0.is_negative());
        assert!(!I512::from_i64(-8).div_rem(I512::from_i64(4)).1.is_negative());
        assert_eq!(I512::from_i128(0), I512::ZERO);
        assert_eq!(I512::from_i256(I256::ZERO), I512::ZERO);
    }

    #[rstest]
    #[case::zero(0, false, 0)]
    #[case::one(1, true, 1)]
    #[case::minus_one(-1, true, 1)]
    #[case::minus_two(-2, false, 2)]
    #[case::i64_min(i64::MIN, false, 64)]
    #[case::i64_max(i64::MAX, true, 63)]
    fn from_i64_round_trips(#[case] v: i64, #[case] odd: bool, #[case] bits: u32) {
        let x = I512::from_i64(v);
        assert_value(x, &BigInt::from(v));
        assert_eq!(x.wrapping_to_i64(), v);
        assert_eq!(x.wrapping_to_i128(), i128::from(v));
        assert_eq!(x.wrapping_to_i256(), I256::from(v));
        assert_eq!(x.is_negative(), v < 0);
        assert_eq!(x.is_zero(), v == 0);
        assert_eq!(x.is_odd(), odd);
        assert_eq!(x.bit_len(), bits);
    }

    #[rstest]
    #[case::zero(0)]
    #[case::minus_one(-1)]
    #[case::i64_min_minus_one(i128::from(i64::MIN) - 1)]
    #[case::two_pow_64(1 << 64)]
    #[case::i128_min(i128::MIN)]
    #[case::i128_max(i128::MAX)]
    fn from_i128_round_trips(#[case] v: i128) {
        let x = I512::from_i128(v);
        assert_value(x, &BigInt::from(v));
        assert_eq!(x.wrapping_to_i128(), v);
        assert_eq!(x.wrapping_to_i256(), I256::from(v));
        check_wrapping(x);
    }

    #[rstest]
    #[case::zero(I256::ZERO)]
    #[case::minus_one(I256::MINUS_ONE)]
    #[case::i128_min(I256::from(i128::MIN))]
    #[case::i128_max_plus_one(I256::from(i128::MAX) + 1)]
    #[case::minus_two_pow_192(-I256::from_words(1 << 64, 0))]
    #[case::i256_min(I256::MIN)]
    #[case::i256_max(I256::MAX)]
    fn from_i256_round_trips(#[case] v: I256) {
        let x = I512::from_i256(v);
        assert_value(x, &i256_to_big(v));
        assert_eq!(x.wrapping_to_i256(), v);
        check_wrapping(x);
    }

    #[rstest]
    #[case::max(I512::MAX, -1, -1)]
    #[case::min(I512::MIN, 1, 1)]
    #[case::two_pow_511(pow2(511), 0, 0)]
    #[case::minus_two_pow_64(-pow2(64), 0, -(1 << 64))]
    #[case::i64_max_plus_one(I512::from_i128(1 << 63), i64::MIN, 1 << 63)]
    #[case::two_pow_256_plus_five(pow2(256).saturating_add(I512::from_i64(5)), 5, 5)]
    fn wrapping_conversions_keep_the_low_bits(
        #[case] x: I512,
        #[case] as_i64: i64,
        #[case] as_i128: i128,
    ) {
        assert_eq!(x.wrapping_to_i64(), as_i64);
        assert_eq!(x.wrapping_to_i128(), as_i128);
        check_wrapping(x);
    }

    #[rstest]
    #[case::zero(I512::ZERO, 0)]
    #[case::two_pow_64(pow2(64), 65)]
    #[case::two_pow_511(pow2(511), 512)]
    #[case::minus_two_pow_511(-pow2(511), 512)]
    #[case::max(I512::MAX, 512)]
    fn bit_len_counts_significant_bits(#[case] x: I512, #[case] bits: u32) {
        assert_eq!(x.bit_len(), bits);
        assert_eq!(u64::from(bits), to_big(x).bits());
    }

    #[rstest]
    #[case::zero_plus_zero(I512::ZERO, I512::ZERO, false)]
    #[case::one_minus_one(I512::ONE, -I512::ONE, false)]
    #[case::carry_through_every_limb(I512::MAX.saturating_sub(I512::ONE), I512::ONE, false)]
    #[case::borrow_through_every_limb(pow2(511), -I512::ONE, false)]
    #[case::two_pow_511_doubled(pow2(511), pow2(511), true)]
    #[case::minus_two_pow_511_doubled(-pow2(511), -pow2(511), true)]
    #[case::max_plus_one(I512::MAX, I512::ONE, true)]
    #[case::min_minus_one(I512::MIN, -I512::ONE, true)]
    #[case::max_plus_max(I512::MAX, I512::MAX, true)]
    #[case::min_plus_min(I512::MIN, I512::MIN, true)]
    #[case::max_plus_min(I512::MAX, I512::MIN, false)]
    fn add_matches_oracle(#[case] a: I512, #[case] b: I512, #[case] saturates: bool) {
        assert_eq!((to_big(a) + to_big(b)).abs() >= limit(), saturates);
        check_add_sub(a, b);
    }

    #[rstest]
    #[case::min_i256_times_min_i256(I512::from_i256(I256::MIN), I512::from_i256(I256::MIN), false)]
    #[case::min_i256_times_max_i256(I512::from_i256(I256::MIN), I512::from_i256(I256::MAX), false)]
    #[case::max_i256_times_max_i256(I512::from_i256(I256::MAX), I512::from_i256(I256::MAX), false)]
    #[case::full_256_bit_magnitudes(pow2(256).saturating_sub(I512::ONE), pow2(256).neg(), false)]
    #[case::two_pow_256_squared(pow2(256), pow2(256), true)]
    #[case::two_pow_511_times_two(pow2(511), I512::from_i64(2), true)]
    #[case::two_pow_511_times_minus_two(pow2(511), I512::from_i64(-2), true)]
    #[case::two_pow_511_times_minus_one(pow2(511), -I512::ONE, false)]
    #[case::max_times_max(I512::MAX, I512::MAX, true)]
    #[case::min_times_max(I512::MIN, I512::MAX, true)]
    #[case::min_times_min(I512::MIN, I512::MIN, true)]
    #[case::max_times_one(I512::MAX, I512::ONE, false)]
    #[case::min_times_zero(I512::MIN, I512::ZERO, false)]
    #[case::minus_one_times_zero(-I512::ONE, I512::ZERO, false)]
    fn mul_matches_oracle(#[case] a: I512, #[case] b: I512, #[case] saturates: bool) {
        assert_eq!((to_big(a) * to_big(b)).abs() >= limit(), saturates);
        check_mul(a, b);
    }

    #[test]
    fn saturated_values_keep_their_sign_and_stay_ordinary_numbers() {
        let two = I512::from_i64(2);
        assert_eq!(I512::MAX.saturating_add(I512::ONE), I512::MAX);
        assert_eq!(I512::MIN.saturating_sub(I512::ONE), I512::MIN);
        assert_eq!(I512::MAX.saturating_mul(two), I512::MAX);
        assert_eq!(I512::MAX.saturating_mul(-two), I512::MIN);
        assert_eq!(I512::MIN.saturating_mul(-two), I512::MAX);
        // Saturating again from a saturated value gives the same value back.
        assert_eq!(I512::MAX.saturating_add(I512::MAX).saturating_mul(two), I512::MAX);
        // After saturating, the result is simply the number 2^512 - 1.
        assert_value(I512::MAX.saturating_add(I512::ONE).saturating_sub(I512::ONE), &(limit() - 2));
        assert_eq!(I512::MIN.saturating_sub(I512::ONE).saturating_add(I512::MAX), I512::ZERO);
        assert_eq!(I512::MAX.div_rem(two), (pow2(511).saturating_sub(I512::ONE), I512::ONE));
    }

    #[rstest]
    #[case::k0(0)]
    #[case::k1(1)]
    #[case::k19(19)]
    #[case::k20(20)]
    #[case::k38(38)]
    #[case::k76(76)]
    #[case::k154(154)]
    fn pow10_is_exact_below_2_pow_512(#[case] k: u32) {
        assert_value(I512::pow10(k), &BigInt::from(10).pow(k));
    }

    #[rstest]
    #[case::k155(155)]
    #[case::k156(156)]
    #[case::k1000(1000)]
    #[case::u32_max(u32::MAX)]
    fn pow10_saturates_from_155(#[case] k: u32) {
        assert!(BigInt::from(10).pow(k.min(1000)) >= limit());
        assert_eq!(I512::pow10(k), I512::MAX);
    }

    #[test]
    fn pow10_matches_oracle_for_every_small_exponent() {
        for k in 0..=200 {
            assert_value(I512::pow10(k), &saturate(BigInt::from(10).pow(k)));
        }
    }

    #[rstest]
    #[case::by_one(I512::from_i64(-12_345), I512::ONE)]
    #[case::by_minus_one(I512::MAX, -I512::ONE)]
    #[case::min_by_minus_one(I512::MIN, -I512::ONE)]
    #[case::max_by_max(I512::MAX, I512::MAX)]
    #[case::max_by_min(I512::MAX, I512::MIN)]
    #[case::zero_by_multi_limb(I512::ZERO, pow2(300))]
    #[case::one_limb_divisor(I512::MAX, I512::from_i64(10))]
    #[case::one_limb_divisor_negative(I512::MIN, I512::from_i64(-7))]
    #[case::one_limb_divisor_top_bit(I512::pow10(150), I512::from_i128(i128::from(u64::MAX)))]
    #[case::two_limb_divisor(I512::MAX, I512::from_i128(i128::MAX))]
    #[case::two_limb_divisor_normalized(-I512::MAX, limbs(true, [5, HIGH_BIT, 0, 0, 0, 0, 0, 0]))]
    #[case::multi_limb_power_of_ten(I512::pow10(154), I512::pow10(77).saturating_add(I512::ONE))]
    #[case::multi_limb_unnormalized(I512::pow10(150).saturating_add(I512::ONE), pow2(200).neg())]
    #[case::eight_limb_divisor(I512::MAX, pow2(511).saturating_add(I512::from_i64(3)))]
    #[case::quotient_has_top_limb(I512::MAX, pow2(64).saturating_add(I512::ONE))]
    #[case::dividend_smaller(I512::from_i256(I256::MAX), pow2(300))]
    #[case::negative_dividend_smaller(I512::from_i256(I256::MIN), pow2(300))]
    #[case::equal_magnitudes_opposite_signs(pow2(300).neg(), pow2(300))]
    fn div_rem_matches_oracle(#[case] a: I512, #[case] b: I512) {
        check_div_rem(a, b);
    }

    #[rstest]
    #[case::pos_by_pos(7, 2, 3, 1)]
    #[case::neg_by_pos(-7, 2, -3, -1)]
    #[case::pos_by_neg(7, -2, -3, 1)]
    #[case::neg_by_neg(-7, -2, 3, -1)]
    #[case::exact_negative(-8, 2, -4, 0)]
    #[case::smaller_negative_dividend(-1, 2, 0, -1)]
    fn div_rem_signs_follow_rust(#[case] a: i64, #[case] b: i64, #[case] q: i64, #[case] r: i64) {
        assert_eq!((a / b, a % b), (q, r), "the case table itself must agree with Rust");
        let expected = (I512::from_i64(q), I512::from_i64(r));
        assert_eq!(I512::from_i64(a).div_rem(I512::from_i64(b)), expected);
        // Scaling both operands by 2^200 scales only the remainder and sends the division
        // through the multi-limb path, which must apply the same sign rules.
        let scale = pow2(200);
        let scaled = |v: i64| I512::from_i64(v).saturating_mul(scale);
        assert_eq!(scaled(a).div_rem(scaled(b)), (expected.0, scaled(r)));
    }

    #[rstest]
    #[case::zero(I512::ZERO)]
    #[case::one(I512::ONE)]
    #[case::negative(I512::from_i64(-42))]
    #[case::max(I512::MAX)]
    #[case::min(I512::MIN)]
    fn division_by_zero_returns_zero_and_the_dividend(#[case] a: I512) {
        assert_eq!(a.div_rem(I512::ZERO), (I512::ZERO, a));
    }

    /// Step D3 lowers the first estimate twice: with `v = [2^64 - 2, 2^63]` (already normalized)
    /// and top dividend limbs `[2^63 - 1, 0]`, the estimate is `floor((2^63 - 1) * 2^64 / 2^63)
    /// = 2^64 - 2`, while the true quotient limb is `2^64 - 4`, the largest error normalization
    /// allows. Both corrections come from the three-limb test, so no add-back is needed.
    #[test]
    fn algorithm_d_corrects_an_estimate_that_is_two_too_large() {
        let a = limbs(false, [0, 0, HIGH_BIT - 1, 0, 0, 0, 0, 0]);
        let b = limbs(false, [u64::MAX - 1, HIGH_BIT, 0, 0, 0, 0, 0, 0]);
        let (corrections, backs) = (qhat_corrections(), add_backs());
        check_div_rem(a, b);
        assert_eq!(qhat_corrections() - corrections, 2);
        assert_eq!(add_backs() - backs, 0);
        assert_eq!(a.div_rem(b).0, I512::from_i128(i128::from(u64::MAX - 3)));
    }

    /// Step D6 (add back) is reached with the dividend `[0, 0, 2^63, 2^63 - 1]` and divisor
    /// `[1, 0, 2^63]` (little-endian, both already normalized). For the low quotient limb the
    /// estimate from the top two limbs is `((2^63 - 1) * 2^64 + 2^63) / 2^63 = 2^64 - 1` with
    /// remainder 0, and the three-limb test `(2^64 - 1) * 0 > 0` does not fire; but the full
    /// product `(2^64 - 1) * v` exceeds the window by `2^64 - 1`, so D4 goes negative and the
    /// divisor must be added back, giving `2^64 - 2`.
    #[rstest]
    #[case::positive(false, false)]
    #[case::negative_dividend(true, false)]
    #[case::negative_divisor(false, true)]
    #[case::both_negative(true, true)]
    fn algorithm_d_add_back_step_is_reached(#[case] a_negative: bool, #[case] b_negative: bool) {
        let a = limbs(a_negative, [0, 0, HIGH_BIT, HIGH_BIT - 1, 0, 0, 0, 0]);
        let b = limbs(b_negative, [1, 0, HIGH_BIT, 0, 0, 0, 0, 0]);
        let backs = add_backs();
        check_div_rem(a, b);
        assert_eq!(add_backs() - backs, 1);
        assert_eq!(a.div_rem(b).0.abs(), I512::from_i128(i128::from(u64::MAX - 1)));
    }

    /// The add-back situation above moved into the top limbs (both operands times `2^256`, with
    /// `2^63` as the low divisor limb, which the argument above allows), then shifted right so
    /// that normalization has to shift it back. The first quotient limb is 0 and the second
    /// needs exactly one add-back, whose carry out of the window cancels the D4 borrow.
    #[rstest]
    #[case::normalized(0)]
    #[case::shifted_one_bit(1)]
    #[case::shifted_63_bits(63)]
    fn algorithm_d_add_back_in_the_top_limbs(#[case] shift: u32) {
        let shr = |x: I512| {
            let shifted = from_big(&(to_big(x.abs()) >> shift));
            if x.is_negative() { -shifted } else { shifted }
        };
        let a = shr(limbs(false, [7, 0, 0, 0, 0, 0, HIGH_BIT, HIGH_BIT - 1]));
        let b = shr(limbs(true, [0, 0, 0, 0, HIGH_BIT, 0, HIGH_BIT, 0]));
        let backs = add_backs();
        check_div_rem(a, b);
        assert_eq!(add_backs() - backs, 1);
    }

    #[rstest]
    #[case::zero_vs_one(I512::ZERO, I512::ONE)]
    #[case::zero_vs_minus_one(I512::ZERO, -I512::ONE)]
    #[case::min_vs_max(I512::MIN, I512::MAX)]
    #[case::high_limb_decides(pow2(448), pow2(447).saturating_mul(I512::from_i64(3)))]
    #[case::negatives_reverse(-pow2(300), -pow2(299))]
    fn ordering_matches_oracle(#[case] a: I512, #[case] b: I512) {
        assert_eq!(a.cmp(&b), to_big(a).cmp(&to_big(b)));
        assert_eq!(b.cmp(&a), to_big(b).cmp(&to_big(a)));
        assert_eq!(a.magnitude_cmp(b), to_big(a).abs().cmp(&to_big(b).abs()));
        assert_eq!(a.cmp(&a), Ordering::Equal);
    }

    /// Limbs biased toward the values that exercise carries, borrows and Algorithm D's rare
    /// branches. A selector mapped onto special values keeps the value tree much smaller than
    /// `prop_oneof!` (whose per-arm trees overflowed the 2 MiB test-thread stack in debug).
    fn limb() -> impl Strategy<Value = u64> {
        (0_u8..12, any::<u64>()).prop_map(|(kind, random)| match kind {
            0 => 0,
            1 => u64::MAX,
            2 => HIGH_BIT,
            3 => HIGH_BIT - 1,
            4 => random % 4,
            _ => random,
        })
    }

    /// A value from random limbs, keeping only the lowest `len` of them.
    fn truncated(negative: bool, len: usize, mut magnitude: Magnitude) -> I512 {
        magnitude.iter_mut().skip(len).for_each(|limb| *limb = 0);
        I512::from_parts(negative, magnitude)
    }

    /// Values of 0 to 8 significant limbs with a random sign.
    fn any_i512() -> impl Strategy<Value = I512> {
        (any::<bool>(), 0..=LIMBS, prop::array::uniform8(limb()))
            .prop_map(|(negative, len, magnitude)| truncated(negative, len, magnitude))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn prop_add_sub_match_oracle(a in any_i512(), b in any_i512()) {
            check_add_sub(a, b);
        }

        #[test]
        fn prop_mul_matches_oracle(a in any_i512(), b in any_i512()) {
            check_mul(a, b);
        }

        #[test]
        fn prop_div_rem_matches_oracle(a in any_i512(), b in any_i512()) {
            check_div_rem(a, b);
        }

        #[test]
        fn prop_div_rem_recovers_a_constructed_quotient(
            b_len in 1..LIMBS,
            (q_negative, q_limbs) in (any::<bool>(), prop::array::uniform8(limb())),
            (b_negative, b_limbs) in (any::<bool>(), prop::array::uniform8(limb())),
            r_seed in any_i512(),
        ) {
            let q = truncated(q_negative, LIMBS - b_len, q_limbs);
            let b = truncated(b_negative, b_len, b_limbs);
            // a = q * b + r with |r| < |b| and r signed like q * b, so the quotient often has
            // many limbs (random pairs mostly give small quotients). With at most 8 limbs
            // between q and b, |a| < (|q| + 1) * |b| <= 2^512, so nothing saturates.
            let b = if b.is_zero() { I512::ONE } else { b };
            let product = q.saturating_mul(b);
            let r = r_seed.div_rem(b).1.abs();
            let r = if product.is_negative() { -r } else { r };
            let a = product.saturating_add(r);
            check_div_rem(a, b);
            let (quotient, remainder) = a.div_rem(b);
            prop_assert_eq!(quotient, q);
            prop_assert_eq!(remainder, r);
        }

        #[test]
        fn prop_wrapping_conversions_match_oracle(x in any_i512()) {
            check_wrapping(x);
        }

        #[test]
        fn prop_ordering_matches_oracle(a in any_i512(), b in any_i512()) {
            let (x, y) = (to_big(a), to_big(b));
            prop_assert_eq!(a.cmp(&b), x.cmp(&y));
            prop_assert_eq!(a.partial_cmp(&b), Some(x.cmp(&y)));
            prop_assert_eq!(a.magnitude_cmp(b), x.abs().cmp(&y.abs()));
            prop_assert_eq!(a == b, x == y);
        }

        #[test]
        fn prop_unary_operations_match_oracle(x in any_i512()) {
            let v = to_big(x);
            assert_value(x.neg(), &-&v);
            assert_value(-x, &-&v);
            assert_value(x.abs(), &v.abs());
            prop_assert_eq!(u64::from(x.bit_len()), v.bits());
            prop_assert_eq!(x.is_odd(), v.magnitude().bit(0));
            prop_assert_eq!(x.is_negative(), v.is_negative());
            prop_assert_eq!(x.is_zero(), v.is_zero());
            prop_assert_eq!(from_big(&v), x);
        }
    }
}
