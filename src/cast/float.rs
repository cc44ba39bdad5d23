//! Casts between decimals and the floats `f32`, `f64`.
//!
//! Decimal to float: the float nearest the exact value `a * 10^-s`, ties to
//! the even significand (IEEE 754's rounding), rounded once. When `|a|` and
//! `10^|s|` are both exact floats (`|a| < 2^53` and `|s| <= 22` for `f64`,
//! `2^24` and 10 for `f32`), the quotient `a / 10^s` (or the product
//! `a * 10^-s`) of two exact floats is correctly rounded by the hardware;
//! otherwise the decimal's exact text (`"<digits>e<-s>"`) is parsed by
//! Rust's `str::parse`, which rounds correctly. A value beyond the largest
//! finite float rounds to an infinity, as IEEE 754 rounds.
//!
//! Float to decimal, by profile:
//! - Arrow and FixedPoint: the float's exact binary value `m * 2^e` times
//!   `10^s'`, rounded once to an integer (half away from zero under Arrow,
//!   as its decimal casts; the options' mode under FixedPoint). Rows whose
//!   magnitude at scale `0 <= s' <= 22` stays below `2^51` take the
//!   vectorized kernel (`decimal_kernels_native::from_float`: the product
//!   in double precision and its exact error, Dekker's two-product); the
//!   rows it leaves take the same steps in `u128` (up to `s' = 22`) or
//!   exact fractions of big integers.
//! - Spark, Presto and Trino: the float's shortest round-trip decimal text
//!   (what Java's `Double.toString` gives, which `BigDecimal.valueOf` and
//!   Spark's `Decimal(double)` read) rounded half up to `s'`: Spark's
//!   `CAST(9.95 AS DECIMAL(3,1))` is `10.0` although the double is
//!   `9.949999…`. An `f32` is widened to `f64` first, as both engines widen
//!   a `REAL`/`FLOAT`. Rust's `{:e}` formatting gives those shortest digits;
//!   where Java's differ is in `docs/semantics.md#numeric-casts`.
//!
//! NaN and infinities have no decimal value: the options' overflow policy,
//! as a value beyond the target precision.

use core::cmp::Ordering;
use core::fmt::Write as _;

use arrow_buffer::{ArrowNativeType, NullBuffer, ScalarBuffer, i256};
use decimal_kernels_native::{self as kernels, FromFloatSpec, Policies, Rows};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};

use crate::rules::profiles::rules;
use crate::cast::integer::decimal_rounding;
use crate::compute::funnel::{cast_rows, cast_width};
use crate::compute::operand::Operand;
use crate::rules::numeric_cast::{float_fraction, fraction_at_scale};
use crate::types::{
    ArithmeticOptions, DecimalError, DecimalType, OverflowPolicy, RoundingMode,
};
use crate::values::native::with_buffer;
use crate::values::text::{bigint_to_i256, pow10, precision_limit, scan};
use crate::values::{DecimalArray, DecimalNative, DecimalValues, NullableBuffer, with_native};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A float type decimals cast to and from: `f32`, `f64`.
///
/// ```
/// use decimal_kernels::cast::CastFloat;
/// assert_eq!((f32::NAME, f64::NAME), ("f32", "f64"));
/// ```
pub trait CastFloat: ArrowNativeType + core::fmt::Display + sealed::Sealed {
    /// The type's name (`f64`), for errors.
    const NAME: &'static str;
    /// `10^|scale|` when it is exact in this type.
    #[doc(hidden)]
    fn exact_power(scale: i8) -> Option<Self>;
    /// `a / power` (`a * power` when `!divide`) when `a` is exact in this
    /// type: one correctly rounded operation on two exact floats.
    #[doc(hidden)]
    fn exact_quotient(a: i64, power: Self, divide: bool) -> Option<Self>;
    /// The float nearest the decimal number `text` (Rust's parsing rounds
    /// correctly).
    #[doc(hidden)]
    fn parse_nearest(text: &str) -> Self;
    /// The value as an `f64` (exact).
    #[doc(hidden)]
    fn widened(self) -> f64;
    /// The value of `x`, an `f64` that is a value of this type.
    #[doc(hidden)]
    fn from_widened(x: f64) -> Self;
    /// The values as `f64` (exact; no copy for `f64`).
    #[doc(hidden)]
    fn widened_buffer(values: &ScalarBuffer<Self>) -> ScalarBuffer<f64>;
    /// The stored decimals at `scale` as this type by the vectorized
    /// kernel, with the validity less the rows it left; `None` where the
    /// kernel does not serve this type.
    #[doc(hidden)]
    fn nearest_rows(
        stored: kernels::Operand<'_>,
        scale: i8,
        rows: &Rows<'_>,
    ) -> Option<(ScalarBuffer<Self>, Option<NullBuffer>)>;
}

