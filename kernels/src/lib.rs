//! Decimal arithmetic kernels over native integer slices.
//!
//! This crate is the engine room of `decimal-kernels`, usable on its own by
//! an engine that keeps decimal columns in its own buffers. It knows nothing
//! of decimal types or engine profiles: a caller describes each operation by
//! its shape ([`SumSpec`], [`MulSpec`], [`DivSpec`], [`RemSpec`]: shifts, [`RoundingMode`],
//! result precision), hands over two operands ([`Input`]: a [`Column`] of any
//! storage width from `i8` to arrow's `i256`, or one value), the rows'
//! validity and failure [`Policies`] in a [`Frame`], and picks the result's
//! [`Storage`]; [`add`], [`sub`], [`mul`], [`div`] and [`rem`] (and the unary
//! [`rescale`] ([`RescaleSpec`]), [`neg`] and [`abs`]) return an [`Output`] or
//! a [`KernelError`]. Results are exact: rounded once, from the exact value,
//! and checked against the result precision. Each writes its results into a
//! new vector, or into one the caller recycles ([`Frame::recycling`], see
//! [`Recycling`]), so that batch after batch can run in one allocation. The
//! semantics are stated in the `semantics` module of the `decimal-kernels`
//! crate's documentation.
//!
//! ```
//! use decimal_kernels_native::{Frame, Input, MulSpec, Output, RoundingMode, mul};
//! // decimal(12, 2) prices in i64 times decimal(20, 4) rates in i128, kept at
//! // scale 2 (four digits dropped, half up) in an i64 result.
//! let prices = [1_999i64, -250];
//! let rates = [1_0825i128, 1_0000];
//! let spec = MulSpec::new(4, RoundingMode::HalfUp, 18);
//! let frame = Frame::new(prices.len());
//! let out: Output<i64> = mul(Input::array(&prices[..]), Input::array(&rates[..]), &spec, &frame)?;
//! assert_eq!(out.values.as_ref(), [2_164, -250]);
//! # Ok::<(), decimal_kernels_native::KernelError>(())
//! ```
//!
//! Inside: one module per operator (`add`, `sub`, `mul`, `div`, `rem`,
//! `rescale`, and `sign` for negation and absolute value) holding its
//! per-row arithmetic; the block loops and failure masks (`arity`); reading
//! and converting columns (`column`); the choice of work type (`plan`);
//! rounding; powers of ten; division by invariant multiplication (`magic`),
//! by a floating-point estimate (`estimate`) and of 256 bits by a divisor
//! below `2^128`, word by word (`wide_div`); and the exact 512-bit fallback
//! (`wide`).
//!
//! The arrow-buffer major is chosen by a feature: `arrow_60` (the default) or
//! `arrow_59`. Exactly one may be on: both on (as `--all-features` or a
//! forgotten `default-features = false` makes them) is a compile error.

#![cfg_attr(docsrs, feature(doc_cfg))]

// Under `arrow_59`, arrow-buffer 59 under its usual name (`arrow_60` uses the
// dependency of that name).
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_buffer_59 as arrow_buffer;

#[cfg(not(any(feature = "arrow_59", feature = "arrow_60")))]
compile_error!(
    "decimal-kernels-native: no arrow-buffer major selected; enable the feature `arrow_60` \
     (the default) or `arrow_59`"
);

// Both on is most often an application on arrow 59 that kept the default
// features (of this crate or of `decimal-kernels`); either major would then
// meet buffers of the other, in type errors that do not name the cause.
#[cfg(all(feature = "arrow_59", feature = "arrow_60"))]
compile_error!(
    "decimal-kernels-native: the features `arrow_59` and `arrow_60` are both on; exactly one \
     arrow-rs major may be. To build on arrow 59, depend on decimal-kernels (or \
     decimal-kernels-native) with `default-features = false, features = [\"arrow_59\"]` (the \
     default features select arrow 60)"
);

mod add;
mod arity;
mod avg;
mod column;
mod div;
mod estimate;
mod estimate_wide;
mod magic;
mod mul;
mod plan;
mod pow10;
mod rem;
mod rescale;
mod rescaled_sum;
mod rounding;
mod sign;
mod storage;
mod sub;
mod sum;
#[cfg(test)]
mod testing;
mod wide;
mod wide_div;
mod work;

/// The arrow-buffer types in this crate's signatures, from the selected major.
pub use arrow_buffer::{NullBuffer, ScalarBuffer, i256};

pub use add::{SumSpec, add};
pub use arity::{Frame, KernelError, Output, OverflowPolicy, Policies, Recycling};
pub use column::{Column, Input};
pub use div::{DivSpec, div};
pub use mul::{MulSpec, mul};
pub use rem::{RemSpec, rem};
pub use rescale::{RescaleSpec, rescale};
pub use rounding::RoundingMode;
pub use sign::{abs, neg};
pub use storage::Storage;
pub use sub::sub;
pub use sum::{GroupSum, GroupSums};
