//! A slow web: each URL answered after its own fixed delay within the
//! bounds of [`Behaviour`].

use std::collections::HashSet;
use std::time::Duration;

use super::client::get;
use super::*;

fn slow() -> Behaviour {
    Behaviour {
        latency: Duration::from_millis(200),
        latency_spread: Duration::from_millis(300),
        ..Behaviour::default()
    }
}

#[test]
fn latency_spread_gives_each_url_its_own_delay_between_the_bounds() {
    let b = slow();
    let paths: Vec<String> = (0..300).map(|i| format!("/news/2026/story-{i}")).collect();
    let delays: Vec<Duration> = paths.iter().map(|p| b.latency_of("globe", p)).collect();
    for (p, d) in paths.iter().zip(&delays) {
        assert!(
            (Duration::from_millis(200)..=Duration::from_millis(500)).contains(d),
            "{p}: {d:?}"
        );
        assert_eq!(b.latency_of("globe", p), *d, "{p}: not the same twice");
    }
    // Spread over the whole range, not a few values.
    let (min, max) = (delays.iter().min(), delays.iter().max());
    assert!(min < Some(&Duration::from_millis(230)), "{min:?}");
    assert!(max > Some(&Duration::from_millis(470)), "{max:?}");
    let distinct: HashSet<&Duration> = delays.iter().collect();
    assert!(distinct.len() > 100, "{} distinct delays", distinct.len());
    // The site is part of the key.
    let other: Vec<Duration> = paths.iter().map(|p| b.latency_of("wire", p)).collect();
    assert_ne!(other, delays);
}

#[test]
fn without_a_spread_every_url_takes_the_latency() {
    let b = Behaviour {
        latency: Duration::from_millis(300),
        ..Behaviour::default()
    };
    for p in ["/", "/news/a", "/rss.xml"] {
        assert_eq!(b.latency_of("globe", p), Duration::from_millis(300));
    }
    assert_eq!(
        Behaviour::default().latency_of("globe", "/"),
        Duration::ZERO
    );
}

#[tokio::test]
async fn a_slow_web_answers_each_url_no_sooner_than_its_own_delay() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 3,
        seed: 7,
        faults: false,
    };
    let web = SimWeb::start_with(spec, slow()).await.unwrap();
    for site in web.sites() {
        for url in site.article_urls.iter().chain(&site.index_urls).take(4) {
            assert_eq!(get(url).await.status, 200, "{url}");
        }
    }
    let requests = web.requests();
    assert_eq!(requests.len(), 8);
    for r in requests {
        let took = r.answered - r.at;
        let due = slow().latency_of(&r.site, &r.path);
        assert!(
            took >= due,
            "{} {}: answered after {took:?}, due {due:?}",
            r.site,
            r.path
        );
    }
    web.shutdown().await;
}
