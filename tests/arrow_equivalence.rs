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

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use arrow_array::{Array, ArrayRef, Datum, Scalar};
use arrow_buffer::i256;
use arrow_schema::{ArrowError, DataType};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalScalar, DecimalType, Operand,
    StorageWidth, result_type,
};
use rstest::rstest;
use support::outcomes::{Call, Outcome, arrow_arith, arrow_kernel, assert_same_outcome};
use support::types::{checked_column, dec, max_stored};
use support::values::{Kind, Mix, Rng};

/// Rows compared per width and operator, at least.
const MIN_ROWS: usize = 100_000;

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
}

/// A random operand type: precision up to the width's maximum (sometimes the
/// maximum itself), scale mostly `0..=p`, sometimes slightly negative.
fn random_type(rng: &mut Rng, width: Width) -> DecimalType {
    let max = i64::from(width.max);
    let p = if rng.percent(15) { max } else { rng.range(1, max) };
    let s = if rng.percent(10) { rng.range(-5, -1) } else { rng.range(0, p) };
    dec(u8::try_from(p).unwrap(), i8::try_from(s).unwrap())
}

/// How a batch's values are drawn.
#[derive(Clone, Copy)]
struct Batch {
    /// Percent of rows taking an edge value (one unit, the value 1, the
    /// maximum, a tie, and zero when `zeros`).
    edges: u32,
    /// Percent of null rows.
    nulls: u32,
    /// Whether zero is among the edge values of valid rows.
    zeros: bool,
}

/// The kinds of one column of a batch: edge values at the batch's rate, the
/// rest `random`.
fn kinds(batch: Batch, random: Kind) -> Vec<(Kind, u32)> {
    let mut edges = vec![Kind::Unit, Kind::One, Kind::Max, Kind::Tie];
    if batch.zeros {
        edges.push(Kind::Zero);
    }
    let count = u32::try_from(edges.len()).unwrap();
    let mut kinds: Vec<(Kind, u32)> = edges.into_iter().map(|k| (k, batch.edges)).collect();
    kinds.push((random, (100 - batch.edges) * count));
    kinds
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

    /// The side as this crate's operands: the array, and (for a scalar side)
    /// its one row as a scalar, null when that row is.
    fn decimals(&self) -> Decimals {
        let array = DecimalArray::from_arrow(self.array.as_ref()).unwrap();
        let scalar = if array.null_count() > 0 {
            DecimalScalar::null(array.dtype())
        } else {
            array.scalar(0).unwrap_or_else(|| DecimalScalar::null(array.dtype()))
        };
        Decimals { array, scalar, is_scalar: self.scalar }
    }
}

/// One side converted to this crate's types.
struct Decimals {
    array: DecimalArray,
    scalar: DecimalScalar,
    is_scalar: bool,
}

impl Decimals {
    fn operand(&self) -> Operand<'_> {
        if self.is_scalar { Operand::Scalar(&self.scalar) } else { Operand::Array(&self.array) }
    }
}

/// An Arrow result as this crate's outcome (the errors are told apart by
/// kind, below).
fn decimals_of(result: &ArrayRef) -> Outcome {
    Ok(DecimalArray::from_arrow(result.as_ref()).unwrap())
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
    let one = |s| checked_column(dec(2, s), &[i256::ONE], &[true], StorageWidth::I32).to_arrow();
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
    let (l, r) = (lhs.datum(), rhs.datum());
    let got = arrow_kernel(op)(l.as_ref(), r.as_ref());
    let want = arrow_arith(op)(l.as_ref(), r.as_ref());
    let (l, r) = (lhs.decimals(), rhs.decimals());
    let call = Call::new(op, l.operand(), r.operand(), &ArithmeticOptions::arrow(width.storage))
        .in_context(format!(
            "{} (scalar: {}) {op} {} (scalar: {})",
            lhs.array.data_type(),
            lhs.scalar,
            rhs.array.data_type(),
            rhs.scalar
        ));
    if op == BinaryOp::Div
        && div_precision_raised(width, l.array.dtype(), r.array.dtype())
        && arrow59_div_precision()
    {
        check_against_reference(&call, width, &got);
        tally.arrow59_div_types += 1;
        tally.rows += row_count(lhs, rhs);
        return;
    }
    match &want {
        Err(ArrowError::InvalidArgumentError(_)) => {
            assert!(
                matches!(got, Err(ArrowError::InvalidArgumentError(_))),
                "{}: arrow rejects the types ({want:?}), ours gave {got:?}",
                call.describe()
            );
            tally.type_errors += 1;
        }
        Err(_) => {
            check_against_reference(&call, width, &got);
            tally.arrow_failed += 1;
            tally.rows += row_count(lhs, rhs);
        }
        Ok(expected) => {
            let expected_decimals = DecimalArray::from_arrow(expected.as_ref()).unwrap();
            let limit = max_stored(expected_decimals.dtype());
            let beyond = (0..expected.len()).any(|i| {
                let v = expected_decimals.values().get(i).unwrap();
                expected.is_valid(i) && (v > limit || v < limit.wrapping_neg())
            });
            tally.rows += expected.len();
            if beyond {
                assert!(
                    is_overflow(&got),
                    "{}: arrow's value exceeds its precision, ours gave {got:?}",
                    call.describe()
                );
                tally.beyond_precision += 1;
                return;
            }
            let got =
                got.unwrap_or_else(|e| panic!("{}: arrow gave a value, ours {e}", call.describe()));
            assert_eq!(got.data_type(), expected.data_type(), "{}", call.describe());
            assert_same_outcome(
                &call,
                ("decimal_kernels::arrow", &decimals_of(&got)),
                ("arrow-arith", &Ok(expected_decimals)),
            );
            tally.equal += expected.len();
        }
    }
}

