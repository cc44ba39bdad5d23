//! Kernels allocate only their result: the values buffer and the validity
//! bitmap, never per row or per chunk. A counting global allocator measures
//! the bytes allocated by the calling thread during 1M-row calls.

include!("support/arrow_crates.rs");

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use arrow_buffer::{NullBuffer, ScalarBuffer};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalScalar, DecimalType, RoundingMode,
    StorageWidth, binary,
};

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

fn column(dtype: DecimalType, width: StorageWidth, seed: i64, nulls: bool) -> DecimalArray {
    let values: Vec<i128> = (0..ROWS as i64).map(|i| i128::from((i * seed) % 99_999 + 1)).collect();
    let nulls = nulls.then(|| NullBuffer::from((0..ROWS).map(|i| i % 10 != 3).collect::<Vec<_>>()));
    let array = DecimalArray::try_new(dtype, ScalarBuffer::from(values), nulls).unwrap();
    array.with_width(width).unwrap()
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
}

#[test]
fn million_row_mul_and_div_allocate_only_their_result() {
    let t = DecimalType::try_new(15, 2).unwrap();
    for nulls in [false, true] {
        let arrow = ArithmeticOptions::arrow(StorageWidth::I128);
        let (a, b) =
            (column(t, StorageWidth::I128, 7, nulls), column(t, StorageWidth::I128, 13, nulls));
        let fixed = ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp);
        let (c, d) =
            (column(t, StorageWidth::I64, 7, nulls), column(t, StorageWidth::I64, 13, nulls));
        for op in [BinaryOp::Mul, BinaryOp::Div] {
            assert_allocates_only_the_result(op, &a, &b, arrow);
            assert_allocates_only_the_result(op, &c, &d, fixed);
        }
    }
}
