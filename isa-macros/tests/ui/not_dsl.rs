isa_macros::isa! {
    include "../spec/**/*.txt";
    include "tests/ui/specs/*.md";
}

fn main() {}
