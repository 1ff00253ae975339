//! `isa-dsl`: the front end of the ISA description toolchain. Reads spec
//! files (text) into an AST with spans ([`parser`]), resolves names and
//! inheritance into a typed IR ([`resolve`]), links syntax templates to fields
//! ([`bind`]) and checks the result ([`check`]). Knows nothing about code
//! generation: every pass over the IR lives in `isa-codegen`.
//!
//! The whole pipeline, as every caller (CLI, proc-macro, docs) runs it:
//! ```text
//! load(paths) -> SourceMap -> parse_piece* -> resolve -> bind -> exec -> check -> Frontend
//! ```

// pest_derive without `std` refers to `alloc` by name.
extern crate alloc;

pub mod ast;
pub mod bind;
pub mod check;
pub mod diagnostic;
pub mod exec;
pub mod expr;
pub mod ir;
pub mod parser;
pub mod resolve;
pub mod source;
pub mod spa;

pub use diagnostic::{Code, Diagnostic, Diagnostics, Severity};
pub use source::{FileId, SourceMap, Span};

use std::path::{Path, PathBuf};

/// Result of running the front end: the sources (for rendering diagnostics),
/// the IR, and every diagnostic, sorted.
#[derive(Debug)]
pub struct Frontend {
    pub sources: SourceMap,
    pub isa: ir::Isa,
    pub diagnostics: Diagnostics,
}

impl Frontend {
    /// True when there are errors (warnings do not count).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.has_errors()
    }
    /// All diagnostics rendered like rustc, without colour.
    pub fn render_diagnostics(&self) -> String {
        self.diagnostics.render(&self.sources, false)
    }
}

/// Spec files found under `paths`: files as given, directories searched
/// recursively for `*.txt`, each directory's entries in name order.
pub fn collect_spec_files(paths: &[PathBuf], diags: &mut Diagnostics) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        collect(p, &mut out, diags, 0);
    }
    out
}

fn collect(p: &Path, out: &mut Vec<PathBuf>, diags: &mut Diagnostics, depth: usize) {
    if p.is_dir() {
        if depth > 32 {
            diags.push(Diagnostic::new(Code::Io, None, format!("{}: directories nested too deeply", p.display())));
            return;
        }
        let entries = match std::fs::read_dir(p) {
            Ok(e) => e,
            Err(e) => {
                diags.push(Diagnostic::new(Code::Io, None, format!("{}: {e}", p.display())));
                return;
            }
        };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "txt") {
                collect(&e, out, diags, depth + 1);
            }
        }
    } else if p.exists() {
        out.push(p.to_path_buf());
    } else {
        diags.push(Diagnostic::new(Code::Io, None, format!("{}: no such file or directory", p.display())));
    }
}

/// Reads the spec files under `paths` and runs the front end.
pub fn load(paths: &[PathBuf]) -> Frontend {
    let mut diags = Diagnostics::default();
    let mut sources = SourceMap::new();
    for f in collect_spec_files(paths, &mut diags) {
        match std::fs::read(&f) {
            Ok(bytes) => add_source(&mut sources, &f.display().to_string(), &bytes, &mut diags),
            Err(e) => diags.push(Diagnostic::new(Code::Io, None, format!("{}: {e}", f.display()))),
        }
    }
    compile(sources, diags)
}

/// Adds one file's bytes, reporting invalid UTF-8.
pub fn add_source(sources: &mut SourceMap, name: &str, bytes: &[u8], diags: &mut Diagnostics) {
    let (id, bad) = sources.add_bytes(name, bytes);
    if let Some(at) = bad {
        diags.push(
            Diagnostic::new(Code::InvalidUtf8, Span::new(id, at, at), "file is not valid UTF-8")
                .with_label("invalid byte sequence here")
                .with_note("spec files must be UTF-8; the rest of the file is read with replacement characters"),
        );
    }
}

/// Whether a file is written in the DSL (it declares something with `__Def`).
pub fn is_dsl(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with("__Def"))
}

/// Runs parse -> resolve -> bind -> check over every file in `sources`.
/// Files in the SPA 5.3 notation go through its own front end (`spa`) into
/// `Isa::legacy`; other files with no `__Def` declaration are not DSL and are
/// skipped with warning W013.
pub fn compile(sources: SourceMap, mut diags: Diagnostics) -> Frontend {
    let mut dsl = Vec::new();
    let mut spa = Vec::new();
    for (id, f) in sources.files() {
        if spa::is_spa(&f.text) {
            spa.push(id);
            continue;
        }
        if !is_dsl(&f.text) && !f.text.trim().is_empty() {
            let first = f.text.lines().next().unwrap_or("").trim_end();
            diags.push(
                Diagnostic::new(Code::LegacySkipped, Span::new(id, 0, first.len()), "file is not in the DSL; skipped")
                    .with_label("no `__Def...` declaration in this file")
                    .with_note("files are read as the DSL, or as SPA 5.3 when they start with `SPA 5.3:`"),
            );
            continue;
        }
        dsl.push((id, f.text.as_str()));
    }
    // Below this much DSL text, a second thread costs more than it saves (a
    // spawn and join take 40-250 us on the 2-core machine; `spec/` is 190 KiB).
    const PARALLEL_BYTES: usize = 32 * 1024;
    let total: usize = dsl.iter().map(|(_, text)| text.len()).sum();
    let threads = if total < PARALLEL_BYTES { 1 } else { std::thread::available_parallelism().map_or(1, |n| n.get()) };
    let (files, legacy) = parse_sources(&sources, dsl, spa, threads, &mut diags);
    let mut isa = resolve::resolve(&sources, &files, &mut diags);
    isa.legacy = legacy;
    bind::bind(&mut isa, &mut diags);
    plan_and_check(&mut isa, files, threads, &mut diags);
    diags.sort();
    Frontend { sources, isa, diagnostics: diags }
}

