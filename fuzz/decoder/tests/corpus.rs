//! The fuzzers' kept inputs, replayed as regression tests.
//!
//! `fuzz/regressions/<target>.txt` holds, for each fuzz target, one input a
//! line in hex: named inputs (every one that exposed a bug, named for it, and
//! hand-made ones failing past the first 512-row block) and a few hundred that
//! together reach most of what the fuzzer's working corpus reached, chosen by
//! `fuzz/minimize.sh`. Each is decoded here exactly as the fuzz target
//! decodes it and held to the reference, so those paths stay covered by
//! `cargo test`, in debug builds with overflow checks on.

use std::fs;
use std::path::PathBuf;

use decimal_kernels::BinaryOp;
use decimal_kernels_fuzz_decoder::{
    check_aggregate_bytes, check_bytes, check_compare_bytes, check_number_cast_bytes, check_text,
    check_unary_bytes,
};
use rstest::rstest;

/// The bytes `hex` spells, two digits a byte.
fn unhex(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) {
        return Err(format!("{} hex digits, an odd number", hex.len()));
    }
    (0..hex.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(&hex[at..at + 2], 16).map_err(|e| format!("at {at}: {e}")))
        .collect()
}

/// Every input kept for `target`, with its name (or line number, for an
/// input without one).
#[track_caller]
fn regressions(target: &str) -> Vec<(String, Vec<u8>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../regressions")
        .join(format!("{target}.txt"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let inputs: Vec<(String, Vec<u8>)> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(index, line)| {
            let (hex, name) = line.split_once(' ').unwrap_or((line, ""));
            let name = if name.is_empty() { format!("line {}", index + 1) } else { name.into() };
            let bytes = unhex(hex).unwrap_or_else(|e| panic!("{}: {name}: {e}", path.display()));
            (name, bytes)
        })
        .collect();
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
            panic!("fuzz/regressions/{target}.txt, {name}: {report}");
        }
    }
}

/// The `rescale` target's inputs: `rescale`, `neg` and `abs` calls.
#[test]
fn unary_regressions_conform() {
    for (name, bytes) in regressions("rescale") {
        if let Err(report) = check_unary_bytes(&bytes) {
            panic!("fuzz/regressions/rescale.txt, {name}: {report}");
        }
    }
}

#[test]
fn text_regressions_round_trip() {
    for (name, bytes) in regressions("text") {
        if let Err(report) = check_text(&bytes) {
            panic!("fuzz/regressions/text.txt, {name}: {report}");
        }
    }
}

/// The `aggregate` target's inputs: `sum` and `avg` by group, whole and
/// through partitioned accumulators.
#[test]
fn aggregate_regressions_conform() {
    for (name, bytes) in regressions("aggregate") {
        if let Err(report) = check_aggregate_bytes(&bytes) {
            panic!("fuzz/regressions/aggregate.txt, {name}: {report}");
        }
    }
}

/// The `compare` target's inputs: the six comparisons, through `compare`
/// and the named functions.
#[test]
fn compare_regressions_conform() {
    for (name, bytes) in regressions("compare") {
        if let Err(report) = check_compare_bytes(&bytes) {
            panic!("fuzz/regressions/compare.txt, {name}: {report}");
        }
    }
}

/// The `number_cast` target's inputs: decimals to integers and floats, and
/// back.
#[test]
fn number_cast_regressions_conform() {
    for (name, bytes) in regressions("number_cast") {
        if let Err(report) = check_number_cast_bytes(&bytes) {
            panic!("fuzz/regressions/number_cast.txt, {name}: {report}");
        }
    }
}
