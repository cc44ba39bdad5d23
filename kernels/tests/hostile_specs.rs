//! Every public entry point of the kernels crate (the operators of two
//! operands and `rescale`, `neg`, `abs`; the float casts `from_float` and
//! `to_float`; the grouped aggregates' group counts), driven with specs no
//! profile would produce: shifts across the whole `i32` (and `u32`) range,
//! precisions 0 and 255, sums rescaled by any shift after alignment, zero divisors, every rounding mode and policy,
//! empty, one-row and block-crossing inputs, mixed storage, scalars, and
//! every output width. Each call must return a result or an error, never
//! panic, and every result row must equal an exact big-integer computation
//! of the same spec.

use decimal_kernels_native::{
    AddSpec, Column, DivSpec, Extreme, FromFloatSpec, GroupExtremes, GroupSums, KernelError,
    MulSpec, Operand, Output, OverflowPolicy, Policies, RemSpec, RescaleSpec, RoundingMode, Rows,
    Storage, abs, add, div, from_float, i256, mul, neg, rem, rescale, sub, to_float,
};
use decimal_kernels_native::{NullBuffer, ScalarBuffer};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use rstest::rstest;

const SHIFTS: [i32; 14] =
    [i32::MIN, -100_000, -400, -155, -77, -1, 0, 1, 38, 77, 155, 400, 100_000, i32::MAX];
const PRECISIONS: [u8; 7] = [0, 1, 2, 18, 38, 76, 255];
const ROUNDINGS: [RoundingMode; 5] = RoundingMode::ALL;

/// One operator under test, with its spec built from a shift.
#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    /// A sum aligned by a small shift, then rescaled by the hostile one.
    RescaledAdd,
    /// A difference aligned by a small shift, then rescaled by the hostile one.
    RescaledSub,
    /// A remainder, the shift aligning one side by its sign.
    Rem,
    /// The left operand rescaled by the shift (the right one ignored).
    Rescale,
    /// The left operand negated (the shift and the right one ignored).
    Neg,
    /// The left operand's magnitude (the shift and the right one ignored).
    Abs,
}

/// Alignment shifts of the rescaled sums, one per case (the left operand's
/// by a non-negative value, the right one's by a negative).
const ALIGNMENTS: [i64; 6] = [0, 1, 38, 77, -1, -40];

/// A spec for `op` (sums take the shift on one side, by its sign).
#[derive(Clone, Copy, Debug)]
struct Spec {
    op: Op,
    shift: i64,
    /// The alignment of a rescaled sum (`ALIGNMENTS`).
    alignment: i64,
    rounding: RoundingMode,
    precision: u8,
}

impl Spec {
    fn sum(&self) -> AddSpec {
        let one_side = |shift: i64| {
            let k = shift.unsigned_abs().min(u64::from(u32::MAX)) as u32;
            if shift >= 0 {
                AddSpec::new(k, 0, self.precision)
            } else {
                AddSpec::new(0, k, self.precision)
            }
        };
        match self.op {
            Op::RescaledAdd | Op::RescaledSub => {
                let shift = i32::try_from(self.shift).unwrap_or(i32::MAX);
                one_side(self.alignment).rescaled(shift, self.rounding)
            }
            _ => one_side(self.shift),
        }
    }

    /// The operands aligned exactly: `(a * 10^ka, b * 10^kb)`.
    fn aligned(&self, a: &BigInt, b: &BigInt) -> (BigInt, BigInt) {
        let k = match self.op {
            Op::RescaledAdd | Op::RescaledSub => self.alignment,
            _ => self.shift.clamp(-400, 400),
        };
        let pow = BigInt::from(10).pow(k.unsigned_abs() as u32);
        if k >= 0 { (a * pow, b.clone()) } else { (a.clone(), b * pow) }
    }

