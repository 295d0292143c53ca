//! A binary run as a whole process, with its peak resident memory: what a test of a
//! `--memory-mib` promise measures.
//!
//! The peak comes from `getrusage(RUSAGE_CHILDREN)`'s `ru_maxrss` ([`wait_with_usage`]), which on Linux also counts the address space
//! the child ran in before its `exec`: the spawner's own peak (measured: a child holding
//! 1 MiB, spawned by a test process that held 100 MiB, reported 102 MiB). So the child is
//! not spawned by the test: the test binary starts itself again as a small reporter
//! ([`serve_measurement`], about 3 MiB), which spawns the child, reaps it and writes the
//! figure to a file. The child's peak is then exact up to the reporter's few MiB.
//!
//! A test binary that measures has `harness = false` and calls [`serve_measurement`] first
//! in its `main` (libtest's harness would start threads and parse the arguments).

use std::io::{self, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};

use nix::sys::resource::{UsageWho, getrusage};
use nix::sys::time::TimeVal;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One whole-process run and its peak resident memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeasuredRun {
    /// Exit status (`-1` when killed by a signal).
    pub status: i32,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
    /// Peak resident memory, in KiB (`ru_maxrss`): an upper bound on the child's own.
    pub peak_kib: u64,
    /// The peak resident memory of the process that spawned it (the small reporter of
    /// [`serve_measurement`]), in KiB: `peak_kib` may be this figure rather than the
    /// child's, when the child stays below it.
    pub spawner_peak_kib: u64,
}

impl MeasuredRun {
    /// Whether [`MeasuredRun::peak_kib`] is the child's own peak: it is above the
    /// spawner's, which is the most the start-up accounting can add.
    pub fn peak_is_exact(&self) -> bool {
        self.peak_kib > self.spawner_peak_kib
    }

    /// Peak resident memory in MiB (rounded up).
    pub fn peak_mib(&self) -> u64 {
        self.peak_kib.div_ceil(1024)
    }

    /// Whether the run's peak resident memory is at most `limit_mib` MiB, and the
    /// measurement could show otherwise (its spawner is below the limit); the reason
    /// when not.
    ///
    /// # Errors
    /// The text of the failure, for an assertion.
    pub fn check_peak_within(&self, limit_mib: u64) -> Result<(), String> {
        if self.spawner_peak_kib >= limit_mib * 1024 {
            return Err(format!(
                "the measuring process itself peaked at {} KiB, above the limit of \
                 {limit_mib} MiB: the measurement cannot tell",
                self.spawner_peak_kib
            ));
        }
        if self.peak_kib > limit_mib * 1024 {
            return Err(format!(
                "peak resident memory {} KiB ({} MiB) is above {limit_mib} MiB; stderr: {}",
                self.peak_kib,
                self.peak_mib(),
                self.stderr
            ));
        }
        Ok(())
    }

    /// Asserts [`MeasuredRun::check_peak_within`].
    ///
    /// # Panics
    /// When the peak is above the limit, or the measurement cannot tell (a test helper).
    pub fn assert_peak_within(&self, limit_mib: u64) {
        if let Err(failure) = self.check_peak_within(limit_mib) {
            panic!("{failure}");
        }
    }
}

/// [`run_measured`], telling the test's log its flags, status, peak and last line of
/// output (or its error): what a failed check's reader wants first.
///
/// # Errors
/// When the process cannot be started or waited for.
pub fn run_reported(binary: &Path, args: &[&str], input: &[u8]) -> io::Result<MeasuredRun> {
    let run = run_measured(binary, args, input)?;
    eprintln!(
        "{args:?}: status {}, peak {} KiB, {}",
        run.status,
        run.peak_kib,
        run.stdout.lines().last().unwrap_or(run.stderr.trim())
    );
    Ok(run)
}

