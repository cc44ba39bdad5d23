//! Properties over arbitrary types (precision 1..=76, scale -76..=p), storage
//! widths, values, null patterns, slices, operand shapes, rounding modes and
//! policies, for all four operators under FixedPoint and Arrow (with widths
//! that accept the types and widths that do not):
//!
//! 1. the kernels never panic and agree with the reference;
//! 2. under an `Error` policy a call fails exactly when some valid row fails
//!    with a failure of that kind, naming the first such row;
//! 3. under the `Null` policies exactly the failing rows become null and every
//!    other row keeps the value the scalar reference gives it;
//! 4. unchecked columns holding anything (native minimum and maximum, values
//!    beyond the precision) never panic and compute as the integers they are.

include!("support/arrow_crates.rs");

use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalNative, DecimalScalar,
    DecimalType, Operand, OverflowPolicy, RoundingMode, StorageWidth, binary, conformance,
    result_type,
};
use proptest::prelude::*;

const MAX_ROWS: usize = 70;

const ARROW_WIDTHS: [StorageWidth; 4] =
    [StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256];

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

/// Options for a pair of types: FixedPoint, Arrow at a width that accepts both
/// operands, or Arrow at any width.
fn options_for(
    (lhs, rhs): (DecimalType, DecimalType),
    (profile, rounding, on_overflow, on_divide_by_zero): (u8, u8, bool, bool),
) -> ArithmeticOptions {
    let precision = lhs.precision().max(rhs.precision());
    let base = match profile % 3 {
        0 => ArithmeticOptions::fixed_point(),
        1 => {
            let fits = ARROW_WIDTHS.into_iter().find(|w| precision <= w.max_precision());
            ArithmeticOptions::arrow(fits.unwrap_or(StorageWidth::I256))
        }
        _ => ArithmeticOptions::arrow(pick(&ARROW_WIDTHS, profile / 3)),
    };
    let policy = |null: bool| if null { OverflowPolicy::Null } else { OverflowPolicy::Error };
    base.with_rounding(pick(&RoundingMode::ALL, rounding))
        .with_on_overflow(policy(on_overflow))
        .with_on_divide_by_zero(policy(on_divide_by_zero))
}

/// One generated row: whether it is valid, and what value to derive for it.
#[derive(Clone, Copy, Debug)]
struct Cell {
    valid: bool,
    kind: u8,
    digits: u8,
    seed: u64,
    negative: bool,
}

fn cell() -> impl Strategy<Value = Cell> {
    (0u8..8, any::<u8>(), any::<u8>(), any::<u64>(), any::<bool>()).prop_map(
        |(null, kind, digits, seed, negative)| Cell {
            valid: null != 0,
            kind,
            digits,
            seed,
            negative,
        },
    )
}

impl Cell {
    /// A stored integer within precision `p`: zero, the maximum, `10^(p-1)`,
    /// a tie `5·10^k`, one unit, or a random digit string of up to `p` digits.
    fn stored(self, p: u8) -> i256 {
        let len = 1 + usize::from(self.digits % p);
        let digits = match self.kind % 8 {
            0 => "0".to_string(),
            1 => "9".repeat(usize::from(p)),
            2 => format!("1{}", "0".repeat(usize::from(p) - 1)),
            3 => format!("5{}", "0".repeat(len - 1)),
            4 => "1".to_string(),
            _ => {
                let mut state = self.seed | 1;
                (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        char::from(b'0' + u8::try_from(state % 10).unwrap())
                    })
                    .collect()
            }
        };
        let sign = if self.negative { "-" } else { "" };
        i256::from_string(&format!("{sign}{digits}")).unwrap()
    }
}

/// A checked column of `cells` at `width` (values stay under null rows).
fn column(dtype: DecimalType, cells: &[Cell], width: StorageWidth) -> DecimalArray {
    let values: Vec<i256> = cells.iter().map(|c| c.stored(dtype.precision())).collect();
    let nulls = NullBuffer::from(cells.iter().map(|c| c.valid).collect::<Vec<_>>());
    DecimalArray::try_new(dtype, ScalarBuffer::from(values), Some(nulls))
        .unwrap()
        .with_width(width)
        .unwrap()
}

/// One generated call.
#[derive(Debug)]
struct Call {
    op: BinaryOp,
    options: ArithmeticOptions,
    lhs: DecimalArray,
    rhs: DecimalArray,
    /// 0, 1: array ⊕ array; 2: scalar ⊕ array; 3: array ⊕ scalar.
    shape: u8,
    lhs_scalar: DecimalScalar,
    rhs_scalar: DecimalScalar,
}

impl Call {
    fn operands(&self) -> (Operand<'_>, Operand<'_>) {
        match self.shape % 4 {
            2 => ((&self.lhs_scalar).into(), (&self.rhs).into()),
            3 => ((&self.lhs).into(), (&self.rhs_scalar).into()),
            _ => ((&self.lhs).into(), (&self.rhs).into()),
        }
    }

