//! Three crawler processes on one database, all to the end.

use std::time::Duration;

use newshound::crawl::shapes::{shape_of, ShapeClass, ShapeTable};
use newshound::simweb::{Behaviour, SimWebSpec};

use crate::{finish, Setup};

#[test]
fn three_processes_share_the_frontier_and_every_hosts_rate() {
    let spec = SimWebSpec {
        sites: 2,
        articles_per_site: 16,
        seed: 15,
        faults: false,
    };
    // Slow enough that the three processes crawl the same hosts at once.
    let setup = Setup::new(spec, 4.0, "");
    let children: Vec<_> = (0..3).map(|_| setup.crawl()).collect();
    for child in children {
        let out = finish(child);
        assert!(out.status.success(), "a crawl failed");
    }

    // No URL fetched by two processes: requested again only to retry a
    // failed attempt (a timeout on this loaded machine).
    setup.assert_requested_twice_only_for_retries(false);
    let requested = setup.requests_by_url();
    for article in setup.article_paths() {
        assert_eq!(requested.get(&article), Some(&1), "{article:?}");
    }
    setup.assert_rate_kept();
    let (_, states) = setup.stored();
    println!("frontier: {states:?}");
    assert_eq!(states.get("fetching"), None, "URLs left in flight");
    assert_eq!(states.get("queued"), None, "URLs never fetched");
    setup.assert_articles_stored_once();

    // The three processes' shape counts add up: each article page counted
    // once, under its exact and its general shape.
    let mut store = newshound::store::AnyStore::from(
        newshound::store::pg::PgStore::open(&setup.db.url).expect("open"),
    );
    let rows = store.url_shapes().expect("shapes");
    for site in setup.web().sites() {
        let counts: Vec<_> = (rows.iter())
            .filter(|(s, _)| *s == site.name)
            .map(|(_, c)| c.clone())
            .collect();
        let table = ShapeTable::from_counts(&counts);
        for u in &site.article_urls {
            assert_eq!(table.classify(u), ShapeClass::Article, "{u}");
        }
        // The site's articles share one general shape (sections aside).
        let shape = shape_of(&site.article_urls[0]);
        let key = shape.general.as_deref().unwrap_or(&shape.exact);
        let articles = site.article_urls.len() as u64;
        let counts = table
            .counts(key)
            .map(|c| (c.articles, c.listings, c.others));
        assert_eq!(counts, Some((articles, 0, 0)), "{key}");
    }
}

#[test]
fn three_processes_keep_a_robots_crawl_delay_together() {
    let spec = SimWebSpec {
        sites: 1,
        articles_per_site: 8,
        seed: 17,
        faults: false,
    };
    let behaviour = Behaviour {
        crawl_delay: Some(0.5),
        ..Behaviour::default()
    };
    let setup = Setup::with_behaviour(spec, 50.0, "", behaviour);
    let children: Vec<_> = (0..3).map(|_| setup.crawl()).collect();
    for child in children {
        assert!(finish(child).status.success(), "a crawl failed");
    }
    let mut times: Vec<_> = setup.web().requests().iter().map(|r| r.at).collect();
    times.sort();
    let gaps: Vec<Duration> = times.windows(2).map(|w| w[1] - w[0]).collect();
    println!("gaps: {gaps:?}");
    // One request per 0.5 s at most, for the three together.
    setup.assert_rate_kept_at(2.0);
    for article in setup.article_paths() {
        assert!(
            setup.requests_by_url().contains_key(&article),
            "{article:?}"
        );
    }
}
