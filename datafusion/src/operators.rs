//! The binary operators on decimals as scalar functions: `+ - * / %`
//! (`decimal_add` … `decimal_rem`) and the six comparisons (`decimal_eq` …
//! `decimal_gt_eq`).
//!
//! - Arithmetic takes its operands as DataFusion coerces them (an integer
//!   beside a decimal becomes `decimal(3|5|10|20, 0)`, two decimal widths the
//!   wider) and returns the profile's result type: DataFusion's own under the
//!   Arrow profile, which is `arrow_arith::numeric`'s.
//! - A comparison keeps both decimal operands as they are, whatever their
//!   types: the kernels compare `a·10^k` with `b` exactly, where DataFusion
//!   casts both to a common type first (an extra pass, and an overflow for
//!   a value the common type cannot hold although the comparison is well
//!   defined). A non-decimal operand beside a decimal is cast to the type
//!   DataFusion would compare at, so every answer DataFusion gives is kept.

use datafusion::arrow::array::{ArrayRef, BooleanArray, Datum};
use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::arrow::error::ArrowError;
use datafusion::common::{DataFusionError, Result, plan_err};
use datafusion::logical_expr::type_coercion::binary::{BinaryTypeCoercer, comparison_coercion};
use datafusion::logical_expr::{
    ColumnarValue, Operator, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};
use decimal_kernels::{ArithmeticOptions, BinaryOp, CompareOp, DecimalError};
use std::sync::Arc;

use crate::profile::Profile;
use crate::values::{Argument, arguments, failed, result, result_field};

/// The arithmetic operators: each with DataFusion's operator and the name
/// of its function here.
pub(crate) const ARITHMETIC: [(BinaryOp, Operator, &str); 5] = [
    (BinaryOp::Add, Operator::Plus, "decimal_add"),
    (BinaryOp::Sub, Operator::Minus, "decimal_sub"),
    (BinaryOp::Mul, Operator::Multiply, "decimal_mul"),
    (BinaryOp::Div, Operator::Divide, "decimal_div"),
    (BinaryOp::Rem, Operator::Modulo, "decimal_rem"),
];

/// The comparison of a DataFusion operator, if it is one.
pub(crate) fn compare_op(op: Operator) -> Option<CompareOp> {
    Some(match op {
        Operator::Eq => CompareOp::Eq,
        Operator::NotEq => CompareOp::NotEq,
        Operator::Lt => CompareOp::Lt,
        Operator::LtEq => CompareOp::LtEq,
        Operator::Gt => CompareOp::Gt,
        Operator::GtEq => CompareOp::GtEq,
        _ => return None,
    })
}

/// The function name of a comparison.
pub(crate) fn compare_name(op: CompareOp) -> &'static str {
    match op {
        CompareOp::Eq => "decimal_eq",
        CompareOp::NotEq => "decimal_neq",
        CompareOp::Lt => "decimal_lt",
        CompareOp::LtEq => "decimal_lt_eq",
        CompareOp::Gt => "decimal_gt",
        CompareOp::GtEq => "decimal_gt_eq",
    }
}

/// The operand types DataFusion gives `lhs op rhs`, when both are decimals
/// (so the operator is decimal arithmetic).
pub(crate) fn arithmetic_types(
    lhs: &DataType,
    op: Operator,
    rhs: &DataType,
) -> Option<(DataType, DataType)> {
    let (l, r) = BinaryTypeCoercer::new(lhs, &op, rhs).get_input_types().ok()?;
    (l.is_decimal() && r.is_decimal()).then_some((l, r))
}

/// The operand types a comparison of `lhs` and `rhs` runs at here, when it
/// is one of decimals: a decimal as it is, the other side at the type
/// DataFusion would compare both at.
pub(crate) fn comparison_types(lhs: &DataType, rhs: &DataType) -> Option<(DataType, DataType)> {
    match (lhs.is_decimal(), rhs.is_decimal()) {
        (true, true) => Some((lhs.clone(), rhs.clone())),
        (true, false) | (false, true) => {
            let common = comparison_coercion(lhs, rhs).filter(DataType::is_decimal)?;
            let side = |t: &DataType| if t.is_decimal() { t.clone() } else { common.clone() };
            Some((side(lhs), side(rhs)))
        }
        (false, false) => None,
    }
}

/// One of `+ - * / %` under a profile.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(crate) struct Arithmetic {
    op: BinaryOp,
    operator: Operator,
    name: &'static str,
    profile: Profile,
    signature: Signature,
}

