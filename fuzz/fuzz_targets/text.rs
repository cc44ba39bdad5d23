//! Parsing raw bytes as decimal text: typed errors, and values that print
//! and parse back to themselves.
#![no_main]

use decimal_kernels_fuzz_decoder::check_text;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Err(report) = check_text(bytes) {
        panic!("{report}");
    }
});
