//! The six comparisons on two operands decoded from raw bytes, through
//! `compare` and the named functions, held to the reference.
#![no_main]

use decimal_kernels_fuzz_decoder::check_compare_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Err(report) = check_compare_bytes(bytes) {
        panic!("{report}");
    }
});
