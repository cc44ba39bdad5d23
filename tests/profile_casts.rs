//! `decimal_kernels::arrow::cast_with` held to the native casts
//! (`decimal_kernels::cast`, `rescale`) it runs: for every profile but
//! Arrow (FixedPoint under several rounding modes, Spark with and without
//! precision loss, Presto), both overflow policies, and every pair of an
//! Arrow decimal (each width, negative scales) with an Arrow decimal, an
//! integer, a float or a string type, the same values and nulls (in an
//! array of exactly the target type) or the same error, converted. Under
//! the Arrow profile, `cast_with` is `arrow::cast` with `safe` from the
//! policy: the same arrays and the same error texts. Named cases pin the
//! engines' behaviour and the policy's null or error.

include!("support/arrow_crates.rs");
#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, Decimal32Array, Float32Array, Float64Array, Int8Array,
    Int16Array, Int32Array, Int64Array, LargeStringArray, PrimitiveArray, StringArray,
    StringViewArray, UInt8Array, UInt16Array, UInt32Array, UInt64Array,
};
use arrow_buffer::i256;
use arrow_cast::CastOptions;
use arrow_schema::{ArrowError, DataType};
use decimal_kernels::cast::{self, CastFloat, CastInteger};
use decimal_kernels::{
    ArithmeticOptions, DecimalArray, DecimalError, OverflowPolicy, RoundingMode, StorageWidth,
    arrow,
};
use rstest::rstest;

use support::types::{checked_column, decimal128, pow10};

const POLICIES: [OverflowPolicy; 2] = [OverflowPolicy::Null, OverflowPolicy::Error];

/// Every profile but Arrow, FixedPoint under three rounding modes, each
/// with both overflow policies.
fn profiles() -> Vec<ArithmeticOptions> {
    let fixed = ArithmeticOptions::fixed_point();
    let all = [
        fixed,
        fixed.with_rounding(RoundingMode::HalfEven),
        fixed.with_rounding(RoundingMode::Floor),
        ArithmeticOptions::spark(),
        ArithmeticOptions::spark_no_precision_loss(),
        ArithmeticOptions::presto(),
    ];
    all.into_iter().flat_map(|o| POLICIES.map(|p| o.with_on_overflow(p))).collect()
}

/// The Arrow profile at each width, with both overflow policies.
fn arrow_profiles() -> Vec<ArithmeticOptions> {
    let widths = [StorageWidth::I32, StorageWidth::I64, StorageWidth::I128, StorageWidth::I256];
    widths
        .into_iter()
        .flat_map(|w| POLICIES.map(|p| ArithmeticOptions::arrow(w).with_on_overflow(p)))
        .collect()
}

/// The decimal types cast to and from, as Arrow types: each width, scales
/// negative, zero and up to the precision.
fn decimal_types() -> Vec<DataType> {
    use DataType::{Decimal32, Decimal64, Decimal128, Decimal256};
    vec![
        Decimal32(4, 1),
        Decimal32(9, 2),
        Decimal32(5, -2),
        Decimal64(18, 4),
        Decimal64(12, -3),
        Decimal128(10, 0),
        Decimal128(38, 10),
        Decimal128(20, -3),
        Decimal256(50, 20),
        Decimal256(76, 0),
        Decimal256(76, -10),
    ]
}

/// The integer, float and string types cast to and from.
fn other_types() -> Vec<DataType> {
    use DataType::*;
    vec![
        Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float32, Float64, Utf8,
        LargeUtf8, Utf8View,
    ]
}

