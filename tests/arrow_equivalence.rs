//! `decimal_kernels::arrow::{add, sub, mul, div}` against
//! `arrow_arith::numeric` on random batches: for each Arrow width and operator,
//! batches of about a thousand rows of random operand types and values (edge
//! values included: 0, ±1, ±(10^p-1), ±10^s, ties; null rows hiding zeros and
//! extremes; sliced arrays; array ⊕ scalar and scalar ⊕ array).
//!
//! Row by row: where arrow returns a value within its result precision, ours is
//! the same value of the same type; where arrow's value exceeds the precision,
//! ours fails with `ArithmeticOverflow`; where arrow fails, ours is what the
//! exact reference (`conformance::reference`) says: the value when it fits, the
//! same kind of failure otherwise; where arrow rejects the types, so do we.

#![cfg(feature = "arrow")]

include!("support/arrow_crates.rs");

use std::sync::Arc;

use arrow_array::types::{Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type};
use arrow_array::{Array, ArrayRef, Datum, PrimitiveArray, Scalar};
use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use arrow_schema::{ArrowError, DataType};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalScalar, DecimalType, Operand, StorageWidth,
    conformance, result_type,
};
use rstest::rstest;

/// Rows compared per width and operator, at least.
const MIN_ROWS: usize = 100_000;

type ArrowFn = fn(&dyn Datum, &dyn Datum) -> Result<ArrayRef, ArrowError>;

/// SplitMix64: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = u64::try_from(hi - lo).unwrap() + 1;
        lo + i64::try_from(self.next() % span).unwrap()
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// A random `i256` with up to `digits` decimal digits and a random sign.
    fn digits(&mut self, digits: u32) -> i256 {
        let raw = i256::from_parts(
            u128::from(self.next()) | (u128::from(self.next()) << 64),
            i128::from(self.next() >> 1) | (i128::from(self.next()) << 64 >> 1),
        );
        let v = raw.wrapping_abs().wrapping_rem(pow10(digits).max(i256::ONE));
        if self.chance(50) { v.wrapping_neg() } else { v }
    }
}

fn pow10(exp: u32) -> i256 {
    i256::from_i128(10).wrapping_pow(exp)
}

/// The Arrow width under test and its most digits.
#[derive(Clone, Copy, Debug)]
struct Width {
    storage: StorageWidth,
    max: u8,
}

impl Width {
    fn of(storage: StorageWidth) -> Self {
        Self { storage, max: storage.max_precision() }
    }

    fn data_type(self, p: u8, s: i8) -> DataType {
        match self.storage {
            StorageWidth::I32 => DataType::Decimal32(p, s),
            StorageWidth::I64 => DataType::Decimal64(p, s),
            StorageWidth::I128 => DataType::Decimal128(p, s),
            _ => DataType::Decimal256(p, s),
        }
    }

    /// An Arrow array of this width over `values` and `valid`.
    #[track_caller]
    fn array(self, t: DecimalType, values: &[i256], valid: &[bool]) -> ArrayRef {
        let nulls = Some(NullBuffer::from(valid.to_vec()));
        let dt = self.data_type(t.precision(), t.scale());
        match self.storage {
            StorageWidth::I32 => build::<Decimal32Type>(values, nulls, dt, |v| v.as_i128() as i32),
            StorageWidth::I64 => build::<Decimal64Type>(values, nulls, dt, |v| v.as_i128() as i64),
            StorageWidth::I128 => build::<Decimal128Type>(values, nulls, dt, |v| v.as_i128()),
            _ => build::<Decimal256Type>(values, nulls, dt, |v| v),
        }
    }
}

fn build<T: arrow_array::ArrowPrimitiveType>(
    values: &[i256],
    nulls: Option<NullBuffer>,
    data_type: DataType,
    native: impl Fn(i256) -> T::Native,
) -> ArrayRef {
    let values: ScalarBuffer<T::Native> = values.iter().map(|&v| native(v)).collect();
    Arc::new(PrimitiveArray::<T>::new(values, nulls).with_data_type(data_type))
}

/// A random operand type: precision up to the width's maximum (sometimes the
/// maximum itself), scale mostly `0..=p`, sometimes slightly negative.
fn random_type(rng: &mut Rng, width: Width) -> DecimalType {
    let max = i64::from(width.max);
    let p = if rng.chance(15) { max } else { rng.range(1, max) };
    let s = if rng.chance(10) { rng.range(-5, -1) } else { rng.range(0, p) };
    DecimalType::try_new(u8::try_from(p).unwrap(), i8::try_from(s).unwrap()).unwrap()
}

