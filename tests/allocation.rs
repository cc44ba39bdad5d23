//! Kernels allocate only their result: the values buffer and the validity
//! bitmap, never per row or per chunk; and a call handed a previous result
//! to recycle allocates nothing that grows with its rows (only the
//! fixed-size headers of the buffers it returns), with the same results. A counting
//! global allocator measures the bytes allocated by the calling thread
//! during 1M-row calls.

include!("support/arrow_crates.rs");

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use std::sync::Arc;

use arrow_array::types::Decimal256Type;
use arrow_array::{Array, ArrayRef, Int32Array, PrimitiveArray};
use arrow_buffer::ScalarBuffer;
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalScalar, DecimalType, DecimalValues,
    RoundingMode, StorageWidth, UnaryOp, arrow, binary, binary_recycling, unary, unary_recycling,
};
use rstest::rstest;
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

/// The options of a decimal(15, 2) call at `width`: FixedPoint keeps
/// decimal(15, 2) sums in `i64`; the Arrow profile at `Decimal128` stores
/// every result in `i128`.
fn options_at(width: StorageWidth) -> ArithmeticOptions {
    match width {
        StorageWidth::I128 => ArithmeticOptions::arrow(StorageWidth::I128),
        _ => ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp),
    }
}

/// The operand pairs of a call at `width`: no nulls, nulls on one side, nulls
/// on both.
fn operand_pairs(width: StorageWidth) -> [(DecimalArray, DecimalArray); 3] {
    let t = dec(15, 2);
    let [lhs, lhs_with_nulls] = columns(t, width, 7);
    let [rhs, rhs_with_nulls] = columns(t, width, 13);
    [(lhs.clone(), rhs.clone()), (lhs_with_nulls.clone(), rhs), (lhs_with_nulls, rhs_with_nulls)]
}

/// The address of an array's values.
fn values_address(array: &DecimalArray) -> *const u8 {
    match array.values() {
        DecimalValues::I8(b) => b.inner().as_ptr(),
        DecimalValues::I16(b) => b.inner().as_ptr(),
        DecimalValues::I32(b) => b.inner().as_ptr(),
        DecimalValues::I64(b) => b.inner().as_ptr(),
        DecimalValues::I128(b) => b.inner().as_ptr(),
        DecimalValues::I256(b) => b.inner().as_ptr(),
    }
}

/// What arrow-buffer allocates to make a `Buffer` of memory it is given (a
/// vector's): the shared header (an `Arc`) the buffer points through, of a
/// fixed size. Every buffer a call returns has one; safe code cannot reuse
/// the header of a buffer it takes apart.
fn buffer_header() -> usize {
    let values = Vec::<i64>::with_capacity(ROWS);
    let (buffer, bytes) = allocated_by(|| ScalarBuffer::from(values));
    assert_eq!(buffer.inner().capacity(), ROWS * 8, "the vector's memory, not a copy");
    bytes
}

/// `call` with a previous result of its own to recycle allocates nothing
/// but the headers of the buffers it returns (its values, and its validity
/// when both operands have nulls), writes where that result was, and
/// returns what a call without one does.
#[track_caller]
fn assert_recycled_call_allocates_only_headers(
    name: &str,
    call: impl Fn(Option<DecimalArray>) -> DecimalArray,
) {
    let fresh = call(None);
    let previous = call(None);
    let address = values_address(&previous);
    // A validity of its own: the operands' intersection, not one side's.
    let own_bitmap = previous.nulls().is_some_and(|n| n.inner().inner().strong_count() == 1);
    let headers = buffer_header() * (1 + usize::from(own_bitmap));
    let (recycled, bytes) = allocated_by(|| call(Some(previous)));
    assert_eq!(bytes, headers, "{name}: {bytes} bytes allocated by the recycled call");
    assert_eq!(values_address(&recycled), address, "{name}: not written into the recycled buffer");
    assert_eq!(recycled, fresh, "{name}");
    assert_eq!(recycled.values(), fresh.values(), "{name}: stored values differ");
}

#[rstest]
#[case::add_decimal64(BinaryOp::Add, StorageWidth::I64)]
#[case::sub_decimal64(BinaryOp::Sub, StorageWidth::I64)]
#[case::mul_decimal64(BinaryOp::Mul, StorageWidth::I64)]
#[case::div_decimal64(BinaryOp::Div, StorageWidth::I64)]
#[case::rem_decimal64(BinaryOp::Rem, StorageWidth::I64)]
#[case::add_decimal128(BinaryOp::Add, StorageWidth::I128)]
#[case::sub_decimal128(BinaryOp::Sub, StorageWidth::I128)]
#[case::mul_decimal128(BinaryOp::Mul, StorageWidth::I128)]
#[case::div_decimal128(BinaryOp::Div, StorageWidth::I128)]
#[case::rem_decimal128(BinaryOp::Rem, StorageWidth::I128)]
fn a_recycled_binary_call_allocates_only_buffer_headers(
    #[case] op: BinaryOp,
    #[case] width: StorageWidth,
) {
    let opts = options_at(width);
    for (nulls, (a, b)) in
        ["no nulls", "nulls on one side", "nulls on both"].into_iter().zip(operand_pairs(width))
    {
        assert_recycled_call_allocates_only_headers(
            &format!("{op:?} at {width:?}, {nulls}"),
            |r| {
                match r {
                    Some(recycled) => binary_recycling(op, &a, &b, &opts, recycled),
                    None => binary(op, &a, &b, &opts),
                }
                .unwrap()
            },
        );
    }
    assert_recycled_arrow_call_allocates_only_headers(op, width);
}

