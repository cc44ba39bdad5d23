//! Side-by-side speed of this crate's kernels and arrow-arith's on the same
//! inputs, in one run: the ratios in the README come from here.
//!
//! Every case first checks that both sides return the same type and values,
//! then times each. Cases: Arrow profile against `arrow_arith::numeric` for
//! `Decimal64(15,2)`, `Decimal128(15,2)`, `Decimal128(38,10)`,
//! `Decimal256(40,2)` with money-like values, `Decimal256(60,10) ⊕ (40,10)`
//! with ~40-digit values; add, sub, mul, div and array ÷ scalar; FixedPoint
//! HalfUp multiply at (38,2) against `multiply_fixed_point_checked`; a plain
//! `wrapping_add` loop over the same i128 buffers as the machine's limit. Sizes
//! 16, 8,192 and 1,048,576 rows; no nulls and 10% nulls.
//!
//! `DK_BENCH_QUICK=1` keeps only the 8,192-row, no-null cases.

include!("../tests/support/arrow_crates.rs");

use std::hint::black_box;
use std::sync::Arc;

use arrow_arith::arithmetic::multiply_fixed_point_checked;
use arrow_arith::numeric;
use arrow_array::types::{
    Decimal64Type, Decimal128Type, Decimal256Type, DecimalType as ArrowDecimal,
};
use arrow_array::{Array, ArrayRef, Datum, PrimitiveArray, Scalar};
use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use arrow_schema::DataType;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalNative, DecimalScalar, DecimalType,
    RoundingMode, StorageWidth, binary,
};

/// A deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `-(max-1)..=max-1`, never zero.
    fn nonzero_below(&mut self, max: u128) -> i128 {
        let wide = (u128::from(self.next()) << 64) | u128::from(self.next());
        let v = (wide % (max - 1)) as i128 + 1;
        if self.next() & 1 == 1 { -v } else { v }
    }

    /// A value of about `digits` digits (between 10^(digits-1) and 10^digits).
    fn digits(&mut self, digits: u32) -> i256 {
        let mut v = i256::from_i128(1 + (self.next() % 9) as i128);
        for _ in 1..digits {
            v = v
                .wrapping_mul(i256::from_i128(10))
                .wrapping_add(i256::from_i128((self.next() % 10) as i128));
        }
        if self.next() & 1 == 1 { v.wrapping_neg() } else { v }
    }
}

fn nulls(len: usize, with_nulls: bool) -> Option<NullBuffer> {
    with_nulls.then(|| NullBuffer::from((0..len).map(|i| i % 10 != 3).collect::<Vec<_>>()))
}

/// An Arrow column of precision `p`, scale `s`.
fn arrow_column<T: ArrowDecimal>(
    values: Vec<T::Native>,
    p: u8,
    s: i8,
    nulls: Option<NullBuffer>,
) -> PrimitiveArray<T> {
    PrimitiveArray::<T>::new(ScalarBuffer::from(values), nulls)
        .with_precision_and_scale(p, s)
        .unwrap()
}

/// The same column as this crate's array, sharing the buffers.
fn ours<T: ArrowDecimal>(a: &PrimitiveArray<T>) -> DecimalArray
where
    T::Native: DecimalNative,
{
    let (p, s) = decimal_parts(a.data_type());
    DecimalArray::try_new(
        DecimalType::try_new(p, s).unwrap(),
        a.values().clone(),
        a.nulls().cloned(),
    )
    .unwrap()
}

fn decimal_parts(t: &DataType) -> (u8, i8) {
    match t {
        DataType::Decimal32(p, s)
        | DataType::Decimal64(p, s)
        | DataType::Decimal128(p, s)
        | DataType::Decimal256(p, s) => (*p, *s),
        other => panic!("not a decimal: {other}"),
    }
}

/// Asserts that arrow's result and ours have the same type and valid values.
#[track_caller]
fn assert_same(name: &str, ours: &DecimalArray, arrow: &dyn Array) {
    assert_eq!(
        (ours.dtype().precision(), ours.dtype().scale()),
        decimal_parts(arrow.data_type()),
        "{name}: type"
    );
    assert_eq!(ours.len(), arrow.len(), "{name}: length");
    let arrow_value = |i: usize| -> i256 {
        use arrow_array::cast::AsArray;
        match arrow.data_type() {
            DataType::Decimal64(..) => {
                i256::from_i128(arrow.as_primitive::<Decimal64Type>().value(i).into())
            }
            DataType::Decimal128(..) => {
                i256::from_i128(arrow.as_primitive::<Decimal128Type>().value(i))
            }
            _ => arrow.as_primitive::<Decimal256Type>().value(i),
        }
    };
    for i in 0..ours.len() {
        assert_eq!(ours.is_valid(i), arrow.is_valid(i), "{name}: validity of row {i}");
        if ours.is_valid(i) {
            assert_eq!(ours.values().get(i), Some(arrow_value(i)), "{name}: row {i}");
        }
    }
}

