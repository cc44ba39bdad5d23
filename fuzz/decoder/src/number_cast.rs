//! Casts between decimals and Rust's integers and floats, decoded from raw
//! bytes and held to the reference.
//!
//! | bytes | meaning |
//! |---|---|
//! | 1 | cast, modulo 20: 0–9 a decimal to `i8 i16 i32 i64 u8 u16 u32 u64 f32 f64`, 10–19 those to a decimal |
//!
//! A decimal operand is then read exactly as [`UnaryCase::decode`] reads one
//! (its operator and rescale target unused; its options, the profile's, give
//! the rounding and overflow policy of the cast). Numbers to a decimal read:
//!
//! | bytes | meaning |
//! |---|---|
//! | 2 | options, as in the crate's header (the division-by-zero policy unused) |
//! | 2 | the target type: precision, then scale (invalid ones now and then) |
//! | 1 | layout: `0x04` nullable |
//! | pair | rows, as in the crate's header |
//! | 1 | a count of given values (at most the rows), then each as the type's bytes, little-endian: a float's raw bits, so NaNs, infinities and subnormals too |
//! | 1 | in a nullable column, row `i` is null when bit `i % 8` of this byte is set |
//!
//! The rows after the given values repeat them in turn (zeros when none are
//! given), so a few bytes make a long column crossing the kernels' blocks.

use decimal_kernels::cast::{self, CastFloat, CastInteger};
use decimal_kernels::conformance::{
    reference_from_float, reference_from_integer, reference_to_float, reference_to_integer,
};
use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalError, DecimalType, NullableBuffer};
use decimal_kernels_native::{NullBuffer, ScalarBuffer};

use crate::{
    ByteSource, Reader, ReferenceMismatch, UnaryCase, check_rows, decimal_type, options, text,
};

/// A number type whose values the decoder reads as raw little-endian bytes.
trait RawNumber: Copy + core::fmt::Debug {
    /// The value of the first `size_of::<Self>()` bytes of `bytes`.
    fn from_le(bytes: [u8; 8]) -> Self;
}

impl RawNumber for i8 {
    fn from_le([b0, ..]: [u8; 8]) -> Self {
        Self::from_le_bytes([b0])
    }
}

impl RawNumber for i16 {
    fn from_le([b0, b1, ..]: [u8; 8]) -> Self {
        Self::from_le_bytes([b0, b1])
    }
}

impl RawNumber for i32 {
    fn from_le([b0, b1, b2, b3, ..]: [u8; 8]) -> Self {
        Self::from_le_bytes([b0, b1, b2, b3])
    }
}

impl RawNumber for i64 {
    fn from_le(bytes: [u8; 8]) -> Self {
        Self::from_le_bytes(bytes)
    }
}

impl RawNumber for u8 {
    fn from_le([b0, ..]: [u8; 8]) -> Self {
        Self::from_le_bytes([b0])
    }
}

impl RawNumber for u16 {
    fn from_le([b0, b1, ..]: [u8; 8]) -> Self {
        Self::from_le_bytes([b0, b1])
    }
}

impl RawNumber for u32 {
    fn from_le([b0, b1, b2, b3, ..]: [u8; 8]) -> Self {
        Self::from_le_bytes([b0, b1, b2, b3])
    }
}

impl RawNumber for u64 {
    fn from_le(bytes: [u8; 8]) -> Self {
        Self::from_le_bytes(bytes)
    }
}

impl RawNumber for f32 {
    fn from_le(bytes: [u8; 8]) -> Self {
        Self::from_bits(<u32 as RawNumber>::from_le(bytes))
    }
}

impl RawNumber for f64 {
    fn from_le(bytes: [u8; 8]) -> Self {
        Self::from_bits(<u64 as RawNumber>::from_le(bytes))
    }
}

/// Numbers to cast to a decimal, decoded as the module header says.
struct NumberColumn<T> {
    options: ArithmeticOptions,
    to: DecimalType,
    values: Vec<T>,
    nulls: Option<NullBuffer>,
}

