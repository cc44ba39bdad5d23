//! The scalar UDFs: `decimal_add`, `decimal_sub`, `decimal_mul` and
//! `decimal_div` under the FixedPoint profile (any decimal argument types,
//! results at the larger scale), and `arrow_add`, `arrow_sub` and
//! `arrow_mul` under the Arrow profile (the result types and values of
//! DataFusion's own `+ - *`: a product keeps both scales).
//!
//! The arguments keep their own decimal types (no implicit casts): the kernels
//! align scales exactly, so nothing goes through a float. Arrow arrays become
//! `DecimalArray`s and back without copying.

use arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature, Volatility,
};
use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalScalar, DecimalType, Operand, StorageWidth,
    binary,
};

/// The FixedPoint operators, each as the scalar UDF of its name.
pub const FIXED_POINT_UDFS: [(BinaryOp, &str); 4] = [
    (BinaryOp::Add, "decimal_add"),
    (BinaryOp::Sub, "decimal_sub"),
    (BinaryOp::Mul, "decimal_mul"),
    (BinaryOp::Div, "decimal_div"),
];

/// The Arrow-profile operators, each as the scalar UDF of its name.
pub const ARROW_UDFS: [(BinaryOp, &str); 3] =
    [(BinaryOp::Add, "arrow_add"), (BinaryOp::Sub, "arrow_sub"), (BinaryOp::Mul, "arrow_mul")];

/// Every scalar UDF of this example.
pub fn udfs() -> impl Iterator<Item = ScalarUDF> {
    let fixed = FIXED_POINT_UDFS.map(|(op, name)| ScalarUDF::from(DecimalUdf::new(op, name)));
    let arrow = ARROW_UDFS.map(|(op, name)| ScalarUDF::from(ArrowUdf::new(op, name)));
    fixed.into_iter().chain(arrow)
}

/// The decimal type of an argument type, as a DataFusion planning error.
pub fn decimal_type(data_type: &DataType) -> Result<(DecimalType, StorageWidth)> {
    match decimal_kernels::arrow::decimal_type(data_type) {
        Ok(t) => Ok(t),
        Err(e) => plan_err!("decimal arguments expected: {e}"),
    }
}

/// One of the four operators as a FixedPoint scalar UDF `decimal_<op>(a, b)`.
#[derive(Debug, PartialEq, Eq, Hash)]
struct DecimalUdf {
    name: &'static str,
    op: BinaryOp,
    signature: Signature,
}

impl DecimalUdf {
    fn new(op: BinaryOp, name: &'static str) -> Self {
        Self { name, op, signature: Signature::user_defined(Volatility::Immutable) }
    }

    fn options() -> ArithmeticOptions {
        ArithmeticOptions::fixed_point()
    }
}

/// One evaluated argument, converted without copying.
enum Arg {
    Array(DecimalArray),
    Scalar(DecimalScalar),
}

impl Arg {
    fn new(value: &ColumnarValue) -> Result<Self> {
        let converted = match value {
            ColumnarValue::Array(a) => DecimalArray::from_arrow(a.as_ref()).map(Self::Array),
            ColumnarValue::Scalar(s) => {
                let one = s.to_array_of_size(1)?;
                DecimalArray::from_arrow(one.as_ref()).map(|a| {
                    let t = a.dtype();
                    Self::Scalar(a.scalar(0).unwrap_or_else(|| DecimalScalar::null(t)))
                })
            }
        };
        converted.or_else(|e| exec_err!("{e}"))
    }

    fn operand(&self) -> Operand<'_> {
        match self {
            Self::Array(a) => Operand::Array(a),
            Self::Scalar(s) => Operand::Scalar(s),
        }
    }
}

impl ScalarUDFImpl for DecimalUdf {
    fn name(&self) -> &str {
        self.name
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    /// Any two decimals, as they are: no implicit cast.
    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        match arg_types {
            [a, b] => {
                decimal_type(a)?;
                decimal_type(b)?;
                Ok(arg_types.to_vec())
            }
            _ => plan_err!("{} takes two decimal arguments", self.name),
        }
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        let [a, b] = arg_types else {
            return plan_err!("{} takes two decimal arguments", self.name);
        };
        match self.op.result_type(decimal_type(a)?.0, decimal_type(b)?.0, &Self::options()) {
            Ok(t) => Ok(decimal_kernels::arrow::data_type(t, t.storage_width())),
            Err(e) => plan_err!("{e}"),
        }
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let [a, b] = args.args.as_slice() else {
            return exec_err!("{} takes two decimal arguments", self.name);
        };
        let (a, b) = (Arg::new(a)?, Arg::new(b)?);
        let result = match binary(self.op, a.operand(), b.operand(), &Self::options()) {
            Ok(result) => result.to_arrow(),
            Err(e) => return exec_err!("{}: {e}", self.name),
        };
        match (&a, &b) {
            (Arg::Scalar(_), Arg::Scalar(_)) => {
                Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&result, 0)?))
            }
            _ => Ok(ColumnarValue::Array(result)),
        }
    }
}

