//! `xtask __soukoban`: the `soukoban` crate's move-optimal A* as a program that reads a
//! sokoban-steps input and prints the fewest steps (or -1), and with `--xsb pushes|moves`
//! its push- or move-optimal A* on one XSB level, so `bench --peers` can time it as a whole
//! process beside ours. Built only with the `peers` feature.

/// The sokoban-steps board as XSB (`#` wall, space floor, `@` player, `$` box, `.` goal),
/// with a wall border added: outside the grid is wall in our format, and XSB wants the
/// floor enclosed.
#[cfg_attr(not(feature = "peers"), allow(dead_code))]
pub fn to_xsb(input: &str) -> Result<String, String> {
    let mut lines = input.lines().filter(|l| !l.trim().is_empty());
    let header = lines.next().ok_or("empty input")?;
    let mut sizes = header.split_whitespace().map(str::parse::<usize>);
    let (Some(Ok(rows)), Some(Ok(cols))) = (sizes.next(), sizes.next()) else {
        return Err(format!("bad header `{header}`"));
    };
    let mut xsb = format!("{}\n", "#".repeat(cols + 2));
    for _ in 0..rows {
        let row = lines.next().ok_or("cut-off board")?;
        let inside: String = row
            .chars()
            .take(cols)
            .map(|c| match c {
                '.' => ' ',
                'X' => '@',
                '*' => '$',
                '@' => '.',
                other => other,
            })
            .collect();
        xsb.push_str(&format!("#{inside}#\n"));
    }
    xsb.push_str(&"#".repeat(cols + 2));
    xsb.push('\n');
    Ok(xsb)
}

/// Reads a sokoban-steps case on standard input, prints soukoban's fewest moves or -1.
#[cfg(feature = "peers")]
pub fn soukoban_steps() -> Result<(), String> {
    use soukoban::prelude::*;
    use soukoban::solver::{Algorithm, Solver, Strategy};
    use std::io::Read;
    use std::str::FromStr;
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| e.to_string())?;
    let map = Map::from_str(&to_xsb(&input)?)
        .map_err(|e| format!("soukoban cannot read the level: {e}"))?;
    // soukoban 0.1.5 panics on some levels (unsolvable 128 x 128 rooms): report it as the
    // peer's answer instead of losing the bench.
    let outcome = std::panic::catch_unwind(|| {
        Solver::new(map, Strategy::MoveOptimal).search(Algorithm::AStar)
    });
    match outcome {
        Ok(Ok(actions)) => println!("{}", actions.moves()),
        Ok(Err(_)) => println!("-1"),
        Err(_) => println!("{PEER_PANICKED}"),
    }
    Ok(())
}

/// Without the `peers` feature there is no peer to run.
#[cfg(not(feature = "peers"))]
pub fn soukoban_steps() -> Result<(), String> {
    Err(NO_PEERS.to_owned())
}

/// Reads one XSB level on standard input and prints soukoban's `PUSHES MOVES` for its
/// push-optimal (`metric` `pushes`) or move-optimal (`moves`) A*, `-1` when it finds no
/// solution, or [`PEER_PANICKED`].
#[cfg(feature = "peers")]
pub fn soukoban_xsb(metric: &str) -> Result<(), String> {
    use soukoban::prelude::*;
    use soukoban::solver::{Algorithm, Solver, Strategy};
    use std::io::Read;
    use std::str::FromStr;
    let strategy = match metric {
        "pushes" => Strategy::PushOptimal,
        "moves" => Strategy::MoveOptimal,
        other => return Err(format!("--xsb {other}: pushes or moves")),
    };
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| e.to_string())?;
    let map = Map::from_str(&input).map_err(|e| format!("soukoban cannot read the level: {e}"))?;
    let outcome = std::panic::catch_unwind(|| Solver::new(map, strategy).search(Algorithm::AStar));
    match outcome {
        Ok(Ok(actions)) => println!("{} {}", actions.shifts(), actions.moves()),
        Ok(Err(_)) => println!("-1"),
        Err(_) => println!("{PEER_PANICKED}"),
    }
    Ok(())
}

/// Without the `peers` feature there is no peer to run.
#[cfg(not(feature = "peers"))]
pub fn soukoban_xsb(_metric: &str) -> Result<(), String> {
    Err(NO_PEERS.to_owned())
}

/// What `__soukoban` prints when the crate panics.
pub const PEER_PANICKED: &str = "soukoban panicked";

/// How to get a build with the peers.
pub const NO_PEERS: &str = "the peer comparison needs the `peers` feature, and a release build for fair figures: cargo run -q --release -p xtask --features peers -- bench --peers";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_become_enclosed_xsb() {
        let xsb = to_xsb("2 3\nX*@\n.#.\n");
        assert_eq!(xsb.as_deref(), Ok("#####\n#@$.#\n# # #\n#####\n"));
    }
}
