//! Choosing the work type of a call.
//!
//! Each operator states how many magnitude bits its intermediates can need,
//! from bounds on its operands; the call then runs in the narrowest work type
//! that holds them. Operands bring their bound as a declared precision (the
//! caller vouches that every valid value fits it) or have it measured with one
//! pass over the values.

use crate::column::{Input, Values};
use crate::pow10::{bits_within_precision, pow10_bits, precision_bits};

impl Input<'_> {
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
}

/// The narrowest work type holding every stored value of both operands (a
/// single value counting at the narrowest width that holds it).
pub(crate) fn storage_work(lhs: &Input<'_>, rhs: &Input<'_>) -> WorkWidth {
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
    lhs: &Input<'_>,
    rhs: &Input<'_>,
    measure_from: WorkWidth,
    width_for: impl Fn(u32, u32) -> WorkWidth,
) -> Plan {
    let first = |o: &Input<'_>| match (o.values, o.declared_bits()) {
        (Values::Array(_), Some(bits)) => bits,
        (Values::Scalar(_), Some(bits)) => bits.min(o.measured_bits()),
        (_, None) => o.measured_bits(),
    };
    let (l, r) = (first(lhs), first(rhs));
    let width = width_for(l, r);
    if width < measure_from {
        return Plan { width, lhs: l, rhs: r };
    }
    let refine = |o: &Input<'_>, bits: u32| match (o.values, o.precision) {
        (Values::Array(_), Some(_)) => bits.min(o.measured_bits()),
        _ => bits,
    };
    let (l, r) = (refine(lhs, l), refine(rhs, r));
    Plan { width: width_for(l, r), lhs: l, rhs: r }
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

/// The work types, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum WorkWidth {
    /// `i64`.
    I64,
    /// `i128`.
    I128,
    /// ethnum's `I256`.
    I256,
    /// The saturating `I512`.
    Wide,
}

impl WorkWidth {
    /// The narrowest work type holding magnitudes below `2^bits`.
    pub(crate) fn for_bits(bits: u32) -> Self {
        match bits {
            0..=63 => Self::I64,
            64..=127 => Self::I128,
            128..=255 => Self::I256,
            _ => Self::Wide,
        }
    }
}

/// Calls `$body` with `$w` the work type for `$width`: the one place a width
/// value becomes a compiled work type.
macro_rules! with_work {
    ($width:expr, $w:ident => $body:expr) => {
        match $width {
            $crate::plan::WorkWidth::I64 => {
                type $w = i64;
                $body
            }
            $crate::plan::WorkWidth::I128 => {
                type $w = i128;
                $body
            }
            $crate::plan::WorkWidth::I256 => {
                type $w = ethnum::I256;
                $body
            }
            $crate::plan::WorkWidth::Wide => {
                type $w = $crate::wide::I512;
                $body
            }
        }
    };
}
pub(crate) use with_work;

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_buffer::i256;

    #[test]
    fn widths_follow_bits() {
        assert_eq!(WorkWidth::for_bits(0), WorkWidth::I64);
        assert_eq!(WorkWidth::for_bits(63), WorkWidth::I64);
        assert_eq!(WorkWidth::for_bits(64), WorkWidth::I128);
        assert_eq!(WorkWidth::for_bits(255), WorkWidth::I256);
        assert_eq!(WorkWidth::for_bits(256), WorkWidth::Wide);
    }

    fn sum_width(l: u32, r: u32) -> WorkWidth {
        WorkWidth::for_bits(l.max(r) + 1)
    }

    #[test]
    fn narrow_declarations_are_trusted_scalars_measured() {
        let values = [5i64, -7];
        // SAFETY: both values are within 18 digits.
        let array = unsafe { Input::array(&values[..]).assume_precision(18) };
        // SAFETY: 5 is within 18 digits.
        let scalar = unsafe { Input::scalar(5i64).assume_precision(18) };
        let p = plan(&array, &scalar, WorkWidth::I128, sum_width);
        assert_eq!((p.width, p.lhs, p.rhs), (WorkWidth::I64, 60, 4));
    }

    #[test]
    fn wide_declarations_are_measured() {
        let values = [i256::from_i128(5), i256::from_i128(-7)];
        // SAFETY: both values are within 76 digits.
        let array = unsafe { Input::array(&values[..]).assume_precision(76) };
        let p = plan(&array, &array, WorkWidth::I128, sum_width);
        assert_eq!((p.width, p.lhs, p.rhs), (WorkWidth::I64, 4, 4));
    }

    #[test]
    fn undeclared_values_are_measured() {
        let wide = [i256::MIN];
        let array = Input::array(&wide[..]);
        let p = plan(&array, &array, WorkWidth::I128, sum_width);
        assert_eq!((p.width, p.lhs), (WorkWidth::Wide, 256));
        let small = [1i64];
        let small = Input::array(&small[..]);
        assert_eq!(plan(&small, &small, WorkWidth::I128, sum_width).width, WorkWidth::I64);
    }

    #[test]
    fn mixed_storage_counts_the_widest() {
        let (narrow, wide) = ([1i64], [1i128]);
        let (narrow, wide) = (Input::array(&narrow[..]), Input::array(&wide[..]));
        assert_eq!(storage_work(&narrow, &narrow), WorkWidth::I64);
        assert_eq!(storage_work(&narrow, &wide), WorkWidth::I128);
        assert_eq!(storage_work(&Input::scalar(i256::MAX), &narrow), WorkWidth::I256);
        assert_eq!(storage_work(&Input::scalar(i256::ONE), &narrow), WorkWidth::I64);
    }

    #[test]
    fn hostile_shifts_call_for_the_wide_type() {
        for k in [161, 1000, u32::MAX] {
            assert_eq!(WorkWidth::for_bits(256 + shift_bits(k)), WorkWidth::Wide);
        }
    }
}
