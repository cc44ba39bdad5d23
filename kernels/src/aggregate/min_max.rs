//! The least (`min`) or greatest (`max`) value of decimal columns, over the
//! whole column or by group, with partial extremes that merge.
//!
//! Formula: for each group `g`, `E_g = min v_i` (or `max v_i`) over the valid
//! rows `i` of the group; a group without valid rows is null. The stored
//! integers of one column share a scale, so their order is the order of the
//! decimals: nothing is rescaled or rounded, and the extreme is one of the
//! values. It is checked against the result precision once, at the end (an
//! unchecked value beyond its declared precision fails there, as a sum
//! does), unless every value folded was vouched to fit it. Extremes of any split of the rows merge to the extreme of the
//! whole, in any order: `min` and `max` are associative and commutative.
//!
//! Each group's extreme is kept in the narrowest of `i64`, `i128` and `i256`
//! that holds the values it has met (a column vouched to fit 18 digits is
//! read as `i64` whatever its storage), starting from the identity of the
//! extreme (the type's maximum for `min`, its minimum for `max`), so that a
//! null row is folded as the identity, with no branch. Whether a group has
//! met a valid row is not tracked row by row: a group whose extreme is not
//! the identity has; the groups still at the identity have not, unless a
//! valid row of the batch held the identity itself (a flag of the scatter),
//! and only then are the batch's rows read again (or, when a batch has fewer
//! rows than there are groups, the batch's valid rows mark their groups).
//!
//! The whole-column extreme reads the values at their storage width, in eight
//! running lanes (integer `min`/`max` of `i8`..`i64` lanes vectorize). `i128`
//! and `i256` values are first ordered by their top 64 bits, whose order
//! never contradicts theirs: a run of 16 rows (or a validity word's valid
//! rows) whose extreme top word is strictly beyond the running extreme's
//! cannot displace it and is skipped, with one vectorized 64-bit pass. With
//! nulls it takes 64 rows per validity word: an all-valid word folds its
//! rows as the path without nulls does, an all-null one is skipped, and a
//! mixed one is first folded as if all its rows were valid: when that leaves
//! the running extreme as it is, so would its valid rows (null rows rarely
//! hold values beyond a column's extreme; where they keep doing so, zeroed
//! against values of one sign, this stops after a few words). Otherwise it
//! selects the identity for its null rows. That loop is compiled for each
//! level of x86-64 (`driver::isa`), where AVX2 and AVX-512 have 64-bit
//! comparisons and AVX-512 64-bit `min`/`max` instructions.

use arrow_buffer::{NullBuffer, i256};
use ethnum::I256;

use crate::aggregate::{first_out_of_range, for_each_block, reserve_groups};
use crate::columns::column::{Column, with_column};
use crate::columns::in_place::InPlace;
use crate::columns::operand::{Operand, Values};
use crate::columns::storage::{Sealed, Storage, Stored, TOKEN};
use crate::driver::error::KernelError;
#[cfg(target_arch = "x86_64")]
use crate::driver::isa::Isa;
use crate::driver::isa::Runnable;
use crate::driver::output::Output;
use crate::driver::precision::stored;
use crate::driver::rows::{Policies, Rows};
use crate::int::width::WorkWidth;
use crate::int::work::{ethnum_to_i256, i256_to_ethnum};

/// Rows per group in a block from which the grouped extreme stores only
/// the rows that displace their group's extreme (fewer rows a group change
/// it often, and mispredicted branches cost more than the stores).
const ROWS_A_GROUP_TO_BRANCH: usize = 32;

/// The running lanes of the whole-column loop.
const LANES: usize = 8;

/// Which extreme a [`GroupExtremes`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extreme {
    /// The least value.
    Min,
    /// The greatest value.
    Max,
}

/// Running extremes of any number of groups.
///
/// ```
/// use decimal_kernels_native::{Extreme, GroupExtremes, Operand, Output, Rows};
/// let cents = [150i64, -25, 990, 5];
/// let mut least = GroupExtremes::new(Extreme::Min, 3);
/// least.update(Operand::array(&cents[..]), Some(&[0, 1, 0, 1]), &Rows::new(4))?;
/// let out: Output<i64> = least.finish(18, Default::default())?;
/// assert_eq!(out.values[..2], [150, -25]);
/// // Group 2 met no row: null.
/// assert!(out.nulls.is_some_and(|n| n.is_null(2)));
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupExtremes {
    extreme: Extreme,
    values: Values64To256,
    /// Whether each group has met a valid row (its value is then its
    /// extreme; otherwise the identity).
    seen: Vec<bool>,
    /// The digits every value folded so far is vouched to fit (the widest
    /// vouched column's precision; [`UNVOUCHED`] once a value was not):
    /// extremes finished at that precision or more need no check.
    vouched: u8,
}

/// [`GroupExtremes::vouched`] once a value of no vouched precision was
/// folded (beyond every precision).
const UNVOUCHED: u8 = u8::MAX;

/// The groups' extremes, in the narrowest width that holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Values64To256 {
    I64(Vec<i64>),
    I128(Vec<i128>),
    I256(Vec<I256>),
}

impl GroupExtremes {
    /// `groups` groups that have met no row.
    ///
    /// # Panics
    /// As `vec!`, when memory for `groups` groups cannot be had: a count
    /// from input goes to [`resize`](Self::resize), which refuses it.
    #[must_use]
    pub fn new(extreme: Extreme, groups: usize) -> Self {
        let identity = identity::<i64>(extreme);
        Self {
            extreme,
            values: Values64To256::I64(vec![identity; groups]),
            seen: vec![false; groups],
            vouched: 0,
        }
    }

    /// The number of groups.
    #[must_use]
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether there are no groups.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// The bytes its extremes take (their capacity), for an engine's memory
    /// accounting.
    #[must_use]
    pub fn allocated_bytes(&self) -> usize {
        let values = match &self.values {
            Values64To256::I64(v) => v.capacity() * size_of::<i64>(),
            Values64To256::I128(v) => v.capacity() * size_of::<i128>(),
            Values64To256::I256(v) => v.capacity() * size_of::<I256>(),
        };
        values + self.seen.capacity()
    }

    /// Makes it `groups` groups: new ones have met no row, groups from
    /// `groups` on are dropped.
    ///
    /// # Errors
    /// [`KernelError::TooManyGroups`] when memory for `groups` groups cannot
    /// be had; it is then left as it was.
    pub fn resize(&mut self, groups: usize) -> Result<(), KernelError> {
        match &mut self.values {
            Values64To256::I64(v) => reserve_groups(groups, [v, &mut self.seen])?,
            Values64To256::I128(v) => reserve_groups(groups, [v, &mut self.seen])?,
            Values64To256::I256(v) => reserve_groups(groups, [v, &mut self.seen])?,
        }
        // The room is reserved: nothing below allocates, or fails.
        let extreme = self.extreme;
        self.seen.resize(groups, false);
        match &mut self.values {
            Values64To256::I64(v) => v.resize(groups, identity(extreme)),
            Values64To256::I128(v) => v.resize(groups, identity(extreme)),
            Values64To256::I256(v) => v.resize(groups, identity(extreme)),
        }
        Ok(())
    }

    /// Takes out the first `n` groups (all when `n` exceeds their number);
    /// the others move down to `0..`.
    #[must_use]
    pub fn take_first(&mut self, n: usize) -> Self {
        let seen = take_front(&mut self.seen, n);
        let values = match &mut self.values {
            Values64To256::I64(v) => Values64To256::I64(take_front(v, n)),
            Values64To256::I128(v) => Values64To256::I128(take_front(v, n)),
            Values64To256::I256(v) => Values64To256::I256(take_front(v, n)),
        };
        Self { extreme: self.extreme, values, seen, vouched: self.vouched }
    }

    /// Group `g`'s extreme (`Some(None)` for a group that has met no valid
    /// row), `None` beyond the last group.
    #[must_use]
    pub fn group(&self, g: usize) -> Option<Option<i256>> {
        let seen = *self.seen.get(g)?;
        let value = match &self.values {
            Values64To256::I64(v) => i256::from_i128(v[g].into()),
            Values64To256::I128(v) => i256::from_i128(v[g]),
            Values64To256::I256(v) => ethnum_to_i256(v[g]),
        };
        Some(seen.then_some(value))
    }

