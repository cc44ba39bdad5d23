//! Casts between decimals and integers or floats (`decimal_kernels::cast`)
//! held to the exact reference (`conformance::reference_{to,from}_{integer,float}`):
//! every profile (FixedPoint under each rounding mode, Arrow at each width,
//! Spark, Presto), both overflow policies, types of 1 to 76 digits with
//! negative scales, every storage width that holds them, all eight integer
//! types at their extremes, and floats at their edges (subnormals,
//! `2^53 ± 1`, powers of ten, values just beside a rounding tie, 0.1, -0.0,
//! NaN, infinities). Named cases pin the engines' published behaviour.

include!("support/arrow_crates.rs");
#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use arrow_buffer::{NullBuffer, ScalarBuffer, i256};
use decimal_kernels::cast::{self, CastFloat, CastInteger};
use decimal_kernels::{
    ArithmeticOptions, DecimalArray, DecimalError, DecimalType, NullableBuffer, OverflowPolicy,
    RoundingMode, StorageWidth, conformance,
};
use rstest::rstest;

use support::types::{checked_column, dec, pow10, widths_holding};

/// Every profile, FixedPoint under each rounding mode, each with both
/// overflow policies.
fn profiles() -> Vec<ArithmeticOptions> {
    let mut all: Vec<ArithmeticOptions> =
        RoundingMode::ALL.map(|m| ArithmeticOptions::fixed_point().with_rounding(m)).to_vec();
    all.extend(
        [StorageWidth::I64, StorageWidth::I128, StorageWidth::I256].map(ArithmeticOptions::arrow),
    );
    all.extend([ArithmeticOptions::spark(), ArithmeticOptions::spark_no_precision_loss()]);
    all.push(ArithmeticOptions::presto());
    let policies = [OverflowPolicy::Null, OverflowPolicy::Error];
    all.into_iter().flat_map(|o| policies.map(|p| o.with_on_overflow(p))).collect()
}

/// Source and target types: precision 1 to 76, scales negative, zero and
/// up to the precision.
fn types() -> Vec<DecimalType> {
    [
        (1, 0),
        (2, 1),
        (3, -2),
        (5, 2),
        (9, 9),
        (10, 0),
        (18, 4),
        (19, 0),
        (20, 1),
        (24, 5),
        (25, 24),
        (30, -3),
        (38, 10),
        (38, 37),
        (39, 3),
        (50, 25),
        (76, 0),
        (76, 40),
        (76, -20),
        (76, 76),
    ]
    .map(|(p, s)| dec(p, s))
    .to_vec()
}

/// Stored integers of `t` at its edges: zero, units, ties at every digit,
/// `10^k ± 1`, `2^53 ± 1`, the bounds of the integer types at the type's
/// scale, and `±(10^p - 1)`.
fn edge_values(t: DecimalType) -> Vec<i256> {
    let p = t.precision();
    let max = pow10(p).wrapping_sub(i256::ONE);
    let mut v = vec![i256::ZERO, i256::ONE, max];
    for k in 0..p {
        let power = pow10(k);
        v.extend([power, power.wrapping_add(i256::ONE), power.wrapping_sub(i256::ONE)]);
        v.push(power.wrapping_mul(i256::from_i128(5))); // a tie one digit up
        v.push(power.wrapping_mul(i256::from_i128(25)));
        v.push(power.wrapping_mul(i256::from_i128(15)));
    }
    for bits in [24u32, 53, 63, 64] {
        let two = i256::from_i128(1i128 << bits);
        v.extend([two, two.wrapping_add(i256::ONE), two.wrapping_sub(i256::ONE)]);
    }
    // The integer types' bounds (and one beyond) at the type's scale.
    if let Ok(s) = u8::try_from(t.scale()) {
        for bound in [
            127i128,
            128,
            255,
            256,
            32_767,
            65_535,
            i128::from(i32::MAX),
            i128::from(u32::MAX),
            i128::from(i64::MAX),
            i128::from(u64::MAX),
        ] {
            let scaled = i256::from_i128(bound).wrapping_mul(pow10(s));
            v.extend([scaled, scaled.wrapping_add(i256::ONE), scaled.wrapping_add(pow10(s))]);
            if s > 0 {
                let half = pow10(s - 1).wrapping_mul(i256::from_i128(5));
                v.extend([scaled.wrapping_add(half), scaled.wrapping_sub(half)]);
            }
        }
    }
    let mut all: Vec<i256> = v.iter().flat_map(|&x| [x, x.wrapping_neg()]).collect();
    all.retain(|x| *x <= max && *x >= max.wrapping_neg());
    all
}

/// `t`'s edge values as columns at every width that holds `t`, a null row
/// among them.
fn columns(t: DecimalType) -> Vec<DecimalArray> {
    let mut values = edge_values(t);
    values.push(i256::ZERO);
    let valid: Vec<bool> = (0..values.len()).map(|r| r + 1 != values.len()).collect();
    widths_holding(t).map(|w| checked_column(t, &values, &valid, w)).collect()
}

