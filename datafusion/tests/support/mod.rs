//! What the integration tests share: TPC-H tables from `tpchgen-arrow`,
//! contexts with and without `register`, the query texts, and the reading of
//! a plan's decimal expressions.

#![allow(dead_code, reason = "each test binary uses part of the support")]

use std::sync::Arc;

use datafusion::arrow::array::{RecordBatch, RecordBatchReader};
use datafusion::arrow::datatypes::{DataType, SchemaRef};
use datafusion::catalog::MemTable;
use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
use datafusion::common::{DFSchema, Result};
use datafusion::logical_expr::utils::merge_schema;
use datafusion::logical_expr::{Expr, ExprSchemable, LogicalPlan, Operator};
use datafusion::prelude::{SessionConfig, SessionContext};
use tpchgen::generators::{
    CustomerGenerator, LineItemGenerator, NationGenerator, OrderGenerator, PartGenerator,
    PartSuppGenerator, RegionGenerator, SupplierGenerator,
};
use tpchgen_arrow::{
    CustomerArrow, LineItemArrow, NationArrow, OrderArrow, PartArrow, PartSuppArrow, RegionArrow,
    SupplierArrow,
};

/// One generated table: its name, schema and batches.
pub struct Table {
    pub name: &'static str,
    pub schema: SchemaRef,
    pub batches: Vec<RecordBatch>,
}

/// The batches and schema of one generator.
fn table(name: &'static str, batches: impl RecordBatchReader) -> Table {
    let schema = batches.schema();
    let batches = batches.collect::<Result<_, _>>();
    Table { name, schema, batches: batches.unwrap_or_else(|e| panic!("{name}: {e}")) }
}

/// The eight TPC-H tables at scale factor `sf`.
pub fn tpch_tables(sf: f64) -> Vec<Table> {
    vec![
        table("lineitem", LineItemArrow::new(LineItemGenerator::new(sf, 1, 1))),
        table("orders", OrderArrow::new(OrderGenerator::new(sf, 1, 1))),
        table("customer", CustomerArrow::new(CustomerGenerator::new(sf, 1, 1))),
        table("part", PartArrow::new(PartGenerator::new(sf, 1, 1))),
        table("partsupp", PartSuppArrow::new(PartSuppGenerator::new(sf, 1, 1))),
        table("supplier", SupplierArrow::new(SupplierGenerator::new(sf, 1, 1))),
        table("nation", NationArrow::new(NationGenerator::new(sf, 1, 1))),
        table("region", RegionArrow::new(RegionGenerator::new(sf, 1, 1))),
    ]
}

/// The scale factor of the TPC-H tests: `TPCH_SF`, 0.01 by default.
pub fn scale_factor() -> f64 {
    std::env::var("TPCH_SF").ok().and_then(|s| s.parse().ok()).unwrap_or(0.01)
}

/// A context holding `tables` in memory, with this crate registered when
/// `registered`, on `partitions` target partitions.
pub fn context(tables: &[Table], registered: bool, partitions: usize) -> Result<SessionContext> {
    let config = SessionConfig::new().with_target_partitions(partitions);
    let ctx = SessionContext::new_with_config(config);
    for t in tables {
        let provider = MemTable::try_new(t.schema.clone(), vec![t.batches.clone()])?;
        ctx.register_table(t.name, Arc::new(provider))?;
    }
    if registered {
        decimal_kernels_datafusion::register(&ctx)?;
    }
    Ok(ctx)
}

