//! Properties over arbitrary types (precision 1..=76, scale -76..=p), storage
//! widths, values, null patterns, slices, operand shapes, rounding modes and
//! policies, for all five operators (`+ - * / %`) under FixedPoint, Arrow
//! (with widths that accept the types and widths that do not), Spark with and
//! without precision loss, and Presto, and at explicit result types:
//!
//! 1. the kernels never panic and agree with the reference;
//! 2. under an `Error` policy a call fails exactly when some valid row fails
//!    with a failure of that kind, naming the first such row;
//! 3. under the `Null` policies exactly the failing rows become null and every
//!    other row keeps the value the scalar reference gives it;
//! 4. unchecked columns holding anything (native minimum and maximum, values
//!    beyond the precision) never panic and compute as the integers they are.
//!
//! Short columns (up to 70 rows, so slices cut the 64-row chunks anywhere)
//! run thousands of times; columns of the sizes around the kernels' 64-row
//! chunks and 512-row blocks (0, 1, 63, 64, 65, 511, 512, 513, 1500 rows) run
//! fewer times, each with an overflow, a zero divisor and a null row hiding a
//! failure planted at or after row 512 (in the second half of a shorter
//! column), and no failing row before them.
//!
//! A remainder of operands whose scales lie far apart (up to 152 digits)
//! never overflows: its result type holds it, whatever the alignment.
//!
//! The operators of one operand (`rescale` to a type near the operand's or to
//! any type, `neg`, `abs`) hold properties 1 to 4 too, with values at the
//! precision limit and beyond it.
//!
//! The aggregates (`sum`, `avg`; module `aggregates` below) hold, over any
//! type, storage width, checked or unchecked values, grouping, profile,
//! rounding mode and overflow policy:
//!
//! 5. any split of the rows into partitions, each through its own
//!    accumulator in batches of any size with its own group numbering,
//!    their states through Arrow arrays merged in any order (a state at a
//!    time or a few groups at a time) into the final numbering, gives what
//!    one pass gives, and that is the reference's result;
//! 6. by group, each group is the whole-column aggregate of its own rows;
//! 7. `finish` and `state` of the first `n` groups emit those groups and keep
//!    the others, numbered from 0;
//! 8. a filter is the same as nulling the rows it drops.
//!
//! The values come from the shared generator, seeded by proptest.

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use arrow_buffer::i256;

use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalScalar, DecimalType, Operand,
    OverflowPolicy, RoundingMode, Semantics, StorageWidth, UnaryOp, binary_to, conformance,
};
use proptest::prelude::*;
use support::outcomes::{
    Call as Checked, UnaryCall, assert_conforms, assert_unary_conforms, text_at,
};
use support::types::{ARROW_WIDTHS, max_stored};
use support::values::{Kind, Mix, Rng, Stored};

/// The most rows of a short column.
const MAX_ROWS: usize = 70;

/// Column sizes around the kernels' 64-row chunks and 512-row blocks.
const BLOCK_SIZES: [usize; 9] = [0, 1, 63, 64, 65, 511, 512, 513, 1500];

/// Rows per kernel block: in longer columns failures are planted from here on.
const BLOCK: usize = 512;

/// Every kind of checked value, about one row in eight null.
const ANY_VALUE: Mix<'static> = Mix {
    kinds: &[
        (Kind::Zero, 2),
        (Kind::Max, 2),
        (Kind::NearBound, 2),
        (Kind::Tie, 2),
        (Kind::Unit, 2),
        (Kind::One, 1),
        (Kind::Money, 2),
        (Kind::WideProduct, 2),
        (Kind::Digits, 5),
    ],
    null_percent: 12,
};

/// Values that seldom fail (no zero, no maximum), for the rows before the
/// planted failures.
const QUIET: Mix<'static> = Mix {
    kinds: &[(Kind::Money, 3), (Kind::Short, 3), (Kind::Unit, 1), (Kind::One, 1), (Kind::Tie, 1)],
    null_percent: 12,
};

/// Anything an unchecked column can hold: the storage's extremes and values
/// beyond the precision half the time.
const UNCHECKED: Mix<'static> = Mix {
    kinds: &[(Kind::NativeExtreme, 10), (Kind::Max, 2), (Kind::Zero, 2), (Kind::Digits, 6)],
    null_percent: 12,
};

fn pick<T: Copy>(items: &[T], index: u8) -> T {
    items[usize::from(index) % items.len()]
}

/// A type: precision 1..=76 (up to 18 half the time), scale -76..=p, with
/// non-negative scales as likely as negative ones.
fn decimal_type() -> impl Strategy<Value = DecimalType> {
    (1u8..=76, any::<bool>(), any::<u16>(), any::<bool>()).prop_map(
        |(p, small, k, non_negative)| {
            let p = if small { 1 + (p - 1) % 18 } else { p };
            let scale = if non_negative {
                i16::try_from(k % (u16::from(p) + 1)).unwrap()
            } else {
                -76 + i16::try_from(k % (u16::from(p) + 77)).unwrap()
            };
            DecimalType::try_new(p, i8::try_from(scale).unwrap()).unwrap()
        },
    )
}

/// Two operand types, equal a third of the time.
fn type_pair() -> impl Strategy<Value = (DecimalType, DecimalType)> {
    (decimal_type(), decimal_type(), 0u8..3)
        .prop_map(|(lhs, rhs, same)| (lhs, if same == 0 { lhs } else { rhs }))
}

/// A storage width for `dtype`: its narrowest or any wider one.
fn width_for(dtype: DecimalType, choice: u8) -> StorageWidth {
    let narrowest = StorageWidth::ALL.iter().position(|&w| w == dtype.storage_width()).unwrap();
    pick(&StorageWidth::ALL[narrowest..], choice)
}

/// The operator (an index into `BinaryOp::ALL`), profile, rounding mode and
/// policies, as drawn.
type Knobs = (usize, (u8, u8, bool, bool));

fn knobs() -> impl Strategy<Value = Knobs> {
    (0..BinaryOp::ALL.len(), (any::<u8>(), any::<u8>(), any::<bool>(), any::<bool>()))
}

