//! Calls decoded from raw bytes, for coverage-guided fuzzing.
//!
//! A fuzzer hands over arbitrary bytes; [`Case::decode`] reads from them
//! everything a caller controls: the profile, rounding mode and both policies,
//! two operand types (including invalid ones), storage widths (including ones
//! too narrow for the type), checked or unchecked columns holding anything
//! (the native extremes, values beyond the precision), null patterns, slices
//! (including ones past the end), operands of different lengths, and the
//! operand shape (array or scalar on either side). Bytes that run out read as
//! zeros, so every input decodes to something, and no input panics.
//!
//! Columns run to [`MAX_ROWS`] rows, so a call crosses the kernels' 64-row
//! failure chunks and 512-row blocks; a few bytes describe a long column and
//! can put a failing row (an overflow, a zero divisor) anywhere in it,
//! including past row 512 and at the very last row.
//!
//! # Byte format
//!
//! In order (a *pair* is two bytes, little-endian):
//!
//! | bytes | meaning |
//! |---|---|
//! | 2 | options: profile (FixedPoint, Arrow at one width, Spark with or without precision loss, Presto), then rounding mode and the overflow (`0x20`) and division-by-zero (`0x40`) policies |
//! | 2 + 2 | left and right types: precision, then scale |
//! | 1 + 1 | left and right storage widths |
//! | 1 | layout: `0x01`/`0x02` left/right unchecked, `0x04`/`0x08` left/right nullable |
//! | pair | rows: the pair itself up to `MAX_ROWS`, else its low byte |
//! | 1 | shape, modulo 8: 4 scalar–array, 5 array–scalar, 6 scalar–scalar, 7 arrays of different lengths (then a pair: the right's rows), else arrays of equal length |
//! | pair + pair | slice offset and length |
//! | column | the left column |
//! | column | the right column |
//! | 1 | slice, modulo 8: 0–2 none, 7 exactly as asked (may pass the end), else the offset and length wrapped into bounds |
//!
//! The operators of one operand ([`UnaryCase::decode`]) read one column
//! the same way:
//!
//! | bytes | meaning |
//! |---|---|
//! | 2 | options, as above (the division-by-zero policy unused) |
//! | 1 | operator, modulo 8: 0 `neg`, 1 `abs`, else `rescale` |
//! | 2 | the rescale target (read for every operator): with bit `0x80` of its first byte, relative to the operand's type (precision changed by the low four bits less 8, scale by the second byte as a signed number, clamped to a valid type), else a type as the operand's |
//! | 2 | the operand's type: precision, then scale |
//! | 1 | its storage width |
//! | 1 | layout: `0x01` unchecked, `0x04` nullable |
//! | pair | rows |
//! | 1 | shape, modulo 4: 3 the column's row 0 as a scalar, else the column |
//! | pair + pair | slice offset and length |
//! | column | the operand |
//! | 1 | slice, as above |
//! | 1 + 1 | with bit `0x01` of the first (an input that ends before it has none), the operator is instead `round`, `floor`, `ceil` or `trunc` (bits `0x06`) to the second byte's digits as a signed number, times `2^24` with bit `0x20` |
//!
//! The aggregates ([`AggregateCase::decode`]) read one column and its
//! groups:
//!
//! | bytes | meaning |
//! |---|---|
//! | 2 | options, as above (the division-by-zero policy unused) |
//! | 1 | aggregate: bit `0x01` `avg`, else `sum` |
//! | 2 | the column's type: precision, then scale |
//! | 1 | its storage width |
//! | 1 | layout: `0x01` unchecked, `0x04` nullable, `0x10` sliced |
//! | pair | rows |
//! | 1 | groups: `0xff` none, else 1 to 16 |
//! | 1 + pair | each row's group, modulo 4: 0 the row modulo the groups, 1 from a generator seeded by the pair, 2 the last group, 3 runs of rows in group order |
//! | 1 + pair | a stray group: with bit `0x80`, the row (the pair modulo the rows) is put in group `usize::MAX` (with `0x40`) or the number of groups plus the low six bits |
//! | column | the values |
//! | 1 | with `0x10` in the layout, the slice's offset (the rows after it are kept) |
//! | 1 + pair | partitions, 1 to 4, cut where a generator seeded by the pair says; each adds its rows in two batches, split there too |
//! | 1 | bit `0x01`: states merged last to first; the bits above, modulo 8: groups emitted at a time (0 all) |
//! | 1 | with bit `0x01` (an input that ends before it has none), the aggregate is instead `min` (bit `0x02` clear) or `max` |
//!
//! A *value* is a tag byte and, for some tags, more bytes. The tag's low three
//! bits pick the kind: 0 zero, 1 the largest of the precision, 2 the smallest
//! with all its digits, 3 five times a power of ten (one more byte), 4 one
//! byte, 5 and 6 raw stored bytes (the storage width's worth; reduced below the
//! precision in a checked column), 7 in an unchecked column one of the native
//! extremes or `10^p` chosen by bits `0x30` (the largest of the precision in a
//! checked one). Bit `0x08` negates it; bit `0x80` makes it null in a nullable
//! column.
//!
//! A *column* with `rows` rows is:
//!
//! 1. a count byte and that many values (at most `rows`): rows 0, 1, … as
//!    given;
//! 2. a fill byte for the rows after them: 0 repeats the given values in turn
//!    (zeros when none are given); any other value `m` fills them from a
//!    xorshift generator seeded by the next pair, each row a value whose tag is
//!    a generated byte masked by `m` (so `m` chooses which kinds, signs and
//!    nulls can occur) and whose further bytes are generated too;
//! 3. a count byte, modulo 8, of placed values, each a pair (its row, modulo
//!    `rows`) and a value that replaces what that row held.
//!
//! A short input thus makes a long column of repeated or generated tame
//! values with a few failing ones placed at any row.
//!
//! [`check_bytes`] decodes a call, runs it, and compares the result with the
//! [`reference`](decimal_kernels::conformance::reference()); [`check_unary_bytes`] does the same for
//! `rescale`, `neg` and `abs` against
//! [`reference_unary`](decimal_kernels::conformance::reference_unary), [`check_aggregate_bytes`]
//! for `sum` and `avg` (by group, whole, and through partitioned
//! accumulators whose states cross Arrow arrays) against
//! [`reference_aggregate`](decimal_kernels::conformance::reference_aggregate), and [`check_text`]
//! for parsing: the exact reading (`DecimalScalar::parse`) round-trips, the
//! cast ([`cast::parse`](decimal_kernels::cast::parse)) of the same text
//! equals [`reference_parse`](decimal_kernels::conformance::reference_parse)
//! under every rounding mode and both overflow policies, and the exact
//! reading accepts a text exactly when every mode reads it as one value.
//! [`check_compare_bytes`] holds the six comparisons (through
//! [`compare`](decimal_kernels::compare()) and the named functions) to
//! [`reference_compare`](decimal_kernels::conformance::reference_compare) on
//! two operands read as [`Case::decode`] reads them, after a byte picking
//! the comparison; [`check_number_cast_bytes`] holds the casts between
//! decimals and integers or floats (any bit pattern: NaN, infinities,
//! subnormals) to the reference's, its byte format in its module.
//! None may panic on any input. The crate's fuzz targets (`fuzz/`) are one
//! line each on top of these, and the inputs kept from their runs
//! (`fuzz/regressions/`) are replayed by `cargo test`; an engine can fuzz its
//! own kernels with [`Case::check_kernel`].
//!
//! A tool of this repository, not published: its byte format changes
//! whenever the decoder learns something new. It builds columns, scalars and
//! calls through `decimal-kernels`' public API only, as an engine would.
//!
//! ```
//! use decimal_kernels::BinaryOp;
//! use decimal_kernels_fuzz_decoder as fuzz;
//! fuzz::check_bytes(BinaryOp::Div, b"any bytes at all").expect("conforms");
//! fuzz::check_unary_bytes(b"any bytes at all").expect("conforms");
//! fuzz::check_aggregate_bytes(b"any bytes at all").expect("conforms");
//! // decimal(5, 1) from the first two bytes, then the text.
//! fuzz::check_text(b"\x05\x4f-12.5").expect("parses back to itself");
//! ```

