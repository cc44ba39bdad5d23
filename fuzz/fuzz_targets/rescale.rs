//! `rescale`, `neg`, `abs` and `round`/`floor`/`ceil`/`trunc` on calls of
//! one operand decoded from raw
//! bytes, held to the reference.
#![no_main]

use decimal_kernels_fuzz_decoder::check_unary_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Err(report) = check_unary_bytes(bytes) {
        panic!("{report}");
    }
});