    /// Whether the kernels may refuse the spec for these operands: a rounded
    /// sum whose aligned operands (by their bit lengths, as measured) may
    /// saturate the 512-bit type (more than 510 bits) while a saturated sum
    /// divided by `10^k` could still fit the precision (`10^(p+k) > 2^510`).
    fn may_refuse(&self, a: &[BigInt], b: &[BigInt]) -> bool {
        // No two scales of -76..=76 are more than 152 digits apart.
        if matches!(self.op, Op::Rem) {
            return self.shift > 152;
        }
        if !matches!(self.op, Op::RescaledAdd | Op::RescaledSub) || self.shift <= 0 {
            return false;
        }
        // As the kernels measure: the length of `v` (or of `-v - 1` for a
        // negative `v`) plus a sign bit.
        let measured = |v: &BigInt| if v.is_negative() { -v - 1 } else { v.clone() }.bits() + 1;
        let bits = |side: &[BigInt]| side.iter().map(measured).max().unwrap_or(0);
        let pow_bits = |k: i64| BigInt::from(10).pow(k.unsigned_abs() as u32).bits();
        let (ka, kb) = if self.alignment >= 0 { (self.alignment, 0) } else { (0, self.alignment) };
        let aligned = (bits(a) + pow_bits(ka)).max(bits(b) + pow_bits(kb)) + 1;
        aligned > 510 && pow_bits(i64::from(self.precision) + self.shift.min(1000)) > 510
    }

    fn call<O: Storage>(
        &self,
        lhs: Operand<'_>,
        rhs: Operand<'_>,
        rows: &Rows<'_>,
    ) -> Result<Output<O>, KernelError> {
        let shift = i32::try_from(self.shift).unwrap_or(i32::MAX);
        match self.op {
            Op::Add | Op::RescaledAdd => add(lhs, rhs, &self.sum(), rows),
            Op::Sub | Op::RescaledSub => sub(lhs, rhs, &self.sum(), rows),
            Op::Mul => mul(lhs, rhs, &MulSpec::new(shift, self.rounding, self.precision), rows),
            Op::Div => div(lhs, rhs, &DivSpec::new(shift, self.rounding, self.precision), rows),
            Op::Rem => {
                let k = self.shift.unsigned_abs().min(u64::from(u32::MAX)) as u32;
                let (ka, kb) = if self.shift >= 0 { (k, 0) } else { (0, k) };
                rem(lhs, rhs, &RemSpec::new(ka, kb, self.precision), rows)
            }
            Op::Rescale => {
                rescale(lhs, &RescaleSpec::new(shift, self.rounding, self.precision), rows)
            }
            Op::Neg => neg(lhs, self.precision, rows),
            Op::Abs => abs(lhs, self.precision, rows),
        }
    }

    /// The exact outcome of one row: `Some(value)` or the failure flag.
    fn reference(&self, a: &BigInt, b: &BigInt) -> Result<BigInt, KernelError> {
        // Beyond 400 digits every shift has the outcome of 400: operands are
        // below 10^78 and bounds below 10^256.
        let k = self.shift.clamp(-400, 400);
        let pow = |k: i64| BigInt::from(10).pow(k.unsigned_abs() as u32);
        let value = match self.op {
            Op::Add | Op::Sub => {
                let (a, b) = self.aligned(a, b);
                if matches!(self.op, Op::Add) { a + b } else { a - b }
            }
            Op::RescaledAdd | Op::RescaledSub => {
                let (a, b) = self.aligned(a, b);
                let sum = if matches!(self.op, Op::RescaledAdd) { a + b } else { a - b };
                if k >= 0 { round(sum, pow(k), self.rounding) } else { sum * pow(k) }
            }
            Op::Mul if k >= 0 => round(a * b, pow(k), self.rounding),
            Op::Mul => a * b * pow(k),
            Op::Div if b.is_zero() => return Err(KernelError::DivideByZero { row: 0 }),
            Op::Div if k >= 0 => round(a * pow(k), b.clone(), self.rounding),
            Op::Div => round(a.clone(), b * pow(k), self.rounding),
            Op::Rem if b.is_zero() => return Err(KernelError::DivideByZero { row: 0 }),
            Op::Rem => {
                let (a, b) = self.aligned(a, b);
                a % b
            }
            Op::Rescale if k >= 0 => round(a.clone(), pow(k), self.rounding),
            Op::Rescale => a * pow(k),
            Op::Neg => -a,
            Op::Abs => a.abs(),
        };
        let bound = BigInt::from(10).pow(u32::from(self.precision)) - 1;
        if value.abs() > bound { Err(KernelError::Overflow { row: 0 }) } else { Ok(value) }
    }
}

