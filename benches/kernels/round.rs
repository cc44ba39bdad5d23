//! `round(x, 2)` of money at scale 4 against what an engine on arrow-rs runs
//! for it (arrow-rs has no decimal rounding). Values: stored magnitudes
//! uniform in `[1, 10^14)` (47 bits) of either sign, two digits dropped half
//! away from zero; and `Decimal128(38,10)` values below `10^24` (80 bits).
//!
//! - `d64_15_4_round_2`, `d128_15_4_round_2`, `d128_38_10_round_2`:
//!   `decimal_kernels::arrow::round(x, 2)` at DataFusion's type
//!   (`decimal(p, 2)`), against `arrow_cast::cast` to that type, which
//!   rounds half away from zero as `round` does: one pass each (DataFusion
//!   52 rounds a decimal by dividing the stored integers by `10^2` with the
//!   remainder's half rule, the same pass).
//! - `d128_15_4_round_2_keep_scale`: Trino's type, `decimal(16,4)`, the
//!   dropped digits kept as zeros: `decimal_kernels::round` under the Presto
//!   profile (one pass, on the column's buffers without a copy), against
//!   `arrow_cast::cast` to `Decimal128(15,2)` and back up to
//!   `Decimal128(16,4)` (two passes).

use std::sync::Arc;

use arrow_array::types::{Decimal64Type, Decimal128Type};
use arrow_array::{ArrayRef, PrimitiveArray};
use arrow_schema::DataType;
use decimal_kernels::ArithmeticOptions;

use super::{MONEY_4, Pair, Rng, bench_pair, money, ours, sizes, with_nulls_label};

/// Values at scale 10 of up to 14 integer digits: below 10^24 (80 bits).
const WIDE_24: u128 = 10_u128.pow(24);

/// Arrow's `round(x, 2)` against arrow-cast to `to`.
fn arrow_round_case(group: &str, label: &str, column: ArrayRef, to: DataType) {
    let len = column.len();
    let source = column.clone();
    let pair = Pair {
        ours: Box::new(move || decimal_kernels::arrow::round(source.as_ref(), 2).unwrap()),
        arrow: Box::new(move || arrow_cast::cast(column.as_ref(), &to).unwrap()),
    };
    bench_pair(group, "round", len, label, pair);
}

/// Every `round` case at every size.
pub fn round_to_two_digits() {
    for (len, with_nulls) in sizes() {
        let suffix = if with_nulls { "_nulls" } else { "" };
        let label = |what: &str| with_nulls_label(what.to_owned(), with_nulls);
        let rng = &mut Rng(0x3c6e_f372_fe94_f82b ^ len as u64);
        let money_label = |storage: &str| {
            label(&format!(
                "money at scale 4 ±<10^14 (47 bits) stored in {storage}, ÷10^2 half up — \
                 favourable: fits i64"
            ))
        };
        let d64 = money::<Decimal64Type>(rng, MONEY_4, len, 15, 4, with_nulls, |v| v as i64);
        arrow_round_case(
            &format!("d64_15_4_round_2{suffix}"),
            &money_label("i64"),
            Arc::new(d64),
            DataType::Decimal64(15, 2),
        );
        let d128 = money::<Decimal128Type>(rng, MONEY_4, len, 15, 4, with_nulls, |v| v);
        arrow_round_case(
            &format!("d128_15_4_round_2{suffix}"),
            &money_label("i128"),
            Arc::new(d128.clone()),
            DataType::Decimal128(15, 2),
        );
        keep_scale_case(&format!("d128_15_4_round_2_keep_scale{suffix}"), with_nulls, d128);
        let wide = money::<Decimal128Type>(rng, WIDE_24, len, 38, 10, with_nulls, |v| v);
        arrow_round_case(
            &format!("d128_38_10_round_2{suffix}"),
            &label("±<10^24 (80 bits) at scale 10, ÷10^8 half up — not favourable: beyond i64"),
            Arc::new(wide),
            DataType::Decimal128(38, 2),
        );
    }
}

/// Trino's `round(x, 2)` of `Decimal128(15,4)`, kept at scale 4 in
/// `decimal(16,4)`, against two arrow-cast passes.
fn keep_scale_case(group: &str, with_nulls: bool, column: PrimitiveArray<Decimal128Type>) {
    let len = column.len();
    let a = ours(&column);
    let opts = ArithmeticOptions::presto();
    let column: ArrayRef = Arc::new(column);
    let pair = Pair {
        ours: Box::new(move || decimal_kernels::round(&a, 2, &opts).unwrap()),
        arrow: Box::new(move || {
            let rounded = arrow_cast::cast(column.as_ref(), &DataType::Decimal128(15, 2)).unwrap();
            arrow_cast::cast(rounded.as_ref(), &DataType::Decimal128(16, 4)).unwrap()
        }),
    };
    let label = with_nulls_label(
        "money at scale 4 ±<10^14 (47 bits) stored in i128, ÷10^2 half up, ×10^2 back — \
         favourable: fits i64"
            .to_owned(),
        with_nulls,
    );
    bench_pair(group, "round", len, &label, pair);
}