    /// Folds the valid rows of `values` into their groups: row `i` into
    /// group `groups[i]`, or every row into group 0 when `groups` is `None`.
    ///
    /// # Errors
    /// [`KernelError::LengthMismatch`] when `values`, `groups` or the
    /// validity do not have `rows.len` rows; [`KernelError::GroupOutOfRange`]
    /// for the first row whose group is not below [`len`](Self::len) (with
    /// `groups` `None`: when there is no group); [`KernelError::UnsupportedSpec`]
    /// for a single value; [`KernelError::TooManyGroups`] when memory for
    /// the extremes widened to the column's width cannot be had. Nothing
    /// changes when it fails.
    pub fn update(
        &mut self,
        values: Operand<'_>,
        groups: Option<&[usize]>,
        rows: &Rows<'_>,
    ) -> Result<(), KernelError> {
        rows.check(&[&values])?;
        let Values::Array(column) = values.values else {
            return Err(KernelError::UnsupportedSpec { reason: "an extreme is of a column" });
        };
        let len = self.len();
        match groups {
            Some(groups) => {
                if groups.len() != rows.len {
                    return Err(KernelError::LengthMismatch {
                        expected: rows.len,
                        actual: groups.len(),
                    });
                }
                // Checked first, so that the scatter never fails half way (an
                // extreme cannot be taken out again).
                if let Some(row) = first_out_of_range(groups, len) {
                    return Err(KernelError::GroupOutOfRange {
                        row,
                        group: groups[row],
                        groups: len,
                    });
                }
                self.widen(values.declared_work())?;
                self.vouch(values.precision);
                self.update_grouped(&column, groups, rows.nulls);
                Ok(())
            }
            None => {
                if len == 0 && rows.len > 0 {
                    return Err(KernelError::GroupOutOfRange { row: 0, group: 0, groups: 0 });
                }
                let (extreme, precision) = (self.extreme, values.precision);
                if let Some(value) =
                    column_extreme(Runnable::active(), extreme, &column, precision, rows.nulls)
                {
                    self.fold_value(0, value)?;
                }
                self.vouch(precision);
                Ok(())
            }
        }
    }

    /// Folds a partial extreme (another partition's [`group`](Self::group))
    /// into group `g`; `None` (a group that met no row) changes nothing.
    ///
    /// # Errors
    /// [`KernelError::GroupOutOfRange`] (row 0) when `g` is not a group;
    /// [`KernelError::TooManyGroups`] when memory for the extremes widened
    /// to the part's width cannot be had. Nothing changes when it fails.
    pub fn merge(&mut self, g: usize, part: Option<i256>) -> Result<(), KernelError> {
        if g >= self.len() {
            return Err(KernelError::GroupOutOfRange { row: 0, group: g, groups: self.len() });
        }
        if let Some(value) = part {
            self.fold_value(g, value)?;
            self.vouch(None);
        }
        Ok(())
    }

    /// Folds partial extremes in one pass (another partition's
    /// [`group`](Self::group)s as a column): part `i` into group
    /// `groups[i]`, a null part (a group that met no row) changing nothing.
    /// The extremes are widened once, to what the valid parts need.
    ///
    /// # Errors
    /// [`KernelError::LengthMismatch`] when `groups` or `valid` do not have
    /// a row per part; [`KernelError::GroupOutOfRange`] for the first part
    /// whose group is not a group; [`KernelError::TooManyGroups`] as
    /// [`merge`](Self::merge). Nothing changes when it fails.
    pub fn merge_parts(
        &mut self,
        groups: &[usize],
        parts: &[i256],
        valid: Option<&NullBuffer>,
    ) -> Result<(), KernelError> {
        let rows = parts.len();
        for len in [Some(groups.len()), valid.map(NullBuffer::len)] {
            match len {
                Some(len) if len != rows => {
                    return Err(KernelError::LengthMismatch { expected: rows, actual: len });
                }
                _ => {}
            }
        }
        if let Some(row) = first_out_of_range(groups, self.len()) {
            let (group, groups) = (groups[row], self.len());
            return Err(KernelError::GroupOutOfRange { row, group, groups });
        }
        let is_valid = |i: usize| valid.is_none_or(|n| n.is_valid(i));
        let width = (0..rows).filter(|&i| is_valid(i)).map(|i| width_of(parts[i])).max();
        self.widen(width.unwrap_or(WorkWidth::I64))?;
        self.vouch(None);
        let (extreme, seen) = (self.extreme, &mut self.seen[..]);
        // Each valid part fits the extremes' width, widened above.
        #[expect(clippy::cast_possible_truncation, reason = "the part fits the width")]
        match &mut self.values {
            Values64To256::I64(v) => {
                fold_parts(extreme, v, seen, groups, parts, is_valid, |p| p.as_i128() as i64);
            }
            Values64To256::I128(v) => {
                fold_parts(extreme, v, seen, groups, parts, is_valid, i256::as_i128);
            }
            Values64To256::I256(v) => {
                fold_parts(extreme, v, seen, groups, parts, is_valid, i256_to_ethnum);
            }
        }
        Ok(())
    }

    /// The extremes checked against `precision` digits, stored as `O`: a
    /// group that met no valid row is null, one beyond the precision (a value
    /// of an unchecked column) fails by `policies.on_overflow` (its row is
    /// its group).
    ///
    /// # Errors
    /// [`KernelError::Overflow`] for the first group beyond the precision under
    /// the `Error` policy; [`KernelError::StorageTooNarrow`] when `O` cannot hold
    /// `precision` digits.
    pub fn finish<O: Storage>(
        &self,
        precision: u8,
        policies: Policies,
    ) -> Result<Output<O>, KernelError> {
        // Every group met a row as a rule: then no validity is built.
        let seen = (!self.seen.iter().all(|&s| s)).then(|| NullBuffer::from(self.seen.clone()));
        let nulls = seen.as_ref().filter(|seen| seen.null_count() > 0);
        let rows = Rows::new(self.len()).with_nulls(nulls).with_policies(policies);
        // Each extreme is one of the values: vouched ones fit.
        let within = self.vouched <= precision;
        match &self.values {
            Values64To256::I64(v) => stored(v, precision, &rows, within),
            Values64To256::I128(v) => stored(v, precision, &rows, within),
            Values64To256::I256(v) => stored(v, precision, &rows, within),
        }
    }

    /// Notes values about to be folded, vouched to fit `precision` digits
    /// (`None`: not vouched).
    fn vouch(&mut self, precision: Option<u8>) {
        self.vouched = self.vouched.max(precision.unwrap_or(UNVOUCHED));
    }

    /// The width of the groups' extremes.
    fn width(&self) -> WorkWidth {
        match self.values {
            Values64To256::I64(_) => WorkWidth::I64,
            Values64To256::I128(_) => WorkWidth::I128,
            Values64To256::I256(_) => WorkWidth::I256,
        }
    }

    /// Keeps the extremes at `width` at least; a group that has met no row
    /// takes the wider identity. [`KernelError::TooManyGroups`], the
    /// extremes left as they were, when memory for the wider ones cannot be
    /// had.
    fn widen(&mut self, width: WorkWidth) -> Result<(), KernelError> {
        if width <= self.width() {
            return Ok(());
        }
        let extreme = self.extreme;
        let seen = &self.seen;
        self.values = match (&self.values, width) {
            (Values64To256::I64(v), WorkWidth::I128) => {
                Values64To256::I128(widened(v, seen, extreme)?)
            }
            (Values64To256::I64(v), _) => Values64To256::I256(widened(v, seen, extreme)?),
            (Values64To256::I128(v), _) => Values64To256::I256(widened(v, seen, extreme)?),
            // Already at the widest width: `width <= self.width()` above.
            (Values64To256::I256(_), _) => return Ok(()),
        };
        Ok(())
    }

