//! `isa-dsl`: the front end of the ISA description toolchain. Reads spec
//! files (text) into an AST with spans ([`parser`]), resolves names and
//! inheritance into a typed IR ([`resolve`]), links syntax templates to fields
//! ([`bind`]) and checks the result ([`check`]). Knows nothing about code
//! generation: every pass over the IR lives in `isa-codegen`.
//!
//! The whole pipeline, as every caller runs it (the CLI and the docs
//! through [`load`], the proc-macro through [`compile`] on the files it
//! read):
//! ```text
//! load(paths) -> SourceMap -> compile: parse_piece* -> resolve -> per opcode: check, bind, exec plan -> whole ISA: check, exec -> Frontend
//! ```
//! The private module `pipeline` runs those passes and decides what runs per
//! file, per optype or once, sharing the per-file and per-optype parts
//! between two threads (module `workers`) when the input is big.

#![warn(missing_docs)]

// pest_derive without `std` refers to `alloc` by name.
extern crate alloc;

pub mod ast;
pub mod bind;
pub mod check;
pub mod diagnostic;
pub mod exec;
pub mod expr;
pub mod ir;
mod workers;
pub mod parser;
mod pipeline;
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
    /// Every file read, by [`FileId`].
    pub sources: SourceMap,
    /// The resolved and checked IR (items with errors left out).
    pub isa: ir::Isa,
    /// Every diagnostic of every stage, sorted (see [`Diagnostics::sort`]).
    pub diagnostics: Diagnostics,
}

impl Frontend {
    /// The IR with its files named by [`source::SourceFile::spec_name`] (below the
    /// spec's project, not the current directory): what generated files and
    /// the IR dump quote, the same from any directory.
    pub fn isa_with_spec_names(&self) -> ir::Isa {
        ir::Isa { files: self.sources.files().map(|(_, f)| f.spec_name.clone()).collect(), ..self.isa.clone() }
    }

    /// True when there are errors (warnings do not count).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.has_errors()
    }
    /// The diagnostics rendered like rustc, without colour, at most the
    /// default number (`report::DEFAULT_SHOWN`) whatever the environment
    /// says: the same text everywhere (the tools' output honours
    /// `ISA_MAX_DIAGNOSTICS` through [`Diagnostics::render`]).
    pub fn render_diagnostics(&self) -> String {
        self.diagnostics.render_at_most(&self.sources, false, isa_runtime::report::DEFAULT_SHOWN)
    }
}

/// Spec files found under `paths`: files as given, directories searched
/// recursively for `*.txt`, all in path order (not the order of `paths`). A file
/// or directory reached twice (given twice, inside another one given, or
/// through a symbolic link back up the tree) is read once, under the
/// spelling of the path that sorts first (a relative one before an
/// absolute one), so that the order of `paths` changes nothing.
pub fn collect_spec_files(paths: &[PathBuf], diags: &mut Diagnostics) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut given: Vec<&PathBuf> = paths.iter().collect();
    given.sort_by_cached_key(|p| {
        let shown = PathBuf::from(display_name(p));
        (shown.is_absolute(), shown)
    });
    for p in given {
        collect(p, &mut out, &mut seen, diags, 0);
    }
    // In path order whatever the order of `paths`: the same files give the
    // same IR, generated code and manual.
    // (Compared by components, as a directory's entries are walked.)
    out.sort_by_cached_key(|f| PathBuf::from(display_name(f)));
    if out.is_empty() && !diags.has_errors() {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let d = Diagnostic::new(Code::Io, None, format!("no spec files (`*.txt`) in {}", if names.is_empty() { "the paths given".into() } else { names.join(", ") }));
        diags.push(d.with_note("give the spec's directory, e.g. `spec/`, or its files"));
    }
    out
}

/// `ELOOP`, "too many levels of symbolic links" (40 on Linux, 62 on the BSDs and macOS).
const LOOP_ERRNO: i32 = if cfg!(target_os = "linux") { 40 } else { 62 };

