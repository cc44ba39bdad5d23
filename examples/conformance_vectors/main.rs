//! Writes the conformance vectors: one case file per profile under
//! `conformance/vectors/`, their DataFusion sqllogictest rendering
//! (`datafusion/tests/slt/conformance_arrow.slt`) and their Spark SQL
//! rendering (`conformance/vectors/spark.sql`), all from a fixed seed with
//! every outcome computed by the crate's exact reference. Run from anywhere;
//! paths are taken from the repository root. See conformance/README.md.
//!
//! ```sh
//! cargo run --example conformance_vectors
//! ```

mod cases;

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let plain = std::fs::read_to_string(root.join(cases::PLAIN_ANSWERS)).unwrap_or_default();
    let cases::Generated { files, counts, differences } = cases::generate(&plain);
    for (path, text) in &files {
        let path = root.join(path);
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        println!("wrote {} ({} bytes)", path.display(), text.len());
    }
    for (file, rows) in counts {
        println!("{file}: {rows} cases");
    }
    println!("{}: {differences} known differences of plain DataFusion", cases::SLT);
}
