// The seed spec embedded inline: the same API as the generated crate.
// The expansion calls its macros by path: a caller's own `write!` and the
// like, defined before it, are not used in it (so they are unused).
#[allow(unused_macros)]
macro_rules! write { ($($t:tt)*) => { compile_error!("the caller's write! was used") } }
#[allow(unused_macros)]
macro_rules! format { ($($t:tt)*) => { compile_error!("the caller's format! was used") } }
#[allow(unused_macros)]
macro_rules! panic { ($($t:tt)*) => { compile_error!("the caller's panic! was used") } }
#[allow(unused_macros)]
macro_rules! concat { ($($t:tt)*) => { compile_error!("the caller's concat! was used") } }
#[allow(unused_macros)]
macro_rules! stringify { ($($t:tt)*) => { compile_error!("the caller's stringify! was used") } }
#[allow(unused_macros)]
macro_rules! format_args { ($($t:tt)*) => { compile_error!("the caller's format_args! was used") } }

// A directory reads its spec files; a file matched again, by another glob
// or spelling, is read once.
isa_macros::isa! {
    include "../spec/**/*.txt";
    include "../spec/base";
    include "../spec/../spec/base/isa.txt";
    module gpu;
}

fn main() {
    let i = gpu::IADD_RR::DEFAULT.with_rd(gpu::Reg::new(1).unwrap());
    let w = i.encode().unwrap();
    assert_eq!(w & 0xFF, 0x30);
    assert_eq!(gpu::Instruction::decode(w).unwrap(), gpu::Instruction::IADD_RR(i));
}
