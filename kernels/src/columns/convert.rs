//! Blocks of rows between storage and work types.
//!
//! The kernels compute in one work type per call; each block of rows is read
//! straight from a column stored as that work type (see `in_place`), or
//! converted into it in one typed loop per block (no per-row dispatch, no
//! `i256` round trip), and written back the same way.

use core::mem::MaybeUninit;

use crate::columns::column::{Column, with_column};
use crate::columns::in_place::InPlace;
use crate::columns::storage::Stored;
use crate::int::work::Work;

impl Column<'_> {
    /// Rows `start..start + len` in work type `W`: the column itself when it
    /// is stored as `W`, otherwise converted into `scratch`.
    #[inline(always)]
    pub(crate) fn rows<'s, W: InPlace>(
        &'s self,
        start: usize,
        len: usize,
        scratch: &'s mut [MaybeUninit<W>],
    ) -> &'s [W] {
        if let Some(same) = W::from_column(self) {
            return window(same, start, len);
        }
        with_column!(self, values => load(window(values, start, len), scratch))
    }
}

/// The rows `start..start + len` of a slice (empty if out of range, which the
/// length check of the call's rows rules out).
#[inline(always)]
fn window<S>(values: &[S], start: usize, len: usize) -> &[S] {
    values.get(start..start.saturating_add(len)).unwrap_or_default()
}

/// Converts stored values into work type `W`, in `scratch`, and returns them.
///
/// Wide storage computed in a narrower work type (money in `i128` or `i256`
/// columns) is read as 64-bit words, of which only the low ones are used: the
/// compiler loads and deinterleaves whole vectors, where a loop over `i128`
/// values would move each value on its own.
#[inline(never)]
fn load<'s, S: Stored, W: Work>(values: &[S], scratch: &'s mut [MaybeUninit<W>]) -> &'s [W] {
    let len = values.len().min(scratch.len());
    let slots = &mut scratch[..len];
    if narrower_than_storage::<S, W>() {
        for (slot, &words) in slots.iter_mut().zip(S::as_words(values)) {
            slot.write(S::load_words(words));
        }
    } else {
        for (slot, &value) in slots.iter_mut().zip(values) {
            slot.write(value.load());
        }
    }
    // SAFETY: the loop above zipped `len` slots with at least `len` values
    // (or their words, one array per value), so it wrote every slot.
    unsafe { initialized(slots) }
}

/// Converts work values into output slots of storage `S`, keeping the low
/// bits: every valid result already fits (see the driver's precision
/// check). Writes `min(values.len(), slots.len())` slots, from the first.
#[inline(never)]
pub(crate) fn store<S: Stored, W: Work>(values: &[W], slots: &mut [MaybeUninit<S>]) {
    if narrower_than_storage::<S, W>() {
        for (slot, &value) in S::word_slots(slots).iter_mut().zip(values) {
            slot.write(S::store_words(value));
        }
    } else {
        for (slot, &value) in slots.iter_mut().zip(values) {
            slot.write(S::store(value));
        }
    }
}

/// Whether work type `W` is narrower than storage `S`: conversions then go
/// through [`Stored::Words`].
pub(crate) const fn narrower_than_storage<S: Stored, W: Work>() -> bool {
    (W::MAGNITUDE_BITS as usize) < 8 * size_of::<S>() - 1
}

/// The slots as values.
///
/// # Safety
/// Every slot must have been written (`MaybeUninit<T>` has the layout of
/// `T`, so written slots are values; an unwritten one would be read as
/// uninitialized memory).
#[inline(always)]
pub(crate) unsafe fn initialized<T>(slots: &[MaybeUninit<T>]) -> &[T] {
    // SAFETY: `MaybeUninit<T>` has the size, alignment and layout of `T`,
    // and the caller guarantees that every slot holds a value, for the
    // lifetime of the borrow.
    unsafe { &*(core::ptr::from_ref(slots) as *const [T]) }
}
