//! Casts between decimals and other types: integers, floats and strings,
//! each under the options' profile, exact (rounded once, from the exact
//! value, and checked against the target).

mod float;
pub(crate) mod integer;
mod text;

pub use float::{CastFloat, from_float, to_float};
pub use integer::{CastInteger, from_integer, to_integer};
#[cfg(feature = "arrow")]
pub(crate) use text::parse_stored;
pub(crate) use text::{BEYOND_PRECISION, NOT_A_NUMBER};
pub use text::{format, parse};
