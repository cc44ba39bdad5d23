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

use datafusion::arrow::array::ArrayRef;
use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{Result, plan_err};
use datafusion::logical_expr::type_coercion::binary::{BinaryTypeCoercer, comparison_coercion};
use datafusion::logical_expr::{
    ColumnarValue, Operator, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};
use decimal_kernels::{BinaryOp, BinaryPlan, CompareOp, ComparePlan};
use std::sync::Arc;

use crate::plans::PlanCache;
use crate::profile::Profile;
use crate::values::{arguments, failed, result, result_field};

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

/// One of `+ - * / %` under a profile, with the plans made for the operand
/// types met: one per expression (a call's types are fixed once planned),
/// so a batch only reads its arrays.
#[derive(Debug)]
pub(crate) struct Arithmetic {
    op: BinaryOp,
    operator: Operator,
    name: &'static str,
    profile: Profile,
    signature: Signature,
    plans: PlanCache<(DataType, DataType), BinaryPlan>,
}

/// The identity of a function: its operator and profile (the plans it made
/// follow from them).
impl PartialEq for Arithmetic {
    fn eq(&self, other: &Self) -> bool {
        (self.op, self.profile) == (other.op, other.profile)
    }
}

impl Eq for Arithmetic {}

impl std::hash::Hash for Arithmetic {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.op, self.name, self.profile).hash(state);
    }
}

impl Arithmetic {
    /// The operator of an [`ARITHMETIC`] entry under `profile`.
    pub(crate) fn new(
        (op, operator, name): (BinaryOp, Operator, &'static str),
        profile: Profile,
    ) -> Self {
        let signature = Signature::user_defined(Volatility::Immutable);
        Self { op, operator, name, profile, signature, plans: PlanCache::default() }
    }

    /// The plan of this operator for operands of types `a` and `b`.
    fn plan(&self, a: &DataType, b: &DataType) -> Result<Arc<BinaryPlan>> {
        self.plans.get((a.clone(), b.clone()), || {
            let options = self.profile.for_types(&[a, b])?;
            BinaryPlan::for_arrow(self.op, a, b, &options)
                .or_else(|e| plan_err!("{}: {e}", self.name))
        })
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
        // Two decimals DataFusion finds no types for (a `Decimal128` beside
        // a `Decimal256` whose common type would pass 76 digits): as they
        // are, planned at the wider width.
        if let [a, b] = arg_types
            && a.is_decimal()
            && b.is_decimal()
        {
            return Ok(arg_types.to_vec());
        }
        plan_err!("{} takes two decimals, not {arg_types:?}", self.name())
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        let [a, b] = arg_types else {
            return plan_err!("{} takes two decimals, not {arg_types:?}", self.name());
        };
        Ok(self.plan(a, b)?.result_data_type())
    }

    /// Nullable where an operand is, or where the profile makes a failing
    /// row null.
    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        let types: Vec<DataType> = args.arg_fields.iter().map(|f| f.data_type().clone()).collect();
        let data_type = self.return_type(&types)?;
        Ok(result_field(self.name, data_type, args.arg_fields, self.profile.may_be_null()))
    }

    /// The planned operation on the batch: a failure is the crate's error,
    /// naming the first failing row and its operands.
    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let arguments = arguments(&args.args)?;
        let [a, b] = arguments.as_slice() else {
            return plan_err!("{} takes two decimals", self.name());
        };
        let plan = self.plan(a.values().data_type(), b.values().data_type())?;
        let values = plan.run_arrow(a.datum(), b.datum()).map_err(|e| failed(self.name, e))?;
        result(values, &arguments)
    }
}

/// One of the six comparisons of two decimals of any types, with the plans
/// made for the operand types met (one per expression).
#[derive(Debug)]
pub(crate) struct Comparison {
    op: CompareOp,
    signature: Signature,
    plans: PlanCache<(DataType, DataType), ComparePlan>,
}

/// The identity of a comparison: its operator.
impl PartialEq for Comparison {
    fn eq(&self, other: &Self) -> bool {
        self.op == other.op
    }
}

impl Eq for Comparison {}

impl std::hash::Hash for Comparison {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.op.hash(state);
    }
}

impl Comparison {
    /// The comparison `op`.
    pub(crate) fn new(op: CompareOp) -> Self {
        let signature = Signature::user_defined(Volatility::Immutable);
        Self { op, signature, plans: PlanCache::default() }
    }

    /// The plan for operands of types `lhs` and `rhs`.
    fn plan(&self, lhs: &DataType, rhs: &DataType) -> Result<Arc<ComparePlan>> {
        self.plans.get((lhs.clone(), rhs.clone()), || {
            ComparePlan::for_arrow(self.op, lhs, rhs).or_else(|e| plan_err!("{}: {e}", self.name()))
        })
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
        let plan = self.plan(a.values().data_type(), b.values().data_type())?;
        let answers = plan.run_arrow(a.datum(), b.datum()).map_err(|e| failed(self.name(), e))?;
        result(Arc::new(answers) as ArrayRef, &arguments)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use datafusion::arrow::array::{Decimal128Array, RecordBatch};
    use datafusion::catalog::MemTable;
    use datafusion::prelude::SessionContext;

    use super::*;
    use crate::plans::PLANS_MADE;

    /// A query over ten batches plans each arithmetic expression,
    /// comparison and cast once, and each aggregate once per input type:
    /// the batches only read their arrays.
    #[tokio::test]
    async fn one_plan_per_expression_across_ten_batches() -> Result<()> {
        let batch = |i: i128| -> Result<RecordBatch> {
            let a =
                Decimal128Array::from(vec![i * 100, -250, 7]).with_precision_and_scale(15, 2)?;
            let b = Decimal128Array::from(vec![3, 4, 5]).with_precision_and_scale(5, 0)?;
            Ok(RecordBatch::try_from_iter([("a", Arc::new(a) as ArrayRef), ("b", Arc::new(b))])?)
        };
        let batches = (0..10).map(batch).collect::<Result<Vec<_>>>()?;
        let table = MemTable::try_new(batches[0].schema(), vec![batches])?;
        let ctx = SessionContext::new();
        ctx.register_table("t", Arc::new(table))?;
        crate::register(&ctx)?;
        let before = PLANS_MADE.load(Ordering::Relaxed);
        let sql = "SELECT a * b AS p, a / b AS q, a < b AS c, CAST(a AS DECIMAL(10, 1)) AS r, \
                   TRY_CAST(b AS TINYINT) AS i FROM t";
        let rows = ctx.sql(sql).await?.collect().await?;
        assert_eq!(rows.iter().map(RecordBatch::num_rows).sum::<usize>(), 30);
        assert_eq!(PLANS_MADE.load(Ordering::Relaxed) - before, 5, "one plan per expression");

        // Grouped, partial states merged: three aggregates and the product
        // inside one of them.
        let before = PLANS_MADE.load(Ordering::Relaxed);
        let sql = "SELECT b, sum(a) AS s, avg(a) AS m, max(a * b) AS x FROM t GROUP BY b";
        let rows = ctx.sql(sql).await?.collect().await?;
        assert_eq!(rows.iter().map(RecordBatch::num_rows).sum::<usize>(), 3);
        assert_eq!(PLANS_MADE.load(Ordering::Relaxed) - before, 4, "one plan per expression");
        Ok(())
    }
}
