//! The global options as commands use them: which config file is read
//! (or the built-in defaults), which database, and the command line that
//! names the same files.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use newshound::config::Config;
use newshound::store::StoreTarget;

/// The configuration file read when `--config` is not given.
const DEFAULT_CONFIG: &str = "crawler.toml";
/// The source of the built-in defaults (no config file read).
const DEFAULT_SOURCE: &str = "<defaults>";

/// `text` as one shell word: as it is when it needs no quoting, else in
/// single quotes.
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// A site name not in `config`, said with the file that was read (or that
/// none was) and the names it has.
pub(super) fn unknown_site(config: &Config, name: &str) -> anyhow::Error {
    let known: Vec<&str> = config.sites.iter().map(|s| s.name.as_str()).collect();
    if config.source == Path::new(DEFAULT_SOURCE) {
        return anyhow::anyhow!(
            "unknown site {name:?}: no config file was read ({DEFAULT_CONFIG} is not in this \
             directory; pass --config PATH)"
        );
    }
    let file = config.source.display();
    if known.is_empty() {
        anyhow::anyhow!("unknown site {name:?} ({file} configures no sites)")
    } else {
        anyhow::anyhow!(
            "unknown site {name:?} (sites in {file}: {})",
            known.join(", ")
        )
    }
}

/// What a command needs from the global options.
pub struct Globals {
    pub(super) config: Option<PathBuf>,
    pub(super) db: Option<PathBuf>,
}

impl Globals {
    /// `newshound` with the `--config` and `--db` given to this run: the
    /// start of a command to suggest, so that it reads the same files.
    pub(super) fn command_line(&self) -> String {
        let mut line = String::from("newshound");
        for (flag, path) in [("--config", &self.config), ("--db", &self.db)] {
            if let Some(p) = path {
                line.push_str(&format!(" {flag} {}", shell_word(&p.to_string_lossy())));
            }
        }
        line
    }

    pub(super) fn config_path(&self) -> &Path {
        self.config
            .as_deref()
            .unwrap_or_else(|| Path::new(DEFAULT_CONFIG))
    }

    /// The config; a missing *default* config file means built-in defaults
    /// (so `search --db x.db` works anywhere), a missing explicit one is an error.
    pub(super) fn config(&self) -> Result<Config> {
        let path = self.config_path();
        if self.config.is_none() && !path.exists() {
            return Ok(Config::parse(
                "",
                Path::new(DEFAULT_SOURCE),
                Path::new("."),
            )?);
        }
        Ok(Config::load(path)?)
    }

    /// The config with at least one site (for crawling).
    pub(super) fn config_with_sites(&self) -> Result<Config> {
        let path = self.config_path();
        if !path.exists() {
            bail!(
                "{}: no such config file (pass --config PATH)",
                path.display()
            );
        }
        let config = Config::load(path)?;
        if config.sites.is_empty() {
            bail!(
                "{}: no sites to crawl (add a [[sites]] entry)",
                path.display()
            );
        }
        Ok(config)
    }

    /// Where the corpus lives: `--db` (a path or a `postgres://` URL), else
    /// `[store] url`, else `[crawler] database`.
    pub(super) fn store_target(&self, config: &Config) -> StoreTarget {
        match &self.db {
            Some(db) => StoreTarget::parse(&db.to_string_lossy()),
            None => config.store_target(),
        }
    }

    /// The database a command works on, for naming it in errors (`None`
    /// when the config cannot be read: that error is reported instead).
    pub(super) fn db_path_for_errors(&self) -> Option<PathBuf> {
        self.db
            .clone()
            .or_else(|| self.config().ok().map(|c| c.crawler.database))
    }
}
