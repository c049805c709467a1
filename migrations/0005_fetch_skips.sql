-- A claimed URL put back without a request (robots, parked host, budget) is
-- logged in `fetches` too; mark those rows so `stats` reports them apart from
-- real failures. Rows written before this migration are recognised by kind.
ALTER TABLE fetches ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;
UPDATE fetches SET skipped = 1
 WHERE error_kind IN ('robots_disallowed', 'robots_unavailable', 'host_parked', 'site_budget')
   AND coalesce(bytes, 0) = 0 AND status IS NULL;
