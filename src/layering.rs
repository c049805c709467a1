//! The house's layering, checked from the source: every `crate::…` path (use
//! lines and inline paths) and every `super::…` path of the library's files
//! is read, and the test fails on an import from a higher layer into a lower
//! one (or between two modules of one layer), and on a cycle between sibling
//! files of one module. The layers are the list in `src/lib.rs`.
//!
//! In: the files under `src/` (the binary's `main.rs` and `cli/` are above
//! the library and left out). Out: a failing assertion naming each bad import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `N. name, name` lines of the "Layers" list in `src/lib.rs`.
fn layers(lib_rs: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let mut in_list = false;
    for line in lib_rs.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim();
        if doc.starts_with("Layers") {
            in_list = true;
            continue;
        }
        if !in_list {
            continue;
        }
        let Some((n, names)) = doc.split_once(". ") else {
            if !out.is_empty() {
                break;
            }
            continue;
        };
        let Ok(n) = n.parse::<usize>() else { break };
        for name in names.split(',') {
            let name = name.trim().trim_matches('`');
            let name = name.split_whitespace().next().unwrap_or("");
            out.insert(name.trim_matches('`').to_string(), n);
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Module path of a file: `src/store/lines.rs` → `[store, lines]`,
/// `src/store/mod.rs` → `[store]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Identifiers at `at` (just after `crate::` or `super::`): one, or each
/// first-level name of a `{…}` group.
fn names_after<'a>(code: &'a str, at: usize) -> Vec<&'a str> {
    let rest = &code[at..];
    let ident = |s: &'a str| {
        let end = s
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len());
        &s[..end]
    };
    if let Some(group) = rest.strip_prefix('{') {
        let mut names = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    names.push(ident(group[start..].trim_start()));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    names.push(ident(group[start..].trim_start()));
                    start = i + 1;
                }
                _ => {}
            }
        }
        names.retain(|n| !n.is_empty());
        names
    } else {
        vec![ident(rest)]
    }
}

