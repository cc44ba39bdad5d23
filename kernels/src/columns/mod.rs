//! The columns layer: what a call reads and writes, and how its values meet
//! the work types.
//!
//! `storage` is the six native types decimal values are stored in; `column`
//! a borrowed column of any of them, and the output vector and slots;
//! `operand` one operand of a call, a column or one value; `convert` moves
//! blocks of rows between storage and work types, and `in_place` says which
//! work types need no conversion.

pub(crate) mod column;
pub(crate) mod convert;
pub(crate) mod in_place;
pub(crate) mod operand;
pub(crate) mod storage;
