//! Exact sums of decimal columns, over the whole column or by group, and
//! their check against a result precision.
//!
//! Formula: for each group `g`, `S_g = Σ v_i` over the valid rows `i` of the
//! group and `n_g` the number of those rows. A sum is `S_g` itself (the
//! result has the input's scale), checked against the result precision once,
//! at the end; a group without valid rows is null. Nothing is rounded.
//!
//! No intermediate overflows. Values of at most 64 bits are added in `i128`
//! (`|S| <= n * 2^63 < 2^127` for any `n < 2^64`); wider values in `i256`
//! with a signed count of carries out of it (`S = low + carry * 2^256`),
//! which holds any sum of fewer than `2^63` values. A group's state is
//! exported and merged as those parts, so partial sums of any split of the
//! rows combine to the same `S_g`.
//!
//! The whole-column sum adds 64-bit values as two 32-bit halves in 64-bit
//! lanes, which vectorizes, and widens once per block; the grouped sum is
//! one scatter-add per row.

use core::mem::MaybeUninit;

use arrow_buffer::{BooleanBuffer, NullBuffer, i256};
use ethnum::I256;

use crate::arity::{Frame, KernelError, Output, Policies};
use crate::column::{Column, Input, Values};
use crate::plan::WorkWidth;
use crate::rescale::{RescaleSpec, rescale};
use crate::rounding::RoundingMode;
use crate::storage::Storage;
use crate::work::{Work, ethnum_to_i256, i256_to_ethnum};

/// Rows read into a work type at a time.
const BLOCK: usize = 1024;

/// The most rows a merged state may count: far beyond any real count, and
/// low enough that adding rows to it never overflows.
const MAX_COUNT: u64 = 1 << 62;

/// One group's exact sum and count, as exported and merged:
/// `sum = sum_low + sum_carry * 2^256`.
///
/// ```
/// use decimal_kernels_native::{GroupSum, i256};
/// let part = GroupSum { sum_low: i256::from_i128(-150), sum_carry: 0, count: 2 };
/// assert_eq!(part, GroupSum { count: 2, ..part });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupSum {
    /// The sum modulo `2^256`, as a signed value.
    pub sum_low: i256,
    /// How many times `2^256` the sum is beyond `sum_low`.
    pub sum_carry: i64,
    /// The number of valid rows added.
    pub count: u64,
}

/// Running exact sums and counts of any number of groups.
///
/// ```
/// use decimal_kernels_native::{Frame, GroupSums, Input, Output, Policies};
/// let cents = [150i64, -25, 990, 5];
/// let mut sums = GroupSums::new(2);
/// sums.update(Input::array(&cents[..]), Some(&[0, 1, 0, 1]), &Frame::new(4))?;
/// let out: Output<i64> = sums.finish_sum(18, Policies::default())?;
/// assert_eq!(out.values.as_ref(), [1_140, -20]);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupSums {
    pub(crate) sums: Sums,
    /// Valid rows per group; at most [`MAX_COUNT`] plus the rows added since.
    pub(crate) counts: Vec<i64>,
}

/// The sums, in the narrowest form that holds them exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sums {
    /// Sums of values of at most 64 bits, `|S_g| <= n_g * 2^63`.
    Narrow(Vec<i128>),
    /// Sums of any values: `S_g = low_g + carry_g * 2^256`.
    Wide {
        /// The sums modulo `2^256`.
        low: Vec<I256>,
        /// The carries out of `low`.
        carry: Vec<i64>,
    },
}

impl GroupSums {
    /// `groups` empty groups.
    #[must_use]
    pub fn new(groups: usize) -> Self {
        Self { sums: Sums::Narrow(vec![0; groups]), counts: vec![0; groups] }
    }

