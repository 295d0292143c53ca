//! `cargo xtask gen PROBLEM [FLAGS]`: seeded random cases on standard output, from the
//! generators the solver crates expose (the same ones their tests and the bench use).

use ghosts::generate::{Density, Keep, MapSpec};

use clap::{Args, Subcommand, ValueEnum};

/// The problem to generate cases for.
#[derive(Debug, Subcommand)]
pub enum Problem {
    /// Maps that keep the statement's promises (wall border, connected corridors and
    /// walls, a wall in every 2 x 2); a dataset that --solvable or --answers refuses is drawn
    /// again.
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
    /// Ghosts per map.
    #[arg(long, default_value_t = 3)]
    ghosts: usize,
    /// How much of the map is corridor.
    #[arg(long, value_enum, default_value_t = DensityArg::Dense)]
    density: DensityArg,
    /// Keep only datasets with a solution.
    #[arg(long, conflicts_with = "answers")]
    solvable: bool,
    /// Keep only datasets whose fewest steps lie in MIN..=MAX.
    #[arg(long, value_name = "MIN-MAX", value_parser = answers)]
    answers: Option<std::ops::RangeInclusive<u32>>,
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

fn ghosts_cases(args: &GhostsArgs) -> Result<String, String> {
    let keep = match &args.answers {
        Some(range) => Keep::Answers(range.clone()),
        None if args.solvable => Keep::Answers(0..=u32::MAX),
        None => Keep::All,
    };
    let Size(width, height) = args.size;
    let spec = MapSpec {
        width,
        height,
        ghosts: args.ghosts,
        density: match args.density {
            DensityArg::Dense => Density::Dense,
            DensityArg::Sparse => Density::Sparse,
        },
    };
    ghosts::generate::datasets(args.seed, args.count, spec, &keep)
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
