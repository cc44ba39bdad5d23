//! Every public entry point on the same random inputs, held to the exact
//! reference of `decimal_kernels::conformance`.
//!
//! A seeded generator draws a few thousand calls: an operator (`+ - * / %`,
//! `rescale`, `neg`, `abs`, `round`, `floor`, `ceil`, `trunc` to any number
//! of digits, `sum`, `avg`), a profile (FixedPoint, Arrow at
//! I32/I64/I128/I256, Spark with and without precision loss, Presto), a
//! rounding mode, the overflow and division-by-zero policies, operand types
//! of 1 to 76 digits (scales from -76 up to the precision, the most a
//! `DecimalType` has) stored at any width that holds them, values from zero and one
//! unit to the precision bound (and, in a few columns, stored values beyond
//! it), null rows, odd-offset slices, arrays and scalars on either side,
//! arrays of different lengths, and for the calls at an explicit result type
//! a type near the profile's, a remainder type below the operands' aligned
//! scale, or an Arrow type whose width cannot hold its precision.
//!
//! Each call is made through every entry point that accepts its shape:
//! `binary`, `binary_to`, `binary_recycling` and the named operators,
//! `unary`, `unary_recycling`, `rescale`, `neg`, `abs`, `round` .. `trunc`,
//! their Arrow faces (`arrow::binary`, `binary_to`, `binary_recycling`, the
//! arrow-arith drop-ins `add` .. `rem`, `arrow::cast`, and on arrays
//! `arrow::neg`, `abs`, `round` .. `trunc` under the Arrow profile), the
//! aggregates (`sum`, `avg`, by group, and an `Accumulator` updated in two
//! batches, or two merged), the comparisons (`compare`, `eq` .. `gt_eq`, and
//! their Arrow drop-ins `arrow::eq` .. `arrow::gt_eq`, against
//! `conformance::reference_compare`), text read as decimals (`cast::parse`,
//! `arrow::cast` from `Utf8`), and the numeric casts (`cast::to_integer`,
//! `from_integer`, `to_float`, `from_float`, against
//! `conformance::reference_to_integer` ..).
//! Each must give the reference's values, validity and type (an Arrow result
//! read back with `DecimalArray::from_arrow`, its `DataType` the planned or
//! requested one), or an error of the reference's variant (for Arrow, the
//! variant the crate's `From<DecimalError>` gives it). The recycled calls get
//! a previous result (shared or not, of any width) and must not differ.
//!
//! The reference leaves a few refusals to the entry points; they are written
//! down here, where the expected outcomes are built (`explicit_outcome`,
//! `drop_in_outcome`, `cast_outcome`).
//!
//! Every disagreement is collected, and the test fails listing them with
//! each case, so one run shows all of them; it prints a table of the calls
//! and refusals per entry point (`--nocapture`).

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use std::fmt::Write as _;
use std::mem::{Discriminant, discriminant};
use std::panic::{AssertUnwindSafe, Location, catch_unwind};

use arrow_array::{Array, ArrayRef, BooleanArray, Datum, Scalar, StringArray};
use arrow_buffer::{ArrowNativeType, BooleanBuffer, NullBuffer, ScalarBuffer, i256};
use arrow_cast::CastOptions;
use arrow_schema::{ArrowError, DataType};
use decimal_kernels::aggregate::{self, Accumulator, AggregateOp, AggregatePlan};
use decimal_kernels::cast::{CastFloat, CastInteger};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, BinaryPlan, CompareOp, ComparePlan, DecimalArray, DecimalError,
    DecimalScalar, DecimalType, NullableBuffer, Operand, OverflowPolicy, RoundFunction,
    RoundingMode, Semantics, StorageWidth, UnaryOp, abs, add, arrow, binary, binary_recycling,
    binary_to, cast, ceil, conformance, div, floor, mul, neg, rem, rescale, round, sub, trunc,
    unary, unary_recycling,
};
use rstest::rstest;
use support::types::{ARROW_WIDTHS, PROFILES, column_from_strs, dec, pow10, widths_holding};
use support::values::{Kind, Mix, Rng, native_range};

/// Calls of two operands, of one, and aggregates: together a few thousand,
/// a few seconds in a debug build.
const BINARY_CASES: usize = 3000;
const UNARY_CASES: usize = 2800;
const AGGREGATE_CASES: usize = 1000;
/// Comparisons: enough that each of the six operators' functions gets its
/// least number of calls.
const COMPARE_CASES: usize = 1200;
const TEXT_CASES: usize = 500;
const NUMBER_CASES: usize = 500;

/// Every public entry point, in the order of the printed table (the table
/// also counts the comparisons' reference against the scalar one).
const ENTRY_POINTS: [&str; 58] = [
    "binary",
    "binary_to",
    "binary_recycling",
    "add",
    "sub",
    "mul",
    "div",
    "rem",
    "unary",
    "unary_recycling",
    "rescale",
    "neg",
    "abs",
    "round",
    "floor",
    "ceil",
    "trunc",
    "arrow::binary",
    "arrow::binary_to",
    "arrow::binary_recycling",
    "arrow::add",
    "arrow::sub",
    "arrow::mul",
    "arrow::div",
    "arrow::rem",
    "arrow::cast",
    "arrow::neg",
    "arrow::abs",
    "arrow::round",
    "arrow::floor",
    "arrow::ceil",
    "arrow::trunc",
    "aggregate::sum",
    "aggregate::avg",
    "aggregate::sum_groups",
    "aggregate::avg_groups",
    "AggregatePlan::run",
    "AggregatePlan::run_groups",
    "Accumulator::update+finish",
    "Accumulator::merge",
    "compare",
    "eq",
    "neq",
    "lt",
    "lt_eq",
    "gt",
    "gt_eq",
    "arrow::eq",
    "arrow::neq",
    "arrow::lt",
    "arrow::lt_eq",
    "arrow::gt",
    "arrow::gt_eq",
    "cast::parse",
    "cast::to_integer",
    "cast::from_integer",
    "cast::to_float",
    "cast::from_float",
];

/// The entry points that have no refusal: every decimal has a nearest
/// float.
const CANNOT_REFUSE: [&str; 1] = ["cast::to_float"];

/// The least number of calls each entry point must get.
const LEAST_CALLS: usize = 100;

const SEED: u64 = 0x5EED_0E17_2026_0001;

/// The values of most operands: every kind of value in about equal shares,
/// the precision bound and its neighbours included.
const VALUES: &[(Kind, u32)] = &[
    (Kind::Zero, 1),
    (Kind::Unit, 1),
    (Kind::One, 2),
    (Kind::Tie, 2),
    (Kind::Money, 3),
    (Kind::Short, 3),
    (Kind::Digits, 4),
    (Kind::WideProduct, 1),
    (Kind::NearBound, 3),
    (Kind::Max, 1),
];

/// The right side of `/` and `%`: zeros are common, so that both
/// division-by-zero policies are exercised.
const DIVISORS: &[(Kind, u32)] = &[
    (Kind::Zero, 4),
    (Kind::Unit, 1),
    (Kind::One, 2),
    (Kind::Short, 3),
    (Kind::Digits, 4),
    (Kind::NearBound, 1),
];

const POLICIES: [OverflowPolicy; 2] = [OverflowPolicy::Error, OverflowPolicy::Null];

/// The most rows of an operand.
const MOST_ROWS: usize = 8;

// ---------------------------------------------------------------------------
// What a call returned, in one form for every entry point.

/// A result as the comparison sees it: its type, where the entry point
/// reports them its storage width and Arrow type, and each row's value
/// (`None` for a null row).
#[derive(Clone, Debug, PartialEq)]
struct Observed {
    dtype: DecimalType,
    width: Option<StorageWidth>,
    data_type: Option<DataType>,
    rows: Vec<Option<i256>>,
}

/// A call that returned no result: the error's variant (compared) and its
/// message (shown); or what no reference outcome is, a panic or an Arrow
/// result that does not read back.
#[derive(Clone, Debug)]
enum Refusal {
    Native(Discriminant<DecimalError>, String),
    Arrow(Discriminant<ArrowError>, String),
    Panic(String),
    Unreadable(String),
}

impl Refusal {
    fn native(error: &DecimalError) -> Self {
        Self::Native(discriminant(error), format!("{error:?}"))
    }

    fn arrow(error: &ArrowError) -> Self {
        Self::Arrow(discriminant(error), format!("{error:?}"))
    }

