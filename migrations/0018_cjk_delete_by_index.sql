-- newshound schema, version 18: the update and delete triggers take an
-- article out of the trigram index when the index holds it (its row in
-- articles_fts_cjk_docsize), rather than when its old title and text match
-- migration 0003's GLOB. That GLOB walked every character of the old text,
-- a third of the cost of each update (`reclean`, `reextract`, a refetch);
-- the index already knows whether the row is there, and a 'delete' of a
-- row it does not hold would corrupt it. The new text is still judged by
-- the GLOB, so that an update in plain SQL keeps the index right.

DROP TRIGGER articles_ad;
DROP TRIGGER articles_au;

CREATE TRIGGER articles_ad AFTER DELETE ON articles BEGIN
    INSERT INTO articles_fts(articles_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
    INSERT INTO articles_fts_cjk(articles_fts_cjk, rowid, title, text)
        SELECT 'delete', old.id, old.title, old.text
        WHERE EXISTS (SELECT 1 FROM articles_fts_cjk_docsize WHERE id = old.id);
END;

CREATE TRIGGER articles_au AFTER UPDATE OF title, text ON articles BEGIN
    INSERT INTO articles_fts(articles_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
    INSERT INTO articles_fts_cjk(articles_fts_cjk, rowid, title, text)
        SELECT 'delete', old.id, old.title, old.text
        WHERE EXISTS (SELECT 1 FROM articles_fts_cjk_docsize WHERE id = old.id);
    INSERT INTO articles_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
    INSERT INTO articles_fts_cjk(rowid, title, text)
        SELECT new.id, new.title, new.text
        WHERE (coalesce(new.title, '') || new.text) GLOB '*[㐀-䶿一-鿿ぁ-ヿ]*';
END;
