//! Records, one after another: a WARC stream → each record's head (version,
//! named fields, block length) and, on request, its block.
//!
//! In: a stored WARC file (through [`super::input`]). Out: [`RecordHead`]s
//! from [`WarcReader::next_head`]; a record's block from
//! [`WarcReader::block`], within a size cap, or skipped unread when the
//! next head is asked for — a record nobody wants (a request, another
//! site's page, an image) is never held in memory.
//!
//! A record (ISO 28500, WARC 1.0 and 1.1): `WARC/1.1` CRLF, header fields
//! `Name: value` CRLF (continuation lines start with a space or tab), CRLF,
//! a block of exactly `Content-Length` bytes, CRLF CRLF. Line ends are
//! read leniently (a bare LF too), and any run of line ends between
//! records is skipped.
//!
//! What goes wrong in one record of a gzip file (a bad header, a length
//! that runs past its member) costs that record: the reader goes on at the
//! next member. In a plain file, or when the gzip data itself is broken,
//! nothing after it can be framed: the error is fatal for the file
//! ([`WarcError::is_fatal`]).

use std::io::{self, BufRead, BufReader, Read};

use super::input::Stream;
use super::{RecordHead, Resume, WarcError};

/// Header bytes a record may have (Common Crawl's are under 1 KB).
pub const MAX_HEAD: usize = 64 * 1024;

/// Reads the records of one stored WARC file, in order.
pub struct WarcReader<R: Read> {
    src: BufReader<Stream<R>>,
    /// Block bytes of the current record not read yet.
    left: u64,
    /// Records begun in the current gzip member (a plain file: 0).
    in_member: u64,
    /// The file cannot be framed any further.
    broken: bool,
    /// An error met while reading a member to its end for
    /// [`WarcReader::member_bytes`]: the next head reports it, as it would
    /// have met it.
    deferred: Option<WarcError>,
}

/// What a stored file begins with, for its error.
fn shown_start(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(16)];
    head.iter()
        .map(|&b| match b {
            b' '..=b'~' => (b as char).to_string(),
            _ => format!("\\x{b:02x}"),
        })
        .collect()
}

/// The buffer records are read through: small, as what it holds of a
/// record that is skipped has been inflated for nothing (a block that is
/// read goes past it).
const RECORD_BUFFER: usize = 8 * 1024;
/// A record's rest worth skipping by its gzip member's size rather than
/// inflating.
const MIN_SKIP: u64 = 4 * 1024;

impl<R: Read> WarcReader<R> {
    /// A reader of the file `input`, positioned at byte `start` of it (the
    /// file's start, or a [`Resume::offset`]). The first bytes decide what
    /// it is: a WARC file (plain or gzip), or an error — an empty file, an
    /// ARC file, anything else.
    pub fn new(input: R, start: u64) -> Result<WarcReader<R>, WarcError> {
        let stream = Stream::open(input, start)?;
        let gzip = stream.is_gzip();
        let mut src = BufReader::with_capacity(RECORD_BUFFER, stream);
        let head = src.fill_buf().map_err(|e| gzip_or_io(gzip, start, e))?;
        if !head.starts_with(b"WARC/") {
            return Err(if head.starts_with(b"filedesc://") {
                WarcError::Arc
            } else if head.is_empty() {
                WarcError::Empty
            } else {
                WarcError::NotWarc(shown_start(head))
            });
        }
        Ok(WarcReader {
            src,
            left: 0,
            in_member: 0,
            broken: false,
            deferred: None,
        })
    }

    /// A reader resumed where `resume` says: at its offset, with its
    /// records skipped.
    pub fn resume(input: R, resume: Resume) -> Result<WarcReader<R>, WarcError> {
        let mut reader = WarcReader::new(input, resume.offset)?;
        // Records of the member are counted as begun, bad ones too; a
        // record that ran past its member ended the member's records.
        let member = reader.src.get_ref().member_at();
        while reader.in_member < resume.skip && reader.src.get_ref().member_at() == member {
            match reader.next_head() {
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(e) if e.is_fatal() => return Err(e),
                Err(_) => {}
            }
        }
        Ok(reader)
    }

    /// Offset in the stored file of the next byte not read (for progress).
    pub fn position(&self) -> u64 {
        self.src.get_ref().position()
    }

    pub fn is_gzip(&self) -> bool {
        self.src.get_ref().is_gzip()
    }

    /// Where the reading is now, in the stored file: for messages.
    fn at(&self) -> u64 {
        self.position()
    }

    fn io_error(&self, e: io::Error) -> WarcError {
        let at = self.src.get_ref().member_at().unwrap_or_else(|| self.at());
        gzip_or_io(self.is_gzip(), at, e)
    }

