//! One case of each problem through the front door every solver crate shares, from a crate
//! outside the workspace with default features off (no binaries, no clap): parse, solve
//! with the default options, match `Some`/`None`. Exits non-zero if any answer is wrong.

use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    // sokoban-path: fewest pushes, then fewest walks, as one move string.
    let text = "3 4\nS...\n.B..\n...T\n";
    let problem: sokoban_path::Maze = text.parse()?;
    let answer = sokoban_path::solve(&problem, &sokoban_path::Options::default())?;
    match answer {
        Some(solution) => check("sokoban-path", solution.moves(), "eSwsEE")?,
        None => return Err("sokoban-path: proven impossible".into()),
    }

    // sokoban-steps: fewest player steps.
    let text = "4 4\n....\n..*@\n....\n.X..\n";
    let problem: sokoban_steps::Puzzle = text.parse()?;
    let answer = sokoban_steps::solve(&problem, &sokoban_steps::Options::default())?;
    match answer {
        Some(solution) => check("sokoban-steps", solution.steps(), 3)?,
        None => return Err("sokoban-steps: proven impossible".into()),
    }

    // sokoban: an XSB level, fewest pushes then fewest moves (the default metric).
    let text = "; a corridor\n#######\n#@ $ .#\n#######\n";
    let problem: sokoban::Level = text.parse()?;
    let answer = sokoban::solve(&problem, &sokoban::Options::default())?;
    match answer {
        Some(solution) => {
            check("sokoban proven", solution.is_proven(), true)?;
            check(
                "sokoban counts",
                (solution.pushes(), solution.moves()),
                (2, 3),
            )?;
            check("sokoban LURD", solution.lurd(), "rRR")?;
        }
        None => return Err("sokoban: proven unsolvable".into()),
    }

    // ghosts: the first dataset of the official sample (UVa 1601).
    let text = "5 5 2\n#####\n#A#B#\n#   #\n#b#a#\n#####\n";
    let problem: ghosts::Dataset = text.parse()?;
    let answer = ghosts::solve(&problem, &ghosts::Options::default())?;
    match answer {
        Some(solution) => check(
            "ghosts",
            (solution.steps(), solution.is_proven()),
            (7, true),
        )?,
        None => return Err("ghosts: proven unsolvable".into()),
    }

    println!("front door: 4 problems answered through parse, solve, Some/None");
    Ok(())
}

fn check<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want {
        println!("{what}: {got:?}");
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, want {want:?}"))
    }
}