use decimal_kernels::aggregate::{
    Accumulator, AggregateOp, AggregateState, avg, avg_groups, max, max_groups, min, min_groups,
    sum, sum_groups,
};
use decimal_kernels::conformance::{
    ConformanceError, Mismatch, compare, reference_aggregate, reference_parse, reference_unary,
};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalNative, DecimalScalar,
    DecimalType, MAX_PRECISION, Operand, OverflowPolicy, RoundFunction, RoundingMode, StorageWidth,
    UnaryOp, binary, cast, unary,
};
// The arrow-buffer types of the major `decimal-kernels` builds on, as the
// kernels crate re-exports them.
use decimal_kernels_native::{NullBuffer, ScalarBuffer, i256};

mod compare;
mod number_cast;

pub use compare::check_compare_bytes;
pub use number_cast::check_number_cast_bytes;

/// `got` against `expected`: the same error, or the same rows; otherwise
/// the first row that differs, named by `call`, and both outcomes there.
pub(crate) fn check_rows<V: PartialEq + core::fmt::Debug>(
    call: impl Fn(usize) -> String,
    expected: &Result<Vec<Option<V>>, DecimalError>,
    got: &Result<Vec<Option<V>>, DecimalError>,
) -> Result<(), ReferenceMismatch> {
    if got == expected {
        return Ok(());
    }
    let row = match (expected, got) {
        (Ok(e), Ok(g)) => (0..e.len().max(g.len())).find(|&i| e.get(i) != g.get(i)).unwrap_or(0),
        _ => 0,
    };
    let show = |outcome: &Result<Vec<Option<V>>, DecimalError>| match outcome {
        Ok(rows) => format!("{:?} of {} rows", rows.get(row), rows.len()),
        Err(e) => e.to_string(),
    };
    Err(ReferenceMismatch { call: call(row), expected: show(expected), got: show(got) })
}

/// A call whose result differs from the reference's: the call (with the
/// first row that differs), and both results there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceMismatch {
    /// The call and the row, described.
    pub call: String,
    /// What the reference gives.
    pub expected: String,
    /// What the function gives.
    pub got: String,
}

impl core::fmt::Display for ReferenceMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: expected {}, got {}", self.call, self.expected, self.got)
    }
}

impl std::error::Error for ReferenceMismatch {}

/// The four Arrow decimal widths.
const ARROW_WIDTHS: [StorageWidth; 4] =
    [StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256];

/// The most rows a decoded column has: eight of the kernels' 512-row blocks,
/// sixty-four of their 64-row failure chunks.
pub const MAX_ROWS: usize = 4096;

/// Where a value's bytes come from: the input, or a generator.
trait ByteSource {
    /// The next byte.
    fn byte(&mut self) -> u8;

    /// The next two bytes as a little-endian integer.
    fn pair(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    /// A row count from the next pair: the pair itself up to [`MAX_ROWS`],
    /// else its low byte. Most pairs are larger, so most calls stay short (and
    /// fast to check); a long column takes a high byte of at most 16.
    fn rows(&mut self) -> usize {
        let pair = usize::from(self.pair());
        if pair <= MAX_ROWS { pair } else { pair & 0xff }
    }

    /// The next `width.bytes()` bytes as a little-endian signed integer.
    fn native(&mut self, width: StorageWidth) -> i256 {
        let mut bytes = [0u8; 32];
        for b in bytes.iter_mut().take(width.bytes()) {
            *b = self.byte();
        }
        wrap_to_width(i256::from_le_bytes(bytes), width)
    }
}

/// The bytes not yet read; zeros once they run out.
struct Reader<'a> {
    rest: &'a [u8],
}

impl ByteSource for Reader<'_> {
    fn byte(&mut self) -> u8 {
        match self.rest.split_first() {
            Some((&first, rest)) => {
                self.rest = rest;
                first
            }
            None => 0,
        }
    }
}

/// A xorshift generator: many rows of values from a two-byte seed.
struct Xorshift {
    state: u64,
}

impl Xorshift {
    fn new(seed: u16) -> Self {
        // Spread the seed over the word; the state must not be zero.
        let spread = u64::from(seed).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Self { state: spread | 1 }
    }
}

impl ByteSource for Xorshift {
    fn byte(&mut self) -> u8 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state = x;
        // The high bits are the best mixed.
        x.to_le_bytes()[7]
    }
}

/// `v` truncated to `width`'s bits and sign-extended back: what a buffer of
/// that width would hold after a wrapping store.
fn wrap_to_width(v: i256, width: StorageWidth) -> i256 {
    let mut bytes = v.to_le_bytes();
    let kept = width.bytes();
    let fill = if bytes[kept - 1] & 0x80 == 0 { 0 } else { 0xff };
    for b in &mut bytes[kept..] {
        *b = fill;
    }
    i256::from_le_bytes(bytes)
}

/// `10^k` (`k ≤ 76` fits an `i256`).
fn pow10(k: u8) -> i256 {
    i256::from_i128(10).wrapping_pow(u32::from(k))
}

/// A type from two bytes: mostly valid, with precisions 0 and 77 and scales
/// just outside `-76..=p` now and then.
fn decimal_type(r: &mut impl ByteSource) -> Result<DecimalType, DecimalError> {
    let precision = r.byte() % (MAX_PRECISION + 2);
    let span = u16::from(precision) + 80;
    let scale = i16::try_from(u16::from(r.byte()) % span).unwrap_or(0) - 78;
    DecimalType::try_new(precision, i8::try_from(scale).unwrap_or(i8::MIN))
}

/// A storage width for `dtype`: its narrowest or a wider one, or (one time in
/// eight) any width at all.
fn storage_width(r: &mut impl ByteSource, dtype: DecimalType) -> StorageWidth {
    let choice = usize::from(r.byte());
    let narrowest = StorageWidth::ALL.iter().position(|&w| w == dtype.storage_width()).unwrap_or(0);
    let from = if choice & 0x80 == 0x80 && choice & 0x40 == 0 { 0 } else { narrowest };
    let candidates = &StorageWidth::ALL[from..];
    candidates[choice % candidates.len()]
}

/// How one column is laid out.
#[derive(Clone, Copy)]
struct Layout {
    dtype: DecimalType,
    width: StorageWidth,
    checked: bool,
    nullable: bool,
    rows: usize,
}

/// One stored value: from a tag byte and, for some kinds, more bytes.
/// Checked columns stay within the precision; unchecked ones hold anything
/// their width can.
fn value(r: &mut impl ByteSource, tag: u8, layout: &Layout) -> i256 {
    let p = layout.dtype.precision();
    let negative = tag & 0x08 != 0;
    let limit = pow10(p).wrapping_sub(i256::ONE);
    let magnitude = match tag & 0x07 {
        0 => i256::ZERO,
        1 => limit,
        2 => pow10(p - 1),
        3 => pow10(r.byte() % p).wrapping_mul(i256::from_i128(5)),
        4 => i256::from_i128(r.byte().into()),
        5 | 6 => {
            let raw = r.native(layout.width);
            if !layout.checked {
                return raw;
            }
            raw.wrapping_rem(pow10(p))
        }
        _ if layout.checked => limit,
        _ => match (tag >> 4) & 0x03 {
            0 => i256::MIN,
            1 => i256::MAX,
            2 => pow10(p),
            _ => i256::MAX.wrapping_sub(i256::ONE),
        },
    };
    let signed = if negative { magnitude.wrapping_neg() } else { magnitude };
    if layout.checked { signed } else { wrap_to_width(signed, layout.width) }
}

/// One row of a column, its tag masked by `mask`: its value and whether it
/// is valid.
fn row(r: &mut impl ByteSource, mask: u8, layout: &Layout) -> (i256, bool) {
    let tag = r.byte() & mask;
    (value(r, tag, layout), !layout.nullable || tag & 0x80 == 0)
}

