-- newshound schema, version 10: the end-of-crawl re-clean touches only the
-- articles whose lines changed status.
--
-- A line's status is where its LC lies against the site's threshold
-- t = int(1 + RC/L): kept (LC ≤ t), boilerplate (t < LC ≤ 2t), or strong
-- boilerplate (LC > 2t, what the guards ask for). An article's cleaned text
-- depends only on the statuses of its lines, so it needs cleaning again only
-- when one of them changed after the article was cleaned.

-- Lines whose status changed since the site's last re-clean, with the
-- highest article id that existed at the latest change: articles with a
-- higher id were cleaned after it. Written by learning, in the transaction
-- that stores the article; emptied by the re-clean of the site.
CREATE TABLE line_changes (
    site_id      INTEGER NOT NULL REFERENCES sites(id),
    md5          BLOB NOT NULL,
    before_id    INTEGER NOT NULL,
    PRIMARY KEY (site_id, md5)
) WITHOUT ROWID;

-- The lines of each article that the site had seen before it (LC ≥ 1 when
-- it was stored). With article_lines (the lines it was first to have,
-- migration 0006) every line of every article can be found by its hash.
CREATE TABLE article_shared_lines (
    site_id     INTEGER NOT NULL REFERENCES sites(id),
    md5         BLOB NOT NULL,
    article_id  INTEGER NOT NULL REFERENCES articles(id),
    PRIMARY KEY (site_id, md5, article_id)
) WITHOUT ROWID;

-- The line settings (window and variant) the site's stored articles were
-- last all cleaned with. NULL, or settings other than the current ones,
-- means the articles' lines are not all indexed or were judged by another
-- rule: the next re-clean walks every article of the site (and indexes
-- them). Sites learned before this version start NULL.
ALTER TABLE site_stats ADD COLUMN cleaned_with TEXT;

-- New articles enter the search indexes at the end of each write batch, in
-- one INSERT … SELECT per index (store::search_index), not through a
-- trigger per article: with the trigger each article insert opened a
-- statement savepoint, and FTS5 flushes the terms it holds to a new segment
-- at every savepoint, so every article became a segment to merge. The
-- update and delete triggers stay (rare, and they need the old values).
DROP TRIGGER articles_ai;
