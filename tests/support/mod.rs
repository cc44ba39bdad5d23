//! What the integration tests share: one deterministic value generator
//! ([`values`]), types and columns built in one line ([`types`]), and
//! assertions that set two outcomes of a call side by side ([`outcomes`]),
//! and each aggregate through its own function ([`aggregates`]).
//!
//! Each test file includes it with `mod support;` and uses the parts it needs.

pub mod aggregates;
pub mod outcomes;
pub mod types;
pub mod values;
