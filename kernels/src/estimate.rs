//! Division of 64-bit integers by a double-precision estimate, exact after
//! correction, with no hardware divide: the form of a quotient row that
//! vectorizes where `i64` ↔ `f64` conversions and 64-bit multiplies do
//! (AVX-512DQ). A hardware `idiv` takes about ten cycles per row and never
//! vectorizes; in a loop that cannot vectorize the estimate's extra
//! conversions cost more than they save, so the kernels use it only in the
//! AVX-512 copy of the loop (see `arity::run_multiversioned`).
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

/// Divisors must stay below this magnitude: the first remainder, up to
/// `2^12 + |d|`, must fit `i64` with room for the correction.
pub(crate) const DIVISOR_BITS: u32 = 61;

/// `1 / d` for a divisor `0 < |d| < 2^61`.
#[inline(always)]
#[must_use]
pub(crate) fn inverse(d: i64) -> f64 {
    1.0 / d as f64
}

/// Truncating quotient and remainder of `n / d` from `inverse = 1 / d`, for
/// `|n| < 2^63` and `0 < |d| < 2^61`; equal to `(n / d, n % d)`.
#[inline(always)]
#[must_use]
pub(crate) fn div_rem(n: i64, d: i64, inverse: f64) -> (i64, i64) {
    let q = truncate(n as f64 * inverse);
    let r = n.wrapping_sub(q.wrapping_mul(d));
    let e = r as f64 * inverse;
    // Nearest integer, without a library call: `round` is not an instruction
    // on the x86-64 baseline.
    let e = truncate(e + 0.5f64.copysign(e));
    let (q, r) = (q.wrapping_add(e), r.wrapping_sub(e.wrapping_mul(d)));
    correct(n, d, q, r)
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
/// (which way an estimate errs depends on the data).
#[inline(always)]
fn correct(n: i64, d: i64, q: i64, r: i64) -> (i64, i64) {
    // Masks: all ones when negative. In the frame of a non-negative dividend
    // the exact remainder lies in `0..|d|`; an estimate off by one leaves it
    // one `|d|` below or above.
    let (dividend_sign, quotient_sign) = (n >> 63, (n ^ d) >> 63);
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

    #[track_caller]
    fn assert_exact(n: i64, d: i64) {
        for (n, d) in [(n, d), (-n, d), (n, -d), (-n, -d)] {
            assert_eq!(div_rem(n, d, inverse(d)), (n / d, n % d), "{n} / {d}");
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
        let _ = div_rem(n, d, inverse(d));
        let _ = div_rem(n, d, f64::NAN);
        assert_eq!(truncate(f64::NAN), truncate(-BELOW_TWO_TO_63));
        assert_eq!(truncate(f64::INFINITY), truncate(BELOW_TWO_TO_63));
    }

    #[test]
    fn every_small_pair() {
        for n in -300..=300 {
            for d in (-40..=40).filter(|&d| d != 0) {
                assert_eq!(div_rem(n, d, inverse(d)), (n / d, n % d), "{n} / {d}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn matches_hardware_division(n in -i64::MAX..=i64::MAX, d in 1i64..(1 << DIVISOR_BITS), shift in 0u32..61, negative in any::<bool>()) {
            let d = (d >> shift).max(1);
            let d = if negative { -d } else { d };
            prop_assert_eq!(div_rem(n, d, inverse(d)), (n / d, n % d));
        }

        #[test]
        fn quotients_near_integers(q in -(1i64 << 40)..(1 << 40), d in 1i64..(1 << 22), r in -1i64..=1) {
            let n = q * d + r;
            prop_assert_eq!(div_rem(n, d, inverse(d)), (n / d, n % d));
        }
    }
}
