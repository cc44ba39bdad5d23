//! Casts between decimals and text: [`parse`] reads string rows as decimals
//! of one type, [`format`] writes decimals as text.
//!
//! Reading, the rounded mode of the crate's one text grammar (the exact mode,
//! which refuses a value needing rounding, is `DecimalScalar::parse` and
//! `DecimalArray::from_strs`; both read through `values::text::scan`). A text
//! is `[whitespace] [+|-] digits [. [digits]] [(e|E) [+|-] digits] [whitespace]`
//! (ASCII whitespace; the integer or the fraction digits may be missing, not
//! both). Its value `±m · 10^e` is exact whatever its length or exponent; it
//! is rounded ONCE to the target scale: the digits of weight `10^-scale` and above are
//! kept, the first dropped digit and whether any later one is non-zero
//! decide the rounding, so no intermediate value is ever rounded. Half away
//! from zero under the Arrow, Spark and Presto profiles (arrow-cast's
//! `parse_decimal` documents it; Spark's `Cast` reads the text with
//! `java.math.BigDecimal` and changes its precision with `ROUND_HALF_UP`;
//! Presto's and Trino's varchar-to-decimal cast `setScale(s, HALF_UP)`s a
//! `java.math.BigDecimal` of the text, which refuses surrounding whitespace
//! that this reads), the options' rounding
//! mode under FixedPoint. The rounded value is then checked against the
//! target precision. A text that is not a number, and a number beyond the
//! precision, are a null row under the `Null` overflow policy and a
//! [`DecimalError::Parse`] naming the row under `Error`.
//!
//! Writing. arrow-cast's text (arrow-rs `format_decimal` since arrow 60): a
//! `-` for a negative value, the integer digits (at least one), and for a
//! positive scale a `.` and exactly `scale` fraction digits; a negative scale
//! appends `-scale` zeros to a non-zero value. This is also the crate's
//! canonical text (`DecimalArray::to_strs`).

use core::cmp::Ordering;

use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, i256};

use crate::cast::float::rounds_up;
use crate::cast::integer::decimal_rounding;
use crate::compute::funnel::{FillRows, Operation, Plan, Request, fill};
use crate::rules::storage::ResultStorage;
use crate::types::{ArithmeticOptions, DecimalError, DecimalType, OverflowPolicy, RoundingMode};
use crate::values::text::{self, Scanned, scan, strip_leading_zeros};
use crate::values::{DecimalArray, DecimalNative, DecimalValues};

/// The reason a text that is not a number is refused.
pub(crate) const NOT_A_NUMBER: &str = "not a number";
/// The reason a number beyond the type's precision is refused.
pub(crate) const BEYOND_PRECISION: &str = "more digits than the precision";

/// The string rows `texts` read as decimals of type `to` in the rounded mode
/// of the crate's one text grammar: each rounded once to `to`'s scale (see
/// [Text casts](crate::semantics#text-casts) for the grammar and the rounding
/// of each profile; [`DecimalScalar::parse`](crate::DecimalScalar::parse)
/// reads the same grammar exactly, refusing what needs rounding); results
/// stored as the profile stores `to`.
///
/// `texts` is any exact-size iterator of `Option<&str>` (`None`: a null
/// row): an engine's string column as it holds it, with no copy. Arrow's
/// `StringArray`, `LargeStringArray` and `StringViewArray` (`.iter()`), a
/// slice of `Option<&str>` (`.iter().copied()`) and owned strings
/// (`.iter().map(Option::as_deref)`) all are one.
///
/// ```
/// use decimal_kernels::{cast, ArithmeticOptions, DecimalType, OverflowPolicy, RoundingMode};
/// let to = DecimalType::try_new(5, 2)?;
/// let texts = [Some(" 1.255 "), Some("-2e-3"), Some(".5"), None, Some("1E3"), Some("abc")];
/// let spark = ArithmeticOptions::spark(); // half away from zero; nulls for what does not read
/// let read = cast::parse(texts.iter().copied(), to, &spark)?;
/// let want = [Some("1.26"), Some("0.00"), Some("0.50"), None, None, None];
/// assert_eq!(read.to_strs(), want.map(|t| t.map(String::from)));
/// // FixedPoint rounds with the options' mode (toward zero by default) and
/// // fails on the first row that does not read.
/// let fixed = ArithmeticOptions::fixed_point();
/// let err = cast::parse(texts.iter().copied(), to, &fixed).unwrap_err();
/// assert_eq!(err.to_string(), "cannot parse \"1E3\" at row 4 as decimal(5,2): more digits than the precision");
/// let floor = fixed.with_rounding(RoundingMode::Floor).with_on_overflow(OverflowPolicy::Null);
/// let read = cast::parse(texts.iter().copied(), to, &floor)?;
/// assert_eq!(read.to_strs()[..2], [Some("1.25".into()), Some("-0.01".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::StorageTooNarrow`] when an Arrow profile's width cannot
/// hold `to`; under the `Error` overflow policy, [`DecimalError::Parse`] for
/// the first valid row that is not a number or does not fit `to`.
pub fn parse<'t, I>(
    texts: I,
    to: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError>
