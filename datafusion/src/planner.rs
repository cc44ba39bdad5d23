//! The SQL planner's hook for binary operators (`ExprPlanner`): a
//! comparison or arithmetic of two decimals for which DataFusion finds no
//! operand types (a decimal beside one of the other width whose common type
//! would pass 76 digits, `Decimal128(6,5) * Decimal256(76,2)`) becomes this
//! crate's call while the SQL is planned. DataFusion would otherwise fail
//! there, computing the expression's type, before any rewrite could run.
//! Every other operation is left to the planner and to the rewrite.

use std::sync::Arc;

use datafusion::common::{DFSchema, Result};
use datafusion::logical_expr::Operator;
use datafusion::logical_expr::planner::{ExprPlanner, PlannerResult, RawBinaryExpr};
use datafusion::sql::sqlparser::ast::BinaryOperator;

use crate::rewrite::DecimalRewrite;

/// The planner hook, with the rewrite whose functions it calls.
#[derive(Debug)]
pub(crate) struct UntypedDecimals(pub(crate) Arc<DecimalRewrite>);

/// DataFusion's operator for a SQL one this crate computes on decimals.
fn operator(op: &BinaryOperator) -> Option<Operator> {
    Some(match op {
        BinaryOperator::Plus => Operator::Plus,
        BinaryOperator::Minus => Operator::Minus,
        BinaryOperator::Multiply => Operator::Multiply,
        BinaryOperator::Divide => Operator::Divide,
        BinaryOperator::Modulo => Operator::Modulo,
        BinaryOperator::Eq => Operator::Eq,
        BinaryOperator::NotEq => Operator::NotEq,
        BinaryOperator::Lt => Operator::Lt,
        BinaryOperator::LtEq => Operator::LtEq,
        BinaryOperator::Gt => Operator::Gt,
        BinaryOperator::GtEq => Operator::GtEq,
        _ => return None,
    })
}

impl ExprPlanner for UntypedDecimals {
    fn plan_binary_op(
        &self,
        expr: RawBinaryExpr,
        schema: &DFSchema,
    ) -> Result<PlannerResult<RawBinaryExpr>> {
        let planned = operator(&expr.op)
            .and_then(|op| self.0.untyped_binary(&expr.left, op, &expr.right, schema));
        Ok(match planned {
            Some(call) => PlannerResult::Planned(call),
            None => PlannerResult::Original(expr),
        })
    }
}
