//! conformance (todo)
