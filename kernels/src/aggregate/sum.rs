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
//! rows combine to the same `S_g`; a merged state counts at most `2^60` rows.
//!
//! The whole-column sum adds 64-bit values as two 32-bit halves in 64-bit
//! lanes, with no carry between rows, and widens once per block. The grouped
//! sum is one scatter per row; when a call's sums cannot pass 64 bits, the
//! sum and the count of a row are packed into one `i128` add.
//!
//! A single batch summed by group straight to its results
//! ([`GroupSums::sum_batch`]) keeps no state: each group's sum is an `i64`,
//! one add per row whose overflow flag is ORed rather than branched on (an
//! exact `S_g` whenever no add overflowed, for any number of rows; the
//! general path otherwise), and no count: `n_g > 0` wherever `S_g != 0`, and
//! only when some sum is zero are the group indices read again for the
//! groups of valid rows.

use arrow_buffer::{BooleanBuffer, NullBuffer, i256};
use ethnum::I256;

use crate::aggregate::{
    BLOCK_ROWS, first_out_of_range, for_each_block, prefetch, reserve_groups,
};
use crate::columns::column::Column;
use crate::columns::operand::{Operand, Values};
use crate::columns::storage::Storage;
use crate::driver::error::KernelError;
use crate::driver::output::Output;
use crate::driver::plan::column_bits;
use crate::driver::precision::check_precision;
use crate::driver::rows::{Policies, Rows};
use crate::int::work::{ethnum_to_i256, i256_to_ethnum};

/// The most rows a merged state may count: far beyond any real count, low
/// enough that adding rows to it never overflows, and that its sum (at most
/// `2^60 * 2^255`, below `5.8 * 2^60 * 10^76`) exports as a whole number of
/// `10^76`s in an `i64` (`AggregateState`'s `sum_high`).
const MAX_COUNT: u64 = 1 << 60;

/// The largest sum a merge keeps in the narrow form: any later batch of
/// 64-bit rows (fewer than `2^64` of them) added to it stays within `i128`.
const NARROW_BOUND: u128 = 1 << 126;

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
/// use decimal_kernels_native::{GroupSums, Operand, Output, Policies, Rows};
/// let cents = [150i64, -25, 990, 5];
/// let mut sums = GroupSums::new(2);
/// sums.update(Operand::array(&cents[..]), Some(&[0, 1, 0, 1]), &Rows::new(4))?;
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
    I256Carry {
        /// The sums modulo `2^256`.
        low: Vec<I256>,
        /// The carries out of `low`.
        carry: Vec<i64>,
    },
}