/// A column decoded from `r` (the format is in the module header), built
/// through the public constructors.
fn column(r: &mut Reader<'_>, layout: Layout) -> Result<DecimalArray, DecimalError> {
    let given = usize::from(r.byte()).min(layout.rows);
    let mut rows: Vec<(i256, bool)> = (0..given).map(|_| row(r, u8::MAX, &layout)).collect();
    match r.byte() {
        0 => {
            let pattern = if rows.is_empty() { vec![(i256::ZERO, true)] } else { rows.clone() };
            rows.extend(pattern.into_iter().cycle().take(layout.rows - given));
        }
        mask => {
            let mut generator = Xorshift::new(r.pair());
            rows.extend((given..layout.rows).map(|_| row(&mut generator, mask, &layout)));
        }
    }
    for _ in 0..r.byte() % 8 {
        let at = usize::from(r.pair());
        let placed = row(r, u8::MAX, &layout);
        if let Some(slot) = at.checked_rem(layout.rows).and_then(|i| rows.get_mut(i)) {
            *slot = placed;
        }
    }
    let (values, valid): (Vec<i256>, Vec<bool>) = rows.into_iter().unzip();
    let nulls = layout.nullable.then(|| NullBuffer::from(valid));
    if layout.checked {
        return DecimalArray::try_new(layout.dtype, ScalarBuffer::from(values), nulls)?
            .with_width(layout.width);
    }
    match layout.width {
        StorageWidth::I8 => unchecked::<i8>(layout.dtype, values, nulls),
        StorageWidth::I16 => unchecked::<i16>(layout.dtype, values, nulls),
        StorageWidth::I32 => unchecked::<i32>(layout.dtype, values, nulls),
        StorageWidth::I64 => unchecked::<i64>(layout.dtype, values, nulls),
        StorageWidth::I128 => unchecked::<i128>(layout.dtype, values, nulls),
        StorageWidth::I256 => unchecked::<i256>(layout.dtype, values, nulls),
    }
}

/// An unchecked column of `values` stored as `T` (each already wrapped to
/// `T`'s width, so none is lost).
fn unchecked<T: DecimalNative>(
    dtype: DecimalType,
    values: Vec<i256>,
    nulls: Option<NullBuffer>,
) -> Result<DecimalArray, DecimalError> {
    let typed: Vec<T> = values.into_iter().map(|v| T::from_i256(v).unwrap_or_default()).collect();
    DecimalArray::new_unchecked(dtype, ScalarBuffer::from(typed), nulls)
}

/// The canonical text of `operand` at `row` (`NULL` for a null).
fn text(operand: Operand<'_>, row: usize) -> String {
    match operand {
        Operand::Array(array) => array.scalar(row).map_or_else(|| "NULL".into(), |s| s.to_string()),
        Operand::Scalar(scalar) => scalar.to_string(),
    }
}

/// Options from two bytes: any profile (FixedPoint, Arrow at one of its
/// widths, Spark with and without precision loss, Presto), any rounding mode,
/// and either policy for overflow and for division by zero.
fn options(r: &mut impl ByteSource) -> ArithmeticOptions {
    let (profile, knobs) = (r.byte(), r.byte());
    let base = match profile % 8 {
        0 => ArithmeticOptions::fixed_point(),
        5 => ArithmeticOptions::spark(),
        6 => ArithmeticOptions::spark_no_precision_loss(),
        7 => ArithmeticOptions::presto(),
        w => ArithmeticOptions::arrow(ARROW_WIDTHS[usize::from(w - 1)]),
    };
    let modes = RoundingMode::ALL;
    let policy = |bit: u8| {
        if knobs & bit == 0 { OverflowPolicy::Error } else { OverflowPolicy::Null }
    };
    base.with_rounding(modes[usize::from(knobs) % modes.len()])
        .with_on_overflow(policy(0x20))
        .with_on_divide_by_zero(policy(0x40))
}

/// Which operands are arrays and which scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    ArrayArray,
    ScalarArray,
    ArrayScalar,
    ScalarScalar,
}

/// One call decoded from bytes: operator, options and operands.
#[derive(Clone, Debug)]
pub struct Case {
    op: BinaryOp,
    options: ArithmeticOptions,
    lhs: DecimalArray,
    rhs: DecimalArray,
    lhs_scalar: DecimalScalar,
    rhs_scalar: DecimalScalar,
    shape: Shape,
}

impl Case {
    /// The call that `bytes` describe for `op`.
    ///
    /// # Errors
    /// The typed error of the first constructor that rejects what the bytes
    /// ask for (an invalid type, a storage width too narrow, a value beyond a
    /// width, a slice past the end): bad input meets an error, never a panic.
    pub fn decode(op: BinaryOp, bytes: &[u8]) -> Result<Self, DecimalError> {
        let mut r = Reader { rest: bytes };
        let options = options(&mut r);
        let (lhs_type, rhs_type) = (decimal_type(&mut r)?, decimal_type(&mut r)?);
        let (lhs_width, rhs_width) =
            (storage_width(&mut r, lhs_type), storage_width(&mut r, rhs_type));
        let layout = r.byte();
        let rows = r.rows();
        // Arrays on both sides half the time; one time in eight, of lengths
        // that may differ.
        let (shape, rhs_rows) = match r.byte() % 8 {
            4 => (Shape::ScalarArray, rows),
            5 => (Shape::ArrayScalar, rows),
            6 => (Shape::ScalarScalar, rows),
            7 => (Shape::ArrayArray, r.rows()),
            _ => (Shape::ArrayArray, rows),
        };
        let (slice_at, slice_len) = (usize::from(r.pair()), usize::from(r.pair()));
        let lhs = column(
            &mut r,
            Layout {
                dtype: lhs_type,
                width: lhs_width,
                checked: layout & 0x01 == 0,
                nullable: layout & 0x04 != 0,
                rows,
            },
        )?;
        let rhs = column(
            &mut r,
            Layout {
                dtype: rhs_type,
                width: rhs_width,
                checked: layout & 0x02 == 0,
                nullable: layout & 0x08 != 0,
                rows: rhs_rows,
            },
        )?;
        let scalar_of =
            |a: &DecimalArray| a.scalar(0).unwrap_or_else(|| DecimalScalar::null(a.dtype()));
        let (lhs_scalar, rhs_scalar) = (scalar_of(&lhs), scalar_of(&rhs));
        // Slices: none, one within bounds, or (one time in eight) as asked,
        // which may reach past the end.
        let (lhs, rhs) = match r.byte() & 0x07 {
            0..=2 => (lhs, rhs),
            7 => (lhs.slice(slice_at, slice_len)?, rhs.slice(slice_at, slice_len)?),
            _ => {
                let offset = slice_at % (rows + 1);
                let len = slice_len % (rows - offset + 1);
                let rhs_len = len.min(rhs_rows.saturating_sub(offset));
                (lhs.slice(offset, len)?, rhs.slice(offset.min(rhs_rows), rhs_len)?)
            }
        };
        Ok(Self { op, options, lhs, rhs, lhs_scalar, rhs_scalar, shape })
    }

    /// The operands as the call passes them.
    #[must_use]
    pub fn operands(&self) -> (Operand<'_>, Operand<'_>) {
        let (lhs, rhs) = match self.shape {
            Shape::ArrayArray => ((&self.lhs).into(), (&self.rhs).into()),
            Shape::ScalarArray => ((&self.lhs_scalar).into(), (&self.rhs).into()),
            Shape::ArrayScalar => ((&self.lhs).into(), (&self.rhs_scalar).into()),
            Shape::ScalarScalar => ((&self.lhs_scalar).into(), (&self.rhs_scalar).into()),
        };
        (lhs, rhs)
    }

    /// The operator.
    #[must_use]
    pub fn op(&self) -> BinaryOp {
        self.op
    }

    /// The options of the call.
    #[must_use]
    pub fn options(&self) -> &ArithmeticOptions {
        &self.options
    }

    /// Runs `kernel` on the call and compares its result with the reference.
    ///
    /// # Errors
    /// A [`ConformanceError`] listing what differs.
    pub fn check_kernel<F>(&self, kernel: F) -> Result<(), ConformanceError>
    where
        F: FnOnce(
            BinaryOp,
            Operand<'_>,
            Operand<'_>,
            &ArithmeticOptions,
        ) -> Result<DecimalArray, DecimalError>,
    {
        let (lhs, rhs) = self.operands();
        compare(self.op, lhs, rhs, &self.options, &kernel(self.op, lhs, rhs, &self.options))
    }
}