/// Options for a pair of types: FixedPoint, Arrow at a width that accepts both
/// operands, Arrow at any width, Spark with or without precision loss, or
/// Presto.
fn options_for(
    (lhs, rhs): (DecimalType, DecimalType),
    (profile, rounding, on_overflow, on_divide_by_zero): (u8, u8, bool, bool),
) -> ArithmeticOptions {
    let precision = lhs.precision().max(rhs.precision());
    let base = match profile % 6 {
        0 => ArithmeticOptions::fixed_point(),
        1 => {
            let fits = ARROW_WIDTHS.into_iter().find(|w| precision <= w.max_precision());
            ArithmeticOptions::arrow(fits.unwrap_or(StorageWidth::I256))
        }
        2 => ArithmeticOptions::arrow(pick(&ARROW_WIDTHS, profile / 6)),
        3 => ArithmeticOptions::spark(),
        4 => ArithmeticOptions::spark_no_precision_loss(),
        _ => ArithmeticOptions::presto(),
    };
    let policy = |null: bool| if null { OverflowPolicy::Null } else { OverflowPolicy::Error };
    base.with_rounding(pick(&RoundingMode::ALL, rounding))
        .with_on_overflow(policy(on_overflow))
        .with_on_divide_by_zero(policy(on_divide_by_zero))
}

/// Which operands are arrays and which scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    ArrayArray,
    ScalarArray,
    ArrayScalar,
}

impl Shape {
    /// Arrays on both sides half the time.
    fn of(choice: u8) -> Self {
        match choice % 4 {
            2 => Self::ScalarArray,
            3 => Self::ArrayScalar,
            _ => Self::ArrayArray,
        }
    }
}

/// How a valid row fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Failure {
    Overflow,
    DivideByZero,
}

/// One generated call.
#[derive(Debug)]
struct Call {
    op: BinaryOp,
    options: ArithmeticOptions,
    lhs: DecimalArray,
    rhs: DecimalArray,
    shape: Shape,
    lhs_scalar: DecimalScalar,
    rhs_scalar: DecimalScalar,
    /// Rows made to fail, with how (array ⊕ array calls with planted rows).
    planted: Vec<(usize, Failure)>,
    /// The first row a failure may be at (0 unless failures are planted).
    first_failure_from: usize,
}

impl Call {
    fn operands(&self) -> (Operand<'_>, Operand<'_>) {
        match self.shape {
            Shape::ScalarArray => ((&self.lhs_scalar).into(), (&self.rhs).into()),
            Shape::ArrayScalar => ((&self.lhs).into(), (&self.rhs_scalar).into()),
            Shape::ArrayArray => ((&self.lhs).into(), (&self.rhs).into()),
        }
    }

    fn checked(&self) -> Checked<'_> {
        let (lhs, rhs) = self.operands();
        Checked::new(self.op, lhs, rhs, &self.options)
    }

    fn run(&self) -> Result<DecimalArray, DecimalError> {
        self.checked().run()
    }
}

/// Everything a call is drawn from.
#[derive(Clone, Debug)]
struct Draw {
    types: (DecimalType, DecimalType),
    knobs: Knobs,
    widths: (u8, u8),
    /// Rows of the columns (before a short column's slice).
    rows: usize,
    seed: u64,
    /// Offset, length and shape choices.
    slice: (u16, u16, u8),
    /// Where the failures go in a long column.
    plant: (u16, u16, u16),
}

fn draws(rows: impl Strategy<Value = usize>) -> impl Strategy<Value = Draw> {
    (
        type_pair(),
        knobs(),
        (any::<u8>(), any::<u8>()),
        rows,
        any::<u64>(),
        (any::<u16>(), any::<u16>(), any::<u8>()),
        (any::<u16>(), any::<u16>(), any::<u16>()),
    )
        .prop_map(|(types, knobs, widths, rows, seed, slice, plant)| Draw {
            types,
            knobs,
            widths,
            rows,
            seed,
            slice,
            plant,
        })
}

/// A call on short columns: any values, sliced near the start to the end
/// mostly, anywhere sometimes.
fn short_call() -> impl Strategy<Value = Call> {
    draws(0..=MAX_ROWS).prop_map(|draw| {
        let Draw { types: (lhs_type, rhs_type), knobs: (op, knobs), widths, rows, seed, .. } = draw;
        let (lhs_width, rhs_width) = (width_for(lhs_type, widths.0), width_for(rhs_type, widths.1));
        let mut rng = Rng::new(seed);
        let lhs_rows = rng.rows(lhs_type, lhs_width, rows, &ANY_VALUE);
        let rhs_rows = rng.rows(rhs_type, rhs_width, rows, &ANY_VALUE);
        let (offset, len, shape) = draw.slice;
        let (offset, len) = if shape & 4 == 0 {
            let offset = usize::from(offset) % (rows.min(3) + 1);
            (offset, rows - offset)
        } else {
            let offset = usize::from(offset) % (rows + 1);
            (offset, usize::from(len) % (rows - offset + 1))
        };
        Call {
            op: BinaryOp::ALL[op],
            options: options_for((lhs_type, rhs_type), knobs),
            lhs: lhs_rows.checked(lhs_type, lhs_width).slice(offset, len).unwrap(),
            rhs: rhs_rows.checked(rhs_type, rhs_width).slice(offset, len).unwrap(),
            shape: Shape::of(shape),
            lhs_scalar: first_row(lhs_type, &lhs_rows),
            rhs_scalar: first_row(rhs_type, &rhs_rows),
            planted: Vec::new(),
            first_failure_from: 0,
        }
    })
}

/// Row 0 of `rows` as a scalar (null when that row is null or absent).
fn first_row(dtype: DecimalType, rows: &Stored) -> DecimalScalar {
    match rows.valid.first() {
        Some(true) => DecimalScalar::from_stored(dtype, rows.values[0]).unwrap(),
        _ => DecimalScalar::null(dtype),
    }
}

