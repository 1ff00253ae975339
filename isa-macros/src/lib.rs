//! The `isa!` proc-macro: embeds an ISA spec in a downstream crate. Glue only:
//! it finds the files, runs the same front end and code generator as the
//! `isa-codegen` CLI (`isa_dsl::compile`, `isa_codegen::expand`), and turns spec
//! errors into compile errors.
//!
//! ```ignore
//! isa_macros::isa! {
//!     include "spec/**/*.txt";  // the whole spec, subfolders too, as `isa-codegen spec/` reads it
//!     module gpu;            // optional: the module to expand into (default: the ISA's name, lower case)
//! }
//! ```
//! * The module is `pub`. Its default name is the ISA's name in lower case,
//!   other characters than letters and digits made `_`, and `isa_` before a
//!   name that would start with a digit; a name that is a Rust keyword is
//!   an error (give `module`).
//! * `include` takes a glob, a file or a directory (its `*.txt` files,
//!   subfolders too, as the command line reads one); give it as often as
//!   needed. A file matched twice (two globs, `a/../b` spellings, links) is
//!   read once. Hidden names (`.#a.txt`, an editor's lock; `.git/`) are
//!   skipped, by a directory walk as by `*` and `**` (write the dot to
//!   match one), as the command line skips them. Settings end with `;` (or
//!   `,`), which may be left out.
//! * Paths are relative to the calling crate's `CARGO_MANIFEST_DIR` (or to
//!   `ISA_MACRO_ROOT` when that environment variable is set, itself relative
//!   to `CARGO_MANIFEST_DIR`); an absolute path or glob is taken as it is.
//! * The expansion refers to `::isa_runtime` (the hand-written runtime: text
//!   model, warp, float kernels), so the calling crate depends on
//!   `isa-runtime` under that name, as well as on this crate; it needs `std`.
//! * Every matched file is passed to `include_bytes!`, so Cargo rebuilds the
//!   crate when one of them changes or is deleted. A *new* file a glob would
//!   match is not seen until the crate is rebuilt for another reason: a
//!   `build.rs` with `println!("cargo:rerun-if-changed=spec");` (Cargo scans
//!   the directory) makes adding a file rebuild it too, as
//!   `examples/downstream` does.
//! * The spec is checked as `isa-codegen check` checks it (examples and
//!   links too). Spec errors are compile errors at the `include` that
//!   brought in the file; they name spec files from rustc's working
//!   directory, as rustc names the source file (in a workspace, its root).
//! * Spec warnings: stable Rust has no proc-macro warnings, so they come as
//!   one `deprecated` warning at the `include` that brought in the first:
//!   their count per code and the first three (`isa-codegen check` lists
//!   them all). `deny_warnings;` makes them errors instead, as `check
//!   --deny-warnings` does; `allow "W010, W014";` lets those codes pass
//!   either way, as `--allow` does (warning codes only).
//! * `isa-macros` and `isa-runtime` come from one revision of this
//!   repository (path or git dependencies; they are not on crates.io).

use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::quote;
use std::path::{Path, PathBuf};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

/// Expands to the generated ISA API. See the crate documentation.
#[proc_macro]
pub fn isa(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as Input);
    match expand(input) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

struct Input {
    includes: Vec<LitStr>,
    module: Option<Ident>,
    /// `deny_warnings`: spec warnings fail the build.
    deny_warnings: bool,
    /// `allow "W010, W014"`: codes `deny_warnings` lets pass.
    allow: Vec<LitStr>,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut out = Input { includes: Vec::new(), module: None, deny_warnings: false, allow: Vec::new() };
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            match key.to_string().as_str() {
                "include" => out.includes.push(input.parse()?),
                "module" => {
                    if out.module.is_some() {
                        return Err(syn::Error::new(key.span(), "`module` is given twice"));
                    }
                    out.module = Some(input.parse()?);
                }
                "deny_warnings" => out.deny_warnings = true,
                "allow" => out.allow.push(input.parse()?),
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("unknown setting `{other}`; expected `include \"glob\"`, `module name`, `deny_warnings` or `allow \"W010, ...\"`"),
                    ))
                }
            }
            if input.peek(Token![;]) {
                input.parse::<Token![;]>()?;
            } else if input.peek(Token![,]) {
                input.parse::<Token![,]>()?;
            }
        }
        if out.includes.is_empty() {
            return Err(syn::Error::new(Span::call_site(), "`isa!` needs at least one `include \"glob\"`"));
        }
        Ok(out)
    }
}