/// Stored integers of `decimal(p, s)` at its edges: zero, units, ties at
/// a few digits, `10^k ± 1`, `±(10^p - 1)`, with both signs.
fn edge_values(p: u8) -> Vec<i256> {
    let max = pow10(p).wrapping_sub(i256::ONE);
    let mut v = vec![i256::ZERO, i256::ONE, max];
    for k in (0..p).step_by(usize::from(p / 6).max(1)) {
        let power = pow10(k);
        v.extend([power.wrapping_add(i256::ONE), power.wrapping_sub(i256::ONE)]);
        v.extend([5, 15, 25, 49].map(|m| power.wrapping_mul(i256::from_i128(m))));
    }
    let mut all: Vec<i256> = v.iter().flat_map(|&x| [x, x.wrapping_neg()]).collect();
    all.retain(|x| *x <= max && *x >= max.wrapping_neg());
    all
}

/// An Arrow decimal array of `data_type` holding its edge values and a null
/// row (whose stored value is not zero).
fn decimal_array(data_type: &DataType) -> ArrayRef {
    let (t, width) = arrow::decimal_type(data_type).expect("a test type");
    let mut values = edge_values(t.precision());
    values.insert(1, i256::ONE);
    let valid: Vec<bool> = (0..values.len()).map(|r| r != 1).collect();
    let array = checked_column(t, &values, &valid, width).to_arrow();
    assert_eq!(array.data_type(), data_type);
    array
}

/// Floats at their edges: zeros, a tie the double is not on (`9.95`,
/// `0.045`), ties, large and tiny magnitudes, NaN and infinities.
fn edge_floats() -> Vec<Option<f64>> {
    [
        0.0,
        -0.0,
        9.95,
        0.045,
        -2.5,
        0.5,
        123.456,
        -99.995,
        1e10,
        -1.25e17,
        1e30,
        1e75,
        f64::MAX,
        5e-324,
        1.0 / 3.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ]
    .into_iter()
    .map(Some)
    .chain([None])
    .collect()
}

/// Texts: whitespace, exponents, ties, malformed, beyond every precision.
const TEXTS: [Option<&str>; 12] = [
    Some(" 1.255 "),
    Some("-2e-3"),
    Some(".5"),
    None,
    Some("1E3"),
    Some("-1250"),
    Some("99.995"),
    Some("123456789012345678901234567890.5"),
    Some("1e40"),
    Some("abc"),
    Some("-0.05"),
    Some("7"),
];

/// An array of the integer, float or string type `data_type` with its
/// edge values and a null row.
fn other_array(data_type: &DataType) -> ArrayRef {
    fn ints<T: Copy>(extremes: [T; 6]) -> Vec<Option<T>> {
        extremes.into_iter().map(Some).chain([None]).collect()
    }
    let floats = edge_floats();
    match data_type {
        DataType::Int8 => Arc::new(Int8Array::from(ints([i8::MIN, -100, -5, 0, 99, i8::MAX]))),
        DataType::Int16 => {
            Arc::new(Int16Array::from(ints([i16::MIN, -9_999, -1, 15, 10_000, i16::MAX])))
        }
        DataType::Int32 => {
            Arc::new(Int32Array::from(ints([i32::MIN, -999_999_999, -1, 0, 250, i32::MAX])))
        }
        DataType::Int64 => Arc::new(Int64Array::from(ints([
            i64::MIN,
            -(1 << 53) - 1,
            -1250,
            1,
            1 << 53,
            i64::MAX,
        ]))),
        DataType::UInt8 => Arc::new(UInt8Array::from(ints([0, 1, 5, 100, 128, u8::MAX]))),
        DataType::UInt16 => {
            Arc::new(UInt16Array::from(ints([0, 1, 9_999, 10_000, 32_768, u16::MAX])))
        }
        DataType::UInt32 => {
            Arc::new(UInt32Array::from(ints([0, 1, 1250, 999_999_999, 1 << 31, u32::MAX])))
        }
        DataType::UInt64 => Arc::new(UInt64Array::from(ints([
            0,
            1,
            1 << 53,
            (1 << 63) + 5,
            u64::MAX - 1,
            u64::MAX,
        ]))),
        #[expect(clippy::cast_possible_truncation, reason = "the f32 nearest each edge")]
        DataType::Float32 => Arc::new(Float32Array::from(
            floats.iter().map(|x| x.map(|x| x as f32)).collect::<Vec<_>>(),
        )),
        DataType::Float64 => Arc::new(Float64Array::from(floats)),
        DataType::Utf8 => Arc::new(StringArray::from(TEXTS.to_vec())),
        DataType::LargeUtf8 => Arc::new(LargeStringArray::from(TEXTS.to_vec())),
        DataType::Utf8View => Arc::new(StringViewArray::from(TEXTS.to_vec())),
        other => panic!("no test array of {other}"),
    }
}