impl<T: RawNumber> NumberColumn<T> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecimalError> {
        let options = options(r);
        let to = decimal_type(r)?;
        let nullable = r.byte() & 0x04 != 0;
        let rows = r.rows();
        let given: Vec<T> = (0..usize::from(r.byte()).min(rows))
            .map(|_| {
                let mut bytes = [0u8; 8];
                for b in bytes.iter_mut().take(size_of::<T>()) {
                    *b = r.byte();
                }
                T::from_le(bytes)
            })
            .collect();
        let pattern = if given.is_empty() { vec![T::from_le([0; 8])] } else { given };
        let values = pattern.into_iter().cycle().take(rows).collect();
        let null_bits = r.byte();
        let nulls = nullable.then(|| {
            NullBuffer::from((0..rows).map(|i| null_bits >> (i % 8) & 1 == 0).collect::<Vec<_>>())
        });
        Ok(Self { options, to, values, nulls })
    }

    /// The call, described for a mismatch, at `row`.
    fn describe(&self, name: &str, row: usize) -> String {
        format!(
            "{name} column of {} rows to {} under {:?}, row {row}: {:?}",
            self.values.len(),
            self.to,
            self.options,
            self.values.get(row)
        )
    }
}

/// The rows of a cast to decimals, then the result's type and width (last,
/// so that a row's index is its row).
fn decimal_rows(
    outcome: Result<DecimalArray, DecimalError>,
) -> Result<Vec<Option<String>>, DecimalError> {
    outcome.map(|array| {
        let header = format!("{} at {}", array.dtype(), array.width());
        (0..array.len())
            .map(|row| array.scalar(row).map(|s| s.to_string()))
            .chain(core::iter::once(Some(header)))
            .collect()
    })
}

/// A decimal operand cast to the integer type `T`.
fn check_to_integer<T: CastInteger + core::fmt::Debug>(
    case: &UnaryCase,
) -> Result<(), ReferenceMismatch> {
    let (operand, options) = (case.operand(), case.options());
    // The value under a null row is not an answer, so it is not read.
    let rows = |outcome: Result<NullableBuffer<ScalarBuffer<T>>, DecimalError>| {
        outcome.map(|result| (0..result.values().len()).map(|row| result.get(row)).collect())
    };
    let expected = rows(reference_to_integer::<T>(operand, options));
    let got = rows(cast::to_integer::<T>(operand, options));
    let call = |row| {
        format!(
            "{} to {} under {options:?}, row {row}: {}",
            operand.dtype(),
            T::NAME,
            text(operand, row)
        )
    };
    check_rows(call, &expected, &got)
}

/// A decimal operand cast to the float type `F`.
fn check_to_float<F: CastFloat + core::fmt::Debug>(
    case: &UnaryCase,
) -> Result<(), ReferenceMismatch> {
    let (operand, options) = (case.operand(), case.options());
    let rows = |outcome: Result<NullableBuffer<ScalarBuffer<F>>, DecimalError>| {
        outcome.map(|result| (0..result.values().len()).map(|row| result.get(row)).collect())
    };
    let expected = rows(reference_to_float::<F>(operand, options));
    let got = rows(cast::to_float::<F>(operand, options));
    let call = |row| {
        format!(
            "{} to {} under {options:?}, row {row}: {}",
            operand.dtype(),
            F::NAME,
            text(operand, row)
        )
    };
    check_rows(call, &expected, &got)
}

/// Integers of type `T` cast to a decimal.
fn check_from_integer<T: CastInteger + RawNumber>(
    r: &mut Reader<'_>,
) -> Result<(), ReferenceMismatch> {
    let Ok(c) = NumberColumn::<T>::decode(r) else {
        return Ok(());
    };
    let expected =
        decimal_rows(reference_from_integer(&c.values, c.nulls.as_ref(), c.to, &c.options));
    let got = decimal_rows(cast::from_integer(c.values.clone(), c.nulls.clone(), c.to, &c.options));
    check_rows(|row| c.describe(T::NAME, row), &expected, &got)
}

