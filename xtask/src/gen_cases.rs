//! `cargo xtask gen PROBLEM [FLAGS]`: seeded random cases on standard output, from the
//! generators the solver crates expose (the same ones their tests and the bench use).

use ghosts::generate::{Density, Keep, MapSpec};

const HELP: &str = "\
usage: cargo xtask gen PROBLEM [FLAGS] > cases.in

  ghosts [--seed N] [--count N] [--size WxH] [--ghosts N] [--density dense|sparse]
         [--solvable | --answers MIN-MAX]
      maps that keep the statement's promises (wall border, connected corridors and walls,
      a wall in every 2 x 2); defaults: seed 1, count 10, size 16x16, 3 ghosts, dense;
      --solvable keeps only datasets with a solution, --answers only those whose fewest
      steps lie in MIN..=MAX (each refused dataset is drawn again)

  sokoban-path KIND [--seed N] [--count N] [--side N]
      KIND: open-rooms (COUNT mazes of 3 to SIDE rows and columns, 0-20 % walls; the
      baseline workload: --count 2000 --side 20), room (SIDE x SIDE, ~12 % scattered walls),
      ladder (corridor rungs, every walk crosses the grid), unsolvable;
      defaults: seed 1, count 100, side 20 (open-rooms) or 128

  sokoban-steps KIND [--seed N] [--size HxW] [--walls PERCENT]
      KIND: small (a random board of 1x3 to 10x10, solvable or not), room (walls
      around, PERCENT scattered walls inside, solvable), ladder (1-wide rails and rungs,
      solvable), unsolvable; defaults: seed 1, size 128x128, walls 12; one case (the
      format holds one)
";

/// Flags of the form `--name value` and bare `--switch`es.
pub struct Flags<'a> {
    args: &'a [String],
    used: Vec<bool>,
}

impl<'a> Flags<'a> {
    /// Wraps the arguments after the problem name.
    pub fn new(args: &'a [String]) -> Self {
        Flags {
            args,
            used: vec![false; args.len()],
        }
    }

    /// The value after `--name`, parsed, or `default`.
    pub fn value<T: std::str::FromStr>(&mut self, name: &str, default: T) -> Result<T, String> {
        let Some(i) = self.args.iter().position(|a| a == name) else {
            return Ok(default);
        };
        self.used[i] = true;
        let raw = self
            .args
            .get(i + 1)
            .ok_or_else(|| format!("{name} needs a value"))?;
        self.used[i + 1] = true;
        raw.parse()
            .map_err(|_| format!("{name}: cannot read `{raw}`"))
    }

    /// Whether `--name` is present.
    pub fn switch(&mut self, name: &str) -> bool {
        let found = self.args.iter().position(|a| a == name);
        if let Some(i) = found {
            self.used[i] = true;
        }
        found.is_some()
    }

    /// The first argument no flag has taken, which must not look like a flag.
    pub fn positional(&mut self) -> Result<String, String> {
        match self
            .args
            .iter()
            .zip(&mut self.used)
            .find(|(_, used)| !**used)
        {
            Some((arg, used)) if !arg.starts_with("--") => {
                *used = true;
                Ok(arg.clone())
            }
            _ => Err(format!("a generator kind is missing\n\n{HELP}")),
        }
    }

    /// Fails on any argument no flag has taken.
    pub fn finish(self) -> Result<(), String> {
        match self.args.iter().zip(&self.used).find(|(_, used)| !**used) {
            Some((arg, _)) => Err(format!("unknown argument `{arg}`\n\n{HELP}")),
            None => Ok(()),
        }
    }
}

/// `WxH` as `(W, H)`.
pub fn size(text: &str) -> Result<(usize, usize), String> {
    let (w, h) = text
        .split_once('x')
        .ok_or_else(|| format!("size `{text}` is not WxH"))?;
    let parse = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("size `{text}` is not WxH"))
    };
    Ok((parse(w)?, parse(h)?))
}