    /// Folds one valid value into group `g` (below `len`); fails, changing
    /// nothing, as [`widen`](Self::widen).
    fn fold_value(&mut self, g: usize, value: i256) -> Result<(), KernelError> {
        self.widen(width_of(value))?;
        let extreme = self.extreme;
        let seen = self.seen[g];
        match &mut self.values {
            Values64To256::I64(v) => {
                let value = value.to_i128().and_then(|v| i64::try_from(v).ok()).unwrap_or_default();
                v[g] = if seen { pick(extreme, v[g], value) } else { value };
            }
            Values64To256::I128(v) => {
                let value = value.to_i128().unwrap_or_default();
                v[g] = if seen { pick(extreme, v[g], value) } else { value };
            }
            Values64To256::I256(v) => {
                let value = i256_to_ethnum(value);
                v[g] = if seen { pick(extreme, v[g], value) } else { value };
            }
        }
        self.seen[g] = true;
        Ok(())
    }

    /// Folds the valid rows of `column` into their groups (all in range),
    /// the extremes at least as wide as the column's storage.
    fn update_grouped(
        &mut self,
        column: &Column<'_>,
        groups: &[usize],
        nulls: Option<&NullBuffer>,
    ) {
        let extreme = self.extreme;
        let seen = &mut self.seen;
        match &mut self.values {
            Values64To256::I64(v) => scatter_column(extreme, v, seen, column, groups, nulls),
            Values64To256::I128(v) => scatter_column(extreme, v, seen, column, groups, nulls),
            Values64To256::I256(v) => scatter_column(extreme, v, seen, column, groups, nulls),
        }
    }
}

/// The first `n` elements of `v` taken out (all, without a copy, when `n`
/// is not below its length: an engine's final emit).
fn take_front<T>(v: &mut Vec<T>, n: usize) -> Vec<T> {
    if n >= v.len() { core::mem::take(v) } else { v.drain(..n).collect() }
}

/// `values` as `W`, a group that met no row at `W`'s identity;
/// [`KernelError::TooManyGroups`] when memory for them cannot be had.
fn widened<N: Copy, W: Lane + From<N>>(
    values: &[N],
    seen: &[bool],
    extreme: Extreme,
) -> Result<Vec<W>, KernelError> {
    let wide_identity = identity::<W>(extreme);
    let mut wide = Vec::new();
    reserve_groups(values.len(), [&mut wide])?;
    wide.extend(values.iter().zip(seen).map(|(&v, &s)| if s { W::from(v) } else { wide_identity }));
    Ok(wide)
}

/// A value type the extremes are taken in: its order is the decimals'.
pub(crate) trait Lane: Copy + Ord + 'static {
    /// The type's least value: the identity of `max`.
    const LEAST: Self;
    /// The type's greatest value: the identity of `min`.
    const GREATEST: Self;

    /// The value's top 64 bits (the value itself up to 64 bits), whose order
    /// never contradicts the values': `a < b` implies
    /// `a.high_word() <= b.high_word()` (the top bits are the value divided
    /// by a power of two, rounded down).
    fn high_word(self) -> i64;
}

/// `impl Lane` for integer types with `MIN` and `MAX`, given how each takes
/// its top 64 bits.
macro_rules! lane {
    ($($t:ty => $high:expr),*) => {
        $(impl Lane for $t {
            const LEAST: Self = <$t>::MIN;
            const GREATEST: Self = <$t>::MAX;

            #[inline(always)]
            fn high_word(self) -> i64 {
                let high: fn($t) -> i64 = $high;
                high(self)
            }
        })*
    };
}

lane!(
    i8 => i64::from,
    i16 => i64::from,
    i32 => i64::from,
    i64 => |v| v,
    // The shifts keep the top 64 bits, which then fit `i64`.
    i128 => |v| (v >> 64) as i64,
    i256 => |v| (v.to_parts().1 >> 64) as i64,
    I256 => |v| (v.high() >> 64) as i64
);

/// The value that leaves every extreme as it is.
#[inline(always)]
fn identity<T: Lane>(extreme: Extreme) -> T {
    match extreme {
        Extreme::Min => T::GREATEST,
        Extreme::Max => T::LEAST,
    }
}

/// The extreme of two values.
#[inline(always)]
/// The narrowest width of the extremes that holds `value`.
fn width_of(value: i256) -> WorkWidth {
    match value.to_i128() {
        Some(v) if i64::try_from(v).is_ok() => WorkWidth::I64,
        Some(_) => WorkWidth::I128,
        None => WorkWidth::I256,
    }
}

/// [`GroupExtremes::merge_parts`]'s loop at one width: each valid part,
/// read as `W` by `read`, folded into its group (all in range).
fn fold_parts<W: Lane>(
    extreme: Extreme,
    values: &mut [W],
    seen: &mut [bool],
    groups: &[usize],
    parts: &[i256],
    is_valid: impl Fn(usize) -> bool,
    read: impl Fn(i256) -> W,
) {
    for (i, (&g, &part)) in groups.iter().zip(parts).enumerate() {
        if let (true, Some(value), Some(met)) = (is_valid(i), values.get_mut(g), seen.get_mut(g)) {
            let part = read(part);
            *value = if *met { pick(extreme, *value, part) } else { part };
            *met = true;
        }
    }
}

fn pick<T: Lane>(extreme: Extreme, a: T, b: T) -> T {
    match extreme {
        Extreme::Min => a.min(b),
        Extreme::Max => a.max(b),
    }
}

/// An extreme fixed at compile time, so that each loop has one comparison.
trait Pick: 'static {
    /// The extreme.
    const EXTREME: Extreme;

    /// [`pick`] of this extreme.
    #[inline(always)]
    fn pick<T: Lane>(a: T, b: T) -> T {
        pick(Self::EXTREME, a, b)
    }

    /// [`identity`] of this extreme.
    #[inline(always)]
    fn identity<T: Lane>() -> T {
        identity(Self::EXTREME)
    }
}

/// `min`.
struct PickMin;

/// `max`.
struct PickMax;

impl Pick for PickMin {
    const EXTREME: Extreme = Extreme::Min;
}

impl Pick for PickMax {
    const EXTREME: Extreme = Extreme::Max;
}

/// Folds the valid rows of a column into `values` by group, read a block at
/// a time as `W` (in place when stored as `W`; `W` is at least as wide as
/// the column's valid values), then marks the groups that met a valid row.
fn scatter_column<W: InPlace + Lane>(
    extreme: Extreme,
    values: &mut [W],
    seen: &mut [bool],
    column: &Column<'_>,
    groups: &[usize],
    nulls: Option<&NullBuffer>,
) {
    let mut met_identity = false;
    for_each_block::<W>(column, |start, block| {
        let block_nulls = nulls.map(|n| n.slice(start, block.len()));
        let block_groups = &groups[start..start + block.len()];
        met_identity |= match extreme {
            Extreme::Min => {
                scatter::<W, PickMin>(values, block, block_groups, block_nulls.as_ref())
            }
            Extreme::Max => {
                scatter::<W, PickMax>(values, block, block_groups, block_nulls.as_ref())
            }
        };
    });
    mark_seen(extreme, values, seen, groups, nulls, met_identity);
}

/// `values[groups[i]] = pick(values[groups[i]], v_i)` for every row, a null
/// row folded as the identity; the bounds check of the group is the only
/// branch (never taken: the groups were checked). Returns whether a valid
/// row holds the identity itself (a flag set as it goes, no branch).
#[inline(never)]
fn scatter<W: Lane, P: Pick>(
    values: &mut [W],
    block: &[W],
    groups: &[usize],
    nulls: Option<&NullBuffer>,
) -> bool {
    let identity = P::identity::<W>();
    let mut met_identity = false;
    match nulls {
        // Many rows a group: after its first few rows a row rarely displaces
        // its group's extreme, so a predicted branch skips the store, and
        // with it the chain through memory of rows of the same group.
        None if block.len() >= ROWS_A_GROUP_TO_BRANCH * values.len() => {
            for (&v, &g) in block.iter().zip(groups) {
                met_identity |= v == identity;
                if let Some(e) = values.get_mut(g)
                    && P::pick(*e, v) != *e
                {
                    *e = v;
                }
            }
        }
        None => {
            for (&v, &g) in block.iter().zip(groups) {
                met_identity |= v == identity;
                if let Some(e) = values.get_mut(g) {
                    *e = P::pick(*e, v);
                }
            }
        }
        Some(nulls) => {
            for ((&v, &g), valid) in block.iter().zip(groups).zip(nulls.iter()) {
                met_identity |= valid & (v == identity);
                let v = if valid { v } else { identity };
                if let Some(e) = values.get_mut(g) {
                    *e = P::pick(*e, v);
                }
            }
        }
    }
    met_identity
}

