//! Stored integers: the six native widths ([`DecimalNative`]) and a
//! column's values in one of them ([`DecimalValues`]).

use arrow_buffer::{ScalarBuffer, i256};
use decimal_kernels_native::Storage;

use crate::types::StorageWidth;

/// A column's stored integers, in one of the six native widths.
///
/// ```
/// use decimal_kernels::{DecimalArray, DecimalType, DecimalValues};
/// let a = DecimalArray::from_strs(DecimalType::try_new(4, 2)?, &[Some("-1.25"), None])?;
/// let DecimalValues::I16(stored) = a.values() else { panic!("decimal(4,2) is stored as i16") };
/// assert_eq!(stored[0], -125);
/// assert_eq!(a.values().get(0).map(|v| v.to_string()), Some("-125".into())); // widened to i256
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum DecimalValues {
    /// `i8` storage.
    I8(ScalarBuffer<i8>),
    /// `i16` storage.
    I16(ScalarBuffer<i16>),
    /// `i32` storage.
    I32(ScalarBuffer<i32>),
    /// `i64` storage.
    I64(ScalarBuffer<i64>),
    /// `i128` storage.
    I128(ScalarBuffer<i128>),
    /// `i256` storage.
    I256(ScalarBuffer<i256>),
}

/// Calls `$body` with `$buf` bound to the typed buffer inside `$values`.
macro_rules! with_buffer {
    ($values:expr, $buf:ident => $body:expr) => {
        match $values {
            DecimalValues::I8($buf) => $body,
            DecimalValues::I16($buf) => $body,
            DecimalValues::I32($buf) => $body,
            DecimalValues::I64($buf) => $body,
            DecimalValues::I128($buf) => $body,
            DecimalValues::I256($buf) => $body,
        }
    };
}

/// Calls `$body` with `$t` the native type of storage width `$width`.
macro_rules! with_native {
    ($width:expr, $t:ident => $body:expr) => {
        match $width {
            $crate::types::StorageWidth::I8 => {
                type $t = i8;
                $body
            }
            $crate::types::StorageWidth::I16 => {
                type $t = i16;
                $body
            }
            $crate::types::StorageWidth::I32 => {
                type $t = i32;
                $body
            }
            $crate::types::StorageWidth::I64 => {
                type $t = i64;
                $body
            }
            $crate::types::StorageWidth::I128 => {
                type $t = i128;
                $body
            }
            $crate::types::StorageWidth::I256 => {
                type $t = arrow_buffer::i256;
                $body
            }
        }
    };
}
pub(crate) use {with_buffer, with_native};

impl DecimalValues {
    /// The storage width.
    #[must_use]
    pub fn width(&self) -> StorageWidth {
        match self {
            Self::I8(_) => StorageWidth::I8,
            Self::I16(_) => StorageWidth::I16,
            Self::I32(_) => StorageWidth::I32,
            Self::I64(_) => StorageWidth::I64,
            Self::I128(_) => StorageWidth::I128,
            Self::I256(_) => StorageWidth::I256,
        }
    }

