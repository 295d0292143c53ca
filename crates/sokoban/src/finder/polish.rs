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
//! on the new solution.
//!
//! When a round from the end gains nothing, passes of **stretches** follow ([`stretches`]):
//! the state after push `i` is made a level whose goals are the squares of the boxes after
//! push `i + L`, for `i` = 0, L/2, L, ...; the exact search on it, with the solution's own
//! stretch as its incumbent, gives the cheapest way between the two layouts (or a spliced
//! one), and that stretch, a shortest walk to where the rest's next push starts, and the
//! rest replace the solution when the replay says it is cheaper (the search does not see
//! the walk that joins, so only the replay decides). L is 8 pushes, doubled after each pass
//! that gains nothing, until it passes the solution's pushes; a pass that gained sends the
//! polishing back to a round from the end. Then, with time left, the passes again on
//! boundaries a quarter of a stretch further; it ends after those, or when the time is
//! out.
//!
//! On two threads two polishers work at once ([`Polisher`]): one as above, the other
//! with passes of stretches alone, each from the end of the solution back to its start,
//! so that their searches are of different parts; each offers its gains to the other
//! through a [`SolutionsBeside`] and takes the other's before each search.
//!
//! Why: on XSokoban the exact search of `--metric pushes` often stops on its memory a
//! third of the way into the limit (levels 2, 7, 49, 78 at 16 to 20 s of 60), and the
//! finder's solutions end with walks and detours a search from near the end removes;
//! the rounds from the end then left 20 to 25 s of the 60 unused, and the detours in the
//! middle of the solution in place, which the stretches (YASS's optimiser works on such
//! windows of a solution too) take out.
//!
//! # Complexity
//! Per start or stretch, one exact search within its time and `--memory-mib`, and two
//! replays O(moves x k).

use std::time::{Duration, Instant};

use grid_core::CellId;

use super::replay::walk_letter;
use super::walk::Walker;
use crate::parse::Level;
use crate::search::{BallPlan, PushProof, SolutionsBeside, solve_counting_beside};
use crate::show::positions;
use crate::solution::{Options, Solution};
use crate::verify::{letter_dir, verify};

/// The least time a start's search gets; with less left, the polishing ends.
const START_AT_LEAST: Duration = Duration::from_millis(200);

/// The share of the time left each start's search gets.
const START_SHARE: f64 = 0.25;

/// The pushes of the first stretches searched ([`stretches`]), doubled each pass that
/// gains nothing.
const FIRST_STRETCH: usize = 8;

/// The share of the time left each stretch's search gets: a pass takes several.
const STRETCH_SHARE: f64 = 0.125;

/// How a polisher goes over the solution ([`polish_into`]); two at once go different ways.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Polisher {
    /// Rounds from the end while they gain, then passes of stretches from the start.
    FromTheEnd,
    /// Passes of stretches only, each from the end of the solution back to its start:
    /// beside a polisher [`Polisher::FromTheEnd`], the searches of the two threads are of
    /// different parts of the solution.
    StretchesBack,
}

/// `solution` of `level`, unproven, polished until `deadline` (see the module
/// documentation); as it is when it is proven, or when nothing cheaper comes. With
/// `options.threads` 2 or more, two polishers at once ([`Polisher::FromTheEnd`] and
/// [`Polisher::StretchesBack`]), each on half of `--memory-mib`, taking each other's gains.
pub(crate) fn polish(
    level: &Level,
    options: &Options,
    solution: Solution,
    deadline: Instant,
) -> Solution {
    if solution.is_proven() {
        return solution;
    }
    let shared = SolutionsBeside::new();
    shared.publish_found(solution.lurd());
    if options.threads.get() >= 2 {
        let half = Options {
            memory_mib: options.memory_mib / 2,
            threads: std::num::NonZeroUsize::MIN,
            ..options.clone()
        };
        std::thread::scope(|scope| {
            let back = scope
                .spawn(|| polish_into(level, &half, deadline, &shared, Polisher::StretchesBack));
            polish_into(level, &half, deadline, &shared, Polisher::FromTheEnd);
            // A polisher does not panic; if it did, its gains are in `shared` already.
            let _ = back.join();
        });
    } else {
        polish_into(level, options, deadline, &shared, Polisher::FromTheEnd);
    }
    match shared.found() {
        Some(lurd) => Solution::unproven(lurd, solution.lower_bound()),
        None => solution,
    }
}