/// What the native cast gives: decimals (compared by type, text and
/// nulls) or an Arrow array of a non-decimal type.
enum Native {
    Decimals(DecimalArray),
    Array(ArrayRef),
}

fn primitive<A: ArrowPrimitiveType>(
    rows: decimal_kernels::NullableBuffer<arrow_buffer::ScalarBuffer<A::Native>>,
) -> Native {
    let (values, nulls) = rows.into_parts();
    Native::Array(Arc::new(PrimitiveArray::<A>::new(values, nulls)))
}

fn from_integer<A: ArrowPrimitiveType>(
    array: &dyn Array,
    to_type: &DataType,
    options: &ArithmeticOptions,
) -> Result<Native, DecimalError>
where
    A::Native: CastInteger,
{
    let (to, _) = arrow::decimal_type(to_type)?;
    let integers = array.as_primitive::<A>();
    let cast =
        cast::from_integer(integers.values().clone(), integers.nulls().cloned(), to, options);
    cast.map(Native::Decimals)
}

fn from_float<A: ArrowPrimitiveType>(
    array: &dyn Array,
    to_type: &DataType,
    options: &ArithmeticOptions,
) -> Result<Native, DecimalError>
where
    A::Native: CastFloat,
{
    let (to, _) = arrow::decimal_type(to_type)?;
    let floats = array.as_primitive::<A>();
    cast::from_float(floats.values().clone(), floats.nulls().cloned(), to, options)
        .map(Native::Decimals)
}

/// The texts `cast::format` writes for `decimals`.
fn texts(decimals: &DecimalArray) -> Vec<Option<String>> {
    let mut texts = Vec::new();
    cast::format(decimals, |text| texts.push(text.map(String::from)));
    texts
}

