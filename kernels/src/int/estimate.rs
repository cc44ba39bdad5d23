//! Division of 64-bit integers by a double-precision estimate, exact after
//! correction, with no hardware divide: the form of a quotient row that
//! vectorizes where `i64` ↔ `f64` conversions and 64-bit multiplies do. A
//! hardware `idiv` takes about ten cycles per row and never vectorizes.
//! AVX-512DQ converts in one instruction per vector ([`Instructions`]);
//! AVX2 has no such instruction, and [`ExponentBits`] converts there with
//! integer and float adds on the bits (the two halves of 32 bits of a wide
//! value placed in the mantissas of `2^84` and `2^52`, after the well-known
//! "magic number" conversions). Which copy of the loops uses which, and
//! why, is measured where the kernels choose (`ops::shared::division`,
//! `ops::mul`).
//!
//! For `|n| < 2^63`, `0 < |d| < 2^61` and `inv = 1 / f64(d)`:
//!
//! ```text
//! q = trunc(f64(n) * inv)        // |q - n/d| <= |n/d| * 2^-51 + 1
//! r = n - q*d                    // exact: |r| <= |n| * 2^-51 + |d| < 2^62
//! e = round(f64(r) * inv)        // r/d within 2^-39 of its estimate
//! q += e, r -= e*d               // q within 0.5 + 2^-39 of n/d
//! one step of q toward a remainder with n's sign and |r| < |d|
//! ```
//!
//! Each estimate carries three roundings (of `n` or `r`, of `1/d`, of the
//! product), a relative error below `2^-51`. After the second step `q` is
//! within less than one of `n / d`, so within one of its truncation, which
//! the last, branch-free step reaches.
//!
//! The same steps divide a product `n = a * b` of two `i64` that may need up
//! to 126 bits, when `|n / d| < 2^63 - 1` and `0 < d < 2^50`
//! ([`div_rem_product`]): the first estimate is `f64(a) * f64(b) * inv`
//! (five roundings, relative error below `2^-50.6`, so `|q - n/d| < 2^12.5`
//! even where the estimate is clamped below `2^63`), and `r = n - q*d`,
//! below `2^62.5` in magnitude, is exact from the low 64 bits of `a * b` and
//! of `q * d` alone (two's complement arithmetic modulo `2^64`). The
//! truncated quotient is then at most `2^63 - 2`, so a rounding step away
//! from zero stays within `i64`. A money column times a rate (products of 65 to 126 bits rounded
//! to a few digits fewer) so runs in 64-bit lanes.

/// Divisors must stay below this magnitude: the first remainder, up to
/// `2^12 + |d|`, must fit `i64` with room for the correction.
pub(crate) const DIVISOR_BITS: u32 = 61;

/// `1 / d` for a divisor `0 < |d| < 2^61`, converted by `C`.
#[inline(always)]
#[must_use]
pub(crate) fn inverse<C: Conversion>(d: i64) -> f64 {
    1.0 / C::to_f64(d)
}

/// Truncating quotient and remainder of `n / d` from `inverse = 1 / d`, for
/// `|n| < 2^63` and `0 < |d| < 2^61`; equal to `(n / d, n % d)`. `C` says
/// how the loop converts between `i64` and `f64`.
#[inline(always)]
#[must_use]
pub(crate) fn div_rem<C: Conversion>(n: i64, d: i64, inverse: f64) -> (i64, i64) {
    let q = C::near(C::to_f64(n) * inverse);
    let r = n.wrapping_sub(q.wrapping_mul(d));
    refine::<C>(n >> 63, d, inverse, q, r)
}

/// Divisors of [`div_rem_product`] stay below `2^PRODUCT_DIVISOR_BITS`: its
/// first remainder, up to `2^12.5 * d`, must stay within `i64`.
pub(crate) const PRODUCT_DIVISOR_BITS: u32 = 50;

/// Truncating quotient and remainder of the product `a * b` by
/// `0 < d < 2^50`, from `inverse = 1 / d`, for `|a|, |b| < 2^63` and
/// `|a * b / d| < 2^63 - 1`; the product itself may need up to 126 bits.
#[inline(always)]
#[must_use]
pub(crate) fn div_rem_product<C: Conversion>(a: i64, b: i64, d: i64, inverse: f64) -> (i64, i64) {
    let q = C::near(C::to_f64(a) * C::to_f64(b) * inverse);
    // The exact remainder is below 2^62.5 in magnitude, so the low 64 bits
    // of `a * b - q * d` are all of it.
    let r = a.wrapping_mul(b).wrapping_sub(q.wrapping_mul(d));
    refine::<C>((a ^ b) >> 63, d, inverse, q, r)
}