impl CastFloat for f64 {
    const NAME: &'static str = "f64";
    fn exact_power(scale: i8) -> Option<Self> {
        const POWERS: [f64; 23] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
            1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
        ];
        POWERS.get(usize::from(scale.unsigned_abs())).copied()
    }
    fn exact_quotient(a: i64, power: Self, divide: bool) -> Option<Self> {
        #[expect(clippy::cast_precision_loss, reason = "below 2^53: exact")]
        let a = (a.unsigned_abs() < 1 << 53).then_some(a as f64)?;
        Some(if divide { a / power } else { a * power })
    }
    fn parse_nearest(text: &str) -> Self {
        text.parse().unwrap_or(f64::NAN)
    }
    fn widened(self) -> f64 {
        self
    }
    fn from_widened(x: f64) -> Self {
        x
    }
    fn widened_buffer(values: &ScalarBuffer<Self>) -> ScalarBuffer<f64> {
        values.clone()
    }
    fn nearest_rows(
        stored: kernels::Operand<'_>,
        scale: i8,
        rows: &Rows<'_>,
    ) -> Option<(ScalarBuffer<Self>, Option<NullBuffer>)> {
        let out = kernels::to_float(stored, scale.into(), rows).ok()?;
        Some((out.values, out.nulls))
    }
}

impl CastFloat for f32 {
    const NAME: &'static str = "f32";
    fn exact_power(scale: i8) -> Option<Self> {
        const POWERS: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
        POWERS.get(usize::from(scale.unsigned_abs())).copied()
    }
    fn exact_quotient(a: i64, power: Self, divide: bool) -> Option<Self> {
        #[expect(clippy::cast_precision_loss, reason = "below 2^24: exact")]
        let a = (a.unsigned_abs() < 1 << 24).then_some(a as f32)?;
        Some(if divide { a / power } else { a * power })
    }
    fn parse_nearest(text: &str) -> Self {
        text.parse().unwrap_or(f32::NAN)
    }
    fn widened(self) -> f64 {
        f64::from(self)
    }
    #[expect(clippy::cast_possible_truncation, reason = "x is an f32 value: exact")]
    fn from_widened(x: f64) -> Self {
        x as f32
    }
    fn widened_buffer(values: &ScalarBuffer<Self>) -> ScalarBuffer<f64> {
        values.iter().map(|&x| f64::from(x)).collect()
    }
    /// An `f64` rounded again to `f32` could be a double rounding: `f32`
    /// takes the exact path.
    fn nearest_rows(
        _: kernels::Operand<'_>,
        _: i8,
        _: &Rows<'_>,
    ) -> Option<(ScalarBuffer<Self>, Option<NullBuffer>)> {
        None
    }
}

