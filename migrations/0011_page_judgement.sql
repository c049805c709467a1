-- newshound schema, version 11: what the crawl judged a fetched page to be.
--
-- A site configured without article_patterns has each fetched HTML page
-- judged an article or not from evidence (crawl::judge); with patterns the
-- patterns decide (reason 'pattern'). The verdict and its reason are kept
-- with the fetch that read the page, so a user can ask why a page was or
-- was not stored. NULL for feeds, sitemaps, failed fetches, 304s and the
-- fetches made before this version.
ALTER TABLE fetches ADD COLUMN judged TEXT;        -- article | not_article
ALTER TABLE fetches ADD COLUMN judge_reason TEXT;  -- e.g. declared_news_article, teaser_list, pattern
