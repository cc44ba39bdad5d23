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
use crate::driver::copies::{Copies, Multiversioned, Portable};
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
    run_unary_in::<W, K, Portable>(operand, constants, rows, sink)
}

/// As [`run_unary`], with the loop also compiled for AVX2 and for AVX-512
/// and the copy this process chose run.
pub(crate) fn run_unary_multiversioned<W: InPlace, K: UnaryKernel<W>>(
    operand: &Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    run_unary_in::<W, K, Multiversioned>(operand, constants, rows, sink)
}

/// As [`run_unary`], with the loop in the copies `C`.
pub(crate) fn run_unary_in<W: InPlace, K: UnaryKernel<W>, C: Copies>(
    operand: &Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let kernel = UnaryLoops::<W, K, C>::new(constants);
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
    let (mut operand_slots, mut out_slots) = (block_slots(), block_slots());
    let mut operand_block = OperandBlock::new(operand, block.min(rows.len), &mut operand_slots);
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
            // Each row loaded as the words loop loaded it.
            let saturated = kernel.saturated_loads();
            let load = |x| if saturated { S::load_words_saturated(x) } else { S::load_words(x) };
            let flags = a.iter().map(|&x| kernel.row(load(x)).1);
            failures.record_block(start, len, flags)?;
        }
    }
    Ok(failures.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::storage::Storage;
    use crate::driver::isa::Runnable;
    use crate::driver::kernel::{BinaryKernel, DIVIDE_BY_ZERO, overflow_flag};
    use crate::driver::output::Output;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use crate::int::i512::I512;
    use crate::int::work::Work;
    use crate::testing::{
        assert_same_outcome, call, call_unary, call_unary_in, valid_values, values,
    };
    use ethnum::I256;

    /// `-a`, failing beyond `bound` and, standing in for a division by zero,
    /// on a zero `a`.
    struct FlaggedNeg;

    impl<W: Work> UnaryKernel<W> for FlaggedNeg {
        type Constants = W;
        fn apply(a: W, &bound: &W) -> (W, u8) {
            let r = a.neg();
            (r, overflow_flag::<W, true>(r, bound) | (DIVIDE_BY_ZERO * u8::from(a.is_zero())))
        }
    }

    /// [`FlaggedNeg`] of the first operand through the binary driver: how
    /// unary operators ran before they had their own driver.
    struct FlaggedNegOfFirst;

    impl<W: Work> BinaryKernel<W> for FlaggedNegOfFirst {
        type Constants = W;
        fn apply(a: W, _: W, bound: &W) -> (W, u8) {
            <FlaggedNeg as UnaryKernel<W>>::apply(a, bound)
        }
    }

    const ROWS: usize = 1500;
    const BOUND: i64 = 10i64.pow(18) - 1;

    /// The unary driver against the binary one with an ignored zero, for
    /// results stored as `O`, under both policies.
    #[track_caller]
    fn assert_drivers_agree<O: Storage, W: InPlace>(operand: Operand<'_>, context: &str) {
        let nulls = NullBuffer::from((0..ROWS).map(|i| i % 13 != 4).collect::<Vec<_>>());
        let bound = W::from_i64(BOUND);
        for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
            let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
            let rows = Rows::new(ROWS).with_nulls(Some(&nulls)).with_policies(policies);
            let binary =
                call::<O, W, FlaggedNegOfFirst>(operand, Operand::scalar(0i8), bound, &rows);
            let unary = call_unary::<O, W, FlaggedNeg>(operand, bound, &rows);
            let context = format!("{context} in {} ({policy:?})", core::any::type_name::<W>());
            assert_same_outcome(binary, unary, &context);
        }
    }

    /// Work type `W` over the same values stored in `i64`, `i128` and
    /// `i256`, and as a single value, with results in each of those widths:
    /// in place, converted, and over words.
    fn assert_every_storage_agrees<W: InPlace>(bits: u32) {
        let mut a = values(ROWS, bits, 9);
        for row in [70, 700, 1400] {
            a[row] = 0;
        }
        if bits > 60 {
            a[5] = BOUND;
            a[900] = -BOUND - 1;
        }
        let wide: Vec<i128> = a.iter().map(|&v| i128::from(v)).collect();
        let widest: Vec<arrow_buffer::i256> = a.iter().map(|&v| v.into()).collect();
        let operands = [
            ("i64", Operand::array(&a[..])),
            ("i128", Operand::array(&wide[..])),
            ("i256", Operand::array(&widest[..])),
            ("scalar", Operand::scalar(a[9])),
            ("zero scalar", Operand::scalar(0i8)),
        ];
        for (name, operand) in operands {
            assert_drivers_agree::<i64, W>(operand, &format!("{name} -> i64"));
            assert_drivers_agree::<i128, W>(operand, &format!("{name} -> i128"));
            assert_drivers_agree::<arrow_buffer::i256, W>(operand, &format!("{name} -> i256"));
        }
    }

    #[test]
    fn unary_driver_agrees_with_the_binary_one() {
        assert_every_storage_agrees::<i64>(62);
        assert_every_storage_agrees::<i128>(62);
        assert_every_storage_agrees::<I256>(62);
        assert_every_storage_agrees::<I512>(40);
    }

    #[test]
    fn failures_are_found_row_by_row_in_every_block() {
        let mut a = values(ROWS, 50, 3);
        for row in [3, 511, 512, 1499] {
            a[row] = -BOUND - 1;
        }
        a[1030] = 0;
        // Row 3 fails under a null: no failure.
        let nulls = NullBuffer::from((0..ROWS).map(|i| i != 3).collect::<Vec<_>>());
        let null =
            Policies { on_overflow: OverflowPolicy::Null, on_divide_by_zero: OverflowPolicy::Null };
        let rows = Rows::new(ROWS).with_nulls(Some(&nulls)).with_policies(null);
        let out: Output<i64> =
            call_unary::<i64, i64, FlaggedNeg>(Operand::array(&a[..]), BOUND, &rows).unwrap();
        let kept = out.nulls.expect("rows nulled");
        let nulled: Vec<usize> =
            (0..ROWS).filter(|&i| nulls.is_valid(i) && !kept.is_valid(i)).collect();
        assert_eq!(nulled, [511, 512, 1030, 1499]);
        let rows = rows.with_policies(Policies::default());
        let first = call_unary::<i64, i64, FlaggedNeg>(Operand::array(&a[..]), BOUND, &rows);
        assert_eq!(first.unwrap_err(), KernelError::Overflow { row: 511 });
    }

    #[test]
    fn lengths_are_checked_before_any_row() {
        let a = [1i64, 2];
        let out = call_unary::<i64, i64, FlaggedNeg>(Operand::array(&a[..]), BOUND, &Rows::new(3));
        assert_eq!(out.unwrap_err(), KernelError::LengthMismatch { expected: 3, actual: 2 });
        let nulls = NullBuffer::new_valid(3);
        let rows = Rows::new(2).with_nulls(Some(&nulls));
        let out = call_unary::<i64, i64, FlaggedNeg>(Operand::scalar(1i8), BOUND, &rows);
        assert_eq!(out.unwrap_err(), KernelError::LengthMismatch { expected: 2, actual: 3 });
    }

    /// Every copy of the loop this CPU runs (whatever copy the process
    /// chose) negates exactly and fails where the portable loop does: over
    /// `i64` columns, and over `i128` columns read and written as words.
    #[test]
    fn every_copy_gives_the_exact_outcome() {
        let mut a = values(ROWS, 50, 3);
        for row in [511, 512, 1499] {
            a[row] = -BOUND - 1;
        }
        a[1030] = 0;
        let wide: Vec<i128> = a.iter().map(|&v| i128::from(v)).collect();
        let nulls = NullBuffer::from((0..ROWS).map(|i| i % 11 != 2).collect::<Vec<_>>());
        let null =
            Policies { on_overflow: OverflowPolicy::Null, on_divide_by_zero: OverflowPolicy::Null };
        let rows = Rows::new(ROWS).with_nulls(Some(&nulls)).with_policies(null);
        let error = Rows::new(ROWS).with_nulls(Some(&nulls));
        let exact = |i: usize| (nulls.is_valid(i) && a[i] != 0 && a[i] >= -BOUND).then(|| -a[i]);
        let expected: Vec<Option<i64>> = (0..ROWS).map(exact).collect();
        let wide_expected: Vec<Option<i128>> = expected.iter().map(|v| v.map(i128::from)).collect();
        let (narrow, words) = (Operand::array(&a[..]), Operand::array(&wide[..]));
        let first_failure = call_unary::<i64, i64, FlaggedNeg>(narrow, BOUND, &error);
        assert!(first_failure.is_err());
        for copy in Runnable::all() {
            let context = format!("{:?} copy", copy.isa());
            let out = call_unary_in::<i64, i64, FlaggedNeg>(copy, narrow, BOUND, &rows);
            assert_eq!(valid_values(&out.unwrap()), expected, "{context}");
            let out = call_unary_in::<i128, i64, FlaggedNeg>(copy, words, BOUND, &rows);
            assert_eq!(valid_values(&out.unwrap()), wide_expected, "{context}, i128 words");
            let first = call_unary_in::<i64, i64, FlaggedNeg>(copy, narrow, BOUND, &error);
            assert_same_outcome(first_failure.clone(), first, &format!("{context}, errors"));
        }
    }
}