/// Marks the groups that met a valid row in a batch just folded: when the
/// groups are not more than the rows, every group whose extreme left the
/// identity; the groups still at it met no valid row unless one held the
/// identity itself (`met_identity`), and only then are the rows read again.
/// With more groups than rows, from the batch's valid rows.
fn mark_seen<W: Lane>(
    extreme: Extreme,
    values: &[W],
    seen: &mut [bool],
    groups: &[usize],
    nulls: Option<&NullBuffer>,
    met_identity: bool,
) {
    if values.len() > groups.len() {
        mark_rows(seen, groups, nulls);
        return;
    }
    let at_identity = identity::<W>(extreme);
    let mut unsure = false;
    for (s, &v) in seen.iter_mut().zip(values) {
        let moved = v != at_identity;
        *s |= moved;
        unsure |= !*s;
    }
    if unsure && met_identity {
        mark_rows(seen, groups, nulls);
    }
}

/// Marks the groups of the valid rows.
fn mark_rows(seen: &mut [bool], groups: &[usize], nulls: Option<&NullBuffer>) {
    for (row, &g) in groups.iter().enumerate() {
        if nulls.is_none_or(|n| n.is_valid(row))
            && let Some(s) = seen.get_mut(g)
        {
            *s = true;
        }
    }
}

/// The extreme of the valid rows of `column` in `copy` (`None` without
/// any), widened to `i256`.
fn column_extreme(
    copy: Runnable,
    extreme: Extreme,
    column: &Column<'_>,
    precision: Option<u8>,
    nulls: Option<&NullBuffer>,
) -> Option<i256> {
    if let (Column::I128(_), Some(0..=18)) = (column, precision) {
        return narrow_i128_extreme(copy, extreme, column, nulls);
    }
    with_column!(column, values => match extreme {
        Extreme::Min => extreme_in::<_, PickMin>(copy, values, nulls, Scan::new(extreme)),
        Extreme::Max => extreme_in::<_, PickMax>(copy, values, nulls, Scan::new(extreme)),
    }
    .result()
    .map(|v| v.widened(TOKEN)))
}

/// [`column_extreme`] of an `i128` column whose values are vouched to fit 18
/// digits (money in a `Decimal128`): each value is its low word, read a
/// block at a time as `i64`, whose lanes vectorize; the scan goes on from
/// block to block.
fn narrow_i128_extreme(
    copy: Runnable,
    extreme: Extreme,
    column: &Column<'_>,
    nulls: Option<&NullBuffer>,
) -> Option<i256> {
    let mut scan = Scan::new(extreme);
    for_each_block::<i64>(column, |start, block| {
        let block_nulls = nulls.map(|n| n.slice(start, block.len()));
        let nulls = block_nulls.as_ref();
        scan = match extreme {
            Extreme::Min => extreme_in::<i64, PickMin>(copy, block, nulls, scan),
            Extreme::Max => extreme_in::<i64, PickMax>(copy, block, nulls, scan),
        };
    });
    scan.result().map(|v| i256::from_i128(v.into()))
}

/// A whole-column extreme under way, which a later run of rows goes on
/// with.
#[derive(Clone, Copy, Debug)]
struct Scan<S> {
    /// The running extreme (the identity before any valid row).
    acc: S,
    /// Whether a valid row was met.
    any: bool,
    /// The words left that [`fold_word`] reads as if all valid first.
    tries: u32,
}

impl<S: Lane> Scan<S> {
    /// Before any row.
    fn new(extreme: Extreme) -> Self {
        Self { acc: identity(extreme), any: false, tries: NULL_ROWS_DISPLACING }
    }

    /// The extreme of the valid rows, `None` without any.
    fn result(self) -> Option<S> {
        self.any.then_some(self.acc)
    }
}

/// [`extreme_of`] in `copy`.
fn extreme_in<S: Stored + Lane, P: Pick>(
    copy: Runnable,
    values: &[S],
    nulls: Option<&NullBuffer>,
    scan: Scan<S>,
) -> Scan<S> {
    match copy.isa() {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            // SAFETY: a `Runnable` level runs on this CPU, and the copy is
            // compiled with its features.
            unsafe { extreme_avx512::<S, P>(values, nulls, scan) }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            // SAFETY: as for the AVX-512 copy: a `Runnable` level runs on
            // this CPU, and the copy is compiled with its features.
            unsafe { extreme_avx2::<S, P>(values, nulls, scan) }
        }
        _ => extreme_portable::<S, P>(values, nulls, scan),
    }
}

/// [`extreme_of`] compiled for the build's target, out of line as the other
/// copies are.
#[inline(never)]
fn extreme_portable<S: Lane, P: Pick>(
    values: &[S],
    nulls: Option<&NullBuffer>,
    scan: Scan<S>,
) -> Scan<S> {
    extreme_of::<S, P>(values, nulls, scan)
}

/// [`extreme_of`] compiled with AVX2 (x86-64-v3).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,movbe")]
fn extreme_avx2<S: Lane, P: Pick>(
    values: &[S],
    nulls: Option<&NullBuffer>,
    scan: Scan<S>,
) -> Scan<S> {
    extreme_of::<S, P>(values, nulls, scan)
}

/// [`extreme_of`] compiled with AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
fn extreme_avx512<S: Lane, P: Pick>(
    values: &[S],
    nulls: Option<&NullBuffer>,
    scan: Scan<S>,
) -> Scan<S> {
    extreme_of::<S, P>(values, nulls, scan)
}

/// `scan` gone on with the valid rows of `values` (`nulls` as long as
/// `values`), folded into the extreme `P`: 64 rows per validity word.
#[inline(always)]
fn extreme_of<S: Lane, P: Pick>(
    values: &[S],
    nulls: Option<&NullBuffer>,
    scan: Scan<S>,
) -> Scan<S> {
    let Scan { mut acc, any: met, mut tries } = scan;
    let Some(nulls) = nulls else {
        let acc = fold_all::<S, P>(acc, values);
        return Scan { acc, any: met || !values.is_empty(), tries };
    };
    let words = nulls.inner().bit_chunks();
    let mut any = 0u64;
    let mut gathered = [P::identity(); 64];
    let chunks = values.chunks_exact(64);
    let tail = chunks.remainder();
    for (chunk, word) in chunks.zip(words.iter()) {
        any |= word;
        acc = fold_word::<S, P>(acc, chunk, word, &mut gathered, &mut tries);
    }
    let word = words.remainder_bits();
    if !tail.is_empty() {
        any |= word;
        acc = fold_word::<S, P>(acc, tail, word, &mut gathered, &mut tries);
    }
    Scan { acc, any: met || any != 0, tries }
}

/// Words whose null rows alone could displace the running extreme (as a
/// column with zeroed null rows keeps doing, for `min` of positive values
/// or `max` of negative ones) after which [`fold_word`] stops reading the
/// rows as if all were valid first.
const NULL_ROWS_DISPLACING: u32 = 8;

/// [`fold_all`] over the rows of `chunk` (at most 64) whose bit is set in
/// `word`. A word mixing valid and null rows is first folded as if all were
/// valid, at the speed of an all-valid one: when no row can displace `acc`
/// (nearly every word, once `acc` is near the column's extreme, unless the
/// null rows' bits can), neither can the valid ones. Otherwise, and for
/// good once `tries` (decremented on each word where only null rows could
/// have displaced `acc`) runs out, [`fold_valid`].
#[inline(always)]
fn fold_word<S: Lane, P: Pick>(
    acc: S,
    chunk: &[S],
    word: u64,
    gathered: &mut [S; 64],
    tries: &mut u32,
) -> S {
    if word == u64::MAX {
        return fold_all::<S, P>(acc, chunk);
    }
    if word == 0 {
        return acc;
    }
    if *tries == 0 {
        return fold_valid::<S, P>(acc, chunk, word, gathered);
    }
    let unmoved = if size_of::<S>() > 8 {
        // Wide rows: their extreme top word (`fold_all`'s skip).
        beyond::<S, P>(acc, top_word::<S, P>(chunk))
    } else {
        fold_lanes::<S, P>(acc, chunk) == acc
    };
    if unmoved {
        return acc;
    }
    let folded = fold_valid::<S, P>(acc, chunk, word, gathered);
    if folded == acc {
        *tries -= 1;
    }
    folded
}

