//! binary32 fused multiply-add in a directed mode (toward zero), the same
//! 4096 operand triples for each implementation: isa-runtime (scalar
//! `fma_f32`, and `fma_f32_lanes` as a warp's FFMA runs it), Berkeley
//! SoftFloat 3 (through softfloat-wrapper) and rustc_apfloat.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use isa_runtime::float::{fma_f32, fma_f32_lanes, Round};

fn operands(n: usize, seed: u64) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Normal binary32 with exponents near 1.0, random signs.
            ((x & 0x807F_FFFF) | (((x >> 40) % 16 + 120) << 23)) as u32
        })
        .collect()
}

fn compare(c: &mut Criterion) {
    let n = 4096;
    let (a, b, d) = (operands(n, 1), operands(n, 2), operands(n, 3));
    // Every implementation gives the same bits (checked once, outside the timing).
    for i in 0..n {
        let ours = fma_f32(a[i], b[i], d[i], Round::RZ);
        let sf = {
            use softfloat_wrapper::{Float, RoundingMode, F32};
            F32::from_bits(a[i]).fused_mul_add(F32::from_bits(b[i]), F32::from_bits(d[i]), RoundingMode::TowardZero).to_bits()
        };
        let ap = {
            use rustc_apfloat::{ieee::Single, Float, Round as R};
            Single::from_bits(a[i] as u128).mul_add_r(Single::from_bits(b[i] as u128), Single::from_bits(d[i] as u128), R::TowardZero).value.to_bits() as u32
        };
        assert_eq!((ours, ours), (sf, ap), "operands {:x} {:x} {:x}", a[i], b[i], d[i]);
    }
    let mut g = c.benchmark_group("f32 fma RZ");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("isa-runtime fma_f32 (scalar)", |bench| {
        bench.iter(|| (0..n).fold(0u32, |acc, i| acc ^ fma_f32(a[i], b[i], d[i], Round::RZ)))
    });
    let lanes = |v: &[u32], k: usize| -> [u32; 32] { std::array::from_fn(|l| v[k * 32 + l]) };
    let chunks: Vec<_> = (0..n / 32).map(|k| (lanes(&a, k), lanes(&b, k), lanes(&d, k))).collect();
    g.bench_function("isa-runtime fma_f32_lanes (warp)", |bench| {
        bench.iter(|| chunks.iter().fold(0u32, |acc, (x, y, z)| acc ^ fma_f32_lanes(x, y, z, Round::RZ).iter().fold(0, |m, v| m ^ v)))
    });
    g.bench_function("Berkeley SoftFloat 3 f32_mulAdd", |bench| {
        use softfloat_wrapper::{Float, RoundingMode, F32};
        bench.iter(|| {
            (0..n).fold(0u32, |acc, i| {
                acc ^ F32::from_bits(a[i]).fused_mul_add(F32::from_bits(b[i]), F32::from_bits(d[i]), RoundingMode::TowardZero).to_bits()
            })
        })
    });
    g.bench_function("rustc_apfloat mul_add_r", |bench| {
        use rustc_apfloat::{ieee::Single, Float, Round as R};
        bench.iter(|| {
            (0..n).fold(0u32, |acc, i| {
                acc ^ Single::from_bits(a[i] as u128)
                    .mul_add_r(Single::from_bits(b[i] as u128), Single::from_bits(d[i] as u128), R::TowardZero)
                    .value
                    .to_bits() as u32
            })
        })
    });
    g.finish();
    black_box(());
}

criterion_group!(benches, compare);
criterion_main!(benches);