/// Stored operands that overflow `lhs_type op rhs_type` under `options`, if
/// any do: the largest magnitudes, or the largest over one unit.
fn overflowing_pair(
    op: BinaryOp,
    (lhs_type, rhs_type): (DecimalType, DecimalType),
    options: &ArithmeticOptions,
) -> Option<(i256, i256)> {
    let (l, r) = (max_stored(lhs_type), max_stored(rhs_type));
    let lhs = [l, l.wrapping_neg()];
    let rhs = [r, r.wrapping_neg(), i256::ONE, i256::MINUS_ONE];
    let strict = options
        .with_on_overflow(OverflowPolicy::Error)
        .with_on_divide_by_zero(OverflowPolicy::Error);
    lhs.into_iter().flat_map(|a| rhs.map(|b| (a, b))).find(|&(a, b)| {
        let a = DecimalScalar::from_stored(lhs_type, a).unwrap();
        let b = DecimalScalar::from_stored(rhs_type, b).unwrap();
        matches!(a.reference_binary(op, &b, &strict), Err(DecimalError::Overflow { .. }))
    })
}

/// A call on columns of [`BLOCK_SIZES`] rows (after a slice of up to three
/// rows off the front): values that seldom fail, then an overflow, a zero
/// divisor and a null row hiding both planted at or after row 512 (in the
/// second half of a shorter column). Any row before them that fails is made
/// null, so that the planted rows are the first to fail.
fn long_call() -> impl Strategy<Value = Call> {
    draws(proptest::sample::select(BLOCK_SIZES.as_slice())).prop_map(|draw| {
        let Draw { types, knobs: (op, knobs), widths, rows: len, seed, .. } = draw;
        let (lhs_type, rhs_type) = types;
        let op = BinaryOp::ALL[op];
        let options = options_for(types, knobs);
        let (lhs_width, rhs_width) = (width_for(lhs_type, widths.0), width_for(rhs_type, widths.1));
        let (offset, _, shape) = draw.slice;
        let offset = usize::from(offset) % 4;
        let shape = Shape::of(shape);
        let mut rng = Rng::new(seed);
        let mut lhs_rows = rng.rows(lhs_type, lhs_width, offset + len, &QUIET);
        let mut rhs_rows = rng.rows(rhs_type, rhs_width, offset + len, &QUIET);
        let from = if len > BLOCK { BLOCK } else { len / 2 };
        let mut planted = Vec::new();
        if len > 0 {
            let at = |choice: u16| offset + from + usize::from(choice) % (len - from);
            let (overflow_at, zero_at, hidden_at) =
                (at(draw.plant.0), at(draw.plant.1), at(draw.plant.2));
            let overflow = overflowing_pair(op, types, &options);
            let mut set = |row: usize, (a, b): (i256, i256), valid: bool| {
                lhs_rows.values[row] = a;
                rhs_rows.values[row] = b;
                lhs_rows.valid[row] = valid;
                rhs_rows.valid[row] = true;
            };
            let max = max_stored(lhs_type);
            set(hidden_at, overflow.unwrap_or((max, i256::ZERO)), false);
            set(zero_at, (max, i256::ZERO), true);
            if let Some(pair) = overflow {
                set(overflow_at, pair, true);
            }
            // A row planted twice holds what was planted last.
            let overflow_at = overflow.map(|_| overflow_at);
            if shape == Shape::ArrayArray {
                if divides(op) && Some(zero_at) != overflow_at {
                    planted.push((zero_at - offset, Failure::DivideByZero));
                }
                if let Some(row) = overflow_at {
                    planted.push((row - offset, Failure::Overflow));
                }
            }
        }
        let lhs_scalar = first_row(lhs_type, &lhs_rows);
        let rhs_scalar = first_row(rhs_type, &rhs_rows);
        let build = |lhs_rows: &Stored, rhs_rows: &Stored| Call {
            op,
            options,
            lhs: lhs_rows.checked(lhs_type, lhs_width).slice(offset, len).unwrap(),
            rhs: rhs_rows.checked(rhs_type, rhs_width).slice(offset, len).unwrap(),
            shape,
            lhs_scalar: lhs_scalar.clone(),
            rhs_scalar: rhs_scalar.clone(),
            planted: planted.clone(),
            first_failure_from: from,
        };
        // Rows before the planted ones that fail become null rows hiding a
        // failure, on an array side.
        let early: Vec<usize> = failing_rows(&build(&lhs_rows, &rhs_rows))
            .map(|failing| {
                failing.into_iter().map(|(row, _)| row).filter(|&row| row < from).collect()
            })
            .unwrap_or_default();
        let side = if shape == Shape::ScalarArray { &mut rhs_rows } else { &mut lhs_rows };
        for row in early {
            side.valid[offset + row] = false;
        }
        build(&lhs_rows, &rhs_rows)
    })
}

/// Whether `op` fails on a zero divisor (`/` and `%`).
fn divides(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::Div | BinaryOp::Rem)
}

/// The stored value of an operand at `row`, `None` when null.
fn value_at(operand: Operand<'_>, row: usize) -> Option<i256> {
    match operand {
        Operand::Array(a) => a.is_valid(row).then(|| a.values().get(row)).flatten(),
        Operand::Scalar(s) => s.value(),
    }
}

/// The rows of the call whose inputs are valid but whose result the
/// reference nulls under the `Null` policies, with how they fail.
fn failing_rows(call: &Call) -> Result<Vec<(usize, Failure)>, DecimalError> {
    let (lhs, rhs) = call.operands();
    let nulling = call
        .options
        .with_on_overflow(OverflowPolicy::Null)
        .with_on_divide_by_zero(OverflowPolicy::Null);
    let reference = Checked::new(call.op, lhs, rhs, &nulling).reference()?;
    Ok((0..reference.len())
        .filter_map(|row| {
            let divisor = value_at(rhs, row)?;
            value_at(lhs, row)?;
            if reference.is_valid(row) {
                return None;
            }
            let zero = divides(call.op) && divisor == i256::ZERO;
            Some((row, if zero { Failure::DivideByZero } else { Failure::Overflow }))
        })
        .collect())
}

fn policy_of(options: &ArithmeticOptions, failure: Failure) -> OverflowPolicy {
    match failure {
        Failure::Overflow => options.on_overflow(),
        Failure::DivideByZero => options.on_divide_by_zero(),
    }
}

/// Property 1: the kernels agree with the reference.
fn kernels_match_reference(call: &Call) {
    assert_conforms(&call.checked());
}