/// Decodes `bytes` into a call of `op`, runs this crate's kernels on it and
/// compares the result with the reference (bytes whose call a constructor
/// rejects pass: the rejection is a typed error).
///
/// # Errors
/// A [`ConformanceError`] when the kernels and the reference differ.
pub fn check_bytes(op: BinaryOp, bytes: &[u8]) -> Result<(), ConformanceError> {
    let Ok(case) = Case::decode(op, bytes) else {
        return Ok(());
    };
    case.check_kernel(|op, lhs, rhs, options| binary(op, lhs, rhs, options))?;
    check_arrow_round_trip(&case)?;
    Ok(())
}

/// Both columns survive a trip through Arrow arrays unchanged.
fn check_arrow_round_trip(case: &Case) -> Result<(), ConformanceError> {
    for column in [&case.lhs, &case.rhs] {
        let back = DecimalArray::from_arrow(column.to_arrow().as_ref());
        if back.as_ref() != Ok(column) {
            return Err(ConformanceError {
                op: case.op,
                options: case.options,
                mismatches: vec![Mismatch {
                    row: 0,
                    lhs: format!("{} column of {} rows", column.dtype(), column.len()),
                    rhs: String::new(),
                    expected: "the same column back from Arrow".into(),
                    got: format!("{back:?}"),
                }],
                mismatch_count: 1,
            });
        }
    }
    Ok(())
}

/// A rescale target from two bytes: relative to `operand` when the first
/// has bit `0x80` (clamped to a valid type), else any type as
/// [`decimal_type`] reads one.
fn rescale_target(
    [first, second]: [u8; 2],
    operand: DecimalType,
) -> Result<DecimalType, DecimalError> {
    if first & 0x80 == 0 {
        return decimal_type(&mut Reader { rest: &[first, second] });
    }
    let change = i16::from(first & 0x0f) - 8;
    let precision = (i16::from(operand.precision()) + change).clamp(1, MAX_PRECISION.into());
    let scale = (i16::from(operand.scale()) + i16::from(second.cast_signed()))
        .clamp(-i16::from(MAX_PRECISION), precision);
    // Both are clamped into range, so neither conversion fails.
    match (u8::try_from(precision), i8::try_from(scale)) {
        (Ok(precision), Ok(scale)) => DecimalType::try_new(precision, scale),
        _ => Err(DecimalError::InvalidType { precision: precision.into(), scale: scale.into() }),
    }
}

/// One call of an operator of one operand decoded from bytes.
#[derive(Clone, Debug)]
pub struct UnaryCase {
    op: UnaryOp,
    options: ArithmeticOptions,
    column: DecimalArray,
    scalar: DecimalScalar,
    is_scalar: bool,
}

impl UnaryCase {
    /// The call that `bytes` describe (the format is in the module header).
    ///
    /// # Errors
    /// As [`Case::decode`].
    pub fn decode(bytes: &[u8]) -> Result<Self, DecimalError> {
        let mut r = Reader { rest: bytes };
        let options = options(&mut r);
        let choice = r.byte();
        let target = [r.byte(), r.byte()];
        let dtype = decimal_type(&mut r)?;
        let width = storage_width(&mut r, dtype);
        let layout = r.byte();
        let rows = r.rows();
        let is_scalar = r.byte() % 4 == 3;
        let (slice_at, slice_len) = (usize::from(r.pair()), usize::from(r.pair()));
        let checked = layout & 0x01 == 0;
        let nullable = layout & 0x04 != 0;
        let column = column(&mut r, Layout { dtype, width, checked, nullable, rows })?;
        let scalar = column.scalar(0).unwrap_or_else(|| DecimalScalar::null(dtype));
        let column = match r.byte() & 0x07 {
            0..=2 => column,
            7 => column.slice(slice_at, slice_len)?,
            _ => {
                let offset = slice_at % (rows + 1);
                column.slice(offset, slice_len % (rows - offset + 1))?
            }
        };
        // Read last, so that the inputs kept from before these operators
        // decode as they did.
        let rounding = r.byte();
        let op = if rounding & 0x01 != 0 {
            let function = RoundFunction::ALL[usize::from(rounding >> 1) % 4];
            let digits = i32::from(r.byte().cast_signed());
            let digits = if rounding & 0x20 != 0 { digits << 24 } else { digits };
            UnaryOp::Round { function, digits }
        } else {
            match choice % 8 {
                0 => UnaryOp::Neg,
                1 => UnaryOp::Abs,
                _ => UnaryOp::Rescale { to: rescale_target(target, dtype)? },
            }
        };
        Ok(Self { op, options, column, scalar, is_scalar })
    }

    /// The operand as the call passes it.
    #[must_use]
    pub fn operand(&self) -> Operand<'_> {
        if self.is_scalar { (&self.scalar).into() } else { (&self.column).into() }
    }

    /// The operator.
    #[must_use]
    pub fn op(&self) -> UnaryOp {
        self.op
    }

    /// The options of the call.
    #[must_use]
    pub fn options(&self) -> &ArithmeticOptions {
        &self.options
    }

    /// What [`unary`](decimal_kernels::unary) must return for the call:
    /// [`reference_unary`]'s result.
    ///
    /// # Errors
    /// The error the call must return.
    pub fn expected(&self) -> Result<DecimalArray, DecimalError> {
        reference_unary(self.op, self.operand(), &self.options)
    }

    /// Runs `kernel` on the call and compares its result with
    /// [`expected`](Self::expected): the same error, or the same type,
    /// length, validity and value on every row.
    ///
    /// # Errors
    /// A [`UnaryMismatch`] naming the first row that differs.
    #[expect(
        clippy::result_large_err,
        reason = "a mismatch ends a fuzz run once; its size costs nothing"
    )]
    pub fn check_kernel<F>(&self, kernel: F) -> Result<(), UnaryMismatch>
    where
        F: FnOnce(UnaryOp, Operand<'_>, &ArithmeticOptions) -> Result<DecimalArray, DecimalError>,
    {
        let operand = self.operand();
        let got = kernel(self.op, operand, &self.options);
        let expected = self.expected();
        let mismatch = |row: usize, expected: String, got: String, count: usize| UnaryMismatch {
            op: self.op,
            options: self.options,
            operand: format!(
                "{} {}",
                operand.dtype(),
                if self.is_scalar { "scalar" } else { "column" }
            ),
            row,
            value: text(operand, row),
            expected,
            got,
            count,
        };
        let text = |array: &DecimalArray, row: usize| {
            array.scalar(row).map_or_else(|| "no row".into(), |s| s.to_string())
        };
        match (&expected, &got) {
            (Err(e), Err(g)) if e == g => Ok(()),
            (Ok(e), Ok(g)) if e.dtype() != g.dtype() || e.len() != g.len() => Err(mismatch(
                0,
                format!("{} rows of {}", e.len(), e.dtype()),
                format!("{} rows of {}", g.len(), g.dtype()),
                1,
            )),
            (Ok(e), Ok(g)) => {
                let mut rows = (0..e.len()).filter(|&row| e.scalar(row) != g.scalar(row));
                match rows.next() {
                    None => Ok(()),
                    Some(row) => {
                        let count = 1 + rows.count();
                        Err(mismatch(row, text(e, row), text(g, row), count))
                    }
                }
            }
            _ => {
                let show = |outcome: &Result<DecimalArray, DecimalError>| {
                    outcome.as_ref().map_or_else(ToString::to_string, |_| "a result".into())
                };
                let row = [&expected, &got]
                    .into_iter()
                    .find_map(|outcome| match outcome {
                        Err(DecimalError::UnaryOverflow { row, .. }) => Some(*row),
                        _ => None,
                    })
                    .unwrap_or(0);
                Err(mismatch(row, show(&expected), show(&got), 1))
            }
        }
    }
}

/// A result of an operator of one operand that differs from the reference:
/// the first row that differs, and how many do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnaryMismatch {
    /// The operator.
    pub op: UnaryOp,
    /// The options of the call.
    pub options: ArithmeticOptions,
    /// The operand's type and shape.
    pub operand: String,
    /// The first row that differs (the row an error names, or 0).
    pub row: usize,
    /// The operand at that row, canonical text (`NULL` for null).
    pub value: String,
    /// What the reference gives (text, `NULL`, or the error).
    pub expected: String,
    /// What the kernel gives.
    pub got: String,
    /// How many rows differ (a whole-call difference counts as one).
    pub count: usize,
}