fn row_count(lhs: &Side, rhs: &Side) -> usize {
    if lhs.scalar { rhs.array.len() } else { lhs.array.len() }
}

/// Where arrow failed: ours must be what the exact reference says.
#[track_caller]
fn check_against_reference(call: &Call<'_>, width: Width, got: &Result<ArrayRef, ArrowError>) {
    match (call.reference(), got) {
        (Ok(want), Ok(got)) => {
            let t =
                result_type(call.op, call.lhs.dtype(), call.rhs.dtype(), &call.options).unwrap();
            assert_eq!(
                got.data_type(),
                &width.data_type(t.precision(), t.scale()),
                "{}",
                call.describe()
            );
            assert_same_outcome(
                call,
                ("decimal_kernels::arrow", &decimals_of(got)),
                ("reference", &Ok(want)),
            );
        }
        (Err(DecimalError::Overflow { .. }), Err(ArrowError::ArithmeticOverflow(_)))
        | (Err(DecimalError::DivideByZero { .. }), Err(ArrowError::DivideByZero)) => {}
        (want, got) => panic!("{}: reference {want:?}, ours {got:?}", call.describe()),
    }
}

/// Runs random batches of `op` at `width` until `MIN_ROWS` rows are compared.
fn run(op: BinaryOp, storage: StorageWidth, seed: u64) -> Tally {
    let width = Width::of(storage);
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    while tally.rows < MIN_ROWS {
        let (t1, t2) = (random_type(&mut rng, width), random_type(&mut rng, width));
        let len = usize::try_from(rng.range(500, 1500)).unwrap();
        // A few extra rows at the front, sliced off.
        let offset = if rng.percent(30) { usize::try_from(rng.range(1, 9)).unwrap() } else { 0 };
        let batch = Batch {
            edges: rng.pick(&[0, 2, 10]),
            nulls: rng.pick(&[0, 5, 50]),
            // Zero divisors in valid rows fail the whole call: only sometimes.
            zeros: op != BinaryOp::Div || rng.percent(10),
        };
        // Values drawn: mostly at most half the precision, so most calls
        // succeed; a fifth of the columns any number of digits.
        let random_kind = |rng: &mut Rng| if rng.percent(20) { Kind::Digits } else { Kind::Short };
        let (k1, k2) = (random_kind(&mut rng), random_kind(&mut rng));
        let (l_scalar, r_scalar) = match rng.below(6) {
            0 => (true, false),
            1 => (false, true),
            _ => (false, false),
        };
        let side = |rng: &mut Rng, t: DecimalType, random: Kind, scalar: bool| {
            let rows = if scalar { 1 } else { len + offset };
            let null_percent = if scalar { rng.pick(&[0, 0, 0, 100]) } else { batch.nulls };
            let kinds = kinds(batch, random);
            let mix = Mix { kinds: &kinds, null_percent };
            let array = rng.rows(t, storage, rows, &mix).checked(t, storage).to_arrow();
            let array = if scalar { array } else { array.slice(offset, len) };
            Side { array, scalar }
        };
        let lhs = side(&mut rng, t1, k1, l_scalar);
        let rhs = side(&mut rng, t2, k2, r_scalar);
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
    let mut rng = Rng::new(0x7E57 ^ u64::from(width.max));
    let mut tally = Tally::default();
    for _ in 0..2_000 {
        let (t1, t2) = (random_type(&mut rng, width), random_type(&mut rng, width));
        let one = |t: DecimalType| Side {
            array: checked_column(t, &[i256::ONE], &[true], width.storage).to_arrow(),
            scalar: false,
        };
        compare(op, width, &one(t1), &one(t2), &mut tally);
    }
    if op == BinaryOp::Mul {
        assert!(tally.type_errors > 0, "{tally:?}");
    }
}
