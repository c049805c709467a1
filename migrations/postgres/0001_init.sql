-- newshound's PostgreSQL schema, version 1 (the SQLite schema of migrations
-- 0001–0010, for a corpus that several crawler processes share). Never edit
-- this file once landed: add 0002_*.sql beside it.
--
-- Times are unix milliseconds (BIGINT) like on SQLite, so the two stores
-- hold the same values and `copy` moves them unchanged; published_at and
-- modified_at are RFC 3339 text. Line hashes are the 16 MD5 bytes (BYTEA).
-- What differs from SQLite, and why:
-- * the frontier has leases (`leased_by`, `lease_until`): a claim takes
--   queued URLs with FOR UPDATE SKIP LOCKED and marks them `fetching` until
--   the lease ends; a URL whose lease ended (its process died) is claimable
--   again, so nothing is lost to a killed process;
-- * `hosts.next_turn_at` is the global politeness clock: a process takes a
--   host's next turn atomically before each request, so a host's rate and
--   Crawl-delay hold across all processes together;
-- * search is a stored tsvector (GIN, ranked with ts_rank_cd) for
--   alphabetic languages and pg_trgm (GIN) for Chinese and Japanese,
--   instead of FTS5.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE sites (
    id    BIGSERIAL PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE
);

-- The frontier: every normalised URL the crawler knows, with its schedule.
CREATE TABLE urls (
    id             BIGSERIAL PRIMARY KEY,
    url            TEXT NOT NULL UNIQUE,
    site_id        BIGINT NOT NULL REFERENCES sites(id),
    host           TEXT NOT NULL,               -- authority (host or host:port)
    kind           TEXT NOT NULL,               -- seed | feed | sitemap | index | article | page
    state          TEXT NOT NULL DEFAULT 'queued', -- queued | fetching | done | failed | skipped
    priority       INTEGER NOT NULL DEFAULT 0,  -- higher first
    depth          INTEGER NOT NULL DEFAULT 0,
    next_fetch_at  BIGINT NOT NULL DEFAULT 0,
    etag           TEXT,
    last_modified  TEXT,
    attempts       INTEGER NOT NULL DEFAULT 0,
    last_status    INTEGER,
    last_error     TEXT,
    discovered_at  BIGINT NOT NULL,
    fetched_at     BIGINT,
    -- The process holding the URL while `fetching`, and until when.
    leased_by      TEXT,
    lease_until    BIGINT
);
CREATE INDEX urls_claim ON urls(site_id, priority DESC, id) WHERE state = 'queued';
CREATE INDEX urls_due ON urls(next_fetch_at) WHERE state = 'queued';
CREATE INDEX urls_lease ON urls(lease_until) WHERE state = 'fetching';
CREATE INDEX urls_site ON urls(site_id);

-- The global politeness clock per host (see the header).
CREATE TABLE hosts (
    host          TEXT PRIMARY KEY,
    next_turn_at  BIGINT NOT NULL DEFAULT 0,
    -- The least spacing of the host's turns (ms) that its robots.txt
    -- Crawl-delay asks for, once any process read it (0: none known).
    delay_spacing_ms  BIGINT NOT NULL DEFAULT 0
);

-- One row per HTTP attempt or skip (the fetch log).
CREATE TABLE fetches (
    id            BIGSERIAL PRIMARY KEY,
    url_id        BIGINT NOT NULL REFERENCES urls(id),
    started_at    BIGINT NOT NULL,
    status        INTEGER,
    error_kind    TEXT,
    bytes         BIGINT,
    elapsed_ms    BIGINT,
    final_url     TEXT,
    content_type  TEXT,
    skipped       BOOLEAN NOT NULL DEFAULT false,
    -- The process that made the request (which crawler did what).
    fetched_by    TEXT
);
CREATE INDEX fetches_url ON fetches(url_id);

