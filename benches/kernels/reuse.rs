//! Results written into a recycled buffer: 1,048,576-row calls handed the
//! previous call's result ([`binary_recycling`]) against the same calls
//! into a new buffer, and against the per-row time of the same call at
//! 8,192 rows (whose result stays in cache, the target for a recycled 1M-row
//! call). Operands as in the Arrow-profile cases: money below `10^12` times
//! factors below `10^6`, no nulls. Cases: `Decimal64(15,2)` and
//! `Decimal128(15,2)` `+ - * /` (Arrow profile at their width) and
//! `Decimal128(38,2)` FixedPoint `*` rounded half up.

use arrow_array::types::{Decimal64Type, Decimal128Type};
use criterion::{BenchmarkId, Criterion, Throughput};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, RoundingMode, StorageWidth, binary, binary_recycling,
};
use std::hint::black_box;

use super::{FACTOR, MONEY, Rng, money, ours};

/// The rows of a large call.
const LARGE: usize = 1 << 20;
/// The rows of a call whose result stays in cache.
const SMALL: usize = 8192;

/// `op` at `SMALL` rows and at `LARGE` rows, fresh and recycled, in group
/// `reuse_{name}_{op}`.
fn bench_op(
    c: &mut Criterion,
    name: &str,
    op: BinaryOp,
    operands: [&(DecimalArray, DecimalArray); 2],
    opts: ArithmeticOptions,
) {
    let [(small_a, small_b), (a, b)] = operands;
    let op_name = format!("{op:?}").to_lowercase();
    let mut g = c.benchmark_group(format!("reuse_{name}_{op_name}"));
    g.throughput(Throughput::Elements(SMALL as u64));
    g.bench_function(BenchmarkId::new("fresh", SMALL), |bench| {
        bench.iter(|| black_box(binary(op, small_a, small_b, &opts).unwrap()))
    });
    g.throughput(Throughput::Elements(LARGE as u64));
    g.bench_function(BenchmarkId::new("fresh", LARGE), |bench| {
        bench.iter(|| black_box(binary(op, a, b, &opts).unwrap()))
    });
    let fresh = binary(op, a, b, &opts).unwrap();
    let mut previous = Some(binary(op, a, b, &opts).unwrap());
    g.bench_function(BenchmarkId::new("recycled", LARGE), |bench| {
        bench.iter(|| {
            let done = previous.take().unwrap();
            let out = binary_recycling(op, a, b, &opts, done).unwrap();
            previous = Some(black_box(out));
        })
    });
    g.finish();
    assert_eq!(previous.as_ref(), Some(&fresh), "reuse_{name}_{op_name}: recycled result differs");
}

/// A pair of columns of `len` rows: money and factors.
type Columns = (DecimalArray, DecimalArray);

/// `+ - * /` on `Decimal64(15,2)` and `Decimal128(15,2)` under the Arrow
/// profile at their width, recycled.
pub fn recycled_arrow_profile(c: &mut Criterion) {
    let d64 = |len: usize| -> Columns {
        let rng = &mut Rng(0x51_7cc1_b727_220a ^ len as u64);
        let a = money::<Decimal64Type>(rng, MONEY, len, 15, 2, false, |v| v as i64);
        let b = money::<Decimal64Type>(rng, FACTOR, len, 15, 2, false, |v| v as i64);
        (ours(&a), ours(&b))
    };
    let d128 = |len: usize| -> Columns {
        let rng = &mut Rng(0x94d0_49bb_1331_11eb ^ len as u64);
        let a = money::<Decimal128Type>(rng, MONEY, len, 15, 2, false, |v| v);
        let b = money::<Decimal128Type>(rng, FACTOR, len, 15, 2, false, |v| v);
        (ours(&a), ours(&b))
    };
    let ops = [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div];
    for (name, width, columns) in [
        ("d64_15_2", StorageWidth::I64, [d64(SMALL), d64(LARGE)]),
        ("d128_15_2", StorageWidth::I128, [d128(SMALL), d128(LARGE)]),
    ] {
        let opts = ArithmeticOptions::arrow(width);
        for op in ops {
            bench_op(c, name, op, [&columns[0], &columns[1]], opts);
        }
    }
}

/// `Decimal128(38,2)` FixedPoint `*` rounded half up, recycled.
pub fn recycled_fixed_point_multiply(c: &mut Criterion) {
    let columns = |len: usize| -> Columns {
        let rng = &mut Rng(0xbf58_476d_1ce4_e5b9 ^ len as u64);
        let a = money::<Decimal128Type>(rng, MONEY, len, 38, 2, false, |v| v);
        let b = money::<Decimal128Type>(rng, FACTOR, len, 38, 2, false, |v| v);
        (ours(&a), ours(&b))
    };
    let opts = ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp);
    let (small, large) = (columns(SMALL), columns(LARGE));
    bench_op(c, "fixed_38_2_half_up", BinaryOp::Mul, [&small, &large], opts);
}