/// Two outcomes of a cast are the same: the same error, or the same values
/// (bits for floats) and validity.
#[track_caller]
fn assert_same<V: arrow_buffer::ArrowNativeType>(
    got: &Result<NullableBuffer<ScalarBuffer<V>>, DecimalError>,
    want: &Result<NullableBuffer<ScalarBuffer<V>>, DecimalError>,
    map: impl Fn(&V) -> String,
    context: &str,
) {
    match (got, want) {
        (Ok(g), Ok(w)) => {
            assert_eq!(g.values().len(), w.values().len(), "{context}");
            for row in 0..w.values().len() {
                let (gv, wv) = (g.get(row).as_ref().map(&map), w.get(row).as_ref().map(&map));
                assert_eq!(gv, wv, "{context}: row {row}");
            }
        }
        _ => assert_eq!(got, want, "{context}"),
    }
}

fn check_to_integer<T: CastInteger + core::fmt::Debug>(
    column: &DecimalArray,
    options: &ArithmeticOptions,
) {
    let got = cast::to_integer::<T>(column, options);
    let want = conformance::reference_to_integer::<T>(column, options);
    let context =
        format!("{} at {:?} to {} under {options:?}", column.dtype(), column.width(), T::NAME);
    assert_same(&got, &want, |v| format!("{v:?}"), &context);
}

#[test]
fn decimal_to_every_integer_type_matches_the_reference() {
    for t in types() {
        for column in columns(t) {
            for options in profiles() {
                check_to_integer::<i8>(&column, &options);
                check_to_integer::<i16>(&column, &options);
                check_to_integer::<i32>(&column, &options);
                check_to_integer::<i64>(&column, &options);
                check_to_integer::<u8>(&column, &options);
                check_to_integer::<u16>(&column, &options);
                check_to_integer::<u32>(&column, &options);
                check_to_integer::<u64>(&column, &options);
            }
        }
    }
}

/// `T`'s extremes and a few values between, a null row last.
fn integers<T: CastInteger>(extremes: &[T]) -> (Vec<T>, NullBuffer) {
    let values = extremes.to_vec();
    let valid: Vec<bool> = (0..values.len()).map(|r| r + 1 != values.len()).collect();
    (values, NullBuffer::from(valid))
}

fn check_from_integer<T: CastInteger>(extremes: &[T]) {
    let (values, nulls) = integers(extremes);
    for to in types() {
        for options in profiles() {
            let got = cast::from_integer(values.clone(), Some(nulls.clone()), to, &options);
            let want = conformance::reference_from_integer(&values, Some(&nulls), to, &options);
            assert_eq!(got, want, "{} to {to} under {options:?}", T::NAME);
        }
    }
}

#[test]
fn every_integer_type_to_decimal_matches_the_reference() {
    check_from_integer(&[i8::MIN, -100, -5, -1, 0, 1, 5, 99, 100, i8::MAX, 0]);
    check_from_integer(&[i16::MIN, -9_999, -1, 0, 1, 15, 9_999, 10_000, i16::MAX, 0]);
    check_from_integer(&[i32::MIN, -999_999_999, -1, 0, 1, 250, 999_999_999, i32::MAX, 0]);
    check_from_integer(&[
        i64::MIN,
        i64::MIN + 1,
        -(1 << 53) - 1,
        -1,
        0,
        1,
        1 << 53,
        999_999_999_999_999_999,
        i64::MAX,
        0,
    ]);
    check_from_integer(&[0u8, 1, 5, 99, 100, 128, u8::MAX, 0]);
    check_from_integer(&[0u16, 1, 9_999, 10_000, 32_768, u16::MAX, 0]);
    check_from_integer(&[0u32, 1, 999_999_999, 1 << 31, u32::MAX, 0]);
    check_from_integer(&[0u64, 1, 1 << 53, (1 << 63) + 5, u64::MAX - 1, u64::MAX, 0]);
}

fn check_to_float<F: CastFloat + core::fmt::Debug>(
    column: &DecimalArray,
    bits: impl Fn(&F) -> String,
) {
    let options = ArithmeticOptions::default();
    let got = cast::to_float::<F>(column, &options);
    let want = conformance::reference_to_float::<F>(column, &options);
    let context = format!("{} at {:?} to {}", column.dtype(), column.width(), F::NAME);
    assert_same(&got, &want, bits, &context);
}

#[test]
fn decimal_to_float_is_the_nearest_float() {
    for t in types() {
        for column in columns(t) {
            check_to_float::<f64>(&column, |v| format!("{:#x}", v.to_bits()));
            check_to_float::<f32>(&column, |v| format!("{:#x}", v.to_bits()));
        }
    }
}

/// Floats at their edges: zero of both signs, subnormals, the normal
/// boundary, `2^53 ± 1`, powers of ten and their neighbours, ties at a
/// digit (`x.5`, `x.x5`) and the floats just beside them, the largest
/// finite, infinities and NaN.
fn edge_floats() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        5e-324,
        1e-323,
        2.225_073_858_507_201e-308,
        f64::MIN_POSITIVE,
        0.1,
        0.2,
        0.3,
        0.5,
        1.5,
        2.5,
        9.95,
        0.125,
        0.045,
        1.005,
        2.675,
        123.456,
        99.995,
        1e-7,
        9_007_199_254_740_991.0,
        9_007_199_254_740_992.0,
        9_007_199_254_740_994.0,
        f64::from(f32::MAX),
        f64::from(f32::MIN_POSITIVE),
        1.0 / 3.0,
        f64::MAX,
        f64::INFINITY,
        f64::NAN,
    ];
    for k in -30..=40 {
        let power = 10f64.powi(k);
        v.extend([power, power.next_up(), power.next_down(), 5.0 * power, (5.0 * power).next_up()]);
    }
    for x in [0.5, 2.5, 0.05, 0.25, 1.25, 9.5] {
        v.extend([x, f64::next_up(x), f64::next_down(x)]);
    }
    v.iter().flat_map(|&x| [x, -x]).collect()
}

