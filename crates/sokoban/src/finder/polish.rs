//! An unproven solution polished in the time a level has left: the exact search run again
//! from states along the solution, each time from further back, and the rest of the
//! solution from there replaced by what that search proves or reaches.
//!
//! # Method
//! The state after push `j` of the solution is a level of its own (the same floor and
//! goals, the boxes and the player where they are then). The exact search on it, given
//! the rest of the solution as the finder's solution ([`SolutionsBeside`]), either proves
//! the cheapest rest by the metric's order, or stops on its share of the time and leaves
//! the rest spliced with the cheaper ways it reached to the rest's layouts
//! (`search::spliced`). The solution's first `j` pushes followed by that rest is legal;
//! it is kept when the replay says it is cheaper. The starts go back from the last push,
//! twice as far each time (1, 2, 4, ... pushes before the end), each search on a quarter
//! of the time left: near the end the searches are small and prove their rests, further
//! back they improve the rests' beginnings. A round that gained is followed by another
//! on the new solution, until one gains nothing or the time is out.
//!
//! Why: on XSokoban the exact search of `--metric pushes` often stops on its memory a
//! third of the way into the limit (levels 2, 7, 49, 78 at 16 to 20 s of 60), and the
//! finder's solutions end with walks and detours a search from near the end removes.
//!
//! # Complexity
//! Per start, one exact search within its time and `--memory-mib`, and two replays
//! O(moves x k).

use std::time::{Duration, Instant};

use crate::parse::Level;
use crate::search::{BallPlan, PushProof, SolutionsBeside, solve_counting_beside};
use crate::show::positions;
use crate::solution::{Options, Solution};
use crate::verify::verify;

/// The least time a start's search gets; with less left, the polishing ends.
const START_AT_LEAST: Duration = Duration::from_millis(200);

/// The share of the time left each start's search gets.
const START_SHARE: f64 = 0.25;

/// `solution` of `level`, unproven, polished until `deadline` (see the module
/// documentation); as it is when it is proven, or when nothing cheaper comes.
pub(crate) fn polish(
    level: &Level,
    options: &Options,
    solution: Solution,
    deadline: Instant,
) -> Solution {
    if solution.is_proven() {
        return solution;
    }
    let cost = |lurd: &str| {
        verify(level, lurd)
            .ok()
            .map(|c| options.metric.order(c.pushes, c.moves))
    };
    let mut lurd = solution.lurd().to_owned();
    let Some(mut best) = cost(&lurd) else {
        return solution;
    };
    let (mut back, mut gained) = (1, false);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if options.interrupted() || left < START_AT_LEAST {
            break;
        }
        let states = positions(level, &lurd);
        let pushes = states.len().saturating_sub(1);
        // From the start is the level itself, searched already: the round is over, and
        // another begins from the end while the last one gained.
        if back >= pushes {
            if !gained {
                break;
            }
            (back, gained) = (1, false);
            continue;
        }
        let j = pushes - back;
        back *= 2;
        let (_, _, boxes, player) = &states[j];
        let drawn = level.draw(boxes, *player);
        let rows: Vec<&str> = drawn.lines().collect();
        let Ok(from_here) = Level::new("", &rows) else {
            break;
        };
        // The letters after push j.
        let Some(at) = lurd
            .char_indices()
            .filter(|(_, c)| c.is_ascii_uppercase())
            .nth(j - 1)
            .map(|(i, _)| i + 1)
        else {
            break;
        };
        let rest = SolutionsBeside::new();
        rest.publish_found(&lurd[at..]);
        let within = Options {
            time_limit: Some(left.mul_f64(START_SHARE).max(START_AT_LEAST)),
            threads: std::num::NonZeroUsize::MIN,
            ..options.clone()
        };
        let (answer, _) = solve_counting_beside(
            &from_here,
            &within,
            PushProof::OneSearch,
            BallPlan::default(),
            Some(&rest),
        );
        let Some(rest) = (match answer {
            Ok(Some(s)) => Some(s.lurd().to_owned()),
            _ => rest.found(),
        }) else {
            continue;
        };
        let candidate = format!("{}{rest}", &lurd[..at]);
        if let Some(c) = cost(&candidate).filter(|&c| c < best) {
            best = c;
            lurd = candidate;
            gained = true;
        }
    }
    Solution::unproven(lurd, solution.lower_bound())
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::polish;
    use crate::generate::with_finder_solutions;
    use crate::solution::{Metric, Options, Solution};
    use crate::verify::verify;

    /// The finder's solutions of generated levels, polished: legal, never dearer by the
    /// metric's order, never below the optimum, their lower bound kept, some cheaper.
    #[test]
    fn a_polished_solution_is_legal_no_dearer_and_keeps_its_bound() {
        for (seed, metric) in [(31, Metric::Pushes), (32, Metric::Moves)] {
            let options = Options {
                metric,
                ..Options::default()
            };
            let ordered = |pushes: u32, moves: u32| metric.order(pushes, moves);
            let cases = with_finder_solutions(seed, 150, &options);
            let mut cheaper = 0;
            for (level, optimum, found) in &cases {
                let before = verify(level, found).unwrap();
                let deadline = Instant::now() + Duration::from_secs(5);
                let unproven = Solution::unproven(found.clone(), 1);
                let polished = polish(level, &options, unproven, deadline);
                assert!(!polished.is_proven());
                assert_eq!(polished.lower_bound(), 1);
                let after = verify(level, polished.lurd()).unwrap();
                let (before, after) = (
                    ordered(before.pushes, before.moves),
                    ordered(after.pushes, after.moves),
                );
                let n = level.number();
                assert!(after <= before, "level {n}");
                assert!(
                    after >= ordered(optimum.pushes(), optimum.moves()),
                    "level {n}"
                );
                cheaper += usize::from(after < before);
            }
            // Few: on these small levels the finder's solutions are mostly optimal, or
            // lose their moves before the first push, where no start is taken (the whole
            // level is the exact search's own).
            let levels = cases.len();
            assert!(
                levels >= 60 && cheaper >= 2,
                "{metric:?}: {levels} levels, {cheaper} cheaper"
            );
        }
    }
}
