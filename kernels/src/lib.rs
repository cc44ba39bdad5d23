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
