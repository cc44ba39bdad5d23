//! Casts between decimals and integers or floats (any bit pattern) decoded
//! from raw bytes, held to the reference.
#![no_main]

use decimal_kernels_fuzz_decoder::check_number_cast_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Err(report) = check_number_cast_bytes(bytes) {
        panic!("{report}");
    }
});
