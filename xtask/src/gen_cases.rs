//! `cargo xtask gen PROBLEM [FLAGS]`: seeded random cases on standard output, from the
//! generators the solver crates expose (the same ones their tests and the bench use).

use ghosts::generate::{Density, Keep, Layout, LayoutSpec, MapSpec};

use clap::{Args, Subcommand, ValueEnum};

/// The problem to generate cases for.
#[derive(Debug, Subcommand)]
pub enum Problem {
    /// Ghosts datasets: by default carved maps that keep the statement's promises (wall
    /// border, connected corridors and walls, a wall in every 2 x 2), where a dataset that
    /// --solvable or --answers refuses is drawn again; --style picks the many-ghost layouts
    /// (pillar rooms, mazes, corridors with pockets) for up to 26 ghosts.
    Ghosts(GhostsArgs),
    /// Pushing Boxes mazes.
    SokobanPath(SokobanPathArgs),
    /// Single-box Sokoban boards (one case: the format holds one).
    SokobanSteps(SokobanStepsArgs),
}

/// `gen ghosts`.
#[derive(Debug, Args)]
pub struct GhostsArgs {
    /// The seed: the same seed gives the same cases on every machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many datasets.
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// Width x height of every map.
    #[arg(long, value_name = "WxH", default_value = "16x16", value_parser = size)]
    size: Size,
    /// Ghosts per map (1 to 26).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=26))]
    ghosts: u8,
    /// The kind of map.
    #[arg(long, value_enum, default_value_t = StyleArg::Carved)]
    style: StyleArg,
    /// How much of the map is corridor (--style carved).
    #[arg(long, value_enum, default_value_t = DensityArg::Dense)]
    density: DensityArg,
    /// Percent of the datasets, spread evenly, that get a corridor without pockets and
    /// answer -1 (--style pockets).
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u32).range(0..=100))]
    blocked: u32,
    /// Keep only datasets with a solution (--style carved).
    #[arg(long, conflicts_with = "answers")]
    solvable: bool,
    /// Keep only datasets whose fewest steps lie in MIN..=MAX (--style carved).
    #[arg(long, value_name = "MIN-MAX", value_parser = answers)]
    answers: Option<std::ops::RangeInclusive<u32>>,
}

/// The map styles of `gen ghosts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum StyleArg {
    /// Carved from solid wall, keeping the statement's promises (--density).
    Carved,
    /// An open room with pillars, symmetric through the centre; every home is the point
    /// reflection of its start.
    Pillars,
    /// A braided maze of one-wide corridors, starts and homes at random.
    Maze,
    /// One-wide corridors with one-cell pockets, the homes of each corridor in the
    /// reverse order of its starts; --blocked percent of them answer -1.
    Pockets,
}

/// [`Density`] as a flag value.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum DensityArg {
    Dense,
    Sparse,
}

/// `gen sokoban-path`.
#[derive(Debug, Args)]
pub struct SokobanPathArgs {
    /// What to generate.
    #[arg(value_enum)]
    kind: PathKind,
    /// The seed: the same seed gives the same cases on every machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many mazes (open-rooms only).
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Rows and columns (open-rooms: the largest); default 20 for open-rooms, else 128.
    #[arg(long, value_parser = clap::value_parser!(u16).range(5..=1024))]
    side: Option<u16>,
}

/// What `gen sokoban-path` generates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PathKind {
    /// COUNT mazes of 3 to SIDE rows and columns, 0-20 % walls (the baseline workload:
    /// --count 2000 --side 20).
    OpenRooms,
    /// SIDE x SIDE, about 12 % scattered walls.
    Room,
    /// Corridor rungs: every walk crosses the grid.
    Ladder,
    /// A level without a solution.
    Unsolvable,
}

/// `gen sokoban-steps`.
#[derive(Debug, Args)]
pub struct SokobanStepsArgs {
    /// What to generate.
    #[arg(value_enum)]
    kind: StepsKind,
    /// The seed: the same seed gives the same case on every machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rows x columns (sides 5 to 1024).
    #[arg(long, value_name = "HxW", default_value = "128x128", value_parser = sokoban_size)]
    size: Size,
    /// Scattered walls inside a room or an unsolvable level, in percent.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(0..=40))]
    walls: u32,
}

/// What `gen sokoban-steps` generates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum StepsKind {
    /// A random board of 1 x 3 to 10 x 10, solvable or not.
    Small,
    /// Walls around, --walls percent scattered walls inside, solvable.
    Room,
    /// One-wide rails and rungs, solvable.
    Ladder,
    /// A level without a solution.
    Unsolvable,
}

/// Two sides written `AxB`.
#[derive(Debug, Clone, Copy)]
pub struct Size(usize, usize);

