//! Kernel throughput.

use arrow_buffer::ScalarBuffer;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalType, RoundingMode, binary,
};

fn column(dtype: DecimalType, len: usize, max: i64, seed: u64) -> DecimalArray {
    let mut x = seed;
    let values: Vec<i64> = (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % max as u64) as i64 + 1
        })
        .collect();
    DecimalArray::try_new(dtype, ScalarBuffer::from(values), None).unwrap()
}

fn fixed_point(c: &mut Criterion) {
    let len = 8192;
    let a = column(DecimalType::try_new(12, 2).unwrap(), len, 9_999_999, 3);
    let b = column(DecimalType::try_new(10, 3).unwrap(), len, 500_000, 5);
    let opts = ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp);
    let mut group = c.benchmark_group("fixed_point_8192");
    group.throughput(Throughput::Elements(len as u64));
    for op in BinaryOp::ALL {
        group.bench_function(format!("{op:?}"), |bench| {
            bench.iter(|| binary(op, &a, &b, &opts).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, fixed_point);
criterion_main!(benches);
