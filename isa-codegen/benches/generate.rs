//! Generation benchmarks on the seed spec: `expand` (what the `isa!` macro
//! does at compile time: front end, the CLI's checks, token generation;
//! target <= 300 ms) and
//! `generate` (the CLI's main job: the same plus prettyplease formatting), and
//! the reference manual alone (target <= 100 ms).

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::PathBuf;

fn sources() -> isa_dsl::SourceMap {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let mut diags = isa_dsl::Diagnostics::default();
    let mut sources = isa_dsl::SourceMap::new();
    for f in isa_dsl::collect_spec_files(&[root], &mut diags) {
        isa_dsl::add_source(&mut sources, &f.display().to_string(), &std::fs::read(&f).unwrap(), &mut diags);
    }
    sources
}

fn benches(c: &mut Criterion) {
    let src = sources();
    let mut g = c.benchmark_group("generate");
    g.sample_size(10);
    g.bench_function("isa! expansion (front end + checks + tokens)", |b| {
        b.iter(|| {
            let fe = isa_dsl::compile(src.clone(), isa_dsl::Diagnostics::default());
            let checked = isa_codegen::check_frontend(fe);
            isa_codegen::expand(&checked.fe).unwrap().to_string().len()
        })
    });
    g.bench_function("isa-codegen spec/ (front end + tokens + prettyplease)", |b| {
        b.iter(|| {
            let fe = isa_dsl::compile(src.clone(), isa_dsl::Diagnostics::default());
            let checked = isa_codegen::check_frontend(fe);
            isa_codegen::generate(&checked, &isa_codegen::Options::default()).unwrap().len()
        })
    });
    {
        let fe = isa_dsl::compile(src.clone(), isa_dsl::Diagnostics::default());
        let checked = isa_codegen::check_frontend(fe);
        let asm = isa_codegen::asm::Assembler::new(&checked.fe.isa);
        let input = isa_codegen::docs::DocsInput {
            isa: &checked.fe.isa,
            asm: &asm,
            examples: &checked.examples,
            diagnostics: &checked.fe.diagnostics,
            sources: &checked.fe.sources,
        };
        g.bench_function("reference manual (HTML site + Markdown book)", |b| b.iter(|| isa_codegen::docs::generate(&input).unwrap().len()));
    }
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
