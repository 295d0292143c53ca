//! The search's figures so far, for whoever shows them while it runs: how many solves
//! have started, the proven lower bound and the best plan's cost of the current one.
//!
//! Why a type of its own rather than the [`crate::Event`] trace: the trace is told on the
//! solve's own thread, while a progress line is redrawn on a timer from another thread,
//! and the sum of costs' plan improves on a thread beside the proof, which tells no
//! event until the proof ends. So the figures are atomics, written from any thread of
//! the solve and read from any other (the binary redraws them on standard error when it
//! is a terminal: `src/main.rs`). The front door turns the traced events into figures
//! (`solve::observe`); the sum of costs' proof and the search beside it tell theirs here
//! directly. At the bottom of the module ladder: it knows nothing of the searches.
//!
//! # Complexity
//! O(1) per update and per read.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// The figures of the solve under way ([`crate::Options::progress`]).
///
/// ```
/// let progress = ghosts::Progress::new();
/// let problem: ghosts::Dataset = "5 3 1\n#####\n#a A#\n#####\n".parse()?;
/// let options = ghosts::Options { progress: Some(&progress), ..Default::default() };
/// ghosts::solve(&problem, &options)?;
/// assert_eq!(progress.solves(), 1);
/// assert!(!progress.is_running());
/// assert_eq!((progress.lower_bound(), progress.best()), (Some(2), Some(2)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Progress {
    /// Solves started.
    solves: AtomicU64,
    /// Whether the last one is still under way.
    running: AtomicBool,
    /// The proven lower bound plus one (0: none yet).
    bound: AtomicU64,
    /// The best plan's cost (`u64::MAX`: none yet).
    best: AtomicU64,
}

impl Progress {
    /// No solve started, no bound, no plan.
    pub const fn new() -> Self {
        Progress {
            solves: AtomicU64::new(0),
            running: AtomicBool::new(false),
            bound: AtomicU64::new(0),
            best: AtomicU64::new(u64::MAX),
        }
    }

    /// Solves started so far (the current one is the last).
    pub fn solves(&self) -> u64 {
        self.solves.load(Relaxed)
    }

    /// Whether the last solve started is still under way.
    pub fn is_running(&self) -> bool {
        self.running.load(Relaxed)
    }

    /// The current solve's proven lower bound on its objective, if any yet.
    pub fn lower_bound(&self) -> Option<u64> {
        self.bound.load(Relaxed).checked_sub(1)
    }

    /// The cost (on the objective solved) of the current solve's best plan, if any yet.
    pub fn best(&self) -> Option<u64> {
        Some(self.best.load(Relaxed)).filter(|&cost| cost != u64::MAX)
    }

    /// A new solve: one more started, its bound and plan not known yet.
    pub(crate) fn start(&self) {
        self.bound.store(0, Relaxed);
        self.best.store(u64::MAX, Relaxed);
        self.solves.fetch_add(1, Relaxed);
        self.running.store(true, Relaxed);
    }

    /// The solve is over (answered or not).
    pub(crate) fn stop(&self) {
        self.running.store(false, Relaxed);
    }

    /// The lower bound is proved to be at least `bound`.
    pub(crate) fn bound_at_least(&self, bound: u64) {
        self.bound.fetch_max(bound.saturating_add(1), Relaxed);
    }

    /// A plan of cost `cost` was found.
    pub(crate) fn plan_of(&self, cost: u64) {
        self.best.fetch_min(cost, Relaxed);
    }
}