impl core::fmt::Display for UnaryMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} rows differ from the reference for `{}` of a {} under {:?}; first, row {}: {} \
             of {}: expected {}, got {}",
            self.count,
            self.op,
            self.operand,
            self.options,
            self.row,
            self.op,
            self.value,
            self.expected,
            self.got
        )
    }
}

impl std::error::Error for UnaryMismatch {}

/// Decodes `bytes` into a call of `rescale`, `neg`, `abs`, `round`, `floor`,
/// `ceil` or `trunc`, runs this
/// crate's kernels on it and compares the result with the reference (bytes
/// whose call a constructor rejects pass: the rejection is a typed error).
///
/// # Errors
/// A [`UnaryMismatch`] when the kernels and the reference differ.
#[expect(
    clippy::result_large_err,
    reason = "a mismatch ends a fuzz run once; its size costs nothing"
)]
pub fn check_unary_bytes(bytes: &[u8]) -> Result<(), UnaryMismatch> {
    let Ok(case) = UnaryCase::decode(bytes) else {
        return Ok(());
    };
    case.check_kernel(|op, operand, options| unary(op, operand, options))
}

/// Text that does not round-trip: what was parsed and what came back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextMismatch {
    /// The text parsed.
    pub text: String,
    /// The type it was parsed as.
    pub dtype: DecimalType,
    /// What went wrong.
    pub problem: String,
}

impl core::fmt::Display for TextMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?} as {}: {}", self.text, self.dtype, self.problem)
    }
}

impl std::error::Error for TextMismatch {}

/// Parses the text in `bytes` (after two bytes giving the type) as a scalar
/// and as a one-row column: both agree, a parsed value prints as text that
/// parses back to the same value, and a rejection is a parse error naming the
/// text. Then casts the text with `cast::parse` under every rounding mode and
/// both overflow policies: the reference's result, an exact reading's value
/// unchanged, and a text the exact reading refuses not one value in every
/// mode.
///
/// # Errors
/// A [`TextMismatch`] describing the disagreement.
pub fn check_text(bytes: &[u8]) -> Result<(), TextMismatch> {
    let mut r = Reader { rest: bytes };
    let Ok(dtype) = decimal_type(&mut r) else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(r.rest).into_owned();
    let fail = |problem: String| TextMismatch { text: text.clone(), dtype, problem };
    let scalar = DecimalScalar::parse(dtype, &text);
    let column = DecimalArray::from_strs(dtype, &[Some(text.as_str())]);
    check_cast_text(&text, dtype, column.as_ref().ok()).map_err(fail)?;
    match (&scalar, &column) {
        (Ok(s), Ok(c)) => {
            if c.scalar(0).as_ref() != Some(s) {
                return Err(fail(format!("scalar {s:?} but column row {:?}", c.scalar(0))));
            }
            let printed = s.to_string();
            match DecimalScalar::parse(dtype, &printed) {
                Ok(again) if again == *s => Ok(()),
                other => Err(fail(format!("printed as {printed:?}, which parses as {other:?}"))),
            }
        }
        (Err(DecimalError::Parse { text: named, .. }), Err(e)) if *named == text => {
            if scalar.as_ref().err() == Some(e) {
                Ok(())
            } else {
                Err(fail(format!("scalar error {scalar:?} but column error {e:?}")))
            }
        }
        _ => Err(fail(format!("scalar {scalar:?}, column {column:?}"))),
    }
}

/// `text` cast to `dtype` by `cast::parse` under every rounding mode and both
/// overflow policies equals `reference_parse`, and equals `exact` (the exact
/// reading, when there is one) whatever the mode; where the exact reading
/// refuses the text, the modes do not all read it as one value (the two
/// readings are two modes of one grammar).
fn check_cast_text(
    text: &str,
    dtype: DecimalType,
    exact: Option<&DecimalArray>,
) -> Result<(), String> {
    let mut values = Vec::new();
    for mode in RoundingMode::ALL {
        for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
            let options =
                ArithmeticOptions::fixed_point().with_rounding(mode).with_on_overflow(policy);
            let got = cast::parse([Some(text)], dtype, &options);
            let want = reference_parse([Some(text)], dtype, &options);
            if got != want {
                return Err(format!("cast under {options:?}: {got:?}, reference {want:?}"));
            }
            if let (Some(exact), Ok(got)) = (exact, &got)
                && got != exact
            {
                return Err(format!("cast under {options:?}: {got:?}, exact reading {exact:?}"));
            }
            if policy == OverflowPolicy::Error {
                values.push(got.ok().and_then(|g| g.to_strs().swap_remove(0)));
            }
        }
    }
    if exact.is_none() && values.iter().all(|v| v.is_some() && *v == values[0]) {
        return Err(format!("the exact reading refuses what every mode reads as {values:?}"));
    }
    Ok(())
}

/// One aggregate call decoded from bytes: the aggregate, options, a column,
/// its rows' groups (one of them, now and then, out of range), and how the
/// rows are split into partitions for the accumulator path.
#[derive(Clone, Debug)]
pub struct AggregateCase {
    op: AggregateOp,
    options: ArithmeticOptions,
    values: DecimalArray,
    groups: Vec<usize>,
    total_groups: usize,
    /// Each partition's rows `start..end`, added in two batches split at
    /// `split`: `(start, split, end)`, in row order.
    partitions: Vec<(usize, usize, usize)>,
    /// Whether the partitions' states are merged last to first.
    reversed: bool,
    /// Groups emitted at a time by the final accumulator (0: all at once).
    emit: usize,
}

impl AggregateCase {
    /// The call that `bytes` describe (the format is in the module header).
    ///
    /// # Errors
    /// As [`Case::decode`].
    pub fn decode(bytes: &[u8]) -> Result<Self, DecimalError> {
        let mut r = Reader { rest: bytes };
        let options = options(&mut r);
        let op = AggregateOp::ALL[usize::from(r.byte() & 1)];
        let dtype = decimal_type(&mut r)?;
        let width = storage_width(&mut r, dtype);
        let layout = r.byte();
        let rows = r.rows();
        let groups_byte = r.byte();
        let total_groups =
            if groups_byte == u8::MAX { 0 } else { 1 + usize::from(groups_byte % 16) };
        let group_mode = r.byte();
        let mut generator = Xorshift::new(r.pair());
        let most = total_groups.max(1);
        let mut groups: Vec<usize> = (0..rows)
            .map(|row| match group_mode % 4 {
                0 => row % most,
                1 => usize::from(generator.byte()) % most,
                2 => most - 1,
                _ => row * most / rows,
            })
            .collect();
        let (stray, stray_row) = (r.byte(), usize::from(r.pair()));
        if stray & 0x80 != 0 && rows > 0 {
            groups[stray_row % rows] = if stray & 0x40 != 0 {
                usize::MAX
            } else {
                total_groups + usize::from(stray & 0x3f)
            };
        }
        let checked = layout & 0x01 == 0;
        let nullable = layout & 0x04 != 0;
        let column = column(&mut r, Layout { dtype, width, checked, nullable, rows })?;
        // A slice now and then, so that validity and values start mid-buffer.
        let offset = if layout & 0x10 != 0 { usize::from(r.byte()) % (rows + 1) } else { 0 };
        let values = column.slice(offset, rows - offset)?;
        let groups = groups.split_off(offset);
        let rows = values.len();
        let parts = 1 + usize::from(r.byte() % 4);
        let mut cuts = Xorshift::new(r.pair());
        let mut bounds: Vec<usize> =
            (1..parts).map(|_| usize::from(cuts.pair()) % (rows + 1)).collect();
        bounds.extend([0, rows]);
        bounds.sort_unstable();
        let partitions = bounds
            .windows(2)
            .map(|w| (w[0], w[0] + usize::from(cuts.pair()) % (w[1] - w[0] + 1), w[1]))
            .collect();
        let order = r.byte();
        // Read last, so that the inputs kept from before `min` and `max`
        // decode as they did.
        let extremes = r.byte();
        let op = if extremes & 0x01 == 0 {
            op
        } else if extremes & 0x02 == 0 {
            AggregateOp::Min
        } else {
            AggregateOp::Max
        };
        Ok(Self {
            op,
            options,
            values,
            groups,
            total_groups,
            partitions,
            reversed: order & 1 != 0,
            emit: usize::from(order >> 1) % 8,
        })
    }

