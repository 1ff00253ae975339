// A spec of types alone (`spec/base/`, where a new ISA starts): an
// `Instruction` with no opcodes. Its methods matched `self` with no arms,
// which rustc refuses for a reference (E0004, seven times). It expands
// warning-free, as a crate that forbids the compiler's lints needs.
#![forbid(unused, dead_code, unreachable_patterns, missing_docs, deprecated)]
//! An ISA of types alone.

isa_macros::isa! {
    include "../spec/base";
    module base;
}

fn main() {
    assert!(base::OPCODE_NAMES.is_empty());
}