/// The solution `shared` holds polished in `order` until `deadline`, each gain offered
/// back to `shared` ([`SolutionsBeside::offer_found`]) and every gain offered there by
/// another polisher taken before each search; nothing when it holds none or one that
/// does not solve `level`.
///
/// Why two: the polish after both threads of a level ran on one of its two cores
/// (XSokoban 2, 6, 7, 49, 78 by pushes: 40 s of a 60 s limit), and with `--metric
/// moves` the finder's thread waited from its solution to the limit.
pub(crate) fn polish_into(
    level: &Level,
    options: &Options,
    deadline: Instant,
    shared: &SolutionsBeside,
    order: Polisher,
) {
    let Some(mut best) = shared
        .found()
        .and_then(|lurd| Best::new(level, options, &lurd))
    else {
        return;
    };
    // From the end: rounds from the end while they gain; then passes of stretches, 8
    // pushes long, then 16, ..., back to the rounds from the end after any pass that
    // gained. Stretches back: the passes alone, back to 8 pushes after a gain.
    let first = match order {
        Polisher::FromTheEnd => 0,
        Polisher::StretchesBack => FIRST_STRETCH,
    };
    let (mut stretch, mut shifted) = (first, false);
    loop {
        let gained = if stretch == 0 {
            from_the_end(level, options, deadline, &mut best, shared)
        } else {
            let pass = Pass {
                length: stretch,
                back: order == Polisher::StretchesBack,
                shifted,
            };
            stretches(level, options, deadline, &mut best, shared, pass)
        };
        if out_of_time(options, deadline) {
            break;
        }
        stretch = match (gained, stretch) {
            (true, _) => first,
            (false, 0) => FIRST_STRETCH,
            (false, s) => s * 2,
        };
        shifted &= !gained;
        best.sync(level, options, shared);
        if stretch > best.pushes {
            if shifted {
                break;
            }
            // Every pass done on these boundaries, with time left: the passes again, on
            // boundaries a quarter of a stretch further (XSokoban 78 by pushes ended
            // 15 s before a 60 s limit with two polishers).
            (stretch, shifted) = (FIRST_STRETCH, true);
        }
    }
    best.sync(level, options, shared);
}

/// One pass of stretches ([`stretches`]).
#[derive(Debug, Clone, Copy)]
struct Pass {
    /// The pushes of each stretch.
    length: usize,
    /// From the end of the solution back to its start.
    back: bool,
    /// Its boundaries a quarter of a stretch further from where it starts.
    shifted: bool,
}

/// The cheapest solution so far, by the metric's order.
struct Best {
    lurd: String,
    cost: [u32; 2],
    pushes: usize,
}

impl Best {
    /// `lurd` and its cost, `None` when it does not solve `level`.
    fn new(level: &Level, options: &Options, lurd: &str) -> Option<Self> {
        let counts = verify(level, lurd).ok()?;
        Some(Best {
            lurd: lurd.to_owned(),
            cost: options.metric.order(counts.pushes, counts.moves),
            pushes: counts.pushes as usize,
        })
    }

    /// Takes `candidate` when it solves `level` and costs less; whether it did.
    fn offer(&mut self, level: &Level, options: &Options, candidate: String) -> bool {
        match Best::new(level, options, &candidate) {
            Some(better) if better.cost < self.cost => {
                *self = better;
                true
            }
            _ => false,
        }
    }

    /// Takes the solution `shared` holds when it is cheaper (another polisher's gain),
    /// and offers this one there.
    fn sync(&mut self, level: &Level, options: &Options, shared: &SolutionsBeside) {
        if let Some(theirs) = shared.found().filter(|theirs| *theirs != self.lurd) {
            self.offer(level, options, theirs);
        }
        shared.offer_found(&self.lurd, options.metric);
    }

    /// The index in `lurd` just after push `j` (0: the start).
    fn after_push(&self, j: usize) -> Option<usize> {
        if j == 0 {
            return Some(0);
        }
        self.lurd
            .char_indices()
            .filter(|(_, c)| c.is_ascii_uppercase())
            .nth(j - 1)
            .map(|(i, _)| i + 1)
    }
}

/// Whether the polishing is over: interrupted, or too little time left for a search.
fn out_of_time(options: &Options, deadline: Instant) -> bool {
    options.interrupted() || deadline.saturating_duration_since(Instant::now()) < START_AT_LEAST
}

/// The exact search on `from` within `share` of the time left, `incumbent` its finder's
/// solution: what it proves, else the incumbent as it left it (spliced with the cheaper
/// ways it reached); `None` when neither.
fn searched(
    from: &str,
    options: &Options,
    deadline: Instant,
    share: f64,
    incumbent: &str,
) -> Option<String> {
    let rows: Vec<&str> = from.lines().collect();
    let from = Level::new("", &rows).ok()?;
    let left = deadline.saturating_duration_since(Instant::now());
    let rest = SolutionsBeside::new();
    rest.publish_found(incumbent);
    let within = Options {
        time_limit: Some(left.mul_f64(share).max(START_AT_LEAST)),
        threads: std::num::NonZeroUsize::MIN,
        ..options.clone()
    };
    let (answer, _) = solve_counting_beside(
        &from,
        &within,
        PushProof::OneSearch,
        BallPlan::default(),
        Some(&rest),
    );
    match answer {
        Ok(Some(s)) => Some(s.lurd().to_owned()),
        _ => rest.found(),
    }
}

