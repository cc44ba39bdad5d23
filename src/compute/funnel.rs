//! The one way from a public entry point to a kernel.
//!
//! Every entry point, native and Arrow, of one or two operands, describes
//! its call as a [`Request`] and hands it to [`run`]; the aggregates plan
//! their accumulator with [`plan`]. [`plan`] derives or checks, once and by
//! the rules (`crate::rules`): the result type (the profile's, or one the
//! caller planned, which must have an exact result to round),
//! the width it is stored at (the profile's, the `arrow` module's, or one
//! the caller asked for, which must hold it), and the row count. [`run`]
//! then combines the operands' validity and makes one typed kernel call:
//! the operands go to the kernels as they are stored, whatever their
//! widths, and the result comes back at its width directly, so no operand
//! is copied to a common width first and no result narrowed after.
//! Comparisons go through [`run_comparison`], beside [`run`], sharing its
//! row count and validity (they have no options, result type or failing
//! row).

use arrow_buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use decimal_kernels_native::{self as native, CompareSpec, KernelError, Rows};

use crate::compute::kernel_call::{BinaryCall, run_unary};
use crate::compute::operand::Operand;
use crate::compute::recycled::RecycledArray;
use crate::compute::validity::{self, Validity};
use crate::rules::result_type::check_exact;
use crate::rules::shape::row_count;
use crate::rules::storage::{ResultStorage, refused_width, result_width};
use crate::types::{
    AggregateOp, ArithmeticOptions, BinaryOp, CompareOp, DecimalError, DecimalType, StorageWidth,
    UnaryOp,
};
use crate::values::{DecimalArray, DecimalNative, NullableBuffer, with_native};

/// What a call computes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Operation<'a> {
    /// `lhs op rhs`, at `result` when the caller planned it, at the
    /// profile's result type otherwise.
    Binary { op: BinaryOp, lhs: Operand<'a>, rhs: Operand<'a>, result: Option<DecimalType> },
    /// `op operand`.
    Unary { op: UnaryOp, operand: Operand<'a> },
    /// The aggregate `op` over values of type `input` (planned only: the
    /// accumulator runs it).
    Aggregate { op: AggregateOp, input: DecimalType },
    /// `rows` texts read as decimals of type `to` (run by [`fill`], with the
    /// reader that fills the rows).
    Parse { to: DecimalType, rows: usize },
}

/// A call as an entry point hands it over.
#[derive(Debug)]
pub(crate) struct Request<'a> {
    operation: Operation<'a>,
    storage: ResultStorage,
    options: &'a ArithmeticOptions,
    recycled: RecycledArray,
}

impl<'a> Request<'a> {
    /// `operation` under `options`, stored as the profile stores its result,
    /// into newly allocated buffers.
    pub(crate) fn new(operation: Operation<'a>, options: &'a ArithmeticOptions) -> Self {
        Self {
            operation,
            storage: ResultStorage::Profile,
            options,
            recycled: RecycledArray::default(),
        }
    }

    /// The same, stored at the width `storage` chooses.
    pub(crate) fn stored(self, storage: ResultStorage) -> Self {
        Self { storage, ..self }
    }

    /// The same, written into `recycled`'s memory where it serves.
    pub(crate) fn recycled(self, recycled: RecycledArray) -> Self {
        Self { recycled, ..self }
    }
}

/// What [`plan`] derived for a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The result type.
    pub(crate) result: DecimalType,
    /// The width results are stored at (it holds `result`).
    pub(crate) width: StorageWidth,
    /// The number of result rows (one for an aggregate's plan).
    pub(crate) rows: usize,
}

/// The result type of a call and the width it is stored at: what a
/// prepared plan holds, derived once from the operand types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// The result type.
    pub(crate) result: DecimalType,
    /// The width results are stored at (it holds `result`).
    pub(crate) width: StorageWidth,
}