fn expand(input: Input) -> syn::Result<proc_macro2::TokenStream> {
    // `ISA_MACRO_ROOT` overrides the base directory: trybuild builds its test
    // crates under target/, where CARGO_MANIFEST_DIR is not the source tree.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from("."), PathBuf::from);
    let root = match std::env::var_os("ISA_MACRO_ROOT") {
        Some(r) => manifest.join(r),
        None => manifest,
    };
    // Absolute, so `include_bytes!` (which resolves a relative path against
    // the source file) reads the files the glob found.
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    // Diagnostics name a file as rustc names the calling source file:
    // from rustc's working directory (a workspace's root under Cargo, which
    // prints its paths from there), so terminals and editors find it. With
    // `ISA_MACRO_ROOT` (trybuild's builds under target/), from that root.
    let cwd = std::env::current_dir().ok().filter(|_| std::env::var_os("ISA_MACRO_ROOT").is_none());
    let cwd = cwd.map(|c| std::fs::canonicalize(&c).unwrap_or(c));
    // (path as shown in diagnostics, absolute path, the include it came from)
    let mut files: Vec<(String, PathBuf, usize)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (k, lit) in input.includes.iter().enumerate() {
        for p in matches(&root, lit)? {
            // One file spelled two ways (`a/../b`, a link) is read once.
            if seen.insert(std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone())) {
                let shown = match &cwd {
                    Some(c) => relative(&std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone()), c),
                    None => p.strip_prefix(&root).unwrap_or(&p).display().to_string(),
                };
                files.push((shown, p, k));
            }
        }
    }
    // In path order, as the command line reads them: the order of the
    // includes does not change the expansion.
    files.sort_by(|a, b| a.1.cmp(&b.1));
    let mut diags = isa_dsl::Diagnostics::default();
    let mut sources = isa_dsl::SourceMap::new();
    for (shown, path, k) in &files {
        let bytes = std::fs::read(path)
            .map_err(|e| syn::Error::new(input.includes[*k].span(), format!("cannot read {shown}: {e}")))?;
        isa_dsl::add_source(&mut sources, shown, &bytes, &mut diags);
    }
    let fe = isa_dsl::compile(sources, diags);
    // A file skipped as not the DSL (W013) would vanish without a word:
    // the macro cannot show warnings, and such a file is a wrong glob.
    let skipped = fe.diagnostics.items.iter().filter(|d| d.code == isa_dsl::Code::LegacySkipped);
    if let Some((shown, _, k)) = skipped.filter_map(|d| files.get(d.span?.file.0 as usize)).next() {
        let msg = format!("{shown} is not a spec file: it has no `__Def...` declaration (`isa!` includes only spec files; narrow the glob)");
        return Err(syn::Error::new(input.includes[*k].span(), msg));
    }
    // The CLI's checks: names, examples, links.
    let fe = isa_codegen::check_frontend(fe).fe;
    // The include that brought in the file of the first diagnostic `keep` keeps.
    let include_of = |keep: &dyn Fn(&isa_dsl::Diagnostic) -> bool| {
        let first = fe.diagnostics.items.iter().filter(|d| keep(d)).find_map(|d| d.span).map(|s| s.file.0 as usize);
        first.and_then(|f| files.get(f)).map_or(&input.includes[0], |(_, _, k)| &input.includes[*k])
    };
    // Codes are checked whether or not `deny_warnings` is set.
    let mut allowed = Vec::new();
    for lit in &input.allow {
        for code in lit.value().split([',', ' ']).filter(|c| !c.is_empty()) {
            // The command line's rule (`check --allow`): warnings only.
            match isa_dsl::Code::allowed_warning(code) {
                Ok(c) => allowed.push(c),
                Err(why) => return Err(syn::Error::new(lit.span(), why)),
            }
        }
    }
    if input.deny_warnings {
        let mut denied = isa_dsl::Diagnostics::default();
        denied.extend(fe.diagnostics.items.iter().filter(|d| !d.is_error() && !allowed.contains(&d.code)).cloned());
        if !denied.is_empty() && !fe.has_errors() {
            let lit = include_of(&|d| !d.is_error() && !allowed.contains(&d.code));
            let msg = format!("the ISA spec has warnings, and `deny_warnings` is set:\n\n{}{}", denied.render(&fe.sources, false), denied.summary());
            return Err(syn::Error::new(lit.span(), msg));
        }
    }
    let Some(api) = isa_codegen::expand(&fe) else {
        let lit = include_of(&|d| d.is_error());
        let mut errors = isa_dsl::Diagnostics::default();
        errors.extend(fe.diagnostics.items.iter().filter(|d| d.is_error()).cloned());
        let msg = format!(
            "the ISA spec has errors:\n\n{}{} (warnings are not shown here: `isa-codegen check` lists them)",
            errors.render(&fe.sources, false),
            fe.diagnostics.summary()
        );
        return Err(syn::Error::new(lit.span(), msg));
    };
    // Warnings not allowed: one deprecation warning at the include that
    // brought in the first, since stable Rust has no proc-macro warnings.
    let mut warned = isa_dsl::Diagnostics::default();
    warned.extend(fe.diagnostics.items.iter().filter(|d| !d.is_error() && !allowed.contains(&d.code)).cloned());
    let notice = (!warned.is_empty()).then(|| {
        warned.sort_by_place();
        let span = include_of(&|d| !d.is_error() && !allowed.contains(&d.code)).span();
        let note = warnings_note(&warned, &fe.sources);
        quote::quote_spanned! {span=>
            #[deprecated(note = #note)]
            const ISA_SPEC_WARNINGS: () = ();
            const _: () = ISA_SPEC_WARNINGS;
        }
    });
    let tracked = files.iter().map(|(_, p, _)| p.display().to_string());
    // The API opens with inner attributes, so it needs a module of its own.
    let module = match input.module.clone() {
        Some(m) => m,
        None => {
            let name = default_module(&fe.isa.name);
            syn::parse_str::<Ident>(&name).map_err(|_| {
                let msg = format!("the ISA's name `{}` makes the module `{name}`, a Rust keyword: name the module with `module name;`", fe.isa.name);
                syn::Error::new(input.includes[0].span(), msg)
            })?
        }
    };
    let api = clippy_allows_only(api);
    Ok(quote! {
        pub mod #module {
            #api
            // Makes Cargo rebuild this crate when a spec file changes, and
            // rustc record the variable that moves the base directory.
            #( const _: &[u8] = ::core::include_bytes!(#tracked); )*
            const _: ::core::option::Option<&str> = ::core::option_env!("ISA_MACRO_ROOT");
            #notice
        }
    })
}

