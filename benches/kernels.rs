//! Side-by-side speed of this crate's kernels and their peers' (arrow-arith,
//! arrow-cast, or a plain loop, the machine's limit) on the same inputs, in
//! one run: the ratios in the README come from here.
//!
//! Two ways to time the same cases (`kernels/harness.rs` chooses):
//! - `cargo bench --bench kernels [-- FILTER]`: criterion, one group
//!   `group/case/rows` per case with the functions `ours` and the peer's
//!   (`arrow`, `wrapping_loop`, ...); criterion's options apply, e.g.
//!   `--save-baseline NAME`, `--baseline NAME`, `--list`,
//!   `--measurement-time S` (its reports: `<target dir>/criterion`).
//! - `DK_BENCH_PAIRED=1 cargo bench --bench kernels [-- FILTER] [--samples
//!   N]`: both sides timed in alternating samples, for the ratios of the
//!   goals (`kernels/paired.rs` says why it alternates, why by hand, what it
//!   reports and where: the JSON lines `benches/report.py` and
//!   `benches/ab.py` read).
//!
//! `FILTER` is a regular expression over `group/case/rows/ours` and
//! `group/case/rows/PEER` in both modes, e.g. `d64_15_2/add/8192` or
//! `'spark|fixed_38_2'`.
//!
//! Every case checks that both sides return the same type and values before
//! either is timed. Each case carries a label, stored with its paired
//! results: the bits of its operands and of what it forms from them
//! (products, dividends at the quotient's scale, sums), their sign, and
//! whether the case is favourable (every intermediate fits the narrowest
//! work type the kernels have, `i64`, or for Spark's `(38,18)`, `i128`).
//! Values are stored integers from a fixed-seed generator, uniform in
//! magnitude in `[1, max)`, never zero, of either sign.
//!
//! Groups, Arrow profile against `arrow_arith::numeric` (add, sub, mul, div,
//! rem; for `Decimal128` and `Decimal256(40,2)` also array ÷ and % scalar, the
//! right column's row 1). Arrow's quotient takes the dividend's scale plus 4,
//! so it scales dividends by `10^(4 + right scale)`.
//! - `d64_15_2`, `d128_15_2`: money `±<10^12` (40 bits) and a factor
//!   `±<10^6` (20 bits): sums 41 bits, products and scaled dividends
//!   (`·10^6`) below `10^18` (60 bits): favourable, all fits `i64`.
//! - `d128_38_10`: the same values at scale 10; also neg of the left column,
//!   built with its precision checked so that no row overflows. Products 60
//!   bits, favourable; dividends `·10^14` below `10^26` (87 bits), beyond
//!   `i64`.
//! - `d128_38_10_money_rate`, mul only: money `±<10^19` (64 bits) × a rate
//!   `±<10^11` (37 bits), products below `10^30` (100 bits): beyond `i64`.
//! - `d256_40_2`: money × money (40 bits each): products below `10^24` (80
//!   bits), beyond `i64`; sums and dividends (`·10^6`, 60 bits) within it.
//! - `d256_60_10_by_40_10`, add, sub, div: 40-digit values `±[10^39, 10^40)`
//!   (130-133 bits) and 38-digit ones `±[10^37, 10^38)` (123-127 bits):
//!   dividends `·10^14` below `10^54` (180 bits); 256 bits throughout.
//!
//! FixedPoint HalfUp multiply at `(38,2)` × `(38,2)` → `(38,2)` against
//! `multiply_fixed_point_checked(·, ·, 2)`, which also rounds ties away
//! from zero, of either sign:
//! - `fixed_38_2_half_up`: money `±<10^12` (40 bits) × a factor `±<10^6`
//!   (20 bits), products below `10^18` (60 bits): favourable, fits `i64`.
//! - `fixed_38_2_half_up_money_rate`: money × a rate `±<10^8` (27 bits),
//!   products below `10^20` (67 bits): beyond `i64`. Its `mul_vs_favourable`
//!   case times ours on these columns against ours on the favourable ones.
//!
//! Limits, ours against a plain loop over the same buffers that allocates
//! its output: `d128_15_2_add_limit` (`i128` `wrapping_add`, money +
//! factor), `d256_40_2_add_limit` (`i256` `wrapping_add`, money + money),
//! `d128_38_10_neg_limit` (`i128` `wrapping_neg` of money).
//!
//! Casts between decimal types (group `FROM_to_TO`, case `rescale`):
//! `decimal_kernels::arrow::cast` against `arrow_cast::cast`, both with the
//! default options, each taking and returning an Arrow array.
//! - Lowering the scale of money at scale 4, `±<10^14` (47 bits, one row in
//!   a hundred a tie), half up (arrow-cast rounds half away from zero too):
//!   `Decimal128(15,4)` to `Decimal128(15,2)`, and `Decimal256(40,4)` to
//!   `Decimal128(38,2)`. Favourable: fits `i64`.
//! - Raising the scale of money at scale 2, `±<10^12` (40 bits):
//!   `Decimal128(15,2)` to `Decimal128(18,4)` (`×10^2`, results 47 bits) and
//!   to `Decimal256(40,6)` (`×10^4`, 54 bits), favourable (fit `i64`);
//!   `Decimal64(15,2)` to `Decimal128(38,10)` (`×10^8`, results 67 bits):
//!   beyond `i64`.
//!
//! `round(x, 2)` of money at scale 4 (`kernels/round.rs`): Arrow's at
//! DataFusion's type against `arrow_cast::cast`, and Trino's, which keeps
//! the scale, against two casts.
//! Casts between strings and decimals (`kernels/text_casts.rs`): `Utf8`
//! money text to `Decimal64(15,2)` and `Decimal128(15,2)` to `Utf8`, against
//! `arrow_cast::cast`.
//!
//! Spark profile (`arrow::binary` with `ArithmeticOptions::spark()`),
//! `Decimal128(38,18)` mul and div to Spark's `Decimal128(38,6)`, against
//! arrow-rs as engines reach that type today: both sides widened to
//! `Decimal256(38,18)`, `arrow_arith::numeric` mul (scale 36) or div (scale
//! 22, truncated), then rounded half up to `Decimal128(38,6)`, null beyond 38
//! digits. Two value distributions:
//! - `spark_d128_38_18`, money × rate: left below 10^12 in value (stored
//!   below 10^30, 100 bits), right a rate between -10 and 10 with 18
//!   fraction digits (stored below 10^19, 64 bits). Products below 10^49
//!   (163 bits), so a multiply needs more than 128 bits; a quotient at scale
//!   6 divides left·10^6 (120 bits), arrow's at scale 22 divides left·10^22
//!   (173 bits).
//! - `spark_d128_38_18_narrow`, favourable: left below 10 in value (stored
//!   below 10^19, 64 bits), the same rates. Products below 10^38 (127 bits,
//!   within `i128`), scaled dividends left·10^6 below 10^25 (84 bits).
//!
//! Aggregates (`kernels/aggregates.rs`): sum and avg of money against
//! `sum_checked`, and sums by group against plain scatter loops (one with
//! `checked_add`, one wrapping); sums stay within 64 bits. `min` and `max`
//! (`kernels/minmax.rs`): whole columns against arrow's `min` and `max`, and
//! grouped `min` against a plain scatter loop.
//!
//! Numeric casts (`kernels/numeric_casts.rs`): `arrow::cast` between
//! decimals and `Float64`/`Int64` against arrow-cast, on money.
//!
//! Comparisons (`kernels/compare.rs`): `arrow::lt` against
//! `arrow_ord::cmp::lt` on one type, and on two (`Decimal128(15,2)` against
//! `(12,4)`, and against a `decimal(3,2)` literal) against DataFusion's
//! arrow-cast of both sides to the common type, then arrow-ord.
//!
//! Sizes 16, 8,192 and 1,048,576 rows; no nulls and every tenth row null
//! (groups ending in `_nulls`; not for the limits). `DK_BENCH_QUICK=1` keeps
//! only the 8,192-row, no-null cases, in either mode.

