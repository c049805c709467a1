-- newshound schema, version 9: which path of the extractor found each
-- article's text, and a ledger of the migrations applied.
--
-- `articles.method` is extract::Method: 'density' (density scoring, or the
-- algorithm asked for), 'schema' (the page's article markup or JSON-LD
-- articleBody) or 'fallback' (the largest cluster of paragraphs). NULL for
-- articles stored before this migration: unknown until `reextract` extracts
-- them again.
ALTER TABLE articles ADD COLUMN method TEXT;

-- One row per migration applied, so that a migration numbered below one
-- already applied (written on a branch that merged later) is still applied.
-- `applied_at` is unix milliseconds; NULL for the migrations a database
-- recorded before this ledger existed (in `PRAGMA user_version`).
CREATE TABLE schema_migrations (
    version    INTEGER PRIMARY KEY,
    applied_at INTEGER
);
