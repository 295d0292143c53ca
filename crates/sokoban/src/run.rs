//! The `sokoban` binary's work, callable and testable: read a collection, answer each
//! selected level through [`crate::solve`], report each malformed level and go on.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Instant;

use grid_core::progress::{REDRAW, WIPE};
use grid_core::report;
use grid_core::{ParseError, RunError};

use crate::parse::{Collection, DEFAULT_MAX_CELLS, Level, LevelText, no_level};
use crate::range::LevelRange;
use crate::solution::{Options, Solution, SolveError};
use crate::{show, svg};

/// How [`run`] reads and answers: the flags of the `sokoban` binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// The search options of every level.
    pub solve: Options,
    /// The largest rows x longest row accepted for one level (`--max-cells`).
    pub max_cells: u64,
    /// Only the levels numbered in this range (`--level`), when set.
    pub levels: Option<LevelRange>,
    /// Draw the level after every push of each solution (`--show`).
    pub show: bool,
    /// Where to save each solution printed as an animated picture (`--svg FILE`): level
    /// N's goes to the file [`grid_core::svg::case_path`] names for N (`FILE` for level 1,
    /// `FILE-N.svg` for level N), N its number in the input; a level without a solution
    /// gets no picture.
    pub svg: Option<PathBuf>,
    /// How many levels are solved at once (`--jobs`), each on its own thread; the
    /// default is the machine's processors.
    pub jobs: NonZeroUsize,
    /// Keep a progress line on `errors` (levels done, solved, unsolvable, unknown, the
    /// time so far, redrawn four times a second): for a terminal.
    pub progress: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            solve: Options::default(),
            max_cells: DEFAULT_MAX_CELLS,
            levels: None,
            show: false,
            svg: None,
            jobs: thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
            progress: false,
        }
    }
}

/// The answer line of one level: `PUSHES MOVES LURD` (`0 0` for a level solved at the
/// start), `unproven: PUSHES MOVES LURD >= LB` for a solution not proven optimal (LB the
/// proven lower bound of the metric's first key), `-1`, or `unknown: time|memory`.
fn answer_line(answer: &Result<Option<Solution>, SolveError>) -> String {
    match answer {
        Ok(Some(s)) if s.lurd().is_empty() => "0 0".to_owned(),
        Ok(Some(s)) if !s.is_proven() => format!(
            "unproven: {} {} {} >= {}",
            s.pushes(),
            s.moves(),
            s.lurd(),
            s.lower_bound()
        ),
        Ok(Some(s)) => format!("{} {} {}", s.pushes(), s.moves(), s.lurd()),
        Ok(None) => "-1".to_owned(),
        Err(SolveError::Time) => "unknown: time".to_owned(),
        Err(SolveError::Memory) => "unknown: memory".to_owned(),
        Err(SolveError::Interrupted) => "unknown: interrupted".to_owned(),
    }
}

/// Tells `errors` one message. A message that cannot be written (standard error full or
/// closed) is dropped: the answers on `output` go on, and the exit status still says
/// that something was wrong.
fn tell(errors: &mut impl Write, message: &dyn std::fmt::Display) {
    let _ = writeln!(errors, "{message}");
    let _ = errors.flush();
}

/// What one selected level came to, waiting for its turn to be printed.
#[derive(Debug)]
enum Done {
    /// Malformed: its located error.
    Malformed(ParseError),
    /// Searched: the level and its answer.
    Answered(Box<Level>, Result<Option<Solution>, SolveError>),
}

/// Prints the levels' results in input order, as soon as the next one in order is done,
/// and keeps the progress line.
struct Printer<'o, O, E> {
    output: &'o mut O,
    errors: &'o mut E,
    options: &'o RunOptions,
    /// Results done out of order, by their place among the selected levels.
    waiting: BTreeMap<usize, Done>,
    /// The place of the next result to print.
    next: usize,
    told: usize,
    solved: usize,
    unsolvable: usize,
    unknown: usize,
    started: Instant,
}

