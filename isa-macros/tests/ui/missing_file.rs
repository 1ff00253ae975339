isa_macros::isa! {
    include "tests/ui/specs/no_such_file.txt";
}

fn main() {}
