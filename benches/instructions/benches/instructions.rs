//! Instructions per call of the hot cases, counted by callgrind (gungraun)
//! for each loop copy valgrind runs, against the committed baseline: a case
//! whose count grows more than 5% fails the run (`run.sh` says how to run
//! it and how to record a new baseline).
//!
//! Counts repeat exactly on any load, which wall-clock timings on shared
//! machines do not; they complement the ratio goals of `benches/kernels.rs`
//! (criterion and the paired timer), which they do not replace. Valgrind
//! emulates no AVX-512, so the copies counted are `avx2` and `portable`,
//! one group each, capped with `DECIMAL_KERNELS_ISA` in the process
//! gungraun starts for each case (the variable is read once per process).
//!
//! Every case runs a plan made in its set-up (not counted) on 8,192 rows,
//! the columns from the criterion bench's generator and distributions (the
//! case's name is that bench's group and case):
//! - `d64_15_2_*`, `d128_15_2_*`, Arrow profile: money `±<10^12` (40 bits)
//!   and a factor `±<10^6` (20 bits) at scale 2; products and dividends at
//!   the quotient's scale within 60 bits. `_nulls`: every tenth row null.
//! - `d128_38_10_money_rate_mul`, Arrow profile: money `±<10^19` (64 bits) ×
//!   a rate `±<10^11` (37 bits) at scale 10, products beyond 64 bits.
//! - `fixed_38_2_half_up_money_rate_mul`, FixedPoint rounding half up:
//!   money × a rate `±<10^8` at `(38,2)`, products of about 67 bits.
//! - `d256_60_10_by_40_10_div`, Arrow profile: 40-digit values by 38-digit
//!   ones, 256 bits throughout.
//! - `rescale_15_4_to_15_2`: money at scale 4, `±<10^14`, lowered half up.
//! - `lt_15_2_vs_12_4`: money at `(15,2)` against money at `(12,4)`.
//! - `sum_d128_15_2_nulls`: the sum of money with every tenth row null.

use std::hint::black_box;

use arrow_buffer::{BooleanBuffer, NullBuffer, ScalarBuffer, i256};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, BinaryPlan, CompareOp, ComparePlan, DecimalArray, DecimalNative,
    DecimalScalar, DecimalType, NullableBuffer, RoundingMode, StorageWidth, UnaryOp, UnaryPlan,
    aggregate,
};
use gungraun::{
    Callgrind, EventKind, LibraryBenchmarkConfig, library_benchmark, library_benchmark_group, main,
};

#[path = "../../kernels/rng.rs"]
mod rng;
use rng::Rng;

/// The rows of every case: the criterion bench's middle size.
const ROWS: usize = 8192;
/// A case fails when its instructions grow by more than this, in percent.
const REGRESSION_PERCENT: f64 = 5.0;

/// Money at scale 2: below 10^12 as stored integers.
const MONEY: u128 = 10_u128.pow(12);
/// Quantities and rates at scale 2: below 10^6.
const FACTOR: u128 = 10_u128.pow(6);
/// Money at scale 10 whose products leave 64 bits: below 10^19.
const MONEY_19: u128 = 10_u128.pow(19);
/// A rate at scale 10: below 10^11.
const RATE_11: u128 = 10_u128.pow(11);
/// A rate at scale 2 for FixedPoint products past 64 bits: below 10^8.
const RATE_8: u128 = 10_u128.pow(8);

/// A column of `decimal(p, s)` from `values`, every tenth row null if
/// `with_nulls`.
fn column<T: DecimalNative>(values: Vec<T>, p: u8, s: i8, with_nulls: bool) -> DecimalArray {
    let nulls = with_nulls.then(|| NullBuffer::from_iter((0..values.len()).map(|i| i % 10 != 3)));
    DecimalArray::try_new(DecimalType::try_new(p, s).unwrap(), ScalarBuffer::from(values), nulls)
        .unwrap()
}

/// `ROWS` money-like values below `max` in magnitude, of either sign.
fn money<T: DecimalNative>(
    rng: &mut Rng,
    max: u128,
    p: u8,
    s: i8,
    with_nulls: bool,
    to: impl Fn(i128) -> T,
) -> DecimalArray {
    column((0..ROWS).map(|_| to(rng.nonzero_below(max))).collect(), p, s, with_nulls)
}

