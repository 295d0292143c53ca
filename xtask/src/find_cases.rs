//! `cargo xtask find-cases`: searches that find interesting cases for testdata and the
//! tests. A search is a tool, not a test (a test asserts; these print what they find), so
//! they live here rather than as `#[ignore]`d tests.
//!
//! Each search draws small random mazes from a seed, so a case found is found again with
//! the same seed and round on every machine; the tests then hold the case itself.

#[path = "../../crates/sokoban-path/tests/support/queue_order.rs"]
mod queue_order;

use clap::{Args, Subcommand};
use grid_core::rng::SplitMix64;
use sokoban_path::{Maze, Options, Solution, generate};

use queue_order::{acwing, box_revisits, key, queue_order};

/// What to search for.
#[derive(Debug, Subcommand)]
pub enum Search {
    /// A sokoban-path maze where the queue-order tie-break of the widely copied AcWing 174
    /// solution prints another string than the spec's key 3 (the case of the test
    /// `queue_order_differs_from_key_3`).
    Acwing(Rounds),
    /// sokoban-path mazes for the spec's pitfalls: a box that revisits a cell, and a maze
    /// where keeping the first way into a state keeps more walks (the testdata cases
    /// `pitfall-*.in`).
    Pitfalls(Rounds),
}

/// How long a search looks.
#[derive(Debug, Args)]
pub struct Rounds {
    /// The seed of the random mazes.
    #[arg(long)]
    seed: Option<u64>,
    /// Mazes to try before giving up.
    #[arg(long, default_value_t = 200_000)]
    rounds: usize,
}

/// Runs `search`, printing each case found (round, maze, answers).
///
/// # Errors
/// When nothing is found within the rounds.
pub fn run(search: Search) -> Result<(), String> {
    match search {
        Search::Acwing(rounds) => acwing_difference(rounds.seed.unwrap_or(1997), rounds.rounds),
        Search::Pitfalls(rounds) => pitfalls(rounds.seed.unwrap_or(1475), rounds.rounds),
    }
}

fn parse(text: &str) -> Result<Maze, String> {
    text.parse::<Maze>()
        .map_err(|e| format!("a generated maze does not parse: {e}\n{text}"))
}

fn solve(maze: &Maze) -> Result<Option<Solution>, String> {
    sokoban_path::solve(maze, &Options::default()).map_err(|e| e.to_string())
}

fn acwing_difference(seed: u64, rounds: usize) -> Result<(), String> {
    let mut rng = SplitMix64::new(seed);
    for round in 0..rounds {
        let (rows, cols) = (rng.between(2, 7), rng.between(2, 7));
        let text = generate::random_maze(&mut rng, rows, cols, [0, 5, 10, 20][round % 4]);
        let maze = parse(&text)?;
        let (Some(ours), Some(theirs)) = (solve(&maze)?, acwing(&maze)) else {
            continue;
        };
        if key(ours.moves()).2 != key(&theirs).2 {
            println!(
                "round {round}\n{text}ours   {}\ntheirs {theirs}",
                ours.moves()
            );
            return Ok(());
        }
    }
    Err(format!("no difference in {rounds} rounds from seed {seed}"))
}

fn pitfalls(seed: u64, rounds: usize) -> Result<(), String> {
    let mut rng = SplitMix64::new(seed);
    let (mut revisit, mut first_way) = (false, false);
    for round in 0..rounds {
        let (rows, cols) = (rng.between(2, 6), rng.between(2, 6));
        let text = generate::random_maze(&mut rng, rows, cols, [10, 20, 30][round % 3]);
        let maze = parse(&text)?;
        let Some(ours) = solve(&maze)? else { continue };
        if !revisit && box_revisits(&maze, ours.moves()) && ours.pushes() < 12 {
            println!("box revisits a cell, round {round}\n{text}{}", ours.moves());
            revisit = true;
        }
        if !first_way {
            if let Some(kept) = queue_order(&maze, false) {
                if key(&kept).1 > key(ours.moves()).1 {
                    println!(
                        "the first way in keeps more walks, round {round}\n{text}{} vs {kept}",
                        ours.moves()
                    );
                    first_way = true;
                }
            }
        }
        if revisit && first_way {
            return Ok(());
        }
    }
    Err(format!(
        "after {rounds} rounds from seed {seed}: box revisit {}, first-way pitfall {}",
        if revisit { "found" } else { "not found" },
        if first_way { "found" } else { "not found" }
    ))
}
