//! The rewrite that makes DataFusion plans call this crate: every decimal
//! operator, comparison, `BETWEEN`, unary minus, cast, `abs`, `round`,
//! `floor`, `ceil`, `trunc` and `sum`/`avg`/`min`/`max` becomes a call of
//! this crate's function of the same meaning.
//!
//! It runs twice in DataFusion's analyzer, as one rewrite of one expression
//! at a time ([`DecimalRewrite::rewrite_expr`]):
//!
//! 1. as a [`FunctionRewrite`], before type coercion, so a comparison sees
//!    its operands as they are and no common-type cast is ever planned;
//! 2. as an [`AnalyzerRule`] after type coercion, for the casts coercion
//!    inserts (an integer beside a decimal, a `CASE` branch, a `UNION`
//!    column).
//!
//! Output names are kept (an `AS` with the expression's original name where
//! a plan needs one), so schemas and column names do not change. An
//! expression whose types cannot be resolved is left as it is.

use std::sync::Arc;

use datafusion::arrow::datatypes::FieldRef;
use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::common::{DFSchema, Result, ScalarValue};
use datafusion::logical_expr::expr::{
    AggregateFunction, ScalarFunction, WindowFunction, WindowFunctionDefinition,
};
use datafusion::logical_expr::expr_rewriter::{FunctionRewrite, NamePreserver};
use datafusion::logical_expr::utils::merge_schema;
use datafusion::logical_expr::{
    AggregateUDF, Between, BinaryExpr, Expr, ExprSchemable, LogicalPlan, Operator, ScalarUDF,
};
use datafusion::optimizer::AnalyzerRule;
use decimal_kernels::aggregate::AggregateOp;
use decimal_kernels::{BinaryOp, CompareOp};

use crate::aggregates::{self, DecimalAggregate};
use crate::cast::{self, Cast};
use crate::operators::{self, Arithmetic, Comparison};
use crate::profile::Profile;
use crate::unary::{Unary, UnaryFunction, literal_digits};

/// This crate's functions under one profile, and the rewrite into them.
#[derive(Debug)]
pub(crate) struct DecimalRewrite {
    profile: Profile,
}

impl DecimalRewrite {
    /// The functions under `profile`.
    pub(crate) fn new(profile: Profile) -> Self {
        Self { profile }
    }

