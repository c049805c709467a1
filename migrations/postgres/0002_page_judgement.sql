-- newshound PostgreSQL schema, version 2: what the crawl judged a fetched
-- page to be (as SQLite's migration 0011).
--
-- A site configured without article_patterns has each fetched HTML page
-- judged an article or not from evidence (crawl::judge); with patterns the
-- patterns decide (reason 'pattern'). NULL for feeds, sitemaps, failed
-- fetches, 304s and the fetches made before this version.
ALTER TABLE fetches ADD COLUMN judged TEXT;        -- article | not_article
ALTER TABLE fetches ADD COLUMN judge_reason TEXT;  -- e.g. declared_news_article, teaser_list, pattern
