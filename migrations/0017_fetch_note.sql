-- A note on a fetch that succeeded with something left out, for the fetch
-- log: e.g. `text_cut 5242880 1048576` (the article's text, 5,242,880
-- bytes, stored cut at `[store] max_text_bytes`). NULL: nothing to say.
ALTER TABLE fetches ADD COLUMN note TEXT;
