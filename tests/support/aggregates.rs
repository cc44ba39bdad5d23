//! Each aggregate through its own public function, whole and by group, so
//! that a test can loop over `AggregateOp` and keep its own checks.

use decimal_kernels::aggregate::{
    AggregateOp, avg, avg_groups, max, max_groups, min, min_groups, sum, sum_groups,
};
use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalError, DecimalScalar};

/// `op` of `values` by group (`groups[row]` of `total`) through its own
/// function.
pub fn aggregate_groups(
    op: AggregateOp,
    values: &DecimalArray,
    groups: &[usize],
    total: usize,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    match op {
        AggregateOp::Sum => sum_groups(values, groups, total, options),
        AggregateOp::Avg => avg_groups(values, groups, total, options),
        AggregateOp::Min => min_groups(values, groups, total, options),
        AggregateOp::Max => max_groups(values, groups, total, options),
        other => panic!("no function for {other}"),
    }
}

/// `op` over the whole of `values` through its own function.
pub fn aggregate(
    op: AggregateOp,
    values: &DecimalArray,
    options: &ArithmeticOptions,
) -> Result<DecimalScalar, DecimalError> {
    match op {
        AggregateOp::Sum => sum(values, options),
        AggregateOp::Avg => avg(values, options),
        AggregateOp::Min => min(values, options),
        AggregateOp::Max => max(values, options),
        other => panic!("no function for {other}"),
    }
}
