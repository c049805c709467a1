-- newshound schema, version 14: an article's authors as a list, and what
-- its publisher says of it: description (standfirst), section, tags, lead
-- image and paywall; with the folded keys `search` and `export` filter by
-- (store::rules::details).
ALTER TABLE articles ADD COLUMN authors TEXT;      -- JSON array of names; `author` keeps them joined with ', '
ALTER TABLE articles ADD COLUMN description TEXT;
ALTER TABLE articles ADD COLUMN section TEXT;
ALTER TABLE articles ADD COLUMN tags TEXT;         -- JSON array
ALTER TABLE articles ADD COLUMN image TEXT;        -- the lead image's URL
ALTER TABLE articles ADD COLUMN paywalled INTEGER; -- 1 declared not free, 0 declared free, NULL not declared
ALTER TABLE articles ADD COLUMN facets TEXT;       -- one 'author:…', 'section:…', 'tag:…' per line, folded

-- The articles stored before: `author` held their names joined with ', '.
-- (SQLite's lower() folds ASCII letters only; `reextract` writes the full
-- keys of articles with kept HTML.)
UPDATE articles SET
    authors = '["' || replace(replace(replace(author, '\', '\\'), '"', '\"'), ', ', '","') || '"]',
    facets = char(10) || 'author:' || replace(lower(author), ', ', char(10) || 'author:') || char(10)
WHERE author IS NOT NULL AND author <> '';
