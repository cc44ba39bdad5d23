//! The operators layer: one file per operator with its formula, rounding
//! and overflow rules and its per-row kernels (`add`, `sub`, `mul`, `div`,
//! `rem`, `rescale`, `round` (a rescale that keeps zeros for the dropped
//! digits), `sign` for negation and absolute value, `compare` for the
//! six comparisons, and `from_float` and `to_float` for the vectorized
//! paths of casts between `f64` and decimals), each
//! choosing its kernel and work type and handing it to a driver; what two
//! of them share is in `shared`.

pub(crate) mod add;
pub(crate) mod compare;
pub(crate) mod div;
pub(crate) mod from_float;
pub(crate) mod mul;
pub(crate) mod rem;
pub(crate) mod rescale;
pub(crate) mod round;
pub(crate) mod shared;
pub(crate) mod sign;
pub(crate) mod sub;
pub(crate) mod to_float;
