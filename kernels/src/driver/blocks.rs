//! How the block drivers cut a call's rows: block sizes, an operand's rows
//! of one block (read, converted or repeated), and the length check that
//! stands before every block's results are taken as written.

use core::mem::MaybeUninit;

use crate::columns::convert::initialized;
use crate::columns::in_place::InPlace;
use crate::columns::operand::{Operand, Values};
use crate::columns::storage::Stored;
use crate::driver::error::KernelError;
use crate::int::work::Work;

/// Rows per failure mask.
pub(crate) const MASK_ROWS: usize = 64;

/// Rows per kernel block and flag byte.
///
/// A multiple of [`MASK_ROWS`], and longer than one: a loop that reads only
/// some words of each value leaves its last vector's worth of rows to a
/// scalar epilogue, which over 64 rows was half of them. Over 512 rows it is
/// a few percent, the three blocks of a call stay in the first-level cache up
/// to `i256` work (16 KiB each), and a block that fails is recomputed row by
/// row at most once.
pub(crate) const KERNEL_BLOCK_ROWS: usize = 512;

/// Rows per block in work type `W`: [`KERNEL_BLOCK_ROWS`], fewer for wide
/// types, so that the blocks of a call (operands, converted, and the result)
/// stay within the first-level cache: 8 KiB each.
pub(crate) const fn block_rows<W>() -> usize {
    let rows = 8192 / size_of::<W>();
    let rows = if rows > KERNEL_BLOCK_ROWS { KERNEL_BLOCK_ROWS } else { rows };
    if rows < MASK_ROWS { MASK_ROWS } else { rows / MASK_ROWS * MASK_ROWS }
}

/// One operand's memory for a block: scratch for a column's rows converted
/// into the work type, or a single value repeated over its first
/// `repeated` slots (written once per call).
///
/// The slots are the driver's local array, borrowed: a struct that held the
/// array itself was built in `new` and moved out of it, and the move copied
/// the whole array (4 to 32 KiB, uninitialized or not) on every call, which
/// cost the cheap kernels 5 to 12% at 8,192 rows.
pub(crate) struct OperandBlock<'a, W> {
    slots: &'a mut [MaybeUninit<W>],
    repeated: usize,
}

impl<'a, W: InPlace> OperandBlock<'a, W> {
    /// For `operand`, in `slots` (a block's, see [`block_slots`]): a single
    /// value is repeated over `rows` of them (at most all).
    #[inline(always)]
    pub(crate) fn new(operand: &Operand<'_>, rows: usize, slots: &'a mut [MaybeUninit<W>]) -> Self {
        let rows = rows.min(slots.len());
        let repeated = match operand.scalar_value::<W>() {
            Some(value) => {
                for slot in &mut slots[..rows] {
                    slot.write(value);
                }
                rows
            }
            None => 0,
        };
        Self { slots, repeated }
    }

    /// Rows `start..start + len` of `operand` in `W`: a column's, read in
    /// place or converted into the scratch, or a single value's repeated
    /// slots (no more than were repeated: a shorter block fails the length
    /// check).
    #[inline(always)]
    pub(crate) fn rows<'s>(
        &'s mut self,
        operand: &'s Operand<'_>,
        start: usize,
        len: usize,
    ) -> &'s [W] {
        match &operand.values {
            Values::Array(column) => column.rows(start, len, self.slots),
            Values::Scalar(_) => {
                let repeated = &self.slots[..len.min(self.repeated)];
                // SAFETY: `new` wrote the first `self.repeated` slots, and
                // nothing writes the slots of a single value after it.
                unsafe { initialized(repeated) }
            }
        }
    }
}

/// [`OperandBlock`] for the words loops: a single value repeated as the
/// words of storage `S` (a column is read in place), in the driver's slots.
pub(crate) struct RepeatedWords<'a, S: Stored> {
    slots: &'a [MaybeUninit<S::Words>],
    repeated: usize,
}

impl<'a, S: Stored> RepeatedWords<'a, S> {
    /// For `operand`, in `slots` (a block's, see [`block_slots`]): a single
    /// value, in work type `W`, is repeated over `rows` of them (at most
    /// all).
    #[inline(always)]
    pub(crate) fn new<W: Work>(
        operand: &Operand<'_>,
        rows: usize,
        slots: &'a mut [MaybeUninit<S::Words>],
    ) -> Self {
        let rows = rows.min(slots.len());
        let repeated = match operand.scalar_value::<W>() {
            Some(value) => {
                let words = S::store_words(value);
                for slot in &mut slots[..rows] {
                    slot.write(words);
                }
                rows
            }
            None => 0,
        };
        Self { slots, repeated }
    }

    /// Rows `start..start + len` of `column` as words, or, for a single
    /// value (`None`), its repeated words (no more than were repeated).
    pub(crate) fn rows<'s>(
        &'s self,
        column: Option<&'s [S]>,
        start: usize,
        len: usize,
    ) -> &'s [S::Words] {
        match column {
            Some(values) => S::as_words(values.get(start..start + len).unwrap_or_default()),
            None => {
                let repeated = &self.slots[..len.min(self.repeated)];
                // SAFETY: `new` wrote the first `self.repeated` slots, and
                // nothing writes them after it.
                unsafe { initialized(repeated) }
            }
        }
    }
}

/// Uninitialized slots for one block, for the driver to keep as a local and
/// lend to [`OperandBlock`], [`RepeatedWords`] or the kernel: inlined, it
/// costs nothing (no bytes are written or copied).
#[inline(always)]
pub(crate) fn block_slots<W>() -> [MaybeUninit<W>; KERNEL_BLOCK_ROWS] {
    [const { MaybeUninit::uninit() }; KERNEL_BLOCK_ROWS]
}

/// Checks that a block's operands and output slots all have its `len` rows:
/// ruled out by the check of the call's rows and the output's reserved
/// capacity, and kept so that no output slot is ever taken as written when
/// the kernel did not write it.
pub(crate) fn block_lengths(lengths: &[usize], len: usize) -> Result<(), KernelError> {
    match lengths.iter().find(|&&l| l != len) {
        Some(&actual) => Err(KernelError::LengthMismatch { expected: len, actual }),
        None => Ok(()),
    }
}