/// The text of TPC-H query `n` (`tests/tpch/q{n}.sql`), as its statements.
pub fn tpch_statements(n: usize) -> Vec<String> {
    let path = format!("{}/tests/tpch/q{n}.sql", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let without_comments: String =
        text.lines().filter(|l| !l.trim_start().starts_with("--")).collect::<Vec<_>>().join("\n");
    without_comments.split(';').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}

/// Whether a statement is the query (not a `create view` or `drop view`).
pub fn is_query(statement: &str) -> bool {
    statement.to_ascii_lowercase().starts_with("select")
}

/// The decimal expressions of an analyzed or optimized plan and its
/// subqueries: how many are calls of this crate's functions, and a
/// description of every other one (DataFusion computing on decimals).
#[derive(Debug, Default)]
pub struct DecimalExpressions {
    pub ours: usize,
    pub names: Vec<String>,
    pub datafusion: Vec<String>,
}

/// Whether `t` is a decimal type.
fn decimal(t: Option<DataType>) -> bool {
    t.is_some_and(|t| t.is_decimal())
}

/// Reads every expression of `plan`.
pub fn decimal_expressions(plan: &LogicalPlan) -> Result<DecimalExpressions> {
    let mut found = DecimalExpressions::default();
    plan.apply_with_subqueries(|node| {
        let mut schema = merge_schema(&node.inputs());
        if let LogicalPlan::TableScan(scan) = node {
            let source = DFSchema::try_from_qualified_schema(
                scan.table_name.clone(),
                &scan.source.schema(),
            )?;
            schema.merge(&source);
        }
        node.apply_expressions(|e| {
            e.apply(|x| {
                classify(x, &schema, &mut found);
                Ok(TreeNodeRecursion::Continue)
            })
        })?;
        Ok(TreeNodeRecursion::Continue)
    })?;
    Ok(found)
}

/// The functions `README.md` lists as left to DataFusion because they read
/// or choose decimal values as they are ("Left to DataFusion"); `median`
/// also takes the exact mean of the two middle values, truncated as the
/// Arrow profile truncates.
pub const CHOOSING: [&str; 18] = [
    "count",
    "median",
    "greatest",
    "least",
    "nullif",
    "approx_distinct",
    "first_value",
    "last_value",
    "nth_value",
    "lag",
    "lead",
    "array_agg",
    "array_min",
    "array_max",
    "coalesce",
    "arrow_typeof",
    "iszero",
    "isnan",
];

/// The functions `README.md` lists as still DataFusion's on decimals, not
/// yet held to the rule.
pub const STILL_DATAFUSIONS: [&str; 4] = ["log", "gcd", "lcm", "to_timestamp"];

/// Whether `x` is one of the README's expressions left to DataFusion.
fn left_to_datafusion(x: &Expr) -> bool {
    let listed = |name: &str| CHOOSING.contains(&name) || STILL_DATAFUSIONS.contains(&name);
    match x {
        Expr::WindowFunction(w) => {
            let name = w.fun.name();
            let sliding = !w.params.window_frame.start_bound.is_unbounded();
            // DataFusion refuses a DISTINCT sliding window of decimals.
            listed(name) || (sliding && (matches!(name, "min" | "max") || w.params.distinct))
        }
        Expr::AggregateFunction(a) => listed(a.func.name()),
        Expr::ScalarFunction(f) => listed(f.name()),
        // A decimal to a timestamp (still DataFusion's), or to or from a
        // run-end or dictionary encoding of the same type.
        Expr::Cast(c) => {
            let to = c.field.data_type();
            let encoded = |t: &DataType| match t {
                DataType::RunEndEncoded(_, values) => Some(values.data_type().clone()),
                DataType::Dictionary(_, values) => Some(values.as_ref().clone()),
                _ => None,
            };
            matches!(to, DataType::Timestamp(..))
                || encoded(to).is_some_and(|v| v.is_decimal())
                || matches!(c.expr.as_ref(), Expr::Cast(inner) if encoded(inner.field.data_type()).as_ref() == Some(to))
        }
        _ => false,
    }
}

/// Counts `x` as ours, as DataFusion's decimal computation, or neither.
fn classify(x: &Expr, schema: &DFSchema, found: &mut DecimalExpressions) {
    if left_to_datafusion(x) {
        return;
    }
    let type_of = |e: &Expr| e.get_type(schema).ok();
    let theirs = match x {
        Expr::ScalarFunction(f) if f.name().starts_with("decimal_") => {
            found.ours += 1;
            found.names.push(f.name().to_string());
            false
        }
        Expr::AggregateFunction(a) if a.func.name().starts_with("decimal_") => {
            found.ours += 1;
            found.names.push(a.func.name().to_string());
            false
        }
        Expr::ScalarFunction(f) => {
            f.args.iter().any(|a| decimal(type_of(a))) || decimal(type_of(x))
        }
        Expr::WindowFunction(w) => {
            let name = w.fun.name();
            if name.starts_with("decimal_") {
                found.ours += 1;
                found.names.push(name.to_string());
                false
            } else {
                w.params.args.iter().any(|a| decimal(type_of(a)))
            }
        }
        Expr::AggregateFunction(a) => a.params.args.iter().any(|a| decimal(type_of(a))),
        Expr::BinaryExpr(b) => {
            let computes = b.op.is_numerical_operators()
                || matches!(
                    b.op,
                    Operator::Eq
                        | Operator::NotEq
                        | Operator::Lt
                        | Operator::LtEq
                        | Operator::Gt
                        | Operator::GtEq
                );
            // A comparison of two decimals of one type compares the stored
            // values: DataFusion's is exact (the README lists it).
            let (l, r) = (type_of(&b.left), type_of(&b.right));
            let one_type = l == r && !b.op.is_numerical_operators();
            computes && !one_type && (decimal(l) || decimal(r))
        }
        Expr::Cast(c) => decimal(type_of(&c.expr)) || c.field.data_type().is_decimal(),
        Expr::TryCast(c) => decimal(type_of(&c.expr)) || c.field.data_type().is_decimal(),
        Expr::Negative(e) => decimal(type_of(e)),
        Expr::Between(b) => decimal(type_of(&b.expr)),
        // Of one type: the stored values looked up as they are.
        Expr::InList(l) => {
            let t = type_of(&l.expr);
            let one_type = l.list.iter().all(|i| type_of(i) == t);
            !one_type && (decimal(t) || l.list.iter().any(|i| decimal(type_of(i))))
        }
        _ => false,
    };
    if theirs {
        found.datafusion.push(x.to_string());
    }
}