include!("../tests/support/arrow_crates.rs");

#[path = "kernels/aggregates.rs"]
mod aggregates;
#[path = "kernels/compare.rs"]
mod compare;
#[path = "kernels/harness.rs"]
mod harness;
#[path = "kernels/minmax.rs"]
mod minmax;
#[path = "kernels/numeric_casts.rs"]
mod numeric_casts;
#[path = "kernels/paired.rs"]
mod paired;
#[path = "kernels/reuse.rs"]
mod reuse;
#[path = "kernels/rng.rs"]
mod rng;
#[path = "kernels/round.rs"]
mod round;
#[path = "kernels/text_casts.rs"]
mod text_casts;

use std::sync::Arc;

use arrow_arith::arithmetic::multiply_fixed_point_checked;
use arrow_arith::numeric;
use arrow_array::types::{
    Decimal64Type, Decimal128Type, Decimal256Type, DecimalType as ArrowDecimal,
};
use arrow_array::{Array, ArrayRef, Datum, PrimitiveArray, Scalar};
use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use arrow_schema::DataType;
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalNative, DecimalScalar, DecimalType,
    RoundingMode, StorageWidth, UnaryOp, binary, unary,
};
use harness::Case;
use rng::Rng;

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

/// A result as `assert_same` reads it: this crate's array, or an Arrow one.
trait Column {
    /// Precision and scale.
    fn decimal_type(&self) -> (u8, i8);
    fn rows(&self) -> usize;
    /// Row `i`'s stored value, `None` when the row is null.
    fn row(&self, i: usize) -> Option<i256>;
}

impl Column for DecimalArray {
    fn decimal_type(&self) -> (u8, i8) {
        (self.dtype().precision(), self.dtype().scale())
    }