/// `n / d` rounded with `mode`.
fn round(n: BigInt, d: BigInt, mode: RoundingMode) -> BigInt {
    let (q, r) = (&n / &d, &n % &d);
    if r.is_zero() {
        return q;
    }
    let negative = n.is_negative() != d.is_negative();
    let step = if negative { -BigInt::one() } else { BigInt::one() };
    let twice = r.abs() * 2;
    let away = match mode {
        RoundingMode::TowardZero => false,
        RoundingMode::HalfUp => twice >= d.abs(),
        RoundingMode::HalfEven => {
            twice > d.abs() || (twice == d.abs() && (&q % 2) != BigInt::zero())
        }
        RoundingMode::Floor => negative,
        RoundingMode::Ceiling => !negative,
    };
    if away { q + step } else { q }
}

fn big(v: i256) -> BigInt {
    v.to_string().parse().expect("an integer")
}

fn i256_of(text: &str) -> i256 {
    i256::from_string(text).expect("an integer")
}

/// Extremes of every width, precision bounds, zeros and small values.
fn extremes() -> Vec<i256> {
    let nines = |d: usize| i256_of(&"9".repeat(d));
    let mut v = vec![
        i256::ZERO,
        i256::ONE,
        i256::MINUS_ONE,
        i256::from(7i64),
        i256::from(-5i64),
        i256::from(i8::MIN),
        i256::from(i8::MAX),
        i256::from(i64::MAX),
        i256::from(i64::MIN),
        nines(18),
        i256::from_i128(i128::MAX),
        i256::from_i128(i128::MIN),
        nines(38),
        i256::MAX,
        i256::MIN,
        nines(76),
        nines(76).wrapping_neg(),
        i256::from(123_456_789i64),
    ];
    let mirrored: Vec<i256> = v.iter().rev().copied().collect();
    v.extend(mirrored);
    v
}

/// Columns of the same rows in several storage widths (values that do not
/// fit a width are wrapped into it, as an engine's garbage would be).
struct Columns {
    i8: Vec<i8>,
    i64: Vec<i64>,
    i128: Vec<i128>,
    i256: Vec<i256>,
}

impl Columns {
    fn new(values: &[i256]) -> Self {
        Self {
            i8: values.iter().map(|v| v.as_i128() as i8).collect(),
            i64: values.iter().map(|v| v.as_i128() as i64).collect(),
            i128: values.iter().map(|v| v.as_i128()).collect(),
            i256: values.to_vec(),
        }
    }

    /// The column in one of four widths, with the values it really holds.
    fn pick(&self, which: usize) -> (Column<'_>, Vec<BigInt>) {
        match which % 4 {
            0 => (Column::from(&self.i8), self.i8.iter().map(|&v| BigInt::from(v)).collect()),
            1 => (Column::from(&self.i64), self.i64.iter().map(|&v| BigInt::from(v)).collect()),
            2 => (Column::from(&self.i128), self.i128.iter().map(|&v| BigInt::from(v)).collect()),
            _ => (Column::from(&self.i256), self.i256.iter().map(|&v| big(v)).collect()),
        }
    }
}

