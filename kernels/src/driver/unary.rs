//! The block driver of unary operators (rescales, sign changes): runs a
//! [`UnaryKernel`] over every row of one operand.
//!
//! The same shape as the binary driver, less the second operand: blocks of
//! up to [`KERNEL_BLOCK_ROWS`] rows read in place or converted, a kernel loop
//! with no branch on a row's outcome and one flag byte per block, results
//! written in place or converted back, failing blocks looked at again row
//! by row into 64-row failure masks (see `failures`), and for `i128` and
//! `i256` storage computed in a narrower type, a loop over the values'
//! 64-bit words.

use arrow_buffer::{NullBuffer, i256};

use crate::columns::column::Sink;
use crate::columns::convert::{initialized, narrower_than_storage, store};
use crate::columns::in_place::InPlace;
use crate::columns::operand::{Operand, Values};
use crate::columns::storage::{Stored, TOKEN};
use crate::driver::blocks::{
    KERNEL_BLOCK_ROWS, OperandBlock, block_lengths, block_rows, block_slots,
};
use crate::driver::compiled::{UnaryBlocks, UnaryLoops, WordStorage};
use crate::driver::copies::{Multiversioned, Portable};
use crate::driver::error::KernelError;
use crate::driver::failures::FailureMasks;
use crate::driver::kernel::UnaryKernel;
use crate::driver::rows::Rows;

/// Runs unary kernel `K` in work type `W` over every row, with the loop
/// compiled for the build's target, appending to `sink`; returns the
/// validity.
pub(crate) fn run_unary<W: InPlace, K: UnaryKernel<W>>(
    operand: &Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let kernel = UnaryLoops::<W, K, Portable>::new(constants);
    launch(operand, &kernel, rows, sink)
}

/// As [`run_unary`], with the loop also compiled for AVX-512 and that copy
/// chosen at run time on a CPU that has it.
pub(crate) fn run_unary_multiversioned<W: InPlace, K: UnaryKernel<W>>(
    operand: &Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let kernel = UnaryLoops::<W, K, Multiversioned>::new(constants);
    launch(operand, &kernel, rows, sink)
}

/// The block driver for the output's storage.
fn launch<W: InPlace>(
    operand: &Operand<'_>,
    kernel: &dyn UnaryBlocks<W>,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    rows.check(&[operand])?;
    match sink {
        Sink::I128(out) if words_column::<i128, W>(operand).is_some() => {
            drive_words(operand, kernel, rows, out)
        }
        Sink::I256(out) if words_column::<i256, W>(operand).is_some() => {
            drive_words(operand, kernel, rows, out)
        }
        Sink::I8(out) => drive(operand, kernel, rows, out),
        Sink::I16(out) => drive(operand, kernel, rows, out),
        Sink::I32(out) => drive(operand, kernel, rows, out),
        Sink::I64(out) => drive(operand, kernel, rows, out),
        Sink::I128(out) => drive(operand, kernel, rows, out),
        Sink::I256(out) => drive(operand, kernel, rows, out),
    }
}

/// The loop over every row, in blocks of [`block_rows`], results stored as
/// `O`.
#[inline(never)]
fn drive<W: InPlace, O: Stored>(
    operand: &Operand<'_>,
    kernel: &dyn UnaryBlocks<W>,
    rows: &Rows<'_>,
    out: &mut Vec<O>,
) -> Result<Option<NullBuffer>, KernelError> {
    out.clear();
    out.reserve_exact(rows.len);
    let block = block_rows::<W>();
    // Short calls fill only the rows they have.
    let mut operand_block = OperandBlock::new(operand, block.min(rows.len));
    let mut out_slots = block_slots();
    let mut failures = FailureMasks::new(rows);
    for start in (0..rows.len).step_by(block) {
        let len = block.min(rows.len - start);
        let a = operand_block.rows(operand, start, len);
        let spare = out.spare_capacity_mut();
        let spare_len = spare.len().min(len);
        let spare = &mut spare[..spare_len];
        block_lengths(&[a.len(), spare.len()], len)?;
        let any = match W::output_slots(O::slots(spare, TOKEN)) {
            Some(slots) => kernel.block(a, slots),
            None => {
                let slots = &mut out_slots[..len];
                let any = kernel.block(a, slots);
                // SAFETY: the kernel wrote every slot (`UnaryBlocks`'
                // contract, with `a` and `slots` both `len` long).
                let values = unsafe { initialized(slots) };
                store::<O, W>(values, &mut out.spare_capacity_mut()[..len]);
                any
            }
        };
        // SAFETY: all `len` slots after the vector's initialized elements
        // were written: by the kernel in place (`UnaryBlocks`' contract,
        // with `a` and the slots both `len` long, checked above) or by
        // `store` (which zips `len` values with `len` slots).
        unsafe { out.set_len(out.len() + len) };
        if any != 0 {
            // Rare: rebuild this block's masks row by row.
            let flags = a.iter().map(|&x| kernel.row(x).1);
            failures.record_block(start, len, flags)?;
        }
    }
    Ok(failures.finish())
}

/// The operand as a column of storage `S` (`None` for a single value) if it
/// is stored so and `W` is narrower than `S`: the call then runs over the
/// values' words ([`drive_words`]).
fn words_column<'a, S: Stored, W: InPlace>(operand: &Operand<'a>) -> Option<&'a [S]> {
    if !narrower_than_storage::<S, W>() {
        return None;
    }
    match operand.values {
        Values::Array(column) => S::of_column(&column),
        Values::Scalar(_) => None,
    }
}

/// [`drive`] for an operand and output stored as `S` and computed in a
/// narrower `W`, over the values' 64-bit words: no conversion pass.
#[inline(never)]
fn drive_words<W: InPlace, S: WordStorage>(
    operand: &Operand<'_>,
    kernel: &dyn UnaryBlocks<W>,
    rows: &Rows<'_>,
    out: &mut Vec<S>,
) -> Result<Option<NullBuffer>, KernelError> {
    let Some(column) = words_column::<S, W>(operand) else {
        return drive(operand, kernel, rows, out);
    };
    out.clear();
    out.reserve_exact(rows.len);
    let block = KERNEL_BLOCK_ROWS.min(rows.len);
    let mut failures = FailureMasks::new(rows);
    for start in (0..rows.len).step_by(block.max(1)) {
        let len = block.min(rows.len - start);
        let a = S::as_words(column.get(start..start + len).unwrap_or_default());
        let spare = out.spare_capacity_mut();
        let spare_len = spare.len().min(len);
        let slots = S::word_slots(&mut spare[..spare_len]);
        block_lengths(&[a.len(), slots.len()], len)?;
        let Some(any) = S::unary_block(kernel, a, slots) else {
            // Not a narrower work type: the general loop, from the start.
            return drive(operand, kernel, rows, out);
        };
        // SAFETY: the kernel wrote all `len` slots (`UnaryBlocks`' contract,
        // with `a` and the slots both `len` long, checked above), which
        // directly follow the vector's initialized elements.
        unsafe { out.set_len(out.len() + len) };
        if any != 0 {
            let flags = a.iter().map(|&x| kernel.row(S::load_words(x)).1);
            failures.record_block(start, len, flags)?;
        }
    }
    Ok(failures.finish())
}
