//! The rows of a call besides their values: how many, which are valid, and
//! what a failing row does.

use arrow_buffer::NullBuffer;

use crate::columns::operand::Operand;
use crate::driver::error::KernelError;

/// What to do when a row fails.
///
/// ```
/// use decimal_kernels_native::{AddSpec, Operand, Output, OverflowPolicy, Policies, Rows, add};
/// let (a, b) = ([90i64, 5], [20i64, 5]);
/// let null = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
/// let rows = Rows::new(2).with_policies(null);
/// // decimal(2, 0) results: 110 overflows and becomes null, 10 stays.
/// let out: Output<i8> =
///     add(Operand::array(&a[..]), Operand::array(&b[..]), &AddSpec::new(0, 0, 2), &rows)?;
/// assert!(out.nulls.as_ref().is_some_and(|n| n.is_null(0) && n.is_valid(1)));
/// assert_eq!(out.values[1], 10);
/// # Ok::<(), decimal_kernels_native::KernelError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OverflowPolicy {
    /// Fail the whole call, naming the first failing row.
    #[default]
    Error,
    /// Make the failing row null and compute the others.
    Null,
}

/// The policies for the two ways a row can fail.
///
/// ```
/// use decimal_kernels_native::{OverflowPolicy, Policies};
/// let lenient = Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() };
/// assert_eq!(lenient.on_divide_by_zero, OverflowPolicy::Error);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Policies {
    /// When a result exceeds the result precision.
    pub on_overflow: OverflowPolicy,
    /// When a divisor is zero.
    pub on_divide_by_zero: OverflowPolicy,
}

/// The rows of a call besides their values: how many there are, which are
/// valid, and the policies.
///
/// ```
/// use decimal_kernels_native::{OverflowPolicy, Policies, Rows};
/// let rows = Rows::new(1024)
///     .with_policies(Policies { on_overflow: OverflowPolicy::Null, ..Policies::default() });
/// assert_eq!(rows.len, 1024);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Rows<'a> {
    /// Number of rows.
    pub len: usize,
    /// Validity of the rows (both operands' nulls combined); `None`: all valid.
    pub nulls: Option<&'a NullBuffer>,
    /// What failing rows do.
    pub policies: Policies,
}

impl<'a> Rows<'a> {
    /// `len` rows, all valid, failing the call on the first failing row.
    #[must_use]
    pub fn new(len: usize) -> Self {
        Self { len, nulls: None, policies: Policies::default() }
    }

    /// The same rows with this validity.
    #[must_use]
    pub fn with_nulls(self, nulls: Option<&'a NullBuffer>) -> Self {
        Self { nulls, ..self }
    }

    /// The same rows with these policies.
    #[must_use]
    pub fn with_policies(self, policies: Policies) -> Self {
        Self { policies, ..self }
    }

    /// Checks that every operand that is a column, and the validity, have
    /// `len` rows.
    pub(crate) fn check(&self, operands: &[&Operand<'_>]) -> Result<(), KernelError> {
        let columns = operands.iter().map(|o| o.row_count());
        let lengths = columns.chain([self.nulls.map(NullBuffer::len)]);
        match lengths.flatten().find(|&actual| actual != self.len) {
            Some(actual) => Err(KernelError::LengthMismatch { expected: self.len, actual }),
            None => Ok(()),
        }
    }
}
