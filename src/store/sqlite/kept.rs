//! Kept HTML: the raw response of each stored article (`[store] keep_html`,
//! migration 0007), so that it can be extracted again (`reextract`) and
//! exported as WARC.
//!
//! In: a fetched body with its status, headers and fetch time
//! ([`KeptCompressor::keep`] compresses it; the crawl does this on the
//! blocking pool, not in the writer), or an archived record's gzip member
//! ([`KeptHtml::of_compressed`], the import's way). Out: rows of `article_html`,
//! read back decompressed ([`kept_body`]) as [`StoredHtml`] (in
//! `store::portable`: one at a time, or streamed in article id order).

/// zstd level for kept pages. Level 2 compresses real news pages 4.06×
/// (page-signal-dev; zstd's default level 3: 4.15×) for 11–13 % less CPU
/// than level 3 on the simulated webs' pages; level 1 saves no more CPU on
/// large pages and loses another 2 %, the fast negative levels save none
/// there and lose 20–40 %; levels 9 and 19 gain 3–5 % for 3.5× and 26× the
/// CPU (`cargo bench --bench crawl -- --zstd-levels`; docs/performance.md, "Export").
pub const ZSTD_LEVEL: i32 = 2;

/// A fetched article page ready to be kept: the body is already compressed.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptHtml {
    /// The URL the body came from (after redirects).
    pub url: String,
    pub status: u16,
    pub content_type: Option<String>,
    pub last_modified: Option<String>,
    pub etag: Option<String>,
    /// The response's `Date` header, verbatim.
    pub date: Option<String>,
    /// Unix milliseconds.
    pub fetched_at: i64,
    /// Length of the uncompressed body.
    pub body_bytes: u64,
    /// The body, compressed: a zstd frame of it, or — for a page imported
    /// from a WARC file that gives each record a gzip member — that member
    /// as the file stores it, the whole record ([`kept_body`] reads both;
    /// their magic bytes tell them apart).
    pub compressed: Vec<u8>,
}

impl KeptHtml {
    /// A page whose body is already compressed (`compressed`, read back by
    /// [`kept_body`]), `body_bytes` long once read back. The import keeps
    /// an archived record's gzip member so (as
    /// [`crate::warc::WarcReader::member_bytes`] gives it): the record is
    /// already compressed, and compressing its page again cost the import a
    /// tenth of its CPU.
    pub fn of_compressed(
        url: &str,
        status: u16,
        headers: KeptHeaders,
        fetched_at: i64,
        body_bytes: u64,
        compressed: Vec<u8>,
    ) -> KeptHtml {
        KeptHtml {
            url: url.to_string(),
            status,
            content_type: headers.content_type,
            last_modified: headers.last_modified,
            etag: headers.etag,
            date: headers.date,
            fetched_at,
            body_bytes,
            compressed,
        }
    }
}

/// The zstd frame magic number (RFC 8878), little-endian.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// A kept page's body from its stored bytes ([`KeptHtml::compressed`]):
/// a zstd frame decompressed, or the payload of the WARC record a gzip
/// member holds, its codings undone as the import undid them.
/// `body_bytes` is the length the body had when kept.
pub fn kept_body(compressed: &[u8], body_bytes: u64) -> std::io::Result<Vec<u8>> {
    if compressed.starts_with(&ZSTD_MAGIC) || compressed.is_empty() {
        let capacity = usize::try_from(body_bytes).unwrap_or(0);
        return zstd::bulk::decompress(compressed, capacity);
    }
    crate::warc::member_payload(compressed, body_bytes)
}

/// The response headers kept with a body.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeptHeaders {
    pub content_type: Option<String>,
    pub last_modified: Option<String>,
    pub etag: Option<String>,
    pub date: Option<String>,
}

#[cfg(test)]
impl KeptHtml {
    /// Compress `body` for keeping, with a compression context of its own:
    /// for one page (the tests' way; the crawl keeps one [`KeptCompressor`]).
    pub(crate) fn new(
        url: &str,
        status: u16,
        headers: KeptHeaders,
        fetched_at: i64,
        body: &[u8],
    ) -> std::io::Result<KeptHtml> {
        KeptCompressor::new()?.keep(url, status, headers, fetched_at, body)
    }
}

/// A zstd compression context and output buffer kept from page to page (one
/// per processing thread of a crawl). A fresh context per page allocated and
/// initialised its tables every time — 24 µs per small page, 50–70 µs per
/// large one (`cargo bench --bench crawl -- --zstd-levels`, "with one
/// context") — and compressing into a new buffer of the body's worst-case
/// size asked the allocator for fresh pages per large body. The bytes come
/// out the same as with a fresh context.
pub struct KeptCompressor {
    context: zstd::bulk::Compressor<'static>,
    /// Reused output buffer; the kept page gets an exact-size copy.
    out: Vec<u8>,
}