where
    I: IntoIterator<Item = Option<&'t str>>,
    I::IntoIter: ExactSizeIterator,
{
    parse_stored(texts, to, options, ResultStorage::Profile)
}

/// [`parse`], stored at the width `storage` chooses.
pub(crate) fn parse_stored<'t, I>(
    texts: I,
    to: DecimalType,
    options: &ArithmeticOptions,
    storage: ResultStorage,
) -> Result<DecimalArray, DecimalError>
where
    I: IntoIterator<Item = Option<&'t str>>,
    I::IntoIter: ExactSizeIterator,
{
    let texts = texts.into_iter();
    let operation = Operation::Parse { to, rows: texts.len() };
    fill(Request::new(operation, options).stored(storage), TextRows(texts))
}

/// The rows of a [`parse`] call.
struct TextRows<I>(I);

impl<'t, I: Iterator<Item = Option<&'t str>>> FillRows for TextRows<I> {
    fn fill<T: DecimalNative>(
        self,
        plan: Plan,
        options: &ArithmeticOptions,
        values: &mut Vec<T>,
    ) -> Result<Option<NullBuffer>, DecimalError> {
        let to = plan.result;
        let mode = decimal_rounding(options);
        let on_failure = options.on_overflow();
        values.reserve(plan.rows);
        // The validity bits, 64 rows a word: cheaper per row than a
        // builder's `append`.
        let mut words: Vec<u64> = Vec::with_capacity(plan.rows.div_ceil(64));
        let (mut word, mut all_valid) = (0_u64, true);
        for (row, text) in self.0.take(plan.rows).enumerate() {
            let value = match text.map(|t| (t, read::<T>(t, to, mode))) {
                Some((_, Ok(v))) => Some(v),
                None => None,
                Some((t, Err(reason))) => {
                    if on_failure == OverflowPolicy::Error {
                        return Err(DecimalError::Parse {
                            row,
                            text: t.to_owned(),
                            dtype: to,
                            reason,
                        });
                    }
                    None
                }
            };
            values.push(value.unwrap_or_default());
            all_valid &= value.is_some();
            word |= u64::from(value.is_some()) << (row % 64);
            if row % 64 == 63 {
                words.push(word);
                word = 0;
            }
        }
        let rows = values.len();
        if rows != plan.rows {
            // An iterator that yielded fewer rows than its length said.
            return Err(DecimalError::LengthMismatch { expected: plan.rows, actual: rows });
        }
        if !rows.is_multiple_of(64) {
            words.push(word);
        }
        Ok((!all_valid)
            .then(|| NullBuffer::new(BooleanBuffer::new(Buffer::from_vec(words), 0, rows))))
    }
}

/// `text` as the stored integer of a decimal of type `to`, rounded once with
/// `mode`.
///
/// # Errors
/// [`NOT_A_NUMBER`] or [`BEYOND_PRECISION`].
// Inlined into the row loop with the scanner and the rounding.
#[inline(always)]
fn read<T: DecimalNative>(
    text: &str,
    to: DecimalType,
    mode: RoundingMode,
) -> Result<T, &'static str> {
    let scanned = scan(text).map_err(|_| NOT_A_NUMBER)?;
    if !scanned.has_digits() {
        return Err(NOT_A_NUMBER);
    }
    let stored = if to.precision() <= <u64 as Magnitude>::DIGITS {
        rounded::<u64>(&scanned, to, mode)?
    } else if to.precision() <= <u128 as Magnitude>::DIGITS {
        rounded::<u128>(&scanned, to, mode)?
    } else {
        rounded::<i256>(&scanned, to, mode)?
    };
    // The width holds the precision, which `rounded` checked.
    T::from_i256(stored).ok_or(BEYOND_PRECISION)
}

