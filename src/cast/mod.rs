//! Casts between decimals and other types: integers, floats and strings,
//! each under the options' profile, exact (rounded once, from the exact
//! value, and checked against the target).
