//! Builds a puzzle in code (a room split by a wall with one gap) and prints the fewest
//! player steps and the smallest optimal step sequence.
//!
//! `cargo run -p sokoban-steps --example fewest_steps`

use sokoban_steps::{Grid, Options, Puzzle};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A 6 x 6 room; column 3 is wall except at row 4:
    //   ...#..
    //   .*.#..
    //   ...#..
    //   ...#.@
    //   X.....
    //   ...#..
    let grid = Grid::new(6, 6, |row, col| col != 3 || row == 4);
    let puzzle = Puzzle::new(grid, (4, 0), (1, 1), (3, 5))?;
    let options = Options {
        path: true,
        ..Options::default()
    };
    match sokoban_steps::solve(&puzzle, &options)? {
        None => println!("-1"),
        Some(solution) => {
            println!("fewest steps: {}", solution.steps());
            if let Some(path) = solution.path() {
                println!("path: {path}");
            }
        }
    }
    println!("\nthe puzzle in the input format:\n{}", puzzle.to_text());
    Ok(())
}