/// [`fold_all`] over the rows of `chunk` (at most 64) whose bit is set in
/// `word`, some but not all. Values of up to 64 bits select the identity
/// for a null row in their lanes (a select vectorizes); wider ones are
/// first gathered into `gathered`, a valid row at a time, and folded as an
/// all-valid run (a select of two 128- or 256-bit values per row does not).
#[inline(always)]
fn fold_valid<S: Lane, P: Pick>(acc: S, chunk: &[S], word: u64, gathered: &mut [S; 64]) -> S {
    if size_of::<S>() > 8 {
        // The valid rows' extreme top word first (a select of 64-bit words
        // vectorizes): a word whose valid rows cannot displace `acc` is
        // skipped.
        let top = chunk.iter().enumerate().fold(P::identity::<i64>(), |t, (row, v)| {
            let valid = (word >> row) & 1 != 0;
            P::pick(t, if valid { v.high_word() } else { P::identity() })
        });
        if beyond::<S, P>(acc, top) {
            return acc;
        }
        let mut n = 0;
        let mut rows = word;
        while rows != 0 {
            let row = rows.trailing_zeros() as usize;
            if let (Some(slot), Some(&v)) = (gathered.get_mut(n), chunk.get(row)) {
                *slot = v;
                n += 1;
            }
            rows &= rows - 1;
        }
        return fold_all::<S, P>(acc, &gathered[..n]);
    }
    let mut lanes = [P::identity(); LANES];
    let mut pairs = chunk.chunks_exact(LANES);
    for (i, lanes_of) in pairs.by_ref().enumerate() {
        for (lane, (slot, &v)) in lanes.iter_mut().zip(lanes_of).enumerate() {
            let valid = (word >> (i * LANES + lane)) & 1 != 0;
            *slot = P::pick(*slot, if valid { v } else { P::identity() });
        }
    }
    let done = chunk.len() - pairs.remainder().len();
    let mut acc = lanes.into_iter().fold(acc, P::pick);
    for (row, &v) in pairs.remainder().iter().enumerate() {
        if (word >> (done + row)) & 1 != 0 {
            acc = P::pick(acc, v);
        }
    }
    acc
}

/// The extreme `P` of the top words of `values`, in [`LANES`] running
/// lanes (a 64-bit `min`/`max` chain through one register would wait on
/// each row where the copy has no vector comparison of 64-bit words).
#[inline(always)]
fn top_word<S: Lane, P: Pick>(values: &[S]) -> i64 {
    let mut lanes = [P::identity::<i64>(); LANES];
    let chunks = values.chunks_exact(LANES);
    let tail = chunks.remainder();
    for chunk in chunks {
        for (slot, v) in lanes.iter_mut().zip(chunk) {
            *slot = P::pick(*slot, v.high_word());
        }
    }
    let top = lanes.into_iter().fold(P::identity(), P::pick);
    tail.iter().fold(top, |t, v| P::pick(t, v.high_word()))
}

/// Rows of more than 64 bits whose top words are compared before the rows
/// are.
const RUN_ROWS: usize = 16;

/// Whether no value whose top word is `top` can displace `acc`: `top` is
/// strictly beyond `acc`'s top word on the side `P` discards (then so is
/// every such value, [`Lane::high_word`]).
#[inline(always)]
fn beyond<S: Lane, P: Pick>(acc: S, top: i64) -> bool {
    let high = acc.high_word();
    top != high && P::pick(top, high) == high
}

/// `acc` folded with every value. Values of up to 64 bits fold in
/// [`LANES`] running lanes (their `min`/`max` vectorizes). Wider ones are
/// taken [`RUN_ROWS`] at a time: the run's extreme top word (64-bit
/// `min`/`max`, which vectorize, where a 128- or 256-bit comparison does
/// not) first, and the run is skipped when it is beyond the running
/// extreme's, as nearly every run is once that extreme is near the
/// column's; the other runs fold in lanes.
#[inline(always)]
fn fold_all<S: Lane, P: Pick>(acc: S, values: &[S]) -> S {
    if size_of::<S>() <= 8 {
        return fold_lanes::<S, P>(acc, values);
    }
    let runs = values.chunks_exact(RUN_ROWS);
    let tail = runs.remainder();
    let mut acc = acc;
    for run in runs {
        let top = top_word::<S, P>(run);
        if !beyond::<S, P>(acc, top) {
            acc = fold_lanes::<S, P>(acc, run);
        }
    }
    fold_lanes::<S, P>(acc, tail)
}

/// `acc` folded with every value, in [`LANES`] running lanes.
#[inline(always)]
fn fold_lanes<S: Lane, P: Pick>(acc: S, values: &[S]) -> S {
    let mut lanes = [acc; LANES];
    let chunks = values.chunks_exact(LANES);
    let tail = chunks.remainder();
    for chunk in chunks {
        for (slot, &v) in lanes.iter_mut().zip(chunk) {
            *slot = P::pick(*slot, v);
        }
    }
    let acc = lanes.into_iter().fold(acc, P::pick);
    tail.iter().fold(acc, |a, &v| P::pick(a, v))
}

#[cfg(test)]
mod tests {
    use core::marker::PhantomData;

    use super::*;
    use crate::driver::rows::OverflowPolicy;
    use crate::testing::values;
    use rstest::rstest;

    /// The oracle: each group's extreme of its valid rows, as `i256`.
    fn oracle(
        extreme: Extreme,
        values: &[i256],
        groups: &[usize],
        valid: Option<&[bool]>,
        len: usize,
    ) -> Vec<Option<i256>> {
        let mut out = vec![None; len];
        for (row, (&v, &g)) in values.iter().zip(groups).enumerate() {
            if valid.is_none_or(|valid| valid[row]) {
                out[g] = Some(out[g].map_or(v, |e| pick(extreme, e, v)));
            }
        }
        out
    }

    /// Every group of `extremes` holds the oracle's extreme.
    #[track_caller]
    fn assert_groups(extremes: &GroupExtremes, want: &[Option<i256>], context: &str) {
        let got: Vec<Option<i256>> =
            (0..extremes.len()).map(|g| extremes.group(g).expect("a group below len")).collect();
        assert_eq!(got, want, "{context}");
        assert_eq!(extremes.group(extremes.len()), None, "{context}: no group past the last");
    }

    /// `values` stored as `T` (their low bits).
    fn stored<T: Stored>(values: &[i256]) -> Vec<T> {
        values.iter().map(|&v| T::store(i256_to_ethnum(v))).collect()
    }

    /// `rows` values of `T`, its extremes every 97th and 89th row, the rest
    /// of up to 62 bits (wrapped into `T`), as `i256`.
    fn rows_of<T: Stored + Lane>(rows: usize, seed: u64) -> Vec<i256> {
        values(rows, 62, seed)
            .into_iter()
            .enumerate()
            .map(|(row, v)| match row % 97 {
                5 => T::LEAST.widened(TOKEN),
                50 => T::GREATEST.widened(TOKEN),
                _ => T::store::<I256>(I256::from(v)).widened(TOKEN),
            })
            .collect()
    }

    /// Validity patterns across 64-row words: none, sparse nulls, mostly
    /// null, whole null words, all null.
    fn validity(rows: usize, pattern: usize) -> Option<Vec<bool>> {
        match pattern {
            0 => None,
            1 => Some((0..rows).map(|r| r % 10 != 3).collect()),
            2 => Some((0..rows).map(|r| r % 13 == 0).collect()),
            3 => Some((0..rows).map(|r| (r / 64) % 3 != 1).collect()),
            _ => Some(vec![false; rows]),
        }
    }