fn collect(p: &Path, out: &mut Vec<PathBuf>, seen: &mut std::collections::HashSet<PathBuf>, diags: &mut Diagnostics, depth: usize) {
    if let Ok(real) = std::fs::canonicalize(p) {
        if !seen.insert(real) {
            return;
        }
    }
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
            // Hidden entries are an editor's or a system's, not the spec's:
            // Emacs locks (`.#a.txt`, dangling links), `.git`, AppleDouble `._a.txt`.
            if e.file_name().is_some_and(|n| n.as_encoded_bytes().starts_with(b".")) {
                continue;
            }
            if e.is_dir() || e.extension().is_some_and(|x| x == "txt") {
                collect(&e, out, seen, diags, depth + 1);
            }
        }
    } else if p.is_file() {
        out.push(p.to_path_buf());
    } else if p.exists() {
        // A FIFO or device would block the read or never end.
        diags.push(Diagnostic::new(Code::Io, None, format!("{}: not a regular file", p.display())));
    } else {
        let why = match std::fs::symlink_metadata(p) {
            Ok(m) if m.is_symlink() => match std::fs::metadata(p) {
                Err(e) if e.raw_os_error() == Some(LOOP_ERRNO) => "a symbolic link in a loop (too many levels of links)",
                _ => "a broken symbolic link (what it names does not exist)",
            },
            _ => "no such file or directory",
        };
        diags.push(Diagnostic::new(Code::Io, None, format!("{}: {why}", p.display())));
    }
}

/// Reads the spec files under `paths` and runs the front end. When files
/// are given one by one and some name they use is undeclared, the files
/// beside them (in their directories and one level below) are read too,
/// only to say in a note where it is declared.
pub fn load(paths: &[PathBuf]) -> Frontend {
    let mut diags = Diagnostics::default();
    let mut sources = SourceMap::new();
    let files = collect_spec_files(paths, &mut diags);
    let names = spec_names(&files);
    // In the order of the names below the root: the same IR from any directory.
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_cached_key(|&i| PathBuf::from(&names[i]));
    for i in order {
        let f = &files[i];
        match std::fs::read(f) {
            Ok(bytes) => {
                let id = add_source(&mut sources, &display_name(f), &bytes, &mut diags);
                sources.set_spec_name(id, names[i].clone());
            }
            Err(e) => diags.push(Diagnostic::new(Code::Io, None, format!("{}: {e}", f.display()))),
        }
    }
    let mut fe = compile(sources, diags);
    note_declarations_elsewhere(paths, &files, &mut fe.diagnostics);
    fe
}

/// When files of a spec are given one by one, a name they use may be
/// declared in a file beside them that was not given (`check
/// spec/004_ialu.txt` without `spec/base/`): each error or warning about
/// such a name (an undefined type or parent, no `__DefIsa`, no simulation
/// hook) gets a note naming the file that declares it. Only the `*.txt`
/// files in the given files' directories and in their subdirectories one
/// level down are read ([`nearby_files`]), and only when they and the
/// files given declare one `__DefIsa` between them, as one spec does (a
/// directory of test specs, each with its own, is no spec).
fn note_declarations_elsewhere(paths: &[PathBuf], files: &[PathBuf], diags: &mut Diagnostics) {
    use ast::DeclKind as K;
    let concerns = |d: &Diagnostic| match d.code {
        Code::UndefinedType => d.message.starts_with("undefined type `"),
        Code::UndefinedParent => d.message.starts_with("undefined parent `"),
        Code::MissingIsa => d.message.starts_with("the spec declares no `__DefIsa`"),
        Code::NoSimulation => d.message.ends_with("has no simulation hook; it cannot execute"),
        _ => false,
    };
    // More than one `__DefIsa` given: no spec to look into.
    if !diags.items.iter().any(concerns) || diags.items.iter().any(|d| d.code == Code::MissingIsa && !concerns(d)) {
        return;
    }
    // The directories of the files given.
    let mut dirs: Vec<PathBuf> = paths.iter().filter(|p| p.is_file()).map(|p| p.parent().filter(|d| !d.as_os_str().is_empty()).map_or_else(|| PathBuf::from("."), Path::to_path_buf)).collect();
    dirs.sort();
    dirs.dedup();
    let given: Vec<PathBuf> = files.iter().filter_map(|f| std::fs::canonicalize(f).ok()).collect();
    // Where each declaration of the files beside them is, the first in path order: (kind, name) -> `file:line`.
    let mut declared: std::collections::BTreeMap<(K, String), String> = std::collections::BTreeMap::new();
    let mut isas = usize::from(!diags.items.iter().any(|d| d.code == Code::MissingIsa));
    for f in nearby_files(&dirs).iter().filter(|f| std::fs::canonicalize(f).is_ok_and(|c| !given.contains(&c))) {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        if !is_dsl(&text) {
            continue;
        }
        let mut sources = SourceMap::new();
        let id = sources.add(display_name(f), &text);
        for d in parser::parse_file(id, &text, &mut Diagnostics::default()).decls {
            isas += usize::from(d.kind == K::Isa);
            let at = sources.location(d.span);
            let at = at.rsplit_once(':').map_or(at.as_str(), |(file_line, _)| file_line).to_string();
            declared.entry((d.kind, d.name.value.clone())).or_insert(at);
        }
    }
    if isas != 1 {
        return;
    }
    let quoted = |m: &str| m.split('`').nth(1).map(str::to_string);
    let whole = dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(" ");
    for d in diags.items.iter_mut().filter(|d| concerns(d)) {
        let (kinds, name): (&[K], Option<String>) = match d.code {
            Code::UndefinedType => (&[K::BitFieldType, K::OperandType], quoted(&d.message)),
            Code::UndefinedParent => (&[K::Group, K::Optype], quoted(&d.message)),
            Code::MissingIsa => (&[K::Isa], declared.keys().find(|(k, _)| *k == K::Isa).map(|(_, n)| n.clone())),
            _ => (&[K::Simulation], quoted(&d.message)),
        };
        let Some(name) = name else { continue };
        if let Some(at) = kinds.iter().find_map(|&k| declared.get(&(k, name.clone()))) {
            let what = if d.code == Code::MissingIsa { format!("`__DefIsa {name}`") } else { format!("`{name}`") };
            d.notes.push(format!("{what} is declared in {at}, a file not among those given (give `{whole}` for the whole spec)"));
            // A near name in the files checked is no better guess than the declaration itself.
            if d.label.starts_with("did you mean") {
                d.label.clear();
            }
        }
    }
}

