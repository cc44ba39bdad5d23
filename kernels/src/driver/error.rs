//! Why a kernel call fails.

/// Why a kernel call failed. Rows are counted from the start of the
/// (possibly sliced) inputs.
///
/// ```
/// use decimal_kernels_native::{AddSpec, KernelError, Operand, Output, Rows, add};
/// let (a, b) = ([99i64], [1i64]);
/// let spec = AddSpec::new(0, 0, 2);
/// let out: Result<Output<i64>, _> =
///     add(Operand::array(&a[..]), Operand::array(&b[..]), &spec, &Rows::new(1));
/// assert_eq!(out.unwrap_err(), KernelError::Overflow { row: 0 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KernelError {
    /// A valid row's result exceeded the result precision under the `Error`
    /// policy; the first such row.
    Overflow {
        /// The row.
        row: usize,
    },
    /// A valid row divided by zero under the `Error` policy; the first such row.
    DivideByZero {
        /// The row.
        row: usize,
    },
    /// An input or the validity does not have the call's number of rows.
    LengthMismatch {
        /// The call's number of rows.
        expected: usize,
        /// The length found.
        actual: usize,
    },
    /// The output storage cannot hold every result of the result precision.
    StorageTooNarrow {
        /// The spec's result precision.
        result_precision: u8,
        /// The most digits the output storage holds.
        max_precision: u8,
    },
    /// A row's group is not one of the aggregate's groups; the first such
    /// row.
    GroupOutOfRange {
        /// The row.
        row: usize,
        /// Its group.
        group: usize,
        /// The number of groups.
        groups: usize,
    },
    /// An aggregate asked for more groups than memory can hold: the state
    /// of `groups` groups could not be allocated (nor counted in bytes, for
    /// a number near `usize::MAX`). The state is left as it was.
    TooManyGroups {
        /// The number of groups asked for.
        groups: usize,
    },
    /// A merged aggregate state is not one that rows can add up to (a count
    /// beyond `2^60`, a sum beyond `count * 2^255` in magnitude).
    StateOutOfRange,
    /// The spec describes an operation the kernels do not compute.
    UnsupportedSpec {
        /// Why.
        reason: &'static str,
    },
}
