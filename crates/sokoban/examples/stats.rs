//! What the search does on each level of an XSB collection: the answer, the CPU time and
//! the search's counts (`Stats`, through the workspace-only feature `internals`), one line per level, for measuring a
//! change to the search.
//!
//! ```sh
//! cargo run --release -p sokoban --features internals --example stats -- pushes 139 < Microban_155.xsb
//! ```
//!
//! Arguments: the metric (`pushes` or `moves`, default `pushes`), then the levels (`N` or
//! `A-B`, default all), then a time limit per level in seconds (default none).

use std::io::{self, Write};
use std::time::{Duration, Instant};

use sokoban::internals::{
    BallPlan, Frozen, Pruning, PushProof, fewest_pushes, solve_counting_planned, walled,
};
use sokoban::{Bounds, Collection, Metric, Options};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Written through `?`: a closed pipe (`| head`) ends the run with an error, not a panic.
    let mut out = io::stdout().lock();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let metric = match args.first().map(String::as_str) {
        Some("moves") => Metric::Moves,
        _ => Metric::Pushes,
    };
    // `SOKOBAN_PROOF`: `one` (the exact search alone), `first` (the first phase alone,
    // the fewest pushes), `paths` (both phases, the second on the paths of the first),
    // else both phases, the second under the ceiling only.
    let proof = std::env::var("SOKOBAN_PROOF").unwrap_or_default();
    let (first, last) = match args.get(1) {
        Some(range) => {
            let (a, b) = range.split_once('-').unwrap_or((range, range));
            (a.parse()?, b.parse()?)
        }
        None => (1, usize::MAX),
    };
    let mut options = Options {
        metric,
        ..Options::default()
    };
    options.memory_mib = 4096;
    // `SOKOBAN_BOUNDS`: `matching` (the matching on the best sides alone), `sides` (and
    // the player's sides, no pairs), else every bound (`Bounds`).
    match std::env::var("SOKOBAN_BOUNDS").as_deref() {
        Ok("matching") => {
            options.bounds = Bounds {
                player_sides: false,
                pairs: false,
                walks: false,
                ball: false,
            }
        }
        Ok("sides") => options.bounds.pairs = false,
        _ => {}
    }
    // `SOKOBAN_WALKED=off`: no dropping of states walked over (`--metric moves`).
    if std::env::var("SOKOBAN_WALKED").as_deref() == Ok("off") {
        options.walked_over = false;
    }
    // `SOKOBAN_WALKS=off`: no bound on the walks left (`Bounds::walks`).
    if std::env::var("SOKOBAN_WALKS").as_deref() == Ok("off") {
        options.bounds.walks = false;
    }
    // `SOKOBAN_BALL=off`: no backward ball (`Bounds::ball`, `--metric moves`).
    if std::env::var("SOKOBAN_BALL").as_deref() == Ok("off") {
        options.bounds.ball = false;
    }
    // `SOKOBAN_BALL_AFTER`, `_PER`, `_STATES`, `_MIB`: when and how far
    // the ball is built (`BallPlan`).
    let mut plan = BallPlan::default();
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    if let Some(after) = var("SOKOBAN_BALL_AFTER") {
        plan.after = after;
    }
    if let Some(states) = var("SOKOBAN_BALL_STATES") {
        plan.states = states;
    }
    if let Some(per) = var("SOKOBAN_BALL_PER") {
        plan.per_expansion = per;
    }
    if let Some(mib) = var("SOKOBAN_BALL_MIB") {
        plan.bytes = mib << 20;
    }
    if let Some(seconds) = args.get(2) {
        options.time_limit = Some(Duration::from_secs_f64(seconds.parse()?));
    }
    for level in Collection::new(io::stdin().lock(), 1 << 16) {
        let level = level?;
        if level.number() < first || level.number() > last {
            continue;
        }
        // As the binary: the boxes frozen from the start are walls (`SOKOBAN_FROZEN=keep`
        // keeps them boxes).
        let level = match walled(&level) {
            Frozen::Walled(inner) if std::env::var("SOKOBAN_FROZEN").as_deref() != Ok("keep") => {
                inner
            }
            _ => level,
        };
        let started = Instant::now();
        if proof == "first" {
            let (answer, stats) = fewest_pushes(&level, &options, Pruning::PiCorrals);
            writeln!(
                out,
                "{}\t{answer:?}\t{:.2} s\t{stats:?}",
                level.number(),
                started.elapsed().as_secs_f64()
            )?;
            continue;
        }
        let by = match proof.as_str() {
            "one" => PushProof::OneSearch,
            "paths" => PushProof::OnPaths,
            // `within:S`: the first phase on S seconds, as the binary with a time limit.
            within if within.starts_with("within:") => {
                PushProof::FirstWithin(Duration::from_secs_f64(within[7..].parse()?))
            }
            _ => PushProof::Ceiling,
        };
        let (answer, stats) = solve_counting_planned(&level, &options, by, plan);
        let counts = match answer {
            Ok(Some(s)) if s.is_proven() => format!("{} {}", s.pushes(), s.moves()),
            Ok(Some(s)) => format!(
                "unproven: {} {} >= {}",
                s.pushes(),
                s.moves(),
                s.lower_bound()
            ),
            Ok(None) => "-1".to_owned(),
            Err(limit) => format!("unknown: {limit}"),
        };
        writeln!(
            out,
            "{}\t{counts}\t{:.2} s\t{stats:?}",
            level.number(),
            started.elapsed().as_secs_f64()
        )?;
    }
    Ok(())
}