/// The magnitude of a value being read, in the narrowest integer that holds
/// every value of the target precision (plus the one of a round-up past it).
trait Magnitude: Copy + PartialOrd {
    /// Digits of precision it serves.
    const DIGITS: u8;
    /// Zero.
    const ZERO: Self;
    /// `self · 10 + digit`.
    fn push(self, digit: u8) -> Self;
    /// `self · 10^8 + eight` (`eight` below `10^8`).
    fn push_eight(self, eight: u64) -> Self;
    /// `self` followed by the ASCII `digits`, eight at a time.
    fn push_digits(self, digits: &[u8]) -> Self {
        let mut chunks = digits.chunks_exact(8);
        let mut value = self;
        for chunk in &mut chunks {
            let eight: [u8; 8] = chunk.try_into().unwrap_or([b'0'; 8]);
            value = value.push_eight(eight_digits(eight));
        }
        chunks.remainder().iter().fold(value, |v, &d| v.push(d - b'0'))
    }
    /// `self · 10^k`.
    fn times_pow10(self, k: u8) -> Self;
    /// `self + 1`.
    fn plus_one(self) -> Self;
    /// `10^k`.
    fn pow10(k: u8) -> Self;
    /// `self` with the sign, as an `i256`.
    fn signed(self, negative: bool) -> i256;
}

impl Magnitude for u64 {
    const DIGITS: u8 = 18;
    const ZERO: Self = 0;
    fn push(self, digit: u8) -> Self {
        self * 10 + Self::from(digit)
    }
    fn push_eight(self, eight: u64) -> Self {
        self * 100_000_000 + eight
    }
    fn times_pow10(self, k: u8) -> Self {
        self * 10_u64.pow(k.into())
    }
    fn plus_one(self) -> Self {
        self + 1
    }
    fn pow10(k: u8) -> Self {
        10_u64.pow(k.into())
    }
    fn signed(self, negative: bool) -> i256 {
        let v = i128::from(self);
        i256::from_i128(if negative { -v } else { v })
    }
}

impl Magnitude for u128 {
    const DIGITS: u8 = 38;
    const ZERO: Self = 0;
    fn push(self, digit: u8) -> Self {
        self * 10 + Self::from(digit)
    }
    fn push_eight(self, eight: u64) -> Self {
        self * 100_000_000 + Self::from(eight)
    }
    fn times_pow10(self, k: u8) -> Self {
        self * 10_u128.pow(k.into())
    }
    fn plus_one(self) -> Self {
        self + 1
    }
    fn pow10(k: u8) -> Self {
        10_u128.pow(k.into())
    }
    fn signed(self, negative: bool) -> i256 {
        // At most 10^38, below i128::MAX.
        let v = i128::try_from(self).unwrap_or(i128::MAX);
        i256::from_i128(if negative { -v } else { v })
    }
}

impl Magnitude for i256 {
    const DIGITS: u8 = 76;
    const ZERO: Self = i256::ZERO;
    fn push(self, digit: u8) -> Self {
        self.wrapping_mul(i256::from_i128(10)).wrapping_add(i256::from_i128(digit.into()))
    }
    fn push_eight(self, eight: u64) -> Self {
        // Modulo 2^256, as eight single pushes would give.
        self.wrapping_mul(i256::from_i128(100_000_000)).wrapping_add(i256::from_i128(eight.into()))
    }
    fn times_pow10(self, k: u8) -> Self {
        self.wrapping_mul(Self::pow10(k))
    }
    fn plus_one(self) -> Self {
        self.wrapping_add(i256::ONE)
    }
    fn pow10(k: u8) -> Self {
        i256::from_i128(10).wrapping_pow(k.into())
    }
    fn signed(self, negative: bool) -> i256 {
        if negative { self.wrapping_neg() } else { self }
    }
}

