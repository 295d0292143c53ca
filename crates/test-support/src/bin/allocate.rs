//! `allocate MIB`: holds MIB MiB of touched memory for a moment, then exits 0; prints
//! what it read on standard input to standard output, and `allocated` on standard error.
//! The known amount that the peak-memory helper's own test measures.

use std::io::{Read, Write};

fn main() -> std::process::ExitCode {
    let Some(mib) = std::env::args()
        .nth(1)
        .and_then(|a| a.parse::<usize>().ok())
    else {
        eprintln!("usage: allocate MIB");
        return std::process::ExitCode::from(2);
    };
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        return std::process::ExitCode::FAILURE;
    }
    // Every page written, so every page resident.
    let block = vec![1u8; mib << 20];
    let touched: usize = block.iter().step_by(4096).map(|&b| usize::from(b)).sum();
    let _ = std::io::stdout().write_all(&input);
    eprintln!("allocated");
    std::process::ExitCode::from(u8::from(touched != (mib << 20).div_ceil(4096)))
}
