//! Choosing the work type of a call.
//!
//! Each operator states how many magnitude bits its intermediates can need,
//! from bounds on its operands; the call then runs in the narrowest work type
//! that holds them. Operands bring their bound as a declared precision (the
//! caller vouches that every valid value fits it) or have it measured with one
//! pass over the values.

use crate::arity::Input;
use crate::pow10::{pow10_bits, precision_bits};
use crate::storage::Storage;

/// What is known of an operand's magnitudes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Magnitude {
    /// Every value (null rows included) is at most `10^p - 1` in magnitude.
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
    /// `L` such that every value satisfies `|v| < 2^L`.
    pub(crate) fn bits(&self) -> u32 {
        let measured = || match self.input {
            Input::Array(values) => S::magnitude_bits(values),
            Input::Scalar(value) => S::magnitude_bits(&[value]),
        };
        match (self.magnitude, self.input) {
            // One value is cheaper to measure than to bound.
            (Magnitude::Precision(p), Input::Scalar(_)) => precision_bits(p.into()).min(measured()),
            (Magnitude::Precision(p), Input::Array(_)) => precision_bits(p.into()),
            (Magnitude::Unknown, _) => measured(),
        }
    }
}

/// Bits added by a factor of `10^k` (none for `k = 0`).
pub(crate) fn shift_bits(k: u32) -> u32 {
    if k == 0 { 0 } else { pow10_bits(k) }
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

    #[test]
    fn scalars_are_measured_arrays_trusted() {
        let scalar = Operand { input: Input::Scalar(5i64), magnitude: Magnitude::Precision(18) };
        assert_eq!(scalar.bits(), 3);
        let values = [5i64, -7];
        let array = Operand { input: Input::Array(&values), magnitude: Magnitude::Precision(18) };
        assert_eq!(array.bits(), 60);
        let array = Operand { input: Input::Array(&values), magnitude: Magnitude::Unknown };
        assert_eq!(array.bits(), 3);
        let wide = [i256::MIN];
        let array = Operand { input: Input::Array(&wide), magnitude: Magnitude::Unknown };
        assert_eq!(array.bits(), 256);
    }
}