/// Property 2: under `Error`, the first valid row failing with a failure of
/// that kind fails the call; the planted rows fail, and no row before them.
fn error_policy_fails_at_first_failing_row(call: &Call) -> Result<(), TestCaseError> {
    let got = call.run();
    let failing = match failing_rows(call) {
        Ok(failing) => failing,
        Err(type_error) => {
            prop_assert_eq!(got, Err(type_error));
            return Ok(());
        }
    };
    for planted in &call.planted {
        prop_assert!(
            failing.contains(planted),
            "planted {:?} does not fail: {:?}",
            planted,
            failing
        );
    }
    if let Some(&(row, _)) = failing.first() {
        prop_assert!(row >= call.first_failure_from, "row {} fails before the planted rows", row);
    }
    let first = failing
        .into_iter()
        .find(|&(_, failure)| policy_of(&call.options, failure) == OverflowPolicy::Error);
    match first {
        Some((row, Failure::DivideByZero)) => {
            let lhs = text_at(call.operands().0, row);
            prop_assert_eq!(got, Err(DecimalError::DivideByZero { row, lhs }));
        }
        Some((row, Failure::Overflow)) => {
            let (lhs, rhs) = call.operands();
            let result_type = call.op.result_type(lhs.dtype(), rhs.dtype(), &call.options).unwrap();
            let (op, lhs, rhs) = (call.op, text_at(lhs, row), text_at(rhs, row));
            prop_assert_eq!(got, Err(DecimalError::Overflow { row, result_type, op, lhs, rhs }));
        }
        None => prop_assert!(got.is_ok(), "no valid row fails under Error, got {:?}", got),
    }
    Ok(())
}

/// Property 3: under the `Null` policies exactly the failing rows are null,
/// every other row is what the scalar reference gives it.
fn null_policy_nulls_exactly_failing_rows(call: Call) -> Result<(), TestCaseError> {
    let options = call
        .options
        .with_on_overflow(OverflowPolicy::Null)
        .with_on_divide_by_zero(OverflowPolicy::Null);
    let call = Call { options, ..call };
    let Ok(failing) = failing_rows(&call) else {
        prop_assert!(call.run().is_err());
        return Ok(());
    };
    let got = call.run().unwrap();
    let (lhs, rhs) = call.operands();
    let scalar_at = |operand: Operand<'_>, row: usize| match operand {
        Operand::Array(a) => a.scalar(row).unwrap(),
        Operand::Scalar(s) => s.clone(),
    };
    for row in 0..got.len() {
        let (a, b) = (scalar_at(lhs, row), scalar_at(rhs, row));
        let inputs_valid = !a.is_null() && !b.is_null();
        let fails = failing.iter().any(|&(r, _)| r == row);
        prop_assert_eq!(got.is_valid(row), inputs_valid && !fails, "row {}", row);
        let want = a.reference_binary(call.op, &b, &options).unwrap();
        prop_assert_eq!(got.scalar(row).unwrap(), want, "row {}", row);
    }
    Ok(())
}

/// A type whose precision is at most `max`.
fn type_within(dtype: DecimalType, max: u8) -> DecimalType {
    let p = 1 + (dtype.precision() - 1) % max;
    DecimalType::try_new(p, dtype.scale().min(i8::try_from(p).unwrap())).unwrap()
}

/// Short columns mostly; the sizes around chunks and blocks a tenth of the time.
fn unchecked_rows() -> impl Strategy<Value = usize> {
    prop_oneof![9 => 0..=MAX_ROWS, 1 => proptest::sample::select(BLOCK_SIZES.as_slice())]
}

