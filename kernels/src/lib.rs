//! Decimal arithmetic kernels over native integer slices.
//!
//! This crate is the engine room of `decimal-kernels`, usable on its own by
//! an engine that keeps decimal columns in its own buffers. It knows nothing
//! of decimal types or engine profiles: a caller describes each operation by
//! its shape ([`AddSpec`], [`MulSpec`], [`DivSpec`], [`RemSpec`]: shifts,
//! [`RoundingMode`], result precision), hands over two operands ([`Operand`]:
//! a [`Column`] of any storage width from `i8` to arrow's `i256`, or one
//! value), the [`Rows`]' count, validity and failure [`Policies`], and picks
//! the result's [`Storage`]; [`add`], [`sub`], [`mul`], [`div`] and [`rem`]
//! (and the unary [`rescale`] ([`RescaleSpec`]), [`neg`] and [`abs`]) return
//! an [`Output`] or a [`KernelError`]. Results are exact: rounded once, from
//! the exact value, and checked against the result precision. Each writes
//! its results into a new vector, or into one the caller recycles
//! ([`Rows::recycled`], see [`Recycled`]), so that batch after batch can run
//! in one allocation. [`compare`] ([`CompareSpec`]) compares two operands
//! of any scales and widths exactly, its answers packed in a
//! [`BooleanBuffer`]. [`GroupSums`] adds columns up exactly, whole or by
//! group. The semantics are stated in the `semantics` module of the
//! `decimal-kernels` crate's documentation.
//!
//! ```
//! use decimal_kernels_native::{MulSpec, Operand, Output, RoundingMode, Rows, mul};
//! // decimal(12, 2) prices in i64 times decimal(20, 4) rates in i128, kept at
//! // scale 2 (four digits dropped, half up) in an i64 result.
//! let prices = [1_999i64, -250];
//! let rates = [1_0825i128, 1_0000];
//! let spec = MulSpec::new(4, RoundingMode::HalfUp, 18);
//! let rows = Rows::new(prices.len());
//! let out: Output<i64> = mul(Operand::array(&prices[..]), Operand::array(&rates[..]), &spec, &rows)?;
//! assert_eq!(out.values.as_ref(), [2_164, -250]);
//! # Ok::<(), decimal_kernels_native::KernelError>(())
//! ```
//!
//! Inside, one folder per layer, each depending only on the ones before it:
//!
//! - `int`: the integer types the kernels compute in (`i64`, `i128`,
//!   256 bits, and an exact saturating 512-bit fallback) and their
//!   arithmetic: division by invariant multiplication, by a floating-point
//!   estimate and of 256 bits by a divisor below `2^128`, powers of ten,
//!   rounding.
//! - `columns`: the storage types, columns, operands and output slots, and
//!   the conversion of blocks of rows between storage and work types.
//! - `driver`: a call's rows, results and errors; the choice of work type;
//!   the block loops of binary and unary operators with their ISA copies
//!   (one per x86-64 level, chosen once per process: [`active_isa`]) and
//!   failure masks; the precision check of finished values.
//! - `ops`: one file per operator (`add`, `sub`, `mul`, `div`, `rem`,
//!   `rescale`, `round`, `sign` for negation and absolute value, `compare`,
//!   `from_float` and `to_float`) with its formula and per-row kernels, and
//!   in `ops::shared` what two operators share.
//! - `aggregate`: exact sums, means and extremes by group.
//!
//! The arrow-buffer major is chosen by a feature: `arrow_60` (the default) or
//! `arrow_59`. Exactly one may be on: both on (as `--all-features` or a
//! forgotten `default-features = false` makes them) is a compile error.

#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(clippy::undocumented_unsafe_blocks)]

// Under `arrow_59`, arrow-buffer 59 under its usual name (`arrow_60` uses the
// dependency of that name).
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_buffer_59 as arrow_buffer;

#[cfg(not(any(feature = "arrow_59", feature = "arrow_60")))]
compile_error!(
    "decimal-kernels-native: no arrow-rs major selected; enable the feature `arrow_60` (the \
     default) or `arrow_59` of decimal-kernels (or of decimal-kernels-native, where depended on \
     directly)"
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

// Every item below needs the arrow-rs major's crates. Without a major they
// are left out, so that the build reports only the `compile_error!` above,
// not one unresolved import per use of the missing crate.
macro_rules! with_arrow_major {
    ($($item:item)*) => {
        $(#[cfg(any(feature = "arrow_59", feature = "arrow_60"))] $item)*
    };
}

with_arrow_major! {
    mod aggregate;
    mod columns;
    mod driver;
    mod int;
    mod ops;
    #[cfg(test)]
    mod testing;

    /// The arrow-buffer types in this crate's signatures, from the selected major.
    pub use arrow_buffer::{BooleanBuffer, NullBuffer, ScalarBuffer, i256};

    pub use aggregate::min_max::{Extreme, GroupExtremes};
    pub use aggregate::sum::{GroupSum, GroupSums};
    pub use columns::column::Column;
    pub use columns::operand::Operand;
    pub use columns::storage::Storage;
    pub use driver::error::KernelError;
    pub use driver::output::{Output, Recycled};
    pub use driver::rows::{OverflowPolicy, Policies, Rows};
    pub use int::rounding::RoundingMode;
    pub use ops::add::add;
    pub use ops::compare::{CompareSpec, compare};
    pub use ops::div::{DivSpec, div};
    pub use ops::from_float::{FromFloatSpec, from_float};
    pub use ops::mul::{MulSpec, mul};
    pub use ops::rem::{RemSpec, rem};
    pub use ops::rescale::{RescaleSpec, rescale};
    pub use ops::round::{RoundSpec, round};
    pub use ops::shared::add_spec::AddSpec;
    pub use ops::sign::{abs, neg};
    pub use ops::sub::sub;
    pub use ops::to_float::{FloatOutput, to_float};

    /// The name of the compiled copy of the kernels' loops this process runs:
    /// `"avx512"` (x86-64 with AVX-512 F, DQ, VL and BW, and BMI2), `"avx2"` (x86-64-v3:
    /// AVX2, FMA, BMI1, BMI2, LZCNT, MOVBE) or `"portable"` (the build's target
    /// only, and always off x86-64).
    ///
    /// The copy is chosen once per process, at the first call that needs it:
    /// the best one this CPU runs, capped by the environment variable
    /// `DECIMAL_KERNELS_ISA` if it is set to `portable`, `avx2` or `avx512`
    /// (in any case). A level the CPU lacks gives the best one below it that
    /// it runs; an empty value or any other is ignored. Every copy computes
    /// the same results; only their speed differs.
    ///
    /// ```
    /// let isa = decimal_kernels_native::active_isa();
    /// assert!(["portable", "avx2", "avx512"].contains(&isa));
    /// // The choice holds for the life of the process.
    /// assert_eq!(decimal_kernels_native::active_isa(), isa);
    /// ```
    pub fn active_isa() -> &'static str {
        driver::isa::active_name()
    }

    /// The names of the copies of the kernels' loops this CPU runs, from
    /// `"portable"` up: for tests and benchmarks that run each one (through
    /// `DECIMAL_KERNELS_ISA`, see [`active_isa`]). Not part of the stable API.
    #[doc(hidden)]
    pub fn runnable_isas() -> Vec<&'static str> {
        driver::isa::runnable_names()
    }
}