    /// The next record's head, after skipping what is left of the current
    /// record's block; `Ok(None)` at the end of the file. After an error
    /// that is not fatal, the next call goes on with the next record.
    pub fn next_head(&mut self) -> Result<Option<RecordHead>, WarcError> {
        if self.broken {
            return Ok(None);
        }
        let result = match self.deferred.take() {
            Some(e) => Err(e),
            None => self.read_head(),
        };
        self.broken |= result.as_ref().is_err_and(WarcError::is_fatal);
        result
    }

    fn read_head(&mut self) -> Result<Option<RecordHead>, WarcError> {
        self.skip_block()?;
        if !self.skip_line_ends()? {
            return Ok(None);
        }
        let head = self.parse_head();
        if let Err(WarcError::Record { .. }) = head {
            // The rest of the member cannot be framed: the next one can.
            self.drop_member()?;
        }
        head.map(Some)
    }

    /// The header of a record, read from its first line.
    fn parse_head(&mut self) -> Result<RecordHead, WarcError> {
        let resume = match self.src.get_ref().member_at() {
            Some(offset) => Resume {
                offset,
                skip: self.in_member,
            },
            None => Resume {
                offset: self.position() - self.src.buffer().len() as u64,
                skip: 0,
            },
        };
        let at = resume.offset;
        self.in_member += 1;
        let gzip = self.is_gzip();
        let bad = |reason: String| {
            if gzip {
                WarcError::Record { at, reason }
            } else {
                WarcError::Framing { at, reason }
            }
        };
        let mut head = Vec::new();
        let mut lines = Vec::new();
        loop {
            let start = head.len();
            let n = (&mut self.src)
                .take((MAX_HEAD - head.len()) as u64 + 1)
                .read_until(b'\n', &mut head)
                .map_err(|e| self.io_error(e))?;
            if n == 0 {
                return Err(bad("the file ends inside a record's header".into()));
            }
            if head.len() > MAX_HEAD {
                return Err(bad(format!("header longer than {MAX_HEAD} bytes")));
            }
            let line = trim_line_end(&head[start..]);
            if line.is_empty() {
                break;
            }
            lines.push((start, start + line.len()));
        }
        let text = |(a, b): (usize, usize)| String::from_utf8_lossy(&head[a..b]).into_owned();
        let Some(&first) = lines.first() else {
            return Err(bad("empty header".into()));
        };
        let version_line = text(first);
        let Some(version) = version_line.strip_prefix("WARC/") else {
            return Err(bad(format!("{version_line:?} is not a WARC version line")));
        };
        if !matches!(version, "1.0" | "1.1") {
            return Err(WarcError::Version(version.to_string()));
        }
        let mut fields: Vec<(String, String)> = Vec::new();
        for &span in &lines[1..] {
            let line = text(span);
            if line.starts_with([' ', '\t']) {
                // A continuation of the field before.
                match fields.last_mut() {
                    Some((_, value)) => {
                        value.push(' ');
                        value.push_str(line.trim());
                    }
                    None => return Err(bad("a continuation line before any field".into())),
                }
                continue;
            }
            let Some((name, value)) = line.split_once(':') else {
                return Err(bad(format!("header line without a colon: {line:?}")));
            };
            fields.push((name.trim().to_string(), value.trim().to_string()));
        }
        let length = fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
            .ok_or_else(|| bad("no Content-Length".into()))?
            .1
            .parse::<u64>()
            .map_err(|_| bad("Content-Length is not a number".into()))?;
        self.left = length;
        Ok(RecordHead {
            version: version.to_string(),
            fields,
            length,
            resume,
        })
    }

    /// The current record's block, when it is at most `cap` bytes; a larger
    /// one is refused (`Err(TooLarge)`, not fatal) and skipped unread by the
    /// next [`WarcReader::next_head`].
    pub fn block(&mut self, cap: u64) -> Result<Vec<u8>, WarcError> {
        let result = self.read_block(cap);
        self.broken |= result.as_ref().is_err_and(WarcError::is_fatal);
        result
    }

    fn read_block(&mut self, cap: u64) -> Result<Vec<u8>, WarcError> {
        if self.left > cap {
            // Skipped unread by the next head.
            return Err(WarcError::TooLarge {
                at: self.at(),
                length: self.left,
                cap,
            });
        }
        let mut block = Vec::with_capacity(usize::try_from(self.left).unwrap_or(0));
        let want = self.left;
        let got = (&mut self.src)
            .take(want)
            .read_to_end(&mut block)
            .map_err(|e| self.io_error(e))? as u64;
        self.left = 0;
        if got < want {
            return Err(self.short_block());
        }
        Ok(block)
    }

