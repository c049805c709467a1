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
    assert_eq!(cfg.sites.len(), 10);
    for site in &cfg.sites {
        assert!(!site.article_patterns.is_empty(), "{}", site.name);
        assert!(!site.start_urls.is_empty(), "{}", site.name);
    }
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