/// The `*.txt` files in `dirs` and in their subdirectories one level down,
/// in path order, hidden names skipped; none when there are more than a
/// spec has (64 files, 64 subdirectories, or a file over 4 MiB is left out),
/// so that a file checked in a crowded directory (`/tmp`) costs little.
fn nearby_files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    const MAX: usize = 64;
    let listed = |d: &Path| -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(d) else { return Vec::new() };
        let mut v: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| !p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.'))).take(4 * MAX).collect();
        v.sort();
        v
    };
    let spec_file = |p: &Path| p.extension().is_some_and(|e| e == "txt") && std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= 4 << 20);
    let (mut out, mut subdirs) = (Vec::new(), 0);
    for d in dirs {
        for p in listed(d) {
            if p.is_dir() {
                subdirs += 1;
                out.extend(listed(&p).into_iter().filter(|p| spec_file(p)));
            } else if spec_file(&p) {
                out.push(p);
            }
            if out.len() > MAX || subdirs > MAX {
                return Vec::new();
            }
        }
    }
    out
}

/// How generated files and the manual name each of `files`: its path
/// below the spec's project, `/`-separated, whatever the current directory
/// and however the paths were spelled (`spec`, `../spec`, `/abs/spec`, or
/// the files one by one, all give `spec/a.txt`). The project is the
/// nearest directory holding a `Cargo.toml` above the files (present in a
/// clone, an exported tree and a container build alike, unlike `.git`),
/// else the parent of the deepest directory holding them all.
pub fn spec_names(files: &[PathBuf]) -> Vec<String> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let absolute: Vec<PathBuf> = files.iter().map(|f| lexical(&cwd.join(f))).collect();
    let mut common: Option<PathBuf> = None;
    for a in &absolute {
        let dir = a.parent().unwrap_or(a);
        common = Some(match common {
            None => dir.to_path_buf(),
            Some(c) => c.components().zip(dir.components()).take_while(|(x, y)| x == y).map(|(x, _)| x).collect(),
        });
    }
    let root = common.as_deref().map(|c| c.ancestors().find(|a| a.join("Cargo.toml").is_file()).or(c.parent()).unwrap_or(c).to_path_buf());
    files
        .iter()
        .zip(&absolute)
        .map(|(f, a)| match root.as_deref().and_then(|r| a.strip_prefix(r).ok()) {
            Some(rel) if !rel.as_os_str().is_empty() => rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"),
            _ => display_name(f),
        })
        .collect()
}

