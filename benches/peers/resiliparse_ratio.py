#!/usr/bin/env python3
"""`newshound extract DIR --jobs 1` against resiliparse on the same pages, in one run.

In: a directory of pages (`DIR/*.html`, `*.htm`; by default page-signal-dev
as `src/corpus_archive.rs` unpacks it into `target/corpus`) and the newshound
binary (default `target/release/newshound`). Out: pages/s of each, wall and
per CPU-second, and newshound's speed as a multiple of resiliparse's.

Both sides do the same work per page: read the file, decode it (resiliparse:
`detect_encoding` + `bytes_to_str`; newshound: its charset chain), parse it
and extract the main content (resiliparse:
`extract_plain_text(tree, main_content=True)`; newshound: the full path,
text plus metadata and language, one JSONL line per page to /dev/null).
newshound is timed as a whole process (start-up included); resiliparse
inside this interpreter (its start-up and imports left out), so the ratio
does not flatter newshound. Rounds alternate between the two so both see
the same machine load; the medians are reported.

Not run by the tests (CI needs no Python). Setup, once:

    python3 -m venv /tmp/venv-res && /tmp/venv-res/bin/pip install resiliparse
    cargo build --release
    /tmp/venv-res/bin/python benches/peers/resiliparse_ratio.py [--rounds 7] [DIR]

See docs/performance.md ("Against resiliparse").
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding
from resiliparse.parse.html import HTMLTree

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pages_of(directory):
    names = sorted(
        n
        for n in os.listdir(directory)
        if n.lower().endswith((".html", ".htm"))
        and os.path.isfile(os.path.join(directory, n))
    )
    return [os.path.join(directory, n) for n in names]


def resiliparse_round(paths):
    """(wall seconds, CPU seconds, characters out) of one pass."""
    c0, t0 = time.process_time(), time.perf_counter()
    chars = 0
    for p in paths:
        with open(p, "rb") as f:
            raw = f.read()
        html = bytes_to_str(raw, detect_encoding(raw))
        chars += len(extract_plain_text(HTMLTree.parse(html), main_content=True))
    return time.perf_counter() - t0, time.process_time() - c0, chars


def newshound_round(binary, directory):
    """(wall seconds, CPU seconds) of one `extract DIR --jobs 1` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(os.devnull, "wb") as null:
        subprocess.run(
            [binary, "extract", directory, "--jobs", "1"],
            stdout=null,
            stderr=subprocess.DEVNULL,
            check=True,
        )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "dir",
        nargs="?",
        default=os.path.join(ROOT, "target/corpus/page-signal-dev/html"),
        help="directory of pages (default: page-signal-dev, unpacked)",
    )
    ap.add_argument(
        "--newshound",
        default=os.path.join(ROOT, "target/release/newshound"),
        help="the newshound binary (default: target/release/newshound)",
    )
    ap.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    args = ap.parse_args()

    paths = pages_of(args.dir)
    if not paths:
        sys.exit(f"{args.dir}: no .html or .htm pages (run `cargo test corpus_archive` "
                 "or `newshound eval` once to unpack the corpus)")
    n = len(paths)
    # Warm-up: the page cache, and both sides' code.
    resiliparse_round(paths)
    newshound_round(args.newshound, args.dir)

    res_wall, res_cpu, nh_wall, nh_cpu = [], [], [], []
    for _ in range(args.rounds):
        w, c, _ = resiliparse_round(paths)
        res_wall.append(w)
        res_cpu.append(c)
        w, c = newshound_round(args.newshound, args.dir)
        nh_wall.append(w)
        nh_cpu.append(c)
    med = statistics.median
    rw, rc, nw, nc = med(res_wall), med(res_cpu), med(nh_wall), med(nh_cpu)
    print(f"{n} pages, {args.rounds} alternating rounds, medians; load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"resiliparse extract_plain_text(main_content=True): {n / rw:7.0f} pages/s wall, "
          f"{n / rc:7.0f} per CPU-second")
    print(f"newshound extract DIR --jobs 1 (JSONL):          {n / nw:7.0f} pages/s wall, "
          f"{n / nc:7.0f} per CPU-second")
    print(f"newshound / resiliparse: {rw / nw:.2f}x wall, {rc / nc:.2f}x CPU")


if __name__ == "__main__":
    main()
