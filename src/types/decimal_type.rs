//! Decimal types and storage widths (their checked constructors are in
//! `type_range`).

use core::fmt;

/// The largest precision: 76 digits, the most a 256-bit integer always holds.
pub const MAX_PRECISION: u8 = 76;

/// A decimal type `decimal(p, s)`: values are integers `v` with
/// `|v| <= 10^p - 1`, meaning `v * 10^-s`.
///
/// `1 <= p <= 76` and `-76 <= s <= p`; a negative scale means trailing integer
/// zeros (`decimal(5,-2)` holds multiples of 100).
///
/// ```
/// use decimal_kernels::{DecimalScalar, DecimalType, StorageWidth};
/// let money = DecimalType::try_new(12, 2)?;
/// assert_eq!((money.precision(), money.scale()), (12, 2));
/// assert_eq!(money.to_string(), "decimal(12,2)");
/// assert_eq!(money.storage_width(), StorageWidth::I64);
/// // Stored integer 1234, scale 2: the value 12.34.
/// assert_eq!(DecimalScalar::from_stored(money, 1234_i64)?.to_string(), "12.34");
/// // Scale -2: stored integer 5 means 500.
/// let hundreds = DecimalType::try_new(5, -2)?;
/// assert_eq!(DecimalScalar::from_stored(hundreds, 5_i8)?.to_string(), "500");
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecimalType {
    precision: u8,
    scale: i8,
}

impl DecimalType {
    /// `decimal(precision, scale)` from a pair already checked to be in
    /// range (by `try_new`).
    pub(crate) const fn new_in_range(precision: u8, scale: i8) -> Self {
        Self { precision, scale }
    }

    /// The number of significant digits.
    #[must_use]
    pub const fn precision(self) -> u8 {
        self.precision
    }

    /// The number of fraction digits (negative: trailing integer zeros).
    #[must_use]
    pub const fn scale(self) -> i8 {
        self.scale
    }

    /// The narrowest storage that holds every value of this type.
    #[must_use]
    pub fn storage_width(self) -> StorageWidth {
        StorageWidth::for_precision(self.precision)
    }
}

impl fmt::Display for DecimalType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "decimal({},{})", self.precision, self.scale)
    }
}

/// The native integer width a column's values are stored in.
///
/// Any width at least as wide as [`DecimalType::storage_width`] holds a type;
/// the kernels take operands of mixed widths.
///
/// ```
/// use decimal_kernels::{DecimalArray, DecimalType, StorageWidth};
/// let t = DecimalType::try_new(4, 2)?;
/// assert_eq!(t.storage_width(), StorageWidth::I16);
/// assert_eq!(StorageWidth::for_precision(19), StorageWidth::I128);
/// assert_eq!((StorageWidth::I64.max_precision(), StorageWidth::I64.bytes()), (18, 8));
/// let a = DecimalArray::from_strs(t, &[Some("12.34")])?;
/// assert_eq!(a.width(), StorageWidth::I16);
/// assert_eq!(a.with_width(StorageWidth::I128)?.width(), StorageWidth::I128);
/// assert!(a.with_width(StorageWidth::I8).is_err());
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StorageWidth {
    /// `i8`: up to 2 digits.
    I8,
    /// `i16`: up to 4 digits.
    I16,
    /// `i32`: up to 9 digits (Arrow `Decimal32`).
    I32,
    /// `i64`: up to 18 digits (Arrow `Decimal64`).
    I64,
    /// `i128`: up to 38 digits (Arrow `Decimal128`).
    I128,
    /// `i256`: up to 76 digits (Arrow `Decimal256`).
    I256,
}

impl StorageWidth {
    /// Every width, narrowest first.
    pub const ALL: [Self; 6] = [Self::I8, Self::I16, Self::I32, Self::I64, Self::I128, Self::I256];

    /// The narrowest width that holds every value of `precision` digits
    /// (`I256` for anything above 38).
    #[must_use]
    pub fn for_precision(precision: u8) -> Self {
        Self::ALL.into_iter().find(|width| precision <= width.max_precision()).unwrap_or(Self::I256)
    }

    /// The most digits this width always holds: 2, 4, 9, 18, 38 or 76.
    #[must_use]
    pub const fn max_precision(self) -> u8 {
        match self {
            Self::I8 => 2,
            Self::I16 => 4,
            Self::I32 => 9,
            Self::I64 => 18,
            Self::I128 => 38,
            Self::I256 => 76,
        }
    }

    /// Bytes per value.
    #[must_use]
    pub const fn bytes(self) -> usize {
        match self {
            Self::I8 => 1,
            Self::I16 => 2,
            Self::I32 => 4,
            Self::I64 => 8,
            Self::I128 => 16,
            Self::I256 => 32,
        }
    }
}

impl fmt::Display for StorageWidth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Self::I8 => "i8",
            Self::I16 => "i16",
            Self::I32 => "i32",
            Self::I64 => "i64",
            Self::I128 => "i128",
            Self::I256 => "i256",
        };
        f.write_str(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DecimalError;
    use rstest::rstest;

    #[rstest]
    #[case::smallest(1, 0)]
    #[case::largest(76, 76)]
    #[case::most_negative_scale(1, -76)]
    #[case::scale_equals_precision(10, 10)]
    fn valid_types(#[case] p: u8, #[case] s: i8) {
        let t = DecimalType::try_new(p, s).unwrap();
        assert_eq!((t.precision(), t.scale()), (p, s));
        assert_eq!(t.to_string(), format!("decimal({p},{s})"));
    }

    #[rstest]
    #[case::zero_precision(0, 0)]
    #[case::precision_77(77, 0)]
    #[case::scale_above_precision(5, 6)]
    #[case::scale_below_minus_76(5, -77)]
    fn invalid_types(#[case] p: u8, #[case] s: i8) {
        assert_eq!(
            DecimalType::try_new(p, s),
            Err(DecimalError::InvalidType { precision: p.into(), scale: s.into() })
        );
    }

    #[rstest]
    #[case::p2(2, StorageWidth::I8)]
    #[case::p3(3, StorageWidth::I16)]
    #[case::p9(9, StorageWidth::I32)]
    #[case::p10(10, StorageWidth::I64)]
    #[case::p18(18, StorageWidth::I64)]
    #[case::p19(19, StorageWidth::I128)]
    #[case::p38(38, StorageWidth::I128)]
    #[case::p39(39, StorageWidth::I256)]
    #[case::p76(76, StorageWidth::I256)]
    fn narrowest_width(#[case] p: u8, #[case] width: StorageWidth) {
        assert_eq!(StorageWidth::for_precision(p), width);
    }
}
