//! The checkout stands alone and ships clean: no code, test, bench or CI
//! script reads a folder beside the checkout, lock files are ignored by git,
//! and the release binary carries no full debug information.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else if path
            .extension()
            .is_none_or(|e| e == "rs" || e == "toml" || e == "sh")
        {
            out.push(path);
        }
    }
}

/// The tests read the corpus from a `shared` folder beside the checkout,
/// which a fresh clone does not have.
#[test]
fn regression_tests_read_a_folder_beside_the_checkout() {
    // Spelled in two parts so that this file does not find itself.
    let beside = ["..", "/shared"].concat();
    let mut files = vec![root().join("Cargo.toml")];
    for dir in ["src", "tests", "benches", ".ci"] {
        files_under(&root().join(dir), &mut files);
    }
    assert!(files.len() > 100, "only {} files found", files.len());
    let readers: Vec<String> = files
        .iter()
        .filter(|f| {
            std::fs::read(f)
                .is_ok_and(|bytes| bytes.windows(beside.len()).any(|w| w == beside.as_bytes()))
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(readers.is_empty(), "{beside} named in {readers:?}");
}

/// `newshound.db.lock` and `demo.db.lock` showed up in `git status`.
#[test]
fn regression_lock_files_were_not_ignored_by_git() {
    let ignore = std::fs::read_to_string(root().join(".gitignore")).unwrap();
    let patterns: Vec<&str> = ignore.lines().map(str::trim).collect();
    for file in ["newshound.db.lock", "demo.db.lock"] {
        let ignored = patterns.iter().any(|p| {
            p.strip_prefix('*')
                .is_some_and(|suffix| file.ends_with(suffix))
                || *p == file
        });
        assert!(ignored, "{file} not in .gitignore: {patterns:?}");
    }
}

/// The release binary was 120 MB, 95 MB of it debug information.
#[test]
fn regression_the_release_binary_carried_full_debug_information() {
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(root().join("Cargo.toml")).unwrap()).unwrap();
    let release = manifest["profile"]["release"]
        .as_table()
        .expect("[profile.release]");
    let debug = release.get("debug");
    let no_debug = debug.is_none()
        || debug.is_some_and(|d| {
            d.as_bool() == Some(false) || d.as_integer() == Some(0) || d.as_str() == Some("none")
        });
    let strip = release.get("strip").and_then(toml::Value::as_str);
    assert!(
        no_debug && matches!(strip, Some("debuginfo" | "symbols")),
        "[profile.release]: debug {debug:?}, strip {strip:?}"
    );
}