/// The shape of `lhs op rhs` for operands of types `lhs` and `rhs`, at
/// `result` when the caller planned it.
///
/// # Errors
/// As [`plan`] for two operands, but for the row count.
pub(crate) fn binary_shape(
    op: BinaryOp,
    (lhs, rhs): (DecimalType, DecimalType),
    result: Option<DecimalType>,
    storage: ResultStorage,
    options: &ArithmeticOptions,
) -> Result<Shape, DecimalError> {
    let result = match result {
        Some(planned) => planned,
        None => op.result_type(lhs, rhs, options)?,
    };
    check_exact(op, lhs, rhs, result)?;
    let width = result_width(result, storage, options).ok_or_else(|| {
        let reason = format!("{result} does not fit the result's storage");
        DecimalError::UnsupportedTypes { op, lhs, rhs, reason }
    })?;
    Ok(Shape { result, width })
}

/// The shape of `op operand` for an operand of type `operand`.
///
/// # Errors
/// As [`plan`] for one operand, but for the row count.
pub(crate) fn unary_shape(
    op: UnaryOp,
    operand: DecimalType,
    storage: ResultStorage,
    options: &ArithmeticOptions,
) -> Result<Shape, DecimalError> {
    let result = op.result_type_under(operand, options)?;
    Ok(Shape { result, width: stored_at(result, storage, options)? })
}

/// The width `result` is stored at, refused as one operand's result is.
fn stored_at(
    result: DecimalType,
    storage: ResultStorage,
    options: &ArithmeticOptions,
) -> Result<StorageWidth, DecimalError> {
    result_width(result, storage, options).ok_or_else(|| DecimalError::StorageTooNarrow {
        dtype: result,
        width: refused_width(result, storage, options),
    })
}

/// The result type, its storage width and the row count of `operation`.
///
/// # Errors
/// The profile's refusal of the operand types (of two operands, of one,
/// an aggregate's input); a planned remainder below its
/// exact scale; a width that cannot hold the result type
/// ([`DecimalError::UnsupportedTypes`] for two operands,
/// [`DecimalError::StorageTooNarrow`] for one and for an aggregate); arrays
/// of different lengths.
pub(crate) fn plan(
    operation: Operation<'_>,
    storage: ResultStorage,
    options: &ArithmeticOptions,
) -> Result<Plan, DecimalError> {
    let shape = match operation {
        Operation::Binary { op, lhs, rhs, result } => {
            binary_shape(op, (lhs.dtype(), rhs.dtype()), result, storage, options)?
        }
        Operation::Unary { op, operand } => unary_shape(op, operand.dtype(), storage, options)?,
        Operation::Aggregate { op, input } => {
            let result = op.result_type(input, options)?;
            Shape { result, width: stored_at(result, storage, options)? }
        }
        Operation::Parse { to, .. } => Shape { result: to, width: stored_at(to, storage, options)? },
    };
    planned(operation, shape)
}

/// `shape` with the row count of `operation`'s operands.
///
/// # Errors
/// [`DecimalError::LengthMismatch`] for arrays of different lengths.
fn planned(operation: Operation<'_>, shape: Shape) -> Result<Plan, DecimalError> {
    let lengths = match operation {
        Operation::Binary { lhs, rhs, .. } => [lhs.length(), rhs.length()],
        Operation::Unary { operand, .. } => [operand.length(), None],
        Operation::Aggregate { .. } => [None, None],
        Operation::Parse { rows, .. } => [Some(rows), None],
    };
    Ok(Plan { result: shape.result, width: shape.width, rows: row_count(&lengths)? })
}

/// Runs `request`: plans it, then makes one typed kernel call over the
/// operands' combined validity.
///
/// # Errors
/// As [`plan`]; [`DecimalError::Overflow`], [`DecimalError::UnaryOverflow`]
/// and [`DecimalError::DivideByZero`] naming the first failing valid row
/// under the `Error` policies.
pub(crate) fn run(request: Request<'_>) -> Result<DecimalArray, DecimalError> {
    let plan = plan(request.operation, request.storage, request.options)?;
    run_planned(request, plan)
}

