//! Aggregates: whole-column sum and avg against arrow's `sum_checked` (avg:
//! `sum_checked`, then DataFusion's final step, the sum at four more digits
//! divided by the count, truncated), and grouped sums against two plain `i128`
//! loops that scatter each row into its group: one adding with `checked_add`
//! and failing on the first overflow, as an engine writes it by hand, and one
//! that wraps, the machine's limit. Values: `Decimal128(15,2)` money, stored
//! magnitudes uniform in `[1, 10^12)` (~40 bits) of either sign; groups
//! uniform at random over 4 (TPC-H Q1's) or 1,000 groups. Arrow profile
//! types: sum `decimal(25,2)`, avg `decimal(19,6)`. Sums of `n` rows stay
//! below `n · 10^12`: 53 bits at 8,192 rows, 60 at 1,048,576, so every case
//! is favourable (64 bits).

use arrow_arith::aggregate::sum_checked;
use arrow_array::Array;
use arrow_array::types::Decimal128Type;
use arrow_buffer::i256;
use arrow_schema::ArrowError;
use decimal_kernels::aggregate::{avg, sum, sum_groups};
use decimal_kernels::{ArithmeticOptions, DecimalArray, StorageWidth};

use super::harness::{self, Case};
use super::{Column, MONEY, Rng, money, ours, sizes, with_nulls_label};

/// One side's whole-column result: the stored value, `None` for null.
type Total<'a> = Box<dyn Fn() -> Option<i256> + 'a>;

/// The bits of the largest sum of `rows` money values.
fn sum_bits(rows: usize) -> u32 {
    (rows as u128 * MONEY).ilog2() + 1
}

/// Whole-column sum and avg against arrow.
pub fn whole_column() {
    let opts = ArithmeticOptions::arrow(StorageWidth::I128);
    for (len, with_nulls) in sizes() {
        let rng = &mut Rng(23 ^ len as u64);
        let column = money::<Decimal128Type>(rng, MONEY, len, 15, 2, with_nulls, |v| v);
        let a = ours(&column);
        let suffix = if with_nulls { "_nulls" } else { "" };
        let arrow_avg = || {
            let total = sum_checked(&column).unwrap()?;
            let count = i128::try_from(column.len() - column.null_count()).unwrap();
            Some(total.checked_mul(10_000)? / count)
        };
        let cases: [(&str, Total<'_>, Total<'_>); 2] = [
            (
                "sum",
                Box::new(|| sum(&a, &opts).unwrap().value()),
                Box::new(|| sum_checked(&column).unwrap().map(i256::from_i128)),
            ),
            (
                "avg",
                Box::new(|| avg(&a, &opts).unwrap().value()),
                Box::new(move || arrow_avg().map(i256::from_i128)),
            ),
        ];
        for (name, ours, arrow) in cases {
            let group = format!("d128_15_2_{name}{suffix}");
            let then = if name == "avg" { ", then ÷ count at 4 more digits" } else { "" };
            let label = with_nulls_label(
                format!(
                    "money ±<10^12 (40 bits), {len} rows: sums <{len}·10^12 ({} bits){then} — \
                     favourable: fits i64",
                    sum_bits(len)
                ),
                with_nulls,
            );
            let case =
                Case { group: &group, case: name, rows: len, distribution: &label, peer: "arrow" };
            let id = case.id();
            let check = |ours, arrow| assert_eq!(ours, arrow, "{id}");
            harness::compare(&case, check, ours, arrow);
        }
    }
}

/// Grouped sums against two plain scatter loops over the same buffers, each
/// allocating its sums (and keeping no counts, so no null groups): one that
/// adds with `checked_add` and returns an error on the first overflow, as an
/// engine writes it by hand (`d128_15_2_sum_groups`, peer `checked_loop`),
/// and one that wraps, the machine's limit (`d128_15_2_sum_groups_limit`).
pub fn grouped_sums() {
    let opts = ArithmeticOptions::arrow(StorageWidth::I128);
    for (len, _) in sizes().into_iter().filter(|&(_, with_nulls)| !with_nulls) {
        for groups in [4usize, 1000] {
            let label = format!(
                "money ±<10^12 (40 bits), {len} rows uniform at random over {groups} groups: \
                 group sums <{len}·10^12 ({} bits) — favourable: fits i64",
                sum_bits(len)
            );
            let name = format!("groups_{groups}");
            let case =
                |group, peer| Case { group, case: &name, rows: len, distribution: &label, peer };
            let checked_case = case("d128_15_2_sum_groups", "checked_loop");
            let limit_case = case("d128_15_2_sum_groups_limit", "wrapping_loop");
            if !checked_case.selected() && !limit_case.selected() {
                continue;
            }
            let rng = &mut Rng(29 ^ len as u64 ^ groups as u64);
            let column = money::<Decimal128Type>(rng, MONEY, len, 15, 2, false, |v| v);
            let indices: Vec<usize> =
                (0..len).map(|_| usize::try_from(rng.next()).unwrap() % groups).collect();
            let a = ours(&column);
            let values = column.values().clone();
            let ours = || sum_groups(&a, &indices, groups, &opts).unwrap();
            let wrapping = || {
                let mut sums = vec![0i128; groups];
                for (&v, &g) in values.iter().zip(&indices) {
                    sums[g] = sums[g].wrapping_add(v);
                }
                sums
            };
            let checked = || -> Result<Vec<i128>, ArrowError> {
                let mut sums = vec![0i128; groups];
                for (row, (&v, &g)) in values.iter().zip(&indices).enumerate() {
                    sums[g] = sums[g].checked_add(v).ok_or_else(|| {
                        ArrowError::ArithmeticOverflow(format!("sum overflows at row {row}"))
                    })?;
                }
                Ok(sums)
            };
            let check = |id: String| {
                move |got: DecimalArray, want: Vec<i128>| {
                    for (g, &v) in want.iter().enumerate() {
                        // A group no row fell in: null for us, zero for the loops.
                        let got = got.row(g).unwrap_or(i256::ZERO);
                        assert_eq!(got, i256::from_i128(v), "{id}: group {g}");
                    }
                }
            };
            let checked_check = check(checked_case.id());
            harness::compare(
                &checked_case,
                |got, want: Result<Vec<i128>, ArrowError>| checked_check(got, want.unwrap()),
                ours,
                checked,
            );
            harness::compare(&limit_case, check(limit_case.id()), ours, wrapping);
        }
    }
}