/// The code of a file without comment lines (doc comments name modules in
/// prose).
fn code_lines(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every module path a file refers to: `crate::a::b` → `[a, b]`,
/// `super::x` from `[a, f]` → `[a, x]` (for `super::super::…` likewise).
fn references(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(pos) = code[i..].find("crate::").map(|p| p + i) {
        let boundary = pos == 0 || {
            let b = code.as_bytes()[pos - 1];
            !(b.is_ascii_alphanumeric() || b == b'_' || b == b':')
        };
        i = pos + "crate::".len();
        if !boundary {
            continue;
        }
        let second = |name: &str| -> Option<String> {
            let after = &code[i + name.len()..];
            after
                .strip_prefix("::")
                .map(|s| names_after(s, 0))
                .and_then(|v| v.first().map(|s| s.to_string()))
        };
        for name in names_after(code, i) {
            let mut path = vec![name.to_string()];
            if let Some(next) = second(name) {
                path.push(next);
            }
            out.push(path);
        }
    }
    // super:: chains, resolved against the file's own module.
    let mut i = 0;
    while let Some(pos) = code[i..].find("super::").map(|p| p + i) {
        let boundary = pos == 0 || {
            let b = code.as_bytes()[pos - 1];
            !(b.is_ascii_alphanumeric() || b == b'_' || b == b':')
        };
        if !boundary {
            i = pos + 1;
            continue;
        }
        let mut base: Vec<String> = module.to_vec();
        // `x/y.rs` is `x::y`, whose `super` is `x`; `x/mod.rs` is `x`.
        let mut j = pos;
        while code[j..].starts_with("super::") {
            base.pop();
            j += "super::".len();
        }
        i = j;
        for name in names_after(code, j) {
            if name == "self" || name.is_empty() {
                continue;
            }
            let mut path = base.clone();
            path.push(name.to_string());
            out.push(path);
        }
    }
    out
}

/// What is wrong with the imports of `sources` (path, module path, code).
fn problems(
    layer: &BTreeMap<String, usize>,
    sources: &[(PathBuf, Vec<String>, String)],
) -> Vec<String> {
    let mut problems = Vec::new();
    // Sibling files: (parent module) → file → files it refers to.
    let mut edges: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let known: BTreeSet<Vec<String>> = sources.iter().map(|(_, m, _)| m.clone()).collect();
    for (file, module, code) in sources {
        let refs = references(module, code);
        let top = &module[0];
        let Some(&own) = layer.get(top) else {
            problems.push(format!(
                "{}: module `{top}` is in no layer of src/lib.rs",
                file.display()
            ));
            continue;
        };
        for target in &refs {
            let to = &target[0];
            if to == top {
                // Same top module: a sibling-file edge when both are files
                // under one parent.
                if module.len() >= 2 && target.len() == module.len() {
                    let parent = &module[..module.len() - 1];
                    if target[..parent.len()] == *parent
                        && target != module
                        && known.contains(target)
                    {
                        edges
                            .entry(parent.to_vec())
                            .or_default()
                            .entry(module[module.len() - 1].clone())
                            .or_default()
                            .insert(target[target.len() - 1].clone());
                    }
                }
                continue;
            }
            match layer.get(to) {
                Some(&theirs) if theirs < own => {}
                Some(&theirs) => problems.push(format!(
                    "{}: imports `{}` (layer {theirs}) from `{top}` (layer {own})",
                    file.display(),
                    target.join("::")
                )),
                None => {} // a crate-level item (no module), e.g. a macro
            }
        }
    }
    for (parent, graph) in &edges {
        for start in graph.keys() {
            // Depth-first search for a path back to `start`.
            let mut stack: Vec<(String, Vec<String>)> = vec![(start.clone(), vec![start.clone()])];
            let mut seen = BTreeSet::new();
            while let Some((node, path)) = stack.pop() {
                for next in graph.get(&node).into_iter().flatten() {
                    if next == start {
                        problems.push(format!(
                            "cycle in `{}`: {} -> {start}",
                            parent.join("::"),
                            path.join(" -> ")
                        ));
                    } else if seen.insert(next.clone()) {
                        let mut p = path.clone();
                        p.push(next.clone());
                        stack.push((next.clone(), p));
                    }
                }
            }
        }
    }
    problems.sort();
    problems.dedup();
    problems
}

#[test]
fn no_import_from_a_higher_layer_and_no_cycle_between_sibling_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("read src/lib.rs");
    let layer = layers(&lib);
    assert!(layer.len() >= 10, "the layer list of src/lib.rs: {layer:?}");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut sources = Vec::new();
    for file in &files {
        let module = module_path(&src, file);
        let top = module.first().cloned().unwrap_or_default();
        if matches!(top.as_str(), "main" | "cli" | "lib" | "layering") {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("read source");
        sources.push((file.clone(), module, code_lines(&text)));
    }
    assert!(sources.len() > 50, "read {} files", sources.len());
    let problems = problems(&layer, &sources);
    assert!(
        problems.is_empty(),
        "layering broken:\n{}",
        problems.join("\n")
    );
}

/// What in `store::rules` names a backend: its SQL crates or its modules.
fn backend_names(code: &str) -> Vec<&'static str> {
    [
        "rusqlite",
        "postgres",
        "store::pg",
        "store::sqlite",
        "super::super::pg",
        "super::super::sqlite",
    ]
    .into_iter()
    .filter(|name| code.contains(name))
    .collect()
}