/// One round from the end: the state after push `j` made a level, searched with the
/// rest as its incumbent, `j` 1, 2, 4, ... pushes before the end; whether it gained.
fn from_the_end(
    level: &Level,
    options: &Options,
    deadline: Instant,
    best: &mut Best,
    shared: &SolutionsBeside,
) -> bool {
    let (mut back, mut gained) = (1, false);
    // From the start is the level itself, searched already.
    while back < best.pushes && !out_of_time(options, deadline) {
        best.sync(level, options, shared);
        let Some(j) = best.pushes.checked_sub(back).filter(|&j| j > 0) else {
            break;
        };
        back *= 2;
        let states = positions(level, &best.lurd);
        let (Some((_, _, boxes, player)), Some(at)) = (states.get(j), best.after_push(j)) else {
            break;
        };
        let drawn = level.draw(boxes, *player);
        let Some(rest) = searched(&drawn, options, deadline, START_SHARE, &best.lurd[at..]) else {
            continue;
        };
        let candidate = format!("{}{rest}", &best.lurd[..at]);
        if best.offer(level, options, candidate) {
            gained = true;
            shared.offer_found(&best.lurd, options.metric);
        }
    }
    gained
}

/// One pass of stretches of `pass.length` pushes, overlapping by half, from the start (or
/// from the end back to the start, [`Pass`]): the state after push `i` made a level
/// whose goals are the boxes after push `i + length`, searched with the solution's own
/// stretch as its incumbent; the stretch found, a walk to where the rest's next push
/// starts, and the rest, kept when cheaper. Whether it gained.
///
/// Why: a round from the end does not reach the middle of a long solution (its starts
/// far back get a quarter of the time each and stop), where the finder's detours are too.
fn stretches(
    level: &Level,
    options: &Options,
    deadline: Instant,
    best: &mut Best,
    shared: &SolutionsBeside,
    pass: Pass,
) -> bool {
    let grid = level.grid();
    let mut walker = Walker::new(grid.cell_count());
    let mut gained = false;
    let (length, back) = (pass.length, pass.back);
    let offset = if pass.shifted { length / 4 } else { 0 };
    // The next stretch's first push; `None` once the pass is over.
    let mut next = Some(if back {
        best.pushes.saturating_sub(length + offset)
    } else {
        offset
    });
    while let Some(at) = next {
        if out_of_time(options, deadline) {
            break;
        }
        best.sync(level, options, shared);
        let Some(last) = best.pushes.checked_sub(length) else {
            break;
        };
        // Another polisher's gain may have shortened the solution under this pass.
        let (i, step) = (at.min(last), (length / 2).max(1));
        next = match back {
            true => i.checked_sub(1).map(|_| i.saturating_sub(step)),
            false => Some(i + step).filter(|&n| n <= last),
        };
        let j = i + length;
        let states = positions(level, &best.lurd);
        let (Some(start), Some(end), Some(from), Some(to)) = (
            states.get(i),
            states.get(j),
            best.after_push(i),
            best.after_push(j),
        ) else {
            break;
        };
        let mut goals = end.2.clone();
        goals.sort_unstable();
        let drawn = level.draw_towards(&start.2, start.3, &goals);
        let incumbent = best.lurd[from..to].to_owned();
        let Some(found) = searched(&drawn, options, deadline, STRETCH_SHARE, &incumbent) else {
            continue;
        };
        // The rest's walk to its next push, from where the stretch found ends.
        let rest = &best.lurd[to..];
        let (walk, pushed) = rest.split_at(
            rest.find(|c: char| c.is_ascii_uppercase())
                .unwrap_or(rest.len()),
        );
        let (Some(ended), Some(next)) =
            (walked(level, start.3, &found), walked(level, end.3, walk))
        else {
            continue;
        };
        let mut occupied = vec![false; grid.cell_count()];
        for b in &end.2 {
            occupied[b.index()] = true;
        }
        walker.run(grid, &occupied, ended);
        if !walker.reached(next) {
            continue;
        }
        let mut steps = Vec::new();
        walker.walk_to(grid, next, &mut steps);
        let joined: String = steps.iter().map(|&d| char::from(walk_letter(d))).collect();
        let candidate = format!("{}{found}{joined}{pushed}", &best.lurd[..from]);
        if best.offer(level, options, candidate) {
            gained = true;
            shared.offer_found(&best.lurd, options.metric);
        }
    }
    gained
}

