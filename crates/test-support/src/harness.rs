//! How a data-driven case is run and rendered for its snapshot, shared by every solver
//! crate's `tests/cases.rs` so all snapshots read alike.
//!
//! A case is `NAME.in` (standard input) and/or `NAME.args` (the command-line flags) in
//! `testdata/<crate>/` or `testdata/bad/<crate>/`; a case with flags only runs with an
//! empty standard input. `NAME.out` (optional) is the known answer: standard output must
//! equal it byte for byte. The binary runs in the crate's fixture folder,
//! `testdata/fixtures/<crate>/` (when there is one), so flags name fixtures by their bare
//! names (`--map small.map`); `testdata/README.md` describes the layout.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What one run of a solver binary on a case produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseRun {
    /// The flags it ran with (from `NAME.args`).
    pub args: Vec<String>,
    /// Exit status (`-1` when killed by a signal).
    pub status: i32,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
}

/// `case` with its extension replaced by `extension`.
pub fn sibling(case: &Path, extension: &str) -> PathBuf {
    case.with_extension(extension)
}

/// Whether `path`, a file a case folder's glob `*.{in,args}` found, names a case: every
/// `NAME.in`, and `NAME.args` when there is no `NAME.in` (flags only). So each case is
/// run once, under one name.
pub fn is_case(path: &Path) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some("in") => true,
        Some("args") => !sibling(path, "in").exists(),
        _ => false,
    }
}

/// The folder a case runs in: `testdata/fixtures/<crate>/` for a case in
/// `testdata/<crate>/` or `testdata/bad/<crate>/`, when it exists; else the case's own
/// folder.
pub fn fixtures_dir(case: &Path) -> PathBuf {
    let folder = case.parent().unwrap_or(Path::new("."));
    let testdata = folder
        .ancestors()
        .find(|dir| dir.file_name().is_some_and(|name| name == "testdata"));
    match (testdata, folder.file_name()) {
        (Some(testdata), Some(program)) => {
            let fixtures = testdata.join("fixtures").join(program);
            if fixtures.is_dir() {
                fixtures
            } else {
                folder.to_path_buf()
            }
        }
        _ => folder.to_path_buf(),
    }
}

/// Runs `binary` with the flags of `NAME.args` and `NAME.in` on standard input (empty
/// when the case has flags only), in [`fixtures_dir`] (so that the flags may name the
/// fixtures).
pub fn run_case(binary: &Path, case: &Path) -> io::Result<CaseRun> {
    let args_file = sibling(case, "args");
    let args: Vec<String> = if args_file.exists() {
        std::fs::read_to_string(&args_file)?
            .split_whitespace()
            .map(str::to_owned)
            .collect()
    } else {
        Vec::new()
    };
    let input = sibling(case, "in");
    let stdin = if input.exists() {
        Stdio::from(std::fs::File::open(input)?)
    } else {
        Stdio::null()
    };
    let output = Command::new(binary)
        .args(&args)
        .current_dir(fixtures_dir(case))
        .stdin(stdin)
        .output()?;
    Ok(CaseRun {
        args,
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    })
}

impl CaseRun {
    /// The snapshot text: flags, exit status, standard output, standard error.
    pub fn render(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "args: {}", self.args.join(" "));
        let _ = writeln!(text, "status: {}", self.status);
        let _ = writeln!(text, "--- stdout");
        text.push_str(&self.stdout);
        let _ = writeln!(text, "--- stderr");
        text.push_str(&self.stderr);
        text
    }

    /// The known answer of `case` (`NAME.out`), if it has one, and whether standard output
    /// equals it.
    pub fn known_answer(&self, case: &Path) -> io::Result<Option<(String, bool)>> {
        let out = sibling(case, "out");
        if !out.exists() {
            return Ok(None);
        }
        let expected = std::fs::read_to_string(out)?;
        let same = expected == self.stdout;
        Ok(Some((expected, same)))
    }
}

/// A writer whose reader has gone away, like a closed pipe: every write fails with
/// [`io::ErrorKind::BrokenPipe`]. For testing that a program's `run` ends quietly.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClosedPipe;