/// Runs `request` on a shape planned before (a prepared plan's): only the
/// row count is derived here.
///
/// # Errors
/// As [`run`], but for the result type's and the width's errors.
pub(crate) fn run_shaped(request: Request<'_>, shape: Shape) -> Result<DecimalArray, DecimalError> {
    let plan = planned(request.operation, shape)?;
    run_planned(request, plan)
}

/// Runs `request` as `plan` says.
fn run_planned(request: Request<'_>, plan: Plan) -> Result<DecimalArray, DecimalError> {
    let Request { operation, options, mut recycled, .. } = request;
    let policies = options.policies();
    match operation {
        Operation::Binary { op, lhs, rhs, .. } => {
            let call = BinaryCall { op, operands: (lhs, rhs), result: plan.result, options };
            let nulls = match validity::combined(&[lhs, rhs], &mut recycled) {
                Validity::NoRow => return Ok(all_null(plan, recycled)),
                Validity::Rows(nulls) => nulls,
            };
            let rows = Rows::new(plan.rows).with_nulls(nulls.as_ref()).with_policies(policies);
            with_native!(plan.width, T => {
                let into = rows.recycled(recycled.take_values::<T>());
                let output = call.run::<T>(lhs.kernel_operand(), rhs.kernel_operand(), into)?;
                Ok(DecimalArray::from_parts(plan.result, T::into_values(output.values), output.nulls))
            })
        }
        Operation::Unary { op, operand } => {
            if let (UnaryOp::Rescale { to }, Operand::Array(a)) = (op, operand)
                && a.is_checked()
                && a.dtype().scale() == to.scale()
                && a.dtype().precision() <= to.precision()
                && a.width() == plan.width
            {
                // Every value is one of `to` as it is stored: the buffers are
                // shared, nothing is computed.
                return Ok(DecimalArray::from_parts(to, a.values().clone(), a.nulls().cloned()));
            }
            let nulls = match validity::combined(&[operand], &mut recycled) {
                Validity::NoRow => return Ok(all_null(plan, recycled)),
                Validity::Rows(nulls) => nulls,
            };
            let rows = Rows::new(plan.rows).with_nulls(nulls.as_ref()).with_policies(policies);
            with_native!(plan.width, T => {
                let into = rows.recycled(recycled.take_values::<T>());
                let output = run_unary::<T>(op, operand, plan.result, options, into)?;
                Ok(DecimalArray::from_parts(plan.result, T::into_values(output.values), output.nulls))
            })
        }
        Operation::Aggregate { op, input } => Err(DecimalError::UnsupportedAggregate {
            op,
            input,
            reason: "an aggregate runs in its accumulator, not row by row".into(),
        }),
        Operation::Parse { to, .. } => Err(DecimalError::Parse {
            row: 0,
            text: String::new(),
            dtype: to,
            reason: "text is read by its reader, through `fill`",
        }),
    }
}

/// What writes the rows of an operation whose operands are not decimals
/// (text to parse): one value per row at the planned width, and the null rows.
pub(crate) trait FillRows {
    /// Appends `plan.rows` values of type `plan.result` to `values` (empty,
    /// possibly with recycled capacity), stored as `T`; returns the null rows.
    ///
    /// # Errors
    /// The first failing row's error under the `Error` overflow policy.
    fn fill<T: DecimalNative>(
        self,
        plan: Plan,
        options: &ArithmeticOptions,
        values: &mut Vec<T>,
    ) -> Result<Option<NullBuffer>, DecimalError>;
}

