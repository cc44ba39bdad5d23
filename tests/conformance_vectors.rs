//! The committed conformance vectors (`conformance/vectors/`, the DataFusion
//! rendering `datafusion/tests/slt/conformance_arrow.slt` and the Spark SQL
//! one) are what `cargo run --example conformance_vectors` writes today:
//! each file regenerated in memory from the seed and the crate's reference
//! and compared with the committed one, so that a change of the reference or
//! of the generator cannot leave them stale. `tests/vectors.rs` runs the case
//! files through the kernels.

#[path = "../examples/conformance_vectors/cases.rs"]
mod cases;

use std::path::Path;
use std::sync::OnceLock;

use rstest::rstest;

/// The generated file at `path` (from the repository root).
#[track_caller]
fn generated(path: &str) -> String {
    static FILES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    let files = FILES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let plain = std::fs::read_to_string(root.join(cases::PLAIN_ANSWERS)).unwrap_or_default();
        cases::generate(&plain).files
    });
    files
        .iter()
        .find_map(|(p, text)| (p == path).then(|| text.clone()))
        .unwrap_or_else(|| panic!("the generator writes no {path}"))
}

#[rstest]
#[case::fixed_point("conformance/vectors/fixed_point.txt")]
#[case::arrow("conformance/vectors/arrow.txt")]
#[case::spark("conformance/vectors/spark.txt")]
#[case::spark_no_loss("conformance/vectors/spark_no_loss.txt")]
#[case::presto("conformance/vectors/presto.txt")]
#[case::spark_sql("conformance/vectors/spark.sql")]
#[case::datafusion_slt("datafusion/tests/slt/conformance_arrow.slt")]
fn committed_file_is_current(#[case] path: &str) {
    let committed = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let fresh = generated(path);
    let first = committed.lines().zip(fresh.lines()).position(|(a, b)| a != b);
    assert!(
        committed == fresh,
        "{path} is stale (first difference at line {}); run `cargo run --example \
         conformance_vectors` and commit the result",
        first.map_or_else(|| committed.lines().count().min(fresh.lines().count()) + 1, |i| i + 1)
    );
}

/// The generator is deterministic: two runs write the same files.
#[test]
fn generation_is_deterministic() {
    let a = cases::generate("");
    let b = cases::generate("");
    assert!(a.files == b.files, "two generations differ");
    let counts = a.counts;
    for (file, rows) in counts {
        assert!((250..=1000).contains(&rows), "{file}: {rows} cases");
    }
}

/// Every known difference the generator counts is one `# difference:`
/// comment of the sqllogictest rendering.
#[test]
fn differences_are_written_once_each() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let plain = std::fs::read_to_string(root.join(cases::PLAIN_ANSWERS)).unwrap_or_default();
    let generated = cases::generate(&plain);
    let slt = generated
        .files
        .iter()
        .find_map(|(p, text)| (p == cases::SLT).then_some(text))
        .expect("the sqllogictest rendering");
    let comments = slt.lines().filter(|l| l.starts_with("# difference:")).count();
    assert_eq!(comments, generated.differences);
}
