//! Builds a maze in code (an open room with one pillar) and prints the answer under the
//! four keys: fewest pushes, then fewest walks, then the smallest strings.
//!
//! `cargo run -p sokoban-path --example push_box`

use sokoban_path::{Grid, Maze, Options};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A 5 x 6 room with a pillar at (2, 2):
    //   S.....
    //   .B....
    //   ..#...
    //   ......
    //   .....T
    let grid = Grid::new(5, 6, |row, col| (row, col) != (2, 2));
    let maze = Maze::new(grid, (0, 0), (1, 1), (4, 5))?;
    match sokoban_path::solve(&maze, &Options::default())? {
        None => println!("Impossible."),
        Some(solution) => println!(
            "{} ({} pushes, {} walks)",
            solution.moves(),
            solution.pushes(),
            solution.walks()
        ),
    }
    Ok(())
}
