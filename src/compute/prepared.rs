//! Prepared plans: an operator's result type, storage width and profile,
//! derived once from the operand types, then run on batch after batch. An
//! engine plans each expression once and runs it per batch; [`binary`],
//! [`unary`], [`compare`] and the Arrow functions are each one plan made and
//! run.
//!
//! [`binary`]: crate::binary
//! [`unary`]: crate::unary
//! [`compare`]: crate::compare

use arrow_buffer::BooleanBuffer;

use crate::compute::funnel::{
    Comparison, Operation, Request, Shape, binary_shape, run_comparison, run_shaped, unary_shape,
};
use crate::compute::operand::Operand;
use crate::compute::recycled::RecycledArray;
use crate::rules::storage::ResultStorage;
use crate::types::{
    ArithmeticOptions, BinaryOp, CompareOp, DecimalError, DecimalType, StorageWidth, UnaryOp,
};
use crate::values::{DecimalArray, NullableBuffer};

/// `lhs op rhs` planned for operands of two types under one set of
/// options: the result type and the width it is stored at are decided when
/// the plan is made, and each [`run`](Self::run) only reads its operands.
///
/// ```
/// use decimal_kernels::{ArithmeticOptions, BinaryOp, BinaryPlan, DecimalArray, DecimalType};
/// let (price, rate) = (DecimalType::try_new(15, 2)?, DecimalType::try_new(7, 4)?);
/// // Once per expression:
/// let plan = BinaryPlan::new(BinaryOp::Mul, price, rate, &ArithmeticOptions::default())?;
/// assert_eq!(plan.result_type(), DecimalType::try_new(17, 4)?); // FixedPoint's rule
/// // Once per batch:
/// for batch in [["10.00", "-2.50"], ["0.01", "99999.99"]] {
///     let prices = DecimalArray::from_strs(price, &batch.map(Some))?;
///     let rates = DecimalArray::from_strs(rate, &[Some("1.0825"), Some("0.5")])?;
///     let taxed = plan.run(&prices, &rates)?;
///     assert_eq!(taxed.dtype(), plan.result_type());
/// }
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BinaryPlan {
    op: BinaryOp,
    operands: (DecimalType, DecimalType),
    shape: Shape,
    options: ArithmeticOptions,
}

impl BinaryPlan {
    /// `op` on operands of types `lhs` and `rhs`, at the profile's result
    /// type, stored as the profile stores it.
    ///
    /// # Errors
    /// As [`binary`](crate::binary) for the types: the profile's refusal of
    /// them, a width that cannot hold the result.
    pub fn new(
        op: BinaryOp,
        lhs: DecimalType,
        rhs: DecimalType,
        options: &ArithmeticOptions,
    ) -> Result<Self, DecimalError> {
        Self::stored(op, (lhs, rhs), None, ResultStorage::Profile, options)
    }

    /// `op` at a result type the caller chose, as [`binary_to`](crate::binary_to).
    ///
    /// # Errors
    /// As [`binary_to`](crate::binary_to) for the types.
    pub fn with_result(
        op: BinaryOp,
        lhs: DecimalType,
        rhs: DecimalType,
        result: DecimalType,
        options: &ArithmeticOptions,
    ) -> Result<Self, DecimalError> {
        Self::stored(op, (lhs, rhs), Some(result), ResultStorage::Profile, options)
    }

    /// The plan with its results stored as `storage` chooses (the Arrow
    /// functions').
    pub(crate) fn stored(
        op: BinaryOp,
        operands: (DecimalType, DecimalType),
        result: Option<DecimalType>,
        storage: ResultStorage,
        options: &ArithmeticOptions,
    ) -> Result<Self, DecimalError> {
        let shape = binary_shape(op, operands, result, storage, options)?;
        Ok(Self { op, operands, shape, options: *options })
    }

    /// The type of its results.
    #[must_use]
    pub fn result_type(&self) -> DecimalType {
        self.shape.result
    }

