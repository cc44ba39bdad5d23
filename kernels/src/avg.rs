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

use crate::arity::{Frame, KernelError, Output, Policies};
use crate::column::Input;
use crate::div::{DivSpec, div};
use crate::rescale::{RescaleSpec, rescale};
use crate::rounding::{Rounding, RoundingMode, with_rounding};
use crate::storage::Storage;
use crate::sum::{GroupSums, Sums};
use crate::wide::I512;
use crate::work::{Work, ethnum_to_i256};

/// The most digits a mean appends to the input's scale.
const MAX_SHIFT: u32 = 38;

impl GroupSums {
    /// The means `round(S_g * 10^shift / n_g)` with `rounding`, checked
    /// against `precision` digits, stored as `O`: a group without valid rows
    /// is null, one beyond the precision fails by `policies.on_overflow`
    /// (its row is its group).
    ///
    /// ```
    /// use decimal_kernels_native::{Frame, GroupSums, Input, Output, Policies, RoundingMode};
    /// let cents = [100i64, 105, 7];
    /// let mut sums = GroupSums::new(2);
    /// sums.update(Input::array(&cents[..]), Some(&[0, 0, 0]), &Frame::new(3))?;
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
        let frame = Frame::new(self.len()).with_nulls(nonempty.as_ref()).with_policies(policies);
        // The shift is at most 38: it converts.
        let spec = DivSpec::new(shift.cast_signed(), rounding, precision);
        let counts = Input::array(&self.counts[..]);
        match &self.sums {
            Sums::Narrow(sums) => {
                // SAFETY: |S| <= n * 2^63 < 10^38 for any count below 2^62.
                let input = unsafe { Input::array(&sums[..]).assume_precision(38) };
                div(input, counts, &spec, &frame)
            }
            Sums::Wide { low, carry } if carry.iter().all(|&c| c == 0) => {
                let sums: Vec<i256> = low.iter().map(|&l| ethnum_to_i256(l)).collect();
                div(Input::array(&sums), counts, &spec, &frame)
            }
            Sums::Wide { low, carry } => {
                let means: Vec<i256> = with_rounding!(rounding, R => low
                    .iter()
                    .zip(carry)
                    .zip(&self.counts)
                    .map(|((&l, &c), &n)| wide_mean::<R>(l, c, n, shift))
                    .collect());
                let check = RescaleSpec::new(0, RoundingMode::TowardZero, precision);
                rescale(Input::array(&means), &check, &frame)
            }
        }
    }
}

/// `round((low + carry * 2^256) * 10^shift / count)` exactly, or `i256::MAX`
/// (beyond every precision) when it exceeds 76 digits; 0 for no rows.
fn wide_mean<R: Rounding>(low: I256, carry: i64, count: i64, shift: u32) -> i256 {
    if count == 0 {
        return i256::ZERO;
    }
    let word = I512::from_i128(1 << 64);
    let two_256 = word.mul(word).mul(word).mul(word);
    // |S| < 2^320 and 10^38 < 2^127: the scaled sum stays far below 2^512.
    let n = I512::from_i256(low).add(I512::from_i64(carry).mul(two_256)).mul(I512::pow10(shift));
    let d = I512::from_i64(count);
    let (q, r) = n.div_rem(d);
    let mean = R::finish(q, r, d, n.is_negative());
    if mean.exceeds(I512::precision_bound(76)) {
        i256::MAX
    } else {
        ethnum_to_i256(mean.wrapping_to_i256())
    }
}