#[rstest]
#[case::rescale_decimal64(UnaryOp::Rescale { to: dec(14, 1) }, StorageWidth::I64)]
#[case::neg_decimal64(UnaryOp::Neg, StorageWidth::I64)]
#[case::rescale_decimal128(UnaryOp::Rescale { to: dec(14, 1) }, StorageWidth::I128)]
#[case::neg_decimal128(UnaryOp::Neg, StorageWidth::I128)]
fn a_recycled_unary_call_allocates_only_buffer_headers(
    #[case] op: UnaryOp,
    #[case] width: StorageWidth,
) {
    let opts = options_at(width);
    for (nulls, a) in ["no nulls", "nulls"].into_iter().zip(columns(dec(15, 2), width, 7)) {
        assert_recycled_call_allocates_only_headers(&format!("{op} at {width:?}, {nulls}"), |r| {
            match r {
                Some(recycled) => unary_recycling(op, &a, &opts, recycled),
                None => unary(op, &a, &opts),
            }
            .unwrap()
        });
    }
}

/// What the Arrow API allocates besides the buffers' headers with a
/// recycled array: the `Arc` of the returned `ArrayRef`, whose size does not
/// depend on the rows.
const ARRAY_REF: usize = 2 * size_of::<usize>() + size_of::<PrimitiveArray<Decimal256Type>>();

/// The address of an Arrow decimal array's values.
fn arrow_address(array: &ArrayRef) -> *const u8 {
    array.to_data().buffers()[0].as_ptr()
}

/// The same call through the Arrow API, with a recycled `ArrayRef`:
/// besides the buffers' headers, only the returned array's `Arc`.
#[track_caller]
fn assert_recycled_arrow_call_allocates_only_headers(op: BinaryOp, width: StorageWidth) {
    let opts = options_at(width);
    for (nulls, (a, b)) in
        ["no nulls", "nulls on one side", "nulls on both"].into_iter().zip(operand_pairs(width))
    {
        let (a, b) = (a.to_arrow(), b.to_arrow());
        let fresh = arrow::binary(op, &a, &b, &opts).unwrap();
        let previous = arrow::binary(op, &a, &b, &opts).unwrap();
        let address = arrow_address(&previous);
        let (recycled, bytes) =
            allocated_by(|| arrow::binary_recycling(op, &a, &b, &opts, previous).unwrap());
        let bitmaps = if nulls == "nulls on both" { 1 } else { 0 };
        let most = (1 + bitmaps) * buffer_header() + ARRAY_REF;
        assert!(bytes <= most, "{op:?} at {width:?}, {nulls}: {bytes} bytes allocated");
        assert_eq!(arrow_address(&recycled), address, "{op:?} at {width:?}, {nulls}");
        assert_eq!(recycled.to_data(), fresh.to_data(), "{op:?} at {width:?}, {nulls}");
    }
}

/// A recycled result that cannot hold the next: what is done with it.
#[derive(Clone, Copy, Debug)]
enum Unfit {
    /// A clone of it is alive.
    Shared,
    /// It is a slice starting past its first row.
    Sliced,
    /// It is stored at another width.
    OtherWidth,
    /// It has fewer rows than the call.
    TooSmall,
}

#[rstest]
#[case::shared(Unfit::Shared)]
#[case::sliced(Unfit::Sliced)]
#[case::other_width(Unfit::OtherWidth)]
#[case::too_small(Unfit::TooSmall)]
fn an_unfit_recycled_result_falls_back_to_the_same_results(#[case] unfit: Unfit) {
    let opts = options_at(StorageWidth::I64);
    let [_, _, (a, b)] = operand_pairs(StorageWidth::I64);
    let fresh = binary(BinaryOp::Mul, &a, &b, &opts).unwrap();
    let previous = binary(BinaryOp::Sub, &a, &b, &opts).unwrap();
    let before = previous.clone();
    let (recycled, kept) = match unfit {
        Unfit::Shared => (previous.clone(), Some(previous)),
        Unfit::Sliced => (previous.slice(1, ROWS - 1).unwrap(), None),
        Unfit::OtherWidth => (previous.with_width(StorageWidth::I128).unwrap(), None),
        Unfit::TooSmall => {
            let (small_a, small_b) = (a.slice(0, 1000).unwrap(), b.slice(0, 1000).unwrap());
            (binary(BinaryOp::Sub, &small_a, &small_b, &opts).unwrap(), None)
        }
    };
    let out = binary_recycling(BinaryOp::Mul, &a, &b, &opts, recycled).unwrap();
    assert_eq!(out, fresh, "{unfit:?}");
    assert_eq!(out.values(), fresh.values(), "{unfit:?}");
    if let Some(kept) = kept {
        // The shared result is left as it was.
        assert_eq!(kept.values(), before.values());
        assert_ne!(values_address(&kept), values_address(&out));
    }
}

#[rstest]
#[case::shared(true)]
#[case::not_decimal(false)]
fn an_unfit_recycled_arrow_array_falls_back_to_the_same_results(#[case] shared: bool) {
    let opts = options_at(StorageWidth::I128);
    let [_, _, (a, b)] = operand_pairs(StorageWidth::I128);
    let (a, b) = (a.to_arrow(), b.to_arrow());
    let fresh = arrow::binary(BinaryOp::Div, &a, &b, &opts).unwrap();
    let previous = arrow::binary(BinaryOp::Add, &a, &b, &opts).unwrap();
    let before = previous.to_data();
    let recycled: ArrayRef =
        if shared { Arc::clone(&previous) } else { Arc::new(Int32Array::from(vec![1; 10])) };
    let out = arrow::binary_recycling(BinaryOp::Div, &a, &b, &opts, recycled).unwrap();
    assert_eq!(out.to_data(), fresh.to_data());
    assert_eq!(previous.to_data(), before, "the shared array is left as it was");
    assert_eq!(out.len(), ROWS);
}
