//! Sustained load: 10,000 random kernel calls on columns of up to 65,536 rows,
//! from two threads at once, with every result checked in full and no growth
//! in live heap memory between the first thousand calls and the last.
//!
//! How:
//!
//! - **A pool of cases, built once.** Each case is an operator, two operand
//!   types (precisions up to 18, 19 to 38 and above 38; negative scales), the
//!   operands' storage widths (the narrowest and wider ones), a profile and a
//!   rounding mode, and two columns of up to 65,536 rows: about 10% nulls,
//!   money-like and full-precision values, zeros (zero divisors) and maxima
//!   (rows that overflow). The exact big-integer reference
//!   ([`conformance::reference`]) is far too slow in a debug build to run on
//!   every call, so it runs once per case and operand shape, under the `Null`
//!   policies, and each row's outcome is kept: a value, null because an input
//!   is null, overflow, or division by zero.
//! - **Random calls, each checked.** A call picks a case, a random slice (the
//!   whole column, a few rows, or anything in between, at any offset), an
//!   operand shape (array ⊕ array, one side a scalar taken from a row, or a
//!   null scalar) and random `Error`/`Null` policies for overflow and for
//!   division by zero. (A valid scalar's reference is a separate big-integer
//!   pass, so those two shapes use only a case's first 16,384 rows.) Its expected result follows from the precomputed
//!   outcomes of the slice alone: the first row of the slice whose failure
//!   kind has the `Error` policy fails the call, named relative to the slice;
//!   without one, the result is the reference's rows sliced (a failing row
//!   under `Null` is null there). The type, storage width, length, validity of
//!   every row and stored value of every valid row are compared.
//! - **Memory.** A counting global allocator tracks the live heap bytes. The
//!   calls run in ten phases of 1,000 (500 per thread); between phases both
//!   threads have finished, so the live bytes are exactly what the test holds
//!   (the pool) plus anything leaked or cached. The live bytes after the first
//!   phase (the first thousand calls, which also pay for any one-off lazy
//!   initialisation) bound those after every later phase, the last thousand
//!   calls included, within a small slack. These quiescent readings are
//!   deterministic; the live bytes read right after each call are not (they
//!   include whatever the other thread's call holds at that instant), so
//!   their per-phase maxima are only reported: a comparison of them would
//!   pass or fail by how the two threads' largest calls happen to overlap.
//!
//! Every random choice comes from fixed seeds, so each thread's sequence of
//! calls is the same on every run; a failure names the thread and call index.

include!("support/arrow_crates.rs");

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use arrow_buffer::i256;
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalScalar, Operand,
    OverflowPolicy, RoundingMode, StorageWidth, conformance,
};
use support::outcomes::{Call, Outcome, assert_same_outcome, text_at};
use support::types::dec;
use support::values::{Kind, Mix, Rng};

// ---------------------------------------------------------------------------
// Live-byte accounting
// ---------------------------------------------------------------------------

/// The system allocator, counting the bytes currently allocated (over all
/// threads) and the bytes ever allocated.
struct LiveBytes;

/// Bytes allocated and not yet freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most `LIVE` has been seen at after a call, reset at each phase.
static PEAK_AFTER_CALL: AtomicUsize = AtomicUsize::new(0);
/// Bytes ever allocated (a `realloc` counts its new size).
static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

