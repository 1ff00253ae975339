//! `isa-codegen`: passes over the checked IR of `isa-dsl` and the library
//! behind the `isa-codegen` command line. The front doors share these calls,
//! so there is one code path:
//!
//! ```text
//! CLI:     check(paths) -> Checked -> generate(&checked, &options) -> Files -> output::write_atomically
//! isa!:    isa_dsl::compile(sources) -> Frontend -> check_frontend -> Checked -> expand(&checked.fe) -> tokens
//! ```
//!
//! [`check`] is the front end ([`isa_dsl::load`]) plus the checks that need
//! the passes (names, examples, shadowed forms, links: [`check_frontend`]); [`generate`]
//! writes the crate and the reference manual; [`expand`] is the crate's code
//! as one token stream, the same items [`generate`] writes as files.

#![warn(missing_docs)]

pub mod asm;
pub mod diff;
pub mod docs;
pub mod dump;
pub mod examples;
pub mod gen_rust;
pub mod gen_sim;
pub mod interp;
pub mod links;
pub mod names;
pub mod output;
pub mod plan;
pub mod shadow;

pub use isa_dsl::{load, Frontend};

/// The front end plus the passes that validate the spec further: every
/// `__Examples` line must assemble and round-trip (W014), no form's lines
/// may assemble as another opcode (W028), every link in the prose must
/// resolve (W010). What `isa-codegen check` reports, and what the
/// generator and the manual are built from.
pub struct Checked {
    /// The front end's result, its diagnostics extended and sorted.
    pub fe: Frontend,
    /// Every `__Examples` line of the spec, assembled and round-tripped.
    pub examples: Vec<examples::CheckedExample>,
    /// How many example lines there are, and how many of them are defective.
    pub example_stats: examples::ExampleStats,
}

/// The check code generation needs beyond the front end's: spec names the
/// generated Rust cannot keep apart (E060, [`names::check`]). Run by
/// [`check_frontend`], which the CLI and the `isa!` macro both run.
pub fn check_names(fe: &mut Frontend) {
    if !fe.has_errors() {
        let found = names::check(&fe.isa);
        fe.diagnostics.extend(found);
        fe.diagnostics.sort();
    }
}

/// Runs the checks on a front-end result.
pub fn check_frontend(mut fe: Frontend) -> Checked {
    check_names(&mut fe);
    let (examples, stats) = if fe.has_errors() {
        (Vec::new(), examples::ExampleStats::default())
    } else {
        let asm = asm::Assembler::new(&fe.isa);
        let (examples, diags, stats) = examples::check_examples(&asm);
        fe.diagnostics.extend(diags);
        fe.diagnostics.extend(shadow::check(&asm));
        (examples, stats)
    };
    fe.diagnostics.extend(links::check(&fe.isa, &fe.sources));
    fe.diagnostics.sort();
    Checked { fe, examples, example_stats: stats }
}

/// `isa-codegen check SPEC...`.
pub fn check(paths: &[std::path::PathBuf]) -> Checked {
    check_frontend(load(paths))
}

/// Options of the generator.
#[derive(Clone, Debug)]
pub struct Options {
    /// Package name of the generated crate.
    pub crate_name: String,
    /// Path of the `isa-runtime` crate as seen from the output directory
    /// (the generated crate's text module depends on it).
    pub runtime_path: String,
}

impl Options {
    /// Whether the options can be written into `Cargo.toml` and Rust as they
    /// are: the crate name must be a Cargo package name, the runtime path a
    /// path without control characters.
    pub fn validate(&self) -> Result<(), String> {
        crate_name(&self.crate_name)?;
        runtime_path(&self.runtime_path)?;
        Ok(())
    }
}

/// A Cargo package name: ASCII letters, digits, `-` and `_`, starting with a
/// letter, at most 64 characters (what `cargo new` accepts, and what a Rust
/// identifier can be made of).
pub fn crate_name(name: &str) -> Result<String, String> {
    let ok = name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(name.to_string())
    } else {
        Err(format!("`{}` is not a crate name: use ASCII letters, digits, `-` and `_`, starting with a letter (at most 64)", name.escape_debug()))
    }
}

/// A path for `Cargo.toml`'s `path = "..."`: not empty, no control characters
/// (quotes and backslashes are escaped when written).
pub fn runtime_path(path: &str) -> Result<String, String> {
    if path.is_empty() || path.chars().any(char::is_control) {
        return Err(format!("`{}` is not a usable runtime path: it is empty or holds control characters", path.escape_debug()));
    }
    Ok(path.to_string())
}

impl Default for Options {
    fn default() -> Self {
        Options { crate_name: "isa-generated".to_string(), runtime_path: "../isa-runtime".to_string() }
    }
}

/// Everything `isa-codegen SPEC -o DIR` writes, as (relative path, text):
/// the Rust crate, the reference manual (`docs/html`, `docs/md`) and the
/// list of both ([`output::MANIFEST`]). Refuses when the spec has errors.
pub fn generate(checked: &Checked, options: &Options) -> Result<output::Files, String> {
    let fe = &checked.fe;
    if fe.has_errors() {
        return Err(format!("the spec has errors ({})", fe.diagnostics.summary()));
    }
    options.validate()?;
    // Spec files by their names below the spec's project, not the current
    // directory: the same output from anywhere (`SourceFile::spec_name`).
    let sources = fe.sources.with_spec_names();
    let isa = fe.isa_with_spec_names();
    let mut files = gen_rust::generate_crate(&isa, options);
    let asm = asm::Assembler::new(&isa);
    let input = docs::DocsInput {
        isa: &isa,
        asm: &asm,
        examples: &checked.examples,
        diagnostics: &fe.diagnostics,
        sources: &sources,
    };
    files.extend(docs::generate(&input)?);
    Ok(output::with_manifest(files))
}

/// The generated API as one token stream (what the `isa!` macro expands to):
/// the same tokens as the files [`generate`] writes, with the submodules inline.
pub fn expand(fe: &Frontend) -> Option<proc_macro2::TokenStream> {
    if fe.has_errors() {
        return None;
    }
    Some(gen_rust::crate_tokens(&fe.isa).inline())
}
