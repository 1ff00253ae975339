// An ISA of one opcode, in a crate that forbids the compiler's lints: its
// expansion had an unreachable `TryFrom` arm, an unused import, an unused
// parameter and printers of register files nothing prints. A field named
// like a method every opcode struct has (`execute`, the simulator's) gets
// the accessor `execute_field`; it clashed (E0592).
#![forbid(unused, unreachable_patterns, dead_code)]

isa_macros::isa! {
    include "../spec/base";
    include "tests/ui/specs/method_names.txt";
    module named;
}

fn main() {
    let i = named::XRUN_R::DEFAULT;
    assert_eq!(i.execute_field(), named::XFlag::ON);
    assert_eq!(named::Instruction::XRUN_R(i).to_string(), "XRUN R0");
}