    /// Only the variant counts: the messages name rows and values, which
    /// entry points are free to word differently.
    fn same_variant(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Native(a, _), Self::Native(b, _)) => a == b,
            (Self::Arrow(a, _), Self::Arrow(b, _)) => a == b,
            _ => false,
        }
    }
}

type Seen = Result<Observed, Refusal>;

/// A native array as observed, its storage width included.
fn observe_array(array: &DecimalArray) -> Observed {
    let rows =
        (0..array.len()).map(|row| array.is_valid(row).then(|| array.values().get(row)).flatten());
    Observed {
        dtype: array.dtype(),
        width: Some(array.width()),
        data_type: None,
        rows: rows.collect(),
    }
}

fn observe(outcome: &Result<DecimalArray, DecimalError>) -> Seen {
    outcome.as_ref().map(observe_array).map_err(Refusal::native)
}

/// An Arrow result, read back into the crate's array (its Arrow type kept,
/// its storage width left to the Arrow type).
fn observe_arrow(outcome: &Result<ArrayRef, ArrowError>) -> Seen {
    let array = outcome.as_ref().map_err(Refusal::arrow)?;
    let read = DecimalArray::from_arrow(array.as_ref()).map_err(|e| {
        Refusal::Unreadable(format!("{} that does not read back: {e}", array.data_type()))
    })?;
    Ok(Observed { width: None, data_type: Some(array.data_type().clone()), ..observe_array(&read) })
}

/// A whole-column aggregate, as the one-row result of its single group.
fn observe_scalar(outcome: &Result<DecimalScalar, DecimalError>) -> Seen {
    let scalar = outcome.as_ref().map_err(Refusal::native)?;
    Ok(Observed { dtype: scalar.dtype(), width: None, data_type: None, rows: vec![scalar.value()] })
}

/// What an Arrow entry point must return where the reference gives
/// `reference`: its values at the Arrow type `data_type`, or the Arrow
/// error the crate's `From` makes of its error.
fn at_arrow_type(
    reference: &Result<DecimalArray, DecimalError>,
    data_type: Result<DataType, DecimalError>,
) -> Seen {
    match reference {
        Ok(array) => {
            let data_type = data_type.map_err(|e| Refusal::arrow(&e.into()))?;
            Ok(Observed { width: None, data_type: Some(data_type), ..observe_array(array) })
        }
        Err(e) => Err(Refusal::arrow(&e.clone().into())),
    }
}

/// `call`'s value, or its panic as a refusal no reference gives.
fn attempt<T>(call: impl FnOnce() -> T) -> Result<T, Refusal> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_default();
        Refusal::Panic(message)
    })
}

/// How an observed result differs from the expected one, if it does: a
/// short kind (what the failures are grouped by) and the details.
fn difference(got: &Seen, want: &Seen) -> Option<(String, String)> {
    let (g, w) = match (got, want) {
        (Err(g), Err(w)) if g.same_variant(w) => return None,
        (Ok(g), Ok(w)) => (g, w),
        _ => {
            let kind = format!("{} where the reference gives {}", label(got), label(want));
            return Some((kind, format!("got {}; expected {}", show(got), show(want))));
        }
    };
    let details = format!("got {}; expected {}", show(got), show(want));
    let kind = if g.dtype != w.dtype || g.rows.len() != w.rows.len() {
        "another type or length"
    } else if w.width.is_some() && g.width != w.width {
        // A width or Arrow type is compared where the expectation names one.
        "another storage width"
    } else if w.data_type.is_some() && g.data_type != w.data_type {
        "another Arrow type"
    } else if g.rows != w.rows {
        "other values or nulls"
    } else {
        return None;
    };
    Some((kind.into(), details))
}

/// What a failure's kind calls an outcome: a result, an error variant, a
/// panic.
fn label(seen: &Seen) -> String {
    let variant = |debug: &str| debug.split(['(', ' ', '{']).next().unwrap_or_default().to_string();
    match seen {
        Ok(_) => "a result".into(),
        Err(Refusal::Native(_, m) | Refusal::Arrow(_, m)) => variant(m),
        Err(Refusal::Panic(_)) => "a panic".into(),
        Err(Refusal::Unreadable(_)) => "an unreadable Arrow result".into(),
    }
}

/// An outcome in full, as a failure shows it.
fn show(seen: &Seen) -> String {
    match seen {
        Ok(o) => {
            let rows: Vec<String> =
                o.rows.iter().map(|v| v.map_or_else(|| "NULL".into(), |v| v.to_string())).collect();
            let arrow = o.data_type.as_ref().map_or_else(String::new, |t| format!(" as {t}"));
            let width = o.width.map_or_else(String::new, |w| format!(" at {w:?}"));
            format!("Ok({}{arrow}{width}: stored [{}])", o.dtype, rows.join(", "))
        }
        Err(Refusal::Native(_, m) | Refusal::Arrow(_, m)) => format!("Err({m})"),
        Err(Refusal::Panic(m)) => format!("a panic: {m}"),
        Err(Refusal::Unreadable(m)) => format!("an Arrow result {m}"),
    }
}

// ---------------------------------------------------------------------------
// The tally: calls and refusals per entry point, and every disagreement.

#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    calls: usize,
    refused: usize,
}

/// Failures of one kind of one entry point: how many, and the first few.
#[derive(Debug)]
struct Failures {
    entry: &'static str,
    kind: String,
    count: usize,
    examples: Vec<String>,
}

/// Examples listed per kind of failure (all are counted).
const EXAMPLES: usize = 2;

#[derive(Debug, Default)]
struct Tally {
    entries: Vec<(&'static str, Counts)>,
    failures: Vec<Failures>,
}

impl Tally {
    /// `got`, what `entry` returned for `case`, is `want`; a difference is
    /// recorded with the case and the line of the check.
    #[track_caller]
    fn check(&mut self, entry: &'static str, case: &str, got: &Seen, want: &Seen) {
        let counts = match self.entries.iter_mut().position(|(name, _)| *name == entry) {
            Some(i) => &mut self.entries[i].1,
            None => {
                self.entries.push((entry, Counts::default()));
                &mut self.entries.last_mut().expect("just pushed").1
            }
        };
        counts.calls += 1;
        counts.refused += usize::from(got.is_err());
        if let Some((kind, details)) = difference(got, want) {
            self.fail(entry, kind, format!("{details}\n      {case}"));
        }
    }

    /// A recycled array that the call shared with someone else is as it
    /// was: a recycled call writes only into memory nothing else holds.
    #[track_caller]
    fn unchanged(&mut self, entry: &'static str, case: &str, after: &Seen, before: &Seen) {
        if let Some((_, details)) = difference(after, before) {
            let kind = "a shared recycled array changed".into();
            self.fail(entry, kind, format!("{details}\n      {case}"));
        }
    }

    #[track_caller]
    fn fail(&mut self, entry: &'static str, kind: String, example: String) {
        let example = format!("(checked at line {}) {example}", Location::caller().line());
        match self.failures.iter_mut().find(|f| f.entry == entry && f.kind == kind) {
            Some(f) => {
                f.count += 1;
                if f.examples.len() < EXAMPLES {
                    f.examples.push(example);
                }
            }
            None => self.failures.push(Failures { entry, kind, count: 1, examples: vec![example] }),
        }
    }

    /// The table of calls and refusals, in the order of `ENTRY_POINTS`.
    fn table(&self) -> String {
        let mut table = format!("{:<28} {:>6} {:>8}\n", "entry point", "calls", "refused");
        let mut entries = self.entries.clone();
        entries.sort_by_key(|(name, _)| ENTRY_POINTS.iter().position(|e| e == name));
        for (entry, c) in entries {
            let _ = writeln!(table, "{entry:<28} {:>6} {:>8}", c.calls, c.refused);
        }
        table
    }

    /// No entry point disagreed with the reference.
    #[track_caller]
    fn assert_agrees(&self) {
        if self.failures.is_empty() {
            return;
        }
        let mut message = String::from("entry points disagree with the reference:\n");
        for f in &self.failures {
            let _ = writeln!(message, "- {}: {} ({} calls), e.g.", f.entry, f.kind, f.count);
            for example in &f.examples {
                let _ = writeln!(message, "    {example}");
            }
        }
        panic!("{message}");
    }

