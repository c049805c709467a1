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
    buf: Box<[u8]>,
    /// The bytes read and not consumed: `buf[start..end]`.
    start: usize,
    end: usize,
    /// Offset in the file of the next byte not consumed.
    pos: u64,
}

/// The read buffer of the stored file (gzip reads it in small pieces).
const INPUT_BUFFER: usize = 64 * 1024;

impl<R: Read> Counting<R> {
    pub(super) fn new(inner: R, start: u64) -> Counting<R> {
        Counting {
            inner,
            buf: vec![0; INPUT_BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            pos: start,
        }
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
            Ok(Stream::Gzip {
                member: Some(Box::new(GzDecoder::new(input))),
                at: start,
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
            Stream::Gzip { member: None, at } => *at,
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
        let Stream::Gzip { member, at } = self else {
            return Ok(false);
        };
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
        *member = Some(Box::new(GzDecoder::new(input)));
        Ok(true)
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
                member: Some(m), ..
            } => m.read(buf),
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
