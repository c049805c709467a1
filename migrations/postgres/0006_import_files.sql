-- The archive files `import` reads and how far into each it got (SQLite
-- migration 0015 says what each column holds). Several import processes
-- share this list: a file is claimed under a lease, as a frontier URL is.
CREATE TABLE import_files (
    id           BIGSERIAL PRIMARY KEY,
    source       TEXT NOT NULL UNIQUE,
    state        TEXT NOT NULL DEFAULT 'queued',
    resume_at    BIGINT NOT NULL DEFAULT 0,
    resume_skip  BIGINT NOT NULL DEFAULT 0,
    records      BIGINT NOT NULL DEFAULT 0,
    leased_by    TEXT,
    lease_until  BIGINT,
    error        TEXT,
    updated_at   BIGINT NOT NULL
);