/// The native cast of `array` to `to_type` under `options`, called
/// directly: `rescale` and the functions of `decimal_kernels::cast`.
fn native(
    array: &dyn Array,
    to_type: &DataType,
    options: &ArithmeticOptions,
) -> Result<Native, DecimalError> {
    use DataType::*;
    if let Ok(decimals) = DecimalArray::from_arrow(array) {
        let o = options;
        return Ok(match to_type {
            Int8 => primitive::<Int8Type>(cast::to_integer::<i8>(&decimals, o)?),
            Int16 => primitive::<Int16Type>(cast::to_integer::<i16>(&decimals, o)?),
            Int32 => primitive::<Int32Type>(cast::to_integer::<i32>(&decimals, o)?),
            Int64 => primitive::<Int64Type>(cast::to_integer::<i64>(&decimals, o)?),
            UInt8 => primitive::<UInt8Type>(cast::to_integer::<u8>(&decimals, o)?),
            UInt16 => primitive::<UInt16Type>(cast::to_integer::<u16>(&decimals, o)?),
            UInt32 => primitive::<UInt32Type>(cast::to_integer::<u32>(&decimals, o)?),
            UInt64 => primitive::<UInt64Type>(cast::to_integer::<u64>(&decimals, o)?),
            Float32 => primitive::<Float32Type>(cast::to_float::<f32>(&decimals, o)?),
            Float64 => primitive::<Float64Type>(cast::to_float::<f64>(&decimals, o)?),
            Utf8 => Native::Array(Arc::new(StringArray::from(texts(&decimals)))),
            LargeUtf8 => Native::Array(Arc::new(LargeStringArray::from(texts(&decimals)))),
            Utf8View => Native::Array(Arc::new(StringViewArray::from(texts(&decimals)))),
            _ => {
                let (to, _) = arrow::decimal_type(to_type)?;
                Native::Decimals(decimal_kernels::rescale(&decimals, to, o)?)
            }
        });
    }
    match array.data_type() {
        Int8 => from_integer::<Int8Type>(array, to_type, options),
        Int16 => from_integer::<Int16Type>(array, to_type, options),
        Int32 => from_integer::<Int32Type>(array, to_type, options),
        Int64 => from_integer::<Int64Type>(array, to_type, options),
        UInt8 => from_integer::<UInt8Type>(array, to_type, options),
        UInt16 => from_integer::<UInt16Type>(array, to_type, options),
        UInt32 => from_integer::<UInt32Type>(array, to_type, options),
        UInt64 => from_integer::<UInt64Type>(array, to_type, options),
        Float32 => from_float::<Float32Type>(array, to_type, options),
        Float64 => from_float::<Float64Type>(array, to_type, options),
        from => {
            let (to, _) = arrow::decimal_type(to_type)?;
            let parsed = match from {
                Utf8 => cast::parse(array.as_string::<i32>().iter(), to, options),
                LargeUtf8 => cast::parse(array.as_string::<i64>().iter(), to, options),
                _ => cast::parse(array.as_string_view().iter(), to, options),
            };
            parsed.map(Native::Decimals)
        }
    }
}

/// `cast_with` of `array` to `to_type` under `options` is the native cast:
/// an array of exactly `to_type` with the same values and nulls (a null
/// input row among them), or the native error converted. Returns the
/// valid rows of the result (0 for an error).
#[track_caller]
fn assert_native(array: &dyn Array, to_type: &DataType, options: &ArithmeticOptions) -> usize {
    let got = arrow::cast_with(array, to_type, options).map_err(|e| format!("{e:?}"));
    assert_native_cast(array, to_type, options, got)
}

/// [`assert_native`] of a cast `got` made otherwise (a plan's run), its
/// error as debug text.
#[track_caller]
fn assert_native_cast(
    array: &dyn Array,
    to_type: &DataType,
    options: &ArithmeticOptions,
    got: Result<ArrayRef, String>,
) -> usize {
    let context = format!("{} to {to_type} under {options:?}", array.data_type());
    match (got, native(array, to_type, options)) {
        (Ok(got), Ok(want)) => {
            assert_eq!(got.data_type(), to_type, "{context}");
            for row in (0..array.len()).filter(|&r| array.is_null(r)) {
                assert!(got.is_null(row), "{context}: null row {row}");
            }
            match want {
                Native::Decimals(want) => {
                    let got = DecimalArray::from_arrow(got.as_ref()).expect("a decimal array");
                    assert_eq!(got.to_strs(), want.to_strs(), "{context}");
                }
                Native::Array(want) => assert_eq!(got.to_data(), want.to_data(), "{context}"),
            }
            got.len() - got.null_count()
        }
        (Err(got), Err(want)) => {
            let want = ArrowError::from(want);
            assert_eq!(got, format!("{want:?}"), "{context}");
            0
        }
        (got, want) => {
            let want = want.map(|_| "an array");
            panic!("{context}: cast_with {got:?}, native {want:?}");
        }
    }
}

/// How many calls of a matrix returned an array, and how many of their
/// rows were values: a matrix whose calls mostly fail, or mostly null
/// their rows, would compare little.
#[derive(Default)]
struct Outcomes {
    calls: usize,
    arrays: usize,
    rows: usize,
    values: usize,
}

impl Outcomes {
    fn record(&mut self, valid: usize, rows: usize) {
        self.calls += 1;
        if valid > 0 {
            self.arrays += 1;
            self.rows += rows;
            self.values += valid;
        }
    }

