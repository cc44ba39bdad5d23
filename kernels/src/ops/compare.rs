//! Comparison of two decimals: `=`, `<>`, `<`, `<=`, `>`, `>=` across any
//! scales and storage widths, exact.
//!
//! Formula: values `a` at scale `s1` and `b` at scale `s2` compare as the
//! integers `a * 10^k1` and `b * 10^k2`, aligned at the larger scale
//! (`k1 = max(s1, s2) - s1`, `k2 = max(s1, s2) - s2`, at most one non-zero);
//! the answer is whether the relation holds for their order. No rounding.
//!
//! Exact without a wider type: the call computes in one work type `W`
//! holding both operands as they are stored (or as their declared precision
//! or a measuring pass over a wide column bounds them), never wider. A shifted value `x` with
//! `|x| > L = floor(W::MAX / 10^k)` has `|x * 10^k| > W::MAX`, and even
//! `> |W::MIN|` (that would take `10^k` dividing a power of two), so beyond
//! every value of the other side: its sign alone decides the order and the
//! product is not used. Every other `x` has `x * 10^k` in `W`, compared as
//! it is. A shift whose power does not fit `W` has `L = 0`: only zero is
//! multiplied. So no row is ever computed in a type wider than its storage,
//! and the branch-free selection between the two answers vectorizes.
//!
//! Each relation is one of `<`, `=`, `>` or the negation of one
//! (`>=` is not `<`), negated per 64-row word; without a shift `>` is `<`
//! with the sides swapped.

use core::cmp::Ordering;
use core::marker::PhantomData;

use arrow_buffer::BooleanBuffer;

use crate::columns::in_place::InPlace;
use crate::columns::operand::{Operand, Values};
use crate::driver::compare::{
    I128WordsConstants, i128_column, run_compare, run_compare_i128_words,
};
use crate::driver::error::KernelError;
use crate::driver::isa::{Isa, Runnable};
use crate::driver::kernel::{CompareKernel, InI64, WordsCompareKernel};
use crate::driver::rows::Rows;
use crate::int::pow10::pow10_bits;
use crate::int::width::WorkWidth;
use crate::int::work::Work;

/// The shape of a comparison: which side is multiplied by `10^k` to align
/// the scales, and for which orders of the aligned values the answer is
/// true.
///
/// ```
/// use decimal_kernels_native::CompareSpec;
/// // decimal(_, 2) <= decimal(_, 5): the left side is multiplied by 10^3.
/// let spec = CompareSpec::new(2, 5, |order| order.is_le());
/// assert_eq!((spec.lhs_shift(), spec.rhs_shift()), (3, 0));
/// // Negative scales align the same way: 10^-3 against 10^1.
/// let spec = CompareSpec::new(1, -3, |order| order.is_eq());
/// assert_eq!((spec.lhs_shift(), spec.rhs_shift()), (0, 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CompareSpec {
    lhs_shift: u32,
    rhs_shift: u32,
    /// The answer when the left side is less than, equal to, greater than
    /// the right one.
    answers: [bool; 3],
}

impl CompareSpec {
    /// Operands at scales `lhs_scale` and `rhs_scale` (any, negative ones
    /// included), answering `true_when(order)` for the order of the left
    /// side against the right one (`|order| order.is_lt()` for `<`).
    #[must_use]
    pub fn new(lhs_scale: i32, rhs_scale: i32, true_when: impl Fn(Ordering) -> bool) -> Self {
        // The gap fits `u32` for every pair of `i32`.
        let gap = (i64::from(rhs_scale) - i64::from(lhs_scale)).unsigned_abs() as u32;
        let (lhs_shift, rhs_shift) = if lhs_scale < rhs_scale { (gap, 0) } else { (0, gap) };
        let answers = [Ordering::Less, Ordering::Equal, Ordering::Greater].map(true_when);
        Self { lhs_shift, rhs_shift, answers }
    }

    /// The power of ten the left side is multiplied by (zero unless its
    /// scale is the smaller).
    #[must_use]
    pub fn lhs_shift(&self) -> u32 {
        self.lhs_shift
    }

    /// The power of ten the right side is multiplied by (zero unless its
    /// scale is the smaller).
    #[must_use]
    pub fn rhs_shift(&self) -> u32 {
        self.rhs_shift
    }