    /// The number of groups.
    #[must_use]
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether there are no groups.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The bytes its sums and counts take (their capacity), for an engine's
    /// memory accounting.
    #[must_use]
    pub fn allocated_bytes(&self) -> usize {
        let sums = match &self.sums {
            Sums::Narrow(sums) => sums.capacity() * size_of::<i128>(),
            Sums::Wide { low, carry } => {
                low.capacity() * size_of::<I256>() + carry.capacity() * size_of::<i64>()
            }
        };
        sums + self.counts.capacity() * size_of::<i64>()
    }

    /// Makes it `groups` groups: new ones are empty, groups from `groups` on
    /// are dropped.
    pub fn resize(&mut self, groups: usize) {
        self.counts.resize(groups, 0);
        match &mut self.sums {
            Sums::Narrow(sums) => sums.resize(groups, 0),
            Sums::Wide { low, carry } => {
                low.resize(groups, I256::ZERO);
                carry.resize(groups, 0);
            }
        }
    }

    /// Takes out the first `n` groups (all when `n` exceeds their number);
    /// the others move down to `0..`.
    #[must_use]
    pub fn take_first(&mut self, n: usize) -> Self {
        let n = n.min(self.len());
        if n == self.len() {
            // All of them: moved out, not copied.
            let empty = Self { sums: Sums::Narrow(Vec::new()), counts: Vec::new() };
            return core::mem::replace(self, empty);
        }
        let counts = self.counts.drain(..n).collect();
        let sums = match &mut self.sums {
            Sums::Narrow(sums) => Sums::Narrow(sums.drain(..n).collect()),
            Sums::Wide { low, carry } => {
                Sums::Wide { low: low.drain(..n).collect(), carry: carry.drain(..n).collect() }
            }
        };
        Self { sums, counts }
    }

    /// Group `g`'s sum and count, `None` beyond the last group.
    #[must_use]
    pub fn group(&self, g: usize) -> Option<GroupSum> {
        let count = u64::try_from(*self.counts.get(g)?).unwrap_or_default();
        let (sum_low, sum_carry) = match &self.sums {
            Sums::Narrow(sums) => (i256::from_i128(sums[g]), 0),
            Sums::Wide { low, carry } => (ethnum_to_i256(low[g]), carry[g]),
        };
        Some(GroupSum { sum_low, sum_carry, count })
    }

    /// Adds the valid rows of `values` to their groups: row `i` to group
    /// `groups[i]`, or every row to group 0 when `groups` is `None`.
    ///
    /// # Errors
    /// [`KernelError::LengthMismatch`] when `values`, `groups` or the
    /// validity do not have `frame.len` rows; [`KernelError::GroupOutOfRange`]
    /// for the first row whose group is not below [`len`](Self::len) (with
    /// `groups` `None`: when there is no group); [`KernelError::UnsupportedSpec`]
    /// for a single value. Nothing is added when it fails.
    pub fn update(
        &mut self,
        values: Input<'_>,
        groups: Option<&[usize]>,
        frame: &Frame<'_>,
    ) -> Result<(), KernelError> {
        frame.check(&values, &Input::scalar(0i8))?;
        let Values::Array(column) = values.values else {
            return Err(KernelError::UnsupportedSpec { reason: "a sum adds a column" });
        };
        self.check_rows(groups, frame.len)?;
        if frame.len == 0 {
            return Ok(());
        }
        if !fits_i64(&values, &column) {
            self.wide();
        }
        let len = self.len();
        let out_of_range = |row: usize, groups: &[usize]| KernelError::GroupOutOfRange {
            row,
            group: groups[row],
            groups: len,
        };
        match groups {
            Some(groups) => {
                if matches!(self.sums, Sums::Wide { .. })
                    && let Some(row) = groups.iter().position(|&g| g >= len)
                {
                    return Err(out_of_range(row, groups));
                }
                let counts = &mut self.counts[..];
                match &mut self.sums {
                    Sums::Narrow(sums) => {
                        // A group's sum over this call fits i64 (and there
                        // are no more groups than rows to unpack).
                        let packs = len <= frame.len
                            && value_bound(&values, &column)
                                .checked_mul(frame.len as u128)
                                .is_some_and(|b| b < 1 << 63);
                        let add = if packs { add_grouped_packed } else { add_grouped_narrow };
                        add(sums, counts, &column, groups, frame.nulls)
                            .map_err(|row| out_of_range(row, groups))?;
                    }
                    Sums::Wide { low, carry } => {
                        add_grouped_wide(low, carry, counts, &column, groups, frame.nulls);
                    }
                }
            }
            None => {
                let valid = frame.len - frame.nulls.map_or(0, NullBuffer::null_count);
                self.counts[0] += i64::try_from(valid).unwrap_or(i64::MAX);
                match &mut self.sums {
                    Sums::Narrow(sums) => sums[0] += column_sum_narrow(&column, frame.nulls),
                    Sums::Wide { low, carry } => {
                        let (l, c) = column_sum_wide(&column, frame.nulls);
                        let (sum, carried) = add_carrying(low[0], l);
                        low[0] = sum;
                        carry[0] += c + carried;
                    }
                }
            }
        }
        Ok(())
    }