    fn rows(&self) -> usize {
        self.len()
    }

    fn row(&self, i: usize) -> Option<i256> {
        if self.is_valid(i) { self.values().get(i) } else { None }
    }
}

impl Column for ArrayRef {
    fn decimal_type(&self) -> (u8, i8) {
        decimal_parts(self.data_type())
    }

    fn rows(&self) -> usize {
        self.len()
    }

    fn row(&self, i: usize) -> Option<i256> {
        use arrow_array::cast::AsArray;
        if self.is_null(i) {
            return None;
        }
        Some(match self.data_type() {
            DataType::Decimal64(..) => {
                i256::from_i128(self.as_primitive::<Decimal64Type>().value(i).into())
            }
            DataType::Decimal128(..) => {
                i256::from_i128(self.as_primitive::<Decimal128Type>().value(i))
            }
            _ => self.as_primitive::<Decimal256Type>().value(i),
        })
    }
}

/// Asserts that arrow's result and ours have the same type, the same null
/// rows and the same valid values.
#[track_caller]
fn assert_same(name: &str, ours: &impl Column, arrow: &ArrayRef) {
    assert_eq!(ours.decimal_type(), arrow.decimal_type(), "{name}: type");
    assert_eq!(ours.rows(), arrow.rows(), "{name}: length");
    for i in 0..ours.rows() {
        assert_eq!(ours.row(i), arrow.row(i), "{name}: row {i}");
    }
}

/// One comparison: our call and arrow's on the same inputs.
struct Pair<O> {
    ours: Box<dyn Fn() -> O>,
    arrow: Box<dyn Fn() -> ArrayRef>,
}

/// Times both sides of `pair` (`harness::compare`), each result first
/// checked to agree with the other, unless the command line skips the case.
fn bench_pair<O: Column>(group: &str, case: &str, len: usize, label: &str, pair: Pair<O>) {
    let case = Case { group, case, rows: len, distribution: label, peer: "arrow" };
    let name = case.id();
    let check = |ours: O, arrow: ArrayRef| assert_same(&name, &ours, &arrow);
    harness::compare(&case, check, &*pair.ours, &*pair.arrow);
}

/// What an Arrow-profile group's columns hold and what each operator forms
/// from them: the parts of its cases' distribution labels.
struct Labels {
    left: &'static str,
    right: &'static str,
    /// Sums and differences.
    sum: &'static str,
    product: &'static str,
    /// Dividends at the quotient's scale.
    dividend: &'static str,
    remainder: &'static str,
}

impl Labels {
    /// The label of case `case` (an operator's name), with nulls or not.
    fn of(&self, case: &str, with_nulls: bool) -> String {
        let Labels { left, right, .. } = self;
        let label = match case {
            "add" => format!("{left} + {right}: {}", self.sum),
            "sub" => format!("{left} − {right}: {}", self.sum),
            "mul" => format!("{left} × {right}: {}", self.product),
            "div" => format!("{left} ÷ {right}: {}", self.dividend),
            "rem" => format!("{left} % {right}: {}", self.remainder),
            "div_scalar" => format!("{left} ÷ one {right}: {}", self.dividend),
            "rem_scalar" => format!("{left} % one {right}: {}", self.remainder),
            "neg" => format!("−({left}), precision checked: no row overflows"),
            other => panic!("no label for {other}"),
        };
        with_nulls_label(label, with_nulls)
    }
}

/// `label`, and whether every tenth row is null.
fn with_nulls_label(label: String, with_nulls: bool) -> String {
    if with_nulls { format!("{label}; every tenth row null") } else { label }
}

/// Money over a factor: every intermediate fits 64 bits.
const MONEY_FACTOR_64: Labels = Labels {
    left: "money ±<10^12 (40 bits)",
    right: "factor ±<10^6 (20 bits)",
    sum: "results <2^41 — favourable: fits i64",
    product: "products <10^18 (60 bits) — favourable: fits i64",
    dividend: "dividends ·10^6 <10^18 (60 bits) — favourable: fits i64",
    remainder: "dividends unscaled (40 bits) — favourable: fits i64",
};

/// Money over a factor at scale 10, where a quotient's scale (14) takes the
/// dividends past 64 bits.
const MONEY_FACTOR_38_10: Labels = Labels {
    dividend: "dividends ·10^14 <10^26 (87 bits) — not favourable: beyond i64",
    ..MONEY_FACTOR_64
};

/// Money over money in `Decimal256`.
const MONEY_MONEY_256: Labels = Labels {
    left: "money ±<10^12 (40 bits)",
    right: "money ±<10^12 (40 bits)",
    sum: "results <2^41 — favourable: fits i64",
    product: "products <10^24 (80 bits) — not favourable: beyond i64",
    dividend: "dividends ·10^6 <10^18 (60 bits) — favourable: fits i64",
    remainder: "dividends unscaled (40 bits) — favourable: fits i64",
};