    /// Whole column and by group, every storage width, both extremes, every
    /// validity pattern, in every copy of the loop; lengths across the
    /// 8-lane, 64-row and 1024-row edges.
    #[rstest]
    #[case::i8(PhantomData::<i8>)]
    #[case::i16(PhantomData::<i16>)]
    #[case::i32(PhantomData::<i32>)]
    #[case::i64(PhantomData::<i64>)]
    #[case::i128(PhantomData::<i128>)]
    #[case::i256(PhantomData::<i256>)]
    fn extremes_at_every_storage_width<T: Stored + Lane>(#[case] _width: PhantomData<T>) {
        for rows in [0, 1, 7, 9, 63, 64, 65, 130, 1025, 2100] {
            let wide = rows_of::<T>(rows, rows as u64);
            let column = stored::<T>(&wide);
            let groups: Vec<usize> = (0..rows).map(|r| r * 31 % 5).collect();
            for pattern in 0..5 {
                let valid = validity(rows, pattern);
                let nulls = valid.as_ref().map(|v| NullBuffer::from(v.clone()));
                let rows_of_call = Rows::new(rows).with_nulls(nulls.as_ref());
                for extreme in [Extreme::Min, Extreme::Max] {
                    let context = format!("{extreme:?}, {rows} rows, validity {pattern}");
                    let whole = oracle(extreme, &wide, &vec![0; rows], valid.as_deref(), 1);
                    for copy in Runnable::all() {
                        let got = column_extreme(
                            copy,
                            extreme,
                            &T::column(&column, TOKEN),
                            None,
                            nulls.as_ref(),
                        );
                        assert_eq!(got, whole[0], "{context}, {:?}", copy.isa());
                    }
                    let mut one = GroupExtremes::new(extreme, 1);
                    one.update(Operand::array(&column[..]), None, &rows_of_call).unwrap();
                    assert_groups(&one, &whole, &context);

                    let mut by_group = GroupExtremes::new(extreme, 6);
                    by_group
                        .update(Operand::array(&column[..]), Some(&groups), &rows_of_call)
                        .unwrap();
                    let want = oracle(extreme, &wide, &groups, valid.as_deref(), 6);
                    assert_groups(&by_group, &want, &context);
                }
            }
        }
    }

    /// Null rows whose bits would displace the extreme (the storage's
    /// extremes, or zero against values of one sign) in every word, in a
    /// few words, and only at the end: the valid rows' extreme, in every
    /// copy, once the words read as if all valid stop paying too.
    #[rstest]
    #[case::i8(PhantomData::<i8>)]
    #[case::i64(PhantomData::<i64>)]
    #[case::i128(PhantomData::<i128>)]
    #[case::i256(PhantomData::<i256>)]
    fn null_rows_that_would_displace_the_extreme_are_not_folded<T: Stored + Lane>(
        #[case] _width: PhantomData<T>,
    ) {
        let rows = 64 * 40 + 17;
        for extreme in [Extreme::Min, Extreme::Max] {
            // Valid values of one sign, away from zero and the extremes.
            let sign = if extreme == Extreme::Min { 1 } else { -1 };
            let valid_value = |row: usize| sign * (i64::try_from(row % 50).unwrap_or(0) + 3);
            for (null_bits, null_words) in [
                (
                    identity::<T>(match extreme {
                        Extreme::Min => Extreme::Max,
                        Extreme::Max => Extreme::Min,
                    }),
                    0..41,
                ),
                (T::store(I256::ZERO), 0..41),
                (T::store(I256::ZERO), 2..5),
                (T::store(I256::ZERO), 39..41),
            ] {
                let valid: Vec<bool> = (0..rows)
                    .map(|row| !null_words.contains(&(row / 64)) || row % 7 != 2)
                    .collect();
                let column: Vec<T> = (0..rows)
                    .map(|row| {
                        if valid[row] { T::store(I256::from(valid_value(row))) } else { null_bits }
                    })
                    .collect();
                let wide: Vec<i256> = column.iter().map(|&v| v.widened(TOKEN)).collect();
                let nulls = NullBuffer::from(valid.clone());
                let want = oracle(extreme, &wide, &vec![0; rows], Some(&valid), 1);
                assert_eq!(want[0], Some(i256::from_i128((sign * 3).into())));
                for copy in Runnable::all() {
                    let got = column_extreme(
                        copy,
                        extreme,
                        &T::column(&column, TOKEN),
                        None,
                        Some(&nulls),
                    );
                    assert_eq!(got, want[0], "{extreme:?}, words {null_words:?}, {:?}", copy.isa());
                }
            }
        }
    }

    /// Wide values whose top words tie or straddle the running extreme's:
    /// runs and validity words are skipped only when no row of theirs can
    /// displace it (descending, ascending, and top words shared by all rows
    /// with the low words deciding, of either sign).
    #[rstest]
    #[case::descending(|row: i128| (1 << 100) - (row << 60))]
    #[case::ascending(|row: i128| -(1 << 100) + (row << 60))]
    #[case::shared_top_word(|row: i128| (5 << 64) | (((row * 7919) % 4099) << 40))]
    #[case::shared_negative_top_word(|row: i128| (-5 << 64) | (((row * 7919) % 4099) << 40))]
    #[case::top_words_straddling_zero(|row: i128| ((row * 7919) % 4099 - 2049) << 62)]
    fn wide_runs_are_skipped_only_when_beyond(#[case] value: fn(i128) -> i128) {
        for rows in [16, 17, 64, 200, 1500] {
            let column: Vec<i128> = (0..rows).map(|row| value(row as i128)).collect();
            let wide: Vec<i256> = column.iter().map(|&v| i256::from_i128(v)).collect();
            let as_i256: Vec<i256> = wide.clone();
            for pattern in 0..5 {
                let valid = validity(rows, pattern);
                let nulls = valid.as_ref().map(|v| NullBuffer::from(v.clone()));
                for extreme in [Extreme::Min, Extreme::Max] {
                    let want = oracle(extreme, &wide, &vec![0; rows], valid.as_deref(), 1);
                    for copy in Runnable::all() {
                        for got in [
                            column_extreme(
                                copy,
                                extreme,
                                &Column::I128(&column),
                                None,
                                nulls.as_ref(),
                            ),
                            column_extreme(
                                copy,
                                extreme,
                                &Column::I256(&as_i256),
                                None,
                                nulls.as_ref(),
                            ),
                        ] {
                            assert_eq!(
                                got,
                                want[0],
                                "{extreme:?}, {rows} rows, validity {pattern}, {:?}",
                                copy.isa()
                            );
                        }
                    }
                }
            }
        }
    }

    /// Grouped, a column vouched to fit fewer digits than its storage holds
    /// is read in the narrower width, across blocks, with every validity
    /// pattern (null rows holding bits beyond the precision, even the
    /// storage's extremes); a later unvouched batch widens the extremes.
    /// Empty groups stay null, in batches with more and fewer groups than
    /// rows.
    #[rstest]
    #[case::i128_within_18(PhantomData::<i128>, 18)]
    #[case::i256_within_18(PhantomData::<i256>, 18)]
    #[case::i256_within_38(PhantomData::<i256>, 38)]
    fn vouched_columns_are_grouped_in_their_width<T: Stored + Lane>(
        #[case] _storage: PhantomData<T>,
        #[case] precision: u8,
    ) {
        let bound = i256::from_i128(10).wrapping_pow(precision.into()).wrapping_sub(i256::ONE);
        for rows in [3, 64, 1025, 2100] {
            let raw = values(rows, 62, rows as u64);
            let wide: Vec<i256> = raw
                .iter()
                .enumerate()
                .map(|(row, &v)| match row % 97 {
                    5 => bound.wrapping_neg(),
                    50 => bound,
                    // Up to 124 bits, brought within the precision.
                    _ => i256::from_i128(i128::from(v) * i128::from(v | 1))
                        .checked_rem(bound)
                        .unwrap_or_default(),
                })
                .collect();
            let pattern_rows = |valid: Option<&[bool]>| -> Vec<T> {
                // Null rows hold the storage's extremes, beyond the precision.
                (0..rows)
                    .map(|row| match valid {
                        Some(valid) if !valid[row] && row % 2 == 0 => T::GREATEST,
                        Some(valid) if !valid[row] => T::LEAST,
                        _ => T::store(i256_to_ethnum(wide[row])),
                    })
                    .collect()
            };
            for group_count in [4, 9, 5000] {
                let groups: Vec<usize> = (0..rows).map(|r| r * 31 % 7 % group_count).collect();
                for pattern in 0..5 {
                    let valid = validity(rows, pattern);
                    let nulls = valid.as_ref().map(|v| NullBuffer::from(v.clone()));
                    let column = pattern_rows(valid.as_deref());
                    let call = Rows::new(rows).with_nulls(nulls.as_ref());
                    for extreme in [Extreme::Min, Extreme::Max] {
                        let context = format!(
                            "{extreme:?}, {rows} rows, {group_count} groups, validity {pattern}"
                        );
                        let mut extremes = GroupExtremes::new(extreme, group_count);
                        let operand = Operand::array(&column[..]).assume_precision(precision);
                        extremes.update(operand, Some(&groups), &call).unwrap();
                        let want = oracle(extreme, &wide, &groups, valid.as_deref(), group_count);
                        assert_groups(&extremes, &want, &context);
                        // The storage's extremes, unvouched, in group 1.
                        let beyond = [T::LEAST, T::GREATEST];
                        extremes
                            .update(Operand::array(&beyond[..]), Some(&[1, 1]), &Rows::new(2))
                            .unwrap();
                        let mut want = want;
                        let side = match extreme {
                            Extreme::Min => T::LEAST,
                            Extreme::Max => T::GREATEST,
                        };
                        want[1] = Some(side.widened(TOKEN));
                        assert_groups(&extremes, &want, &format!("{context}, widened"));
                    }
                }
            }
        }
    }

