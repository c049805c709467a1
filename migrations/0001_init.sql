-- newshound schema, version 1. Never edit this file once landed: add 0002_*.sql.
-- Times are unix milliseconds (INTEGER) unless the column name ends in _at and
-- holds text, in which case it is RFC 3339 (published_at, modified_at).

CREATE TABLE sites (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE
);

-- The frontier: every normalised URL the crawler knows, with its schedule.
CREATE TABLE urls (
    id             INTEGER PRIMARY KEY,
    url            TEXT NOT NULL UNIQUE,
    site_id        INTEGER NOT NULL REFERENCES sites(id),
    kind           TEXT NOT NULL,                -- seed | feed | sitemap | index | article | page
    state          TEXT NOT NULL DEFAULT 'queued', -- queued | fetching | done | failed | skipped
    priority       INTEGER NOT NULL DEFAULT 0,   -- higher first
    depth          INTEGER NOT NULL DEFAULT 0,
    next_fetch_at  INTEGER NOT NULL DEFAULT 0,
    etag           TEXT,
    last_modified  TEXT,
    attempts       INTEGER NOT NULL DEFAULT 0,
    last_status    INTEGER,
    last_error     TEXT,
    discovered_at  INTEGER NOT NULL,
    fetched_at     INTEGER
);
CREATE INDEX urls_due ON urls(state, next_fetch_at, priority);
CREATE INDEX urls_site ON urls(site_id);

-- One row per HTTP attempt (the fetch log).
CREATE TABLE fetches (
    id            INTEGER PRIMARY KEY,
    url_id        INTEGER NOT NULL REFERENCES urls(id),
    started_at    INTEGER NOT NULL,
    status        INTEGER,
    error_kind    TEXT,
    bytes         INTEGER,
    elapsed_ms    INTEGER,
    final_url     TEXT,
    content_type  TEXT
);
CREATE INDEX fetches_url ON fetches(url_id);

CREATE TABLE articles (
    id             INTEGER PRIMARY KEY,
    url_id         INTEGER REFERENCES urls(id),
    url            TEXT NOT NULL UNIQUE,
    canonical_url  TEXT,
    site_id        INTEGER NOT NULL REFERENCES sites(id),
    title          TEXT,
    author         TEXT,
    published_at   TEXT,
    modified_at    TEXT,
    language       TEXT,
    site_name      TEXT,
    text           TEXT NOT NULL,   -- after boilerplate removal
    raw_text       TEXT NOT NULL,   -- as extracted, before boilerplate removal (for re-cleaning)
    content_hash   TEXT NOT NULL,   -- MD5 hex of raw_text, duplicate detection
    word_count     INTEGER NOT NULL,
    fetched_at     INTEGER NOT NULL
);
CREATE INDEX articles_site ON articles(site_id);
CREATE UNIQUE INDEX articles_content ON articles(site_id, content_hash);

-- Every URL that led to an article (duplicates of the same body included).
CREATE TABLE article_urls (
    url         TEXT PRIMARY KEY,
    article_id  INTEGER NOT NULL REFERENCES articles(id)
);

-- Full-text search over title + text. unicode61 for alphabetic scripts; a
-- second trigram index finds Chinese/Japanese words of 3+ characters, which
-- unicode61 cannot split.
CREATE VIRTUAL TABLE articles_fts USING fts5(
    title, text, content='articles', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE articles_fts_cjk USING fts5(
    title, text, content='articles', content_rowid='id', tokenize='trigram'
);
CREATE TRIGGER articles_ai AFTER INSERT ON articles BEGIN
    INSERT INTO articles_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
    INSERT INTO articles_fts_cjk(rowid, title, text) VALUES (new.id, new.title, new.text);
END;
CREATE TRIGGER articles_ad AFTER DELETE ON articles BEGIN
    INSERT INTO articles_fts(articles_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
    INSERT INTO articles_fts_cjk(articles_fts_cjk, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
END;
CREATE TRIGGER articles_au AFTER UPDATE OF title, text ON articles BEGIN
    INSERT INTO articles_fts(articles_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
    INSERT INTO articles_fts_cjk(articles_fts_cjk, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
    INSERT INTO articles_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
    INSERT INTO articles_fts_cjk(rowid, title, text) VALUES (new.id, new.title, new.text);
END;

-- Per-site boilerplate learning (Li & Jiang): LC per normalised line MD5.
CREATE TABLE line_hashes (
    site_id     INTEGER NOT NULL REFERENCES sites(id),
    md5         BLOB NOT NULL,
    count       INTEGER NOT NULL,   -- LC: articles containing the line
    first_seen  INTEGER NOT NULL,   -- RC when first seen
    last_seen   INTEGER NOT NULL,   -- RC when last seen
    sample      TEXT NOT NULL,      -- the normalised line, for `stats`
    PRIMARY KEY (site_id, md5)
) WITHOUT ROWID;

-- RC per site: articles processed by the line filter.
CREATE TABLE site_stats (
    site_id             INTEGER PRIMARY KEY REFERENCES sites(id),
    articles_processed  INTEGER NOT NULL DEFAULT 0,
    last_prune_rc       INTEGER NOT NULL DEFAULT 0
);
