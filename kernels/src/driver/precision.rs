//! The check of finished values against a result precision, with no
//! arithmetic: for results an aggregate computed itself (a group's sum or
//! mean), stored in the output's storage.
//!
//! Each 64 values give one overflow mask (`|v| > 10^p - 1`, a compare per
//! value, which vectorizes), resolved against validity and the overflow
//! policy as an operator's masks are.

use arrow_buffer::NullBuffer;

use crate::columns::column::Sink;
use crate::columns::convert::store;
use crate::columns::storage::{Storage, Stored};
use crate::driver::blocks::{MASK_ROWS, block_lengths};
use crate::driver::error::KernelError;
use crate::driver::failures::FailureMasks;
use crate::driver::output::{Output, compute_output};
use crate::driver::rows::Rows;
use crate::int::work::Work;

/// `values`, one per row of `rows`, checked against `precision` digits and
/// stored as `O`: a valid value beyond it fails by `rows.policies.on_overflow`.
///
/// # Errors
/// [`KernelError::Overflow`] for the first valid value beyond the precision
/// under the `Error` policy; [`KernelError::StorageTooNarrow`] when `O`
/// cannot hold `precision` digits; [`KernelError::LengthMismatch`] when
/// `values` or the validity do not have `rows.len` rows.
pub(crate) fn check_precision<W: Work, O: Storage>(
    values: &[W],
    precision: u8,
    rows: &Rows<'_>,
) -> Result<Output<O>, KernelError> {
    stored(values, precision, rows, false)
}

/// [`check_precision`], skipping the comparisons when `within` vouches for
/// every value (an aggregate of vouched columns whose result keeps their
/// values, as an extreme does: then it never fails with
/// [`KernelError::Overflow`]).
pub(crate) fn stored<W: Work, O: Storage>(
    values: &[W],
    precision: u8,
    rows: &Rows<'_>,
    within: bool,
) -> Result<Output<O>, KernelError> {
    compute_output(precision, rows, |rows, sink| {
        rows.check(&[])?;
        block_lengths(&[values.len()], rows.len)?;
        let bound = (!within).then(|| W::precision_bound(precision.into()));
        match sink {
            Sink::I8(out) => checked(values, bound, rows, out),
            Sink::I16(out) => checked(values, bound, rows, out),
            Sink::I32(out) => checked(values, bound, rows, out),
            Sink::I64(out) => checked(values, bound, rows, out),
            Sink::I128(out) => checked(values, bound, rows, out),
            Sink::I256(out) => checked(values, bound, rows, out),
        }
    })
}

/// [`check_precision`] into `out`, for `values` as long as the rows; no
/// comparison without a `bound`.
fn checked<W: Work, O: Stored>(
    values: &[W],
    bound: Option<W>,
    rows: &Rows<'_>,
    out: &mut Vec<O>,
) -> Result<Option<NullBuffer>, KernelError> {
    let mut failures = FailureMasks::new(rows);
    if let Some(bound) = bound {
        for (index, chunk) in values.chunks(MASK_ROWS).enumerate() {
            let overflow = chunk
                .iter()
                .enumerate()
                .fold(0u64, |mask, (bit, &v)| mask | (u64::from(v.exceeds(bound)) << bit));
            if overflow != 0 {
                failures.record(index, chunk.len(), overflow, 0)?;
            }
        }
    }
    out.clear();
    out.reserve_exact(values.len());
    let slots = &mut out.spare_capacity_mut()[..values.len()];
    store::<O, W>(values, slots);
    // SAFETY: `store` wrote `min(values.len(), slots.len())` slots, which is
    // all `values.len()` slots reserved just above, directly after the
    // (cleared) vector's elements.
    unsafe { out.set_len(values.len()) };
    Ok(failures.finish())
}
