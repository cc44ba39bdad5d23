//! The fuzzers' kept inputs, replayed as regression tests.
//!
//! `fuzz/regressions/<target>/` holds, for each fuzz target, named inputs
//! (every one that exposed a bug, named for it, and hand-made ones failing
//! past the first 512-row block) and a few hundred that together reach most of
//! what the fuzzer's working corpus reached, chosen by `fuzz/minimize.sh`.
//! Each is decoded here exactly as the fuzz target decodes it and held to the
//! reference, so those paths stay covered by `cargo test`, in debug builds
//! with overflow checks on.

use std::fs;
use std::path::PathBuf;

use decimal_kernels::BinaryOp;
use decimal_kernels::conformance::fuzz::{
    check_aggregate_bytes, check_bytes, check_text, check_unary_bytes,
};
use rstest::rstest;

/// Every input kept for `target`, with its file name.
#[track_caller]
fn regressions(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let mut inputs: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a readable regression entry").path();
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path.file_name().unwrap_or_default().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 50, "{target}: only {} inputs kept", inputs.len());
    inputs
}

#[rstest]
#[case::add("add", BinaryOp::Add)]
#[case::sub("sub", BinaryOp::Sub)]
#[case::mul("mul", BinaryOp::Mul)]
#[case::div("div", BinaryOp::Div)]
#[case::rem("rem", BinaryOp::Rem)]
fn operator_regressions_conform(#[case] target: &str, #[case] op: BinaryOp) {
    for (name, bytes) in regressions(target) {
        if let Err(report) = check_bytes(op, &bytes) {
            panic!("fuzz/regressions/{target}/{name}: {report}");
        }
    }
}

/// The `rescale` target's inputs: `rescale`, `neg` and `abs` calls.
#[test]
fn unary_regressions_conform() {
    for (name, bytes) in regressions("rescale") {
        if let Err(report) = check_unary_bytes(&bytes) {
            panic!("fuzz/regressions/rescale/{name}: {report}");
        }
    }
}

#[test]
fn text_regressions_round_trip() {
    for (name, bytes) in regressions("text") {
        if let Err(report) = check_text(&bytes) {
            panic!("fuzz/regressions/text/{name}: {report}");
        }
    }
}

/// The `aggregate` target's inputs: `sum` and `avg` by group, whole and
/// through partitioned accumulators.
#[test]
fn aggregate_regressions_conform() {
    for (name, bytes) in regressions("aggregate") {
        if let Err(report) = check_aggregate_bytes(&bytes) {
            panic!("fuzz/regressions/aggregate/{name}: {report}");
        }
    }
}
