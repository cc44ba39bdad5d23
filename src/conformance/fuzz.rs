//! Calls decoded from raw bytes, for coverage-guided fuzzing.
//!
//! A fuzzer hands over arbitrary bytes; [`Case::decode`] reads from them
//! everything a caller controls: the profile, rounding mode and both policies,
//! two operand types (including invalid ones), storage widths (including ones
//! too narrow for the type), checked or unchecked columns holding anything
//! (the native extremes, values beyond the precision), null patterns, slices
//! (including ones past the end), operands of different lengths, and the
//! operand shape (array or scalar on either side). Bytes that run out read as
//! zeros, so every input decodes to something.
//!
//! [`check_bytes`] decodes a call, runs it, and compares the result with the
//! [`reference`](super::reference()); [`check_text`] does the same for parsing.
//! Neither may panic on any input. The crate's fuzz targets (`fuzz/`) are one
//! line each on top of these, and the corpus they keep is replayed by
//! `tests/fuzz_corpus.rs`; [`Case::check_kernel`] fuzzes any other kernel.
//!
//! Built only with the `fuzzing` feature: a tool of this repository, whose
//! byte format changes whenever the decoder learns something new.
//!
//! ```
//! use decimal_kernels::BinaryOp;
//! use decimal_kernels::conformance::fuzz;
//! fuzz::check_bytes(BinaryOp::Div, b"any bytes at all").expect("conforms");
//! // decimal(5, 1) from the first two bytes, then the text.
//! fuzz::check_text(b"\x05\x4f-12.5").expect("parses back to itself");
//! ```

use arrow_buffer::{NullBuffer, ScalarBuffer, i256};

use super::{ConformanceError, compare};
use crate::array::{DecimalArray, DecimalNative, with_native};
use crate::dispatch::{Operand, binary};
use crate::error::DecimalError;
use crate::options::{ArithmeticOptions, BinaryOp, OverflowPolicy, RoundingMode};
use crate::scalar::DecimalScalar;
use crate::types::{DecimalType, MAX_PRECISION, StorageWidth};

/// The four Arrow decimal widths.
const ARROW_WIDTHS: [StorageWidth; 4] =
    [StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256];

/// The bytes not yet read; zeros once they run out.
struct Reader<'a> {
    rest: &'a [u8],
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        match self.rest.split_first() {
            Some((&first, rest)) => {
                self.rest = rest;
                first
            }
            None => 0,
        }
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
fn decimal_type(r: &mut Reader<'_>) -> Result<DecimalType, DecimalError> {
    let precision = r.byte() % (MAX_PRECISION + 2);
    let span = u16::from(precision) + 80;
    let scale = i16::try_from(u16::from(r.byte()) % span).unwrap_or(0) - 78;
    DecimalType::try_new(precision, i8::try_from(scale).unwrap_or(i8::MIN))
}

/// A storage width for `dtype`: its narrowest or a wider one, or (one time in
/// eight) any width at all.
fn storage_width(r: &mut Reader<'_>, dtype: DecimalType) -> StorageWidth {
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
fn value(r: &mut Reader<'_>, tag: u8, layout: &Layout) -> i256 {
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

/// A column decoded from `r`, built through the public constructors.
fn column(r: &mut Reader<'_>, layout: Layout) -> Result<DecimalArray, DecimalError> {
    let mut values = Vec::with_capacity(layout.rows);
    let mut valid = Vec::with_capacity(layout.rows);
    for _ in 0..layout.rows {
        let tag = r.byte();
        valid.push(!layout.nullable || tag & 0x80 == 0);
        values.push(value(r, tag, &layout));
    }
    let nulls = layout.nullable.then(|| NullBuffer::from(valid));
    if layout.checked {
        return DecimalArray::try_new(layout.dtype, ScalarBuffer::from(values), nulls)?
            .with_width(layout.width);
    }
    with_native!(layout.width, T => {
        let typed: Vec<T> = values.into_iter().map(|v| T::from_i256(v).unwrap_or_default()).collect();
        DecimalArray::new_unchecked(layout.dtype, ScalarBuffer::from(typed), nulls)
    })
}

/// Options from two bytes: FixedPoint or Arrow at one of its widths, any
/// rounding mode, and either policy for overflow and for division by zero.
fn options(r: &mut Reader<'_>) -> ArithmeticOptions {
    let (profile, knobs) = (r.byte(), r.byte());
    let base = match profile % 5 {
        0 => ArithmeticOptions::fixed_point(),
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
        // Up to 255 rows: four 64-row chunks, the last one partial.
        let rows = usize::from(r.byte());
        // Arrays on both sides half the time; one time in eight, of lengths
        // that may differ.
        let (shape, rhs_rows) = match r.byte() % 8 {
            4 => (Shape::ScalarArray, rows),
            5 => (Shape::ArrayScalar, rows),
            6 => (Shape::ScalarScalar, rows),
            7 => (Shape::ArrayArray, usize::from(r.byte())),
            _ => (Shape::ArrayArray, rows),
        };
        let (slice_at, slice_len) = (usize::from(r.byte()), usize::from(r.byte()));
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
    #[cfg(feature = "arrow")]
    check_arrow_round_trip(&case)?;
    Ok(())
}

/// Both columns survive a trip through Arrow arrays unchanged.
#[cfg(feature = "arrow")]
fn check_arrow_round_trip(case: &Case) -> Result<(), ConformanceError> {
    for column in [&case.lhs, &case.rhs] {
        let back = DecimalArray::from_arrow(column.to_arrow().as_ref());
        if back.as_ref() != Ok(column) {
            return Err(ConformanceError {
                op: case.op,
                options: case.options,
                mismatches: vec![super::Mismatch {
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
/// text.
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