/// The float nearest the stored decimal `a` at `scale`; `power` is
/// `10^|scale|` when exact in `F`.
fn nearest<F: CastFloat, T: DecimalNative>(
    a: T,
    scale: i8,
    power: Option<F>,
    text: &mut String,
) -> F {
    let exact = power.zip(a.to_i64()).and_then(|(p, a)| F::exact_quotient(a, p, scale >= 0));
    if let Some(quotient) = exact {
        return quotient;
    }
    text.clear();
    // Writing to a `String` cannot fail.
    let _ = write!(text, "{}e{}", a.to_i256(), -i32::from(scale));
    F::parse_nearest(text)
}

/// `operand` cast to the float type `F` row by row (SQL `CAST(x AS
/// DOUBLE)`): the float nearest the exact decimal value, ties to even, in
/// every profile; a value beyond the largest finite `F` is an infinity.
///
/// ```
/// use decimal_kernels::{cast, ArithmeticOptions, DecimalArray, DecimalType};
/// let a = DecimalArray::from_strs(DecimalType::try_new(38, 37)?, &[Some("1"), Some("0.1"), None])?;
/// let floats = cast::to_float::<f64>(&a, &ArithmeticOptions::default())?;
/// assert_eq!((0..3).map(|r| floats.get(r)).collect::<Vec<_>>(), [Some(1.0), Some(0.1), None]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// None today: every decimal has a nearest float. The `Result` leaves room
/// for a policy on infinities.
pub fn to_float<'a, F: CastFloat>(
    operand: impl Into<Operand<'a>>,
    options: &ArithmeticOptions,
) -> Result<NullableBuffer<ScalarBuffer<F>>, DecimalError> {
    // Every profile rounds to nearest: the options choose nothing here.
    let _ = options;
    let operand = operand.into();
    let scale = operand.dtype().scale();
    let (rows, nulls) = cast_rows(operand);
    let mut text = String::new();
    let power = F::exact_power(scale);
    let values: Vec<F> = match operand {
        Operand::Array(a) => with_buffer!(a.values(), b => {
            let lenient = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
            let kernel_rows = Rows::new(rows).with_nulls(nulls.as_ref()).with_policies(lenient);
            match F::nearest_rows(kernels::Operand::array(&b[..]), scale, &kernel_rows) {
                Some((values, left)) => {
                    let mut values = Vec::from(values);
                    for row in left_rows(left.as_ref(), nulls.as_ref()) {
                        values[row] = nearest::<F, _>(b[row], scale, power, &mut text);
                    }
                    values
                }
                None => b.iter().map(|&v| nearest::<F, _>(v, scale, power, &mut text)).collect(),
            }
        }),
        Operand::Scalar(s) => {
            let nearest = |v| nearest::<F, _>(v, scale, power, &mut text);
            let value = s.value().map_or(F::default(), nearest);
            vec![value; rows]
        }
    };
    Ok(NullableBuffer::new(ScalarBuffer::from(values), nulls))
}

/// Whether a magnitude (negative when `negative`, odd when `odd`) goes up by
/// one with `mode`, from how its dropped part compares with one half and
/// whether it is zero (`exact`).
#[inline(always)]
pub(crate) fn rounds_up(
    half: Ordering,
    exact: bool,
    odd: bool,
    negative: bool,
    mode: RoundingMode,
) -> bool {
    match mode {
        RoundingMode::TowardZero => false,
        RoundingMode::HalfUp => half != Ordering::Less,
        RoundingMode::HalfEven => half == Ordering::Greater || (half == Ordering::Equal && odd),
        RoundingMode::Floor => negative && !exact,
        RoundingMode::Ceiling => !negative && !exact,
    }
}

/// `q` (of a magnitude, negative when `negative`) rounded with `mode` from
/// how its dropped part compares with one half, and whether it is zero.
fn rounded_up(q: u128, half: Ordering, exact: bool, negative: bool, mode: RoundingMode) -> u128 {
    q + u128::from(rounds_up(half, exact, q % 2 == 1, negative, mode))
}