    /// What the aggregate must return by group: [`reference_aggregate`]'s
    /// result.
    ///
    /// # Errors
    /// The error the call must return.
    pub fn expected(&self) -> Result<DecimalArray, DecimalError> {
        reference_aggregate(self.op, &self.values, &self.groups, self.total_groups, &self.options)
    }

    /// The aggregate by group in one call (`sum_groups`, `avg_groups`,
    /// `min_groups`, `max_groups`).
    ///
    /// # Errors
    /// Its error.
    pub fn grouped(&self) -> Result<DecimalArray, DecimalError> {
        let (values, groups, total) = (&self.values, &self.groups[..], self.total_groups);
        match self.op {
            AggregateOp::Sum => sum_groups(values, groups, total, &self.options),
            AggregateOp::Avg => avg_groups(values, groups, total, &self.options),
            AggregateOp::Min => min_groups(values, groups, total, &self.options),
            // `Max`, the last the decoder makes (the enum is non-exhaustive).
            _ => max_groups(values, groups, total, &self.options),
        }
    }

    /// The aggregate by group through one accumulator per partition (each
    /// updated in two batches), their states through Arrow arrays, merged
    /// into a final accumulator in the decoded order, and emitted all at
    /// once or a few groups at a time. Errors name rows and groups as one
    /// call over the whole column would.
    ///
    /// # Errors
    /// The first error on the way.
    pub fn partitioned(&self) -> Result<DecimalArray, DecimalError> {
        let dtype = self.values.dtype();
        let mut states = Vec::with_capacity(self.partitions.len());
        for &(start, split, end) in &self.partitions {
            let mut partial = Accumulator::new(self.op, dtype, &self.options)?;
            for (from, to) in [(start, split), (split, end)] {
                let batch = self.values.slice(from, to - from)?;
                partial.update(&batch, &self.groups[from..to], None, self.total_groups).map_err(
                    |e| match e {
                        DecimalError::GroupOutOfRange { row, group, total_groups } => {
                            DecimalError::GroupOutOfRange { row: row + from, group, total_groups }
                        }
                        other => other,
                    },
                )?;
            }
            states.push(AggregateState::from_arrow(dtype, &partial.state(None).to_arrow())?);
        }
        if self.reversed {
            states.reverse();
        }
        let mut total = Accumulator::new(self.op, dtype, &self.options)?;
        for state in &states {
            let identity: Vec<usize> = (0..state.len()).collect();
            total.merge(state, &identity, self.total_groups)?;
        }
        if self.emit == 0 {
            return total.finish(None);
        }
        let (mut values, mut valid) = (Vec::new(), Vec::new());
        let mut width = None;
        while total.groups() > 0 {
            let offset = values.len();
            let chunk = total.finish(Some(self.emit)).map_err(|e| match e {
                DecimalError::AggregateOverflow { group, result_type, op, value } => {
                    DecimalError::AggregateOverflow {
                        group: group + offset,
                        result_type,
                        op,
                        value,
                    }
                }
                other => other,
            })?;
            width.get_or_insert(chunk.width());
            for row in 0..chunk.len() {
                let value = chunk.scalar(row).and_then(|s| s.value());
                values.push(value.unwrap_or(i256::ZERO));
                valid.push(value.is_some());
            }
        }
        let nulls = Some(NullBuffer::from(valid));
        let array = DecimalArray::try_new(total.result_type(), ScalarBuffer::from(values), nulls)?;
        array.with_width(width.unwrap_or(array.width()))
    }

    /// The whole-column aggregate (`sum`, `avg`, `min`, `max`) and what it must be: the
    /// reference with every row in group 0.
    fn whole(&self) -> (Result<DecimalScalar, DecimalError>, Result<DecimalScalar, DecimalError>) {
        let got = match self.op {
            AggregateOp::Sum => sum(&self.values, &self.options),
            AggregateOp::Avg => avg(&self.values, &self.options),
            AggregateOp::Min => min(&self.values, &self.options),
            // `Max`, the last the decoder makes.
            _ => max(&self.values, &self.options),
        };
        let zeros = vec![0; self.values.len()];
        let expected = reference_aggregate(self.op, &self.values, &zeros, 1, &self.options)
            .map(|a| a.scalar(0).unwrap_or_else(|| DecimalScalar::null(a.dtype())));
        (expected, got)
    }

    /// Runs the aggregate by group, whole and partitioned, and compares each
    /// with the reference: the same error, or the same type, length, and
    /// value and validity of every group (and the storage width of the one
    /// call by group).
    ///
    /// # Errors
    /// An [`AggregateMismatch`] naming the first path and group that differ.
    pub fn check(&self) -> Result<(), AggregateMismatch> {
        let expected = self.expected();
        let mismatch =
            |path: &'static str, group: usize, expected: String, got: String| AggregateMismatch {
                op: self.op,
                options: self.options,
                input: format!(
                    "{} column of {} rows ({} null) at {} in {} groups",
                    self.values.dtype(),
                    self.values.len(),
                    self.values.null_count(),
                    self.values.width(),
                    self.total_groups
                ),
                path,
                group,
                expected,
                got,
            };
        let show = |outcome: &Result<DecimalArray, DecimalError>, group: usize| match outcome {
            Ok(array) => array.scalar(group).map_or_else(
                || format!("{} rows of {}", array.len(), array.dtype()),
                |s| s.to_string(),
            ),
            Err(e) => e.to_string(),
        };
        for (path, got) in [("grouped", self.grouped()), ("partitioned", self.partitioned())] {
            let group = match (&expected, &got) {
                (Err(e), Err(g)) if e == g => continue,
                (Ok(e), Ok(g)) if e.dtype() == g.dtype() && e.len() == g.len() => {
                    match (0..e.len()).find(|&i| e.scalar(i) != g.scalar(i)) {
                        None if path == "partitioned" || e.width() == g.width() => continue,
                        None => {
                            return Err(mismatch(
                                path,
                                0,
                                format!("results at {}", e.width()),
                                format!("results at {}", g.width()),
                            ));
                        }
                        Some(group) => group,
                    }
                }
                _ => 0,
            };
            return Err(mismatch(path, group, show(&expected, group), show(&got, group)));
        }
        let (expected, got) = self.whole();
        if expected != got {
            let show = |outcome: &Result<DecimalScalar, DecimalError>| match outcome {
                Ok(s) => format!("{s} of {}", s.dtype()),
                Err(e) => e.to_string(),
            };
            return Err(mismatch("whole", 0, show(&expected), show(&got)));
        }
        Ok(())
    }
}

/// An aggregate whose result differs from the reference: the path (one call
/// by group, the partitioned accumulators, or the whole column) and the
/// first group that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AggregateMismatch {
    /// The aggregate.
    pub op: AggregateOp,
    /// The options of the call.
    pub options: ArithmeticOptions,
    /// The column and groups, described.
    pub input: String,
    /// `grouped`, `partitioned` or `whole`.
    pub path: &'static str,
    /// The first group that differs (0 when the whole call differs).
    pub group: usize,
    /// What the reference gives (text, `NULL`, or the error).
    pub expected: String,
    /// What the aggregate gives.
    pub got: String,
}

impl core::fmt::Display for AggregateMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "`{}` of a {} under {:?}, {}: group {}: expected {}, got {}",
            self.op, self.input, self.options, self.path, self.group, self.expected, self.got
        )
    }
}

impl std::error::Error for AggregateMismatch {}

/// Decodes `bytes` into an aggregate call, runs `sum`, `avg`, `min` or `max`
/// by group, over
/// the whole column and through partitioned accumulators, and compares each
/// with the reference (bytes whose column a constructor rejects pass).
///
/// # Errors
/// An [`AggregateMismatch`] when a path and the reference differ.
pub fn check_aggregate_bytes(bytes: &[u8]) -> Result<(), AggregateMismatch> {
    let Ok(case) = AggregateCase::decode(bytes) else {
        return Ok(());
    };
    case.check()
}

#[cfg(test)]
mod tests {
    use super::*;
    use decimal_kernels::conformance::reference;
    use rstest::rstest;

    /// Knobs: both policies `Error`.
    const ERROR: u8 = 0x00;
    /// Knobs: both policies `Null`.
    const NULL: u8 = 0x60;

