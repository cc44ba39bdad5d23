//! The aggregates layer: exact sums (`sum`), means (`avg`) and extremes
//! (`min`, `max`) of decimal columns, whole or by group, with states an engine exports and merges,
//! checked against a result precision when finished.

pub(crate) mod avg;
pub(crate) mod min_max;
pub(crate) mod sum;

use core::mem::MaybeUninit;
use std::collections::TryReserveError;

use crate::columns::column::Column;
use crate::columns::in_place::InPlace;
use crate::driver::error::KernelError;

/// Rows an aggregate reads into a work type at a time.
pub(crate) const BLOCK_ROWS: usize = 1024;

/// Calls `each(start, block)` for every block of the column read as `W`.
pub(crate) fn for_each_block<W: InPlace>(column: &Column<'_>, mut each: impl FnMut(usize, &[W])) {
    let mut scratch = [const { MaybeUninit::<W>::uninit() }; BLOCK_ROWS];
    let len = column.len();
    let mut start = 0;
    while start < len {
        let rows = BLOCK_ROWS.min(len - start);
        each(start, column.rows::<W>(start, rows, &mut scratch));
        start += rows;
    }
}

/// Asks the CPU to bring `slice[i]` into its caches ahead of its use: a
/// hint that changes nothing the program computes (an index beyond the
/// slice, or a target without the instruction, asks nothing).
#[inline(always)]
pub(crate) fn prefetch<T>(slice: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(element) = slice.get(i) {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch reads no memory the program sees and cannot
        // fault; the address is that of an element of the slice anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(core::ptr::from_ref(element).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, i);
}

/// One vector of a state's per-group values, whatever its element type.
pub(crate) trait PerGroup {
    /// Room for `groups` elements in all, or the allocator's refusal.
    fn try_room_for(&mut self, groups: usize) -> Result<(), TryReserveError>;
    /// The elements it has room for.
    fn room(&self) -> usize;
    /// Gives back the room beyond `room` (never below its length).
    fn release_to(&mut self, room: usize);
}

impl<T> PerGroup for Vec<T> {
    fn try_room_for(&mut self, groups: usize) -> Result<(), TryReserveError> {
        // Amortized (the capacity at least doubles), as `Vec::resize` grows:
        // an engine adds a few groups a batch, and an exact reservation
        // would copy every group's state again on each.
        self.try_reserve(groups.saturating_sub(self.len()))
    }

    fn room(&self) -> usize {
        self.capacity()
    }

    fn release_to(&mut self, room: usize) {
        self.shrink_to(room);
    }
}

/// Reserves room for `groups` groups in every vector of a state, all or
/// none: the one place where a group count an input gives (a `total_groups`,
/// a state widened to more bytes a group) becomes memory. A count whose
/// bytes a `Vec` cannot count, or that the allocator refuses, is
/// [`KernelError::TooManyGroups`] rather than a panic or an abort, and the
/// room reserved for the vectors before the refused one is given back (an
/// engine's memory accounting reads the capacities). With the room
/// reserved, growing the vectors to `groups` elements allocates nothing.
pub(crate) fn reserve_groups<const N: usize>(
    groups: usize,
    mut vectors: [&mut dyn PerGroup; N],
) -> Result<(), KernelError> {
    let before = vectors.each_ref().map(|v| v.room());
    for i in 0..N {
        if vectors[i].try_room_for(groups).is_err() {
            for (v, &room) in vectors.iter_mut().zip(&before).take(i) {
                v.release_to(room);
            }
            return Err(KernelError::TooManyGroups { groups });
        }
    }
    Ok(())
}

/// The first row whose group index is not below `len` (the number of
/// groups), if any: one vectorized pass ([`all_below`]) for the usual batch,
/// whose groups are all in range, and a search only when one is not.
pub(crate) fn first_out_of_range(groups: &[usize], len: usize) -> Option<usize> {
    if all_below(groups, len) { None } else { groups.iter().position(|&g| g >= len) }
}

/// Whether every group index is below `len`, in one pass of 64-bit
/// subtractions and ORs (which vectorize on every x86-64 level, where a
/// 64-bit unsigned `max` does not before AVX-512): `len - 1 - g` is negative
/// exactly when `g >= len` for `g` below `2^63`, and `g`'s own sign bit
/// catches the others.
fn all_below(groups: &[usize], len: usize) -> bool {
    // `len` is at most `isize::MAX` (it counts a `Vec`'s elements), so the
    // last group fits `i64`; without groups it is -1 and every row fails.
    let last = (len as i64).wrapping_sub(1);
    let signs = groups.iter().fold(0i64, |acc, &g| {
        let g = g as i64;
        acc | last.wrapping_sub(g) | g
    });
    signs >= 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// The range check of the group indices at its edges: the last group,
    /// the first beyond it, indices with the top bit set, no groups.
    #[rstest]
    #[case::last_group(&[0, 6, 3], 7, true)]
    #[case::one_past(&[0, 7, 3], 7, false)]
    #[case::top_bit(&[1 << 63, 0], 7, false)]
    #[case::usize_max(&[usize::MAX], 7, false)]
    #[case::no_groups(&[0], 0, false)]
    #[case::no_rows(&[], 0, true)]
    #[case::huge_len(&[usize::MAX >> 1, 5], usize::MAX >> 1, false)]
    #[case::below_huge_len(&[(usize::MAX >> 1) - 1], usize::MAX >> 1, true)]
    fn group_indices_are_checked_against_the_groups(
        #[case] groups: &[usize],
        #[case] len: usize,
        #[case] below: bool,
    ) {
        assert_eq!(all_below(groups, len), below);
        assert_eq!(all_below(groups, len), groups.iter().all(|&g| g < len));
        assert_eq!(first_out_of_range(groups, len), groups.iter().position(|&g| g >= len));
    }

    /// A vector whose allocator refuses any room beyond what it has.
    struct Refusing;

    impl PerGroup for Refusing {
        fn try_room_for(&mut self, _: usize) -> Result<(), TryReserveError> {
            Err(Vec::<u64>::new().try_reserve(usize::MAX).expect_err("beyond isize::MAX bytes"))
        }

        fn room(&self) -> usize {
            0
        }

        fn release_to(&mut self, _: usize) {}
    }

    /// Room is reserved in every vector or none: one refused gives back
    /// the room reserved for those before it, and leaves the others alone.
    #[test]
    fn room_is_reserved_in_all_vectors_or_none() {
        let (mut first, mut last) = (vec![1u64, 2], vec![3u8; 5]);
        let rooms = (first.capacity(), last.capacity());
        let got = reserve_groups(1000, [&mut first, &mut Refusing, &mut last]);
        assert_eq!(got, Err(KernelError::TooManyGroups { groups: 1000 }));
        assert_eq!((first.capacity(), last.capacity()), rooms);
        assert_eq!((first, last), (vec![1, 2], vec![3; 5]));
        let (mut a, mut b) = (vec![0u64; 3], Vec::<bool>::new());
        reserve_groups(1000, [&mut a, &mut b]).unwrap();
        assert!(a.capacity() >= 1000 && b.capacity() >= 1000);
        assert_eq!((a.len(), b.len()), (3, 0), "reserving adds no group");
    }
}