    #[track_caller]
    fn assert_mostly_values(&self) {
        let Self { calls, arrays, rows, values } = *self;
        assert!(
            2 * arrays > calls && 3 * values > rows,
            "{arrays} arrays of {calls} calls, {values} values of {rows} rows"
        );
    }
}

/// Every cast from each of `from` (made by `array_of`) to each of `to`,
/// under every profile, is the native cast; most give values. Each runs
/// twice: as `cast_with`, and as one [`arrow::CastPlan`] made for the pair
/// and run on the rows in two batches (a plan decides from the types alone,
/// so each batch is the native cast of its own rows).
#[track_caller]
fn assert_native_for_every_pair(
    from: &[DataType],
    array_of: fn(&DataType) -> ArrayRef,
    to: &[DataType],
) {
    let mut outcomes = Outcomes::default();
    for from in from {
        let array = array_of(from);
        let half = array.len() / 2;
        let batches = [array.slice(0, half), array.slice(half, array.len() - half)];
        for to in to {
            for options in profiles() {
                let valid = assert_native(array.as_ref(), to, &options);
                outcomes.record(valid, array.len());
                let plan = arrow::CastPlan::with_profile(from, to, &options);
                for batch in &batches {
                    // A pair the plan refuses fails each batch's cast alike.
                    let got = match &plan {
                        Ok(plan) => plan.run(batch.as_ref()).map_err(|e| format!("{e:?}")),
                        Err(e) => Err(format!("{e:?}")),
                    };
                    assert_native_cast(batch.as_ref(), to, &options, got);
                }
            }
        }
    }
    outcomes.assert_mostly_values();
}

#[test]
fn decimal_to_decimal_is_rescale_under_every_profile() {
    assert_native_for_every_pair(&decimal_types(), decimal_array, &decimal_types());
}

#[test]
fn decimal_to_integers_floats_and_strings_is_the_native_cast() {
    assert_native_for_every_pair(&decimal_types(), decimal_array, &other_types());
}

#[test]
fn integers_floats_and_strings_to_decimal_is_the_native_cast() {
    assert_native_for_every_pair(&other_types(), other_array, &decimal_types());
}

/// `cast_with` under `options` (an Arrow profile) and `arrow::cast` with
/// `safe` from its policy: the same array, or the same error and text.
#[track_caller]
fn assert_as_cast(array: &dyn Array, to_type: &DataType, options: &ArithmeticOptions) {
    let safe = options.on_overflow() == OverflowPolicy::Null;
    let cast_options = CastOptions { safe, ..CastOptions::default() };
    let got = arrow::cast_with(array, to_type, options);
    let want = arrow::cast(array, to_type, &cast_options);
    let context = format!("{} to {to_type} under {options:?}", array.data_type());
    match (got, want) {
        (Ok(got), Ok(want)) => assert_eq!(got.to_data(), want.to_data(), "{context}"),
        (got, want) => {
            let debug =
                |r: Result<ArrayRef, ArrowError>| r.map(|_| ()).map_err(|e| format!("{e:?}"));
            assert_eq!(debug(got), debug(want), "{context}");
        }
    }
}

#[test]
fn the_arrow_profile_is_arrow_cast_with_safe_from_the_policy() {
    let mut sources: Vec<ArrayRef> = decimal_types().iter().map(decimal_array).collect();
    sources.extend(other_types().iter().map(other_array));
    let mut targets = decimal_types();
    targets.extend(other_types());
    for options in arrow_profiles() {
        for array in &sources {
            for to in &targets {
                assert_as_cast(array.as_ref(), to, &options);
            }
        }
    }
}

/// A `Float16` array of `values` (exact in `f16`).
fn float16(values: &[Option<f32>]) -> ArrayRef {
    let floats = Float32Array::from(values.to_vec());
    arrow_cast::cast(&floats, &DataType::Float16).expect("a Float16 array")
}

