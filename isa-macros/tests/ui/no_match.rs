isa_macros::isa! {
    include "../spec/base/*.txt";
    include "tests/ui/specs/*.nothing";
}

fn main() {}