    /// Adds a partial sum (another partition's [`group`](Self::group)) to
    /// group `g`.
    ///
    /// # Errors
    /// [`KernelError::GroupOutOfRange`] (row 0) when `g` is not a group;
    /// [`KernelError::StateOutOfRange`] when `part` or the merged state is
    /// not one that rows can add up to: a count beyond `2^62`, a sum beyond
    /// `count * 2^255`.
    pub fn merge(&mut self, g: usize, part: GroupSum) -> Result<(), KernelError> {
        let groups = self.len();
        let Some(count) = self.counts.get(g).copied() else {
            return Err(KernelError::GroupOutOfRange { row: 0, group: g, groups });
        };
        let total = u64::try_from(count).unwrap_or_default().saturating_add(part.count);
        // Rows add up to at most `count * 2^255` in magnitude: at most
        // `(count + 1) / 2` carries, and nothing without rows.
        let carries_beyond =
            2 * u128::from(part.sum_carry.unsigned_abs()) > u128::from(part.count) + 1;
        let sum_without_rows =
            part.count == 0 && (part.sum_carry != 0 || part.sum_low != i256::ZERO);
        if total > MAX_COUNT || carries_beyond || sum_without_rows {
            return Err(KernelError::StateOutOfRange);
        }
        if let Sums::Narrow(sums) = &mut self.sums {
            // Kept narrow when the part could be a sum of 64-bit values.
            match part.sum_low.to_i128() {
                Some(v)
                    if part.sum_carry == 0 && v.unsigned_abs() <= u128::from(part.count) << 63 =>
                {
                    sums[g] += v;
                    self.counts[g] += i64::try_from(part.count).unwrap_or_default();
                    return Ok(());
                }
                _ => {}
            }
        }
        let (low, carry) = self.wide();
        let (sum, carried) = add_carrying(low[g], i256_to_ethnum(part.sum_low));
        low[g] = sum;
        carry[g] += part.sum_carry + carried;
        self.counts[g] += i64::try_from(part.count).unwrap_or_default();
        Ok(())
    }

    /// The sums checked against `precision` digits, stored as `O`: a group
    /// without valid rows is null, one beyond the precision fails by
    /// `policies.on_overflow` (its row is its group).
    ///
    /// # Errors
    /// [`KernelError::Overflow`] for the first group beyond the precision under
    /// the `Error` policy; [`KernelError::StorageTooNarrow`] when `O` cannot hold
    /// `precision` digits.
    pub fn finish_sum<O: Storage>(
        &self,
        precision: u8,
        policies: Policies,
    ) -> Result<Output<O>, KernelError> {
        let nonempty = self.nonempty();
        let frame = Frame::new(self.len()).with_nulls(nonempty.as_ref()).with_policies(policies);
        // The check after an operator: the same scale, `precision` digits.
        let check = RescaleSpec::new(0, RoundingMode::TowardZero, precision);
        match &self.sums {
            Sums::Narrow(sums) => {
                // SAFETY: |S| <= n * 2^63 < 10^38 for any count below 2^62.
                let input = unsafe { Input::array(&sums[..]).assume_precision(38) };
                rescale(input, &check, &frame)
            }
            Sums::Wide { low, carry } => {
                // A sum beyond `i256` is beyond every precision: it is
                // replaced by a value beyond every precision.
                let sums: Vec<i256> = low
                    .iter()
                    .zip(carry)
                    .map(|(&l, &c)| if c == 0 { ethnum_to_i256(l) } else { i256::MAX })
                    .collect();
                rescale(Input::array(&sums), &check, &frame)
            }
        }
    }

