//! Config parsing and validation on strings and on the shipped crawler.toml.
use super::*;
use url::Url;

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(text, Path::new("crawler.toml"), Path::new("."))
}

const SITE: &str = r#"
[[sites]]
name = "example"
start = ["https://example.com/"]
article_patterns = ['/news/\d+']
"#;

#[test]
fn defaults_apply_to_missing_sections() {
    let cfg = parse(SITE).unwrap();
    assert_eq!(cfg.boilerplate.line_window, 50);
    assert_eq!(cfg.crawler.database, PathBuf::from("newshound.db"));
    assert_eq!(cfg.sites[0].hosts, vec!["example.com".to_string()]);
    assert!(cfg.sites[0].is_article(&Url::parse("https://example.com/news/12").unwrap()));
}

#[test]
fn invalid_rate_names_the_field() {
    let text = format!("{SITE}rate = 0\n");
    let err = parse(&text).unwrap_err().to_string();
    assert_eq!(err, "crawler.toml: sites[0].rate: must be > 0 (got 0)");
}

#[test]
fn unknown_field_is_a_syntax_error_naming_it() {
    let err = parse("[crawler]\nconcurency = 3\n")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("crawler.toml:"), "{err}");
    assert!(err.contains("concurency"), "{err}");
}

#[test]
fn bad_regex_and_bad_url_are_rejected() {
    let text = SITE.replace(r"/news/\d+", "(");
    let err = parse(&text).unwrap_err().to_string();
    assert!(err.contains("sites[0].article_patterns[0]"), "{err}");
    let text = SITE.replace("https://example.com/", "ftp://x");
    let err = parse(&text).unwrap_err().to_string();
    assert!(err.contains("sites[0].start[0]"), "{err}");
}

#[test]
fn missing_seed_file_is_named() {
    let text = "[[sites]]\nname = \"a\"\nseeds = \"seeds/nope.txt\"\n";
    let err = parse(text).unwrap_err().to_string();
    assert!(err.contains("sites[0].seeds"), "{err}");
    assert!(err.contains("nope.txt"), "{err}");
}

#[test]
fn duplicate_site_names_are_rejected() {
    let err = parse(&format!("{SITE}{SITE}")).unwrap_err().to_string();
    assert!(err.contains("sites[1].name: duplicate"), "{err}");
}

#[test]
fn shipped_crawler_toml_is_valid() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("crawler.toml");
    let cfg = Config::load(&path).unwrap();
    assert_eq!(cfg.sites.len(), 11);
    for site in &cfg.sites {
        assert!(!site.start_urls.is_empty(), "{}", site.name);
    }
    // Both forms: sites with patterns, and a bare one (name and start).
    let with_patterns = cfg.sites.iter().filter(|s| !s.article_patterns.is_empty());
    assert_eq!(with_patterns.count(), 10);
    let bare = cfg.site("aljazeera").unwrap();
    assert!(bare.article_patterns.is_empty() && bare.index_patterns.is_empty());
    assert!(bare.feeds.is_empty() && bare.sitemaps.is_empty());
    let bbc = cfg.site("bbc").unwrap();
    let article = Url::parse("https://www.bbc.com/news/articles/c0k3v1n2x8do").unwrap();
    assert!(bbc.owns(&article) && bbc.is_article(&article));
    assert!(!bbc.is_article(&Url::parse("https://www.bbc.com/news/world").unwrap()));
}

#[test]
fn syntax_error_gives_position_without_quoting_the_file() {
    let err = parse("[crawler]\nsecret_line_here = \n")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("crawler.toml: line 2, column"), "{err}");
    assert!(!err.contains("secret_line_here"), "{err}");
}

#[test]
fn time_zones_global_and_per_site() {
    let text =
        format!("[extract]\ntimezone = \"Europe/Paris\"\n{SITE}timezone = \"Asia/Shanghai\"\n");
    let cfg = parse(&text).unwrap();
    assert_eq!(cfg.extract.timezone, Some(chrono_tz::Europe::Paris));
    assert_eq!(cfg.sites[0].timezone, Some(chrono_tz::Asia::Shanghai));
    let cfg = parse(SITE).unwrap();
    assert_eq!(cfg.extract.timezone, None);
    assert_eq!(cfg.sites[0].timezone, None);
}

#[test]
fn unknown_time_zone_is_named_with_its_line() {
    let text = format!("{SITE}timezone = \"Asia/Shangai\"\n");
    let err = parse(&text).unwrap_err().to_string();
    assert!(err.contains("unknown time zone \"Asia/Shangai\""), "{err}");
    assert!(err.contains("line 6"), "{err}");
    let err = parse("[extract]\ntimezone = \"+08:00\"\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown time zone \"+08:00\""), "{err}");
}

/// A site's time zone, rate and boilerplate switch were looked up in two
/// places (the site's entry, then the global section) by every caller, which
/// could disagree; they are resolved once at load.
#[test]
fn site_settings_resolve_the_sites_own_values_else_the_global_ones() {
    let text = format!(
        "[politeness]\nrate_per_host = 3.0\n[extract]\ntimezone = \"Asia/Shanghai\"\n\
         [boilerplate]\nenabled = false\nline_window = 7\n{SITE}\
         [[sites]]\nname = \"own\"\nstart = [\"https://own.example/\"]\nrate = 0.5\n\
         timezone = \"Europe/Paris\"\nboilerplate = true\n"
    );
    let cfg = parse(&text).unwrap();
    let (global, own) = (&cfg.sites[0], &cfg.sites[1]);
    assert_eq!(global.rate, 3.0);
    assert_eq!(global.timezone, Some(chrono_tz::Asia::Shanghai));
    assert!(!global.lines.enabled);
    assert_eq!(global.lines.rule.window, 7);
    assert_eq!(own.rate, 0.5);
    assert_eq!(own.timezone, Some(chrono_tz::Europe::Paris));
    assert!(own.lines.enabled);
    assert_eq!(own.lines.rule.window, 7);
    assert_eq!(cfg.line_settings(Some("own")), own.lines);
    assert!(!cfg.line_settings(Some("no such site")).enabled);
}