    /// The number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        with_buffer!(self, b => b.len())
    }

    /// Whether there are no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i` widened to `i256`.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<i256> {
        with_buffer!(self, b => b.get(i).map(|v| v.to_i256()))
    }

    /// The values as the kernels read them.
    pub(crate) fn column(&self) -> decimal_kernels_native::Column<'_> {
        with_buffer!(self, b => decimal_kernels_native::Column::from(b))
    }

    pub(crate) fn slice(&self, offset: usize, len: usize) -> Self {
        with_buffer!(self, b => b.slice(offset, len).into_values())
    }

    /// The buffer's memory as a vector of `T`, when the values are stored as
    /// `T` and nothing else shares the buffer (nor a slice of it starts past
    /// its first value, nor did it come from an allocation a `Vec<T>` cannot
    /// own).
    pub(crate) fn into_vec<T: DecimalNative>(self) -> Option<Vec<T>> {
        if self.width() != T::WIDTH {
            return None;
        }
        with_buffer!(self, b => b.into_inner().into_vec::<T>().ok())
    }

    /// The values converted to `T`, borrowed when already stored as `T`;
    /// `Err(row)` names the first row whose value does not fit `T`, unless
    /// that row is null according to `is_valid`.
    pub(crate) fn to_native<T: DecimalNative>(
        &self,
        is_valid: impl Fn(usize) -> bool,
    ) -> Result<ScalarBuffer<T>, usize> {
        if let Some(same) = T::buffer(self) {
            return Ok(same.clone());
        }
        let mut out = Vec::with_capacity(self.len());
        with_buffer!(self, b => {
            for (row, v) in b.iter().enumerate() {
                match T::from_i256(v.to_i256()) {
                    Some(x) => out.push(x),
                    None if !is_valid(row) => out.push(T::default()),
                    None => return Err(row),
                }
            }
        });
        Ok(ScalarBuffer::from(out))
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for i8 {}
    impl Sealed for i16 {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
    impl Sealed for i128 {}
    impl Sealed for arrow_buffer::i256 {}
}

/// A native type decimal values can be stored in: `i8`, `i16`, `i32`, `i64`,
/// `i128`, `i256`.
///
/// ```
/// use decimal_kernels::{DecimalArray, DecimalNative, DecimalType, StorageWidth};
/// fn column<T: DecimalNative>(values: Vec<T>) -> Result<DecimalArray, decimal_kernels::DecimalError> {
///     DecimalArray::try_new(DecimalType::try_new(2, 1)?, values.into(), None)
/// }
/// assert_eq!(column(vec![15_i8])?.width(), StorageWidth::I8);
/// assert_eq!(column(vec![15_i64])?.width(), i64::WIDTH);
/// assert_eq!(column(vec![15_i64])?.to_strs(), [Some("1.5".into())]);
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
pub trait DecimalNative: Storage + sealed::Sealed {
    /// Its width.
    const WIDTH: StorageWidth;
    /// The buffer as column values.
    fn into_values(buffer: ScalarBuffer<Self>) -> DecimalValues;
    /// The buffer inside `values`, if they are stored as `Self`.
    fn buffer(values: &DecimalValues) -> Option<&ScalarBuffer<Self>>;
    /// The value, widened.
    fn to_i256(self) -> i256;
    /// The value of an `i256`, if it fits.
    fn from_i256(v: i256) -> Option<Self>;
}

macro_rules! primitive_native {
    ($($t:ty => $variant:ident),*) => {$(
        impl DecimalNative for $t {
            const WIDTH: StorageWidth = StorageWidth::$variant;
            fn into_values(buffer: ScalarBuffer<Self>) -> DecimalValues {
                DecimalValues::$variant(buffer)
            }
            fn buffer(values: &DecimalValues) -> Option<&ScalarBuffer<Self>> {
                match values {
                    DecimalValues::$variant(b) => Some(b),
                    _ => None,
                }
            }
            fn to_i256(self) -> i256 {
                i256::from_i128(self.into())
            }
            fn from_i256(v: i256) -> Option<Self> {
                v.to_i128().and_then(|x| Self::try_from(x).ok())
            }
        }
    )*};
}
primitive_native!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, i128 => I128);

impl DecimalNative for i256 {
    const WIDTH: StorageWidth = StorageWidth::I256;
    fn into_values(buffer: ScalarBuffer<Self>) -> DecimalValues {
        DecimalValues::I256(buffer)
    }
    fn buffer(values: &DecimalValues) -> Option<&ScalarBuffer<Self>> {
        match values {
            DecimalValues::I256(b) => Some(b),
            _ => None,
        }
    }
    fn to_i256(self) -> i256 {
        self
    }
    fn from_i256(v: i256) -> Option<Self> {
        Some(v)
    }
}

/// Private helper so `ScalarBuffer<T>` can become `DecimalValues` in generic code.
trait IntoValues {
    fn into_values(self) -> DecimalValues;
}

impl<T: DecimalNative> IntoValues for ScalarBuffer<T> {
    fn into_values(self) -> DecimalValues {
        T::into_values(self)
    }
}