    /// The validity of the results: groups with at least one valid row
    /// (`None`: all of them).
    pub(crate) fn nonempty(&self) -> Option<NullBuffer> {
        let valid = BooleanBuffer::collect_bool(self.len(), |g| self.counts[g] != 0);
        Some(NullBuffer::new(valid)).filter(|n| n.null_count() > 0)
    }

    /// Checks that there is a group per row, or a group 0 for every row.
    fn check_rows(&self, groups: Option<&[usize]>, rows: usize) -> Result<(), KernelError> {
        match groups {
            Some(groups) if groups.len() != rows => {
                Err(KernelError::LengthMismatch { expected: rows, actual: groups.len() })
            }
            None if self.is_empty() && rows > 0 => {
                Err(KernelError::GroupOutOfRange { row: 0, group: 0, groups: 0 })
            }
            _ => Ok(()),
        }
    }

    /// The sums in the wide form, moved there first if they are narrow
    /// (once: they stay wide).
    fn wide(&mut self) -> (&mut [I256], &mut [i64]) {
        if let Sums::Narrow(sums) = &self.sums {
            let low = sums.iter().map(|&s| I256::from(s)).collect();
            self.sums = Sums::Wide { low, carry: vec![0; sums.len()] };
        }
        match &mut self.sums {
            Sums::Wide { low, carry } => (low, carry),
            // Never: it was made wide above.
            Sums::Narrow(_) => (&mut [], &mut []),
        }
    }
}

/// Whether every value of the column fits `i64`: by its storage, its declared
/// precision, or one measuring pass.
fn fits_i64(values: &Input<'_>, column: &Column<'_>) -> bool {
    column.holding_work() == WorkWidth::I64
        || values.precision.is_some_and(|p| p <= 18)
        || column.magnitude_bits() <= 63
}

/// A bound on `|v|` of a column known to fit `i64`: its declared precision's,
/// or its storage's.
fn value_bound(values: &Input<'_>, column: &Column<'_>) -> u128 {
    let storage = match column {
        Column::I8(_) => 1 << 7,
        Column::I16(_) => 1 << 15,
        Column::I32(_) => 1 << 31,
        _ => 1 << 63,
    };
    values.precision.map_or(storage, |p| 10u128.saturating_pow(p.into()) - 1).min(storage)
}

/// `a + b` with the carry out of `i256` (`-1`, `0` or `1`).
#[inline(always)]
fn add_carrying(a: I256, b: I256) -> (I256, i64) {
    let (sum, overflowed) = a.overflowing_add(b);
    // An overflow goes the way of the addend's sign.
    let carry = if b.is_negative() { -1 } else { 1 };
    (sum, if overflowed { carry } else { 0 })
}

/// Calls `each(start, block)` for every block of the column read as `W`.
fn for_each_block<W: Work>(column: &Column<'_>, mut each: impl FnMut(usize, &[W])) {
    let mut scratch = [const { MaybeUninit::<W>::uninit() }; BLOCK];
    let len = column.len();
    let mut start = 0;
    while start < len {
        let rows = BLOCK.min(len - start);
        each(start, column.rows::<W>(start, rows, &mut scratch));
        start += rows;
    }
}

