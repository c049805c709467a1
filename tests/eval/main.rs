//! Extraction quality: mean F1 floors on the corpus (`tests/corpus`), per-site
//! boilerplate learning in page order (cleanportaleval) and on the simulated
//! web's templates.

mod boilerplate_sequence;
mod boilerplate_simweb;
mod corpus;

/// The repository's corpus (one `tests/corpus/<set>.tar.zst` per set),
/// unpacked under `target/corpus` once per archive.
fn corpus() -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    newshound::corpus_archive::unpacked(&root.join("tests/corpus"), &root.join("target/corpus"))
        .unwrap_or_else(|e| panic!("the corpus of tests/corpus: {e}"))
}