/// One of three operators as an Arrow-profile scalar UDF
/// `arrow_<op>(a, b)`: the result type and values of DataFusion's own
/// operator (`arrow_arith::numeric`) at the wider argument's Arrow width,
/// computed by `decimal_kernels::arrow::binary`.
#[derive(Debug, PartialEq, Eq, Hash)]
struct ArrowUdf {
    name: &'static str,
    op: BinaryOp,
    signature: Signature,
}

impl ArrowUdf {
    fn new(op: BinaryOp, name: &'static str) -> Self {
        Self { name, op, signature: Signature::user_defined(Volatility::Immutable) }
    }

    /// The Arrow profile at the wider of two argument widths.
    fn options(a: &DataType, b: &DataType) -> Result<ArithmeticOptions> {
        let width = decimal_type(a)?.1.max(decimal_type(b)?.1);
        Ok(ArithmeticOptions::arrow(width))
    }
}

/// The digits of an integer type as DataFusion casts it for decimal
/// arithmetic (`decimal(3|5|10|20, 0)`), or `None` for another type.
fn integer_digits(data_type: &DataType) -> Option<u8> {
    match data_type {
        DataType::Int8 | DataType::UInt8 => Some(3),
        DataType::Int16 | DataType::UInt16 => Some(5),
        DataType::Int32 | DataType::UInt32 => Some(10),
        DataType::Int64 | DataType::UInt64 => Some(20),
        _ => None,
    }
}

/// `data_type` as a decimal beside a decimal of type `other`: itself, or an
/// integer as `decimal(digits, 0)` at `other`'s Arrow width or the narrowest
/// one that holds it (so `1 - l_discount` is `decimal(20,0) - decimal(15,2)`
/// as in DataFusion).
fn coerce_beside(data_type: &DataType, other: &DataType) -> Result<DataType> {
    if let Some(digits) = integer_digits(data_type) {
        let (_, width) = decimal_type(other)?;
        let Ok(t) = DecimalType::try_new(digits, 0) else {
            return plan_err!("no decimal of {digits} digits");
        };
        return Ok(decimal_kernels::arrow::data_type(t, width));
    }
    decimal_type(data_type)?;
    Ok(data_type.clone())
}

impl ScalarUDFImpl for ArrowUdf {
    fn name(&self) -> &str {
        self.name
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    /// Decimals as they are; an integer beside a decimal as DataFusion casts it.
    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        match arg_types {
            [a, b] => Ok(vec![coerce_beside(a, b)?, coerce_beside(b, a)?]),
            _ => plan_err!("{} takes two decimal arguments", self.name),
        }
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        let [a, b] = arg_types else {
            return plan_err!("{} takes two decimal arguments", self.name);
        };
        let options = Self::options(a, b)?;
        match decimal_kernels::arrow::result_data_type(self.op, a, b, &options) {
            Ok(t) => Ok(t),
            Err(e) => plan_err!("{e}"),
        }
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let [a, b] = args.args.as_slice() else {
            return exec_err!("{} takes two decimal arguments", self.name);
        };
        let options = Self::options(&a.data_type(), &b.data_type())?;
        let result = match (a, b) {
            (ColumnarValue::Array(l), ColumnarValue::Array(r)) => {
                decimal_kernels::arrow::binary(self.op, l, r, &options)
            }
            (ColumnarValue::Array(l), ColumnarValue::Scalar(r)) => {
                decimal_kernels::arrow::binary(self.op, l, &r.to_scalar()?, &options)
            }
            (ColumnarValue::Scalar(l), ColumnarValue::Array(r)) => {
                decimal_kernels::arrow::binary(self.op, &l.to_scalar()?, r, &options)
            }
            (ColumnarValue::Scalar(l), ColumnarValue::Scalar(r)) => {
                let (l, r) = (l.to_array_of_size(1)?, r.to_array_of_size(1)?);
                let one = decimal_kernels::arrow::binary(self.op, &l, &r, &options);
                return match one {
                    Ok(one) => Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&one, 0)?)),
                    Err(e) => exec_err!("{}: {e}", self.name),
                };
            }
        };
        match result {
            Ok(result) => Ok(ColumnarValue::Array(result)),
            Err(e) => exec_err!("{}: {e}", self.name),
        }
    }
}
