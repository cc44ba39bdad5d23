//! decimal-kernels under DataFusion's SQL: one call, and a
//! [`SessionContext`]'s unchanged SQL and DataFrame plans run their decimal
//! expressions in decimal-kernels, exactly, with DataFusion's own result
//! types.
//!
//! ```no_run
//! # async fn run() -> datafusion::error::Result<()> {
//! use datafusion::prelude::SessionContext;
//! let ctx = SessionContext::new();
//! decimal_kernels_datafusion::register(&ctx)?;
//! ctx.sql("SELECT CAST(1.10 AS DECIMAL(10, 2)) * 3").await?.show().await?;
//! # Ok(())
//! # }
//! ```
//!
//! What runs here once registered, for decimal operands of any Arrow width
//! (`Decimal32` … `Decimal256`):
//!
//! | SQL | function in the plan |
//! |---|---|
//! | `+ - * / %` | `decimal_add`, `decimal_sub`, `decimal_mul`, `decimal_div`, `decimal_rem` |
//! | `= <> < <= > >=`, `BETWEEN` of two decimal types | `decimal_eq`, `decimal_neq`, `decimal_lt`, `decimal_lt_eq`, `decimal_gt`, `decimal_gt_eq` |
//! | unary `-`, `abs` | `decimal_neg`, `decimal_abs` |
//! | `round`, `floor`, `ceil`, `trunc` | `decimal_round`, `decimal_floor`, `decimal_ceil`, `decimal_trunc` |
//! | `CAST`, `TRY_CAST` to or from a decimal | `decimal_cast`, `decimal_try_cast` |
//! | `sum`, `avg`, `min`, `max`, `DISTINCT` too (and as windows: `sum` and `avg` over any frame, `min` and `max` over one that starts at the partition's first row) | `decimal_sum`, `decimal_avg`, `decimal_min`, `decimal_max` |
//! | `x IN (a, b, ..)`, `NOT IN` | `decimal_eq(x, a) OR ..`, `decimal_neq(x, a) AND ..` |
//! | `greatest`, `least`, `nullif` of different decimal types | a `CASE` of exact comparisons, casting only the chosen value |
//!
//! `EXPLAIN` shows these names. What is left to DataFusion reads or chooses
//! decimal values as they are (`count`, a sliding `min` or `max`,
//! `first_value`, keys, `coalesce`), or has no decimal; the crate's README
//! lists it, and the few functions still DataFusion's (`log`, `gcd`, `lcm`,
//! `to_timestamp` of a decimal).
//!
//! Where the answers differ from DataFusion's own, DataFusion's are wrong:
//! a result beyond its precision is an error here (DataFusion can return a
//! value its type cannot hold, or a sum that wrapped around), and decimals
//! of different types compare exactly, without DataFusion's cast to a
//! common type (which fails for a value the common type cannot hold).
//!
//! [`register_with`] takes another profile (Spark, Presto/Trino,
//! FixedPoint): result types, rounding, casts and overflow as that
//! engine's.

mod aggregates;
#[cfg(feature = "ballista")]
pub mod ballista;
mod cast;
mod distinct;
mod operators;
#[cfg(feature = "sql")]
mod planner;
mod plans;
mod profile;
mod rewrite;
mod unary;
mod values;

use std::sync::Arc;

use datafusion::error::Result;
use datafusion::execution::{FunctionRegistry, SessionState};
use datafusion::prelude::SessionContext;
use decimal_kernels::StorageWidth;
pub use decimal_kernels::{ArithmeticOptions, OverflowPolicy, RoundingMode};

#[cfg(feature = "sql")]
use crate::planner::UntypedDecimals;
use crate::profile::Profile;
use crate::rewrite::{AfterCoercion, BeforeCoercion, DecimalRewrite};

/// Makes `ctx` run its decimal expressions in decimal-kernels under the
/// Arrow profile: DataFusion's result types, and its values wherever they
/// are right.
///
/// # Errors
/// DataFusion's, should a function fail to register.
pub fn register(ctx: &SessionContext) -> Result<()> {
    register_with(ctx, ArithmeticOptions::arrow(StorageWidth::I128))
}

/// [`register`] under the profile and policies of `options`. An Arrow
/// profile's width is ignored: each call runs at its operands' width.
///
/// # Errors
/// As [`register`].
pub fn register_with(ctx: &SessionContext, options: ArithmeticOptions) -> Result<()> {
    register_state(&mut ctx.state_ref().write(), options)
}

/// [`register_with`] on a [`SessionState`], for a process that builds its
/// own (a Ballista scheduler or executor, whose plans name this crate's
/// functions and are decoded with the state's registry).
///
/// # Errors
/// As [`register`].
pub fn register_state(state: &mut SessionState, options: ArithmeticOptions) -> Result<()> {
    let rewrite = Arc::new(DecimalRewrite::new(Profile::new(options)));
    for function in rewrite.scalar_functions() {
        state.register_udf(function)?;
    }
    for function in rewrite.aggregate_functions() {
        state.register_udaf(function)?;
    }
    #[cfg(feature = "sql")]
    state.register_expr_planner(Arc::new(UntypedDecimals(Arc::clone(&rewrite))))?;
    state.register_function_rewrite(Arc::new(BeforeCoercion(Arc::clone(&rewrite))))?;
    state.add_analyzer_rule(Arc::new(AfterCoercion(rewrite)));
    Ok(())
}