    /// A call on two `decimal(10,2)` arrays of `rows` rows each under
    /// FixedPoint (`knobs` as in the format), followed by `columns`.
    fn call(knobs: u8, layout: u8, rows: u16, columns: &[&[u8]]) -> Vec<u8> {
        let [lo, hi] = rows.to_le_bytes();
        let mut bytes = vec![0, knobs, 10, 80, 10, 80, 0, 0, layout, lo, hi, 0, 0, 0, 0, 0];
        bytes.extend(columns.concat());
        bytes
    }

    /// A column of zeros except for one placed value with tag `tag` (no more
    /// bytes) at `row`.
    fn placed(tag: u8, row: u16) -> Vec<u8> {
        let [lo, hi] = row.to_le_bytes();
        vec![0, 0, 1, lo, hi, tag]
    }

    /// A column repeating the one byte-sized value `n`, and the same with a
    /// zero placed at `row`.
    fn repeated(n: u8) -> Vec<u8> {
        vec![1, 0x04, n, 0, 0]
    }

    fn repeated_with_zero_at(n: u8, row: u16) -> Vec<u8> {
        let [lo, hi] = row.to_le_bytes();
        vec![1, 0x04, n, 0, 1, lo, hi, 0x00]
    }

    #[track_caller]
    fn decode(op: BinaryOp, bytes: &[u8]) -> Case {
        Case::decode(op, bytes).expect("the bytes describe a valid call")
    }

    /// The reference's outcome for the call, and a check that this crate's
    /// kernels agree with it.
    #[track_caller]
    fn expected(case: &Case) -> Result<DecimalArray, DecimalError> {
        let (lhs, rhs) = case.operands();
        case.check_kernel(|op, l, r, o| binary(op, l, r, o))
            .unwrap_or_else(|report| panic!("{report}"));
        reference(case.op(), lhs, rhs, case.options())
    }

    /// The rows of `array` that are null.
    fn null_rows(array: &DecimalArray) -> Vec<usize> {
        (0..array.len()).filter(|&i| !array.is_valid(i)).collect()
    }

    #[rstest]
    #[case::first_row(0)]
    #[case::last_of_first_chunk(63)]
    #[case::last_of_first_block(511)]
    #[case::first_of_second_block(512)]
    #[case::mid_block(2000)]
    #[case::last_row(4095)]
    fn an_overflow_lands_on_the_row_placed(#[case] row: u16) {
        // The largest decimal(10,2) on both sides: their sum overflows.
        let largest = placed(0x01, row);
        let bytes = call(ERROR, 0, 4096, &[&largest, &largest]);
        let case = decode(BinaryOp::Add, &bytes);
        assert_eq!(case.lhs.len(), MAX_ROWS);
        assert!(
            matches!(expected(&case), Err(DecimalError::Overflow { row: r, .. }) if r == row.into())
        );

        let nulled = expected(&decode(BinaryOp::Add, &call(NULL, 0, 4096, &[&largest, &largest])));
        assert_eq!(null_rows(&nulled.expect("overflow nulls the row")), [usize::from(row)]);
    }

    #[rstest]
    #[case::first_row(0)]
    #[case::first_of_second_chunk(64)]
    #[case::after_first_block(700)]
    #[case::last_row(4095)]
    fn a_zero_divisor_lands_on_the_row_placed(#[case] row: u16) {
        let (dividend, divisor) = (repeated(7), repeated_with_zero_at(3, row));
        let case = decode(BinaryOp::Div, &call(ERROR, 0, 4096, &[&dividend, &divisor]));
        let lhs = "0.07".to_string(); // stored 7 at scale 2
        assert_eq!(expected(&case), Err(DecimalError::DivideByZero { row: row.into(), lhs }));

        let nulled = expected(&decode(BinaryOp::Div, &call(NULL, 0, 4096, &[&dividend, &divisor])));
        assert_eq!(null_rows(&nulled.expect("zero divisor nulls the row")), [usize::from(row)]);
    }

    #[test]
    fn given_values_repeat_in_turn() {
        // Three given values: 1, null 2, 3 (a nullable left column).
        let pattern: &[u8] = &[3, 0x04, 1, 0x84, 2, 0x04, 3, 0, 0];
        let case = decode(BinaryOp::Add, &call(ERROR, 0x04, 1000, &[pattern]));
        let pattern = [Some(1), None, Some(3)].map(|v| v.map(i256::from_i128));
        let rows: Vec<Option<i256>> =
            (0..1000).map(|i| case.lhs.scalar(i).and_then(|s| s.value())).collect();
        assert_eq!(rows, pattern.iter().copied().cycle().take(1000).collect::<Vec<_>>());
    }

    #[rstest]
    #[case::small_values_only(0x0c, false)]
    #[case::small_values_and_nulls(0x8c, true)]
    fn a_fill_mask_limits_generated_rows(#[case] mask: u8, #[case] nulls: bool) {
        let seeded = |seed: u8| {
            let column: &[u8] = &[0, mask, seed, 0, 0];
            decode(BinaryOp::Add, &call(ERROR, 0x04, 4096, &[column])).lhs
        };
        let lhs = seeded(1);
        let values: Vec<i256> = (0..MAX_ROWS).filter_map(|i| lhs.values().get(i)).collect();
        let small = i256::from_i128(255);
        assert!(values.iter().all(|v| *v >= small.wrapping_neg() && *v <= small));
        assert!(values.iter().any(|v| *v < i256::ZERO) && values.iter().any(|v| *v > i256::ZERO));
        assert_eq!(lhs.null_count() > 0, nulls);
        assert_eq!(seeded(1), lhs, "the same seed generates the same rows");
        assert_ne!(seeded(2), lhs, "another seed generates other rows");
    }

    #[test]
    fn every_prefix_decodes_without_panic() {
        let largest = placed(0x01, 4095);
        let bytes = call(ERROR, 0x0f, 4096, &[&largest, &[0, 0xff, 9, 9, 1, 0, 2, 0x87]]);
        for end in 0..=bytes.len() {
            check_bytes(BinaryOp::Mul, &bytes[..end])
                .unwrap_or_else(|report| panic!("{end} bytes: {report}"));
        }
    }

    /// A call of `op_byte` (0 `neg`, 1 `abs`, else `rescale` to `target`) on
    /// a `decimal(10,2)` column of `rows` rows under FixedPoint (`knobs` as
    /// in the format), followed by `column`.
    fn unary_call(op_byte: u8, target: [u8; 2], knobs: u8, rows: u16, column: &[u8]) -> Vec<u8> {
        let [lo, hi] = rows.to_le_bytes();
        let mut bytes =
            vec![0, knobs, op_byte, target[0], target[1], 10, 80, 0, 0, lo, hi, 0, 0, 0, 0, 0];
        bytes.extend(column);
        bytes
    }

    /// A target one digit narrower than the operand's type, at its scale.
    const ONE_DIGIT_FEWER: [u8; 2] = [0x80 | 7, 0];

    #[track_caller]
    fn decode_unary(bytes: &[u8]) -> UnaryCase {
        UnaryCase::decode(bytes).expect("the bytes describe a valid call")
    }

    /// The expected outcome of a unary call, and a check that this crate's
    /// kernels agree with it.
    #[track_caller]
    fn expected_unary(case: &UnaryCase) -> Result<DecimalArray, DecimalError> {
        case.check_kernel(|op, operand, options| unary(op, operand, options))
            .unwrap_or_else(|report| panic!("{report}"));
        case.expected()
    }

    #[rstest]
    #[case::relative_narrower([0x80 | 7, 0], (9, 2))]
    #[case::relative_lower_scale([0x80 | 8, 0xfd], (10, -1))]
    #[case::relative_clamped([0x8f, 0x7f], (17, 17))]
    #[case::absolute([5, 80], (5, 2))]
    fn rescale_targets_decode(#[case] target: [u8; 2], #[case] (p, s): (u8, i8)) {
        let case = decode_unary(&unary_call(2, target, ERROR, 1, &[]));
        let to = DecimalType::try_new(p, s).unwrap();
        assert_eq!(case.op(), UnaryOp::Rescale { to });
    }