    /// An `i128` column vouched to fit 18 digits is read as its low words,
    /// across blocks, in every copy, with every validity pattern.
    #[rstest]
    #[case::min(Extreme::Min)]
    #[case::max(Extreme::Max)]
    fn vouched_narrow_i128_columns_read_low_words(#[case] extreme: Extreme) {
        let bound = 10i128.pow(18) - 1;
        for rows in [1, 64, 1023, 1025, 3000] {
            let column: Vec<i128> = values(rows, 62, rows as u64)
                .into_iter()
                .enumerate()
                .map(|(row, v)| match row % 97 {
                    5 => -bound,
                    50 => bound,
                    _ => i128::from(v) % bound,
                })
                .collect();
            let wide: Vec<i256> = column.iter().map(|&v| i256::from_i128(v)).collect();
            for pattern in 0..5 {
                let valid = validity(rows, pattern);
                let nulls = valid.as_ref().map(|v| NullBuffer::from(v.clone()));
                let want = oracle(extreme, &wide, &vec![0; rows], valid.as_deref(), 1);
                for copy in Runnable::all() {
                    let got = column_extreme(
                        copy,
                        extreme,
                        &Column::I128(&column),
                        Some(18),
                        nulls.as_ref(),
                    );
                    assert_eq!(got, want[0], "{rows} rows, validity {pattern}, {:?}", copy.isa());
                }
                let mut one = GroupExtremes::new(extreme, 1);
                let operand = Operand::array(&column[..]).assume_precision(18);
                one.update(operand, None, &Rows::new(rows).with_nulls(nulls.as_ref())).unwrap();
                assert_groups(&one, &want, "through update");
            }
        }
    }

    /// A group whose extreme is the identity itself (the storage's greatest
    /// value for `min`) has met a row; one folded only from null rows has
    /// not; in a batch with more groups than rows too.
    #[rstest]
    #[case::min_at_i64_max(Extreme::Min, i64::MAX, 3)]
    #[case::max_at_i64_min(Extreme::Max, i64::MIN, 3)]
    #[case::min_at_i64_max_many_groups(Extreme::Min, i64::MAX, 50)]
    #[case::max_at_i64_min_many_groups(Extreme::Max, i64::MIN, 50)]
    fn a_value_at_the_identity_is_seen(
        #[case] extreme: Extreme,
        #[case] value: i64,
        #[case] groups: usize,
    ) {
        let column = [value, 5, value, 7];
        let group_of = [0, 1, 1, 2];
        let nulls = NullBuffer::from(vec![true, false, false, false]);
        let mut extremes = GroupExtremes::new(extreme, groups);
        let rows = Rows::new(4).with_nulls(Some(&nulls));
        extremes.update(Operand::array(&column[..]), Some(&group_of), &rows).unwrap();
        let mut want = vec![None; groups];
        want[0] = Some(i256::from_i128(value.into()));
        assert_groups(&extremes, &want, "first batch");
        // Group 1 meets its row later.
        extremes.update(Operand::array(&column[..]), Some(&group_of), &Rows::new(4)).unwrap();
        want[1] = Some(i256::from_i128(pick(extreme, 5, value).into()));
        want[2] = Some(i256::from_i128(7));
        assert_groups(&extremes, &want, "second batch");
    }

    /// Batches of growing widths widen the extremes, a group that met no row
    /// keeping the wider identity; merging parts of any width.
    #[rstest]
    #[case::min(Extreme::Min)]
    #[case::max(Extreme::Max)]
    fn wider_batches_and_parts_widen(#[case] extreme: Extreme) {
        let mut extremes = GroupExtremes::new(extreme, 4);
        let small = [3i32, -4];
        extremes.update(Operand::array(&small[..]), Some(&[0, 1]), &Rows::new(2)).unwrap();
        let mid = [i128::MAX, i128::MIN];
        extremes.update(Operand::array(&mid[..]), Some(&[0, 1]), &Rows::new(2)).unwrap();
        let big = [i256::MIN, i256::MAX];
        extremes.update(Operand::array(&big[..]), Some(&[1, 0]), &Rows::new(2)).unwrap();
        let mut want = oracle(
            extreme,
            &[3, -4]
                .map(i256::from_i128)
                .into_iter()
                .chain([i128::MAX, i128::MIN].map(i256::from_i128))
                .chain(big)
                .collect::<Vec<_>>(),
            &[0, 1, 0, 1, 1, 0],
            None,
            4,
        );
        assert_groups(&extremes, &want, "batches");
        extremes.merge(3, Some(i256::from_i128(-9))).unwrap();
        extremes.merge(3, None).unwrap();
        extremes.merge(3, Some(i256::from_i128(9))).unwrap();
        want[3] = Some(i256::from_i128(pick(extreme, -9, 9)));
        assert_groups(&extremes, &want, "merged");
        assert_eq!(
            extremes.merge(4, None),
            Err(KernelError::GroupOutOfRange { row: 0, group: 4, groups: 4 })
        );
        // Group 2 is still empty: null when finished; the storage extreme
        // of `i256` beyond 76 digits (group 1's `min`, group 0's `max`) is
        // an overflow.
        let beyond = usize::from(extreme == Extreme::Min);
        let failed: Result<Output<i256>, _> = extremes.finish(76, Policies::default());
        assert_eq!(failed.err(), Some(KernelError::Overflow { row: beyond }));
        let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let out: Output<i256> = extremes.finish(76, null).unwrap();
        assert!(
            out.nulls.is_some_and(|n| n.is_null(2) && n.is_null(beyond) && n.null_count() == 2)
        );
    }

    /// Parts merged in one pass give what merging them one by one gives:
    /// parts of 64 bits, of 128 (the extremes widened once), of 256,
    /// null parts, a group met only by a null part; and a part whose group
    /// is out of range changes nothing.
    #[rstest]
    #[case::narrow(vec![Some(5), Some(-3), None, Some(7)], vec![0, 1, 2, 0], None)]
    #[case::widened_to_i128(vec![Some(1), Some(i128::MAX), Some(i128::MIN), None], vec![2, 0, 0, 1], None)]
    #[case::widened_to_i256(vec![Some(4), None, Some(9), Some(-2)], vec![1, 1, 0, 1], Some(2))]
    #[case::out_of_range(vec![Some(5), Some(6)], vec![0, 3], None)]
    fn parts_merge_in_one_pass_as_one_by_one(
        #[case] parts: Vec<Option<i128>>,
        #[case] groups: Vec<usize>,
        #[case] beyond_i128_at: Option<usize>,
    ) {
        let mut parts: Vec<Option<i256>> = parts.into_iter().map(|p| p.map(i256::from_i128)).collect();
        if let Some(i) = beyond_i128_at {
            parts[i] = Some(i256::from_i128(i128::MAX).wrapping_mul(i256::from_i128(-4)));
        }
        let values: Vec<i256> = parts.iter().map(|p| p.unwrap_or(i256::MAX)).collect();
        let valid = NullBuffer::from_iter(parts.iter().map(Option::is_some));
        for extreme in [Extreme::Min, Extreme::Max] {
            let mut one_pass = GroupExtremes::new(extreme, 3);
            let got = one_pass.merge_parts(&groups, &values, Some(&valid));
            let mut one_by_one = GroupExtremes::new(extreme, 3);
            let want = groups.iter().zip(&parts).try_for_each(|(&g, &p)| one_by_one.merge(g, p));
            match want {
                Ok(()) => assert_eq!(got, Ok(())),
                Err(_) => {
                    let row = groups.iter().position(|&g| g >= 3).unwrap();
                    let e = KernelError::GroupOutOfRange { row, group: groups[row], groups: 3 };
                    assert_eq!(got, Err(e));
                    one_by_one = GroupExtremes::new(extreme, 3);
                }
            }
            for g in 0..3 {
                assert_eq!(one_pass.group(g), one_by_one.group(g), "{extreme:?}: group {g}");
            }
        }
    }

