//! The mean of each group's valid rows, from its exact sum and count.
//!
//! Formula: `mean_g = round(S_g * 10^k / n_g)`, rounded once by the mode from
//! the exact quotient, at `k` digits more than the input's scale, and checked
//! against the result precision; a group without valid rows is null.
//!
//! Sums that fit `i256` (every sum of values up to 38 digits, and of wider
//! values unless they reach beyond `2^255` together) are divided by `div`'s
//! kernels, the counts as the divisor column. When a sum is beyond `i256`,
//! the call divides every group exactly in 512 bits instead, one at a time:
//! only values of more than about 57 digits can get there.

use arrow_buffer::i256;
use ethnum::I256;

use crate::aggregate::sum::{GroupSums, Sums};
use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::error::KernelError;
use crate::driver::output::Output;
use crate::driver::precision::check_precision;
use crate::driver::rows::{Policies, Rows};
use crate::int::i512::I512;
use crate::int::rounding::{Rounding, RoundingMode, with_rounding};
use crate::int::work::{Work, ethnum_to_i256};
use crate::ops::div::{DivSpec, div};

/// The most digits a mean appends to the input's scale.
const MAX_SHIFT: u32 = 38;

impl GroupSums {
    /// The means `round(S_g * 10^shift / n_g)` with `rounding`, checked
    /// against `precision` digits, stored as `O`: a group without valid rows
    /// is null, one beyond the precision fails by `policies.on_overflow`
    /// (its row is its group).
    ///
    /// ```
    /// use decimal_kernels_native::{GroupSums, Operand, Output, Policies, RoundingMode, Rows};
    /// let cents = [100i64, 105, 7];
    /// let mut sums = GroupSums::new(2);
    /// sums.update(Operand::array(&cents[..]), Some(&[0, 0, 0]), &Rows::new(3))?;
    /// // (100 + 105 + 7) / 3 = 70.67 at two more digits; group 1 is empty.
    /// let out: Output<i64> = sums.finish_mean(2, RoundingMode::HalfUp, 18, Policies::default())?;
    /// assert_eq!(out.values[0], 7_067);
    /// assert!(out.nulls.is_some_and(|n| n.is_null(1)));
    /// # Ok::<(), decimal_kernels_native::KernelError>(())
    /// ```
    ///
    /// # Errors
    /// [`KernelError::Overflow`] for the first group beyond the precision
    /// under the `Error` policy; [`KernelError::StorageTooNarrow`] when `O`
    /// cannot hold `precision` digits; [`KernelError::UnsupportedSpec`] for a
    /// shift above 38.
    pub fn finish_mean<O: Storage>(
        &self,
        shift: u32,
        rounding: RoundingMode,
        precision: u8,
        policies: Policies,
    ) -> Result<Output<O>, KernelError> {
        if shift > MAX_SHIFT {
            return Err(KernelError::UnsupportedSpec {
                reason: "a mean appends at most 38 digits",
            });
        }
        let nonempty = self.nonempty();
        let rows = Rows::new(self.len()).with_nulls(nonempty.as_ref()).with_policies(policies);
        // The shift is at most 38: it converts.
        let spec = DivSpec::new(shift.cast_signed(), rounding, precision);
        let counts = Operand::array(&self.counts[..]);
        match &self.sums {
            Sums::Narrow(sums) => {
                // As in `finish_sum`: |S| <= n * 2^63 < 10^38.
                let input = Operand::array(&sums[..]).assume_precision(38);
                div(input, counts, &spec, &rows)
            }
            Sums::I256Carry { low, carry } if carry.iter().all(|&c| c == 0) => {
                let sums: Vec<i256> = low.iter().map(|&l| ethnum_to_i256(l)).collect();
                div(Operand::array(&sums), counts, &spec, &rows)
            }
            Sums::I256Carry { low, carry } => {
                let means: Vec<I256> = with_rounding!(rounding, R => low
                    .iter()
                    .zip(carry)
                    .zip(&self.counts)
                    .map(|((&l, &c), &n)| mean_in_i512::<R>(l, c, n, shift))
                    .collect());
                check_precision(&means, precision, &rows)
            }
        }
    }
}