/// Parses the DSL files (big ones in declaration-aligned pieces, so that the
/// threads get even shares: one seed file is 40% of `spec/`) and the SPA 5.3
/// files. Returns one AST per DSL file, in input order, and the legacy optypes.
fn parse_sources(
    sources: &SourceMap,
    dsl: Vec<(FileId, &str)>,
    spa: Vec<FileId>,
    threads: usize,
    diags: &mut Diagnostics,
) -> (Vec<ast::File>, Vec<ir::Optype>) {
    let total: usize = dsl.iter().map(|(_, text)| text.len()).sum();
    let piece = if threads > 1 { (total / (threads * 4)).max(4096) } else { usize::MAX };
    let jobs: Vec<ParseJob> = dsl
        .into_iter()
        .flat_map(|(id, text)| parser::pieces(text, piece).into_iter().map(move |r| ParseJob::Dsl(id, text, r)))
        .chain(spa.into_iter().map(ParseJob::Spa))
        .collect();
    let mut files: Vec<ast::File> = Vec::new();
    let mut legacy = Vec::new();
    let mut last_file = None;
    for parsed in parse_all(sources, &jobs, threads, diags) {
        match parsed {
            Parsed::Dsl(id, f) => {
                match files.last_mut() {
                    // The next piece of the same file.
                    Some(prev) if last_file == Some(id) => prev.decls.extend(f.decls),
                    _ => files.push(f),
                }
                last_file = Some(id);
            }
            Parsed::Spa(optypes) => legacy.extend(optypes),
        }
    }
    (files, legacy)
}

/// Fills every opcode's simulation plan and runs the whole-ISA checks. Both
/// only read the IR (the plans are stored at the end), so with more than one
/// thread they run side by side, and the AST is freed off the main thread.
fn plan_and_check(isa: &mut ir::Isa, files: Vec<ast::File>, threads: usize, diags: &mut Diagnostics) {
    if threads <= 1 {
        exec::resolve(isa, diags);
        check::check(isa, &files, diags);
        return;
    }
    let plans = std::thread::scope(|s| {
        let shared: &ir::Isa = isa;
        let checks = s.spawn(move || {
            let mut d = Diagnostics::default();
            check::check(shared, &files, &mut d);
            drop(files);
            d
        });
        let plans = exec::plans(shared, diags);
        // A panic in the checks is a bug; re-raise it on this thread.
        diags.extend(checks.join().unwrap_or_else(|e| std::panic::resume_unwind(e)).items);
        plans
    });
    exec::apply(isa, plans);
}

/// One file, or a piece of one, to parse, in the notation it is written in.
enum ParseJob<'a> {
    Dsl(FileId, &'a str, std::ops::Range<usize>),
    Spa(FileId),
}

/// What a [`ParseJob`] produces.
enum Parsed {
    /// The AST of a file or a piece of it.
    Dsl(FileId, ast::File),
    Spa(Vec<ir::Optype>),
}

impl ParseJob<'_> {
    fn len(&self, sources: &SourceMap) -> usize {
        match self {
            ParseJob::Dsl(_, _, range) => range.len(),
            ParseJob::Spa(id) => sources.get(*id).text.len(),
        }
    }
    fn run(&self, sources: &SourceMap, cache: &parser::LineCache, diags: &mut Diagnostics) -> Parsed {
        match self {
            ParseJob::Dsl(id, text, range) => Parsed::Dsl(*id, parser::parse_piece(*id, text, range.clone(), cache, diags)),
            ParseJob::Spa(id) => Parsed::Spa(spa::parse_file(sources, *id, diags)),
        }
    }
}

/// Parses files (or pieces) independently, on up to `threads` threads. Each
/// thread takes the next job, largest first, until none are left (the
/// calling thread is one of them), so a thread that drew cheaper text takes
/// more. The result is in input order, so it does not depend on scheduling.
fn parse_all(sources: &SourceMap, files: &[ParseJob], threads: usize, diags: &mut Diagnostics) -> Vec<Parsed> {
    let threads = threads.min(files.len());
    if threads <= 1 {
        let cache = parser::LineCache::default();
        return files.iter().map(|job| job.run(sources, &cache, diags)).collect();
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(files[i].len(sources)));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let run = || {
        let cache = parser::LineCache::default();
        let mut done = Vec::new();
        while let Some(&i) = order.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
            let mut d = Diagnostics::default();
            let parsed = files[i].run(sources, &cache, &mut d);
            done.push((i, parsed, d));
        }
        done
    };
    let mut results: Vec<Option<(Parsed, Diagnostics)>> = (0..files.len()).map(|_| None).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads).map(|_| s.spawn(run)).collect();
        let mut done = run();
        for h in handles {
            // A panic in a parser thread is a bug; re-raise it on this thread.
            done.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        for (i, parsed, d) in done {
            results[i] = Some((parsed, d));
        }
    });
    results
        .into_iter()
        .flatten()
        .map(|(parsed, d)| {
            diags.extend(d.items);
            parsed
        })
        .collect()
}

/// Runs the front end on in-memory files `(name, text)`.
pub fn compile_texts<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Frontend {
    let mut sources = SourceMap::new();
    for (name, text) in files {
        sources.add(name, text);
    }
    compile(sources, Diagnostics::default())
}
