//! The block driver of binary operators: runs a [`BinaryKernel`] over every
//! row of two operands.
//!
//! Rows go in blocks of up to [`KERNEL_BLOCK_ROWS`] in the call's work
//! type: each operand's block is read straight from its column when the
//! column is stored as the work type, or converted into it first (one typed
//! loop per block, see `columns::convert`); a single value is repeated over
//! a block once per call. The kernel's loop then computes every row of the
//! block with no branch on its outcome (null rows too, harmlessly, so the
//! loop vectorizes), writing the results straight into the output when it
//! is stored as the work type (converted back otherwise), and ORs the
//! block's failure flags into one byte. Only a block whose byte is non-zero
//! is looked at again, row by row (see `failures`).

use arrow_buffer::{NullBuffer, i256};

use crate::columns::column::Sink;
use crate::columns::convert::{initialized, narrower_than_storage, store};
use crate::columns::in_place::InPlace;
use crate::columns::operand::{Operand, Values};
use crate::columns::storage::{Stored, TOKEN};
use crate::driver::blocks::{
    KERNEL_BLOCK_ROWS, OperandBlock, RepeatedWords, block_lengths, block_rows, block_slots,
};
use crate::driver::compiled::{BinaryBlocks, BinaryLoops, WordStorage};
use crate::driver::copies::{Copies, Multiversioned, Portable};
use crate::driver::error::KernelError;
use crate::driver::failures::FailureMasks;
use crate::driver::kernel::BinaryKernel;
use crate::driver::rows::Rows;

/// Runs binary kernel `K` in work type `W` over every row, with the loop
/// compiled for the build's target, appending to `sink`; returns the
/// validity.
pub(crate) fn run<W: InPlace, K: BinaryKernel<W>>(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    run_in::<W, K, Portable>(lhs, rhs, constants, rows, sink)
}

/// As [`run`], with the loop also compiled for AVX2 and for AVX-512 and the
/// copy this process chose run. For kernels whose 64-bit multiplies and
/// comparisons vectorize only there (products); elsewhere the other copies
/// would only cost build time and, measured on sums, speed.
pub(crate) fn run_multiversioned<W: InPlace, K: BinaryKernel<W>>(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    run_in::<W, K, Multiversioned>(lhs, rhs, constants, rows, sink)
}

/// As [`run`], with the loop in the copies `C`.
pub(crate) fn run_in<W: InPlace, K: BinaryKernel<W>, C: Copies>(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let kernel = BinaryLoops::<W, K, C>::new(constants);
    launch(lhs, rhs, &kernel, rows, sink)
}

/// The block driver for the output's storage.
fn launch<W: InPlace>(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    kernel: &dyn BinaryBlocks<W>,
    rows: &Rows<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    rows.check(&[lhs, rhs])?;
    match sink {
        Sink::I128(out) if words_sides::<i128, W>(lhs, rhs).is_some() => {
            drive_words(lhs, rhs, kernel, rows, out)
        }
        Sink::I256(out) if words_sides::<i256, W>(lhs, rhs).is_some() => {
            drive_words(lhs, rhs, kernel, rows, out)
        }
        Sink::I8(out) => drive(lhs, rhs, kernel, rows, out),
        Sink::I16(out) => drive(lhs, rhs, kernel, rows, out),
        Sink::I32(out) => drive(lhs, rhs, kernel, rows, out),
        Sink::I64(out) => drive(lhs, rhs, kernel, rows, out),
        Sink::I128(out) => drive(lhs, rhs, kernel, rows, out),
        Sink::I256(out) => drive(lhs, rhs, kernel, rows, out),
    }
}

