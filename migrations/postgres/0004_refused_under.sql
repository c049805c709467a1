-- The settings under which a URL was refused (the address guard's, or
-- robots.txt's), as a short fingerprint: a crawl whose settings differ
-- queues the URL again. NULL: not refused, or refused before this column
-- (such a URL is tried once more).
ALTER TABLE urls ADD COLUMN refused_under TEXT;
-- Failed and refused URLs by site and reason: what a crawl queues again at
-- its start and what its summary reports, without a scan of the frontier.
CREATE INDEX urls_failed ON urls(site_id, last_error) WHERE state IN ('failed', 'skipped');
