//! `isa-codegen`: passes over the checked IR of `isa-dsl` and the library
//! behind the `isa-codegen` command line. Every front door (CLI, `isa!`
//! proc-macro, docs) goes through [`generate`], so there is one code path:
//!
//! ```text
//! isa_dsl::load(spec) -> Frontend -> generate(&frontend, &options) -> Files -> output::write_atomically
//! ```

pub mod asm;
pub mod dump;
pub mod examples;
pub mod gen_rust;
pub mod interp;
pub mod names;
pub mod output;
pub mod plan;

pub use isa_dsl::{load, Frontend};

/// `isa-codegen check`: the front end, then the passes that validate the spec
/// further (every `__Examples` line must assemble and round-trip). Returns the
/// frontend with all diagnostics, sorted, and the example counts.
pub fn check(paths: &[std::path::PathBuf]) -> (Frontend, examples::ExampleStats) {
    let mut fe = load(paths);
    let stats = if fe.has_errors() {
        examples::ExampleStats::default()
    } else {
        let asm = asm::Assembler::new(&fe.isa);
        let (_, diags, stats) = examples::check_examples(&asm);
        fe.diagnostics.extend(diags);
        fe.diagnostics.sort();
        stats
    };
    (fe, stats)
}

/// Options of the generator.
#[derive(Clone, Debug)]
pub struct Options {
    /// Package name of the generated crate.
    pub crate_name: String,
}

impl Default for Options {
    fn default() -> Self {
        Options { crate_name: "isa-generated".to_string() }
    }
}

/// Everything `isa-codegen SPEC -o DIR` writes, as (relative path, text).
/// Refuses (returns `None`) when the front end found errors.
pub fn generate(fe: &Frontend, options: &Options) -> Option<output::Files> {
    if fe.has_errors() {
        return None;
    }
    Some(gen_rust::generate_crate(&fe.isa, &options.crate_name))
}

/// The generated API as one token stream (what the `isa!` macro expands to):
/// the same tokens as the files [`generate`] writes, with the submodules inline.
pub fn expand(fe: &Frontend) -> Option<proc_macro2::TokenStream> {
    if fe.has_errors() {
        return None;
    }
    Some(gen_rust::crate_tokens(&fe.isa).inline())
}