/// One comparison: our call and arrow's on the same inputs.
struct Pair {
    ours: Box<dyn Fn() -> DecimalArray>,
    arrow: Box<dyn Fn() -> ArrayRef>,
}

fn bench_pair(c: &mut Criterion, group: &str, case: &str, len: usize, pair: Pair) {
    assert_same(&format!("{group}/{case}/{len}"), &(pair.ours)(), (pair.arrow)().as_ref());
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(len as u64));
    g.bench_function(BenchmarkId::new(format!("{case}/ours"), len), |b| {
        b.iter(|| black_box((pair.ours)()))
    });
    g.bench_function(BenchmarkId::new(format!("{case}/arrow"), len), |b| {
        b.iter(|| black_box((pair.arrow)()))
    });
    g.finish();
}

fn arrow_op(
    op: BinaryOp,
) -> fn(&dyn Datum, &dyn Datum) -> Result<ArrayRef, arrow_schema::ArrowError> {
    match op {
        BinaryOp::Add => numeric::add,
        BinaryOp::Sub => numeric::sub,
        BinaryOp::Mul => numeric::mul,
        BinaryOp::Div => numeric::div,
        other => panic!("arrow-arith has no kernel for {other}"),
    }
}

/// An Arrow-profile case: two columns of one Arrow decimal type.
fn arrow_case<T: ArrowDecimal>(
    c: &mut Criterion,
    name: &str,
    width: StorageWidth,
    (lhs, rhs): (PrimitiveArray<T>, PrimitiveArray<T>),
    ops: &[BinaryOp],
    scalar_div: bool,
) where
    T::Native: DecimalNative,
{
    let len = lhs.len();
    let opts = ArithmeticOptions::arrow(width);
    let (a, b) = (ours(&lhs), ours(&rhs));
    let (lhs, rhs): (ArrayRef, ArrayRef) = (Arc::new(lhs), Arc::new(rhs));
    for &op in ops {
        let (a, b, l, r) = (a.clone(), b.clone(), lhs.clone(), rhs.clone());
        let f = arrow_op(op);
        let pair = Pair {
            ours: Box::new(move || binary(op, &a, &b, &opts).unwrap()),
            arrow: Box::new(move || f(&l, &r).unwrap()),
        };
        bench_pair(c, name, &format!("{op:?}").to_lowercase(), len, pair);
    }
    if scalar_div {
        let divisor = rhs.slice(1, 1);
        let scalar = DecimalScalar::from_stored(b.dtype(), b.values().get(1).unwrap()).unwrap();
        let (a, l) = (a.clone(), lhs.clone());
        let pair = Pair {
            ours: Box::new(move || binary(BinaryOp::Div, &a, &scalar, &opts).unwrap()),
            arrow: Box::new(move || numeric::div(&l, &Scalar::new(divisor.clone())).unwrap()),
        };
        bench_pair(c, name, "div_scalar", len, pair);
    }
}

fn money<T: ArrowDecimal>(
    rng: &mut Rng,
    max: u128,
    len: usize,
    p: u8,
    s: i8,
    with_nulls: bool,
    to: impl Fn(i128) -> T::Native,
) -> PrimitiveArray<T> {
    let values = (0..len).map(|_| to(rng.nonzero_below(max))).collect();
    arrow_column::<T>(values, p, s, nulls(len, with_nulls))
}

/// Money-like values: below 10^12 as stored integers (10 integer digits at
/// scale 2).
const MONEY: u128 = 1_000_000_000_000;
/// The right-hand column: below 10^6 (quantities, rates), so that products
/// and quotients of money stay within a `Decimal64` and arrow succeeds too.
const FACTOR: u128 = 1_000_000;

fn sizes() -> Vec<(usize, bool)> {
    if std::env::var_os("DK_BENCH_QUICK").is_some() {
        return vec![(8192, false)];
    }
    vec![(16, false), (8192, false), (8192, true), (1 << 20, false), (1 << 20, true)]
}

