//! The loops every operator shares.
//!
//! An operator supplies only its per-row arithmetic (a [`RowKernel`]); this
//! module runs it over whole buffers. Rows go in blocks of 512: each row is
//! computed with no branch on its outcome (null rows too, harmlessly, so the
//! loop vectorizes), and the block's failure flags are OR-ed into one byte.
//! Only a block whose byte is non-zero is looked at again, row by row, to
//! build the 64-bit failure masks of its chunks of 64 rows, which are then
//! masked with validity: a failure under a null row is no failure. Under the
//! `Error` policy the first failing valid row (found with `trailing_zeros`)
//! ends the call; under `Null` the failing rows are cleared from the result's
//! validity with bitmap operations.
//!
//! A work type narrower than the storage (money in `i128` or `i256` columns)
//! reads and writes values as 64-bit words ([`Storage::Words`]), which the
//! compiler moves as whole vectors.

use core::mem::MaybeUninit;

use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, ScalarBuffer};

use crate::storage::Storage;
use crate::work::Work;

/// Flag: the row's result exceeds the result precision.
pub const OVERFLOW: u8 = 1;
/// Flag: the row divides by zero.
pub const DIVIDE_BY_ZERO: u8 = 2;

/// [`OVERFLOW`] when `CHECKED` and `|r| > bound`; nothing (and no work) for a
/// loop planned without the precision check.
#[inline(always)]
pub(crate) fn overflow_flag<W: Work, const CHECKED: bool>(r: W, bound: W) -> u8 {
    if CHECKED { OVERFLOW * u8::from(r.exceeds(bound)) } else { 0 }
}

/// [`OVERFLOW`] when the operation left the work type or `|r| > bound`: for
/// loops in a type that holds the result bound but not every intermediate, where
/// leaving the type means the exact result exceeds every bound the type holds.
#[inline(always)]
pub(crate) fn left_or_overflow_flag<W: Work>(r: W, left_the_type: bool, bound: W) -> u8 {
    OVERFLOW * u8::from(left_the_type | r.exceeds(bound))
}

/// The per-row arithmetic of one operator shape, in work type `W`, with the
/// constants it needs hoisted into `Constants` once per call.
pub trait RowKernel<W: Work> {
    /// What the kernel computes once per call (scale factors, bounds).
    type Constants: Sync;

    /// The row's result and its failure flags ([`OVERFLOW`], [`DIVIDE_BY_ZERO`]);
    /// must not trap on any input, including a zero divisor.
    fn apply(a: W, b: W, constants: &Self::Constants) -> (W, u8);
}

/// One side of a binary operation: a whole column or one value for every row.
#[derive(Clone, Copy, Debug)]
pub enum Input<'a, S> {
    /// One value per row.
    Array(&'a [S]),
    /// The same value for every row.
    Scalar(S),
}

/// What to do when a row fails.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OverflowPolicy {
    /// Fail the whole call, naming the first failing row.
    #[default]
    Error,
    /// Make the failing row null and compute the others.
    Null,
}

/// The policies for the two ways a row can fail.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Policies {
    /// When a result exceeds the result precision.
    pub on_overflow: OverflowPolicy,
    /// When a divisor is zero.
    pub on_divide_by_zero: OverflowPolicy,
}

/// Why a kernel call failed. Rows are counted from the start of the
/// (possibly sliced) inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelError {
    /// A valid row's result exceeded the result precision under the `Error`
    /// policy; the first such row.
    Overflow {
        /// The row.
        row: usize,
    },
    /// A valid row divided by zero under the `Error` policy; the first such row.
    DivideByZero {
        /// The row.
        row: usize,
    },
    /// An input or the validity does not have the frame's number of rows.
    LengthMismatch {
        /// The frame's number of rows.
        expected: usize,
        /// The length found.
        actual: usize,
    },
}

/// Where the rows of a call come from besides the values: how many there are,
/// which are valid, and the policies.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// Number of rows.
    pub len: usize,
    /// Validity of the rows (both operands' nulls combined); `None`: all valid.
    pub nulls: Option<&'a NullBuffer>,
    /// What failing rows do.
    pub policies: Policies,
}

