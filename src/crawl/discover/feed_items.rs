//! An XML feed (RSS 0.9x/1.0/2.0, Atom) → its first entries, as small
//! well-formed feeds that feed-rs parses one at a time.
//!
//! In: the feed's bytes, how many entries to keep, and whether the body was
//! cut short. Out: [`Windows`], each a copy of the feed's head (everything
//! before its first entry), up to [`WINDOW`] whole entries, and the closing
//! tags of the elements still open; `None` when the feed is small and whole
//! (parsed as it is). feed-rs builds a model of the whole document, about
//! 1.5 KB an entry (90,000 entries: 135 MB), so a large feed is parsed a
//! window at a time, and only its first entries at all.

use quick_xml::events::Event;
use quick_xml::Reader;

/// Entries parsed at once (the model of one window is some 1 MB).
pub(super) const WINDOW: usize = 500;

/// The windows of a large or cut-short feed.
pub(super) struct Windows<'a> {
    bytes: &'a [u8],
    /// Where the first entry starts: the head every window repeats.
    head_end: usize,
    /// Byte ranges of the whole entries kept, in order.
    items: Vec<(usize, usize)>,
    /// The end tags of the elements open around the first entry.
    closing: Vec<u8>,
    /// Entries were left out (over the bound, or after the cut).
    pub left_out: bool,
}

/// Scan `bytes` for its entries: `None` when it holds at most [`WINDOW`]
/// entries and ends whole (or is no XML feed this scan understands), so it
/// is parsed as it is. A document broken before its end is read up to the
/// break only when `cut` says the body was cut short on purpose.
pub(super) fn windows(bytes: &[u8], max: usize, cut: bool) -> Option<Windows<'_>> {
    let mut reader = Reader::from_reader(bytes);
    reader.config_mut().check_end_names = false;
    let mut stack: Vec<Vec<u8>> = Vec::new();
    let mut head: Option<(usize, Vec<u8>)> = None;
    // The depth and start of the entry open now.
    let mut open: Option<(usize, usize)> = None;
    let mut items = Vec::new();
    let mut left_out = false;
    let mut whole = false;
    loop {
        let start = position(&reader);
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let name = e.name().as_ref().to_vec();
                let entry = matches!(e.local_name().as_ref(), b"item" | b"entry");
                if entry && open.is_none() && (1..=2).contains(&stack.len()) {
                    if items.len() >= max {
                        left_out = true;
                        break;
                    }
                    if head.is_none() {
                        head = Some((start, closing_tags(&stack)));
                    }
                    open = Some((stack.len(), start));
                }
                stack.push(name);
            }
            Ok(Event::End(_)) => {
                stack.pop();
                if let Some((_, from)) = open.filter(|(depth, _)| *depth == stack.len()) {
                    items.push((from, position(&reader)));
                    open = None;
                }
            }
            Ok(Event::Eof) => {
                whole = stack.is_empty();
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let broken = !whole && !left_out;
    if broken && !cut {
        return None;
    }
    if !broken && !left_out && items.len() <= WINDOW {
        return None;
    }
    let (head_end, closing) = head?;
    Some(Windows {
        bytes,
        head_end,
        items,
        closing,
        left_out: left_out || broken,
    })
}

impl Windows<'_> {
    /// Each window as a feed document of its own.
    pub(super) fn documents(&self) -> impl Iterator<Item = Vec<u8>> + '_ {
        self.items.chunks(WINDOW).map(|chunk| {
            let (from, to) = (chunk[0].0, chunk[chunk.len() - 1].1);
            let mut doc = Vec::with_capacity(self.head_end + (to - from) + self.closing.len());
            doc.extend_from_slice(&self.bytes[..self.head_end]);
            doc.extend_from_slice(&self.bytes[from..to]);
            doc.extend_from_slice(&self.closing);
            doc
        })
    }
}

fn position(reader: &Reader<&[u8]>) -> usize {
    usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX)
}

/// `</c></b></a>` for the open elements `[a, b, c]`.
fn closing_tags(stack: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for name in stack.iter().rev() {
        out.extend_from_slice(b"</");
        out.extend_from_slice(name);
        out.push(b'>');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rss(n: usize) -> String {
        let items: String = (0..n)
            .map(|i| format!("<item><title>T{i}</title><link>https://e.com/{i}</link></item>\n"))
            .collect();
        format!("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>C</title>\n{items}</channel></rss>")
    }

    #[test]
    fn a_small_whole_feed_is_parsed_as_it_is() {
        assert!(windows(rss(3).as_bytes(), 10, false).is_none());
        assert!(windows(rss(WINDOW).as_bytes(), usize::MAX, true).is_none());
    }

    #[test]
    fn a_large_feed_is_cut_into_windows_of_its_first_entries() {
        let feed = rss(2 * WINDOW + 10);
        let w = windows(feed.as_bytes(), 2 * WINDOW + 1, false).unwrap();
        assert!(w.left_out);
        let docs: Vec<String> = w
            .documents()
            .map(|d| String::from_utf8(d).unwrap())
            .collect();
        assert_eq!(docs.len(), 3);
        assert!(docs[0]
            .starts_with("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>C</title>"));
        assert!(
            docs[0].ends_with("</item></channel></rss>"),
            "{}",
            &docs[0][docs[0].len() - 40..]
        );
        assert_eq!(docs[0].matches("<item>").count(), WINDOW);
        assert_eq!(docs[2].matches("<item>").count(), 1);
        assert!(docs[2].contains(&format!("https://e.com/{}<", 2 * WINDOW)));
    }

    #[test]
    fn a_cut_feed_keeps_its_whole_entries_only_when_cut_on_purpose() {
        let feed = rss(5);
        let cut = &feed.as_bytes()[..feed.find("https://e.com/3").unwrap()];
        assert!(windows(cut, usize::MAX, false).is_none());
        let w = windows(cut, usize::MAX, true).unwrap();
        assert!(w.left_out);
        let docs: Vec<Vec<u8>> = w.documents().collect();
        let doc = String::from_utf8(docs[0].clone()).unwrap();
        assert_eq!(doc.matches("<item>").count(), 3, "{doc}");
        assert!(doc.ends_with("</item></channel></rss>"));
    }
}
