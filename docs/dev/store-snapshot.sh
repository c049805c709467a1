#!/bin/sh
# The store's behaviour on record: exports (JSONL, CSV, Markdown, WARC),
# stats, searches, reclean and reextract on SQLite and on PostgreSQL after a
# crawl of the simulated web (tests/pg_crawl/snapshot.rs), for a change that
# must not alter what the store does. Run `record` before and after the
# change, then `compare`.
#
# usage: docs/dev/store-snapshot.sh record DIR
#        docs/dev/store-snapshot.sh compare BEFORE AFTER
#
# `compare` sorts each file's lines first: the crawl stores pages in an
# order of its own, so records (and their masked ids) come out in another
# order from run to run.
set -eu
case "${1:-}" in
record)
    dir=${2:?usage: $0 record DIR}
    mkdir -p "$dir"
    NEWSHOUND_SNAPSHOT_DIR=$(cd "$dir" && pwd) \
        cargo test --test pg_crawl -- --ignored --exact snapshot::store_outputs_snapshot
    ;;
compare)
    before=${2:?usage: $0 compare BEFORE AFTER}
    after=${3:?usage: $0 compare BEFORE AFTER}
    status=0
    mask='s/^ETag: .*/ETag: TAG/; s#/tmp/\.tmp[A-Za-z0-9]*/#/tmp/DIR/#g; s#postgres://[^ :]*#postgres://DB#g; s/^ *ID  *\[/ID [/'
    for f in "$before"/*/*.txt; do
        rel=${f#"$before"/}
        if [ "$(sed "$mask" "$f" | sort)" = "$(sed "$mask" "$after/$rel" | sort)" ]; then
            echo "same      $rel"
        else
            echo "DIFFERENT $rel"
            status=1
        fi
    done
    exit $status
    ;;
*)
    echo "usage: $0 record DIR | compare BEFORE AFTER" >&2
    exit 2
    ;;
esac
