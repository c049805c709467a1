-- The settings under which a URL was refused (the address guard's, or
-- robots.txt's), as a short fingerprint: a crawl whose settings differ
-- queues the URL again. NULL: not refused, or refused before this column
-- (such a URL is tried once more).
ALTER TABLE urls ADD COLUMN refused_under TEXT;
