//! One program run as a whole process, with its wall time, CPU time and peak resident
//! memory: what every bench row is made of.
//!
//! The peak comes from `getrusage(RUSAGE_CHILDREN)`'s `ru_maxrss` (test-support's
//! `wait_with_usage`, through nix), which also counts the address space of whoever spawned
//! the program, up to its `exec`, and every other child waited for; the bench itself holds
//! every workload in memory, so the program is spawned by a small helper process (this
//! binary again, as `xtask __measure`) that waits for it alone and prints the figures.

use std::fs::File;
use std::os::unix::process::ExitStatusExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Wall time, CPU time and peak resident memory of one whole-process run, and how it ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measure {
    /// Wall seconds.
    pub seconds: f64,
    /// Peak resident memory in KiB.
    pub peak_kib: i64,
    /// User plus system CPU time in seconds: what a loaded machine does not inflate much.
    pub cpu_seconds: f64,
    /// The raw wait status (`0`: exited with status 0; a signal in the low 7 bits).
    pub status: i32,
}

impl Measure {
    /// Peak resident memory in MiB.
    pub fn peak_mib(&self) -> f64 {
        self.peak_kib as f64 / 1024.0
    }
}

/// Runs `program` with `args` once, standard input from `input` and standard output to
/// `output`, and measures it; an error when it does not exit with status 0: its standard
/// error, then `PROGRAM failed on INPUT (status S)` with S the raw wait status.
pub fn measure(
    program: &Path,
    args: &[&str],
    input: &Path,
    output: &Path,
) -> Result<Measure, String> {
    let (m, stderr) = measure_any(program, args, input, output)?;
    if m.status == 0 {
        Ok(m)
    } else {
        Err(format!(
            "{stderr}{} failed on {} (status {})",
            program.display(),
            input.display(),
            m.status
        ))
    }
}

/// [`measure`] whatever the exit status, with the program's standard error: the error is
/// only for a run that could not be measured (the helper or the program did not start).
pub fn measure_any(
    program: &Path,
    args: &[&str],
    input: &Path,
    output: &Path,
) -> Result<(Measure, String), String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let report = Command::new(me)
        .arg("__measure")
        .arg(program)
        .arg(input)
        .arg(output)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run the measuring helper: {e}"))?;
    let text = String::from_utf8_lossy(&report.stdout);
    let stderr = String::from_utf8_lossy(&report.stderr).into_owned();
    if !report.status.success() {
        return Err(format!("{text}{stderr}"));
    }
    let m = parse_report(&text).ok_or_else(|| format!("unreadable measurement `{text}`"))?;
    Ok((m, stderr))
}

/// The helper's line: `SECONDS KIB CPU_SECONDS STATUS`.
fn parse_report(text: &str) -> Option<Measure> {
    let mut fields = text.split_whitespace();
    let mut next = || fields.next().and_then(|f| f.parse::<f64>().ok());
    let (seconds, kib, cpu_seconds, status) = (next()?, next()?, next()?, next()?);
    Some(Measure {
        seconds,
        peak_kib: kib as i64,
        cpu_seconds,
        status: status as i32,
    })
}

/// `xtask __measure PROGRAM INPUT OUTPUT [ARGS]`: runs PROGRAM once, stdin from INPUT and
/// stdout to OUTPUT, and prints its wall time in seconds, its peak memory in KiB, its CPU
/// time (user + system) in seconds and its raw wait status.
pub fn measure_child(
    program: &Path,
    input: &Path,
    output: &Path,
    args: &[String],
) -> Result<(), String> {
    let (program_name, input_name) = (program.display(), input.display());
    let stdin = File::open(input).map_err(|e| format!("{input_name}: {e}"))?;
    let stdout = File::create(output).map_err(|e| format!("{}: {e}", output.display()))?;
    let started = Instant::now();
    let child = Command::new(program)
        .args(args)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .spawn()
        .map_err(|e| format!("cannot start {program_name}: {e}"))?;
    let usage = test_support::peak_memory::wait_with_usage(child)
        .map_err(|e| format!("cannot wait for {program_name}: {e}"))?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{seconds} {} {} {}",
        usage.peak_kib,
        usage.cpu_seconds,
        usage.status.into_raw()
    );
    Ok(())
}

/// The median of `values` (the upper one of an even count); NaN when there are none.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_helper_line_is_read_back() {
        let m = parse_report("0.5 2048 0.25 256\n");
        assert_eq!(
            m,
            Some(Measure {
                seconds: 0.5,
                peak_kib: 2048,
                cpu_seconds: 0.25,
                status: 256
            })
        );
        assert_eq!(parse_report("0.5 2048 0.25"), None);
    }

    #[test]
    fn the_median_is_the_middle_value() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert!(median(Vec::new()).is_nan());
    }
}
