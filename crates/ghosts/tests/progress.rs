#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The figures a progress line shows ([`ghosts::Progress`]) against the answer: while a
//! solve runs, the bound it shows only rises and never passes the answer's bound, and the
//! plan it shows only improves and is never better than the answer's; when the solve
//! ends, they are the answer's. The sum of costs' proof tells each bound once, rising.

mod common;

use std::cell::RefCell;
use std::time::Duration;

use ghosts::{Objective, Options, Progress};
use grid_core::rng::SplitMix64;

use common::random_instance;

/// What the progress said at each event of one solve: (bound, best plan).
type Seen = Vec<(Option<u64>, Option<u64>)>;

#[test]
fn the_progress_closes_in_on_the_answer_and_ends_at_it() {
    let mut rng = SplitMix64::new(4_242);
    let progress = Progress::new();
    let (mut solves, mut bounds_seen, mut plans_seen, mut apart) = (0, 0, 0, 0);
    let mut soc_bounds_told = 0;
    while solves < 160 {
        let side = 6 + rng.below(4);
        let agents = 6 + rng.below(15);
        let walls = [0, 10, 20][rng.below(3)];
        let Some(dataset) = random_instance(&mut rng, side, side, agents, walls, |_| true) else {
            continue;
        };
        for objective in [Objective::Makespan, Objective::SumOfCosts] {
            let seen = RefCell::new(Seen::new());
            let told = RefCell::new(Vec::new());
            let sink = |event: &ghosts::Event| {
                let figures = (progress.lower_bound(), progress.best());
                seen.borrow_mut().push(figures);
                if let ghosts::Event::SocBound { lower_bound, .. } = event {
                    told.borrow_mut().push(*lower_bound);
                }
            };
            let options = Options {
                objective,
                // LaCAM*'s first plans, the search beside the proof on a second thread
                // (the sum of costs), and answers stopped by the limit.
                time_limit: Some(Duration::from_millis(500)),
                threads: std::num::NonZeroUsize::new(2).unwrap(),
                trace: Some(&sink),
                progress: Some(&progress),
                ..Options::default()
            };
            let solution = ghosts::solve(&dataset, &options).unwrap();
            solves += 1;
            assert_eq!(progress.solves(), solves);
            assert!(!progress.is_running());
            let Some(solution) = solution else {
                continue;
            };
            let (bound, cost) = (solution.lower_bound(), solution.cost());
            // The sum of costs' proof tells each bound once, rising, never past the answer's.
            let told = told.into_inner();
            assert!(told.windows(2).all(|w| w[0] < w[1]), "{told:?}");
            assert!(told.iter().all(|&b| b <= bound), "{told:?} {bound}");
            soc_bounds_told += told.len();
            let seen = seen.into_inner();
            for (&(b0, p0), &(b1, p1)) in seen.iter().zip(seen.iter().skip(1)) {
                // The bound only rises and the plan only improves.
                assert!(b0 <= b1 && p0.or(Some(u64::MAX)) >= p1.or(Some(u64::MAX)));
            }
            for &(seen_bound, seen_best) in &seen {
                assert!(seen_bound.is_none_or(|b| b <= bound), "{dataset:?}");
                assert!(seen_best.is_none_or(|p| p >= cost), "{dataset:?}");
                bounds_seen += usize::from(seen_bound.is_some());
                plans_seen += usize::from(seen_best.is_some());
                apart += usize::from(seen_bound.zip(seen_best).is_some_and(|(b, p)| b < p));
            }
            assert_eq!(progress.lower_bound(), Some(bound), "{dataset:?}");
            assert_eq!(progress.best(), Some(cost), "{dataset:?}");
        }
    }
    // The figures were there while the solves ran, not only at their ends.
    assert!(bounds_seen > 120, "{bounds_seen}");
    assert!(plans_seen > 120, "{plans_seen}");
    assert!(apart > 50, "{apart}");
    assert!(soc_bounds_told > 100, "{soc_bounds_told}");
}