#[test]
fn float_to_decimal_matches_the_reference() {
    let floats = edge_floats();
    let mut nulls: Vec<bool> = vec![true; floats.len()];
    nulls[3] = false;
    let nulls = NullBuffer::from(nulls);
    let singles: Vec<f32> = floats.iter().map(|&x| x as f32).collect();
    for to in types() {
        for options in profiles() {
            let got = cast::from_float(floats.clone(), Some(nulls.clone()), to, &options);
            let want = conformance::reference_from_float(&floats, Some(&nulls), to, &options);
            assert_eq!(got, want, "f64 to {to} under {options:?}");
            let got = cast::from_float(singles.clone(), Some(nulls.clone()), to, &options);
            let want = conformance::reference_from_float(&singles, Some(&nulls), to, &options);
            assert_eq!(got, want, "f32 to {to} under {options:?}");
        }
    }
}

/// Floats at the edges of `from_float`'s 64-bit path (`2^-11 <= |x| <
/// 2^52`, scales 0 to 19, magnitudes within `i64`): exact ties at scales 0
/// to 19 (`odd * 2^-(s+1)`, times `10^s` a half) and the floats one ulp
/// beside them, both ends of the exponent range, products just beside
/// `2^63` and `2^64`, and cents as the nearest doubles.
fn fast_path_floats() -> Vec<f64> {
    let mut v = Vec::new();
    let mut beside = |x: f64| v.extend([x, x.next_up(), x.next_down()]);
    for s in 0..=19 {
        let tie = 2f64.powi(-(s + 1));
        for odd in [1.0, 3.0, 5.0, 7.0, 1023.0] {
            beside(odd * tie);
        }
        let p = 10f64.powi(s);
        beside(2f64.powi(63) / p);
        beside(2f64.powi(64) / p);
        beside(1e15 / p);
        beside((1e15 - 0.5) / p);
    }
    for e in [-12, -11, -10, 0, 51, 52] {
        beside(2f64.powi(e));
        beside(1.5 * 2f64.powi(e));
    }
    for cents in [1i64, 5, 15, 105, 995, 123_456_789, 999_999_999_999] {
        #[expect(clippy::cast_precision_loss, reason = "below 2^53: exact")]
        beside(cents as f64 / 100.0);
    }
    v.iter().flat_map(|&x| [x, -x]).collect()
}

#[test]
fn float_to_decimal_matches_the_reference_at_the_64_bit_paths_edges() {
    let floats = fast_path_floats();
    let mut types = types();
    types.extend([(18, 2), (19, 19), (38, 19), (20, 0)].map(|(p, s)| dec(p, s)));
    for to in types {
        for options in profiles() {
            let got = cast::from_float(floats.clone(), None, to, &options);
            let want = conformance::reference_from_float(&floats, None, to, &options);
            assert_eq!(got, want, "f64 to {to} under {options:?}");
        }
    }
}

/// One decimal's text cast to `T` under `options`.
#[track_caller]
fn integer_of<T: CastInteger>(
    t: DecimalType,
    text: &str,
    options: &ArithmeticOptions,
) -> Option<T> {
    let a = DecimalArray::from_strs(t, &[Some(text)]).expect("a test decimal");
    cast::to_integer::<T>(&a, options).expect("no error").get(0)
}

#[rstest]
#[case::presto_tie_up(ArithmeticOptions::presto(), "2.5", Some(3))]
#[case::presto_negative_tie(ArithmeticOptions::presto(), "-0.5", Some(-1))]
#[case::presto_below_tie(ArithmeticOptions::presto(), "-2.49", Some(-2))]
#[case::spark_truncates(ArithmeticOptions::spark(), "2.99", Some(2))]
#[case::spark_truncates_negative(ArithmeticOptions::spark(), "-2.99", Some(-2))]
#[case::arrow_truncates(ArithmeticOptions::arrow(StorageWidth::I64), "-0.5", Some(0))]
#[case::fixed_point_floor(ArithmeticOptions::default().with_rounding(RoundingMode::Floor), "-0.01", Some(-1))]
#[case::fixed_point_half_even(ArithmeticOptions::default().with_rounding(RoundingMode::HalfEven), "2.5", Some(2))]
#[case::max_fits(ArithmeticOptions::presto(), "127.49", Some(127))]
#[case::rounds_out_of_range(ArithmeticOptions::presto().with_on_overflow(OverflowPolicy::Null), "127.5", None)]
#[case::min_fits(ArithmeticOptions::spark(), "-128.99", Some(-128))]
#[case::below_min(ArithmeticOptions::spark(), "-129.00", None)]
fn decimal_to_i8(#[case] options: ArithmeticOptions, #[case] text: &str, #[case] want: Option<i8>) {
    assert_eq!(integer_of::<i8>(dec(5, 2), text, &options), want);
}