/// How a batch's values are drawn.
#[derive(Clone, Copy)]
struct Mix {
    /// Percent of rows taking an edge value.
    edges: u64,
    /// Percent of null rows.
    nulls: u64,
    /// Whether zero is among the edge values of valid rows.
    zeros: bool,
}

/// One column: random values of `t` with up to `digits` digits, edge values
/// and nulls (null rows hide zeros and extremes).
fn column(
    rng: &mut Rng,
    t: DecimalType,
    len: usize,
    digits: u32,
    mix: Mix,
) -> (Vec<i256>, Vec<bool>) {
    let p = u32::from(t.precision());
    let max = pow10(p).wrapping_sub(i256::ONE);
    let unit = if t.scale() >= 0 { pow10(t.scale().unsigned_abs().into()) } else { i256::ONE };
    let mut edges = vec![i256::ONE, i256::MINUS_ONE, max, max.wrapping_neg()];
    if unit <= max {
        edges.extend([unit, unit.wrapping_neg()]);
    }
    if t.scale() >= 1 {
        // 0.5 and -0.5, and 2.5: rounding ties.
        let half = pow10(u32::from(t.scale().unsigned_abs()) - 1).wrapping_mul(i256::from_i128(5));
        edges.extend([
            half,
            half.wrapping_neg(),
            half.wrapping_add(unit.wrapping_mul(i256::from_i128(2))),
        ]);
        edges.retain(|v| *v <= max && *v >= max.wrapping_neg());
    }
    if mix.zeros {
        edges.push(i256::ZERO);
    }
    let mut values = Vec::with_capacity(len);
    let mut valid = Vec::with_capacity(len);
    for _ in 0..len {
        let is_valid = !rng.chance(mix.nulls);
        let v = if !is_valid {
            // Whatever sits under a null must not matter.
            [i256::ZERO, max, max.wrapping_neg()][usize::try_from(rng.next() % 3).unwrap()]
        } else if rng.chance(mix.edges) {
            edges[usize::try_from(rng.next()).unwrap() % edges.len()]
        } else {
            let v = rng.digits(digits.min(p));
            if v == i256::ZERO && !mix.zeros { i256::ONE } else { v }
        };
        values.push(v);
        valid.push(is_valid);
    }
    (values, valid)
}

/// One side of a call: a (possibly sliced) array or a one-row scalar.
struct Side {
    array: ArrayRef,
    scalar: bool,
}

impl Side {
    /// The side as arrow-arith takes it: an array, or an arrow-array `Scalar`.
    fn datum(&self) -> Box<dyn Datum> {
        if self.scalar {
            Box::new(Scalar::new(self.array.clone()))
        } else {
            Box::new(self.array.clone())
        }
    }

    fn decimals(&self) -> DecimalArray {
        DecimalArray::from_arrow(self.array.as_ref()).unwrap()
    }
}

fn is_overflow(r: &Result<ArrayRef, ArrowError>) -> bool {
    matches!(r, Err(ArrowError::ArithmeticOverflow(_)))
}

/// What one batch contributed.
#[derive(Default, Debug)]
struct Tally {
    /// Rows compared in all.
    rows: usize,
    /// Rows where arrow returned an in-precision value and ours was equal.
    equal: usize,
    /// Calls where arrow's value exceeded its precision and ours overflowed.
    beyond_precision: usize,
    /// Calls where arrow failed and ours matched the reference.
    arrow_failed: usize,
    /// Calls whose types both rejected.
    type_errors: usize,
    /// Divisions whose result type arrow 59 computes differently from arrow
    /// 60 (and this crate), checked against the reference instead.
    arrow59_div_types: usize,
}

/// Whether the arrow-arith under test computes the precision of a quotient as
/// arrow 59 does, `min(p1 + s - s1 + s2, MAX)` without raising it to the
/// scale `s` (so rejecting `Decimal32(2,1) / Decimal32(2,-2)`, whose quotient
/// arrow 60 types `Decimal32(5,5)`).
fn arrow59_div_precision() -> bool {
    let one = |s| {
        Width::of(StorageWidth::I32).array(
            DecimalType::try_new(2, s).unwrap(),
            &[i256::ONE],
            &[true],
        )
    };
    arrow_arith::numeric::div(&one(1), &one(-2)).is_err()
}

/// Whether arrow 60 raises the precision of `lhs / rhs` to the result scale
/// (where arrow 59 differs).
fn div_precision_raised(width: Width, lhs: DecimalType, rhs: DecimalType) -> bool {
    let (p1, s1, s2) = (i32::from(lhs.precision()), i32::from(lhs.scale()), i32::from(rhs.scale()));
    let s = (s1 + 4).min(i32::from(width.max));
    p1 + s - s1 + s2 < s.max(1)
}