CREATE TABLE articles (
    id             BIGSERIAL PRIMARY KEY,
    url_id         BIGINT REFERENCES urls(id),
    url            TEXT NOT NULL UNIQUE,
    canonical_url  TEXT,
    site_id        BIGINT NOT NULL REFERENCES sites(id),
    title          TEXT,
    author         TEXT,
    published_at   TEXT,
    modified_at    TEXT,
    language       TEXT,
    site_name      TEXT,
    text           TEXT NOT NULL,   -- after boilerplate removal
    raw_text       TEXT NOT NULL,   -- as extracted (for re-cleaning)
    content_hash   TEXT NOT NULL,   -- MD5 hex of raw_text, duplicate detection
    word_count     BIGINT NOT NULL,
    fetched_at     BIGINT NOT NULL,
    method         TEXT,
    -- Alphabetic-language search: title weighted above text. 'simple'
    -- (no stemming, no stop words) matches what the SQLite store's
    -- unicode61 tokenizer finds; unaccent is not used (an extension that
    -- needs superuser on some installs).
    search         TSVECTOR GENERATED ALWAYS AS (
        setweight(to_tsvector('simple', coalesce(title, '')), 'A')
        || setweight(to_tsvector('simple', text), 'B')
    ) STORED
);
CREATE INDEX articles_site ON articles(site_id);
CREATE UNIQUE INDEX articles_content ON articles(site_id, content_hash);
CREATE INDEX articles_search ON articles USING GIN (search);
-- Chinese and Japanese (no spaces between words): trigram substring search
-- over title and text. Partial, like SQLite's trigram table (migration
-- 0003): only articles with Han or kana (the ranges of 0003's GLOB), since
-- indexing alphabetic text costs write time and about its size in disk for
-- nothing. A search adds the same condition when every alternative of a
-- clause holds CJK (store::pg::search), so the planner can use the index.
CREATE INDEX articles_trgm ON articles
    USING GIN ((coalesce(title, '') || ' ' || text) gin_trgm_ops)
    WHERE (coalesce(title, '') || ' ' || text) ~ '[㐀-䶿一-鿿ぁ-ヿ]';

-- Every URL that led to an article (duplicates of the same body included).
CREATE TABLE article_urls (
    url         TEXT PRIMARY KEY,
    article_id  BIGINT NOT NULL REFERENCES articles(id)
);

-- Per-site boilerplate learning (Li & Jiang): LC per normalised line MD5,
-- updated with INSERT … ON CONFLICT DO UPDATE so concurrent processes add up.
CREATE TABLE line_hashes (
    site_id     BIGINT NOT NULL REFERENCES sites(id),
    md5         BYTEA NOT NULL,
    count       BIGINT NOT NULL,   -- LC: articles containing the line
    first_seen  BIGINT NOT NULL,   -- RC when first seen
    last_seen   BIGINT NOT NULL,   -- RC when last seen
    sample      TEXT NOT NULL,     -- the normalised line, for `stats`
    PRIMARY KEY (site_id, md5)
);

-- RC per site: articles processed by the line filter.
CREATE TABLE site_stats (
    site_id             BIGINT PRIMARY KEY REFERENCES sites(id),
    articles_processed  BIGINT NOT NULL DEFAULT 0,
    last_prune_rc       BIGINT NOT NULL DEFAULT 0,
    cleaned_with        TEXT
);

-- The lines each article was first to have (near-duplicate detection).
CREATE TABLE article_lines (
    site_id     BIGINT NOT NULL REFERENCES sites(id),
    md5         BYTEA NOT NULL,
    article_id  BIGINT NOT NULL REFERENCES articles(id),
    chars       INTEGER NOT NULL,
    PRIMARY KEY (site_id, md5, article_id)
);
CREATE INDEX article_lines_article ON article_lines(article_id);

-- Republished copies recorded against the article they repeat.
CREATE TABLE article_versions (
    url           TEXT PRIMARY KEY,
    article_id    BIGINT NOT NULL REFERENCES articles(id),
    raw_text      TEXT NOT NULL,
    content_hash  TEXT NOT NULL,
    shared        DOUBLE PRECISION NOT NULL,
    fetched_at    BIGINT NOT NULL
);
CREATE INDEX article_versions_article ON article_versions(article_id);

-- The response an article came from (`[store] keep_html`), zstd-compressed.
CREATE TABLE article_html (
    article_id     BIGINT PRIMARY KEY REFERENCES articles(id) ON DELETE CASCADE,
    url            TEXT NOT NULL,
    status         INTEGER NOT NULL,
    content_type   TEXT,
    last_modified  TEXT,
    etag           TEXT,
    date           TEXT,
    fetched_at     BIGINT NOT NULL,
    body_bytes     BIGINT NOT NULL,
    body_zstd      BYTEA NOT NULL
);

CREATE TABLE reextract_progress (
    selection  TEXT PRIMARY KEY,
    last_id    BIGINT NOT NULL,
    changed    BIGINT NOT NULL,
    seen       BIGINT NOT NULL
);

-- `tree` site rules (SQLite migration 0008).
CREATE TABLE site_rules (
    site_id        BIGINT PRIMARY KEY REFERENCES sites(id),
    rule           TEXT,
    display        TEXT,
    pages_by_rule  BIGINT NOT NULL DEFAULT 0,
    pages_by_tree  BIGINT NOT NULL DEFAULT 0,
    dropped        BIGINT NOT NULL DEFAULT 0
);

-- Lines whose status changed since the site's last re-clean (SQLite
-- migration 0010).
CREATE TABLE line_changes (
    site_id      BIGINT NOT NULL REFERENCES sites(id),
    md5          BYTEA NOT NULL,
    before_id    BIGINT NOT NULL,
    PRIMARY KEY (site_id, md5)
);

-- The lines of each article that the site had seen before it.
CREATE TABLE article_shared_lines (
    site_id     BIGINT NOT NULL REFERENCES sites(id),
    md5         BYTEA NOT NULL,
    article_id  BIGINT NOT NULL REFERENCES articles(id),
    PRIMARY KEY (site_id, md5, article_id)
);