/// `p` without `.` components, and with `x/..` taken out (by the text: a
/// link is not followed).
fn lexical(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The name a spec file goes by in diagnostics: the path as given,
/// without `.` components, and relative to the current directory when it
/// lies below it (generated files use [`spec_names`] instead).
pub fn display_name(path: &Path) -> String {
    let mut p = path;
    let stripped;
    if path.is_absolute() {
        if let Ok(cwd) = std::env::current_dir() {
            if let Ok(rel) = path.strip_prefix(&cwd) {
                stripped = rel.to_path_buf();
                p = &stripped;
            }
        }
    }
    let clean: PathBuf = p.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect();
    clean.display().to_string()
}

/// Adds one spec file's bytes, reporting invalid UTF-8 and control
/// characters (W039).
pub fn add_source(sources: &mut SourceMap, name: &str, bytes: &[u8], diags: &mut Diagnostics) -> FileId {
    let (id, utf8) = add_file(sources, name, bytes, diags);
    if utf8 {
        // A NUL or an escape in a text spec: most likely a damaged file,
        // whose bytes would go on into the manual.
        let text = &sources.get(id).text;
        let control = |c: char| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{c}');
        if let Some((at, c)) = text.char_indices().find(|&(_, c)| control(c)) {
            let more = text.chars().filter(|&c| control(c)).count() - 1;
            let mut d = Diagnostic::new(Code::ControlCharacter, Span::new(id, at, at + c.len_utf8()), format!("control character U+{:04X} in a spec file", c as u32))
                .with_label("a text spec holds none: is the file damaged?");
            if more > 0 {
                d = d.with_note(format!("{more} more in this file"));
            }
            diags.push(d);
        }
    }
    id
}

/// Adds the bytes of a file that is not a spec (a program to assemble, a
/// file of words), reporting invalid UTF-8 only: a control character in
/// it is the assembler's to judge, not a damaged spec.
pub fn add_input(sources: &mut SourceMap, name: &str, bytes: &[u8], diags: &mut Diagnostics) -> FileId {
    add_file(sources, name, bytes, diags).0
}

/// Adds a file's bytes, reporting invalid UTF-8: its id, and whether it was UTF-8.
fn add_file(sources: &mut SourceMap, name: &str, bytes: &[u8], diags: &mut Diagnostics) -> (FileId, bool) {
    let (id, bad) = sources.add_bytes(name, bytes);
    if let Some(at) = bad {
        diags.push(
            Diagnostic::new(Code::InvalidUtf8, Span::new(id, at, at), "file is not valid UTF-8")
                .with_label(isa_runtime::report::INVALID_UTF8_LABEL)
                .with_notes(isa_runtime::report::invalid_utf8_notes(bytes)),
        );
    }
    (id, bad.is_none())
}

/// Whether a file is written in the DSL (it declares something with `__Def`,
/// or with a declaration keyword in the wrong case, which is then reported).
pub fn is_dsl(text: &str) -> bool {
    text.lines().any(|l| {
        let head = l.trim_start();
        head.starts_with("__Def") || parser::miscased_keyword(head).is_some()
    })
}

/// Runs parse -> resolve -> bind -> check over every file in `sources`.
/// Files in the SPA 5.3 notation go through its own front end (`spa`) into
/// `Isa::legacy`; other files with no `__Def` declaration are not DSL and are
/// skipped with warning W013, except files of blanks and `//` comments only
/// (empty DSL files). A spec that declares nothing at all is an error.
pub fn compile(sources: SourceMap, mut diags: Diagnostics) -> Frontend {
    let mut dsl = Vec::new();
    let mut spa = Vec::new();
    for (id, f) in sources.files() {
        if spa::is_spa(&f.text) {
            spa.push(id);
            continue;
        }
        if !is_dsl(&f.text) && !f.text.lines().all(parser::is_blank_or_comment) {
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
    // Every file skipped: there is no spec here, whatever the files are called.
    if dsl.is_empty() && spa.is_empty() && sources.files().next().is_some() && !diags.has_errors() {
        diags.push(
            Diagnostic::new(Code::Io, None, "no file of the spec is in the DSL: every one was skipped (W013)")
                .with_note("give the spec's directory, e.g. `spec/`, or its files"),
        );
    }
    let isa = pipeline::run(&sources, dsl, spa, &mut diags);
    // Only empty or comment-only files: an empty ISA is a mistake, not a spec.
    let nothing = isa.types.is_empty() && isa.groups.is_empty() && isa.optypes.is_empty() && isa.legacy.is_empty();
    if nothing && sources.files().next().is_some() && !diags.has_errors() {
        diags.push(
            Diagnostic::new(Code::Io, None, "the spec declares nothing: its files are empty or comments only")
                .with_note("give the spec's directory, e.g. `spec/`, or its files"),
        );
    }
    diags.sort();
    Frontend { sources, isa, diagnostics: diags }
}

/// Runs the front end on in-memory files `(name, text)`.
pub fn compile_texts<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Frontend {
    let mut sources = SourceMap::new();
    for (name, text) in files {
        sources.add(name, text);
    }
    compile(sources, Diagnostics::default())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_with_a_miscased_keyword_is_dsl_and_bold_prose_is_not() {
        // Read as DSL, so its headers are reported (E004), not the whole file skipped (W013).
        assert!(super::is_dsl("__defopcode X : [Y]\n"));
        assert!(super::is_dsl("  __DEFGROUP G : [ALL]\n"));
        assert!(!super::is_dsl("__default__ values are bold in Markdown\n"));
        assert!(!super::is_dsl("plain prose\n"));
    }
}