#[rstest]
#[case::int_to_int(other_array(&DataType::Int64), DataType::Int8)]
#[case::text_to_int(other_array(&DataType::Utf8), DataType::Int32)]
#[case::float_to_text(other_array(&DataType::Float64), DataType::Utf8)]
#[case::decimal_to_float16(decimal_array(&DataType::Decimal128(38, 10)), DataType::Float16)]
#[case::float16_to_decimal(float16(&[Some(1.5), None, Some(-0.125)]), DataType::Decimal64(10, 2))]
fn other_pairs_are_arrow_cast_with_safe_from_the_policy(
    #[case] array: ArrayRef,
    #[case] to: DataType,
) {
    for options in profiles().iter().chain(&arrow_profiles()) {
        let safe = options.on_overflow() == OverflowPolicy::Null;
        let cast_options = CastOptions { safe, ..CastOptions::default() };
        let got = arrow::cast_with(array.as_ref(), &to, options);
        let want = arrow_cast::cast_with_options(array.as_ref(), &to, &cast_options);
        let context = format!("{} to {to} under {options:?}", array.data_type());
        match (got, want) {
            (Ok(got), Ok(want)) => assert_eq!(got.to_data(), want.to_data(), "{context}"),
            (got, want) => {
                let message =
                    |r: Result<ArrayRef, ArrowError>| r.map(|_| ()).map_err(|e| e.to_string());
                assert_eq!(message(got), message(want), "{context}");
            }
        }
    }
}

/// The stored values of an Arrow decimal array of `data_type` cast from
/// `array`, `None` for a null row.
#[track_caller]
fn stored(array: &ArrayRef, data_type: &DataType) -> Vec<Option<String>> {
    assert_eq!(array.data_type(), data_type);
    DecimalArray::from_arrow(array.as_ref()).expect("a decimal array").to_strs()
}

const SPARK_ANSI: ArithmeticOptions =
    ArithmeticOptions::spark().with_on_overflow(OverflowPolicy::Error);

