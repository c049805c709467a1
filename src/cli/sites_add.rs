//! `newshound sites add URL [--name NAME]`: a site's `[[sites]]` block from
//! its address alone, appended to the config file.
//!
//! In: the address, an optional name, the config file (`--config`, default
//! `crawler.toml`, created when missing). Out: the block appended (the rest
//! of the file untouched) and printed, with what to run next.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use url::Url;

use newshound::config::append::{append_site, site_names, SiteBlock};
use newshound::config::{credentials_refused, Config};
use newshound::crawl::entry_points::{entry_points, site_name_from};
use newshound::urls::has_credentials;

use super::{Globals, Out};

/// The address as typed, with `https://` when it has no scheme.
fn parse_address(text: &str) -> Result<Url> {
    let text = text.trim();
    // `javascript:…`, `mailto:…`, `data:…` name a scheme without `//`; a
    // `host:port` address (`localhost:8080`) has digits after its colon.
    // Only the scheme is shown: the rest may be `user:password@host`.
    if let Ok(u) = Url::parse(text) {
        let after = text.get(u.scheme().len() + 1..).unwrap_or("");
        if !matches!(u.scheme(), "http" | "https")
            && !after.starts_with(|c: char| c.is_ascii_digit())
        {
            bail!("\"{}:…\" is not an http(s) address", u.scheme());
        }
    }
    let with_scheme = if text.contains("://") {
        text.to_string()
    } else {
        format!("https://{text}")
    };
    // An address with `@` may hold a password: not echoed.
    let shown = if text.contains('@') {
        "the address".to_string()
    } else {
        format!("{text:?}")
    };
    let url = Url::parse(&with_scheme).with_context(|| format!("{shown} is not a web address"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        bail!("{text:?} is not an http(s) address");
    }
    if has_credentials(&url) {
        bail!("{}", credentials_refused(&url));
    }
    Ok(url)
}

pub fn add(
    globals: &Globals,
    out: &mut Out,
    address: &str,
    name: Option<String>,
) -> Result<ExitCode> {
    let path = globals.config_path().to_path_buf();
    let text = read_or_empty(&path)?;
    // The fetch settings of the file as it is (the defaults for a new one).
    let dir = path.parent().unwrap_or(Path::new("."));
    let config = Config::parse(&text, &path, dir)?;
    let start = parse_address(address)?;
    let taken = site_names(&text).with_context(|| format!("{}", path.display()))?;
    let name = match name {
        Some(n) if n.trim().is_empty() => bail!("--name must not be empty"),
        Some(n) => checked_name(n.trim())?.to_string(),
        None => site_name_from(&start),
    };
    if taken.contains(&name) {
        bail!(
            "{}: a site named {name:?} is already configured (choose another with --name)",
            path.display()
        );
    }
    same_host(&config, &path, &start)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let found = match runtime.block_on(entry_points(&config, &start)) {
        Ok(found) => found,
        // An address typed without a scheme may be served over plain HTTP
        // only: tried there too before giving up (with the https error).
        Err(e) if !address.contains("://") && start.scheme() == "https" => {
            let mut plain = start.clone();
            let _ = plain.set_scheme("http");
            runtime
                .block_on(entry_points(&config, &plain))
                .map_err(|_| e)?
        }
        Err(e) => return Err(e.into()),
    };
    // Redirected to a host another site crawls already.
    same_host(&config, &path, &found.start)?;
    let block = SiteBlock {
        name: name.clone(),
        start: vec![found.start.to_string()],
        feeds: found.feeds.iter().map(Url::to_string).collect(),
        sitemaps: found.sitemaps.iter().map(Url::to_string).collect(),
        hosts: found.hosts.clone(),
    };
    let new_text = append_site(&text, &block).with_context(|| format!("{}", path.display()))?;
    // What is written must load as the crawler will load it.
    Config::parse(&new_text, &path, dir).context("the config with the new site")?;
    write_atomically(&path, &new_text)?;
    writeln!(out, "added to {}:", path.display())?;
    let shown = append_site("", &block).unwrap_or_default();
    writeln!(out, "{}", shown.trim_matches('\n'))?;
    if found.feeds.is_empty() && found.sitemaps.is_empty() {
        let tried: Vec<&str> = found.probed.iter().map(|u| u.path()).collect();
        writeln!(
            out,
            "no feed or sitemap found (none announced; tried {}): the crawl follows the start \
             page's links",
            tried.join(", ")
        )?;
    }
    // As typed here, so that they read the same config.
    let run = globals.command_line();
    writeln!(
        out,
        "next: {run} sites check {name} --fetch 5   (how its links and pages are judged)\n      \
         {run} crawl --site {name}"
    )?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// A name given with `--name`: one line of letters, digits, `-`, `_` and
/// `.` (it is printed in summaries and tables, and typed after `--site`; a
/// newline or a bidirectional control character would forge or reorder
/// what they show).
fn checked_name(name: &str) -> Result<&str> {
    let bad = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')));
    match bad {
        Some(c) => bail!(
            "--name {:?}: a name is one line of letters, digits, '-', '_' and '.' (found {})",
            name,
            c.escape_unicode()
        ),
        None => Ok(name),
    }
}

/// A host is one site's: a second name for it would never crawl (its URLs
/// are the first site's), so it is refused, naming that site.
fn same_host(config: &Config, path: &Path, start: &Url) -> Result<()> {
    if let Some(other) = config.sites.iter().find(|s| s.owns(start)) {
        bail!(
            "{}: {} is already crawled as the site {:?}; a second name for it would never \
             crawl (edit that site's [[sites]] block instead)",
            path.display(),
            newshound::urls::host_key(start),
            other.name
        );
    }
    Ok(())
}

fn read_or_empty(path: &Path) -> Result<String> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(e).with_context(|| format!("{}: cannot read", path.display())),
    }
}

