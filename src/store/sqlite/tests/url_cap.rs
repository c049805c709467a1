//! The cap on the URLs a site may know (`[crawler] max_urls_per_site`):
//! it holds within and across batches, with the count kept by the store.

use super::*;

#[test]
fn a_site_cannot_know_more_urls_than_its_cap() {
    let mut s = Store::open_in_memory().unwrap();
    s.set_max_urls_per_site(3);
    let batch: Vec<NewUrl> = (0..5)
        .map(|i| url(&format!("https://a.test/{i}"), "a", UrlKind::Page, 0))
        .chain([url("https://b.test/1", "b", UrlKind::Page, 0)])
        .collect();
    assert_eq!(s.add_urls(&batch).unwrap(), 4, "3 of site a, 1 of site b");
    // Known URLs do not count twice, and the cap holds across batches.
    let more = vec![url("https://a.test/9", "a", UrlKind::Page, 0)];
    let out = s.write_batch(vec![WriteOp::AddUrls(more)]).unwrap();
    assert_eq!(out, [WriteOutcome::UrlsAdded(0)]);
    assert_eq!(s.site_urls("a").unwrap(), 3);
    // 0 lifts the cap.
    s.set_max_urls_per_site(0);
    assert_eq!(
        s.add_urls(&[url("https://a.test/9", "a", UrlKind::Page, 0)])
            .unwrap(),
        1
    );
}

/// `n` URLs of site `a` from `from` on.
fn pages_of_a(from: usize, n: usize) -> Vec<NewUrl> {
    (from..from + n)
        .map(|i| url(&format!("https://a.test/{i}"), "a", UrlKind::Page, 0))
        .collect()
}

#[test]
fn the_cap_holds_over_many_batches_with_the_count_kept_by_the_store() {
    let mut s = Store::open_in_memory().unwrap();
    s.set_max_urls_per_site(10);
    // Canonical aliases are not capped but do count.
    s.write_batch(vec![WriteOp::Known(pages_of_a(100, 2))])
        .unwrap();
    let mut added = 0;
    for batch in 0..6 {
        let urls = pages_of_a(batch * 3, 3);
        for out in s.write_batch(vec![WriteOp::AddUrls(urls)]).unwrap() {
            if let WriteOutcome::UrlsAdded(n) = out {
                added += n;
            }
        }
    }
    assert_eq!(added, 8, "2 aliases + 8 = the cap of 10");
    assert_eq!(s.site_urls("a").unwrap(), 10);
}

#[test]
fn regression_a_rolled_back_batch_left_its_urls_counted_against_the_cap() {
    let mut s = Store::open_in_memory().unwrap();
    s.set_max_urls_per_site(4);
    s.add_urls(&pages_of_a(0, 2)).unwrap();
    let r = s.write_batch(vec![
        WriteOp::AddUrls(pages_of_a(2, 2)),
        // No such frontier URL: the batch fails and its URLs are not kept.
        WriteOp::Fetched(fetched(424242, NextState::Done, None)),
    ]);
    assert!(r.is_err());
    assert_eq!(s.site_urls("a").unwrap(), 2);
    // Room for 2 more: the 2 of the failed batch did not count.
    assert_eq!(s.add_urls(&pages_of_a(10, 5)).unwrap(), 2);
    assert_eq!(s.site_urls("a").unwrap(), 4);
}
