//! Casts between decimals and other types: integers, floats and strings,
//! each under the options' profile, exact (rounded once, from the exact
//! value, and checked against the target).

mod text;

#[cfg(feature = "arrow")]
pub(crate) use text::parse_stored;
pub(crate) use text::{BEYOND_PRECISION, NOT_A_NUMBER, text_rounding};
pub use text::{format, parse};
