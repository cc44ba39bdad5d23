//! The rules: each profile's result types and storage, and the exact
//! big-integer reference every kernel is held to. Nothing here runs a kernel.

pub(crate) mod numeric_cast;
pub(crate) mod profiles;
pub(crate) mod reference;
pub(crate) mod result_type;
pub(crate) mod round;
pub(crate) mod shape;
pub(crate) mod storage;