/// `values` at the target as the vectorized kernel gives them (their exact
/// binary value rounded with the spec's mode), each row it leaves by
/// `slow(row, x)`; `None` when the kernel refuses the call.
fn exact_rows<F: CastFloat, T: DecimalNative>(
    values: &ScalarBuffer<F>,
    nulls: Option<&NullBuffer>,
    spec: &FromFloatSpec,
    mut slow: impl FnMut(usize, f64) -> T,
) -> Option<Vec<T>> {
    let widened = F::widened_buffer(values);
    let lenient = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
    let rows = Rows::new(values.len()).with_nulls(nulls).with_policies(lenient);
    let out = kernels::from_float::<T>(&widened, spec, &rows).ok()?;
    let mut stored = Vec::from(out.values);
    // The rows it left: NaN, infinities, beyond the precision, or only
    // outside its range.
    for row in left_rows(out.nulls.as_ref(), nulls) {
        stored[row] = slow(row, widened[row]);
    }
    Some(stored)
}

/// The rows a vectorized kernel left: valid in `nulls` (the input's) and
/// null in `left` (its output's, which only adds nulls).
fn left_rows<'a>(
    left: Option<&'a NullBuffer>,
    nulls: Option<&'a NullBuffer>,
) -> impl Iterator<Item = usize> + 'a {
    let count = left
        .map_or(0, NullBuffer::null_count)
        .saturating_sub(nulls.map_or(0, NullBuffer::null_count));
    let valid = |n: Option<&NullBuffer>, row| n.is_none_or(|n| n.is_valid(row));
    let rows = if count == 0 { 0 } else { left.map_or(0, NullBuffer::len) };
    (0..rows).filter(move |&row| !valid(left, row) && valid(nulls, row))
}

/// What one float comes to at the target scale.
enum Stored {
    /// A stored integer within `i128`.
    Small(i128),
    /// Beyond `i128` (only a target above 38 digits can hold it).
    Big(BigInt),
    /// NaN, an infinity, or beyond the precision.
    Fails,
}

/// How a profile reads a float.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FloatValue {
    /// Its exact binary value.
    Exact,
    /// Its shortest round-trip decimal text.
    ShortestText,
}

/// One float at `scale` rounded with `mode`: the magnitude, or big
/// integers where `u128` does not serve.
struct Target {
    scale: i8,
    /// `10^scale` for `0 <= scale <= 22`, where `m * 10^scale` fits `u128`.
    power: Option<u128>,
    mode: RoundingMode,
    limit: Option<u128>,
    big_limit: BigInt,
    value: FloatValue,
}

impl Target {
    fn checked(&self, magnitude: u128, negative: bool) -> Stored {
        match (self.limit, i128::try_from(magnitude)) {
            (Some(limit), _) if magnitude > limit => Stored::Fails,
            (_, Ok(magnitude)) => Stored::Small(if negative { -magnitude } else { magnitude }),
            // Beyond `i128` (a target above 38 digits).
            (_, Err(_)) => {
                let magnitude = BigInt::from(magnitude);
                Stored::Big(if negative { -magnitude } else { magnitude })
            }
        }
    }

    fn big(&self, value: BigInt) -> Stored {
        if value.abs() > self.big_limit { Stored::Fails } else { Stored::Big(value) }
    }

    /// `x`'s exact binary value at the target scale, when `u128` serves
    /// (`0 <= s <= 22`, a product within `2^127`) and the result is within
    /// the precision: the stored integer; `None` otherwise (NaN, infinities,
    /// overflow and the rest are [`exact`](Self::exact)'s).
    #[inline]
    fn exact_small(&self, x: f64) -> Option<i128> {
        let power = self.power?;
        let bits = x.to_bits();
        let biased = i32::try_from((bits >> 52) & 0x7ff).ok()?;
        if biased == 0x7ff {
            return None;
        }
        let fraction = u128::from(bits & ((1 << 52) - 1));
        let (m, e) =
            if biased == 0 { (fraction, -1074) } else { (fraction | 1 << 52, biased - 1075) };
        let negative = x.is_sign_negative();
        let n = m * power;
        let magnitude = if e >= 0 {
            // `n < 2^127`: a shift that keeps it below `2^127` is exact.
            if n.leading_zeros() <= e.unsigned_abs() {
                return None;
            }
            n << e
        } else {
            let k = e.unsigned_abs();
            let (q, half, exact) = if k >= 128 {
                (0, Ordering::Less, n == 0)
            } else {
                let dropped = n & ((1 << k) - 1);
                (n >> k, dropped.cmp(&(1 << (k - 1))), dropped == 0)
            };
            rounded_up(q, half, exact, negative, self.mode)
        };
        if self.limit.is_some_and(|limit| magnitude > limit) {
            return None;
        }
        let magnitude = i128::try_from(magnitude).ok()?;
        Some(if negative { -magnitude } else { magnitude })
    }