fn on_alloc(bytes: usize) {
    LIVE.fetch_add(bytes, Ordering::Relaxed);
    ALLOCATED.fetch_add(bytes, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the bookkeeping is relaxed atomic arithmetic, which
// neither allocates nor panics (atomic adds and subtracts wrap).
unsafe impl GlobalAlloc for LiveBytes {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            on_alloc(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            on_alloc(layout.size());
        }
        ptr
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's pointer, layout and size.
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        // On failure the old block stays allocated and nothing changes.
        if !moved.is_null() {
            on_alloc(new_size);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: LiveBytes = LiveBytes;

fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}

// ---------------------------------------------------------------------------
// The load
// ---------------------------------------------------------------------------

const THREADS: usize = 2;
/// Phases of 1,000 calls; between two phases no call is running.
const PHASES: usize = 10;
const CALLS_PER_THREAD_PER_PHASE: usize = 500;
const CALLS: usize = THREADS * PHASES * CALLS_PER_THREAD_PER_PHASE;
const MAX_ROWS: usize = 1 << 16;
/// The rows of a case a scalar ⊕ array call may use: the reference of the two
/// scalar shapes is computed over these only, as it costs a big-integer
/// operation per row (array ⊕ array and null scalars use every row).
const SCALAR_SHAPE_ROWS: usize = 1 << 14;
/// Growth of the live bytes at a quiescent point tolerated over the first
/// phase's. Between phases the test holds the same things (the pool, the
/// workers' plain counters), so without a leak the live bytes return to the
/// same number, to the byte; the slack only absorbs a one-off allocation by
/// the runtime (the test harness's stdout buffer, say). Any leak averaging 2
/// bytes a call over the 9,000 calls after the first phase exceeds it.
const SLACK_BYTES: usize = 16 * 1024;
/// Seeds of the pool and of each thread's calls.
const POOL_SEED: u64 = 0x5EED_D3C1_0A15_F00D;
const THREAD_SEEDS: [u64; THREADS] = [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210];

// ---------------------------------------------------------------------------
// The pool of cases
// ---------------------------------------------------------------------------

/// What most of a column's values look like.
#[derive(Clone, Copy, Debug)]
enum Values {
    /// Up to 8 digits, like amounts of money.
    Money,
    /// Any number of digits up to the precision.
    FullPrecision,
}

/// An operand's precision, scale and storage width.
type Side = (u8, i8, StorageWidth);

struct CaseSpec {
    op: BinaryOp,
    lhs: Side,
    rhs: Side,
    /// Profile and rounding; the policies are chosen per call.
    options: ArithmeticOptions,
    rows: usize,
    values: Values,
}

const fn case(
    op: BinaryOp,
    lhs: Side,
    rhs: Side,
    options: ArithmeticOptions,
    rounding: RoundingMode,
    rows: usize,
    values: Values,
) -> CaseSpec {
    CaseSpec { op, lhs, rhs, options: options.with_rounding(rounding), rows, values }
}

const FIXED: ArithmeticOptions = ArithmeticOptions::fixed_point();
const ARROW32: ArithmeticOptions = ArithmeticOptions::arrow(StorageWidth::I32);
const ARROW64: ArithmeticOptions = ArithmeticOptions::arrow(StorageWidth::I64);
const ARROW128: ArithmeticOptions = ArithmeticOptions::arrow(StorageWidth::I128);
const ARROW256: ArithmeticOptions = ArithmeticOptions::arrow(StorageWidth::I256);

/// The cases: every operator under both profiles, precisions in each range,
/// negative scales, narrowest and wider storage, every rounding mode.
const CASES: [CaseSpec; 24] = {
    use BinaryOp::{Add, Div, Mul, Sub};
    use RoundingMode::{Ceiling, Floor, HalfEven, HalfUp, TowardZero};
    use StorageWidth::{I8, I16, I32, I64, I128, I256};
    use Values::{FullPrecision as Full, Money};
    [
        case(Mul, (10, 2, I64), (10, 2, I64), ARROW128, HalfUp, MAX_ROWS, Money),
        case(Div, (10, 2, I64), (5, 3, I32), ARROW128, TowardZero, 32_768, Money),
        case(Add, (18, 4, I64), (18, -2, I128), FIXED, Floor, 20_000, Full),
        case(Sub, (2, 0, I8), (4, 1, I16), FIXED, Ceiling, MAX_ROWS, Full),
        case(Mul, (38, 10, I128), (20, 5, I256), FIXED, HalfEven, 12_000, Full),
        case(Div, (38, 0, I128), (38, 0, I256), ARROW128, HalfEven, 12_000, Full),
        case(Add, (76, 20, I256), (50, -10, I256), FIXED, TowardZero, 8_000, Full),
        case(Mul, (40, -5, I256), (39, 3, I256), FIXED, HalfUp, 8_000, Full),
        case(Div, (60, 30, I256), (45, -7, I256), FIXED, Floor, 8_000, Full),
        case(Mul, (9, 2, I32), (9, 2, I32), ARROW32, Ceiling, MAX_ROWS, Money),
        case(Sub, (18, 18, I64), (18, 0, I64), ARROW64, TowardZero, 16_000, Full),
        case(Div, (4, -3, I16), (3, 2, I64), FIXED, HalfUp, 32_768, Full),
        case(Add, (30, 10, I256), (35, -5, I256), ARROW256, Floor, 10_000, Full),
        case(Mul, (19, 0, I128), (19, 0, I256), ARROW256, TowardZero, 10_000, Full),
        case(Div, (18, 2, I64), (18, 2, I128), ARROW64, Ceiling, 20_000, Money),
        case(Mul, (12, -3, I64), (7, -6, I128), FIXED, HalfEven, 12_000, Full),
        case(Div, (76, 76, I256), (76, 0, I256), FIXED, HalfEven, 6_000, Full),
        case(Add, (2, 2, I8), (2, -2, I32), FIXED, HalfUp, 24_000, Full),
        case(Sub, (38, 38, I128), (38, 38, I256), ARROW128, Floor, 12_000, Full),
        case(Div, (9, 0, I64), (9, 9, I128), ARROW32, TowardZero, 20_000, Full),
        case(Mul, (10, 2, I64), (8, 3, I128), ARROW64, HalfUp, 25_000, Money),
        case(Div, (50, 10, I256), (30, 5, I256), ARROW256, HalfUp, 8_000, Full),
        case(Add, (15, 2, I64), (15, 2, I64), FIXED, TowardZero, 40_000, Money),
        case(Div, (15, 2, I64), (15, 2, I64), FIXED, HalfUp, MAX_ROWS, Money),
    ]
};

/// The divisions whose `array / scalar` divides by a zero scalar.
const ZERO_SCALAR_DIVISOR: [usize; 3] = [1, 5, 21];

impl Values {
    /// Mostly `self`-like values, sometimes the maximum (to overflow), zero
    /// (to divide by it), one unit, or a tie `5·10^k`; about 10% null.
    fn mix(self) -> Mix<'static> {
        let kinds: &'static [(Kind, u32)] = match self {
            Self::Money => &[
                (Kind::Max, 5),
                (Kind::Zero, 5),
                (Kind::Unit, 3),
                (Kind::Tie, 7),
                (Kind::Money, 80),
            ],
            Self::FullPrecision => &[
                (Kind::Max, 5),
                (Kind::Zero, 5),
                (Kind::Unit, 3),
                (Kind::Tie, 7),
                (Kind::Digits, 80),
            ],
        };
        Mix { kinds, null_percent: 10 }
    }
}

/// A checked column of `rows` rows at `width` (null rows hide zero or the
/// maximum, which must not make a call fail).
fn column(
    rng: &mut Rng,
    (precision, scale, width): Side,
    rows: usize,
    values: Values,
) -> DecimalArray {
    let dtype = dec(precision, scale);
    rng.rows(dtype, width, rows, &values.mix()).checked(dtype, width)
}

/// How a row of a call comes out under the `Null` policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowOutcome {
    Value,
    NullInput,
    Overflow,
    DivideByZero,
}

