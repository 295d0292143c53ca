//! The `sokoban` binary's work, callable and testable: read a collection, answer each
//! selected level through [`crate::solve`], report each malformed level and go on.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use grid_core::RunError;
use grid_core::error::report;

use crate::parse::{Collection, DEFAULT_MAX_CELLS, no_level};
use crate::range::LevelRange;
use crate::solution::{Options, Solution, SolveError};
use crate::{search, show, svg};

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
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            solve: Options::default(),
            max_cells: DEFAULT_MAX_CELLS,
            levels: None,
            show: false,
            svg: None,
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
    }
}

/// Tells `errors` one message. A message that cannot be written (standard error full or
/// closed) is dropped: the answers on `output` go on, and the exit status still says
/// that something was wrong.
fn tell(errors: &mut impl Write, message: &dyn std::fmt::Display) {
    let _ = writeln!(errors, "{message}");
    let _ = errors.flush();
}

/// Reads the levels of `input` one by one and writes for each selected one its title line
/// and its answer line (with `--show`, the drawings), flushing after each, and with
/// [`RunOptions::svg`] saves its picture. A malformed level gets `error: line L, column C:
/// ...` on `errors` and nothing on `output`, and the next level is read; so does an input
/// without any level, and a [`RunOptions::levels`] range that selects none.
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
    let mut told = 0;
    let mut selected = 0;
    while let Some(text) = collection.next_text()? {
        if let Some(range) = options.levels {
            if text.number < range.first() {
                continue;
            }
            if text.number > range.last() {
                break;
            }
        }
        selected += 1;
        let level = match text.into_level() {
            Ok(level) => level,
            Err(e) => {
                told += 1;
                tell(errors, &report(&e));
                continue;
            }
        };
        let answer = search::solve(&level, &options.solve);
        writeln!(output, "{}", level.title())?;
        writeln!(output, "{}", answer_line(&answer))?;
        if let (true, Ok(Some(s))) = (options.show, &answer) {
            show::show(&level, s.lurd(), output)?;
        }
        output.flush()?;
        if let (Some(path), Ok(Some(s))) = (&options.svg, &answer) {
            let path = grid_core::svg::case_path(path, level.number() as u64);
            grid_core::svg::write_file(&path, |file| svg::write_svg(file, &level, Some(s.lurd())))?;
        }
    }
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

    use super::*;

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
}
