//! Compile-time behaviour of `isa!`: passing crates (the seed ISA; an ISA whose
//! decode checks need one window per opcode; one whose texts are too long for
//! the printers' tables; one of types alone, and one with a field named like
//! a method), and the compile errors
//! for a missing file, a glob matching nothing, a spec syntax error, an
//! overlap error and a file that is not the DSL (`TRYBUILD=overwrite` refreshes the `.stderr` files).

#[test]
fn ui() {
    // trybuild compiles these files under target/; resolve includes from here.
    std::env::set_var("ISA_MACRO_ROOT", env!("CARGO_MANIFEST_DIR"));
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass.rs");
    t.pass("tests/ui/spread.rs");
    t.pass("tests/ui/long_text.rs");
    t.pass("tests/ui/base_only.rs");
    t.pass("tests/ui/one_opcode.rs");
    t.compile_fail("tests/ui/missing_file.rs");
    t.compile_fail("tests/ui/no_match.rs");
    t.compile_fail("tests/ui/syntax_error.rs");
    t.compile_fail("tests/ui/overlap.rs");
    t.compile_fail("tests/ui/not_dsl.rs");
    t.compile_fail("tests/ui/keyword_isa.rs");
    t.compile_fail("tests/ui/deny_warnings.rs");
    t.compile_fail("tests/ui/warnings.rs");
}