/// Calls `spec` and checks every valid row against the reference.
#[track_caller]
fn check<O: Storage + Into<i256>>(
    spec: &Spec,
    (lhs, a): (Operand<'_>, &[BigInt]),
    (rhs, b): (Operand<'_>, &[BigInt]),
    nulls: Option<&NullBuffer>,
    policy: OverflowPolicy,
) {
    let len = a.len().max(b.len());
    let rows = Rows::new(len)
        .with_nulls(nulls)
        .with_policies(Policies { on_overflow: policy, on_divide_by_zero: policy });
    let row = |i: usize, side: &[BigInt]| side.get(i).or_else(|| side.first()).cloned();
    let got = spec.call::<O>(lhs, rhs, &rows);
    if matches!(got, Err(KernelError::UnsupportedSpec { .. })) && spec.may_refuse(a, b) {
        return;
    }
    let max_precision = match size_of::<O>() {
        1 => 2,
        2 => 4,
        4 => 9,
        8 => 18,
        16 => 38,
        _ => 76,
    };
    if spec.precision > max_precision {
        let want =
            KernelError::StorageTooNarrow { result_precision: spec.precision, max_precision };
        assert_eq!(got.unwrap_err(), want, "{spec:?}");
        return;
    }
    let valid = |i: usize| nulls.is_none_or(|n| n.is_valid(i));
    let expected: Vec<Result<BigInt, KernelError>> = (0..len)
        .map(|i| match (row(i, a), row(i, b)) {
            (Some(x), Some(y)) => spec.reference(&x, &y),
            _ => unreachable!("both sides have rows"),
        })
        .collect();
    let first_failure = (0..len).find(|&i| valid(i) && expected[i].is_err());
    match (policy, first_failure) {
        (OverflowPolicy::Error, Some(i)) => {
            let want = match expected[i] {
                Err(KernelError::DivideByZero { .. }) => KernelError::DivideByZero { row: i },
                _ => KernelError::Overflow { row: i },
            };
            assert_eq!(got.unwrap_err(), want, "{spec:?}");
        }
        _ => {
            let out = got.unwrap_or_else(|e| panic!("{spec:?}: {e:?}"));
            assert_eq!(out.values.len(), len, "{spec:?}");
            for i in (0..len).filter(|&i| valid(i)) {
                let kept = out.nulls.as_ref().is_none_or(|n| n.is_valid(i));
                match &expected[i] {
                    Ok(value) => {
                        assert!(kept, "{spec:?}: row {i} nulled, want {value}");
                        assert_eq!(&big(out.values[i].into()), value, "{spec:?}: row {i}");
                    }
                    Err(_) => assert!(!kept, "{spec:?}: row {i} kept, want a failure"),
                }
            }
        }
    }
}

/// Every spec over `op`, each against one pair of columns (widths, shapes,
/// rounding, policy and output width rotating), plus empty and one-row calls.
fn drive(op: Op) {
    let values = extremes();
    let divisors: Vec<i256> = values.iter().rev().copied().collect();
    let (left, right) = (Columns::new(&values), Columns::new(&divisors));
    let nulls = NullBuffer::from((0..values.len()).map(|i| i % 5 != 2).collect::<Vec<_>>());
    let mut case = 0usize;
    for shift in SHIFTS {
        for precision in PRECISIONS {
            case += 1;
            let spec = Spec {
                op,
                shift: i64::from(shift),
                alignment: ALIGNMENTS[case % ALIGNMENTS.len()],
                rounding: ROUNDINGS[case % ROUNDINGS.len()],
                precision,
            };
            let policy = [OverflowPolicy::Null, OverflowPolicy::Error][case / 3 % 2];
            let (lc, la) = left.pick(case);
            let (rc, rb) = right.pick(case / 4 + 1);
            let nulls = case.is_multiple_of(2).then_some(&nulls);
            let operands = match case % 3 {
                0 => ((Operand::array(lc), &la[..]), (Operand::array(rc), &rb[..])),
                1 => (
                    (Operand::array(lc), &la[..]),
                    (Operand::scalar(divisors[case % 36]), &rb[case % 36..][..1]),
                ),
                _ => (
                    (Operand::scalar(values[case % 36]), &la[case % 36..][..1]),
                    (Operand::array(rc), &rb[..]),
                ),
            };
            let ((l, a), (r, b)) = operands;
            // The scalar's reference value is the stored one, unwrapped.
            let scalar_ref;
            let (a, b) = match case % 3 {
                1 => {
                    scalar_ref = [big(divisors[case % 36])];
                    (a, &scalar_ref[..])
                }
                2 => {
                    scalar_ref = [big(values[case % 36])];
                    (&scalar_ref[..], b)
                }
                _ => (a, b),
            };
            match case % 4 {
                0 => check::<i8>(&spec, (l, a), (r, b), nulls, policy),
                1 => check::<i64>(&spec, (l, a), (r, b), nulls, policy),
                2 => check::<i128>(&spec, (l, a), (r, b), nulls, policy),
                _ => check::<i256>(&spec, (l, a), (r, b), nulls, policy),
            }
            // Empty and one-row calls of the same spec.
            let empty: [i64; 0] = [];
            let rows = Rows::new(0);
            let out =
                spec.call::<i256>(Operand::array(&empty[..]), Operand::array(&empty[..]), &rows);
            let refused = precision > 76 || spec.may_refuse(&[], &[]);
            assert!(out.is_ok_and(|o| o.values.is_empty()) || refused, "{spec:?}: empty");
            let one = [big(values[case % 36])];
            let zero = [BigInt::zero()];
            check::<i256>(
                &spec,
                (Operand::scalar(values[case % 36]), &one[..]),
                (Operand::scalar(0i8), &zero[..]),
                None,
                policy,
            );
        }
    }
}

#[test]
fn sums_with_hostile_specs() {
    drive(Op::Add);
}

#[test]
fn differences_with_hostile_specs() {
    drive(Op::Sub);
}

#[test]
fn rescaled_sums_with_hostile_specs() {
    drive(Op::RescaledAdd);
}

#[test]
fn rescaled_differences_with_hostile_specs() {
    drive(Op::RescaledSub);
}

#[test]
fn products_with_hostile_specs() {
    drive(Op::Mul);
}

#[test]
fn quotients_with_hostile_specs() {
    drive(Op::Div);
}

#[test]
fn remainders_with_hostile_specs() {
    drive(Op::Rem);
}

#[test]
fn rescales_with_hostile_specs() {
    drive(Op::Rescale);
}

#[test]
fn negations_with_hostile_specs() {
    drive(Op::Neg);
}

#[test]
fn absolute_values_with_hostile_specs() {
    drive(Op::Abs);
}

#[test]
fn sums_shifting_both_sides_are_rejected() {
    let a = [1i64];
    for (l, r) in [(1, 1), (u32::MAX, u32::MAX), (1, u32::MAX)] {
        let spec = AddSpec::new(l, r, 38);
        let out = add::<i128>(Operand::array(&a[..]), Operand::array(&a[..]), &spec, &Rows::new(1));
        assert!(matches!(out, Err(KernelError::UnsupportedSpec { .. })), "{l} {r}");
    }
}

#[test]
fn blocks_beyond_the_first_with_hostile_specs() {
    // 1,300 rows: failures and zero divisors past row 512 and 1,024.
    let values: Vec<i256> = extremes().into_iter().cycle().take(1300).collect();
    let divisors: Vec<i256> = values.iter().rev().copied().collect();
    let (left, right) = (Columns::new(&values), Columns::new(&divisors));
    let nulls = NullBuffer::from((0..values.len()).map(|i| i % 7 != 6).collect::<Vec<_>>());
    let ops = [
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Div,
        Op::RescaledAdd,
        Op::RescaledSub,
        Op::Rem,
        Op::Rescale,
        Op::Neg,
        Op::Abs,
    ];
    for (n, op) in ops.into_iter().enumerate() {
        for (m, shift) in [-3i64, 0, 2, 155].into_iter().enumerate() {
            let (rounding, alignment) = (ROUNDINGS[(n + m) % 5], ALIGNMENTS[(n + m) % 6]);
            let spec = Spec { op, shift, alignment, rounding, precision: 38 };
            let (lc, la) = left.pick(n + m);
            let (rc, rb) = right.pick(n + 2 * m + 1);
            for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
                check::<i128>(
                    &spec,
                    (Operand::array(lc), &la),
                    (Operand::array(rc), &rb),
                    Some(&nulls),
                    policy,
                );
            }
        }
    }
}

/// Floats no cast would be asked for alongside ordinary ones, at every
/// hostile scale, precision, mode and output width: each call returns a
/// result or an error, and every served row stays within the precision.
#[test]
fn floats_to_decimals_with_hostile_specs() {
    let floats = ScalarBuffer::from(vec![
        0.0,
        -0.0,
        1.5,
        -2.675,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        2f64.powi(51),
        -1e15,
    ]);
    let nulls = NullBuffer::from((0..floats.len()).map(|i| i % 5 != 4).collect::<Vec<_>>());
    for scale in SHIFTS.map(i32::unsigned_abs) {
        for precision in PRECISIONS {
            for rounding in ROUNDINGS {
                let spec = FromFloatSpec::new(scale, rounding, precision);
                for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
                    let rows = Rows::new(floats.len())
                        .with_nulls(Some(&nulls))
                        .with_policies(Policies { on_overflow: policy, ..Policies::default() });
                    served_within::<i8>(from_float(&floats, &spec, &rows), precision, policy);
                    served_within::<i64>(from_float(&floats, &spec, &rows), precision, policy);
                    served_within::<i256>(from_float(&floats, &spec, &rows), precision, policy);
                }
            }
        }
    }
}

