//! The exact reference: one row of any operation, with big integers.
//!
//! It follows the value rule (docs/semantics.md#value-rule) literally: the
//! exact result of `A op B` is formed as a fraction `n / d` (already multiplied
//! by `10^result_scale`), rounded once to an integer, and compared with
//! `10^p - 1`. It shares no arithmetic with the kernels, which makes it their
//! oracle.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use crate::rules::round::RoundShape;
use crate::types::DecimalType;
use crate::types::UnaryOp;
use crate::types::{ArithmeticOptions, DecimalError, OverflowPolicy};
use crate::types::{BinaryOp, CompareOp, RoundingMode};
use crate::values::DecimalScalar;
use crate::values::text::{self, pow10, precision_limit};

/// What one row comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Exact {
    /// The stored integer of the result.
    Value(BigInt),
    /// The result exceeds the result precision.
    Overflow,
    /// The divisor is zero.
    DivideByZero,
}

/// `v * 10^e` as a fraction (`e` may be negative).
fn scaled(v: BigInt, e: i32) -> (BigInt, BigInt) {
    let power = pow10(e.unsigned_abs());
    if e >= 0 { (v * power, BigInt::one()) } else { (v, power) }
}

/// `n / d` rounded to an integer (`d != 0`).
pub(crate) fn round(n: &BigInt, d: &BigInt, mode: RoundingMode) -> BigInt {
    let (n, d) = if d.is_negative() { (-n, -d) } else { (n.clone(), d.clone()) };
    let floor = n.div_floor(&d);
    let excess = &n - &floor * &d; // 0 <= excess < d
    if excess.is_zero() {
        return floor;
    }
    let ceiling = &floor + 1u8;
    let twice = &excess * 2u8;
    let toward_zero = if n.is_negative() { ceiling.clone() } else { floor.clone() };
    let away = if n.is_negative() { floor.clone() } else { ceiling.clone() };
    match mode {
        RoundingMode::TowardZero => toward_zero,
        RoundingMode::Floor => floor,
        RoundingMode::Ceiling => ceiling,
        RoundingMode::HalfUp | RoundingMode::HalfEven => match twice.cmp(&d) {
            core::cmp::Ordering::Less => floor,
            core::cmp::Ordering::Greater => ceiling,
            core::cmp::Ordering::Equal if mode == RoundingMode::HalfUp => away,
            core::cmp::Ordering::Equal => {
                if floor.is_even() {
                    floor
                } else {
                    ceiling
                }
            }
        },
    }
}

/// The exact outcome of `a op b` for stored integers `a` of `lhs` and `b` of
/// `rhs`, at `result`, rounded with `mode`.
pub(crate) fn exact(
    op: BinaryOp,
    (a, lhs): (&BigInt, DecimalType),
    (b, rhs): (&BigInt, DecimalType),
    result: DecimalType,
    mode: RoundingMode,
) -> Exact {
    let (s1, s2, rs) = (i32::from(lhs.scale()), i32::from(rhs.scale()), i32::from(result.scale()));
    let (n, d) = match op {
        BinaryOp::Add | BinaryOp::Sub => {
            let (n1, d1) = scaled(a.clone(), rs - s1);
            let (n2, d2) = scaled(b.clone(), rs - s2);
            let n2 = if op == BinaryOp::Sub { -n2 } else { n2 };
            (n1 * &d2 + n2 * &d1, d1 * d2)
        }
        BinaryOp::Mul => scaled(a * b, rs - s1 - s2),
        BinaryOp::Div => {
            if b.is_zero() {
                return Exact::DivideByZero;
            }
            let (n, d) = scaled(a.clone(), rs - s1 + s2);
            (n, d * b)
        }
        BinaryOp::Rem => {
            if b.is_zero() {
                return Exact::DivideByZero;
            }
            // Both aligned at the larger scale, where the remainder is an
            // integer: `A - B * trunc(A / B)`, the sign of `A`.
            let s = s1.max(s2);
            let (n1, _) = scaled(a.clone(), s - s1);
            let (n2, _) = scaled(b.clone(), s - s2);
            let remainder = &n1 - &n2 * (&n1 / &n2);
            scaled(remainder, rs - s)
        }
    };
    within(round(&n, &d, mode), result)
}