    #[rstest]
    #[case::first_row(0)]
    #[case::last_of_first_chunk(63)]
    #[case::first_of_second_block(512)]
    #[case::last_row(4095)]
    fn a_rescale_overflow_lands_on_the_row_placed(#[case] row: u16) {
        // The largest decimal(10,2) does not fit decimal(9,2).
        let largest = placed(0x01, row);
        let case = decode_unary(&unary_call(2, ONE_DIGIT_FEWER, ERROR, 4096, &largest));
        assert!(matches!(
            expected_unary(&case),
            Err(DecimalError::UnaryOverflow { row: r, .. }) if r == row.into()
        ));
        let case = decode_unary(&unary_call(2, ONE_DIGIT_FEWER, NULL, 4096, &largest));
        let nulled = expected_unary(&case).expect("overflow nulls the row");
        assert_eq!(null_rows(&nulled), [usize::from(row)]);
    }

    #[rstest]
    #[case::round_to_units(0x01, 0, RoundFunction::Round, 0)]
    #[case::floor_to_hundreds(0x03, 0xfe, RoundFunction::Floor, -2)]
    #[case::ceil_beyond_the_scale(0x05, 5, RoundFunction::Ceil, 5)]
    #[case::trunc_to_the_fewest_digits(0x27, 0x80, RoundFunction::Trunc, i32::MIN)]
    fn rounding_bytes_decode_and_conform(
        #[case] rounding: u8,
        #[case] digits_byte: u8,
        #[case] function: RoundFunction,
        #[case] digits: i32,
    ) {
        // The largest decimal(10,2) at row 3, then the slice byte.
        let mut bytes = unary_call(2, ONE_DIGIT_FEWER, ERROR, 8, &placed(0x01, 3));
        bytes.extend([0, rounding, digits_byte]);
        let case = decode_unary(&bytes);
        assert_eq!(case.op(), UnaryOp::Round { function, digits });
        // The kernels give the reference's value or its overflow (else a panic).
        let _ = expected_unary(&case);
    }

    #[test]
    fn an_input_ending_before_the_rounding_byte_keeps_its_operator() {
        let mut bytes = unary_call(2, ONE_DIGIT_FEWER, ERROR, 8, &placed(0x01, 3));
        let to = DecimalType::try_new(9, 2).unwrap();
        assert_eq!(decode_unary(&bytes).op(), UnaryOp::Rescale { to });
        bytes.extend([0, 0x00, 7]);
        assert_eq!(decode_unary(&bytes).op(), UnaryOp::Rescale { to });
    }

    #[test]
    fn a_negated_storage_minimum_overflows() {
        // An unchecked i256 column of decimal(10,2) holding i256::MIN at row 3.
        let [lo, hi] = 8u16.to_le_bytes();
        let mut bytes = vec![0, NULL, 0, 0, 0, 10, 80, 0x02, 0x01, lo, hi, 0, 0, 0, 0, 0];
        bytes.extend(placed(0x07, 3));
        let case = decode_unary(&bytes);
        assert_eq!(case.column.width(), StorageWidth::I256);
        assert_eq!(case.column.values().get(3), Some(i256::MIN));
        assert_eq!(null_rows(&expected_unary(&case).expect("nulled")), [3]);
    }

    #[test]
    fn every_unary_prefix_decodes_without_panic() {
        let largest = placed(0x01, 4095);
        for op_byte in 0..3 {
            let bytes = unary_call(op_byte, ONE_DIGIT_FEWER, ERROR, 4096, &largest);
            for end in 0..=bytes.len() {
                check_unary_bytes(&bytes[..end])
                    .unwrap_or_else(|report| panic!("{end} bytes: {report}"));
            }
        }
    }

    /// An aggregate of a `decimal(9,2)` column of `rows` rows in 16 groups
    /// (row `i` in group `i % 16`) under Arrow at i32 (whose sums stay at 9
    /// digits), `knobs` as in the format, with `stray` and its row, the
    /// column, then the partitions and emission.
    fn aggregate_call(
        op: u8,
        knobs: u8,
        rows: u16,
        stray: (u8, u16),
        column: &[u8],
        tail: [u8; 4],
    ) -> Vec<u8> {
        let [lo, hi] = rows.to_le_bytes();
        let [stray_lo, stray_hi] = stray.1.to_le_bytes();
        let mut bytes = vec![1, knobs, op, 9, 80, 0, 0x04, lo, hi, 15, 0, 0, 0];
        bytes.extend([stray.0, stray_lo, stray_hi]);
        bytes.extend(column);
        bytes.extend(tail);
        bytes
    }

    /// A column of zeros with the largest value placed at `rows`.
    fn largest_at(rows: &[u16]) -> Vec<u8> {
        let mut column = vec![0, 0, u8::try_from(rows.len()).unwrap()];
        for row in rows {
            column.extend(row.to_le_bytes());
            column.push(0x01);
        }
        column
    }

    #[track_caller]
    fn decode_aggregate(bytes: &[u8]) -> AggregateCase {
        let case = AggregateCase::decode(bytes).expect("the bytes describe a valid call");
        case.check().unwrap_or_else(|report| panic!("{report}"));
        case
    }

    #[rstest]
    #[case::first_group(0, [0, 0, 0, 0])]
    #[case::late_group_in_four_partitions(13, [3, 7, 1, 0])]
    #[case::emitted_three_at_a_time(11, [1, 9, 9, 6])]
    #[case::merged_in_reverse(5, [2, 1, 0, 7])]
    fn an_aggregate_overflow_lands_on_the_group_placed(#[case] group: u16, #[case] tail: [u8; 4]) {
        // Two largest values in one group of 256 rows: their sum and mean
        // (four more digits) overflow decimal(9,2).
        let column = largest_at(&[group + 16, group + 160]);
        for op in 0..2 {
            let case = decode_aggregate(&aggregate_call(op, ERROR, 256, (0, 0), &column, tail));
            assert!(matches!(
                case.expected(),
                Err(DecimalError::AggregateOverflow { group: g, .. }) if g == group.into()
            ));
            let case = decode_aggregate(&aggregate_call(op, NULL, 256, (0, 0), &column, tail));
            let nulled = case.expected().expect("overflow nulls the group");
            assert_eq!(null_rows(&nulled), [usize::from(group)]);
        }
    }

    #[rstest]
    #[case::sum_without_the_byte(None, AggregateOp::Sum)]
    #[case::sum_with_it_clear(Some(0x02), AggregateOp::Sum)]
    #[case::min(Some(0x01), AggregateOp::Min)]
    #[case::max(Some(0x03), AggregateOp::Max)]
    fn the_last_byte_makes_min_or_max(#[case] extremes: Option<u8>, #[case] op: AggregateOp) {
        // The largest decimal(9,2) at row 21, in group 5; zeros elsewhere.
        let mut bytes = aggregate_call(0, ERROR, 256, (0, 0), &largest_at(&[21]), [0, 0, 0, 0]);
        bytes.extend(extremes);
        let case = decode_aggregate(&bytes);
        assert_eq!(case.op, op);
        let group_5 = case.expected().expect("no overflow").scalar(5).map(|s| s.to_string());
        let want = match op {
            AggregateOp::Min => "0.00",
            _ => "9999999.99",
        };
        assert_eq!(group_5.as_deref(), Some(want));
    }

    #[rstest]
    #[case::beyond_the_groups(0x80 | 3, 100, 19)]
    #[case::usize_max(0xc0, 4095, usize::MAX)]
    fn a_stray_group_is_out_of_range_at_its_row(
        #[case] stray: u8,
        #[case] row: u16,
        #[case] group: usize,
    ) {
        let case =
            decode_aggregate(&aggregate_call(1, ERROR, 4096, (stray, row), &[], [3, 1, 2, 4]));
        let want = DecimalError::GroupOutOfRange { row: row.into(), group, total_groups: 16 };
        assert_eq!(case.expected(), Err(want));
    }

    #[test]
    fn every_aggregate_prefix_decodes_without_panic() {
        let column = largest_at(&[3, 4095]);
        let bytes = aggregate_call(1, NULL, 4096, (0x81, 7), &column, [3, 0x55, 0x55, 5]);
        for end in 0..=bytes.len() {
            check_aggregate_bytes(&bytes[..end])
                .unwrap_or_else(|report| panic!("{end} bytes: {report}"));
        }
    }
}
