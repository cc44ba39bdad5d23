//! The aggregates layer: exact sums (`sum`) and means (`avg`) of decimal
//! columns, whole or by group, with states an engine exports and merges,
//! checked against a result precision when finished.

pub(crate) mod avg;
pub(crate) mod sum;