/// The exact outcome of `op a` at type `result` for the stored integer `a`
/// of `operand`, rounded with `mode` (a rounding function with its own).
pub(crate) fn exact_unary(
    op: UnaryOp,
    a: &BigInt,
    (operand, result): (DecimalType, DecimalType),
    mode: RoundingMode,
) -> Exact {
    match op {
        UnaryOp::Rescale { to } => within(rescaled(a, operand.scale(), to.scale(), mode), to),
        UnaryOp::Neg => within(-a, operand),
        UnaryOp::Abs => within(a.abs(), operand),
        UnaryOp::Round { function, digits } => {
            // `a / 10^dropped` rounded once, then the zeros appended.
            let shape = RoundShape::new(operand.scale(), digits, result.scale());
            let rounded = round(a, &pow10(shape.dropped), function.rounding());
            within(rounded * pow10(shape.appended), result)
        }
    }
}

/// The stored integer `a` at scale `from` moved to scale `to`: rounded once
/// with `mode` when digits are dropped, not checked against any precision.
pub(crate) fn rescaled(a: &BigInt, from: i8, to: i8, mode: RoundingMode) -> BigInt {
    let (n, d) = scaled(a.clone(), i32::from(to) - i32::from(from));
    round(&n, &d, mode)
}

/// `value` if it fits the precision of `result`.
fn within(value: BigInt, result: DecimalType) -> Exact {
    if value.abs() > precision_limit(result.precision()) {
        Exact::Overflow
    } else {
        Exact::Value(value)
    }
}

/// The reference on single values, for engines that fold constants.
impl DecimalScalar {
    /// `self op rhs`, computed exactly and rounded once (the reference).
    ///
    /// # Errors
    /// The result type's errors; [`DecimalError::Overflow`] and
    /// [`DecimalError::DivideByZero`] (row 0) under the `Error` policies.
    pub fn reference_binary(
        &self,
        op: BinaryOp,
        rhs: &DecimalScalar,
        options: &ArithmeticOptions,
    ) -> Result<DecimalScalar, DecimalError> {
        let result = op.result_type(self.dtype(), rhs.dtype(), options)?;
        let (Some(a), Some(b)) = (self.value(), rhs.value()) else {
            return Ok(Self::null(result));
        };
        let outcome = exact(
            op,
            (&text::i256_to_bigint(a), self.dtype()),
            (&text::i256_to_bigint(b), rhs.dtype()),
            result,
            options.rounding(),
        );
        let fail = |policy: OverflowPolicy, error: DecimalError| match policy {
            OverflowPolicy::Error => Err(error),
            OverflowPolicy::Null => Ok(Self::null(result)),
        };
        match outcome {
            Exact::Value(v) => Ok(Self::from_fitting(result, text::bigint_to_i256(&v))),
            Exact::Overflow => fail(
                options.on_overflow(),
                DecimalError::Overflow {
                    row: 0,
                    result_type: result,
                    op,
                    lhs: self.to_string(),
                    rhs: rhs.to_string(),
                },
            ),
            Exact::DivideByZero => fail(
                options.on_divide_by_zero(),
                DecimalError::DivideByZero { row: 0, lhs: self.to_string() },
            ),
        }
    }