#[test]
fn an_integer_out_of_range_fails_naming_the_row_under_error() {
    let a = DecimalArray::from_strs(dec(25, 0), &[Some("1"), None, Some("18446744073709551616")])
        .expect("a test column");
    let err = cast::to_integer::<u64>(&a, &ArithmeticOptions::presto()).expect_err("beyond u64");
    let want = DecimalError::CastOverflow {
        row: 2,
        value: "18446744073709551616".into(),
        target: "u64".into(),
    };
    assert_eq!(err, want);
    let negative =
        DecimalArray::from_strs(dec(3, 1), &[Some("-0.4"), Some("-0.6")]).expect("a column");
    let err =
        cast::to_integer::<u8>(&negative, &ArithmeticOptions::presto()).expect_err("-1 is no u8");
    assert_eq!(
        err,
        DecimalError::CastOverflow { row: 1, value: "-0.6".into(), target: "u8".into() }
    );
}

#[rstest]
#[case::spark_reads_the_shortest_text(ArithmeticOptions::spark(), 9.95, (3, 1), Some("10.0"))]
#[case::presto_reads_the_shortest_text(ArithmeticOptions::presto(), 0.045, (3, 2), Some("0.05"))]
#[case::arrow_reads_the_binary_value(ArithmeticOptions::arrow(StorageWidth::I128), 9.95, (3, 1), Some("9.9"))]
#[case::arrow_binary_value_below_the_tie(ArithmeticOptions::arrow(StorageWidth::I128), 0.045, (3, 2), Some("0.04"))]
#[case::arrow_exact_tie(ArithmeticOptions::arrow(StorageWidth::I128), -2.5, (3, 0), Some("-3"))]
#[case::fixed_point_half_even_tie(ArithmeticOptions::default().with_rounding(RoundingMode::HalfEven), 2.5, (3, 0), Some("2"))]
#[case::negative_zero(ArithmeticOptions::default(), -0.0, (3, 1), Some("0.0"))]
#[case::negative_scale(ArithmeticOptions::arrow(StorageWidth::I128), 1250.0, (3, -2), Some("1300"))]
#[case::smallest_subnormal_ceils_to_one_unit(ArithmeticOptions::default().with_rounding(RoundingMode::Ceiling), 5e-324, (76, 76), Some("0.0000000000000000000000000000000000000000000000000000000000000000000000000001"))]
#[case::beyond_precision(ArithmeticOptions::spark(), 1000.0, (3, 0), None)]
#[case::nan(ArithmeticOptions::spark(), f64::NAN, (3, 0), None)]
#[case::infinity(ArithmeticOptions::arrow(StorageWidth::I128).with_on_overflow(OverflowPolicy::Null), f64::INFINITY, (38, 0), None)]
fn float_to_decimal(
    #[case] options: ArithmeticOptions,
    #[case] x: f64,
    #[case] (p, s): (u8, i8),
    #[case] want: Option<&str>,
) {
    let got = cast::from_float(vec![x], None, dec(p, s), &options).expect("no error");
    assert_eq!(got.to_strs(), [want.map(String::from)]);
}

#[test]
fn nan_fails_naming_the_row_under_error() {
    let err =
        cast::from_float(vec![1.0f32, f32::NAN], None, dec(5, 2), &ArithmeticOptions::default())
            .expect_err("NaN has no decimal value");
    assert_eq!(
        err,
        DecimalError::CastOverflow { row: 1, value: "NaN".into(), target: "decimal(5,2)".into() }
    );
}

#[rstest]
#[case::one_at_scale_37("1", (38, 37), 1.0)]
#[case::tenth("0.1", (38, 37), 0.1)]
#[case::two_pow_53_plus_one_ties_to_even("9007199254740993", (20, 0), 9_007_199_254_740_992.0)]
#[case::above_the_tie("9007199254740993.0001", (24, 4), 9_007_199_254_740_994.0)]
#[case::negative_scale("-12300", (5, -2), -12_300.0)]
#[case::seventy_six_nines("9999999999999999999999999999999999999999999999999999999999999999999999999999", (76, 0), 1e76)]
fn decimal_to_f64(#[case] text: &str, #[case] (p, s): (u8, i8), #[case] want: f64) {
    let a = DecimalArray::from_strs(dec(p, s), &[Some(text)]).expect("a test decimal");
    let got = cast::to_float::<f64>(&a, &ArithmeticOptions::default()).expect("no error");
    assert_eq!(got.get(0).map(f64::to_bits), Some(want.to_bits()), "{text}");
}

#[test]
fn a_scalar_casts_as_one_row() {
    let x = decimal_kernels::DecimalScalar::parse(dec(5, 2), "-1.50").expect("a scalar");
    let got = cast::to_integer::<i32>(&x, &ArithmeticOptions::presto()).expect("fits");
    assert_eq!((got.values().len(), got.get(0)), (1, Some(-2)));
    let null = decimal_kernels::DecimalScalar::null(dec(5, 2));
    assert_eq!(
        cast::to_float::<f32>(&null, &ArithmeticOptions::default()).expect("null").get(0),
        None
    );
}

