//! The driver layer: everything between an operator's per-row arithmetic
//! and a call's buffers.
//!
//! A call is described by its `rows` (count, validity, policies) and returns
//! an `output` or an `error`. An operator hands the drivers a `kernel` of one
//! or two operands and the work type `plan` chose; the `binary` and `unary`
//! drivers cut the rows into `blocks`, run the kernel's `loops` (through a
//! `compiled` trait object, in one of the ISA `copies`, `avx2` and `avx512`
//! among them: the one `isa` chose for the process) and resolve each
//! block's flags into `failures`; the `compare` driver runs comparisons,
//! packing their answers 64 rows to a word. `precision` checks values
//! an aggregate finished against a result precision, with no kernel.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
pub(crate) mod binary;
pub(crate) mod blocks;
pub(crate) mod compare;
pub(crate) mod compiled;
pub(crate) mod copies;
pub(crate) mod error;
pub(crate) mod failures;
pub(crate) mod isa;
pub(crate) mod kernel;
pub(crate) mod loops;
pub(crate) mod output;
pub(crate) mod plan;
pub(crate) mod precision;
pub(crate) mod rows;
pub(crate) mod unary;
