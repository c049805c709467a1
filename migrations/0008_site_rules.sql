-- Tree site rules (the hybrid approach paper): per site, the id/class path of
-- the content block the decision tree found, reused on the site's later pages
-- without running the tree; dropped and relearned when it stops matching.
CREATE TABLE site_rules (
    site_id        INTEGER PRIMARY KEY REFERENCES sites(id),
    -- The path as JSON (extract::tree::rule::SiteRule); NULL while none is learned.
    rule           TEXT,
    -- The same path for people: `div#main > div.story-body`.
    display        TEXT,
    -- Article pages extracted by the rule / by running the tree.
    pages_by_rule  INTEGER NOT NULL DEFAULT 0,
    pages_by_tree  INTEGER NOT NULL DEFAULT 0,
    -- Times a stale rule was dropped.
    dropped        INTEGER NOT NULL DEFAULT 0
);