/// Floats of type `F` (any bit pattern) cast to a decimal.
fn check_from_float<F: CastFloat + RawNumber>(r: &mut Reader<'_>) -> Result<(), ReferenceMismatch> {
    let Ok(c) = NumberColumn::<F>::decode(r) else {
        return Ok(());
    };
    let expected =
        decimal_rows(reference_from_float(&c.values, c.nulls.as_ref(), c.to, &c.options));
    let got = decimal_rows(cast::from_float(c.values.clone(), c.nulls.clone(), c.to, &c.options));
    check_rows(|row| c.describe(F::NAME, row), &expected, &got)
}

/// Decodes `bytes` into a cast between decimals and integers or floats
/// (the format is in this module's header), runs it and holds it to the
/// reference (bytes whose operand or target a constructor rejects pass).
///
/// # Errors
/// A [`ReferenceMismatch`] naming the first row that differs.
pub fn check_number_cast_bytes(bytes: &[u8]) -> Result<(), ReferenceMismatch> {
    let mut r = Reader { rest: bytes };
    let cast = r.byte() % 20;
    if cast >= 10 {
        return match cast - 10 {
            0 => check_from_integer::<i8>(&mut r),
            1 => check_from_integer::<i16>(&mut r),
            2 => check_from_integer::<i32>(&mut r),
            3 => check_from_integer::<i64>(&mut r),
            4 => check_from_integer::<u8>(&mut r),
            5 => check_from_integer::<u16>(&mut r),
            6 => check_from_integer::<u32>(&mut r),
            7 => check_from_integer::<u64>(&mut r),
            8 => check_from_float::<f32>(&mut r),
            _ => check_from_float::<f64>(&mut r),
        };
    }
    let Ok(case) = UnaryCase::decode(r.rest) else {
        return Ok(());
    };
    match cast {
        0 => check_to_integer::<i8>(&case),
        1 => check_to_integer::<i16>(&case),
        2 => check_to_integer::<i32>(&case),
        3 => check_to_integer::<i64>(&case),
        4 => check_to_integer::<u8>(&case),
        5 => check_to_integer::<u16>(&case),
        6 => check_to_integer::<u32>(&case),
        7 => check_to_integer::<u64>(&case),
        8 => check_to_float::<f32>(&case),
        _ => check_to_float::<f64>(&case),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_decode_from_raw_bits() {
        // decimal(10,2), nullable, 6 rows: NaN, the smallest subnormal,
        // -inf given, repeated; rows 1 and 4 null.
        let mut bytes = vec![0, 0x20, 10, 80, 0x04, 6, 0, 3];
        for x in [f64::NAN, f64::from_bits(1), f64::NEG_INFINITY] {
            bytes.extend(x.to_le_bytes());
        }
        bytes.push(0b0001_0010);
        let column = NumberColumn::<f64>::decode(&mut Reader { rest: &bytes }).unwrap();
        let bits: Vec<u64> = column.values.iter().map(|x| x.to_bits()).collect();
        let given = [f64::NAN.to_bits(), 1, f64::NEG_INFINITY.to_bits()];
        assert_eq!(bits, [given, given].concat());
        let nulls = column.nulls.expect("a nullable column");
        assert_eq!((0..6).filter(|&i| nulls.is_null(i)).collect::<Vec<_>>(), [1, 4]);
    }

    #[test]
    fn every_number_cast_prefix_decodes_without_panic() {
        for cast in 0..20u8 {
            // From a decimal: a decimal(20,0) column of 600 rows (past the
            // first 512-row block), its largest value at the last row; to a
            // decimal: 600 rows of two given raw values to decimal(10,2)
            // under the Null policy.
            let mut bytes = if cast < 10 {
                vec![cast, 0, 0, 0, 0, 0, 20, 78, 0, 0, 0x58, 2, 0, 0, 0, 0, 0]
            } else {
                vec![cast, 0, 0x20, 10, 80, 0x04, 0x58, 2, 2]
            };
            bytes.extend([1, 0x04, 9, 0, 1, 0x57, 2, 0x01, 0, 0xff, 0xff, 0x7f, 0xf0, 0, 0]);
            bytes.extend([0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0x55]);
            for end in 0..=bytes.len() {
                check_number_cast_bytes(&bytes[..end])
                    .unwrap_or_else(|report| panic!("cast {cast}, {end} bytes: {report}"));
            }
        }
    }
}
