//! arrow-rs interop: zero-copy conversions between [`DecimalArray`](crate::DecimalArray) and Arrow
//! decimal arrays; [`add`], [`sub`], [`mul`], [`div`], [`rem`] with the
//! signatures, result types and values of `arrow_arith::numeric` on
//! `Decimal32`, `Decimal64`, `Decimal128` and `Decimal256`; and [`cast`], a
//! drop-in for `arrow_cast::cast_with_options` whose decimal-to-decimal casts
//! are computed by this crate's kernels.
//!
//! - [`DecimalArray::from_arrow`](crate::DecimalArray::from_arrow) and [`DecimalArray::to_arrow`](crate::DecimalArray::to_arrow) share the
//!   values buffer and the validity bitmap (a sliced array keeps its offset);
//!   only `i8`/`i16` storage is widened, to `Decimal32`.
//! - [`add`], [`sub`], [`mul`], [`div`], [`rem`] take two [`Datum`](arrow_array::Datum)s of one
//!   Arrow decimal width (arrays or [`Scalar`](arrow_array::Scalar)s on either
//!   side) and use the Arrow profile, [`ArithmeticOptions::arrow`](crate::ArithmeticOptions::arrow), at that
//!   width: Arrow's result types, truncation, [`ArrowError::ArithmeticOverflow`](arrow_schema::ArrowError::ArithmeticOverflow)
//!   and [`ArrowError::DivideByZero`](arrow_schema::ArrowError::DivideByZero) for the first failing row, a null row
//!   where either side is null.
//! - [`sum`], [`avg`], [`min`], [`max`] and their `_groups` forms aggregate
//!   a decimal array under the Arrow profile at its width, returning a
//!   one-row array (or a row per group); see their docs for the differences
//!   from `arrow_arith::aggregate`.
//! - [`cast`] takes arrow-cast's `CastOptions`: a decimal cast rounds half
//!   away from zero, a value beyond the target precision is a null row
//!   (`safe: true`) or arrow-cast's error (`safe: false`); any cast that is not
//!   decimal to decimal is passed to arrow-cast unchanged.
//! - [`cast_with`] takes [`ArithmeticOptions`](crate::ArithmeticOptions)
//!   instead: the same casts under any profile, each as its engine casts
//!   (Spark truncates decimals to integers and reads a float's shortest
//!   text; Presto rounds half away from zero), the overflow policy choosing
//!   a null row or the error; under the Arrow profile it is [`cast`].
//! - [`neg`], [`abs`], and [`round`], [`floor`], [`ceil`], [`trunc`] to a
//!   number of digits take one Arrow decimal array and use the Arrow profile
//!   at its width (the rounding functions with DataFusion's result types);
//!   [`DecimalScalar::to_arrow`](crate::DecimalScalar::to_arrow) gives a
//!   scalar back as an Arrow one.
//! - [`result_data_type`] plans a result's Arrow type from the operands' Arrow
//!   types under any profile; [`DecimalScalar::from_arrow`](crate::DecimalScalar::from_arrow) reads an Arrow
//!   scalar; a [`DecimalError`](crate::DecimalError) converts into an [`ArrowError`](arrow_schema::ArrowError), so `?` works in
//!   functions returning Arrow's error.
//!
//! Deliberate differences, each where arrow-rs is not exact:
//!
//! - From `arrow_arith::numeric`: a result is checked against its result
//!   precision (arrow can return a value beyond the precision its type
//!   declares; here that is an overflow), and a result that fits is returned
//!   even where arrow fails on an intermediate (`10^k`, or an operand scaled by
//!   it, overflowing the native width). For [`rem`], that is a remainder whose
//!   operands arrow cannot align at the larger scale: arrow-arith 60 fails the
//!   call with an overflow, and arrow-arith 59, which computes `10^k` with
//!   wrapping, can return a wrong remainder.
//! - From `arrow_cast`: where arrow-cast fails a whole call because a scale
//!   rises by more digits than the target width has (even under `safe: true`,
//!   even for zeros), each row is cast here; values beyond their source
//!   precision are checked against the target precision in every cast (the
//!   same type included), where arrow-cast passes some on unchecked; arrow-cast
//!   59's `i8` scale arithmetic, which overflows for wide `Decimal256` scale
//!   changes, is exact here; an invalid target type fails before any row. The
//!   [`cast`] docs give each case.
//!
//! The arrow-rs major is the one selected by the crate's feature, `arrow_60`
//! (the default) or `arrow_59`; an application enables the one its own arrow
//! crates have, and a fresh lock file then holds a single arrow version.
//!
//! ```
//! # #[cfg(feature = "arrow_59")] extern crate arrow_array_59 as arrow_array;
//! # #[cfg(feature = "arrow_59")] extern crate arrow_schema_59 as arrow_schema;
//! use arrow_array::{Array, Decimal128Array, Scalar};
//! use arrow_schema::DataType;
//! use decimal_kernels::DecimalArray;
//!
//! let prices = Decimal128Array::from(vec![Some(1050), None, Some(-299)])
//!     .with_precision_and_scale(10, 2)?;
//! let rate = Scalar::new(Decimal128Array::from(vec![8]).with_precision_and_scale(3, 2)?);
//!
//! // As `arrow_arith::numeric::mul`: Decimal128(14, 4), a null where either side is null.
//! let tax = decimal_kernels::arrow::mul(&prices, &rate)?;
//! assert_eq!(tax.data_type(), &DataType::Decimal128(14, 4));
//!
//! // Back to this crate's arrays without copying.
//! let tax = DecimalArray::from_arrow(&tax)?;
//! assert_eq!(tax.to_strs(), [Some("0.8400".into()), None, Some("-0.2392".into())]);
//! let again = tax.to_arrow();
//! assert_eq!(again.data_type(), &DataType::Decimal128(14, 4));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod aggregate;
mod arithmetic;
mod cast;
mod cast_checks;
mod cast_plan;
mod compare;
mod convert;
mod number_cast;
mod profile_cast;
mod scalar;
mod text_cast;
mod unary;