/// The value of `scanned` at `to`'s scale, rounded once with `mode`, if it
/// fits `to`'s precision (at most `M::DIGITS`).
// Inlined into `read`: the scanned parts stay in registers.
#[inline(always)]
fn rounded<M: Magnitude>(
    scanned: &Scanned<'_>,
    to: DecimalType,
    mode: RoundingMode,
) -> Result<i256, &'static str> {
    let precision = usize::from(to.precision().min(M::DIGITS));
    let (integer, fraction) = (scanned.integer, scanned.fraction);
    let len = integer.len() + fraction.len();
    // Stored = digits · 10^shift: zeros appended when positive, digits
    // dropped when negative. Saturated: past ±2^63 every non-zero value
    // overflows, or rounds from below a hundredth of its last place, either
    // way.
    let shift = scanned
        .exponent
        .unwrap_or(0)
        .saturating_add(i64::from(to.scale()))
        .saturating_sub(i64::try_from(fraction.len()).unwrap_or(i64::MAX));
    let len_i64 = i64::try_from(len).unwrap_or(i64::MAX);
    let below_every_digit = len_i64.saturating_add(shift) < 0;
    let kept = usize::try_from(len_i64.saturating_add(shift).clamp(0, len_i64)).unwrap_or(0);
    // The kept digits are the first `kept` of `integer ++ fraction`.
    let (kept_integer, kept_fraction) = if kept <= integer.len() {
        (&integer[..kept], &fraction[..0])
    } else {
        (integer, &fraction[..kept - integer.len()])
    };
    let (dropped_integer, dropped_fraction) =
        (&integer[kept_integer.len()..], &fraction[kept_fraction.len()..]);
    let last = kept_fraction.last().or(kept_integer.last()).map_or(0, |d| d - b'0');
    let leading = strip_leading_zeros(kept_integer);
    let significant_digits: &[&[u8]; 2] = if leading.is_empty() {
        &[&[], strip_leading_zeros(kept_fraction)]
    } else {
        &[leading, kept_fraction]
    };
    let significant = significant_digits[0].len() + significant_digits[1].len();
    if significant > precision {
        return Err(BEYOND_PRECISION);
    }
    let mut value = M::ZERO.push_digits(significant_digits[0]).push_digits(significant_digits[1]);
    if shift > 0 && significant > 0 {
        if shift > i64::from(M::DIGITS) || significant + shift.unsigned_abs() as usize > precision {
            return Err(BEYOND_PRECISION);
        }
        value = value.times_pow10(u8::try_from(shift).unwrap_or(u8::MAX));
    }
    // The dropped digits: the first decides a tie, the others break it. Digits
    // dropped entirely below the first position (`len + shift < 0`) are
    // preceded by zeros, so the first dropped digit is a 0.
    let nonzero = |digits: &[u8]| digits.iter().any(|&d| d != b'0');
    let (first, sticky) = if below_every_digit {
        (0, nonzero(integer) || nonzero(fraction))
    } else {
        match (dropped_integer.split_first(), dropped_fraction.split_first()) {
            (Some((&d, rest)), _) => (d - b'0', nonzero(rest) || nonzero(dropped_fraction)),
            (None, Some((&d, rest))) => (d - b'0', nonzero(rest)),
            (None, None) => (0, false),
        }
    };
    let negative = scanned.negative;
    let inexact = first != 0 || sticky;
    // The dropped part against one half: its first digit, and any digit
    // after it.
    let half = match first.cmp(&5) {
        Ordering::Equal if sticky => Ordering::Greater,
        order => order,
    };
    let up = rounds_up(half, !inexact, last % 2 == 1, negative, mode);
    if up {
        value = value.plus_one();
        if value >= M::pow10(to.precision()) {
            return Err(BEYOND_PRECISION);
        }
    }
    Ok(value.signed(negative))
}

/// The value of eight ASCII digits (the first the most significant), in a
/// few multiplications on one word instead of eight dependent steps.
fn eight_digits(digits: [u8; 8]) -> u64 {
    let v = u64::from_le_bytes(digits).wrapping_sub(0x3030_3030_3030_3030);
    // Pairs, then quadruples, then all eight: each lane times its weight
    // plus the next lane.
    let v = (v.wrapping_mul(10).wrapping_add(v >> 8)) & 0x00ff_00ff_00ff_00ff;
    let v = (v.wrapping_mul(100).wrapping_add(v >> 16)) & 0x0000_ffff_0000_ffff;
    (v.wrapping_mul(10_000).wrapping_add(v >> 32)) & 0xffff_ffff
}

