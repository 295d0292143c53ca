//! Links the C++ standard library of the SAT solver (CaDiCaL, through the `cadical`
//! crate) statically when the compiler has `libstdc++.a`, dynamically otherwise.
//!
//! Why: loading `libstdc++.so` at start-up cost about 0.5 ms of every run (an empty
//! input: 1.62 ms against 1.06 ms without it), a twentieth of the bench's 96 classic
//! datasets, which never call the SAT solver. The workspace's `.cargo/config.toml` sets
//! `CXXSTDLIB=""`, which tells the `cc` crate in `cadical`'s build script to link no C++
//! library, and this script links it instead: statically when the C++ compiler finds
//! `libstdc++.a` (Debian's and Fedora's `g++` packages with their static parts), else
//! `libstdc++.so` as before, so a machine without the archive builds the same program.
//! Outside the workspace (`CXXSTDLIB` unset or naming a library), or with a Clang that
//! `cadical` makes use libc++, `cadical` links its library itself and this script does
//! nothing.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CXXSTDLIB");
    println!("cargo:rerun-if-env-changed=CXX");
    let ours_to_link = std::env::var_os("CXXSTDLIB").is_some_and(|value| value.is_empty());
    let compiler = cc::Build::new()
        .cpp(true)
        .cargo_metadata(false)
        .get_compiler();
    // cadical sets libc++ for a Clang, whatever CXXSTDLIB says.
    if !ours_to_link || compiler.is_like_clang() {
        return;
    }
    let archive = Command::new(compiler.path())
        .arg("-print-file-name=libstdc++.a")
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned());
    // Without the archive the compiler prints the bare name back.
    match archive.as_deref().map(Path::new) {
        Some(path) if path.is_absolute() && path.is_file() => {
            if let Some(dir) = path.parent() {
                println!("cargo:rustc-link-search=native={}", dir.display());
            }
            // Unbundled: linked once at the end, after the rlib holding CaDiCaL.
            println!("cargo:rustc-link-lib=static:-bundle=stdc++");
        }
        _ => println!("cargo:rustc-link-lib=stdc++"),
    }
}
