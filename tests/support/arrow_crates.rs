// The arrow crates of the selected major under their usual names, for the
// tests, benches and examples that `include!` this file at their root. Under
// `arrow_60` the library's dependencies already carry those names; under
// `arrow_59` they are renamed (arrow-cast too, an optional dependency of the
// library under either major). Both arrow-arith majors are dev-dependencies
// (which cannot follow a feature), each renamed.

#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_arith_59 as arrow_arith;
#[cfg(feature = "arrow_60")]
extern crate arrow_arith_60 as arrow_arith;

#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_array_59 as arrow_array;
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_buffer_59 as arrow_buffer;
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_cast_59 as arrow_cast;
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_ord_59 as arrow_ord;
#[cfg(all(feature = "arrow_59", not(feature = "arrow_60")))]
extern crate arrow_schema_59 as arrow_schema;