/// What the deprecation warning of [`expand`] says about the spec's
/// warnings: their count per code, the first few, and how to see, deny or
/// silence them.
fn warnings_note(warned: &isa_dsl::Diagnostics, sources: &isa_dsl::SourceMap) -> String {
    const FIRST: usize = 3;
    let mut codes: Vec<(isa_dsl::Code, usize)> = Vec::new();
    for d in &warned.items {
        match codes.iter_mut().find(|(c, _)| *c == d.code) {
            Some((_, n)) => *n += 1,
            None => codes.push((d.code, 1)),
        }
    }
    codes.sort_by_key(|(c, _)| c.as_str());
    let counts: Vec<String> = codes.iter().map(|(c, n)| format!("{} \u{d7}{n}", c.as_str())).collect();
    let n = warned.items.len();
    let mut note = format!("the ISA spec has {n} warning{} ({}), which `isa!` cannot show as warnings of their own", if n == 1 { "" } else { "s" }, counts.join(", "));
    note.push_str(if n > FIRST { "; the first:" } else { ":" });
    for d in warned.items.iter().take(FIRST) {
        let at = d.span.map_or_else(String::new, |s| format!("{}: ", sources.location(s)));
        note.push_str(&format!("\n  {at}warning[{}]: {}", d.code.as_str(), d.message));
    }
    let list: Vec<&str> = codes.iter().map(|(c, _)| c.as_str()).collect();
    note.push_str(&format!(
        "\n`isa-codegen check` lists them all; `deny_warnings;` makes them errors; `allow \"{}\";` silences these codes",
        list.join(", ")
    ));
    note
}

