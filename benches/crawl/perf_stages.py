#!/usr/bin/env python3
"""Where a crawl's CPU goes, by stage, from a perf profile (a dev tool, not run by the tests).

In: the text of `perf script -F comm,tid,ip,sym` of a `perf record --call-graph dwarf`
of the crawl (one file per column). Out: a Markdown table, one row per stage, the
share of the samples whose stack holds one of the stage's functions; each sample is
counted once, under the first matching stage in the order below (so the FTS5 work
inside a write batch counts as FTS5, not as the writer). Charset decoding counts
with extraction, as in `extract --jsonl`.

    perf record -F 999 --call-graph dwarf,32768 -o crawl.data -- newshound crawl ...
    perf script -i crawl.data -F comm,tid,ip,sym > crawl.txt
    python3 benches/crawl/perf_stages.py before.txt after.txt

The patterns match the start of a frame's symbol; they follow the module names
of `src/` and need updating when those move.
"""
import collections
import re
import sys

# (stage, pattern matched at the start of a frame's symbol), in priority order.
STAGES = [
    ("checkpoint thread", lambda comm, frames: comm.startswith("store-checkpoin")),
    ("startup (dl, clap, open+migrate)", r"_dl_start|_dl_relocate|clap_builder|newshound::store::open::|newshound::store::migrate"),
    ("closing re-clean", r"newshound::store::rules::reclean|newshound::store::lines::reclean|newshound::store::maintenance"),
    ("kept page zstd", r"newshound::store::kept::|ZSTD_|zstd"),
    ("writer: FTS5 (indexing, flush, merge)", r"newshound::store::search_index::|sqlite3Fts5|fts5"),
    ("writer: learning + near-dup", r"newshound::store::rules::learning|newshound::store::rules::near_dup|newshound::boilerplate::"),
    ("writer: article rows (insert_article etc.)", r"newshound::store::rules::article|newshound::store::articles::primitives|<newshound::store::articles::primitives"),
    ("writer: commit (WAL write, sync)", r"rusqlite::transaction::Transaction::commit|sqlite3VdbeHalt|sqlite3PagerCommit|walFrames|sqlite3WalFrames"),
    ("writer: urls/fetches/claims/other", r"newshound::store::|newshound::crawl::writer::|<newshound::store"),
    ("extract: html5ever parse", r"html5ever|scraper::html|<html5ever|markup5ever|tendril|<scraper|scraper::"),
    ("extract: strip (prepass + lol_html)", r"newshound::extract::strip|lol_html|<newshound::extract::strip"),
    ("extract: metadata + language", r"newshound::extract::metadata|whatlang|<newshound::extract::metadata"),
    ("extract: selection, text, rest", r"newshound::extract::|<newshound::extract::"),
    ("link admission (hrefs, memo, resolve)", r"newshound::crawl::page::Found|newshound::crawl::page::link_memo|newshound::crawl::discover|newshound::crawl::frontier|newshound::crawl::shapes|newshound::urls|url::|<url::|idna"),
    ("page processing other", r"newshound::crawl::page::"),
    ("fetch (reqwest, hyper, body)", r"reqwest|<reqwest|hyper|<hyper|h2::|newshound::crawl::fetch|http_body"),
    ("worker/scheduler/pool/runtime", r"newshound::crawl::|tokio|<tokio|mio::|epoll"),
]


def load(path):
    """The samples of a perf-script file: (thread name, frames leaf first)."""
    samples, cur = [], None
    for line in open(path, errors="replace"):
        if not line.strip():
            if cur:
                samples.append(cur)
            cur = None
            continue
        if not line.startswith("\t") and not line.startswith(" " * 8):
            cur = (line.split()[0], [])
        elif cur is not None:
            parts = line.strip().split(" ", 1)
            if len(parts) == 2:
                cur[1].append(parts[1])
    if cur:
        samples.append(cur)
    return samples


OTHER = "other: malloc/memcpy/kernel with a cut stack"


def stage_of(comm, frames):
    for name, match in STAGES:
        if callable(match):
            if match(comm, frames):
                return name
        elif any(re.match(match, f) for f in frames):
            return name
    return OTHER


def main(paths):
    columns = [collections.Counter(stage_of(c, f) for c, f in load(p)) for p in paths]
    totals = [sum(c.values()) for c in columns]
    print("| stage | " + " | ".join(paths) + " |")
    print("|---" * (len(paths) + 1) + "|")
    for name in [n for n, _ in STAGES] + [OTHER]:
        cells = " | ".join(f"{100 * c[name] / max(t, 1):.1f} %" for c, t in zip(columns, totals))
        print(f"| {name} | {cells} |")
    print("| samples | " + " | ".join(str(t) for t in totals) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
