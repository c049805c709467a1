-- Learned URL shapes (SQLite migration 0012): per site and shape, how many
-- judged pages of that shape were articles, listings and other pages.
CREATE TABLE url_shapes (
    site_id   BIGINT NOT NULL REFERENCES sites(id),
    shape     TEXT NOT NULL,
    articles  BIGINT NOT NULL DEFAULT 0,
    listings  BIGINT NOT NULL DEFAULT 0,
    others    BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (site_id, shape)
);