/// `AxB` as a [`Size`].
fn size(text: &str) -> Result<Size, String> {
    let (a, b) = text
        .split_once('x')
        .ok_or_else(|| format!("`{text}` is not AxB"))?;
    let parse = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("`{text}` is not AxB"))
    };
    Ok(Size(parse(a)?, parse(b)?))
}

/// A [`size`] whose sides the Sokoban generators accept.
fn sokoban_size(text: &str) -> Result<Size, String> {
    let Size(a, b) = size(text)?;
    if SOKOBAN_SIDES.contains(&a) && SOKOBAN_SIDES.contains(&b) {
        Ok(Size(a, b))
    } else {
        Err(format!("the sides must be in {SOKOBAN_SIDES:?}"))
    }
}

/// `MIN-MAX` as a range.
fn answers(text: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    text.split_once('-')
        .and_then(|(l, h)| Some(l.parse().ok()?..=h.parse().ok()?))
        .ok_or_else(|| format!("`{text}` is not MIN-MAX"))
}

/// `cargo xtask gen`.
pub fn run(problem: Problem) -> Result<(), String> {
    let text = match problem {
        Problem::Ghosts(args) => ghosts_cases(&args)?,
        Problem::SokobanPath(args) => sokoban_path_cases(&args),
        Problem::SokobanSteps(args) => sokoban_steps_cases(&args),
    };
    print!("{text}");
    Ok(())
}

/// The text `gen ghosts` prints for `args`.
pub(crate) fn ghosts_cases(args: &GhostsArgs) -> Result<String, String> {
    let Size(width, height) = args.size;
    let ghosts = usize::from(args.ghosts);
    let layout = match args.style {
        StyleArg::Carved => None,
        StyleArg::Pillars => Some(Layout::PillarRoom),
        StyleArg::Maze => Some(Layout::Maze),
        StyleArg::Pockets => Some(Layout::Pockets),
    };
    if let Some(layout) = layout {
        if args.solvable || args.answers.is_some() {
            return Err("--solvable and --answers apply to --style carved only".to_owned());
        }
        let specs: Vec<LayoutSpec> = (0..args.count)
            .map(|i| LayoutSpec {
                width,
                height,
                ghosts,
                layout: if layout == Layout::Pockets && blocked_at(i, args.blocked) {
                    Layout::BlockedPockets
                } else {
                    layout
                },
            })
            .collect();
        return ghosts::generate::layout_datasets(args.seed, &specs);
    }
    let keep = match &args.answers {
        Some(range) => Keep::Answers(range.clone()),
        None if args.solvable => Keep::Answers(0..=u32::MAX),
        None => Keep::All,
    };
    let spec = MapSpec {
        width,
        height,
        ghosts,
        density: match args.density {
            DensityArg::Dense => Density::Dense,
            DensityArg::Sparse => Density::Sparse,
        },
    };
    ghosts::generate::datasets(args.seed, args.count, spec, &keep)
}

/// Whether dataset `i` (from 0) of a run with `percent` blocked is a blocked one: the
/// blocked datasets are spread evenly, `percent` of every hundred.
pub fn blocked_at(i: usize, percent: u32) -> bool {
    let p = percent as usize;
    (i + 1) * p / 100 > i * p / 100
}

/// Sides the Sokoban generators accept here: big enough for their layouts, small enough to
/// solve.
const SOKOBAN_SIDES: std::ops::RangeInclusive<usize> = 5..=1024;

fn sokoban_path_cases(args: &SokobanPathArgs) -> String {
    use sokoban_path::generate;
    let default_side = if args.kind == PathKind::OpenRooms {
        20
    } else {
        128
    };
    let side = args.side.map_or(default_side, usize::from);
    let seed = args.seed;
    match args.kind {
        PathKind::OpenRooms => generate::open_rooms(seed, args.count, side),
        PathKind::Room => generate::big_room(seed, side),
        PathKind::Ladder => generate::ladder(seed, side),
        PathKind::Unsolvable => generate::unsolvable(seed, side),
    }
}

fn sokoban_steps_cases(args: &SokobanStepsArgs) -> String {
    use sokoban_steps::generate;
    let (Size(height, width), seed, walls) = (args.size, args.seed, args.walls);
    match args.kind {
        StepsKind::Small => generate::small(seed),
        StepsKind::Room => generate::room(seed, height, width, walls),
        StepsKind::Ladder => generate::ladder(seed, height, width),
        StepsKind::Unsolvable => generate::unsolvable(seed, height, width, walls),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_datasets_are_the_percent_asked_for_spread_evenly() {
        for percent in [0, 25, 50, 100] {
            let blocked: Vec<usize> = (0..100).filter(|&i| blocked_at(i, percent)).collect();
            assert_eq!(blocked.len(), percent as usize);
            if percent == 25 {
                assert_eq!(blocked[..3], [3, 7, 11]);
            }
        }
    }
}