/// Where the player on `from` ends after the moves of `lurd` (pushes move it too), on
/// the level's floor; `None` when a move leaves it.
fn walked(level: &Level, from: CellId, lurd: &str) -> Option<CellId> {
    lurd.chars().try_fold(from, |at, c| {
        let (dir, _) = letter_dir(c)?;
        level.grid().neighbour(at, dir)
    })
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;
    use std::time::{Duration, Instant};

    use super::{Best, Pass, polish, stretches};
    use crate::generate::{detoured, with_finder_solutions};
    use crate::search::SolutionsBeside;
    use crate::solution::{Metric, Options, Solution};
    use crate::verify::verify;

    /// The finder's solutions of generated levels, polished: legal, never dearer by the
    /// metric's order, never below the optimum, their lower bound kept, some cheaper.
    #[test]
    fn a_polished_solution_is_legal_no_dearer_and_keeps_its_bound() {
        for (seed, metric, threads) in [
            (31, Metric::Pushes, 1),
            (32, Metric::Moves, 1),
            (37, Metric::Pushes, 2),
            (38, Metric::Moves, 2),
        ] {
            let options = Options {
                metric,
                threads: NonZeroUsize::new(threads).unwrap(),
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
                "{metric:?}, {threads} threads: {levels} levels, {cheaper} cheaper"
            );
        }
    }

    /// A detour of two walks put after the middle push of a solution is taken out by a
    /// pass of stretches two pushes long, from the start or from the end: the stretch
    /// after that push, searched on its own, is cheaper by the detour. The result is
    /// legal, cheaper than the detoured solution and never below the optimum.
    #[test]
    fn a_pass_of_stretches_takes_out_a_detour_in_the_middle() {
        for (seed, metric, back) in [
            (33, Metric::Pushes, false),
            (34, Metric::Moves, false),
            (35, Metric::Pushes, true),
            (36, Metric::Moves, true),
        ] {
            let options = Options {
                metric,
                ..Options::default()
            };
            let cases = with_finder_solutions(seed, 400, &options);
            let (mut detoured_cases, mut cheaper) = (0, 0);
            for (level, optimum, found) in &cases {
                let pushes = verify(level, found).unwrap().pushes as usize;
                if pushes < 3 {
                    continue;
                }
                let Some(detoured) = detoured(level, found, pushes / 2) else {
                    continue;
                };
                detoured_cases += 1;
                let mut best = Best::new(level, &options, &detoured).unwrap();
                let before = best.cost;
                let deadline = Instant::now() + Duration::from_secs(5);
                let shared = SolutionsBeside::new();
                let pass = Pass {
                    length: 2,
                    back,
                    shifted: false,
                };
                stretches(level, &options, deadline, &mut best, &shared, pass);
                assert_eq!(shared.found(), Some(best.lurd.clone()), "offered");
                let after = verify(level, &best.lurd).unwrap();
                let after = metric.order(after.pushes, after.moves);
                let n = level.number();
                assert_eq!(after, best.cost, "level {n}");
                assert!(after <= before, "level {n}");
                assert!(
                    after >= metric.order(optimum.pushes(), optimum.moves()),
                    "level {n}"
                );
                cheaper += usize::from(after < before);
            }
            assert!(
                detoured_cases >= 30 && cheaper == detoured_cases,
                "{metric:?}, back {back}: {cheaper} of {detoured_cases} detours taken out"
            );
        }
    }

    /// A polisher takes the cheaper solution another offered (and offers its own when
    /// it is the cheaper): two polishers at once never undo each other's gains.
    #[test]
    fn a_polisher_takes_the_cheaper_solution_another_offered() {
        let options = Options::default();
        let cases = with_finder_solutions(39, 200, &options);
        let mut dearer = 0;
        for (level, optimum, found) in &cases {
            let counts = verify(level, found).unwrap();
            if (counts.pushes, counts.moves) == (optimum.pushes(), optimum.moves()) {
                continue;
            }
            dearer += 1;
            let shared = SolutionsBeside::new();
            let mut best = Best::new(level, &options, optimum.lurd()).unwrap();
            shared.publish_found(found);
            best.sync(level, &options, &shared);
            let n = level.number();
            assert_eq!(best.lurd, optimum.lurd(), "level {n}: its own kept");
            assert_eq!(shared.found().as_deref(), Some(optimum.lurd()), "level {n}");
            let mut theirs = Best::new(level, &options, found).unwrap();
            theirs.sync(level, &options, &shared);
            assert_eq!(theirs.lurd, optimum.lurd(), "level {n}: the other's taken");
        }
        assert!(
            dearer >= 10,
            "{dearer} finder's solutions dearer than the optimum"
        );
    }
}
