//! The bytes under the records: a WARC file as stored (plain, or gzip — one
//! member per record as Common Crawl writes it, or one member for the whole
//! file) → its uncompressed stream, member by member.
//!
//! In: a reader positioned at a record boundary (the file's start, or a
//! place a [`super::Resume`] names) and its offset in the file. Out: the
//! uncompressed bytes of the current gzip member (end of file at the
//! member's end, until [`Stream::next_member`] starts the next one), and
//! where in the file each member starts, so that a record at the start of
//! a member can be found again by seeking there.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

use super::WarcError;

/// The gzip magic bytes.
pub(super) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A buffered reader that counts the bytes consumed from it, and can look
/// at the next few bytes whatever the reads gave ([`Counting::peek`]).
pub(super) struct Counting<R> {
    inner: R,
    /// `INPUT_BUFFER` bytes, larger only while [`Stream::skip_member`]
    /// looks ahead.
    buf: Vec<u8>,
    /// The bytes read and not consumed: `buf[start..end]`.
    start: usize,
    end: usize,
    /// Offset in the file of the next byte not consumed.
    pos: u64,
    /// The stored bytes consumed since the current gzip member began, while
    /// they are wanted ([`Stream::take_member_bytes`]); `None` once skipped past
    /// or over [`MAX_MEMBER_COPY`].
    member: Option<Vec<u8>>,
}

/// The largest gzip member whose stored bytes are kept while it is read:
/// a news page's record is under 1 MB compressed; a larger one is kept as
/// its body alone.
pub(super) const MAX_MEMBER_COPY: usize = 4 * 1024 * 1024;

/// The read buffer of the stored file (gzip reads it in small pieces).
const INPUT_BUFFER: usize = 64 * 1024;

impl<R: Read> Counting<R> {
    pub(super) fn new(inner: R, start: u64) -> Counting<R> {
        Counting {
            inner,
            buf: vec![0; INPUT_BUFFER],
            start: 0,
            end: 0,
            pos: start,
            member: None,
        }
    }

    /// Keep the stored bytes from here on (a member starts here).
    fn copy_member(&mut self) {
        let mut bytes = self.member.take().unwrap_or_default();
        bytes.clear();
        self.member = Some(bytes);
    }

