//! The loops every operator shares.
//!
//! An operator supplies only its per-row arithmetic (a [`RowKernel`]); this
//! module runs it over whole buffers. Rows go in blocks of 512 in the call's
//! work type: each operand's block is read straight from its column when the
//! column is stored as the work type, or converted into it first (one typed
//! loop per block, see `column`); a single value is repeated over a block
//! once per call. The kernel's loop then computes every row of the block with
//! no branch on its outcome (null rows too, harmlessly, so the loop
//! vectorizes), writing the results straight into the output when it is
//! stored as the work type (converted back otherwise), and ORs the block's
//! failure flags into one byte. Only a block whose byte is non-zero is looked
//! at again, row by row, to build the 64-bit failure masks of its chunks of
//! 64 rows, which are then masked with validity: a failure under a null row
//! is no failure. Under the `Error` policy the first failing valid row (found
//! with `trailing_zeros`) ends the call; under `Null` the failing rows are
//! cleared from the result's validity with bitmap operations.
//!
//! Only the kernel's loop is compiled per operator shape and work type; the
//! block driver is compiled per work type and output storage and reaches the
//! kernel through a [`BlockKernel`] trait object (one indirect call per 512
//! rows), and conversions per pair of storage and work type. That keeps the
//! number of compiled loops to the operator shapes, not their product with
//! every storage width and operand shape.

use core::marker::PhantomData;
use core::mem::MaybeUninit;

use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, ScalarBuffer};

use arrow_buffer::i256;

use crate::column::{Input, Sink, Values, initialized, narrower_than_storage, store};
use crate::storage::{Storage, Stored, TOKEN};
use crate::work::Work;

/// Flag: the row's result exceeds the result precision.
pub(crate) const OVERFLOW: u8 = 1;
/// Flag: the row divides by zero.
pub(crate) const DIVIDE_BY_ZERO: u8 = 2;

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
pub(crate) trait RowKernel<W: Work> {
    /// What the kernel computes once per call (scale factors, bounds).
    type Constants: Sync;

    /// The row's result and its failure flags ([`OVERFLOW`], [`DIVIDE_BY_ZERO`]);
    /// must not trap on any input, including a zero divisor.
    fn apply(a: W, b: W, constants: &Self::Constants) -> (W, u8);
}

/// What to do when a row fails.
///
/// ```
/// use decimal_kernels_native::{Frame, Input, OverflowPolicy, Output, Policies, SumSpec, add};
/// let (a, b) = ([90i64, 5], [20i64, 5]);
/// let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
/// let frame = Frame::new(2).with_policies(null);
/// // decimal(2, 0) results: 110 overflows and becomes null, 10 stays.
/// let out: Output<i8> =
///     add(Input::array(&a[..]), Input::array(&b[..]), &SumSpec::new(0, 0, 2), &frame)?;
/// assert!(out.nulls.as_ref().is_some_and(|n| n.is_null(0) && n.is_valid(1)));
/// assert_eq!(out.values[1], 10);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OverflowPolicy {
    /// Fail the whole call, naming the first failing row.
    #[default]
    Error,
    /// Make the failing row null and compute the others.
    Null,
}

/// The policies for the two ways a row can fail.
///
/// ```
/// use decimal_kernels_native::{OverflowPolicy, Policies};
/// let lenient = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
/// assert_eq!(lenient.on_divide_by_zero, OverflowPolicy::Error);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Policies {
    /// When a result exceeds the result precision.
    pub on_overflow: OverflowPolicy,
    /// When a divisor is zero.
    pub on_divide_by_zero: OverflowPolicy,
}

/// Why a kernel call failed. Rows are counted from the start of the
/// (possibly sliced) inputs.
///
/// ```
/// use decimal_kernels_native::{Frame, Input, KernelError, Output, SumSpec, add};
/// let (a, b) = ([99i64], [1i64]);
/// let spec = SumSpec::new(0, 0, 2);
/// let out: Result<Output<i64>, _> =
///     add(Input::array(&a[..]), Input::array(&b[..]), &spec, &Frame::new(1));
/// assert_eq!(out.unwrap_err(), KernelError::Overflow { row: 0 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    /// The output storage cannot hold every result of the result precision.
    StorageTooNarrow {
        /// The spec's result precision.
        result_precision: u8,
        /// The most digits the output storage holds.
        max_precision: u8,
    },
    /// A row's group is not one of the aggregate's groups; the first such
    /// row.
    GroupOutOfRange {
        /// The row.
        row: usize,
        /// Its group.
        group: usize,
        /// The number of groups.
        groups: usize,
    },
    /// A merged aggregate state is not one that rows can add up to (a count
    /// beyond `2^60`, a sum beyond `count * 2^255` in magnitude).
    StateOutOfRange,
    /// The spec describes an operation the kernels do not compute.
    UnsupportedSpec {
        /// Why.
        reason: &'static str,
    },
}

