//! Kernels allocate only their result: the values buffer and the validity
//! bitmap, never per row or per chunk. A counting global allocator measures
//! the bytes allocated by the calling thread during 1M-row calls.

include!("support/arrow_crates.rs");

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalScalar, DecimalType, RoundingMode,
    StorageWidth, binary,
};
use support::types::dec;
use support::values::{Kind, Mix, Rng};

/// The system allocator, counting what this thread allocates while asked to.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counters are thread-local cells that neither
// allocate nor panic (`try_with` tolerates thread teardown).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }
}

fn count(bytes: usize) {
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = BYTES.try_with(|b| b.set(b.get() + bytes));
        }
    });
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes this thread allocates while running `f`.
fn allocated_by<T>(f: impl FnOnce() -> T) -> (T, usize) {
    BYTES.with(|b| b.set(0));
    COUNTING.with(|on| on.set(true));
    let out = f();
    COUNTING.with(|on| on.set(false));
    (out, BYTES.with(Cell::get))
}

const ROWS: usize = 1 << 20;
const SLACK: usize = 64 * 1024;

/// Two columns of non-zero values of up to half the precision (no call
/// fails) at `width`: without nulls, and the same with a tenth of the rows
/// null.
fn columns(dtype: DecimalType, width: StorageWidth, seed: u64) -> [DecimalArray; 2] {
    let mut rng = Rng::new(seed);
    let mut rows =
        rng.rows(dtype, width, ROWS, &Mix { kinds: &[(Kind::Short, 1)], null_percent: 0 });
    let without_nulls = rows.checked(dtype, width);
    rows.valid.iter_mut().for_each(|valid| *valid = !rng.percent(10));
    [without_nulls, rows.checked(dtype, width)]
}

/// The size of what a result holds: its values and its validity bitmap.
fn result_bytes(result: &DecimalArray) -> usize {
    result.len() * result.width().bytes() + result.nulls().map_or(0, |n| n.len().div_ceil(8))
}

#[track_caller]
fn assert_allocates_only_the_result(
    op: BinaryOp,
    lhs: &DecimalArray,
    rhs: &DecimalArray,
    opts: ArithmeticOptions,
) {
    let (result, bytes) = allocated_by(|| binary(op, lhs, rhs, &opts).unwrap());
    let budget = result_bytes(&result) + SLACK;
    // The counter sees the result itself, so it is counting.
    assert!(bytes >= result.len() * result.width().bytes(), "{op:?}: only {bytes} bytes counted");
    assert!(
        bytes <= budget,
        "{op:?}: {bytes} bytes allocated, result {} + {SLACK}",
        result_bytes(&result)
    );
    let scalar = DecimalScalar::parse(rhs.dtype(), "7").unwrap();
    let (result, bytes) = allocated_by(|| binary(op, lhs, &scalar, &opts).unwrap());
    let budget = result_bytes(&result) + SLACK;
    assert!(
        bytes <= budget,
        "{op:?} by a scalar: {bytes} bytes allocated, result {}",
        result_bytes(&result)
    );
    let scalar = DecimalScalar::parse(lhs.dtype(), "7").unwrap();
    let (result, bytes) = allocated_by(|| binary(op, &scalar, rhs, &opts).unwrap());
    let budget = result_bytes(&result) + SLACK;
    assert!(
        bytes <= budget,
        "a scalar {op:?} an array: {bytes} bytes allocated, result {}",
        result_bytes(&result)
    );
}

const OPS: [BinaryOp; 4] = [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div];

#[test]
fn million_row_calls_allocate_only_their_result() {
    let t = dec(15, 2);
    let arrow = ArithmeticOptions::arrow(StorageWidth::I128);
    let fixed = ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp);
    let [lhs, lhs_with_nulls] = columns(t, StorageWidth::I64, 7);
    let [rhs, rhs_with_nulls] = columns(t, StorageWidth::I64, 13);
    for (c, d) in [(lhs, rhs), (lhs_with_nulls, rhs_with_nulls)] {
        let wide = |x: &DecimalArray| x.with_width(StorageWidth::I128).unwrap();
        let (a, b) = (wide(&c), wide(&d));
        for op in OPS {
            assert_allocates_only_the_result(op, &a, &b, arrow);
            assert_allocates_only_the_result(op, &c, &d, fixed);
        }
    }
}

#[test]
fn mixed_storage_allocates_only_the_result() {
    let t = dec(15, 2);
    let fixed = ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp);
    let arrow = ArithmeticOptions::arrow(StorageWidth::I128);
    let narrow_columns = columns(t, StorageWidth::I64, 7);
    let wide_columns = columns(t, StorageWidth::I128, 13);
    for (narrow, wide) in narrow_columns.iter().zip(&wide_columns) {
        for op in OPS {
            // i64 with i128, both ways round, results in i128 (Arrow) and in
            // i64 (FixedPoint's width for decimal(15, 2)).
            for opts in [arrow, fixed] {
                assert_allocates_only_the_result(op, narrow, wide, opts);
                assert_allocates_only_the_result(op, wide, narrow, opts);
            }
            // Money stored in i128 on both sides with an i64 result.
            assert_allocates_only_the_result(op, wide, wide, fixed);
        }
    }
}
