//! What two or more operators share, so that no operator reaches into
//! another's file: the spec and kernels of addition and subtraction
//! (`add_spec`, `add_or_sub`, `rescaled_add`), dropping and appending
//! digits (`scale`), how rows divide (`division`), the quotient by one
//! prepared divisor (`scalar_quotient`), and quotients, remainders and
//! rescales of small `i64` rows wholly in double precision (`in_double`),
//! and quotients of `i64` rows scaled beyond it in two exact steps of
//! double precision (`two_step`).

pub(crate) mod add_or_sub;
pub(crate) mod add_spec;
pub(crate) mod division;
pub(crate) mod in_double;
pub(crate) mod rescaled_add;
pub(crate) mod scalar_quotient;
pub(crate) mod scale;
pub(crate) mod two_step;
