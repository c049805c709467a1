-- Pages of a URL shape that looked like stories but gave too little
-- evidence to be stored (SQLite migration 0016): they keep a shape from
-- being trusted as an index shape.
ALTER TABLE url_shapes ADD COLUMN stories BIGINT NOT NULL DEFAULT 0;