/// About 40 digits over about 38.
const WIDE: Labels = Labels {
    left: "40 digits ±[10^39, 10^40) (130-133 bits)",
    right: "38 digits ±[10^37, 10^38) (123-127 bits)",
    sum: "results <2^134 — not favourable: 256 bits",
    product: "(not a case)",
    dividend: "dividends ·10^14 <10^54 (180 bits), quotients <10^17 — not favourable: 256 bits",
    remainder: "(not a case)",
};

/// Money at scale 10 times a rate at scale 10: products past 64 bits.
const MONEY_RATE_38_10: Labels = Labels {
    left: "money ±<10^19 (64 bits)",
    right: "rate ±<10^11 (37 bits)",
    sum: "(not a case)",
    product: "products <10^30 (100 bits) — not favourable: beyond i64",
    dividend: "(not a case)",
    remainder: "(not a case)",
};

fn arrow_op(
    op: BinaryOp,
) -> fn(&dyn Datum, &dyn Datum) -> Result<ArrayRef, arrow_schema::ArrowError> {
    match op {
        BinaryOp::Add => numeric::add,
        BinaryOp::Sub => numeric::sub,
        BinaryOp::Mul => numeric::mul,
        BinaryOp::Div => numeric::div,
        BinaryOp::Rem => numeric::rem,
        other => panic!("arrow-arith has no kernel for {other}"),
    }
}

fn arrow_unary_op(op: UnaryOp) -> fn(&dyn Array) -> Result<ArrayRef, arrow_schema::ArrowError> {
    match op {
        UnaryOp::Neg => numeric::neg,
        other => panic!("arrow-arith has no kernel for {other}"),
    }
}

/// An Arrow-profile case: two columns of one Arrow decimal type; `scalar`:
/// also the left column ÷ and % one value (the right column's row 1);
/// `unary_ops` on the left column. Each case's label comes from `labels`,
/// noting nulls when the left column has any.
fn arrow_case<T: ArrowDecimal>(
    name: &str,
    labels: &Labels,
    width: StorageWidth,
    (lhs, rhs): (PrimitiveArray<T>, PrimitiveArray<T>),
    ops: &[BinaryOp],
    scalar: bool,
    unary_ops: &[UnaryOp],
) where
    T::Native: DecimalNative,
{
    let len = lhs.len();
    let with_nulls = lhs.nulls().is_some();
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
        let case = format!("{op:?}").to_lowercase();
        bench_pair(name, &case, len, &labels.of(&case, with_nulls), pair);
    }
    if scalar {
        let divisor = rhs.slice(1, 1);
        let value = DecimalScalar::from_stored(b.dtype(), b.values().get(1).unwrap()).unwrap();
        for op in [BinaryOp::Div, BinaryOp::Rem] {
            let (a, l, divisor, value) = (a.clone(), lhs.clone(), divisor.clone(), value.clone());
            let f = arrow_op(op);
            let pair = Pair {
                ours: Box::new(move || binary(op, &a, &value, &opts).unwrap()),
                arrow: Box::new(move || f(&l, &Scalar::new(divisor.clone())).unwrap()),
            };
            let case = format!("{op:?}_scalar").to_lowercase();
            bench_pair(name, &case, len, &labels.of(&case, with_nulls), pair);
        }
    }
    for &op in unary_ops {
        let (a, l) = (a.clone(), lhs.clone());
        let f = arrow_unary_op(op);
        let pair = Pair {
            ours: Box::new(move || unary(op, &a, &opts).unwrap()),
            arrow: Box::new(move || f(&l).unwrap()),
        };
        let case = format!("{op:?}").to_lowercase();
        bench_pair(name, &case, len, &labels.of(&case, with_nulls), pair);
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

/// Money-like values at scale 10 for products past 64 bits: below 10^19 as
/// stored integers (~64 bits).
const MONEY_19: u128 = 10_u128.pow(19);
/// A rate at scale 10 below 10 in value: below 10^11 as stored integers
/// (~37 bits); with `MONEY_19`, products below 10^30 (~100 bits).
const RATE_11: u128 = 10_u128.pow(11);

fn arrow_profile() {
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
        arrow_case(
            &format!("d64_15_2{suffix}"),
            &MONEY_FACTOR_64,
            StorageWidth::I64,
            pair(rng),
            &all,
            false,
            &[],
        );
        let pair = |rng: &mut Rng, p, s| {
            (
                money::<Decimal128Type>(rng, MONEY, len, p, s, with_nulls, |v| v),
                money::<Decimal128Type>(rng, FACTOR, len, p, s, with_nulls, |v| v),
            )
        };
        arrow_case(
            &format!("d128_15_2{suffix}"),
            &MONEY_FACTOR_64,
            StorageWidth::I128,
            pair(rng, 15, 2),
            &all,
            true,
            &[],
        );
        arrow_case(
            &format!("d128_38_10{suffix}"),
            &MONEY_FACTOR_38_10,
            StorageWidth::I128,
            pair(rng, 38, 10),
            &all,
            true,
            &[UnaryOp::Neg],
        );
        let wide = |rng: &mut Rng, p, s| {
            money::<Decimal256Type>(rng, MONEY, len, p, s, with_nulls, i256::from_i128)
        };
        arrow_case(
            &format!("d256_40_2{suffix}"),
            &MONEY_MONEY_256,
            StorageWidth::I256,
            (wide(rng, 40, 2), wide(rng, 40, 2)),
            &all,
            true,
            &[],
        );
        let digits = |rng: &mut Rng, p, s, d| {
            let values = (0..len).map(|_| rng.digits(d)).collect();
            arrow_column::<Decimal256Type>(values, p, s, nulls(len, with_nulls))
        };
        let wide_pair = (digits(rng, 60, 10, 40), digits(rng, 40, 10, 38));
        arrow_case(
            &format!("d256_60_10_by_40_10{suffix}"),
            &WIDE,
            StorageWidth::I256,
            wide_pair,
            &[BinaryOp::Add, BinaryOp::Sub, BinaryOp::Div],
            false,
            &[],
        );
        let money_rate = (
            money::<Decimal128Type>(rng, MONEY_19, len, 38, 10, with_nulls, |v| v),
            money::<Decimal128Type>(rng, RATE_11, len, 38, 10, with_nulls, |v| v),
        );
        arrow_case(
            &format!("d128_38_10_money_rate{suffix}"),
            &MONEY_RATE_38_10,
            StorageWidth::I128,
            money_rate,
            &[BinaryOp::Mul],
            false,
            &[],
        );
    }
}