    /// Each of `entries` was called at least `LEAST_CALLS` times and both
    /// returned results and refused (those in `CANNOT_REFUSE`: never
    /// refused).
    #[track_caller]
    fn assert_covers(&self, entries: &[&str]) {
        for entry in entries {
            let counts = self.entries.iter().find(|(name, _)| name == entry).map(|e| e.1);
            let c = counts.unwrap_or_else(|| panic!("{entry} was never called"));
            assert!(c.calls >= LEAST_CALLS, "{entry}: only {} calls", c.calls);
            if CANNOT_REFUSE.contains(entry) {
                assert_eq!(c.refused, 0, "{entry}: refused {} of {} calls", c.refused, c.calls);
                continue;
            }
            assert!(c.refused > 0, "{entry}: never refused in {} calls", c.calls);
            assert!(c.refused < c.calls, "{entry}: refused all {} calls", c.calls);
        }
    }
}

// ---------------------------------------------------------------------------
// Random inputs.

/// Random options: a profile, a rounding mode and both policies.
fn random_options(rng: &mut Rng) -> ArithmeticOptions {
    rng.pick(&PROFILES)
        .with_rounding(rng.pick(&RoundingMode::ALL))
        .with_on_overflow(rng.pick(&POLICIES))
        .with_on_divide_by_zero(rng.pick(&POLICIES))
}

/// A number in `lo..=hi` as the narrow integer types want it.
fn int<T: TryFrom<i64>>(rng: &mut Rng, lo: i64, hi: i64) -> T {
    T::try_from(rng.range(lo, hi)).unwrap_or_else(|_| panic!("{lo}..={hi} fits the type"))
}

/// A type of 1 to 76 digits whose scale lies anywhere in `-76..=p`, mostly
/// near zero; three times in four bounded to what the profile accepts, so
/// that results outnumber refusals.
fn operand_type(rng: &mut Rng, options: &ArithmeticOptions) -> DecimalType {
    let precision: u8 = match rng.below(5) {
        0 => int(rng, 1, 9),
        1 => int(rng, 10, 18),
        2 => int(rng, 19, 38),
        3 => int(rng, 39, 76),
        _ => rng.pick(&[1, 2, 4, 9, 10, 18, 19, 38, 39, 76]),
    };
    let p = i64::from(precision);
    let mut scale: i8 = match rng.below(6) {
        0..=2 => int(rng, 0, p.min(6)),
        3 => int(rng, p, p),
        4 => int(rng, -5, -1),
        _ => int(rng, -76, p),
    };
    let mut precision = precision;
    if rng.percent(75) {
        let (most, non_negative) = match options.semantics() {
            Semantics::Arrow { width } => (width.max_precision(), false),
            Semantics::Spark { .. } => (38, false),
            Semantics::Presto => (38, true),
            _ => (76, false),
        };
        precision = precision.min(most);
        scale = scale.min(i8::try_from(precision).expect("at most 76"));
        if non_negative {
            scale = scale.max(0);
        }
    }
    dec(precision, scale)
}

/// `(p, s)` clamped into a valid type.
fn clamped(p: i64, s: i64) -> DecimalType {
    let p = p.clamp(1, 76);
    dec(u8::try_from(p).expect("clamped"), i8::try_from(s.clamp(-76, p)).expect("clamped"))
}

/// A storage width that holds `dtype`: mostly the narrowest.
fn storage_for(rng: &mut Rng, dtype: DecimalType) -> StorageWidth {
    let holding: Vec<StorageWidth> = widths_holding(dtype).collect();
    if rng.percent(60) { holding[0] } else { rng.pick(&holding) }
}

/// An Arrow width for a result of type `dtype`: three times in four one
/// that holds it, otherwise any (which must then be refused if too narrow).
fn arrow_width_for(rng: &mut Rng, dtype: DecimalType) -> StorageWidth {
    if rng.percent(25) {
        return rng.pick(&ARROW_WIDTHS);
    }
    let holding: Vec<StorageWidth> =
        ARROW_WIDTHS.into_iter().filter(|&w| w >= dtype.storage_width()).collect();
    if rng.percent(60) { holding[0] } else { rng.pick(&holding) }
}

/// The Arrow decimal type of `dtype` at exactly `width`, even where the
/// width cannot hold the precision (`arrow::data_type` would widen it).
fn arrow_type_at(dtype: DecimalType, width: StorageWidth) -> DataType {
    let (p, s) = (dtype.precision(), dtype.scale());
    match width {
        StorageWidth::I256 => DataType::Decimal256(p, s),
        StorageWidth::I128 => DataType::Decimal128(p, s),
        StorageWidth::I64 => DataType::Decimal64(p, s),
        _ => DataType::Decimal32(p, s),
    }
}

/// A column of `rows` rows of `dtype` at `width` drawn from `kinds`, with
/// null rows at a random rate; a quarter are odd-offset slices of a longer
/// column, and one in ten holds a stored value beyond its precision
/// (unchecked, as Arrow arrays may hold them).
fn random_column(
    rng: &mut Rng,
    dtype: DecimalType,
    width: StorageWidth,
    rows: usize,
    kinds: &[(Kind, u32)],
) -> DecimalArray {
    let null_percent = rng.pick(&[0, 0, 10, 30]);
    let sliced = rng.percent(25);
    let total = rows + usize::from(sliced);
    let mut stored = rng.rows(dtype, width, total, &Mix { kinds, null_percent });
    let beyond = total > 0 && rng.percent(10);
    if beyond {
        let row = rng.below(total);
        stored.values[row] = rng.value(dtype, width, Kind::NativeExtreme);
        stored.valid[row] = true;
    }
    let column = if beyond { stored.unchecked(dtype, width) } else { stored.checked(dtype, width) };
    if sliced { column.slice(1, rows).expect("within the column") } else { column }
}

/// One operand: a column, or a scalar (kept as a one-row column too, for
/// its Arrow face).
struct Side {
    column: DecimalArray,
    scalar: Option<DecimalScalar>,
}

impl Side {
    /// A random operand of `dtype` at `width`: a scalar one time in four.
    fn random(
        rng: &mut Rng,
        dtype: DecimalType,
        width: StorageWidth,
        rows: usize,
        kinds: &[(Kind, u32)],
    ) -> Self {
        if rng.percent(25) {
            let column = random_column(rng, dtype, width, 1, kinds);
            let scalar = column.scalar(0).expect("one row");
            return Self { column, scalar: Some(scalar) };
        }
        Self::array(random_column(rng, dtype, width, rows, kinds))
    }

    fn array(column: DecimalArray) -> Self {
        Self { column, scalar: None }
    }

    fn operand(&self) -> Operand<'_> {
        self.scalar.as_ref().map_or(Operand::Array(&self.column), Operand::Scalar)
    }

    fn dtype(&self) -> DecimalType {
        self.column.dtype()
    }

    /// The Arrow operand: the column as Arrow, or an Arrow `Scalar` of it.
    fn datum(&self) -> Box<dyn Datum> {
        let array = self.column.to_arrow();
        if self.scalar.is_some() { Box::new(Scalar::new(array)) } else { Box::new(array) }
    }

    fn data_type(&self) -> DataType {
        arrow::data_type(self.dtype(), self.column.width())
    }

    fn describe(&self) -> String {
        let values: Vec<String> =
            self.column.to_strs().into_iter().map(|v| v.unwrap_or_else(|| "NULL".into())).collect();
        let shape = if self.scalar.is_some() { "scalar" } else { "array" };
        let checked = if self.column.is_checked() { "" } else { " unchecked" };
        format!(
            "{}@{:?}{checked} {shape} [{}]",
            self.dtype(),
            self.column.width(),
            values.join(", ")
        )
    }
}

/// Results handed back for recycling: a previous result, shared with the
/// pool one time in four (so it must not be written into), of whatever type
/// and width an earlier call left.
struct Pool<T: Clone> {
    items: Vec<T>,
    empty: fn() -> T,
    observe: fn(&T) -> Seen,
}

/// An array handed to a recycled call that something else still holds: that
/// holder, and what it held before the call.
struct Shared<T> {
    kept: T,
    before: Seen,
}

impl<T: Clone> Pool<T> {
    const SIZE: usize = 8;

    /// An array to recycle, and when the pool keeps sharing it, the copy
    /// to check after the call.
    fn take(&mut self, rng: &mut Rng) -> (T, Option<Shared<T>>) {
        if self.items.is_empty() {
            return ((self.empty)(), None);
        }
        let i = rng.below(self.items.len());
        if rng.percent(25) {
            let kept = self.items[i].clone();
            let before = (self.observe)(&kept);
            (kept.clone(), Some(Shared { kept, before }))
        } else {
            (self.items.swap_remove(i), None)
        }
    }

