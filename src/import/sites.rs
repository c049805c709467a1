//! Which site an archived page belongs to.
//!
//! In: the config's sites (all, or those `--site` names), whether every
//! other host is a site of its own (`--any-site`), then each page's URL.
//! Out: the page's [`SiteSettings`], or `None` (the page is another site's
//! and is skipped).
//!
//! A configured site owns its hosts as the crawl reads them (`hosts`, and
//! with `merge_www` the www/bare twin of each). With `--any-site`, a host
//! no configured site owns becomes a site named as `sites add` would name
//! it (`www.example.co.uk` → `example`), set up as the config would load a
//! site added that way; the config file is not touched. The twin of a host
//! already seen is the same site; another host whose name is taken gets
//! its full host name.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use url::Url;

use super::ImportError;
use crate::config::{Config, SiteSettings};
use crate::crawl::entry_points::site_name_from;
use crate::urls::host_key;

/// The sites of an import.
pub struct Sites {
    /// Host keys (`host` or `host:port`) of the configured sites taken.
    by_host: HashMap<String, Arc<SiteSettings>>,
    /// `--any-site`: the config the sites of other hosts are made with, and
    /// those made so far.
    any: Option<AnySites>,
}

struct AnySites {
    config: Arc<Config>,
    made: Mutex<Made>,
}

#[derive(Default)]
struct Made {
    by_host: HashMap<String, Arc<SiteSettings>>,
    names: HashSet<String>,
}

/// Host keys of a site and, with `merge_www`, their twins.
fn keys_of(site: &SiteSettings) -> Vec<String> {
    let mut keys = Vec::new();
    for host in &site.hosts {
        keys.push(host.clone());
        if site.merge_www {
            keys.push(match host.strip_prefix("www.") {
                Some(bare) => bare.to_string(),
                None => format!("www.{host}"),
            });
        }
    }
    keys
}

impl Sites {
    /// The sites of `config` named in `only` (all when empty), and with
    /// `any_site` every other host.
    pub fn new(config: Arc<Config>, only: &[String], any_site: bool) -> Result<Sites, ImportError> {
        let mut by_host = HashMap::new();
        for name in only {
            if config.site(name).is_none() {
                return Err(ImportError::UnknownSite {
                    name: name.clone(),
                    known: config.site_list(),
                });
            }
        }
        let taken = config
            .sites
            .iter()
            .filter(|s| only.is_empty() || only.contains(&s.name));
        for site in taken {
            let site = Arc::new(site.clone());
            for key in keys_of(&site) {
                // The first site to name a host keeps it, as the crawl's
                // seeds are the first site's.
                by_host.entry(key).or_insert_with(|| site.clone());
            }
        }
        if by_host.is_empty() && !any_site {
            return Err(ImportError::NoSites);
        }
        let any = any_site.then(|| AnySites {
            made: Mutex::new(Made {
                names: config.sites.iter().map(|s| s.name.clone()).collect(),
                ..Made::default()
            }),
            config,
        });
        Ok(Sites { by_host, any })
    }

    /// The site of the page at `url` (`None`: not one of the import's).
    pub fn site_of(&self, url: &Url) -> Option<Arc<SiteSettings>> {
        let key = host_key(url);
        if let Some(site) = self.by_host.get(&key) {
            return Some(site.clone());
        }
        let any = self.any.as_ref()?;
        let mut made = any.made.lock().ok()?;
        if let Some(site) = made.by_host.get(&key) {
            return Some(site.clone());
        }
        let mut home = url.clone();
        home.set_path("/");
        home.set_query(None);
        home.set_fragment(None);
        let mut name = site_name_from(&home);
        if made.names.contains(&name) {
            name = key.replace([':', '.'], "-");
        }
        let site = Arc::new(any.config.site_from_address(&name, &home).ok()?);
        made.names.insert(name);
        for key in keys_of(&site) {
            made.by_host.entry(key).or_insert_with(|| site.clone());
        }
        Some(site)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn config() -> Arc<Config> {
        let text = r#"
[[sites]]
name = "news"
start = ["https://www.news.test/"]
[[sites]]
name = "daily"
start = ["https://daily.test/"]
hosts = ["m.daily.test"]
"#;
        Arc::new(Config::parse(text, Path::new("t.toml"), Path::new(".")).unwrap())
    }

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn name(sites: &Sites, u: &str) -> Option<String> {
        sites.site_of(&url(u)).map(|s| s.name.clone())
    }

    #[test]
    fn pages_belong_to_the_sites_that_own_their_hosts() {
        let sites = Sites::new(config(), &[], false).unwrap();
        assert_eq!(name(&sites, "https://news.test/a").as_deref(), Some("news"));
        assert_eq!(
            name(&sites, "http://www.news.test/b").as_deref(),
            Some("news")
        );
        assert_eq!(
            name(&sites, "https://m.daily.test/c").as_deref(),
            Some("daily")
        );
        assert_eq!(name(&sites, "https://other.test/d"), None);
        let one = Sites::new(config(), &["daily".into()], false).unwrap();
        assert_eq!(name(&one, "https://news.test/a"), None);
        assert!(matches!(
            Sites::new(config(), &["nope".into()], false),
            Err(ImportError::UnknownSite { .. })
        ));
    }

    #[test]
    fn with_any_site_every_other_host_is_a_site_named_as_sites_add_names_it() {
        let sites = Sites::new(config(), &[], true).unwrap();
        let a = sites
            .site_of(&url("https://www.example.co.uk/2026/story"))
            .unwrap();
        assert_eq!(a.name, "example");
        assert_eq!(a.start_urls, [url("https://www.example.co.uk/")]);
        assert!(a.article_patterns.is_empty() && a.merge_www);
        // Its twin is the same site; a configured site keeps its hosts.
        let b = sites.site_of(&url("https://example.co.uk/other")).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(name(&sites, "https://news.test/a").as_deref(), Some("news"));
        // A name taken by a configured site: the full host instead.
        assert_eq!(
            name(&sites, "https://news.example/x").as_deref(),
            Some("news-example")
        );
    }
}
