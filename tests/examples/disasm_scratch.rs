use isa_codegen::interp::Codec;
use isa_tests::{random_valid, Rng};
use std::time::Instant;
fn main() {
    let passes: usize = std::env::args().nth(1).map_or(30, |s| s.parse().unwrap());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let fe = isa_dsl::load(&[root]);
    let codec = Codec::new(&fe.isa);
    let mut rng = Rng(13);
    let words: Vec<u128> = (0..1 << 14).map(|_| random_valid(&codec, &mut rng).1).collect();
    let mut out = String::with_capacity(64);
    let mut best = f64::MAX;
    let mut n = 0usize;
    for _ in 0..passes {
        let t = Instant::now();
        for &w in &words {
            out.clear();
            if isa_generated::text::disassemble_into(w, &mut out).is_ok() { n += out.len(); }
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{:.2} M words/s ({n})", words.len() as f64 / best / 1e6);
}