impl Arithmetic {
    /// The operator of an [`ARITHMETIC`] entry under `profile`.
    pub(crate) fn new(
        (op, operator, name): (BinaryOp, Operator, &'static str),
        profile: Profile,
    ) -> Self {
        let signature = Signature::user_defined(Volatility::Immutable);
        Self { op, operator, name, profile, signature }
    }
}

impl Arithmetic {
    /// A failure of `a op b` as DataFusion's error. Arrow's division by zero
    /// carries no message, so the operation runs again on this crate's
    /// arrays, whose error names the first failing row and its dividend.
    fn failure(
        &self,
        error: ArrowError,
        (a, b): (&Argument, &Argument),
        options: &ArithmeticOptions,
    ) -> DataFusionError {
        if !matches!(error, ArrowError::DivideByZero) {
            return failed(self.name, error);
        }
        let native = || -> Result<DecimalError, DecimalError> {
            let (a, b) = (a.native()?, b.native()?);
            let outcome = decimal_kernels::binary(self.op, a.operand(), b.operand(), options);
            Ok(outcome.err().unwrap_or(DecimalError::DivideByZero { row: 0, lhs: String::new() }))
        };
        match native() {
            Ok(named) => failed(self.name, named),
            Err(_) => failed(self.name, error),
        }
    }
}

impl ScalarUDFImpl for Arithmetic {
    fn name(&self) -> &str {
        self.name
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    /// A null argument gives a null row.
    fn is_strict(&self) -> bool {
        true
    }

    /// DataFusion's coercion of the operator's operands.
    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if let [a, b] = arg_types
            && let Some((a, b)) = arithmetic_types(a, self.operator, b)
        {
            return Ok(vec![a, b]);
        }
        plan_err!("{} takes two decimals, not {arg_types:?}", self.name())
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        let [a, b] = arg_types else {
            return plan_err!("{} takes two decimals, not {arg_types:?}", self.name());
        };
        let options = self.profile.for_types(&[a, b])?;
        decimal_kernels::arrow::result_data_type(self.op, a, b, &options)
            .or_else(|e| plan_err!("{}: {e}", self.name()))
    }

    /// Nullable where an operand is, or where the profile makes a failing
    /// row null.
    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        let types: Vec<DataType> = args.arg_fields.iter().map(|f| f.data_type().clone()).collect();
        let data_type = self.return_type(&types)?;
        Ok(result_field(self.name, data_type, args.arg_fields, self.profile.may_be_null()))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let arguments = arguments(&args.args)?;
        let [a, b] = arguments.as_slice() else {
            return plan_err!("{} takes two decimals", self.name());
        };
        let types = [a.values().data_type(), b.values().data_type()];
        let options = self.profile.for_types(&types)?;
        let values = decimal_kernels::arrow::binary(self.op, a.datum(), b.datum(), &options)
            .map_err(|e| self.failure(e, (a, b), &options))?;
        result(values, &arguments)
    }
}

/// The Arrow form of a comparison.
type CompareFn = fn(&dyn Datum, &dyn Datum) -> Result<BooleanArray, ArrowError>;

/// One of the six comparisons of two decimals of any types.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(crate) struct Comparison {
    op: CompareOp,
    signature: Signature,
}

impl Comparison {
    /// The comparison `op`.
    pub(crate) fn new(op: CompareOp) -> Self {
        Self { op, signature: Signature::user_defined(Volatility::Immutable) }
    }

    fn kernel(&self) -> CompareFn {
        use decimal_kernels::arrow;
        match self.op {
            CompareOp::Eq => arrow::eq,
            CompareOp::NotEq => arrow::neq,
            CompareOp::Lt => arrow::lt,
            CompareOp::LtEq => arrow::lt_eq,
            CompareOp::Gt => arrow::gt,
            CompareOp::GtEq => arrow::gt_eq,
        }
    }
}

impl ScalarUDFImpl for Comparison {
    fn name(&self) -> &str {
        compare_name(self.op)
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    /// A null argument gives a null row.
    fn is_strict(&self) -> bool {
        true
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if let [a, b] = arg_types
            && let Some((a, b)) = comparison_types(a, b)
        {
            return Ok(vec![a, b]);
        }
        plan_err!("{} compares decimals, not {arg_types:?}", self.name())
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Boolean)
    }

    /// Nullable where an operand is.
    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        Ok(result_field(self.name(), DataType::Boolean, args.arg_fields, false))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let arguments = arguments(&args.args)?;
        let [a, b] = arguments.as_slice() else {
            return plan_err!("{} takes two decimals", self.name());
        };
        let answers = (self.kernel())(a.datum(), b.datum()).map_err(|e| failed(self.name(), e))?;
        result(Arc::new(answers) as ArrayRef, &arguments)
    }
}