/// Unchecked columns of `rows` rows at `width` for each type.
fn unchecked_pair(
    (lhs_type, rhs_type): (DecimalType, DecimalType),
    width: StorageWidth,
    rows: usize,
    seed: u64,
) -> (DecimalArray, DecimalArray) {
    let mut rng = Rng::new(seed);
    let lhs = rng.rows(lhs_type, width, rows, &UNCHECKED).unchecked(lhs_type, width);
    let rhs = rng.rows(rhs_type, width, rows, &UNCHECKED).unchecked(rhs_type, width);
    (lhs, rhs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn short_columns_match_reference(call in short_call()) {
        kernels_match_reference(&call);
    }

    #[test]
    fn short_columns_error_policy_fails_at_first_failing_row(call in short_call()) {
        error_policy_fails_at_first_failing_row(&call)?;
    }

    #[test]
    fn short_columns_null_policy_nulls_exactly_failing_rows(call in short_call()) {
        null_policy_nulls_exactly_failing_rows(call)?;
    }

    #[test]
    fn unchecked_i256_matches_reference(
        types in type_pair(),
        (op, knobs) in knobs(),
        rows in unchecked_rows(),
        seed: u64,
        scalar_from_first_row: bool,
    ) {
        let options = options_for(types, knobs);
        let op = BinaryOp::ALL[op];
        let (lhs, rhs) = unchecked_pair(types, StorageWidth::I256, rows, seed);
        assert_conforms(&Checked::new(op, &lhs, &rhs, &options));
        // The first row as a scalar, as stored (possibly beyond the precision).
        let scalar = lhs
            .scalar(0)
            .filter(|_| scalar_from_first_row)
            .unwrap_or_else(|| DecimalScalar::null(types.0));
        assert_conforms(&Checked::new(op, &scalar, &rhs, &options));
        assert_conforms(&Checked::new(op, &rhs, &scalar, &options));
    }

    #[test]
    fn unchecked_i64_and_i128_extremes_match_reference(
        (lhs_type, rhs_type) in type_pair(),
        (op, knobs) in knobs(),
        rows in unchecked_rows(),
        seed: u64,
    ) {
        let op = BinaryOp::ALL[op];
        let narrow = (type_within(lhs_type, 18), type_within(rhs_type, 18));
        let (lhs, rhs) = unchecked_pair(narrow, StorageWidth::I64, rows, seed);
        assert_conforms(&Checked::new(op, &lhs, &rhs, &options_for(narrow, knobs)));
        let wide = (type_within(lhs_type, 38), type_within(rhs_type, 38));
        let (lhs, rhs) = unchecked_pair(wide, StorageWidth::I128, rows, seed);
        assert_conforms(&Checked::new(op, &lhs, &rhs, &options_for(wide, knobs)));
    }
}

/// Whether `binary_to` may have no result for `lhs op rhs` at `result`: a sum
/// rounded to `k` digits below the larger operand scale with `p + k > 153`
/// whose aligned value could need more than 152 digits
/// (docs/semantics.md#explicit-types).
fn beyond_exact_sums(
    op: BinaryOp,
    (lhs, rhs): (DecimalType, DecimalType),
    result: DecimalType,
) -> bool {
    let (s1, s2, rs) = (i32::from(lhs.scale()), i32::from(rhs.scale()), i32::from(result.scale()));
    let aligned = s1.max(s2);
    let digits =
        (i32::from(lhs.precision()) + aligned - s1).max(i32::from(rhs.precision()) + aligned - s2);
    matches!(op, BinaryOp::Add | BinaryOp::Sub)
        && rs < aligned
        && digits > 152
        && i32::from(result.precision()) + aligned - rs > 153
}

proptest! {
    /// Any result type an engine plans, under any profile's storage: each row
    /// is the exact result rounded once at that type, as the reference has it.
    #[test]
    fn explicit_result_types_match_reference(
        types in type_pair(),
        result in decimal_type(),
        (op, knobs) in knobs(),
        widths: (u8, u8),
        rows in 0..=MAX_ROWS,
        seed: u64,
    ) {
        let options = options_for(types, knobs);
        let op = BinaryOp::ALL[op];
        let (lhs_width, rhs_width) = (width_for(types.0, widths.0), width_for(types.1, widths.1));
        let mut rng = Rng::new(seed);
        let lhs = rng.rows(types.0, lhs_width, rows, &ANY_VALUE).checked(types.0, lhs_width);
        let rhs = rng.rows(types.1, rhs_width, rows, &ANY_VALUE).checked(types.1, rhs_width);
        let got = binary_to(op, &lhs, &rhs, result, &options);
        let unsupported = matches!(got, Err(DecimalError::UnsupportedTypes { .. }));
        if let Semantics::Arrow { width } = options.semantics()
            && result.storage_width() > width
        {
            prop_assert!(unsupported, "{result} stored at {width}: {got:?}");
            return Ok(());
        }
        if unsupported && beyond_exact_sums(op, types, result) {
            return Ok(());
        }
        let want = conformance::reference_to(op, &lhs, &rhs, result, &options);
        let texts = |outcome: &Result<DecimalArray, DecimalError>| {
            outcome.as_ref().map(|a| (a.dtype(), a.to_strs())).map_err(Clone::clone)
        };
        prop_assert_eq!(texts(&got), texts(&want));
    }
}

proptest! {
    // Each case is up to 1,500 rows through the big-integer reference.
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn block_sized_columns_match_reference(call in long_call()) {
        kernels_match_reference(&call);
    }

    #[test]
    fn block_sized_columns_error_policy_fails_at_first_failing_row(call in long_call()) {
        error_policy_fails_at_first_failing_row(&call)?;
    }

    #[test]
    fn block_sized_columns_null_policy_nulls_exactly_failing_rows(call in long_call()) {
        null_policy_nulls_exactly_failing_rows(call)?;
    }
}

/// Two types whose scales lie 60 to 152 digits apart: a dividend at a scale
/// of -76..=-30 and a divisor at 30..=76 (swapped when `swap`), with
/// precisions up to 38 when `engine` (so Spark and Presto accept them).
fn far_apart_types(
    (p1, p2): (u8, u8),
    (s1, s2): (i8, i8),
    engine: bool,
    swap: bool,
) -> (DecimalType, DecimalType) {
    let most: u8 = if engine { 38 } else { 76 };
    let s2 = if engine { 30 + s2.rem_euclid(9) } else { s2 };
    let p1 = 1 + (p1 - 1) % most;
    let p2 = (1 + (p2 - 1) % most).max(s2.unsigned_abs());
    let lhs = DecimalType::try_new(p1, s1).unwrap();
    let rhs = DecimalType::try_new(p2, s2).unwrap();
    if swap { (rhs, lhs) } else { (lhs, rhs) }
}

/// Values at the precision limit half the time, for the remainders below.
const AT_THE_LIMIT: Mix<'static> = Mix {
    kinds: &[
        (Kind::Max, 3),
        (Kind::NearBound, 3),
        (Kind::Zero, 1),
        (Kind::Unit, 1),
        (Kind::Tie, 1),
        (Kind::Digits, 3),
    ],
    null_percent: 12,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// A remainder's result type holds it whatever the alignment: with
    /// scales 60 to 152 digits apart and values at the precision limit, no
    /// row overflows (a zero divisor gives a null row here), and every row
    /// is the reference's.
    #[test]
    fn remainders_of_scales_far_apart_never_overflow(
        precisions in (1u8..=76, 1u8..=76),
        scales in (-76i8..=-30, 30i8..=76),
        (engine, swap) in any::<(bool, bool)>(),
        (_, knobs) in knobs(),
        widths: (u8, u8),
        rows in 0..=MAX_ROWS,
        seed: u64,
    ) {
        let types = far_apart_types(precisions, scales, engine, swap);
        let options = options_for(types, knobs)
            .with_on_overflow(OverflowPolicy::Error)
            .with_on_divide_by_zero(OverflowPolicy::Null);
        let (lhs_width, rhs_width) = (width_for(types.0, widths.0), width_for(types.1, widths.1));
        let mut rng = Rng::new(seed);
        let lhs = rng.rows(types.0, lhs_width, rows, &AT_THE_LIMIT).checked(types.0, lhs_width);
        let rhs = rng.rows(types.1, rhs_width, rows, &AT_THE_LIMIT).checked(types.1, rhs_width);
        let call = Checked::new(BinaryOp::Rem, &lhs, &rhs, &options);
        let got = call.run();
        prop_assert!(
            !matches!(got, Err(DecimalError::Overflow { .. })),
            "{}: {:?}",
            call.describe(),
            got
        );
        assert_conforms(&call);
    }
}

/// An operator of one operand, as drawn: which one, and a rescale target's
/// change of precision and scale from the operand's.
type UnaryKnobs = (u8, i8, i8);

fn unary_knobs() -> impl Strategy<Value = UnaryKnobs> {
    (any::<u8>(), -4i8..=4, -8i8..=8)
}

