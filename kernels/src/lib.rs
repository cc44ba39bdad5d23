//! Decimal arithmetic kernels over native integer slices.
//!
//! This crate is the engine room of `decimal-kernels`: one module per operator
//! ([`add`], [`sub`], [`mul`], [`div`]) running over whole buffers of stored
//! decimal integers (`i8` … `i128`, arrow's `i256`), plus what they share: the
//! loops and failure masks ([`arity`]), the choice of work type ([`plan`]),
//! rounding ([`rounding`]), powers of ten ([`pow10`]), division by
//! invariant multiplication ([`magic`]) and by a floating-point estimate
//! ([`estimate`]), and the exact 512-bit fallback ([`wide`]). Kernels know
//! nothing of decimal types or engine profiles: a caller describes each
//! operation by its shifts, rounding and result precision (`SumSpec`,
//! `MulSpec`, `DivSpec`).
//!
//! The arrow-buffer major is chosen by a feature: `arrow_60` (the default) or
//! `arrow_59`, exactly one.

#![cfg_attr(docsrs, feature(doc_cfg))]

// Under `arrow_59`, arrow-buffer 59 under its usual name (`arrow_60` uses the
// dependency of that name). With both features on, the code still builds on
// 60, so the error below is the only one.
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_buffer_59 as arrow_buffer;

#[cfg(all(feature = "arrow_59", feature = "arrow_60"))]
compile_error!(
    "decimal-kernels-native: the features `arrow_59` and `arrow_60` are both on, but a build \
     uses one arrow-buffer major; enable exactly one (decimal-kernels forwards its own \
     `arrow_59`/`arrow_60` here, and a dependency with default features turns on `arrow_60`: \
     give it `default-features = false`)"
);
#[cfg(not(any(feature = "arrow_59", feature = "arrow_60")))]
compile_error!(
    "decimal-kernels-native: no arrow-buffer major selected; enable the feature `arrow_60` \
     (the default) or `arrow_59`"
);

pub mod add;
pub mod arity;
pub mod div;
pub mod estimate;
pub mod magic;
pub mod mul;
pub mod plan;
pub mod pow10;
pub mod rounding;
pub mod storage;
pub mod sub;
pub mod wide;
pub mod work;

pub use add::{SumSpec, add};
pub use arity::{Frame, Input, KernelError, Output, OverflowPolicy, Policies};
pub use div::{DivSpec, div};
pub use mul::{MulSpec, mul};
pub use plan::{Magnitude, Operand, WorkWidth};
pub use rounding::RoundingMode;
pub use storage::Storage;
pub use sub::sub;