    /// Checks a shared array after the call, and keeps the call's result
    /// for a later one.
    #[track_caller]
    fn put<E>(
        &mut self,
        rng: &mut Rng,
        (tally, entry, case): (&mut Tally, &'static str, &str),
        shared: Option<Shared<T>>,
        result: Result<Result<T, E>, Refusal>,
    ) {
        if let Some(Shared { kept, before }) = shared {
            tally.unchanged(entry, case, &(self.observe)(&kept), &before);
        }
        if let Ok(Ok(item)) = result {
            if self.items.len() >= Self::SIZE {
                self.items.swap_remove(rng.below(Self::SIZE));
            }
            self.items.push(item);
        }
    }
}

struct Pools {
    native: Pool<DecimalArray>,
    arrow: Pool<ArrayRef>,
}

impl Pools {
    fn new() -> Self {
        fn empty() -> DecimalArray {
            DecimalArray::from_strs(dec(1, 0), &[]).expect("an empty column")
        }
        Self {
            native: Pool { items: Vec::new(), empty, observe: |a| Ok(observe_array(a)) },
            arrow: Pool {
                items: Vec::new(),
                empty: || empty().to_arrow(),
                observe: |a| observe_arrow(&Ok(a.clone())),
            },
        }
    }
}

// ---------------------------------------------------------------------------
// The expected outcomes the reference leaves to the entry points.

/// Whether the options' profile can store an explicit result type: Arrow
/// only at its own width (`binary_to`'s documented refusal).
fn profile_holds(result: DecimalType, options: &ArithmeticOptions) -> bool {
    match options.semantics() {
        Semantics::Arrow { width } => result.storage_width() <= width,
        _ => true,
    }
}

/// What `binary_to` (and `arrow::binary_to`) must return at an explicit
/// `result`: the reference's outcome, which refuses a result type without
/// an exact result to round (a remainder below the aligned scale, a sum
/// whose exact value needs more than 152 digits), after the refusal it
/// leaves to the entry points: a result type the storage cannot hold
/// (`holds` false), an `UnsupportedTypes` (`InvalidArgumentError` in Arrow)
/// decided by the types before any row.
fn explicit_outcome(
    op: BinaryOp,
    (lhs, rhs): (Operand<'_>, Operand<'_>),
    result: DecimalType,
    options: &ArithmeticOptions,
    holds: bool,
) -> Result<DecimalArray, DecimalError> {
    let reference = conformance::reference_to(op, lhs, rhs, result, options);
    let refused = |reason: &str| {
        Err(DecimalError::UnsupportedTypes {
            op,
            lhs: lhs.dtype(),
            rhs: rhs.dtype(),
            reason: reason.into(),
        })
    };
    match reference {
        Err(DecimalError::UnsupportedTypes { .. }) => reference,
        _ if !holds => refused("the storage cannot hold the result type"),
        _ => reference,
    }
}

/// What the arrow-arith drop-in for `op` must return: both sides must be
/// decimals of one Arrow width (`InvalidArgumentError` otherwise, as
/// arrow-arith), and then the reference under the Arrow profile at that
/// width, at the Arrow type `result_data_type` plans.
fn drop_in_outcome(op: BinaryOp, lhs: &Side, rhs: &Side) -> Seen {
    let (l, r) = (lhs.data_type(), rhs.data_type());
    if discriminant(&l) != discriminant(&r) {
        let error = ArrowError::InvalidArgumentError("decimals of two Arrow widths".into());
        return Err(Refusal::arrow(&error));
    }
    let (_, width) = arrow::decimal_type(&l).expect("a decimal type");
    let options = ArithmeticOptions::arrow(width);
    let reference = conformance::reference(op, lhs.operand(), rhs.operand(), &options);
    at_arrow_type(&reference, arrow::result_data_type(op, &l, &r, &options))
}

/// What `arrow::cast` of `column` to `to` stored at `width` must return:
/// arrow-rs's type error for a width that cannot hold `to`'s precision;
/// otherwise the reference's rescale rounding half up, a value beyond the
/// precision null under `safe` and else arrow-cast's error for the first
/// such row: `InvalidArgumentError` where the cast value fits the target's
/// native integer, `CastError` where it does not.
fn cast_outcome(column: &DecimalArray, to: DecimalType, width: StorageWidth, safe: bool) -> Seen {
    let data_type = arrow_type_at(to, width);
    if width.max_precision() < to.precision() {
        let error = ArrowError::InvalidArgumentError("precision beyond the width".into());
        return Err(Refusal::arrow(&error));
    }
    let policy = if safe { OverflowPolicy::Null } else { OverflowPolicy::Error };
    let options = ArithmeticOptions::arrow(width)
        .with_rounding(RoundingMode::HalfUp)
        .with_on_overflow(policy);
    let reference = conformance::reference_unary(UnaryOp::Rescale { to }, column, &options);
    let Err(DecimalError::UnaryOverflow { row, .. }) = reference else {
        return at_arrow_type(&reference, Ok(data_type));
    };
    let value = column.values().get(row).expect("the failing row exists");
    let (min, max) = native_range(width);
    let fits = cast_value(value, column.dtype().scale(), to.scale())
        .is_some_and(|v| (min..=max).contains(&v));
    let error = if fits {
        ArrowError::InvalidArgumentError("too large to store".into())
    } else {
        ArrowError::CastError("Overflowing".into())
    };
    Err(Refusal::arrow(&error))
}

/// The stored value `value` of scale `from` at scale `to`, rounded half away
/// from zero as `arrow::cast` rounds, where it fits an `i256` (a value of up
/// to 77 digits, beyond what the reference's widest type can hold).
fn cast_value(value: i256, from: i8, to: i8) -> Option<i256> {
    let digits = i32::from(from) - i32::from(to);
    let power = |k: i32| u8::try_from(k).ok().filter(|&k| k <= 76).map(pow10);
    match digits {
        0 => Some(value),
        raised if raised < 0 => value.checked_mul(power(-raised)?),
        // Dropping more than 76 digits leaves 0 or ±1, which fit any width.
        dropped => {
            let Some(divisor) = power(dropped) else { return Some(i256::ZERO) };
            let (quotient, remainder) = (value.wrapping_div(divisor), value.wrapping_rem(divisor));
            // |remainder| < 10^76: twice it still fits.
            let doubled = remainder.wrapping_abs().wrapping_mul(i256::from_i128(2));
            Some(if doubled >= divisor { quotient.wrapping_add(value.signum()) } else { quotient })
        }
    }
}

// ---------------------------------------------------------------------------
// The drivers: one per call shape.

/// The native operator `op` under its own name: the entry point's name and
/// its outcome.
fn named_binary(
    op: BinaryOp,
    (l, r): (Operand<'_>, Operand<'_>),
    options: &ArithmeticOptions,
) -> (&'static str, Result<Result<DecimalArray, DecimalError>, Refusal>) {
    match op {
        BinaryOp::Add => ("add", attempt(|| add(l, r, options))),
        BinaryOp::Sub => ("sub", attempt(|| sub(l, r, options))),
        BinaryOp::Mul => ("mul", attempt(|| mul(l, r, options))),
        BinaryOp::Div => ("div", attempt(|| div(l, r, options))),
        BinaryOp::Rem => ("rem", attempt(|| rem(l, r, options))),
        other => panic!("no named operator for {other}: add it here"),
    }
}

/// The native operator of one operand under its own name.
fn named_unary(
    op: UnaryOp,
    operand: Operand<'_>,
    options: &ArithmeticOptions,
) -> (&'static str, Result<Result<DecimalArray, DecimalError>, Refusal>) {
    match op {
        UnaryOp::Rescale { to } => ("rescale", attempt(|| rescale(operand, to, options))),
        UnaryOp::Neg => ("neg", attempt(|| neg(operand, options))),
        UnaryOp::Abs => ("abs", attempt(|| abs(operand, options))),
        UnaryOp::Round { function, digits } => {
            let (name, named): (_, fn(Operand<'_>, i32, &ArithmeticOptions) -> _) = match function {
                RoundFunction::Round => ("round", |x, d, o| round(x, d, o)),
                RoundFunction::Floor => ("floor", |x, d, o| floor(x, d, o)),
                RoundFunction::Ceil => ("ceil", |x, d, o| ceil(x, d, o)),
                RoundFunction::Trunc => ("trunc", |x, d, o| trunc(x, d, o)),
            };
            (name, attempt(|| named(operand, digits, options)))
        }
        other => panic!("no named operator for {other}: add it here"),
    }
}

/// The Arrow face of the operator of one operand `op` on `column` (the
/// Arrow profile at its Arrow width): its name, its outcome and the
/// reference's; `None` for an operator without one.
fn arrow_unary(op: UnaryOp, column: &DecimalArray) -> Option<(&'static str, Seen, Seen)> {
    let array = column.to_arrow();
    let a = array.as_ref();
    let (name, got) = match op {
        UnaryOp::Neg => ("arrow::neg", attempt(|| arrow::neg(a))),
        UnaryOp::Abs => ("arrow::abs", attempt(|| arrow::abs(a))),
        UnaryOp::Round { function: RoundFunction::Round, digits } => {
            ("arrow::round", attempt(|| arrow::round(a, digits)))
        }
        UnaryOp::Round { function: RoundFunction::Floor, digits } => {
            ("arrow::floor", attempt(|| arrow::floor(a, digits)))
        }
        UnaryOp::Round { function: RoundFunction::Ceil, digits } => {
            ("arrow::ceil", attempt(|| arrow::ceil(a, digits)))
        }
        UnaryOp::Round { function: RoundFunction::Trunc, digits } => {
            ("arrow::trunc", attempt(|| arrow::trunc(a, digits)))
        }
        _ => return None,
    };
    let read = DecimalArray::from_arrow(a).expect("the crate's own Arrow array reads back");
    let options = ArithmeticOptions::arrow(read.width());
    let reference = conformance::reference_unary(op, &read, &options);
    let data_type = op.result_type_under(read.dtype(), &options);
    let want = at_arrow_type(&reference, data_type.map(|t| arrow::data_type(t, read.width())));
    Some((name, flatten(&got, observe_arrow), want))
}

/// Digits to round an operand of scale `scale` to: around the scale (fewer,
/// the same, more), far below it, or the ends of `i32`.
fn round_digits(rng: &mut Rng, scale: i8) -> i32 {
    let near = |rng: &mut Rng, lo, hi| i32::from(scale) + i32::try_from(rng.range(lo, hi)).unwrap();
    match rng.below(8) {
        0 => rng.pick(&[i32::MIN, i32::MAX, -1000, 1000]),
        1 => near(rng, -90, -20),
        _ => near(rng, -6, 3),
    }
}

/// An attempted call as observed: its result, its error, or its panic.
fn flatten<T, E>(got: &Result<Result<T, E>, Refusal>, observe: fn(&Result<T, E>) -> Seen) -> Seen {
    got.as_ref().map_err(Refusal::clone).and_then(observe)
}

/// The arrow-arith drop-in for `op`.
fn drop_in(op: BinaryOp) -> (&'static str, support::outcomes::ArrowFn) {
    let name = match op {
        BinaryOp::Add => "arrow::add",
        BinaryOp::Sub => "arrow::sub",
        BinaryOp::Mul => "arrow::mul",
        BinaryOp::Div => "arrow::div",
        BinaryOp::Rem => "arrow::rem",
        other => panic!("no Arrow drop-in for {other}: add it here"),
    };
    (name, support::outcomes::arrow_kernel(op))
}

/// An explicit result type for `lhs op rhs`: near the profile's own, around
/// the operands' aligned scale (a remainder below it must be refused), or
/// any type.
fn explicit_type(
    rng: &mut Rng,
    op: BinaryOp,
    (lhs, rhs): (DecimalType, DecimalType),
    options: &ArithmeticOptions,
) -> DecimalType {
    let aligned = i64::from(lhs.scale().max(rhs.scale()));
    match (rng.below(4), op.result_type(lhs, rhs, options)) {
        (0 | 1, Ok(planned)) => clamped(
            i64::from(planned.precision()) + rng.range(-2, 2),
            i64::from(planned.scale()) + rng.range(-2, 2),
        ),
        (2, _) => clamped(rng.range(1, 76), aligned + rng.range(-3, 1)),
        _ => operand_type(rng, options),
    }
}

/// One call of two operands through every entry point of that shape.
fn binary_case(rng: &mut Rng, tally: &mut Tally, pools: &mut Pools, index: usize) {
    let op = rng.pick(&BinaryOp::ALL);
    let options = random_options(rng);
    // A few calls with scales far apart, so that an explicit result type at
    // a low scale asks for a sum `binary_to` refuses (`sum_too_wide`).
    let far = rng.percent(6);
    let (lt, rt) = if far {
        let high = clamped(rng.range(40, 76), rng.range(30, 76));
        let low = clamped(rng.range(40, 76), rng.range(-76, -40));
        if rng.percent(50) { (high, low) } else { (low, high) }
    } else {
        (operand_type(rng, &options), operand_type(rng, &options))
    };
    let lw = storage_for(rng, lt);
    // Half the time one width for both sides, as the Arrow drop-ins need.
    let rw = if lw >= rt.storage_width() && rng.percent(50) { lw } else { storage_for(rng, rt) };
    let rows = rng.below(MOST_ROWS + 1);
    let rhs_rows = if rng.percent(5) { rng.below(MOST_ROWS + 1) } else { rows };
    let divisor = if matches!(op, BinaryOp::Div | BinaryOp::Rem) { DIVISORS } else { VALUES };
    let lhs = Side::random(rng, lt, lw, rows, VALUES);
    let rhs = Side::random(rng, rt, rw, rhs_rows, divisor);
    let operands = (lhs.operand(), rhs.operand());
    let (l, r) = operands;
    let result = if far {
        clamped(rng.range(30, 76), rng.range(-76, -40))
    } else {
        explicit_type(rng, op, (lt, rt), &options)
    };
    let result_width = arrow_width_for(rng, result);
    let result_data_type = arrow_type_at(result, result_width);
    let case = format!(
        "case {index}: {} {op} {} (explicit result {result}, Arrow {result_data_type}) under \
         {options:?}",
        lhs.describe(),
        rhs.describe()
    );

    // The native entry points.
    let reference = conformance::reference(op, l, r, &options);
    let want = observe(&reference);
    let got = attempt(|| binary(op, l, r, &options));
    tally.check("binary", &case, &flatten(&got, observe), &want);
    // A plan made once from the types, then run (twice: it keeps nothing
    // of a run).
    let plan = BinaryPlan::new(op, l.dtype(), r.dtype(), &options);
    for _ in 0..2 {
        let got = attempt(|| plan.clone().and_then(|p| p.run(l, r)));
        tally.check("BinaryPlan::run", &case, &flatten(&got, observe), &want);
    }
    let (name, got) = named_binary(op, operands, &options);
    tally.check(name, &case, &flatten(&got, observe), &want);
    let (recycled, shared) = pools.native.take(rng);
    let got = attempt(|| binary_recycling(op, l, r, &options, recycled));
    tally.check("binary_recycling", &case, &flatten(&got, observe), &want);
    pools.native.put(rng, (tally, "binary_recycling", &case), shared, got);

    // The Arrow entry points, on the same values as Arrow arrays.
    let (ld, rd) = (lhs.datum(), rhs.datum());
    let (ldt, rdt) = (lhs.data_type(), rhs.data_type());
    let want = at_arrow_type(&reference, arrow::result_data_type(op, &ldt, &rdt, &options));
    let got = attempt(|| arrow::binary(op, ld.as_ref(), rd.as_ref(), &options));
    tally.check("arrow::binary", &case, &flatten(&got, observe_arrow), &want);
    let got = attempt(|| -> Result<_, ArrowError> {
        let plan = BinaryPlan::for_arrow(op, &ldt, &rdt, &options)?;
        Ok(plan.run_arrow(ld.as_ref(), rd.as_ref())?)
    });
    tally.check("BinaryPlan::run_arrow", &case, &flatten(&got, observe_arrow), &want);
    let (recycled, shared) = pools.arrow.take(rng);
    let got = attempt(|| arrow::binary_recycling(op, ld.as_ref(), rd.as_ref(), &options, recycled));
    tally.check("arrow::binary_recycling", &case, &flatten(&got, observe_arrow), &want);
    pools.arrow.put(rng, (tally, "arrow::binary_recycling", &case), shared, got);
    let (name, kernel) = drop_in(op);
    let got = attempt(|| kernel(ld.as_ref(), rd.as_ref()));
    tally.check(name, &case, &flatten(&got, observe_arrow), &drop_in_outcome(op, &lhs, &rhs));
    check_explicit(tally, &case, op, (&lhs, &rhs), &result_data_type, &options);
}

/// `lhs op rhs` at the explicit result type `result` (an Arrow type, whose
/// width may not hold its precision) through the native and the Arrow
/// `binary_to`.
#[track_caller]
fn check_explicit(
    tally: &mut Tally,
    case: &str,
    op: BinaryOp,
    (lhs, rhs): (&Side, &Side),
    result: &DataType,
    options: &ArithmeticOptions,
) {
    let (dtype, width) = arrow::decimal_type(result).expect("a decimal result type");
    let operands = (lhs.operand(), rhs.operand());
    let (l, r) = operands;
    let holds = profile_holds(dtype, options);
    let want = observe(&explicit_outcome(op, operands, dtype, options, holds));
    let got = attempt(|| binary_to(op, l, r, dtype, options));
    tally.check("binary_to", case, &flatten(&got, observe), &want);
    let holds = width.max_precision() >= dtype.precision();
    let want = explicit_outcome(op, operands, dtype, options, holds);
    let want = at_arrow_type(&want, Ok(result.clone()));
    let (ld, rd) = (lhs.datum(), rhs.datum());
    let got = attempt(|| arrow::binary_to(op, ld.as_ref(), rd.as_ref(), result, options));
    tally.check("arrow::binary_to", case, &flatten(&got, observe_arrow), &want);
}

/// A rescale target for an operand of type `from`: a higher or lower scale,
/// the same scale with fewer digits (the overflow check after an operator),
/// or any type.
fn rescale_target(rng: &mut Rng, from: DecimalType, options: &ArithmeticOptions) -> DecimalType {
    let (p, s) = (i64::from(from.precision()), i64::from(from.scale()));
    match rng.below(4) {
        0 => clamped(p + rng.range(-3, 3), s + rng.range(-3, 3)),
        1 => clamped(p - rng.range(1, 3), s),
        2 => clamped(p + rng.range(-2, 10), s + rng.range(-10, -1)),
        _ => operand_type(rng, options),
    }
}

/// One call of one operand through every entry point of that shape.
fn unary_case(rng: &mut Rng, tally: &mut Tally, pools: &mut Pools, index: usize) {
    let options = random_options(rng);
    let dtype = operand_type(rng, &options);
    let op = match rng.below(7) {
        0 | 1 => UnaryOp::Rescale { to: rescale_target(rng, dtype, &options) },
        2 => UnaryOp::Neg,
        3 => UnaryOp::Abs,
        _ => UnaryOp::Round {
            function: rng.pick(&RoundFunction::ALL),
            digits: round_digits(rng, dtype.scale()),
        },
    };
    let width = storage_for(rng, dtype);
    let rows = rng.below(MOST_ROWS + 1);
    let side = Side::random(rng, dtype, width, rows, VALUES);
    let operand = side.operand();
    let case = format!("case {index}: {op:?} of {} under {options:?}", side.describe());

    let want = observe(&conformance::reference_unary(op, operand, &options));
    let got = attempt(|| unary(op, operand, &options));
    tally.check("unary", &case, &flatten(&got, observe), &want);
    let (name, got) = named_unary(op, operand, &options);
    tally.check(name, &case, &flatten(&got, observe), &want);
    let (recycled, shared) = pools.native.take(rng);
    let got = attempt(|| unary_recycling(op, operand, &options, recycled));
    tally.check("unary_recycling", &case, &flatten(&got, observe), &want);
    pools.native.put(rng, (tally, "unary_recycling", &case), shared, got);

    // The Arrow faces of `neg`, `abs` and the roundings take arrays only.
    if side.scalar.is_none()
        && let Some((name, got, want)) = arrow_unary(op, &side.column)
    {
        tally.check(name, &format!("{case}; {name}"), &got, &want);
    }

    // `arrow::cast` takes arrays only, and casts decimals by a rescale.
    let (UnaryOp::Rescale { to }, None) = (op, &side.scalar) else {
        return;
    };
    let to_width = arrow_width_for(rng, to);
    let to_type = arrow_type_at(to, to_width);
    let safe = rng.percent(50);
    let case = format!("{case}; arrow::cast to {to_type} with safe: {safe}");
    let cast_options = CastOptions { safe, ..CastOptions::default() };
    let array = side.column.to_arrow();
    let got = attempt(|| arrow::cast(array.as_ref(), &to_type, &cast_options));
    let want = cast_outcome(&side.column, to, to_width, safe);
    tally.check("arrow::cast", &case, &flatten(&got, observe_arrow), &want);
}

/// Text read as decimals: the texts of a random column (now and then with
/// whitespace and an exponent, or spoiled) cast to another type through
/// `cast::parse`, and from `Utf8` through `arrow::cast`, whose failure under
/// `safe: false` is arrow-cast's `CastError`.
fn text_case(rng: &mut Rng, tally: &mut Tally, index: usize) {
    let options = random_options(rng);
    let dtype = operand_type(rng, &options);
    let width = storage_for(rng, dtype);
    let rows = rng.below(MOST_ROWS + 1);
    let column = random_column(rng, dtype, width, rows, VALUES);
    let mut texts = column.to_strs();
    for text in texts.iter_mut().flatten() {
        if rng.percent(5) {
            text.push('x');
        } else if rng.percent(20) {
            *text = format!(" {text}e0\t");
        }
    }
    let to = rescale_target(rng, dtype, &options);
    let rows_of = || texts.iter().map(Option::as_deref);
    let case = format!("case {index}: {texts:?} as {to} under {options:?}");
    let want = observe(&conformance::reference_parse(rows_of(), to, &options));
    let got = attempt(|| cast::parse(rows_of(), to, &options));
    tally.check("cast::parse", &case, &flatten(&got, observe), &want);

    let to_width = arrow_width_for(rng, to);
    let to_type = arrow_type_at(to, to_width);
    let safe = rng.percent(50);
    let case = format!("{case}; arrow::cast from Utf8 to {to_type} with safe: {safe}");
    let policy = if safe { OverflowPolicy::Null } else { OverflowPolicy::Error };
    let arrow_profile = ArithmeticOptions::arrow(to_width).with_on_overflow(policy);
    let want = match conformance::reference_parse(rows_of(), to, &arrow_profile) {
        Err(DecimalError::Parse { .. }) => {
            Err(Refusal::arrow(&ArrowError::CastError(String::new())))
        }
        reference => at_arrow_type(&reference, Ok(to_type.clone())),
    };
    let strings = StringArray::from(texts.clone());
    let cast_options = CastOptions { safe, ..CastOptions::default() };
    let got = attempt(|| arrow::cast(&strings, &to_type, &cast_options));
    tally.check("arrow::cast", &case, &flatten(&got, observe_arrow), &want);
}

/// One aggregate through every entry point: whole-column, by group, and an
/// accumulator fed in two batches, or two accumulators merged.
fn aggregate_case(rng: &mut Rng, tally: &mut Tally, index: usize) {
    let op = rng.pick(&AggregateOp::ALL);
    let options = random_options(rng);
    let dtype = operand_type(rng, &options);
    let width = storage_for(rng, dtype);
    let rows = rng.below(3 * MOST_ROWS / 2 + 1);
    let values = random_column(rng, dtype, width, rows, VALUES);
    let total = rng.below(4) + 1;
    let mut groups: Vec<usize> = (0..rows).map(|_| rng.below(total)).collect();
    // The two refusals of the group indices apart: a row naming a group
    // beyond the total, or a list of another length.
    if rows > 0 && rng.percent(8) {
        let row = rng.below(rows);
        groups[row] = total + rng.below(2);
    } else if rng.percent(6) {
        groups.push(0);
        if rows > 1 && rng.percent(50) {
            groups.truncate(rows - 1);
        }
    }
    let case = format!(
        "case {index}: {op} of {} by groups {groups:?} of {total} under {options:?}",
        Side::array(values.clone()).describe()
    );

    let want = observe(&conformance::reference_aggregate(op, &values, &groups, total, &options));
    let (name, got) = match op {
        AggregateOp::Sum => (
            "aggregate::sum_groups",
            attempt(|| aggregate::sum_groups(&values, &groups, total, &options)),
        ),
        AggregateOp::Min => (
            "aggregate::min_groups",
            attempt(|| aggregate::min_groups(&values, &groups, total, &options)),
        ),
        AggregateOp::Max => (
            "aggregate::max_groups",
            attempt(|| aggregate::max_groups(&values, &groups, total, &options)),
        ),
        _ => (
            "aggregate::avg_groups",
            attempt(|| aggregate::avg_groups(&values, &groups, total, &options)),
        ),
    };
    tally.check(name, &case, &flatten(&got, observe), &want);
    let plan = AggregatePlan::new(op, dtype, &options);
    let got = attempt(|| plan.clone()?.run_groups(&values, &groups, total));
    tally.check("AggregatePlan::run_groups", &case, &flatten(&got, observe), &want);

    let one_group = vec![0; rows];
    let whole = conformance::reference_aggregate(op, &values, &one_group, 1, &options);
    // The whole-column aggregates return a scalar: the one group's row.
    let want_whole = observe(&whole).map(|o| Observed { width: None, ..o });
    let (name, got) = match op {
        AggregateOp::Sum => ("aggregate::sum", attempt(|| aggregate::sum(&values, &options))),
        AggregateOp::Min => ("aggregate::min", attempt(|| aggregate::min(&values, &options))),
        AggregateOp::Max => ("aggregate::max", attempt(|| aggregate::max(&values, &options))),
        _ => ("aggregate::avg", attempt(|| aggregate::avg(&values, &options))),
    };
    tally.check(name, &case, &flatten(&got, observe_scalar), &want_whole);
    let got = attempt(|| plan.clone()?.run(&values));
    tally.check("AggregatePlan::run", &case, &flatten(&got, observe_scalar), &want_whole);

    // Two batches: the rows up to `split` and the rest, each with its part
    // of the group indices (a list of another length fails in one of them).
    let split = rng.below(rows + 1);
    let batches = [
        (values.slice(0, split).expect("within"), &groups[..split.min(groups.len())]),
        (values.slice(split, rows - split).expect("within"), &groups[split.min(groups.len())..]),
    ];
    let accumulator = || Accumulator::new(op, dtype, &options);
    let got = attempt(|| {
        let mut one = accumulator()?;
        for (batch, groups) in &batches {
            one.update(batch, groups, None, total)?;
        }
        one.finish(None)
    });
    let case = format!("{case}; batches split at row {split}");
    tally.check("Accumulator::update+finish", &case, &flatten(&got, observe), &want);
    let got = attempt(|| {
        let mut merged = accumulator()?;
        for (batch, groups) in &batches {
            let mut part = accumulator()?;
            part.update(batch, groups, None, total)?;
            let own_groups: Vec<usize> = (0..part.groups()).collect();
            merged.merge(&part.state(None), &own_groups, total)?;
        }
        merged.finish(None)
    });
    tally.check("Accumulator::merge", &case, &flatten(&got, observe), &want);
}

/// A comparison's answers as observed: each row as a one-digit value (`1`
/// true, `0` false, `None` null).
fn observe_answers(outcome: &Result<NullableBuffer<BooleanBuffer>, DecimalError>) -> Seen {
    let result = outcome.as_ref().map_err(Refusal::native)?;
    let rows = (0..result.values().len())
        .map(|row| result.get(row).map(|answer| i256::from_i128(answer.into())))
        .collect();
    Ok(Observed { dtype: dec(1, 0), width: None, data_type: None, rows })
}

/// An Arrow comparison's answers, as [`observe_answers`].
fn observe_arrow_answers(outcome: &Result<BooleanArray, ArrowError>) -> Seen {
    let result = outcome.as_ref().map_err(Refusal::arrow)?;
    let rows = result.iter().map(|answer| answer.map(|a| i256::from_i128(a.into()))).collect();
    Ok(Observed { dtype: dec(1, 0), width: None, data_type: None, rows })
}

/// A native comparison function.
type NativeCompare =
    fn(Operand<'_>, Operand<'_>) -> Result<NullableBuffer<BooleanBuffer>, DecimalError>;
/// An Arrow comparison function.
type ArrowCompare = fn(&dyn Datum, &dyn Datum) -> Result<BooleanArray, ArrowError>;

/// The named functions of `op`, native and Arrow.
fn named_compare(op: CompareOp) -> (&'static str, NativeCompare, &'static str, ArrowCompare) {
    match op {
        CompareOp::Eq => ("eq", |l, r| decimal_kernels::eq(l, r), "arrow::eq", arrow::eq),
        CompareOp::NotEq => ("neq", |l, r| decimal_kernels::neq(l, r), "arrow::neq", arrow::neq),
        CompareOp::Lt => ("lt", |l, r| decimal_kernels::lt(l, r), "arrow::lt", arrow::lt),
        CompareOp::LtEq => {
            ("lt_eq", |l, r| decimal_kernels::lt_eq(l, r), "arrow::lt_eq", arrow::lt_eq)
        }
        CompareOp::Gt => ("gt", |l, r| decimal_kernels::gt(l, r), "arrow::gt", arrow::gt),
        CompareOp::GtEq => {
            ("gt_eq", |l, r| decimal_kernels::gt_eq(l, r), "arrow::gt_eq", arrow::gt_eq)
        }
    }
}

/// One random comparison through `compare`, the operator's function and its
/// Arrow drop-in, held to `conformance::reference_compare` (arrays of
/// different lengths: `LengthMismatch`, and arrow-ord's
/// `InvalidArgumentError`); and that reference held to the scalar reference
/// row by row.
fn compare_case(rng: &mut Rng, tally: &mut Tally, index: usize) {
    let op = rng.pick(&CompareOp::ALL);
    let options = random_options(rng);
    let (lt, rt) = (operand_type(rng, &options), operand_type(rng, &options));
    let (lw, rw) = (storage_for(rng, lt), storage_for(rng, rt));
    let rows = rng.below(MOST_ROWS + 1);
    let rhs_rows = if rng.percent(5) { rng.below(MOST_ROWS + 1) } else { rows };
    let lhs = Side::random(rng, lt, lw, rows, VALUES);
    let rhs = Side::random(rng, rt, rw, rhs_rows, VALUES);
    let (l, r) = (lhs.operand(), rhs.operand());
    let case = format!("case {index}: {} {op} {}", lhs.describe(), rhs.describe());

    let reference = conformance::reference_compare(op, l, r);
    let want = observe_answers(&reference);
    let got = attempt(|| decimal_kernels::compare(op, l, r));
    tally.check("compare", &case, &flatten(&got, observe_answers), &want);
    // A plan made once from the types, then run twice.
    let plan = ComparePlan::new(op, l.dtype(), r.dtype());
    for _ in 0..2 {
        let got = attempt(|| plan.run(l, r));
        tally.check("ComparePlan::run", &case, &flatten(&got, observe_answers), &want);
    }
    // An operand of another scale than planned is refused, whatever its rows.
    if let Ok(other) = DecimalType::try_new(lt.precision(), lt.scale().saturating_sub(1))
        && other.scale() != lt.scale()
    {
        let got = ComparePlan::new(op, other, r.dtype()).run(l, r);
        assert!(matches!(got, Err(DecimalError::TypeMismatch { .. })), "{case}: {got:?}");
    }
    let (name, native, arrow_name, drop_in) = named_compare(op);
    let got = attempt(|| native(l, r));
    tally.check(name, &case, &flatten(&got, observe_answers), &want);

    let want_arrow = match &reference {
        Ok(_) => want.clone(),
        Err(_) => Err(Refusal::arrow(&ArrowError::InvalidArgumentError(String::new()))),
    };
    let (ld, rd) = (lhs.datum(), rhs.datum());
    let got = attempt(|| drop_in(ld.as_ref(), rd.as_ref()));
    tally.check(arrow_name, &case, &flatten(&got, observe_arrow_answers), &want_arrow);
    let got = attempt(|| -> Result<_, ArrowError> {
        let plan = ComparePlan::for_arrow(op, &lhs.data_type(), &rhs.data_type())?;
        Ok(plan.run_arrow(ld.as_ref(), rd.as_ref())?)
    });
    // The plan's own error, as the crate's `From` makes an Arrow one of it.
    let want_plan = match &reference {
        Ok(_) => want.clone(),
        Err(e) => Err(Refusal::arrow(&e.clone().into())),
    };
    let got = flatten(&got, observe_arrow_answers);
    tally.check("ComparePlan::run_arrow", &case, &got, &want_plan);

    // The row-by-row reference against the scalar one.
    if let Ok(result) = &reference {
        let at = |side: &Side, row: usize| match &side.scalar {
            Some(s) => s.clone(),
            None => side.column.scalar(row).unwrap_or_else(|| DecimalScalar::null(side.dtype())),
        };
        let rows = (0..result.values().len()).map(|row| {
            at(&lhs, row).reference_compare(op, &at(&rhs, row)).map(|a| i256::from_i128(a.into()))
        });
        let rows = rows.collect();
        let by_scalars = Ok(Observed { dtype: dec(1, 0), width: None, data_type: None, rows });
        tally.check("compare (reference by scalars)", &case, &by_scalars, &want);
    }
}

/// The rows of a result that is not a decimal, each as an `i256` (a float
/// by its bits), as the comparison sees them.
fn observe_numbers<V: ArrowNativeType>(
    outcome: &Result<NullableBuffer<ScalarBuffer<V>>, DecimalError>,
    as_i256: impl Fn(V) -> i256,
) -> Seen {
    let result = outcome.as_ref().map_err(Refusal::native)?;
    let rows = (0..result.values().len()).map(|row| result.get(row).map(&as_i256)).collect();
    Ok(Observed { dtype: dec(1, 0), width: None, data_type: None, rows })
}

/// Random validity for `rows` rows: none, or about one row in five null.
fn random_nulls(rng: &mut Rng, rows: usize) -> Option<NullBuffer> {
    rng.percent(50)
        .then(|| NullBuffer::from((0..rows).map(|_| !rng.percent(20)).collect::<Vec<_>>()))
}

/// A random integer of `T`: small, anywhere in `i64`, or an extreme of an
/// integer type (those `T` does not hold are taken modulo 128).
fn random_integer<T: CastInteger>(rng: &mut Rng) -> T {
    let extremes = [i128::from(i64::MIN), -129, -128, -1, 0, 127, 255, 32_767, 65_535, 1 << 53];
    let v = match rng.below(4) {
        0 => i128::from(rng.range(-1000, 1000)),
        1 => i128::from(rng.next_u64().cast_signed()),
        2 => i128::from(u64::MAX) - i128::from(rng.range(0, 2)),
        _ => rng.pick(&extremes),
    };
    T::from_i128(v).or_else(|| T::from_i128(v.rem_euclid(128))).expect("0..128 fits every type")
}

/// A random float: cents, a tie at a digit or a float beside it, any bit
/// pattern (NaN, infinities, subnormals included), or a signed zero.
fn random_float(rng: &mut Rng) -> f64 {
    #[expect(clippy::cast_precision_loss, reason = "a float near the integer is what is wanted")]
    let x = match rng.below(5) {
        0 => rng.range(-(1 << 40), 1 << 40) as f64 / 100.0,
        1 => (rng.range(-1000, 1000) as f64 + 0.5) / 10f64.powi(int(rng, 0, 3)),
        2 => f64::from_bits(rng.next_u64()),
        3 => rng.pick(&[0.0, -0.0, f64::NAN, f64::INFINITY, f64::MIN_POSITIVE, 5e-324]),
        _ => rng.pick(&[0.125, 2.5, 9.95, 1e15, 2f64.powi(63)]),
    };
    match rng.below(4) {
        0 => x.next_up(),
        1 => x.next_down(),
        _ => x,
    }
}

/// A decimal operand cast to the integer type `T`, and random integers of
/// `T` cast to `to`, each held to its reference.
fn integer_casts<T: CastInteger>(
    rng: &mut Rng,
    tally: &mut Tally,
    case: &str,
    (side, to, options): (&Side, DecimalType, &ArithmeticOptions),
) {
    let as_i256 = |v: T| i256::from_i128(v.to_i128());
    let case = format!("{case} to {}", T::NAME);
    let want =
        observe_numbers(&conformance::reference_to_integer::<T>(side.operand(), options), as_i256);
    let got = attempt(|| cast::to_integer::<T>(side.operand(), options));
    tally.check("cast::to_integer", &case, &got.and_then(|o| observe_numbers(&o, as_i256)), &want);

    let values: Vec<T> = (0..rng.below(MOST_ROWS + 1)).map(|_| random_integer(rng)).collect();
    let nulls = random_nulls(rng, values.len());
    let case = format!("{case}; {values:?} with nulls {nulls:?} to {to}");
    let want = observe(&conformance::reference_from_integer(&values, nulls.as_ref(), to, options));
    let got = attempt(|| cast::from_integer(values.clone(), nulls.clone(), to, options));
    tally.check("cast::from_integer", &case, &flatten(&got, observe), &want);
}

/// A decimal operand cast to the float type `F`, and random floats (as `F`)
/// cast to `to`, each held to its reference.
fn float_casts<F: CastFloat + core::fmt::Debug>(
    rng: &mut Rng,
    tally: &mut Tally,
    case: &str,
    (side, to, options): (&Side, DecimalType, &ArithmeticOptions),
) {
    let as_i256 = |v: F| i256::from_i128(v.widened().to_bits().into());
    let case = format!("{case} to {}", F::NAME);
    let want =
        observe_numbers(&conformance::reference_to_float::<F>(side.operand(), options), as_i256);
    let got = attempt(|| cast::to_float::<F>(side.operand(), options));
    tally.check("cast::to_float", &case, &got.and_then(|o| observe_numbers(&o, as_i256)), &want);

    let values: Vec<F> =
        (0..rng.below(MOST_ROWS + 1)).map(|_| F::from_widened(random_float(rng))).collect();
    let nulls = random_nulls(rng, values.len());
    let case = format!("{case}; {values:?} with nulls {nulls:?} to {to}");
    let want = observe(&conformance::reference_from_float(&values, nulls.as_ref(), to, options));
    let got = attempt(|| cast::from_float(values.clone(), nulls.clone(), to, options));
    tally.check("cast::from_float", &case, &flatten(&got, observe), &want);
}

/// One random numeric cast each way: a decimal operand to an integer and a
/// float type, and random integers and floats to a decimal type.
fn number_case(rng: &mut Rng, tally: &mut Tally, index: usize) {
    let options = random_options(rng);
    let dtype = operand_type(rng, &options);
    let width = storage_for(rng, dtype);
    let rows = rng.below(MOST_ROWS + 1);
    let side = Side::random(rng, dtype, width, rows, VALUES);
    let to = operand_type(rng, &options);
    let case = format!("case {index}: {} under {options:?}", side.describe());
    let call = (&side, to, &options);
    match rng.below(8) {
        0 => integer_casts::<i8>(rng, tally, &case, call),
        1 => integer_casts::<i16>(rng, tally, &case, call),
        2 => integer_casts::<i32>(rng, tally, &case, call),
        3 => integer_casts::<i64>(rng, tally, &case, call),
        4 => integer_casts::<u8>(rng, tally, &case, call),
        5 => integer_casts::<u16>(rng, tally, &case, call),
        6 => integer_casts::<u32>(rng, tally, &case, call),
        _ => integer_casts::<u64>(rng, tally, &case, call),
    }
    if rng.percent(50) {
        float_casts::<f64>(rng, tally, &case, call);
    } else {
        float_casts::<f32>(rng, tally, &case, call);
    }
}

/// Every entry point, on one sequence of random calls, agrees with the
/// reference.
#[test]
fn every_entry_point_agrees_with_the_reference() {
    let mut rng = Rng::new(SEED);
    let mut tally = Tally::default();
    let mut pools = Pools::new();
    for index in 0..BINARY_CASES {
        binary_case(&mut rng, &mut tally, &mut pools, index);
    }
    for index in 0..UNARY_CASES {
        unary_case(&mut rng, &mut tally, &mut pools, index);
    }
    for index in 0..AGGREGATE_CASES {
        aggregate_case(&mut rng, &mut tally, index);
    }
    for index in 0..COMPARE_CASES {
        compare_case(&mut rng, &mut tally, index);
    }
    for index in 0..TEXT_CASES {
        text_case(&mut rng, &mut tally, index);
    }
    for index in 0..NUMBER_CASES {
        number_case(&mut rng, &mut tally, index);
    }
    println!("{}", tally.table());
    tally.assert_covers(&ENTRY_POINTS);
    tally.assert_agrees();
}

/// Named calls at an explicit result type through the native and the Arrow
/// `binary_to`, held to the same expectation as the random cases.
#[rstest]
#[case::remainder_below_the_aligned_scale_at_an_arrow_type(
    BinaryOp::Rem,
    (dec(10, 2), "7.50"),
    (dec(10, 3), "2.001"),
    DataType::Decimal128(10, 0),
    ArithmeticOptions::arrow(StorageWidth::I128)
)]
fn explicit_result_types(
    #[case] op: BinaryOp,
    #[case] lhs: (DecimalType, &str),
    #[case] rhs: (DecimalType, &str),
    #[case] result: DataType,
    #[case] options: ArithmeticOptions,
) {
    let (_, width) = arrow::decimal_type(&result).expect("a decimal result type");
    let side = |(t, text): (DecimalType, &str)| {
        Side::array(column_from_strs(t, &[Some(text)]).with_width(width).expect("the width"))
    };
    let (lhs, rhs) = (side(lhs), side(rhs));
    let case = format!("{} {op} {} at {result} under {options:?}", lhs.describe(), rhs.describe());
    let mut tally = Tally::default();
    check_explicit(&mut tally, &case, op, (&lhs, &rhs), &result, &options);
    tally.assert_agrees();
}