/// Where the rows of a call come from besides the values: how many there are,
/// which are valid, and the policies.
///
/// ```
/// use decimal_kernels_native::{Frame, OverflowPolicy, Policies};
/// let frame = Frame::new(1024)
///     .with_policies(Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() });
/// assert_eq!(frame.len, 1024);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// Number of rows.
    pub len: usize,
    /// Validity of the rows (both operands' nulls combined); `None`: all valid.
    pub nulls: Option<&'a NullBuffer>,
    /// What failing rows do.
    pub policies: Policies,
}

impl<'a> Frame<'a> {
    /// `len` rows, all valid, failing the call on the first failing row.
    #[must_use]
    pub fn new(len: usize) -> Self {
        Self { len, nulls: None, policies: Policies::default() }
    }

    /// The same rows with this validity.
    #[must_use]
    pub fn with_nulls(self, nulls: Option<&'a NullBuffer>) -> Self {
        Self { nulls, ..self }
    }

    /// The same rows with these policies.
    #[must_use]
    pub fn with_policies(self, policies: Policies) -> Self {
        Self { policies, ..self }
    }

    /// Checks that both inputs and the validity have `len` rows.
    pub(crate) fn check(&self, lhs: &Input<'_>, rhs: &Input<'_>) -> Result<(), KernelError> {
        let lengths = [lhs.row_count(), rhs.row_count(), self.nulls.map(NullBuffer::len)];
        match lengths.into_iter().flatten().find(|&actual| actual != self.len) {
            Some(actual) => Err(KernelError::LengthMismatch { expected: self.len, actual }),
            None => Ok(()),
        }
    }
}

/// A kernel's result: values for every row and the final validity.
///
/// ```
/// use decimal_kernels_native::{Frame, Input, NullBuffer, Output, SumSpec, sub};
/// let (a, b) = ([7i32, 0], [2i32, 0]);
/// let nulls = NullBuffer::from(vec![true, false]);
/// let frame = Frame::new(2).with_nulls(Some(&nulls));
/// let out: Output<i32> =
///     sub(Input::array(&a[..]), Input::array(&b[..]), &SumSpec::new(0, 0, 9), &frame)?;
/// assert_eq!(out.values[0], 5);
/// assert_eq!(out.nulls, Some(nulls)); // row 1 stays null; its value is arbitrary
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Output<S: Storage> {
    /// One value per row (arbitrary under null rows).
    pub values: ScalarBuffer<S>,
    /// The input validity less the rows nulled by a `Null` policy.
    pub nulls: Option<NullBuffer>,
}

/// A call's [`Frame`] with a vector of the caller's to write its results
/// into, made by [`Frame::recycling`]: every operator takes one where it
/// takes a frame (a `&Frame` writes into a new vector).
///
/// The vector is cleared and its allocation holds the results, grown only
/// when its capacity is below the frame's number of rows; the returned
/// [`Output`]'s values are that allocation (`ScalarBuffer::from(Vec)` does
/// not copy; it allocates only the buffer's fixed-size shared header), so an
/// engine that recovers it from a result it is done with
/// (arrow-buffer's `ScalarBuffer::into_inner` then `Buffer::into_vec`, which
/// succeed when nothing else shares the buffer) computes batch after batch
/// in one allocation. A call that fails drops the vector. Results are the
/// same as into a new vector.
///
/// ```
/// use decimal_kernels_native::{Frame, Input, Output, SumSpec, add};
/// let spec = SumSpec::new(0, 0, 18);
/// let mut recycled: Vec<i64> = Vec::with_capacity(1024);
/// let first_address = recycled.as_ptr();
/// for batch in [[1i64, 2, 3], [40, 50, 60]] {
///     let frame = Frame::new(batch.len());
///     let sum: Output<i64> =
///         add(Input::array(&batch[..]), Input::scalar(1i64), &spec, frame.recycling(recycled))?;
///     assert_eq!(sum.values.as_ptr(), first_address); // written into the same memory
///     assert_eq!(sum.values[2], batch[2] + 1);
///     // Done with the result: its buffer back as a vector (a new one if it were shared).
///     recycled = sum.values.into_inner().into_vec().unwrap_or_default();
/// }
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
#[derive(Debug)]
pub struct Recycling<'a, S> {
    frame: Frame<'a>,
    values: Vec<S>,
}

