//! Which work types share a storage type's memory layout, so that blocks
//! are read from a column, and results written to the output, in place.
//!
//! `i64` and `i128` are their own storage; ethnum's `I256` has the memory
//! image of arrow's `i256` on little-endian targets; the saturating 512-bit
//! type is never stored.

use core::mem::MaybeUninit;

use arrow_buffer::i256;
use ethnum::I256;

use crate::columns::column::{Column, Slots};
use crate::columns::storage::{cast_slice, cast_slice_mut};
use crate::int::i512::I512;
use crate::int::work::Work;

/// A work type as columns and output slots see it.
pub(crate) trait InPlace: Work {
    /// Whether reading wider storage as 64-bit words pays in this type
    /// (`i64`, `i128`: the low words hold the whole value; wider types
    /// convert).
    const WORDS_PAY: bool;

    /// The column's values when it is stored as this very type: blocks are
    /// then read in place.
    fn from_column<'a>(column: &Column<'a>) -> Option<&'a [Self]>;

    /// Output slots as slots of this type when the output is stored with
    /// its memory layout: results are then written in place.
    fn output_slots(slots: Slots<'_>) -> Option<&mut [MaybeUninit<Self>]>;
}

impl InPlace for i64 {
    const WORDS_PAY: bool = true;

    #[inline(always)]
    fn from_column<'a>(column: &Column<'a>) -> Option<&'a [Self]> {
        match *column {
            Column::I64(values) => Some(values),
            _ => None,
        }
    }
    #[inline(always)]
    fn output_slots(slots: Slots<'_>) -> Option<&mut [MaybeUninit<Self>]> {
        match slots {
            Slots::I64(slots) => Some(slots),
            _ => None,
        }
    }
}

impl InPlace for i128 {
    const WORDS_PAY: bool = true;

    #[inline(always)]
    fn from_column<'a>(column: &Column<'a>) -> Option<&'a [Self]> {
        match *column {
            Column::I128(values) => Some(values),
            _ => None,
        }
    }
    #[inline(always)]
    fn output_slots(slots: Slots<'_>) -> Option<&mut [MaybeUninit<Self>]> {
        match slots {
            Slots::I128(slots) => Some(slots),
            _ => None,
        }
    }
}

impl InPlace for I256 {
    const WORDS_PAY: bool = false;

    #[inline(always)]
    fn from_column<'a>(column: &Column<'a>) -> Option<&'a [Self]> {
        match *column {
            Column::I256(values) if cfg!(target_endian = "little") => {
                // SAFETY: on little-endian targets arrow's `i256` (`repr(C)`,
                // low `u128` then high `i128`) and ethnum's `I256` (two
                // `i128` words, least significant first) are the same 32
                // bytes, and every bit pattern is valid for both.
                Some(unsafe { cast_slice::<i256, I256>(values) })
            }
            _ => None,
        }
    }
    #[inline(always)]
    fn output_slots(slots: Slots<'_>) -> Option<&mut [MaybeUninit<Self>]> {
        match slots {
            Slots::I256(slots) if cfg!(target_endian = "little") => {
                // SAFETY: as in `from_column`: the same memory image, so a
                // slot written as `I256` holds the `i256` of the same value.
                Some(unsafe { cast_slice_mut::<i256, I256>(slots) })
            }
            _ => None,
        }
    }
}

impl InPlace for I512 {
    const WORDS_PAY: bool = false;

    fn from_column<'a>(_: &Column<'a>) -> Option<&'a [Self]> {
        None
    }
    fn output_slots(_: Slots<'_>) -> Option<&mut [MaybeUninit<Self>]> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::int::work::i256_to_ethnum;

    #[test]
    fn wide_columns_read_in_place_equal_converted_ones() {
        let values = [i256::MIN, i256::MAX, i256::ZERO, i256::MINUS_ONE, i256::from_i128(-7)];
        let column = Column::I256(&values);
        let little_endian = cfg!(target_endian = "little");
        assert_eq!(I256::from_column(&column).is_some(), little_endian, "read in place");
        if let Some(in_place) = I256::from_column(&column) {
            let converted: Vec<I256> = values.iter().map(|&v| i256_to_ethnum(v)).collect();
            assert_eq!(in_place, &converted[..]);
        }
        let mut out = Vec::<i256>::with_capacity(values.len());
        let slots = I256::output_slots(Slots::I256(out.spare_capacity_mut()));
        assert_eq!(slots.is_some(), little_endian, "written in place");
        if let Some(slots) = slots {
            for (slot, &v) in slots.iter_mut().zip(&values) {
                slot.write(i256_to_ethnum(v));
            }
            // SAFETY: every slot was written just above.
            unsafe { out.set_len(values.len()) };
            assert_eq!(out, values);
        }
    }
}