    /// The answer for a row whose aligned left side is `order` to its right
    /// side.
    #[must_use]
    pub fn answer(&self, order: Ordering) -> bool {
        let [less, equal, greater] = self.answers;
        match order {
            Ordering::Less => less,
            Ordering::Equal => equal,
            Ordering::Greater => greater,
        }
    }
}

/// Compares `lhs` with `rhs` row by row, as `spec` says, and returns the
/// answers packed 64 rows to a word (row `i` in bit `i % 64` of word
/// `i / 64`).
///
/// Rows that are null in `rows.nulls` are compared too and their answer is
/// unspecified: the result's validity is the caller's (comparisons never
/// fail, so no row is nulled). An operand declared with
/// [`Operand::assume_precision`] computes in the narrowest type that
/// precision needs; without one, in the type of its storage.
///
/// ```
/// use decimal_kernels_native::{CompareSpec, Operand, Rows, compare};
/// // 1.00 (decimal(_, 2) in i64) against 1.0 and 0.500 (scales 1 and 3, in i128).
/// let (a, b) = ([100i64, 100], [10i128, 500]);
/// let (lhs, rhs) = (Operand::array(&a[..]), Operand::array(&b[..]));
/// let equal = compare(lhs, rhs, &CompareSpec::new(2, 1, |o| o.is_eq()), &Rows::new(2))?;
/// assert!(equal.value(0));
/// let greater = compare(lhs, Operand::scalar(500i64), &CompareSpec::new(2, 3, |o| o.is_gt()), &Rows::new(2))?;
/// assert!(greater.value(0) && greater.value(1));
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
///
/// # Errors
/// [`KernelError::LengthMismatch`] when a column or the validity does not
/// have `rows.len` rows.
pub fn compare(
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    spec: &CompareSpec,
    rows: &Rows<'_>,
) -> Result<BooleanBuffer, KernelError> {
    compare_in(Runnable::active(), lhs, rhs, spec, rows)
}

/// [`compare`] in the loops of `copy`.
pub(crate) fn compare_in(
    copy: Runnable,
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    spec: &CompareSpec,
    rows: &Rows<'_>,
) -> Result<BooleanBuffer, KernelError> {
    let [less, equal, greater] = spec.answers;
    // The shifted side goes first: `x * 10^k` against `y`, with the orders
    // mirrored when that is the right side.
    let (x, y, shift, answers) = if spec.rhs_shift > 0 {
        (rhs, lhs, spec.rhs_shift, [greater, equal, less])
    } else {
        (lhs, rhs, spec.lhs_shift, spec.answers)
    };
    let relation = match answers {
        [false, false, false] | [true, true, true] => {
            rows.check(&[&lhs, &rhs])?;
            return Ok(if less {
                BooleanBuffer::new_set(rows.len)
            } else {
                BooleanBuffer::new_unset(rows.len)
            });
        }
        [true, false, false] => (Relation::Less, false),
        [false, true, false] => (Relation::Equal, false),
        [false, false, true] => (Relation::Greater, false),
        [false, true, true] => (Relation::Less, true),
        [true, false, true] => (Relation::Equal, true),
        [true, true, false] => (Relation::Greater, true),
    };
    let call = Call { copy, x, y, shift, relation: relation.0, negated: relation.1, rows };
    let one_column = x.row_count().is_none() || y.row_count().is_none();
    // Columns stored as `i128` (single values that fit it) whose declared
    // precision needs it: compared in `i64` over their words, each 64-row
    // word with a wider value again in `i128`, in one pass. Measured on
    // `Decimal128` money at 8,192 rows against arrow-ord (same type; vs a
    // scalar) and against DataFusion's cast then compare (two scales):
    // AVX-512 1.85x; 1.83x; 3.38x (the `i128` loop or the measuring pass
    // before it: 0.94x; 1.15x; 1.23x), AVX2 1.19x; 1.05x; 1.36x (0.89x;
    // 0.91x; 1.00x). The portable copy, without 64-bit vector comparisons,
    // gains only where the `i128` loop would multiply: two columns at two
    // scales, 1.06x (0.84x; 1.70x since in the product form
    // `run_i128_words` takes there); one type ran 0.76x (0.94x). With the answers
    // packed as bytes in that copy the `i128` loop still wins for one
    // type (0.72 against 0.94 ns a row for the words loop, on its own).
    let declared = work_width(&x, false).max(work_width(&y, false));
    let words_pay = match copy.isa() {
        Isa::Avx512 | Isa::Avx2 => true,
        _ => shift > 0 && !one_column,
    };
    if cfg!(target_endian = "little")
        && words_pay
        && declared == WorkWidth::I128
        && i128_storage(&x)
        && i128_storage(&y)
    {
        return call.run_i128_words();
    }
    // Otherwise (`i256` storage, mixed widths): whether narrowing wide
    // columns pays for its pass, as measured on `Decimal128` money at 8,192
    // rows against arrow-ord before the words loop: in the AVX2 and
    // AVX-512 copies where it saves an `i128` multiply per row or only one
    // column is measured (two columns compared as they are ran 1.06x
    // arrow-ord in AVX2, measured 0.78x; in AVX-512 1.18x, measured
    // 0.96x); never in the portable copy,
    // whose 64-bit comparisons do not vectorize (measured 0.42-0.68x, as
    // they are 0.80-0.90x).
    // A column beyond the caches would be read from memory twice: at
    // 1,048,576 rows the pass cost more than it saved (0.26-0.69x).
    let in_cache = rows.len <= MEASURED_ROWS;
    let measure = in_cache
        && match copy.isa() {
            Isa::Avx512 | Isa::Avx2 => shift > 0 || one_column,
            _ => false,
        };
    match work_width(&x, measure).max(work_width(&y, measure)) {
        WorkWidth::I64 => call.run::<i64>(),
        WorkWidth::I128 => call.run::<i128>(),
        // No operand needs more than 256 bits, and the shift never widens.
        WorkWidth::I256 | WorkWidth::I512 => call.run::<ethnum::I256>(),
    }
}

