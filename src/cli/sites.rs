//! `newshound sites …`: a site's configuration from its address, and how
//! the crawl would see its links.
//!
//! In: the parsed subcommand. Out: the command run (each one in its own
//! file: `sites_add`, `sites_check`).

use std::process::ExitCode;

use anyhow::Result;
use clap::Subcommand;

use super::{sites_add, sites_check, Globals, Out};

#[derive(Debug, Subcommand)]
pub enum SitesCmd {
    /// Add a site to the config by its address: fetches its start page and
    /// robots.txt (politely; the address guard applies), finds its feeds
    /// (`<link rel="alternate">`) and sitemaps (robots.txt `Sitemap:`
    /// lines; else the usual paths such as /feed and /sitemap.xml), and
    /// appends a `[[sites]]` block naming them to the config file, leaving
    /// the rest of the file as it was. A name already configured is refused.
    ///
    /// Example: newshound sites add https://www.example.com/ --name example
    Add {
        /// The site's start page (without a scheme: `https://`, else `http://`).
        url: String,
        /// The site's name [default: made from the host, e.g. `example`].
        #[arg(long)]
        name: Option<String>,
    },
    /// A dry run of one site: fetch its start pages, feeds and sitemaps
    /// (politely, through the address guard and robots.txt) and label every
    /// link found `article`, `index`, `other` or `blocked`, with the reason
    /// (the site's patterns, else the URL shapes learned by earlier crawls,
    /// else where the link came from). With `--fetch N`, fetch up to N of
    /// those links too (articles first) and show how the crawl judges each
    /// page: its verdict and the evidence (declared type, body words,
    /// date, list origin, URL shape). Stores nothing.
    ///
    /// Example: newshound sites check bbc --fetch 5
    Check {
        /// The site's name in the config.
        name: String,
        /// One JSON object per link and line: url, label, reason, source
        /// (and `judged`: verdict, reason, evidence, shape, for fetched
        /// links).
        #[arg(long)]
        json: bool,
        /// Fetch and judge up to N of the links found (politely), as the
        /// crawl would.
        #[arg(long, value_name = "N", default_value_t = 0)]
        fetch: usize,
    },
}

pub fn run(globals: &Globals, out: &mut Out, cmd: SitesCmd) -> Result<ExitCode> {
    match cmd {
        SitesCmd::Add { url, name } => sites_add::add(globals, out, &url, name),
        SitesCmd::Check { name, json, fetch } => {
            sites_check::check(globals, out, &name, json, fetch)
        }
    }
}