/// The second estimate and the last step, from a first quotient `q` within
/// `2^12.5` of `n / d` and its exact remainder `r = n - q*d` (both exact
/// modulo `2^64`); `sign` is all ones for a negative dividend (either sign
/// for a zero one).
#[inline(always)]
fn refine<C: Conversion>(sign: i64, d: i64, inverse: f64, q: i64, r: i64) -> (i64, i64) {
    let e = C::nearest_small(C::to_f64(r) * inverse);
    let (q, r) = (q.wrapping_add(e), r.wrapping_sub(e.wrapping_mul(d)));
    correct(sign, d, q, r)
}

/// How a loop converts between `i64` and `f64`. The estimates convert both
/// ways; that is one instruction in scalar x86-64 code and in AVX-512 lanes,
/// but AVX2 and SSE2 lanes have no such instruction, and compilers then
/// convert lane by lane in scalar code.
pub(crate) trait Conversion: Copy + Send + Sync + core::fmt::Debug + 'static {
    /// `n` rounded to the nearest `f64`.
    fn to_f64(n: i64) -> f64;
    /// An integer within one of `v` for `|v| < 2^63 - 1024`, or any integer
    /// congruent to one modulo `2^64`; some integer, never undefined
    /// behaviour, for any other `v` (NaN included).
    fn near(v: f64) -> i64;
    /// The nearest integer to `v` for `|v| < 2^50`, either way at a tie.
    fn nearest_small(v: f64) -> i64;
}

/// A [`Conversion`], as a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ConversionKind {
    /// [`Instructions`].
    Instructions,
    /// [`ExponentBits`].
    ExponentBits,
}

/// Runs `$body` with `$c` the [`Conversion`] type of a [`ConversionKind`].
macro_rules! with_conversion {
    ($kind:expr, $c:ident => $body:expr) => {
        match $kind {
            $crate::int::estimate::ConversionKind::Instructions => {
                type $c = $crate::int::estimate::Instructions;
                $body
            }
            $crate::int::estimate::ConversionKind::ExponentBits => {
                type $c = $crate::int::estimate::ExponentBits;
                $body
            }
        }
    };
}
pub(crate) use with_conversion;

/// The conversion instructions (`cvtsi2sd`, `cvttsd2si` and their AVX-512DQ
/// vector forms).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Instructions;

impl Conversion for Instructions {
    #[inline(always)]
    fn to_f64(n: i64) -> f64 {
        n as f64
    }

    #[inline(always)]
    fn near(v: f64) -> i64 {
        truncate(v)
    }

    #[inline(always)]
    fn nearest_small(v: f64) -> i64 {
        // No library call: `round` is not an instruction on the x86-64
        // baseline.
        truncate(v + 0.5f64.copysign(v))
    }
}

/// Conversions by arithmetic on the bits, which vectorizes wherever 64-bit
/// lanes add, shift and mask: for an integer `0 <= m < 2^52` the `f64`
/// `2^52 + m` holds `m` in its low 52 bits, and adding `1.5 · 2^52` to a
/// float below `2^51` in magnitude rounds it to an integer held in the low
/// bits the same way. Wider values go in two halves of 32 bits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExponentBits;

/// `2^52`: the low 52 bits of `2^52 + m` hold `m`.
const TWO_TO_52: f64 = 4_503_599_627_370_496.0;
/// `2^32`.
const TWO_TO_32: f64 = 4_294_967_296.0;
/// `1.5 · 2^52`: floats within `2^51` of it are integers held in the low bits.
const ROUNDING_BIAS: f64 = 6_755_399_441_055_744.0;
/// `2^84`, whose low 52 bits hold multiples of `2^32`.
const TWO_TO_84: u64 = 0x4530_0000_0000_0000;
/// `2^84 + 2^63 + 2^52`: removes the bias of both halves at once.
const HALVES_BIAS: f64 = 19_342_822_341_709_703_277_445_120.0;

impl Conversion for ExponentBits {
    #[inline(always)]
    fn to_f64(n: i64) -> f64 {
        // n + 2^63 = high · 2^32 + low, both halves below 2^32. `2^84 +
        // high · 2^32` and `2^52 + low` are exact floats; the first less
        // `HALVES_BIAS` is exact too (a multiple of 2^32 below 2^64), so the
        // sum rounds once.
        let biased = n.cast_unsigned() ^ (1 << 63);
        let high = f64::from_bits((biased >> 32) | TWO_TO_84);
        let low = f64::from_bits((biased & 0xffff_ffff) | TWO_TO_52.to_bits());
        (high - HALVES_BIAS) + low
    }

