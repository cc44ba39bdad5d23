//! Wall-clock time per step of Q1, summed over the batches, and the table
//! that sets the two evaluations side by side.

use std::fmt::Write;
use std::time::{Duration, Instant};

/// The steps timed, in the order a batch goes through them.
#[derive(Debug, Clone, Copy)]
pub enum Step {
    /// The `l_shipdate` predicate and the filter of the kept rows.
    Filter,
    /// `l_extendedprice * (1 - l_discount)` and that times `(1 + l_tax)`.
    Products,
    /// Group numbers, the running sums and averages, and the final values.
    Aggregate,
}

/// Each step's name in the table.
const NAMES: [&str; 3] = ["filter", "products", "grouped aggregation"];

/// Time spent in each step.
#[derive(Debug, Clone, Copy, Default)]
pub struct Steps([Duration; 3]);

impl Steps {
    /// Runs `work`, adding its wall-clock time to `step`.
    pub fn time<T>(&mut self, step: Step, work: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = work();
        self.0[step as usize] += start.elapsed();
        out
    }

    /// The shorter time of each step, over two runs.
    pub fn min(self, other: Self) -> Self {
        Self(std::array::from_fn(|i| self.0[i].min(other.0[i])))
    }

    /// All steps together.
    fn total(self) -> Duration {
        self.0.iter().sum()
    }
}

/// The timing table: each step in milliseconds for arrow-rs and for
/// decimal-kernels, and the ratio (arrow-rs time over decimal-kernels time,
/// so above 1 is faster with decimal-kernels).
pub fn table(arrow_rs: Steps, kernels: Steps) -> String {
    let mut out = format!(
        "{:<20} {:>12} {:>18} {:>7}\n",
        "step", "arrow-rs ms", "decimal-kernels ms", "ratio"
    );
    let rows = NAMES.iter().zip(arrow_rs.0.iter().zip(kernels.0));
    let total = ("total", (arrow_rs.total(), kernels.total()));
    for (name, (a, k)) in rows.map(|(n, (a, k))| (*n, (*a, k))).chain([total]) {
        let (a, k) = (a.as_secs_f64() * 1e3, k.as_secs_f64() * 1e3);
        let _ = writeln!(out, "{name:<20} {a:>12.1} {k:>18.1} {:>6.2}×", a / k);
    }
    out
}
