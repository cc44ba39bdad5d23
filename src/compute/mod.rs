//! The compute entry points and the one funnel every call goes through: it
//! derives or checks the result type, its storage width, the row count and
//! the remainder's scale, then runs one typed kernel call.

pub(crate) mod binary;
pub(crate) mod compare;
pub(crate) mod funnel;
mod kernel_call;
pub(crate) mod operand;
pub(crate) mod prepared;
pub(crate) mod recycled;
pub(crate) mod round;
pub(crate) mod unary;
mod validity;