/// The most rows of a call whose wide columns are measured: 1 MiB of
/// `i128` values, within the second-level cache the compare reads them from
/// again.
const MEASURED_ROWS: usize = 1 << 16;

/// The narrowest work type holding every value of an operand: its storage
/// type's, or its declared precision's when narrower. With `measure`, a
/// column that would still need more than `i64` is measured (one
/// vectorized pass), so that money in `i128` or `i256` storage (Arrow
/// arrays, whose precision is not vouched for) aligns its scale in 64-bit
/// lanes.
fn work_width(operand: &Operand<'_>, measure: bool) -> WorkWidth {
    let declared = operand.declared_work();
    match operand.values {
        Values::Array(_) if measure && declared > WorkWidth::I64 => {
            declared.min(WorkWidth::for_bits(operand.measured_bits()))
        }
        _ => declared,
    }
}

/// Whether the operand is a column stored as `i128` or a single value that
/// fits it.
fn i128_storage(operand: &Operand<'_>) -> bool {
    match operand.values {
        Values::Array(_) => i128_column(operand).is_some(),
        Values::Scalar(value) => value.to_i128().is_some(),
    }
}

/// One of the three relations the kernels test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Relation {
    Less,
    Equal,
    Greater,
}

impl Relation {
    /// The relation with the sides swapped: `x < y` is `y > x`.
    fn mirrored(self) -> Self {
        match self {
            Self::Less => Self::Greater,
            Self::Greater => Self::Less,
            Self::Equal => Self::Equal,
        }
    }
}

/// A comparison ready to run: the shifted side `x`, the other side `y`.
struct Call<'a, 'r> {
    copy: Runnable,
    x: Operand<'a>,
    y: Operand<'a>,
    shift: u32,
    relation: Relation,
    negated: bool,
    rows: &'a Rows<'r>,
}

