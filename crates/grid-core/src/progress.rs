//! The progress line a long run keeps on standard error for a person watching a terminal:
//! one line, redrawn a few times a second, and wiped before anything is written to
//! standard output, so that an answer never lands on its end.
//!
//! The binaries draw it only when standard error is a terminal (into a file or a pipe
//! nothing is written); that choice is theirs ([`keeping`]'s `shown`), the drawing and
//! the rule that keeps the line and the answers apart are here: every write of an answer
//! through [`Line::wiping`] first wipes the line, under the same lock the line is drawn
//! under, so the two never interleave.
//!
//! ```
//! use std::io::Write;
//! use std::sync::atomic::{AtomicU64, Ordering};
//! use grid_core::progress::{self, QUIET_FOR};
//!
//! let cases = AtomicU64::new(0);
//! let text = |elapsed: std::time::Duration| {
//!     let case = cases.load(Ordering::Relaxed);
//!     (elapsed >= QUIET_FOR).then(|| format!("solver: case {case}, {:.0} s", elapsed.as_secs_f64()))
//! };
//! let mut answers = Vec::new();
//! // A binary passes `std::io::stderr()` and `std::io::stderr().is_terminal()`.
//! progress::keeping(std::io::sink(), false, text, |line| {
//!     cases.fetch_add(1, Ordering::Relaxed);
//!     writeln!(line.wiping(&mut answers), "42")
//! })?;
//! assert_eq!(answers, b"42\n");
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # Complexity
//! O(1) per write of an answer (one lock), a redraw costs the text's length.

use std::io::{self, BufWriter, IsTerminal, Stderr, StdoutLock, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// How often [`Line::keep`] redraws the line.
pub const REDRAW: Duration = Duration::from_millis(250);

/// How long a run goes before its line is worth drawing: the quick runs never show it.
pub const QUIET_FOR: Duration = Duration::from_secs(1);

/// What wipes a line on a terminal: back to its start, then erase to its end.
pub const WIPE: &str = "\r\x1b[K";

/// One line on `errors` (standard error, on a terminal), drawn and wiped from any thread.
#[derive(Debug)]
pub struct Line<E> {
    /// The stream the line is drawn on, and whether it is drawn now (one lock for both).
    errors: Mutex<(E, bool)>,
    /// Set by [`Line::end`].
    over: AtomicBool,
}

impl<E: Write> Line<E> {
    /// A line on `errors`, nothing drawn yet.
    pub fn new(errors: E) -> Self {
        Line {
            errors: Mutex::new((errors, false)),
            over: AtomicBool::new(false),
        }
    }

    /// Draws `text` as the line, in place of what it showed. A stream that cannot be
    /// written loses the line, not the run.
    pub fn draw(&self, text: &str) {
        let Ok(mut errors) = self.errors.lock() else {
            return;
        };
        let (stream, drawn) = &mut *errors;
        let _ = write!(stream, "{WIPE}{text}");
        let _ = stream.flush();
        *drawn = true;
    }

    /// Wipes the line if it is drawn (a message or an answer comes next).
    pub fn clear(&self) {
        let Ok(mut errors) = self.errors.lock() else {
            return;
        };
        let (stream, drawn) = &mut *errors;
        if *drawn {
            let _ = write!(stream, "{WIPE}");
            let _ = stream.flush();
            *drawn = false;
        }
    }

    /// `output` that wipes the line before every write.
    pub fn wiping<W: Write>(&self, output: W) -> Wiping<'_, W, E> {
        Wiping { output, line: self }
    }

    /// Redraws the line every [`REDRAW`] from `text` of the time since the call (`Some`:
    /// draw it, `None`: wipe it) until [`Line::end`]; then wipes it. Run it on a thread
    /// of its own, and unpark that thread after `end` to end at once ([`keeping`] does
    /// both).
    pub fn keep(&self, mut text: impl FnMut(Duration) -> Option<String>) {
        let started = Instant::now();
        loop {
            std::thread::park_timeout(REDRAW);
            if self.over.load(Relaxed) {
                self.clear();
                return;
            }
            match text(started.elapsed()) {
                Some(text) => self.draw(&text),
                None => self.clear(),
            }
        }
    }

    /// Tells [`Line::keep`] to wipe the line and return.
    pub fn end(&self) {
        self.over.store(true, Relaxed);
    }
}