impl io::Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::ErrorKind::BrokenPipe.into())
    }

    fn flush(&mut self) -> io::Result<()> {
        Err(io::ErrorKind::BrokenPipe.into())
    }
}

/// Runs `binary` with `args` on `input` as `binary < input | head -c 1` would: reads one
/// byte of its standard output, closes it, and returns what the process left (its standard
/// error and exit status) once it has ended.
pub fn run_into_closed_pipe(
    binary: &Path,
    args: &[&str],
    input: Vec<u8>,
) -> io::Result<std::process::Output> {
    use std::io::{Read, Write};
    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| io::Error::other("no stdin"))?;
    let feeder = std::thread::spawn(move || {
        // The program may stop reading once its output is closed.
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child
        .stdout
        .take()
        .ok_or_else(|| io::Error::other("no stdout"))?;
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first)?;
    drop(stdout);
    let output = child.wait_with_output()?;
    feeder
        .join()
        .map_err(|_| io::Error::other("the input feeder panicked"))?;
    Ok(output)
}

/// Runs `case` through `binary`, asserts that standard output equals the case's known
/// answer when it has one (`NAME.out`), and returns the snapshot text ([`CaseRun::render`]).
/// The body of every solver crate's data-driven test.
///
/// # Panics
/// When the case cannot be run, or its output differs from its known answer: it is a test
/// helper, and a panic is how a test fails.
pub fn checked_case(binary: &str, case: &Path) -> String {
    let run = run_case(Path::new(binary), case)
        .unwrap_or_else(|e| panic!("cannot run {binary} on {}: {e}", case.display()));
    let known = run
        .known_answer(case)
        .unwrap_or_else(|e| panic!("cannot read the known answer of {}: {e}", case.display()));
    if let Some((expected, same)) = known {
        assert!(
            same,
            "{}: expected\n{expected}\ngot\n{}",
            case.display(),
            run.stdout
        );
    }
    run.render()
}

/// Asserts that a run writing into a [`ClosedPipe`] stopped with the broken pipe and that
/// its exit status is success, printing nothing: what `program | head` needs.
///
/// # Panics
/// When the outcome is anything else (a test helper).
pub fn assert_quiet_on_closed_pipe(outcome: Result<(), grid_core::RunError>) {
    match &outcome {
        Err(grid_core::RunError::Output(e)) => assert_eq!(e.kind(), io::ErrorKind::BrokenPipe),
        other => panic!("expected a broken pipe, got {other:?}"),
    }
    assert_eq!(
        grid_core::exit_code(outcome),
        std::process::ExitCode::SUCCESS
    );
}

/// Asserts that a process whose output was closed early ([`run_into_closed_pipe`]) ended
/// with status 0 and nothing on standard error (no panic message).
///
/// # Panics
/// When it did not (a test helper).
pub fn assert_quiet_exit(output: &std::process::Output) {
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert!(output.status.success(), "{:?}", output.status);
}

/// Runs `binary` with `args` on `input`, as `binary ARGS < input` would, and collects its
/// exit status, standard output and standard error.
///
/// # Errors
/// When the process cannot run.
pub fn run_with_input(
    binary: &Path,
    args: &[&str],
    input: &[u8],
) -> io::Result<std::process::Output> {
    run_with_stderr(binary, args, input, Stdio::piped())
}

/// Runs `binary` with `args` on `input` with its standard error on `/dev/full`, where
/// every write fails, as `binary < input 2>/dev/full` would. For testing that a program
/// that cannot report an error still exits with its status rather than a panic.
///
/// # Errors
/// When `/dev/full` cannot be opened (a system without it) or the process cannot run.
pub fn run_with_full_stderr(
    binary: &Path,
    args: &[&str],
    input: &[u8],
) -> io::Result<std::process::Output> {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full")?;
    run_with_stderr(binary, args, input, Stdio::from(full))
}

fn run_with_stderr(
    binary: &Path,
    args: &[&str],
    input: &[u8],
    stderr: Stdio,
) -> io::Result<std::process::Output> {
    use std::io::Write;
    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| io::Error::other("no stdin"))?;
    stdin.write_all(input)?;
    drop(stdin);
    child.wait_with_output()
}
