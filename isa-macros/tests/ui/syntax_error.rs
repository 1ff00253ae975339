isa_macros::isa! {
    include "../spec/base/*.txt";
    include "tests/ui/specs/syntax_error.txt";
}

fn main() {}