/// Every valid row of `out` within `10^p - 1`; an error only for a left row
/// under `Error` or a storage narrower than the precision.
#[track_caller]
fn served_within<O: Storage + Into<i256>>(
    out: Result<Output<O>, KernelError>,
    precision: u8,
    policy: OverflowPolicy,
) {
    let out = match out {
        Ok(out) => out,
        // A left row under `Error`, or a width below the precision.
        Err(e) => {
            let storage = matches!(e, KernelError::StorageTooNarrow { .. });
            let left = matches!(e, KernelError::Overflow { .. }) && policy == OverflowPolicy::Error;
            assert!(storage || left, "{e:?} under {policy:?}");
            return;
        }
    };
    let limit = BigInt::from(10).pow(u32::from(precision)) - 1;
    for (row, &v) in out.values.iter().enumerate() {
        if out.nulls.as_ref().is_none_or(|n| n.is_valid(row)) {
            assert!(big(v.into()).abs() <= limit, "row {row} beyond precision {precision}");
        }
    }
}

/// Decimals to floats at every hostile scale over extremes of every
/// width: each call returns floats or an error, and every served row is
/// the float nearest the exact value.
#[test]
fn decimals_to_floats_with_hostile_specs() {
    let values: Vec<i256> = extremes();
    let columns = Columns::new(&values);
    for scale in SHIFTS {
        for pick in 0..4 {
            let (column, stored) = columns.pick(pick);
            for policy in [OverflowPolicy::Null, OverflowPolicy::Error] {
                let rows = Rows::new(stored.len())
                    .with_policies(Policies { on_overflow: policy, ..Policies::default() });
                let out = match to_float(Operand::array(column), scale, &rows) {
                    Ok(out) => out,
                    // Only a left row under `Error` fails the call.
                    Err(e) => {
                        assert!(matches!(e, KernelError::Overflow { .. }), "{e:?}");
                        assert_eq!(policy, OverflowPolicy::Error, "{e:?}");
                        continue;
                    }
                };
                for (row, v) in stored.iter().enumerate() {
                    if out.nulls.as_ref().is_none_or(|n| n.is_valid(row)) {
                        let want: f64 = format!("{v}e{}", -i64::from(scale)).parse().unwrap();
                        assert_eq!(out.values[row].to_bits(), want.to_bits(), "{v}e{}", -scale);
                    }
                }
            }
        }
    }
}