/// A rate at scale 2 for FixedPoint products past 64 bits: below 10^8 as
/// stored integers (~27 bits); with money, products below 10^20 (~67 bits).
const RATE_8: u128 = 10_u128.pow(8);

/// FixedPoint HalfUp multiply at `(38,2)` against
/// `multiply_fixed_point_checked`, which rounds half away from zero as
/// HalfUp does, ties of either sign included (arrow-arith's
/// `divide_and_round`): money × factor (products within 60 bits) and money ×
/// rate (products of ~67 bits); then ours on the second against ours on the
/// first.
fn fixed_point_multiply() {
    for (len, with_nulls) in sizes() {
        let suffix = if with_nulls { "_nulls" } else { "" };
        let rng = &mut Rng(0x9e37_79b9_7f4a_7c15 ^ len as u64);
        let lhs = money::<Decimal128Type>(rng, MONEY, len, 38, 2, with_nulls, |v| v);
        let rhs = money::<Decimal128Type>(rng, FACTOR, len, 38, 2, with_nulls, |v| v);
        let rates = money::<Decimal128Type>(rng, RATE_8, len, 38, 2, with_nulls, |v| v);
        let opts = ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp);
        let (a, b, r) = (ours(&lhs), ours(&rhs), ours(&rates));
        let favourable = with_nulls_label(
            "money ±<10^12 (40 bits) × factor ±<10^6 (20 bits), scale 4 to 2 half up: \
             products <10^18 (60 bits) — favourable: fits i64"
                .to_owned(),
            with_nulls,
        );
        let money_rate = with_nulls_label(
            "money ±<10^12 (40 bits) × rate ±<10^8 (27 bits), scale 4 to 2 half up: \
             products <10^20 (67 bits) — not favourable: beyond i64"
                .to_owned(),
            with_nulls,
        );
        for (group, label, right, arrow_right) in [
            ("fixed_38_2_half_up", &favourable, &b, &rhs),
            ("fixed_38_2_half_up_money_rate", &money_rate, &r, &rates),
        ] {
            let (a, right, l, arrow_right) =
                (a.clone(), right.clone(), lhs.clone(), arrow_right.clone());
            let pair = Pair {
                ours: Box::new(move || binary(BinaryOp::Mul, &a, &right, &opts).unwrap()),
                arrow: Box::new(move || {
                    Arc::new(multiply_fixed_point_checked(&l, &arrow_right, 2).unwrap()) as ArrayRef
                }),
            };
            bench_pair(&format!("{group}{suffix}"), "mul", len, label, pair);
        }
        // Our time on ~67-bit products against ours on 60-bit ones (both
        // checked against arrow above): the cost of leaving 64 bits.
        let group = format!("fixed_38_2_half_up_money_rate{suffix}");
        let label = with_nulls_label(
            "ours on money × rate (products <10^20, 67 bits) against ours on money × \
             factor (products <10^18, 60 bits): the peer is our favourable case"
                .to_owned(),
            with_nulls,
        );
        let case = Case {
            group: &group,
            case: "mul_vs_favourable",
            rows: len,
            distribution: &label,
            peer: "ours_favourable",
        };
        harness::compare(
            &case,
            // Different columns, different products: nothing to compare.
            |_, _| {},
            || binary(BinaryOp::Mul, &a, &r, &opts).unwrap(),
            || binary(BinaryOp::Mul, &a, &b, &opts).unwrap(),
        );
    }
}

