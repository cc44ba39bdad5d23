//! The validity of a call's rows: the operands' bitmaps combined, written
//! into a recycled bitmap where one serves.

use arrow_buffer::{BooleanBuffer, MutableBuffer, NullBuffer};

use crate::compute::operand::Operand;
use crate::compute::recycled::RecycledArray;

/// Which rows of a call are valid.
pub(crate) enum Validity {
    /// A null scalar side: no row is.
    NoRow,
    /// The rows valid in every array side (`None`: all of them).
    Rows(Option<NullBuffer>),
}

/// The validity of a call over `operands` (arrays of one length): the
/// intersection of the arrays' bitmaps, written into `recycled`'s bitmap
/// when both sides have one and nothing else shares it.
pub(crate) fn combined(operands: &[Operand<'_>], recycled: &mut RecycledArray) -> Validity {
    if operands.iter().any(|o| matches!(o, Operand::Scalar(s) if s.is_null())) {
        return Validity::NoRow;
    }
    let bitmaps = operands.iter().filter_map(|o| match o {
        Operand::Array(a) => a.nulls(),
        Operand::Scalar(_) => None,
    });
    Validity::Rows(bitmaps.fold(None, |acc, next| {
        Some(match acc {
            None => next.clone(),
            Some(acc) => intersection(&acc, next, recycled.take_bitmap()),
        })
    }))
}

/// The rows valid in both `a` and `b` (of one length), written into
/// `bitmap` when there is one (grown if too small), into a new one
/// otherwise.
fn intersection(a: &NullBuffer, b: &NullBuffer, bitmap: Option<MutableBuffer>) -> NullBuffer {
    let Some(mut bits) = bitmap else {
        return NullBuffer::new(a.inner() & b.inner());
    };
    bits.clear();
    let (a_chunks, b_chunks) = (a.inner().bit_chunks(), b.inner().bit_chunks());
    for (x, y) in a_chunks.iter().zip(b_chunks.iter()) {
        bits.push(x & y);
    }
    if a_chunks.remainder_len() > 0 {
        bits.push(a_chunks.remainder_bits() & b_chunks.remainder_bits());
    }
    NullBuffer::new(BooleanBuffer::new(bits.into(), 0, a.len()))
}
