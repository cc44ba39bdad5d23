//! What the kernels' tests share: one value generator, calls of a row kernel
//! straight through a block driver (in the portable loop or in a pinned
//! copy), `add` and `sub` as function pointers take them, and outcome
//! comparison.

use core::cell::Cell;

use crate::columns::in_place::InPlace;
use crate::columns::operand::Operand;
use crate::columns::storage::Storage;
use crate::driver::binary::{run, run_in};
use crate::driver::copies::{Choice, Chosen};
use crate::driver::error::KernelError;
use crate::driver::isa::Runnable;
use crate::driver::kernel::{BinaryKernel, UnaryKernel};
use crate::driver::output::{Output, output};
use crate::driver::rows::Rows;
use crate::driver::unary::{run_unary, run_unary_in};
use crate::ops::shared::add_spec::AddSpec;

/// `len` values of every size below `2^bits` (at most 63), both signs, from
/// a fixed seed (xorshift).
pub(crate) fn values(len: usize, bits: u32, seed: u64) -> Vec<i64> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = ((x >> (64 - bits.clamp(1, 63))) >> (x % u64::from(bits.clamp(1, 40)))) as i64;
            if x & 1 == 1 { -v } else { v }
        })
        .collect()
}

/// Runs row kernel `K` in work type `W` through the portable loop, results
/// stored as `O`.
pub(crate) fn call<O: Storage, W: InPlace, K: BinaryKernel<W>>(
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
) -> Result<Output<O>, KernelError> {
    output(0, |sink| run::<W, K>(&lhs, &rhs, constants, rows, sink))
}

/// Runs unary kernel `K` in work type `W` through the portable loop,
/// results stored as `O`.
pub(crate) fn call_unary<O: Storage, W: InPlace, K: UnaryKernel<W>>(
    operand: Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
) -> Result<Output<O>, KernelError> {
    output(0, |sink| run_unary::<W, K>(&operand, constants, rows, sink))
}

/// [`add`](crate::add) into a new vector: a function of a plain rows, which
/// coerces to a function pointer over every rows lifetime (the operator's
/// rows parameter, `impl Into<Recycled>`, fixes one).
pub(crate) fn add<O: Storage>(
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    spec: &AddSpec,
    rows: &Rows<'_>,
) -> Result<Output<O>, KernelError> {
    crate::add(lhs, rhs, spec, rows)
}

/// [`sub`](crate::sub) as [`add`] is `add`.
pub(crate) fn sub<O: Storage>(
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    spec: &AddSpec,
    rows: &Rows<'_>,
) -> Result<Output<O>, KernelError> {
    crate::sub(lhs, rhs, spec, rows)
}

thread_local! {
    /// The copy [`Pinned`] runs on this thread: set by [`call_in`] and
    /// [`call_unary_in`] (tests run on threads of their own, in parallel).
    static PINNED: Cell<Option<Runnable>> = const { Cell::new(None) };
}

/// The copy of the loops the calling thread pinned, whatever the process
/// chose: so that every copy this CPU runs is tested under plain
/// `cargo test`.
pub(crate) struct Pinned;

impl Choice for Pinned {
    fn copy() -> Runnable {
        PINNED.get().expect("a copy is pinned before the call")
    }
}

/// As [`call`], through the loop in `copy`.
pub(crate) fn call_in<O: Storage, W: InPlace, K: BinaryKernel<W>>(
    copy: Runnable,
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
) -> Result<Output<O>, KernelError> {
    PINNED.set(Some(copy));
    output(0, |sink| run_in::<W, K, Chosen<Pinned>>(&lhs, &rhs, constants, rows, sink))
}

/// As [`call_unary`], through the loop in `copy`.
pub(crate) fn call_unary_in<O: Storage, W: InPlace, K: UnaryKernel<W>>(
    copy: Runnable,
    operand: Operand<'_>,
    constants: K::Constants,
    rows: &Rows<'_>,
) -> Result<Output<O>, KernelError> {
    PINNED.set(Some(copy));
    output(0, |sink| run_unary_in::<W, K, Chosen<Pinned>>(&operand, constants, rows, sink))
}

/// The rows of `out`: `Some` value where valid.
pub(crate) fn valid_values<S: Storage>(out: &Output<S>) -> Vec<Option<S>> {
    let valid = |i: usize| out.nulls.as_ref().is_none_or(|n| n.is_valid(i));
    (0..out.values.len()).map(|i| valid(i).then_some(out.values[i])).collect()
}

/// Asserts that two calls agree: the same error, or the same validity and
/// the same value in every valid row.
#[track_caller]
pub(crate) fn assert_same_outcome<S: Storage>(
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

/// The exact integer an arrow `i256` holds.
pub(crate) fn big(v: arrow_buffer::i256) -> num_bigint::BigInt {
    num_bigint::BigInt::from_signed_bytes_le(&v.to_le_bytes())
}

/// `v` as an arrow `i256`, `None` beyond its range.
pub(crate) fn to_i256(v: &num_bigint::BigInt) -> Option<arrow_buffer::i256> {
    let bytes = v.to_signed_bytes_le();
    if bytes.len() > 32 {
        return None;
    }
    let fill = if bytes.last().is_some_and(|b| b & 0x80 != 0) { 0xff } else { 0 };
    let mut full = [fill; 32];
    full[..bytes.len()].copy_from_slice(&bytes);
    Some(arrow_buffer::i256::from_le_bytes(full))
}

/// `n / d` (`d > 0`) rounded to an integer by `mode`, exactly.
pub(crate) fn round_big(
    n: &num_bigint::BigInt,
    d: &num_bigint::BigInt,
    mode: crate::int::rounding::RoundingMode,
) -> num_bigint::BigInt {
    use crate::int::rounding::RoundingMode;
    use num_integer::Integer;
    use num_traits::Signed;
    let (floor, excess) = n.div_mod_floor(d);
    if excess == num_bigint::BigInt::from(0) {
        return floor;
    }
    let ceiling: num_bigint::BigInt = &floor + 1;
    let twice: num_bigint::BigInt = &excess * 2;
    let toward_zero = if n.is_negative() { ceiling.clone() } else { floor.clone() };
    let away = if n.is_negative() { floor.clone() } else { ceiling.clone() };
    match mode {
        RoundingMode::TowardZero => toward_zero,
        RoundingMode::Floor => floor,
        RoundingMode::Ceiling => ceiling,
        RoundingMode::HalfUp => match twice.cmp(d) {
            core::cmp::Ordering::Less => floor,
            core::cmp::Ordering::Greater => ceiling,
            core::cmp::Ordering::Equal => away,
        },
        RoundingMode::HalfEven => match twice.cmp(d) {
            core::cmp::Ordering::Less => floor,
            core::cmp::Ordering::Greater => ceiling,
            core::cmp::Ordering::Equal if floor.is_even() => floor,
            core::cmp::Ordering::Equal => ceiling,
        },
    }
}
