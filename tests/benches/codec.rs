//! Decode/encode throughput of the generated crate (single thread), against
//! the interpreted codec (what generation buys) and a public fixed-width
//! decoder (yaxpeax-arm on random AArch64 words), side by side.
//! Buffers: random *valid* instructions, one L2-sized (1 MiB) and one 64 MiB.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use isa_codegen::interp::Codec;
use isa_tests::{random_valid, Rng};
use isa_generated::Instruction;

fn random_words(codec: &Codec, n: usize, seed: u64) -> Vec<u128> {
    let mut rng = Rng(seed);
    (0..n).map(|_| random_valid(codec, &mut rng).1).collect()
}

// Each measured loop is its own function, as a caller's loop would be: inlined
// into criterion's timing closure, it competes with the harness for registers,
// and LLVM reloads the table addresses every word instead.

/// Decodes every word; the whole instruction is used (its opcode and its
/// word), so none of its construction can be left out.
#[inline(never)]
fn decode_all(words: &[u128]) -> u128 {
    let mut acc = 0u128;
    for &w in words {
        if let Ok(i) = Instruction::decode(w) {
            acc ^= i.to_word() ^ i.index() as u128;
        }
    }
    acc
}

/// [`decode_all`] through [`Instruction::decode_words`] (which reads ahead),
/// folded: `fold` takes the words four at a time (a `for` loop over it
/// measured slower in L2 than `decode_all`).
#[inline(never)]
fn decode_words(words: &[u128]) -> u128 {
    Instruction::decode_words(words).fold(0u128, |acc, r| match r {
        Ok(i) => acc ^ i.to_word() ^ i.index() as u128,
        Err(_) => acc,
    })
}

/// Reads every word and nothing else: the memory floor no decoder of this
/// buffer can beat (on 64 MiB it shows how much of decode's time is the
/// reading).
#[inline(never)]
fn read_all(words: &[u128]) -> u128 {
    let mut acc = 0u128;
    for &w in words {
        acc ^= w;
    }
    acc
}

/// Checks every word ([`isa_generated::Decoded::new`]) and sums the opcodes.
#[inline(never)]
fn check_all(words: &[u128]) -> usize {
    let mut acc = 0usize;
    for &w in words {
        if let Ok(d) = isa_generated::Decoded::new(w) {
            acc = acc.wrapping_add(d.index());
        }
    }
    acc
}

/// Encodes every instruction.
#[inline(never)]
fn encode_all(insts: &[Instruction]) -> u128 {
    let mut acc = 0u128;
    for i in insts {
        if let Ok(w) = i.encode() {
            acc ^= w;
        }
    }
    acc
}

fn codec_benches(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let fe = isa_dsl::load(&[root]);
    let codec = Codec::new(&fe.isa);
    let sizes = [("L2 1MiB", 1usize << 16), ("64MiB", 1usize << 22)];
    let mut g = c.benchmark_group("codec");
    for (label, n) in sizes {
        let words = random_words(&codec, n, 7);
        let insts: Vec<Instruction> = words.iter().map(|&w| Instruction::decode(w).unwrap()).collect();
        g.throughput(Throughput::Elements(n as u64));
        g.sample_size(if n > 100_000 { 10 } else { 50 });
        g.bench_with_input(BenchmarkId::new("read only (memory floor)", label), &words, |b, words| {
            b.iter(|| read_all(black_box(words)))
        });
        g.bench_with_input(BenchmarkId::new("generated decode", label), &words, |b, words| {
            b.iter(|| decode_all(black_box(words)))
        });
        g.bench_with_input(BenchmarkId::new("generated decode_words", label), &words, |b, words| {
            b.iter(|| decode_words(black_box(words)))
        });
        g.bench_with_input(BenchmarkId::new("generated Decoded::new (checked opcode, fields on demand)", label), &words, |b, words| {
            b.iter(|| check_all(black_box(words)))
        });
        g.bench_with_input(BenchmarkId::new("generated encode", label), &insts, |b, insts| {
            b.iter(|| encode_all(black_box(insts)))
        });
        if n <= 1 << 16 {
            g.bench_with_input(BenchmarkId::new("interpreted decode", label), &words, |b, words| {
                b.iter(|| {
                    let mut acc = 0usize;
                    for &w in words {
                        if let Ok(r) = codec.decode(w) {
                            acc = acc.wrapping_add(r.opcode);
                        }
                    }
                    black_box(acc)
                })
            });
        }
    }
    // Diagnostic: one opcode only (perfect branch prediction).
    {
        let words = random_words(&codec, 1 << 16, 7);
        let w0 = words[0];
        let op = &fe.isa.opcodes[codec.decode(w0).unwrap().opcode];
        let same: Vec<u128> = words.iter().map(|&w| (w & !op.fixed_mask) | op.fixed_bits).filter(|&w| Instruction::decode(w).is_ok()).collect();
        g.throughput(Throughput::Elements(same.len() as u64));
        g.bench_function(BenchmarkId::new("generated decode one opcode", op.name.as_str()), |b| {
            b.iter(|| decode_all(black_box(&same)))
        });
    }
    // yaxpeax-arm on 1 MiB of random AArch64 words.
    {
        use yaxpeax_arch::{Decoder, U8Reader};
        let mut rng = Rng(9);
        let bytes: Vec<u8> = (0..(1usize << 18)).flat_map(|_| (rng.next() as u32).to_le_bytes()).collect();
        let n = bytes.len() / 4;
        let decoder = yaxpeax_arm::armv8::a64::InstDecoder::default();
        g.throughput(Throughput::Elements(n as u64));
        g.sample_size(20);
        g.bench_function(BenchmarkId::new("yaxpeax-arm a64 decode", "L2 1MiB"), |b| {
            b.iter(|| {
                let mut ok = 0usize;
                for chunk in bytes.chunks_exact(4) {
                    let mut reader = U8Reader::new(chunk);
                    if decoder.decode(&mut reader).is_ok() {
                        ok += 1;
                    }
                }
                black_box(ok)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, codec_benches);
criterion_main!(benches);
