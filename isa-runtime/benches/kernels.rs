//! Float kernel speed: f32 fma in a directed mode (target <= 3.5 ns/op), and
//! f16 add, over buffers of random normal operands.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use isa_runtime::float::{add, fma, fma_f32, fma_f32_lanes, Round, F16, F32};

fn operands(n: usize, seed: u64, f32_like: bool) -> Vec<u64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if f32_like {
                // Normal f32 with exponent near 1.0.
                (x & 0x807F_FFFF) | (((x >> 40) % 16 + 120) << 23)
            } else {
                (x & 0x83FF) | (((x >> 40) % 8 + 11) << 10)
            }
        })
        .collect()
}

fn kernels(c: &mut Criterion) {
    let n = 4096;
    let (a, b, d) = (operands(n, 1, true), operands(n, 2, true), operands(n, 3, true));
    let mut g = c.benchmark_group("kernels");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("baseline: f64 a*b+c, no rounding logic", |bench| {
        bench.iter(|| {
            let mut acc = 0u64;
            for i in 0..n {
                let (x, y, z) = (f32::from_bits(a[i] as u32), f32::from_bits(b[i] as u32), f32::from_bits(d[i] as u32));
                acc ^= (x as f64 * y as f64 + z as f64).to_bits();
            }
            black_box(acc)
        })
    });
    for (name, mode) in [("fma_f32 RZ (FFMA path)", Round::RZ), ("fma_f32 RM (FFMA path)", Round::RM), ("fma_f32 RN (FFMA path)", Round::RN)] {
        g.bench_function(name, |bench| {
            bench.iter(|| {
                let mut acc = 0u32;
                for i in 0..n {
                    acc ^= fma_f32(a[i] as u32, b[i] as u32, d[i] as u32, mode);
                }
                black_box(acc)
            })
        });
    }
    for (name, mode) in [("fma_f32_lanes RZ (warp FFMA.RZ)", Round::RZ), ("fma_f32_lanes RM (warp FFMA.RM)", Round::RM)] {
        g.bench_function(name, |bench| {
            let lanes = |v: &[u64], k: usize| -> [u32; 32] { std::array::from_fn(|l| v[k * 32 + l] as u32) };
            let chunks: Vec<([u32; 32], [u32; 32], [u32; 32])> = (0..n / 32).map(|k| (lanes(&a, k), lanes(&b, k), lanes(&d, k))).collect();
            bench.iter(|| {
                let mut acc = 0u32;
                for (x, y, z) in &chunks {
                    let r = fma_f32_lanes(x, y, z, mode);
                    acc ^= r.iter().fold(0, |m, v| m ^ v);
                }
                black_box(acc)
            })
        });
    }
    g.bench_function("f32 fma RZ (exact, any format)", |bench| {
        bench.iter(|| {
            let mut acc = 0u64;
            for i in 0..n {
                acc ^= fma(a[i], b[i], d[i], F32, Round::RZ);
            }
            black_box(acc)
        })
    });
    let (x, y) = (operands(n, 4, false), operands(n, 5, false));
    g.bench_function("f16 add RN", |bench| {
        bench.iter(|| {
            let mut acc = 0u64;
            for i in 0..n {
                acc ^= add(x[i], y[i], F16, Round::RN);
            }
            black_box(acc)
        })
    });
    g.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