impl<'a> Frame<'a> {
    /// The same rows, with results written into `values`' allocation (see
    /// [`Recycling`]).
    #[must_use]
    pub fn recycling<S: Storage>(self, values: Vec<S>) -> Recycling<'a, S> {
        Recycling { frame: self, values }
    }
}

impl<'a, S: Storage> From<&Frame<'a>> for Recycling<'a, S> {
    /// The frame's rows, with results in a new vector.
    fn from(frame: &Frame<'a>) -> Self {
        frame.recycling(Vec::new())
    }
}

/// Runs one operator call whose result is stored as `S`: `body` computes
/// into a new vector and returns the validity (for tests of one loop).
#[cfg(test)]
pub(crate) fn output<S: Storage>(
    result_precision: u8,
    body: impl FnOnce(Sink<'_>) -> Result<Option<NullBuffer>, KernelError>,
) -> Result<Output<S>, KernelError> {
    recycle(result_precision, Recycling::from(&Frame::new(0)), |_, sink| body(sink))
}

/// [`output`] into the vector of `target`, with its frame: what each public
/// operator runs.
pub(crate) fn recycle<'a, S: Storage>(
    result_precision: u8,
    target: impl Into<Recycling<'a, S>>,
    body: impl FnOnce(&Frame<'a>, Sink<'_>) -> Result<Option<NullBuffer>, KernelError>,
) -> Result<Output<S>, KernelError> {
    let Recycling { frame, mut values } = target.into();
    let max_precision = S::max_precision(TOKEN);
    if result_precision > max_precision {
        return Err(KernelError::StorageTooNarrow { result_precision, max_precision });
    }
    // The loops clear it too; a path that wrote nothing must not return
    // the vector's old contents.
    values.clear();
    let nulls = body(&frame, S::sink(&mut values, TOKEN))?;
    Ok(Output { values: ScalarBuffer::from(values), nulls })
}

/// One operator shape's loop over a block, and over single rows, behind a
/// trait object so the block driver is compiled once per work type.
///
/// # Safety
/// [`block`](Self::block) must write every slot of `out` when `a`, `b` and
/// `out` have the same length: the driver then treats them as initialized.
pub(crate) unsafe trait BlockKernel<W: Work> {
    /// Computes `out[i]` from `a[i]` and `b[i]`; returns the OR of the flags.
    fn block(&self, a: &[W], b: &[W], out: &mut [MaybeUninit<W>]) -> u8;
    /// The same over `i128` values read and written as their 64-bit words,
    /// for a narrower work type (`None` for any other): money in
    /// `Decimal128` columns, computed without a conversion pass.
    fn block_of_i128_words(
        &self,
        a: &[[u64; 2]],
        b: &[[u64; 2]],
        out: &mut [MaybeUninit<[u64; 2]>],
    ) -> Option<u8>;
    /// The same over arrow `i256` values, for a narrower work type.
    fn block_of_i256_words(
        &self,
        a: &[[u64; 4]],
        b: &[[u64; 4]],
        out: &mut [MaybeUninit<[u64; 4]>],
    ) -> Option<u8>;
    /// One row's result and flags.
    fn row(&self, a: W, b: W) -> (W, u8);
}

/// Kernel `K` with its constants, run by the loop copies `C`.
struct Rows<W: Work, K: RowKernel<W>, C> {
    constants: K::Constants,
    copies: PhantomData<C>,
}

// SAFETY: both copies run `block_loop` (or `words_loop`), which writes every
// slot of `out` when the three slices have the same length (the zip visits
// each slot).
unsafe impl<W: Work, K: RowKernel<W>, C: Copies> BlockKernel<W> for Rows<W, K, C> {
    fn block(&self, a: &[W], b: &[W], out: &mut [MaybeUninit<W>]) -> u8 {
        C::block::<W, K>(a, b, out, &self.constants)
    }
    fn block_of_i128_words(
        &self,
        a: &[[u64; 2]],
        b: &[[u64; 2]],
        out: &mut [MaybeUninit<[u64; 2]>],
    ) -> Option<u8> {
        W::block_of_words::<i128, K, C>(a, b, out, &self.constants)
    }
    fn block_of_i256_words(
        &self,
        a: &[[u64; 4]],
        b: &[[u64; 4]],
        out: &mut [MaybeUninit<[u64; 4]>],
    ) -> Option<u8> {
        W::block_of_words::<i256, K, C>(a, b, out, &self.constants)
    }
    fn row(&self, a: W, b: W) -> (W, u8) {
        K::apply(a, b, &self.constants)
    }
}