/// The columns a binary case runs on, as the criterion bench's groups name
/// them.
#[derive(Clone, Copy)]
enum Columns {
    /// `Decimal64(15,2)` money and factor, Arrow profile.
    D64Money,
    /// `Decimal128(15,2)` money and factor, Arrow profile.
    D128Money { with_nulls: bool },
    /// `Decimal128(38,10)` money × rate, Arrow profile.
    D128MoneyRate,
    /// `Decimal128(38,2)` money × rate, FixedPoint half up.
    FixedMoneyRate,
    /// `Decimal256(60,10)` 40-digit values and `(40,10)` 38-digit ones, Arrow
    /// profile.
    D256Wide,
}

/// A prepared binary operation and its operands.
struct BinaryCase {
    plan: BinaryPlan,
    lhs: DecimalArray,
    rhs: DecimalArray,
}

fn binary_case(op: BinaryOp, columns: Columns) -> BinaryCase {
    let rng = &mut Rng(0x2545_f491_4f6c_dd1d ^ ROWS as u64);
    let (lhs, rhs, options) = match columns {
        Columns::D64Money => (
            money(rng, MONEY, 15, 2, false, |v| v as i64),
            money(rng, FACTOR, 15, 2, false, |v| v as i64),
            ArithmeticOptions::arrow(StorageWidth::I64),
        ),
        Columns::D128Money { with_nulls } => (
            money(rng, MONEY, 15, 2, with_nulls, |v| v),
            money(rng, FACTOR, 15, 2, with_nulls, |v| v),
            ArithmeticOptions::arrow(StorageWidth::I128),
        ),
        Columns::D128MoneyRate => (
            money(rng, MONEY_19, 38, 10, false, |v| v),
            money(rng, RATE_11, 38, 10, false, |v| v),
            ArithmeticOptions::arrow(StorageWidth::I128),
        ),
        Columns::FixedMoneyRate => (
            money(rng, MONEY, 38, 2, false, |v| v),
            money(rng, RATE_8, 38, 2, false, |v| v),
            ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp),
        ),
        Columns::D256Wide => (
            column((0..ROWS).map(|_| rng.digits(40)).collect::<Vec<i256>>(), 60, 10, false),
            column((0..ROWS).map(|_| rng.digits(38)).collect::<Vec<i256>>(), 40, 10, false),
            ArithmeticOptions::arrow(StorageWidth::I256),
        ),
    };
    let plan = BinaryPlan::new(op, lhs.dtype(), rhs.dtype(), &options).unwrap();
    BinaryCase { plan, lhs, rhs }
}

/// As [`binary_case`], the right operand its column's row 1.
fn scalar_case(op: BinaryOp, columns: Columns) -> (BinaryPlan, DecimalArray, DecimalScalar) {
    let BinaryCase { plan, lhs, rhs } = binary_case(op, columns);
    (plan, lhs, rhs.scalar(1).unwrap())
}

#[library_benchmark]
#[bench::d64_15_2_div(args = (BinaryOp::Div, Columns::D64Money), setup = binary_case)]
#[bench::d64_15_2_rem(args = (BinaryOp::Rem, Columns::D64Money), setup = binary_case)]
#[bench::d64_15_2_mul(args = (BinaryOp::Mul, Columns::D64Money), setup = binary_case)]
#[bench::d128_15_2_add(
    args = (BinaryOp::Add, Columns::D128Money { with_nulls: false }),
    setup = binary_case
)]
#[bench::d128_15_2_nulls_add(
    args = (BinaryOp::Add, Columns::D128Money { with_nulls: true }),
    setup = binary_case
)]
#[bench::d128_15_2_div(
    args = (BinaryOp::Div, Columns::D128Money { with_nulls: false }),
    setup = binary_case
)]
#[bench::d128_15_2_rem(
    args = (BinaryOp::Rem, Columns::D128Money { with_nulls: false }),
    setup = binary_case
)]
#[bench::d128_38_10_money_rate_mul(
    args = (BinaryOp::Mul, Columns::D128MoneyRate),
    setup = binary_case
)]
#[bench::fixed_38_2_half_up_money_rate_mul(
    args = (BinaryOp::Mul, Columns::FixedMoneyRate),
    setup = binary_case
)]
#[bench::d256_60_10_by_40_10_div(args = (BinaryOp::Div, Columns::D256Wide), setup = binary_case)]
fn binary(case: BinaryCase) -> DecimalArray {
    black_box(case.plan.run(&case.lhs, &case.rhs).unwrap())
}

