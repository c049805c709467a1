-- newshound schema, version 6: near-duplicate articles.
-- A site that serves one story under several URLs with a line or two
-- changed (updates, syndicated copies, print and AMP versions) used to have
-- each copy stored as a new article and its lines counted again by the
-- line table, until the story's own lines passed the boilerplate rule and
-- later copies came out empty. Now a page whose distinctive lines are
-- mostly those of one stored article is recorded as a version of it (its
-- URL in article_urls, so `show URL` finds the article) and teaches nothing.

-- The distinctive lines of each stored article (lines no other article of
-- the site had when it was stored): MD5 of the normalised line as in
-- line_hashes, with its length in characters (the evidence is weighed by
-- length, so short template lines count for little).
CREATE TABLE article_lines (
    site_id     INTEGER NOT NULL REFERENCES sites(id),
    md5         BLOB NOT NULL,
    article_id  INTEGER NOT NULL REFERENCES articles(id),
    chars       INTEGER NOT NULL,
    PRIMARY KEY (site_id, md5, article_id)
) WITHOUT ROWID;
CREATE INDEX article_lines_article ON article_lines(article_id);

-- Every near-duplicate page, with its own extracted text.
CREATE TABLE article_versions (
    url           TEXT PRIMARY KEY,
    article_id    INTEGER NOT NULL REFERENCES articles(id),
    raw_text      TEXT NOT NULL,
    content_hash  TEXT NOT NULL,
    shared        REAL NOT NULL,    -- share of its distinctive text found in the article
    fetched_at    INTEGER NOT NULL
);
CREATE INDEX article_versions_article ON article_versions(article_id);