/// Each engine's casts, at each Arrow width of the target.
#[rstest]
#[case::spark_float_reads_the_shortest_text(
    Arc::new(Float64Array::from(vec![Some(9.95), None, Some(-0.045)])),
    DataType::Decimal32(3, 1),
    ArithmeticOptions::spark(),
    &[Some("10.0"), None, Some("0.0")]
)]
#[case::spark_float_at_two_digits(
    Arc::new(Float64Array::from(vec![0.045, -2.5])),
    DataType::Decimal64(4, 2),
    ArithmeticOptions::spark(),
    &[Some("0.05"), Some("-2.50")]
)]
#[case::fixed_point_float_reads_the_exact_value(
    Arc::new(Float64Array::from(vec![9.95, 0.045])),
    DataType::Decimal128(3, 2),
    ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfUp),
    &[Some("9.95"), Some("0.04")]
)]
#[case::presto_text_half_up(
    Arc::new(StringArray::from(vec![Some("1.255"), Some("-1.255"), None])),
    DataType::Decimal256(40, 2),
    ArithmeticOptions::presto(),
    &[Some("1.26"), Some("-1.26"), None]
)]
#[case::fixed_point_text_floor(
    Arc::new(StringArray::from(vec![Some("1.255"), Some("-1.255")])),
    DataType::Decimal32(5, 2),
    ArithmeticOptions::fixed_point().with_rounding(RoundingMode::Floor),
    &[Some("1.25"), Some("-1.26")]
)]
#[case::integer_to_negative_scale_fixed_point(
    Arc::new(Int64Array::from(vec![1250, -1250])),
    DataType::Decimal64(10, -2),
    ArithmeticOptions::fixed_point(),
    &[Some("1200"), Some("-1200")]
)]
#[case::integer_to_negative_scale_spark(
    Arc::new(Int64Array::from(vec![1250, -1250])),
    DataType::Decimal64(10, -2),
    ArithmeticOptions::spark(),
    &[Some("1300"), Some("-1300")]
)]
#[case::decimal_half_even_at_decimal256(
    Arc::new(decimal128(&[Some(125), Some(135), Some(-125), None], 10, 2)),
    DataType::Decimal256(60, 1),
    ArithmeticOptions::fixed_point().with_rounding(RoundingMode::HalfEven),
    &[Some("1.2"), Some("1.4"), Some("-1.2"), None]
)]
#[case::spark_rescale_to_decimal32(
    Arc::new(decimal128(&[Some(-1_255), Some(99_995), None], 10, 3)),
    DataType::Decimal32(4, 2),
    ArithmeticOptions::spark(),
    &[Some("-1.26"), None, None]
)]
#[case::fixed_point_narrowest_storage_to_decimal32(
    Arc::new(Int8Array::from(vec![Some(-9), None, Some(10)])),
    DataType::Decimal32(2, 1),
    ArithmeticOptions::fixed_point().with_on_overflow(OverflowPolicy::Null),
    &[Some("-9.0"), None, None]
)]
#[case::fixed_point_narrowest_storage_to_decimal64(
    Arc::new(Int8Array::from(vec![-9, 9])),
    DataType::Decimal64(2, 1),
    ArithmeticOptions::fixed_point(),
    &[Some("-9.0"), Some("9.0")]
)]
#[case::to_negative_scale_decimal32(
    Arc::new(decimal128(&[Some(12_345), Some(-12_355)], 10, 1)),
    DataType::Decimal32(5, -1),
    ArithmeticOptions::spark(),
    &[Some("1230"), Some("-1240")]
)]
fn engine_casts(
    #[case] array: ArrayRef,
    #[case] to: DataType,
    #[case] options: ArithmeticOptions,
    #[case] want: &[Option<&str>],
) {
    let got = arrow::cast_with(array.as_ref(), &to, &options).expect("a cast");
    let want: Vec<Option<String>> = want.iter().map(|t| t.map(String::from)).collect();
    assert_eq!(stored(&got, &to), want);
    assert_native(array.as_ref(), &to, &options);
}

/// Decimals to integers by each engine's rounding.
#[rstest]
#[case::spark_truncates(ArithmeticOptions::spark(), &[Some(2), Some(-2), Some(0), None])]
#[case::presto_half_away(ArithmeticOptions::presto(), &[Some(3), Some(-3), Some(-1), None])]
#[case::fixed_point_floor(
    ArithmeticOptions::fixed_point().with_rounding(RoundingMode::Floor),
    &[Some(2), Some(-3), Some(-1), None]
)]
#[case::arrow_truncates(ArithmeticOptions::arrow(StorageWidth::I64), &[Some(2), Some(-2), Some(0), None])]
fn decimal_to_int32(#[case] options: ArithmeticOptions, #[case] want: &[Option<i32>]) {
    let a = decimal128(&[Some(25), Some(-25), Some(-5), None], 5, 1);
    let got = arrow::cast_with(&a, &DataType::Int32, &options).expect("fits");
    assert_eq!(got.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(), want);
}

