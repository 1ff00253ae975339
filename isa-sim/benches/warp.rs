//! Warp throughput: FFMA.RN over 32 lanes (lane-instructions per second).
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use isa_generated::Instruction;
use isa_sim::Reference;

fn warp_ffma(c: &mut Criterion) {
    let i: Instruction = "FFMA R0, R1, R2, R0".parse().expect("assembles");
    let mut w = isa_generated::sim::new_warp();
    for lane in 0..32 {
        w.set_lane(0, 1, lane, (1.0f32 + lane as f32).to_bits());
        w.set_lane(0, 2, lane, 0.5f32.to_bits());
    }
    let mut g = c.benchmark_group("warp");
    g.throughput(Throughput::Elements(32));
    g.bench_function("FFMA.RN (32 lanes)", |b| b.iter(|| i.execute(std::hint::black_box(&mut w), &Reference)));
    let i: Instruction = "FFMA.RZ R0, R1, R2, R0".parse().expect("assembles");
    g.bench_function("FFMA.RZ (32 lanes)", |b| b.iter(|| i.execute(std::hint::black_box(&mut w), &Reference)));
    g.finish();
}

criterion_group!(benches, warp_ffma);
criterion_main!(benches);