impl<O: Write, E: Write> Printer<'_, O, E> {
    /// Takes result number `place` and prints every result now in order.
    fn take(&mut self, place: usize, done: Done) -> Result<(), RunError> {
        self.waiting.insert(place, done);
        // The line is wiped before the answers: on a terminal they would go on its end.
        if self.waiting.contains_key(&self.next) {
            self.progress(true);
        }
        while let Some(done) = self.waiting.remove(&self.next) {
            self.next += 1;
            self.print(done)?;
        }
        self.progress(false);
        Ok(())
    }

    fn print(&mut self, done: Done) -> Result<(), RunError> {
        let (level, answer) = match done {
            Done::Malformed(e) => {
                self.told += 1;
                self.progress(true);
                tell(self.errors, &report(&e));
                return Ok(());
            }
            Done::Answered(level, answer) => (level, answer),
        };
        match &answer {
            Ok(Some(_)) => self.solved += 1,
            Ok(None) => self.unsolvable += 1,
            Err(_) => self.unknown += 1,
        }
        writeln!(self.output, "{}", level.title())?;
        writeln!(self.output, "{}", answer_line(&answer))?;
        if let (true, Ok(Some(s))) = (self.options.show, &answer) {
            show::show(&level, s.lurd(), self.output)?;
        }
        self.output.flush()?;
        if let (Some(path), Ok(Some(s))) = (&self.options.svg, &answer) {
            let path = grid_core::svg::case_path(path, level.number() as u64);
            grid_core::svg::write_file(&path, |file| svg::write_svg(file, &level, Some(s.lurd())))?;
        }
        Ok(())
    }

    /// Redraws the progress line (with [`RunOptions::progress`]); `clear` wipes it for a
    /// message or the end.
    fn progress(&mut self, clear: bool) {
        if !self.options.progress {
            return;
        }
        let _ = if clear {
            write!(self.errors, "{WIPE}")
        } else {
            write!(
                self.errors,
                "{WIPE}{} levels done: {} solved, {} unsolvable, {} unknown; {:.0} s",
                self.next - self.told,
                self.solved,
                self.unsolvable,
                self.unknown,
                self.started.elapsed().as_secs_f64()
            )
        };
        let _ = self.errors.flush();
    }
}

/// One level for a worker: its place among the selected levels, the level, and the
/// threads it may use ([`Options::threads`]).
type Job = (usize, Level, NonZeroUsize);

/// Solves jobs until the channel closes or `stop` is set, sending each answer back.
fn work(
    jobs: &Mutex<Receiver<Job>>,
    done: &Sender<(usize, Done)>,
    stop: &AtomicBool,
    options: &Options,
) {
    loop {
        // The lock is held only while waiting for the next job, not while solving it.
        let job = match jobs.lock() {
            Ok(jobs) => jobs.recv(),
            Err(_) => return,
        };
        let Ok((place, level, threads)) = job else {
            return;
        };
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let answer = crate::solve(
            &level,
            &Options {
                threads,
                ..options.clone()
            },
        );
        if done
            .send((place, Done::Answered(Box::new(level), answer)))
            .is_err()
        {
            return;
        }
    }
}

/// The channels between the reading thread and the workers.
struct Workers {
    jobs: Sender<Job>,
    done: Receiver<(usize, Done)>,
    /// Jobs sent and not yet answered.
    in_flight: usize,
    /// Jobs at once: [`RunOptions::jobs`].
    width: usize,
}

impl Workers {
    /// Takes the next answer, waiting for it, and hands it to `printer`; with the
    /// progress line, redraws it every [`REDRAW`] while it waits, so that its seconds
    /// go on while a long level runs.
    fn print_one<O: Write, E: Write>(
        &mut self,
        printer: &mut Printer<'_, O, E>,
    ) -> Result<(), RunError> {
        loop {
            let next = if printer.options.progress {
                self.done.recv_timeout(REDRAW)
            } else {
                self.done.recv().map_err(|_| RecvTimeoutError::Disconnected)
            };
            match next {
                Ok((place, done)) => {
                    self.in_flight -= 1;
                    return printer.take(place, done);
                }
                Err(RecvTimeoutError::Timeout) => printer.progress(false),
                // Every worker has stopped: nothing more will come.
                Err(RecvTimeoutError::Disconnected) => {
                    self.in_flight = 0;
                    return Ok(());
                }
            }
        }
    }
}

/// The next level text of `collection` in `levels` (every one when `None`), or `None` past
/// the last.
fn next_selected<R: BufRead>(
    collection: &mut Collection<R>,
    levels: Option<LevelRange>,
) -> Result<Option<LevelText>, RunError> {
    while let Some(text) = collection.next_text()? {
        match levels {
            Some(range) if text.number < range.first() => continue,
            Some(range) if text.number > range.last() => return Ok(None),
            _ => return Ok(Some(text)),
        }
    }
    Ok(None)
}

