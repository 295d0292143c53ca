//! Builds a dataset in code (two ghosts that must trade places in a corridor with one
//! pocket) and prints the fewest steps and the plan.
//!
//! `cargo run -p ghosts --example corridor`

use ghosts::{Dataset, Grid, Options};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Row 1 is a corridor, row 2 has one pocket below column 3:
    //   #######
    //   #a   b#
    //   ### ###
    //   #######
    let pocket = (2, 3);
    let grid = Grid::new(4, 7, |row, col| {
        (row == 1 && (1..=5).contains(&col)) || (row, col) == pocket
    });
    // Ghost a goes from the left end to the right end, ghost b the other way.
    let dataset = Dataset::new(grid, &[(1, 1), (1, 5)], &[(1, 5), (1, 1)])?;
    let options = Options {
        plan: true,
        ..Options::default()
    };
    match ghosts::solve(&dataset, &options)? {
        None => println!("the ghosts can never all be home"),
        Some(solution) => {
            println!("fewest steps: {}", solution.steps());
            let grid = dataset.grid();
            for (step, placement) in solution.plan().into_iter().flatten().enumerate() {
                let cells: Vec<String> = placement
                    .iter()
                    .map(|&cell| format!("{:?}", grid.position(cell)))
                    .collect();
                println!("after step {}: {}", step + 1, cells.join(" "));
            }
        }
    }
    Ok(())
}
