//! `mul` on calls decoded from raw bytes, held to the reference.
#![no_main]

use decimal_kernels::BinaryOp;
use decimal_kernels_fuzz_decoder::check_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Err(report) = check_bytes(BinaryOp::Mul, bytes) {
        panic!("{report}");
    }
});
