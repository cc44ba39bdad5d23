//! The native integer types decimal values are stored in.
//!
//! [`Storage`] is sealed: the six types of arrow-rs decimal buffers (`i8` …
//! `i128`, arrow's `i256`). What the kernels need of them lives in
//! crate-private traits: [`Sealed`] (the digits it holds, a column or output
//! vector of the type) and [`Stored`] (loading into a work type, storing back,
//! measuring magnitudes, reading as 64-bit words).

use arrow_buffer::{ArrowNativeType, ScalarBuffer, i256};

use core::mem::MaybeUninit;

use crate::columns::column::{Column, Sink, Slots};
use crate::int::work::Work;

/// A native integer type decimal values are stored in: `i8`, `i16`, `i32`,
/// `i64`, `i128` or arrow's `i256`. Sealed: the kernels are written for
/// exactly these.
///
/// ```
/// use decimal_kernels_native::Storage;
/// fn widest<S: Storage>() -> usize { size_of::<S>() }
/// assert_eq!(widest::<decimal_kernels_native::i256>(), 32);
/// ```
pub trait Storage: ArrowNativeType + core::fmt::Debug + sealed::Sealed {}

impl<S: ArrowNativeType + core::fmt::Debug + sealed::Sealed> Storage for S {}

pub(crate) mod sealed {
    /// The kernels' side of [`Storage`](super::Storage). Other crates can
    /// neither implement it nor call it: every item takes a [`Token`], which
    /// only this crate can make.
    pub trait Sealed: Sized + Copy {
        /// The most digits every value of the type holds.
        fn max_precision(token: Token) -> u8;
        /// A column of these values.
        fn column(values: &[Self], token: Token) -> super::Column<'_>;
        /// An output vector of these values.
        fn sink(values: &mut Vec<Self>, token: Token) -> super::Sink<'_>;
        /// Output slots of these values.
        fn slots(slots: &mut [core::mem::MaybeUninit<Self>], token: Token) -> super::Slots<'_>;
        /// The value widened to arrow's `i256`.
        fn widened(self, token: Token) -> arrow_buffer::i256;
    }

    /// Proof that a call comes from this crate.
    #[derive(Clone, Copy, Debug)]
    pub struct Token(pub(crate) ());
}

pub(crate) use sealed::{Sealed, Token};

impl<'a, S: Storage> From<&'a [S]> for Column<'a> {
    fn from(values: &'a [S]) -> Self {
        S::column(values, TOKEN)
    }
}

impl<'a, S: Storage> From<&'a Vec<S>> for Column<'a> {
    fn from(values: &'a Vec<S>) -> Self {
        S::column(values, TOKEN)
    }
}

impl<'a, S: Storage> From<&'a ScalarBuffer<S>> for Column<'a> {
    fn from(values: &'a ScalarBuffer<S>) -> Self {
        S::column(values, TOKEN)
    }
}

/// The token for calls into [`Sealed`].
pub(crate) const TOKEN: Token = Token(());

/// How stored values meet work types: loaded (wrapping when the work type is
/// narrower, which the plan allows only for values known to fit), stored
/// (keeping the low bits), measured, and read as 64-bit words.
pub(crate) trait Stored: Sealed + ArrowNativeType {
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

    /// The value as the 64-bit words of its memory image (`Self` for storage
    /// of at most 64 bits). A loop over words that reads only the low ones
    /// vectorizes as 64-bit lanes; one over `i128` or `i256` values loads
    /// and stores each value on its own.
    type Words: Copy;
    /// A column as word arrays: the same memory.
    fn as_words(values: &[Self]) -> &[Self::Words];
    /// Output slots as word-array slots: the same memory.
    fn word_slots(slots: &mut [MaybeUninit<Self>]) -> &mut [MaybeUninit<Self::Words>];
    /// [`load`](Self::load) from the words.
    fn load_words<W: Work>(words: Self::Words) -> W;
    /// [`load_words`](Self::load_words) for a plan that did not measure
    /// the values: the value when it fits `W`, otherwise `W::MAX`, which
    /// every precision check in `W` fails.
    fn load_words_saturated<W: Work>(words: Self::Words) -> W;
    /// [`store`](Self::store) as words.
    fn store_words<W: Work>(value: W) -> Self::Words;