/// `sums[groups[i]] += v_i` and `counts[groups[i]] += 1` for the valid rows
/// of a column of 64-bit values, in one pass; the bounds check of the group
/// is the only check of its range. A row whose group is out of range fails
/// the call: the rows before it are taken out again (exactly, as nothing
/// wraps), and its index is returned.
#[inline(never)]
fn add_grouped_narrow(
    sums: &mut [i128],
    counts: &mut [i64],
    column: &Column<'_>,
    groups: &[usize],
    nulls: Option<&NullBuffer>,
) -> Result<(), usize> {
    let mut add = |g: usize, v: i64, n: i64| match (sums.get_mut(g), counts.get_mut(g)) {
        (Some(sum), Some(count)) => {
            *sum += i128::from(v);
            *count += n;
            true
        }
        _ => false,
    };
    scatter_column(column, groups, nulls, &mut add).inspect_err(|&row| {
        // Every row before `row` has its group: taking them out cannot fail.
        let _ = scatter_column(column, &groups[..row], nulls, |g, v, n| add(g, -v, -n));
    })
}

/// [`add_grouped_narrow`] when every group's sum over the call fits `i64`
/// (the caller checks `rows * max|v| < 2^63`): each row adds `v * 2^64 + 1`
/// to one `i128` per group, so the sum (high half) and the count (low half)
/// are one read-modify-write, as in a plain sum loop; they are unpacked into
/// the sums and counts once per group at the end. A row out of range fails
/// the call before anything is added.
#[inline(never)]
fn add_grouped_packed(
    sums: &mut [i128],
    counts: &mut [i64],
    column: &Column<'_>,
    groups: &[usize],
    nulls: Option<&NullBuffer>,
) -> Result<(), usize> {
    let mut packed = vec![0i128; sums.len()];
    scatter_column(column, groups, nulls, |g, v, n| {
        packed.get_mut(g).map(|p| *p += (i128::from(v) << 64) + i128::from(n)).is_some()
    })?;
    for ((sum, count), p) in sums.iter_mut().zip(counts.iter_mut()).zip(packed) {
        *sum += p >> 64;
        // The low half is the count: below 2^63.
        #[expect(clippy::cast_possible_truncation, reason = "the low half is the count")]
        let n = p as i64;
        *count += n;
    }
    Ok(())
}

/// Calls `add(group, v, n)` for the first `groups.len()` rows of a column of
/// values that fit 64 bits, `v` the value and `n` 1 for a valid row, both 0
/// for a null one (no branch on the bit); `add` returns false for a group
/// out of range, which stops it with that row's index. An `i64` or `i128`
/// column is read in place (an `i128` value that fits is its low word), any
/// other converted a block at a time.
#[inline(always)]
fn scatter_column(
    column: &Column<'_>,
    groups: &[usize],
    nulls: Option<&NullBuffer>,
    mut add: impl FnMut(usize, i64, i64) -> bool,
) -> Result<(), usize> {
    match column {
        Column::I64(values) => scatter_rows(values.iter().copied(), groups, nulls, add),
        Column::I128(values) => {
            // Fits 64 bits: the value is its low word.
            #[expect(clippy::cast_possible_truncation, reason = "the value fits i64")]
            let values = values.iter().map(|&v| v as i64);
            scatter_rows(values, groups, nulls, add)
        }
        _ => {
            let mut result = Ok(());
            for_each_block::<i64>(column, |start, values| {
                let rows = values.len().min(groups.len().saturating_sub(start));
                if result.is_err() || rows == 0 {
                    return;
                }
                let nulls = nulls.map(|n| n.slice(start, rows));
                let (values, groups) = (&values[..rows], &groups[start..start + rows]);
                result = scatter_rows(values.iter().copied(), groups, nulls.as_ref(), &mut add)
                    .map_err(|row| start + row);
            });
            result
        }
    }
}