/// Runs `binary` with `args` on `input` (as `binary ARGS < input` would), collecting its
/// exit status, standard output, standard error and peak resident memory.
///
/// # Errors
/// When the process cannot be started or waited for.
pub fn run_measured(binary: &Path, args: &[&str], input: &[u8]) -> io::Result<MeasuredRun> {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let report = std::env::temp_dir().join(format!(
        "peak-memory-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let mut child = Command::new(std::env::current_exe()?)
        .arg(REPORTER)
        .arg(&report)
        .arg(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let missing = || io::Error::other("a standard stream of the child is missing");
    let mut stdin = child.stdin.take().ok_or_else(missing)?;
    let mut stdout = child.stdout.take().ok_or_else(missing)?;
    let mut stderr = child.stderr.take().ok_or_else(missing)?;
    let (reporter, out, err) = std::thread::scope(|scope| {
        // The child may stop reading (an error on case 1): a failed write is its choice.
        scope.spawn(move || {
            let _ = stdin.write_all(input);
        });
        let out = scope.spawn(move || {
            let mut text = Vec::new();
            stdout.read_to_end(&mut text).map(|_| text)
        });
        let err = scope.spawn(move || {
            let mut text = Vec::new();
            stderr.read_to_end(&mut text).map(|_| text)
        });
        let waited = child.wait();
        let join = |reader: std::thread::ScopedJoinHandle<'_, io::Result<Vec<u8>>>| {
            reader
                .join()
                .map_err(|_| io::Error::other("a reader thread panicked"))?
        };
        let (out, err) = (join(out), join(err));
        waited.map(|reporter| (reporter, out, err))
    })?;
    let figures = std::fs::read_to_string(&report);
    let _ = std::fs::remove_file(&report);
    let figures = figures.map_err(|e| {
        io::Error::other(format!(
            "no report from the measuring process ({e}, {reporter}): does this test \
             binary call serve_measurement first in its main?"
        ))
    })?;
    let mut fields = figures.split_whitespace().map(str::parse::<u64>);
    let (Some(Ok(code)), Some(Ok(peak_kib)), Some(Ok(spawner_peak_kib))) =
        (fields.next(), fields.next(), fields.next())
    else {
        return Err(io::Error::other(format!("unreadable report `{figures}`")));
    };
    Ok(MeasuredRun {
        status: i32::try_from(code).unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out?).into_owned(),
        stderr: String::from_utf8_lossy(&err?).into_owned(),
        peak_kib,
        spawner_peak_kib,
    })
}

/// The argument that makes a test binary the reporter of [`run_measured`].
const REPORTER: &str = "__peak-memory-reporter";

/// In a test binary started by [`run_measured`] (arguments `__peak-memory-reporter REPORT
/// BINARY ARGS...`): runs BINARY with ARGS on this process's standard streams, writes its
/// exit status, its peak resident memory and this process's own peak (KiB) to REPORT, and
/// exits. Otherwise returns at once, and the test binary goes on with its tests.
pub fn serve_measurement() {
    let mut args = std::env::args_os().skip(1);
    if args.next().as_deref() != Some(std::ffi::OsStr::new(REPORTER)) {
        return;
    }
    let (Some(report), Some(binary)) = (args.next(), args.next()) else {
        std::process::exit(101);
    };
    let outcome = Command::new(binary)
        .args(args)
        .spawn()
        .and_then(wait_with_usage)
        .and_then(|usage| {
            // A signal's end is written as a number no exit status is.
            let status = usage
                .status
                .code()
                .and_then(|code| u64::try_from(code).ok())
                .unwrap_or(u64::MAX);
            let peak = usage.peak_kib;
            std::fs::write(&report, format!("{status} {peak} {}\n", own_peak_kib()))
        });
    std::process::exit(i32::from(outcome.is_err()));
}

/// What a finished child used: its exit status, peak resident memory and CPU time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChildUsage {
    /// How it ended.
    pub status: ExitStatus,
    /// Peak resident memory, in KiB (`ru_maxrss`).
    pub peak_kib: u64,
    /// CPU time, user and system, in seconds.
    pub cpu_seconds: f64,
}

/// Waits for `child` (retrying when a signal interrupts the wait) and reads what it used,
/// with `getrusage(RUSAGE_CHILDREN)` through `nix`, without `unsafe`.
///
/// The figures cover every child this process has waited for (the peak is their largest,
/// the CPU time their sum), so they are `child`'s own only in a process that waits for no
/// other child: a small measuring process, as [`serve_measurement`] and `xtask`'s
/// `__measure` are.
///
/// # Errors
/// When waiting fails or the usage cannot be read.
pub fn wait_with_usage(mut child: Child) -> io::Result<ChildUsage> {
    let status = child.wait()?;
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).map_err(io::Error::from)?;
    let seconds = |t: TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 * 1e-6;
    Ok(ChildUsage {
        status,
        peak_kib: u64::try_from(usage.max_rss()).unwrap_or(0),
        cpu_seconds: seconds(usage.user_time()) + seconds(usage.system_time()),
    })
}

/// This process's peak resident memory so far, in KiB: the high-water mark of its own
/// address space (`VmHWM`, which does not count what it was started from, unlike
/// `getrusage`), or `getrusage`'s figure where `/proc` cannot tell.
fn own_peak_kib() -> u64 {
    let from_proc = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
    from_proc.unwrap_or_else(|| match getrusage(UsageWho::RUSAGE_SELF) {
        Ok(usage) => u64::try_from(usage.max_rss()).unwrap_or(u64::MAX),
        Err(_) => u64::MAX, // unknown: no measurement counts as exact
    })
}