    /// The column's values when it is stored as this type.
    fn of_column<'a>(column: &Column<'a>) -> Option<&'a [Self]>;
}

macro_rules! small_storage {
    ($($t:ty => $width:ident $digits:literal),*) => {$(
        impl Sealed for $t {
            fn max_precision(_: Token) -> u8 {
                $digits
            }
            fn column(values: &[Self], _: Token) -> Column<'_> {
                Column::$width(values)
            }
            fn sink(values: &mut Vec<Self>, _: Token) -> Sink<'_> {
                Sink::$width(values)
            }
            fn slots(slots: &mut [MaybeUninit<Self>], _: Token) -> Slots<'_> {
                Slots::$width(slots)
            }
            fn widened(self, _: Token) -> i256 {
                i256::from_i128(self.into())
            }
        }

        impl Stored for $t {
            #[inline(always)]
            fn load<W: Work>(self) -> W {
                W::from_i64(i64::from(self))
            }
            #[inline(always)]
            fn store<W: Work>(value: W) -> Self {
                value.wrapping_to_i64() as $t
            }
            type Words = Self;
            #[inline(always)]
            fn as_words(values: &[Self]) -> &[Self] {
                values
            }
            #[inline(always)]
            fn word_slots(slots: &mut [MaybeUninit<Self>]) -> &mut [MaybeUninit<Self>] {
                slots
            }
            #[inline(always)]
            fn load_words<W: Work>(words: Self) -> W {
                words.load()
            }
            #[inline(always)]
            fn load_words_saturated<W: Work>(words: Self) -> W {
                // Every work type holds 64 bits.
                words.load()
            }
            #[inline(always)]
            fn store_words<W: Work>(value: W) -> Self {
                Self::store(value)
            }
            #[inline(always)]
            fn magnitude_bits(values: &[Self]) -> u32 {
                let any = values.iter().fold(0, |acc, &v| acc | (v ^ (v >> (<$t>::BITS - 1))));
                <$t>::BITS - any.leading_zeros() + 1
            }
            fn of_column<'a>(column: &Column<'a>) -> Option<&'a [Self]> {
                match *column {
                    Column::$width(values) => Some(values),
                    _ => None,
                }
            }
        }
    )*};
}
small_storage!(i8 => I8 2, i16 => I16 4, i32 => I32 9, i64 => I64 18);

impl Sealed for i128 {
    fn max_precision(_: Token) -> u8 {
        38
    }
    fn column(values: &[Self], _: Token) -> Column<'_> {
        Column::I128(values)
    }
    fn sink(values: &mut Vec<Self>, _: Token) -> Sink<'_> {
        Sink::I128(values)
    }
    fn slots(slots: &mut [MaybeUninit<Self>], _: Token) -> Slots<'_> {
        Slots::I128(slots)
    }
    fn widened(self, _: Token) -> i256 {
        i256::from_i128(self)
    }
}