/// Reads the selected levels of `collection`, hands each well-formed one to the workers
/// (a level ahead of them at most: memory stays bounded and the answers stream) and the
/// answers to `printer`; returns how many levels were selected.
fn feed<R: BufRead, O: Write, E: Write>(
    collection: &mut Collection<R>,
    workers: &mut Workers,
    printer: &mut Printer<'_, O, E>,
    levels: Option<LevelRange>,
    options: &Options,
) -> Result<usize, RunError> {
    let mut selected = 0;
    let mut ahead = next_selected(collection, levels)?;
    let mut failed = None;
    while let Some(text) = ahead.take() {
        if options.interrupted() {
            break;
        }
        // A failed read is told after this level's answer: answers before it are kept.
        ahead = next_selected(collection, levels).unwrap_or_else(|e| {
            failed = Some(e);
            None
        });
        // A lone level gets every job's thread (the finder and the exact search side by
        // side); in a collection each level has one, and the levels share the jobs.
        let threads = if selected == 0 && ahead.is_none() && failed.is_none() {
            NonZeroUsize::new(workers.width).unwrap_or(NonZeroUsize::MIN)
        } else {
            NonZeroUsize::MIN
        };
        let place = selected;
        selected += 1;
        match text.into_level() {
            Err(e) => printer.take(place, Done::Malformed(e))?,
            Ok(level) => {
                while workers.in_flight > workers.width {
                    workers.print_one(printer)?;
                }
                if options.interrupted() {
                    break;
                }
                if workers.jobs.send((place, level, threads)).is_ok() {
                    workers.in_flight += 1;
                }
            }
        }
    }
    while workers.in_flight > 0 {
        workers.print_one(printer)?;
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(selected),
    }
}

/// Reads the levels of `input` one by one and writes for each selected one its title line
/// and its answer line (with `--show`, the drawings), flushing after each, and with
/// [`RunOptions::svg`] saves its picture. A malformed level gets `error: line L, column C:
/// ...` on `errors` and nothing on `output`, and the next level is read; so does an input
/// without any level, and a [`RunOptions::levels`] range that selects none.
///
/// [`RunOptions::jobs`] levels are solved at once, each on its own thread; the answers
/// (and the errors) come out in input order all the same, each as soon as every level
/// before it is done. The input is read on the calling thread, a level ahead of the
/// workers.
///
/// When the [`Options::interrupt`] of [`RunOptions::solve`] is set (the binary's Ctrl-C),
/// no further level is read, the levels under way end at their next look at the clock
/// (with their best solution, unproven, or `unknown: interrupted`), and every answer
/// found is written.
///
/// Returns the number of errors told on `errors` (the binary exits with 1 when it is not
/// 0).
///
/// ```
/// let input = "; one\n#####\n#@$.#\n#####\n";
/// let (mut out, mut errors) = (Vec::new(), Vec::new());
/// let told = sokoban::run(input.as_bytes(), &mut out, &mut errors, &Default::default())?;
/// assert_eq!((told, String::from_utf8(out)?), (0, "; one\n1 1 R\n".to_owned()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`RunError::Output`] when writing `output` fails, [`RunError::Input`] when reading
/// fails, [`RunError::Picture`] when a picture cannot be saved.
pub fn run(
    input: impl BufRead,
    output: &mut impl Write,
    errors: &mut impl Write,
    options: &RunOptions,
) -> Result<usize, RunError> {
    let mut collection = Collection::new(input, options.max_cells);
    let mut printer = Printer {
        output,
        errors,
        options,
        waiting: BTreeMap::new(),
        next: 0,
        told: 0,
        solved: 0,
        unsolvable: 0,
        unknown: 0,
        started: Instant::now(),
    };
    let width = options.jobs.get();
    let (job_sender, job_receiver) = mpsc::channel::<Job>();
    let (done_sender, done_receiver) = mpsc::channel::<(usize, Done)>();
    let job_receiver = Mutex::new(job_receiver);
    let stop = AtomicBool::new(false);
    let selected = thread::scope(|scope| {
        for _ in 0..width {
            let (jobs, done, stop) = (&job_receiver, done_sender.clone(), &stop);
            scope.spawn(move || work(jobs, &done, stop, &options.solve));
        }
        drop(done_sender);
        let mut workers = Workers {
            jobs: job_sender,
            done: done_receiver,
            in_flight: 0,
            width,
        };
        let selected = feed(
            &mut collection,
            &mut workers,
            &mut printer,
            options.levels,
            &options.solve,
        );
        // On an error the queued levels are not solved; the workers end after the level
        // each is on (and at once when none is), the scope waiting for them.
        stop.store(selected.is_err(), Ordering::Relaxed);
        drop(workers);
        selected
    })?;
    printer.progress(true);
    let mut told = printer.told;
    let errors = printer.errors;
    let read = collection.levels_read();
    if read == 0 {
        told += 1;
        tell(errors, &report(&no_level()));
    } else if selected == 0 {
        if let Some(range) = options.levels {
            told += 1;
            let levels = if read == 1 { "level" } else { "levels" };
            tell(
                errors,
                &format_args!(
                    "error: --level {range} selects no level: the input has {read} {levels}"
                ),
            );
        }
    }
    Ok(told)
}

