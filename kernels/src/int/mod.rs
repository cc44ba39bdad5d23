//! The integer layer: the types the kernels compute in and the arithmetic
//! on them, knowing nothing of columns, rows or loops.
//!
//! `work` states what a work type does (`i64`, `i128`, ethnum's `I256`, and
//! the saturating 512-bit fallback of `i512`); `width` names them by size and
//! turns a width chosen at run time into a compiled type. Division by a
//! divisor fixed for a call goes by invariant multiplication (`magic`), by a
//! floating-point estimate with exact correction (`estimate` for 64 bits,
//! `estimate_256` for 256), exactly in double precision for operands below
//! `2^51` (`exact_double`), 128-bit dividends by 64-bit divisors in two
//! hardware divides (`div_128`), and 256-bit dividends by a divisor below
//! `2^128` word by word (`div_256`). `pow10` sizes powers of ten in bits,
//! and `rounding` rounds a truncated quotient from its remainder.

pub(crate) mod div_128;
pub(crate) mod div_256;
pub(crate) mod estimate;
pub(crate) mod estimate_256;
pub(crate) mod exact_double;
pub(crate) mod i512;
pub(crate) mod magic;
pub(crate) mod pow10;
pub(crate) mod rounding;
pub(crate) mod width;
pub(crate) mod work;