/// `round((low + carry * 2^256) * 10^shift / count)` exactly, or `I256::MAX`
/// (beyond every precision) when it exceeds 76 digits; 0 for no rows.
fn mean_in_i512<R: Rounding>(low: I256, carry: i64, count: i64, shift: u32) -> I256 {
    if count == 0 {
        return I256::ZERO;
    }
    let word = I512::from_i128(1 << 64);
    let two_256 = word.mul(word).mul(word).mul(word);
    // |S| < 2^320 and 10^38 < 2^127: the scaled sum stays far below 2^512.
    let n = I512::from_i256(low).add(I512::from_i64(carry).mul(two_256)).mul(I512::pow10(shift));
    let d = I512::from_i64(count);
    let (q, r) = n.div_rem(d);
    let mean = R::finish(q, r, d, n.is_negative());
    if mean.exceeds(I512::precision_bound(76)) { I256::MAX } else { mean.wrapping_to_i256() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::storage::TOKEN;
    use crate::driver::rows::OverflowPolicy;
    use crate::testing::{big, round_big, to_i256, values};
    use num_bigint::BigInt;
    use num_traits::Signed;
    use rstest::rstest;

    /// Under the `Null` overflow policy.
    const NULL: Policies =
        Policies { on_overflow: OverflowPolicy::Null, on_divide_by_zero: OverflowPolicy::Error };

    /// What the mean of group `g` must be: `None` for an empty group,
    /// `Some(None)` beyond `precision` digits, else the exactly rounded mean.
    fn oracle(
        sums: &GroupSums,
        g: usize,
        shift: u32,
        mode: RoundingMode,
        precision: u8,
    ) -> Option<Option<BigInt>> {
        let part = sums.group(g).expect("a group");
        let sum = big(part.sum_low) + (BigInt::from(part.sum_carry) << 256u32);
        let limit = BigInt::from(10).pow(precision.into());
        (part.count > 0).then(|| {
            let scaled = sum * BigInt::from(10).pow(shift);
            let mean = round_big(&scaled, &BigInt::from(part.count), mode);
            (mean.abs() < limit).then_some(mean)
        })
    }

    /// `finish_mean` into `O` against the oracle in every rounding mode:
    /// under `Null` every group's value and validity, under `Error` the first
    /// group beyond the precision (or a result).
    #[track_caller]
    fn assert_means<O: Storage>(sums: &GroupSums, shift: u32, precision: u8) {
        for mode in RoundingMode::ALL {
            let want: Vec<_> =
                (0..sums.len()).map(|g| oracle(sums, g, shift, mode, precision)).collect();
            let out: Output<O> = sums.finish_mean(shift, mode, precision, NULL).unwrap();
            assert_eq!(out.values.len(), sums.len());
            for (g, want) in want.iter().enumerate() {
                let valid = out.nulls.as_ref().is_none_or(|n| n.is_valid(g));
                let got = valid.then(|| big(out.values[g].widened(TOKEN)));
                assert_eq!(
                    got.as_ref(),
                    want.as_ref().and_then(Option::as_ref),
                    "{mode:?} group {g}"
                );
            }
            let first = want.iter().position(|w| matches!(w, Some(None)));
            let strict: Result<Output<O>, _> =
                sums.finish_mean(shift, mode, precision, Policies::default());
            match first {
                Some(g) => assert_eq!(strict.err(), Some(KernelError::Overflow { row: g })),
                None => assert!(strict.is_ok(), "{mode:?}: no group overflows"),
            }
        }
    }

    /// Sums of `values` by `groups` into `groups_len` groups.
    fn sums_of(values: &[i256], groups: &[usize], groups_len: usize) -> GroupSums {
        let mut sums = GroupSums::new(groups_len);
        sums.update(Operand::array(values), Some(groups), &Rows::new(values.len())).unwrap();
        sums
    }

    fn ints(values: &[i128]) -> Vec<i256> {
        values.iter().map(|&v| i256::from_i128(v)).collect()
    }

    /// Ties and near-ties of both signs, an empty group, and random groups:
    /// the narrow sums divided by `div`'s kernels, every rounding mode.
    #[rstest]
    #[case::no_shift_i64(0, 18)]
    #[case::two_digits_i64(2, 18)]
    #[case::four_digits_tight(4, 5)]
    #[case::twenty_digits_i128(20, 38)]
    #[case::most_digits_i256(38, 76)]
    fn narrow_means_in_every_mode(#[case] shift: u32, #[case] precision: u8) {
        // Groups: 1.5, -1.5, 1.25, 2.5, -2.5, 1/3, -2/3, empty.
        let mut rows = vec![
            (1, 0),
            (2, 0),
            (-1, 1),
            (-2, 1),
            (1, 2),
            (1, 2),
            (1, 2),
            (2, 2),
            (2, 3),
            (3, 3),
            (-2, 4),
            (-3, 4),
            (1, 5),
            (0, 5),
            (0, 5),
            (-1, 6),
            (-1, 6),
            (0, 6),
        ];
        let random = values(500, 60, 7);
        rows.extend(random.iter().enumerate().map(|(i, &v)| (i128::from(v), 8 + i % 5)));
        let (values, groups): (Vec<i128>, Vec<usize>) = rows.into_iter().unzip();
        let sums = sums_of(&ints(&values), &groups, 13);
        assert!(matches!(sums.sums, Sums::Narrow(_)));
        match precision {
            0..=18 => assert_means::<i64>(&sums, shift, precision),
            19..=38 => assert_means::<i128>(&sums, shift, precision),
            _ => assert_means::<i256>(&sums, shift, precision),
        }
    }

    /// `10^k` as an `i256`.
    fn pow10(k: u32) -> i256 {
        to_i256(&BigInt::from(10).pow(k)).expect("k <= 76")
    }

    /// Wide sums without carries (the `i256` dividends of `div`).
    #[rstest]
    #[case::no_shift(0, 76)]
    #[case::three_digits(3, 76)]
    #[case::tight_precision(0, 70)]
    fn wide_means_within_i256(#[case] shift: u32, #[case] precision: u8) {
        let big_value = pow10(70).wrapping_add(i256::from_i128(5));
        let values = [
            big_value,
            big_value.wrapping_add(i256::ONE),
            big_value.wrapping_neg(),
            i256::from_i128(-7),
            i256::from_i128(i128::MAX),
            i256::from_i128(i128::MIN),
            pow10(72).wrapping_neg(),
        ];
        let sums = sums_of(&values, &[0, 0, 1, 1, 2, 2, 3], 5);
        assert!(matches!(sums.sums, Sums::I256Carry { .. }));
        assert_means::<i256>(&sums, shift, precision);
    }

    /// Groups whose sums leave `i256` (carries), next to small and empty
    /// groups: every group divided exactly in 512 bits, rounded by the mode,
    /// checked against the precision.
    #[rstest]
    #[case::no_shift(0, 76)]
    #[case::one_digit(1, 76)]
    #[case::tight_precision(0, 75)]
    #[case::tight_precision_shifted(1, 75)]
    fn means_of_sums_beyond_i256(#[case] shift: u32, #[case] precision: u8) {
        let nines = pow10(76).wrapping_sub(i256::ONE);
        let less = |k: i128| nines.wrapping_sub(i256::from_i128(k));
        let short = pow10(75).wrapping_sub(i256::ONE);
        let (mut values, mut groups) = (Vec::new(), Vec::new());
        let mut group = |g: usize, rows: &[i256]| {
            values.extend_from_slice(rows);
            groups.extend(core::iter::repeat_n(g, rows.len()));
        };
        // 6e76 - 9 over 6: a tie just below 10^76; and its negation.
        let six = [nines, nines, nines, nines, nines, less(3)];
        group(0, &six);
        group(1, &six.map(|v| v.wrapping_neg()));
        // 7e76 - 9 over 7: 10^76 - 1.29.
        group(2, &[nines, nines, nines, nines, nines, nines, less(2)]);
        // Small values next to the carries.
        group(3, &[i256::from_i128(5), i256::from_i128(-2)]);
        // 60 values of 10^75 - 1, one of them 3 less: a tie at one more digit.
        let mut sixty = vec![short; 59];
        sixty.push(short.wrapping_sub(i256::from_i128(3)));
        group(5, &sixty);
        let sums = sums_of(&values, &groups, 6);
        let carries: Vec<i64> = (0..6).map(|g| sums.group(g).unwrap().sum_carry).collect();
        assert_eq!(carries, [1, -1, 1, 0, 0, 1], "the sums beyond i256");
        assert_means::<i256>(&sums, shift, precision);
    }

    /// A mean beyond 76 digits from a sum beyond `i256` fails its group
    /// (`Overflow` names the group) or is nulled.
    #[test]
    fn a_mean_beyond_76_digits_overflows() {
        let sums = sums_of(&[i256::ONE, i256::MAX, i256::MAX], &[0, 1, 1], 3);
        assert_eq!(sums.group(1).map(|p| p.sum_carry), Some(1));
        let strict: Result<Output<i256>, _> =
            sums.finish_mean(0, RoundingMode::HalfEven, 76, Policies::default());
        assert_eq!(strict.err(), Some(KernelError::Overflow { row: 1 }));
        let nulled: Output<i256> = sums.finish_mean(0, RoundingMode::HalfEven, 76, NULL).unwrap();
        let valid: Vec<bool> =
            (0..3).map(|g| nulled.nulls.as_ref().is_none_or(|n| n.is_valid(g))).collect();
        assert_eq!(valid, [true, false, false]);
        assert_eq!(nulled.values[0], i256::ONE);
        assert_means::<i256>(&sums, 0, 76);
    }

    #[test]
    fn a_shift_beyond_38_digits_is_refused() {
        let sums = sums_of(&ints(&[1, 2]), &[0, 0], 1);
        let refused: Result<Output<i256>, _> =
            sums.finish_mean(39, RoundingMode::HalfUp, 76, Policies::default());
        assert!(matches!(refused, Err(KernelError::UnsupportedSpec { .. })));
        let narrow: Result<Output<i32>, _> =
            sums.finish_mean(0, RoundingMode::HalfUp, 10, Policies::default());
        assert!(matches!(narrow, Err(KernelError::StorageTooNarrow { .. })));
    }

    /// Groups without rows are null whatever the form of the sums, and no
    /// groups at all finish to nothing.
    #[rstest]
    #[case::narrow(false)]
    #[case::wide(true)]
    fn empty_groups_are_null(#[case] wide: bool) {
        let value = if wide { i256::MAX } else { i256::ONE };
        let mut sums = sums_of(&[value, value], &[1, 1], 3);
        assert_eq!(matches!(sums.sums, Sums::I256Carry { .. }), wide);
        let out: Output<i256> = sums.finish_mean(0, RoundingMode::Floor, 76, NULL).unwrap();
        let nulls = out.nulls.expect("two empty groups");
        // The mean of two `i256::MAX` is beyond 76 digits: nulled too.
        assert_eq!((nulls.is_null(0), nulls.is_null(1), nulls.is_null(2)), (true, wide, true));
        let none = sums.take_first(0);
        let out: Output<i64> = none.finish_mean(0, RoundingMode::Floor, 18, NULL).unwrap();
        assert!(out.values.is_empty());
    }
}