/// `neg` and `abs` a quarter of the time each; otherwise a rescale to a type
/// near `operand`'s (a few digits more or fewer, a scale a few places up or
/// down, clamped to a valid type) or, as often, to `any` type.
fn unary_op(operand: DecimalType, (choice, dp, ds): UnaryKnobs, any: DecimalType) -> UnaryOp {
    match choice % 8 {
        0 | 1 => UnaryOp::Neg,
        2 | 3 => UnaryOp::Abs,
        4 | 5 => UnaryOp::Rescale { to: any },
        _ => {
            let p = (i16::from(operand.precision()) + i16::from(dp)).clamp(1, 76);
            let s = (i16::from(operand.scale()) + i16::from(ds)).clamp(-76, p);
            let to = DecimalType::try_new(u8::try_from(p).unwrap(), i8::try_from(s).unwrap());
            UnaryOp::Rescale { to: to.unwrap() }
        }
    }
}

/// One generated call of one operand.
#[derive(Debug)]
struct UnaryCase {
    op: UnaryOp,
    options: ArithmeticOptions,
    operand: DecimalArray,
    scalar: DecimalScalar,
    use_scalar: bool,
}

impl UnaryCase {
    fn operand(&self) -> Operand<'_> {
        if self.use_scalar { (&self.scalar).into() } else { (&self.operand).into() }
    }

    fn call(&self) -> UnaryCall<'_> {
        UnaryCall::new(self.op, self.operand(), &self.options)
    }

    /// The rows whose operand is valid but whose result the reference nulls
    /// under the `Null` policy (the error the reference gives instead, such
    /// as a type the profile cannot store).
    fn failing_rows(&self) -> Result<Vec<usize>, DecimalError> {
        let nulling = self.options.with_on_overflow(OverflowPolicy::Null);
        let reference = UnaryCall::new(self.op, self.operand(), &nulling).reference()?;
        let operand = self.operand();
        Ok((0..reference.len())
            .filter(|&row| value_at(operand, row).is_some() && !reference.is_valid(row))
            .collect())
    }
}

