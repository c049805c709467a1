//! Directory extraction: outputs, counts, and the files it must never
//! clobber or follow.

use super::*;

const LIMITS: BatchLimits = BatchLimits {
    jobs: 2,
    max_page_bytes: 1 << 20,
};

fn page(body: &str) -> String {
    format!("<html><body><p>{body}</p></body></html>")
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let input = tmp.path().join("in");
    std::fs::create_dir_all(&input).unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("out");
    (tmp, input, out)
}

#[test]
fn writes_one_txt_per_html_and_jsonl() {
    let (_tmp, input, out) = dirs();
    for (n, body) in [("a", "Alpha story text, long enough."), ("b", "Beta.")] {
        write(&input.join(format!("{n}.html")), &page(body));
    }
    write(&input.join("skip.txt"), "not html");
    let opts = ExtractOptions::default();
    let s = extract_dir(&input, &out, false, LIMITS, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.pages, s.written), (2, 2));
    assert_eq!(read(&out.join("a.txt")), "Alpha story text, long enough.\n");

    let mut buf: Vec<u8> = Vec::new();
    let s = extract_dir_to(&input, Output::Jsonl(&mut buf), LIMITS, &opts)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.written, 2);
    let text = String::from_utf8_lossy(&buf);
    assert_eq!(text.lines().count(), 2);
    assert!(text.contains("\"file\":\"b.html\""), "{text}");
}

#[test]
fn html_and_htm_of_one_name_do_not_write_the_same_txt() {
    // `a.html` and `a.htm` both wrote `a.txt`, one overwriting the other,
    // and the count said more files written than there were.
    let (_tmp, input, out) = dirs();
    write(&input.join("a.html"), &page("The html page's story."));
    write(&input.join("a.htm"), &page("The htm page's story."));
    write(&input.join("b.htm"), &page("Only an htm page here."));
    let s = extract_dir(&input, &out, false, LIMITS, &ExtractOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.pages, s.written, s.failed.len()), (3, 3, 0));
    assert_eq!(read(&out.join("a.html.txt")), "The html page's story.\n");
    assert_eq!(read(&out.join("a.htm.txt")), "The htm page's story.\n");
    assert_eq!(read(&out.join("b.txt")), "Only an htm page here.\n");
    assert!(!out.join("a.txt").exists());
    let files = std::fs::read_dir(&out).map(|d| d.count()).unwrap_or(0);
    assert_eq!(files, 3, "no temporary files are left behind");
}

#[test]
fn a_name_colliding_after_renaming_fails_its_page_instead_of_overwriting() {
    let (_tmp, input, out) = dirs();
    write(&input.join("a.html"), &page("First."));
    write(&input.join("a.htm"), &page("Second."));
    // Its stem `a.html` gives `a.html.txt`, as `a.html` now does.
    write(&input.join("a.html.html"), &page("Third."));
    let s = extract_dir(&input, &out, false, LIMITS, &ExtractOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.pages, s.written, s.failed.len()), (3, 2, 1));
    assert!(s.failed[0].1.contains("a.html.txt"), "{:?}", s.failed);
}

#[cfg(unix)]
#[test]
fn non_utf8_names_do_not_collide() {
    // Both names became `a\u{FFFD}.txt` through a lossy conversion.
    use std::os::unix::ffi::OsStrExt;
    let (_tmp, input, out) = dirs();
    let names: [&[u8]; 2] = [b"a\xff.html", b"a\xfe.html"];
    for (n, body) in names.iter().zip(["One story.", "Another story."]) {
        write(&input.join(std::ffi::OsStr::from_bytes(n)), &page(body));
    }
    let s = extract_dir(&input, &out, false, LIMITS, &ExtractOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.written, 2);
    let one = out.join(std::ffi::OsStr::from_bytes(b"a\xff.txt"));
    let two = out.join(std::ffi::OsStr::from_bytes(b"a\xfe.txt"));
    assert_eq!(read(&one), "One story.\n");
    assert_eq!(read(&two), "Another story.\n");
}

#[cfg(unix)]
#[test]
fn existing_symlinks_in_the_output_directory_are_never_followed() {
    let (tmp, input, out) = dirs();
    write(&input.join("a.html"), &page("Story text."));
    std::fs::create_dir_all(&out).unwrap_or_else(|e| panic!("{e}"));
    let victim = tmp.path().join("victim");
    write(&victim, "precious");
    std::os::unix::fs::symlink(&victim, out.join("a.txt")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(&victim, out.join("articles.jsonl"))
        .unwrap_or_else(|e| panic!("{e}"));
    let s = extract_dir(&input, &out, false, LIMITS, &ExtractOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.written, s.failed.len()), (0, 1));
    assert!(s.failed[0].1.contains("symbolic link"), "{:?}", s.failed);
    let err = extract_dir(&input, &out, true, LIMITS, &ExtractOptions::default())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("articles.jsonl: is a symbolic link"), "{err}");
    assert_eq!(read(&victim), "precious");
}

#[test]
fn pages_over_the_size_cap_and_binary_files_fail_alone() {
    let (_tmp, input, out) = dirs();
    write(&input.join("ok.html"), &page("A normal page."));
    write(&input.join("big.html"), &page(&"word ".repeat(1000)));
    std::fs::write(
        input.join("elf.html"),
        b"\x7fELF\x02\x01\x01\x00\x00\x00\x00",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let limits = BatchLimits {
        jobs: 1,
        max_page_bytes: 1000,
    };
    let s = extract_dir(&input, &out, false, limits, &ExtractOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.pages, s.written), (3, 1));
    let why: Vec<&str> = s.failed.iter().map(|(_, w)| w.as_str()).collect();
    assert!(why[0].contains("larger than 1000 bytes"), "{why:?}");
    assert!(why[1].contains("binary file (ELF executable)"), "{why:?}");
}

#[test]
fn read_page_names_the_size_cap_and_binary_input() {
    let html = page("A story.");
    let bytes = read_page(html.as_bytes(), 1000).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bytes, html.as_bytes());
    let big = read_page(&[b'a'; 1001][..], 1000).map(|_| ()).unwrap_err();
    assert_eq!(
        big.to_string(),
        "larger than 1000 bytes (raise [fetch] max_body_bytes in the config)"
    );
    let elf = read_page(&b"\x7fELF\x02\x01\x01\0"[..], 1000)
        .map(|_| ())
        .unwrap_err();
    assert!(matches!(elf, PageError::Binary { .. }), "{elf:?}");
    assert_eq!(elf.to_string(), "binary file (ELF executable), not HTML");
}