    fn run(&self) -> Result<DecimalArray, DecimalError> {
        let (lhs, rhs) = self.operands();
        binary(self.op, lhs, rhs, &self.options)
    }
}

/// The first row of `cells` as a scalar (null when that row is null or absent).
fn scalar(dtype: DecimalType, cells: &[Cell]) -> DecimalScalar {
    match cells.first() {
        Some(c) if c.valid => {
            DecimalScalar::from_stored(dtype, c.stored(dtype.precision())).unwrap()
        }
        _ => DecimalScalar::null(dtype),
    }
}

fn call() -> impl Strategy<Value = Call> {
    let rows = proptest::collection::vec((cell(), cell()), 0..=MAX_ROWS);
    (
        type_pair(),
        (0u8..4, any::<u8>(), any::<u8>(), any::<bool>(), any::<bool>()),
        (any::<u8>(), any::<u8>()),
        rows,
        (any::<u16>(), any::<u16>(), any::<u8>()),
    )
        .prop_map(|(types, (op, profile, rounding, ov, dz), (lw, rw), rows, slice)| {
            let (lhs_type, rhs_type) = types;
            let (lhs_cells, rhs_cells): (Vec<Cell>, Vec<Cell>) = rows.into_iter().unzip();
            let lhs = column(lhs_type, &lhs_cells, width_for(lhs_type, lw));
            let rhs = column(rhs_type, &rhs_cells, width_for(rhs_type, rw));
            let (offset, len, shape) = slice;
            // Mostly a slice near the start to the end; sometimes any slice.
            let (offset, len) = if shape & 4 == 0 {
                let offset = usize::from(offset) % (lhs.len().min(3) + 1);
                (offset, lhs.len() - offset)
            } else {
                let offset = usize::from(offset) % (lhs.len() + 1);
                (offset, usize::from(len) % (lhs.len() - offset + 1))
            };
            Call {
                op: BinaryOp::ALL[usize::from(op)],
                options: options_for(types, (profile, rounding, ov, dz)),
                lhs: lhs.slice(offset, len).unwrap(),
                rhs: rhs.slice(offset, len).unwrap(),
                shape,
                lhs_scalar: scalar(lhs_type, &lhs_cells),
                rhs_scalar: scalar(rhs_type, &rhs_cells),
            }
        })
}

/// The stored value of an operand at `row`, `None` when null.
fn value_at(operand: Operand<'_>, row: usize) -> Option<i256> {
    match operand {
        Operand::Array(a) => a.is_valid(row).then(|| a.values().get(row)).flatten(),
        Operand::Scalar(s) => s.value(),
    }
}

/// How a valid row fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Failure {
    Overflow,
    DivideByZero,
}

