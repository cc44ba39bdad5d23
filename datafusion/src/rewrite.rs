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
use datafusion::arrow::datatypes::{DataType, Field, i256};
use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::common::{DFSchema, Result, ScalarValue};
use datafusion::logical_expr::expr::{
    AggregateFunction, Case, InList, ScalarFunction, WindowFunction, WindowFunctionDefinition,
};
use datafusion::logical_expr::expr_rewriter::{FunctionRewrite, NamePreserver};
use datafusion::logical_expr::type_coercion::functions::fields_with_udf;
use datafusion::logical_expr::utils::merge_schema;
use datafusion::logical_expr::{
    AggregateUDF, Between, BinaryExpr, Expr, ExprSchemable, LogicalPlan, Operator, ScalarUDF,
};
use datafusion::optimizer::AnalyzerRule;
use decimal_kernels::aggregate::AggregateOp;
use decimal_kernels::{BinaryOp, CompareOp, RoundFunction};

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
    /// This crate's call for `left op right` on two decimals for which
    /// DataFusion finds no operand types (a decimal beside one of the other
    /// width whose common type would pass 76 digits): its SQL planner would
    /// fail on them before any rewrite, where the crate computes them (the
    /// comparison exactly, the arithmetic at the Arrow profile's type for the
    /// wider width). `None` for any other operation.
    #[cfg(feature = "sql")]
    pub(crate) fn untyped_binary(
        &self,
        left: &Expr,
        op: Operator,
        right: &Expr,
        schema: &DFSchema,
    ) -> Option<Expr> {
        use datafusion::logical_expr::type_coercion::binary::comparison_coercion;
        let (lt, rt) = (left.get_type(schema).ok()?, right.get_type(schema).ok()?);
        // Only decimals of two widths can lack operand types; DataFusion's
        // coercion of one width is left to it (and never asked here: for two
        // wide decimals its own arithmetic can overflow).
        let same_width = std::mem::discriminant(&lt) == std::mem::discriminant(&rt);
        if !(lt.is_decimal() && rt.is_decimal()) || same_width {
            return None;
        }
        let args = vec![left.clone(), right.clone()];
        let function = if let Some(comparison) = operators::compare_op(op) {
            let typed = comparison_coercion(&lt, &rt).is_some();
            (!typed).then(|| self.comparison(comparison))?
        } else {
            let entry = operators::ARITHMETIC.into_iter().find(|(_, o, _)| *o == op)?;
            let typed = operators::arithmetic_types(&lt, op, &rt).is_some();
            (!typed).then(|| self.arithmetic(entry))?
        };
        Some(Expr::ScalarFunction(ScalarFunction::new_udf(function, args)))
    }

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
                let (left, right) = match (type_of(&left), type_of(&right)) {
                    (Some(l), Some(r)) if operators::compare_op(op).is_some() => {
                        (literal_beside(left, &r), literal_beside(right, &l))
                    }
                    _ => (left, right),
                };
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
                    Transformed::yes(match of_one_type((*left, &lt), (*right, &rt)) {
                        (l, r, true) => {
                            Expr::BinaryExpr(BinaryExpr::new(Box::new(l), op, Box::new(r)))
                        }
                        (l, r, false) => compare(comparison, l, r),
                    })
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
                    let below = self.compared(x.clone(), Operator::Lt, low, schema)?;
                    below.or(self.compared(x, Operator::Gt, high, schema)?)
                } else {
                    let above = self.compared(x.clone(), Operator::GtEq, low, schema)?;
                    above.and(self.compared(x, Operator::LtEq, high, schema)?)
                })
            }
            Expr::Cast(c) if casts_here(&c.expr, &c.field) => {
                call(self.cast(false), vec![*c.expr, type_name(&c.field)])
            }
            Expr::TryCast(c) if casts_here(&c.expr, &c.field) => {
                call(self.cast(true), vec![*c.expr, type_name(&c.field)])
            }
            Expr::ScalarFunction(f) => {
                if let Some(chosen) = self.choice(&f, schema)? {
                    return Ok(Transformed::yes(chosen));
                }
                if let Some(to) = arrow_cast_type(&f)
                    && casts_here(&f.args[0], &Arc::new(Field::new("to", to.clone(), true)))
                {
                    let x = f
                        .args
                        .into_iter()
                        .next()
                        .unwrap_or_else(|| Expr::Literal(ScalarValue::Null, None));
                    return Ok(Transformed::yes(self.cast_to(x, &to, schema)));
                }
                match self.unary_call(&f, &type_of) {
                    Some(ours) => call(ours, f.args),
                    None => Transformed::no(Expr::ScalarFunction(f)),
                }
            }
            Expr::AggregateFunction(a) => {
                let ours = aggregates::of_datafusion(a.func.name()).filter(|_| {
                    match a.params.args.as_slice() {
                        [x] => type_of(x).is_some_and(|t| t.is_decimal()),
                        _ => false,
                    }
                });
                match ours {
                    Some(entry) => {
                        let mut params = a.params;
                        // The extreme of the distinct values is that of all
                        // values; a distinct sum or mean keeps its DISTINCT.
                        params.distinct &= !matches!(entry.0, AggregateOp::Min | AggregateOp::Max);
                        let func = self.aggregate(entry);
                        Transformed::yes(Expr::AggregateFunction(AggregateFunction {
                            func,
                            params,
                        }))
                    }
                    None => Transformed::no(Expr::AggregateFunction(a)),
                }
            }
            Expr::InList(InList { expr, list, negated }) => {
                let decimal = |e: &Expr| type_of(e).is_some_and(|t| t.is_decimal());
                if list.is_empty() || !(decimal(&expr) || list.iter().any(decimal)) {
                    return Ok(Transformed::no(Expr::InList(InList { expr, list, negated })));
                }
                Transformed::yes(self.in_list(*expr, list, negated, schema)?)
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

    /// `x IN (a, b, ..)` as `x = a OR x = b ..` (`NOT IN`: `x <> a AND x <>
    /// b ..`), each comparison exact between the two types it meets (this
    /// crate's where one is a decimal): the same three-valued answer, with
    /// no common type for the whole list to overflow.
    fn in_list(&self, x: Expr, list: Vec<Expr>, negated: bool, schema: &DFSchema) -> Result<Expr> {
        let op = if negated { Operator::NotEq } else { Operator::Eq };
        let mut terms = Vec::with_capacity(list.len());
        for item in list {
            terms.push(self.compared(x.clone(), op, item, schema)?);
        }
        let joined = terms.into_iter().reduce(|a, b| if negated { a.and(b) } else { a.or(b) });
        Ok(joined.unwrap_or_else(|| Expr::Literal(ScalarValue::Boolean(Some(negated)), None)))
    }

    /// `l op r` for a comparison `op`, this crate's where it compares
    /// decimals.
    fn compared(&self, l: Expr, op: Operator, r: Expr, schema: &DFSchema) -> Result<Expr> {
        let plain = Expr::BinaryExpr(BinaryExpr::new(Box::new(l), op, Box::new(r)));
        Ok(self.rewrite_expr(plain, schema)?.data)
    }

    /// `x` cast to `to`: as it is when of that type, else this crate's
    /// cast where it casts decimals, else DataFusion's.
    fn cast_to(&self, x: Expr, to: &DataType, schema: &DFSchema) -> Expr {
        match x.get_type(schema) {
            Ok(from) if &from == to => x,
            Ok(from) if cast::casts(&from, to) => {
                let name = Expr::Literal(ScalarValue::from(to.to_string()), None);
                Expr::ScalarFunction(ScalarFunction::new_udf(self.cast(false), vec![x, name]))
            }
            _ => Expr::Cast(datafusion::logical_expr::Cast::new(Box::new(x), to.clone())),
        }
    }

    /// `greatest`, `least` or `nullif` of arguments of different types, one
    /// of them a decimal, as a `CASE` that chooses by exact comparisons and
    /// then casts only the chosen value to DataFusion's result type: a value
    /// that is not chosen is never cast (DataFusion casts every argument to
    /// the common type first, and fails on one that does not fit it).
    /// `CASE` evaluates each branch on the rows that take it only.
    fn choice(&self, f: &ScalarFunction, schema: &DFSchema) -> Result<Option<Expr>> {
        let name = f.func.name();
        if !matches!(name, "greatest" | "least" | "nullif") {
            return Ok(None);
        }
        let types: Option<Vec<DataType>> = f.args.iter().map(|a| a.get_type(schema).ok()).collect();
        let Some(types) = types else { return Ok(None) };
        if !types.iter().any(DataType::is_decimal) || types.windows(2).all(|w| w[0] == w[1]) {
            return Ok(None);
        }
        // DataFusion's coercion of the arguments, as its analyzer would do it.
        let fields: Vec<FieldRef> =
            types.iter().map(|t| Arc::new(Field::new("argument", t.clone(), true))).collect();
        let Ok(coerced) = fields_with_udf(&fields, f.func.as_ref()) else { return Ok(None) };
        let coerced: Vec<DataType> = coerced.iter().map(|f| f.data_type().clone()).collect();
        let Ok(result) = f.func.return_type(&coerced) else { return Ok(None) };
        let null = Expr::Literal(ScalarValue::try_from(&result)?, None);
        let args = &f.args;
        let mut branches = Vec::with_capacity(args.len());
        if let ("nullif", [a, b]) = (name, args.as_slice()) {
            let equal = self.compared(a.clone(), Operator::Eq, b.clone(), schema)?;
            branches.push((equal, null.clone()));
            let otherwise = self.cast_to(a.clone(), &result, schema);
            return Ok(Some(case(branches, otherwise)));
        } else if name == "nullif" {
            return Ok(None);
        }
        // Row by row the first non-null argument that no other beats (ties
        // go to the first): `a_i` is chosen where it is not null, beats every
        // earlier non-null argument and is at least as good as every later one.
        let (beats, ties) = match name {
            "least" => (Operator::Lt, Operator::LtEq),
            _ => (Operator::Gt, Operator::GtEq),
        };
        for (i, a) in args.iter().enumerate() {
            let mut chosen = a.clone().is_not_null();
            for (j, other) in args.iter().enumerate().filter(|(j, _)| *j != i) {
                let op = if j < i { beats } else { ties };
                let wins = self.compared(a.clone(), op, other.clone(), schema)?;
                chosen = chosen.and(other.clone().is_null().or(wins));
            }
            branches.push((chosen, self.cast_to(a.clone(), &result, schema)));
        }
        Ok(Some(case(branches, null)))
    }

    /// This crate's aggregate for a window of DataFusion's `sum`, `avg`,
    /// `min` or `max` of a decimal: over any frame for `sum` and `avg`
    /// (rows leaving a sliding frame are taken out of the exact sum and
    /// count); for `min` and `max` over a frame that starts at the
    /// partition's first row (an extreme cannot forget a row: a sliding
    /// `min` or `max` stays DataFusion's, which picks one of the frame's
    /// values as it is).
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
        let from_first_row = params.window_frame.start_bound.is_unbounded();
        // A distinct sum cannot take a row out (the value may stay in the
        // frame by another row): only over a frame that only grows.
        let plain = params.filter.is_none() && (!params.distinct || from_first_row);
        let grows = from_first_row || aggregates::retracts(entry.0);
        let decimal = match params.args.as_slice() {
            [x] => type_of(x).is_some_and(|t| t.is_decimal()),
            _ => false,
        };
        (plain && grows && decimal).then(|| self.aggregate(entry))
    }

    /// This crate's function for a call of DataFusion's `abs`, `round`,
    /// `floor`, `ceil` or `trunc` of a decimal (with a literal number of
    /// digits, where it takes one, or an integer column's for `round` and
    /// `trunc`).
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
            let per_row = matches!(
                function,
                UnaryFunction::Round(RoundFunction::Round | RoundFunction::Trunc)
            );
            match d {
                Expr::Literal(value, _) if literal_digits(value).is_some() => {}
                Expr::Literal(..) => return None,
                _ if per_row && type_of(d).is_some_and(|t| t.is_integer()) => {}
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

/// Two decimal operands of a comparison as DataFusion compares them
/// exactly, when they are of one type (`true`): the values as they are
/// stored. A literal beside a decimal of type `T` is made a value of `T`
/// where it is one exactly (its scale at most `T`'s, its digits within
/// `T`'s precision). Otherwise both as they are (`false`), for this crate's
/// comparison. DataFusion's comparison is then as exact as this crate's,
/// and its optimizer reads it (statistics, join and filter planning).
fn of_one_type((l, lt): (Expr, &DataType), (r, rt): (Expr, &DataType)) -> (Expr, Expr, bool) {
    if lt == rt && lt.is_decimal() {
        return (l, r, true);
    }
    let as_type = |e: &Expr, t: &DataType| match e {
        Expr::Literal(value, _) if t.is_decimal() && !value.is_null() => exactly_as(value, t),
        _ => None,
    };
    if let Some(value) = as_type(&r, lt) {
        return (l, Expr::Literal(value, None), true);
    }
    if let Some(value) = as_type(&l, rt) {
        return (Expr::Literal(value, None), r, true);
    }
    (l, r, false)
}

/// `value` (an integer or a decimal) as a value of the decimal type `to`,
/// when it is one exactly: no digit dropped, none beyond `to`'s precision.
fn exactly_as(value: &ScalarValue, to: &DataType) -> Option<ScalarValue> {
    let from = value.data_type();
    let scale = |t: &DataType| match t {
        DataType::Decimal32(_, s)
        | DataType::Decimal64(_, s)
        | DataType::Decimal128(_, s)
        | DataType::Decimal256(_, s) => Some(*s),
        t if t.is_integer() => Some(0),
        _ => None,
    };
    if scale(&from)? > scale(to)? {
        return None;
    }
    // Raising the scale appends zeros: exact, or an overflow error.
    value.cast_to(to).ok().filter(|cast| !cast.is_null())
}

/// `x` compared with a value of type `other`: a floating-point literal
/// beside a decimal as the decimal its shortest text writes (`2.5`, or
/// `80000000000000000000000000000000000000`, which SQL reads as a double),
/// the value the query wrote, compared exactly; anything else as it is.
fn literal_beside(x: Box<Expr>, other: &DataType) -> Box<Expr> {
    let value = match x.as_ref() {
        Expr::Literal(ScalarValue::Float64(Some(v)), _) if other.is_decimal() => *v,
        Expr::Literal(ScalarValue::Float32(Some(v)), _) if other.is_decimal() => f64::from(*v),
        _ => return x,
    };
    match decimal_literal(value) {
        Some(literal) => Box::new(Expr::Literal(literal, None)),
        None => x,
    }
}

/// The decimal `v`'s shortest text writes (the digits Rust prints, which
/// read back to `v`), if it is finite and fits 76 digits.
fn decimal_literal(v: f64) -> Option<ScalarValue> {
    if !v.is_finite() {
        return None;
    }
    let text = v.abs().to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let scale = i8::try_from(fraction.len()).ok()?;
    let precision = u8::try_from(digits.len().max(1)).ok()?.max(u8::try_from(scale).ok()?.max(1));
    let negative = v < 0.0;
    if precision <= 38 {
        let magnitude: i128 = if digits.is_empty() { 0 } else { digits.parse().ok()? };
        let value = if negative { -magnitude } else { magnitude };
        Some(ScalarValue::Decimal128(Some(value), precision, scale))
    } else if precision <= 76 {
        let magnitude = i256::from_string(digits)?;
        let value = if negative { magnitude.wrapping_neg() } else { magnitude };
        Some(ScalarValue::Decimal256(Some(value), precision, scale))
    } else {
        None
    }
}

/// The target type of `arrow_cast(x, 'type')`, DataFusion's `CAST` by a
/// type's Arrow name.
fn arrow_cast_type(f: &ScalarFunction) -> Option<DataType> {
    match (f.func.name(), f.args.as_slice()) {
        ("arrow_cast", [_, Expr::Literal(ScalarValue::Utf8(Some(name)), _)]) => name.parse().ok(),
        _ => None,
    }
}

/// `CASE WHEN c1 THEN v1 .. ELSE otherwise END`.
fn case(branches: Vec<(Expr, Expr)>, otherwise: Expr) -> Expr {
    let when_then = branches.into_iter().map(|(c, v)| (Box::new(c), Box::new(v))).collect();
    Expr::Case(Case::new(None, when_then, Some(Box::new(otherwise))))
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
