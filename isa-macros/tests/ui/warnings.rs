// Spec warnings come as one `deprecated` warning at the include that
// brought in the first (denied here, so that the test sees it); `allow`
// keeps W018 (the missing simulation hook) out of it.
#![deny(deprecated)]

isa_macros::isa! {
    include "../spec/base/*.txt";
    include "tests/ui/specs/warning.txt";
    allow "W018";
}

fn main() {}