    /// `x`'s exact binary value at the target scale.
    fn exact(&self, x: f64) -> Stored {
        if let Some(stored) = self.exact_small(x) {
            return Stored::Small(stored);
        }
        match float_fraction(x) {
            Some((num, den)) => self.big(fraction_at_scale(&num, &den, self.scale, self.mode)),
            None => Stored::Fails,
        }
    }

    /// `x`'s shortest round-trip text at the target scale; `text` is a
    /// buffer to format into.
    fn shortest(&self, x: f64, text: &mut String) -> Stored {
        if !x.is_finite() {
            return Stored::Fails;
        }
        text.clear();
        let _ = write!(text, "{:e}", x.abs());
        // `{:e}` writes at most 17 significant digits and a small exponent:
        // the digits fit `u64`, the exponent `i32`.
        let Ok(scanned) = scan(text) else { return Stored::Fails };
        let digits = (scanned.integer.iter().chain(scanned.fraction))
            .try_fold(0u64, |n, &d| n.checked_mul(10)?.checked_add(u64::from(d - b'0')));
        let (Some(digits), Ok(exponent)) = (digits, i32::try_from(scanned.exponent.unwrap_or(0)))
        else {
            return Stored::Fails;
        };
        let negative = x.is_sign_negative();
        let fraction_digits = i32::try_from(scanned.fraction.len()).unwrap_or(0);
        // value = digits * 10^(exponent - fraction digits); at the scale:
        let k = exponent - fraction_digits + i32::from(self.scale);
        let digits = u128::from(digits);
        if k >= 0 {
            let power = u32::try_from(k).ok().and_then(|k| 10u128.checked_pow(k));
            if let Some(n) = power.and_then(|power| digits.checked_mul(power)) {
                return self.checked(n, negative);
            }
            if self.limit.is_some() {
                return Stored::Fails;
            }
            let n = BigInt::from(digits) * pow10(k.unsigned_abs());
            return self.big(if negative { -n } else { n });
        }
        let (q, half, exact) = match u32::try_from(-k).ok().and_then(|k| 10u128.checked_pow(k)) {
            Some(power) => {
                let r = digits % power;
                ((digits / power), (2 * r).cmp(&power), r == 0)
            }
            // Digits below 10^20 against a power beyond 10^38: below half.
            None => (0, Ordering::Less, digits == 0),
        };
        self.checked(rounded_up(q, half, exact, negative, self.mode), negative)
    }
}

