//! The binary's progress line: the figures of [`Progress`] redrawn on standard error for a
//! person watching a terminal, and wiped before anything is written to standard output.
//!
//! Why in the library: what the line says of a solve is tested here; the line itself, and
//! the rule that keeps it apart from the answers (every write of an answer first wipes
//! it, under the same lock it is drawn under), are `grid_core::progress`'s.
//!
//! # Complexity
//! O(1) per redraw.

use std::io::Write;
use std::time::{Duration, Instant};

use grid_core::progress::{Line, QUIET_FOR, Wiping};

use crate::mapf::Objective;
use crate::progress::Progress;

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
    /// The line itself, drawn on standard error.
    line: Line<E>,
}

impl<'p, E: Write> ProgressLine<'p, E> {
    /// The line of `progress`'s solves on `objective` (`datasets`: numbered), drawn on
    /// `errors`; nothing drawn yet.
    pub fn new(progress: &'p Progress, objective: Objective, datasets: bool, errors: E) -> Self {
        ProgressLine {
            progress,
            objective,
            datasets,
            line: Line::new(errors),
        }
    }

    /// Redraws the line four times a second while a solve that started more than a
    /// second ago is under way (wiped between solves), until [`ProgressLine::end`]; then
    /// wipes it. Run it on a thread of its own, and unpark that thread after `end` to
    /// end at once.
    pub fn keep(&self) {
        let (mut seen, mut since) = (0, Instant::now());
        self.line.keep(|run| {
            let solves = self.progress.solves();
            if solves != seen {
                (seen, since) = (solves, Instant::now());
            }
            let running = self.progress.is_running();
            if self.datasets {
                // Many quick datasets make a long run too: the run's seconds count.
                (run >= QUIET_FOR).then(|| self.text(solves, run, running))
            } else {
                let shown = running && since.elapsed() >= QUIET_FOR;
                shown.then(|| self.text(solves, since.elapsed(), running))
            }
        });
    }

    /// Tells [`ProgressLine::keep`] to wipe the line and return.
    pub fn end(&self) {
        self.line.end();
    }

    /// `output` that wipes the line before every write.
    pub fn wiping<W: Write>(&self, output: W) -> Wiping<'_, W, E> {
        self.line.wiping(output)
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid_core::progress::WIPE;
    use test_support::Terminal;

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
        line.line.draw(&text);
        let mut output = line.wiping(terminal.clone());
        writeln!(output, "unproven: 1763 >= 1757").unwrap();
        line.line.draw(&text);
        line.line.clear();
        line.line.clear();
        assert_eq!(terminal.shown(), ["unproven: 1763 >= 1757", ""]);
        let written = terminal.written();
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
