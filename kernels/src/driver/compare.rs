//! The block driver of comparisons: runs a [`CompareKernel`] over every row
//! of two operands and packs the answers 64 rows to a word.
//!
//! As the binary driver does, it reads each operand's block in the call's
//! work type (in place when a column is stored as it, converted otherwise,
//! a single value repeated once per call), and runs the kernel's loop in
//! the copy this process chose, with no branch on a row's outcome; null
//! rows are compared too (their answer is unspecified) and the validity is
//! the caller's. A comparison has no failing row, so there are no flags.

use arrow_buffer::{BooleanBuffer, Buffer};

use crate::columns::in_place::InPlace;
use crate::columns::operand::Operand;
use crate::driver::blocks::{MASK_ROWS, OperandBlock, block_lengths, block_rows, block_slots};
use crate::driver::copies::compare_block_in;
use crate::driver::error::KernelError;
use crate::driver::isa::Runnable;
use crate::driver::kernel::CompareKernel;
use crate::driver::rows::Rows;

/// Tests every row of `lhs` and `rhs` with kernel `K` in work type `W`, in
/// the loops of `copy`; each answer is negated when `negated`.
pub(crate) fn run_compare<W: InPlace, K: CompareKernel<W>>(
    copy: Runnable,
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    constants: &K::Constants,
    negated: bool,
    rows: &Rows<'_>,
) -> Result<BooleanBuffer, KernelError> {
    rows.check(&[lhs, rhs])?;
    let invert = if negated { u64::MAX } else { 0 };
    let mut words = vec![0u64; rows.len.div_ceil(MASK_ROWS)];
    // A multiple of 64 rows, so that every block but the last fills whole
    // words.
    let block = block_rows::<W>();
    let first = block.min(rows.len);
    let (mut lhs_slots, mut rhs_slots) = (block_slots(), block_slots());
    let mut lhs_block = OperandBlock::new(lhs, first, &mut lhs_slots);
    let mut rhs_block = OperandBlock::new(rhs, first, &mut rhs_slots);
    for (start, out) in (0..rows.len).step_by(block).zip(words.chunks_mut(block / MASK_ROWS)) {
        let len = block.min(rows.len - start);
        let a = lhs_block.rows(lhs, start, len);
        let b = rhs_block.rows(rhs, start, len);
        // Ruled out by the check of the call's rows; kept so that a short
        // operand block never leaves rows unanswered.
        block_lengths(&[a.len(), b.len()], len)?;
        block_lengths(&[out.len()], len.div_ceil(MASK_ROWS))?;
        compare_block_in::<W, K>(copy, a, b, out, invert, constants);
    }
    Ok(BooleanBuffer::new(Buffer::from_vec(words), 0, rows.len))
}