/// A call of one operand on a short column of checked values (the
/// precision's limit among them), sliced as the binary calls are, or on its
/// first row as a scalar a quarter of the time.
fn unary_case() -> impl Strategy<Value = UnaryCase> {
    (
        decimal_type(),
        decimal_type(),
        unary_knobs(),
        knobs(),
        any::<u8>(),
        0..=MAX_ROWS,
        any::<u64>(),
        (any::<u16>(), any::<u16>(), any::<u8>()),
    )
        .prop_map(|(dtype, any_type, op, (_, knobs), width, rows, seed, slice)| {
            let op = unary_op(dtype, op, any_type);
            let options = options_for((dtype, op.result_type(dtype)), knobs);
            let width = width_for(dtype, width);
            let stored = Rng::new(seed).rows(dtype, width, rows, &ANY_VALUE);
            let (offset, len, shape) = slice;
            let offset = usize::from(offset) % (rows + 1);
            let len =
                if shape & 4 == 0 { rows - offset } else { usize::from(len) % (rows - offset + 1) };
            UnaryCase {
                op,
                options,
                operand: stored.checked(dtype, width).slice(offset, len).unwrap(),
                scalar: first_row(dtype, &stored),
                use_scalar: shape % 4 == 3,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn unary_matches_reference(case in unary_case()) {
        assert_unary_conforms(&case.call());
    }

    /// Under `Error`, the first valid row beyond the result precision fails
    /// the call, named with its operand; no failing row, no error.
    #[test]
    fn unary_error_policy_fails_at_first_failing_row(case in unary_case()) {
        let case = UnaryCase {
            options: case.options.with_on_overflow(OverflowPolicy::Error),
            ..case
        };
        let got = case.call().run();
        match case.failing_rows() {
            Err(refused) => prop_assert_eq!(got, Err(refused)),
            Ok(failing) => match failing.first() {
                Some(&row) => {
                    let result_type = case.op.result_type(case.operand().dtype());
                    let value = text_at(case.operand(), row);
                    let want = DecimalError::UnaryOverflow { row, result_type, op: case.op, value };
                    prop_assert_eq!(got, Err(want));
                }
                None => prop_assert!(got.is_ok(), "no valid row fails, got {:?}", got),
            },
        }
    }

    /// Under `Null`, a row is null exactly when its operand is null or the
    /// scalar reference overflows on it, and every row is what the scalar
    /// reference gives it.
    #[test]
    fn unary_null_policy_nulls_exactly_failing_rows(case in unary_case()) {
        let null = case.options.with_on_overflow(OverflowPolicy::Null);
        let error = case.options.with_on_overflow(OverflowPolicy::Error);
        let got = UnaryCall::new(case.op, case.operand(), &null).run();
        let Ok(got) = got else {
            let refused = matches!(got, Err(DecimalError::StorageTooNarrow { .. }));
            prop_assert!(refused, "only a type the profile cannot store fails: {:?}", got);
            return Ok(());
        };
        let operand = case.operand();
        for row in 0..got.len() {
            let x = match operand {
                Operand::Array(a) => a.scalar(row).unwrap(),
                Operand::Scalar(s) => s.clone(),
            };
            let fails = x.reference_unary(case.op, &error).is_err();
            prop_assert_eq!(got.is_valid(row), !x.is_null() && !fails, "row {}", row);
            prop_assert_eq!(got.scalar(row).unwrap(), x.reference_unary(case.op, &null).unwrap(), "row {}", row);
        }
    }

    /// Unchecked columns holding anything their width holds (its minimum,
    /// `i128::MIN` and `i256::MIN` included, values beyond the precision):
    /// every row as the reference has it, as a column and as a scalar.
    #[test]
    fn unary_of_unchecked_values_matches_reference(
        dtype in decimal_type(),
        any_type in decimal_type(),
        op in unary_knobs(),
        (_, knobs) in knobs(),
        width: u8,
        rows in unchecked_rows(),
        seed: u64,
    ) {
        for most in [76, 38, 18] {
            let dtype = type_within(dtype, most);
            let width = width_for(dtype, width);
            let op = unary_op(dtype, op, any_type);
            let options = options_for((dtype, op.result_type(dtype)), knobs);
            let column = Rng::new(seed).rows(dtype, width, rows, &UNCHECKED).unchecked(dtype, width);
            assert_unary_conforms(&UnaryCall::new(op, &column, &options));
            let scalar = column.scalar(0).unwrap_or_else(|| DecimalScalar::null(dtype));
            assert_unary_conforms(&UnaryCall::new(op, &scalar, &options));
        }
    }
}

mod aggregates {
    use std::collections::HashMap;

    use arrow_buffer::BooleanBuffer;
    use decimal_kernels::aggregate::{
        Accumulator, AggregateOp, AggregateState, avg, avg_groups, sum, sum_groups,
    };

    use super::*;

    /// One generated aggregate: its rows, groups and options, and the
    /// choices of how to split and replay them.
    #[derive(Debug)]
    struct Agg {
        op: AggregateOp,
        options: ArithmeticOptions,
        dtype: DecimalType,
        width: StorageWidth,
        unchecked: bool,
        stored: Stored,
        groups: Vec<usize>,
        total: usize,
        /// Drives the splits, batch sizes, orders, filters and emissions.
        seed: u64,
    }

    impl Agg {
        /// The rows `rows` (in that order) as a column.
        fn column_of(&self, rows: &[usize]) -> DecimalArray {
            let part = Stored {
                values: rows.iter().map(|&r| self.stored.values[r]).collect(),
                valid: rows.iter().map(|&r| self.stored.valid[r]).collect(),
            };
            self.build(&part)
        }

        fn build(&self, stored: &Stored) -> DecimalArray {
            if self.unchecked {
                stored.unchecked(self.dtype, self.width)
            } else {
                stored.checked(self.dtype, self.width)
            }
        }

        fn column(&self) -> DecimalArray {
            self.build(&self.stored)
        }

        fn with_options(&self, options: ArithmeticOptions) -> Self {
            Self { options, stored: self.stored.clone(), groups: self.groups.clone(), ..*self }
        }

        /// One pass by group.
        fn one_pass(&self, values: &DecimalArray) -> Result<DecimalArray, DecimalError> {
            match self.op {
                AggregateOp::Sum => sum_groups(values, &self.groups, self.total, &self.options),
                _ => avg_groups(values, &self.groups, self.total, &self.options),
            }
        }

        fn reference(&self, values: &DecimalArray) -> Result<DecimalArray, DecimalError> {
            conformance::reference_aggregate(
                self.op,
                values,
                &self.groups,
                self.total,
                &self.options,
            )
        }

        fn accumulator(&self) -> Result<Accumulator, DecimalError> {
            Accumulator::new(self.op, self.dtype, &self.options)
        }
    }

    /// Rows in groups: spread at random, in runs, all in one, or most in a
    /// few of many groups (the others empty).
    fn groups_for(rows: usize, total: usize, mode: u8, rng: &mut Rng) -> Vec<usize> {
        (0..rows)
            .map(|row| match mode % 4 {
                0 => rng.below(total),
                1 => row * total / rows.max(1),
                2 => total - 1,
                _ => rng.below(total.min(3)) * (total / 3).max(1) % total,
            })
            .collect()
    }

    fn agg_case() -> impl Strategy<Value = Agg> {
        (
            decimal_type(),
            any::<bool>(),
            knobs(),
            any::<u8>(),
            any::<bool>(),
            0..=120usize,
            1..=12usize,
            any::<u8>(),
            any::<u64>(),
        )
            .prop_map(
                |(dtype, is_avg, (_, knobs), width, unchecked, rows, total, mode, seed)| {
                    let op = if is_avg { AggregateOp::Avg } else { AggregateOp::Sum };
                    let options = options_for((dtype, dtype), knobs);
                    let width = width_for(dtype, width);
                    let mut rng = Rng::new(seed);
                    let mix = if unchecked { &UNCHECKED } else { &ANY_VALUE };
                    let stored = rng.rows(dtype, width, rows, mix);
                    let groups = groups_for(rows, total, mode, &mut rng);
                    Agg { op, options, dtype, width, unchecked, stored, groups, total, seed }
                },
            )
    }

    /// The partitioned path: rows dealt to `parts` partitions at random,
    /// each added in batches of random sizes under its own group numbering
    /// (first seen, first numbered), exported through Arrow arrays a state or
    /// a few groups at a time, merged in a shuffled order into the final
    /// numbering, and finished.
    fn partitioned(agg: &Agg, parts: usize) -> Result<DecimalArray, DecimalError> {
        let mut rng = Rng::new(agg.seed ^ 0x5eed);
        let mut dealt: Vec<Vec<usize>> = vec![Vec::new(); parts];
        for row in 0..agg.groups.len() {
            dealt[rng.below(parts)].push(row);
        }
        let mut exported: Vec<(AggregateState, Vec<usize>)> = Vec::new();
        for rows in &dealt {
            let mut local: HashMap<usize, usize> = HashMap::new();
            let mut global = Vec::new();
            let local_groups: Vec<usize> = rows
                .iter()
                .map(|&r| {
                    *local.entry(agg.groups[r]).or_insert_with(|| {
                        global.push(agg.groups[r]);
                        global.len() - 1
                    })
                })
                .collect();
            let column = agg.column_of(rows);
            let mut acc = agg.accumulator()?;
            // Sometimes each row as a group of its own (DataFusion's
            // `convert_to_state`), merged into the row's group.
            if rng.percent(25) {
                let arrays = acc.row_states(&column, None)?.to_arrow();
                let mapping = rows.iter().map(|&r| agg.groups[r]).collect();
                exported.push((AggregateState::from_arrow(agg.dtype, &arrays)?, mapping));
                continue;
            }
            let mut start = 0;
            while start < rows.len() {
                let len = 1 + rng.below(rows.len() - start);
                let batch = column.slice(start, len)?;
                let seen = local_groups[..start + len].iter().max().map_or(0, |g| g + 1);
                acc.update(&batch, &local_groups[start..start + len], None, seen)?;
                start += len;
            }
            // A few groups at a time, or all at once.
            let chunk = if rng.percent(50) { usize::MAX } else { 1 + rng.below(3) };
            let mut from = 0;
            while acc.groups() > 0 {
                let state = acc.state(Some(chunk));
                let arrays = state.to_arrow();
                let back = AggregateState::from_arrow(agg.dtype, &arrays)?;
                let to = from + back.len();
                exported.push((back, global[from..to].to_vec()));
                from = to;
            }
        }
        // Merged in a shuffled order.
        for i in (1..exported.len()).rev() {
            exported.swap(i, rng.below(i + 1));
        }
        let mut total = agg.accumulator()?;
        for (state, mapping) in &exported {
            total.merge(state, mapping, agg.total)?;
        }
        // Groups no partition saw are still there.
        total.merge(&agg.accumulator()?.state(None), &[], agg.total)?;
        total.finish(None)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// Property 5: partitions, batches, numberings, orders and state
        /// round trips change nothing.
        #[test]
        fn partitioned_accumulators_match_one_pass_and_reference(
            agg in agg_case(),
            parts in 1..=5usize,
        ) {
            let column = agg.column();
            let reference = agg.reference(&column);
            prop_assert_eq!(&agg.one_pass(&column), &reference);
            prop_assert_eq!(&partitioned(&agg, parts), &reference);
        }

        /// Property 6: a group's result is the whole-column aggregate of its
        /// own rows (under `Null`, so that no other group's overflow stops
        /// the call), and the whole column is the reference's one group.
        #[test]
        fn each_group_is_the_aggregate_of_its_rows(agg in agg_case()) {
            let agg = agg.with_options(agg.options.with_on_overflow(OverflowPolicy::Null));
            let column = agg.column();
            let whole = |values: &DecimalArray| match agg.op {
                AggregateOp::Sum => sum(values, &agg.options),
                _ => avg(values, &agg.options),
            };
            let zeros = vec![0; column.len()];
            let reference = conformance::reference_aggregate(agg.op, &column, &zeros, 1, &agg.options)
                .map(|a| a.scalar(0).expect("one group"));
            prop_assert_eq!(whole(&column), reference);
            let Ok(by_group) = agg.one_pass(&column) else {
                prop_assert!(agg.reference(&column).is_err());
                return Ok(());
            };
            for g in 0..agg.total {
                let rows: Vec<usize> = (0..column.len()).filter(|&r| agg.groups[r] == g).collect();
                let own = whole(&agg.column_of(&rows)).expect("the same types");
                prop_assert_eq!(by_group.scalar(g), Some(own), "group {}", g);
            }
        }

        /// Property 7: the first `n` groups emitted, the rest kept from 0.
        #[test]
        fn emitting_the_first_groups_keeps_the_rest(agg in agg_case(), n in 0..=14usize) {
            let column = agg.column();
            let Ok(mut acc) = agg.accumulator() else { return Ok(()) };
            acc.update(&column, &agg.groups, None, agg.total).unwrap();
            let mut by_state = acc.clone();
            let taken = n.min(agg.total);
            // What each group must be (under `Null`), and whether it fails
            // under `Error`.
            let lenient = agg.with_options(agg.options.with_on_overflow(OverflowPolicy::Null));
            let want = lenient.reference(&column).unwrap();
            let counts: Vec<usize> = (0..agg.total)
                .map(|g| (0..column.len()).filter(|&r| agg.groups[r] == g && column.is_valid(r)).count())
                .collect();
            let fails = |g: usize| counts[g] > 0 && !want.is_valid(g);
            let strict = agg.options.on_overflow() == OverflowPolicy::Error;
            let expect = |range: core::ops::Range<usize>| -> Result<Vec<Option<DecimalScalar>>, usize> {
                match range.clone().find(|&g| strict && fails(g)) {
                    Some(g) => Err(g - range.start),
                    None => Ok(range.map(|g| want.scalar(g)).collect()),
                }
            };
            let outcome = |got: Result<DecimalArray, DecimalError>| match got {
                Ok(a) => Ok((0..a.len()).map(|g| a.scalar(g)).collect::<Vec<_>>()),
                Err(DecimalError::AggregateOverflow { group, .. }) => Err(group),
                Err(e) => panic!("{e}"),
            };
            prop_assert_eq!(outcome(acc.finish(Some(n))), expect(0..taken));
            prop_assert_eq!(acc.groups(), agg.total - taken);
            prop_assert_eq!(outcome(acc.finish(None)), expect(taken..agg.total));

            // The same through states: the first `n` merged into a fresh
            // accumulator, the rest finished where they are.
            let first = by_state.state(Some(n));
            prop_assert_eq!(first.len(), taken);
            prop_assert_eq!(by_state.groups(), agg.total - taken);
            let mut fresh = agg.accumulator().unwrap();
            let ids: Vec<usize> = (0..taken).collect();
            fresh.merge(&first, &ids, taken).unwrap();
            prop_assert_eq!(outcome(fresh.finish(None)), expect(0..taken));
            prop_assert_eq!(outcome(by_state.finish(None)), expect(taken..agg.total));
        }

        /// Property 8: a filter drops exactly the rows it marks false.
        #[test]
        fn a_filter_is_nulling_the_rows_it_drops(agg in agg_case(), keep in 0..=100u32) {
            let column = agg.column();
            let mut rng = Rng::new(agg.seed ^ 0xf1);
            let filter: Vec<bool> = (0..column.len()).map(|_| rng.percent(keep)).collect();
            let nulled = Stored {
                values: agg.stored.values.clone(),
                valid: agg.stored.valid.iter().zip(&filter).map(|(&v, &f)| v && f).collect(),
            };
            let nulled = agg.build(&nulled);
            let want = agg.reference(&nulled);
            prop_assert_eq!(&agg.one_pass(&nulled), &want);
            let got = agg.accumulator().and_then(|mut acc| {
                let filter = BooleanBuffer::from(filter.clone());
                // In two batches: the filter is sliced with the values.
                let half = column.len() / 2;
                let (first, second) = (column.slice(0, half)?, column.slice(half, column.len() - half)?);
                acc.update(&first, &agg.groups[..half], Some(&filter.slice(0, half)), agg.total)?;
                acc.update(&second, &agg.groups[half..], Some(&filter.slice(half, column.len() - half)), agg.total)?;
                acc.finish(None)
            });
            prop_assert_eq!(got, want);
        }
    }
}