/// Compares one call; panics with the inputs on a difference.
#[track_caller]
fn compare(op: BinaryOp, width: Width, lhs: &Side, rhs: &Side, tally: &mut Tally) {
    let (ours, theirs): (ArrowFn, ArrowFn) = match op {
        BinaryOp::Add => (decimal_kernels::arrow::add, arrow_arith::numeric::add),
        BinaryOp::Sub => (decimal_kernels::arrow::sub, arrow_arith::numeric::sub),
        BinaryOp::Mul => (decimal_kernels::arrow::mul, arrow_arith::numeric::mul),
        BinaryOp::Div => (decimal_kernels::arrow::div, arrow_arith::numeric::div),
        other => panic!("no Arrow operator for {other}: add it here"),
    };
    let (l, r) = (lhs.datum(), rhs.datum());
    let got = ours(l.as_ref(), r.as_ref());
    let want = theirs(l.as_ref(), r.as_ref());
    let context = || {
        format!(
            "{op:?} {} (scalar: {}) {} (scalar: {})",
            lhs.array.data_type(),
            lhs.scalar,
            rhs.array.data_type(),
            rhs.scalar
        )
    };
    let (t1, t2) = (lhs.decimals().dtype(), rhs.decimals().dtype());
    if op == BinaryOp::Div && div_precision_raised(width, t1, t2) && arrow59_div_precision() {
        check_against_reference(op, width, lhs, rhs, &got, &context());
        tally.arrow59_div_types += 1;
        tally.rows += row_count(lhs, rhs);
        return;
    }
    match &want {
        Err(ArrowError::InvalidArgumentError(_)) => {
            assert!(
                matches!(got, Err(ArrowError::InvalidArgumentError(_))),
                "{}: arrow rejects the types ({want:?}), ours gave {got:?}",
                context()
            );
            tally.type_errors += 1;
        }
        Err(_) => {
            check_against_reference(op, width, lhs, rhs, &got, &context());
            tally.arrow_failed += 1;
            tally.rows += row_count(lhs, rhs);
        }
        Ok(expected) => {
            let expected_decimals = DecimalArray::from_arrow(expected.as_ref()).unwrap();
            let limit =
                pow10(u32::from(expected_decimals.dtype().precision())).wrapping_sub(i256::ONE);
            let beyond = (0..expected.len()).any(|i| {
                let v = expected_decimals.values().get(i).unwrap();
                expected.is_valid(i) && (v > limit || v < limit.wrapping_neg())
            });
            tally.rows += expected.len();
            if beyond {
                assert!(
                    is_overflow(&got),
                    "{}: arrow's value exceeds its precision, ours gave {got:?}",
                    context()
                );
                tally.beyond_precision += 1;
                return;
            }
            let got = got.unwrap_or_else(|e| panic!("{}: arrow gave a value, ours {e}", context()));
            assert_eq!(got.data_type(), expected.data_type(), "{}", context());
            let got_decimals = DecimalArray::from_arrow(got.as_ref()).unwrap();
            if got_decimals != expected_decimals {
                let diff = (0..expected.len())
                    .find(|&i| got_decimals.scalar(i) != expected_decimals.scalar(i))
                    .map(|i| {
                        format!(
                            "row {i}: {:?} op {:?}: arrow {:?}, ours {:?}",
                            lhs.decimals().scalar(if lhs.scalar { 0 } else { i }),
                            rhs.decimals().scalar(if rhs.scalar { 0 } else { i }),
                            expected_decimals.scalar(i),
                            got_decimals.scalar(i)
                        )
                    });
                panic!("{}: {diff:?}", context());
            }
            tally.equal += expected.len();
        }
    }
}

fn row_count(lhs: &Side, rhs: &Side) -> usize {
    if lhs.scalar { rhs.array.len() } else { lhs.array.len() }
}

fn operand<'a>(array: &'a DecimalArray, scalar: &'a DecimalScalar, is_scalar: bool) -> Operand<'a> {
    if is_scalar { Operand::Scalar(scalar) } else { Operand::Array(array) }
}

