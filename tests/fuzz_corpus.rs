//! The fuzzers' kept corpus, replayed as regression tests.
//!
//! `fuzz/corpus/<target>/` holds the inputs `cargo fuzz` found interesting
//! (each reached code the others did not), minimized with `cargo fuzz cmin`.
//! Each is decoded here exactly as the fuzz target decodes it and held to the
//! reference, so every path the fuzzers reached stays covered by
//! `cargo test`, in debug builds with overflow checks on.

use std::fs;
use std::path::PathBuf;

use decimal_kernels::BinaryOp;
use decimal_kernels::conformance::fuzz::{check_bytes, check_text};
use rstest::rstest;

/// Every input kept for `target`, with its file name.
#[track_caller]
fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut inputs: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a readable corpus entry").path();
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path.file_name().unwrap_or_default().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 100, "{target}: only {} inputs kept", inputs.len());
    inputs
}

#[rstest]
#[case::add("add", BinaryOp::Add)]
#[case::sub("sub", BinaryOp::Sub)]
#[case::mul("mul", BinaryOp::Mul)]
#[case::div("div", BinaryOp::Div)]
fn operator_corpus_conforms(#[case] target: &str, #[case] op: BinaryOp) {
    for (name, bytes) in corpus(target) {
        if let Err(report) = check_bytes(op, &bytes) {
            panic!("fuzz/corpus/{target}/{name}: {report}");
        }
    }
}

#[test]
fn text_corpus_round_trips() {
    for (name, bytes) in corpus("text") {
        if let Err(report) = check_text(&bytes) {
            panic!("fuzz/corpus/text/{name}: {report}");
        }
    }
}