pub use aggregate::{avg, avg_groups, max, max_groups, min, min_groups, sum, sum_groups};

pub use arithmetic::{
    add, binary, binary_recycling, binary_to, div, mul, rem, result_data_type, sub,
};
pub use cast::cast;
pub use cast_plan::CastPlan;
pub use compare::{eq, gt, gt_eq, lt, lt_eq, neq};
pub use convert::{data_type, decimal_type};
pub use profile_cast::cast_with;
pub use unary::{abs, ceil, floor, neg, round, trunc};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{
        ArithmeticOptions, BinaryOp, DecimalError, DecimalType, StorageWidth, UnaryOp,
    };
    use crate::values::{DecimalArray, DecimalScalar};
    use arrow_array::{
        Array, ArrayRef, Datum, Decimal32Array, Decimal64Array, Decimal128Array, Decimal256Array,
        Int32Array, Scalar,
    };
    use arrow_buffer::i256;
    use arrow_schema::{ArrowError, DataType};
    use rstest::rstest;
    use std::sync::Arc;

    fn t(p: u8, s: i8) -> DecimalType {
        DecimalType::try_new(p, s).unwrap()
    }

    #[test]
    fn non_decimal_arrays_are_rejected() {
        let ints = Int32Array::from(vec![1, 2]);
        let err = DecimalArray::from_arrow(&ints).unwrap_err();
        assert_eq!(err, DecimalError::NotDecimal { data_type: "Int32".into() });
        let err = add(&ints, &ints).unwrap_err();
        assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
    }

    /// A scalar operand without rows (which `Scalar::new` cannot build).
    struct EmptyScalar(Decimal128Array);

    impl Datum for EmptyScalar {
        fn get(&self) -> (&dyn Array, bool) {
            (&self.0, true)
        }
    }

    #[test]
    fn empty_scalar_is_an_error() {
        let empty = EmptyScalar(Decimal128Array::from(Vec::<i128>::new()));
        let one = Decimal128Array::from(vec![1]);
        let err = add(&one, &empty).unwrap_err();
        assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
    }

    #[test]
    fn scalar_with_a_null_is_null() {
        let one = Decimal128Array::from(vec![1, 2]);
        let null = Scalar::new(Decimal128Array::from(vec![None::<i128>]));
        let sum = add(&one, &null).unwrap();
        assert_eq!(sum.null_count(), 2);
    }

    /// The operand type pairs of the result-type checks: a result narrower
    /// than 32 bits, mixed and negative scales, the widest of Decimal128 (whose
    /// product scale Arrow rejects), and beyond it.
    fn type_pairs() -> [(DecimalType, DecimalType); 5] {
        [
            (t(2, 1), t(2, 1)),
            (t(9, 2), t(5, 3)),
            (t(18, -2), t(4, 4)),
            (t(38, 20), t(38, 20)),
            (t(76, 0), t(1, 0)),
        ]
    }

    /// The planned Arrow type is the type of what `binary` returns, and the
    /// planning fails exactly where `binary` does.
    #[rstest]
    fn result_data_type_is_the_type_binary_returns(
        #[values(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Rem)]
        op: BinaryOp,
        #[values(
            ArithmeticOptions::fixed_point(),
            ArithmeticOptions::arrow(StorageWidth::I32),
            ArithmeticOptions::arrow(StorageWidth::I64),
            ArithmeticOptions::arrow(StorageWidth::I128),
            ArithmeticOptions::arrow(StorageWidth::I256),
            ArithmeticOptions::spark(),
            ArithmeticOptions::spark_no_precision_loss(),
            ArithmeticOptions::presto()
        )]
        options: ArithmeticOptions,
    ) {
        for (lhs, rhs) in type_pairs() {
            let empty = |dtype| DecimalArray::from_strs(dtype, &[]).unwrap().to_arrow();
            let computed = binary(op, &empty(lhs), &empty(rhs), &options)
                .map(|result| result.data_type().clone());
            let (l, r) = (data_type(lhs, lhs.storage_width()), data_type(rhs, rhs.storage_width()));
            // The same type, or the same error (as the Arrow error `binary` returns).
            let planned = result_data_type(op, &l, &r, &options).map_err(ArrowError::from);
            let message = |e: ArrowError| e.to_string();
            assert_eq!(planned.map_err(message), computed.map_err(message), "{lhs} {op} {rhs}");
        }
    }

    #[test]
    fn result_data_type_of_a_non_decimal_is_an_error() {
        let options = ArithmeticOptions::default();
        let err = result_data_type(BinaryOp::Add, &DataType::Int32, &DataType::Int32, &options);
        assert_eq!(err, Err(DecimalError::NotDecimal { data_type: "Int32".into() }));
    }

    /// Each error becomes the Arrow variant arrow-rs uses for it, carrying
    /// this crate's message where the variant carries one.
    #[rstest]
    #[case::overflow(
        DecimalError::Overflow {
            row: 3,
            result_type: t(5, 2),
            op: BinaryOp::Add,
            lhs: "999.99".into(),
            rhs: "0.01".into()
        },
        ArrowError::ArithmeticOverflow
    )]
    #[case::unary_overflow(
        DecimalError::UnaryOverflow {
            row: 1,
            result_type: t(4, 2),
            op: UnaryOp::Rescale { to: t(4, 2) },
            value: "123.45".into()
        },
        ArrowError::ArithmeticOverflow
    )]
    #[case::divide_by_zero(
        DecimalError::DivideByZero { row: 3, lhs: "1.00".into() },
        |_| ArrowError::DivideByZero
    )]
    #[case::length_mismatch(
        DecimalError::LengthMismatch { expected: 2, actual: 3 },
        ArrowError::ComputeError
    )]
    #[case::parse(
        DecimalError::Parse { row: 0, text: "1.x".into(), dtype: t(5, 2), reason: "not a digit" },
        ArrowError::ParseError
    )]
    #[case::invalid_type(
        DecimalError::InvalidType { precision: 0, scale: 0 },
        ArrowError::InvalidArgumentError
    )]
    #[case::not_decimal(
        DecimalError::NotDecimal { data_type: "Utf8".into() },
        ArrowError::InvalidArgumentError
    )]
    fn decimal_errors_become_arrow_errors(
        #[case] error: DecimalError,
        #[case] variant: fn(String) -> ArrowError,
    ) {
        let want = variant(error.to_string());
        assert_eq!(format!("{:?}", ArrowError::from(error)), format!("{want:?}"));
    }

    fn scalar<A: Array + 'static>(array: A) -> Scalar<ArrayRef> {
        Scalar::new(Arc::new(array) as ArrayRef)
    }

    /// Every Arrow decimal width, and a value beyond its precision (kept as
    /// stored, as `DecimalArray::from_arrow` keeps it).
    #[rstest]
    #[case::decimal32(scalar(Decimal32Array::from(vec![-5]).with_precision_and_scale(3, 1).unwrap()), t(3, 1), -5)]
    #[case::decimal64(scalar(Decimal64Array::from(vec![7]).with_precision_and_scale(12, -2).unwrap()), t(12, -2), 7)]
    #[case::decimal128(scalar(Decimal128Array::from(vec![825]).with_precision_and_scale(5, 4).unwrap()), t(5, 4), 825)]
    #[case::decimal256(scalar(Decimal256Array::from(vec![i256::from_i128(-1)]).with_precision_and_scale(50, 0).unwrap()), t(50, 0), -1)]
    #[case::beyond_precision(scalar(Decimal128Array::from(vec![12_345]).with_precision_and_scale(2, 0).unwrap()), t(2, 0), 12_345)]
    fn scalar_from_arrow(
        #[case] datum: Scalar<ArrayRef>,
        #[case] dtype: DecimalType,
        #[case] stored: i128,
    ) {
        let got = DecimalScalar::from_arrow(&datum).unwrap();
        assert_eq!((got.dtype(), got.value()), (dtype, Some(i256::from_i128(stored))));
    }

    #[test]
    fn null_scalar_from_arrow_is_null() {
        let null = scalar(Decimal64Array::new_null(1).with_precision_and_scale(10, 2).unwrap());
        assert_eq!(DecimalScalar::from_arrow(&null), Ok(DecimalScalar::null(t(10, 2))));
    }

    #[rstest]
    #[case::one_row_array(Box::new(Decimal128Array::from(vec![1])), false, 1)]
    #[case::longer_array(Box::new(Decimal128Array::from(vec![1, 2, 3])), false, 3)]
    #[case::empty_scalar(Box::new(EmptyScalar(Decimal128Array::from(Vec::<i128>::new()))), true, 0)]
    fn scalar_from_arrow_needs_a_scalar(
        #[case] datum: Box<dyn Datum>,
        #[case] is_scalar: bool,
        #[case] rows: usize,
    ) {
        let err = DecimalScalar::from_arrow(datum.as_ref());
        assert_eq!(err, Err(DecimalError::NotScalar { is_scalar, rows }));
    }

    #[test]
    fn scalar_from_arrow_needs_a_decimal() {
        let err = DecimalScalar::from_arrow(&scalar(Int32Array::from(vec![1])));
        assert_eq!(err, Err(DecimalError::NotDecimal { data_type: "Int32".into() }));
    }
}