/// Where arrow failed: ours must be what the exact reference says.
#[track_caller]
fn check_against_reference(
    op: BinaryOp,
    width: Width,
    lhs: &Side,
    rhs: &Side,
    got: &Result<ArrayRef, ArrowError>,
    context: &str,
) {
    let (l, r) = (lhs.decimals(), rhs.decimals());
    let scalar_of = |a: &DecimalArray| {
        if a.null_count() > 0 { DecimalScalar::null(a.dtype()) } else { a.scalar(0).unwrap() }
    };
    let (ls, rs) = (scalar_of(&l), scalar_of(&r));

    let options = ArithmeticOptions::arrow(width.storage);
    let reference = conformance::reference(
        op,
        operand(&l, &ls, lhs.scalar),
        operand(&r, &rs, rhs.scalar),
        &options,
    );
    match (reference, got) {
        (Ok(want), Ok(got)) => {
            let t = result_type(op, l.dtype(), r.dtype(), &options).unwrap();
            assert_eq!(got.data_type(), &width.data_type(t.precision(), t.scale()), "{context}");
            assert_eq!(DecimalArray::from_arrow(got.as_ref()).unwrap(), want, "{context}");
        }
        (
            Err(decimal_kernels::DecimalError::Overflow { .. }),
            Err(ArrowError::ArithmeticOverflow(_)),
        )
        | (
            Err(decimal_kernels::DecimalError::DivideByZero { .. }),
            Err(ArrowError::DivideByZero),
        ) => {}
        (want, got) => panic!("{context}: reference {want:?}, ours {got:?}"),
    }
}

/// Runs random batches of `op` at `width` until `MIN_ROWS` rows are compared.
fn run(op: BinaryOp, storage: StorageWidth, seed: u64) -> Tally {
    let width = Width::of(storage);
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    while tally.rows < MIN_ROWS {
        let (t1, t2) = (random_type(&mut rng, width), random_type(&mut rng, width));
        let len = usize::try_from(rng.range(500, 1500)).unwrap();
        // A few extra rows at the front, sliced off.
        let offset = if rng.chance(30) { usize::try_from(rng.range(1, 9)).unwrap() } else { 0 };
        let mix = Mix {
            edges: [0, 2, 10][usize::try_from(rng.next() % 3).unwrap()],
            nulls: [0, 5, 50][usize::try_from(rng.next() % 3).unwrap()],
            // Zero divisors in valid rows fail the whole call: only sometimes.
            zeros: op != BinaryOp::Div || rng.chance(10),
        };
        // Digits drawn: mostly well inside the precision, so most calls succeed.
        let digits = |rng: &mut Rng, t: DecimalType| {
            let p = i64::from(t.precision());
            u32::try_from(if rng.chance(20) { p } else { rng.range(1, (p / 2).max(1)) }).unwrap()
        };
        let (d1, d2) = (digits(&mut rng, t1), digits(&mut rng, t2));
        let shape = rng.next() % 6;
        let side = |rng: &mut Rng, t: DecimalType, d: u32, scalar: bool| {
            let rows = if scalar { 1 } else { len + offset };
            let mix = Mix {
                nulls: if scalar {
                    [0, 0, 0, 100][usize::try_from(rng.next() % 4).unwrap()]
                } else {
                    mix.nulls
                },
                ..mix
            };
            let (values, valid) = column(rng, t, rows, d, mix);
            let array = width.array(t, &values, &valid);
            let array = if scalar { array } else { array.slice(offset, len) };
            Side { array, scalar }
        };
        let (l_scalar, r_scalar) = match shape {
            0 => (true, false),
            1 => (false, true),
            _ => (false, false),
        };
        let lhs = side(&mut rng, t1, d1, l_scalar);
        let rhs = side(&mut rng, t2, d2, r_scalar);
        compare(op, width, &lhs, &rhs, &mut tally);
    }
    tally
}

#[rstest]
fn matches_arrow_arith(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
    #[values(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div)] op: BinaryOp,
) {
    let seed = 0x5EED ^ (u64::from(width.max_precision()) << 8) ^ (op as u64);
    let tally = run(op, width, seed);
    println!("{width} {op:?}: {tally:?}");
    assert!(tally.rows >= MIN_ROWS, "{tally:?}");
    // Many rows are compared value for value, not only for a failure (arrow
    // 59 fails every Decimal32 division whose `10^(4 + s2)` exceeds i32).
    assert!(tally.equal * 4 >= tally.rows, "{tally:?}");
}

/// Result types and type errors over many type pairs, one row each.
#[rstest]
fn result_types_match_arrow_arith(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
    #[values(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div)] op: BinaryOp,
) {
    let width = Width::of(width);
    let mut rng = Rng(0x7E57 ^ u64::from(width.max));
    let mut tally = Tally::default();
    for _ in 0..2_000 {
        let (t1, t2) = (random_type(&mut rng, width), random_type(&mut rng, width));
        let one =
            |t: DecimalType| Side { array: width.array(t, &[i256::ONE], &[true]), scalar: false };
        compare(op, width, &one(t1), &one(t2), &mut tally);
    }
    if op == BinaryOp::Mul {
        assert!(tally.type_errors > 0, "{tally:?}");
    }
}
