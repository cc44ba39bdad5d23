//! The worked examples of the contract (SEMANTICS.md §7), through the array
//! kernels and through the scalar reference.

use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalScalar, DecimalType,
    RoundingMode, StorageWidth, binary, result_type,
};
use rstest::rstest;

fn t(p: u8, s: i8) -> DecimalType {
    DecimalType::try_new(p, s).unwrap()
}

/// Runs `a op b` both ways and checks both give `want` (text, or an error name).
#[track_caller]
fn check(
    op: BinaryOp,
    (a, ta): (&str, DecimalType),
    (b, tb): (&str, DecimalType),
    opts: ArithmeticOptions,
    want: &str,
) {
    let got_scalar = DecimalScalar::parse(ta, a).unwrap().binary(
        op,
        &DecimalScalar::parse(tb, b).unwrap(),
        &opts,
    );
    let lhs = DecimalArray::from_strs(ta, &[Some(a)]).unwrap();
    let rhs = DecimalArray::from_strs(tb, &[Some(b)]).unwrap();
    let got_array = binary(op, &lhs, &rhs, &opts);
    let name = |r: Result<String, DecimalError>| match r {
        Ok(text) => text,
        Err(DecimalError::Overflow { row: 0, .. }) => "overflow".to_string(),
        Err(DecimalError::DivideByZero { row: 0 }) => "division by zero".to_string(),
        Err(e) => format!("unexpected error: {e}"),
    };
    let scalar = name(got_scalar.map(|s| s.to_string()));
    let array = name(got_array.map(|c| c.to_strs()[0].clone().unwrap_or_default()));
    assert_eq!(scalar, want, "reference: {a} {op} {b}");
    assert_eq!(array, want, "kernel: {a} {op} {b}");
}

fn fixed(mode: RoundingMode) -> ArithmeticOptions {
    ArithmeticOptions::fixed_point().with_rounding(mode)
}

#[rstest]
#[case::tiny_product(BinaryOp::Mul, "0.50", "0.10", RoundingMode::TowardZero, "0.05")]
#[case::divide_by_tenth(BinaryOp::Div, "10.00", "0.10", RoundingMode::TowardZero, "100.00")]
#[case::square_truncated(BinaryOp::Mul, "0.15", "0.15", RoundingMode::TowardZero, "0.02")]
#[case::square_half_up(BinaryOp::Mul, "0.15", "0.15", RoundingMode::HalfUp, "0.02")]
#[case::square_ceiling(BinaryOp::Mul, "0.15", "0.15", RoundingMode::Ceiling, "0.03")]
#[case::negative_square(BinaryOp::Mul, "-0.15", "0.15", RoundingMode::TowardZero, "-0.02")]
#[case::negative_square_floor(BinaryOp::Mul, "-0.15", "0.15", RoundingMode::Floor, "-0.03")]
#[case::two_thirds(BinaryOp::Div, "2.00", "3.00", RoundingMode::TowardZero, "0.66")]
#[case::two_thirds_half_up(BinaryOp::Div, "2.00", "3.00", RoundingMode::HalfUp, "0.67")]
#[case::minus_two_thirds(BinaryOp::Div, "-2.00", "3.00", RoundingMode::TowardZero, "-0.66")]
#[case::minus_two_thirds_half_up(BinaryOp::Div, "-2.00", "3.00", RoundingMode::HalfUp, "-0.67")]
#[case::minus_two_thirds_floor(BinaryOp::Div, "-2.00", "3.00", RoundingMode::Floor, "-0.67")]
#[case::no_false_overflow(
    BinaryOp::Mul,
    "3000.00",
    "3000.00",
    RoundingMode::TowardZero,
    "9000000.00"
)]
#[case::divide_by_zero(BinaryOp::Div, "1.00", "0.00", RoundingMode::TowardZero, "division by zero")]
fn fixed_point_decimal_10_2(
    #[case] op: BinaryOp,
    #[case] a: &str,
    #[case] b: &str,
    #[case] mode: RoundingMode,
    #[case] want: &str,
) {
    check(op, (a, t(10, 2)), (b, t(10, 2)), fixed(mode), want);
}

#[rstest]
#[case::sum_overflows(BinaryOp::Add, "999", "2", t(3, 0), "overflow")]
#[case::negative_scale_product(BinaryOp::Mul, "500", "300", t(10, -2), "150000")]
#[case::negative_scale_quotient(BinaryOp::Div, "500", "300", t(10, -2), "0")]
fn fixed_point_other_types(
    #[case] op: BinaryOp,
    #[case] a: &str,
    #[case] b: &str,
    #[case] dtype: DecimalType,
    #[case] want: &str,
) {
    check(op, (a, dtype), (b, dtype), fixed(RoundingMode::TowardZero), want);
}

#[rstest]
#[case::product(BinaryOp::Mul, ("0.50", t(10, 2)), ("0.10", t(10, 2)), "decimal(21,4)", "0.0500")]
#[case::quotient(BinaryOp::Div, ("10.00", t(10, 2)), ("0.10", t(10, 2)), "decimal(16,6)", "100.000000")]
#[case::third(BinaryOp::Div, ("1.00", t(10, 2)), ("3.00", t(10, 2)), "decimal(16,6)", "0.333333")]
#[case::minus_two_thirds(BinaryOp::Div, ("-2.00", t(10, 2)), ("3.00", t(10, 2)), "decimal(16,6)", "-0.666666")]
#[case::mixed_sum(BinaryOp::Add, ("1.25", t(10, 2)), ("0.001", t(5, 3)), "decimal(12,3)", "1.251")]
#[case::mixed_product(BinaryOp::Mul, ("1.25", t(10, 2)), ("0.001", t(5, 3)), "decimal(16,5)", "0.00125")]
#[case::mixed_quotient(BinaryOp::Div, ("1.25", t(10, 2)), ("0.001", t(5, 3)), "decimal(17,6)", "1250.000000")]
#[case::mixed_quotient_reversed(BinaryOp::Div, ("0.001", t(5, 3)), ("1.25", t(10, 2)), "decimal(11,7)", "0.0008000")]
fn arrow_decimal_128(
    #[case] op: BinaryOp,
    #[case] a: (&str, DecimalType),
    #[case] b: (&str, DecimalType),
    #[case] result: &str,
    #[case] want: &str,
) {
    let opts = ArithmeticOptions::arrow(StorageWidth::I128);
    assert_eq!(result_type(op, a.1, b.1, &opts).unwrap().to_string(), result);
    check(op, a, b, opts, want);
}

#[test]
fn arrow_product_scale_beyond_38_is_a_type_error() {
    let opts = ArithmeticOptions::arrow(StorageWidth::I128);
    let a = DecimalArray::from_strs(t(38, 20), &[Some("1")]).unwrap();
    assert!(matches!(
        binary(BinaryOp::Mul, &a, &a, &opts),
        Err(DecimalError::UnsupportedTypes { .. })
    ));
}
