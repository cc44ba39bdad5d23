//! Results written into a recycled buffer at 1,048,576 rows: each call is
//! handed the previous call's result ([`binary_recycling`]).
//!
//! Per case, ours recycled against:
//! - `8192_row_batches`: the same call on the columns' first 8,192 rows,
//!   128 times (as many rows in all, operands and results in cache, each
//!   result new): the per-row time at 8,192 rows of the goal, a recycled
//!   1M-row call within 1.3 times of it;
//! - `fresh`: the same 1M-row call into a new buffer (with glibc's default
//!   allocator, which gives the next allocation the block the last call
//!   freed, the new buffer is already in memory; run with
//!   `MALLOC_MMAP_THRESHOLD_=131072` to map every new buffer afresh, as an
//!   allocator that returns large blocks to the system does);
//! - `memory_floor`: a plain loop that reads the same two columns and
//!   writes their wrapping sum into a reused buffer of the same width, the
//!   least time any operator that reads two 1M-row columns and writes one
//!   can take on this machine (the columns do not fit in cache).
//!
//! Operands as in the Arrow-profile cases: money `±<10^12` (40 bits) with
//! factors `±<10^6` (20 bits), no nulls; `Decimal64(15,2)` and
//! `Decimal128(15,2)` `+ - * /` under the Arrow profile at their width, and
//! `Decimal128(38,2)` FixedPoint `*` rounded half up, with money times rates
//! `±<10^8` (27 bits), products of 67 bits.

use arrow_array::types::{Decimal64Type, Decimal128Type};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalNative, RoundingMode, StorageWidth, binary,
    binary_recycling,
};
use std::hint::black_box;

use super::harness::{self, Case};
use super::{FACTOR, MONEY, MONEY_FACTOR_64, RATE_8, Rng, money, ours};

/// The rows of a large call.
const LARGE: usize = 1 << 20;
/// The rows of a batch whose result stays in cache.
const BATCH: usize = 8192;

/// A pair of columns: money and factors (or rates).
type Columns = (DecimalArray, DecimalArray);

/// Storage whose plain loop is the memory floor.
trait Plain: DecimalNative {
    /// `self + other` modulo the width.
    fn wrapping_sum(self, other: Self) -> Self;
}

impl Plain for i64 {
    fn wrapping_sum(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
}

impl Plain for i128 {
    fn wrapping_sum(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
}

/// The wrapping sum of two columns stored as `T`, written into `out`.
fn wrapping_sum_into<T: Plain>(a: &DecimalArray, b: &DecimalArray, out: &mut Vec<T>) {
    let (x, y) = (T::buffer(a.values()).unwrap(), T::buffer(b.values()).unwrap());
    out.clear();
    out.extend(x.iter().zip(y.iter()).map(|(&p, &q)| p.wrapping_sum(q)));
}

/// The three comparisons of `op` on `large` (and its `BATCH`-row prefix),
/// in group `reuse_{name}`, results of the recycled call checked first.
fn bench_op<T: Plain>(
    name: &str,
    op: BinaryOp,
    label: &str,
    (a, b): &Columns,
    opts: ArithmeticOptions,
) {
    let group = format!("reuse_{name}");
    let op_name = format!("{op:?}").to_lowercase();
    let label = format!("{label}; {LARGE} rows");
    let peers = ["8192_row_batches", "fresh", "memory_floor"];
    let names = peers.map(|peer| format!("{op_name}_vs_{peer}"));
    let [batches, fresh, floor] = [0, 1, 2].map(|i| Case {
        group: &group,
        case: &names[i],
        rows: LARGE,
        distribution: &label,
        peer: peers[i],
    });
    if ![&batches, &fresh, &floor].iter().any(|case| case.selected()) {
        return;
    }
    // The three cases share the recycled call, which returns nothing (it
    // keeps its result for the next call): its result is checked here, once.
    let fresh_result = binary(op, a, b, &opts).unwrap();
    let once = binary_recycling(op, a, b, &opts, binary(op, a, b, &opts).unwrap()).unwrap();
    assert_eq!(once, fresh_result, "{group}/{op_name}: recycled result differs");
    let mut previous = Some(once);
    let mut recycled = || {
        let done = previous.take().expect("the previous result");
        previous = Some(binary_recycling(op, a, b, &opts, done).unwrap());
    };
    let (x, y) = (a.slice(0, BATCH).unwrap(), b.slice(0, BATCH).unwrap());
    let in_batches = || {
        for _ in 0..LARGE / BATCH {
            black_box(binary(op, &x, &y, &opts).unwrap());
        }
    };
    harness::compare(&batches, |_, _| {}, &mut recycled, in_batches);
    let fresh_call = || binary(op, a, b, &opts).unwrap();
    harness::compare(&fresh, |_, _| {}, &mut recycled, fresh_call);
    let mut floor_out: Vec<T> = Vec::with_capacity(LARGE);
    let memory_floor = || wrapping_sum_into(a, b, &mut floor_out);
    harness::compare(&floor, |_, _| {}, &mut recycled, memory_floor);
}

/// `+ - * /` on `Decimal64(15,2)` and `Decimal128(15,2)` under the Arrow
/// profile at their width, recycled.
pub fn recycled_arrow_profile() {
    if std::env::var_os("DK_BENCH_QUICK").is_some() {
        return;
    }
    let ops = [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div];
    let rng = &mut Rng(0x51_7cc1_b727_220a);
    let a = money::<Decimal64Type>(rng, MONEY, LARGE, 15, 2, false, |v| v as i64);
    let b = money::<Decimal64Type>(rng, FACTOR, LARGE, 15, 2, false, |v| v as i64);
    let columns = (ours(&a), ours(&b));
    for op in ops {
        let label = MONEY_FACTOR_64.of(&format!("{op:?}").to_lowercase(), false);
        bench_op::<i64>(
            "d64_15_2",
            op,
            &label,
            &columns,
            ArithmeticOptions::arrow(StorageWidth::I64),
        );
    }
    let a = money::<Decimal128Type>(rng, MONEY, LARGE, 15, 2, false, |v| v);
    let b = money::<Decimal128Type>(rng, FACTOR, LARGE, 15, 2, false, |v| v);
    let columns = (ours(&a), ours(&b));
    for op in ops {
        let label = MONEY_FACTOR_64.of(&format!("{op:?}").to_lowercase(), false);
        let opts = ArithmeticOptions::arrow(StorageWidth::I128);
        bench_op::<i128>("d128_15_2", op, &label, &columns, opts);
    }
}

/// `Decimal128(38,2)` FixedPoint `*` rounded half up on money times rates
/// (67-bit products), recycled.
pub fn recycled_fixed_point_multiply() {
    if std::env::var_os("DK_BENCH_QUICK").is_some() {
        return;
    }
    let rng = &mut Rng(0xbf58_476d_1ce4_e5b9);
    let a = money::<Decimal128Type>(rng, MONEY, LARGE, 38, 2, false, |v| v);
    let b = money::<Decimal128Type>(rng, RATE_8, LARGE, 38, 2, false, |v| v);
    let opts = ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp);
    let label = "money ±<10^12 (40 bits) × rate ±<10^8 (27 bits), scale 4 to 2 half up: \
                 products <10^20 (67 bits) — not favourable: beyond i64";
    bench_op::<i128>(
        "fixed_38_2_half_up_money_rate",
        BinaryOp::Mul,
        label,
        &(ours(&a), ours(&b)),
        opts,
    );
}