impl GroupSums {
    /// `groups` empty groups.
    ///
    /// # Panics
    /// As `vec!`, when memory for `groups` groups cannot be had: a count
    /// from input goes to [`resize`](Self::resize), which refuses it.
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
            Sums::I256Carry { low, carry } => {
                low.capacity() * size_of::<I256>() + carry.capacity() * size_of::<i64>()
            }
        };
        sums + self.counts.capacity() * size_of::<i64>()
    }

    /// Makes it `groups` groups: new ones are empty, groups from `groups` on
    /// are dropped.
    ///
    /// # Errors
    /// [`KernelError::TooManyGroups`] when memory for `groups` groups cannot
    /// be had; it is then left as it was.
    pub fn resize(&mut self, groups: usize) -> Result<(), KernelError> {
        match &mut self.sums {
            Sums::Narrow(sums) => reserve_groups(groups, [sums, &mut self.counts])?,
            Sums::I256Carry { low, carry } => {
                reserve_groups(groups, [low, carry, &mut self.counts])?;
            }
        }
        // The room is reserved: nothing below allocates, or fails.
        self.counts.resize(groups, 0);
        match &mut self.sums {
            Sums::Narrow(sums) => sums.resize(groups, 0),
            Sums::I256Carry { low, carry } => {
                low.resize(groups, I256::ZERO);
                carry.resize(groups, 0);
            }
        }
        Ok(())
    }

    /// Takes out the first `n` groups (all when `n` exceeds their number);
    /// the others move down to `0..`.
    #[must_use]
    pub fn take_first(&mut self, n: usize) -> Self {
        let n = n.min(self.len());
        if n == self.len() {
            // All of them: moved out, not copied.
            let sums = match self.sums {
                Sums::Narrow(_) => Sums::Narrow(Vec::new()),
                Sums::I256Carry { .. } => Sums::I256Carry { low: Vec::new(), carry: Vec::new() },
            };
            return core::mem::replace(self, Self { sums, counts: Vec::new() });
        }
        let counts = self.counts.drain(..n).collect();
        let sums = match &mut self.sums {
            Sums::Narrow(sums) => Sums::Narrow(sums.drain(..n).collect()),
            Sums::I256Carry { low, carry } => {
                Sums::I256Carry { low: low.drain(..n).collect(), carry: carry.drain(..n).collect() }
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
            Sums::I256Carry { low, carry } => (ethnum_to_i256(low[g]), carry[g]),
        };
        Some(GroupSum { sum_low, sum_carry, count })
    }

    /// Adds the valid rows of `values` to their groups: row `i` to group
    /// `groups[i]`, or every row to group 0 when `groups` is `None`.
    ///
    /// # Errors
    /// [`KernelError::LengthMismatch`] when `values`, `groups` or the
    /// validity do not have `rows.len` rows; [`KernelError::GroupOutOfRange`]
    /// for the first row whose group is not below [`len`](Self::len) (with
    /// `groups` `None`: when there is no group); [`KernelError::UnsupportedSpec`]
    /// for a single value; [`KernelError::TooManyGroups`] when memory for
    /// the sums widened to `i256` cannot be had. Nothing is added when it
    /// fails.
    pub fn update(
        &mut self,
        values: Operand<'_>,
        groups: Option<&[usize]>,
        rows: &Rows<'_>,
    ) -> Result<(), KernelError> {
        rows.check(&[&values])?;
        let Values::Array(column) = values.values else {
            return Err(KernelError::UnsupportedSpec { reason: "a sum adds a column" });
        };
        self.check_rows(groups, rows.len)?;
        if rows.len == 0 {
            return Ok(());
        }
        let bound = narrow_bound(&values, &column);
        let len = self.len();
        let out_of_range = |row: usize, groups: &[usize]| KernelError::GroupOutOfRange {
            row,
            group: groups[row],
            groups: len,
        };
        // The `i256` loop checks every group first (the narrow ones check
        // as they go, and undo): a refused call neither adds nor widens.
        if let Some(groups) = groups
            && (bound.is_none() || matches!(self.sums, Sums::I256Carry { .. }))
            && let Some(row) = first_out_of_range(groups, len)
        {
            return Err(out_of_range(row, groups));
        }
        if bound.is_none() {
            self.i256_carry()?;
        }
        match groups {
            Some(groups) => {
                let counts = &mut self.counts[..];
                match &mut self.sums {
                    Sums::Narrow(sums) => {
                        // A group's sum over this call fits i64 (and there
                        // are no more groups than rows to unpack).
                        let packs = len <= rows.len
                            && bound
                                .and_then(|b| b.checked_mul(rows.len as u128))
                                .is_some_and(|b| b < 1 << 63);
                        let add = if packs { add_grouped_packed } else { add_grouped_narrow };
                        add(sums, counts, &column, groups, rows.nulls)
                            .map_err(|row| out_of_range(row, groups))?;
                    }
                    Sums::I256Carry { low, carry } => {
                        add_grouped_i256(low, carry, counts, &column, groups, rows.nulls);
                    }
                }
            }
            None => {
                let valid = rows.len - rows.nulls.map_or(0, NullBuffer::null_count);
                self.counts[0] += i64::try_from(valid).unwrap_or(i64::MAX);
                match &mut self.sums {
                    Sums::Narrow(sums) => sums[0] += column_sum_narrow(&column, rows.nulls),
                    Sums::I256Carry { low, carry } => {
                        let (l, c) = column_sum_i256(&column, rows.nulls);
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
    /// not one that rows can add up to: a count beyond `2^60`, a sum beyond
    /// `count * 2^255` in magnitude; [`KernelError::TooManyGroups`] when
    /// memory for the sums widened to `i256` cannot be had. Nothing is added
    /// when it fails.
    pub fn merge(&mut self, g: usize, part: GroupSum) -> Result<(), KernelError> {
        let groups = self.len();
        let Some(count) = self.counts.get(g).copied() else {
            return Err(KernelError::GroupOutOfRange { row: 0, group: g, groups });
        };
        let total = u64::try_from(count).unwrap_or_default().saturating_add(part.count);
        if total > MAX_COUNT || !within_rows(part) {
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
        let (low, carry) = self.i256_carry()?;
        let (sum, carried) = add_carrying(low[g], i256_to_ethnum(part.sum_low));
        low[g] = sum;
        carry[g] += part.sum_carry + carried;
        self.counts[g] += i64::try_from(part.count).unwrap_or_default();
        Ok(())
    }

    /// The sums and counts of every group while they are in the narrow form
    /// (sums of values of at most 64 bits): what a compact state exports.
    #[must_use]
    pub fn narrow_sums(&self) -> Option<(&[i128], &[i64])> {
        match &self.sums {
            Sums::Narrow(sums) => Some((sums, &self.counts)),
            Sums::I256Carry { .. } => None,
        }
    }

    /// Adds partial sums held as `i128` (a compact state: another
    /// partition's [`narrow_sums`](Self::narrow_sums)) in one pass: part `i`
    /// to group `groups[i]`, counting `counts[i]` rows, or one row when
    /// `counts` is `None` (a `sum`'s state, whose null marks a group without
    /// rows); a null part adds nothing.
    ///
    /// # Errors
    /// [`KernelError::LengthMismatch`] when `groups`, `valid` or `counts` do
    /// not have a row per part; [`KernelError::GroupOutOfRange`] for the
    /// first part whose group is not a group; [`KernelError::StateOutOfRange`]
    /// for the first part that no rows add up to (a sum without rows) or
    /// that takes its group's count beyond `2^60`. The parts before the
    /// failing one are added. A sum beyond `2^126` (no `2^64` rows of
    /// 18-digit values reach `2^124`, but values beyond their precision can)
    /// moves the sums to the wide form, exact.
    pub fn merge_i128(
        &mut self,
        groups: &[usize],
        sums: &[i128],
        valid: Option<&NullBuffer>,
        counts: Option<&[u64]>,
    ) -> Result<(), KernelError> {
        let parts = sums.len();
        for len in [Some(groups.len()), valid.map(NullBuffer::len), counts.map(<[u64]>::len)] {
            match len {
                Some(len) if len != parts => {
                    return Err(KernelError::LengthMismatch { expected: parts, actual: len });
                }
                _ => {}
            }
        }
        let len = self.len();
        let start = self.merge_i128_narrow(groups, sums, valid, counts);
        let rows = groups.iter().zip(sums).enumerate().skip(start);
        for (i, (&g, &v)) in rows {
            if valid.is_some_and(|n| n.is_null(i)) {
                continue;
            }
            let rows = counts.map_or(1, |c| c[i]);
            if g >= len {
                return Err(KernelError::GroupOutOfRange { row: i, group: g, groups: len });
            }
            let total = u64::try_from(self.counts[g]).unwrap_or_default().saturating_add(rows);
            if total > MAX_COUNT || (rows == 0 && v != 0) {
                return Err(KernelError::StateOutOfRange);
            }
            // Narrow while the sum stays within 2^126 (then adding any later
            // batch of 64-bit rows cannot overflow `i128`), else exact in
            // the wide form (values beyond the declared precision).
            let narrow = match &mut self.sums {
                Sums::Narrow(narrow) => match narrow[g].checked_add(v) {
                    Some(sum) if sum.unsigned_abs() <= NARROW_BOUND => {
                        narrow[g] = sum;
                        true
                    }
                    _ => false,
                },
                Sums::I256Carry { .. } => false,
            };
            if !narrow {
                let (low, carry) = self.i256_carry()?;
                let (sum, carried) = add_carrying(low[g], I256::from(v));
                low[g] = sum;
                carry[g] += carried;
            }
            self.counts[g] += i64::try_from(rows).unwrap_or_default();
        }
        Ok(())
    }

    /// The first pass of [`merge_i128`](Self::merge_i128): adds the parts
    /// in order while each is sure to succeed in the narrow form (its group
    /// in range, its count within bounds, the sum within `2^126`), and
    /// returns the first part it did not take, which the general loop
    /// takes from (and reports, if it fails).
    ///
    /// A merge scatters its parts over the groups at random, so each part
    /// costs a cache miss on its sum and one on its count; the pass asks
    /// for those of the part [`AHEAD`] rows on before it adds this one, so
    /// the misses overlap instead of following one another.
    fn merge_i128_narrow(
        &mut self,
        groups: &[usize],
        sums: &[i128],
        valid: Option<&NullBuffer>,
        counts: Option<&[u64]>,
    ) -> usize {
        const AHEAD: usize = 16;
        let Sums::Narrow(narrow) = &mut self.sums else {
            return 0;
        };
        let group_counts = &mut self.counts[..];
        for (i, (&g, &v)) in groups.iter().zip(sums).enumerate() {
            if let Some(&ahead) = groups.get(i + AHEAD) {
                prefetch(narrow, ahead);
                prefetch(group_counts, ahead);
            }
            if valid.is_some_and(|n| n.is_null(i)) {
                continue;
            }
            let rows = counts.map_or(Some(1), |c| c.get(i).copied());
            let (Some(sum), Some(count), Some(rows)) =
                (narrow.get_mut(g), group_counts.get_mut(g), rows)
            else {
                return i;
            };
            let total = u64::try_from(*count).unwrap_or(u64::MAX).saturating_add(rows);
            match sum.checked_add(v) {
                Some(s) if s.unsigned_abs() <= NARROW_BOUND && total <= MAX_COUNT => {
                    if rows == 0 && v != 0 {
                        return i;
                    }
                    *sum = s;
                    *count = total as i64;
                }
                _ => return i,
            }
        }
        groups.len().min(sums.len())
    }

    /// Takes a partial sum out of group `g`: rows added to it before, leaving
    /// it (a sliding window's rows leaving its frame). The sum stays exact,
    /// as if those rows had never been added.
    ///
    /// # Errors
    /// [`KernelError::GroupOutOfRange`] (row 0) when `g` is not a group;
    /// [`KernelError::StateOutOfRange`] when `part` is not one that rows add
    /// up to, or counts more rows than the group holds. Nothing is taken out
    /// when it fails.
    pub fn retract(&mut self, g: usize, part: GroupSum) -> Result<(), KernelError> {
        let groups = self.len();
        let Some(count) = self.counts.get(g).copied() else {
            return Err(KernelError::GroupOutOfRange { row: 0, group: g, groups });
        };
        let taken = i64::try_from(part.count).map_err(|_| KernelError::StateOutOfRange)?;
        if taken > count || !within_rows(part) {
            return Err(KernelError::StateOutOfRange);
        }
        let left = count - taken;
        if let Sums::Narrow(sums) = &mut self.sums
            && part.sum_carry == 0
            && let Some(v) = part.sum_low.to_i128()
        {
            // Both sums are below 2^60 * 2^63 in magnitude: no overflow. The
            // rest stays narrow while it could be a sum of its rows' 64-bit
            // values (it always is when the rows taken out were added).
            let rest = sums[g] - v;
            if rest.unsigned_abs() <= u128::from(left.unsigned_abs()) << 63 {
                sums[g] = rest;
                self.counts[g] = left;
                return Ok(());
            }
        }
        // -(low + carry * 2^256), with -i256::MIN = i256::MIN + 2^256.
        let (negated, borrow) = match part.sum_low.checked_neg() {
            Some(n) => (n, 0),
            None => (part.sum_low, 1),
        };
        let (low, carry) = self.i256_carry()?;
        let (sum, carried) = add_carrying(low[g], i256_to_ethnum(negated));
        low[g] = sum;
        carry[g] += borrow - part.sum_carry + carried;
        self.counts[g] = left;
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
        let rows = Rows::new(self.len()).with_nulls(nonempty.as_ref()).with_policies(policies);
        match &self.sums {
            Sums::Narrow(sums) => check_precision(sums, precision, &rows),
            Sums::I256Carry { low, carry } => {
                // A sum beyond `i256` is beyond every precision: it is
                // replaced by a value beyond every precision.
                let sums: Vec<I256> = low
                    .iter()
                    .zip(carry)
                    .map(|(&l, &c)| if c == 0 { l } else { I256::MAX })
                    .collect();
                check_precision(&sums, precision, &rows)
            }
        }
    }

    /// The sums by group of a single batch, checked against `precision`
    /// digits and stored as `O`: what [`new`](Self::new) with `groups`
    /// groups, [`update`](Self::update) with `rows` of `values` in groups
    /// `group_indices`, then [`finish_sum`](Self::finish_sum) return, errors
    /// included, without the running state: for a caller whose rows come in
    /// one batch.
    ///
    /// Values of at most 64 bits are added in one `i64` per group, one add
    /// per row, and kept there when no add left `i64` (a flag per row, not a
    /// bound on the rows): no count, so a group is known to have valid rows
    /// from a sum that is not zero, and the group column is read again only
    /// when a sum is zero. `i128` values that are not known to fit 64 bits
    /// are checked row by row as they are added, not measured first. A sum
    /// that leaves `i64`, or values beyond it, run the general path instead.
    ///
    /// ```
    /// use decimal_kernels_native::{GroupSums, Operand, Output, Rows};
    /// let cents = [150i64, -25, 990, 5, 0];
    /// let out: Output<i64> =
    ///     GroupSums::sum_batch(Operand::array(&cents[..]), &[0, 1, 0, 1, 3], 4, 18, &Rows::new(5))?;
    /// assert_eq!(out.values[..2], [1_140, -20]);
    /// // Group 2 has no row, group 3 a row of zero.
    /// assert!(out.nulls.is_some_and(|n| n.is_null(2) && n.is_valid(3)));
    /// # Ok::<(), decimal_kernels_native::KernelError>(())
    /// ```
    ///
    /// # Errors
    /// As [`update`](Self::update) and [`finish_sum`](Self::finish_sum);
    /// [`KernelError::TooManyGroups`] when memory for `groups` groups cannot
    /// be had.
    pub fn sum_batch<O: Storage>(
        values: Operand<'_>,
        group_indices: &[usize],
        groups: usize,
        precision: u8,
        rows: &Rows<'_>,
    ) -> Result<Output<O>, KernelError> {
        if let Some(sums) = batch_sums_i64(&values, group_indices, groups, rows)? {
            let nonempty = nonempty_i64(&sums, group_indices, rows.nulls);
            let groups = Rows::new(groups).with_nulls(nonempty.as_ref());
            return check_precision(&sums, precision, &groups.with_policies(rows.policies));
        }
        let mut sums = Self::new(0);
        sums.resize(groups)?;
        sums.update(values, Some(group_indices), rows)?;
        sums.finish_sum(precision, rows.policies)
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

    /// The sums as `i256` with carries, moved there first if they are
    /// narrow (once: they stay so); [`KernelError::TooManyGroups`], the sums
    /// left narrow, when memory for the wide ones cannot be had.
    fn i256_carry(&mut self) -> Result<(&mut [I256], &mut [i64]), KernelError> {
        if let Sums::Narrow(sums) = &self.sums {
            let (mut low, mut carry) = (Vec::new(), Vec::new());
            reserve_groups(sums.len(), [&mut low, &mut carry])?;
            low.extend(sums.iter().map(|&s| I256::from(s)));
            carry.resize(sums.len(), 0);
            self.sums = Sums::I256Carry { low, carry };
        }
        Ok(match &mut self.sums {
            Sums::I256Carry { low, carry } => (low, carry),
            // Never: it was moved to that form above.
            Sums::Narrow(_) => (&mut [], &mut []),
        })
    }
}

/// A bound on `|v|` for every row (null rows included) when it is below
/// `2^63`, so that the values are read as `i64`: from the declared
/// precision, the storage, or one measuring pass (which also gives a
/// `Decimal128(38, s)` column of money its small bound); `None` when a value
/// may not fit.
fn narrow_bound(values: &Operand<'_>, column: &Column<'_>) -> Option<u128> {
    let storage: Option<u128> = match column {
        Column::I8(_) => Some(1 << 7),
        Column::I16(_) => Some(1 << 15),
        Column::I32(_) => Some(1 << 31),
        Column::I64(_) => Some(1 << 63),
        Column::I128(_) | Column::I256(_) => None,
    };
    let declared = values.precision.filter(|&p| p <= 18).map(|p| 10u128.pow(p.into()) - 1);
    storage.into_iter().chain(declared).min().or_else(|| {
        let bits = column_bits(column);
        (bits <= 63).then(|| 1 << bits)
    })
}

/// Whether `part.count` values of `i256` can add up to the part's sum:
/// `|S| <= count * 2^255` (nothing without rows), exactly.
///
/// With `S = 2^255 * (k + f)`, `k` an integer and `0 <= f < 1`: `k` is twice
/// the carry, less one when the low word is negative (whose `f` is then
/// `(low + 2^255) / 2^255`), and `f` is zero for a low word of 0 or
/// `i256::MIN`. A non-negative `S` is within the bound when `k < count`, or
/// `k = count` with `f = 0`; a negative one when `-k <= count`.
fn within_rows(part: GroupSum) -> bool {
    let negative_low = part.sum_low < i256::ZERO;
    let k = 2 * i128::from(part.sum_carry) - i128::from(negative_low);
    let whole = part.sum_low == i256::ZERO || part.sum_low == i256::MIN;
    let count = i128::from(part.count);
    if k >= 0 { k < count || (k == count && whole) } else { -k <= count }
}

/// `a + b` with the carry out of `i256` (`-1`, `0` or `1`).
#[inline(always)]
fn add_carrying(a: I256, b: I256) -> (I256, i64) {
    let (sum, overflowed) = a.overflowing_add(b);
    // An overflow goes the way of the addend's sign.
    let carry = if b.is_negative() { -1 } else { 1 };
    (sum, if overflowed { carry } else { 0 })
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
    let mut add = |g: usize, v: i128, n: i64| match (sums.get_mut(g), counts.get_mut(g)) {
        (Some(sum), Some(count)) => {
            *sum += v;
            *count += n;
            true
        }
        _ => false,
    };
    scatter_column(column, groups, nulls, |g, v, n| add(g, v.into(), n)).inspect_err(|&row| {
        // Every row before `row` has its group: taking them out cannot fail.
        // A failure's path, compiled once through the converting loop. The
        // value is negated in `i128`: `-i64::MIN` is not an `i64`.
        let _ =
            scatter_converted(column, &groups[..row], nulls, |g, v, n| add(g, -i128::from(v), -n));
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
    add: impl FnMut(usize, i64, i64) -> bool,
) -> Result<(), usize> {
    match column {
        Column::I64(values) => scatter_rows(values.iter().copied(), groups, nulls, add),
        Column::I128(values) => {
            // Fits 64 bits: the value is its low word.
            #[expect(clippy::cast_possible_truncation, reason = "the value fits i64")]
            let values = values.iter().map(|&v| v as i64);
            scatter_rows(values, groups, nulls, add)
        }
        _ => scatter_converted(column, groups, nulls, add),
    }
}

/// [`scatter_column`] for a column of any width, converted to `i64` a block
/// at a time.
fn scatter_converted(
    column: &Column<'_>,
    groups: &[usize],
    nulls: Option<&NullBuffer>,
    mut add: impl FnMut(usize, i64, i64) -> bool,
) -> Result<(), usize> {
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

/// [`GroupSums::sum_batch`]'s sums in `i64`, when every valid value and
/// every running sum fits it (`i64::MIN` excluded, which a precision check
/// in `i64` cannot take); `None` when the general path must add them. The
/// first row whose group is out of range fails the call, as in `update`.
fn batch_sums_i64(
    operand: &Operand<'_>,
    group_indices: &[usize],
    groups: usize,
    rows: &Rows<'_>,
) -> Result<Option<Vec<i64>>, KernelError> {
    rows.check(&[operand])?;
    let Values::Array(column) = operand.values else {
        return Err(KernelError::UnsupportedSpec { reason: "a sum adds a column" });
    };
    if group_indices.len() != rows.len {
        return Err(KernelError::LengthMismatch {
            expected: rows.len,
            actual: group_indices.len(),
        });
    }
    let mut sums = Vec::new();
    reserve_groups(groups, [&mut sums])?;
    sums.resize(groups, 0i64);
    let nulls = rows.nulls;
    let declared_narrow = operand.precision.is_some_and(|p| p <= 18);
    let exact = match column {
        Column::I64(values) => add_rows_i64(&mut sums, values, |v| (v, true), group_indices, nulls),
        // Declared within 18 digits: each value is its low word.
        #[expect(clippy::cast_possible_truncation, reason = "the value fits i64")]
        Column::I128(values) if declared_narrow => {
            add_rows_i64(&mut sums, values, |v| (v as i64, true), group_indices, nulls)
        }
        // Otherwise each value is its low word when that sign-extends to it.
        #[expect(clippy::cast_possible_truncation, reason = "checked against the value")]
        Column::I128(values) => add_rows_i64(
            &mut sums,
            values,
            |v| (v as i64, i128::from(v as i64) == v),
            group_indices,
            nulls,
        ),
        Column::I256(_) => return Ok(None),
        // Narrower storage always fits.
        _ => {
            let mut result = Ok(true);
            for_each_block::<i64>(&column, |start, block| {
                let rows = block.len().min(group_indices.len().saturating_sub(start));
                if !matches!(result, Ok(true)) || rows == 0 {
                    return;
                }
                let nulls = nulls.map(|n| n.slice(start, rows));
                let groups = &group_indices[start..start + rows];
                result =
                    add_rows_i64(&mut sums, &block[..rows], |v| (v, true), groups, nulls.as_ref())
                        .map_err(|row| start + row);
            });
            result
        }
    };
    let exact = exact.map_err(|row| KernelError::GroupOutOfRange {
        row,
        group: group_indices[row],
        groups,
    })?;
    Ok((exact && !sums.contains(&i64::MIN)).then_some(sums))
}

/// `sums[groups[i]] += read(values[i])` in `i64` for the valid rows (a null
/// row adds 0), where `read` gives the value and whether it fits `i64`;
/// returns whether every valid value fitted and no add overflowed (each add
/// sets a flag rather than branching), or the first row whose group is out
/// of range. The bounds check of the group is the only branch per row.
/// Out of line, so that the loop keeps its pointers in registers.
#[inline(never)]
fn add_rows_i64<V: Copy>(
    sums: &mut [i64],
    values: &[V],
    read: impl Fn(V) -> (i64, bool),
    groups: &[usize],
    nulls: Option<&NullBuffer>,
) -> Result<bool, usize> {
    let mut inexact = false;
    match nulls {
        None => {
            for (row, (&v, &g)) in values.iter().zip(groups).enumerate() {
                let (v, fits) = read(v);
                let Some(sum) = sums.get_mut(g) else { return Err(row) };
                let (s, overflowed) = sum.overflowing_add(v);
                *sum = s;
                inexact |= overflowed | !fits;
            }
        }
        Some(nulls) => {
            for (row, ((&v, &g), valid)) in values.iter().zip(groups).zip(nulls.iter()).enumerate()
            {
                let (v, fits) = read(v);
                let Some(sum) = sums.get_mut(g) else { return Err(row) };
                // A null row adds 0, whatever its bits.
                let (s, overflowed) = sum.overflowing_add(v & -i64::from(valid));
                *sum = s;
                inexact |= overflowed | (valid & !fits);
            }
        }
    }
    Ok(!inexact)
}

/// The validity of [`batch_sums_i64`]'s sums: a group whose sum is not zero
/// has a valid row; only when some sum is zero (an empty group, or rows that
/// cancel) is the group column read again, for the groups of the valid rows.
/// Every group index is in range (the sums were added).
fn nonempty_i64(
    sums: &[i64],
    group_indices: &[usize],
    nulls: Option<&NullBuffer>,
) -> Option<NullBuffer> {
    if !sums.contains(&0) {
        return None;
    }
    let mut nonempty: Vec<bool> = sums.iter().map(|&s| s != 0).collect();
    for (row, &g) in group_indices.iter().enumerate() {
        if nulls.is_none_or(|n| n.is_valid(row))
            && let Some(seen) = nonempty.get_mut(g)
        {
            *seen = true;
        }
    }
    Some(NullBuffer::from(nonempty)).filter(|n| n.null_count() > 0)
}

/// The same for values of any width, with carries.
#[inline(never)]
fn add_grouped_i256(
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
    for (i, block) in values.chunks(BLOCK_ROWS).enumerate() {
        total += match nulls {
            None => block_sum(block.iter().map(|&v| to(v))),
            Some(nulls) => {
                let valid = nulls.inner().slice(i * BLOCK_ROWS, block.len());
                if (block.len() - valid.count_set_bits()) * 8 <= block.len() {
                    // Few nulls: the whole block (the loop without nulls),
                    // less its null rows, found a word of validity at a time.
                    block_sum(block.iter().map(|&v| to(v))) - null_rows_sum(block, &valid, to)
                } else {
                    block_sum(block.iter().zip(valid.iter()).map(|(&v, ok)| to(v) & -i64::from(ok)))
                }
            }
        };
    }
    total
}

/// The sum of the rows of `block` that `valid` marks null (`valid` as long
/// as the block), read as `i64` by `to`.
fn null_rows_sum<S: Copy>(block: &[S], valid: &BooleanBuffer, to: impl Fn(S) -> i64) -> i128 {
    let words = valid.bit_chunks();
    // The bits of the last, partial word that are rows (`remainder_len < 64`).
    let tail = match words.remainder_len() {
        0 => 0,
        len => u64::MAX >> (64 - len),
    };
    let nulls = words.iter().map(|w| !w).chain(core::iter::once(!words.remainder_bits() & tail));
    let mut sum = 0i128;
    for (word, mut rows) in nulls.enumerate() {
        while rows != 0 {
            let row = word * 64 + rows.trailing_zeros() as usize;
            sum += block.get(row).map_or(0, |&v| i128::from(to(v)));
            rows &= rows - 1;
        }
    }
    sum
}

/// The exact sum of at most [`BLOCK_ROWS`] 64-bit values: their high and low 32-bit
/// halves are summed apart in 64-bit lanes (no carry from row to row, where
/// an `i128` sum would carry on every row), and joined once.
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
fn column_sum_i256(column: &Column<'_>, nulls: Option<&NullBuffer>) -> (I256, i64) {
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

#[cfg(test)]
mod tests {
    use core::marker::PhantomData;

    use super::*;
    use crate::columns::storage::{Stored, TOKEN};
    use crate::driver::rows::OverflowPolicy;
    use crate::testing::{assert_same_outcome, big, values};
    use num_bigint::BigInt;
    use rstest::rstest;

    /// Under the `Null` overflow policy.
    const NULL: Policies =
        Policies { on_overflow: OverflowPolicy::Null, on_divide_by_zero: OverflowPolicy::Error };

    /// The oracle: each group's exact sum and count of valid rows.
    #[derive(Clone, Debug)]
    struct Oracle {
        sums: Vec<BigInt>,
        counts: Vec<u64>,
    }

    impl Oracle {
        fn new(groups: usize) -> Self {
            Self { sums: vec![BigInt::from(0); groups], counts: vec![0; groups] }
        }

        /// Adds the valid rows (`valid` `None`: all) to their groups (`None`:
        /// group 0).
        fn add(&mut self, values: &[i256], groups: Option<&[usize]>, valid: Option<&[bool]>) {
            for (row, &v) in values.iter().enumerate() {
                if valid.is_none_or(|valid| valid[row]) {
                    let g = groups.map_or(0, |groups| groups[row]);
                    self.sums[g] += big(v);
                    self.counts[g] += 1;
                }
            }
        }
    }

    /// A group's exact sum from its parts.
    fn exact(part: GroupSum) -> BigInt {
        big(part.sum_low) + (BigInt::from(part.sum_carry) << 256)
    }

    /// Every group of `sums` holds the oracle's exact sum and count.
    #[track_caller]
    fn assert_exact(sums: &GroupSums, oracle: &Oracle, context: &str) {
        assert_eq!(sums.len(), oracle.sums.len(), "{context}: groups");
        for g in 0..sums.len() {
            let part = sums.group(g).expect("a group below len");
            assert_eq!(
                (exact(part), part.count),
                (oracle.sums[g].clone(), oracle.counts[g]),
                "{context}: group {g}"
            );
        }
        assert_eq!(sums.group(sums.len()), None, "{context}: no group past the last");
    }

    fn is_narrow(sums: &GroupSums) -> bool {
        matches!(sums.sums, Sums::Narrow(_))
    }

    /// Compact parts merged into three groups (more than the narrow pass
    /// looks ahead, so its prefetches reach real groups): every part the
    /// oracle's, whether the narrow pass takes it or hands the rest to the
    /// general loop (a sum past `2^126`, a part of no rows, a group out of
    /// range), and the failing part and those after it not added.
    #[rstest]
    #[case::all_narrow(vec![(0, 5, 1), (2, -7, 3)], None)]
    #[case::past_2_126_midway(vec![(1, 1 << 125, 1), (1, 1 << 125, 1), (1, 1, 1), (0, -3, 2)], None)]
    #[case::max_parts_widen(vec![(0, i128::MAX, 1), (0, i128::MAX, 1), (0, i128::MIN, 1)], None)]
    #[case::a_sum_of_no_rows(vec![(0, 4, 1), (1, 9, 0), (2, 1, 1)], Some(1))]
    #[case::group_out_of_range(vec![(0, 4, 1), (3, 9, 1), (2, 1, 1)], Some(1))]
    fn merged_compact_parts_are_exact(
        #[case] parts: Vec<(usize, i128, u64)>,
        #[case] fails_at: Option<usize>,
    ) {
        // Each part repeated, a null one between them: 20 rows or more.
        let repeats = 20usize.div_ceil(parts.len());
        let rows: Vec<(usize, i128, u64)> =
            (0..repeats).flat_map(|_| parts.iter().copied()).collect();
        let mut with_null = rows.clone();
        with_null.insert(0, (0, 77, 5));
        let groups: Vec<usize> = with_null.iter().map(|p| p.0).collect();
        let sums_in: Vec<i128> = with_null.iter().map(|p| p.1).collect();
        let counts_in: Vec<u64> = with_null.iter().map(|p| p.2).collect();
        let valid = NullBuffer::from_iter((0..with_null.len()).map(|i| i != 0));
        let mut sums = GroupSums::new(3);
        let got = sums.merge_i128(&groups, &sums_in, Some(&valid), Some(&counts_in));
        let mut oracle = Oracle::new(3);
        let taken = fails_at.map_or(with_null.len(), |row| row + 1);
        for &(g, v, n) in &with_null[1..taken] {
            oracle.sums[g] += BigInt::from(v);
            oracle.counts[g] += n;
        }
        match fails_at {
            None => assert_eq!(got, Ok(())),
            Some(row) if groups[row + 1] >= 3 => assert_eq!(
                got,
                Err(KernelError::GroupOutOfRange { row: row + 1, group: groups[row + 1], groups: 3 })
            ),
            Some(_) => assert_eq!(got, Err(KernelError::StateOutOfRange)),
        }
        assert_exact(&sums, &oracle, "merged parts");
    }

    /// `values` stored as `T` (their low bits).
    fn stored<T: Stored>(values: &[i256]) -> Vec<T> {
        values.iter().map(|&v| T::store(i256_to_ethnum(v))).collect()
    }

    fn nulls(valid: &[bool]) -> NullBuffer {
        NullBuffer::from(valid.to_vec())
    }

    /// `2^k` as an `i256`.
    fn pow2(k: u32) -> i256 {
        crate::testing::to_i256(&(BigInt::from(1) << k)).unwrap_or(i256::MIN)
    }

    /// `rows` values of at most `bits` bits (both extremes of that many bits
    /// every 97th row), every 7th row null, in `groups - 1` groups (the last
    /// group stays empty).
    fn narrow_rows(rows: usize, bits: u32, groups: usize) -> (Vec<i256>, Vec<bool>, Vec<usize>) {
        let (min, max) = (pow2(bits - 1).wrapping_neg(), pow2(bits - 1).wrapping_sub(i256::ONE));
        let values: Vec<i256> = values(rows, bits.min(63) - 1, u64::from(bits))
            .into_iter()
            .enumerate()
            .map(|(row, v)| match row % 97 {
                5 => min,
                50 => max,
                _ => i256::from_i128(v.into()),
            })
            .collect();
        let valid = (0..rows).map(|row| row % 7 != 3).collect();
        let group = (0..rows).map(|row| row * 31 % (groups - 1)).collect();
        (values, valid, group)
    }

    /// Every storage width with values of at most 64 bits (up to its own
    /// extremes, or `±2^62` in `i128` and `i256`, which measure below 64 bits):
    /// sums stay in `i128`, exact, by group and over the whole column, across
    /// the 1024-row blocks and in several batches.
    #[rstest]
    #[case::i8(PhantomData::<i8>, 8)]
    #[case::i16(PhantomData::<i16>, 16)]
    #[case::i32(PhantomData::<i32>, 32)]
    #[case::i64(PhantomData::<i64>, 64)]
    #[case::i128(PhantomData::<i128>, 63)]
    #[case::i256(PhantomData::<i256>, 63)]
    fn narrow_sums_at_every_storage_width<T: Stored>(
        #[case] _width: PhantomData<T>,
        #[case] bits: u32,
    ) {
        let (values, valid, groups) = narrow_rows(2500, bits, 6);
        let column = stored::<T>(&values);
        let validity = nulls(&valid);
        let mut oracle = Oracle::new(6);
        let mut by_group = GroupSums::new(6);
        for (start, end) in [(0, 1), (1, 1000), (1000, 1000), (1000, 2500)] {
            let batch = Operand::array(&column[start..end]);
            let batch_nulls = validity.slice(start, end - start);
            let rows = Rows::new(end - start).with_nulls(Some(&batch_nulls));
            by_group.update(batch, Some(&groups[start..end]), &rows).unwrap();
            oracle.add(&values[start..end], Some(&groups[start..end]), Some(&valid[start..end]));
        }
        assert!(is_narrow(&by_group), "{bits}-bit values stay in i128");
        assert_exact(&by_group, &oracle, "by group");

        let mut whole = GroupSums::new(1);
        let rows = Rows::new(values.len()).with_nulls(Some(&validity));
        whole.update(Operand::array(&column[..]), None, &rows).unwrap();
        let mut whole_oracle = Oracle::new(1);
        whole_oracle.add(&values, None, Some(&valid));
        assert!(is_narrow(&whole));
        assert_exact(&whole, &whole_oracle, "whole column");

        // Finished at 38 digits: every sum, and the empty group null.
        let out: Output<i128> = by_group.finish_sum(38, Policies::default()).unwrap();
        for g in 0..6 {
            let valid = out.nulls.as_ref().is_none_or(|n| n.is_valid(g));
            assert_eq!(valid, oracle.counts[g] > 0, "group {g} validity");
            if valid {
                assert_eq!(BigInt::from(out.values[g]), oracle.sums[g], "group {g}");
            }
        }
    }

    #[rstest]
    #[case::all_min(&[i64::MIN])]
    #[case::all_max(&[i64::MAX])]
    #[case::min_and_max(&[i64::MIN, i64::MAX])]
    #[case::max_min_minus_one(&[i64::MAX, i64::MIN, -1, i64::MIN + 1])]
    #[case::low_halves_all_ones(&[0xFFFF_FFFF, -1, 0x7FFF_FFFF_FFFF_FFFF])]
    fn block_sum_of_extremes(#[case] pattern: &[i64]) {
        let block: Vec<i64> = pattern.iter().copied().cycle().take(BLOCK_ROWS).collect();
        let want: i128 = block.iter().map(|&v| i128::from(v)).sum();
        assert_eq!(block_sum(block.iter().copied()), want);
        assert_eq!(block_sum(block[..1].iter().copied()), i128::from(block[0]));
        assert_eq!(block_sum(core::iter::empty()), 0);
    }

    /// The whole-column sum over several blocks of 64-bit extremes, with null
    /// rows hiding extremes too.
    #[rstest]
    #[case::all_min(&[i64::MIN], None)]
    #[case::all_max(&[i64::MAX], None)]
    #[case::alternating(&[i64::MIN, i64::MAX], None)]
    #[case::min_with_a_third_null(&[i64::MIN, i64::MIN, i64::MAX], Some(3))]
    #[case::max_with_a_third_null(&[i64::MAX, i64::MAX, i64::MIN, 7], Some(3))]
    #[case::min_with_a_tenth_null(&[i64::MIN, i64::MIN, i64::MAX], Some(10))]
    #[case::max_with_an_eighth_null(&[i64::MAX, i64::MAX, i64::MIN, 7], Some(8))]
    #[case::alternating_one_in_97_null(&[i64::MIN, i64::MAX, -1], Some(97))]
    #[case::max_with_half_null(&[i64::MAX, i64::MIN + 1], Some(2))]
    // Rows 1 and 3,139 null: the second in the last block's partial word.
    #[case::a_null_in_the_last_partial_word(&[i64::MAX, 5], Some(3138))]
    fn whole_column_sum_of_64_bit_extremes(
        #[case] pattern: &[i64],
        #[case] null_every: Option<usize>,
    ) {
        let with_nulls = null_every.is_some();
        // Three full blocks and one of 69 rows: a partial validity word.
        let rows = 3 * BLOCK_ROWS + 69;
        let column: Vec<i64> = pattern.iter().copied().cycle().take(rows).collect();
        let valid: Vec<bool> =
            (0..rows).map(|row| null_every.is_none_or(|k| row % k != 1)).collect();
        let values: Vec<i256> = column.iter().map(|&v| i256::from_i128(v.into())).collect();
        let validity = nulls(&valid);
        let rows = Rows::new(rows).with_nulls(Some(&validity).filter(|_| with_nulls));
        let mut sums = GroupSums::new(1);
        sums.update(Operand::array(&column[..]), None, &rows).unwrap();
        let mut oracle = Oracle::new(1);
        oracle.add(&values, None, Some(&valid));
        assert!(is_narrow(&sums));
        assert_exact(&sums, &oracle, "whole column");
    }

    /// A batch of values beyond 64 bits moves the sums to the wide form,
    /// exact, and they stay there; the groups' earlier sums are kept.
    #[test]
    fn update_promotes_to_i256_with_carries() {
        let groups = [0, 1, 2, 1];
        let narrow: [i64; 4] = [i64::MIN, i64::MAX, -5, i64::MAX];
        let wide: [i128; 4] = [1 << 100, -(1 << 90), i128::MIN, 3];
        let mut sums = GroupSums::new(3);
        let mut oracle = Oracle::new(3);
        let as_i256 = |v: &[i128]| v.iter().map(|&v| i256::from_i128(v)).collect::<Vec<_>>();
        sums.update(Operand::array(&narrow[..]), Some(&groups), &Rows::new(4)).unwrap();
        oracle.add(&as_i256(&narrow.map(i128::from)), Some(&groups), None);
        assert!(is_narrow(&sums));
        sums.update(Operand::array(&wide[..]), Some(&groups), &Rows::new(4)).unwrap();
        oracle.add(&as_i256(&wide), Some(&groups), None);
        assert!(!is_narrow(&sums), "128-bit values widen the sums");
        assert_exact(&sums, &oracle, "after the wide batch");
        sums.update(Operand::array(&narrow[..]), Some(&groups), &Rows::new(4)).unwrap();
        oracle.add(&as_i256(&narrow.map(i128::from)), Some(&groups), None);
        assert!(!is_narrow(&sums), "once wide, always wide");
        assert_exact(&sums, &oracle, "narrow values added to wide sums");

        // The whole-column path promotes the same way.
        let mut whole = GroupSums::new(1);
        let mut whole_oracle = Oracle::new(1);
        whole.update(Operand::array(&narrow[..]), None, &Rows::new(4)).unwrap();
        whole.update(Operand::array(&wide[..]), None, &Rows::new(4)).unwrap();
        whole_oracle.add(&as_i256(&narrow.map(i128::from)), None, None);
        whole_oracle.add(&as_i256(&wide), None, None);
        assert!(!is_narrow(&whole));
        assert_exact(&whole, &whole_oracle, "whole column");
    }

    /// Wide storage holding only small values is measured and stays narrow;
    /// one value past 63 bits (`i64::MIN` itself in `i128`) widens.
    #[rstest]
    #[case::small_values(&[1, -1, (1 << 62) - 1, -(1 << 62)], true)]
    #[case::i64_min_in_i128(&[1, i128::from(i64::MIN)], false)]
    #[case::just_past_i64(&[1, 1 << 63], false)]
    fn wide_storage_is_measured(#[case] values: &[i128], #[case] narrow: bool) {
        let mut sums = GroupSums::new(1);
        sums.update(Operand::array(values), None, &Rows::new(values.len())).unwrap();
        assert_eq!(is_narrow(&sums), narrow);
        let mut oracle = Oracle::new(1);
        let wide: Vec<i256> = values.iter().map(|&v| i256::from_i128(v)).collect();
        oracle.add(&wide, None, None);
        assert_exact(&sums, &oracle, "measured");
    }

    /// What [`GroupSums::sum_batch`] must return for one batch: a new
    /// state's `update`, then `finish_sum`.
    fn general_sum<O: Storage>(
        values: Operand<'_>,
        group_indices: &[usize],
        groups: usize,
        precision: u8,
        rows: &Rows<'_>,
    ) -> Result<Output<O>, KernelError> {
        let mut sums = GroupSums::new(groups);
        sums.update(values, Some(group_indices), rows)?;
        sums.finish_sum(precision, rows.policies)
    }

    /// `sum_batch` agrees with the general path, and whether it added the
    /// rows in `i64` itself (`fast`) or left them to the general path.
    #[track_caller]
    fn assert_batch_sum<O: Storage>(
        values: Operand<'_>,
        group_indices: &[usize],
        groups: usize,
        precision: u8,
        rows: &Rows<'_>,
        fast: bool,
    ) {
        let context = format!("{groups} groups, {} rows, {precision} digits", rows.len);
        let in_i64 = batch_sums_i64(&values, group_indices, groups, rows);
        assert_eq!(in_i64.map(|sums| sums.is_some()), Ok(fast), "{context}: added in i64");
        let want = general_sum::<O>(values, group_indices, groups, precision, rows);
        let got = GroupSums::sum_batch::<O>(values, group_indices, groups, precision, rows);
        assert_same_outcome(want, got, &context);
    }

    /// Money (`±<10^12`) in random groups, in every storage it can come in:
    /// `i128` declared within 18 digits (its low words), undeclared (checked
    /// row by row), `i64`, and `i32` (converted a block at a time): added in
    /// `i64`, with the same sums and null groups as the general path, at a
    /// precision every sum fits and at one most overflow (under `Null`).
    /// More groups than rows leaves groups empty: the group column is read
    /// again for the groups whose sum is zero.
    #[rstest]
    #[case::four_groups(8192, 4, false)]
    #[case::one_thousand_groups(8192, 1000, false)]
    #[case::one_thousand_groups_with_nulls(8192, 1000, true)]
    #[case::more_groups_than_rows(100, 1000, false)]
    #[case::more_groups_than_rows_with_nulls(100, 1000, true)]
    #[case::one_row(1, 3, false)]
    #[case::no_rows(0, 3, false)]
    fn sum_batch_of_money_adds_in_i64(
        #[case] rows: usize,
        #[case] groups: usize,
        #[case] with_nulls: bool,
    ) {
        let money: Vec<i64> = values(rows, 40, 5).iter().map(|v| v % 1_000_000_000_000).collect();
        let group_indices: Vec<usize> =
            values(rows, 40, 6).iter().map(|v| v.unsigned_abs() as usize % groups).collect();
        let validity = nulls(&(0..rows).map(|row| row % 10 != 3).collect::<Vec<_>>());
        let rows = Rows::new(rows).with_nulls(Some(&validity).filter(|_| with_nulls));
        let wide: Vec<i128> = money.iter().map(|&v| i128::from(v)).collect();
        let small: Vec<i32> = money.iter().map(|&v| (v % 1_000_000) as i32).collect();
        let null = rows.with_policies(NULL);
        for (precision, rows) in [(25, rows), (13, null)] {
            let declared = Operand::array(&wide[..]).assume_precision(15);
            assert_batch_sum::<i128>(declared, &group_indices, groups, precision, &rows, true);
            let undeclared = Operand::array(&wide[..]);
            assert_batch_sum::<i128>(undeclared, &group_indices, groups, precision, &rows, true);
            let narrow = Operand::array(&money[..]);
            assert_batch_sum::<i64>(narrow, &group_indices, groups, precision.min(18), &rows, true);
            let converted = Operand::array(&small[..]);
            assert_batch_sum::<i64>(converted, &group_indices, groups, precision, &rows, true);
        }
    }

    /// Groups whose sum is zero: with no row, with rows that cancel, with
    /// zeros, with only null rows (whose bits are not zero): only the ones
    /// with a valid row are valid.
    #[test]
    fn sum_batch_tells_zero_sums_from_empty_groups() {
        let values = [5i64, -5, 0, 7, 9, 1];
        let group_indices = [1, 1, 2, 3, 3, 4];
        let validity = nulls(&[true, true, true, false, false, true]);
        let rows = Rows::new(6).with_nulls(Some(&validity));
        let out: Output<i64> =
            GroupSums::sum_batch(Operand::array(&values[..]), &group_indices, 5, 18, &rows)
                .unwrap();
        let valid: Vec<bool> =
            (0..5).map(|g| out.nulls.as_ref().is_none_or(|n| n.is_valid(g))).collect();
        assert_eq!(valid, [false, true, true, false, true]);
        assert_eq!((out.values[1], out.values[2], out.values[4]), (0, 0, 1));
        assert_batch_sum::<i64>(Operand::array(&values[..]), &group_indices, 5, 18, &rows, true);
    }

    /// What `sum_batch` leaves to the general path, with the same result:
    /// values beyond 64 bits (not under null rows, where they are not
    /// added), `i256` storage, a sum that leaves `i64` on the way or ends at
    /// `i64::MIN`; a sum past `i64` that comes back is still added there.
    #[rstest]
    #[case::a_value_past_i64(&[1, 1 << 64, -3], &[true; 3], false)]
    #[case::i64_min_in_i128_is_a_64_bit_value(&[i128::from(i64::MIN), 1], &[true; 2], true)]
    #[case::values_past_i64_under_null_rows(&[1, 1 << 100, i128::MIN, 4], &[true, false, false, true], true)]
    #[case::a_sum_past_i64(&[i128::from(i64::MAX), 1, 1], &[true; 3], false)]
    #[case::a_sum_past_i64_and_back(&[i128::from(i64::MAX), 1, -1], &[true; 3], false)]
    #[case::a_sum_at_i64_min(&[-(1 << 62), -(1 << 62)], &[true; 2], false)]
    #[case::a_sum_at_i64_max(&[1 << 62, (1 << 62) - 1, 0], &[true; 3], true)]
    fn sum_batch_leaves_sums_past_i64_to_the_general_path(
        #[case] values: &[i128],
        #[case] valid: &[bool],
        #[case] fast: bool,
    ) {
        // One group for every row, and a second one that stays empty.
        let group_indices = vec![0; values.len()];
        let validity = nulls(valid);
        let rows = Rows::new(values.len()).with_nulls(Some(&validity));
        assert_batch_sum::<i128>(Operand::array(values), &group_indices, 2, 38, &rows, fast);
        let wide: Vec<i256> = values.iter().map(|&v| i256::from_i128(v)).collect();
        assert_batch_sum::<i256>(Operand::array(&wide[..]), &group_indices, 2, 76, &rows, false);
        // The same as i64 where every value fits.
        if let Ok(narrow) = values.iter().map(|&v| i64::try_from(v)).collect::<Result<Vec<_>, _>>()
        {
            assert_batch_sum::<i128>(
                Operand::array(&narrow[..]),
                &group_indices,
                2,
                38,
                &rows,
                fast,
            );
        }
    }

    /// Bad calls fail as the general path fails: the first row whose group
    /// is out of range (nothing returned), lengths, a single value, a
    /// storage too narrow for the precision, and a group beyond the
    /// precision under `Error`.
    #[test]
    fn sum_batch_fails_as_the_general_path() {
        let values = [999i64, 1, -1000, 4];
        let operand = Operand::array(&values[..]);
        let rows = Rows::new(4);
        let cases: [(&[usize], usize, u8, Rows<'_>); 5] = [
            (&[0, 1, 7, 9], 3, 18, rows),
            (&[0, 1, 2], 3, 18, rows),
            (&[0, 1, 2, 0], 3, 18, Rows::new(5)),
            // Group 0 sums to 1000: beyond 3 digits.
            (&[0, 0, 1, 2], 3, 3, rows),
            (&[0, 0, 1, 2], 3, 3, rows.with_policies(NULL)),
        ];
        for (group_indices, groups, precision, rows) in cases {
            let want = general_sum::<i16>(operand, group_indices, groups, precision, &rows);
            let got = GroupSums::sum_batch::<i16>(operand, group_indices, groups, precision, &rows);
            assert_same_outcome(want, got, &format!("{group_indices:?}, {precision} digits"));
        }
        let failed = GroupSums::sum_batch::<i16>(operand, &[0, 1, 7, 9], 3, 4, &rows);
        assert_eq!(
            failed.err(),
            Some(KernelError::GroupOutOfRange { row: 2, group: 7, groups: 3 })
        );
        let scalar = GroupSums::sum_batch::<i64>(Operand::scalar(1i64), &[0], 1, 18, &Rows::new(1));
        assert!(matches!(scalar, Err(KernelError::UnsupportedSpec { .. })));
        let narrow = GroupSums::sum_batch::<i8>(operand, &[0, 0, 1, 2], 3, 4, &rows);
        assert!(matches!(narrow, Err(KernelError::StorageTooNarrow { .. })));
    }

    /// A merged part that could be a sum of 64-bit values keeps the sums
    /// narrow; one that could not (beyond `count * 2^63`, or with a carry)
    /// moves them to the wide form, exact.
    #[rstest]
    #[case::at_the_narrow_bound(i256::from_i128(-3 << 63), 0, 3, true)]
    #[case::past_the_narrow_bound(i256::from_i128((3 << 63) + 1), 0, 3, false)]
    #[case::beyond_i128(i256::MAX, 0, 1, false)]
    #[case::with_a_carry(i256::MIN, 1, 2, false)]
    fn merge_promotes_only_what_64_bit_values_cannot_sum_to(
        #[case] sum_low: i256,
        #[case] sum_carry: i64,
        #[case] count: u64,
        #[case] narrow: bool,
    ) {
        let mut sums = GroupSums::new(2);
        let first = [7i64, -9];
        sums.update(Operand::array(&first[..]), Some(&[0, 1]), &Rows::new(2)).unwrap();
        let part = GroupSum { sum_low, sum_carry, count };
        sums.merge(1, part).unwrap();
        assert_eq!(is_narrow(&sums), narrow);
        let mut oracle = Oracle::new(2);
        oracle.sums[0] = BigInt::from(7);
        oracle.counts[0] = 1;
        oracle.sums[1] = exact(part) - 9;
        oracle.counts[1] = count + 1;
        assert_exact(&sums, &oracle, "merged");
    }

    /// Sums that leave `i256` and come back: `+max` four times then `-max`
    /// and `min` four times, by group (interleaved) and whole, and as parts
    /// merged.
    #[test]
    fn carries_out_of_i256_come_back() {
        let up = [i256::MAX; 4];
        let down = [i256::MIN, i256::MIN, i256::MAX.wrapping_neg(), i256::MIN];
        let mut sums = GroupSums::new(2);
        let mut whole = GroupSums::new(1);
        let mut oracle = Oracle::new(2);
        let mut whole_oracle = Oracle::new(1);
        let groups = [0, 1, 0, 1];
        for batch in [up, up, down, down] {
            sums.update(Operand::array(&batch[..]), Some(&groups), &Rows::new(4)).unwrap();
            whole.update(Operand::array(&batch[..]), None, &Rows::new(4)).unwrap();
            oracle.add(&batch, Some(&groups), None);
            whole_oracle.add(&batch, None, None);
            assert_exact(&sums, &oracle, "by group");
            assert_exact(&whole, &whole_oracle, "whole");
        }
        // Halfway the sums were far beyond i256; now they are small again.
        assert_eq!(whole.group(0).map(|p| p.sum_carry), Some(0));
        let out: Output<i256> = whole.finish_sum(76, Policies::default()).unwrap();
        assert_eq!(big(out.values[0]), whole_oracle.sums[0]);

        // Beyond i256 the sum overflows every precision: the group fails or
        // is nulled, the others are kept.
        let mut beyond = GroupSums::new(3);
        let two_groups = [1, 2, 1, 2];
        beyond.update(Operand::array(&up[..]), Some(&two_groups), &Rows::new(4)).unwrap();
        let small = [i256::ONE, i256::MIN];
        beyond.update(Operand::array(&small[..]), Some(&[0, 2]), &Rows::new(2)).unwrap();
        // Group 1 holds `2 * max` (a carry), group 2 `2 * max + min` (76
        // digits and more, no carry).
        assert_eq!(beyond.group(1).map(|p| p.sum_carry), Some(1));
        let failed: Result<Output<i256>, _> = beyond.finish_sum(76, Policies::default());
        assert_eq!(failed.err(), Some(KernelError::Overflow { row: 1 }));
        let nulled: Output<i256> = beyond.finish_sum(76, NULL).unwrap();
        let nulled_groups = nulled.nulls.as_ref().map(|n| (0..3).map(|g| n.is_valid(g)).collect());
        assert_eq!(nulled_groups, Some(vec![true, false, false]));
        assert_eq!(nulled.values[0], i256::ONE);

        // Merged as parts: the carries of both add up.
        let mut merged = GroupSums::new(1);
        for part in [sums.group(0), sums.group(1)].into_iter().flatten() {
            merged.merge(0, part).unwrap();
        }
        let mut total = Oracle::new(1);
        total.sums[0] = &oracle.sums[0] + &oracle.sums[1];
        total.counts[0] = oracle.counts[0] + oracle.counts[1];
        assert_exact(&merged, &total, "merged");
    }

    /// Parts beyond `i256` in both directions merge exactly: `4 * max` and
    /// `4 * min` cancel but for their difference.
    #[test]
    fn merged_carries_cancel() {
        let mut up = GroupSums::new(1);
        up.update(Operand::array(&[i256::MAX; 4][..]), None, &Rows::new(4)).unwrap();
        let mut down = GroupSums::new(1);
        down.update(Operand::array(&[i256::MIN; 4][..]), None, &Rows::new(4)).unwrap();
        let (up, down) = (up.group(0).unwrap(), down.group(0).unwrap());
        assert_eq!((up.sum_carry, down.sum_carry), (2, -2));
        let mut merged = GroupSums::new(1);
        merged.merge(0, up).unwrap();
        merged.merge(0, down).unwrap();
        assert_eq!(
            merged.group(0),
            Some(GroupSum { sum_low: i256::from_i128(-4), sum_carry: 0, count: 8 })
        );
    }

    /// Rows taken out again (a sliding frame) leave the sum and count of the
    /// rows that stay, exactly, in either form: narrow 64-bit values, and
    /// `i256` values whose running sum left `i256` (`i256::MIN` among them,
    /// whose negation does not fit).
    #[rstest]
    #[case::narrow(vec![i256::from_i128(i64::MAX.into()), i256::from_i128(-7), i256::from_i128(i64::MIN.into())], 2)]
    #[case::beyond_i256(vec![i256::MAX, i256::MAX, i256::MAX, i256::ONE], 2)]
    #[case::min_leaves(vec![i256::MIN, i256::MIN, i256::MAX, i256::from_i128(-3)], 1)]
    #[case::all_leave(vec![i256::MIN, i256::MAX, i256::MIN], 3)]
    fn retracted_rows_leave_the_sum_of_the_rest(#[case] rows: Vec<i256>, #[case] leaving: usize) {
        let mut sums = GroupSums::new(1);
        sums.update(Operand::array(&rows[..]), None, &Rows::new(rows.len())).unwrap();
        let mut gone = GroupSums::new(1);
        let first = &rows[..leaving];
        gone.update(Operand::array(first), None, &Rows::new(leaving)).unwrap();
        sums.retract(0, gone.group(0).unwrap()).unwrap();
        let mut oracle = Oracle::new(1);
        oracle.add(&rows[leaving..], None, None);
        assert_exact(&sums, &oracle, "retracted");
    }

    /// A part counting more rows than the group holds, or one no rows add up
    /// to, is refused and takes nothing out.
    #[rstest]
    #[case::more_rows_than_held(GroupSum { sum_low: i256::ONE, sum_carry: 0, count: 3 })]
    #[case::sum_without_rows(GroupSum { sum_low: i256::ONE, sum_carry: 0, count: 0 })]
    #[case::count_beyond_i64(GroupSum { sum_low: i256::ZERO, sum_carry: 0, count: u64::MAX })]
    fn retracting_what_was_not_added_is_refused(#[case] part: GroupSum) {
        let mut sums = GroupSums::new(1);
        sums.update(Operand::array(&[5i64, 6][..]), None, &Rows::new(2)).unwrap();
        let before = sums.clone();
        assert_eq!(sums.retract(0, part), Err(KernelError::StateOutOfRange));
        assert_eq!(
            sums.retract(1, part),
            Err(KernelError::GroupOutOfRange { row: 0, group: 1, groups: 1 })
        );
        assert_eq!(sums, before);
    }

    /// Groups `0..5` holding `g + 1` rows of the value `10^g` (and, when
    /// `wide`, one row of `2^200` more in group 3).
    fn five_groups(wide: bool) -> (GroupSums, Oracle) {
        let mut sums = GroupSums::new(5);
        let mut oracle = Oracle::new(5);
        let (mut values, mut groups) = (Vec::new(), Vec::new());
        for g in 0..5 {
            for _ in 0..=g {
                values.push(i256::from_i128(10i128.pow(g.try_into().unwrap())));
                groups.push(g);
            }
        }
        if wide {
            values.push(pow2(200));
            groups.push(3);
        }
        let rows = Rows::new(values.len());
        sums.update(Operand::array(&values[..]), Some(&groups), &rows).unwrap();
        oracle.add(&values, Some(&groups), None);
        assert_eq!(is_narrow(&sums), !wide);
        (sums, oracle)
    }

    /// The oracle's groups `range`.
    fn oracle_part(oracle: &Oracle, range: core::ops::Range<usize>) -> Oracle {
        Oracle { sums: oracle.sums[range.clone()].to_vec(), counts: oracle.counts[range].to_vec() }
    }

    #[rstest]
    #[case::narrow_none(false, 0)]
    #[case::narrow_two(false, 2)]
    #[case::narrow_all(false, 5)]
    #[case::narrow_more_than_all(false, 9)]
    #[case::wide_two(true, 2)]
    #[case::wide_four(true, 4)]
    #[case::wide_all(true, usize::MAX)]
    fn take_first_keeps_the_rest_renumbered(#[case] wide: bool, #[case] n: usize) {
        let (mut sums, oracle) = five_groups(wide);
        let taken = sums.take_first(n);
        let n = n.min(5);
        assert_exact(&taken, &oracle_part(&oracle, 0..n), "taken");
        assert_exact(&sums, &oracle_part(&oracle, n..5), "kept");
        assert_eq!(is_narrow(&taken), !wide);
        assert_eq!(is_narrow(&sums), !wide);
        // The kept groups go on from 0.
        if !sums.is_empty() {
            sums.update(Operand::array(&[1i64][..]), Some(&[0]), &Rows::new(1)).unwrap();
            let mut more = oracle_part(&oracle, n..5);
            more.sums[0] += 1;
            more.counts[0] += 1;
            assert_exact(&sums, &more, "kept, then added to");
        }
    }

    #[rstest]
    #[case::narrow_grow(false, 8)]
    #[case::narrow_shrink(false, 2)]
    #[case::narrow_to_none(false, 0)]
    #[case::wide_grow(true, 7)]
    #[case::wide_shrink(true, 4)]
    fn resize_adds_empty_groups_or_drops_the_last(#[case] wide: bool, #[case] groups: usize) {
        let (mut sums, oracle) = five_groups(wide);
        sums.resize(groups).unwrap();
        let mut want = oracle_part(&oracle, 0..groups.min(5));
        want.sums.resize(groups, BigInt::from(0));
        want.counts.resize(groups, 0);
        assert_exact(&sums, &want, "resized");
        assert_eq!(is_narrow(&sums), !wide);
        let out: Output<i256> = sums.finish_sum(76, Policies::default()).unwrap();
        for g in 0..groups {
            let valid = out.nulls.as_ref().is_none_or(|n| n.is_valid(g));
            assert_eq!(valid, g < 5, "group {g}: new groups are empty, so null");
        }
    }

    /// A narrow batch that scatters directly (no packing: an `i64` column
    /// without a declared precision, or more groups than rows) and meets a
    /// group out of range after some rows takes those rows out again.
    #[rstest]
    #[case::i64_unbounded(0, false)]
    #[case::i128_more_groups_than_rows(1, false)]
    #[case::i16_converted_more_groups_than_rows(2, false)]
    #[case::i64_with_nulls(0, true)]
    fn a_refused_narrow_batch_takes_its_rows_out_again(
        #[case] width: usize,
        #[case] with_nulls: bool,
    ) {
        let (mut sums, _) = five_groups(false);
        let before = sums.clone();
        // Four rows for five groups; the last row's group is out of range.
        let values = [7i16, -300, 9, 12];
        let groups = [4, 0, 4, 5];
        let (i64s, i128s) = (values.map(i64::from), values.map(i128::from));
        let input = match width {
            0 => Operand::array(&i64s[..]),
            1 => Operand::array(&i128s[..]),
            _ => Operand::array(&values[..]),
        };
        let nulls = NullBuffer::from(vec![true, false, true, true]);
        let rows = Rows::new(values.len()).with_nulls(with_nulls.then_some(&nulls));
        let got = sums.update(input, Some(&groups), &rows);
        assert_eq!(got, Err(KernelError::GroupOutOfRange { row: 3, group: 5, groups: 5 }));
        assert_eq!(sums, before, "the rows before the failing one are taken out again");
    }

    /// The same with `i64::MIN` among the rows taken out again: negated in
    /// `i128`, where `-i64::MIN` is a value.
    #[test]
    fn a_refused_batch_takes_i64_min_out_again() {
        let (mut sums, _) = five_groups(false);
        let before = sums.clone();
        let values = [i64::MIN, 5, i64::MIN];
        let groups = [1, 2, 5];
        let input = Operand::array(&values[..]).assume_precision(18);
        let got = sums.update(input, Some(&groups), &Rows::new(3));
        assert_eq!(got, Err(KernelError::GroupOutOfRange { row: 2, group: 5, groups: 5 }));
        assert_eq!(sums, before, "the rows before the failing one are taken out again");
    }

    #[rstest]
    #[case::first_row(&[5, 0, 1], 0, 5)]
    #[case::later_row(&[0, 1, 2, 3, 1], 3, 3)]
    #[case::usize_max(&[0, usize::MAX, 9], 1, usize::MAX)]
    fn update_names_the_first_row_out_of_range(
        #[case] groups: &[usize],
        #[case] row: usize,
        #[case] group: usize,
    ) {
        let (mut sums, _) = five_groups(false);
        sums.resize(3).unwrap();
        let before = sums.clone();
        // Values beyond 64 bits: a refused batch does not widen either.
        let values = vec![i256::MAX; groups.len()];
        let rows = Rows::new(groups.len());
        let got = sums.update(Operand::array(&values[..]), Some(groups), &rows);
        assert_eq!(got, Err(KernelError::GroupOutOfRange { row, group, groups: 3 }));
        assert_eq!(sums, before, "nothing is added when it fails");
    }

    #[test]
    fn whole_column_needs_a_group() {
        let mut sums = GroupSums::new(0);
        let got = sums.update(Operand::array(&[1i32][..]), None, &Rows::new(1));
        assert_eq!(got, Err(KernelError::GroupOutOfRange { row: 0, group: 0, groups: 0 }));
        // No rows, no group needed.
        sums.update(Operand::array(&[0i32; 0][..]), None, &Rows::new(0)).unwrap();
        assert!(sums.is_empty());
    }

    #[test]
    fn update_checks_lengths_and_shape() {
        let mut sums = GroupSums::new(2);
        let values = [1i64, 2, 3];
        let short = sums.update(Operand::array(&values[..]), Some(&[0, 1]), &Rows::new(3));
        assert_eq!(short, Err(KernelError::LengthMismatch { expected: 3, actual: 2 }));
        let validity = nulls(&[true, false]);
        let rows = Rows::new(3).with_nulls(Some(&validity));
        let bad_nulls = sums.update(Operand::array(&values[..]), Some(&[0, 1, 0]), &rows);
        assert_eq!(bad_nulls, Err(KernelError::LengthMismatch { expected: 3, actual: 2 }));
        let rows = Rows::new(2);
        let bad_values = sums.update(Operand::array(&values[..]), Some(&[0, 1]), &rows);
        assert_eq!(bad_values, Err(KernelError::LengthMismatch { expected: 2, actual: 3 }));
        let scalar = sums.update(Operand::scalar(5i64), Some(&[0]), &Rows::new(1));
        assert!(matches!(scalar, Err(KernelError::UnsupportedSpec { .. })));
        assert_eq!(sums, GroupSums::new(2));
    }

    #[test]
    fn merge_names_a_group_out_of_range() {
        let (mut sums, _) = five_groups(false);
        let before = sums.clone();
        let part = GroupSum { sum_low: i256::ONE, sum_carry: 0, count: 1 };
        assert_eq!(
            sums.merge(5, part),
            Err(KernelError::GroupOutOfRange { row: 0, group: 5, groups: 5 })
        );
        assert_eq!(sums, before);
    }

    /// `count * 2^255 + extra` as a part's low word and carry.
    fn part_beyond(count: u64, extra: i64, negative: bool) -> GroupSum {
        let bound: BigInt = BigInt::from(count) << 255u32;
        let total: BigInt = bound + BigInt::from(extra);
        let sum = if negative { -total } else { total };
        let modulus: BigInt = BigInt::from(1) << 256u32;
        // The low word as a signed value, the rest whole carries.
        let mut low: BigInt = ((&sum % &modulus) + &modulus) % &modulus;
        if low >= (BigInt::from(1) << 255u32) {
            low -= &modulus;
        }
        let carry: BigInt = (&sum - &low) / &modulus;
        let sum_low = crate::testing::to_i256(&low).expect("reduced below 2^255");
        let sum_carry = i64::try_from(carry).expect("a small carry");
        let part = GroupSum { sum_low, sum_carry, count };
        assert_eq!(exact(part), sum);
        part
    }

    /// States rows cannot add up to are refused, and leave the sums as they
    /// were; the extremes rows can reach are accepted (on top of two rows
    /// already there).
    #[rstest]
    #[case::count_beyond_the_limit(GroupSum { sum_low: i256::ZERO, sum_carry: 0, count: MAX_COUNT + 1 }, false)]
    #[case::count_at_the_limit(GroupSum { sum_low: i256::ONE, sum_carry: 0, count: MAX_COUNT - 2 }, true)]
    #[case::count_u64_max(GroupSum { sum_low: i256::ZERO, sum_carry: 0, count: u64::MAX }, false)]
    #[case::sum_without_rows(GroupSum { sum_low: i256::ONE, sum_carry: 0, count: 0 }, false)]
    #[case::carry_without_rows(GroupSum { sum_low: i256::ZERO, sum_carry: -1, count: 0 }, false)]
    #[case::empty_part(GroupSum { sum_low: i256::ZERO, sum_carry: 0, count: 0 }, true)]
    #[case::one_row_at_min(GroupSum { sum_low: i256::MIN, sum_carry: 0, count: 1 }, true)]
    #[case::one_row_past_max(part_beyond(1, 1, false), false)]
    #[case::one_row_two_to_256(part_beyond(1, 2i64.pow(62), false), false)]
    #[case::one_row_past_min(part_beyond(1, 1, true), false)]
    #[case::two_rows_at_the_bound(part_beyond(2, 0, false), true)]
    #[case::two_rows_past_the_bound(part_beyond(2, 1, false), false)]
    #[case::three_rows_at_the_bound(part_beyond(3, 0, true), true)]
    #[case::three_rows_past_the_bound(part_beyond(3, 1, true), false)]
    #[case::many_rows_past_the_bound(part_beyond(1001, 1, false), false)]
    #[case::many_carries_few_rows(GroupSum { sum_low: i256::ZERO, sum_carry: i64::MAX, count: 5 }, false)]
    #[case::negative_carries_few_rows(GroupSum { sum_low: i256::ZERO, sum_carry: i64::MIN, count: 5 }, false)]
    fn merge_refuses_states_rows_cannot_reach(#[case] part: GroupSum, #[case] accepted: bool) {
        for wide in [false, true] {
            // Two rows summing to -1, narrow or wide.
            let mut sums = GroupSums::new(1);
            if wide {
                sums.update(Operand::array(&[i256::MAX, i256::MIN][..]), None, &Rows::new(2))
                    .unwrap();
            } else {
                sums.update(Operand::array(&[0i64, -1][..]), None, &Rows::new(2)).unwrap();
            }
            let before = sums.clone();
            let got = sums.merge(0, part);
            if accepted {
                assert_eq!(got, Ok(()), "{part:?} (wide: {wide})");
                let mut want = Oracle::new(1);
                want.sums[0] = exact(part) - 1;
                want.counts[0] = part.count + 2;
                assert_exact(&sums, &want, "merged");
            } else {
                assert_eq!(got, Err(KernelError::StateOutOfRange), "{part:?} (wide: {wide})");
                assert_eq!(sums, before);
            }
        }
    }

    /// A count the group already holds counts toward the limit.
    #[test]
    fn merged_counts_add_up_to_the_limit() {
        let mut sums = GroupSums::new(1);
        sums.update(Operand::array(&[1i8][..]), None, &Rows::new(1)).unwrap();
        let at_limit = GroupSum { sum_low: i256::ZERO, sum_carry: 0, count: MAX_COUNT - 1 };
        sums.merge(0, at_limit).unwrap();
        let one_more = GroupSum { sum_low: i256::ZERO, sum_carry: 0, count: 1 };
        assert_eq!(sums.merge(0, one_more), Err(KernelError::StateOutOfRange));
        assert_eq!(sums.group(0).map(|p| p.count), Some(MAX_COUNT));
    }

    /// Finishing: the first group beyond the precision fails under `Error`
    /// (null groups before it do not), is nulled under `Null`; the output
    /// must hold the precision.
    #[test]
    fn finish_sum_checks_the_precision() {
        let values = [999i64, -1000, 5, 1000];
        let mut sums = GroupSums::new(4);
        sums.update(Operand::array(&values[..]), Some(&[1, 2, 3, 2]), &Rows::new(4)).unwrap();
        // Group 2 sums to 0; group 0 is empty.
        let out: Output<i16> = sums.finish_sum(3, Policies::default()).unwrap();
        assert_eq!(out.values.get(1..4), Some(&[999, 0, 5][..]));
        assert!(out.nulls.as_ref().is_some_and(|n| n.is_null(0) && n.null_count() == 1));

        let mut over = GroupSums::new(3);
        let values = [999i64, 1, 1000, -1000];
        over.update(Operand::array(&values[..]), Some(&[0, 0, 1, 2]), &Rows::new(4)).unwrap();
        let failed: Result<Output<i16>, _> = over.finish_sum(3, Policies::default());
        assert_eq!(failed.err(), Some(KernelError::Overflow { row: 0 }));
        let nulled: Output<i16> = over.finish_sum(3, NULL).unwrap();
        assert_eq!(nulled.nulls.map(|n| n.null_count()), Some(3));
        let narrow: Result<Output<i8>, _> = over.finish_sum(3, Policies::default());
        assert!(matches!(narrow, Err(KernelError::StorageTooNarrow { .. })));
    }

    /// Whatever the width, a sum of the extremes of `T` equals the oracle,
    /// grouped and whole (the sums of a column of one width's minimum).
    #[rstest]
    #[case::i8(PhantomData::<i8>)]
    #[case::i16(PhantomData::<i16>)]
    #[case::i32(PhantomData::<i32>)]
    #[case::i64(PhantomData::<i64>)]
    #[case::i128(PhantomData::<i128>)]
    #[case::i256(PhantomData::<i256>)]
    fn storage_extremes_sum_exactly<T: Stored>(#[case] _width: PhantomData<T>) {
        let bits = u32::try_from(8 * size_of::<T>()).unwrap();
        let (min, max) = (pow2(bits - 1).wrapping_neg(), pow2(bits - 1).wrapping_sub(i256::ONE));
        let rows = 2 * BLOCK_ROWS + 3;
        let values: Vec<i256> = (0..rows).map(|row| if row % 5 == 4 { max } else { min }).collect();
        let column = stored::<T>(&values);
        assert_eq!(column[0].widened(TOKEN), min);
        let groups: Vec<usize> = (0..rows).map(|row| row % 3).collect();
        let mut sums = GroupSums::new(3);
        sums.update(Operand::array(&column[..]), Some(&groups), &Rows::new(rows)).unwrap();
        let mut oracle = Oracle::new(3);
        oracle.add(&values, Some(&groups), None);
        assert_exact(&sums, &oracle, "grouped");
        let mut whole = GroupSums::new(1);
        whole.update(Operand::array(&column[..]), None, &Rows::new(rows)).unwrap();
        let mut whole_oracle = Oracle::new(1);
        whole_oracle.add(&values, None, None);
        assert_exact(&whole, &whole_oracle, "whole");
    }
}
