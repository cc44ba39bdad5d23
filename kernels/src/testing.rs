//! What the kernels' tests share: one value generator, calls of a row kernel
//! straight through the block driver, and outcome comparison.

use crate::arity::{Frame, KernelError, Output, RowKernel, output, run, run_multiversioned};
use crate::column::Input;
use crate::storage::Storage;
use crate::work::Work;

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
pub(crate) fn call<O: Storage, W: Work, K: RowKernel<W>>(
    lhs: Input<'_>,
    rhs: Input<'_>,
    constants: K::Constants,
    frame: &Frame<'_>,
) -> Result<Output<O>, KernelError> {
    output(0, |sink| run::<W, K>(&lhs, &rhs, constants, frame, sink))
}

/// As [`call`], through the multiversioned loop (the AVX-512 copy on a CPU
/// that has it).
pub(crate) fn call_multiversioned<O: Storage, W: Work, K: RowKernel<W>>(
    lhs: Input<'_>,
    rhs: Input<'_>,
    constants: K::Constants,
    frame: &Frame<'_>,
) -> Result<Output<O>, KernelError> {
    output(0, |sink| run_multiversioned::<W, K>(&lhs, &rhs, constants, frame, sink))
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