impl Call<'_, '_> {
    fn run<W: InPlace>(&self) -> Result<BooleanBuffer, KernelError> {
        let Self { copy, x, y, shift, relation, negated, rows } = *self;
        if shift == 0 {
            let scalar = |o: &Operand<'_>| o.row_count().is_none();
            if scalar(&x) && !scalar(&y) {
                // The column first, the single value held in a register:
                // `x < y` is `y > x`.
                return match relation {
                    Relation::Less => run_compare::<W, Greater>(copy, &y, &x, &(), negated, rows),
                    Relation::Greater => run_compare::<W, Less>(copy, &y, &x, &(), negated, rows),
                    Relation::Equal => run_compare::<W, Equal>(copy, &y, &x, &(), negated, rows),
                };
            }
            // `x > y` is `y < x`: one kernel fewer.
            if relation == Relation::Greater && scalar(&y) {
                return run_compare::<W, Greater>(copy, &x, &y, &(), negated, rows);
            }
            return match relation {
                Relation::Less => run_compare::<W, Less>(copy, &x, &y, &(), negated, rows),
                Relation::Greater => run_compare::<W, Less>(copy, &y, &x, &(), negated, rows),
                Relation::Equal => run_compare::<W, Equal>(copy, &x, &y, &(), negated, rows),
            };
        }
        let c = Alignment::<W>::new(shift);
        match relation {
            Relation::Less => run_compare::<W, ShiftedLess>(copy, &x, &y, &c, negated, rows),
            Relation::Greater => run_compare::<W, ShiftedGreater>(copy, &x, &y, &c, negated, rows),
            Relation::Equal => run_compare::<W, ShiftedEqual>(copy, &x, &y, &c, negated, rows),
        }
    }

    /// [`run`](Self::run) for operands stored as `i128`, in `i64` where
    /// their values fit it, with a single value put on the right (mirroring
    /// the relation, and a shifted one multiplied once).
    fn run_i128_words(&self) -> Result<BooleanBuffer, KernelError> {
        let Self { copy, x, y, shift, relation, negated, rows } = *self;
        let scalar = |o: &Operand<'_>| o.row_count().is_none();
        if shift > 0 && scalar(&x) && !scalar(&y) {
            // `X < y` is `y > X`, with `X = x * 10^k` when it fits `i128`.
            let shifted = x.scalar_value::<i128>().and_then(|v| {
                let power = 10i128.checked_pow(shift)?;
                v.checked_mul(power)
            });
            let Some(shifted) = shifted else { return self.run::<i128>() };
            let relation = relation.mirrored();
            let plain = Call { x: y, y: Operand::scalar(shifted), shift: 0, relation, ..*self };
            return plain.run_i128_words();
        }
        if shift == 0 {
            // The column first: `x < y` is `y > x`.
            let (x, y, relation) =
                if scalar(&x) { (y, x, relation.mirrored()) } else { (x, y, relation) };
            let c = I128WordsConstants { in_i64: &(), words: &(), in_i128: &() };
            return match relation {
                Relation::Less => {
                    run_compare_i128_words::<Less, InI64<Less>>(copy, &x, &y, &c, negated, rows)
                }
                Relation::Greater => run_compare_i128_words::<Greater, InI64<Greater>>(
                    copy, &x, &y, &c, negated, rows,
                ),
                Relation::Equal => {
                    run_compare_i128_words::<Equal, InI64<Equal>>(copy, &x, &y, &c, negated, rows)
                }
            };
        }
        let (c64, c128) = (&Alignment::<i64>::new(shift), &Alignment::<i128>::new(shift));
        // Two columns in the portable and AVX2 copies, with a power of ten
        // that fits `i64`: the shifted side's low word times `10^k` in one
        // 64 x 64 -> 128-bit product, against the other side as it is, with
        // no limit and no test of the other side's range. A scalar row of a
        // dozen instructions, the same in both copies (so the portable loop
        // serves both), where SSE2 has no 64-bit vector comparison and AVX2
        // no 64-bit vector multiply. `Decimal128(15,2) < Decimal128(12,4)`
        // money against DataFusion's cast then compare, 8,192; 1M rows:
        // portable 1.05x; 1.37x -> 1.70x; 1.94x, AVX2 1.45x; 1.79x -> 1.72x;
        // 2.11x. The AVX-512 copy's vectors in `i64` stay (3.4-3.5x).
        if let (Some(factor), Isa::Portable | Isa::Avx2) = (10i64.checked_pow(shift), copy.isa())
            && !scalar(&x)
            && !scalar(&y)
        {
            let copy = Runnable::new(Isa::Portable).unwrap_or(copy);
            let c = I128WordsConstants { in_i64: c64, words: &factor, in_i128: c128 };
            return match relation {
                Relation::Less => run_compare_i128_words::<ShiftedLess, ProductInI128<Less>>(
                    copy, &x, &y, &c, negated, rows,
                ),
                Relation::Greater => {
                    run_compare_i128_words::<ShiftedGreater, ProductInI128<Greater>>(
                        copy, &x, &y, &c, negated, rows,
                    )
                }
                Relation::Equal => run_compare_i128_words::<ShiftedEqual, ProductInI128<Equal>>(
                    copy, &x, &y, &c, negated, rows,
                ),
            };
        }
        let c = I128WordsConstants { in_i64: c64, words: c64, in_i128: c128 };
        match relation {
            Relation::Less => run_compare_i128_words::<ShiftedLess, InI64<ShiftedLess>>(
                copy, &x, &y, &c, negated, rows,
            ),
            Relation::Greater => run_compare_i128_words::<ShiftedGreater, InI64<ShiftedGreater>>(
                copy, &x, &y, &c, negated, rows,
            ),
            Relation::Equal => run_compare_i128_words::<ShiftedEqual, InI64<ShiftedEqual>>(
                copy, &x, &y, &c, negated, rows,
            ),
        }
    }
}