/// The five ways to feed a case to a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    ArrayArray,
    ScalarArray,
    ArrayScalar,
    NullScalarArray,
    ArrayNullScalar,
}

impl Shape {
    const ALL: [Self; 5] = [
        Self::ArrayArray,
        Self::ScalarArray,
        Self::ArrayScalar,
        Self::NullScalarArray,
        Self::ArrayNullScalar,
    ];

    fn index(self) -> usize {
        Self::ALL.iter().position(|&s| s == self).expect("a shape")
    }

    /// How many of a case's `rows` this shape uses.
    fn rows(self, rows: usize) -> usize {
        match self {
            Self::ScalarArray | Self::ArrayScalar => rows.min(SCALAR_SHAPE_ROWS),
            Self::ArrayArray | Self::NullScalarArray | Self::ArrayNullScalar => rows,
        }
    }
}

/// The reference result of one case and shape, over the rows the shape uses.
struct Expected {
    /// Computed under the `Null` policies: values where the outcome is a
    /// value, null elsewhere.
    reference: DecimalArray,
    outcomes: Vec<RowOutcome>,
}

/// The stored value of an operand at `row`, `None` when null.
fn stored_at(operand: Operand<'_>, row: usize) -> Option<i256> {
    match operand {
        Operand::Array(a) => a.is_valid(row).then(|| a.values().get(row)).flatten(),
        Operand::Scalar(s) => s.value(),
    }
}

