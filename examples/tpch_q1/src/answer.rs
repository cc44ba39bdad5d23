//! Q1's answer as both evaluations return it, TPC-H's published answer for
//! scale factor 1, and the comparison of the two.
//!
//! Our answer is exact, in the result types a DataFusion-like planner gives
//! (sums `decimal(p+10, s)` up to 38 digits, averages `decimal(p+4, s+4)`
//! truncated). The published answer prints every sum and average with two
//! fraction digits, rounded to nearest (its N|O `sum_charge` is exactly
//! 110367043872.497010 and printed as `.50`). So each of our values is
//! rounded half up (ties away from zero) to the digits of the published
//! value it is compared with, and the texts must be equal; counts are
//! compared as they are. For the averages this is the rounding of the exact
//! mean too: a tie at two digits has a value at six, so truncating to six
//! digits first never moves a mean across one.

use std::error::Error;
use std::fmt::Write;

use arrow::array::{Array, Decimal128Array};
use arrow::datatypes::{DataType, Decimal128Type, DecimalType};

use crate::lineitem::Groups;

/// The aggregates of Q1's select list, in its order; `count_order` follows.
pub const AGGREGATES: [&str; 7] = [
    "sum_qty",
    "sum_base_price",
    "sum_disc_price",
    "sum_charge",
    "avg_qty",
    "avg_price",
    "avg_disc",
];

/// TPC-H's published answer for Q1 at scale factor 1, `answers/q1.out` of
/// the TPC-H tools (`dbgen`): the qualification database's result under the
/// query's validation parameter (DELTA = 90 days), without the file's column
/// padding. Columns as [`HEADER`].
const PUBLISHED: [&str; 4] = [
    "A|F|37734107.00|56586554400.73|53758257134.87|55909065222.83|25.52|38273.13|0.05|1478493",
    "N|F|991417.00|1487504710.38|1413082168.05|1469649223.19|25.52|38284.47|0.05|38854",
    "N|O|74476040.00|111701729697.74|106118230307.61|110367043872.50|25.50|38249.12|0.05|2920374",
    "R|F|37719753.00|56568041380.90|53741292684.60|55889619119.83|25.51|38250.85|0.05|1478870",
];

/// The answer's columns, as `q1.out` names them.
const HEADER: &str = "l_returnflag|l_linestatus|sum_qty|sum_base_price|sum_disc_price|sum_charge|avg_qty|avg_price|avg_disc|count_order";

/// One group of the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// `l_returnflag`, `l_linestatus`.
    pub flags: [u8; 2],
    /// The stored values of [`AGGREGATES`], each at its type's scale.
    pub values: [i128; 7],
    /// `count_order`.
    pub count: u64,
}

/// Q1's answer, exact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Precision and scale of each of [`AGGREGATES`].
    pub types: [(u8, i8); 7],
    /// One row per group, ordered by the flags (`ORDER BY l_returnflag,
    /// l_linestatus`).
    pub rows: Vec<Row>,
}

impl Answer {
    /// Collects an evaluation's result: one value per group number in each
    /// of the aggregates' columns, and the groups' row counts.
    pub fn new(
        groups: &Groups,
        columns: [&Decimal128Array; 7],
        counts: &[u64],
    ) -> Result<Self, Box<dyn Error>> {
        let mut types = [(0, 0); 7];
        for ((name, column), t) in AGGREGATES.iter().zip(columns).zip(&mut types) {
            if column.len() != groups.len() || column.null_count() > 0 {
                return Err(format!("{name}: one value per group expected").into());
            }
            let DataType::Decimal128(precision, scale) = *column.data_type() else {
                return Err(format!("{name}: a Decimal128 result expected").into());
            };
            *t = (precision, scale);
        }
        if counts.len() != groups.len() {
            return Err("one count per group expected".into());
        }
        let mut rows: Vec<Row> = (groups.keys().iter().zip(counts).enumerate())
            .map(|(group, (&flags, &count))| Row {
                flags,
                values: columns.map(|c| c.value(group)),
                count,
            })
            .collect();
        rows.sort_by_key(|row| row.flags);
        Ok(Self { types, rows })
    }

