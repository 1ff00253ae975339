//! Front-end benchmark as the `isa-codegen` command line runs it, with
//! mimalloc as the global allocator (target: <= 10 ms in release).
//! `frontend_system_alloc` runs the same with the system allocator.

use criterion::{criterion_group, criterion_main, Criterion};

mod common;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn frontend(c: &mut Criterion) {
    common::frontend(c, "mimalloc, as the CLI");
}

criterion_group!(benches, frontend);
criterion_main!(benches);