/// Calls `each` with the text of every row of `array` in order, `None` for a
/// null row: arrow-cast's text, the crate's canonical one (see the
/// [semantics](crate::semantics#text-casts)). Each text is written into one
/// reused buffer, so nothing is allocated per row; `each` copies it where the
/// engine keeps its strings (an Arrow string builder's `append_option`, a
/// `Vec<Option<String>>`).
///
/// ```
/// use decimal_kernels::{cast, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(6, 3)?, &[Some("-0.005"), None, Some("12")])?;
/// let mut texts = Vec::new();
/// cast::format(&a, |text| texts.push(text.map(str::to_owned)));
/// assert_eq!(texts, [Some("-0.005".into()), None, Some("12.000".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
pub fn format(array: &DecimalArray, mut each: impl FnMut(Option<&str>)) {
    let scale = array.dtype().scale();
    let mut buffer = TextBuffer::new();
    let valid = |row: usize| array.nulls().is_none_or(|n| n.is_valid(row));
    match array.values() {
        DecimalValues::I256(values) => {
            for (row, &v) in values.iter().enumerate() {
                each(valid(row).then(|| buffer.write_i256(v, scale)));
            }
        }
        values => {
            for row in 0..values.len() {
                let text = valid(row).then(|| {
                    let v = values.get(row).and_then(|v| v.to_i128()).unwrap_or_default();
                    buffer.write(v < 0, v.unsigned_abs(), scale)
                });
                each(text);
            }
        }
    }
}

/// Room for the longest text: 76 digits, as many zeros for scale -76, a
/// sign, a point and a leading zero.
const TEXT_CAPACITY: usize = 160;

/// One decimal's text, written right to left.
struct TextBuffer {
    bytes: [u8; TEXT_CAPACITY],
    text: String,
}

impl TextBuffer {
    fn new() -> Self {
        Self { bytes: [b'0'; TEXT_CAPACITY], text: String::new() }
    }

    /// The text of the stored integer `±magnitude` at `scale`.
    fn write(&mut self, negative: bool, magnitude: u128, scale: i8) -> &str {
        let mut end = TEXT_CAPACITY;
        if scale < 0 && magnitude != 0 {
            end -= usize::from(scale.unsigned_abs());
            self.bytes[end..].fill(b'0');
        }
        let mut at = end;
        let mut rest = magnitude;
        // Nineteen digits at a time in a u64: one u128 division per chunk.
        const CHUNK: u128 = 10_u128.pow(19);
        while rest > u128::from(u64::MAX) {
            let mut chunk = (rest % CHUNK) as u64;
            rest /= CHUNK;
            for _ in 0..19 {
                at -= 1;
                self.bytes[at] = b'0' + (chunk % 10) as u8;
                chunk /= 10;
            }
        }
        let mut small = rest as u64;
        loop {
            at -= 1;
            self.bytes[at] = b'0' + (small % 10) as u8;
            small /= 10;
            if small == 0 {
                break;
            }
        }
        let fraction = usize::try_from(scale).unwrap_or(0);
        if fraction > 0 {
            // At least one integer digit: "0.05", then the point before the
            // fraction digits.
            while end - at <= fraction {
                at -= 1;
                self.bytes[at] = b'0';
            }
            let point = end - fraction;
            self.bytes.copy_within(at..point, at - 1);
            at -= 1;
            self.bytes[point - 1] = b'.';
        }
        if negative {
            at -= 1;
            self.bytes[at] = b'-';
        }
        // Only ASCII digits, '.' and '-' were written.
        core::str::from_utf8(&self.bytes[at..]).unwrap_or_default()
    }

    /// The text of the stored integer `v` at `scale`.
    fn write_i256(&mut self, v: i256, scale: i8) -> &str {
        match v.to_i128() {
            Some(v) => self.write(v < 0, v.unsigned_abs(), scale),
            None => {
                // Beyond 38 digits: rare enough for the exact big-integer text.
                self.text = text::format(&text::i256_to_bigint(v), scale);
                &self.text
            }
        }
    }
}
