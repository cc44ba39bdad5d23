//! Choosing the work type of a call.
//!
//! Each operator states how many magnitude bits its intermediates can need,
//! from bounds on its operands; the call then runs in the narrowest work type
//! that holds them. Operands bring their bound as a declared precision (the
//! caller vouches that every valid value fits it) or have it measured with one
//! pass over the values.

use crate::arity::Input;
use crate::pow10::{bits_within_precision, pow10_bits, precision_bits};
use crate::storage::Storage;

/// What is known of an operand's magnitudes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Magnitude {
    /// Every valid row's value is at most `10^p - 1` in magnitude (null rows
    /// may hold anything: they are computed harmlessly and discarded).
    Precision(u8),
    /// Nothing: the kernel measures the values.
    Unknown,
}

/// One operand of a kernel: its values and what is known of their size.
#[derive(Clone, Copy, Debug)]
pub struct Operand<'a, S> {
    /// The values.
    pub input: Input<'a, S>,
    /// Their magnitude bound.
    pub magnitude: Magnitude,
}

impl<S: Storage> Operand<'_, S> {
    /// The bound from the declared precision, if the operand has one.
    fn declared_bits(&self) -> Option<u32> {
        match self.magnitude {
            Magnitude::Precision(p) => Some(precision_bits(p.into())),
            Magnitude::Unknown => None,
        }
    }

    /// The bound measured from the values (null rows included).
    fn measured_bits(&self) -> u32 {
        match self.input {
            Input::Array(values) => crate::arity::magnitude_bits(values),
            Input::Scalar(value) => S::magnitude_bits(&[value]),
        }
    }
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
pub(crate) fn plan<S: Storage>(
    lhs: &Operand<'_, S>,
    rhs: &Operand<'_, S>,
    measure_from: WorkWidth,
    width_for: impl Fn(u32, u32) -> WorkWidth,
) -> Plan {
    let first = |o: &Operand<'_, S>| match (o.input, o.declared_bits()) {
        (Input::Array(_), Some(bits)) => bits,
        (Input::Scalar(_), Some(bits)) => bits.min(o.measured_bits()),
        (_, None) => o.measured_bits(),
    };
    let (l, r) = (first(lhs), first(rhs));
    let width = width_for(l, r);
    if width < measure_from {
        return Plan { width, lhs: l, rhs: r };
    }
    let refine = |o: &Operand<'_, S>, bits: u32| match (o.input, o.magnitude) {
        (Input::Array(_), Magnitude::Precision(_)) => bits.min(o.measured_bits()),
        _ => bits,
    };
    let (l, r) = (refine(lhs, l), refine(rhs, r));
    Plan { width: width_for(l, r), lhs: l, rhs: r }
}

/// Bits added by a factor of `10^k` (none for `k = 0`).
pub(crate) fn shift_bits(k: u32) -> u32 {
    if k == 0 { 0 } else { pow10_bits(k) }
}

/// Whether results below `2^bits` can exceed precision `p`: if not, the call
/// runs a loop without the precision check.
pub(crate) fn needs_check(bits: u32, precision: u8) -> bool {
    bits > bits_within_precision(precision.into())
}

/// The work types, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WorkWidth {
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
    #[must_use]
    pub fn for_bits(bits: u32) -> Self {
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
        let array =
            Operand { input: Input::Array(&values[..]), magnitude: Magnitude::Precision(18) };
        let scalar = Operand { input: Input::Scalar(5i64), magnitude: Magnitude::Precision(18) };
        let p = plan(&array, &scalar, WorkWidth::I128, sum_width);
        assert_eq!((p.width, p.lhs, p.rhs), (WorkWidth::I64, 60, 4));
    }

    #[test]
    fn wide_declarations_are_measured() {
        let values = [i256::from_i128(5), i256::from_i128(-7)];
        let array =
            Operand { input: Input::Array(&values[..]), magnitude: Magnitude::Precision(76) };
        let p = plan(&array, &array, WorkWidth::I128, sum_width);
        assert_eq!((p.width, p.lhs, p.rhs), (WorkWidth::I64, 4, 4));
    }

    #[test]
    fn undeclared_values_are_measured() {
        let wide = [i256::MIN];
        let array = Operand { input: Input::Array(&wide[..]), magnitude: Magnitude::Unknown };
        let small = [1i64];
        let p = plan(&array, &array, WorkWidth::I128, sum_width);
        assert_eq!((p.width, p.lhs), (WorkWidth::Wide, 256));
        let small = Operand { input: Input::Array(&small[..]), magnitude: Magnitude::Unknown };
        assert_eq!(plan(&small, &small, WorkWidth::I128, sum_width).width, WorkWidth::I64);
    }
}
