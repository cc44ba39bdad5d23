//! `sum`, `avg`, `min` and `max` of columns decoded from raw bytes, by group, whole and
//! through partitioned accumulators, held to the reference.
#![no_main]

use decimal_kernels_fuzz_decoder::check_aggregate_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Err(report) = check_aggregate_bytes(bytes) {
        panic!("{report}");
    }
});
