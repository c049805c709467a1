//! Three crawler processes on one database, all to the end.

use newshound::simweb::SimWebSpec;

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

    let requested = setup.requests_by_url();
    let twice: Vec<_> = requested.iter().filter(|(_, &n)| n > 1).collect();
    assert!(twice.is_empty(), "requested more than once: {twice:?}");
    for article in setup.article_paths() {
        assert_eq!(requested.get(&article), Some(&1), "{article:?}");
    }
    setup.assert_rate_kept();
    let (_, states) = setup.stored();
    println!("frontier: {states:?}");
    assert_eq!(states.get("fetching"), None, "URLs left in flight");
    assert_eq!(states.get("queued"), None, "URLs never fetched");
    setup.assert_articles_stored_once();
}
