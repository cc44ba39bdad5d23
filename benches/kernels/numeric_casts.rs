//! Casts between decimals and integers or floats: `decimal_kernels::arrow::cast`
//! against `arrow_cast::cast_with_options` on the same Arrow arrays, each
//! result checked equal to the other first (on these values arrow-cast's
//! results are right). Values: money, stored magnitudes uniform in
//! `[1, 10^12)` (~40 bits) of either sign:
//!
//! - `Decimal64(15,2)` → `Float64`: quotients of two exact doubles;
//! - `Float64` → `Decimal64(15,2)`: the doubles nearest those cents, each
//!   rounded once to scale 2 from its exact binary value;
//! - `Decimal128(38,10)` → `Int64`: money at scale 10 (~74 bits stored),
//!   truncated toward zero;
//! - `Int64` → `Decimal64(18,2)`: the money's stored integers as counts,
//!   two digits appended.

use std::sync::Arc;

use arrow_array::types::{Decimal64Type, Decimal128Type};
use arrow_array::{Array, ArrayRef, Float64Array, Int64Array};
use arrow_cast::CastOptions;
use arrow_schema::DataType;

use super::harness::{self, Case};
use super::{MONEY, Rng, money, sizes, with_nulls_label};

/// One cast both ways, checked equal first.
fn cast_case(group: &str, label: &str, rows: usize, input: &ArrayRef, to: &DataType) {
    let options = CastOptions { safe: true, ..CastOptions::default() };
    let case = Case { group, case: "cast", rows, distribution: label, peer: "arrow" };
    let id = case.id();
    let check = |ours: ArrayRef, arrow: ArrayRef| assert_eq!(ours.as_ref(), arrow.as_ref(), "{id}");
    harness::compare(
        &case,
        check,
        || decimal_kernels::arrow::cast(input.as_ref(), to, &options).unwrap(),
        || arrow_cast::cast_with_options(input.as_ref(), to, &options).unwrap(),
    );
}

/// The four casts at every size.
pub fn numeric_casts() {
    for (len, with_nulls) in sizes() {
        let suffix = if with_nulls { "_nulls" } else { "" };
        let rng = &mut Rng(0x3c6e_f372_fe94_f82b ^ len as u64);
        let label =
            |what: &str| with_nulls_label(format!("money ±<10^12 (40 bits){what}"), with_nulls);
        let cents: ArrayRef =
            Arc::new(money::<Decimal64Type>(rng, MONEY, len, 15, 2, with_nulls, |v| v as i64));
        cast_case(
            &format!("d64_15_2_to_f64{suffix}"),
            &label(" as f64: exact ÷ 10^2 — favourable: below 2^53"),
            len,
            &cents,
            &DataType::Float64,
        );
        let doubles = arrow_cast::cast_with_options(
            cents.as_ref(),
            &DataType::Float64,
            &CastOptions::default(),
        )
        .unwrap();
        let doubles: ArrayRef =
            Arc::new(doubles.as_any().downcast_ref::<Float64Array>().expect("Float64").clone());
        cast_case(
            &format!("f64_to_d64_15_2{suffix}"),
            &label(
                " ÷ 10^2 as the nearest doubles, back to scale 2 — favourable: m·10^2 fits u128",
            ),
            len,
            &doubles,
            &DataType::Decimal64(15, 2),
        );
        let wide: ArrayRef =
            Arc::new(money::<Decimal128Type>(rng, MONEY, len, 38, 10, with_nulls, |v| {
                v * 100_000_000
            }));
        cast_case(
            &format!("d128_38_10_to_i64{suffix}"),
            &label(" at scale 10 (67 bits stored), truncated ÷ 10^10 — not favourable: beyond i64"),
            len,
            &wide,
            &DataType::Int64,
        );
        let counts = money::<Decimal64Type>(rng, MONEY, len, 15, 0, with_nulls, |v| v as i64);
        let counts: ArrayRef =
            Arc::new(Int64Array::new(counts.values().clone(), counts.nulls().cloned()));
        cast_case(
            &format!("i64_to_d64_18_2{suffix}"),
            &label(" as i64, ×10^2 — favourable: fits i64"),
            len,
            &counts,
            &DataType::Decimal64(18, 2),
        );
    }
}
