-- newshound schema, version 2: claiming due URLs in priority order.
-- `claim_due` reads queued URLs by (priority DESC, id); without this index it
-- sorts every queued row on each claim, which is slow with a large frontier.
-- Partial: only queued rows, so done/failed URLs cost nothing here.
CREATE INDEX urls_claim ON urls(priority DESC, id) WHERE state = 'queued';
