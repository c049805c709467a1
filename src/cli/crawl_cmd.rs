//! `crawl`, `demo`, `reclean` and `extract URL`: the commands that run the
//! async crawler or its fetcher.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use newshound::config::Config;
use newshound::crawl::{self, CrawlOptions};
use newshound::extract::{self, Article, ExtractOptions};
use newshound::simweb::{SimWeb, SimWebSpec};
use newshound::store::Store;

use super::Globals;

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// First Ctrl-C: resolve (the crawl stops taking work and flushes).
/// Second Ctrl-C: exit at once.
async fn ctrl_c_twice() {
    if tokio::signal::ctrl_c().await.is_err() {
        // No signal handling available: never resolve, the crawl ends by itself.
        std::future::pending::<()>().await;
    }
    eprintln!("newshound: stopping after in-flight pages (Ctrl-C again to quit at once)");
    tokio::spawn(async {
        if tokio::signal::ctrl_c().await.is_ok() {
            std::process::exit(130);
        }
    });
}

pub fn crawl(
    globals: &Globals,
    sites: Vec<String>,
    continuous: bool,
    max_pages: Option<u64>,
) -> Result<ExitCode> {
    let mut config = globals.config_with_sites()?;
    if let Some(n) = max_pages {
        config.crawler.max_pages = n;
    }
    for name in &sites {
        if config.site(name).is_none() {
            let known: Vec<&str> = config.sites.iter().map(|s| s.name.as_str()).collect();
            bail!(
                "unknown site {name:?} (sites in {}: {})",
                config.source.display(),
                known.join(", ")
            );
        }
    }
    let db = globals.db_path(&config);
    let store = Store::open(&db)?;
    let opts = CrawlOptions {
        continuous,
        sites,
        progress: std::io::stderr().is_terminal(),
    };
    let summary = runtime()?.block_on(crawl::run(&config, store, opts, ctrl_c_twice()))?;
    println!("{summary}");
    Ok(ExitCode::SUCCESS)
}

pub fn reclean(globals: &Globals, site: Option<String>) -> Result<ExitCode> {
    let config = globals.config()?;
    let mut store = globals.open_existing_store()?;
    let changed = store.reclean(site.as_deref(), |name| {
        crawl::line_settings(&config, config.site(name))
    })?;
    println!("re-cleaned {changed} articles");
    Ok(ExitCode::SUCCESS)
}

pub fn extract_url(globals: &Globals, url: &str, opts: &ExtractOptions) -> Result<Article> {
    let config = globals.config()?;
    let url = url::Url::parse(url).with_context(|| format!("{url}: invalid URL"))?;
    let fetcher = crawl::fetch::Fetcher::new(&config.fetch, &config.crawler.user_agent)?;
    let page = runtime()?
        .block_on(fetcher.fetch(
            &url,
            &crawl::fetch::Validators::default(),
            crawl::fetch::Expect::Html,
        ))
        .with_context(|| format!("{url}"))?;
    Ok(extract::extract_bytes(
        &page.body,
        page.content_type.as_deref(),
        Some(&page.final_url),
        opts,
    ))
}

pub fn demo(globals: &Globals, articles: usize) -> Result<ExitCode> {
    let rt = runtime()?;
    let tmp = tempfile::tempdir().context("cannot create a temporary directory")?;
    let db = globals
        .db
        .clone()
        .unwrap_or_else(|| tmp.path().join("demo.db"));
    rt.block_on(async {
        let web = SimWeb::start(SimWebSpec {
            articles_per_site: articles,
            ..SimWebSpec::default()
        })
        .await
        .context("cannot start the simulated news web on 127.0.0.1")?;
        println!("simulated news web:");
        for site in web.sites() {
            println!(
                "  {:<14} {}  ({} articles)",
                site.name,
                site.base_url,
                site.article_urls.len()
            );
        }
        let config = Config::parse(&web.config_toml(), Path::new("<simweb>"), Path::new("."))
            .context("simulated web config")?;
        let store = Store::open(&db)?;
        let opts = CrawlOptions {
            continuous: false,
            sites: Vec::new(),
            progress: std::io::stderr().is_terminal(),
        };
        let summary = crawl::run(&config, store, opts, ctrl_c_twice()).await?;
        println!("\n{summary}");
        web.shutdown().await;
        anyhow::Ok(())
    })?;
    let store = Store::open(&db)?;
    let query = demo_query(&store)?;
    println!("\nsearch {query:?}:");
    let hits = store.search(&query, 3)?;
    if hits.is_empty() {
        bail!("demo search for {query:?} found nothing: the crawl stored no articles");
    }
    for hit in hits {
        println!(
            "  {:>4}  [{}] {}",
            hit.id,
            hit.site,
            hit.title.unwrap_or_default()
        );
        println!("        {}", super::one_line_text(&hit.snippet));
    }
    if globals.db.is_some() {
        println!(
            "\ndatabase: {} (try `newshound --db {} stats`)",
            db.display(),
            db.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A word that certainly occurs in the stored corpus: the longest word of the
/// first stored article's title.
fn demo_query(store: &Store) -> Result<String> {
    let mut word = String::from("news");
    store.export(None, |a| {
        if let Some(title) = &a.article.title {
            if let Some(w) = title
                .split(|c: char| !c.is_alphanumeric())
                .max_by_key(|w| w.chars().count())
            {
                if w.chars().count() > 3 && word == "news" {
                    word = w.to_lowercase();
                }
            }
        }
        Ok(())
    })?;
    Ok(word)
}