    /// The next `n` bytes (fewer only at the end of the input), not
    /// consumed. `fill_buf` gives what one read gave: a gzip member's
    /// magic bytes may straddle two reads (a buffer's end, a network
    /// chunk), and one of them alone is no member.
    pub(super) fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        let n = n.min(self.buf.len());
        if self.end - self.start < n {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            while self.end < n {
                match self.inner.read(&mut self.buf[self.end..]) {
                    Ok(0) => break,
                    Ok(k) => self.end += k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(&self.buf[self.start..self.end.min(self.start + n)])
    }

    /// As [`Counting::peek`], growing the buffer to hold `n` bytes.
    fn peek_far(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.buf.len() < n {
            self.buf.resize(n, 0);
        }
        self.peek(n)
    }

    /// Back to the usual buffer after a look far ahead (its bytes kept).
    fn shrink(&mut self) {
        if self.buf.len() > INPUT_BUFFER && self.end - self.start <= INPUT_BUFFER {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            self.buf.truncate(INPUT_BUFFER);
            self.buf.shrink_to_fit();
        }
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end {
            self.start = 0;
            self.end = loop {
                match self.inner.read(&mut self.buf) {
                    Ok(k) => break k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
        }
        Ok(&self.buf[self.start..self.end])
    }

    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.end - self.start);
        if let Some(bytes) = &mut self.member {
            if bytes.len() + amt <= MAX_MEMBER_COPY {
                bytes.extend_from_slice(&self.buf[self.start..self.start + amt]);
            } else {
                self.member = None;
            }
        }
        self.start += amt;
        self.pos += amt as u64;
    }
}

/// The uncompressed stream of a stored WARC file.
pub(super) enum Stream<R: Read> {
    Plain(Counting<R>),
    Gzip {
        /// The current member (`None` once the input is used up); boxed,
        /// the decoder's state is large.
        member: Option<Box<GzDecoder<Counting<R>>>>,
        /// Offset in the file where the current member starts.
        at: u64,
        /// Uncompressed bytes the current member has given.
        out: u64,
    },
}

impl<R: Read> Stream<R> {
    /// The stream of `input` (at offset `start` of its file), gzip or not as
    /// its first bytes say; `Err(Empty)` when there are none.
    pub(super) fn open(input: R, start: u64) -> Result<Stream<R>, WarcError> {
        let mut input = Counting::new(input, start);
        let head = input
            .peek(GZIP_MAGIC.len())
            .map_err(|source| WarcError::Io { at: start, source })?;
        if head.is_empty() {
            return Err(WarcError::Empty);
        }
        if head == GZIP_MAGIC {
            input.copy_member();
            Ok(Stream::Gzip {
                member: Some(Box::new(GzDecoder::new(input))),
                at: start,
                out: 0,
            })
        } else {
            Ok(Stream::Plain(input))
        }
    }

    pub(super) fn is_gzip(&self) -> bool {
        matches!(self, Stream::Gzip { .. })
    }

    /// Offset in the file of the next stored byte not read.
    pub(super) fn position(&self) -> u64 {
        match self {
            Stream::Plain(input) => input.pos,
            Stream::Gzip {
                member: Some(m), ..
            } => m.get_ref().pos,
            Stream::Gzip {
                member: None, at, ..
            } => *at,
        }
    }

    /// The stored bytes of the current gzip member, from its header through
    /// the bytes read so far (its trailer too, once it has given its last
    /// byte); `None` for a plain file, a member skipped past, or one over
    /// [`MAX_MEMBER_COPY`]. Taken: asked again, `None` until the next member.
    pub(super) fn take_member_bytes(&mut self) -> Option<Vec<u8>> {
        match self {
            Stream::Gzip {
                member: Some(decoder),
                ..
            } => decoder.get_mut().member.take(),
            _ => None,
        }
    }

    /// Where the current gzip member starts (`None` for a plain file).
    pub(super) fn member_at(&self) -> Option<u64> {
        match self {
            Stream::Plain(_) => None,
            Stream::Gzip { at, .. } => Some(*at),
        }
    }

    /// At the end of a gzip member: start the next one. `Ok(false)` at the
    /// end of the file (and always for a plain file, whose stream is one).
    pub(super) fn next_member(&mut self) -> Result<bool, WarcError> {
        let Stream::Gzip { member, at, out } = self else {
            return Ok(false);
        };
        *out = 0;
        let Some(done) = member.take() else {
            return Ok(false);
        };
        let mut input = (*done).into_inner();
        let next = input.pos;
        let io = |source| WarcError::Io { at: next, source };
        let magic = input.peek(GZIP_MAGIC.len()).map_err(io)?;
        if magic.is_empty() {
            *at = next;
            return Ok(false);
        }
        if magic != GZIP_MAGIC {
            // Padding some writers leave at the end: zero bytes or line ends.
            let head = input.fill_buf().map_err(io)?;
            let rest_is_padding = head.iter().all(|b| matches!(b, 0 | b'\r' | b'\n'));
            if rest_is_padding && skip_padding(&mut input).is_ok_and(|clean| clean) {
                *at = input.pos;
                return Ok(false);
            }
            return Err(WarcError::Gzip {
                at: next,
                reason: "data after a gzip member is not another gzip member".into(),
            });
        }
        *at = next;
        input.copy_member();
        *member = Some(Box::new(GzDecoder::new(input)));
        Ok(true)
    }
}

/// How far [`Stream::skip_member`] looks for the next member before it
/// leaves the member to be inflated (a record's compressed size, at most).
const MAX_SKIP: usize = 8 * 1024 * 1024;

impl<R: Read> Stream<R> {
    /// Uncompressed bytes the current gzip member has given (0 for a plain
    /// file).
    pub(super) fn member_out(&self) -> u64 {
        match self {
            Stream::Gzip { out, .. } => *out,
            Stream::Plain(_) => 0,
        }
    }

    /// Skip the rest of the current gzip member without inflating it, when
    /// its size shows that it ends where `size` says (the uncompressed size
    /// of the whole member): `Ok(true)` when skipped and the next member
    /// (if any) started, `Ok(false)` when nothing was consumed and the
    /// member must be inflated to its end.
    ///
    /// Why: a record nobody wants (a request, another host's page) was
    /// inflated whole only to find where the next member starts: most of a
    /// CC-NEWS file when a few sites are imported. A gzip member ends with
    /// its uncompressed size mod 2³² (ISIZE, RFC 1952), the next one starts
    /// with the magic bytes and the deflate method: the first member header
    /// after the read position is the next member if the four bytes before
    /// it are the size expected (compressed bytes imitate both with a
    /// chance of 2⁻⁵⁹). If the first header found has another size in front
    /// of it — a member that holds more than one record, or magic bytes
    /// that are compressed data — the member is inflated as before; so is
    /// a member that ends the file without the size expected (truncated).
    pub(super) fn skip_member(&mut self, size: std::ops::RangeInclusive<u64>) -> io::Result<bool> {
        let Stream::Gzip {
            member: Some(decoder),
            ..
        } = self
        else {
            return Ok(false);
        };
        let input = decoder.get_mut();
        let found = next_member_header(input, &size);
        input.shrink();
        let Some(skip) = found? else {
            return Ok(false);
        };
        let Stream::Gzip { member, at, out } = self else {
            return Ok(false);
        };
        let Some(decoder) = member.take() else {
            return Ok(false);
        };
        let mut input = (*decoder).into_inner();
        input.member = None;
        input.consume(skip);
        *at = input.pos;
        *out = 0;
        if !input.peek(GZIP_MAGIC.len())?.is_empty() {
            input.copy_member();
            *member = Some(Box::new(GzDecoder::new(input)));
        }
        Ok(true)
    }
}

/// Where (in bytes from the read position of `input`, not consumed) the
/// current member ends, if the first gzip member header ahead follows an
/// ISIZE in `size`, or the input ends right after one.
fn next_member_header<R: Read>(
    input: &mut Counting<R>,
    size: &std::ops::RangeInclusive<u64>,
) -> io::Result<Option<usize>> {
    let isize_fits = |tail: &[u8]| {
        let isize = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        size.clone().any(|s| s as u32 == isize)
    };
    let is_header =
        |h: &[u8]| h[0] == GZIP_MAGIC[0] && h[1] == GZIP_MAGIC[1] && h[2] == 8 && h[3] & 0xe0 == 0;
    // A member header right here: the decoder may have read its member to
    // the end already, and the one after would be taken for the next.
    let here = input.peek(4)?;
    if here.len() < 4 || is_header(here) {
        return Ok(None);
    }
    // The trailer (CRC-32, ISIZE) is 8 bytes: no header starts before 4.
    let mut from = 4;
    let mut want = INPUT_BUFFER;
    loop {
        let window = input.peek_far(want)?;
        let ended = window.len() < want;
        let mut at = from;
        while let Some(i) = memchr::memchr(GZIP_MAGIC[0], &window[at..]) {
            let q = at + i;
            if q + 4 > window.len() {
                break;
            }
            // Magic, deflate, no reserved flag bits.
            if is_header(&window[q..q + 4]) {
                return Ok(isize_fits(&window[q - 4..q]).then_some(q));
            }
            at = q + 1;
        }
        if ended {
            let n = window.len();
            return Ok((n >= 8 && isize_fits(&window[n - 4..])).then_some(n));
        }
        if want >= MAX_SKIP {
            return Ok(None);
        }
        // A header cut at the window's end is looked at again.
        from = window.len().saturating_sub(3).max(4);
        want *= 2;
    }
}

/// Consume zero bytes and line ends to the end: `Ok(true)` when nothing
/// else follows.
fn skip_padding<R: Read>(input: &mut Counting<R>) -> io::Result<bool> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(true);
        }
        let n = buf.len();
        if !buf.iter().all(|b| matches!(b, 0 | b'\r' | b'\n')) {
            return Ok(false);
        }
        input.consume(n);
    }
}

/// Bytes a read of the stream gives at least (unless the member or file
/// ends first): a decoder or a network stream may give a byte at a time,
/// and the first read must show the file's kind (`WARC/`, `filedesc://`).
const MIN_READ: usize = 64;

impl<R: Read> Stream<R> {
    fn read_once(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(input) => input.read(buf),
            Stream::Gzip {
                member: Some(m),
                out,
                ..
            } => {
                let n = m.read(buf)?;
                *out += n as u64;
                Ok(n)
            }
            Stream::Gzip { member: None, .. } => Ok(0),
        }
    }
}

impl<R: Read> Read for Stream<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = buf.len().min(MIN_READ);
        let mut filled = 0;
        while filled < want {
            match self.read_once(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // The bytes before an error first: the next read meets it
                // again (the input stays cut, the data stays bad).
                Err(_) if filled > 0 => break,
                Err(e) => return Err(e),
            }
        }
        Ok(filled)
    }
}