/// Arrow decimal arrays of edge values, at each Arrow width, negative
/// scales included.
fn arrow_decimals() -> Vec<arrow_array::ArrayRef> {
    let types = [
        (StorageWidth::I32, [(9, 0), (9, 2), (5, -2), (9, 9)]),
        (StorageWidth::I64, [(18, 0), (18, 4), (18, -3), (15, 2)]),
        (StorageWidth::I128, [(38, 0), (38, 10), (20, 2), (38, -5)]),
        (StorageWidth::I256, [(76, 0), (40, 5), (76, -10), (76, 40)]),
    ];
    let mut arrays = Vec::new();
    for (width, shapes) in types {
        for (p, s) in shapes {
            let t = dec(p, s);
            let mut values = edge_values(t);
            values.push(i256::ZERO);
            let valid: Vec<bool> = (0..values.len()).map(|r| r + 1 != values.len()).collect();
            arrays.push(checked_column(t, &values, &valid, width).to_arrow());
        }
    }
    arrays
}

fn arrow_options(safe: bool) -> arrow_cast::CastOptions<'static> {
    arrow_cast::CastOptions { safe, ..arrow_cast::CastOptions::default() }
}

/// Ours and arrow-cast's casts of `array` to `to`: the same array, or both
/// an error.
#[track_caller]
fn assert_as_arrow_cast(array: &dyn arrow_array::Array, to: &arrow_schema::DataType, safe: bool) {
    let ours = decimal_kernels::arrow::cast(array, to, &arrow_options(safe));
    let theirs = arrow_cast::cast_with_options(array, to, &arrow_options(safe));
    let context = format!("{} to {to} (safe: {safe})", array.data_type());
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => assert_eq!(ours.as_ref(), theirs.as_ref(), "{context}"),
        (Err(ours), Err(theirs)) => {
            assert_eq!(
                core::mem::discriminant(&ours),
                core::mem::discriminant(&theirs),
                "{context}"
            );
        }
        (ours, theirs) => panic!("{context}: ours {ours:?}, arrow-cast {theirs:?}"),
    }
}

const INTEGER_TYPES: [arrow_schema::DataType; 8] = {
    use arrow_schema::DataType::*;
    [Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64]
};

/// The rows of a decimal array of negative scale whose value times
/// `10^-s` leaves its own storage integer: arrow-cast multiplies there, so
/// it nulls such a row (or fails, under `safe: false`) even when the integer
/// fits the target type.
fn intermediate_overflows(decimals: &DecimalArray) -> Vec<usize> {
    let Ok(shift) = u8::try_from(-i16::from(decimals.dtype().scale())) else {
        return Vec::new();
    };
    let bound = match decimals.width() {
        StorageWidth::I32 => i256::from_i128(i32::MAX.into()),
        StorageWidth::I64 => i256::from_i128(i64::MAX.into()),
        StorageWidth::I128 => i256::from_i128(i128::MAX),
        _ => i256::MAX,
    };
    (0..decimals.len())
        .filter(|&r| {
            let v = decimals.values().get(r).unwrap_or(i256::ZERO);
            v.checked_mul(pow10(shift)).is_none_or(|p| p > bound || p < bound.wrapping_neg())
        })
        .collect()
}

/// The rows of a `Decimal256` array whose integer part is beyond `i64`:
/// arrow-cast 59 converts an `i256` to a narrower integer by its low 64
/// bits (`2^64` is `0` as `Int8`), where the value fits no integer type.
fn arrow59_wrapped(decimals: &DecimalArray) -> Vec<usize> {
    if cfg!(not(feature = "arrow_59")) || decimals.width() != StorageWidth::I256 {
        return Vec::new();
    }
    let to_integers = ArithmeticOptions::default().with_on_overflow(OverflowPolicy::Null);
    let fits = cast::to_integer::<i64>(decimals, &to_integers).expect("nulls, no error");
    (0..decimals.len()).filter(|&r| decimals.is_valid(r) && fits.get(r).is_none()).collect()
}

#[test]
fn decimal_to_integer_is_arrow_casts_but_where_arrow_overflows_an_intermediate() {
    let mut differences = 0;
    for array in arrow_decimals() {
        let decimals = DecimalArray::from_arrow(array.as_ref()).expect("a decimal array");
        let wrapped = arrow59_wrapped(&decimals);
        let mut skipped = intermediate_overflows(&decimals);
        skipped.extend(&wrapped);
        for to in &INTEGER_TYPES {
            if skipped.is_empty() {
                for safe in [true, false] {
                    assert_as_arrow_cast(array.as_ref(), to, safe);
                }
                continue;
            }
            let ours = decimal_kernels::arrow::cast(array.as_ref(), to, &arrow_options(true))
                .expect("safe");
            let theirs = arrow_cast::cast_with_options(array.as_ref(), to, &arrow_options(true))
                .expect("safe");
            for row in 0..ours.len() {
                let same = ours.slice(row, 1).as_ref() == theirs.slice(row, 1).as_ref();
                if wrapped.contains(&row) {
                    let (ours_null, context) = (ours.is_null(row), array.data_type());
                    assert!(ours_null || same, "{context} row {row}: beyond i64");
                    differences += usize::from(!same);
                } else if skipped.contains(&row) {
                    assert!(
                        theirs.is_null(row),
                        "{} row {row}: arrow-cast's intermediate",
                        array.data_type()
                    );
                    differences += usize::from(!same);
                } else {
                    assert!(same, "{} row {row} to {to}", array.data_type());
                }
            }
        }
    }
    eprintln!(
        "decimal to integer: {differences} rows arrow-cast nulls on an intermediate overflow"
    );
}