/// The sizes timed against a plain loop: those without nulls.
fn limit_sizes() -> impl Iterator<Item = usize> {
    sizes().into_iter().filter(|&(_, with_nulls)| !with_nulls).map(|(len, _)| len)
}

/// Our call against a plain loop over the same `i128` buffers that allocates
/// its output, the machine's limit for the operator; first checked to give
/// the same values.
fn bench_limit<T: DecimalNative>(
    case: &Case<'_>,
    ours: impl Fn() -> DecimalArray,
    plain: impl Fn() -> ScalarBuffer<T>,
) {
    let name = case.id();
    let check = |got: DecimalArray, want: ScalarBuffer<T>| {
        assert_eq!(got.rows(), want.len(), "{name}: length");
        for (i, &v) in want.iter().enumerate() {
            assert_eq!(got.row(i), Some(v.to_i256()), "{name}: row {i}");
        }
    };
    harness::compare(case, check, ours, plain);
}

/// The machine's limit for add: a plain wrapping loop that allocates its output.
fn wrapping_add_limit() {
    for len in limit_sizes() {
        let rng = &mut Rng(7 ^ len as u64);
        let lhs = money::<Decimal128Type>(rng, MONEY, len, 15, 2, false, |v| v);
        let rhs = money::<Decimal128Type>(rng, FACTOR, len, 15, 2, false, |v| v);
        let (a, b) = (ours(&lhs), ours(&rhs));
        let opts = ArithmeticOptions::arrow(StorageWidth::I128);
        let (x, y) = (lhs.values().clone(), rhs.values().clone());
        bench_limit(
            &Case {
                group: "d128_15_2_add_limit",
                case: "add",
                rows: len,
                distribution: &MONEY_FACTOR_64.of("add", false),
                peer: "wrapping_loop",
            },
            || binary(BinaryOp::Add, &a, &b, &opts).unwrap(),
            || {
                ScalarBuffer::from(
                    x.iter().zip(y.iter()).map(|(p, q)| p.wrapping_add(*q)).collect::<Vec<_>>(),
                )
            },
        );
        // The same for money stored as `i256`: the floor of a Decimal256 add.
        let wide =
            |rng: &mut Rng| money::<Decimal256Type>(rng, MONEY, len, 40, 2, false, i256::from_i128);
        let (lhs, rhs) = (wide(rng), wide(rng));
        let (a, b) = (ours(&lhs), ours(&rhs));
        let opts = ArithmeticOptions::arrow(StorageWidth::I256);
        let (x, y) = (lhs.values().clone(), rhs.values().clone());
        bench_limit(
            &Case {
                group: "d256_40_2_add_limit",
                case: "add",
                rows: len,
                distribution: &MONEY_MONEY_256.of("add", false),
                peer: "wrapping_loop",
            },
            || binary(BinaryOp::Add, &a, &b, &opts).unwrap(),
            || {
                ScalarBuffer::from(
                    x.iter().zip(y.iter()).map(|(p, q)| p.wrapping_add(*q)).collect::<Vec<_>>(),
                )
            },
        );
    }
}

/// The machine's limit for neg of a column with a declared precision (which
/// no negation overflows): a plain wrapping loop that allocates its output.
fn wrapping_neg_limit() {
    for len in limit_sizes() {
        let rng = &mut Rng(11 ^ len as u64);
        let column = money::<Decimal128Type>(rng, MONEY, len, 38, 10, false, |v| v);
        let a = ours(&column);
        let opts = ArithmeticOptions::arrow(StorageWidth::I128);
        let x = column.values().clone();
        bench_limit(
            &Case {
                group: "d128_38_10_neg_limit",
                case: "neg",
                rows: len,
                distribution: &MONEY_FACTOR_64.of("neg", false),
                peer: "wrapping_loop",
            },
            || unary(UnaryOp::Neg, &a, &opts).unwrap(),
            || ScalarBuffer::from(x.iter().map(|v| v.wrapping_neg()).collect::<Vec<_>>()),
        );
    }
}

/// Money at scale 4: below 10^14 as stored integers (10 integer digits).
const MONEY_4: u128 = 10_u128.pow(14);

/// A cast of an Arrow decimal column to `to`, stored at `width`: ours
/// through `decimal_kernels::arrow::cast`, the drop-in for
/// `arrow_cast::cast_with_options`, against `arrow_cast::cast`, both with the
/// default options (a null where a value overflows, digits dropped rounding
/// half away from zero).
fn rescale_case<T: ArrowDecimal>(
    name: &str,
    label: &str,
    column: PrimitiveArray<T>,
    to: DecimalType,
    width: StorageWidth,
) {
    let len = column.len();
    let to_type = decimal_kernels::arrow::data_type(to, width);
    let column: ArrayRef = Arc::new(column);
    let (source, target) = (column.clone(), to_type.clone());
    let pair = Pair {
        ours: Box::new(move || {
            let options = arrow_cast::CastOptions::default();
            decimal_kernels::arrow::cast(source.as_ref(), &target, &options).unwrap()
        }),
        arrow: Box::new(move || arrow_cast::cast(column.as_ref(), &to_type).unwrap()),
    };
    bench_pair(name, "rescale", len, label, pair);
}

