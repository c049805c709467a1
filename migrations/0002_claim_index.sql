-- newshound schema, version 2: claiming due URLs per site in priority order.
-- `claim_due` reads each site's queued URLs by (priority DESC, id) and
-- interleaves the sites; without this index every claim would sort all
-- queued rows. Partial: only queued rows, so done/failed URLs cost nothing.
CREATE INDEX urls_claim ON urls(site_id, priority DESC, id) WHERE state = 'queued';