/// Group counts no memory holds: a `Vec` cannot count their bytes
/// (`usize::MAX`, half of `isize::MAX`), or no allocator gives them (`2^40`
/// groups, terabytes of state).
const HOSTILE_GROUPS: [usize; 3] = [usize::MAX, isize::MAX as usize / 2, 1 << 40];

/// `GroupSums::sum_batch` with `groups` groups, out of `values`: every row
/// in a group below 2, all of it read as `O`.
#[track_caller]
fn sum_batch_of<O: Storage>(values: Operand<'_>, groups: usize) -> Result<Output<O>, KernelError> {
    GroupSums::sum_batch(values, &[0, 1, 0], groups, 38, &Rows::new(3))
}

/// A single batch summed by group into a group count no memory holds is
/// refused, whatever the column's width (its own `i64` path or the general
/// one): never a panic or an abort.
#[rstest]
#[case::usize_max(HOSTILE_GROUPS[0])]
#[case::half_isize_max(HOSTILE_GROUPS[1])]
#[case::two_to_40(HOSTILE_GROUPS[2])]
fn sum_batch_into_a_group_count_beyond_memory(#[case] groups: usize) {
    let want = Err(KernelError::TooManyGroups { groups });
    let (narrow, wide) = ([150i64, -5, i64::MAX], [i256::MAX, i256::ONE, i256::MIN]);
    assert_eq!(sum_batch_of::<i128>(Operand::array(&narrow[..]), groups).map(|_| ()), want);
    assert_eq!(sum_batch_of::<i256>(Operand::array(&wide[..]), groups).map(|_| ()), want);
}