    #[inline(always)]
    fn near(v: f64) -> i64 {
        // v = high · 2^32 + rest, with high = round(v / 2^32) and rest exact
        // (Sterbenz: high · 2^32 is within 2^31 of v, or zero) and at most
        // 2^31 in magnitude; each part rounds to an integer by the bias, and
        // their sum modulo 2^64 is v's nearest integer modulo 2^64.
        let high = v * (1.0 / TWO_TO_32) + ROUNDING_BIAS;
        let rest = v - (high - ROUNDING_BIAS) * TWO_TO_32;
        let high = high.to_bits().wrapping_sub(ROUNDING_BIAS.to_bits()).cast_signed();
        (high << 32).wrapping_add(Self::nearest_small(rest))
    }

    #[inline(always)]
    fn nearest_small(v: f64) -> i64 {
        (v + ROUNDING_BIAS).to_bits().wrapping_sub(ROUNDING_BIAS.to_bits()).cast_signed()
    }
}

/// The largest `f64` below `2^63`.
const BELOW_TWO_TO_63: f64 = 9_223_372_036_854_774_784.0;

/// `trunc(v)` as `i64`, `v` clamped to `±(2^63 - 1024)` first (NaN to the
/// lower bound).
///
/// `as i64` would saturate too, but compilers turn that into a scalar test per
/// lane, which stops the loop from vectorizing. Clamping changes only
/// estimates beyond `2^63 - 1024`, which a dividend below `2^63` reaches only
/// for a divisor of one, where the refinement step absorbs the difference.
/// Inputs outside this module's preconditions (a zero divisor makes the
/// inverse infinite and `0 * inf` NaN) give wrong quotients, never undefined
/// behaviour.
#[inline(always)]
fn truncate(v: f64) -> i64 {
    // `max` and `min` return the other operand for NaN (`clamp` would keep
    // the NaN), so the result is always a finite value within the bounds.
    #[expect(clippy::manual_clamp, reason = "`clamp` keeps NaN; `max` and `min` replace it")]
    let v = v.max(-BELOW_TWO_TO_63).min(BELOW_TWO_TO_63);
    // SAFETY: `v` is finite and within `±(2^63 - 1024)` (see above), so its
    // truncation is representable in `i64`.
    unsafe { v.to_int_unchecked::<i64>() }
}

