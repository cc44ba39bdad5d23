//! Comparisons: `decimal_kernels::arrow::lt` against `arrow_ord::cmp::lt`
//! on Arrow arrays, and on decimals of two types against what DataFusion
//! does for them (arrow-ord refuses two types): `arrow_cast::cast` of both
//! sides to the common type, then `arrow_ord::cmp::lt`.
//!
//! Values: money, stored magnitudes uniform in `[1, 10^12)` (~40 bits) of
//! either sign, never zero, as `Decimal64(15,2)` and `Decimal128(15,2)`;
//! the right column of the mixed case `Decimal128(12,4)` with magnitudes
//! below `10^10` (~34 bits). Groups:
//! - `d64_15_2_cmp`, `d128_15_2_cmp`: one type on both sides, `lt` (peer
//!   `arrow`), and `lt_scalar` against the right column's row 1.
//! - `d128_15_2_vs_12_4_cmp`: `Decimal128(15,2) < Decimal128(12,4)` (peer
//!   `cast_then_arrow`: both cast to the common `Decimal128(17,4)`, the left
//!   side multiplied by 100), and `lt_scalar` against a `Decimal128(3,2)`
//!   literal, TPC-H Q6's `l_discount < 0.07` (peer: the literal cast once to
//!   the column's `Decimal128(15,2)`, the column compared as it is).
//!
//! Our side reads Arrow arrays, whose precision it does not trust: it
//! compares in the storage's own width (`i64`, `i128`), aligning the scale
//! of mixed types there.

use arrow_array::types::{Decimal64Type, Decimal128Type};
use arrow_array::{ArrayRef, BooleanArray, Datum, Scalar};
use arrow_schema::{ArrowError, DataType};

use super::harness::{self, Case};
use super::{MONEY, Rng, money, sizes, with_nulls_label};

/// A comparison with `arrow_ord::cmp::lt`'s signature.
type CompareFn = fn(&dyn Datum, &dyn Datum) -> Result<BooleanArray, ArrowError>;

/// Times `ours(lhs, rhs)` against `peer()` for one case, after checking that
/// they agree.
fn case(
    group: &str,
    name: &str,
    rows: usize,
    label: &str,
    peer_name: &str,
    ours: impl FnMut() -> BooleanArray,
    peer: impl FnMut() -> BooleanArray,
) {
    let case = Case { group, case: name, rows, distribution: label, peer: peer_name };
    let id = case.id();
    harness::compare(&case, |ours, peer| assert_eq!(ours, peer, "{id}"), ours, peer);
}

/// One type on both sides: ours against arrow-ord, column against column
/// and against a scalar.
pub fn same_type() {
    let (ours, arrow): (CompareFn, CompareFn) = (decimal_kernels::arrow::lt, arrow_ord::cmp::lt);
    for (len, with_nulls) in sizes().into_iter().filter(|&(len, _)| len > 16) {
        let suffix = if with_nulls { "_nulls" } else { "" };
        let label = with_nulls_label(
            format!("money ±<10^12 (40 bits) < money, {len} rows — favourable: fits i64"),
            with_nulls,
        );
        let rng = &mut Rng(31 ^ len as u64);
        let d64: [ArrayRef; 2] = [(); 2].map(|()| {
            std::sync::Arc::new(money::<Decimal64Type>(rng, MONEY, len, 15, 2, with_nulls, |v| {
                i64::try_from(v).unwrap()
            })) as ArrayRef
        });
        let d128: [ArrayRef; 2] = [(); 2].map(|()| {
            std::sync::Arc::new(money::<Decimal128Type>(rng, MONEY, len, 15, 2, with_nulls, |v| v))
                as ArrayRef
        });
        for (group, [l, r]) in [("d64_15_2_cmp", d64), ("d128_15_2_cmp", d128)] {
            let group = format!("{group}{suffix}");
            case(
                &group,
                "lt",
                len,
                &label,
                "arrow",
                || ours(&l, &r).unwrap(),
                || arrow(&l, &r).unwrap(),
            );
            let one = Scalar::new(r.slice(1, 1));
            case(
                &group,
                "lt_scalar",
                len,
                &label,
                "arrow",
                || ours(&l, &one).unwrap(),
                || arrow(&l, &one).unwrap(),
            );
        }
    }
}

/// Two types: ours against DataFusion's way, a cast of both sides to the
/// common type and arrow-ord.
pub fn mixed_types() {
    let cast = |a: &ArrayRef, to: &DataType| arrow_cast::cast(a, to).unwrap();
    for (len, with_nulls) in sizes().into_iter().filter(|&(len, _)| len > 16) {
        let group = format!("d128_15_2_vs_12_4_cmp{}", if with_nulls { "_nulls" } else { "" });
        let rng = &mut Rng(37 ^ len as u64);
        let l: ArrayRef =
            std::sync::Arc::new(money::<Decimal128Type>(rng, MONEY, len, 15, 2, with_nulls, |v| v));
        let r: ArrayRef = std::sync::Arc::new(money::<Decimal128Type>(
            rng,
            10_u128.pow(10),
            len,
            12,
            4,
            with_nulls,
            |v| v,
        ));
        let common = DataType::Decimal128(17, 4);
        let label = with_nulls_label(
            format!(
                "money ±<10^12 (40 bits) at scale 2 < ±<10^10 (34 bits) at scale 4, {len} rows: \
                 left ·10^2 (47 bits) — favourable: fits i64"
            ),
            with_nulls,
        );
        case(
            &group,
            "lt",
            len,
            &label,
            "cast_then_arrow",
            || decimal_kernels::arrow::lt(&l, &r).unwrap(),
            || arrow_ord::cmp::lt(&cast(&l, &common), &cast(&r, &common)).unwrap(),
        );
        // TPC-H Q6: a decimal(15,2) column against a decimal(3,2) literal; the
        // common type is the column's, so only the literal is cast, once.
        let literal: ArrayRef = std::sync::Arc::new(
            arrow_array::Decimal128Array::from(vec![7]).with_precision_and_scale(3, 2).unwrap(),
        );
        let bound = Scalar::new(literal.clone());
        let cast_bound = Scalar::new(cast(&literal, l.data_type()));
        let label = with_nulls_label(
            format!("money ±<10^12 (40 bits) < 0.07 (decimal(3,2)), {len} rows — favourable"),
            with_nulls,
        );
        case(
            &group,
            "lt_scalar",
            len,
            &label,
            "cast_then_arrow",
            || decimal_kernels::arrow::lt(&l, &bound).unwrap(),
            || arrow_ord::cmp::lt(&l, &cast_bound).unwrap(),
        );
    }
}