/// Running sums and extremes asked to grow to a group count no memory holds
/// refuse it and keep their groups and values, narrow or widened (the
/// `i256` sums, the `i128` and `i256` extremes, grown in more vectors).
#[rstest]
#[case::usize_max(HOSTILE_GROUPS[0])]
#[case::half_isize_max(HOSTILE_GROUPS[1])]
#[case::two_to_40(HOSTILE_GROUPS[2])]
fn states_refuse_a_group_count_beyond_memory(#[case] groups: usize) {
    let want = Err(KernelError::TooManyGroups { groups });
    let (narrow, wide) = ([150i64, -5, 7], [i256::MAX, i256::ONE, i256::MIN]);
    let wider = [i128::MAX, -1, 3];
    let columns =
        [Operand::array(&narrow[..]), Operand::array(&wider[..]), Operand::array(&wide[..])];
    for values in columns {
        let mut sums = GroupSums::new(2);
        sums.update(values, Some(&[0, 1, 0]), &Rows::new(3)).unwrap();
        // A clone's capacity is its length: the bytes are read from `sums`.
        let (before, bytes) = (sums.clone(), sums.allocated_bytes());
        assert_eq!(sums.resize(groups), want);
        assert_eq!(sums, before, "a refused resize keeps the sums");
        assert_eq!(sums.allocated_bytes(), bytes, "and gives the room back");
        for extreme in [Extreme::Min, Extreme::Max] {
            let mut extremes = GroupExtremes::new(extreme, 2);
            extremes.update(values, Some(&[0, 1, 0]), &Rows::new(3)).unwrap();
            let (before, bytes) = (extremes.clone(), extremes.allocated_bytes());
            assert_eq!(extremes.resize(groups), want);
            assert_eq!(extremes, before, "a refused resize keeps the extremes");
            assert_eq!(extremes.allocated_bytes(), bytes);
        }
    }
}