/// The rows of the call whose inputs are valid but whose result the
/// reference nulls under the `Null` policies, with how they fail.
fn failing_rows(call: &Call) -> Result<Vec<(usize, Failure)>, DecimalError> {
    let (lhs, rhs) = call.operands();
    let nulling = call
        .options
        .with_on_overflow(OverflowPolicy::Null)
        .with_on_divide_by_zero(OverflowPolicy::Null);
    let reference = conformance::reference(call.op, lhs, rhs, &nulling)?;
    Ok((0..reference.len())
        .filter_map(|row| {
            let divisor = value_at(rhs, row)?;
            value_at(lhs, row)?;
            if reference.is_valid(row) {
                return None;
            }
            let zero = call.op == BinaryOp::Div && divisor == i256::ZERO;
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

#[track_caller]
fn assert_conforms<'a>(
    op: BinaryOp,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) {
    let (lhs, rhs) = (lhs.into(), rhs.into());
    let got = binary(op, lhs, rhs, options);
    if let Err(report) = conformance::compare(op, lhs, rhs, options, &got) {
        panic!("{} {op} {}: {report}", lhs.dtype(), rhs.dtype());
    }
}

/// How to make an unchecked value: a kind, bits for an arbitrary `i256`, and a
/// cell for a value within the precision (and the row's validity).
type Wild = (u8, u128, i128, Cell);

/// Unchecked values: the native extremes, values just beyond the precision,
/// anything at all, or a value within the precision.
fn wild_value() -> impl Strategy<Value = Wild> {
    (0u8..8, any::<u128>(), any::<i128>(), cell())
}

fn wild_i256((kind, low, high, cell): Wild, dtype: DecimalType) -> i256 {
    let beyond = i256::from_i128(10).wrapping_pow(u32::from(dtype.precision()));
    match kind {
        0 => i256::MIN,
        1 => i256::MAX,
        2 => i256::MIN.wrapping_add(i256::ONE),
        3 => beyond,
        4 => beyond.wrapping_neg(),
        5 => i256::from_parts(low, high),
        _ => cell.stored(dtype.precision()),
    }
}

/// The same at a primitive native width: its extremes, or the `i256` value
/// when it fits.
fn wild_native<T: DecimalNative + Copy>(wild: Wild, dtype: DecimalType, min: T, max: T) -> T {
    match wild.0 {
        0 => min,
        1 => max,
        _ => T::from_i256(wild_i256(wild, dtype)).unwrap_or(max),
    }
}

fn unchecked<T: DecimalNative>(
    dtype: DecimalType,
    values: Vec<T>,
    valid: impl Iterator<Item = bool>,
) -> DecimalArray {
    let nulls = NullBuffer::from(valid.collect::<Vec<_>>());
    DecimalArray::new_unchecked(dtype, ScalarBuffer::from(values), Some(nulls)).unwrap()
}

/// An unchecked operand at native width `T` whose type it can hold.
fn unchecked_pair<T: DecimalNative + Copy>(
    (lhs_type, rhs_type): (DecimalType, DecimalType),
    rows: &[(Wild, Wild)],
    (min, max): (T, T),
) -> (DecimalArray, DecimalArray) {
    let lhs = rows.iter().map(|(l, _)| wild_native(*l, lhs_type, min, max)).collect();
    let rhs = rows.iter().map(|(_, r)| wild_native(*r, rhs_type, min, max)).collect();
    (
        unchecked(lhs_type, lhs, rows.iter().map(|(l, _)| l.3.valid)),
        unchecked(rhs_type, rhs, rows.iter().map(|(_, r)| r.3.valid)),
    )
}

/// A type whose precision is at most `max`.
fn type_within(dtype: DecimalType, max: u8) -> DecimalType {
    let p = 1 + (dtype.precision() - 1) % max;
    DecimalType::try_new(p, dtype.scale().min(i8::try_from(p).unwrap())).unwrap()
}

fn op_and_options() -> impl Strategy<Value = (u8, (u8, u8, bool, bool))> {
    (0u8..4, (any::<u8>(), any::<u8>(), any::<bool>(), any::<bool>()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn kernels_match_reference(call in call()) {
        let (lhs, rhs) = call.operands();
        assert_conforms(call.op, lhs, rhs, &call.options);
    }

    #[test]
    fn error_policy_fails_at_first_failing_row(call in call()) {
        let got = call.run();
        let failing = match failing_rows(&call) {
            Ok(failing) => failing,
            Err(type_error) => {
                prop_assert_eq!(got, Err(type_error));
                return Ok(());
            }
        };
        let first = failing
            .into_iter()
            .find(|&(_, failure)| policy_of(&call.options, failure) == OverflowPolicy::Error);
        match first {
            Some((row, Failure::DivideByZero)) => {
                prop_assert_eq!(got, Err(DecimalError::DivideByZero { row }));
            }
            Some((row, Failure::Overflow)) => {
                let (lhs, rhs) = call.operands();
                let result_type = result_type(call.op, lhs.dtype(), rhs.dtype(), &call.options)
                    .unwrap();
                prop_assert_eq!(got, Err(DecimalError::Overflow { row, result_type }));
            }
            None => prop_assert!(got.is_ok(), "no valid row fails under Error, got {:?}", got),
        }
    }

    #[test]
    fn null_policy_nulls_exactly_failing_rows(call in call()) {
        let options = call.options
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
            let want = a.binary(call.op, &b, &options).unwrap();
            prop_assert_eq!(got.scalar(row).unwrap(), want, "row {}", row);
        }
    }

    #[test]
    fn unchecked_i256_matches_reference(
        types in type_pair(),
        (op, knobs) in op_and_options(),
        rows in proptest::collection::vec((wild_value(), wild_value()), 0..=MAX_ROWS),
        scalar_from_first_row: bool,
    ) {
        let options = options_for(types, knobs);
        let op = BinaryOp::ALL[usize::from(op)];
        let (lhs, rhs) = unchecked_pair(types, &rows, (i256::MIN, i256::MAX));
        assert_conforms(op, &lhs, &rhs, &options);
        // The first row as a scalar, as stored (possibly beyond the precision).
        let scalar = lhs
            .scalar(0)
            .filter(|_| scalar_from_first_row)
            .unwrap_or_else(|| DecimalScalar::null(types.0));
        assert_conforms(op, &scalar, &rhs, &options);
        assert_conforms(op, &rhs, &scalar, &options);
    }

    #[test]
    fn unchecked_i64_and_i128_extremes_match_reference(
        (lhs_type, rhs_type) in type_pair(),
        (op, knobs) in op_and_options(),
        rows in proptest::collection::vec((wild_value(), wild_value()), 0..=MAX_ROWS),
    ) {
        let op = BinaryOp::ALL[usize::from(op)];
        let narrow = (type_within(lhs_type, 18), type_within(rhs_type, 18));
        let (lhs, rhs) = unchecked_pair(narrow, &rows, (i64::MIN, i64::MAX));
        assert_conforms(op, &lhs, &rhs, &options_for(narrow, knobs));
        let wide = (type_within(lhs_type, 38), type_within(rhs_type, 38));
        let (lhs, rhs) = unchecked_pair(wide, &rows, (i128::MIN, i128::MAX));
        assert_conforms(op, &lhs, &rhs, &options_for(wide, knobs));
    }
}
