//! Assembly-text throughput (single thread): the generated fast path
//! (`Display`/`FromStr` over the static model) against the interpreted
//! assembler/disassembler (from the IR), on random valid instructions and
//! their canonical text.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use isa_codegen::interp::Codec;
use isa_generated::Instruction;
use isa_tests::{random_valid, Rng};

fn text_benches(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let fe = isa_dsl::load(&[root]);
    let codec = Codec::new(&fe.isa);
    let asm = isa_codegen::asm::Assembler::new(&fe.isa);
    let mut rng = Rng(13);
    let words: Vec<u128> = (0..1 << 16).map(|_| random_valid(&codec, &mut rng).1).collect();
    let insts: Vec<Instruction> = words.iter().map(|&w| Instruction::decode(w).unwrap()).collect();
    let lines: Vec<String> = insts.iter().map(|i| i.to_string()).collect();
    // The same words less those no syntax form prints (they come out as `.word`).
    let symbolic: Vec<u128> = words.iter().zip(&lines).filter(|(_, l)| !l.starts_with(".word")).map(|(w, _)| *w).collect();
    let mut g = c.benchmark_group("text");
    g.throughput(Throughput::Elements(words.len() as u64));
    g.sample_size(10);
    g.bench_function(BenchmarkId::new("generated disassemble", "64Ki"), |b| {
        let mut out = String::with_capacity(64);
        b.iter(|| {
            let mut n = 0usize;
            for &w in &words {
                if let Ok(i) = Instruction::decode(w) {
                    out.clear();
                    i.write_text(&mut out);
                    n += out.len();
                }
            }
            black_box(n)
        })
    });
    // Words to text without the typed instruction (`Decoded` + the model).
    g.bench_function(BenchmarkId::new("generated disassemble_into", "64Ki"), |b| {
        let mut out = String::with_capacity(64);
        b.iter(|| {
            let mut n = 0usize;
            for &w in &words {
                out.clear();
                if isa_generated::text::disassemble_into(w, &mut out).is_ok() {
                    n += out.len();
                }
            }
            black_box(n)
        })
    });
    g.throughput(Throughput::Elements(symbolic.len() as u64));
    g.bench_function(BenchmarkId::new("generated disassemble, symbolic only", symbolic.len()), |b| {
        let mut out = String::with_capacity(64);
        b.iter(|| {
            let mut n = 0usize;
            for &w in &symbolic {
                if let Ok(i) = Instruction::decode(w) {
                    out.clear();
                    i.write_text(&mut out);
                    n += out.len();
                }
            }
            black_box(n)
        })
    });
    g.throughput(Throughput::Elements(words.len() as u64));
    g.bench_function(BenchmarkId::new("generated assemble", "64Ki lines"), |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for l in &lines {
                if let Ok(Some(a)) = isa_runtime::text::assemble_line(&isa_generated::text::MODEL, l) {
                    acc ^= a.word;
                }
            }
            black_box(acc)
        })
    });
    let few = &words[..1 << 13];
    let few_lines = &lines[..1 << 13];
    g.throughput(Throughput::Elements(few.len() as u64));
    g.bench_function(BenchmarkId::new("interpreted disassemble", "8Ki"), |b| {
        b.iter(|| {
            let mut n = 0usize;
            for &w in few {
                n += asm.disassemble(w).map_or(0, |t| t.len());
            }
            black_box(n)
        })
    });
    g.bench_function(BenchmarkId::new("interpreted assemble", "8Ki lines"), |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for l in few_lines {
                if let Ok(Some(a)) = asm.assemble_line(l) {
                    acc ^= a.word;
                }
            }
            black_box(acc)
        })
    });
    g.finish();
}

criterion_group!(benches, text_benches);
criterion_main!(benches);