/// The floats `values` (null where `nulls` says so) as decimals of type `to`
/// (SQL `CAST(x AS DECIMAL(p, s))`), rounded once: from the float's exact
/// binary value under Arrow (half away from zero) and FixedPoint (the
/// options' mode), from its shortest round-trip text, half up, under Spark
/// and Presto/Trino. A value beyond `to`'s precision, NaN and infinities
/// are the options' overflow. Results are stored as the profile stores `to`.
///
/// ```
/// use decimal_kernels::{cast, ArithmeticOptions, DecimalType, OverflowPolicy, RoundingMode};
/// let to = DecimalType::try_new(3, 1)?;
/// // The double nearest 9.95 is 9.9499999999999992894572642398998141288757324.
/// let exact = ArithmeticOptions::default().with_rounding(RoundingMode::HalfUp);
/// assert_eq!(cast::from_float(vec![9.95f64], None, to, &exact)?.to_strs(), [Some("9.9".into())]);
/// // Spark reads its shortest text, 9.95, and rounds that half up.
/// assert_eq!(cast::from_float(vec![9.95f64], None, to, &ArithmeticOptions::spark())?.to_strs(), [Some("10.0".into())]);
/// let nan = cast::from_float(vec![f64::NAN], None, to, &exact.with_on_overflow(OverflowPolicy::Null))?;
/// assert_eq!(nan.to_strs(), [None]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
///
/// # Errors
/// [`DecimalError::LengthMismatch`] when `nulls` has another length than
/// `values`; [`DecimalError::StorageTooNarrow`] when the profile's width
/// cannot hold `to`; [`DecimalError::CastOverflow`] naming the first valid
/// row that is NaN, infinite or beyond `to`'s precision under the `Error`
/// overflow policy.
pub fn from_float<F: CastFloat>(
    values: impl Into<ScalarBuffer<F>>,
    nulls: Option<NullBuffer>,
    to: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    let values = values.into();
    if let Some(nulls) = &nulls
        && nulls.len() != values.len()
    {
        return Err(DecimalError::LengthMismatch { expected: values.len(), actual: nulls.len() });
    }
    let width = cast_width(to, options)?;
    let big_limit = precision_limit(to.precision());
    let target = Target {
        scale: to.scale(),
        power: u32::try_from(to.scale()).ok().filter(|&s| s <= 22).map(|s| 10u128.pow(s)),
        mode: decimal_rounding(options),
        limit: big_limit.to_u128(),
        big_limit,
        value: if rules(options).get().reads_floats_as_shortest_text() {
            FloatValue::ShortestText
        } else {
            FloatValue::Exact
        },
    };
    let mut text = String::new();
    let mut failed = Vec::new();
    // The vectorized path reads the float's exact value.
    let fast = u32::try_from(to.scale())
        .ok()
        .filter(|_| target.value == FloatValue::Exact)
        .map(|scale| FromFloatSpec::new(scale, target.mode, to.precision()));
    let stored = with_native!(width, T => {
        let slow = |row: usize, x: f64| -> T {
            let cast = match target.value {
                FloatValue::Exact => target.exact(x),
                FloatValue::ShortestText => target.shortest(x, &mut text),
            };
            match cast {
                Stored::Small(v) => T::from_i256(i256::from_i128(v)).unwrap_or_default(),
                Stored::Big(v) => bigint_to_i256(&v).and_then(T::from_i256).unwrap_or_default(),
                Stored::Fails => {
                    if nulls.as_ref().is_none_or(|n| n.is_valid(row)) {
                        failed.push(row);
                    }
                    T::default()
                }
            }
        };
        let mut slow = slow;
        let vectorized = fast.and_then(|spec| exact_rows(&values, nulls.as_ref(), &spec, &mut slow));
        let out: Vec<T> = match vectorized {
            Some(out) => out,
            None => values.iter().enumerate().map(|(row, &x)| slow(row, x.widened())).collect(),
        };
        T::into_values(ScalarBuffer::from(out))
    });
    if let Some(&row) = failed.first()
        && options.on_overflow() == OverflowPolicy::Error
    {
        let value = values[row].to_string();
        return Err(DecimalError::CastOverflow { row, value, target: to.to_string() });
    }
    let nulls = if failed.is_empty() {
        nulls
    } else {
        let mut valid: Vec<bool> =
            (0..values.len()).map(|r| nulls.as_ref().is_none_or(|n| n.is_valid(r))).collect();
        for row in failed {
            valid[row] = false;
        }
        Some(NullBuffer::from(valid))
    };
    Ok(DecimalArray::from_parts(to, stored, nulls))
}