/// The rows where two float arrays differ, as bits.
fn differing_rows(ours: &dyn arrow_array::Array, theirs: &dyn arrow_array::Array) -> Vec<usize> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float32Type, Float64Type};
    let bits = |a: &dyn arrow_array::Array, row: usize| match a.data_type() {
        arrow_schema::DataType::Float32 => {
            u64::from(a.as_primitive::<Float32Type>().value(row).to_bits())
        }
        _ => a.as_primitive::<Float64Type>().value(row).to_bits(),
    };
    (0..ours.len())
        .filter(|&r| {
            ours.is_valid(r) != theirs.is_valid(r)
                || (ours.is_valid(r) && bits(ours, r) != bits(theirs, r))
        })
        .collect()
}

/// Decimal to float: arrow-cast divides `a as f64` by `10^s` in `f64`
/// (then narrows to `f32`): one correct rounding only where `|a|` and `10^s`
/// are exact doubles (and, for `f32`, exact singles), so only rows beyond
/// that may differ; ours are the reference's (checked above).
#[test]
fn decimal_to_float_is_arrow_casts_where_arrow_rounds_once() {
    let mut differences = 0;
    for array in arrow_decimals() {
        let decimals = DecimalArray::from_arrow(array.as_ref()).expect("a decimal array");
        let scale = decimals.dtype().scale();
        for (to, exact_below, max_scale) in [
            (arrow_schema::DataType::Float64, 1i128 << 53, 22),
            (arrow_schema::DataType::Float32, 1i128 << 24, 10),
        ] {
            let ours = decimal_kernels::arrow::cast(array.as_ref(), &to, &arrow_options(true))
                .expect("no error");
            let theirs = arrow_cast::cast_with_options(array.as_ref(), &to, &arrow_options(true))
                .expect("no error");
            for row in differing_rows(ours.as_ref(), theirs.as_ref()) {
                let value = decimals.values().get(row).and_then(|v| v.to_i128());
                let arrow_exact = (0..=max_scale).contains(&scale)
                    && value.is_some_and(|v| v.unsigned_abs() < exact_below.unsigned_abs());
                assert!(
                    !arrow_exact,
                    "{} row {row} to {to}: arrow rounds once there",
                    decimals.dtype()
                );
                differences += 1;
            }
        }
    }
    eprintln!("decimal to float: {differences} rows where arrow-cast rounds twice and differs");
}

#[test]
fn integer_to_decimal_is_arrow_casts_but_for_negative_scales() {
    use arrow_array::{
        ArrayRef, Int8Array, Int16Array, Int32Array, Int64Array, UInt8Array, UInt16Array,
        UInt32Array, UInt64Array,
    };
    use arrow_schema::DataType::{Decimal32, Decimal64, Decimal128, Decimal256};
    use std::sync::Arc;
    let inputs: Vec<ArrayRef> = vec![
        Arc::new(Int8Array::from(vec![
            Some(i8::MIN),
            Some(-5),
            None,
            Some(0),
            Some(99),
            Some(i8::MAX),
        ])),
        Arc::new(Int16Array::from(vec![
            Some(i16::MIN),
            Some(-150),
            None,
            Some(9_999),
            Some(i16::MAX),
        ])),
        Arc::new(Int32Array::from(vec![
            Some(i32::MIN),
            Some(-1_250),
            None,
            Some(999_999_999),
            Some(i32::MAX),
        ])),
        Arc::new(Int64Array::from(vec![
            Some(i64::MIN),
            Some(-1_500),
            None,
            Some(1 << 53),
            Some(i64::MAX),
        ])),
        Arc::new(UInt8Array::from(vec![Some(0), Some(150), None, Some(u8::MAX)])),
        Arc::new(UInt16Array::from(vec![Some(0), Some(2_550), None, Some(u16::MAX)])),
        Arc::new(UInt32Array::from(vec![Some(0), Some(25_000), None, Some(u32::MAX)])),
        Arc::new(UInt64Array::from(vec![Some(0), Some(1_550), None, Some(u64::MAX)])),
    ];
    let targets = [
        Decimal32(9, 0),
        Decimal32(9, 2),
        Decimal32(5, 4),
        Decimal64(18, 0),
        Decimal64(18, 3),
        Decimal128(38, 0),
        Decimal128(38, 18),
        Decimal128(20, 0),
        Decimal256(76, 0),
        Decimal256(76, 50),
    ];
    for input in &inputs {
        for to in &targets {
            if cfg!(feature = "arrow_59") {
                assert_as_arrow59_cast_but_where_it_wraps(input.as_ref(), to);
                continue;
            }
            for safe in [true, false] {
                assert_as_arrow_cast(input.as_ref(), to, safe);
            }
        }
        // A negative scale drops digits: arrow-cast truncates, ours rounds
        // half away from zero, as the Arrow profile's decimal casts do.
        let integers =
            decimal_kernels::arrow::cast(input.as_ref(), &Decimal128(38, 0), &arrow_options(true))
                .expect("every integer is a Decimal128(38, 0)");
        let integers = DecimalArray::from_arrow(integers.as_ref()).expect("a decimal array");
        for to in [Decimal32(9, -2), Decimal128(38, -2), Decimal256(76, -3)] {
            let ours = decimal_kernels::arrow::cast(input.as_ref(), &to, &arrow_options(true))
                .expect("no error");
            let theirs = arrow_cast::cast_with_options(input.as_ref(), &to, &arrow_options(true))
                .expect("no error");
            let (ours, theirs) = (
                DecimalArray::from_arrow(ours.as_ref()).expect("decimal"),
                DecimalArray::from_arrow(theirs.as_ref()).expect("decimal"),
            );
            let at = |mode| {
                let options = ArithmeticOptions::default()
                    .with_rounding(mode)
                    .with_on_overflow(OverflowPolicy::Null);
                decimal_kernels::rescale(&integers, ours.dtype(), &options)
                    .expect("nulls, no error")
                    .to_strs()
            };
            assert_eq!(ours.to_strs(), at(RoundingMode::HalfUp), "{} to {to}", input.data_type());
            // arrow-cast 59 wraps an integer beyond the decimal's native type
            // first (see above): only its in-range rows are truncations.
            let truncated = at(RoundingMode::TowardZero);
            // The largest integer of the decimal's native type.
            let native: i128 = match to {
                Decimal32(..) => i32::MAX.into(),
                _ => i128::MAX,
            };
            for (row, theirs) in theirs.to_strs().into_iter().enumerate() {
                let value = integers.values().get(row).and_then(|v| v.to_i128()).unwrap_or(0);
                let in_native = value <= native && value >= -native - 1;
                if theirs.is_some() && truncated[row].is_some() && in_native {
                    assert_eq!(theirs, truncated[row], "{} row {row} to {to}", input.data_type());
                }
            }
        }
    }
}