fn rescale_casts() {
    let to = |p, s| DecimalType::try_new(p, s).unwrap();
    for (len, with_nulls) in sizes() {
        let suffix = if with_nulls { "_nulls" } else { "" };
        let label = |storage: &str| {
            with_nulls_label(
                format!(
                    "money at scale 4 ±<10^14 (47 bits) stored in {storage}, 1% ties, \
                     ÷10^2 half up — favourable: fits i64"
                ),
                with_nulls,
            )
        };
        let rng = &mut Rng(0x6a09_e667_f3bc_c909 ^ len as u64);
        let narrow = money::<Decimal128Type>(rng, MONEY_4, len, 15, 4, with_nulls, |v| v);
        let name = format!("d128_15_4_to_d128_15_2_half_up{suffix}");
        rescale_case(&name, &label("i128"), narrow, to(15, 2), StorageWidth::I128);
        let wide = money::<Decimal256Type>(rng, MONEY_4, len, 40, 4, with_nulls, i256::from_i128);
        let name = format!("d256_40_4_to_d128_38_2_half_up{suffix}");
        rescale_case(&name, &label("i256"), wide, to(38, 2), StorageWidth::I128);
        // Raising the scale: money at scale 2, digits appended.
        let raised = |label: &str| {
            with_nulls_label(format!("money ±<10^12 (40 bits) stored in {label}"), with_nulls)
        };
        let money_128 = money::<Decimal128Type>(rng, MONEY, len, 15, 2, with_nulls, |v| v);
        rescale_case(
            &format!("d128_15_2_to_d128_18_4{suffix}"),
            &raised("i128, ×10^2: results <10^14 (47 bits) — favourable: fits i64"),
            money_128.clone(),
            to(18, 4),
            StorageWidth::I128,
        );
        let money_64 = money::<Decimal64Type>(rng, MONEY, len, 15, 2, with_nulls, |v| v as i64);
        rescale_case(
            &format!("d64_15_2_to_d128_38_10{suffix}"),
            &raised("i64, ×10^8 into i128: results <10^20 (67 bits) — not favourable: beyond i64"),
            money_64,
            to(38, 10),
            StorageWidth::I128,
        );
        rescale_case(
            &format!("d128_15_2_to_d256_40_6{suffix}"),
            &raised("i128, ×10^4 into i256: results <10^16 (54 bits) — favourable: fits i64"),
            money_128,
            to(40, 6),
            StorageWidth::I256,
        );
    }
}

/// Spark's money × rate at `decimal(38,18)`: money below 10^12 in value,
/// stored below 10^30 (~100 bits).
const SPARK_MONEY: u128 = 10_u128.pow(30);
/// A rate between -10 and 10 with 18 fraction digits, stored below 10^19
/// (~63 bits): with money, products of ~163 bits.
const SPARK_RATE: u128 = 10_u128.pow(19);
/// The favourable left column, below 10 in value, stored below 10^19: with
/// a rate, products below 10^38, within 127 bits.
const SPARK_SMALL: u128 = 10_u128.pow(19);

/// `v / divisor` truncated toward zero and its remainder (of the sign of
/// `v`), with one division.
#[cfg(feature = "arrow_60")]
fn div_rem(v: i256, divisor: i256) -> (i256, i256) {
    v.wrapping_div_rem(divisor)
}

/// `v / divisor` truncated toward zero and its remainder (of the sign of
/// `v`), with one division: arrow 59's `i256` has no `wrapping_div_rem`.
#[cfg(not(feature = "arrow_60"))]
fn div_rem(v: i256, divisor: i256) -> (i256, i256) {
    let q = v.wrapping_div(divisor);
    (q, v.wrapping_sub(q.wrapping_mul(divisor)))
}

/// Stored values `drop` digits finer than the target scale, rounded half away
/// from zero to it (Spark's HALF_UP) with `i256` arithmetic; `None`, a null
/// row, past 38 digits. The rescale of arrow-cast's decimal cast, without
/// depending on arrow-cast.
fn round_half_up_to_38_digits(drop: u32) -> impl Fn(i256) -> Option<i128> {
    let divisor = i256::from_i128(10).wrapping_pow(drop);
    let half = divisor.wrapping_div(i256::from_i128(2));
    let max = i256::from_i128(10_i128.pow(38) - 1);
    move |v| {
        let (q, rem) = div_rem(v, divisor);
        let q = if rem.wrapping_abs() >= half { q.wrapping_add(v.signum()) } else { q };
        if q.wrapping_abs() > max { None } else { q.to_i128() }
    }
}

