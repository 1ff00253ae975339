// `deny_warnings` makes spec warnings errors; `allow` lets codes pass
// (here the missing simulation hook, W018, but not the modifier no field
// encodes, W002).
isa_macros::isa! {
    include "../spec/base/*.txt";
    include "tests/ui/specs/warning.txt";
    deny_warnings;
    allow "W018";
}

fn main() {}