#[library_benchmark]
#[bench::d128_15_2_div_scalar(
    args = (BinaryOp::Div, Columns::D128Money { with_nulls: false }),
    setup = scalar_case
)]
#[bench::d128_15_2_rem_scalar(
    args = (BinaryOp::Rem, Columns::D128Money { with_nulls: false }),
    setup = scalar_case
)]
fn binary_scalar((plan, lhs, rhs): (BinaryPlan, DecimalArray, DecimalScalar)) -> DecimalArray {
    black_box(plan.run(&lhs, &rhs).unwrap())
}

/// Money at scale 4 (`±<10^14`, `Decimal128(15,4)`) lowered to scale 2, half
/// up, as a cast rounds it.
fn rescale_case() -> (UnaryPlan, DecimalArray) {
    let rng = &mut Rng(17 ^ ROWS as u64);
    let money = money(rng, 10_u128.pow(14), 15, 4, false, |v| v);
    let to = DecimalType::try_new(15, 2).unwrap();
    let options = ArithmeticOptions::arrow(StorageWidth::I128).with_rounding(RoundingMode::HalfUp);
    (UnaryPlan::new(UnaryOp::Rescale { to }, money.dtype(), &options).unwrap(), money)
}

#[library_benchmark]
#[bench::rescale_15_4_to_15_2(setup = rescale_case)]
fn rescale((plan, values): (UnaryPlan, DecimalArray)) -> DecimalArray {
    black_box(plan.run(&values).unwrap())
}

/// Money at `(15,2)` and at `(12,4)`, as the criterion bench's mixed-type
/// comparison.
fn compare_case() -> (ComparePlan, DecimalArray, DecimalArray) {
    let rng = &mut Rng(37 ^ ROWS as u64);
    let lhs = money(rng, MONEY, 15, 2, false, |v| v);
    let rhs = money(rng, 10_u128.pow(12), 12, 4, false, |v| v);
    (ComparePlan::new(CompareOp::Lt, lhs.dtype(), rhs.dtype()), lhs, rhs)
}

#[library_benchmark]
#[bench::lt_15_2_vs_12_4(setup = compare_case)]
fn compare(
    (plan, lhs, rhs): (ComparePlan, DecimalArray, DecimalArray),
) -> NullableBuffer<BooleanBuffer> {
    black_box(plan.run(&lhs, &rhs).unwrap())
}

/// Money at `Decimal128(15,2)`, every tenth row null.
fn sum_case() -> DecimalArray {
    money(&mut Rng(23 ^ ROWS as u64), MONEY, 15, 2, true, |v| v)
}

#[library_benchmark]
#[bench::sum_d128_15_2_nulls(setup = sum_case)]
fn sum(values: DecimalArray) -> DecimalScalar {
    black_box(aggregate::sum(&values, &ArithmeticOptions::arrow(StorageWidth::I128)).unwrap())
}

/// One copy's configuration: the cap, and the limit every case is held to.
fn copy(isa: &str) -> LibraryBenchmarkConfig {
    let mut config = LibraryBenchmarkConfig::default();
    config
        .env("DECIMAL_KERNELS_ISA", isa)
        .tool(Callgrind::default().soft_limits([(EventKind::Ir, REGRESSION_PERCENT)]).clone());
    config
}

library_benchmark_group!(
    name = avx2,
    config = copy("avx2"),
    benchmarks = [binary, binary_scalar, rescale, compare, sum]
);

library_benchmark_group!(
    name = portable,
    config = copy("portable"),
    benchmarks = [binary, binary_scalar, rescale, compare, sum]
);

main!(library_benchmark_groups = avx2, portable);
