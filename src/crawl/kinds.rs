//! The kinds under which a crawl counts what happened to a URL that was not
//! fetched and stored normally: one enum for failures, one for URLs left out
//! on purpose, one for the bounds of the configuration a run reached.
//!
//! In: a fetch error, a page problem or a crawl decision. Out: the kind, and
//! its short machine-readable name ([`ErrorKind::as_str`],
//! [`SkipKind::as_str`]) as the run summary, `stats` and the fetch log
//! (`fetches.error_kind`, `fetches.skipped`) spell it.

/// A failure of one URL (fetch, page, store). Counted in the summary's
/// errors and logged with the fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    Client,
    BadUrl,
    Timeout,
    Connect,
    Reset,
    Http429,
    Http5xx,
    Http4xx,
    HttpOther,
    TooLarge,
    RedirectLoop,
    TooManyRedirects,
    BadRedirect,
    BlockedAddress,
    BadContentType,
    Binary,
    Body,
    Request,
    /// robots.txt could not be fetched (the URL waits).
    RobotsFetch,
    /// A feed or sitemap URL whose body parsed as neither.
    BadFeed,
    BadSitemap,
    /// Extraction or discovery panicked on the page (the crawl goes on).
    ProcessPanic,
    /// A worker task panicked.
    WorkerPanic,
    /// A batch could not be written.
    StoreWrite,
    /// An article page with no text.
    EmptyArticle,
}

impl ErrorKind {
    /// The name in summaries, `stats` and the fetch log.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Client => "client",
            ErrorKind::BadUrl => "bad_url",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Connect => "connect",
            ErrorKind::Reset => "reset",
            ErrorKind::Http429 => "http_429",
            ErrorKind::Http5xx => "http_5xx",
            ErrorKind::Http4xx => "http_4xx",
            ErrorKind::HttpOther => "http_other",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::RedirectLoop => "redirect_loop",
            ErrorKind::TooManyRedirects => "too_many_redirects",
            ErrorKind::BadRedirect => "bad_redirect",
            ErrorKind::BlockedAddress => "blocked_address",
            ErrorKind::BadContentType => "bad_content_type",
            ErrorKind::Binary => "binary",
            ErrorKind::Body => "body",
            ErrorKind::Request => "request",
            ErrorKind::RobotsFetch => "robots_fetch",
            ErrorKind::BadFeed => "bad_feed",
            ErrorKind::BadSitemap => "bad_sitemap",
            ErrorKind::ProcessPanic => "process_panic",
            ErrorKind::WorkerPanic => "worker_panic",
            ErrorKind::StoreWrite => "store_write",
            ErrorKind::EmptyArticle => "empty_article",
        }
    }
}

/// A claimed URL put back without a request, on purpose. Counted in the
/// summary's skipped and logged as a skip (not a failed attempt).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SkipKind {
    /// robots.txt is unavailable for now; the URL waits.
    RobotsUnavailable,
    /// robots.txt disallows the URL.
    RobotsDisallowed,
    /// The site's page budget is spent.
    SiteBudget,
    /// The site stored as many articles as one run may.
    ArticleBudget,
    /// The host is parked after repeated failures.
    HostParked,
    /// The stored URL no longer parses.
    BadUrl,
}

impl SkipKind {
    /// The name in summaries, `stats` and the fetch log.
    pub const fn as_str(self) -> &'static str {
        match self {
            SkipKind::RobotsUnavailable => "robots_unavailable",
            SkipKind::RobotsDisallowed => "robots_disallowed",
            SkipKind::SiteBudget => "site_budget",
            SkipKind::ArticleBudget => "article_budget",
            SkipKind::HostParked => "host_parked",
            SkipKind::BadUrl => "bad_url",
        }
    }
}

/// A bound of the configuration that the run reached, leaving something
/// out: counted in the summary under the setting's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CapKind {
    /// An article's text was cut (`[store] max_text_bytes`).
    TextBytes,
    /// A sitemap index listed more sitemaps than it may queue (`[crawler]
    /// max_sitemaps_per_index`).
    SitemapsPerIndex,
    /// A feed or sitemap with more entries than are read (`[crawler]
    /// max_entries_per_feed`), or cut at the body limit.
    EntriesPerFeed,
    /// New URLs of a site beyond the URLs it may know (`[crawler]
    /// max_urls_per_site`).
    UrlsPerSite,
    /// New URLs of a site beyond the URLs it may have queued (`[crawler]
    /// max_queued_per_site`).
    QueuedPerSite,
    /// A site stored as many articles as one run may store (`[crawler]
    /// max_articles_per_site`).
    ArticlesPerSite,
}

impl CapKind {
    pub const ALL: [CapKind; 6] = [
        CapKind::TextBytes,
        CapKind::SitemapsPerIndex,
        CapKind::EntriesPerFeed,
        CapKind::UrlsPerSite,
        CapKind::QueuedPerSite,
        CapKind::ArticlesPerSite,
    ];

    /// The setting, as the summary names it.
    pub const fn setting(self) -> &'static str {
        match self {
            CapKind::TextBytes => "store.max_text_bytes",
            CapKind::SitemapsPerIndex => "crawler.max_sitemaps_per_index",
            CapKind::EntriesPerFeed => "crawler.max_entries_per_feed",
            CapKind::UrlsPerSite => "crawler.max_urls_per_site",
            CapKind::QueuedPerSite => "crawler.max_queued_per_site",
            CapKind::ArticlesPerSite => "crawler.max_articles_per_site",
        }
    }

    /// What each count of it is.
    pub const fn counted(self) -> &'static str {
        match self {
            CapKind::TextBytes => "article texts cut",
            CapKind::SitemapsPerIndex => "sitemap indexes cut to their freshest sitemaps",
            CapKind::EntriesPerFeed => "feeds and sitemaps read to their first entries",
            CapKind::UrlsPerSite | CapKind::QueuedPerSite => "new links not queued",
            CapKind::ArticlesPerSite => "sites stopped for this run",
        }
    }
}