/// Computes one block with `K`: a plain zip over equal-length slices, which
/// the compiler vectorizes, the flags accumulated in a local.
#[inline(always)]
fn block_loop<W: Work, K: RowKernel<W>>(
    a: &[W],
    b: &[W],
    out: &mut [MaybeUninit<W>],
    c: &K::Constants,
) -> u8 {
    let mut any = 0;
    for ((slot, &x), &y) in out.iter_mut().zip(a).zip(b) {
        let (r, flags) = K::apply(x, y, c);
        any |= flags;
        slot.write(r);
    }
    any
}

/// Computes one block of values stored as `S` in a narrower `W` with `K`,
/// reading and writing their 64-bit words: the compiler loads and
/// deinterleaves whole vectors, and only the low words of each operand are
/// used.
#[inline(always)]
fn words_loop<S: Stored, W: Work, K: RowKernel<W>>(
    a: &[S::Words],
    b: &[S::Words],
    out: &mut [MaybeUninit<S::Words>],
    c: &K::Constants,
) -> u8 {
    let mut any = 0;
    for ((slot, &x), &y) in out.iter_mut().zip(a).zip(b) {
        let (r, flags) = K::apply(S::load_words(x), S::load_words(y), c);
        any |= flags;
        slot.write(S::store_words(r));
    }
    any
}