fn rejected(text: &str) -> String {
    let err = parse(text).unwrap_err().to_string();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

/// `timeout_secs = 1e300` (and every `*_secs`) reached
/// `Duration::from_secs_f64` unchecked and panicked; now each is turned into
/// a Duration at load, within a documented range.
#[test]
fn huge_seconds_are_one_line_naming_the_field_not_a_panic() {
    for (section, field, max) in [
        ("fetch", "timeout_secs", "86400"),
        ("fetch", "connect_timeout_secs", "86400"),
        ("fetch", "read_timeout_secs", "86400"),
        ("fetch", "backoff_base_secs", "86400"),
        ("fetch", "backoff_max_secs", "86400"),
        ("politeness", "max_crawl_delay_secs", "86400"),
        ("crawler", "revisit_secs", "31536000"),
        ("crawler", "refetch_articles_after_secs", "31536000"),
    ] {
        let err = rejected(&format!("[{section}]\n{field} = 1e300\n{SITE}"));
        assert_eq!(
            err,
            format!("crawler.toml: {section}.{field}: must be at most {max} seconds (got 1e300)")
        );
    }
    let err = rejected(&format!("[fetch]\ntimeout_secs = nan\n{SITE}"));
    assert_eq!(
        err,
        "crawler.toml: fetch.timeout_secs: must be > 0 (got NaN)"
    );
    let err = rejected(&format!("[fetch]\nbackoff_max_secs = -inf\n{SITE}"));
    assert_eq!(
        err,
        "crawler.toml: fetch.backoff_max_secs: must be >= 0 (got -inf)"
    );
}

/// `rate_per_host = 1e-300` passed the `> 0` check and overflowed
/// the rate limiter's period (and its jitter) into a panic.
#[test]
fn tiny_rates_are_one_line_naming_the_field_not_a_panic() {
    let err = rejected(&format!("[politeness]\nrate_per_host = 1e-300\n{SITE}"));
    assert_eq!(
        err,
        "crawler.toml: politeness.rate_per_host: must be at least 0.001 (got 1e-300)"
    );
    let err = rejected(&format!("{SITE}rate = 1e-300\n"));
    assert_eq!(
        err,
        "crawler.toml: sites[0].rate: must be at least 0.001 (got 1e-300)"
    );
    let err = rejected(&format!("{SITE}rate = 1e300\n"));
    assert_eq!(
        err,
        "crawler.toml: sites[0].rate: must be at most 10000 (got 1e300)"
    );
}

/// `concurrency = 18446744073709551615` (u64::MAX) made tokio's
/// semaphore panic; every integer now has a documented upper bound.
#[test]
fn huge_counts_are_one_line_naming_the_field_not_a_panic() {
    for (section, field, max) in [
        ("crawler", "concurrency", "1024"),
        ("politeness", "per_host_concurrency", "1024"),
        ("crawler", "max_depth", "1000"),
        ("fetch", "max_body_bytes", "1073741824"),
        ("fetch", "max_redirects", "100"),
        ("fetch", "retries", "100"),
    ] {
        let err = rejected(&format!("[{section}]\n{field} = 4294967295\n{SITE}"));
        assert_eq!(
            err,
            format!("crawler.toml: {section}.{field}: must be at most {max} (got 4294967295)")
        );
    }
    let err = rejected(&format!(
        "[crawler]\nconcurrency = 18446744073709551615\n{SITE}"
    ));
    assert!(err.contains("concurrency"), "{err}");
    let err = rejected(&format!("[crawler]\nconcurrency = 0\n{SITE}"));
    assert_eq!(
        err,
        "crawler.toml: crawler.concurrency: must be at least 1 (got 0)"
    );
    let err = rejected(&format!("[boilerplate]\nprune_every = 0\n{SITE}"));
    assert_eq!(
        err,
        "crawler.toml: boilerplate.prune_every: must be between 1 and 1000000000 (got 0)"
    );
}

#[test]
fn regression_a_newline_in_user_agent_passed_the_config_check() {
    for bad in ["newshound\nX-Evil: 1", "newshound\r", "Zo\u{eb}bot/1.0"] {
        let text = format!("[crawler]\nuser_agent = {bad:?}\n{SITE}");
        let err = parse(&text).unwrap_err().to_string();
        assert!(
            err.starts_with("crawler.toml: crawler.user_agent: must be one line"),
            "{bad:?}: {err}"
        );
    }
    let text = format!("[crawler]\nuser_agent = \"newshound/0.1 (+https://e.com/bot)\"\n{SITE}");
    assert!(parse(&text).is_ok());
}

#[test]
fn import_commit_interval_is_read_and_bounded() {
    let cfg = parse(&format!("[store]\nimport_commit_ms = 50\n{SITE}")).unwrap();
    assert_eq!(cfg.store.import_commit_ms, 50);
    assert_eq!(parse(SITE).unwrap().store.import_commit_ms, 2000);
    let err = parse(&format!("[store]\nimport_commit_ms = 0\n{SITE}"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("store.import_commit_ms"), "{err}");
}