impl Stored for i128 {
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
        // Over pairs of words: the compiler vectorizes this form, not one
        // over `i128` values.
        let (low, high) = Self::as_words(values).iter().fold((0, 0), |(low, high), &words| {
            let [l, h] = u128_words(words);
            let sign = ((h as i64) >> 63) as u64;
            (low | (l ^ sign), high | (h ^ sign))
        });
        word_bits(&[low, high]) + 1
    }
    type Words = [u64; 2];
    #[inline(always)]
    fn as_words(values: &[Self]) -> &[[u64; 2]] {
        // SAFETY: `[u64; 2]` has the size of `i128`, an alignment no larger,
        // and every bit pattern is valid for both.
        unsafe { cast_slice(values) }
    }
    #[inline(always)]
    fn word_slots(slots: &mut [MaybeUninit<Self>]) -> &mut [MaybeUninit<[u64; 2]>] {
        // SAFETY: as for `as_words`; a slot written through either view
        // holds a valid value of both types.
        unsafe { cast_slice_mut(slots) }
    }
    #[inline(always)]
    fn load_words<W: Work>(words: [u64; 2]) -> W {
        W::from_i128(join(u128_words(words)) as i128)
    }
    #[inline(always)]
    fn load_words_saturated<W: Work>(words: [u64; 2]) -> W {
        if W::MAGNITUDE_BITS >= 127 {
            return Self::load_words(words);
        }
        // Into `i64`: the value fits when its high word is its low word's
        // sign, compared word by word (as 64-bit lanes).
        let [low, high] = u128_words(words);
        let low = low as i64;
        if high as i64 == low >> 63 { W::from_i64(low) } else { W::MAX }
    }
    #[inline(always)]
    fn of_column<'a>(column: &Column<'a>) -> Option<&'a [Self]> {
        match *column {
            Column::I128(values) => Some(values),
            _ => None,
        }
    }
    #[inline(always)]
    fn store_words<W: Work>(value: W) -> [u64; 2] {
        let v = value.wrapping_to_i128();
        u128_words([v as u64, (v >> 64) as u64])
    }
}

impl Sealed for i256 {
    fn max_precision(_: Token) -> u8 {
        76
    }
    fn column(values: &[Self], _: Token) -> Column<'_> {
        Column::I256(values)
    }
    fn sink(values: &mut Vec<Self>, _: Token) -> Sink<'_> {
        Sink::I256(values)
    }
    fn slots(slots: &mut [MaybeUninit<Self>], _: Token) -> Slots<'_> {
        Slots::I256(slots)
    }
    fn widened(self, _: Token) -> i256 {
        self
    }
}

impl Stored for i256 {
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
        // As for `i128`: over four words per value.
        let words = Self::as_words(values).iter().fold([0u64; 4], |acc, &words| {
            let parts = i256_words(words);
            let sign = ((parts[3] as i64) >> 63) as u64;
            core::array::from_fn(|i| acc[i] | (parts[i] ^ sign))
        });
        word_bits(&words) + 1
    }
    type Words = [u64; 4];
    #[inline(always)]
    fn as_words(values: &[Self]) -> &[[u64; 4]] {
        // SAFETY: `[u64; 4]` has the size of arrow's `i256` (two 128-bit
        // integers, `repr(C)`), an alignment no larger, and every bit pattern
        // is valid for both.
        unsafe { cast_slice(values) }
    }
    #[inline(always)]
    fn word_slots(slots: &mut [MaybeUninit<Self>]) -> &mut [MaybeUninit<[u64; 4]>] {
        // SAFETY: as for `as_words`; a slot written through either view
        // holds a valid value of both types.
        unsafe { cast_slice_mut(slots) }
    }
    #[inline(always)]
    fn load_words<W: Work>(words: [u64; 4]) -> W {
        let [w0, w1, w2, w3] = i256_words(words);
        W::from_i256(i256::from_parts(join([w0, w1]), join([w2, w3]) as i128))
    }
    #[inline(always)]
    fn load_words_saturated<W: Work>(words: [u64; 4]) -> W {
        let [w0, w1, w2, w3] = i256_words(words);
        let sign = |word: u64| ((word as i64) >> 63) as u64;
        if W::MAGNITUDE_BITS >= 255 {
            Self::load_words(words)
        } else if W::MAGNITUDE_BITS >= 127 {
            // Into `i128`: the two high words are the sign of the low half.
            let fits = w2 == sign(w1) && w3 == sign(w1);
            if fits { W::from_i128(join([w0, w1]) as i128) } else { W::MAX }
        } else {
            let fits = w1 == sign(w0) && w2 == sign(w0) && w3 == sign(w0);
            if fits { W::from_i64(w0 as i64) } else { W::MAX }
        }
    }
    #[inline(always)]
    fn of_column<'a>(column: &Column<'a>) -> Option<&'a [Self]> {
        match *column {
            Column::I256(values) => Some(values),
            _ => None,
        }
    }
    #[inline(always)]
    fn store_words<W: Work>(value: W) -> [u64; 4] {
        let (low, high) = value.wrapping_to_i256().to_parts();
        let high = high as u128;
        i256_words([low as u64, (low >> 64) as u64, high as u64, (high >> 64) as u64])
    }
}