impl Expected {
    fn compute(
        op: BinaryOp,
        lhs: Operand<'_>,
        rhs: Operand<'_>,
        options: &ArithmeticOptions,
    ) -> Self {
        let nulling = options
            .with_on_overflow(OverflowPolicy::Null)
            .with_on_divide_by_zero(OverflowPolicy::Null);
        let reference =
            conformance::reference(op, lhs, rhs, &nulling).expect("every case has a result type");
        let outcomes = (0..reference.len())
            .map(|row| match (stored_at(lhs, row), stored_at(rhs, row)) {
                (Some(_), Some(_)) if reference.is_valid(row) => RowOutcome::Value,
                (Some(_), Some(divisor)) if op == BinaryOp::Div && divisor == i256::ZERO => {
                    RowOutcome::DivideByZero
                }
                (Some(_), Some(_)) => RowOutcome::Overflow,
                _ => RowOutcome::NullInput,
            })
            .collect();
        Self { reference, outcomes }
    }
}

struct Case {
    label: String,
    op: BinaryOp,
    options: ArithmeticOptions,
    lhs: DecimalArray,
    rhs: DecimalArray,
    /// A valid row of `lhs` / `rhs` as a scalar, and the nulls of their types.
    lhs_scalar: DecimalScalar,
    rhs_scalar: DecimalScalar,
    lhs_null: DecimalScalar,
    rhs_null: DecimalScalar,
    /// Indexed by [`Shape::index`].
    expected: [Expected; 5],
}

/// A valid row of `array`; `prefer_zero` picks one holding zero if any.
fn scalar_row(rng: &mut Rng, array: &DecimalArray, prefer_zero: bool) -> usize {
    let valid: Vec<usize> = (0..array.len()).filter(|&row| array.is_valid(row)).collect();
    let zero = valid.iter().copied().find(|&row| array.values().get(row) == Some(i256::ZERO));
    match zero {
        Some(row) if prefer_zero => row,
        _ => rng.pick(&valid),
    }
}

impl Case {
    fn build(index: usize, spec: &CaseSpec) -> Self {
        let mut rng = Rng::new(POOL_SEED ^ u64::try_from(index).expect("small index"));
        let lhs = column(&mut rng, spec.lhs, spec.rows, spec.values);
        let rhs = column(&mut rng, spec.rhs, spec.rows, spec.values);
        // Some divisions get a zero scalar divisor: every valid row of
        // `array / 0` divides by zero.
        let zero_divisor = ZERO_SCALAR_DIVISOR.contains(&index);
        let lhs_scalar = lhs.scalar(scalar_row(&mut rng, &lhs, false)).expect("a row");
        let rhs_scalar = rhs.scalar(scalar_row(&mut rng, &rhs, zero_divisor)).expect("a row");
        let (lhs_null, rhs_null) =
            (DecimalScalar::null(lhs.dtype()), DecimalScalar::null(rhs.dtype()));
        let expected = Shape::ALL.map(|shape| {
            let used = |a: &DecimalArray| a.slice(0, shape.rows(a.len())).expect("a prefix");
            let (lhs, rhs) = (used(&lhs), used(&rhs));
            let (l, r) =
                operands(shape, (&lhs, &rhs), (&lhs_scalar, &rhs_scalar), (&lhs_null, &rhs_null));
            Expected::compute(spec.op, l, r, &spec.options)
        });
        let label = format!(
            "case {index}: {}@{} {} {}@{} under {:?}, rounding {:?}, {} rows",
            lhs.dtype(),
            lhs.width(),
            spec.op,
            rhs.dtype(),
            rhs.width(),
            spec.options.semantics(),
            spec.options.rounding(),
            spec.rows
        );
        Self {
            label,
            op: spec.op,
            options: spec.options,
            lhs,
            rhs,
            lhs_scalar,
            rhs_scalar,
            lhs_null,
            rhs_null,
            expected,
        }
    }
}

