//! The range of decimal types: `1 <= p <= 76` and `-76 <= s <= p`, checked
//! by the constructors of [`DecimalType`].

use crate::types::decimal_type::{DecimalType, MAX_PRECISION};
use crate::types::error::DecimalError;

impl DecimalType {
    /// `decimal(precision, scale)`.
    ///
    /// # Errors
    /// [`DecimalError::InvalidType`] unless `1 <= precision <= 76` and
    /// `-76 <= scale <= precision`.
    pub fn try_new(precision: u8, scale: i8) -> Result<Self, DecimalError> {
        let scale_ok = i16::from(scale) >= -i16::from(MAX_PRECISION)
            && i16::from(scale) <= i16::from(precision);
        if (1..=MAX_PRECISION).contains(&precision) && scale_ok {
            Ok(Self::new_in_range(precision, scale))
        } else {
            Err(DecimalError::InvalidType { precision: precision.into(), scale: scale.into() })
        }
    }

    /// The same, from wider integers (as result-type formulas produce them).
    pub(crate) fn try_from_ints(precision: i32, scale: i32) -> Result<Self, DecimalError> {
        match (u8::try_from(precision), i8::try_from(scale)) {
            (Ok(p), Ok(s)) => Self::try_new(p, s),
            _ => Err(DecimalError::InvalidType { precision, scale }),
        }
    }
}