/// A 128-bit integer's words from least significant to most, from or to
/// their order in memory (the same permutation both ways).
#[inline(always)]
fn u128_words([a, b]: [u64; 2]) -> [u64; 2] {
    if cfg!(target_endian = "little") { [a, b] } else { [b, a] }
}

/// The 128-bit integer of two words, least significant first.
#[inline(always)]
fn join([low, high]: [u64; 2]) -> u128 {
    (u128::from(high) << 64) | u128::from(low)
}

/// Arrow's `i256` words from least significant to most, from or to their
/// order in memory: the low 128-bit half first, each half in native order.
#[inline(always)]
fn i256_words([a, b, c, d]: [u64; 4]) -> [u64; 4] {
    let [a, b] = u128_words([a, b]);
    let [c, d] = u128_words([c, d]);
    [a, b, c, d]
}

/// Views a slice of `T` as a slice of `U`.
///
/// # Safety
/// Every bit pattern of a `T` must be a valid `U`.
#[inline(always)]
pub(crate) unsafe fn cast_slice<T, U>(values: &[T]) -> &[U] {
    const { assert!(size_of::<T>() == size_of::<U>() && align_of::<U>() <= align_of::<T>()) };
    // SAFETY: same size and no stricter alignment (checked above), so the
    // memory of `values` holds exactly `values.len()` aligned `U`s, valid by
    // the caller's guarantee, for the same lifetime.
    unsafe { core::slice::from_raw_parts(values.as_ptr().cast(), values.len()) }
}

/// Views a slice of maybe-uninitialized `T` as one of maybe-uninitialized
/// `U`.
///
/// # Safety
/// Every bit pattern of a `U` must be a valid `T` (what is written through
/// the view is later read as `T`).
#[inline(always)]
pub(crate) unsafe fn cast_slice_mut<T, U>(slots: &mut [MaybeUninit<T>]) -> &mut [MaybeUninit<U>] {
    const { assert!(size_of::<T>() == size_of::<U>() && align_of::<U>() <= align_of::<T>()) };
    // SAFETY: as in `cast_slice`; the view borrows `slots` exclusively.
    unsafe { core::slice::from_raw_parts_mut(slots.as_mut_ptr().cast(), slots.len()) }
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
    fn words_are_the_values_memory_image() {
        use ethnum::I256;
        for v in [i128::MIN, i128::MAX, -1, 0, 1, -(1 << 64), (1 << 64) - 1, i64::MIN.into()] {
            let words = i128::as_words(core::slice::from_ref(&v))[0];
            assert_eq!(i128::load_words::<i128>(words), v);
            assert_eq!(i128::load_words::<i64>(words), v as i64);
            assert_eq!(i128::store_words(v), words);
            assert_eq!(i128::store_words(v as i64), i128::as_words(&[i128::from(v as i64)])[0]);
        }
        let wide = [i256::MIN, i256::MAX, i256::from_parts(u128::MAX, 0), i256::from_i128(-3)];
        for v in wide {
            let words = i256::as_words(core::slice::from_ref(&v))[0];
            assert_eq!(i256::load_words::<I256>(words), v.load::<I256>());
            assert_eq!(i256::load_words::<i128>(words), v.as_i128());
            assert_eq!(i256::store_words(v.load::<I256>()), words);
            let low = i256::from_i128(v.as_i128());
            assert_eq!(i256::store_words(v.as_i128()), i256::as_words(&[low])[0]);
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
