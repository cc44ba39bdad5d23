//! `min` and `max`: whole-column against arrow's `min` and `max`
//! (`arrow_arith::aggregate`), and grouped `min` against a plain scatter
//! loop that keeps each group's least value (`i128::MAX` for a group no row
//! fell in), as an engine writes it by hand.
//!
//! Values: money, stored magnitudes uniform in `[1, 10^12)` (~40 bits) of
//! either sign, as `Decimal64(15,2)` and `Decimal128(15,2)`; and wide values
//! below `10^30` (~100 bits, beyond 64) as `Decimal128(38,10)`. Without
//! nulls and with every tenth row null, at 8,192 and 1,048,576 rows: the
//! crate's sizes without its 16-row case (`DK_BENCH_QUICK=1`: 8,192 rows
//! without nulls only). Groups uniform at random over 4 or
//! 1,000 groups, 8,192 rows without nulls.

use arrow_arith::aggregate;
use arrow_array::PrimitiveArray;
use arrow_array::types::{Decimal64Type, Decimal128Type, DecimalType as ArrowDecimal};
use arrow_buffer::i256;
use decimal_kernels::aggregate::{max, min, min_groups};
use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalNative, StorageWidth};

use super::harness::{self, Case};
use super::{Column, MONEY, Rng, money, ours, sizes, with_nulls_label};

/// Wide values: below `10^30` as stored integers (~100 bits).
const WIDE_30: u128 = 10_u128.pow(30);

/// One side's whole-column result: the stored value, `None` for null.
type Extreme<'a> = Box<dyn Fn() -> Option<i256> + 'a>;

/// Whole-column `min` and `max` of one column against arrow's.
fn whole<T: ArrowDecimal>(group: &str, label: &str, column: &PrimitiveArray<T>, width: StorageWidth)
where
    T::Native: DecimalNative + Into<i256>,
{
    let opts = ArithmeticOptions::arrow(width);
    let a = ours(column);
    let cases: [(&str, Extreme<'_>, Extreme<'_>); 2] = [
        (
            "min",
            Box::new(|| min(&a, &opts).unwrap().value()),
            Box::new(|| aggregate::min(column).map(Into::into)),
        ),
        (
            "max",
            Box::new(|| max(&a, &opts).unwrap().value()),
            Box::new(|| aggregate::max(column).map(Into::into)),
        ),
    ];
    for (name, ours, arrow) in cases {
        let case =
            Case { group, case: name, rows: column.len(), distribution: label, peer: "arrow" };
        let id = case.id();
        harness::compare(&case, |ours, arrow| assert_eq!(ours, arrow, "{id}"), ours, arrow);
    }
}

/// Whole-column `min` and `max` of `Decimal64` and `Decimal128` columns.
pub fn whole_column() {
    for (len, with_nulls) in sizes().into_iter().filter(|&(len, _)| len > 16) {
        let suffix = if with_nulls { "_nulls" } else { "" };
        let money_label =
            with_nulls_label(format!("money ±<10^12 (40 bits), {len} rows"), with_nulls);
        let rng = &mut Rng(41 ^ len as u64);
        let d64 = money::<Decimal64Type>(rng, MONEY, len, 15, 2, with_nulls, |v| {
            i64::try_from(v).unwrap()
        });
        whole(&format!("d64_15_2_minmax{suffix}"), &money_label, &d64, StorageWidth::I64);
        let d128 = money::<Decimal128Type>(rng, MONEY, len, 15, 2, with_nulls, |v| v);
        whole(&format!("d128_15_2_minmax{suffix}"), &money_label, &d128, StorageWidth::I128);
        let wide_label = with_nulls_label(
            format!("wide ±<10^30 (100 bits) — not favourable: beyond i64, {len} rows"),
            with_nulls,
        );
        let wide = money::<Decimal128Type>(rng, WIDE_30, len, 38, 10, with_nulls, |v| v);
        whole(&format!("d128_38_10_minmax{suffix}"), &wide_label, &wide, StorageWidth::I128);
    }
}

/// Grouped `min` against a scatter loop over the same buffers, allocating
/// its minima (and keeping no validity, so no null groups).
pub fn grouped_min() {
    let opts = ArithmeticOptions::arrow(StorageWidth::I128);
    let len = 8192;
    for groups in [4usize, 1000] {
        let label =
            format!("money ±<10^12 (40 bits), {len} rows uniform at random over {groups} groups");
        let name = format!("groups_{groups}");
        let case = Case {
            group: "d128_15_2_min_groups",
            case: &name,
            rows: len,
            distribution: &label,
            peer: "scatter_loop",
        };
        if !case.selected() {
            continue;
        }
        let rng = &mut Rng(43 ^ groups as u64);
        let column = money::<Decimal128Type>(rng, MONEY, len, 15, 2, false, |v| v);
        let indices: Vec<usize> =
            (0..len).map(|_| usize::try_from(rng.next()).unwrap() % groups).collect();
        let a = ours(&column);
        let values = column.values().clone();
        let ours = || min_groups(&a, &indices, groups, &opts).unwrap();
        let scatter = || {
            let mut least = vec![i128::MAX; groups];
            for (&v, &g) in values.iter().zip(&indices) {
                least[g] = least[g].min(v);
            }
            least
        };
        let id = case.id();
        let check = |got: DecimalArray, want: Vec<i128>| {
            for (g, &v) in want.iter().enumerate() {
                // A group no row fell in: null for us, `i128::MAX` for the loop.
                let got = got.row(g).unwrap_or(i256::from_i128(i128::MAX));
                assert_eq!(got, i256::from_i128(v), "{id}: group {g}");
            }
        };
        harness::compare(&case, check, ours, scatter);
    }
}
