-- newshound schema, version 3: the trigram index holds only articles with
-- CJK text. Alphabetic text is found through articles_fts (unicode61), and a
-- search only uses the trigram table for queries containing CJK characters,
-- so indexing English or French articles there cost write time and roughly
-- as much disk as the text itself for nothing.
--
-- "Has CJK" = the title or text contains a Han ideograph (Extension A or the
-- unified block) or Japanese kana. GLOB compares code points in ranges.
-- One trigger per event; conditional rows use INSERT … SELECT … WHERE so the
-- delete of the old row always runs before the insert of the new one.

DROP TRIGGER articles_ai;
DROP TRIGGER articles_ad;
DROP TRIGGER articles_au;

CREATE TRIGGER articles_ai AFTER INSERT ON articles BEGIN
    INSERT INTO articles_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
    INSERT INTO articles_fts_cjk(rowid, title, text)
        SELECT new.id, new.title, new.text
        WHERE (coalesce(new.title, '') || new.text) GLOB '*[㐀-䶿一-鿿ぁ-ヿ]*';
END;

CREATE TRIGGER articles_ad AFTER DELETE ON articles BEGIN
    INSERT INTO articles_fts(articles_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
    INSERT INTO articles_fts_cjk(articles_fts_cjk, rowid, title, text)
        SELECT 'delete', old.id, old.title, old.text
        WHERE (coalesce(old.title, '') || old.text) GLOB '*[㐀-䶿一-鿿ぁ-ヿ]*';
END;

CREATE TRIGGER articles_au AFTER UPDATE OF title, text ON articles BEGIN
    INSERT INTO articles_fts(articles_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
    INSERT INTO articles_fts_cjk(articles_fts_cjk, rowid, title, text)
        SELECT 'delete', old.id, old.title, old.text
        WHERE (coalesce(old.title, '') || old.text) GLOB '*[㐀-䶿一-鿿ぁ-ヿ]*';
    INSERT INTO articles_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
    INSERT INTO articles_fts_cjk(rowid, title, text)
        SELECT new.id, new.title, new.text
        WHERE (coalesce(new.title, '') || new.text) GLOB '*[㐀-䶿一-鿿ぁ-ヿ]*';
END;

-- Databases of version 2 indexed every article: rebuild from the CJK ones.
INSERT INTO articles_fts_cjk(articles_fts_cjk) VALUES ('delete-all');
INSERT INTO articles_fts_cjk(rowid, title, text)
    SELECT id, title, text FROM articles
    WHERE (coalesce(title, '') || text) GLOB '*[㐀-䶿一-鿿ぁ-ヿ]*';
