use isa_codegen::interp::Codec;
use isa_generated::Instruction;
use isa_tests::{random_valid, Rng};
use std::time::Instant;
fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let passes: usize = std::env::args().nth(2).map_or(30, |s| s.parse().unwrap());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let fe = isa_dsl::load(&[root]);
    let codec = Codec::new(&fe.isa);
    let mut rng = Rng(13);
    let words: Vec<u128> = (0..1 << 13).map(|_| random_valid(&codec, &mut rng).1).collect();
    let lines: Vec<String> = words.iter().map(|&w| Instruction::decode(w).unwrap().to_string()).collect();
    let m = &isa_generated::text::MODEL;
    let fast: Vec<&String> = lines.iter().filter(|l| isa_runtime::text::asm_fast::assemble(m, l).is_some()).collect();
    let slow: Vec<&String> = lines.iter().filter(|l| !isa_runtime::text::asm_fast::assemble(m, l).is_some()).collect();
    eprintln!("{} fast, {} slow", fast.len(), slow.len());
    if which == "print" { for l in fast.iter().take(40) { println!("{l}"); } return; }
    let set: Vec<&String> = match which.as_str() { "fast" => fast, "slow" => slow, _ => lines.iter().collect() };
    let mut best = f64::MAX;
    let mut acc = 0u128;
    for _ in 0..passes {
        let t = Instant::now();
        for l in &set {
            if let Ok(Some(a)) = isa_runtime::text::assemble_line(m, l) { acc ^= a.word; }
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{which}: {} lines, best {:.2} M lines/s ({acc:x})", set.len(), set.len() as f64 / best / 1e6);
}
#[allow(dead_code)]
fn dummy() {}