/// `lhs op rhs` for two `Decimal128(38,18)` columns at Spark's
/// `Decimal128(38,6)`, as arrow-rs gets there: widen both to
/// `Decimal256(38,18)` (an `i128` product needs up to 77 digits),
/// `numeric::mul` (scale 36) or `numeric::div` (scale 22, truncated), then
/// round half up to scale 6. Truncating at scale 22 and then rounding at 6
/// rounds the exact quotient once, as the half point is exact at scale 22.
fn arrow_spark(
    op: BinaryOp,
    lhs: &PrimitiveArray<Decimal128Type>,
    rhs: &PrimitiveArray<Decimal128Type>,
) -> ArrayRef {
    use arrow_array::cast::AsArray;
    let widen = |a: &PrimitiveArray<Decimal128Type>| {
        a.unary::<_, Decimal256Type>(i256::from_i128).with_precision_and_scale(38, 18).unwrap()
    };
    let (l, r) = (widen(lhs), widen(rhs));
    let wide = arrow_op(op)(&l, &r).unwrap();
    let (_, scale) = decimal_parts(wide.data_type());
    let drop = u32::try_from(scale - 6).unwrap();
    let rounded = wide
        .as_primitive::<Decimal256Type>()
        .unary_opt::<_, Decimal128Type>(round_half_up_to_38_digits(drop));
    Arc::new(rounded.with_precision_and_scale(38, 6).unwrap())
}

/// A Spark-profile case: mul and div of two `Decimal128(38,18)` columns,
/// through the Arrow-facing call an engine makes.
fn spark_case(
    name: &str,
    labels: [String; 2],
    (lhs, rhs): (PrimitiveArray<Decimal128Type>, PrimitiveArray<Decimal128Type>),
) {
    let len = lhs.len();
    let opts = ArithmeticOptions::spark();
    for (op, label) in [BinaryOp::Mul, BinaryOp::Div].into_iter().zip(labels) {
        let (a, b, l, r) = (lhs.clone(), rhs.clone(), lhs.clone(), rhs.clone());
        let pair = Pair {
            ours: Box::new(move || decimal_kernels::arrow::binary(op, &a, &b, &opts).unwrap()),
            arrow: Box::new(move || arrow_spark(op, &l, &r)),
        };
        bench_pair(name, &format!("{op:?}").to_lowercase(), len, &label, pair);
    }
}

fn spark_profile() {
    for (len, with_nulls) in sizes() {
        let suffix = if with_nulls { "_nulls" } else { "" };
        let labels = |mul: &str, div: &str| {
            [mul, div].map(|label| with_nulls_label(label.to_owned(), with_nulls))
        };
        let rng = &mut Rng(0x5851_f42d_4c95_7f2d ^ len as u64);
        let mut column = |max| money::<Decimal128Type>(rng, max, len, 38, 18, with_nulls, |v| v);
        // Money × rate: products ~163 bits (the rates are never zero).
        let money_rate = (column(SPARK_MONEY), column(SPARK_RATE));
        let money_rate_labels = labels(
            "money ±<10^30 (100 bits) × rate ±<10^19 (64 bits), scale 36 to 6 half up: \
             products <10^49 (163 bits) — not favourable: beyond 128 bits",
            "money ±<10^30 (100 bits) ÷ rate ±<10^19 (64 bits) at scale 6 half up: \
             dividends ·10^6 <10^36 (120 bits; arrow's ·10^22, 173 bits) — not favourable: \
             beyond i64",
        );
        spark_case(&format!("spark_d128_38_18{suffix}"), money_rate_labels, money_rate);
        // Favourable: products within 127 bits.
        let small_rate = (column(SPARK_SMALL), column(SPARK_RATE));
        let small_rate_labels = labels(
            "small ±<10^19 (64 bits) × rate ±<10^19 (64 bits), scale 36 to 6 half up: \
             products <10^38 (127 bits) — favourable: fits i128",
            "small ±<10^19 (64 bits) ÷ rate ±<10^19 (64 bits) at scale 6 half up: \
             dividends ·10^6 <10^25 (84 bits; arrow's ·10^22, 137 bits) — favourable: fits i128",
        );
        spark_case(&format!("spark_d128_38_18_narrow{suffix}"), small_rate_labels, small_rate);
    }
}

fn main() {
    harness::start();
    arrow_profile();
    fixed_point_multiply();
    wrapping_add_limit();
    wrapping_neg_limit();
    rescale_casts();
    round::round_to_two_digits();
    spark_profile();
    aggregates::whole_column();
    aggregates::grouped_sums();
    minmax::whole_column();
    minmax::grouped_min();
    numeric_casts::numeric_casts();
    compare::same_type();
    compare::mixed_types();
    reuse::recycled_arrow_profile();
    reuse::recycled_fixed_point_multiply();
    text_casts::text_casts();
    harness::finish();
}