/// Kernel `K` on `x * 10^k` and `y` in `i128`, over `i128` rows read as
/// words: `x`'s low word times `10^k` (which fits `i64`) in one 64 x 64 ->
/// 128-bit product, exact for every `x` that fits `i64` (a row is beyond
/// when `x`'s high word is not the sign of its low word); `y` as it is.
struct ProductInI128<K>(PhantomData<K>);

impl<K: CompareKernel<i128, Constants = ()>> WordsCompareKernel for ProductInI128<K> {
    /// `10^k`.
    type Constants = i64;

    #[inline(always)]
    fn holds_words(
        [x_low, x_high]: [u64; 2],
        [y_low, y_high]: [u64; 2],
        factor: &i64,
    ) -> (bool, u64) {
        let x = x_low.cast_signed();
        let y = (u128::from(y_high) << 64 | u128::from(y_low)).cast_signed();
        let product = i128::from(x) * i128::from(*factor);
        (K::holds(product, y, &()), x_high ^ (x >> 63).cast_unsigned())
    }
}

/// `x * 10^k` in work type `W`, for the values it is formed for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Alignment<W> {
    /// `10^k` (one when it does not fit `W`: only zero is multiplied then).
    factor: W,
    /// `floor(W::MAX / 10^k)` (zero when `10^k` does not fit `W`): the
    /// largest magnitude whose product fits.
    limit: W,
}

impl<W: Work> Alignment<W> {
    fn new(k: u32) -> Self {
        if pow10_bits(k) > W::MAGNITUDE_BITS {
            return Self { factor: W::ONE, limit: W::ZERO };
        }
        let factor = W::pow10(k);
        Self { factor, limit: W::MAX.div_rem(factor).0 }
    }

    /// Whether `x * 10^k` lies beyond every value of `W` (then its sign
    /// decides), and otherwise the product (wrapped, unused, when beyond).
    #[inline(always)]
    fn aligned(&self, x: W) -> (bool, W) {
        (x.exceeds(self.limit), x.mul(self.factor))
    }
}

/// `x < y`.
struct Less;

impl<W: Work> CompareKernel<W> for Less {
    type Constants = ();
    #[inline(always)]
    fn holds(x: W, y: W, (): &()) -> bool {
        x < y
    }
}

/// `x > y`: for a single value on the right of a column, which the words
/// loops read from a register.
struct Greater;

impl<W: Work> CompareKernel<W> for Greater {
    type Constants = ();
    #[inline(always)]
    fn holds(x: W, y: W, (): &()) -> bool {
        x > y
    }
}

/// `x = y`.
struct Equal;

impl<W: Work> CompareKernel<W> for Equal {
    type Constants = ();
    #[inline(always)]
    fn holds(x: W, y: W, (): &()) -> bool {
        x == y
    }
}

/// `x * 10^k < y`.
struct ShiftedLess;

impl<W: Work> CompareKernel<W> for ShiftedLess {
    type Constants = Alignment<W>;
    #[inline(always)]
    fn holds(x: W, y: W, c: &Alignment<W>) -> bool {
        let (beyond, scaled) = c.aligned(x);
        // Non-short-circuit operators: both answers are formed, one kept.
        (beyond & x.is_negative()) | (!beyond & (scaled < y))
    }
}

/// `x * 10^k > y`.
struct ShiftedGreater;

impl<W: Work> CompareKernel<W> for ShiftedGreater {
    type Constants = Alignment<W>;
    #[inline(always)]
    fn holds(x: W, y: W, c: &Alignment<W>) -> bool {
        let (beyond, scaled) = c.aligned(x);
        // A value beyond the limit is not zero: not negative is positive.
        (beyond & !x.is_negative()) | (!beyond & (scaled > y))
    }
}