/// The loop over every row, in blocks of [`block_rows`], results stored as
/// `O`.
#[inline(never)]
fn drive<W: InPlace, O: Stored>(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    kernel: &dyn BinaryBlocks<W>,
    rows: &Rows<'_>,
    out: &mut Vec<O>,
) -> Result<Option<NullBuffer>, KernelError> {
    out.clear();
    out.reserve_exact(rows.len);
    // Short calls fill only the rows they have.
    let block = block_rows::<W>();
    let first = block.min(rows.len);
    let (mut lhs_slots, mut rhs_slots, mut out_slots) =
        (block_slots(), block_slots(), block_slots());
    let mut lhs_block = OperandBlock::new(lhs, first, &mut lhs_slots);
    let mut rhs_block = OperandBlock::new(rhs, first, &mut rhs_slots);
    let mut failures = FailureMasks::new(rows);
    for start in (0..rows.len).step_by(block) {
        let len = block.min(rows.len - start);
        let a = lhs_block.rows(lhs, start, len);
        let b = rhs_block.rows(rhs, start, len);
        let spare = out.spare_capacity_mut();
        let spare_len = spare.len().min(len);
        let spare = &mut spare[..spare_len];
        block_lengths(&[a.len(), b.len(), spare.len()], len)?;
        let any = match W::output_slots(O::slots(spare, TOKEN)) {
            Some(slots) => kernel.block(a, b, slots),
            None => {
                let slots = &mut out_slots[..len];
                let any = kernel.block(a, b, slots);
                // SAFETY: the kernel wrote every slot (`BinaryBlocks`'
                // contract, with `a`, `b` and `slots` all `len` long).
                let values = unsafe { initialized(slots) };
                store::<O, W>(values, &mut out.spare_capacity_mut()[..len]);
                any
            }
        };
        // SAFETY: all `len` slots after the vector's initialized elements
        // were written: by the kernel in place (`BinaryBlocks`' contract,
        // with `a`, `b` and the slots all `len` long, checked above) or by
        // `store` (which zips `len` values with `len` slots).
        unsafe { out.set_len(out.len() + len) };
        if any != 0 {
            // Rare: rebuild this block's masks row by row.
            let flags = a.iter().zip(b).map(|(&x, &y)| kernel.row(x, y).1);
            failures.record_block(start, len, flags)?;
        }
    }
    Ok(failures.finish())
}

/// Each side's column of storage `S`, or `None` for a single value.
type Sides<'a, S> = (Option<&'a [S]>, Option<&'a [S]>);

/// The operands as columns of storage `S` (a single value counting as one)
/// if both are, at least one is a column, and `W` is narrower than `S`: the
/// call then runs over the values' words ([`drive_words`]).
fn words_sides<'a, S: Stored, W: InPlace>(
    lhs: &Operand<'a>,
    rhs: &Operand<'a>,
) -> Option<Sides<'a, S>> {
    if !narrower_than_storage::<S, W>() {
        return None;
    }
    let side = |operand: &Operand<'a>| match operand.values {
        Values::Array(column) => S::of_column(&column).map(Some),
        Values::Scalar(_) => Some(None),
    };
    match (side(lhs)?, side(rhs)?) {
        (None, None) => None,
        sides => Some(sides),
    }
}