/// The store's rules, the statements both backends run as one text
/// (`portable`) and the seam they run through (`sql.rs`) sit below both
/// backends: they name neither SQLite's nor PostgreSQL's code, so a
/// decision cannot slip back into one backend only.
#[test]
fn the_store_rules_name_no_backend() {
    let store = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    let mut files = vec![store.join("sql.rs")];
    rust_files(&store.join("rules"), &mut files);
    rust_files(&store.join("portable"), &mut files);
    // Tests may set up a store of either kind.
    files.retain(|f| !f.ends_with("tests.rs") && !f.components().any(|c| c.as_os_str() == "tests"));
    assert!(files.len() >= 12, "read {} files", files.len());
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read source");
        let code = code_lines(&text);
        for name in backend_names(&code) {
            problems.push(format!("{}: names `{name}`", file.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What in one backend's code names the other: `other`'s module and its
/// SQL crate (`crate`).
fn names_of_the_other(code: &str, other: &str, sql_crate: &str) -> Vec<String> {
    [
        format!("store::{other}"),
        format!("super::{other}::"),
        format!("super::super::{other}"),
        sql_crate.to_string(),
    ]
    .into_iter()
    .filter(|name| code.contains(name.as_str()))
    .collect()
}

/// `store/sqlite/` and `store/pg/` sit side by side, each holding its own
/// SQL and row mapping: neither imports the other (their production code;
/// the equivalence tests compare the two and name both).
#[test]
fn the_two_backends_do_not_import_each_other() {
    let store = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    let mut problems = Vec::new();
    for (own, other, sql_crate) in [("sqlite", "pg", "postgres"), ("pg", "sqlite", "rusqlite")] {
        let mut files = Vec::new();
        rust_files(&store.join(own), &mut files);
        assert!(files.len() >= 10, "{own}: read {} files", files.len());
        for file in &files {
            let test_code = file.components().any(|c| c.as_os_str() == "tests")
                || file.ends_with("tests.rs")
                || file.ends_with("testing.rs");
            if test_code {
                continue;
            }
            let code = code_lines(&std::fs::read_to_string(file).expect("read source"));
            for name in names_of_the_other(&code, other, sql_crate) {
                problems.push(format!("{}: names `{name}`", file.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What in a caller of the store picks or names a backend after opening.
fn backend_choices(code: &str) -> Vec<&'static str> {
    [
        "PgStore",
        "store::pg::",
        "StoreTarget::Sqlite",
        "StoreTarget::Postgres",
        "Store::open(",
        "Store::open_read_only(",
    ]
    .into_iter()
    .filter(|name| code.contains(name))
    .collect()
}

/// The commands, `serve`, the crawl, `export` and `reextract` open a store
/// through `store::open` and work on what it returns, whichever backend it
/// is: none matches on the target or names a backend (the configuration
/// parses targets; `eval` replays learning in a scratch in-memory store).
#[test]
fn no_caller_of_the_store_names_a_backend() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut problems = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let own = rel.starts_with("store")
            || rel.starts_with("config")
            || rel == Path::new("config.rs")
            || rel == Path::new("layering.rs");
        let test_code =
            rel.components().any(|c| c.as_os_str() == "tests") || rel.ends_with("tests.rs");
        if own || test_code {
            continue;
        }
        let code = code_lines(&std::fs::read_to_string(file).expect("read source"));
        // Unit tests at the bottom of a file may set up a store of either kind.
        let code = code.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        for name in backend_choices(code) {
            problems.push(format!("{}: names `{name}`", rel.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_backend_check_finds_a_backend_in_code() {
    assert_eq!(
        backend_choices("match t { StoreTarget::Sqlite(p) => Store::open(&p) }"),
        ["StoreTarget::Sqlite", "Store::open("]
    );
    assert_eq!(
        names_of_the_other("use crate::store::pg::PgStore;", "pg", "postgres"),
        ["store::pg"]
    );
    assert_eq!(
        names_of_the_other("let t: rusqlite::Transaction;", "sqlite", "rusqlite"),
        ["rusqlite"]
    );
    assert!(names_of_the_other("use super::frontier::now;", "sqlite", "rusqlite").is_empty());
    assert_eq!(
        backend_names("use rusqlite::params;\nuse crate::store::pg::PgStore;"),
        ["rusqlite", "store::pg"]
    );
    assert!(backend_names("use super::ArticleSql;").is_empty());
}

/// The checker itself finds the two kinds of fault it exists to keep out.
#[test]
fn the_checker_finds_an_upward_import_and_a_sibling_cycle() {
    let layer = layers(
        "//! Layers, bottom to top.\n//!\n//! 0. words, urls\n//! 1. extract\n//! 3. store\n//! 4. crawl, eval\n\npub mod x;",
    );
    assert_eq!(layer.get("store"), Some(&3));
    let file = |m: &[&str], code: &str| {
        (
            PathBuf::from(m.join("/")),
            m.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            code.to_string(),
        )
    };
    let found = problems(
        &layer,
        &[
            file(
                &["store", "search"],
                "use crate::crawl::frontier::normalize;",
            ),
            file(&["extract", "headline"], "x.any(crate::eval::is_cjk)"),
            file(&["eval", "lcs"], "use crate::{words::tokenize, extract};"),
            file(&["store", "articles"], "use super::lines::{self, Cleaned};"),
            file(&["store", "lines"], "use super::articles::word_count;"),
        ],
    );
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(found
        .iter()
        .any(|p| p.contains("store/search: imports `crawl::frontier`")));
    assert!(found
        .iter()
        .any(|p| p.contains("extract/headline: imports `eval::is_cjk`")));
    assert!(found
        .iter()
        .any(|p| p.contains("cycle in `store`: articles -> lines -> articles")));
}

/// The directory batch (files, threads) is a layer above the pure
/// extraction stage: the stage never reaches up into it.
#[test]
fn extraction_stays_below_the_directory_batch() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("read src/lib.rs");
    let layer = layers(&lib);
    assert!(
        layer.get("extract_dir") > layer.get("extract"),
        "the layer list of src/lib.rs: {layer:?}"
    );
    let found = problems(
        &layer,
        &[(
            PathBuf::from("extract/model"),
            vec!["extract".to_string(), "model".to_string()],
            "use crate::extract_dir::html_files;".to_string(),
        )],
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].contains("extract/model: imports `extract_dir::html_files`"),
        "{found:#?}"
    );
}
