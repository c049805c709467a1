//! Leaving out the links the frontier has (the writer's committed set)
//! changes nothing the frontier ends up with: a sequence of pages fed to a
//! real store with and without the skip, compared row by row.

use super::*;
use crate::crawl::seen::{self, CommittedUrls};
use crate::store::{ClaimFilter, Store};

/// Every frontier row as the claim returns it: id, url, kind, depth, in
/// claim order (highest priority first).
fn frontier_rows(store: &mut Store) -> Vec<(i64, String, UrlKind, u32)> {
    let filter = ClaimFilter::default();
    let claimed = store.claim_due_for(i64::MAX, 100_000, &filter);
    (claimed.expect("claim").into_iter())
        .map(|q| (q.id, q.url, q.kind, q.depth))
        .collect()
}

/// The pages of a crawl: templated pages of two sites at mixed depths, so
/// that a URL is first found deep and found again shallower.
fn pages() -> Vec<(SiteSettings, String, u32, String)> {
    let (news, blog) = (site(), unfocused_site());
    let mut out = Vec::new();
    for round in 0..3 {
        for (i, depth) in [2, 0, 1, 2, 0].into_iter().enumerate() {
            let n = round * 10 + i;
            for (site, host) in [(&news, "news.test"), (&blog, "blog.test")] {
                let base = (i % 3 == 1).then(|| format!("http://{host}/section/"));
                let body = templated(host, n, base.as_deref());
                let dir = ["section", "a", "section/x"][n % 3];
                out.push((
                    site.clone(),
                    format!("http://{host}/{dir}/p{n}"),
                    depth,
                    body,
                ));
            }
        }
    }
    out
}

/// Feed `pages` to a fresh store, as the crawl does; with `committed`, the
/// pages leave out what it holds and each commit is remembered in it (as the
/// writer does). Returns the frontier and the links left out.
fn crawl(
    committed: Option<CommittedUrls>,
    capacity: usize,
) -> (Vec<(i64, String, UrlKind, u32)>, usize) {
    let mut store = Store::open_in_memory().expect("store");
    let memo = match committed.clone() {
        Some(c) => LinkMemo::new(capacity).with_committed(c),
        None => LinkMemo::new(capacity),
    };
    let mut left_out = 0;
    for (site, at, depth, body) in pages() {
        let page = (UrlKind::Index, depth, at.as_str());
        let out = page_with(&site, page, &body, usize::MAX, Some(&memo));
        left_out += out.urls_known;
        store.add_urls(&out.urls).expect("add");
        if let Some(c) = &committed {
            c.with(|s| out.urls.iter().for_each(|u| s.insert(&u.url)));
        }
    }
    (frontier_rows(&mut store), left_out)
}

#[test]
fn leaving_out_committed_links_keeps_the_frontier_exactly() {
    let (plain, none_left_out) = crawl(None, 1000);
    assert_eq!(none_left_out, 0);
    assert!(plain.len() > 10, "{plain:?}");
    // Large sets, and small ones that forget while the pages go by.
    for capacity in [1000, 4] {
        let (skipping, left_out) = crawl(Some(CommittedUrls::new(capacity)), capacity);
        assert_eq!(skipping, plain, "capacity {capacity}");
        if capacity == 1000 {
            assert!(left_out > 50, "{left_out}");
        }
    }
}

#[test]
fn the_frontier_keeps_the_depth_a_url_was_first_queued_with() {
    // What the skip relies on: the store ignores a known URL, whatever
    // depth and priority it comes with the second time.
    let mut store = Store::open_in_memory().expect("store");
    let news = site();
    let body = templated("news.test", 1, None);
    for depth in [2, 0] {
        let page = (UrlKind::Index, depth, "http://news.test/section/p1");
        let out = page_with(&news, page, &body, usize::MAX, None);
        store.add_urls(&out.urls).expect("add");
    }
    let rows = frontier_rows(&mut store);
    let a1 = rows.iter().find(|r| r.1 == "http://news.test/a/1");
    assert_eq!(a1.map(|r| r.3), Some(3), "{rows:?}");
}

#[test]
fn only_committed_links_are_left_out_and_counted() {
    let news = site();
    let committed = CommittedUrls::new(100);
    let memo = LinkMemo::default().with_committed(committed.clone());
    let body = templated("news.test", 1, None);
    let page = (UrlKind::Index, 0, "http://news.test/section/p1");
    let first = page_with(&news, page, &body, usize::MAX, Some(&memo));
    assert_eq!(first.urls_known, 0);
    // Sent but not committed (a batch that failed): sent again.
    let again = page_with(&news, page, &body, usize::MAX, Some(&memo));
    assert_eq!(queued_urls(&again), queued_urls(&first));
    // One committed: that one is left out, counted, and only that one.
    let a1 = "http://news.test/a/1";
    assert!(first.urls.iter().any(|u| u.url == a1));
    committed.with(|s| s.insert_fingerprint(seen::fingerprint(a1)));
    let after = page_with(&news, page, &body, usize::MAX, Some(&memo));
    assert_eq!(after.urls_known, 1);
    let expected: Vec<_> = (queued_urls(&first).into_iter())
        .filter(|u| u.0 != a1)
        .collect();
    assert_eq!(queued_urls(&after), expected);
}
