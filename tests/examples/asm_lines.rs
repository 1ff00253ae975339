//! The generated assembler on the `text` bench's canonical lines (random
//! valid instructions, seed 13, as `tests/benches/text.rs` makes them):
//! how many the fast path takes, and the best of 20 passes over the first
//! N lines, in a function of its own (`pass`) so that callgrind can count
//! its instructions alone:
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='asm_lines::pass' target/release/examples/asm_lines 8192 1`.
//! Run: `cargo run --release -p isa-tests --example asm_lines [N [PASSES]]`
//! (`docs/measurements.md`, session 45).

use isa_codegen::interp::Codec;
use isa_generated::Instruction;
use isa_tests::{random_valid, Rng};
use std::time::Instant;

#[inline(never)]
fn pass(lines: &[String]) -> u128 {
    let mut acc = 0u128;
    for l in lines {
        if let Ok(Some(a)) = isa_runtime::text::assemble_line(&isa_generated::text::MODEL, l) {
            acc ^= a.word;
        }
    }
    acc
}

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>().expect("a number"));
    let n = args.next().unwrap_or(1 << 16).max(1);
    let passes = args.next().unwrap_or(20);
    let isa = isa_tests::spec_isa();
    let codec = Codec::new(&isa);
    let mut rng = Rng(13);
    let lines: Vec<String> = (0..n).map(|_| Instruction::decode(random_valid(&codec, &mut rng).1).unwrap().to_string()).collect();
    let model = &isa_generated::text::MODEL;
    let fast = lines.iter().filter(|l| isa_runtime::text::asm_fast::assemble(model, l).is_some()).count();
    println!("{n} lines, {:.1} bytes each; the fast path takes {fast}", lines.iter().map(String::len).sum::<usize>() as f64 / n as f64);
    let mut best = f64::MAX;
    let mut words = 0u128;
    for _ in 0..passes {
        let t = Instant::now();
        words = std::hint::black_box(pass(&lines));
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{:.1} ns a line, {:.2} M lines/s (best of {passes}; the words' XOR {words:x})", best / n as f64 * 1e9, n as f64 / best / 1e6);
}