/// `x * 10^k = y`.
struct ShiftedEqual;

impl<W: Work> CompareKernel<W> for ShiftedEqual {
    type Constants = Alignment<W>;
    #[inline(always)]
    fn holds(x: W, y: W, c: &Alignment<W>) -> bool {
        let (beyond, scaled) = c.aligned(x);
        !beyond & (scaled == y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::storage::{Storage, Stored, TOKEN};
    use crate::int::work::i256_to_ethnum;
    use crate::testing::{big, values};
    use arrow_buffer::{NullBuffer, i256};
    use num_bigint::BigInt;
    use rstest::rstest;

    /// Every relation a spec can express: the six operators and the two
    /// constant ones.
    fn every_relation() -> Vec<[bool; 3]> {
        (0..8u8).map(|m| [m & 1 != 0, m & 2 != 0, m & 4 != 0]).collect()
    }

    fn spec(lhs_scale: i32, rhs_scale: i32, answers: [bool; 3]) -> CompareSpec {
        CompareSpec::new(lhs_scale, rhs_scale, |o| answers[(o as i8 + 1) as usize])
    }

    /// `v` stored as `S`, if it fits.
    fn narrowed<S: Stored>(v: i256) -> Option<S> {
        let stored = S::store(i256_to_ethnum(v));
        (stored.widened(TOKEN) == v).then_some(stored)
    }

    /// Extremes of every width, powers of ten and their neighbours, both
    /// signs, and small values.
    fn extremes() -> Vec<i256> {
        let mut v = vec![i256::ZERO, i256::ONE, i256::MINUS_ONE, i256::MAX, i256::MIN];
        for bits in [7, 15, 31, 63, 127] {
            let max = i256::from_i128(i128::MAX >> (127 - bits));
            v.extend([max, max.wrapping_neg(), max.wrapping_neg().wrapping_sub(i256::ONE)]);
        }
        for k in [1, 2, 18, 19, 38, 39, 76] {
            let p = i256::from_i128(10).wrapping_pow(k);
            for d in [-1, 0, 1] {
                let q = p.wrapping_add(i256::from_i128(d));
                v.extend([q, q.wrapping_neg()]);
            }
        }
        v.extend([i256::MAX, i256::MIN].map(|m| m.wrapping_div(i256::from_i128(10))));
        v.extend(values(24, 60, 7).into_iter().map(|x| i256::from_i128(x.into())));
        v
    }

    /// A column of the extremes that fit `S`.
    fn column<S: Stored>() -> Vec<S> {
        extremes().into_iter().filter_map(narrowed::<S>).collect()
    }

    /// The exact answers of every pair of `a` and `b` (rows: `a` outer), at
    /// the spec's shifts.
    fn exact(a: &[i256], b: &[i256], spec: &CompareSpec) -> Vec<bool> {
        // Beyond 10^200 a non-zero side outweighs every `i256` anyway: a
        // shift of `u32::MAX` orders the rows as one of 200 does.
        let ten = BigInt::from(10);
        let (fa, fb) = (ten.pow(spec.lhs_shift.min(200)), ten.pow(spec.rhs_shift.min(200)));
        let (a, b): (Vec<BigInt>, Vec<BigInt>) =
            (a.iter().map(|&x| big(x) * &fa).collect(), b.iter().map(|&y| big(y) * &fb).collect());
        a.iter().flat_map(|x| b.iter().map(move |y| spec.answer(x.cmp(y)))).collect()
    }

    /// Every pair of the columns' values as two columns of one row each.
    fn pairs<A: Storage, B: Storage>(a: &[A], b: &[B]) -> (Vec<A>, Vec<B>) {
        a.iter().flat_map(|&x| b.iter().map(move |&y| (x, y))).unzip()
    }

    /// Every relation at every scale gap (both directions, negative scales
    /// included) over every pair of `A` and `B` extremes, in every copy this
    /// CPU runs, as columns and with either side a single value.
    #[track_caller]
    fn assert_exact<A: Storage + Stored, B: Storage + Stored>() {
        let (a, b) = (column::<A>(), column::<B>());
        let (wide_a, wide_b): (Vec<i256>, Vec<i256>) = (
            a.iter().map(|&v| v.widened(TOKEN)).collect(),
            b.iter().map(|&v| v.widened(TOKEN)).collect(),
        );
        let (lhs, rhs) = pairs(&a, &b);
        let scales = [(0, 0), (2, 0), (0, 2), (1, 0), (0, 1), (-5, 0), (3, -2), (0, 18), (19, 0)]
            .into_iter()
            .chain([(0, 38), (39, 0)])
            .chain([(0, 76), (-76, 1), (77, 0), (0, 200), (i32::MIN, i32::MAX)]);
        for (s1, s2) in scales {
            for answers in every_relation() {
                let spec = spec(s1, s2, answers);
                let want = exact(&wide_a, &wide_b, &spec);
                for copy in Runnable::all() {
                    let context = format!("{s1} vs {s2}, {answers:?}, {copy:?}");
                    let rows = Rows::new(lhs.len());
                    let got =
                        compare_in(copy, Operand::array(&lhs), Operand::array(&rhs), &spec, &rows);
                    assert_eq!(got.unwrap().iter().collect::<Vec<_>>(), want, "{context}");
                    // The left side as a single value, then the right one:
                    // one (which a shift of 1 or 2 lands on a column's
                    // 10^k ± 1) and a larger value.
                    for i in [1, 3] {
                        let rows = Rows::new(b.len());
                        let got = compare_in(
                            copy,
                            Operand::scalar(a[i]),
                            Operand::array(&b),
                            &spec,
                            &rows,
                        );
                        let from = i * b.len();
                        assert_eq!(
                            got.unwrap().iter().collect::<Vec<_>>(),
                            want[from..from + b.len()],
                            "{context}, left {i}"
                        );
                    }
                    for i in [1, 4] {
                        let rows = Rows::new(a.len());
                        let got = compare_in(
                            copy,
                            Operand::array(&a),
                            Operand::scalar(b[i]),
                            &spec,
                            &rows,
                        );
                        let expected: Vec<bool> =
                            (0..a.len()).map(|r| want[r * b.len() + i]).collect();
                        assert_eq!(
                            got.unwrap().iter().collect::<Vec<_>>(),
                            expected,
                            "{context}, right {i}"
                        );
                    }
                }
            }
        }
    }

    #[rstest]
    #[case::i8_i8(assert_exact::<i8, i8> as fn())]
    #[case::i8_i256(assert_exact::<i8, i256> as fn())]
    #[case::i16_i64(assert_exact::<i16, i64> as fn())]
    #[case::i32_i128(assert_exact::<i32, i128> as fn())]
    #[case::i64_i64(assert_exact::<i64, i64> as fn())]
    #[case::i64_i128(assert_exact::<i64, i128> as fn())]
    #[case::i128_i8(assert_exact::<i128, i8> as fn())]
    #[case::i128_i128(assert_exact::<i128, i128> as fn())]
    #[case::i256_i32(assert_exact::<i256, i32> as fn())]
    #[case::i256_i256(assert_exact::<i256, i256> as fn())]
    fn every_pair_of_extremes_compares_exactly(#[case] check: fn()) {
        check();
    }

    /// i128 columns declared at 15 and 12 digits compute in `i64` over the
    /// columns' words, and so do undeclared ones of small values where the
    /// copy measures them (or in `i128`); the answers are the exact ones.
    #[test]
    fn declared_precisions_compute_narrower_with_the_same_answers() {
        let a: Vec<i128> = values(1500, 49, 3).into_iter().map(i128::from).collect();
        let b: Vec<i128> = values(1500, 39, 5).into_iter().map(i128::from).collect();
        let (lhs, rhs) = (Operand::array(&a[..]), Operand::array(&b[..]));
        assert_eq!(work_width(&lhs.assume_precision(15), false), WorkWidth::I64);
        assert_eq!(work_width(&lhs, true), WorkWidth::I64);
        assert_eq!(work_width(&lhs, false), WorkWidth::I128);
        let wide = [i128::MAX];
        assert_eq!(work_width(&Operand::array(&wide[..]), true), WorkWidth::I128);
        let declared = Operand::array(&wide[..]).assume_precision(38);
        assert_eq!(work_width(&declared, true), WorkWidth::I128);
        let rows = Rows::new(a.len());
        for answers in every_relation() {
            let spec = spec(2, 4, answers);
            let wide_a: Vec<i256> = a.iter().map(|&v| i256::from_i128(v)).collect();
            let wide_b: Vec<i256> = b.iter().map(|&v| i256::from_i128(v)).collect();
            let want: Vec<bool> =
                wide_a.iter().zip(&wide_b).map(|(&x, &y)| exact(&[x], &[y], &spec)[0]).collect();
            for copy in Runnable::all() {
                let declared = compare_in(
                    copy,
                    lhs.assume_precision(15),
                    rhs.assume_precision(12),
                    &spec,
                    &rows,
                );
                let undeclared = compare_in(copy, lhs, rhs, &spec, &rows);
                assert_eq!(
                    declared.unwrap().iter().collect::<Vec<_>>(),
                    want,
                    "{answers:?} {copy:?}"
                );
                assert_eq!(
                    undeclared.unwrap().iter().collect::<Vec<_>>(),
                    want,
                    "{answers:?} {copy:?}"
                );
            }
        }
    }

    #[test]
    fn bits_past_the_last_row_are_zero() {
        let a = [1i64; 70];
        let rows = Rows::new(a.len());
        let out = compare(
            Operand::array(&a[..]),
            Operand::scalar(2i64),
            &spec(0, 0, [true, false, false]),
            &rows,
        )
        .unwrap();
        assert_eq!(out.inner().as_slice()[8..16], [0b11_1111, 0, 0, 0, 0, 0, 0, 0]);
        let negated = compare(
            Operand::array(&a[..]),
            Operand::scalar(2i64),
            &spec(0, 0, [false, true, true]),
            &rows,
        )
        .unwrap();
        assert_eq!(negated.count_set_bits(), 0);
        assert_eq!(negated.inner().as_slice()[8..16], [0; 8]);
    }

    #[rstest]
    #[case::column(70, 71, None)]
    #[case::validity(70, 70, Some(69))]
    fn lengths_other_than_the_rows_are_errors(
        #[case] lhs_len: usize,
        #[case] rhs_len: usize,
        #[case] nulls_len: Option<usize>,
    ) {
        let (a, b) = (vec![0i64; lhs_len], vec![0i32; rhs_len]);
        let nulls = nulls_len.map(NullBuffer::new_valid);
        let rows = Rows::new(70).with_nulls(nulls.as_ref());
        for answers in [[true, false, false], [true, true, true]] {
            let out = compare(
                Operand::array(&a[..]),
                Operand::array(&b[..]),
                &spec(0, 1, answers),
                &rows,
            );
            let actual =
                if lhs_len == 70 { rhs_len.min(nulls_len.unwrap_or(rhs_len)) } else { lhs_len };
            assert_eq!(out.unwrap_err(), KernelError::LengthMismatch { expected: 70, actual });
        }
    }

    #[rstest]
    #[case::same(3, 3, 0, 0)]
    #[case::lhs_smaller(-5, 2, 7, 0)]
    #[case::rhs_smaller(4, -76, 0, 80)]
    #[case::widest_gap(i32::MIN, i32::MAX, u32::MAX, 0)]
    fn specs_shift_the_side_of_the_smaller_scale(
        #[case] lhs_scale: i32,
        #[case] rhs_scale: i32,
        #[case] lhs_shift: u32,
        #[case] rhs_shift: u32,
    ) {
        let spec = CompareSpec::new(lhs_scale, rhs_scale, Ordering::is_ne);
        assert_eq!((spec.lhs_shift(), spec.rhs_shift()), (lhs_shift, rhs_shift));
        let orders = [Ordering::Less, Ordering::Equal, Ordering::Greater];
        assert_eq!(orders.map(|o| spec.answer(o)), [true, false, true]);
    }

    #[test]
    fn limits_are_the_largest_magnitudes_whose_product_fits() {
        let c = Alignment::<i64>::new(2);
        assert_eq!((c.factor, c.limit), (100, i64::MAX / 100));
        let c = Alignment::<i64>::new(19);
        assert_eq!((c.factor, c.limit), (1, 0));
        let c = Alignment::<i128>::new(38);
        assert_eq!(c.limit, i128::MAX / 10i128.pow(38));
        assert_eq!(Alignment::<ethnum::I256>::new(77).limit, ethnum::I256::ZERO);
        assert_eq!(
            Alignment::<ethnum::I256>::new(76).limit,
            ethnum::I256::MAX / ethnum::I256::new(10).pow(76)
        );
    }
}