/// Which compiled copies of a kernel's loop a call can use.
pub(crate) trait Copies: 'static {
    fn block<W: Work, K: RowKernel<W>>(
        a: &[W],
        b: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8;

    fn words_block<S: Stored, W: Work, K: RowKernel<W>>(
        a: &[S::Words],
        b: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8;
}

/// The loop compiled for the build's target only.
struct Portable;

impl Copies for Portable {
    #[inline(never)]
    fn block<W: Work, K: RowKernel<W>>(
        a: &[W],
        b: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8 {
        block_loop::<W, K>(a, b, out, c)
    }

    #[inline(never)]
    fn words_block<S: Stored, W: Work, K: RowKernel<W>>(
        a: &[S::Words],
        b: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8 {
        words_loop::<S, W, K>(a, b, out, c)
    }
}

/// The build's loop, or on x86-64 a copy compiled for AVX-512 when the CPU
/// has it.
struct Multiversioned;

impl Copies for Multiversioned {
    #[inline(always)]
    fn block<W: Work, K: RowKernel<W>>(
        a: &[W],
        b: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8 {
        #[cfg(target_arch = "x86_64")]
        if avx512::available() {
            // SAFETY: `available` has just checked at run time that this CPU
            // supports every feature the function is compiled with.
            return unsafe { avx512::block::<W, K>(a, b, out, c) };
        }
        Portable::block::<W, K>(a, b, out, c)
    }

    #[inline(always)]
    fn words_block<S: Stored, W: Work, K: RowKernel<W>>(
        a: &[S::Words],
        b: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8 {
        #[cfg(target_arch = "x86_64")]
        if avx512::available() {
            // SAFETY: `available` has just checked at run time that this CPU
            // supports every feature the function is compiled with.
            return unsafe { avx512::words_block::<S, W, K>(a, b, out, c) };
        }
        Portable::words_block::<S, W, K>(a, b, out, c)
    }
}

/// Runs kernel `K` in work type `W` over every row, with the loop compiled
/// for the build's target, appending to `sink`; returns the validity.
pub(crate) fn run<W: Work, K: RowKernel<W>>(
    lhs: &Input<'_>,
    rhs: &Input<'_>,
    constants: K::Constants,
    frame: &Frame<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let kernel = Rows::<W, K, Portable> { constants, copies: PhantomData };
    launch(lhs, rhs, &kernel, frame, sink)
}

/// As [`run`], with the loop also compiled for AVX-512 and that copy chosen at
/// run time on a CPU that has it. For kernels whose 64-bit multiplies and
/// comparisons vectorize only there (products); elsewhere the second copy
/// would only cost build time and, measured on sums, speed.
pub(crate) fn run_multiversioned<W: Work, K: RowKernel<W>>(
    lhs: &Input<'_>,
    rhs: &Input<'_>,
    constants: K::Constants,
    frame: &Frame<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    let kernel = Rows::<W, K, Multiversioned> { constants, copies: PhantomData };
    launch(lhs, rhs, &kernel, frame, sink)
}

/// The block driver for the output's storage.
fn launch<W: Work>(
    lhs: &Input<'_>,
    rhs: &Input<'_>,
    kernel: &dyn BlockKernel<W>,
    frame: &Frame<'_>,
    sink: Sink<'_>,
) -> Result<Option<NullBuffer>, KernelError> {
    frame.check(lhs, rhs)?;
    match sink {
        Sink::I128(out) if words_sides::<i128, W>(lhs, rhs).is_some() => {
            drive_words(lhs, rhs, kernel, frame, out)
        }
        Sink::I256(out) if words_sides::<i256, W>(lhs, rhs).is_some() => {
            drive_words(lhs, rhs, kernel, frame, out)
        }
        Sink::I8(out) => drive(lhs, rhs, kernel, frame, out),
        Sink::I16(out) => drive(lhs, rhs, kernel, frame, out),
        Sink::I32(out) => drive(lhs, rhs, kernel, frame, out),
        Sink::I64(out) => drive(lhs, rhs, kernel, frame, out),
        Sink::I128(out) => drive(lhs, rhs, kernel, frame, out),
        Sink::I256(out) => drive(lhs, rhs, kernel, frame, out),
    }
}

/// Rows per failure mask.
const CHUNK: usize = 64;

/// Rows per block and flag byte.
///
/// A multiple of [`CHUNK`], and longer than one: a loop that reads only some
/// words of each value leaves its last vector's worth of rows to a scalar
/// epilogue, which over 64 rows was half of them. Over 512 rows it is a few
/// percent, the three blocks of a call stay in the first-level cache up to
/// `i256` work (16 KiB each), and a block that fails is recomputed row by
/// row at most once.
const BLOCK: usize = 512;

/// Rows per block in work type `W`: [`BLOCK`], fewer for wide types, so that
/// the blocks of a call (two operands, converted, and the result) stay
/// within the first-level cache: 8 KiB each.
const fn block_rows<W>() -> usize {
    let rows = 8192 / size_of::<W>();
    let rows = if rows > BLOCK { BLOCK } else { rows };
    if rows < CHUNK { CHUNK } else { rows / CHUNK * CHUNK }
}

/// Uninitialized slots for one block.
fn block_slots<W>() -> [MaybeUninit<W>; BLOCK] {
    [const { MaybeUninit::uninit() }; BLOCK]
}

/// A single value repeated over a whole block (written once per call), or
/// nothing for a column.
fn repeat<W: Work>(input: &Input<'_>, slots: &mut [MaybeUninit<W>]) {
    if let Some(value) = input.scalar_value::<W>() {
        for slot in slots {
            slot.write(value);
        }
    }
}

/// Rows `start..start + len` of an operand in `W`: a column's, read or
/// converted into `scratch`, or the single value [`repeat`]ed in `scratch`.
#[inline(always)]
fn operand_rows<'s, W: Work>(
    input: &'s Input<'_>,
    start: usize,
    len: usize,
    scratch: &'s mut [MaybeUninit<W>],
) -> &'s [W] {
    match &input.values {
        Values::Array(column) => column.rows(start, len, scratch),
        Values::Scalar(_) => initialized(scratch.get(..len).unwrap_or_default()),
    }
}

/// The loop over every row, in blocks of [`BLOCK`], results stored as `O`.
#[inline(never)]
fn drive<W: Work, O: Stored>(
    lhs: &Input<'_>,
    rhs: &Input<'_>,
    kernel: &dyn BlockKernel<W>,
    frame: &Frame<'_>,
    out: &mut Vec<O>,
) -> Result<Option<NullBuffer>, KernelError> {
    out.clear();
    out.reserve_exact(frame.len);
    let (mut lhs_slots, mut rhs_slots, mut out_slots) =
        (block_slots(), block_slots(), block_slots());
    // Short calls fill only the rows they have.
    let block = block_rows::<W>();
    let rows = block.min(frame.len);
    repeat(lhs, &mut lhs_slots[..rows]);
    repeat(rhs, &mut rhs_slots[..rows]);
    let mut failures = FailureMasks::new(frame);
    for start in (0..frame.len).step_by(block) {
        let len = block.min(frame.len - start);
        let a = operand_rows(lhs, start, len, &mut lhs_slots);
        let b = operand_rows(rhs, start, len, &mut rhs_slots);
        block_lengths(a.len(), b.len(), len)?;
        let spare = &mut out.spare_capacity_mut()[..len];
        let any = match W::output_slots(O::slots(spare, TOKEN)) {
            Some(slots) => kernel.block(a, b, slots),
            None => {
                let slots = &mut out_slots[..len];
                let any = kernel.block(a, b, slots);
                store::<O, W>(initialized(slots), &mut out.spare_capacity_mut()[..len]);
                any
            }
        };
        // SAFETY: all `len` slots after the vector's initialized elements
        // were written: by the kernel in place (`BlockKernel`'s contract,
        // with `a`, `b` and the slots all `len` long) or by `store` (which
        // zips `len` values with `len` slots).
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
fn words_sides<'a, S: Stored, W: Work>(lhs: &Input<'a>, rhs: &Input<'a>) -> Option<Sides<'a, S>> {
    if !narrower_than_storage::<S, W>() {
        return None;
    }
    let side = |input: &Input<'a>| match input.values {
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
fn drive_words<W: Work, S: Stored>(
    lhs: &Input<'_>,
    rhs: &Input<'_>,
    kernel: &dyn BlockKernel<W>,
    frame: &Frame<'_>,
    out: &mut Vec<S>,
) -> Result<Option<NullBuffer>, KernelError> {
    let Some((lhs_column, rhs_column)) = words_sides::<S, W>(lhs, rhs) else {
        return drive(lhs, rhs, kernel, frame, out);
    };
    out.clear();
    out.reserve_exact(frame.len);
    let rows = BLOCK.min(frame.len);
    let (mut lhs_repeated, mut rhs_repeated) = (block_slots(), block_slots());
    // A single value is written once, over the rows a block can have.
    repeat_words::<S, W>(lhs, &mut lhs_repeated[..rows]);
    repeat_words::<S, W>(rhs, &mut rhs_repeated[..rows]);
    let mut failures = FailureMasks::new(frame);
    for start in (0..frame.len).step_by(rows.max(1)) {
        let len = rows.min(frame.len - start);
        let a = block_words::<S>(lhs_column, &lhs_repeated, start, len);
        let b = block_words::<S>(rhs_column, &rhs_repeated, start, len);
        block_lengths(a.len(), b.len(), len)?;
        let slots = S::word_slots(&mut out.spare_capacity_mut()[..len]);
        let Some(any) = S::block_of_words(kernel, a, b, slots) else {
            // Not a narrower work type: the general loop, from the start.
            return drive(lhs, rhs, kernel, frame, out);
        };
        // SAFETY: the kernel wrote all `len` slots (`BlockKernel`'s contract,
        // with `a`, `b` and the slots all `len` long), which directly follow
        // the vector's initialized elements.
        unsafe { out.set_len(out.len() + len) };
        if any != 0 {
            let rows = a.iter().zip(b);
            let flags = rows.map(|(&x, &y)| kernel.row(S::load_words(x), S::load_words(y)).1);
            failures.record_block(start, len, flags)?;
        }
    }
    Ok(failures.finish())
}

/// [`repeat`] for [`drive_words`]: a single value as the words of `S`.
fn repeat_words<S: Stored, W: Work>(input: &Input<'_>, slots: &mut [MaybeUninit<S::Words>]) {
    if let Some(value) = input.scalar_value::<W>() {
        let words = S::store_words(value);
        for slot in slots {
            slot.write(words);
        }
    }
}

/// Rows `start..start + len` of a column as words, or of a single value
/// [`repeat_words`]ed in `repeated`.
fn block_words<'s, S: Stored>(
    column: Option<&'s [S]>,
    repeated: &'s [MaybeUninit<S::Words>],
    start: usize,
    len: usize,
) -> &'s [S::Words] {
    match column {
        Some(values) => S::as_words(values.get(start..start + len).unwrap_or_default()),
        None => initialized(repeated.get(..len).unwrap_or_default()),
    }
}

/// Checks that a block's operands have its `len` rows: ruled out by the
/// frame check, and kept so that no output slot is ever treated as written
/// when it was not.
fn block_lengths(a: usize, b: usize, len: usize) -> Result<(), KernelError> {
    match [a, b].into_iter().find(|&l| l != len) {
        Some(actual) => Err(KernelError::LengthMismatch { expected: len, actual }),
        None => Ok(()),
    }
}

/// [`Stored::magnitude_bits`] of a column, in the AVX-512 copy on a CPU that
/// has it: the pass vectorizes at any width, but 64-bit arithmetic shifts
/// (the sign of each word) take one instruction only there.
pub(crate) fn magnitude_bits<S: Stored>(values: &[S]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if avx512::available() {
        // SAFETY: `available` has just checked at run time that this CPU
        // supports every feature the function is compiled with.
        return unsafe { avx512::magnitude_bits(values) };
    }
    measure_portable(values)
}

#[inline(never)]
fn measure_portable<S: Stored>(values: &[S]) -> u32 {
    S::magnitude_bits(values)
}

/// Whether the AVX-512 copies of the loops run on this CPU.
pub(crate) fn wide_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    return avx512::available();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The loops compiled for AVX-512 (x86-64 only).
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use core::mem::MaybeUninit;

    use super::{RowKernel, Stored, Work};

    /// Whether this CPU runs the functions here: the features they are
    /// compiled with.
    pub(crate) fn available() -> bool {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("bmi2")
    }

    /// [`Stored::magnitude_bits`] compiled with AVX-512.
    #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
    pub(super) fn magnitude_bits<S: Stored>(values: &[S]) -> u32 {
        S::magnitude_bits(values)
    }

    /// The same block loop as the portable one, compiled with AVX-512:
    /// 64-bit multiplies (`vpmullq`), 64-bit arithmetic shifts and
    /// comparisons into mask registers vectorize.
    #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
    pub(super) fn block<W: Work, K: RowKernel<W>>(
        a: &[W],
        b: &[W],
        out: &mut [MaybeUninit<W>],
        c: &K::Constants,
    ) -> u8 {
        super::block_loop::<W, K>(a, b, out, c)
    }

    /// The words loop compiled with AVX-512.
    #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,bmi2")]
    pub(super) fn words_block<S: Stored, W: Work, K: RowKernel<W>>(
        a: &[S::Words],
        b: &[S::Words],
        out: &mut [MaybeUninit<S::Words>],
        c: &K::Constants,
    ) -> u8 {
        super::words_loop::<S, W, K>(a, b, out, c)
    }
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

    /// Records the failures of the `len` rows from `start` on, given each
    /// row's flags in order: for a block whose flags were not all clear.
    fn record_block(
        &mut self,
        start: usize,
        len: usize,
        flags: impl Iterator<Item = u8>,
    ) -> Result<(), KernelError> {
        let mut flags = flags.take(len);
        for chunk in (0..len).step_by(CHUNK) {
            let rows = CHUNK.min(len - chunk);
            let (mut overflow, mut divide_by_zero) = (0u64, 0u64);
            for (bit, f) in flags.by_ref().take(rows).enumerate() {
                overflow |= u64::from(f & OVERFLOW != 0) << bit;
                divide_by_zero |= u64::from(f & DIVIDE_BY_ZERO != 0) << bit;
            }
            self.record((start + chunk) / CHUNK, rows, overflow, divide_by_zero)?;
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_same_outcome, call, call_multiversioned, values};
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

    fn frame(nulls: &NullBuffer, policy: OverflowPolicy) -> Frame<'_> {
        let policies = Policies { on_overflow: policy, on_divide_by_zero: policy };
        Frame::new(ROWS).with_nulls(Some(nulls)).with_policies(policies)
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
        let (l, r) = (Input::array(&a[..]), Input::array(&b[..]));
        let null = frame(&nulls, OverflowPolicy::Null);
        let out = call::<i64, i64, FlaggedSum>(l, r, BOUND, &null).unwrap();
        assert_eq!(nulled(&out, &nulls), [65, 511, 512, 700, 1030, 1499]);
        let error = frame(&nulls, OverflowPolicy::Error);
        let first = call::<i64, i64, FlaggedSum>(l, r, BOUND, &error);
        assert_eq!(first.unwrap_err(), KernelError::DivideByZero { row: 65 });
        let (a, b) = columns(&[600, 1499], &[1200]);
        let (l, r) = (Input::array(&a[..]), Input::array(&b[..]));
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
        fn inputs(&self, fits_i8: bool) -> Vec<(&'static str, Input<'_>)> {
            let mut inputs = vec![
                ("i64", Input::array(&self.i64)),
                ("i128", Input::array(&self.i128)),
                ("i256", Input::array(&self.i256)),
            ];
            if fits_i8 {
                inputs.push(("i8", Input::array(&self.i8)));
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
    fn assert_storage_agrees<W: Work>(small: bool) {
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
        let frame = frame(&nulls, OverflowPolicy::Null);
        let bound = W::from_i64(BOUND);
        let reference = |l, r| call::<i64, W, FlaggedSum>(l, r, bound, &frame);
        let mut cases = Vec::new();
        for (ln, l) in sa.inputs(small) {
            for (rn, r) in sb.inputs(small) {
                cases.push((format!("{ln} + {rn}"), l, r));
            }
            cases.push((format!("{ln} + scalar"), l, Input::scalar(b[9])));
            cases.push((format!("scalar + {ln}"), Input::scalar(i256::from(a[9])), l));
        }
        let (l64, r64) = (Input::array(&a[..]), Input::array(&b[..]));
        let expected = [
            reference(l64, r64),
            reference(l64, Input::scalar(b[9])),
            reference(Input::scalar(a[9]), l64),
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
            let out = call::<i64, W, FlaggedSum>(l, r, bound, &frame);
            assert_same_outcome(want.clone(), out, &format!("{context} -> i64"));
            let out = as_i64(call::<i128, W, FlaggedSum>(l, r, bound, &frame), to_i64);
            assert_same_outcome(want.clone(), out, &format!("{context} -> i128"));
            let wide = |v: i256| to_i64(v.as_i128());
            let out = as_i64(call::<i256, W, FlaggedSum>(l, r, bound, &frame), wide);
            assert_same_outcome(want.clone(), out, &format!("{context} -> i256"));
        }
    }

    #[test]
    fn every_storage_mix_agrees_with_i64_storage() {
        assert_storage_agrees::<i64>(false);
        assert_storage_agrees::<i128>(false);
        assert_storage_agrees::<I256>(false);
        assert_storage_agrees::<crate::wide::I512>(true);
    }

    #[test]
    fn narrow_storage_converts_exactly() {
        assert_storage_agrees::<i64>(true);
    }

    #[test]
    fn multiversioned_loop_agrees_or_reports_its_absence() {
        if !wide_vectors() {
            eprintln!("no AVX-512 on this machine: the AVX-512 loop copy is not compared here");
            return;
        }
        let (a, b) = columns(&[5, 900], &[70, 1400]);
        let nulls = NullBuffer::from((0..ROWS).map(|i| i % 13 != 4).collect::<Vec<_>>());
        let frame = frame(&nulls, OverflowPolicy::Null);
        let (l, r) = (Input::array(&a[..]), Input::array(&b[..]));
        let portable = call::<i64, i64, FlaggedSum>(l, r, BOUND, &frame);
        let chosen = call_multiversioned::<i64, i64, FlaggedSum>(l, r, BOUND, &frame);
        assert_same_outcome(portable, chosen, "AVX-512 copy");
    }

    /// `a + b` of [`columns`] through the public operator, under `Null`,
    /// into `frame`'s vector.
    #[track_caller]
    fn recycled_sum(values: Vec<i128>, nulls: &NullBuffer) -> Output<i128> {
        let (a, b) = columns(&[3, 700], &[]);
        let spec = crate::SumSpec::new(0, 0, 18);
        let frame = frame(nulls, OverflowPolicy::Null);
        let (l, r) = (Input::array(&a[..]), Input::array(&b[..]));
        crate::add(l, r, &spec, frame.recycling(values)).unwrap()
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
            Input::array(&a[..]),
            Input::array(&b[..]),
            BOUND,
            &Frame::new(2),
        );
        assert_eq!(out.unwrap_err(), KernelError::LengthMismatch { expected: 2, actual: 1 });
        let nulls = NullBuffer::new_valid(3);
        let frame = Frame::new(2).with_nulls(Some(&nulls));
        let out =
            call::<i64, i64, FlaggedSum>(Input::array(&a[..]), Input::scalar(1i8), BOUND, &frame);
        assert_eq!(out.unwrap_err(), KernelError::LengthMismatch { expected: 2, actual: 3 });
    }
}
