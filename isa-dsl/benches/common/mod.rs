//! The front-end benchmark itself, shared by the two bench binaries (which
//! differ only in their global allocator): parse + resolve + bind + check of
//! the whole `spec/` directory, from text already in memory.

use criterion::Criterion;
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

/// Benchmarks `isa_dsl::compile` on `spec/`; `allocator` names the global
/// allocator in the benchmark ids.
pub fn frontend(c: &mut Criterion, allocator: &str) {
    let sources = spec_sources();
    let fe = isa_dsl::compile(sources.clone(), isa_dsl::Diagnostics::default());
    assert_eq!(fe.isa.opcodes.len(), 184);
    c.bench_function(&format!("frontend/spec (parse+resolve+check, {allocator})"), |b| {
        b.iter(|| isa_dsl::compile(sources.clone(), isa_dsl::Diagnostics::default()))
    });
    // The same, with freeing the returned IR left out of the timing.
    c.bench_function(&format!("frontend/spec (parse+resolve+check, {allocator}, result freed untimed)"), |b| {
        b.iter_with_large_drop(|| isa_dsl::compile(sources.clone(), isa_dsl::Diagnostics::default()))
    });
}