    /// Partial extremes of random splits merge to the whole's.
    #[rstest]
    #[case::min(Extreme::Min)]
    #[case::max(Extreme::Max)]
    fn parts_merge_to_the_whole(#[case] extreme: Extreme) {
        let rows = 3000;
        let wide = rows_of::<i128>(rows, 11);
        let column = stored::<i128>(&wide);
        let groups: Vec<usize> = (0..rows).map(|r| r * 7 % 9).collect();
        let valid = validity(rows, 1);
        let nulls = valid.as_ref().map(|v| NullBuffer::from(v.clone()));
        let mut whole = GroupExtremes::new(extreme, 10);
        whole
            .update(
                Operand::array(&column[..]),
                Some(&groups),
                &Rows::new(rows).with_nulls(nulls.as_ref()),
            )
            .unwrap();
        for cut in [0, 1, 700, 2999, 3000] {
            let mut merged = GroupExtremes::new(extreme, 10);
            for (start, end) in [(0, cut), (cut, rows)] {
                let mut part = GroupExtremes::new(extreme, 10);
                let part_nulls = nulls.as_ref().map(|n| n.slice(start, end - start));
                let part_rows = Rows::new(end - start).with_nulls(part_nulls.as_ref());
                part.update(
                    Operand::array(&column[start..end]),
                    Some(&groups[start..end]),
                    &part_rows,
                )
                .unwrap();
                for g in 0..10 {
                    merged.merge(g, part.group(g).unwrap()).unwrap();
                }
            }
            assert_groups(
                &merged,
                &oracle(extreme, &wide, &groups, valid.as_deref(), 10),
                &format!("cut {cut}"),
            );
        }
    }

    #[test]
    fn refused_calls_change_nothing() {
        let mut extremes = GroupExtremes::new(Extreme::Min, 2);
        extremes.update(Operand::array(&[5i64][..]), Some(&[1]), &Rows::new(1)).unwrap();
        let before = extremes.clone();
        let values = [i256::MIN, i256::MAX, i256::ONE];
        let out_of_range =
            extremes.update(Operand::array(&values[..]), Some(&[0, 2, 7]), &Rows::new(3));
        assert_eq!(out_of_range, Err(KernelError::GroupOutOfRange { row: 1, group: 2, groups: 2 }));
        let short = extremes.update(Operand::array(&values[..]), Some(&[0, 1]), &Rows::new(3));
        assert_eq!(short, Err(KernelError::LengthMismatch { expected: 3, actual: 2 }));
        let scalar = extremes.update(Operand::scalar(5i64), Some(&[0]), &Rows::new(1));
        assert!(matches!(scalar, Err(KernelError::UnsupportedSpec { .. })));
        assert_eq!(extremes, before);
        let mut none = GroupExtremes::new(Extreme::Max, 0);
        let got = none.update(Operand::array(&[1i8][..]), None, &Rows::new(1));
        assert_eq!(got, Err(KernelError::GroupOutOfRange { row: 0, group: 0, groups: 0 }));
    }

    #[rstest]
    #[case::none(0)]
    #[case::two(2)]
    #[case::all(9)]
    fn take_first_and_resize(#[case] n: usize) {
        let mut extremes = GroupExtremes::new(Extreme::Max, 3);
        let values = [i128::MAX, 4, -4];
        extremes.update(Operand::array(&values[..]), Some(&[0, 1, 2]), &Rows::new(3)).unwrap();
        let want: Vec<Option<i256>> = values.iter().map(|&v| Some(i256::from_i128(v))).collect();
        let taken = extremes.take_first(n);
        let n = n.min(3);
        assert_groups(&taken, &want[..n], "taken");
        assert_groups(&extremes, &want[n..], "kept");
        extremes.resize(5 - n).unwrap();
        let mut kept = want[n..].to_vec();
        kept.resize(5 - n, None);
        assert_groups(&extremes, &kept, "resized");
        assert!(extremes.allocated_bytes() >= extremes.len());
    }

    /// Extremes of vouched columns are not compared again when finished at
    /// their precision or more; a wider vouched column, an unvouched one or
    /// a merged part brings the check back.
    #[test]
    fn vouched_extremes_skip_the_check_only_within_their_precision() {
        let values = [999i64, -999, 5];
        let vouched = |p: u8| Operand::array(&values[..]).assume_precision(p);
        let mut extremes = GroupExtremes::new(Extreme::Max, 3);
        extremes.update(vouched(3), Some(&[0, 1, 0]), &Rows::new(3)).unwrap();
        assert_eq!(extremes.vouched, 3);
        let out: Output<i16> = extremes.finish(3, Policies::default()).unwrap();
        assert_eq!(out.values[..2], [999, -999]);
        assert!(out.nulls.is_some_and(|n| n.is_null(2) && n.null_count() == 1));
        // Vouched for 4 digits: a 3-digit result is checked (and holds).
        extremes.update(vouched(4), Some(&[0, 1, 2]), &Rows::new(3)).unwrap();
        let out: Output<i16> = extremes.finish(3, Policies::default()).unwrap();
        assert_eq!(out.values[..], [999, -999, 5]);
        let mut merged = extremes.clone();
        merged.merge(2, Some(i256::from_i128(1000))).unwrap();
        assert_eq!(merged.vouched, UNVOUCHED);
        let failed: Result<Output<i16>, _> = merged.finish(3, Policies::default());
        assert_eq!(failed.err(), Some(KernelError::Overflow { row: 2 }));
        let unvouched = [1000i64];
        extremes.update(Operand::array(&unvouched[..]), Some(&[1]), &Rows::new(1)).unwrap();
        let failed: Result<Output<i16>, _> = extremes.finish(3, Policies::default());
        assert_eq!(failed.err(), Some(KernelError::Overflow { row: 1 }));
        // The whole-column path vouches too.
        let mut whole = GroupExtremes::new(Extreme::Min, 1);
        whole.update(vouched(3), None, &Rows::new(3)).unwrap();
        assert_eq!(whole.vouched, 3);
        let out: Output<i16> = whole.finish(3, Policies::default()).unwrap();
        assert_eq!(out.values[..], [-999]);
        let taken = whole.take_first(1);
        assert_eq!((taken.vouched, taken.len(), whole.len()), (3, 1, 0));
    }

    /// An unchecked value beyond the precision fails at the end, by the
    /// policy; the output must hold the precision.
    #[test]
    fn finish_checks_the_precision() {
        let mut extremes = GroupExtremes::new(Extreme::Max, 3);
        let values = [999i64, 1000, -5];
        extremes.update(Operand::array(&values[..]), Some(&[0, 1, 0]), &Rows::new(3)).unwrap();
        let failed: Result<Output<i16>, _> = extremes.finish(3, Policies::default());
        assert_eq!(failed.err(), Some(KernelError::Overflow { row: 1 }));
        let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
        let nulled: Output<i16> = extremes.finish(3, null).unwrap();
        assert_eq!(nulled.values[0], 999);
        assert_eq!(nulled.nulls.map(|n| n.null_count()), Some(2));
        let narrow: Result<Output<i8>, _> = extremes.finish(3, Policies::default());
        assert!(matches!(narrow, Err(KernelError::StorageTooNarrow { .. })));
    }
}