/// Integer to decimal against arrow-cast 59, which converts an integer to
/// the decimal's native type with `as` (wrapping: `i64::MIN` is `0` in a
/// `Decimal32`): the same rows but those beyond that native type, which
/// are beyond the precision too, so null here.
fn assert_as_arrow59_cast_but_where_it_wraps(
    input: &dyn arrow_array::Array,
    to: &arrow_schema::DataType,
) {
    let ours = decimal_kernels::arrow::cast(input, to, &arrow_options(true)).expect("safe");
    let theirs = arrow_cast::cast_with_options(input, to, &arrow_options(true)).expect("safe");
    let bound: i128 = match to {
        arrow_schema::DataType::Decimal32(..) => i32::MAX.into(),
        arrow_schema::DataType::Decimal64(..) => i64::MAX.into(),
        _ => i128::MAX,
    };
    let integers = decimal_kernels::arrow::cast(
        input,
        &arrow_schema::DataType::Decimal128(38, 0),
        &arrow_options(true),
    )
    .expect("every integer is a Decimal128(38, 0)");
    let integers = DecimalArray::from_arrow(integers.as_ref()).expect("a decimal array");
    for row in 0..ours.len() {
        let value = integers.values().get(row).and_then(|v| v.to_i128()).unwrap_or(0);
        if value > bound || value < -bound - 1 {
            assert!(ours.is_null(row), "{} row {row} to {to}", input.data_type());
        } else {
            assert_eq!(
                ours.slice(row, 1).as_ref(),
                theirs.slice(row, 1).as_ref(),
                "{} row {row} to {to}",
                input.data_type()
            );
        }
    }
}

/// Float to decimal: arrow-cast rounds `x * 10^s` computed in `f64`, so
/// where that product is not exact (and a tie can appear or vanish) its
/// result may differ from the exact value rounded once; everywhere else it
/// must be ours.
#[test]
fn float_to_decimal_is_arrow_casts_where_arrows_product_is_exact() {
    use arrow_array::{Float32Array, Float64Array};
    use arrow_schema::DataType::{Decimal32, Decimal64, Decimal128, Decimal256};
    let floats = edge_floats();
    let singles: Vec<f32> = floats.iter().map(|&x| x as f32).collect();
    let targets = [
        Decimal32(9, 2),
        Decimal32(9, 0),
        Decimal64(18, 4),
        Decimal64(18, -2),
        Decimal128(38, 10),
        Decimal128(38, 0),
        Decimal128(20, 2),
        Decimal256(76, 30),
        Decimal256(76, 0),
    ];
    let mut differences = 0;
    for (input, widened) in [
        (
            std::sync::Arc::new(Float64Array::from(floats.clone())) as arrow_array::ArrayRef,
            floats.clone(),
        ),
        (
            std::sync::Arc::new(Float32Array::from(singles.clone())),
            singles.iter().map(|&x| f64::from(x)).collect(),
        ),
    ] {
        for to in &targets {
            let (ours, theirs) = (
                decimal_kernels::arrow::cast(input.as_ref(), to, &arrow_options(true))
                    .expect("no error"),
                arrow_cast::cast_with_options(input.as_ref(), to, &arrow_options(true))
                    .expect("no error"),
            );
            let (ours, theirs) = (
                DecimalArray::from_arrow(ours.as_ref()).expect("decimal"),
                DecimalArray::from_arrow(theirs.as_ref()).expect("decimal"),
            );
            let scale = i32::from(ours.dtype().scale());
            let power = 10f64.powi(scale);
            for (row, (a, b)) in ours.to_strs().into_iter().zip(theirs.to_strs()).enumerate() {
                if a == b {
                    continue;
                }
                let x = widened[row];
                let product = x * power;
                let exact = (0..=22).contains(&scale)
                    && x.mul_add(power, -product) == 0.0
                    && product.is_finite();
                assert!(
                    !exact,
                    "{x:?} to {to}: ours {a:?}, arrow-cast {b:?}, where arrow's product is exact"
                );
                differences += 1;
            }
        }
    }
    eprintln!("float to decimal: {differences} rows where arrow-cast rounds twice and differs");
}

