//! The work types by size: which one holds magnitudes of a number of bits,
//! and the one place a width chosen at run time becomes a compiled type.

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
    I512,
}

impl WorkWidth {
    /// The narrowest work type holding magnitudes below `2^bits`.
    pub(crate) fn for_bits(bits: u32) -> Self {
        match bits {
            0..=63 => Self::I64,
            64..=127 => Self::I128,
            128..=255 => Self::I256,
            _ => Self::I512,
        }
    }
}

/// Calls `$body` with `$w` the work type for `$width`: the one place a width
/// value becomes a compiled work type.
macro_rules! with_work {
    ($width:expr, $w:ident => $body:expr) => {
        match $width {
            $crate::int::width::WorkWidth::I64 => {
                type $w = i64;
                $body
            }
            $crate::int::width::WorkWidth::I128 => {
                type $w = i128;
                $body
            }
            $crate::int::width::WorkWidth::I256 => {
                type $w = ethnum::I256;
                $body
            }
            $crate::int::width::WorkWidth::I512 => {
                type $w = $crate::int::i512::I512;
                $body
            }
        }
    };
}
pub(crate) use with_work;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_bits() {
        assert_eq!(WorkWidth::for_bits(0), WorkWidth::I64);
        assert_eq!(WorkWidth::for_bits(63), WorkWidth::I64);
        assert_eq!(WorkWidth::for_bits(64), WorkWidth::I128);
        assert_eq!(WorkWidth::for_bits(255), WorkWidth::I256);
        assert_eq!(WorkWidth::for_bits(256), WorkWidth::I512);
    }
}
