//! `isa-codegen`: passes over the checked IR of `isa-dsl` and the library
//! behind the `isa-codegen` command line. Every front door (CLI, `isa!`
//! proc-macro, docs) goes through [`generate`], so there is one code path:
//!
//! ```text
//! isa_dsl::load(spec) -> Frontend -> generate(&frontend, &options) -> Files -> output::write_atomically
//! ```

pub mod dump;
pub mod gen_rust;
pub mod interp;
pub mod names;
pub mod output;
pub mod plan;

pub use isa_dsl::{load, Frontend};

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
