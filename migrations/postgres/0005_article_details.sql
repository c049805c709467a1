-- newshound PostgreSQL schema, version 5: an article's authors as a list,
-- and what its publisher says of it: description (standfirst), section,
-- tags, lead image and paywall; with the folded keys `search` and `export`
-- filter by (as SQLite's migration 0014; store::rules::details).
ALTER TABLE articles ADD COLUMN authors TEXT;      -- JSON array of names; `author` keeps them joined with ', '
ALTER TABLE articles ADD COLUMN description TEXT;
ALTER TABLE articles ADD COLUMN section TEXT;
ALTER TABLE articles ADD COLUMN tags TEXT;         -- JSON array
ALTER TABLE articles ADD COLUMN image TEXT;        -- the lead image's URL
ALTER TABLE articles ADD COLUMN paywalled BOOLEAN; -- true declared not free, false declared free, NULL not declared
ALTER TABLE articles ADD COLUMN facets TEXT;       -- one 'author:…', 'section:…', 'tag:…' per line, folded

-- The articles stored before: `author` held their names joined with ', '.
UPDATE articles SET
    authors = '["' || replace(replace(replace(author, '\', '\\'), '"', '\"'), ', ', '","') || '"]',
    facets = chr(10) || 'author:' || replace(lower(author), ', ', chr(10) || 'author:') || chr(10)
WHERE author IS NOT NULL AND author <> '';