fn arrow_profile(c: &mut Criterion) {
    let all = BinaryOp::ALL;
    for (len, with_nulls) in sizes() {
        let suffix = if with_nulls { "_nulls" } else { "" };
        let rng = &mut Rng(0x2545_f491_4f6c_dd1d ^ len as u64);
        let pair = |rng: &mut Rng| {
            (
                money::<Decimal64Type>(rng, MONEY, len, 15, 2, with_nulls, |v| v as i64),
                money::<Decimal64Type>(rng, FACTOR, len, 15, 2, with_nulls, |v| v as i64),
            )
        };
        arrow_case(c, &format!("d64_15_2{suffix}"), StorageWidth::I64, pair(rng), &all, false);
        let pair = |rng: &mut Rng, p, s| {
            (
                money::<Decimal128Type>(rng, MONEY, len, p, s, with_nulls, |v| v),
                money::<Decimal128Type>(rng, FACTOR, len, p, s, with_nulls, |v| v),
            )
        };
        arrow_case(
            c,
            &format!("d128_15_2{suffix}"),
            StorageWidth::I128,
            pair(rng, 15, 2),
            &all,
            true,
        );
        arrow_case(
            c,
            &format!("d128_38_10{suffix}"),
            StorageWidth::I128,
            pair(rng, 38, 10),
            &all,
            true,
        );
        let wide = |rng: &mut Rng, p, s| {
            money::<Decimal256Type>(rng, MONEY, len, p, s, with_nulls, i256::from_i128)
        };
        arrow_case(
            c,
            &format!("d256_40_2{suffix}"),
            StorageWidth::I256,
            (wide(rng, 40, 2), wide(rng, 40, 2)),
            &all,
            true,
        );
        let digits = |rng: &mut Rng, p, s, d| {
            let values = (0..len).map(|_| rng.digits(d)).collect();
            arrow_column::<Decimal256Type>(values, p, s, nulls(len, with_nulls))
        };
        let wide_pair = (digits(rng, 60, 10, 40), digits(rng, 40, 10, 38));
        arrow_case(
            c,
            &format!("d256_60_10_by_40_10{suffix}"),
            StorageWidth::I256,
            wide_pair,
            &[BinaryOp::Add, BinaryOp::Sub, BinaryOp::Div],
            false,
        );
    }
}

fn fixed_point_multiply(c: &mut Criterion) {
    for (len, with_nulls) in sizes() {
        let suffix = if with_nulls { "_nulls" } else { "" };
        let rng = &mut Rng(0x9e37_79b9_7f4a_7c15 ^ len as u64);
        let lhs = money::<Decimal128Type>(rng, MONEY, len, 38, 2, with_nulls, |v| v);
        let rhs = money::<Decimal128Type>(rng, FACTOR, len, 38, 2, with_nulls, |v| v);
        let opts = ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp);
        let (a, b) = (ours(&lhs), ours(&rhs));
        let pair = Pair {
            ours: Box::new(move || binary(BinaryOp::Mul, &a, &b, &opts).unwrap()),
            arrow: Box::new(move || {
                Arc::new(multiply_fixed_point_checked(&lhs, &rhs, 2).unwrap()) as ArrayRef
            }),
        };
        bench_pair(c, &format!("fixed_38_2_half_up{suffix}"), "mul", len, pair);
    }
}

/// The machine's limit for add: a plain wrapping loop that allocates its output.
fn wrapping_add_limit(c: &mut Criterion) {
    for (len, with_nulls) in sizes() {
        if with_nulls {
            continue;
        }
        let rng = &mut Rng(7 ^ len as u64);
        let lhs = money::<Decimal128Type>(rng, MONEY, len, 15, 2, false, |v| v);
        let rhs = money::<Decimal128Type>(rng, FACTOR, len, 15, 2, false, |v| v);
        let (a, b) = (ours(&lhs), ours(&rhs));
        let opts = ArithmeticOptions::arrow(StorageWidth::I128);
        let (x, y) = (lhs.values().clone(), rhs.values().clone());
        let mut g = c.benchmark_group("d128_15_2_add_limit");
        g.throughput(Throughput::Elements(len as u64));
        g.bench_function(BenchmarkId::new("add/ours", len), |bench| {
            bench.iter(|| black_box(binary(BinaryOp::Add, &a, &b, &opts).unwrap()))
        });
        g.bench_function(BenchmarkId::new("add/wrapping_loop", len), |bench| {
            bench.iter(|| {
                let out: Vec<i128> =
                    x.iter().zip(y.iter()).map(|(p, q)| p.wrapping_add(*q)).collect();
                black_box(ScalarBuffer::from(out))
            })
        });
        g.finish();
    }
}

criterion_group!(benches, arrow_profile, fixed_point_multiply, wrapping_add_limit);
criterion_main!(benches);