/// `(p,s)` as a decimal type.
#[track_caller]
fn published_type(text: &str) -> DecimalType {
    let inner = text.trim_start_matches('(').trim_end_matches(')');
    let (p, s) = inner.split_once(',').expect("a (p,s) type");
    dec(p.parse().expect("a precision"), s.parse().expect("a scale"))
}

/// A decimal literal as the engine types it: its text at `(p,s)`, which
/// accepts `.5` and `-0`.
#[track_caller]
fn published_decimal(t: DecimalType, text: &str) -> DecimalArray {
    DecimalArray::from_strs(t, &[Some(text)]).unwrap_or_else(|e| panic!("{text} as {t}: {e}"))
}

/// One integer of the named type from text, cast to `to`.
fn published_from_integer(
    kind: &str,
    text: &str,
    to: DecimalType,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    match kind {
        "i8" => cast::from_integer(vec![text.parse::<i8>().expect("an i8")], None, to, options),
        "i16" => cast::from_integer(vec![text.parse::<i16>().expect("an i16")], None, to, options),
        "i32" => cast::from_integer(vec![text.parse::<i32>().expect("an i32")], None, to, options),
        "i64" => cast::from_integer(vec![text.parse::<i64>().expect("an i64")], None, to, options),
        other => panic!("unknown integer type {other}"),
    }
}

/// One decimal cast to the named integer type, as text (`None`: a null row).
fn published_to_integer(
    a: &DecimalArray,
    kind: &str,
    options: &ArithmeticOptions,
) -> Result<Option<String>, DecimalError> {
    fn first<T: CastInteger + ToString>(
        cast: Result<NullableBuffer<ScalarBuffer<T>>, DecimalError>,
    ) -> Result<Option<String>, DecimalError> {
        cast.map(|r| r.get(0).map(|v| v.to_string()))
    }
    match kind {
        "i8" => first(cast::to_integer::<i8>(a, options)),
        "i16" => first(cast::to_integer::<i16>(a, options)),
        "i32" => first(cast::to_integer::<i32>(a, options)),
        "i64" => first(cast::to_integer::<i64>(a, options)),
        other => panic!("unknown integer type {other}"),
    }
}

/// Every case of `tests/data/numeric_casts_published.txt` under its engine's
/// profile: the published value, or a failure (an error under Presto, a
/// null under Spark).
#[test]
fn published_engine_casts() {
    let data = include_str!("data/numeric_casts_published.txt");
    let mut cases = 0;
    for (number, line) in data.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [profile, op, from, value, to, want, source_line] = fields[..] else {
            panic!("line {}: seven fields expected: {line}", number + 1);
        };
        let options = match profile {
            "presto" => ArithmeticOptions::presto(),
            "spark" => ArithmeticOptions::spark(),
            other => panic!("line {}: unknown profile {other}", number + 1),
        };
        let context =
            format!("numeric_casts_published.txt:{} (source line {source_line})", number + 1);
        // A failure: Presto raises, Spark gives a null row.
        let failed = |outcome: Result<Option<String>, DecimalError>| match outcome {
            Err(DecimalError::CastOverflow { .. }) | Ok(None) => "FAILS".to_string(),
            Ok(Some(text)) => text,
            Err(e) => panic!("{context}: {e}"),
        };
        let got = match op {
            "to_integer" => {
                let a = published_decimal(published_type(from), value);
                failed(published_to_integer(&a, to, &options))
            }
            "from_integer" => {
                let to = published_type(to);
                failed(
                    published_from_integer(from, value, to, &options)
                        .map(|a| a.to_strs().remove(0)),
                )
            }
            "from_float" => {
                let to = published_type(to);
                let cast = match from {
                    "f32" => cast::from_float(
                        vec![value.parse::<f32>().expect("an f32")],
                        None,
                        to,
                        &options,
                    ),
                    _ => cast::from_float(
                        vec![value.parse::<f64>().expect("an f64")],
                        None,
                        to,
                        &options,
                    ),
                };
                failed(cast.map(|a| a.to_strs().remove(0)))
            }
            "to_float" => {
                let a = published_decimal(published_type(from), value);
                let bits = match to {
                    "f32" => {
                        let got = cast::to_float::<f32>(&a, &options).expect("no error").get(0);
                        got.map(f32::to_bits).map(u64::from)
                    }
                    _ => cast::to_float::<f64>(&a, &options)
                        .expect("no error")
                        .get(0)
                        .map(f64::to_bits),
                };
                let want_bits = match to {
                    "f32" => u64::from(want.parse::<f32>().expect("an f32").to_bits()),
                    _ => want.parse::<f64>().expect("an f64").to_bits(),
                };
                assert_eq!(bits, Some(want_bits), "{context}: {line}");
                cases += 1;
                continue;
            }
            other => panic!("{context}: unknown cast {other}"),
        };
        assert_eq!(got, want, "{context}: {line}");
        cases += 1;
    }
    assert_eq!(cases, 182, "every published case ran");
}
