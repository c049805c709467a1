-- Learned URL shapes: per site and shape (`/{yyyy}/{mm}/{dd}/{slug}.html`,
-- `/{word}/{slug}-{id}`), how many judged pages of that shape were
-- articles, listings (section fronts, tag pages) and other pages (about,
-- sign-in). The crawl orders and bounds a site's frontier by them
-- (crawl::shapes holds the rule; this holds only the counts).
CREATE TABLE url_shapes (
    site_id   INTEGER NOT NULL REFERENCES sites(id),
    shape     TEXT NOT NULL,
    articles  INTEGER NOT NULL DEFAULT 0,
    listings  INTEGER NOT NULL DEFAULT 0,
    others    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (site_id, shape)
) WITHOUT ROWID;