    /// The function of an arithmetic operator.
    fn arithmetic(&self, entry: (BinaryOp, Operator, &'static str)) -> Arc<ScalarUDF> {
        Arc::new(ScalarUDF::from(Arithmetic::new(entry, self.profile)))
    }

    /// The function of a comparison.
    fn comparison(&self, op: CompareOp) -> Arc<ScalarUDF> {
        Arc::new(ScalarUDF::from(Comparison::new(op)))
    }

    /// The function of one decimal.
    fn unary(&self, function: UnaryFunction) -> Arc<ScalarUDF> {
        Arc::new(ScalarUDF::from(Unary::new(function, self.profile)))
    }

    /// `CAST` (or `TRY_CAST` when `safe`).
    fn cast(&self, safe: bool) -> Arc<ScalarUDF> {
        Arc::new(ScalarUDF::from(Cast::new(safe, self.profile)))
    }

    /// The function of an aggregate.
    fn aggregate(&self, entry: (AggregateOp, &'static str)) -> Arc<AggregateUDF> {
        Arc::new(AggregateUDF::from(DecimalAggregate::new(entry, self.profile)))
    }

    /// Every scalar function.
    pub(crate) fn scalar_functions(&self) -> Vec<Arc<ScalarUDF>> {
        let arithmetic = operators::ARITHMETIC.map(|entry| self.arithmetic(entry));
        let comparisons = CompareOp::ALL.map(|op| self.comparison(op));
        let unary = UnaryFunction::ALL.map(|f| self.unary(f));
        let casts = [false, true].map(|safe| self.cast(safe));
        [&arithmetic[..], &comparisons, &unary, &casts].concat()
    }

    /// Every aggregate function.
    pub(crate) fn aggregate_functions(&self) -> Vec<Arc<AggregateUDF>> {
        aggregates::AGGREGATES.map(|(op, name, _)| self.aggregate((op, name))).to_vec()
    }

    /// `expr` as a call of this crate's function, if it is a decimal
    /// expression this crate computes; its children are rewritten already.
    pub(crate) fn rewrite_expr(&self, expr: Expr, schema: &DFSchema) -> Result<Transformed<Expr>> {
        let type_of = |e: &Expr| e.get_type(schema).ok();
        let call = |f: Arc<ScalarUDF>, args: Vec<Expr>| {
            Transformed::yes(Expr::ScalarFunction(ScalarFunction::new_udf(f, args)))
        };
        let casts_here = |e: &Expr, to: &FieldRef| {
            type_of(e).is_some_and(|from| cast::casts(&from, to.data_type()))
        };
        let compare = |op: CompareOp, l: Expr, r: Expr| {
            Expr::ScalarFunction(ScalarFunction::new_udf(self.comparison(op), vec![l, r]))
        };
        Ok(match expr {
            Expr::BinaryExpr(BinaryExpr { left, op, right }) => {
                let (Some(lt), Some(rt)) = (type_of(&left), type_of(&right)) else {
                    return Ok(Transformed::no(Expr::BinaryExpr(BinaryExpr { left, op, right })));
                };
                if let Some(entry) = operators::ARITHMETIC.into_iter().find(|(_, o, _)| *o == op)
                    && operators::arithmetic_types(&lt, op, &rt).is_some()
                {
                    call(self.arithmetic(entry), vec![*left, *right])
                } else if let Some(comparison) = operators::compare_op(op)
                    && operators::comparison_types(&lt, &rt).is_some()
                {
                    Transformed::yes(compare(comparison, *left, *right))
                } else {
                    Transformed::no(Expr::BinaryExpr(BinaryExpr { left, op, right }))
                }
            }
            Expr::Negative(x) if type_of(&x).is_some_and(|t| t.is_decimal()) => {
                call(self.unary(UnaryFunction::Neg), vec![*x])
            }
            Expr::Between(Between { expr, negated, low, high }) => {
                let decimal = match (type_of(&expr), type_of(&low), type_of(&high)) {
                    (Some(e), Some(l), Some(h)) => {
                        operators::comparison_types(&e, &l).is_some()
                            && operators::comparison_types(&e, &h).is_some()
                    }
                    _ => false,
                };
                if !decimal {
                    return Ok(Transformed::no(Expr::Between(Between {
                        expr,
                        negated,
                        low,
                        high,
                    })));
                }
                let (x, low, high) = (*expr, *low, *high);
                Transformed::yes(if negated {
                    compare(CompareOp::Lt, x.clone(), low).or(compare(CompareOp::Gt, x, high))
                } else {
                    compare(CompareOp::GtEq, x.clone(), low).and(compare(CompareOp::LtEq, x, high))
                })
            }
            Expr::Cast(c) if casts_here(&c.expr, &c.field) => {
                call(self.cast(false), vec![*c.expr, type_name(&c.field)])
            }
            Expr::TryCast(c) if casts_here(&c.expr, &c.field) => {
                call(self.cast(true), vec![*c.expr, type_name(&c.field)])
            }
            Expr::ScalarFunction(f) => match self.unary_call(&f, &type_of) {
                Some(ours) => call(ours, f.args),
                None => Transformed::no(Expr::ScalarFunction(f)),
            },
            Expr::AggregateFunction(a) => {
                let ours = aggregates::of_datafusion(a.func.name())
                    .filter(|_| !a.params.distinct)
                    .filter(|_| match a.params.args.as_slice() {
                        [x] => type_of(x).is_some_and(|t| t.is_decimal()),
                        _ => false,
                    });
                match ours {
                    Some(entry) => Transformed::yes(Expr::AggregateFunction(AggregateFunction {
                        func: self.aggregate(entry),
                        params: a.params,
                    })),
                    None => Transformed::no(Expr::AggregateFunction(a)),
                }
            }
            Expr::WindowFunction(w) => match self.window_aggregate(&w, &type_of) {
                Some(ours) => {
                    let WindowFunction { params, .. } = *w;
                    let fun = WindowFunctionDefinition::AggregateUDF(ours);
                    Transformed::yes(Expr::WindowFunction(Box::new(WindowFunction { fun, params })))
                }
                None => Transformed::no(Expr::WindowFunction(w)),
            },
            other => Transformed::no(other),
        })
    }

    /// This crate's aggregate for a window of DataFusion's `sum`, `avg`,
    /// `min` or `max` of a decimal, when its frame starts at the partition's
    /// first row: such a frame only grows, where a sliding one would need
    /// rows taken out of the running state, which the accumulator does not
    /// do (those windows stay DataFusion's).
    fn window_aggregate(
        &self,
        w: &WindowFunction,
        type_of: &impl Fn(&Expr) -> Option<datafusion::arrow::datatypes::DataType>,
    ) -> Option<Arc<AggregateUDF>> {
        let WindowFunctionDefinition::AggregateUDF(f) = &w.fun else {
            return None;
        };
        let entry = aggregates::of_datafusion(f.name())?;
        let params = &w.params;
        let plain = !params.distinct && params.filter.is_none();
        let grows = params.window_frame.start_bound.is_unbounded();
        let decimal = match params.args.as_slice() {
            [x] => type_of(x).is_some_and(|t| t.is_decimal()),
            _ => false,
        };
        (plain && grows && decimal).then(|| self.aggregate(entry))
    }

    /// This crate's function for a call of DataFusion's `abs`, `round`,
    /// `floor`, `ceil` or `trunc` of a decimal (with a literal number of
    /// digits, where it takes one).
    fn unary_call(
        &self,
        f: &ScalarFunction,
        type_of: &impl Fn(&Expr) -> Option<datafusion::arrow::datatypes::DataType>,
    ) -> Option<Arc<ScalarUDF>> {
        let function = UnaryFunction::of_datafusion(f.func.name())?;
        let (x, digits) = match f.args.as_slice() {
            [x] => (x, None),
            [x, d] if function.takes_digits() => (x, Some(d)),
            _ => return None,
        };
        if !type_of(x).is_some_and(|t| t.is_decimal()) {
            return None;
        }
        if let Some(d) = digits {
            match d {
                Expr::Literal(value, _) if literal_digits(value).is_some() => {}
                _ => return None,
            }
        }
        Some(self.unary(function))
    }

    /// [`Self::rewrite_expr`] on every expression of one plan node, with the
    /// node's input schema, keeping the names the node's output has.
    fn rewrite_plan(&self, plan: LogicalPlan) -> Result<Transformed<LogicalPlan>> {
        let mut schema = merge_schema(&plan.inputs());
        if let LogicalPlan::TableScan(scan) = &plan {
            let source = DFSchema::try_from_qualified_schema(
                scan.table_name.clone(),
                &scan.source.schema(),
            )?;
            schema.merge(&source);
        }
        let names = NamePreserver::new(&plan);
        let rewritten = plan.map_expressions(|expr| {
            let name = names.save(&expr);
            let rewritten = expr.transform_up(|e| self.rewrite_expr(e, &schema))?;
            Ok(rewritten.update_data(|e| name.restore(e)))
        })?;
        if !rewritten.transformed {
            return Ok(rewritten);
        }
        rewritten.map_data(LogicalPlan::recompute_schema)
    }
}

/// A cast's target type as the text argument of `decimal_cast`.
fn type_name(to: &FieldRef) -> Expr {
    Expr::Literal(ScalarValue::from(to.data_type().to_string()), None)
}

/// The rewrite before type coercion.
#[derive(Debug)]
pub(crate) struct BeforeCoercion(pub(crate) Arc<DecimalRewrite>);

impl FunctionRewrite for BeforeCoercion {
    fn name(&self) -> &str {
        "decimal_kernels"
    }

    fn rewrite(
        &self,
        expr: Expr,
        schema: &DFSchema,
        _config: &ConfigOptions,
    ) -> Result<Transformed<Expr>> {
        self.0.rewrite_expr(expr, schema)
    }
}

/// The rewrite after type coercion, for the casts it inserts.
#[derive(Debug)]
pub(crate) struct AfterCoercion(pub(crate) Arc<DecimalRewrite>);

impl AnalyzerRule for AfterCoercion {
    fn name(&self) -> &str {
        "decimal_kernels_after_coercion"
    }

    fn analyze(&self, plan: LogicalPlan, _config: &ConfigOptions) -> Result<LogicalPlan> {
        Ok(plan.transform_up_with_subqueries(|p| self.0.rewrite_plan(p))?.data)
    }
}