impl Frame<'_> {
    /// Checks that an input and the validity have `len` rows.
    fn check<S>(&self, input: Input<'_, S>) -> Result<(), KernelError> {
        let lengths = [
            match input {
                Input::Array(values) => values.len(),
                Input::Scalar(_) => self.len,
            },
            self.nulls.map_or(self.len, NullBuffer::len),
        ];
        match lengths.into_iter().find(|&actual| actual != self.len) {
            Some(actual) => Err(KernelError::LengthMismatch { expected: self.len, actual }),
            None => Ok(()),
        }
    }
}

/// A kernel's result: values for every row and the final validity.
#[derive(Clone, Debug)]
pub struct Output<S: Storage> {
    /// One value per row (arbitrary under null rows).
    pub values: ScalarBuffer<S>,
    /// The input validity less the rows nulled by a `Null` policy.
    pub nulls: Option<NullBuffer>,
}

/// The two operands of a call, read block by block.
///
/// One implementation per shape (array ⊕ array, array ⊕ scalar, scalar ⊕
/// array), each a plain zip over exact-length slices, which the compiler
/// vectorizes, appending straight into the output (no zero-fill first).
trait RowPairs<S: Storage>: Copy {
    /// Computes rows `start..start + len` with `K`, reading and writing
    /// through `A`, and appends them to `out`; returns the OR of their flags.
    fn extend<W: Work, K: RowKernel<W>, A: Access<S>>(
        self,
        out: &mut Vec<S>,
        start: usize,
        len: usize,
        constants: &K::Constants,
    ) -> u8;

    /// The operands of one row.
    fn row(self, row: usize) -> Option<(S, S)>;
}

/// How a row loop reads and writes stored values.
trait Access<S: Storage> {
    /// What the loop reads and writes per row.
    type Unit: Copy;
    /// A column as units: the same memory.
    fn units(values: &[S]) -> &[Self::Unit];
    /// Output slots as unit slots: the same memory.
    fn slots(slots: &mut [MaybeUninit<S>]) -> &mut [MaybeUninit<Self::Unit>];
    /// A unit's value in the work type.
    fn load<W: Work>(unit: Self::Unit) -> W;
    /// A work value as a unit.
    fn store<W: Work>(value: W) -> Self::Unit;
}

/// Whole stored values: for a work type as wide as the storage, where every
/// word of a value is used anyway.
struct Whole;

impl<S: Storage> Access<S> for Whole {
    type Unit = S;
    #[inline(always)]
    fn units(values: &[S]) -> &[S] {
        values
    }
    #[inline(always)]
    fn slots(slots: &mut [MaybeUninit<S>]) -> &mut [MaybeUninit<S>] {
        slots
    }
    #[inline(always)]
    fn load<W: Work>(unit: S) -> W {
        unit.load()
    }
    #[inline(always)]
    fn store<W: Work>(value: W) -> S {
        S::store(value)
    }
}

/// The 64-bit words of each value's memory image ([`Storage::Words`]): for a
/// work type narrower than the storage (money in `i128` or `i256` columns
/// computed in `i64`), where the loop reads only the low words of each value
/// and the compiler loads and stores whole vectors, deinterleaving them.
struct Words;

impl<S: Storage> Access<S> for Words {
    type Unit = S::Words;
    #[inline(always)]
    fn units(values: &[S]) -> &[S::Words] {
        S::as_words(values)
    }
    #[inline(always)]
    fn slots(slots: &mut [MaybeUninit<S>]) -> &mut [MaybeUninit<S::Words>] {
        S::word_slots(slots)
    }
    #[inline(always)]
    fn load<W: Work>(unit: S::Words) -> W {
        S::load_words(unit)
    }
    #[inline(always)]
    fn store<W: Work>(value: W) -> S::Words {
        S::store_words(value)
    }
}

/// Whether work type `W` is narrower than storage `S`: the loop then reads
/// and writes [`Words`], otherwise [`Whole`] values.
const fn narrower_than_storage<S: Storage, W: Work>() -> bool {
    (W::MAGNITUDE_BITS as usize) < 8 * size_of::<S>() - 1
}