/// [`drive`] for operands and output stored as `S` and computed in a
/// narrower `W`, over the values' 64-bit words: no conversion pass.
#[inline(never)]
fn drive_words<W: InPlace, S: WordStorage>(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    kernel: &dyn BinaryBlocks<W>,
    rows: &Rows<'_>,
    out: &mut Vec<S>,
) -> Result<Option<NullBuffer>, KernelError> {
    let Some((lhs_column, rhs_column)) = words_sides::<S, W>(lhs, rhs) else {
        return drive(lhs, rhs, kernel, rows, out);
    };
    out.clear();
    out.reserve_exact(rows.len);
    let block = KERNEL_BLOCK_ROWS.min(rows.len);
    // A single value is written once, over the rows a block can have.
    let (mut lhs_slots, mut rhs_slots) = (block_slots(), block_slots());
    let lhs_repeated = RepeatedWords::<S>::new::<W>(lhs, block, &mut lhs_slots);
    let rhs_repeated = RepeatedWords::<S>::new::<W>(rhs, block, &mut rhs_slots);
    let mut failures = FailureMasks::new(rows);
    for start in (0..rows.len).step_by(block.max(1)) {
        let len = block.min(rows.len - start);
        let a = lhs_repeated.rows(lhs_column, start, len);
        let b = rhs_repeated.rows(rhs_column, start, len);
        let spare = out.spare_capacity_mut();
        let spare_len = spare.len().min(len);
        let slots = S::word_slots(&mut spare[..spare_len]);
        block_lengths(&[a.len(), b.len(), slots.len()], len)?;
        let Some(any) = S::binary_block(kernel, a, b, slots) else {
            // Not a narrower work type: the general loop, from the start.
            return drive(lhs, rhs, kernel, rows, out);
        };
        // SAFETY: the kernel wrote all `len` slots (`BinaryBlocks`'
        // contract, with `a`, `b` and the slots all `len` long, checked
        // above), which directly follow the vector's initialized elements.
        unsafe { out.set_len(out.len() + len) };
        if any != 0 {
            let pairs = a.iter().zip(b);
            let flags = pairs.map(|(&x, &y)| kernel.row(S::load_words(x), S::load_words(y)).1);
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
    use crate::driver::kernel::{DIVIDE_BY_ZERO, overflow_flag};
    use crate::driver::output::Output;
    use crate::driver::rows::{OverflowPolicy, Policies};
    use crate::int::i512::I512;
    use crate::int::work::Work;
    use crate::ops::shared::add_spec::AddSpec;
    use crate::testing::{assert_same_outcome, call, call_in, valid_values, values};
    use ethnum::I256;

    /// `a + b`, failing beyond `bound` and, standing in for a division, on a
    /// zero `b`.
    struct FlaggedSum;

    impl<W: Work> BinaryKernel<W> for FlaggedSum {
        type Constants = W;
        fn apply(a: W, b: W, &bound: &W) -> (W, u8) {
            let r = a.add(b);
            (r, overflow_flag::<W, true>(r, bound) | (DIVIDE_BY_ZERO * u8::from(b.is_zero())))
        }
    }

    const ROWS: usize = 1500;
    const BOUND: i64 = 10i64.pow(18) - 1;

    /// Values of both signs below `2^58` (within the bound), non-zero, with
    /// overflowing pairs at `overflows` and zero divisors at `zeros`.
    fn columns(overflows: &[usize], zeros: &[usize]) -> (Vec<i64>, Vec<i64>) {
        let nonzero = |v: i64| v | 1;
        let mut a: Vec<i64> = values(ROWS, 58, 3).into_iter().map(nonzero).collect();
        let mut b: Vec<i64> = values(ROWS, 58, 5).into_iter().map(nonzero).collect();
        for &row in overflows {
            (a[row], b[row]) = (BOUND, if row % 2 == 0 { 1 } else { BOUND });
        }
        for &row in zeros {
            b[row] = 0;
        }
        (a, b)
    }

    fn rows_with(nulls: &NullBuffer, policy: OverflowPolicy) -> Rows<'_> {
        let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
        Rows::new(ROWS).with_nulls(Some(nulls)).with_policies(policies)
    }

    /// The rows nulled by a call: valid in `nulls`, null in the output.
    fn nulled<S: Storage>(out: &Output<S>, nulls: &NullBuffer) -> Vec<usize> {
        let kept = out.nulls.as_ref().unwrap_or(nulls);
        (0..ROWS).filter(|&i| nulls.is_valid(i) && !kept.is_valid(i)).collect()
    }

    #[test]
    fn failures_beyond_the_first_block_are_found_row_by_row() {
        let (a, b) = columns(&[3, 511, 512, 700, 1499], &[65, 1030]);
        // Row 3 fails under a null: no failure.
        let nulls = NullBuffer::from((0..ROWS).map(|i| i != 3 && i % 9 != 1).collect::<Vec<_>>());
        let (l, r) = (Operand::array(&a[..]), Operand::array(&b[..]));
        let null = rows_with(&nulls, OverflowPolicy::Null);
        let out = call::<i64, i64, FlaggedSum>(l, r, BOUND, &null).unwrap();
        assert_eq!(nulled(&out, &nulls), [65, 511, 512, 700, 1030, 1499]);
        let error = rows_with(&nulls, OverflowPolicy::Error);
        let first = call::<i64, i64, FlaggedSum>(l, r, BOUND, &error);
        assert_eq!(first.unwrap_err(), KernelError::DivideByZero { row: 65 });
        let (a, b) = columns(&[600, 1499], &[1200]);
        let (l, r) = (Operand::array(&a[..]), Operand::array(&b[..]));
        let first = call::<i64, i64, FlaggedSum>(l, r, BOUND, &error);
        assert_eq!(first.unwrap_err(), KernelError::Overflow { row: 600 });
    }

    /// The same values, stored in each storage width.
    struct Stored {
        i8: Vec<i8>,
        i64: Vec<i64>,
        i128: Vec<i128>,
        i256: Vec<i256>,
    }

    impl Stored {
        fn new(values: &[i64]) -> Self {
            Self {
                i8: values.iter().map(|&v| v as i8).collect(),
                i64: values.to_vec(),
                i128: values.iter().map(|&v| i128::from(v)).collect(),
                i256: values.iter().map(|&v| i256::from(v)).collect(),
            }
        }

        /// Every width holding all the values (i8 only for values that fit).
        fn inputs(&self, fits_i8: bool) -> Vec<(&'static str, Operand<'_>)> {
            let mut inputs = vec![
                ("i64", Operand::array(&self.i64)),
                ("i128", Operand::array(&self.i128)),
                ("i256", Operand::array(&self.i256)),
            ];
            if fits_i8 {
                inputs.push(("i8", Operand::array(&self.i8)));
            }
            inputs
        }
    }

    /// An output in storage `O`, as `i64` values (every value here fits).
    fn as_i64<O: Storage>(
        out: Result<Output<O>, KernelError>,
        narrow: impl Fn(O) -> i64,
    ) -> Result<Output<i64>, KernelError> {
        out.map(|out| Output {
            values: out.values.iter().map(|&v| narrow(v)).collect::<Vec<_>>().into(),
            nulls: out.nulls,
        })
    }

    /// Work type `W` over the same values stored in every width, mixed on
    /// the two sides, as scalars too, with results in `i64`, `i128` and `i256`:
    /// the same outcome as `i64` in and out. Covers reading in place and
    /// converting, and writing in place and converting.
    #[track_caller]
    fn assert_storage_agrees<W: InPlace>(small: bool) {
        let bits = if small { 7 } else { 58 };
        let (mut a, mut b) = (values(ROWS, bits, 9), values(ROWS, bits, 13));
        for row in [70, 1400] {
            b[row] = 0;
        }
        if !small {
            a[5] = BOUND;
            b[5] = 1;
            a[900] = -BOUND;
            b[900] = -BOUND;
        }
        let (sa, sb) = (Stored::new(&a), Stored::new(&b));
        let nulls = NullBuffer::from((0..ROWS).map(|i| i % 13 != 4).collect::<Vec<_>>());
        let rows = rows_with(&nulls, OverflowPolicy::Null);
        let bound = W::from_i64(BOUND);
        let reference = |l, r| call::<i64, W, FlaggedSum>(l, r, bound, &rows);
        let mut cases = Vec::new();
        for (ln, l) in sa.inputs(small) {
            for (rn, r) in sb.inputs(small) {
                cases.push((format!("{ln} + {rn}"), l, r));
            }
            cases.push((format!("{ln} + scalar"), l, Operand::scalar(b[9])));
            cases.push((format!("scalar + {ln}"), Operand::scalar(i256::from(a[9])), l));
        }
        let (l64, r64) = (Operand::array(&a[..]), Operand::array(&b[..]));
        let expected = [
            reference(l64, r64),
            reference(l64, Operand::scalar(b[9])),
            reference(Operand::scalar(a[9]), l64),
        ];
        for (name, l, r) in cases {
            let want = if name.ends_with("scalar") {
                &expected[1]
            } else if name.starts_with("scalar") {
                &expected[2]
            } else {
                &expected[0]
            };
            let to_i64 = |v: i128| i64::try_from(v).unwrap_or(0);
            let context = format!("{name} in {}", core::any::type_name::<W>());
            let out = call::<i64, W, FlaggedSum>(l, r, bound, &rows);
            assert_same_outcome(want.clone(), out, &format!("{context} -> i64"));
            let out = as_i64(call::<i128, W, FlaggedSum>(l, r, bound, &rows), to_i64);
            assert_same_outcome(want.clone(), out, &format!("{context} -> i128"));
            let wide = |v: i256| to_i64(v.as_i128());
            let out = as_i64(call::<i256, W, FlaggedSum>(l, r, bound, &rows), wide);
            assert_same_outcome(want.clone(), out, &format!("{context} -> i256"));
        }
    }

    #[test]
    fn every_storage_mix_agrees_with_i64_storage() {
        assert_storage_agrees::<i64>(false);
        assert_storage_agrees::<i128>(false);
        assert_storage_agrees::<I256>(false);
        assert_storage_agrees::<I512>(true);
    }

    #[test]
    fn narrow_storage_converts_exactly() {
        assert_storage_agrees::<i64>(true);
    }

    /// Every copy of the loop this CPU runs (AVX2 and AVX-512 where it has
    /// them, whatever copy the process chose) gives the exact sums and nulls
    /// the failing rows, as the portable loop does: over `i64` columns, and
    /// over `i128` columns read and written as words.
    #[test]
    fn every_copy_gives_the_exact_outcome() {
        let (a, b) = columns(&[5, 900], &[70, 1400]);
        let nulls = NullBuffer::from((0..ROWS).map(|i| i % 13 != 4).collect::<Vec<_>>());
        let rows = rows_with(&nulls, OverflowPolicy::Null);
        let exact = |i: usize| {
            let sum = a[i] + b[i];
            (nulls.is_valid(i) && sum.abs() <= BOUND && b[i] != 0).then_some(sum)
        };
        let expected: Vec<Option<i64>> = (0..ROWS).map(exact).collect();
        let wide_expected: Vec<Option<i128>> = expected.iter().map(|v| v.map(i128::from)).collect();
        let (wide_a, wide_b) = (Stored::new(&a), Stored::new(&b));
        let (l, r) = (Operand::array(&a[..]), Operand::array(&b[..]));
        let (wide_l, wide_r) = (Operand::array(&wide_a.i128), Operand::array(&wide_b.i128));
        let portable = call::<i64, i64, FlaggedSum>(l, r, BOUND, &rows);
        let wide_portable = call::<i128, i64, FlaggedSum>(wide_l, wide_r, BOUND, &rows);
        for copy in Runnable::all() {
            let context = format!("{:?} copy", copy.isa());
            let out = call_in::<i64, i64, FlaggedSum>(copy, l, r, BOUND, &rows).unwrap();
            assert_eq!(valid_values(&out), expected, "{context}");
            assert_same_outcome(portable.clone(), Ok(out), &context);
            let words = call_in::<i128, i64, FlaggedSum>(copy, wide_l, wide_r, BOUND, &rows);
            let words = words.unwrap();
            assert_eq!(valid_values(&words), wide_expected, "{context}, i128 words");
            assert_same_outcome(wide_portable.clone(), Ok(words), &format!("{context}, words"));
        }
    }

    /// `a + b` of [`columns`] through the public operator, under `Null`,
    /// into `rows`'s vector.
    #[track_caller]
    fn recycled_sum(values: Vec<i128>, nulls: &NullBuffer) -> Output<i128> {
        let (a, b) = columns(&[3, 700], &[]);
        let spec = AddSpec::new(0, 0, 18);
        let rows = rows_with(nulls, OverflowPolicy::Null);
        let (l, r) = (Operand::array(&a[..]), Operand::array(&b[..]));
        crate::add(l, r, &spec, rows.recycled(values)).unwrap()
    }

    #[rstest::rstest]
    #[case::empty(0)]
    #[case::too_small(ROWS / 3)]
    #[case::exact(ROWS)]
    #[case::larger(ROWS * 2)]
    fn results_in_a_recycled_vector_are_the_new_vectors(#[case] capacity: usize) {
        let nulls = NullBuffer::from((0..ROWS).map(|i| i % 7 != 2).collect::<Vec<_>>());
        let fresh = recycled_sum(Vec::new(), &nulls);
        // Old contents longer than the call, which must not show through.
        let mut old = vec![i128::MAX; capacity.min(ROWS + 5)];
        old.reserve_exact(capacity.saturating_sub(old.len()));
        let address = old.as_ptr();
        let kept = old.capacity() >= ROWS;
        let recycled = recycled_sum(old, &nulls);
        assert_eq!(recycled.values, fresh.values);
        assert_eq!(recycled.nulls, fresh.nulls);
        // A vector too small is grown (perhaps in place); one large enough is
        // written where it is.
        if kept {
            assert_eq!(recycled.values.as_ptr(), address, "capacity {capacity}");
        }
    }

    #[test]
    fn lengths_are_checked_before_any_row() {
        let (a, b) = ([1i64, 2], [1i64]);
        let out = call::<i64, i64, FlaggedSum>(
            Operand::array(&a[..]),
            Operand::array(&b[..]),
            BOUND,
            &Rows::new(2),
        );
        assert_eq!(out.unwrap_err(), KernelError::LengthMismatch { expected: 2, actual: 1 });
        let nulls = NullBuffer::new_valid(3);
        let rows = Rows::new(2).with_nulls(Some(&nulls));
        let out = call::<i64, i64, FlaggedSum>(
            Operand::array(&a[..]),
            Operand::scalar(1i8),
            BOUND,
            &rows,
        );
        assert_eq!(out.unwrap_err(), KernelError::LengthMismatch { expected: 2, actual: 3 });
    }
}