/// A value that does not fit: a null row under `Null`, the first failing
/// row's error under `Error`, naming it and its value.
#[rstest]
#[case::decimal_to_decimal(
    Arc::new(decimal128(&[Some(1), Some(1_234_567)], 10, 2)),
    DataType::Decimal32(4, 1),
    "row 1",
    "12345.67"
)]
#[case::decimal_to_int8(
    Arc::new(decimal128(&[None, Some(1), Some(-12_950)], 10, 2)),
    DataType::Int8,
    "row 2",
    "-129.50"
)]
#[case::integer_to_decimal(
    Arc::new(Int32Array::from(vec![Some(99), Some(100)])),
    DataType::Decimal32(3, 1),
    "row 1",
    "100"
)]
#[case::nan_to_decimal(
    Arc::new(Float64Array::from(vec![1.0, f64::NAN])),
    DataType::Decimal128(10, 2),
    "row 1",
    "NaN"
)]
#[case::text_to_decimal(
    Arc::new(StringArray::from(vec![Some("1"), None, Some("abc")])),
    DataType::Decimal256(40, 2),
    "row 2",
    "abc"
)]
fn overflow_is_null_or_error_by_policy(
    #[case] array: ArrayRef,
    #[case] to: DataType,
    #[case] row: &str,
    #[case] value: &str,
) {
    let failing: usize = row.trim_start_matches("row ").parse().expect("a row");
    let lenient =
        arrow::cast_with(array.as_ref(), &to, &ArithmeticOptions::spark()).expect("nulls");
    assert_eq!(lenient.data_type(), &to);
    assert!(lenient.is_null(failing), "{lenient:?}");
    assert_eq!(lenient.null_count(), array.null_count() + 1);
    let err = arrow::cast_with(array.as_ref(), &to, &SPARK_ANSI).expect_err("fails");
    let message = err.to_string();
    assert!(message.contains(row) && message.contains(value), "{message}");
}

/// A decimal target its Arrow width cannot have fails as arrow-rs does,
/// before any row; so does one below this crate's scales.
#[rstest]
#[case::too_many_digits(DataType::Decimal32(10, 2))]
#[case::scale_above_precision(DataType::Decimal64(5, 6))]
fn invalid_decimal_targets_are_refused(#[case] to: DataType) {
    let sources: [ArrayRef; 3] = [
        Arc::new(decimal128(&[Some(1)], 10, 2)),
        Arc::new(Int32Array::from(vec![1])),
        Arc::new(StringArray::from(vec!["1"])),
    ];
    for array in sources {
        let err = arrow::cast_with(array.as_ref(), &to, &ArithmeticOptions::spark())
            .expect_err("refused");
        assert!(matches!(err, ArrowError::InvalidArgumentError(_)), "{err}");
    }
}

/// Results in Decimal32 are stored there (the profile's `i128` converted):
/// the array is a `Decimal32Array`, not only typed so.
#[test]
fn a_spark_result_is_stored_at_the_target_width() {
    let a = decimal128(&[Some(-1_255), None], 10, 3);
    let got = arrow::cast_with(&a, &DataType::Decimal32(4, 2), &ArithmeticOptions::spark())
        .expect("fits");
    let got = got.as_any().downcast_ref::<Decimal32Array>().expect("a Decimal32Array");
    assert_eq!((got.value(0), got.is_null(1)), (-126, true));
}

/// A sliced input (an offset into its buffers) casts its own rows.
#[rstest]
#[case::decimal_to_decimal(decimal_array(&DataType::Decimal64(18, 4)), DataType::Decimal32(9, 2))]
#[case::decimal_to_int16(decimal_array(&DataType::Decimal128(20, -3)), DataType::Int16)]
#[case::integers_to_decimal(other_array(&DataType::UInt64), DataType::Decimal128(25, 3))]
#[case::floats_to_decimal(other_array(&DataType::Float32), DataType::Decimal256(60, 30))]
#[case::texts_to_decimal(other_array(&DataType::Utf8View), DataType::Decimal64(12, 2))]
fn sliced_inputs_cast_their_rows(#[case] array: ArrayRef, #[case] to: DataType) {
    let sliced = array.slice(2, array.len() - 3);
    for options in profiles() {
        assert_native(sliced.as_ref(), &to, &options);
        let whole = arrow::cast_with(array.as_ref(), &to, &options);
        if let (Ok(whole), Ok(part)) = (whole, arrow::cast_with(sliced.as_ref(), &to, &options)) {
            assert_eq!(part.to_data(), whole.slice(2, array.len() - 3).to_data(), "{options:?}");
        }
    }
}