/// The rows `start..start + len` of a slice (empty if out of range, which the
/// frame check rules out).
#[inline(always)]
fn rows<S>(values: &[S], start: usize, len: usize) -> &[S] {
    values.get(start..start.saturating_add(len)).unwrap_or_default()
}

/// Computes one row per operand pair with `K`, appends the results to `out`
/// through `A` and returns the OR of their flags.
///
/// The results are written straight into `out`'s spare capacity, in the same
/// function as the flags' accumulator: through `Vec::extend` the loop became a
/// separate function holding the accumulator behind a pointer that might alias
/// the output, so every row paid a read-modify-write of memory (about 5 cycles
/// of store forwarding per row wherever the loop does not vectorize).
#[inline(always)]
fn append<S: Storage, W: Work, K: RowKernel<W>, A: Access<S>>(
    out: &mut Vec<S>,
    operands: impl ExactSizeIterator<Item = (W, W)>,
    c: &K::Constants,
) -> u8 {
    out.reserve(operands.len());
    let mut any = 0;
    let mut written = 0;
    for (slot, (a, b)) in A::slots(out.spare_capacity_mut()).iter_mut().zip(operands) {
        let (r, flags) = K::apply(a, b, c);
        any |= flags;
        slot.write(A::store(r));
        written += 1;
    }
    // SAFETY: the loop initialized the first `written` slots of the spare
    // capacity, which directly follow the `len()` initialized elements, and
    // `written` is at most the spare capacity (the zip ends with the slots).
    unsafe { out.set_len(out.len() + written) };
    any
}

#[derive(Clone, Copy)]
struct ArrayArray<'a, S>(&'a [S], &'a [S]);
#[derive(Clone, Copy)]
struct ArrayScalar<'a, S>(&'a [S], S);
#[derive(Clone, Copy)]
struct ScalarArray<'a, S>(S, &'a [S]);

impl<S: Storage> RowPairs<S> for ArrayArray<'_, S> {
    #[inline(always)]
    fn extend<W: Work, K: RowKernel<W>, A: Access<S>>(
        self,
        out: &mut Vec<S>,
        start: usize,
        len: usize,
        c: &K::Constants,
    ) -> u8 {
        let (x, y) = (A::units(rows(self.0, start, len)), A::units(rows(self.1, start, len)));
        let pairs = x.iter().zip(y).map(|(&x, &y)| (A::load(x), A::load(y)));
        append::<S, W, K, A>(out, pairs, c)
    }

    fn row(self, row: usize) -> Option<(S, S)> {
        Some((*self.0.get(row)?, *self.1.get(row)?))
    }
}

impl<S: Storage> RowPairs<S> for ArrayScalar<'_, S> {
    #[inline(always)]
    fn extend<W: Work, K: RowKernel<W>, A: Access<S>>(
        self,
        out: &mut Vec<S>,
        start: usize,
        len: usize,
        c: &K::Constants,
    ) -> u8 {
        let y = self.1.load::<W>();
        let x = A::units(rows(self.0, start, len));
        append::<S, W, K, A>(out, x.iter().map(|&x| (A::load(x), y)), c)
    }

    fn row(self, row: usize) -> Option<(S, S)> {
        Some((*self.0.get(row)?, self.1))
    }
}

impl<S: Storage> RowPairs<S> for ScalarArray<'_, S> {
    #[inline(always)]
    fn extend<W: Work, K: RowKernel<W>, A: Access<S>>(
        self,
        out: &mut Vec<S>,
        start: usize,
        len: usize,
        c: &K::Constants,
    ) -> u8 {
        let x = self.0.load::<W>();
        let y = A::units(rows(self.1, start, len));
        append::<S, W, K, A>(out, y.iter().map(|&y| (x, A::load(y))), c)
    }

    fn row(self, row: usize) -> Option<(S, S)> {
        Some((self.0, *self.1.get(row)?))
    }
}

/// Rows per failure mask.
const CHUNK: usize = 64;

