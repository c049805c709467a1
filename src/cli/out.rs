//! Standard output for the commands: a buffered writer that remembers whether
//! the reader went away. In: bytes from a command. Out: stdout.
//!
//! `newshound export | head -1` closes the pipe after one line; the next write
//! fails with `BrokenPipe`. That is the reader's choice, not an error, so the
//! command ends quietly (exit 0, like `cat`) instead of reporting it or, with
//! `println!`, panicking. The writer records the broken pipe itself, so the
//! caller can tell it apart from any other `BrokenPipe` (a network socket
//! during `extract URL`) whatever error type it travelled in.

use std::io::{self, BufWriter, ErrorKind, Stdout, Write};

pub struct Out {
    inner: BufWriter<Stdout>,
    broken_pipe: bool,
}

impl Out {
    pub fn new() -> Out {
        Out {
            inner: BufWriter::new(io::stdout()),
            broken_pipe: false,
        }
    }

    /// Whether a write to stdout failed because its reader closed the pipe.
    pub fn broken_pipe(&self) -> bool {
        self.broken_pipe
    }

    fn note<T>(&mut self, r: io::Result<T>) -> io::Result<T> {
        match r {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => {
                self.broken_pipe = true;
                Err(e)
            }
            Err(e) => Err(io::Error::new(e.kind(), format!("stdout: {e}"))),
            ok => ok,
        }
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.inner.write(buf);
        self.note(r)
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.inner.flush();
        self.note(r)
    }
}
