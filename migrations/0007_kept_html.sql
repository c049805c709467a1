-- newshound schema, version 7: the fetched page of each stored article, kept
-- so that it can be extracted again after an extractor upgrade
-- (`newshound reextract`) and exported as WARC. `[store] keep_html = false`
-- writes no rows here.
--
-- One row per article (the response its stored text came from; a refetch
-- that changed the article replaces it). `body_zstd` is the raw response
-- body exactly as received (after HTTP content decoding, before charset
-- decoding), zstd-compressed; `body_bytes` is its uncompressed length.
-- Header values are verbatim; `fetched_at` is unix milliseconds.
CREATE TABLE article_html (
    article_id     INTEGER PRIMARY KEY REFERENCES articles(id) ON DELETE CASCADE,
    url            TEXT NOT NULL,      -- the URL the body came from (after redirects)
    status         INTEGER NOT NULL,
    content_type   TEXT,
    last_modified  TEXT,
    etag           TEXT,
    date           TEXT,               -- the response's Date header
    fetched_at     INTEGER NOT NULL,
    body_bytes     INTEGER NOT NULL,
    body_zstd      BLOB NOT NULL
);

-- Where an interrupted `reextract` stopped: one row per selection
-- (`selection` is a key built from its --site/--since/--until), the last
-- article id done and the running count of changed articles. Deleted when
-- the run completes.
CREATE TABLE reextract_progress (
    selection  TEXT PRIMARY KEY,
    last_id    INTEGER NOT NULL,
    changed    INTEGER NOT NULL,
    seen       INTEGER NOT NULL
);
