//! What the finder (`sokoban::finder`) does on each level of an XSB collection: the
//! pushes and moves of the solution it finds (replayed), or why it found none, and the
//! CPU seconds, one line per level, then the count solved; for measuring a change to it.
//!
//! ```sh
//! cargo run --release -p sokoban --features internals --example finder -- 1-90 20 < XSokoban_90.xsb
//! ```
//!
//! Arguments: the levels (`N` or `A-B`, default all), a time limit per level in seconds
//! (default 10), the weights of pushes so far and of the bound (default 0 and 1), the
//! memory in MiB (default 4096), the guide (`matching` or
//! `nearest`), the features (`p` packing, `r` regions, `c` PI-corrals, `y` cycling over the feature cells, `d` corral deadlocks, `g` goal-room macros, `a` the packing advisor, `w` FESS's move weights, `n` the connectivity advisor, `h` the hotspots advisor, `o` the outward packing order, `m` FESS's macro moves, `prcydgawnhom` all, `-` none;
//! default `pr`, as the finder's defaults), the direction (`forward` or `backward`;
//! default `forward`), the most pushes a solution may have (default none).

use std::io::{self, Write};
use std::time::{Duration, Instant};

use sokoban::internals::{Direction, FinderOptions as Options, Guide, find};
use sokoban::{Collection, verify};

/// The CPU time of this thread so far (Linux: the first field of its schedstat); the
/// machine is shared, so wall time says little.
fn cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split(' ').next().and_then(|ns| ns.parse().ok()))
        .map_or(Duration::ZERO, Duration::from_nanos)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Written through `?`: a closed pipe (`| head`) ends the run with an error, not a panic.
    let mut out = io::stdout().lock();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (first, last) = match args.first() {
        Some(range) => {
            let (a, b) = range.split_once('-').unwrap_or((range, range));
            (a.parse()?, b.parse()?)
        }
        None => (1, usize::MAX),
    };
    let number = |i: usize, default: f64| -> Result<f64, std::num::ParseFloatError> {
        args.get(i).map_or(Ok(default), |s| s.parse())
    };
    let limit = Duration::from_secs_f64(number(1, 10.0)?);
    let options = Options {
        g_weight: number(2, 0.0)? as u32,
        h_weight: number(3, 1.0)? as u32,
        memory_bytes: (number(4, 4096.0)? as u64) << 20,
        guide: match args.get(5).map(String::as_str) {
            Some("nearest") => Guide::Nearest,
            _ => Guide::Matching,
        },
        packing: args.get(6).is_none_or(|s| s.contains('p')),
        regions: args.get(6).is_none_or(|s| s.contains('r')),
        outward_packing: args.get(6).is_some_and(|s| s.contains('o')),
        corrals: args.get(6).is_some_and(|s| s.contains('c')),
        cycling: args.get(6).is_some_and(|s| s.contains('y')),
        corral_deadlocks: args.get(6).is_some_and(|s| s.contains('d')),
        goal_rooms: args.get(6).is_some_and(|s| s.contains('g')),
        advisor: args.get(6).is_some_and(|s| s.contains('a')),
        move_weights: args.get(6).is_some_and(|s| s.contains('w')),
        connectivity: args.get(6).is_some_and(|s| s.contains('n')),
        hotspots: args.get(6).is_some_and(|s| s.contains('h')),
        box_moves: args.get(6).is_some_and(|s| s.contains('m')),
        direction: match args.get(7).map(String::as_str) {
            Some("backward") => Direction::Backward,
            _ => Direction::Forward,
        },
        ceiling: args.get(8).map(|s| s.parse()).transpose()?,
    };
    let (mut solved, mut tried) = (0, 0);
    let all = Instant::now();
    for level in Collection::new(io::stdin().lock(), u64::MAX) {
        let level = level?;
        if level.number() < first || level.number() > last {
            continue;
        }
        tried += 1;
        let started = cpu();
        let answer = find(&level, &options, &mut || cpu() - started >= limit);
        let seconds = (cpu() - started).as_secs_f64();
        let what = match &answer {
            Ok(Some(lurd)) => match verify(&level, lurd) {
                Ok(c) => {
                    solved += 1;
                    format!("{} {}", c.pushes, c.moves)
                }
                Err(e) => format!("ILLEGAL {e}"),
            },
            Ok(None) => "-1".to_owned(),
            Err(h) => format!("{h:?}"),
        };
        writeln!(out, "{}\t{what}\t{seconds:.2}", level.number())?;
    }
    writeln!(
        out,
        "solved {solved} of {tried} in {:.1} s",
        all.elapsed().as_secs_f64()
    )?;
    Ok(())
}