/// The operands of `shape`.
fn operands<'a>(
    shape: Shape,
    (lhs, rhs): (&'a DecimalArray, &'a DecimalArray),
    (lhs_scalar, rhs_scalar): (&'a DecimalScalar, &'a DecimalScalar),
    (lhs_null, rhs_null): (&'a DecimalScalar, &'a DecimalScalar),
) -> (Operand<'a>, Operand<'a>) {
    match shape {
        Shape::ArrayArray => (lhs.into(), rhs.into()),
        Shape::ScalarArray => (lhs_scalar.into(), rhs.into()),
        Shape::ArrayScalar => (lhs.into(), rhs_scalar.into()),
        Shape::NullScalarArray => (lhs_null.into(), rhs.into()),
        Shape::ArrayNullScalar => (lhs.into(), rhs_null.into()),
    }
}

/// Builds the pool on two threads (the reference dominates the test's time).
fn build_pool() -> Vec<Case> {
    std::thread::scope(|scope| {
        let builders: Vec<_> = (0..THREADS)
            .map(|thread| {
                scope.spawn(move || {
                    CASES
                        .iter()
                        .enumerate()
                        .filter(|(index, _)| index % THREADS == thread)
                        .map(|(index, spec)| Case::build(index, spec))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        builders
            .into_iter()
            .flat_map(|builder| {
                builder.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

// ---------------------------------------------------------------------------
// One call and its check
// ---------------------------------------------------------------------------

/// One random call, as a failure reports it.
struct LoadCall<'a> {
    thread: usize,
    index: usize,
    case: &'a Case,
    shape: Shape,
    offset: usize,
    len: usize,
    options: ArithmeticOptions,
}

impl fmt::Display for LoadCall<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "thread {} call {} ({}; {:?}; rows {}..{} of {}; overflow {:?}, divide by zero {:?})",
            self.thread,
            self.index,
            self.case.label,
            self.shape,
            self.offset,
            self.offset + self.len,
            self.case.lhs.len(),
            self.options.on_overflow(),
            self.options.on_divide_by_zero()
        )
    }
}

impl LoadCall<'_> {
    fn expected(&self) -> &Expected {
        &self.case.expected[self.shape.index()]
    }

    /// The expected outcome, from the slice's precomputed outcomes: the first
    /// row whose failure kind has the `Error` policy fails the call, otherwise
    /// the reference's rows (failures under `Null` are null rows there).
    fn want(&self, tally: &mut Tally, (lhs, rhs): (Operand<'_>, Operand<'_>)) -> Outcome {
        let expected = self.expected();
        let rows = &expected.outcomes[self.offset..self.offset + self.len];
        let result_type = expected.reference.dtype();
        let error = |policy: OverflowPolicy| policy == OverflowPolicy::Error;
        let mut nulled = 0;
        for (row, outcome) in rows.iter().enumerate() {
            match outcome {
                RowOutcome::Overflow if error(self.options.on_overflow()) => {
                    let (op, lhs, rhs) = (self.case.op, text_at(lhs, row), text_at(rhs, row));
                    return Err(DecimalError::Overflow { row, result_type, op, lhs, rhs });
                }
                RowOutcome::DivideByZero if error(self.options.on_divide_by_zero()) => {
                    return Err(DecimalError::DivideByZero { row, lhs: text_at(lhs, row) });
                }
                RowOutcome::Overflow | RowOutcome::DivideByZero => nulled += 1,
                RowOutcome::Value | RowOutcome::NullInput => {}
            }
        }
        tally.rows_nulled_by_failure += nulled;
        Ok(expected.reference.slice(self.offset, self.len).expect("slice in bounds"))
    }

    /// Runs the call on the slice and checks it against the expected outcome.
    #[track_caller]
    fn run_and_check(&self, tally: &mut Tally) -> Outcome {
        let case = self.case;
        let slice = |a: &DecimalArray| a.slice(self.offset, self.len).expect("slice in bounds");
        let (lhs, rhs) = (slice(&case.lhs), slice(&case.rhs));
        let (l, r) = operands(
            self.shape,
            (&lhs, &rhs),
            (&case.lhs_scalar, &case.rhs_scalar),
            (&case.lhs_null, &case.rhs_null),
        );
        let call = Call::new(case.op, l, r, &self.options).in_context(self.to_string());
        let got = call.run();
        let want = self.want(tally, (l, r));
        assert_same_outcome(&call, ("kernel", &got), ("reference", &want));
        got
    }
}

// ---------------------------------------------------------------------------
// Workers
// ---------------------------------------------------------------------------

/// What the calls came to, to show the load exercised every outcome.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    results: usize,
    overflow_errors: usize,
    divide_by_zero_errors: usize,
    rows_checked: usize,
    rows_nulled_by_failure: usize,
    result_bytes: usize,
    shapes: [usize; 5],
}

impl Tally {
    fn add(&mut self, other: &Self) {
        self.results += other.results;
        self.overflow_errors += other.overflow_errors;
        self.divide_by_zero_errors += other.divide_by_zero_errors;
        self.rows_checked += other.rows_checked;
        self.rows_nulled_by_failure += other.rows_nulled_by_failure;
        self.result_bytes += other.result_bytes;
        for (sum, n) in self.shapes.iter_mut().zip(other.shapes) {
            *sum += n;
        }
    }
}

/// One thread's call sequence, carried from phase to phase.
struct Worker {
    thread: usize,
    rng: Rng,
    calls: usize,
    tally: Tally,
}

/// A random slice of a `total`-row column: the whole column (1 in 16), a few
/// rows or none (3 in 16), or a range at any offset whose length is uniform
/// up to `total / 2^k` for a random `k < 6`. Long and short slices both come
/// often while the rows per call stay few enough for a debug build.
fn random_slice(rng: &mut Rng, total: usize) -> (usize, usize) {
    match rng.below(16) {
        0 => (0, total),
        1..4 => {
            let len = rng.below(17.min(total + 1));
            (rng.below(total - len + 1), len)
        }
        _ => {
            let offset = rng.below(total + 1);
            let longest = (total - offset).min(total >> rng.below(6));
            (offset, rng.below(longest + 1))
        }
    }
}

fn random_policy(rng: &mut Rng) -> OverflowPolicy {
    if rng.percent(50) { OverflowPolicy::Error } else { OverflowPolicy::Null }
}

impl Worker {
    fn new(thread: usize) -> Self {
        Self { thread, rng: Rng::new(THREAD_SEEDS[thread]), calls: 0, tally: Tally::default() }
    }

    fn run(&mut self, pool: &[Case], calls: usize) {
        for _ in 0..calls {
            self.call(pool);
            PEAK_AFTER_CALL.fetch_max(live_bytes(), Ordering::Relaxed);
        }
    }

    fn call(&mut self, pool: &[Case]) {
        let rng = &mut self.rng;
        let case = &pool[rng.below(pool.len())];
        // Arrays with arrays half the time; each scalar shape an eighth.
        let shape = match rng.below(8) {
            0..4 => Shape::ArrayArray,
            4 => Shape::ScalarArray,
            5 => Shape::ArrayScalar,
            6 => Shape::NullScalarArray,
            _ => Shape::ArrayNullScalar,
        };
        let (offset, len) = random_slice(rng, shape.rows(case.lhs.len()));
        let options = case
            .options
            .with_on_overflow(random_policy(rng))
            .with_on_divide_by_zero(random_policy(rng));
        let call =
            LoadCall { thread: self.thread, index: self.calls, case, shape, offset, len, options };
        let got = call.run_and_check(&mut self.tally);
        self.calls += 1;
        let tally = &mut self.tally;
        tally.shapes[shape.index()] += 1;
        match &got {
            Ok(result) => {
                tally.results += 1;
                tally.rows_checked += result.len();
                tally.result_bytes += result.len() * result.width().bytes();
            }
            Err(DecimalError::Overflow { .. }) => tally.overflow_errors += 1,
            Err(DecimalError::DivideByZero { .. }) => tally.divide_by_zero_errors += 1,
            Err(other) => unreachable!("{call}: checked as expected, yet `{other:?}`"),
        }
    }
}

// ---------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------

fn mib(bytes: usize) -> String {
    format!("{:.2} MiB", bytes as f64 / f64::from(1 << 20))
}

#[test]
fn ten_thousand_random_calls_from_two_threads_are_all_exact_and_leak_nothing() {
    let started = Instant::now();
    let pool = build_pool();
    let pool_time = started.elapsed();
    let live_with_pool = live_bytes();

    let mut workers: [Worker; THREADS] = std::array::from_fn(Worker::new);
    let mut live_after_phase = [0usize; PHASES];
    let mut peak_in_phase = [0usize; PHASES];
    let allocated_before_calls = ALLOCATED.load(Ordering::Relaxed);
    let calls_started = Instant::now();
    for phase in 0..PHASES {
        PEAK_AFTER_CALL.store(live_bytes(), Ordering::Relaxed);
        // Threads joined at the end of each phase: nothing runs between
        // phases, so the live bytes measured there are deterministic.
        workers = std::thread::scope(|scope| {
            let pool = &pool;
            workers
                .map(|mut worker| {
                    std::thread::Builder::new()
                        .name(format!("load-{}", worker.thread))
                        .spawn_scoped(scope, move || {
                            worker.run(pool, CALLS_PER_THREAD_PER_PHASE);
                            worker
                        })
                        .expect("a load thread")
                })
                .map(|thread| {
                    thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
        });
        live_after_phase[phase] = live_bytes();
        peak_in_phase[phase] = PEAK_AFTER_CALL.load(Ordering::Relaxed);
    }
    let calls_time: Duration = calls_started.elapsed();
    let allocated_by_calls = ALLOCATED.load(Ordering::Relaxed) - allocated_before_calls;

    let mut tally = Tally::default();
    for worker in &workers {
        tally.add(&worker.tally);
    }
    eprintln!(
        "pool of {} cases built in {pool_time:.1?} ({} live); {CALLS} calls in {calls_time:.1?}: \
         {tally:?}\nlive after each phase of 1,000 calls: {live_after_phase:?}\n\
         peak live after a call, per phase: {peak_in_phase:?}",
        pool.len(),
        mib(live_with_pool)
    );

    // The load reached every outcome.
    assert!(tally.overflow_errors > 0, "no call failed with overflow: {tally:?}");
    assert!(tally.divide_by_zero_errors > 0, "no call divided by zero: {tally:?}");
    assert!(tally.rows_nulled_by_failure > 0, "no failing row was nulled: {tally:?}");
    assert!(tally.shapes.iter().all(|&n| n > 0), "a shape never ran: {tally:?}");
    // The allocator counts: the results alone were allocated through it.
    assert!(
        allocated_by_calls >= tally.result_bytes,
        "only {allocated_by_calls} bytes counted for {} bytes of results",
        tally.result_bytes
    );

    // No growth: after every phase, the last thousand calls included, the
    // live bytes are those after the first thousand, within the slack.
    let first = live_after_phase[0];
    for (phase, &live) in live_after_phase.iter().enumerate() {
        assert!(
            live <= first + SLACK_BYTES,
            "live bytes grew from {first} after the first 1,000 calls to {live} after {} calls \
             (slack {SLACK_BYTES}); after each phase: {live_after_phase:?}",
            (phase + 1) * THREADS * CALLS_PER_THREAD_PER_PHASE
        );
    }
}
