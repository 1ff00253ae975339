//! `isa-codegen`: passes over the checked IR of `isa-dsl` and the library
//! behind the `isa-codegen` command line. Every front door (CLI, `isa!`
//! proc-macro, docs) goes through the functions here.

pub mod dump;

pub use isa_dsl::{load, Frontend};
