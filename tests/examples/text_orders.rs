//! The generated disassembler and assembler on the `text` bench's random
//! valid instructions, and on the same words in other orders (sorted by
//! opcode, one opcode, random among k opcodes), best of 30 passes: shows
//! how much of a line's time is the code footprint of the per-opcode
//! printers rather than the work per word (`docs/measurements.md`, session
//! 38); and on skewed mixes (Zipf over the opcodes, session 45). Run: `cargo run --release -p isa-tests --example text_orders`.

use isa_codegen::interp::Codec;
use isa_generated::Instruction;
use isa_tests::{random_valid, Rng};
use std::time::Instant;

/// Millions of items per second over `n` items, best of 30 runs of `f`.
fn best<F: FnMut() -> usize>(n: usize, mut f: F) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..30 {
        let t = Instant::now();
        std::hint::black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    n as f64 / best / 1e6
}

fn main() {
    let isa = isa_tests::spec_isa();
    let codec = Codec::new(&isa);
    let mut rng = Rng(13);
    let mut pairs: Vec<(usize, u128)> = (0..1 << 16).map(|_| { let (r, w) = random_valid(&codec, &mut rng); (r.opcode, w) }).collect();
    let words: Vec<u128> = pairs.iter().map(|p| p.1).collect();
    let lines: Vec<String> = words.iter().map(|&w| Instruction::decode(w).unwrap().to_string()).collect();
    let avg: f64 = lines.iter().map(|l| l.len()).sum::<usize>() as f64 / lines.len() as f64;
    println!("avg line {avg:.1} bytes; sample:");
    for l in lines.iter().take(12) { println!("  {l}"); }
    let dis = |ws: &[u128]| { let ws = ws.to_vec(); let mut out = String::with_capacity(256); best(ws.len(), move || { let mut n = 0; for &w in &ws { out.clear(); if isa_generated::text::disassemble_into(w, &mut out).is_ok() { n += out.len(); } } n }) };
    println!("disasm random: {:.1} M/s", dis(&words));
    pairs.sort_by_key(|p| p.0);
    let sorted: Vec<u128> = pairs.iter().map(|p| p.1).collect();
    println!("disasm sorted by opcode: {:.1} M/s", dis(&sorted));
    let one: Vec<u128> = pairs.iter().filter(|p| p.0 == pairs[0].0).map(|p| p.1).cycle().take(1<<16).collect();
    for k in [2usize, 4, 8, 16, 32, 64] {
        let ops: Vec<usize> = { let mut o: Vec<usize> = pairs.iter().map(|p| p.0).collect(); o.dedup(); o.into_iter().step_by(184 / k).take(k).collect() };
        let sub: Vec<(usize,u128)> = pairs.iter().filter(|p| ops.contains(&p.0)).cloned().collect();
        let mut r2 = Rng(5);
        let mix: Vec<u128> = (0..1<<16).map(|_| sub[r2.below(sub.len())].1).collect();
        println!("disasm random among {k} opcodes: {:.1} M/s", dis(&mix));
    }
    println!("disasm one opcode: {:.1} M/s", dis(&one));
    // A skewed mix, as real code is (a few opcodes make most of a kernel):
    // opcode of rank r drawn with weight 1/r^s (Zipf), ranks in a fixed
    // shuffled order of the 184 opcodes; s = 0 is the bench's uniform mix.
    let by_op: Vec<Vec<u128>> = { let mut o: Vec<usize> = pairs.iter().map(|p| p.0).collect(); o.dedup(); let mut r3 = Rng(7); for i in (1..o.len()).rev() { o.swap(i, r3.below(i + 1)); } o.iter().map(|&op| pairs.iter().filter(|p| p.0 == op).map(|p| p.1).collect()).collect() };
    for s in [0.0f64, 0.8, 1.0, 1.2] {
        let weights: Vec<f64> = (1..=by_op.len()).map(|r| 1.0 / (r as f64).powf(s)).collect();
        let total: f64 = weights.iter().sum();
        let mut r4 = Rng(11);
        let mix: Vec<u128> = (0..1 << 16).map(|_| {
            let mut x = (r4.next() >> 11) as f64 / (1u64 << 53) as f64 * total;
            let k = weights.iter().position(|w| { x -= w; x < 0.0 }).unwrap_or(by_op.len() - 1);
            by_op[k][r4.below(by_op[k].len())]
        }).collect();
        let top8: f64 = weights.iter().take(8).sum::<f64>() / total;
        println!("disasm Zipf s={s}: {:.1} M/s (the 8 commonest opcodes are {:.0}% of the words)", dis(&mix), top8 * 100.0);
    }
    let asm = |ls: &[String]| { let ls = ls.to_vec(); best(ls.len(), move || { let mut acc = 0u128; for l in &ls { if let Ok(Some(a)) = isa_runtime::text::assemble_line(&isa_generated::text::MODEL, l) { acc ^= a.word; } } acc as usize }) };
    println!("asm random: {:.2} M/s", asm(&lines));
    let mut sl = lines.clone(); sl.sort();
    println!("asm sorted: {:.2} M/s", asm(&sl));
}
