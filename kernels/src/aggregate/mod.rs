//! The aggregates layer: exact sums (`sum`), means (`avg`) and extremes
//! (`min`, `max`) of decimal columns, whole or by group, with states an engine exports and merges,
//! checked against a result precision when finished.

pub(crate) mod avg;
pub(crate) mod min_max;
pub(crate) mod sum;