/// Runs `request` (an [`Operation::Parse`]): plans it (result type, width,
/// row count), then lets `rows` fill the result at the planned width.
///
/// # Errors
/// As [`plan`]; what `rows` reports.
pub(crate) fn fill(
    request: Request<'_>,
    rows: impl FillRows,
) -> Result<DecimalArray, DecimalError> {
    let Request { operation, storage, options, mut recycled } = request;
    let plan = plan(operation, storage, options)?;
    with_native!(plan.width, T => {
        let mut values = recycled.take_values::<T>();
        values.clear();
        let nulls = rows.fill::<T>(plan, options, &mut values)?;
        Ok(DecimalArray::from_parts(plan.result, T::into_values(ScalarBuffer::from(values)), nulls))
    })
}

/// The result of a call with a null scalar side: every row null, nothing
/// computed.
fn all_null(plan: Plan, mut recycled: RecycledArray) -> DecimalArray {
    let values = with_native!(plan.width, T => {
        let mut values = recycled.take_values::<T>();
        values.resize(plan.rows, T::default());
        T::into_values(ScalarBuffer::from(values))
    });
    DecimalArray::from_parts(plan.result, values, Some(NullBuffer::new_null(plan.rows)))
}

/// The rows of a cast out of decimals (to integers, to floats): how many,
/// and which are valid (a null scalar: none). The decimals' values are read
/// by the cast itself; this is the validity and row count every other call
/// gets from [`run`].
pub(crate) fn cast_rows(operand: Operand<'_>) -> (usize, Option<NullBuffer>) {
    let rows = operand.length().unwrap_or(1);
    match validity::combined(&[operand], &mut RecycledArray::default()) {
        Validity::NoRow => (rows, Some(NullBuffer::new_null(rows))),
        Validity::Rows(nulls) => (rows, nulls),
    }
}

/// The width a cast into decimals of type `to` stores its results at, as
/// the profile stores a rescale's: the same refusal as [`plan`]'s for one
/// operand.
///
/// # Errors
/// [`DecimalError::StorageTooNarrow`] when the profile's width cannot hold `to`.
pub(crate) fn cast_width(
    to: DecimalType,
    options: &ArithmeticOptions,
) -> Result<StorageWidth, DecimalError> {
    stored_at(to, ResultStorage::Profile, options)
}

/// A comparison as an entry point hands it over: no options (a comparison
/// has no result type, rounding or failing row).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Comparison<'a> {
    pub(crate) op: CompareOp,
    pub(crate) lhs: Operand<'a>,
    pub(crate) rhs: Operand<'a>,
}

/// Runs `comparison` as [`run`] runs an operation: the row count by the
/// rules, the operands' validity combined (a null scalar side nulls every
/// row, nothing compared), then one kernel call over the operands as they
/// are stored.
///
/// # Errors
/// [`DecimalError::LengthMismatch`] for arrays of different lengths.
pub(crate) fn run_comparison(
    comparison: Comparison<'_>,
) -> Result<NullableBuffer<BooleanBuffer>, DecimalError> {
    let Comparison { op, lhs, rhs } = comparison;
    let rows = row_count(&[lhs.length(), rhs.length()])?;
    let nulls = match validity::combined(&[lhs, rhs], &mut RecycledArray::default()) {
        Validity::NoRow => {
            let values = BooleanBuffer::new_unset(rows);
            return Ok(NullableBuffer::new(values, Some(NullBuffer::new_null(rows))));
        }
        Validity::Rows(nulls) => nulls,
    };
    let scale = |operand: Operand<'_>| i32::from(operand.dtype().scale());
    let spec = CompareSpec::new(scale(lhs), scale(rhs), |order| op.holds(order));
    let kernel_rows = Rows::new(rows).with_nulls(nulls.as_ref());
    let values = native::compare(lhs.kernel_operand(), rhs.kernel_operand(), &spec, &kernel_rows)
        .map_err(|error| match error {
        KernelError::LengthMismatch { expected, actual } => {
            DecimalError::LengthMismatch { expected, actual }
        }
        // `compare` fails in no other way; the rows were counted above.
        _ => DecimalError::LengthMismatch { expected: rows, actual: rows },
    })?;
    Ok(NullableBuffer::new(values, nulls))
}
