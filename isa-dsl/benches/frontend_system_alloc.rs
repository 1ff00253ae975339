//! Front-end benchmark with the system allocator (glibc here): what a
//! library caller that keeps the default allocator gets. `frontend` runs
//! the same with mimalloc, as the command line does.

use criterion::{criterion_group, criterion_main, Criterion};

mod common;

fn frontend(c: &mut Criterion) {
    common::frontend(c, "system allocator");
}

criterion_group!(benches, frontend);
criterion_main!(benches);
