//! Values: columns ([`DecimalArray`]) over stored integers of one native
//! width ([`DecimalValues`]), single values ([`DecimalScalar`]), and their
//! canonical text.

pub(crate) mod array;
pub(crate) mod native;
pub(crate) mod scalar;
pub(crate) mod text;

pub use array::DecimalArray;
pub(crate) use native::with_native;
pub use native::{DecimalNative, DecimalValues};
pub use scalar::DecimalScalar;
