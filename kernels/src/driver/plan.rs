//! Choosing the work type of a call.
//!
//! Each operator states how many magnitude bits its intermediates can need,
//! from bounds on its operands; the call then runs in the narrowest work type
//! that holds them. Operands bring their bound as a declared precision (the
//! caller vouches that every valid value fits it) or have it measured with one
//! pass over the values.

use arrow_buffer::i256;

use crate::columns::column::{Column, with_column};
use crate::columns::operand::{Operand, Values};
use crate::columns::storage::Stored;
use crate::driver::copies::magnitude_bits;
use crate::int::pow10::{bits_within_precision, pow10_bits, precision_bits};
use crate::int::width::WorkWidth;

impl Operand<'_> {
    /// The bound from the declared precision, if the operand has one.
    fn declared_bits(&self) -> Option<u32> {
        self.precision.map(|p| precision_bits(p.into()))
    }

    /// Whether every valid value with `digits` appended is declared to fit
    /// `precision` digits: then an operator that keeps magnitudes (a
    /// negation, a rescale that appends digits) needs no precision check,
    /// which the bits of the declaration alone cannot tell (`10^p - 1` is
    /// no power of two).
    pub(crate) fn declared_within(&self, digits: u32, precision: u8) -> bool {
        self.precision.is_some_and(|p| u32::from(p) + digits <= u32::from(precision))
    }

    /// A bound measured from the values (null rows included).
    pub(crate) fn measured_bits(&self) -> u32 {
        match self.values {
            Values::Array(column) => column_bits(&column),
            Values::Scalar(value) => i256::magnitude_bits(&[value]),
        }
    }

    /// The bound a plan starts from: the declared one for a column, the
    /// smaller of the declared and the measured one for a single value, the
    /// measured one when nothing is declared.
    fn first_bits(&self) -> u32 {
        match (self.values, self.declared_bits()) {
            (Values::Array(_), Some(bits)) => bits,
            (Values::Scalar(_), Some(bits)) => bits.min(self.measured_bits()),
            (_, None) => self.measured_bits(),
        }
    }

    /// `bits` from [`first_bits`](Self::first_bits), measured too when it
    /// was a column's declaration.
    fn refined_bits(&self, bits: u32) -> u32 {
        match (self.values, self.precision) {
            (Values::Array(_), Some(_)) => bits.min(self.measured_bits()),
            _ => bits,
        }
    }
}

/// A bound `L` with `|v| < 2^L` for every value of a column (null rows
/// included), from one vectorized pass.
pub(crate) fn column_bits(column: &Column<'_>) -> u32 {
    with_column!(column, values => magnitude_bits(values))
}

/// The narrowest work type holding every stored value of both operands (a
/// single value counting at the narrowest width that holds it).
pub(crate) fn storage_work(lhs: &Operand<'_>, rhs: &Operand<'_>) -> WorkWidth {
    lhs.holding_work().max(rhs.holding_work())
}

/// Operand bounds (`|a| < 2^lhs`, `|b| < 2^rhs`) and the work type they call
/// for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    pub(crate) width: WorkWidth,
    pub(crate) lhs: u32,
    pub(crate) rhs: u32,
}

/// Plans a call from the operands' bounds and the operator's need
/// (`width_for(lhs_bits, rhs_bits)`).
///
/// Declared precisions are trusted as they are when they call for a work type
/// narrower than `measure_from`. Otherwise one pass over the values measures
/// them, because a column of small values in a wide type (money in
/// `Decimal128(38,10)`, a money quotient whose scaled dividend would need 70
/// bits by its type) computes several times faster in a narrow work type than
/// the pass costs (an OR per value). Each operator sets `measure_from` to the
/// first work type whose cost outweighs that pass. Scalars and operands
/// without a declared bound are always measured.
pub(crate) fn plan(
    lhs: &Operand<'_>,
    rhs: &Operand<'_>,
    measure_from: WorkWidth,
    width_for: impl Fn(u32, u32) -> WorkWidth,
) -> Plan {
    let (l, r) = (lhs.first_bits(), rhs.first_bits());
    let width = width_for(l, r);
    if width < measure_from {
        return Plan { width, lhs: l, rhs: r };
    }
    let (l, r) = (lhs.refined_bits(l), rhs.refined_bits(r));
    Plan { width: width_for(l, r), lhs: l, rhs: r }
}