    /// The width its results are stored at.
    #[must_use]
    pub fn result_width(&self) -> StorageWidth {
        self.shape.width
    }

    /// `lhs op rhs` row by row, as [`binary`](crate::binary) gives it.
    ///
    /// # Errors
    /// [`DecimalError::TypeMismatch`] for an operand of another type than
    /// planned (a smaller precision at the same scale is its values too, and
    /// accepted); as [`binary`](crate::binary) for the rows.
    pub fn run<'a>(
        &self,
        lhs: impl Into<Operand<'a>>,
        rhs: impl Into<Operand<'a>>,
    ) -> Result<DecimalArray, DecimalError> {
        self.run_into(lhs.into(), rhs.into(), RecycledArray::default())
    }

    /// [`run`](Self::run) into the memory of `recycled`, a result the caller
    /// is done with, as [`binary_recycling`](crate::binary_recycling).
    ///
    /// # Errors
    /// As [`run`](Self::run).
    pub fn run_recycling<'a>(
        &self,
        lhs: impl Into<Operand<'a>>,
        rhs: impl Into<Operand<'a>>,
        recycled: DecimalArray,
    ) -> Result<DecimalArray, DecimalError> {
        self.run_into(lhs.into(), rhs.into(), RecycledArray::from(recycled))
    }

    /// [`run`](Self::run) into `recycled`'s memory.
    pub(crate) fn run_into(
        &self,
        lhs: Operand<'_>,
        rhs: Operand<'_>,
        recycled: RecycledArray,
    ) -> Result<DecimalArray, DecimalError> {
        planned_as(self.operands.0, lhs)?;
        planned_as(self.operands.1, rhs)?;
        let result = Some(self.shape.result);
        let operation = Operation::Binary { op: self.op, lhs, rhs, result };
        run_shaped(Request::new(operation, &self.options).recycled(recycled), self.shape)
    }
}

/// `op operand` planned for an operand of one type under one set of
/// options, as [`BinaryPlan`] is for two.
///
/// ```
/// use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType, UnaryOp, UnaryPlan};
/// let t = DecimalType::try_new(12, 4)?;
/// let to_cents = UnaryOp::Rescale { to: DecimalType::try_new(10, 2)? };
/// let plan = UnaryPlan::new(to_cents, t, &ArithmeticOptions::default())?;
/// let a = DecimalArray::from_strs(t, &[Some("1.2345"), None])?;
/// assert_eq!(plan.run(&a)?.to_strs(), [Some("1.23".into()), None]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnaryPlan {
    op: UnaryOp,
    operand: DecimalType,
    shape: Shape,
    options: ArithmeticOptions,
}

impl UnaryPlan {
    /// `op` on an operand of type `operand`, stored as the profile stores
    /// its result.
    ///
    /// # Errors
    /// As [`unary`](crate::unary) for the type.
    pub fn new(
        op: UnaryOp,
        operand: DecimalType,
        options: &ArithmeticOptions,
    ) -> Result<Self, DecimalError> {
        Self::stored(op, operand, ResultStorage::Profile, options)
    }

    /// [`new`](Self::new) with results stored as `storage` says: the casts
    /// on Arrow arrays store at the target's Arrow width.
    pub(crate) fn stored(
        op: UnaryOp,
        operand: DecimalType,
        storage: ResultStorage,
        options: &ArithmeticOptions,
    ) -> Result<Self, DecimalError> {
        let shape = unary_shape(op, operand, storage, options)?;
        Ok(Self { op, operand, shape, options: *options })
    }

    /// The type of its results.
    #[must_use]
    pub fn result_type(&self) -> DecimalType {
        self.shape.result
    }

    /// The width its results are stored at.
    #[must_use]
    pub fn result_width(&self) -> StorageWidth {
        self.shape.width
    }