/// [`scatter_column`] over one run of rows (as many as `groups` has).
#[inline(always)]
fn scatter_rows(
    values: impl Iterator<Item = i64>,
    groups: &[usize],
    nulls: Option<&NullBuffer>,
    mut add: impl FnMut(usize, i64, i64) -> bool,
) -> Result<(), usize> {
    let failed = match nulls {
        None => values.zip(groups).position(|(v, &g)| !add(g, v, 1)),
        Some(nulls) => values.zip(groups).zip(nulls.iter()).position(|((v, &g), ok)| {
            let mask = -i64::from(ok);
            !add(g, v & mask, -mask)
        }),
    };
    failed.map_or(Ok(()), Err)
}

/// The same for values of any width, with carries.
#[inline(never)]
fn add_grouped_wide(
    low: &mut [I256],
    carry: &mut [i64],
    counts: &mut [i64],
    column: &Column<'_>,
    groups: &[usize],
    nulls: Option<&NullBuffer>,
) {
    for_each_block::<I256>(column, |start, values| {
        for (i, (&g, &v)) in groups[start..start + values.len()].iter().zip(values).enumerate() {
            if nulls.is_none_or(|n| n.is_valid(start + i)) {
                let (sum, carried) = add_carrying(low[g], v);
                low[g] = sum;
                carry[g] += carried;
                counts[g] += 1;
            }
        }
    });
}

/// The sum of the valid rows of a column of 64-bit values: an `i64` or
/// `i128` column is read in place (an `i128` value that fits is its low
/// word), any other converted a block at a time.
#[inline(never)]
fn column_sum_narrow(column: &Column<'_>, nulls: Option<&NullBuffer>) -> i128 {
    match column {
        Column::I64(values) => sum_blocks(values, |v| v, nulls),
        // Fits 64 bits: the value is its low word.
        #[expect(clippy::cast_possible_truncation, reason = "the value fits i64")]
        Column::I128(values) => sum_blocks(values, |v| v as i64, nulls),
        _ => {
            let mut total = 0i128;
            for_each_block::<i64>(column, |start, values| {
                let nulls = nulls.map(|n| n.slice(start, values.len()));
                total += sum_blocks(values, |v| v, nulls.as_ref());
            });
            total
        }
    }
}

/// The sum of `values` read as `i64` by `to`, nulls counting zero, a block
/// at a time.
#[inline(always)]
fn sum_blocks<S: Copy>(
    values: &[S],
    to: impl Fn(S) -> i64 + Copy,
    nulls: Option<&NullBuffer>,
) -> i128 {
    let mut total = 0i128;
    for (i, block) in values.chunks(BLOCK).enumerate() {
        total += match nulls {
            None => block_sum(block.iter().map(|&v| to(v))),
            Some(nulls) => {
                let valid = nulls.inner().slice(i * BLOCK, block.len());
                block_sum(block.iter().zip(valid.iter()).map(|(&v, ok)| to(v) & -i64::from(ok)))
            }
        };
    }
    total
}

/// The exact sum of at most [`BLOCK`] 64-bit values: their high and low 32-bit
/// halves are summed apart in 64-bit lanes (no carry chain, so the loop
/// vectorizes), and joined once.
#[inline(always)]
fn block_sum(values: impl Iterator<Item = i64>) -> i128 {
    let (mut high, mut low) = (0i64, 0u64);
    for v in values {
        high += v >> 32;
        low += v.cast_unsigned() & 0xFFFF_FFFF;
    }
    (i128::from(high) << 32) + i128::from(low)
}

/// The sum of the valid rows of a column of any values, with its carries.
#[inline(never)]
fn column_sum_wide(column: &Column<'_>, nulls: Option<&NullBuffer>) -> (I256, i64) {
    let (mut low, mut carry) = (I256::ZERO, 0i64);
    for_each_block::<I256>(column, |start, values| {
        for (i, &v) in values.iter().enumerate() {
            if nulls.is_none_or(|n| n.is_valid(start + i)) {
                let (sum, carried) = add_carrying(low, v);
                low = sum;
                carry += carried;
            }
        }
    });
    (low, carry)
}