    /// `op self`, computed exactly and rounded once (the reference of
    /// [`unary`](crate::unary)); the profile does not change the value, only
    /// a rounding's type.
    ///
    /// ```
    /// use decimal_kernels::{ArithmeticOptions, DecimalScalar, DecimalType, RoundingMode, UnaryOp};
    /// let x = DecimalScalar::parse(DecimalType::try_new(5, 3)?, "-2.345")?;
    /// let to = DecimalType::try_new(4, 2)?;
    /// let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfEven);
    /// assert_eq!(x.reference_unary(UnaryOp::Rescale { to }, &opts)?.to_string(), "-2.34");
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// The result type's errors; [`DecimalError::UnaryOverflow`] (row 0)
    /// under the `Error` overflow policy.
    pub fn reference_unary(
        &self,
        op: UnaryOp,
        options: &ArithmeticOptions,
    ) -> Result<Self, DecimalError> {
        let result = op.result_type_under(self.dtype(), options)?;
        let Some(a) = self.value() else {
            return Ok(Self::null(result));
        };
        let types = (self.dtype(), result);
        match exact_unary(op, &text::i256_to_bigint(a), types, options.rounding()) {
            Exact::Value(v) => Ok(Self::from_fitting(result, text::bigint_to_i256(&v))),
            _ => match options.on_overflow() {
                OverflowPolicy::Null => Ok(Self::null(result)),
                OverflowPolicy::Error => Err(DecimalError::UnaryOverflow {
                    row: 0,
                    result_type: result,
                    op,
                    value: self.to_string(),
                }),
            },
        }
    }
}

/// The order of the stored integer `a` at scale `s1` against `b` at scale
/// `s2`, by value: both aligned exactly at the larger scale.
pub(crate) fn exact_order(a: &BigInt, s1: i8, b: &BigInt, s2: i8) -> core::cmp::Ordering {
    let aligned = s1.max(s2);
    let shift = |s: i8| pow10((i32::from(aligned) - i32::from(s)).unsigned_abs());
    (a * shift(s1)).cmp(&(b * shift(s2)))
}

/// The reference of comparisons on single values.
impl DecimalScalar {
    /// `self op rhs` by value, exactly (the reference of
    /// [`compare`](crate::compare)); `None` when either side is null.
    ///
    /// ```
    /// use decimal_kernels::{CompareOp, DecimalScalar, DecimalType};
    /// let a = DecimalScalar::parse(DecimalType::try_new(3, 2)?, "1.00")?;
    /// let b = DecimalScalar::parse(DecimalType::try_new(4, 3)?, "0.500")?;
    /// assert_eq!(a.reference_compare(CompareOp::Gt, &b), Some(true));
    /// assert_eq!(a.reference_compare(CompareOp::Eq, &DecimalScalar::null(b.dtype())), None);
    /// # Ok::<(), decimal_kernels::DecimalError>(())
    /// ```
    #[must_use]
    pub fn reference_compare(&self, op: CompareOp, rhs: &DecimalScalar) -> Option<bool> {
        let (a, b) = (self.value()?, rhs.value()?);
        let (s1, s2) = (self.dtype().scale(), rhs.dtype().scale());
        let order = exact_order(&text::i256_to_bigint(a), s1, &text::i256_to_bigint(b), s2);
        Some(op.holds(order))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::tie_up(RoundingMode::HalfUp, 5, 2, 3)]
    #[case::tie_up_negative(RoundingMode::HalfUp, -5, 2, -3)]
    #[case::tie_even_down(RoundingMode::HalfEven, 5, 2, 2)]
    #[case::tie_even_up(RoundingMode::HalfEven, 7, 2, 4)]
    #[case::tie_even_negative(RoundingMode::HalfEven, -5, 2, -2)]
    #[case::floor_negative(RoundingMode::Floor, -1, 3, -1)]
    #[case::ceiling_negative(RoundingMode::Ceiling, -1, 3, 0)]
    #[case::toward_zero_negative(RoundingMode::TowardZero, -5, 3, -1)]
    #[case::negative_divisor(RoundingMode::Floor, 1, -3, -1)]
    #[case::below_half(RoundingMode::HalfUp, 4, 10, 0)]
    #[case::above_half(RoundingMode::HalfEven, -6, 10, -1)]
    fn rounds(#[case] mode: RoundingMode, #[case] n: i64, #[case] d: i64, #[case] want: i64) {
        assert_eq!(round(&BigInt::from(n), &BigInt::from(d), mode), BigInt::from(want));
    }
}