#[cfg(test)]
mod tests {
    use std::io;
    use std::time::Duration;

    use super::*;
    use crate::generate;
    use test_support::Terminal;

    #[test]
    fn run_goes_on_after_a_malformed_level() {
        let input = "; one\n####\n#@@#\n####\n\n; two\n######\n#@$ .#\n######\n";
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let bad = run(input.as_bytes(), &mut out, &mut err, &RunOptions::default()).unwrap();
        assert_eq!(bad, 1);
        assert_eq!(String::from_utf8(out).unwrap(), "; two\n2 2 RR\n");
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "error: line 3, column 3: the player ('@' or '+') appears again (first at line 3, \
             column 2)\n"
        );
    }

    /// An error stream that refuses every byte, like `2>/dev/full` or a closed stderr.
    struct Refusing(io::ErrorKind);

    impl Write for Refusing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(self.0.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(self.0.into())
        }
    }

    #[test]
    fn a_failing_error_stream_stops_nothing() {
        let input = "; bad\n####\n#@@#\n####\n\n; good\n######\n#@$ .#\n######\n\n; bad\n#@#\n";
        for kind in [io::ErrorKind::BrokenPipe, io::ErrorKind::StorageFull] {
            let mut out = Vec::new();
            let told = run(
                input.as_bytes(),
                &mut out,
                &mut Refusing(kind),
                &RunOptions::default(),
            )
            .unwrap();
            assert_eq!(told, 2);
            assert_eq!(String::from_utf8(out).unwrap(), "; good\n2 2 RR\n");
        }
    }

    /// 60 generated levels with a malformed one between them.
    fn two_collections_and_a_bad_level() -> String {
        format!(
            "{}\n; bad\n#@@$.#\n\n{}",
            generate::collection(3, 30, 3, 5),
            generate::collection(4, 30, 3, 5)
        )
    }

    #[test]
    fn the_progress_line_is_wiped_before_each_answer_on_a_shared_terminal() {
        let text = two_collections_and_a_bad_level();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(text.as_bytes(), &mut out, &mut err, &RunOptions::default()).unwrap();
        let plain = String::from_utf8([out, err].concat()).unwrap();
        for jobs in [1, 3] {
            let options = RunOptions {
                jobs: NonZeroUsize::new(jobs).unwrap(),
                progress: true,
                ..RunOptions::default()
            };
            let terminal = Terminal::default();
            let (mut out, mut err) = (terminal.clone(), terminal.clone());
            run(text.as_bytes(), &mut out, &mut err, &options).unwrap();
            let written = terminal.written();
            assert!(written.contains("levels done"), "{written}");
            // What a terminal shows of each line: what follows its last wipe. Each is an
            // answer, a title or the error, never a progress line with an answer on its
            // end; the answers in the order of a run without the line.
            let shown = terminal.shown();
            let seen: Vec<&str> = shown
                .iter()
                .map(String::as_str)
                .filter(|line| !line.is_empty())
                .collect();
            let answers = |lines: &[&str]| -> Vec<String> {
                let answers = lines.iter().filter(|line| !line.starts_with("error:"));
                answers.map(|line| (*line).to_owned()).collect()
            };
            let plain: Vec<&str> = plain.lines().collect();
            assert_eq!(answers(&seen), answers(&plain), "{written:?}");
            assert!(seen.iter().any(|line| line.starts_with("error:")));
        }
    }

    #[test]
    fn the_progress_line_goes_on_while_a_long_level_runs() {
        // Microban 93: about 10 s to its proof, stopped here at 1.5 s.
        let level = "; 93\n #########\n##   #   ##\n#    #    #\n#  $ # $  #\n#   *.*   #\n\
                     ####.@.####\n#   *.*   #\n#  $ # $  #\n#    #    #\n##   #   ##\n #########\n";
        let options = RunOptions {
            solve: Options {
                time_limit: Some(Duration::from_millis(1_500)),
                ..Options::default()
            },
            progress: true,
            ..RunOptions::default()
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(level.as_bytes(), &mut out, &mut err, &options).unwrap();
        let err = String::from_utf8(err).unwrap();
        // Drawn while the level ran (every 250 ms), not only when it was done.
        let drawn = err.matches("0 levels done").count();
        assert!(drawn >= 3, "{err:?}");
        assert!(err.ends_with(WIPE), "{err:?}");
        assert!(String::from_utf8(out).unwrap().starts_with("; 93\n"));
    }

    #[test]
    fn many_jobs_answer_in_input_order() {
        let text = two_collections_and_a_bad_level();
        let mut runs = Vec::new();
        for jobs in [1, 3, 8] {
            let options = RunOptions {
                jobs: NonZeroUsize::new(jobs).unwrap(),
                ..RunOptions::default()
            };
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let told = run(text.as_bytes(), &mut out, &mut err, &options).unwrap();
            runs.push((told, out, err));
        }
        assert!(runs[0].1.len() > 1000);
        assert_eq!(runs[0].0, 1, "{}", String::from_utf8_lossy(&runs[0].2));
        assert_eq!(runs[0], runs[1]);
        assert_eq!(runs[0], runs[2]);

        // A lone level, and one selected by --level, take every job's thread: the same
        // answers as on one.
        let lone = generate::collection(5, 1, 3, 6);
        for (text, levels) in [(&lone, None), (&text, Some("3".parse().unwrap()))] {
            let mut outs = Vec::new();
            for jobs in [1, 2] {
                let options = RunOptions {
                    jobs: NonZeroUsize::new(jobs).unwrap(),
                    levels,
                    ..RunOptions::default()
                };
                let mut out = Vec::new();
                assert_eq!(
                    run(text.as_bytes(), &mut out, &mut Vec::new(), &options).unwrap(),
                    0
                );
                outs.push(String::from_utf8(out).unwrap());
            }
            assert_eq!(outs[0].lines().count(), 2, "{}", outs[0]);
            assert_eq!(outs[0], outs[1]);
        }
    }

    #[test]
    fn an_empty_range_and_an_input_without_levels_are_told() {
        let input = "; one\n#####\n#@$.#\n#####\n\n; two\n#####\n#@$.#\n#####\n";
        let options = RunOptions {
            levels: Some("99".parse().unwrap()),
            ..RunOptions::default()
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(
            run(input.as_bytes(), &mut out, &mut err, &options).unwrap(),
            1
        );
        assert!(out.is_empty());
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "error: --level 99 selects no level: the input has 2 levels\n"
        );
        for input in ["", "\n\n; only a title\n", "; a\r#####\r#@$.#\r#####\r"] {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let told = run(input.as_bytes(), &mut out, &mut err, &RunOptions::default());
            assert_eq!(told.unwrap(), 1);
            assert!(out.is_empty());
            assert!(
                String::from_utf8(err)
                    .unwrap()
                    .contains("no level in the input")
            );
        }
    }

    /// Sets the interrupt once `after` bytes have been written: a Ctrl-C that comes
    /// while the answers are printed.
    struct InterruptAfter {
        written: Vec<u8>,
        after: usize,
        interrupt: crate::Interrupt,
    }

    impl Write for InterruptAfter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.written.extend_from_slice(buf);
            if self.written.len() >= self.after {
                self.interrupt.interrupt();
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn an_interrupt_keeps_the_answers_found_and_reads_no_further_level() {
        let level = "#######\n#@$  .#\n#######\n";
        let input: String = (1..=6).map(|i| format!("; {i}\n{level}")).collect();
        let interrupt = crate::Interrupt::default();
        let options = RunOptions {
            solve: Options {
                interrupt: Some(interrupt.clone()),
                ..Options::default()
            },
            jobs: NonZeroUsize::MIN,
            ..RunOptions::default()
        };
        let mut output = InterruptAfter {
            written: Vec::new(),
            after: "; 1\n3 3 RRR\n".len(),
            interrupt: interrupt.clone(),
        };
        let told = run(input.as_bytes(), &mut output, &mut Vec::new(), &options).unwrap();
        assert_eq!(told, 0);
        let text = String::from_utf8(output.written).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[..2], ["; 1", "3 3 RRR"], "{text}");
        // The level a worker held when the interrupt came ends either way; none after it
        // is read.
        assert!(lines.len() <= 4, "{text}");
        if lines.len() == 4 {
            assert_eq!(lines[2], "; 2");
            assert!(
                lines[3] == "3 3 RRR" || lines[3] == "unknown: interrupted",
                "{text}"
            );
        }

        // Set before the run: nothing is solved.
        let mut output = Vec::new();
        run(input.as_bytes(), &mut output, &mut Vec::new(), &options).unwrap();
        assert!(output.is_empty());
    }
}