    /// The result types, as `sum_qty decimal(25,2), …`.
    pub fn type_line(&self) -> String {
        let types: Vec<_> = AGGREGATES
            .iter()
            .zip(self.types)
            .map(|(n, (p, s))| format!("{n} decimal({p},{s})"))
            .collect();
        types.join(", ")
    }

    /// The exact answer, one line per group, as `q1.out` lays it out.
    pub fn table(&self) -> String {
        let mut out = format!("{HEADER}\n");
        for row in &self.rows {
            let values = row.values.iter().zip(self.types);
            let values: Vec<_> =
                values.map(|(&v, (p, s))| Decimal128Type::format_decimal(v, p, s)).collect();
            let [r, l] = row.flags.map(char::from);
            let _ = writeln!(out, "{r}|{l}|{}|{}", values.join("|"), row.count);
        }
        out
    }

    /// Compares with [`PUBLISHED`]: our values rounded half up to the
    /// published digits. Returns the published lines each marked with the
    /// outcome, and the number of differing values (0 when it matches).
    pub fn check_published(&self) -> (String, usize) {
        let mut out = String::new();
        let mut differences = 0;
        if self.rows.len() != PUBLISHED.len() {
            differences += 1;
            let _ = writeln!(out, "{} groups, the published answer has 4", self.rows.len());
        }
        for (published, row) in PUBLISHED.iter().zip(&self.rows) {
            let ours = self.rounded_like(row, published);
            if ours == *published {
                let _ = writeln!(out, "{published}  equal");
            } else {
                let differing = ours.split('|').zip(published.split('|')).filter(|(a, b)| a != b);
                differences += differing.count().max(1);
                let _ = writeln!(out, "{published}  published\n{ours}  ours, DIFFERENT");
            }
        }
        (out, differences)
    }

    /// `row` printed as `published` prints it: each aggregate rounded half
    /// up to as many fraction digits as the published value has.
    fn rounded_like(&self, row: &Row, published: &str) -> String {
        let fields: Vec<&str> = published.split('|').collect();
        let [r, l] = row.flags.map(char::from);
        let mut out = format!("{r}|{l}");
        for (i, (&value, (_, scale))) in row.values.iter().zip(self.types).enumerate() {
            let digits = fields.get(i + 2).map_or(0, |f| fraction_digits(f));
            let text = match round_half_up(value, scale, digits) {
                Some(v) => Decimal128Type::format_decimal(v, 38, digits),
                None => "(out of range)".to_string(),
            };
            let _ = write!(out, "|{text}");
        }
        let _ = write!(out, "|{}", row.count);
        out
    }
}

/// Fraction digits of a printed number (`25.52` has 2).
fn fraction_digits(text: &str) -> i8 {
    let digits = text.split_once('.').map_or(0, |(_, fraction)| fraction.len());
    i8::try_from(digits).unwrap_or(i8::MAX)
}

/// `value × 10^-scale` rounded half up (a tie away from zero) to `digits`
/// fraction digits, as a stored value at scale `digits`; `None` when that
/// does not fit an `i128`.
pub fn round_half_up(value: i128, scale: i8, digits: i8) -> Option<i128> {
    let shift = u32::try_from(i32::from(scale) - i32::from(digits));
    let Ok(shift) = shift else {
        // More digits than the value has: exact, by appending zeros.
        let grow = u32::try_from(i32::from(digits) - i32::from(scale)).ok()?;
        return 10_i128.checked_pow(grow)?.checked_mul(value);
    };
    let Some(divisor) = 10_i128.checked_pow(shift) else {
        // 10^39 or more: every i128 is below half of it.
        return Some(0);
    };
    let (quotient, remainder) = (value / divisor, value % divisor);
    // |remainder| < divisor <= 10^38, so twice it fits a u128.
    let tie_or_more = remainder.unsigned_abs() * 2 >= divisor.unsigned_abs();
    Some(if tie_or_more { quotient + value.signum() } else { quotient })
}
