//! The binary's progress line: the figures of [`Progress`] redrawn on standard error for a
//! person watching a terminal, and wiped before anything is written to standard output.
//!
//! Why in the library: the line and the answers share the terminal, and the rule that
//! keeps them apart (every write of an answer first wipes the line, under the same lock
//! the line is drawn under) is tested here, on a buffer standing for the terminal.
//!
//! # Complexity
//! O(1) per redraw.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::mapf::Objective;
use crate::progress::Progress;

/// How often [`ProgressLine::keep`] redraws the line.
const REDRAW: Duration = Duration::from_millis(250);

/// How long a solve runs before its line shows: the quick ones never draw it.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// What wipes a line on a terminal: back to its start, then erase to its end.
const WIPE: &str = "\r\x1b[K";

/// One line on `errors` (standard error, on a terminal) with the solve's seconds, its
/// proven bound and its best plan:
///
/// ```text
/// ghosts: 12 s, sum of costs >= 1757, best plan 1763
/// ```
///
/// For datasets, the dataset under way and the run's seconds first (from the run's
/// first second, however quick each dataset is):
///
/// ```text
/// ghosts: dataset 37, 12 s, makespan >= 20, no plan yet
/// ```
pub struct ProgressLine<'p, E> {
    progress: &'p Progress,
    objective: Objective,
    /// Whether the solves are datasets (numbered on the line) or one benchmark instance.
    datasets: bool,
    /// The stream the line is drawn on, and whether it is drawn now (one lock for both).
    errors: Mutex<(E, bool)>,
    /// Set by [`ProgressLine::end`].
    over: AtomicBool,
}

impl<'p, E: Write> ProgressLine<'p, E> {
    /// The line of `progress`'s solves on `objective` (`datasets`: numbered), drawn on
    /// `errors`; nothing drawn yet.
    pub fn new(progress: &'p Progress, objective: Objective, datasets: bool, errors: E) -> Self {
        ProgressLine {
            progress,
            objective,
            datasets,
            errors: Mutex::new((errors, false)),
            over: AtomicBool::new(false),
        }
    }

    /// Redraws the line four times a second while a solve that started more than a
    /// second ago is under way (wiped between solves), until [`ProgressLine::end`]; then
    /// wipes it. Run it on a thread of its own, and unpark that thread after `end` to
    /// end at once.
    pub fn keep(&self) {
        let run = Instant::now();
        let (mut seen, mut since) = (0, Instant::now());
        loop {
            std::thread::park_timeout(REDRAW);
            if self.over.load(Relaxed) {
                self.clear();
                return;
            }
            let solves = self.progress.solves();
            if solves != seen {
                (seen, since) = (solves, Instant::now());
            }
            let running = self.progress.is_running();
            if self.datasets {
                // Many quick datasets make a long run too: the run's seconds count.
                if run.elapsed() >= QUIET_FOR {
                    self.draw(&self.text(solves, run.elapsed(), running));
                }
            } else if !running {
                self.clear();
            } else if since.elapsed() >= QUIET_FOR {
                self.draw(&self.text(solves, since.elapsed(), running));
            }
        }
    }

    /// Tells [`ProgressLine::keep`] to wipe the line and return.
    pub fn end(&self) {
        self.over.store(true, Relaxed);
    }

    /// `output` that wipes the line before every write.
    pub fn wiping<W: Write>(&self, output: W) -> Wiping<'_, 'p, W, E> {
        Wiping { output, line: self }
    }

    /// The line for solve number `solves`, `elapsed` into it (into the run, for
    /// datasets), with its figures while it is `running`.
    fn text(&self, solves: u64, elapsed: Duration, running: bool) -> String {
        let objective = match self.objective {
            Objective::Makespan => "makespan",
            Objective::SumOfCosts => "sum of costs",
        };
        let mut text = String::from("ghosts: ");
        if self.datasets {
            text += &format!("dataset {solves}, ");
        }
        text += &format!("{:.0} s", elapsed.as_secs_f64());
        if !running {
            return text;
        }
        if let Some(bound) = self.progress.lower_bound() {
            text += &format!(", {objective} >= {bound}");
        }
        match self.progress.best() {
            Some(best) => text += &format!(", best plan {best}"),
            None => text += ", no plan yet",
        }
        text
    }

    /// Draws `text` as the line. A stream that cannot be written loses the line, not
    /// the run.
    fn draw(&self, text: &str) {
        let Ok(mut errors) = self.errors.lock() else {
            return;
        };
        let (stream, drawn) = &mut *errors;
        let _ = write!(stream, "{WIPE}{text}");
        let _ = stream.flush();
        *drawn = true;
    }

    /// Wipes the line if it is drawn.
    fn clear(&self) {
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
}

/// Standard output that wipes the progress line before every write
/// ([`ProgressLine::wiping`]).
pub struct Wiping<'l, 'p, W, E> {
    output: W,
    line: &'l ProgressLine<'p, E>,
}

impl<W: Write, E: Write> Write for Wiping<'_, '_, W, E> {
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
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Standard output and error on one terminal: both streams into one buffer.
    #[derive(Clone, Default)]
    struct Terminal(Rc<RefCell<Vec<u8>>>);

    impl Write for Terminal {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// What a terminal shows of each line: what follows its last wipe.
    fn shown(terminal: &Terminal) -> Vec<String> {
        let text = String::from_utf8(terminal.0.borrow().clone()).unwrap_or_default();
        text.split('\n')
            .map(|line| line.rsplit(WIPE).next().unwrap_or(line).to_owned())
            .collect()
    }

    #[test]
    fn the_line_says_the_figures_and_answers_never_share_it() {
        let progress = Progress::new();
        let terminal = Terminal::default();
        let line = ProgressLine::new(&progress, Objective::SumOfCosts, true, terminal.clone());
        progress.start();
        assert_eq!(
            line.text(1, Duration::from_secs(3), true),
            "ghosts: dataset 1, 3 s, no plan yet"
        );
        assert_eq!(
            line.text(2, Duration::from_secs(4), false),
            "ghosts: dataset 2, 4 s"
        );
        progress.bound_at_least(1757);
        progress.plan_of(1765);
        progress.plan_of(1763);
        let text = line.text(1, Duration::from_millis(12_400), true);
        assert_eq!(
            text,
            "ghosts: dataset 1, 12 s, sum of costs >= 1757, best plan 1763"
        );
        line.draw(&text);
        let mut output = line.wiping(terminal.clone());
        writeln!(output, "unproven: 1763 >= 1757").unwrap();
        line.draw(&text);
        line.clear();
        line.clear();
        assert_eq!(shown(&terminal), ["unproven: 1763 >= 1757", ""]);
        let written = String::from_utf8(terminal.0.take()).unwrap();
        // Drawn twice, wiped twice (the second clear had nothing to wipe).
        assert_eq!(written.matches(WIPE).count(), 4, "{written:?}");
    }

    #[test]
    fn the_makespan_line_of_one_instance_has_no_dataset_number() {
        let progress = Progress::new();
        let line = ProgressLine::new(&progress, Objective::Makespan, false, Vec::new());
        progress.start();
        progress.bound_at_least(88);
        progress.plan_of(91);
        assert_eq!(
            line.text(1, Duration::from_secs(20), true),
            "ghosts: 20 s, makespan >= 88, best plan 91"
        );
    }
}
