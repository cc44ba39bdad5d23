//! Comparisons decoded from raw bytes: one byte picks the [`CompareOp`]
//! (modulo 6, in [`CompareOp::ALL`]'s order), and the bytes after it are two
//! operands exactly as [`Case::decode`] reads a binary call (its options
//! unused, as a comparison takes none). [`compare`] and the operator's named
//! function ([`eq`], [`neq`], [`lt`], [`lt_eq`], [`gt`], [`gt_eq`]) must both
//! give [`reference_compare`]'s answer on every row: the same null rows, the
//! same answers elsewhere, or the same error.

use decimal_kernels::conformance::reference_compare;
use decimal_kernels::{
    BinaryOp, CompareOp, DecimalError, NullableBuffer, Operand, compare, eq, gt, gt_eq, lt, lt_eq,
    neq,
};
use decimal_kernels_native::BooleanBuffer;

use crate::{ByteSource, Case, Reader, ReferenceMismatch, check_rows, text};

/// A comparison's result: per row, its answer (`None` for a null row).
type Answers = Result<Vec<Option<bool>>, DecimalError>;

/// A named comparison function.
type NamedCompare =
    for<'a> fn(Operand<'a>, Operand<'a>) -> Result<NullableBuffer<BooleanBuffer>, DecimalError>;

/// The function named for `op`.
fn named(op: CompareOp) -> NamedCompare {
    match op {
        CompareOp::Eq => |lhs, rhs| eq(lhs, rhs),
        CompareOp::NotEq => |lhs, rhs| neq(lhs, rhs),
        CompareOp::Lt => |lhs, rhs| lt(lhs, rhs),
        CompareOp::LtEq => |lhs, rhs| lt_eq(lhs, rhs),
        CompareOp::Gt => |lhs, rhs| gt(lhs, rhs),
        CompareOp::GtEq => |lhs, rhs| gt_eq(lhs, rhs),
    }
}

/// The rows of a comparison's result; the value under a null row is not an
/// answer, so it is not read.
fn answers(outcome: Result<NullableBuffer<BooleanBuffer>, DecimalError>) -> Answers {
    outcome.map(|result| (0..result.values().len()).map(|row| result.get(row)).collect())
}

/// Decodes `bytes` into a comparison, runs [`compare`] and the operator's
/// named function, and holds both to [`reference_compare`] (bytes whose
/// operands a constructor rejects pass).
///
/// # Errors
/// A [`ReferenceMismatch`] naming the function and the first row that
/// differs.
pub fn check_compare_bytes(bytes: &[u8]) -> Result<(), ReferenceMismatch> {
    let mut r = Reader { rest: bytes };
    let op = CompareOp::ALL[usize::from(r.byte()) % CompareOp::ALL.len()];
    let Ok(case) = Case::decode(BinaryOp::Add, r.rest) else {
        return Ok(());
    };
    let (lhs, rhs) = case.operands();
    let expected = answers(reference_compare(op, lhs, rhs));
    let calls =
        [("compare", answers(compare(op, lhs, rhs))), ("named", answers(named(op)(lhs, rhs)))];
    for (function, got) in calls {
        let call = |row| {
            format!(
                "{function} `{op}` of {} and {}, row {row}: {} {op} {}",
                lhs.dtype(),
                rhs.dtype(),
                text(lhs, row),
                text(rhs, row)
            )
        };
        check_rows(call, &expected, &got)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_compare_prefix_decodes_without_panic() {
        // `=` on decimal(9,2) and decimal(19,3) columns of 4096 rows, the
        // right one with its largest value placed at the last row.
        let mut bytes = vec![0, 0, 0, 9, 80, 19, 81, 0, 0x83, 0x0c, 0, 16, 0, 0, 0, 0, 0];
        bytes.extend([1, 0x84, 3, 0, 0, 1, 0x04, 30, 0, 1, 0xff, 0x0f, 0x01, 0]);
        for end in 0..=bytes.len() {
            check_compare_bytes(&bytes[..end])
                .unwrap_or_else(|report| panic!("{end} bytes: {report}"));
        }
    }
}
