//! Front-end benchmark: parse + resolve + bind + check of the whole `spec/`
//! directory, from text already in memory (target: <= 10 ms in release).

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::PathBuf;

fn spec_sources() -> isa_dsl::SourceMap {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let mut diags = isa_dsl::Diagnostics::default();
    let mut sources = isa_dsl::SourceMap::new();
    for f in isa_dsl::collect_spec_files(&[root], &mut diags) {
        let bytes = std::fs::read(&f).unwrap();
        isa_dsl::add_source(&mut sources, &f.display().to_string(), &bytes, &mut diags);
    }
    sources
}

fn frontend(c: &mut Criterion) {
    let sources = spec_sources();
    let fe = isa_dsl::compile(sources.clone(), isa_dsl::Diagnostics::default());
    assert_eq!(fe.isa.opcodes.len(), 184);
    c.bench_function("frontend/spec (parse+resolve+check)", |b| {
        b.iter(|| isa_dsl::compile(sources.clone(), isa_dsl::Diagnostics::default()))
    });
    // The same, with freeing the returned IR left out of the timing (about
    // 2 ms of the above is the allocator releasing the previous result).
    c.bench_function("frontend/spec (parse+resolve+check, result freed untimed)", |b| {
        b.iter_with_large_drop(|| isa_dsl::compile(sources.clone(), isa_dsl::Diagnostics::default()))
    });
}

criterion_group!(benches, frontend);
criterion_main!(benches);
