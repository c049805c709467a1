-- The archive files `import` reads (WARC files: local paths or URLs), and
-- how far into each it got, so that a stopped import goes on where it
-- stopped and several import processes share one list of files.
--   state:       queued | done | retry (cut short or unreachable: read again
--                from resume_at by the next import) | failed (cannot be read)
--   resume_at:   offset in the stored file of the record (or of the gzip
--                member holding it) where reading goes on
--   resume_skip: records to skip from there (a gzip member of several)
--   records:     records read from the file so far, over every run
--   leased_by, lease_until: the process holding the file, until when (ms);
--                progress is written only under the lease, in the
--                transaction of the articles it covers
CREATE TABLE import_files (
    id           INTEGER PRIMARY KEY,
    source       TEXT NOT NULL UNIQUE,
    state        TEXT NOT NULL DEFAULT 'queued',
    resume_at    INTEGER NOT NULL DEFAULT 0,
    resume_skip  INTEGER NOT NULL DEFAULT 0,
    records      INTEGER NOT NULL DEFAULT 0,
    leased_by    TEXT,
    lease_until  INTEGER,
    error        TEXT,
    updated_at   INTEGER NOT NULL
);