/// An operand's bound (`|a| < 2^bits`) and the work type it calls for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct UnaryPlan {
    pub(crate) width: WorkWidth,
    pub(crate) bits: u32,
}

/// [`plan`] for one operand: `width_for(bits)` is the unary operator's need.
pub(crate) fn plan_unary(
    operand: &Operand<'_>,
    measure_from: WorkWidth,
    width_for: impl Fn(u32) -> WorkWidth,
) -> UnaryPlan {
    let bits = operand.first_bits();
    let width = width_for(bits);
    if width < measure_from {
        return UnaryPlan { width, bits };
    }
    let bits = operand.refined_bits(bits);
    UnaryPlan { width: width_for(bits), bits }
}

/// Bits added by a factor of `10^k` (none for `k = 0`). Any `k` beyond 160
/// already calls for the saturating 512-bit type; capping it there keeps
/// every sum of bit counts far from `u32::MAX`.
pub(crate) fn shift_bits(k: u32) -> u32 {
    if k == 0 { 0 } else { pow10_bits(k.min(160)) }
}

/// Whether results below `2^bits` can exceed precision `p`: if not, the call
/// runs a loop without the precision check.
pub(crate) fn needs_check(bits: u32, precision: u8) -> bool {
    bits > bits_within_precision(precision.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_buffer::i256;

    fn sum_width(l: u32, r: u32) -> WorkWidth {
        WorkWidth::for_bits(l.max(r) + 1)
    }

    #[test]
    fn narrow_declarations_are_trusted_scalars_measured() {
        let values = [5i64, -7];
        // Both values are within 18 digits.
        let array = Operand::array(&values[..]).assume_precision(18);
        // 5 is within 18 digits.
        let scalar = Operand::scalar(5i64).assume_precision(18);
        let p = plan(&array, &scalar, WorkWidth::I128, sum_width);
        assert_eq!((p.width, p.lhs, p.rhs), (WorkWidth::I64, 60, 4));
    }

    #[test]
    fn wide_declarations_are_measured() {
        let values = [i256::from_i128(5), i256::from_i128(-7)];
        // Both values are within 76 digits.
        let array = Operand::array(&values[..]).assume_precision(76);
        let p = plan(&array, &array, WorkWidth::I128, sum_width);
        assert_eq!((p.width, p.lhs, p.rhs), (WorkWidth::I64, 4, 4));
    }

    #[test]
    fn undeclared_values_are_measured() {
        let wide = [i256::MIN];
        let array = Operand::array(&wide[..]);
        let p = plan(&array, &array, WorkWidth::I128, sum_width);
        assert_eq!((p.width, p.lhs), (WorkWidth::I512, 256));
        let small = [1i64];
        let small = Operand::array(&small[..]);
        assert_eq!(plan(&small, &small, WorkWidth::I128, sum_width).width, WorkWidth::I64);
    }

    #[test]
    fn mixed_storage_counts_the_widest() {
        let (narrow, wide) = ([1i64], [1i128]);
        let (narrow, wide) = (Operand::array(&narrow[..]), Operand::array(&wide[..]));
        assert_eq!(storage_work(&narrow, &narrow), WorkWidth::I64);
        assert_eq!(storage_work(&narrow, &wide), WorkWidth::I128);
        assert_eq!(storage_work(&Operand::scalar(i256::MAX), &narrow), WorkWidth::I256);
        assert_eq!(storage_work(&Operand::scalar(i256::ONE), &narrow), WorkWidth::I64);
    }

    #[test]
    fn hostile_shifts_call_for_i512() {
        for k in [161, 1000, u32::MAX] {
            assert_eq!(WorkWidth::for_bits(256 + shift_bits(k)), WorkWidth::I512);
        }
    }
}