/// Rows per vectorized run and flag byte.
///
/// A multiple of [`CHUNK`], and longer than one: a loop that reads only some
/// words of each value leaves its last vector's worth of rows to a scalar
/// epilogue (the compiler cannot tell that the words it skips are in
/// bounds), which over 64 rows was half of them. Over 512 rows it is a few
/// percent, and a block that fails is recomputed row by row at most once.
const BLOCK: usize = 512;

/// Runs kernel `K` in work type `W` over every row, with the loop compiled
/// for the build's target.
pub(crate) fn run<S: Storage, W: Work, K: RowKernel<W>>(
    lhs: Input<'_, S>,
    rhs: Input<'_, S>,
    constants: &K::Constants,
    frame: &Frame<'_>,
) -> Result<Output<S>, KernelError> {
    run_on::<S, W, K, Portable>(lhs, rhs, constants, frame)
}

/// As [`run`], with the loop also compiled for AVX-512 and that copy chosen at
/// run time on a CPU that has it. For kernels whose 64-bit multiplies and
/// comparisons vectorize only there (products); elsewhere the second copy
/// would only cost build time and, measured on sums, speed.
pub(crate) fn run_multiversioned<S: Storage, W: Work, K: RowKernel<W>>(
    lhs: Input<'_, S>,
    rhs: Input<'_, S>,
    constants: &K::Constants,
    frame: &Frame<'_>,
) -> Result<Output<S>, KernelError> {
    run_on::<S, W, K, Multiversioned>(lhs, rhs, constants, frame)
}

fn run_on<S: Storage, W: Work, K: RowKernel<W>, L: RowLoop>(
    lhs: Input<'_, S>,
    rhs: Input<'_, S>,
    constants: &K::Constants,
    frame: &Frame<'_>,
) -> Result<Output<S>, KernelError> {
    frame.check(lhs)?;
    frame.check(rhs)?;
    match (lhs, rhs) {
        (Input::Array(a), Input::Array(b)) => {
            L::run_rows::<S, W, K, _>(ArrayArray(a, b), constants, frame)
        }
        (Input::Array(a), Input::Scalar(b)) => {
            L::run_rows::<S, W, K, _>(ArrayScalar(a, b), constants, frame)
        }
        (Input::Scalar(a), Input::Array(b)) => {
            L::run_rows::<S, W, K, _>(ScalarArray(a, b), constants, frame)
        }
        (Input::Scalar(a), Input::Scalar(b)) => {
            // Rare (a folded constant): broadcast one side.
            let a = vec![a; frame.len];
            L::run_rows::<S, W, K, _>(ArrayScalar(&a, b), constants, frame)
        }
    }
}

/// Which compiled copies of the row loop a call can use.
trait RowLoop {
    fn run_rows<S: Storage, W: Work, K: RowKernel<W>, P: RowPairs<S>>(
        pairs: P,
        constants: &K::Constants,
        frame: &Frame<'_>,
    ) -> Result<Output<S>, KernelError>;
}

/// The loop compiled for the build's target only.
struct Portable;

impl RowLoop for Portable {
    #[inline(never)]
    fn run_rows<S: Storage, W: Work, K: RowKernel<W>, P: RowPairs<S>>(
        pairs: P,
        constants: &K::Constants,
        frame: &Frame<'_>,
    ) -> Result<Output<S>, KernelError> {
        run_rows::<S, W, K, P>(pairs, constants, frame)
    }
}

/// The build's loop, or on x86-64 a copy compiled for AVX-512 when the CPU
/// has it.
struct Multiversioned;

impl RowLoop for Multiversioned {
    #[inline(always)]
    fn run_rows<S: Storage, W: Work, K: RowKernel<W>, P: RowPairs<S>>(
        pairs: P,
        constants: &K::Constants,
        frame: &Frame<'_>,
    ) -> Result<Output<S>, KernelError> {
        #[cfg(target_arch = "x86_64")]
        if avx512::available() {
            // SAFETY: `available` has just checked at run time that this CPU
            // supports every feature the function is compiled with.
            return unsafe { avx512::run_rows::<S, W, K, P>(pairs, constants, frame) };
        }
        Portable::run_rows::<S, W, K, P>(pairs, constants, frame)
    }
}