/// The tokens with only Clippy's lints left in their `allow` attributes
/// (`#[allow(..)]`, `#![allow(..)]`), which the generated crate needs.
/// The compiler's own lints are not reported inside another crate's macro,
/// and an `allow` of one there breaks a crate that `forbid`s it (E0453:
/// `#![forbid(unused)]` against `#![allow(unused)]`). Clippy's lints are
/// reported there (`too_many_arguments` on the simulator's functions), so
/// those stay.
fn clippy_allows_only(ts: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
    let tokens: Vec<TokenTree> = ts.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let bang = matches!(tokens.get(i + 1), Some(TokenTree::Punct(q)) if q.as_char() == '!');
        let at = i + 1 + bang as usize;
        let attr = match (&tokens[i], tokens.get(at)) {
            (TokenTree::Punct(p), Some(TokenTree::Group(g))) if p.as_char() == '#' && g.delimiter() == Delimiter::Bracket => Some(g),
            _ => None,
        };
        let body: Vec<TokenTree> = attr.map(|g| g.stream().into_iter().collect()).unwrap_or_default();
        if let [TokenTree::Ident(allow), TokenTree::Group(lints)] = body.as_slice() {
            if allow == "allow" && lints.delimiter() == Delimiter::Parenthesis {
                // The lints, split at commas; Clippy's are `clippy::name`.
                let all: Vec<TokenTree> = lints.stream().into_iter().collect();
                let kept: Vec<TokenStream> = all
                    .split(|t| matches!(t, TokenTree::Punct(c) if c.as_char() == ','))
                    .filter(|l| matches!(l.first(), Some(TokenTree::Ident(id)) if id == "clippy"))
                    .map(|l| l.iter().cloned().collect())
                    .collect();
                if !kept.is_empty() {
                    let group = Group::new(Delimiter::Parenthesis, quote! { #(#kept),* });
                    let attr = Group::new(Delimiter::Bracket, quote! { allow #group });
                    out.extend(tokens[i..at].iter().cloned());
                    out.push(TokenTree::Group(attr));
                }
                i = at + 1;
                continue;
            }
        }
        out.push(match &tokens[i] {
            TokenTree::Group(g) => {
                let mut n = Group::new(g.delimiter(), clippy_allows_only(g.stream()));
                n.set_span(g.span());
                TokenTree::Group(n)
            }
            t => t.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// `GPU` -> `gpu`: the module name when none is given.
fn default_module(isa_name: &str) -> String {
    let s: String = isa_name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) { format!("isa_{s}") } else { s }
}

/// Files a glob matches, in sorted order; a path without wildcards must
/// name an existing file, or a directory (its spec files, as the command
/// line reads one).
/// `path` as seen from the directory `from` (both absolute): below it, or
/// through `..`; absolute when they share no prefix but the root.
fn relative(path: &Path, from: &Path) -> String {
    let (p, f): (Vec<_>, Vec<_>) = (path.components().collect(), from.components().collect());
    let common = p.iter().zip(&f).take_while(|(a, b)| a == b).count();
    if common <= 1 {
        return path.display().to_string();
    }
    let ups = std::iter::repeat_n(std::path::Component::ParentDir, f.len() - common);
    ups.chain(p[common..].iter().copied()).collect::<PathBuf>().display().to_string()
}

fn matches(root: &Path, lit: &LitStr) -> syn::Result<Vec<PathBuf>> {
    let pattern = lit.value();
    let full = root.join(&pattern);
    let is_glob = pattern.contains(['*', '?', '[']);
    if !is_glob {
        if full.is_dir() {
            let mut diags = isa_dsl::Diagnostics::default();
            let files = isa_dsl::collect_spec_files(std::slice::from_ref(&full), &mut diags);
            if let Some(d) = diags.items.first() {
                return Err(syn::Error::new(lit.span(), format!("{pattern}: {} (in {})", d.message, root.display())));
            }
            return Ok(files);
        }
        return if full.is_file() {
            Ok(vec![full])
        } else {
            Err(syn::Error::new(lit.span(), format!("no such spec file or directory: {pattern} (in {})", root.display())))
        };
    }
    // The base directory is a path, not a pattern: `[`, `*` or `?` in it
    // must not match other directories. An absolute pattern has none (as
    // `root.join` leaves an absolute path alone).
    let (base, joined) = if Path::new(&pattern).is_absolute() {
        (String::new(), pattern.clone())
    } else {
        let base = glob::Pattern::escape(&root.to_string_lossy());
        let joined = format!("{base}/{pattern}");
        (base, joined)
    };
    let prefix = if base.is_empty() { 0 } else { base.len() + 1 };
    // As a shell's: `*` matches no hidden name (an editor's `.#a.txt`,
    // `.git/`), as the command line's directory walk skips them.
    let options = glob::MatchOptions { require_literal_leading_dot: true, ..glob::MatchOptions::new() };
    let paths = glob::glob_with(&joined, options).map_err(|e| {
        let at = e.pos.saturating_sub(prefix);
        syn::Error::new(lit.span(), format!("bad glob `{pattern}`: {} at character {at}", e.msg))
    })?;
    let mut out: Vec<PathBuf> = paths.filter_map(Result::ok).filter(|p| p.is_file()).collect();
    out.sort();
    if out.is_empty() {
        return Err(syn::Error::new(lit.span(), format!("`{pattern}` matches no file (in {})", root.display())));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths from a directory: below it, up through `..`, or absolute.
    #[test]
    fn relative_paths() {
        assert_eq!(relative(Path::new("/w/spec/a.txt"), Path::new("/w")), "spec/a.txt");
        assert_eq!(relative(Path::new("/w/specs/a.txt"), Path::new("/w/ws/c1")), "../../specs/a.txt");
        assert_eq!(relative(Path::new("/x/a.txt"), Path::new("/w")), "/x/a.txt");
    }

    /// Hidden names are skipped as the command line skips them: by `*` and
    /// `**` and by a directory walk; written with their dot, they match.
    #[test]
    fn hidden_names_are_skipped() {
        let top = std::env::temp_dir().join(format!("isa-macros-hidden-{}", std::process::id()));
        for file in ["spec/a.txt", "spec/.#a.txt", "spec/.git/b.txt", "spec/sub/c.txt"] {
            std::fs::create_dir_all(top.join(file).parent().unwrap()).unwrap();
            std::fs::write(top.join(file), "").unwrap();
        }
        let names = |pattern: &str| -> Vec<String> {
            let found = matches(&top, &LitStr::new(pattern, Span::call_site())).unwrap();
            found.iter().map(|p| p.strip_prefix(&top).unwrap().display().to_string()).collect()
        };
        assert_eq!(names("spec/**/*.txt"), ["spec/a.txt", "spec/sub/c.txt"]);
        assert_eq!(names("spec/*.txt"), ["spec/a.txt"]);
        assert_eq!(names("spec"), ["spec/a.txt", "spec/sub/c.txt"]);
        assert_eq!(names("spec/.git/*.txt"), ["spec/.git/b.txt"]);
        assert_eq!(names("spec/.#a.txt"), ["spec/.#a.txt"]);
        std::fs::remove_dir_all(&top).unwrap();
    }

    /// `[`, `*` and `?` in the crate's own path are not wildcards: a crate
    /// in `weird[v1]/` reads its own `spec/`, not a sibling `weird1/`'s.
    #[test]
    fn the_base_directory_is_not_a_pattern() {
        let top = std::env::temp_dir().join(format!("isa-macros-glob-{}", std::process::id()));
        for (dir, file) in [("weird[v1]/spec", "own.txt"), ("weird1/spec", "sibling.txt")] {
            std::fs::create_dir_all(top.join(dir)).unwrap();
            std::fs::write(top.join(dir).join(file), "").unwrap();
        }
        let lit = LitStr::new("spec/*.txt", Span::call_site());
        let found = matches(&top.join("weird[v1]"), &lit).unwrap();
        let names: Vec<_> = found.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["own.txt"]);
        // A bad pattern's position is counted in the pattern as written.
        let bad = LitStr::new("spec/[*.txt", Span::call_site());
        let e = matches(&top.join("weird[v1]"), &bad).unwrap_err().to_string();
        assert!(e.contains("at character 5"), "{e}");
        // An absolute glob is taken as it is, as an absolute path is.
        let abs = LitStr::new(&format!("{}/weird1/spec/*.txt", top.display()), Span::call_site());
        let found = matches(&top.join("weird[v1]"), &abs).unwrap();
        assert_eq!(found, [top.join("weird1/spec/sibling.txt")]);
        std::fs::remove_dir_all(&top).unwrap();
    }
}
