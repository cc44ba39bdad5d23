//! Arguments and results between DataFusion's `ColumnarValue`s and the
//! Arrow arrays and scalars decimal-kernels takes, without copying values,
//! and its errors as DataFusion's.

use std::fmt::Display;
use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, Datum, Scalar};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{DataFusionError, Result, ScalarValue};
use datafusion::logical_expr::ColumnarValue;

/// One evaluated argument: a column, or one value for every row.
pub(crate) enum Argument {
    /// A column.
    Array(ArrayRef),
    /// One value, as a one-row array.
    Scalar(Scalar<ArrayRef>),
}

impl Argument {
    /// `value` as an argument.
    pub(crate) fn new(value: &ColumnarValue) -> Result<Self> {
        Ok(match value {
            ColumnarValue::Array(a) => Self::Array(a.clone()),
            ColumnarValue::Scalar(s) => Self::Scalar(s.to_scalar()?),
        })
    }

    /// The argument as an Arrow `Datum`.
    pub(crate) fn datum(&self) -> &dyn Datum {
        match self {
            Self::Array(a) => a,
            Self::Scalar(s) => s,
        }
    }

    /// The argument's values: the column, or the one-row array of a scalar.
    pub(crate) fn values(&self) -> &dyn Array {
        match self {
            Self::Array(a) => a.as_ref(),
            Self::Scalar(s) => s.get().0,
        }
    }

    /// Whether the argument is one value for every row.
    pub(crate) fn is_scalar(&self) -> bool {
        matches!(self, Self::Scalar(_))
    }
}

/// The arguments of a call, evaluated.
pub(crate) fn arguments(values: &[ColumnarValue]) -> Result<Vec<Argument>> {
    values.iter().map(Argument::new).collect()
}

/// A result computed from `arguments`: a scalar when every argument was one
/// (the result then has one row), a column otherwise.
pub(crate) fn result(array: ArrayRef, arguments: &[Argument]) -> Result<ColumnarValue> {
    if arguments.iter().all(Argument::is_scalar) {
        return Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&array, 0)?));
    }
    Ok(ColumnarValue::Array(array))
}

/// A failure of the function `name`, as DataFusion's execution error; the
/// crate's own message names the failing row and its operands.
pub(crate) fn failed(name: &str, error: impl Display) -> DataFusionError {
    DataFusionError::Execution(format!("{name}: {error}"))
}

/// A function's result field: nullable where an argument is, or where the
/// function itself can give a null row (`may_be_null`).
pub(crate) fn result_field(
    name: &str,
    data_type: DataType,
    arguments: &[FieldRef],
    may_be_null: bool,
) -> FieldRef {
    let nullable = may_be_null || arguments.iter().any(|f| f.is_nullable());
    Arc::new(Field::new(name, data_type, nullable))
}
