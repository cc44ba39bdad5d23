//! `decimal_kernels::arrow::{add, sub, mul, div, rem}` against
//! `arrow_arith::numeric`, and `decimal_kernels::arrow::cast` against
//! `arrow_cast::cast_with_options`, on random batches of the selected arrow
//! major.
//!
//! Operators: for each Arrow width and operator, batches of about a thousand
//! rows of random operand types and values (edge values included: 0, ±1,
//! ±(10^p-1), ±10^s, ties; null rows hiding zeros and extremes; sliced arrays;
//! array ⊕ scalar and scalar ⊕ array). Row by row: where arrow returns a value
//! within its result precision, ours is the same value of the same type; where
//! arrow's value exceeds the precision, ours fails with `ArithmeticOverflow`;
//! where arrow fails, ours is what the exact reference
//! (`conformance::reference`) says: the value when it fits, the same kind of
//! failure otherwise; where arrow rejects the types, so do we.
//!
//! Casts: for each source width, batches of random decimal-to-decimal casts
//! (scale down with ties, scale up, the same scale with fewer digits, any
//! types; every target width; `safe` true and false): the same type, validity
//! and values, or the same error (variant and message).
//!
//! Where arrow is known not to be exact, the rows are checked against the
//! reference instead and counted apart, and a named test shows the
//! difference: a remainder whose operands arrow cannot align
//! (`rem_is_exact_where_arrow_cannot_align`), arrow-arith 59's wrapped
//! `10^k` (`rem_is_exact_where_arrow59_wraps_the_alignment_power`), a scale
//! raised beyond the target width (`cast_per_row_where_arrow_fails_a_rising_scale`),
//! values beyond their precision
//! (`cast_checks_the_precision_where_arrow_does_not`), and arrow-cast 59's
//! `i8` scale arithmetic (`cast_is_exact_where_arrow59_scale_arithmetic_overflows`).

#![cfg(feature = "arrow")]

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use std::panic::{AssertUnwindSafe, catch_unwind};

use arrow_array::{Array, ArrayRef, Datum, Scalar};
use arrow_buffer::i256;
use arrow_cast::CastOptions;
use arrow_schema::{ArrowError, DataType};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalScalar, DecimalType, Operand,
    OverflowPolicy, RoundingMode, StorageWidth, UnaryOp, conformance,
};
use rstest::rstest;
use support::outcomes::{
    Call, Outcome, arrow_arith, arrow_kernel, assert_same_outcome, differing_rows,
};
use support::types::{ARROW_WIDTHS, checked_column, dec, max_stored, pow10, unchecked_column};
use support::values::{Kind, Mix, Rng};

/// Rows compared value for value with arrow per width and operator (or cast
/// source width), at least.
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
    /// Calls where arrow failed and the reference (and ours) has a value:
    /// remainders whose operands arrow cannot align at the larger scale.
    arrow_failed_exact_fits: usize,
    /// Remainders whose alignment power `10^k` arrow-arith 59 wraps (beyond
    /// the width), checked against the reference instead.
    arrow59_rem_wrapped_powers: usize,
}

/// Whether the selected arrow major is 59.
const ARROW_59: bool = cfg!(all(feature = "arrow_59", not(feature = "arrow_60")));