/// Above this, the output buffer is given back after the page rather than
/// kept for the next one (a hostile 10 MB page must not pin 10 MB a thread).
const KEPT_OUT_BUFFER_MAX: usize = 1 << 20;

impl KeptCompressor {
    pub fn new() -> std::io::Result<KeptCompressor> {
        Ok(KeptCompressor {
            context: zstd::bulk::Compressor::new(ZSTD_LEVEL)?,
            out: Vec::new(),
        })
    }

    /// Compress `body` for keeping.
    pub fn keep(
        &mut self,
        url: &str,
        status: u16,
        headers: KeptHeaders,
        fetched_at: i64,
        body: &[u8],
    ) -> std::io::Result<KeptHtml> {
        let bound = zstd::zstd_safe::compress_bound(body.len());
        self.out.clear();
        self.out.reserve(bound);
        let written = self.context.compress_to_buffer(body, &mut self.out);
        let compressed = self.out.clone();
        if self.out.capacity() > KEPT_OUT_BUFFER_MAX {
            self.out = Vec::new();
        }
        written?;
        Ok(KeptHtml::of_compressed(
            url,
            status,
            headers,
            fetched_at,
            body.len() as u64,
            compressed,
        ))
    }
}

/// A kept page read back, body decompressed.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredHtml {
    pub article_id: i64,
    /// The article's site name.
    pub site: String,
    pub url: String,
    pub status: u16,
    pub headers: KeptHeaders,
    pub fetched_at: i64,
    pub body: Vec<u8>,
}

/// Sizes of the kept pages: how many, raw bytes, compressed bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeptSizes {
    pub pages: u64,
    pub body_bytes: u64,
    pub compressed_bytes: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(n: usize) -> Vec<u8> {
        let mut html = b"<html><body>".to_vec();
        for i in 0..n {
            html.extend_from_slice(format!("<p>paragraph {i} of {n}</p>").as_bytes());
        }
        html
    }

    #[test]
    fn a_reused_context_keeps_pages_byte_for_byte_as_a_fresh_one() {
        let mut kept = KeptCompressor::new().expect("context");
        // Large, small, large again: what the context holds from one page
        // must not leak into the next.
        for body in [page(20_000), page(3), page(5_000), Vec::new()] {
            let reused = kept
                .keep("http://x/a", 200, KeptHeaders::default(), 7, &body)
                .expect("compressed");
            let fresh = KeptHtml::new("http://x/a", 200, KeptHeaders::default(), 7, &body)
                .expect("compressed");
            assert_eq!(reused, fresh);
            assert_eq!(reused.body_bytes, body.len() as u64);
            let back = zstd::bulk::decompress(&reused.compressed, body.len()).expect("valid zstd");
            assert_eq!(back, body);
            // The kept page holds its compressed size, not the worst case.
            assert_eq!(reused.compressed.capacity(), reused.compressed.len());
        }
    }

    #[test]
    fn a_kept_body_reads_back_from_a_zstd_frame_and_from_a_warc_records_gzip_member() {
        use std::io::Write;
        let body = page(500);
        let zstd = KeptHtml::new("http://x/a", 200, KeptHeaders::default(), 7, &body).unwrap();
        assert_eq!(
            kept_body(&zstd.compressed, body.len() as u64).unwrap(),
            body
        );
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n".to_vec();
        block.extend_from_slice(&body);
        let mut record = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://x/a\r\n\
             Content-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        record.extend_from_slice(&block);
        record.extend_from_slice(b"\r\n\r\n");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&record).unwrap();
        let member = gz.finish().unwrap();
        assert_eq!(kept_body(&member, body.len() as u64).unwrap(), body);
        // Neither: an error that names the trouble, not a panic.
        assert!(kept_body(b"\x1f\x8b\x08garbage", 10).is_err());
        assert!(kept_body(b"plain bytes", 10).is_err());
    }

    #[test]
    fn the_output_buffer_of_a_huge_page_is_not_held_for_the_next() {
        let mut kept = KeptCompressor::new().expect("context");
        let huge: Vec<u8> = (0..3_000_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
            .collect();
        kept.keep("http://x/h", 200, KeptHeaders::default(), 0, &huge)
            .expect("compressed");
        assert!(kept.out.capacity() <= KEPT_OUT_BUFFER_MAX);
        kept.keep("http://x/s", 200, KeptHeaders::default(), 0, &page(10))
            .expect("compressed");
        assert!(kept.out.capacity() > 0, "a small page's buffer is kept");
    }
}
