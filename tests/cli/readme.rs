//! The README's examples, run against the binary: every command of its `sh`
//! blocks that can run offline runs, in order, in one temporary directory
//! (so `demo --db demo.db` makes the database the next lines read) and must
//! succeed. Left out, because they need the network or never end: `crawl`
//! (real news sites) and the block around it (its lines read what the crawl
//! stored), `serve` (runs until Ctrl-C), lines with a URL, and the set-up
//! lines (`git`, `cargo`, `.ci/run`). Also: the README stays a front
//! door (at most 150 lines) and every relative link of the README and of
//! `docs/` leads to a file.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A news page for the `extract` examples (`page.html`).
const PAGE: &str = "<html><head><title>Harbour strike ends</title>\
    <meta name=\"author\" content=\"Ada Writer\"></head><body><nav>Home | World</nav>\
    <article><h1>Harbour strike ends</h1>\
    <p>The dock workers voted on Tuesday to end the strike that had closed the harbour for \
    nine days, after the port authority agreed to review the new shift rota.</p>\
    <p>Ships queued outside the harbour began to enter on Wednesday morning, and the union \
    said its members would be back at work by the weekend.</p></article></body></html>";

/// Pages the docs link to that other work adds (the site guide and the
/// security page are written beside this work).
const PENDING: [&str; 0] = [];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The ```sh blocks, each as its lines without their trailing comments.
fn sh_blocks(markdown: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut block: Option<Vec<String>> = None;
    for line in markdown.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            match block.take() {
                Some(done) => out.push(done),
                None if trimmed == "```sh" => block = Some(Vec::new()),
                None => {}
            }
            continue;
        }
        if let Some(lines) = block.as_mut().filter(|_| !trimmed.is_empty()) {
            let command = match trimmed.find("  #") {
                Some(at) => &trimmed[..at],
                None => trimmed,
            };
            lines.push(command.trim().to_string());
        }
    }
    out
}

/// The first word after `newshound` (and its global flags).
fn subcommand(line: &str) -> Option<&str> {
    line.split_whitespace()
        .skip_while(|w| *w != "newshound")
        .nth(1)
}

/// Whether a README line can run here: a `newshound` command without the
/// network that ends by itself.
fn runs_offline(line: &str) -> bool {
    let newshound = line.starts_with("newshound ") || line.contains("| newshound ");
    newshound && !matches!(subcommand(line), Some("crawl" | "serve")) && !line.contains("://")
}

#[test]
fn readme_examples_run_offline_and_succeed() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 150,
        "README.md has {lines} lines: keep it a front door"
    );
    assert!(
        readme.contains("cargo run --release -- crawl"),
        "the main command"
    );
    assert!(readme.contains(".ci/run"), "the test command");

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("page.html"), PAGE).unwrap();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_newshound"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut ran = Vec::new();
    // A block that crawls real sites: its other lines read what it stored.
    let offline_blocks = sh_blocks(&readme)
        .into_iter()
        .filter(|b| !b.iter().any(|l| subcommand(l) == Some("crawl")));
    for line in offline_blocks.flatten().filter(|l| runs_offline(l)) {
        let out = Command::new("sh")
            .args(["-c", &line])
            .current_dir(dir.path())
            .env("PATH", &path)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README example failed: {line}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran.push(line);
    }
    for needed in ["demo", "search", "show", "stats", "export", "extract"] {
        assert!(
            ran.iter()
                .any(|l| l.split_whitespace().any(|w| w == needed)),
            "no README example of `{needed}` ran: {ran:#?}"
        );
    }
    println!("ran {} README examples:\n{}", ran.len(), ran.join("\n"));
}

/// The README's `[[sites]]` example is a valid configuration (its patterns
/// compile, its keys exist).
#[test]
fn readme_site_example_is_a_valid_configuration() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("```toml\n").expect("a toml block") + "```toml\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let example = &readme[start..end];
    assert!(example.contains("[[sites]]"), "{example}");
    let config = newshound::config::Config::parse(example, Path::new("README.md"), root())
        .unwrap_or_else(|e| panic!("README's site example: {e}"));
    assert_eq!(config.sites.len(), 1);
}

/// docs/search.md's examples on the demo's database: the syntax it
/// documents is what `search` accepts (it once said `w*` was refused, which
/// holds only past 50 matching words).
#[test]
fn search_doc_examples_run_on_the_demo_database() {
    let doc = std::fs::read_to_string(root().join("docs/search.md")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    crate::support::demo_db(dir.path(), 25);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_newshound"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut ran = 0;
    for line in sh_blocks(&doc)
        .into_iter()
        .flatten()
        .filter(|l| runs_offline(l))
    {
        let out = Command::new("sh")
            .args(["-c", &line])
            .current_dir(dir.path())
            .env("PATH", &path)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success() && !out.stdout.is_empty(),
            "docs/search.md example found nothing or failed: {line}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 6, "only {ran} examples in docs/search.md");
}

/// Relative link targets (`[text](target)`) of a Markdown file.
fn links(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = markdown;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = &rest[..end];
        if !target.contains("://") && !target.starts_with('#') && !target.starts_with("mailto:") {
            out.push(target.split('#').next().unwrap_or("").to_string());
        }
    }
    out
}

#[test]
fn readme_and_docs_links_lead_to_files() {
    let mut pages = vec![
        root().join("README.md"),
        root().join("tests/corpus/README.md"),
    ];
    for dir in ["docs", "docs/dev"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in links(&text) {
            let file = page.parent().unwrap().join(&target);
            let from_root = file.canonicalize().ok().and_then(|f| {
                f.strip_prefix(root().canonicalize().unwrap())
                    .ok()
                    .map(Path::to_path_buf)
            });
            let pending = PENDING.iter().any(|p| {
                from_root.as_deref() == Some(Path::new(p))
                    || file.ends_with(p.trim_start_matches("docs/"))
            });
            checked += 1;
            if !file.exists() && !pending {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(checked > 30, "only {checked} links found");
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}