/// Whether aligning `lhs % rhs` at the larger scale needs a power `10^k`
/// beyond the width (arrow-arith 60 fails the call on it, 59 wraps it).
fn rem_power_beyond_width(width: Width, lhs: DecimalType, rhs: DecimalType) -> bool {
    (i32::from(lhs.scale()) - i32::from(rhs.scale())).unsigned_abs() > u32::from(width.max)
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
    if op == BinaryOp::Rem
        && ARROW_59
        && rem_power_beyond_width(width, l.array.dtype(), r.array.dtype())
    {
        check_against_reference(&call, width, &got);
        tally.arrow59_rem_wrapped_powers += 1;
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
            if check_against_reference(&call, width, &got) {
                tally.arrow_failed_exact_fits += 1;
            }
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

/// Where arrow failed: ours must be what the exact reference says. Whether
/// the reference has a value.
#[track_caller]
fn check_against_reference(
    call: &Call<'_>,
    width: Width,
    got: &Result<ArrayRef, ArrowError>,
) -> bool {
    match (call.reference(), got) {
        (Ok(want), Ok(got)) => {
            let t = call.op.result_type(call.lhs.dtype(), call.rhs.dtype(), &call.options).unwrap();
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
            true
        }
        (Err(DecimalError::Overflow { .. }), Err(ArrowError::ArithmeticOverflow(_)))
        | (Err(DecimalError::DivideByZero { .. }), Err(ArrowError::DivideByZero)) => false,
        (want, got) => panic!("{}: reference {want:?}, ours {got:?}", call.describe()),
    }
}

/// Runs random batches of `op` at `width` until `MIN_ROWS` rows of arrow's
/// results are compared value for value.
fn run(op: BinaryOp, storage: StorageWidth, seed: u64) -> Tally {
    let width = Width::of(storage);
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    while tally.equal < MIN_ROWS {
        let (t1, t2) = (random_type(&mut rng, width), random_type(&mut rng, width));
        let len = usize::try_from(rng.range(500, 1500)).unwrap();
        // A few extra rows at the front, sliced off.
        let offset = if rng.percent(30) { usize::try_from(rng.range(1, 9)).unwrap() } else { 0 };
        let batch = Batch {
            edges: rng.pick(&[0, 2, 10]),
            nulls: rng.pick(&[0, 5, 50]),
            // Zero divisors in valid rows fail the whole call: only sometimes.
            zeros: !matches!(op, BinaryOp::Div | BinaryOp::Rem) || rng.percent(10),
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
    #[values(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Rem)]
    op: BinaryOp,
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
    #[values(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Rem)]
    op: BinaryOp,
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

/// The largest scale of `width`, its most digits.
fn max_scale(width: StorageWidth) -> i8 {
    i8::try_from(width.max_precision()).unwrap()
}

/// A remainder whose operands arrow-arith cannot align at the larger scale
/// (`123456789 * 10^max` overflows every width) fails the call there; the
/// remainder, `123456789 % 0.7 = 0.3` with the sign of the dividend, fits
/// its type and is returned here, as the reference gives it.
#[rstest]
fn rem_is_exact_where_arrow_cannot_align(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
) {
    let max = width.max_precision();
    let max_scale = max_scale(width);
    let lhs_values = [i256::from_i128(123_456_789), i256::from_i128(-123_456_789)];
    let lhs = checked_column(dec(max, 0), &lhs_values, &[true, true], width);
    let seven_tenths = pow10(max - 1).wrapping_mul(i256::from_i128(7));
    let rhs = checked_column(dec(max, max_scale), &[seven_tenths; 2], &[true, true], width);
    let (l, r) = (lhs.to_arrow(), rhs.to_arrow());
    let theirs = arrow_arith::numeric::rem(&l, &r);
    assert!(matches!(theirs, Err(ArrowError::ArithmeticOverflow(_))), "{theirs:?}");
    let ours = decimal_kernels::arrow::rem(&l, &r).unwrap();
    assert_eq!(ours.data_type(), &Width::of(width).data_type(max, max_scale));
    let three_tenths = pow10(max - 1).wrapping_mul(i256::from_i128(3));
    let ours = DecimalArray::from_arrow(ours.as_ref()).unwrap();
    assert_eq!(
        (ours.values().get(0), ours.values().get(1)),
        (Some(three_tenths), Some(three_tenths.wrapping_neg()))
    );
    let call = Call::new(BinaryOp::Rem, &lhs, &rhs, &ArithmeticOptions::arrow(width));
    assert_same_outcome(
        &call,
        ("decimal_kernels::arrow", &Ok(ours)),
        ("reference", &call.reference()),
    );
}

/// `1E+2 % 0.7` with the divisor at the width's largest scale: aligning the
/// dividend needs `10^(max + 2)`, beyond the width. arrow-arith 60 fails the
/// call on it; arrow-arith 59 computes the power with wrapping and returns a
/// wrong remainder (or fails). The remainder is 0.6.
#[rstest]
#[case::decimal32(StorageWidth::I32)]
#[case::decimal64(StorageWidth::I64)]
fn rem_is_exact_where_arrow59_wraps_the_alignment_power(#[case] width: StorageWidth) {
    let max = width.max_precision();
    let scale = max_scale(width);
    let hundred = checked_column(dec(2, -2), &[i256::ONE], &[true], width).to_arrow();
    let seven_tenths = pow10(max - 1).wrapping_mul(i256::from_i128(7));
    let divisor = checked_column(dec(max, scale), &[seven_tenths], &[true], width).to_arrow();
    let six_tenths = pow10(max - 1).wrapping_mul(i256::from_i128(6));
    let ours = decimal_kernels::arrow::rem(&hundred, &divisor).unwrap();
    assert_eq!(DecimalArray::from_arrow(ours.as_ref()).unwrap().values().get(0), Some(six_tenths));
    let theirs = arrow_arith::numeric::rem(&hundred, &divisor);
    if ARROW_59 {
        let theirs =
            theirs.ok().and_then(|r| DecimalArray::from_arrow(r.as_ref()).unwrap().values().get(0));
        assert_ne!(theirs, Some(six_tenths), "arrow-arith 59 now aligns exactly");
    } else {
        assert!(matches!(theirs, Err(ArrowError::ArithmeticOverflow(_))), "{theirs:?}");
    }
}

/// Whether a cast to `to` raises the scale by more digits than `to_width` has:
/// arrow-cast fails such a call whole, before any row, even under `safe`.
fn arrow_fails_rising_scale(from: DecimalType, to: DecimalType, to_width: Width) -> bool {
    i32::from(to.scale()) - i32::from(from.scale()) > i32::from(to_width.max)
}

/// Whether arrow-cast 59's `i8` scale arithmetic overflows on a cast from
/// `from` to `to`: the scale change beyond 127, or, where the change is
/// within the target width's powers, the source precision plus the change.
fn arrow59_scale_arithmetic_overflows(from: DecimalType, to: DecimalType, to_width: Width) -> bool {
    let change = i32::from(to.scale()) - i32::from(from.scale());
    let precision = i32::from(from.precision());
    ARROW_59
        && (change.abs() > 127
            || ((0..=i32::from(to_width.max)).contains(&change) && precision + change > 127))
}

/// What a cast is meant to exercise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Digits dropped from the scale, ties among the values.
    ScaleDown,
    /// Digits appended to the scale.
    ScaleUp,
    /// The same scale with a few digits fewer: the overflow check alone.
    SameScale,
    /// Any two types.
    Any,
}

/// What the casts from one source width contributed.
#[derive(Default, Debug)]
struct CastTally {
    /// Rows of arrow-cast's results compared with ours value for value.
    equal: usize,
    /// The same, by target width (`Decimal32` to `Decimal256`).
    by_target: [usize; 4],
    /// Calls by shape (as `Shape` lists them).
    by_shape: [usize; 4],
    /// Calls under `safe: false` compared value for value.
    unsafe_calls: usize,
    /// Valid source rows that became null in both (beyond the target).
    overflow_nulls: usize,
    /// Valid rows rounding a tie (the dropped digits 5 then zeros).
    ties: usize,
    /// Calls failing in both with the same error.
    same_error: usize,
    /// Calls arrow-cast fails whole on a rising scale, checked against the
    /// reference instead.
    arrow_rising_scale: usize,
    /// Calls arrow-cast 59's `i8` scale arithmetic overflows on, checked
    /// against the reference instead.
    arrow59_i8_scales: usize,
}

/// A type of `to_width` near `p` digits at scale `s` (clamped to its range).
fn clamped_type(p: i64, s: i64, to_width: Width) -> DecimalType {
    let max = i64::from(to_width.max);
    let s = s.clamp(-76, max);
    let p = p.clamp(s.max(1), max);
    dec(u8::try_from(p).unwrap(), i8::try_from(s).unwrap())
}

/// The target type of a cast of shape `shape` from `from`.
fn cast_target(rng: &mut Rng, from: DecimalType, to_width: Width, shape: Shape) -> DecimalType {
    let (p, s) = (i64::from(from.precision()), i64::from(from.scale()));
    // Mostly a few digits; sometimes many (a result of zeros, an overflow).
    let digits = |rng: &mut Rng| if rng.percent(10) { rng.range(7, 40) } else { rng.range(1, 6) };
    match shape {
        Shape::ScaleDown => {
            let d = digits(rng);
            clamped_type(p - d + rng.range(-2, 1), s - d, to_width)
        }
        Shape::ScaleUp => {
            let d = digits(rng);
            clamped_type(p + d + rng.range(-2, 1), s + d, to_width)
        }
        Shape::SameScale => clamped_type(p - rng.range(0, 3), s, to_width),
        Shape::Any => random_type(rng, to_width),
    }
}

/// `v` with its last `digits` digits replaced by a tie (`5` then zeros),
/// within `max` in magnitude and of `v`'s sign; `None` where `dtype` has too
/// few digits for one.
fn tie(v: i256, digits: u8, dtype: DecimalType) -> Option<i256> {
    if digits == 0 || digits > dtype.precision() {
        return None;
    }
    let unit = pow10(digits);
    let half = pow10(digits - 1).wrapping_mul(i256::from_i128(5));
    let magnitude = v.wrapping_abs();
    let mut t = magnitude.wrapping_sub(magnitude.wrapping_rem(unit)).wrapping_add(half);
    if t > max_stored(dtype) {
        t = t.wrapping_sub(unit);
    }
    Some(if v.is_negative() { t.wrapping_neg() } else { t })
}

/// The kinds of a cast's source values: digits spread over the precision,
/// money, ties, the bounds, and zero.
const CAST_KINDS: [(Kind, u32); 9] = [
    (Kind::Digits, 4),
    (Kind::Short, 3),
    (Kind::Money, 2),
    (Kind::Tie, 1),
    (Kind::NearBound, 1),
    (Kind::Max, 1),
    (Kind::Unit, 1),
    (Kind::One, 1),
    (Kind::Zero, 1),
];

/// Options of arrow-cast with `safe`.
fn cast_options(safe: bool) -> CastOptions<'static> {
    CastOptions { safe, ..CastOptions::default() }
}

/// This crate's cast of `array` to `to` with arrow-cast's rounding and
/// `safe`, by the exact reference.
fn reference_cast(
    array: &ArrayRef,
    to: DecimalType,
    to_width: Width,
    safe: bool,
) -> Result<DecimalArray, DecimalError> {
    let decimals = DecimalArray::from_arrow(array.as_ref()).unwrap();
    let on_overflow = if safe { OverflowPolicy::Null } else { OverflowPolicy::Error };
    let options = ArithmeticOptions::arrow(to_width.storage)
        .with_rounding(RoundingMode::HalfUp)
        .with_on_overflow(on_overflow);
    conformance::reference_unary(UnaryOp::Rescale { to }, &decimals, &options)
}

/// Ours is the reference's cast: the same rows, or a failure where it fails.
#[track_caller]
fn check_cast_against_reference(
    array: &ArrayRef,
    to: DecimalType,
    to_width: Width,
    safe: bool,
    got: &Result<ArrayRef, ArrowError>,
) {
    let context = format!("{} to {to} at {:?} (safe: {safe})", array.data_type(), to_width.storage);
    match (reference_cast(array, to, to_width, safe), got) {
        (Ok(want), Ok(got)) => {
            assert_eq!(
                got.data_type(),
                &to_width.data_type(to.precision(), to.scale()),
                "{context}"
            );
            let got = DecimalArray::from_arrow(got.as_ref()).unwrap();
            for row in 0..want.len() {
                assert_eq!(
                    (got.is_valid(row), got.is_valid(row).then(|| got.values().get(row))),
                    (want.is_valid(row), want.is_valid(row).then(|| want.values().get(row))),
                    "{context}: row {row}"
                );
            }
        }
        (
            Err(DecimalError::UnaryOverflow { .. }),
            Err(ArrowError::CastError(_) | ArrowError::InvalidArgumentError(_)),
        ) => {}
        (want, got) => panic!("{context}: reference {want:?}, ours {got:?}"),
    }
}

/// Compares one cast with arrow-cast's; panics with the inputs on a
/// difference.
#[track_caller]
fn compare_cast(
    array: &ArrayRef,
    to: DecimalType,
    to_width: Width,
    safe: bool,
    tally: &mut CastTally,
) {
    let (from, _) = decimal_kernels::arrow::decimal_type(array.data_type()).unwrap();
    let to_type = to_width.data_type(to.precision(), to.scale());
    let options = cast_options(safe);
    let got = decimal_kernels::arrow::cast(array.as_ref(), &to_type, &options);
    if arrow59_scale_arithmetic_overflows(from, to, to_width) {
        check_cast_against_reference(array, to, to_width, safe, &got);
        tally.arrow59_i8_scales += 1;
        return;
    }
    let want = arrow_cast::cast_with_options(array.as_ref(), &to_type, &options);
    if arrow_fails_rising_scale(from, to, to_width) {
        assert!(
            matches!(&want, Err(ArrowError::CastError(m)) if m.ends_with("Value overflows for output scale")),
            "{} to {to_type}: arrow-cast gave {want:?}",
            array.data_type()
        );
        check_cast_against_reference(array, to, to_width, safe, &got);
        tally.arrow_rising_scale += 1;
        return;
    }
    let context = format!("{} to {to_type} (safe: {safe})", array.data_type());
    match (got, want) {
        (Ok(got), Ok(want)) => {
            assert_eq!(got.data_type(), want.data_type(), "{context}");
            let source = DecimalArray::from_arrow(array.as_ref()).unwrap();
            let (g, w) = (
                DecimalArray::from_arrow(got.as_ref()).unwrap(),
                DecimalArray::from_arrow(want.as_ref()).unwrap(),
            );
            if let Some(&row) = differing_rows(&g, &w).first() {
                panic!(
                    "{context}: row {row}: {:?} cast to {:?} here, {:?} by arrow-cast",
                    source.scalar(row).map(|v| v.to_string()),
                    g.scalar(row).map(|v| v.to_string()),
                    w.scalar(row).map(|v| v.to_string()),
                );
            }
            tally.equal += w.len();
            let target = ARROW_WIDTHS.iter().position(|&t| t == to_width.storage).unwrap();
            tally.by_target[target] += w.len();
            tally.unsafe_calls += usize::from(!safe);
            tally.overflow_nulls +=
                (0..w.len()).filter(|&row| source.is_valid(row) && !w.is_valid(row)).count();
        }
        (Err(got), Err(want)) => {
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{context}");
            tally.same_error += 1;
        }
        (got, want) => panic!("{context}: ours {got:?}, arrow-cast {want:?}"),
    }
}

/// Runs random casts from `from_width` until `MIN_ROWS` rows of arrow-cast's
/// results are compared value for value.
fn run_casts(from_width: StorageWidth, seed: u64) -> CastTally {
    let from_width = Width::of(from_width);
    let shapes = [Shape::ScaleDown, Shape::ScaleUp, Shape::SameScale, Shape::Any];
    let mut rng = Rng::new(seed);
    let mut tally = CastTally::default();
    while tally.equal < MIN_ROWS {
        let shape = rng.pick(&[
            Shape::ScaleDown,
            Shape::ScaleDown,
            Shape::ScaleUp,
            Shape::SameScale,
            Shape::Any,
        ]);
        tally.by_shape[shapes.iter().position(|&s| s == shape).unwrap()] += 1;
        let to_width = Width::of(rng.pick(&ARROW_WIDTHS));
        let from = random_type(&mut rng, from_width);
        let to = cast_target(&mut rng, from, to_width, shape);
        let len = usize::try_from(rng.range(200, 1200)).unwrap();
        let offset = if rng.percent(30) { usize::try_from(rng.range(1, 9)).unwrap() } else { 0 };
        let mix = Mix { kinds: &CAST_KINDS, null_percent: rng.pick(&[0, 5, 50]) };
        let mut stored = rng.rows(from, from_width.storage, len + offset, &mix);
        // Ties at the dropped digits in a third of the rows.
        let dropped = u8::try_from(i32::from(from.scale()) - i32::from(to.scale())).unwrap_or(0);
        for row in 0..stored.len() {
            if rng.percent(33)
                && let Some(t) = tie(stored.values[row], dropped, from)
            {
                stored.values[row] = t;
                tally.ties += usize::from(stored.valid[row] && row >= offset);
            }
        }
        let array = stored.checked(from, from_width.storage).to_arrow().slice(offset, len);
        compare_cast(&array, to, to_width, rng.percent(50), &mut tally);
    }
    tally
}

/// `arrow::cast` against `arrow_cast::cast_with_options` on decimal casts
/// from each Arrow width to all four.
#[rstest]
fn cast_matches_arrow_cast(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    from: StorageWidth,
) {
    let tally = run_casts(from, 0xCA57 ^ u64::from(from.max_precision()));
    println!("{from}: {tally:?}");
    assert!(tally.by_target.iter().all(|&rows| rows >= MIN_ROWS / 10), "{tally:?}");
    assert!(tally.by_shape.iter().all(|&calls| calls >= 10), "{tally:?}");
    assert!(tally.unsafe_calls >= 10 && tally.same_error >= 10, "{tally:?}");
    assert!(tally.ties >= 1_000 && tally.overflow_nulls >= 1_000, "{tally:?}");
}

/// A scale raised by more digits than the target width has: arrow-cast
/// fails the whole call, under `safe: true` too and with only zeros and
/// nulls to cast; here each row is cast, zero to zero and any other value
/// to a null row (or the call's error under `safe: false`).
#[rstest]
fn cast_per_row_where_arrow_fails_a_rising_scale(
    #[values(StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256)]
    width: StorageWidth,
) {
    let max = width.max_precision();
    let from = dec(max, -1);
    let to_type = Width::of(width).data_type(max, max_scale(width));
    let five = i256::from_i128(5);
    let array =
        checked_column(from, &[i256::ZERO, five, five], &[true, false, true], width).to_arrow();
    let zeros = checked_column(from, &[i256::ZERO; 2], &[true, false], width).to_arrow();
    for (input, safe) in [(&array, true), (&array, false), (&zeros, true), (&zeros, false)] {
        let theirs = arrow_cast::cast_with_options(input.as_ref(), &to_type, &cast_options(safe));
        let ArrowError::CastError(message) = theirs.unwrap_err() else { panic!("a cast error") };
        assert!(message.ends_with("Value overflows for output scale"), "{message}");
    }
    let ours = decimal_kernels::arrow::cast(array.as_ref(), &to_type, &cast_options(true)).unwrap();
    assert_eq!(ours.data_type(), &to_type);
    let ours = DecimalArray::from_arrow(ours.as_ref()).unwrap();
    assert_eq!(
        (0..3).map(|row| ours.is_valid(row).then(|| ours.values().get(row))).collect::<Vec<_>>(),
        [Some(Some(i256::ZERO)), None, None]
    );
    let err = decimal_kernels::arrow::cast(array.as_ref(), &to_type, &cast_options(false));
    let ArrowError::CastError(message) = err.unwrap_err() else { panic!("a cast error") };
    assert!(message.ends_with("Overflowing on 5"), "{message}");
    let zeros =
        decimal_kernels::arrow::cast(zeros.as_ref(), &to_type, &cast_options(false)).unwrap();
    assert_eq!((zeros.null_count(), zeros.len()), (1, 2));
}

/// Values beyond their declared precision (arrow-rs arrays can hold them):
/// arrow-cast passes them on unchecked where the types alone prove that
/// values within the precision fit (the same type, the same scale with more
/// digits, a scale raised within the target's digits), and panics where
/// such a value then misses a narrower width; here each is checked against
/// the target precision.
#[test]
fn cast_checks_the_precision_where_arrow_does_not() {
    let beyond = unchecked_column(
        dec(2, 0),
        &[i256::from_i128(1_234_567), i256::from_i128(7)],
        &[true, true],
        StorageWidth::I128,
    )
    .to_arrow();
    for (to_type, unchecked) in [
        (DataType::Decimal128(2, 0), 1_234_567),
        (DataType::Decimal128(4, 0), 1_234_567),
        (DataType::Decimal128(6, 1), 12_345_670),
    ] {
        let theirs = arrow_cast::cast_with_options(&beyond, &to_type, &cast_options(true)).unwrap();
        let theirs = DecimalArray::from_arrow(theirs.as_ref()).unwrap();
        assert_eq!(theirs.values().get(0), Some(i256::from_i128(unchecked)), "{to_type}");
        let ours = decimal_kernels::arrow::cast(&beyond, &to_type, &cast_options(true)).unwrap();
        assert!(ours.is_null(0) && ours.is_valid(1), "{to_type}");
        let err = decimal_kernels::arrow::cast(&beyond, &to_type, &cast_options(false));
        assert!(matches!(err, Err(ArrowError::InvalidArgumentError(_))), "{to_type}: {err:?}");
    }
    // Decimal128(5, 3) holding 10^30, to Decimal32(5, 0): arrow-cast's
    // infallible path meets a quotient beyond i32.
    let huge = unchecked_column(dec(5, 3), &[pow10(30)], &[true], StorageWidth::I128).to_arrow();
    let to_type = DataType::Decimal32(5, 0);
    let theirs = catch_unwind(AssertUnwindSafe(|| {
        arrow_cast::cast_with_options(&huge, &to_type, &cast_options(true)).map(|a| a.null_count())
    }));
    assert!(theirs.is_err(), "arrow-cast no longer panics: {theirs:?}");
    let ours = decimal_kernels::arrow::cast(&huge, &to_type, &cast_options(true)).unwrap();
    assert_eq!(ours.null_count(), 1);
}

/// arrow-cast 59 computes a scale change and the digits it needs in `i8`:
/// `Decimal256(76, 0)` to scale 60 needs 136, which panics where overflow
/// checks are on and wraps where they are off (skipping the precision
/// check). arrow-cast 60 casts it exactly, as this crate does.
#[test]
fn cast_is_exact_where_arrow59_scale_arithmetic_overflows() {
    let values = [i256::ONE, pow10(75), i256::ZERO];
    let array =
        checked_column(dec(76, 0), &values, &[true, true, false], StorageWidth::I256).to_arrow();
    let to_type = DataType::Decimal256(76, 60);
    let ours = decimal_kernels::arrow::cast(&array, &to_type, &cast_options(true)).unwrap();
    let decimals = DecimalArray::from_arrow(ours.as_ref()).unwrap();
    assert_eq!(decimals.values().get(0), Some(pow10(60)));
    assert_eq!((decimals.is_valid(1), decimals.is_valid(2)), (false, false));
    let theirs = catch_unwind(AssertUnwindSafe(|| {
        arrow_cast::cast_with_options(&array, &to_type, &cast_options(true))
    }));
    if ARROW_59 {
        match theirs {
            Err(_) => {}
            Ok(theirs) => assert_ne!(
                theirs.ok().as_deref(),
                Some(ours.as_ref()),
                "arrow-cast 59 is now exact"
            ),
        }
    } else {
        assert_eq!(theirs.unwrap().unwrap().as_ref(), ours.as_ref());
    }
}
