#!/usr/bin/env python3
"""What a boilerplate word on the story's own wrapper costs: a lens on
sites whose class names newshound has never seen.

Publishers file a story under a category or tag whose slug holds a
boilerplate word (`tag-comments`, `category-kommentare`), and name their
wrappers with compound names that hold one (`banners-contenido-nota`,
`nav_<slug>`). This script copies a corpus set twice, both re-serialised by
lxml the same way: once as it is, and once with TOKEN added to the class of
each page's story wrapper (the deepest element holding 80 % of the page's
`<p>` text). It then scores both copies with `newshound eval --corpus` and
prints the mean F1 of the studied and held-out halves (split by site as
`eval` splits them) and the pages that lose most.

In: a set directory holding `html/` and its gold (`gold/` or
`snippets.json`; default: the set as `src/corpus_archive.rs` unpacks it
into `target/corpus`), a token, the newshound binary. Out: the table on
stdout; the copies in a temporary directory, removed afterwards.

Not run by the tests (CI needs no Python). Setup, once:

    python3 -m venv /tmp/venv-lens && /tmp/venv-lens/bin/pip install lxml
    cargo build --release
    /tmp/venv-lens/bin/python benches/lenses/story_class.py fundus-dev tag-comments

See docs/algorithms.md ("A boilerplate word on the story's wrapper").
"""

import argparse
import hashlib
import json
import os
import subprocess
import tempfile

import lxml.etree
import lxml.html


def story_wrapper(doc):
    """The deepest element holding >= 80 % of the page's <p> text, or None."""
    total = sum(len(p.text_content()) for p in doc.iter("p"))
    if total <= 200:
        return None
    best = None
    # Document order: of the nested elements that qualify, the last is the deepest.
    for el in doc.iter():
        if not isinstance(el.tag, str) or el.tag in ("p", "html", "body"):
            continue
        if sum(len(p.text_content()) for p in el.iter("p")) >= 0.8 * total:
            best = el
    return best


def copy_set(src, dst, token):
    """Copy the set's pages to dst/html (token added when given) and link its gold."""
    os.makedirs(os.path.join(dst, "html"))
    for extra in ("gold", "snippets.json", "manifest.jsonl"):
        if os.path.exists(os.path.join(src, extra)):
            os.symlink(os.path.abspath(os.path.join(src, extra)), os.path.join(dst, extra))
    changed = 0
    for name in sorted(os.listdir(os.path.join(src, "html"))):
        raw = open(os.path.join(src, "html", name), "rb").read()
        try:
            # Text that is UTF-8 is parsed as text: lxml would otherwise
            # believe a page's stale charset declaration and garble it.
            doc = lxml.html.document_fromstring(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            try:
                doc = lxml.html.document_fromstring(raw)
            except (ValueError, lxml.etree.ParserError):
                open(os.path.join(dst, "html", name), "wb").write(raw)
                continue
        wrapper = story_wrapper(doc) if token else None
        if wrapper is not None:
            wrapper.set("class", (wrapper.get("class", "") + " " + token).strip())
            changed += 1
        out = lxml.html.tostring(doc, encoding="utf-8", doctype="<!DOCTYPE html>")
        open(os.path.join(dst, "html", name), "wb").write(out)
    return changed


def half(site):
    """`eval`'s split: the studied half when the first byte of the MD5 of the
    site (lower case, without "www.") is even."""
    key = site.strip().lower()
    key = key[4:] if key.startswith("www.") else key
    return "S" if hashlib.md5(key.encode()).digest()[0] & 1 == 0 else "H"


def scores(binary, corpus, name):
    cmd = [binary, "eval", "--corpus", corpus, "--set", name, "--json", "--jobs", "2"]
    report = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    return {p["name"]: (p["f1"], half(p["site"])) for p in report["pages"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set", help="set name, or a set directory")
    ap.add_argument("token", help="class name added to each story wrapper")
    ap.add_argument("--bin", default="target/release/newshound")
    ap.add_argument("--worst", type=int, default=10)
    a = ap.parse_args()
    src = a.set if os.path.isdir(a.set) else os.path.join("target", "corpus", a.set)
    name = os.path.basename(os.path.normpath(src))
    if not os.path.isdir(os.path.join(src, "html")):
        raise SystemExit(f"{src}/html: no such directory (run `cargo test` once to unpack the corpus)")
    with tempfile.TemporaryDirectory() as tmp:
        copy_set(src, os.path.join(tmp, "as-is", name), None)
        changed = copy_set(src, os.path.join(tmp, "token", name), a.token)
        before = scores(a.bin, os.path.join(tmp, "as-is"), name)
        after = scores(a.bin, os.path.join(tmp, "token"), name)
    print(f"{name}: {a.token!r} added to {changed} of {len(before)} story wrappers")
    for h in "SH":
        keys = [k for k in before if before[k][1] == h]
        if keys:
            mean = lambda d: sum(d[k][0] for k in keys) / len(keys)
            print(f"  {h}: mean F1 {mean(before):.4f} -> {mean(after):.4f} ({len(keys)} pages)")
    drops = sorted((after[k][0] - before[k][0], k) for k in before)[: a.worst]
    for d, k in drops:
        if d < -0.02:
            print(f"    {before[k][1]} {k}: {before[k][0]:.3f} -> {after[k][0]:.3f}")


if __name__ == "__main__":
    main()
