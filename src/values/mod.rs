//! Values: columns ([`DecimalArray`]) over stored integers of one native
//! width ([`DecimalValues`]), single values ([`DecimalScalar`]), their
//! canonical text, and the rows of results that are not decimals
//! ([`NullableBuffer`]).

pub(crate) mod array;
pub(crate) mod native;
pub(crate) mod nullable;
pub(crate) mod scalar;
pub(crate) mod text;

pub use array::DecimalArray;
pub(crate) use native::with_native;
pub use native::{DecimalNative, DecimalValues};
pub use nullable::{NullableBuffer, RowCount};
pub use scalar::DecimalScalar;