/// From `q` within one of `trunc(n / d)` and `r = n - q*d`, the exact
/// truncating quotient and remainder, with arithmetic rather than branches
/// (which way an estimate errs depends on the data); `dividend_sign` is `n`'s
/// sign mask.
#[inline(always)]
fn correct(dividend_sign: i64, d: i64, q: i64, r: i64) -> (i64, i64) {
    // Masks: all ones when negative. In the rows of a non-negative dividend
    // the exact remainder lies in `0..|d|`; an estimate off by one leaves it
    // one `|d|` below or above. A zero dividend has a zero remainder in
    // either rows.
    let quotient_sign = dividend_sign ^ (d >> 63);
    let magnitude = d.wrapping_abs();
    let r = (r ^ dividend_sign).wrapping_sub(dividend_sign);
    let step = i64::from(r >= magnitude) - i64::from(r < 0);
    let r = r.wrapping_sub(step.wrapping_mul(magnitude));
    let q = q.wrapping_add((step ^ quotient_sign).wrapping_sub(quotient_sign));
    (q, (r ^ dividend_sign).wrapping_sub(dividend_sign))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rstest::rstest;

    /// [`div_rem`] with each conversion, which must agree.
    #[track_caller]
    fn div_rem_each(n: i64, d: i64) -> (i64, i64) {
        let by_instructions = div_rem::<Instructions>(n, d, inverse::<Instructions>(d));
        let by_bits = div_rem::<ExponentBits>(n, d, inverse::<ExponentBits>(d));
        assert_eq!(by_bits, by_instructions, "{n} / {d}: exponent bits against instructions");
        by_instructions
    }

    /// [`div_rem_product`] with each conversion, which must agree.
    #[track_caller]
    fn div_rem_product_each(a: i64, b: i64, d: i64) -> (i64, i64) {
        let by_instructions = div_rem_product::<Instructions>(a, b, d, inverse::<Instructions>(d));
        let by_bits = div_rem_product::<ExponentBits>(a, b, d, inverse::<ExponentBits>(d));
        assert_eq!(by_bits, by_instructions, "{a} * {b} / {d}: exponent bits against instructions");
        by_instructions
    }

    #[track_caller]
    fn assert_exact(n: i64, d: i64) {
        for (n, d) in [(n, d), (-n, d), (n, -d), (-n, -d)] {
            assert_eq!(div_rem_each(n, d), (n / d, n % d), "{n} / {d}");
        }
    }

    #[rstest]
    #[case::exact(100, 10)]
    #[case::one_below_a_multiple(99, 10)]
    #[case::odd(7, 2)]
    #[case::zero_dividend(0, 5)]
    #[case::divisor_larger(3, 7)]
    #[case::largest_over_one(i64::MAX, 1)]
    #[case::largest_over_three(i64::MAX, 3)]
    #[case::largest_over_largest_divisor(i64::MAX, (1 << 61) - 1)]
    #[case::largest_divisor_over_itself((1 << 61) - 1, (1 << 61) - 1)]
    #[case::one_below_twice_the_divisor((1 << 62) - 3, (1 << 61) - 1)]
    #[case::near_integer_quotient(999_999_999_999_999_999, 999_999_999_999)]
    #[case::rounding_up_to_an_integer((1 << 53) - 1, (1 << 53) - 2)]
    #[case::money_scaled_by_ten_to_the_six(999_999_999_999_000_000, 7)]
    fn cases(#[case] n: i64, #[case] d: i64) {
        assert_exact(n, d);
    }

    #[rstest]
    #[case::zero_divisor(12345, 0)]
    #[case::zero_over_zero(0, 0)]
    #[case::largest_over_zero(i64::MAX, 0)]
    #[case::smallest_over_zero(i64::MIN, 0)]
    #[case::divisor_beyond_the_bound(i64::MAX, i64::MIN)]
    fn inputs_outside_the_preconditions_return(#[case] n: i64, #[case] d: i64) {
        // Any value: the point is that no NaN or infinity reaches the
        // unchecked conversion (Miri or a debug build would trap there).
        let _ = div_rem::<Instructions>(n, d, inverse::<Instructions>(d));
        let _ = div_rem::<Instructions>(n, d, f64::NAN);
        let _ = div_rem::<ExponentBits>(n, d, inverse::<ExponentBits>(d));
        let _ = div_rem::<ExponentBits>(n, d, f64::NAN);
        let _ = ExponentBits::near(f64::NAN);
        let _ = ExponentBits::near(f64::NEG_INFINITY);
        assert_eq!(truncate(f64::NAN), truncate(-BELOW_TWO_TO_63));
        assert_eq!(truncate(f64::INFINITY), truncate(BELOW_TWO_TO_63));
    }

    #[rstest]
    #[case::zero(0)]
    #[case::one(1)]
    #[case::minus_one(-1)]
    #[case::largest(i64::MAX)]
    #[case::smallest(i64::MIN)]
    #[case::two_to_32(1 << 32)]
    #[case::below_two_to_32((1 << 32) - 1)]
    #[case::minus_two_to_32(-(1 << 32))]
    #[case::beyond_53_bits_odd((1 << 53) + 1)]
    #[case::tie_to_even_below((1 << 54) + 2)]
    #[case::tie_to_even_above((1 << 54) + 6)]
    #[case::sixty_bits_of_money(-999_999_999_999_999_999)]
    fn exponent_bits_convert_as_the_instructions_do(#[case] n: i64) {
        assert_eq!(ExponentBits::to_f64(n).to_bits(), (n as f64).to_bits(), "{n}");
        // The nearest integer of an integer-valued float is itself (below
        // 2^63); ties of halves round to even.
        let v = n as f64;
        if v.abs() < BELOW_TWO_TO_63 {
            assert_eq!(ExponentBits::near(v), v as i64, "{v}");
        }
    }

    #[rstest]
    #[case::tie_down_to_even(2.5, 2)]
    #[case::negative_tie_to_even(-3.5, -4)]
    #[case::below_a_half(-0.4, 0)]
    #[case::fraction_beyond_2_to_49(1e15 + 0.75, 1_000_000_000_000_001)]
    fn exponent_bits_round_to_the_nearest_integer(#[case] v: f64, #[case] want: i64) {
        assert_eq!(ExponentBits::near(v), want, "{v}");
        assert_eq!(ExponentBits::nearest_small(v), want, "{v}");
    }

    #[test]
    fn every_small_pair() {
        for n in -300..=300 {
            for d in (-40..=40).filter(|&d| d != 0) {
                assert_eq!(div_rem_each(n, d), (n / d, n % d), "{n} / {d}");
            }
        }
    }

    /// `(trunc(a * b / d), (a * b) % d)` in `i128`.
    fn exact_product_div_rem(a: i64, b: i64, d: i64) -> (i64, i64) {
        let n = i128::from(a) * i128::from(b);
        let (q, r) = (n / i128::from(d), n % i128::from(d));
        (i64::try_from(q).expect("a quotient within i64"), i64::try_from(r).expect("below d"))
    }

    #[track_caller]
    fn assert_exact_product(a: i64, b: i64, d: i64) {
        for (a, b) in [(a, b), (-a, b), (a, -b), (-a, -b)] {
            let want = exact_product_div_rem(a, b, d);
            assert_eq!(div_rem_product_each(a, b, d), want, "{a} * {b} / {d}");
        }
    }

    #[rstest]
    #[case::money_times_rate(999_999_999_999, 99_999_999, 100)]
    #[case::product_just_beyond_i64(1 << 32, 1 << 31, 10)]
    #[case::exact_multiple(123_456_789_000, 1_000_000_000, 1_000)]
    #[case::one_below_a_multiple(123_456_789_001, 999_999_999, 1_000)]
    #[case::zero_product(0, -5, 100)]
    #[case::one_divisor(3_037_000_499, 3_037_000_499, 1)]
    #[case::largest_quotient(i64::MAX - 1, 100, 100)]
    #[case::largest_quotient_largest_divisor(i64::MAX - 1, 1_000_000_000_000_000, 1_000_000_000_000_000)]
    #[case::clamped_estimate(i64::MAX - 1_000, 10, 10)]
    #[case::largest_quotient_with_a_remainder(i64::MAX / 3, 299, 100)]
    #[case::largest_operands(i64::MAX, (1 << 49) - 1, 999_999_999_999_999)]
    #[case::divisor_just_below_the_bound(1 << 62, (1 << 49) - 1, (1 << 50) - 1)]
    fn product_cases(#[case] a: i64, #[case] b: i64, #[case] d: i64) {
        assert_exact_product(a, b, d);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn products_match_i128_division(a in -i64::MAX..=i64::MAX, b in -i64::MAX..=i64::MAX, k in 1u32..=15, d in 1i64..(1 << PRODUCT_DIVISOR_BITS), shift in 0u32..64) {
            for d in [10i64.pow(k), d] {
                // Keep the quotient below i64::MAX: shorten b until it is.
                let b = b >> shift;
                let fits = |b: i64| {
                    let q = i128::from(a) * i128::from(b) / i128::from(d);
                    q.unsigned_abs() < u128::from(i64::MAX.unsigned_abs())
                };
                let b = (0..64).map(|s| b >> s).find(|&b| fits(b)).unwrap_or(0);
                prop_assert_eq!(div_rem_product_each(a, b, d), exact_product_div_rem(a, b, d));
            }
        }

        #[test]
        fn product_quotients_near_integers(q in -(1i64 << 62)..(1 << 62), k in 1u32..=15, r in -1i64..=1) {
            // A product of d: the exact quotient q, remainder zero; of d ± 1:
            // quotients a ± a/d, whose remainders sweep 0..d as a does.
            let d = 10i64.pow(k);
            assert_exact_product(q, d, d);
            let a = q / (d + 1);
            assert_exact_product(a.wrapping_add(r), d + 1, d);
            assert_exact_product(a.wrapping_add(r), d - 1, d);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn matches_hardware_division(n in -i64::MAX..=i64::MAX, d in 1i64..(1 << DIVISOR_BITS), shift in 0u32..61, negative in any::<bool>()) {
            let d = (d >> shift).max(1);
            let d = if negative { -d } else { d };
            prop_assert_eq!(div_rem_each(n, d), (n / d, n % d));
        }

        #[test]
        fn exponent_bits_match_the_instructions(n in any::<i64>(), v in -BELOW_TWO_TO_63..BELOW_TWO_TO_63) {
            prop_assert_eq!(ExponentBits::to_f64(n).to_bits(), (n as f64).to_bits());
            // Within one of the truncation, and the nearest integer.
            let near = ExponentBits::near(v);
            prop_assert!(near.abs_diff(v as i64) <= 1, "{} from {}", near, v);
            prop_assert!((near as f64 - v).abs() <= 0.5, "{} from {}", near, v);
        }

        #[test]
        fn quotients_near_integers(q in -(1i64 << 40)..(1 << 40), d in 1i64..(1 << 22), r in -1i64..=1) {
            let n = q * d + r;
            prop_assert_eq!(div_rem_each(n, d), (n / d, n % d));
        }
    }
}
