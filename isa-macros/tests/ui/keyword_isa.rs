// An ISA named `Match` would expand into `mod match`: the error says to
// name the module.
isa_macros::isa! {
    include "../spec/base/enums.txt";
    include "../spec/base/operands.txt";
    include "../spec/base/formats.txt";
    include "tests/ui/specs/keyword/isa.txt";
}

fn main() {}