    /// The stored bytes of the gzip member of the record whose block was
    /// just read, when that member holds this record alone: the record as
    /// the file keeps it, compressed (an import keeps it as the page, rather
    /// than compressing the page again). `None` for a plain file, a member
    /// of several records, a block not read whole, or a member over 4 MB
    /// compressed (`input::MAX_MEMBER_COPY`).
    ///
    /// Reads the record's closing line ends and the member's trailer; an
    /// error there (a cut file, broken compressed data) is the next head's.
    pub fn member_bytes(&mut self) -> Option<Vec<u8>> {
        if !self.is_gzip() || self.in_member != 1 || self.left != 0 || self.deferred.is_some() {
            return None;
        }
        loop {
            let (ends, len) = match self.line_ends_ahead() {
                Ok(counts) => counts,
                Err(e) => {
                    self.deferred = Some(e);
                    return None;
                }
            };
            if len == 0 {
                // The member gave its last byte: its trailer was read.
                return self.src.get_mut().take_member_bytes();
            }
            self.src.consume(ends);
            if ends < len {
                // Another record follows in the same member.
                return None;
            }
        }
    }

    /// Read past what is left of the current block: in a gzip file with a
    /// member per record, by skipping the rest of the member unread
    /// ([`Stream::skip_member`]).
    fn skip_block(&mut self) -> Result<(), WarcError> {
        let mut want = self.left;
        if want == 0 {
            return Ok(());
        }
        let buffered = self.src.buffer().len() as u64;
        // The member's size if it is this record alone: what it gave, less
        // what is buffered, plus the block's rest and the record's closing
        // line ends (CRLF CRLF, or fewer from lax writers).
        let member_end = self
            .src
            .get_ref()
            .member_out()
            .checked_sub(buffered)
            .and_then(|read| read.checked_add(want));
        if let Some(end) = member_end
            .filter(|_| self.is_gzip() && self.in_member == 1 && want > buffered + MIN_SKIP)
        {
            self.src.consume(buffered as usize);
            want -= buffered;
            self.left = want;
            if self
                .src
                .get_mut()
                .skip_member(end..=end.saturating_add(4))
                .map_err(|e| self.io_error(e))?
            {
                self.left = 0;
                self.in_member = 0;
                return Ok(());
            }
        }
        let got = io::copy(&mut (&mut self.src).take(want), &mut io::sink())
            .map_err(|e| self.io_error(e))?;
        self.left = 0;
        if got < want {
            return Err(self.short_block());
        }
        Ok(())
    }

    /// A block that ended early: the end of the file (fatal), or of its
    /// gzip member when another follows (the next record is read).
    fn short_block(&mut self) -> WarcError {
        let at = self.at();
        match self.src.get_ref().member_at() {
            Some(_) => match self.next_member() {
                Ok(true) => WarcError::Record {
                    at,
                    reason: "Content-Length runs past the record's gzip member".into(),
                },
                Ok(false) => WarcError::Truncated { at },
                Err(e) => e,
            },
            None => WarcError::Truncated { at },
        }
    }

    fn next_member(&mut self) -> Result<bool, WarcError> {
        // The record buffer holds nothing of the member that ended.
        let started = self.src.get_mut().next_member()?;
        if started {
            self.in_member = 0;
        }
        Ok(started)
    }

    /// After a bad record in a gzip file: the rest of its member is
    /// dropped, and reading goes on at the next.
    fn drop_member(&mut self) -> Result<(), WarcError> {
        self.left = 0;
        if self.src.get_ref().member_at().is_none() {
            return Ok(());
        }
        if let Err(e) = io::copy(&mut self.src, &mut io::sink()) {
            return Err(self.io_error(e));
        }
        if !self.next_member()? {
            self.broken = true;
        }
        Ok(())
    }

    /// The line ends the read buffer starts with, and the bytes it holds
    /// (0: the member or the file ended), filling it first.
    fn line_ends_ahead(&mut self) -> Result<(usize, usize), WarcError> {
        match self.src.fill_buf() {
            Ok(buf) => Ok((
                buf.iter()
                    .take_while(|b| matches!(b, b'\r' | b'\n'))
                    .count(),
                buf.len(),
            )),
            Err(e) => Err(self.io_error(e)),
        }
    }

    /// Skip line ends up to the next record, crossing into the next gzip
    /// member at a member's end; `Ok(false)` at the end of the file.
    fn skip_line_ends(&mut self) -> Result<bool, WarcError> {
        loop {
            let (ends, len) = self.line_ends_ahead()?;
            if len == 0 {
                if self.next_member()? {
                    continue;
                }
                return Ok(false);
            }
            let all = ends == len;
            self.src.consume(ends);
            if !all {
                return Ok(true);
            }
        }
    }
}

/// An I/O error of the uncompressed stream: broken gzip data when the file
/// is gzip (flate2 reports it as an I/O error), else a failed read.
fn gzip_or_io(gzip: bool, at: u64, e: io::Error) -> WarcError {
    let gzip_trouble = matches!(
        e.kind(),
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof
    );
    if gzip && gzip_trouble {
        WarcError::Gzip {
            at,
            reason: if e.kind() == io::ErrorKind::UnexpectedEof {
                "the gzip member is truncated".into()
            } else {
                e.to_string()
            },
        }
    } else {
        WarcError::Io { at, source: e }
    }
}

fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}