/// `cargo xtask gen`.
pub fn run(args: &[String]) -> Result<(), String> {
    let Some((problem, rest)) = args.split_first() else {
        print!("{HELP}");
        return Ok(());
    };
    let mut flags = Flags::new(rest);
    let text = match problem.as_str() {
        "ghosts" => {
            let seed = flags.value("--seed", 1u64)?;
            let count = flags.value("--count", 10usize)?;
            let (width, height) = size(&flags.value("--size", "16x16".to_owned())?)?;
            let ghosts = flags.value("--ghosts", 3usize)?;
            let density = match flags.value("--density", "dense".to_owned())?.as_str() {
                "dense" => Density::Dense,
                "sparse" => Density::Sparse,
                other => return Err(format!("--density: `{other}` is neither dense nor sparse")),
            };
            let solvable = flags.switch("--solvable");
            let answers = flags.value("--answers", String::new())?;
            flags.finish()?;
            let keep = if !answers.is_empty() {
                let (low, high) = answers
                    .split_once('-')
                    .and_then(|(l, h)| Some((l.parse().ok()?, h.parse().ok()?)))
                    .ok_or_else(|| format!("--answers: `{answers}` is not MIN-MAX"))?;
                Keep::Answers(low..=high)
            } else if solvable {
                Keep::Answers(0..=u32::MAX)
            } else {
                Keep::All
            };
            let spec = MapSpec {
                width,
                height,
                ghosts,
                density,
            };
            ghosts::generate::datasets(seed, count, spec, &keep)?
        }
        "sokoban-path" => sokoban_path_cases(&mut flags)?,
        "sokoban-steps" => sokoban_steps_cases(&mut flags)?,
        "help" | "--help" => {
            print!("{HELP}");
            return Ok(());
        }
        other => return Err(format!("no generator for `{other}`\n\n{HELP}")),
    };
    print!("{text}");
    Ok(())
}

/// Sides the Sokoban generators accept here: big enough for their layouts, small enough to
/// solve.
const SOKOBAN_SIDES: std::ops::RangeInclusive<usize> = 5..=1024;

fn sokoban_path_cases(flags: &mut Flags<'_>) -> Result<String, String> {
    let kind = flags.positional()?;
    let seed = flags.value("--seed", 1u64)?;
    let count = flags.value("--count", 100usize)?;
    let default_side = if kind == "open-rooms" { 20 } else { 128 };
    let side = flags.value("--side", default_side)?;
    if !SOKOBAN_SIDES.contains(&side) {
        return Err(format!("--side must be in {SOKOBAN_SIDES:?}"));
    }
    use sokoban_path::generate;
    Ok(match kind.as_str() {
        "open-rooms" => generate::open_rooms(seed, count, side),
        "room" => generate::big_room(seed, side),
        "ladder" => generate::ladder(seed, side),
        "unsolvable" => generate::unsolvable(seed, side),
        other => return Err(format!("no sokoban-path generator `{other}`\n\n{HELP}")),
    })
}

fn sokoban_steps_cases(flags: &mut Flags<'_>) -> Result<String, String> {
    let kind = flags.positional()?;
    let seed = flags.value("--seed", 1u64)?;
    let (height, width) = size(&flags.value("--size", "128x128".to_owned())?)?;
    let walls = flags.value("--walls", 12u32)?;
    if !SOKOBAN_SIDES.contains(&height) || !SOKOBAN_SIDES.contains(&width) || walls > 40 {
        return Err(format!(
            "--size sides must be in {SOKOBAN_SIDES:?} and --walls at most 40"
        ));
    }
    use sokoban_steps::generate;
    Ok(match kind.as_str() {
        "small" => generate::small(seed),
        "room" => generate::room(seed, height, width, walls),
        "ladder" => generate::ladder(seed, height, width),
        "unsolvable" => generate::unsolvable(seed, height, width, walls),
        other => return Err(format!("no sokoban-steps generator `{other}`\n\n{HELP}")),
    })
}
