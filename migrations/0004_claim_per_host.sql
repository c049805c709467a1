-- newshound schema, version 4: claiming is fair per host and filtered by site.
-- `urls.host` is the URL's authority (`host` or `host:port`, the same key the
-- crawler's per-host politeness uses; normalised URLs carry no default port).
-- `claim_due` walks the queued rows of each selected site host by host with
-- the index below (a skip scan finds the hosts), takes a few due URLs of each
-- and interleaves them, so one host's backlog cannot fill a claim.

ALTER TABLE urls ADD COLUMN host TEXT NOT NULL DEFAULT '';

-- Authority = text between "://" and the next "/" or "?" (normalised
-- http(s) URLs always have a path; older rows might not).
UPDATE urls SET host = (
    SELECT substr(rest, 1, min(instr(rest || '/', '/'), instr(rest || '?', '?')) - 1)
    FROM (SELECT substr(url, instr(url, '://') + 3) AS rest)
);

DROP INDEX urls_claim;
CREATE INDEX urls_claim_host ON urls(site_id, host, priority DESC, id) WHERE state = 'queued';