/// Whether [`run_multiversioned`] runs the AVX-512 copy on this CPU.
pub(crate) fn wide_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    return avx512::available();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// [`Storage::magnitude_bits`] of a column, in the AVX-512 copy on a CPU that
/// has it: the pass vectorizes at any width, but 64-bit arithmetic shifts
/// (the sign of each word) take one instruction only there.
pub(crate) fn magnitude_bits<S: Storage>(values: &[S]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if avx512::available() {
        // SAFETY: `available` has just checked at run time that this CPU
        // supports every feature the function is compiled with.
        return unsafe { avx512::magnitude_bits(values) };
    }
    measure_portable(values)
}

#[inline(never)]
fn measure_portable<S: Storage>(values: &[S]) -> u32 {
    S::magnitude_bits(values)
}

/// The row loop compiled for AVX-512 (x86-64 only).
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use super::{Frame, KernelError, Output, RowKernel, RowPairs, Storage, Work};

    /// Whether this CPU runs [`run_rows`]: the features it is compiled with.
    pub(crate) fn available() -> bool {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("bmi2")
    }

    /// [`Storage::magnitude_bits`] compiled with AVX-512.
    #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
    pub(super) fn magnitude_bits<S: Storage>(values: &[S]) -> u32 {
        S::magnitude_bits(values)
    }

    /// The same loop as the portable one, compiled with AVX-512: 64-bit
    /// multiplies (`vpmullq`), 64-bit arithmetic shifts and comparisons into
    /// mask registers vectorize.
    #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
    pub(super) fn run_rows<S: Storage, W: Work, K: RowKernel<W>, P: RowPairs<S>>(
        pairs: P,
        constants: &K::Constants,
        frame: &Frame<'_>,
    ) -> Result<Output<S>, KernelError> {
        super::run_rows::<S, W, K, P>(pairs, constants, frame)
    }
}

/// The loop over every row, in blocks of [`BLOCK`]; inlined into each
/// compiled copy so that the kernel's arithmetic is compiled with that copy's
/// instruction set.
#[inline(always)]
fn run_rows<S: Storage, W: Work, K: RowKernel<W>, P: RowPairs<S>>(
    pairs: P,
    constants: &K::Constants,
    frame: &Frame<'_>,
) -> Result<Output<S>, KernelError> {
    let mut values = Vec::with_capacity(frame.len);
    let mut failures = FailureMasks::new(frame);
    for block in (0..frame.len).step_by(BLOCK) {
        let block_len = BLOCK.min(frame.len - block);
        let any = if narrower_than_storage::<S, W>() {
            pairs.extend::<W, K, Words>(&mut values, block, block_len, constants)
        } else {
            pairs.extend::<W, K, Whole>(&mut values, block, block_len, constants)
        };
        if any != 0 {
            // Rare: rebuild this block's masks row by row.
            for start in (block..block + block_len).step_by(CHUNK) {
                let len = CHUNK.min(frame.len - start);
                let (mut overflow, mut divide_by_zero) = (0u64, 0u64);
                for bit in 0..len {
                    let Some((x, y)) = pairs.row(start + bit) else { break };
                    let (_, flags) = K::apply(x.load::<W>(), y.load::<W>(), constants);
                    overflow |= u64::from(flags & OVERFLOW != 0) << bit;
                    divide_by_zero |= u64::from(flags & DIVIDE_BY_ZERO != 0) << bit;
                }
                failures.record(start / CHUNK, len, overflow, divide_by_zero)?;
            }
        }
    }
    Ok(Output { values: ScalarBuffer::from(values), nulls: failures.finish() })
}

/// Failure masks of the chunks that had any, resolved against validity and the
/// policies.
struct FailureMasks<'a> {
    frame: &'a Frame<'a>,
    /// Rows nulled by a `Null` policy, one bit per row; allocated on first use.
    nulled: Option<Vec<u64>>,
}

impl<'a> FailureMasks<'a> {
    fn new(frame: &'a Frame<'a>) -> Self {
        Self { frame, nulled: None }
    }

