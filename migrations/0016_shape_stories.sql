-- Pages of a URL shape that looked like stories (a long body under a
-- headline, little link text) but gave too little evidence to be stored
-- (no date, not listed, nothing declared). They do not make a shape an
-- article shape, and they keep it from being trusted as an index shape:
-- the crawl judges such pages again once their shape is learned from
-- stories that were stored.
ALTER TABLE url_shapes ADD COLUMN stories INTEGER NOT NULL DEFAULT 0;
