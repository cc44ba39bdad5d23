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
use crate::columns::operand::{Operand, Values};
use crate::columns::storage::Stored;
use crate::driver::blocks::{
    MASK_ROWS, OperandBlock, RepeatedWords, block_lengths, block_rows, block_slots,
};
use crate::driver::copies::{
    compare_block_in, compare_i128_words_in, compare_i128_words_scalar_in, compare_scalar_block_in,
};
use crate::driver::error::KernelError;
use crate::driver::isa::Runnable;
use crate::driver::kernel::{CompareKernel, WordsCompareKernel};
use crate::driver::rows::Rows;

/// Tests every row of `lhs` and `rhs` with kernel `K` in work type `W`, in
/// the loops of `copy`; each answer is negated when `negated`. A single
/// value on the right is held in a register, not repeated in a block.
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
    if let Some(y) = rhs.scalar_value::<W>() {
        let block = block_rows::<W>();
        let mut lhs_slots = block_slots();
        let mut lhs_block = OperandBlock::new(lhs, block.min(rows.len), &mut lhs_slots);
        for (start, out) in (0..rows.len).step_by(block).zip(words.chunks_mut(block / MASK_ROWS)) {
            let len = block.min(rows.len - start);
            let a = lhs_block.rows(lhs, start, len);
            block_lengths(&[a.len()], len)?;
            block_lengths(&[out.len()], len.div_ceil(MASK_ROWS))?;
            compare_scalar_block_in::<W, K>(copy, a, y, out, invert, constants);
        }
        return Ok(BooleanBuffer::new(Buffer::from_vec(words), 0, rows.len));
    }
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

/// As [`run_compare`] for operands stored as `i128` (columns, or single
/// values that fit it), tested over their 64-bit words by `Wk` (two
/// columns) or in `i64` by `K` (a single value on the right that fits
/// `i64`, held in a register), one pass: each 64-row word holding a row
/// beyond those is tested again in `i128` by `K`. Values of money and most
/// decimals fit `i64` whatever their declared type, and a 64-bit comparison
/// vectorizes where a 128-bit one does not; no measuring pass reads the
/// columns first.
pub(crate) fn run_compare_i128_words<K, Wk>(
    copy: Runnable,
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    constants: &I128WordsConstants<
        '_,
        <K as CompareKernel<i64>>::Constants,
        Wk::Constants,
        <K as CompareKernel<i128>>::Constants,
    >,
    negated: bool,
    rows: &Rows<'_>,
) -> Result<BooleanBuffer, KernelError>
where
    K: CompareKernel<i64> + CompareKernel<i128>,
    Wk: WordsCompareKernel,
{
    let I128WordsConstants { in_i64: constants_64, words: constants_words, in_i128: constants_128 } =
        constants;
    rows.check(&[lhs, rhs])?;
    let invert = if negated { u64::MAX } else { 0 };
    let mut words = vec![0u64; rows.len.div_ceil(MASK_ROWS)];
    let block = block_rows::<i64>();
    let first = block.min(rows.len);
    let (mut lhs_slots, mut rhs_slots) = (block_slots(), block_slots());
    let lhs_words = RepeatedWords::<i128>::new::<i128>(lhs, first, &mut lhs_slots);
    let rhs_words = RepeatedWords::<i128>::new::<i128>(rhs, first, &mut rhs_slots);
    let (lhs_column, rhs_column) = (i128_column(lhs), i128_column(rhs));
    // A single value on the right that fits `i64` is not read as words.
    let rhs_scalar = rhs.scalar_value::<i128>().and_then(|y| i64::try_from(y).ok());
    // A single value's `i128` rows for a word tested again.
    let (lhs_word, rhs_word) = (
        [lhs.scalar_value::<i128>().unwrap_or(0); MASK_ROWS],
        [rhs.scalar_value::<i128>().unwrap_or(0); MASK_ROWS],
    );
    for (start, out) in (0..rows.len).step_by(block).zip(words.chunks_mut(block / MASK_ROWS)) {
        let len = block.min(rows.len - start);
        let a = lhs_words.rows(lhs_column, start, len);
        let b = rhs_words.rows(rhs_column, start, len);
        block_lengths(&[a.len(), b.len()], len)?;
        block_lengths(&[out.len()], len.div_ceil(MASK_ROWS))?;
        let mut wide = match rhs_scalar {
            Some(y) => compare_i128_words_scalar_in::<K>(copy, a, y, out, invert, constants_64),
            None => compare_i128_words_in::<Wk>(copy, a, b, out, invert, constants_words),
        };
        while wide != 0 {
            let j = wide.trailing_zeros() as usize;
            wide &= wide - 1;
            let word_start = start + j * MASK_ROWS;
            let word_len = MASK_ROWS.min(rows.len - word_start);
            let a = word_rows(lhs_column, &lhs_word, word_start, word_len);
            let b = word_rows(rhs_column, &rhs_word, word_start, word_len);
            block_lengths(&[a.len(), b.len()], word_len)?;
            compare_block_in::<i128, K>(copy, a, b, &mut out[j..=j], invert, constants_128);
        }
    }
    Ok(BooleanBuffer::new(Buffer::from_vec(words), 0, rows.len))
}

/// The constants of [`run_compare_i128_words`]'s three tests.
pub(crate) struct I128WordsConstants<'c, InI64, Words, InI128> {
    /// `K`'s in `i64`, against a single value.
    pub(crate) in_i64: &'c InI64,
    /// `Wk`'s, over two columns' words.
    pub(crate) words: &'c Words,
    /// `K`'s in `i128`, for the words tested again.
    pub(crate) in_i128: &'c InI128,
}

/// Rows `start..start + len` of a column, or of a single value repeated.
fn word_rows<'a>(
    column: Option<&'a [i128]>,
    repeated: &'a [i128; MASK_ROWS],
    start: usize,
    len: usize,
) -> &'a [i128] {
    match column {
        Some(values) => values.get(start..start + len).unwrap_or_default(),
        None => repeated.get(..len).unwrap_or_default(),
    }
}

/// The operand's values when it is a column stored as `i128`.
pub(crate) fn i128_column<'a>(operand: &Operand<'a>) -> Option<&'a [i128]> {
    match operand.values {
        Values::Array(column) => i128::of_column(&column),
        Values::Scalar(_) => None,
    }
}
