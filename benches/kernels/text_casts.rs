//! Casts between strings and decimals: `decimal_kernels::arrow::cast`
//! against `arrow_cast::cast`, both with the default options, each taking and
//! returning an Arrow array.
//! - `utf8_to_d64_15_2`, case `parse`: money `±<10^12` (40 bits) at scale 2
//!   written as arrow-cast writes it (`-1234567890.12`), a `Utf8` column read
//!   as `Decimal64(15,2)`: every text exact at the scale, favourable (fits
//!   `i64`).
//! - `d128_15_2_to_utf8`, case `format`: the same money as
//!   `Decimal128(15,2)`, written to `Utf8`.

use std::sync::Arc;

use arrow_array::types::Decimal128Type;
use arrow_array::{Array, ArrayRef};
use arrow_cast::CastOptions;
use arrow_schema::DataType;

use super::harness::{self, Case};
use super::{MONEY, Rng, money, sizes, with_nulls_label};

/// The two sides of one cast from `column` to `to_type`, compared, then timed.
fn cast_case(group: &str, case: &str, label: &str, column: ArrayRef, to_type: &DataType) {
    let rows = column.len();
    let case = Case { group, case, rows, distribution: label, peer: "arrow" };
    if !case.selected() {
        return;
    }
    let id = case.id();
    let options = CastOptions::default();
    let ours = || decimal_kernels::arrow::cast(column.as_ref(), to_type, &options).unwrap();
    let arrow = || arrow_cast::cast(column.as_ref(), to_type).unwrap();
    let check =
        |ours: ArrayRef, arrow: ArrayRef| assert_eq!(ours.to_data(), arrow.to_data(), "{id}");
    harness::compare(&case, check, ours, arrow);
}

/// Money read from `Utf8` as `Decimal64(15,2)` and written back to `Utf8`.
pub fn text_casts() {
    for (len, with_nulls) in sizes() {
        let suffix = if with_nulls { "_nulls" } else { "" };
        let rng = &mut Rng(0x3c6e_f372_fe94_f82b ^ len as u64);
        let decimals = money::<Decimal128Type>(rng, MONEY, len, 15, 2, with_nulls, |v| v);
        let decimals: ArrayRef = Arc::new(decimals);
        let texts = arrow_cast::cast(decimals.as_ref(), &DataType::Utf8).unwrap();
        let label = with_nulls_label(
            "money ±<10^12 (40 bits) at scale 2 as text, exact at the scale — favourable: fits \
             i64"
            .to_string(),
            with_nulls,
        );
        let parse_group = format!("utf8_to_d64_15_2{suffix}");
        cast_case(&parse_group, "parse", &label, texts, &DataType::Decimal64(15, 2));
        let format_group = format!("d128_15_2_to_utf8{suffix}");
        let label = with_nulls_label("money ±<10^12 (40 bits) at scale 2".to_string(), with_nulls);
        cast_case(&format_group, "format", &label, decimals, &DataType::Utf8);
    }
}
