//! Runs the front end over `spec/` N times (default 5), for instruction
//! counts that do not depend on the machine's noise:
//!
//! ```text
//! cargo build --release -p isa-dsl --example compile_spec
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg target/release/examples/compile_spec 5
//! ```
//!
//! Divide the total by N for instructions per compile (reading the files is
//! included, and is a few hundred thousand instructions). `cargo bench -p
//! isa-dsl` gives the wall-clock figure.

use std::path::PathBuf;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let mut diags = isa_dsl::Diagnostics::default();
    let mut sources = isa_dsl::SourceMap::new();
    for f in isa_dsl::collect_spec_files(&[root], &mut diags) {
        match std::fs::read(&f) {
            Ok(bytes) => {
                isa_dsl::add_source(&mut sources, &f.display().to_string(), &bytes, &mut diags);
            }
            Err(e) => {
                eprintln!("{}: {e}", f.display());
                std::process::exit(1);
            }
        }
    }
    let mut opcodes = 0;
    for _ in 0..n {
        let fe = isa_dsl::compile(sources.clone(), isa_dsl::Diagnostics::default());
        opcodes = fe.isa.opcodes.len();
    }
    println!("{n} compiles of spec/, {opcodes} opcodes each");
}