    /// The validity bits of chunk `index` holding `len` rows.
    fn valid_bits(&self, index: usize, len: usize) -> u64 {
        let start = index * CHUNK;
        match self.frame.nulls {
            None => u64::MAX >> (CHUNK - len),
            Some(nulls) => (0..len)
                .filter(|&bit| nulls.is_valid(start + bit))
                .fold(0u64, |mask, bit| mask | (1 << bit)),
        }
    }

    fn record(
        &mut self,
        index: usize,
        len: usize,
        overflow: u64,
        divide_by_zero: u64,
    ) -> Result<(), KernelError> {
        let valid = self.valid_bits(index, len);
        let overflow = overflow & valid;
        // A row with a zero divisor fails as a division by zero, not an overflow.
        let divide_by_zero = divide_by_zero & valid;
        let overflow = overflow & !divide_by_zero;
        let policies = self.frame.policies;
        let fatal = |mask: u64, policy: OverflowPolicy| {
            if policy == OverflowPolicy::Error { mask } else { 0 }
        };
        let errors = fatal(overflow, policies.on_overflow)
            | fatal(divide_by_zero, policies.on_divide_by_zero);
        if errors != 0 {
            let bit = errors.trailing_zeros();
            let row = index * CHUNK + bit as usize;
            return Err(if divide_by_zero >> bit & 1 == 1 {
                KernelError::DivideByZero { row }
            } else {
                KernelError::Overflow { row }
            });
        }
        let nulled = overflow | divide_by_zero;
        if nulled != 0 {
            let words = self.frame.len.div_ceil(CHUNK);
            let mask = self.nulled.get_or_insert_with(|| vec![0; words]);
            if let Some(word) = mask.get_mut(index) {
                *word |= nulled;
            }
        }
        Ok(())
    }

    fn finish(self) -> Option<NullBuffer> {
        let Some(nulled) = self.nulled else {
            return self.frame.nulls.cloned();
        };
        let nulled = BooleanBuffer::new(Buffer::from_vec(nulled), 0, self.frame.len);
        let kept = match self.frame.nulls {
            Some(nulls) => nulls.inner() & &!&nulled,
            None => !&nulled,
        };
        Some(NullBuffer::new(kept))
    }
}

