//! Failure masks: which valid rows of a call failed, and what that does.
//!
//! A block whose flag byte is non-zero is looked at again, row by row, to
//! build the 64-bit failure masks of its chunks of 64 rows, which are then
//! masked with validity: a failure under a null row is no failure. Under the
//! `Error` policy the first failing valid row (found with `trailing_zeros`)
//! ends the call; under `Null` the failing rows are cleared from the
//! result's validity with bitmap operations.

use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer};

use crate::driver::blocks::MASK_ROWS;
use crate::driver::error::KernelError;
use crate::driver::kernel::{DIVIDE_BY_ZERO, OVERFLOW};
use crate::driver::rows::{OverflowPolicy, Rows};

/// Failure masks of the 64-row chunks that had any, resolved against
/// validity and the policies.
pub(crate) struct FailureMasks<'a> {
    rows: &'a Rows<'a>,
    /// Rows nulled by a `Null` policy, one bit per row; allocated on first use.
    nulled: Option<Vec<u64>>,
}

impl<'a> FailureMasks<'a> {
    /// No failures yet, for `rows`.
    pub(crate) fn new(rows: &'a Rows<'a>) -> Self {
        Self { rows, nulled: None }
    }

    /// The validity bits of mask `index` holding `len` rows.
    fn valid_bits(&self, index: usize, len: usize) -> u64 {
        let start = index * MASK_ROWS;
        match self.rows.nulls {
            None => u64::MAX >> (MASK_ROWS - len),
            Some(nulls) => (0..len)
                .filter(|&bit| nulls.is_valid(start + bit))
                .fold(0u64, |mask, bit| mask | (1 << bit)),
        }
    }

    /// Records the failures of the `len` rows from `start` on, given each
    /// row's flags in order: for a block whose flags were not all clear.
    pub(crate) fn record_block(
        &mut self,
        start: usize,
        len: usize,
        flags: impl Iterator<Item = u8>,
    ) -> Result<(), KernelError> {
        let mut flags = flags.take(len);
        for chunk in (0..len).step_by(MASK_ROWS) {
            let rows = MASK_ROWS.min(len - chunk);
            let (mut overflow, mut divide_by_zero) = (0u64, 0u64);
            for (bit, f) in flags.by_ref().take(rows).enumerate() {
                overflow |= u64::from(f & OVERFLOW != 0) << bit;
                divide_by_zero |= u64::from(f & DIVIDE_BY_ZERO != 0) << bit;
            }
            self.record((start + chunk) / MASK_ROWS, rows, overflow, divide_by_zero)?;
        }
        Ok(())
    }

    /// Records mask `index`, of `len` rows, with these overflow and
    /// division-by-zero bits: the first failing valid row under an `Error`
    /// policy fails the call (found by `trailing_zeros`), failing valid rows
    /// under `Null` are nulled.
    pub(crate) fn record(
        &mut self,
        index: usize,
        len: usize,
        overflow: u64,
        divide_by_zero: u64,
    ) -> Result<(), KernelError> {
        let valid = self.valid_bits(index, len);
        let overflow = overflow & valid;
        // A row with a zero divisor fails as a division by zero, not an overflow.
        let divide_by_zero = divide_by_zero & valid;
        let overflow = overflow & !divide_by_zero;
        let policies = self.rows.policies;
        let fatal = |mask: u64, policy: OverflowPolicy| {
            if policy == OverflowPolicy::Error { mask } else { 0 }
        };
        let errors = fatal(overflow, policies.on_overflow)
            | fatal(divide_by_zero, policies.on_divide_by_zero);
        if errors != 0 {
            let bit = errors.trailing_zeros();
            let row = index * MASK_ROWS + bit as usize;
            return Err(if divide_by_zero >> bit & 1 == 1 {
                KernelError::DivideByZero { row }
            } else {
                KernelError::Overflow { row }
            });
        }
        let nulled = overflow | divide_by_zero;
        if nulled != 0 {
            let words = self.rows.len.div_ceil(MASK_ROWS);
            let mask = self.nulled.get_or_insert_with(|| vec![0; words]);
            if let Some(word) = mask.get_mut(index) {
                *word |= nulled;
            }
        }
        Ok(())
    }

    /// The validity of the results: the rows' less the nulled ones.
    pub(crate) fn finish(self) -> Option<NullBuffer> {
        let Some(nulled) = self.nulled else {
            return self.rows.nulls.cloned();
        };
        let nulled = BooleanBuffer::new(Buffer::from_vec(nulled), 0, self.rows.len);
        let kept = match self.rows.nulls {
            Some(nulls) => nulls.inner() & &!&nulled,
            None => !&nulled,
        };
        Some(NullBuffer::new(kept))
    }
}
