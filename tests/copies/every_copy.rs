//! The conformance matrix in every compiled copy of the kernels this CPU
//! runs (`portable`, `avx2`, `avx512`).
//!
//! A process runs one copy, chosen once (see `decimal_kernels::active_isa`),
//! so the matrix's binary (`tests/conformance_matrix.rs`, which includes
//! this file as a module) runs itself again, for each copy other than its
//! own, with `DECIMAL_KERNELS_ISA` naming that copy and filters selecting
//! part of the matrix ([`FILTERS`]) and [`active_copy`]: the child must pass
//! as many tests as the filters select here, and report the copy it was
//! asked for. The copy this process runs is covered by the in-process run
//! of the whole matrix.

use std::process::Command;

/// The environment variable that caps the copy a process runs.
const KNOB: &str = "DECIMAL_KERNELS_ISA";

/// The tests a child runs, about a third of the matrix (some 15 s a copy in
/// a debug build): every operator and profile over the types of up to 38
/// digits (cases 01 to 09, where the copies' work types and algorithm
/// choices differ: `i64` and `i128`, the estimated divisions and rounded
/// products), 76 digits and a negative scale; every unary operator; the
/// named outcomes, ties and failures across block boundaries; and the
/// check of the child's copy. The aggregates' only copy-dependent step,
/// the measure of a column, is compared copy by copy in the kernels'
/// unit tests.
const FILTERS: [&str; 9] = [
    "matches_reference::case_0",
    "matches_reference::case_12_",
    "matches_reference::case_15_",
    "unary_matches_reference::",
    "direct",
    "rounds_ties",
    "failing_row",
    "unary_of_unchecked_extremes::",
    "every_copy::active_copy::",
];

/// The copy a process runs is the one `DECIMAL_KERNELS_ISA` names, when
/// this CPU runs it.
mod active_copy {
    use decimal_kernels::{ArithmeticOptions, DecimalArray, DecimalType, active_isa, add};

    #[test]
    fn is_the_requested_one() {
        // After a call, as an application would ask.
        let t = DecimalType::try_new(5, 2).unwrap();
        let a = DecimalArray::from_strs(t, &[Some("1.25")]).unwrap();
        let sum = add(&a, &a, &ArithmeticOptions::default()).unwrap();
        assert_eq!(sum.to_strs(), [Some("2.50".into())]);
        let runnable = decimal_kernels_native::runnable_isas();
        assert!(runnable.contains(&active_isa()), "{} not in {runnable:?}", active_isa());
        let requested = std::env::var(super::KNOB).unwrap_or_default().to_ascii_lowercase();
        if runnable.contains(&requested.as_str()) {
            assert_eq!(active_isa(), requested);
        } else {
            assert_eq!(Some(&active_isa()), runnable.last(), "the best copy, uncapped");
        }
    }
}

/// This binary's output with `args`, the copy capped at `isa`; panics
/// unless it exits successfully.
#[track_caller]
fn run_self(isa: &str, args: &[&str]) -> String {
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args(args)
        .args(FILTERS)
        .env(KNOB, isa)
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{isa} copy, {args:?}: {}\n{stdout}\n{stderr}", out.status);
    stdout
}

/// The number of tests passed in a libtest summary line
/// (`test result: ok. N passed; …`).
#[track_caller]
fn passed(stdout: &str) -> usize {
    let summary = stdout
        .lines()
        .find_map(|line| line.strip_prefix("test result: ok. "))
        .unwrap_or_else(|| panic!("no passing summary in:\n{stdout}"));
    let count = summary.split(' ').next().unwrap_or_default();
    count.parse().unwrap_or_else(|_| panic!("no count in {summary:?}"))
}

#[test]
fn every_other_copy_passes_the_selected_matrix_cases() {
    let own = decimal_kernels::active_isa();
    let others: Vec<_> =
        decimal_kernels_native::runnable_isas().into_iter().filter(|&isa| isa != own).collect();
    // One copy (another architecture, or a CPU without AVX2): the in-process
    // run of the matrix is the whole test, and no child is started (under an
    // emulator the binary may not run as a child).
    if others.is_empty() {
        return;
    }
    let listed = run_self(own, &["--list"]);
    let selected = listed.lines().filter(|line| line.ends_with(": test")).count();
    assert!(
        listed.contains("every_copy::active_copy::is_the_requested_one: test") && selected > 100,
        "the filters select the matrix:\n{listed}"
    );
    for isa in others {
        let stdout = run_self(isa, &[]);
        assert!(
            stdout.contains("test every_copy::active_copy::is_the_requested_one ... ok"),
            "{stdout}"
        );
        assert_eq!(passed(&stdout), selected, "{isa} copy:\n{stdout}");
    }
}