/// Runs `work` with a [`Line`] on `errors`; when `shown`, a thread of its own keeps the
/// line from `text` meanwhile ([`Line::keep`]), and the line is wiped before this returns.
/// `work` writes its answers through [`Line::wiping`].
pub fn keeping<E, T>(
    errors: E,
    shown: bool,
    text: impl FnMut(Duration) -> Option<String> + Send,
    work: impl FnOnce(&Line<E>) -> T,
) -> T
where
    E: Write + Send,
{
    let line = Line::new(errors);
    let line = &line;
    std::thread::scope(|scope| {
        let keeper = shown.then(|| scope.spawn(move || line.keep(text)));
        let done = work(line);
        line.end();
        if let Some(keeper) = keeper {
            keeper.thread().unpark();
            // A keeper that panicked took only the line with it.
            let _ = keeper.join();
        }
        done
    })
}

/// Standard output as a binary writes its answers there: buffered, the progress line on
/// standard error wiped before every write ([`answering`]).
pub type Answers<'l> = BufWriter<Wiping<'l, StdoutLock<'static>, Stderr>>;

/// What a binary's `main` does around its run: `work` writes its answers to standard
/// output ([`Answers`]), flushed when it returns, while a progress line from `text` is
/// kept on standard error when that is a terminal, and never into a file or a pipe
/// ([`keeping`]). A failed flush (a closed pipe) is `work`'s error type.
pub fn answering<R: From<io::Error>>(
    text: impl FnMut(Duration) -> Option<String> + Send,
    work: impl FnOnce(&mut Answers<'_>) -> Result<(), R>,
) -> Result<(), R> {
    keeping(io::stderr(), io::stderr().is_terminal(), text, |line| {
        // Each answer wipes the line first, so that they never share it.
        let mut output = BufWriter::new(line.wiping(io::stdout().lock()));
        work(&mut output).and_then(|()| output.flush().map_err(R::from))
    })
}

/// Standard output that wipes the progress line before every write ([`Line::wiping`]).
#[derive(Debug)]
pub struct Wiping<'l, W, E> {
    output: W,
    line: &'l Line<E>,
}

impl<W: Write, E: Write> Write for Wiping<'_, W, E> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.line.clear();
        self.output.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.output.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_support::Terminal;

    #[test]
    fn an_answer_wipes_the_line_first_and_a_second_clear_writes_nothing() {
        let terminal = Terminal::default();
        let line = Line::new(terminal.clone());
        line.draw("solver: 3 s");
        let mut output = line.wiping(terminal.clone());
        writeln!(output, "42").unwrap();
        line.draw("solver: 4 s");
        line.clear();
        line.clear();
        assert_eq!(terminal.shown(), ["42", ""]);
        // Drawn twice, wiped twice (the second clear had nothing to wipe).
        assert_eq!(terminal.written().matches(WIPE).count(), 4);
    }

    #[test]
    fn a_kept_line_is_drawn_while_the_work_runs_and_wiped_at_its_end() {
        let terminal = Terminal::default();
        let answer = keeping(
            terminal.clone(),
            true,
            |elapsed| Some(format!("solver: {} ms", elapsed.as_millis())),
            |line| {
                std::thread::sleep(REDRAW * 3);
                writeln!(line.wiping(terminal.clone()), "42").unwrap();
                std::thread::sleep(REDRAW * 2);
                7
            },
        );
        assert_eq!(answer, 7);
        let written = terminal.written();
        assert!(written.matches("solver: ").count() >= 3, "{written:?}");
        assert!(written.ends_with(WIPE), "{written:?}");
        assert_eq!(terminal.shown(), ["42", ""]);
    }

    #[test]
    fn a_line_not_shown_writes_nothing() {
        let terminal = Terminal::default();
        keeping(
            terminal.clone(),
            false,
            |_| Some("solver".to_owned()),
            |line| {
                std::thread::sleep(REDRAW * 2);
                writeln!(line.wiping(terminal.clone()), "42").unwrap();
            },
        );
        assert_eq!(terminal.written(), "42\n");
    }
}