    /// `op operand` row by row, as [`unary`](crate::unary) gives it.
    ///
    /// # Errors
    /// [`DecimalError::TypeMismatch`] for an operand of another type than
    /// planned (a smaller precision at the same scale is accepted); as
    /// [`unary`](crate::unary) for the rows.
    pub fn run<'a>(&self, operand: impl Into<Operand<'a>>) -> Result<DecimalArray, DecimalError> {
        self.request(operand.into(), RecycledArray::default())
    }

    /// [`run`](Self::run) into the memory of `recycled`, as
    /// [`unary_recycling`](crate::unary_recycling).
    ///
    /// # Errors
    /// As [`run`](Self::run).
    pub fn run_recycling<'a>(
        &self,
        operand: impl Into<Operand<'a>>,
        recycled: DecimalArray,
    ) -> Result<DecimalArray, DecimalError> {
        self.request(operand.into(), RecycledArray::from(recycled))
    }

    fn request(
        &self,
        operand: Operand<'_>,
        recycled: RecycledArray,
    ) -> Result<DecimalArray, DecimalError> {
        planned_as(self.operand, operand)?;
        let operation = Operation::Unary { op: self.op, operand };
        run_shaped(Request::new(operation, &self.options).recycled(recycled), self.shape)
    }
}

/// `lhs op rhs` planned for operands of two types, as [`BinaryPlan`] is for
/// arithmetic. A comparison takes no options and has no result type to
/// decide (any two types compare by value, aligned exactly at the larger
/// scale); the plan holds the operand types, so each
/// [`run`](Self::run) checks its operands against them and reads them.
///
/// ```
/// use decimal_kernels::{CompareOp, ComparePlan, DecimalArray, DecimalScalar, DecimalType};
/// let (price, limit) = (DecimalType::try_new(15, 2)?, DecimalType::try_new(4, 3)?);
/// // Once per expression:
/// let plan = ComparePlan::new(CompareOp::Lt, price, limit);
/// // Once per batch:
/// let bound = DecimalScalar::parse(limit, "0.500")?;
/// for batch in [["0.49", "0.50"], ["-1.00", "0.51"]] {
///     let prices = DecimalArray::from_strs(price, &batch.map(Some))?;
///     let below = plan.run(&prices, &bound)?;
///     assert_eq!((below.get(0), below.get(1)), (Some(true), Some(false)));
/// }
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComparePlan {
    op: CompareOp,
    operands: (DecimalType, DecimalType),
}

impl ComparePlan {
    /// `op` on operands of types `lhs` and `rhs`.
    #[must_use]
    pub fn new(op: CompareOp, lhs: DecimalType, rhs: DecimalType) -> Self {
        Self { op, operands: (lhs, rhs) }
    }

    /// `lhs op rhs` row by row, as [`compare`](crate::compare) gives it.
    ///
    /// # Errors
    /// [`DecimalError::TypeMismatch`] for an operand of another type than
    /// planned (a smaller precision at the same scale is accepted); as
    /// [`compare`](crate::compare) for the rows.
    pub fn run<'a>(
        &self,
        lhs: impl Into<Operand<'a>>,
        rhs: impl Into<Operand<'a>>,
    ) -> Result<NullableBuffer<BooleanBuffer>, DecimalError> {
        let (lhs, rhs) = (lhs.into(), rhs.into());
        planned_as(self.operands.0, lhs)?;
        planned_as(self.operands.1, rhs)?;
        run_comparison(Comparison { op: self.op, lhs, rhs })
    }
}

/// Whether `operand` holds values of the planned type: its scale, and at
/// most its precision.
fn planned_as(planned: DecimalType, operand: Operand<'_>) -> Result<(), DecimalError> {
    let actual = operand.dtype();
    if actual.scale() != planned.scale() || actual.precision() > planned.precision() {
        return Err(DecimalError::TypeMismatch { expected: planned, actual });
    }
    Ok(())
}