/// Asserts that two runs of the same call agree: the same error, or the same
/// validity and the same value in every valid row.
#[cfg(test)]
#[track_caller]
pub(crate) fn assert_same_outcome<S: Storage + core::fmt::Debug>(
    expected: Result<Output<S>, KernelError>,
    actual: Result<Output<S>, KernelError>,
    context: &str,
) {
    match (expected, actual) {
        (Ok(x), Ok(a)) => {
            assert_eq!(x.nulls, a.nulls, "{context}: validity");
            let valid = |i: usize| x.nulls.as_ref().is_none_or(|n| n.is_valid(i));
            assert_eq!(x.values.len(), a.values.len(), "{context}: length");
            for i in (0..x.values.len()).filter(|&i| valid(i)) {
                assert_eq!(x.values[i], a.values[i], "{context}: row {i}");
            }
        }
        (x, a) => assert_eq!(x.err(), a.err(), "{context}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_buffer::i256;
    use ethnum::I256;

    /// `a + b`, failing beyond `bound` and, standing in for a division, on a
    /// zero `b`.
    struct FlaggedSum;

    impl<W: Work> RowKernel<W> for FlaggedSum {
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
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = ((x >> 6) >> (x % 58)) as i64 | 1;
            if x & 2 == 0 { -v } else { v }
        };
        let (mut a, mut b): (Vec<i64>, Vec<i64>) = (0..ROWS).map(|_| (next(), next())).unzip();
        for &row in overflows {
            (a[row], b[row]) = (BOUND, if row % 2 == 0 { 1 } else { BOUND });
        }
        for &row in zeros {
            b[row] = 0;
        }
        (a, b)
    }

    fn frame(nulls: &NullBuffer, policy: OverflowPolicy) -> Frame<'_> {
        let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
        Frame { len: ROWS, nulls: Some(nulls), policies }
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
        let (l, r) = (Input::Array(&a[..]), Input::Array(&b[..]));
        let out = run::<i64, i64, FlaggedSum>(l, r, &BOUND, &frame(&nulls, OverflowPolicy::Null));
        assert_eq!(nulled(&out.unwrap(), &nulls), [65, 511, 512, 700, 1030, 1499]);
        let first =
            run::<i64, i64, FlaggedSum>(l, r, &BOUND, &frame(&nulls, OverflowPolicy::Error));
        assert_eq!(first.unwrap_err(), KernelError::DivideByZero { row: 65 });
        let (a, b) = columns(&[600, 1499], &[1200]);
        let (l, r) = (Input::Array(&a[..]), Input::Array(&b[..]));
        let first =
            run::<i64, i64, FlaggedSum>(l, r, &BOUND, &frame(&nulls, OverflowPolicy::Error));
        assert_eq!(first.unwrap_err(), KernelError::Overflow { row: 600 });
    }

    /// The same call on the same values stored as `i64` and as `S`, both in
    /// work type `W` and in both compiled loops: the same validity and values.
    /// `words`: whether `S` is read and written as words in `W`.
    #[track_caller]
    fn assert_storage_agrees<S: Storage, W: Work>(
        words: bool,
        widen: impl Fn(i64) -> S,
        narrow: impl Fn(S) -> i64,
    ) {
        assert_eq!(narrower_than_storage::<S, W>(), words, "access path");
        let (a, b) = columns(&[5, 900], &[70, 1400]);
        let (wide_a, wide_b): (Vec<S>, Vec<S>) =
            a.iter().zip(&b).map(|(&x, &y)| (widen(x), widen(y))).unzip();
        let nulls = NullBuffer::from((0..ROWS).map(|i| i % 13 != 4).collect::<Vec<_>>());
        let frame = frame(&nulls, OverflowPolicy::Null);
        let bound = W::from_i64(BOUND);
        let shapes = [
            (Input::Array(&a[..]), Input::Array(&b[..])),
            (Input::Array(&a[..]), Input::Scalar(b[9])),
            (Input::Scalar(a[9]), Input::Array(&b[..])),
        ];
        let wide_shapes = [
            (Input::Array(&wide_a[..]), Input::Array(&wide_b[..])),
            (Input::Array(&wide_a[..]), Input::Scalar(wide_b[9])),
            (Input::Scalar(wide_a[9]), Input::Array(&wide_b[..])),
        ];
        // Every row's inputs fit `i64`, null rows' too, and so do their sums.
        let as_i64 = |out: Result<Output<S>, KernelError>| {
            out.map(|out| Output {
                values: out.values.iter().map(|&v| narrow(v)).collect::<Vec<_>>().into(),
                nulls: out.nulls,
            })
        };
        for (shape, ((l, r), (wl, wr))) in shapes.into_iter().zip(wide_shapes).enumerate() {
            let expected = run::<i64, W, FlaggedSum>(l, r, &bound, &frame);
            let portable = run::<S, W, FlaggedSum>(wl, wr, &bound, &frame);
            let chosen = run_multiversioned::<S, W, FlaggedSum>(wl, wr, &bound, &frame);
            for (copy, actual) in [("portable", portable), ("multiversioned", chosen)] {
                let context = format!("shape {shape}, {copy} loop");
                assert_same_outcome(expected.clone(), as_i64(actual), &context);
            }
        }
    }

    #[test]
    fn wide_storage_read_and_written_as_words_agrees_with_i64_storage() {
        let from_i128 = |v: i128| i64::try_from(v).unwrap();
        let from_i256 = |v: i256| from_i128(v.to_i128().unwrap());
        // Work narrower than storage: the loops go through `Words`.
        assert_storage_agrees::<i128, i64>(true, i128::from, from_i128);
        assert_storage_agrees::<i256, i64>(true, i256::from, from_i256);
        assert_storage_agrees::<i256, i128>(true, i256::from, from_i256);
        // As wide: whole values.
        assert_storage_agrees::<i128, i128>(false, i128::from, from_i128);
        assert_storage_agrees::<i256, I256>(false, i256::from, from_i256);
    }
}