/// Write through a temporary file beside it and a rename: a crash leaves
/// the old file or the new one, never half of it.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".new");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, text).with_context(|| format!("{}: cannot write", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("{}: cannot write", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_without_a_scheme_is_https() {
        assert_eq!(
            parse_address("www.example.com/news").unwrap().as_str(),
            "https://www.example.com/news"
        );
        assert_eq!(
            parse_address(" http://127.0.0.1:8080/ ").unwrap().as_str(),
            "http://127.0.0.1:8080/"
        );
        assert!(parse_address("ftp://example.com/").is_err());
        assert!(parse_address("not an address").is_err());
        assert_eq!(
            parse_address("localhost:8080/news").unwrap().as_str(),
            "https://localhost:8080/news"
        );
    }

    #[test]
    fn regression_a_name_with_a_newline_or_a_bidi_control_was_accepted() {
        for bad in ["two\nlines", "evil\u{202e}txt", "a b", "tab\there", "x;y"] {
            let err = checked_name(bad).unwrap_err().to_string();
            assert!(
                err.contains("a name is one line of letters"),
                "{bad:?}: {err}"
            );
        }
        for good in ["example", "le-monde_fr.2", "süddeutsche", "新闻"] {
            assert_eq!(checked_name(good).unwrap(), good);
        }
    }

    #[test]
    fn regression_a_javascript_address_got_invalid_port_number() {
        for bad in [
            "javascript:alert(1)",
            "JavaScript:void(0)",
            "mailto:desk@example.com",
        ] {
            let err = parse_address(bad).unwrap_err().to_string();
            assert!(err.ends_with("is not an http(s) address"), "{bad}: {err}");
        }
    }

    #[test]
    fn regression_credentials_in_a_site_address_were_written_to_the_config() {
        for bad in [
            "https://user:secret@example.com/",
            "http://user:secret@example.com:8080/",
            "secret@example.com",
        ] {
            let err = parse_address(bad).unwrap_err().to_string();
            assert!(
                err.contains("credentials in a site's address are refused"),
                "{bad}: {err}"
            );
            assert!(!err.contains("secret"), "{err}");
        }
    }
}
